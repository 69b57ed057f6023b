-- Spider-like pets_1 and dorm_1: students, their pets, dorms. Student names nullable and
-- not unique; dorm_name is UNIQUE NOT NULL; pets.weight and lives_in.room_number nullable.
CREATE TABLE student (
  stu_id        INTEGER PRIMARY KEY,
  lname         VARCHAR,
  fname         VARCHAR,
  age           INTEGER,
  sex           VARCHAR,
  city_code     VARCHAR
);

CREATE TABLE pets (
  pet_id        INTEGER PRIMARY KEY,
  pet_type      VARCHAR,
  pet_age       INTEGER,
  weight        DOUBLE
);

CREATE TABLE has_pet (
  stu_id        INTEGER NOT NULL REFERENCES student (stu_id),
  pet_id        INTEGER NOT NULL REFERENCES pets (pet_id)
);

CREATE TABLE dorm (
  dorm_id           INTEGER PRIMARY KEY,
  dorm_name         VARCHAR UNIQUE NOT NULL,
  student_capacity  INTEGER,
  gender            VARCHAR
);

CREATE TABLE lives_in (
  stu_id        INTEGER NOT NULL REFERENCES student (stu_id),
  dorm_id       INTEGER NOT NULL REFERENCES dorm (dorm_id),
  room_number   INTEGER
);
