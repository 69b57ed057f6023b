-- flights / airports / airlines. Airport and airline names and cities are not unique.
CREATE TABLE airports (
    code TEXT NOT NULL PRIMARY KEY,
    name TEXT,
    city TEXT,
    country TEXT
);
CREATE TABLE airlines (
    airline_id INTEGER PRIMARY KEY,
    name TEXT,
    abbreviation TEXT,
    country TEXT
);
CREATE TABLE flights (
    flight_id INTEGER PRIMARY KEY,
    airline_id INTEGER,
    flight_no INTEGER,
    source TEXT,
    dest TEXT,
    departure TIMESTAMP,
    duration INTEGER,
    price DOUBLE,
    FOREIGN KEY (airline_id) REFERENCES airlines (airline_id),
    FOREIGN KEY (source) REFERENCES airports (code),
    FOREIGN KEY (dest) REFERENCES airports (code)
);
