-- A Spider-like flight_2 with times: airlines, airports, flights. flights.airline is a
-- NOT NULL FOREIGN KEY; departs_at a NOT NULL TIMESTAMP; price nullable; booked_on is a
-- date kept as TEXT, as Spider databases often do.
CREATE TABLE airlines (
  uid           INTEGER PRIMARY KEY,
  airline       VARCHAR,
  abbreviation  VARCHAR,
  country       VARCHAR
);

CREATE TABLE airports (
  airport_code  VARCHAR PRIMARY KEY,
  airport_name  VARCHAR,
  city          VARCHAR,
  country       VARCHAR
);

CREATE TABLE flights (
  flight_id       INTEGER PRIMARY KEY,
  airline         INTEGER NOT NULL REFERENCES airlines (uid),
  flight_no       INTEGER,
  source_airport  VARCHAR REFERENCES airports (airport_code),
  dest_airport    VARCHAR REFERENCES airports (airport_code),
  departs_at      TIMESTAMP NOT NULL,
  flight_date     DATE,
  price           DECIMAL(10, 2),
  booked_on       VARCHAR
);
