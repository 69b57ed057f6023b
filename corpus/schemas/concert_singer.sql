-- A Spider-like concert_singer: stadiums, singers, concerts and who sang where.
-- Names nullable and not unique; concert.stadium_id is a nullable FOREIGN KEY;
-- singer_in_concert has both columns NOT NULL with FOREIGN KEYs.
CREATE TABLE stadium (
  stadium_id    INTEGER PRIMARY KEY,
  name          VARCHAR,
  location      VARCHAR,
  capacity      INTEGER
);

CREATE TABLE singer (
  singer_id     INTEGER PRIMARY KEY,
  name          VARCHAR,
  country       VARCHAR,
  age           INTEGER,
  is_male       BOOLEAN
);

CREATE TABLE concert (
  concert_id    INTEGER PRIMARY KEY,
  concert_name  VARCHAR,
  theme         VARCHAR,
  stadium_id    INTEGER REFERENCES stadium (stadium_id),
  year          VARCHAR
);

CREATE TABLE singer_in_concert (
  concert_id    INTEGER NOT NULL REFERENCES concert (concert_id),
  singer_id     INTEGER NOT NULL REFERENCES singer (singer_id),
  PRIMARY KEY (concert_id, singer_id)
);
