-- Students, courses and enrollments. A grade is NULL until the course is graded;
-- a student may take the same course again in a later term.
CREATE TABLE students (
  student_id  INTEGER PRIMARY KEY,
  name        VARCHAR NOT NULL,
  email       VARCHAR UNIQUE,
  year        INTEGER CHECK (year BETWEEN 1 AND 4)
);

CREATE TABLE courses (
  course_id   INTEGER PRIMARY KEY,
  title       VARCHAR NOT NULL,
  dept        VARCHAR NOT NULL,
  credits     INTEGER NOT NULL CHECK (credits > 0)
);

CREATE TABLE enrollments (
  student_id  INTEGER NOT NULL REFERENCES students (student_id),
  course_id   INTEGER NOT NULL REFERENCES courses (course_id),
  term        VARCHAR NOT NULL,
  grade       INTEGER CHECK (grade BETWEEN 0 AND 100),
  PRIMARY KEY (student_id, course_id, term)
);
