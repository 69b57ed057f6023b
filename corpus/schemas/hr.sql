-- The classic emp/dept pair. The president has no manager (mgr IS NULL), an employee
-- may not be assigned to a department yet (deptno IS NULL), comm is NULL for most.
CREATE TABLE dept (
  deptno      INTEGER PRIMARY KEY,
  dname       VARCHAR NOT NULL UNIQUE,
  loc         VARCHAR
);

CREATE TABLE emp (
  empno       INTEGER PRIMARY KEY,
  ename       VARCHAR NOT NULL,
  job         VARCHAR,
  mgr         INTEGER REFERENCES emp (empno),
  hiredate    DATE,
  sal         DECIMAL(10, 2) NOT NULL CHECK (sal > 0),
  comm        DECIMAL(10, 2) CHECK (comm >= 0),
  deptno      INTEGER REFERENCES dept (deptno)
);
