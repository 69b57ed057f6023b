-- Spider concert_singer-like. concert.year and singer.song_release_year are TEXT, as in Spider.
CREATE TABLE stadium (
    stadium_id INTEGER PRIMARY KEY,
    name TEXT,
    location TEXT,
    capacity INTEGER,
    highest INTEGER,
    lowest INTEGER,
    average INTEGER
);
CREATE TABLE singer (
    singer_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    country TEXT,
    song_name TEXT,
    song_release_year TEXT,
    age INTEGER,
    is_male BOOLEAN
);
CREATE TABLE concert (
    concert_id INTEGER PRIMARY KEY,
    concert_name TEXT,
    theme TEXT,
    stadium_id INTEGER,
    year TEXT,
    FOREIGN KEY (stadium_id) REFERENCES stadium (stadium_id)
);
CREATE TABLE singer_in_concert (
    concert_id INTEGER NOT NULL,
    singer_id INTEGER NOT NULL,
    PRIMARY KEY (concert_id, singer_id),
    FOREIGN KEY (concert_id) REFERENCES concert (concert_id),
    FOREIGN KEY (singer_id) REFERENCES singer (singer_id)
);
