-- A Spider-shaped SQLite schema (after car_1 and singer): numbers stored in TEXT
-- columns, as in the benchmark's databases. Used with `# dialect: sqlite`.
CREATE TABLE car_makers (
    id INTEGER PRIMARY KEY,
    maker TEXT,
    fullname TEXT,
    country TEXT
);
CREATE TABLE cars_data (
    id INTEGER PRIMARY KEY,
    maker_id INTEGER REFERENCES car_makers (id),
    mpg TEXT,
    horsepower TEXT,
    weight INTEGER,
    year INTEGER
);
CREATE TABLE singer (
    singer_id INTEGER PRIMARY KEY,
    name TEXT,
    country TEXT,
    age INTEGER,
    is_male TEXT
);
