-- Small tables for regression cases found by the benchmarks.
CREATE TABLE flags (
  id INTEGER PRIMARY KEY,
  level TINYINT,
  score INTEGER
);
CREATE TABLE depts (
  dept INTEGER PRIMARY KEY,
  dname VARCHAR
);
CREATE TABLE people (
  id INTEGER PRIMARY KEY,
  dept INTEGER REFERENCES depts (dept),
  name VARCHAR
);
CREATE TABLE edges (
  id INTEGER PRIMARY KEY,
  d  DATE,
  ts TIMESTAMP,
  n  DECIMAL(10, 2)
);
CREATE TABLE codes (
  id   INTEGER PRIMARY KEY,
  code VARCHAR CHECK (CAST(code AS INTEGER) > 0)
);
CREATE TABLE tags (
  id    INTEGER PRIMARY KEY,
  label VARCHAR NOT NULL CHECK (label NOT LIKE 'x%')
);
