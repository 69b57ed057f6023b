-- Spider's car_1 and museum_visit as declared: join columns of mismatched types and no
-- FOREIGN KEY between them. car_makers.country is TEXT, countries.countryid INTEGER
-- (Spider writes 'INTEGER' or leaves it NUMERIC); visit.visitor_id is TEXT, visitor.id
-- INTEGER. On SQLite '1' = 1 is true across such a join (the TEXT operand takes the
-- INTEGER column's numeric affinity); only numeric-looking text meets a number.
CREATE TABLE continents (
    contid INTEGER PRIMARY KEY,
    continent TEXT
);
CREATE TABLE countries (
    countryid INTEGER PRIMARY KEY,
    countryname TEXT,
    continent INTEGER
);
CREATE TABLE car_makers (
    id INTEGER PRIMARY KEY,
    maker TEXT,
    fullname TEXT,
    country TEXT
);
CREATE TABLE museum (
    museum_id INTEGER PRIMARY KEY,
    name TEXT,
    num_of_staff INTEGER,
    open_year TEXT
);
CREATE TABLE visitor (
    id INTEGER PRIMARY KEY,
    name TEXT,
    level_of_membership INTEGER,
    age INTEGER
);
CREATE TABLE visit (
    museum_id INTEGER,
    visitor_id TEXT,
    num_of_ticket INTEGER,
    total_spent REAL,
    PRIMARY KEY (museum_id, visitor_id)
);
