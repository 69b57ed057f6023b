-- students / courses / enrollments (as in benchmarks/floor/students.sql). Student names and course
-- titles are not unique; an enrollment is keyed on (student, course): a course is taken once.
CREATE TABLE students (
    student_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    major TEXT,
    age INTEGER,
    gpa DOUBLE,
    city TEXT
);
CREATE TABLE courses (
    course_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    dept TEXT,
    credits INTEGER
);
CREATE TABLE enrollments (
    student_id INTEGER NOT NULL,
    course_id INTEGER NOT NULL,
    grade INTEGER,
    semester TEXT,
    PRIMARY KEY (student_id, course_id),
    FOREIGN KEY (student_id) REFERENCES students (student_id),
    FOREIGN KEY (course_id) REFERENCES courses (course_id)
);
