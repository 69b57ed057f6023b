-- A Spider-like world_1 (country, city, countrylanguage). Keys where Spider has them;
-- names are nullable and not unique. city.country_code is a nullable FOREIGN KEY.
CREATE TABLE country (
  code          VARCHAR PRIMARY KEY,
  name          VARCHAR,
  continent     VARCHAR,
  region        VARCHAR,
  surface_area  DOUBLE,
  indep_year    INTEGER,
  population    INTEGER
);

CREATE TABLE city (
  id            INTEGER PRIMARY KEY,
  name          VARCHAR,
  country_code  VARCHAR REFERENCES country (code),
  district      VARCHAR,
  population    INTEGER NOT NULL
);

CREATE TABLE countrylanguage (
  country_code  VARCHAR NOT NULL REFERENCES country (code),
  language      VARCHAR NOT NULL,
  is_official   VARCHAR,
  percentage    DOUBLE,
  PRIMARY KEY (country_code, language)
);
