-- BIRD-shaped tables (after thrombosis_prediction, formula_1 and financial) whose real
-- predictions leave a row to the engine's choice: a scalar subquery over a birthday two
-- patients share, bare columns beside SUM, a LIMIT inside a subquery over tied values.
-- Used with `# dialect: sqlite` (and duckdb for DuckDB's own picking aggregates).
CREATE TABLE patient (
    id INTEGER PRIMARY KEY,
    sex TEXT,
    birthday DATE
);
CREATE TABLE laboratory (
    lab_id INTEGER PRIMARY KEY,
    id INTEGER NOT NULL REFERENCES patient (id),
    got INTEGER
);
CREATE TABLE drivers (
    driverid INTEGER PRIMARY KEY,
    forename TEXT NOT NULL,
    surname TEXT NOT NULL
);
CREATE TABLE driverstandings (
    driverstandingsid INTEGER PRIMARY KEY,
    driverid INTEGER NOT NULL REFERENCES drivers (driverid),
    wins INTEGER NOT NULL
);
CREATE TABLE district (
    district_id INTEGER PRIMARY KEY,
    a2 TEXT,
    a15 INTEGER
);
CREATE TABLE account (
    account_id INTEGER PRIMARY KEY,
    district_id INTEGER NOT NULL REFERENCES district (district_id)
);
