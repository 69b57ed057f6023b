-- Product analytics: users and the events they emit. value is NULL for events
-- that carry no measurement (a page view has no value, a purchase has one).
CREATE TABLE users (
  user_id     INTEGER PRIMARY KEY,
  country     VARCHAR,
  signup_date DATE NOT NULL
);

CREATE TABLE events (
  event_id    INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users (user_id),
  kind        VARCHAR NOT NULL,
  ts          TIMESTAMP NOT NULL,
  value       DOUBLE
);
