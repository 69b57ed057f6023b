# Calcite's SQL (the Calcite benchmark pairs of VeriEQL and SQLSolver) and Spark's, where
# DuckDB spells the same thing differently. Each pair was refused before the guard
# translated the construct with its source meaning; the errors are constructs that have
# no single meaning and stay refused, now by name.
# schema: hr
# dialect: trino

# title: Calcite's generated column names are names, not query parameters
# expect: equivalent
# note: $f1 is the alias Calcite gives COUNT(*); DuckDB would read an unquoted $f1 as a parameter
SELECT t.deptno FROM (SELECT deptno, COUNT(*) AS $f1 FROM emp GROUP BY deptno) AS t WHERE t.$f1 > 1;
SELECT deptno FROM emp GROUP BY deptno HAVING COUNT(*) > 1;

# title: a generated name in a HAVING threshold that differs
# expect: not_equivalent
# note: a department with exactly one employee is kept by the candidate only
SELECT t.deptno FROM (SELECT deptno, COUNT(*) AS $f1 FROM emp GROUP BY deptno) AS t WHERE t.$f1 >= 1;
SELECT deptno FROM emp GROUP BY deptno HAVING COUNT(*) > 1;

# title: Calcite names the columns of VALUES EXPR$0, EXPR$1
# expect: equivalent
# method: constant
# note: sqlsolver_calcite_18
SELECT t.EXPR$0 + t.EXPR$1 FROM (VALUES (10, 1), (20, 3)) AS t;
SELECT * FROM (VALUES (11), (23)) AS t1;

# title: COUNT of two arguments counts the rows where both are non-NULL
# expect: equivalent
# method: normalized
# note: Calcite's and Spark's COUNT(a, b)
SELECT deptno, COUNT(job, comm) AS n FROM emp GROUP BY deptno;
SELECT deptno, COUNT(CASE WHEN job IS NOT NULL AND comm IS NOT NULL THEN 1 END) AS n FROM emp GROUP BY deptno;

# title: COUNT of two arguments is not COUNT of the first
# expect: not_equivalent
# cause: same_keys_different_values
# note: an employee with a job and no commission counts in COUNT(job) only
SELECT deptno, COUNT(job, comm) FROM emp GROUP BY deptno;
SELECT deptno, COUNT(job) FROM emp GROUP BY deptno;

# title: COUNT DISTINCT of two arguments over Calcite's grouped rewrite
# expect: equivalent
# note: verieql_calcite_34 and _277 in small; distinct (job, ename) pairs with neither NULL
SELECT deptno, COUNT(DISTINCT job, ename) FROM emp GROUP BY deptno;
SELECT deptno, COUNT(job, ename) AS EXPR$1 FROM (SELECT deptno, job, ename FROM emp GROUP BY deptno, job, ename) AS t GROUP BY deptno;

# title: Spark ORDER BY a string constant has no effect
# dialect: spark
# expect: equivalent
# method: normalized
# note: sqlsolver_spark_72; DuckDB refuses ORDER BY 'a', Spark sorts by a constant
SELECT emp.empno FROM emp ORDER BY 'a';
SELECT emp.empno FROM emp;

# title: Spark POSITIVE of a number is the number
# dialect: spark
# expect: equivalent
# method: normalized
# note: sqlsolver_spark_44
SELECT POSITIVE(deptno) FROM dept;
SELECT deptno FROM dept;

# title: SINGLE_VALUE over at most one row is the value
# expect: equivalent
# note: empno is the key, so the group has at most one row and SINGLE_VALUE never fails; no row gives NULL like MAX
SELECT SINGLE_VALUE(sal) AS $f0 FROM emp WHERE empno = 7;
SELECT MAX(sal) FROM emp WHERE empno = 7;

# title: SINGLE_VALUE of another row differs
# expect: not_equivalent
SELECT SINGLE_VALUE(sal) FROM emp WHERE empno = 7;
SELECT SINGLE_VALUE(sal) FROM emp WHERE empno = 8;

# title: Calcite's SINGLE_VALUE join for a scalar subquery
# expect: equivalent
# note: sqlsolver_calcite_205; both fail when two employees have empno < 20, and agree otherwise
SELECT empno, (SELECT deptno FROM emp WHERE empno < 20) AS d FROM emp;
SELECT e.empno, t4.$f0 AS d FROM emp AS e LEFT JOIN (SELECT SINGLE_VALUE(deptno) AS $f0 FROM emp WHERE empno < 20) AS t4 ON TRUE;

# title: GROUP BY a constant is one group, and no group on an empty table
# expect: not_equivalent
# note: on an empty emp the candidate returns no row, the aggregate without GROUP BY returns 0
SELECT COUNT(*) FROM emp GROUP BY 'a';
SELECT COUNT(*) FROM emp;

# title: an uninterpreted predicate is refused by name
# expect: error
# kind: unknown_function
# note: verieql_literature_10; it used to be reported as an unknown column U
SELECT DISTINCT x.empno FROM emp x, dept u WHERE x.deptno = u.deptno AND B1(u);
SELECT DISTINCT x.empno FROM emp x, dept u WHERE x.deptno = u.deptno AND B1(u);

# title: Calcite's star as a value is refused
# expect: error
# kind: unsupported
# note: verieql_calcite_98; "WHERE * = t2.deptno" has no meaning in SQL
SELECT dname FROM dept WHERE EXISTS (SELECT 1 FROM emp AS t2 WHERE * = t2.deptno);
SELECT dname FROM dept WHERE deptno IN (SELECT deptno FROM emp);

# title: a GROUP BY position out of range is refused
# expect: error
# kind: unsupported
# note: sqlsolver_calcite_117; an ordinal in Trino, a constant in Calcite
SELECT deptno, MAX(mgr) FROM emp GROUP BY deptno, 4;
SELECT deptno, MAX(mgr) FROM emp GROUP BY deptno;

# title: Spark CASE over a number and a string column is refused
# dialect: spark
# expect: error
# kind: unsupported
# note: sqlsolver_spark_29; Spark makes the result a string (or not, under ANSI), DuckDB refuses it
SELECT CASE WHEN 2 > 1 THEN deptno ELSE dname END FROM dept;
SELECT deptno FROM dept;

# title: Calcite's correlation name over a column of the lateral subquery is refused
# expect: error
# kind: unknown_column
# note: verieql_calcite_318; $f0 is a column of t1, not of the table $cor0 names
SELECT $cor0.empno FROM emp AS $cor0, LATERAL (SELECT MIN(TRUE) AS $f0 FROM dept WHERE $cor0.deptno = deptno) AS t1 WHERE $cor0.$f0 IS NOT NULL;
SELECT empno FROM emp WHERE deptno IN (SELECT deptno FROM dept);

# title: Calcite's SINGLE_VALUE derived table is the scalar subquery it decorrelates
# expect: equivalent
# method: normalized
# note: sqlsolver_calcite_205; a one-row derived table LEFT JOINed ON TRUE is a cross join
SELECT e.empno, (SELECT e2.deptno FROM emp e2 WHERE e2.empno < 20) AS d FROM emp e;
SELECT e.empno, t.$f0 AS d FROM emp e LEFT JOIN (SELECT SINGLE_VALUE(e2.deptno) AS $f0 FROM emp e2 WHERE e2.empno < 20) AS t ON TRUE;

# title: Calcite's spelled-out IN over a nullable probe is the IN
# expect: equivalent
# method: normalized
# note: sqlsolver_calcite_207; counts c and ck, a match flag i, and the three-valued CASE
SELECT empno, deptno IN (SELECT d.deptno FROM dept d WHERE d.loc = 'x') FROM emp;
SELECT e.empno, CASE WHEN t.c = 0 THEN FALSE WHEN e.deptno IS NULL THEN NULL WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM emp e CROSS JOIN (SELECT COUNT(*) AS c, COUNT(d.deptno) AS ck FROM dept d WHERE d.loc = 'x') AS t LEFT JOIN (SELECT d.deptno AS k, TRUE AS i FROM dept d WHERE d.loc = 'x' GROUP BY d.deptno, TRUE) AS u ON e.deptno = u.k;

# title: the spelled-out IN without its NULL branch is not the IN over a nullable probe
# expect: not_equivalent
# note: an employee without a department: the IN is NULL when some department is in 'x', the CASE says FALSE
SELECT empno, deptno IN (SELECT d.deptno FROM dept d WHERE d.loc = 'x') FROM emp;
SELECT e.empno, CASE WHEN t.c = 0 THEN FALSE WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM emp e CROSS JOIN (SELECT COUNT(*) AS c, COUNT(d.deptno) AS ck FROM dept d WHERE d.loc = 'x') AS t LEFT JOIN (SELECT d.deptno AS k, TRUE AS i FROM dept d WHERE d.loc = 'x' GROUP BY d.deptno, TRUE) AS u ON e.deptno = u.k;

# title: Calcite's INTERSECT by counting branches is the INTERSECT
# expect: equivalent
# method: normalized
# note: sqlsolver_calcite_2; each branch is distinct, so COUNT(*) = 2 keeps the names both return
SELECT ename FROM emp WHERE deptno = 10 INTERSECT SELECT ename FROM emp WHERE sal > 100;
SELECT t.ename FROM (SELECT ename, COUNT(*) AS $f1 FROM emp WHERE deptno = 10 GROUP BY ename UNION ALL SELECT ename, COUNT(*) AS $f1 FROM emp WHERE sal > 100 GROUP BY ename) AS t GROUP BY t.ename HAVING COUNT(*) = 2;

# title: counting rows of branches that repeat is not their INTERSECT
# expect: not_equivalent
# note: two employees named alike in department 10 make a count of 2 from one branch
SELECT ename FROM emp WHERE deptno = 10 INTERSECT SELECT ename FROM emp WHERE sal > 100;
SELECT t.ename FROM (SELECT ename FROM emp WHERE deptno = 10 UNION ALL SELECT ename FROM emp WHERE sal > 100) AS t GROUP BY t.ename HAVING COUNT(*) = 2;
