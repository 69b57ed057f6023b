-- employees / departments / salaries. last_name and dept_name are not unique.
CREATE TABLE departments (
    dept_id INTEGER PRIMARY KEY,
    dept_name TEXT NOT NULL,
    location TEXT,
    budget DOUBLE
);
CREATE TABLE employees (
    emp_id INTEGER PRIMARY KEY,
    first_name TEXT,
    last_name TEXT NOT NULL,
    dept_id INTEGER,
    manager_id INTEGER,
    hire_date DATE,
    salary INTEGER,
    commission DOUBLE,
    FOREIGN KEY (dept_id) REFERENCES departments (dept_id)
);
CREATE TABLE salaries (
    emp_id INTEGER NOT NULL,
    from_date DATE NOT NULL,
    to_date DATE,
    amount INTEGER NOT NULL,
    PRIMARY KEY (emp_id, from_date),
    FOREIGN KEY (emp_id) REFERENCES employees (emp_id)
);
