# Pairs whose truth is MySQL's: name case, ONLY_FULL_GROUP_BY with functional
# dependence, GROUP BY name resolution and implicit casts (issue 16). Each rule has an
# equivalent pair that needs it and a near miss that must be refuted.
# schema: leetcode
# dialect: mysql

# title: column and table names resolve in any case
# expect: equivalent
# method: normalized
SELECT EMAIL FROM PERSON WHERE ID > 3;
SELECT email FROM person WHERE id > 3;

# title: a name in another case is still the same column, near miss on the filter
# expect: not_equivalent
SELECT EMAIL FROM PERSON WHERE ID > 3;
SELECT email FROM Person WHERE id >= 3;

# title: a column determined by the grouped primary key may be selected
# expect: equivalent
# note: MySQL accepts e.name under GROUP BY e.id (functional dependence on the key)
SELECT e.name, COUNT(*) FROM employee e JOIN employee r ON r.managerid = e.id GROUP BY e.id;
SELECT e.name, COUNT(*) FROM employee e JOIN employee r ON r.managerid = e.id GROUP BY e.id, e.name;

# title: a column determined by the grouped key, near miss counting other rows
# expect: not_equivalent
SELECT e.name, COUNT(*) FROM employee e JOIN employee r ON r.managerid = e.id GROUP BY e.id;
SELECT e.name, COUNT(*) FROM employee e LEFT JOIN employee r ON r.managerid = e.id GROUP BY e.id, e.name;

# title: a column determined through an equality join on the grouped column
# expect: equivalent
# note: d.id = e.departmentid and d.id is DEPARTMENT's key, so e.departmentid determines d.name
SELECT d.name, SUM(e.salary) FROM employee e JOIN department d ON e.departmentid = d.id GROUP BY e.departmentid;
SELECT d.name, SUM(e.salary) FROM employee e JOIN department d ON e.departmentid = d.id GROUP BY d.id, d.name;

# title: a column the grouped columns do not determine is refused as MySQL refuses it
# expect: error
# kind: only_full_group_by
SELECT e.name, MAX(e.salary) FROM employee e GROUP BY e.departmentid;
SELECT MAX(e.salary) FROM employee e GROUP BY e.departmentid;

# title: a bare column next to an aggregate without GROUP BY is refused
# expect: error
# kind: only_full_group_by
SELECT name, MAX(salary) FROM employee;
SELECT MAX(salary) FROM employee;

# title: a GROUP BY name ambiguous in FROM is the select-list column
# expect: equivalent
# note: MySQL's manual: GROUP BY searches FROM first; FROM holds name twice, so the select-list d.name is used
SELECT d.name, COUNT(*) FROM employee e JOIN department d ON e.departmentid = d.id GROUP BY name;
SELECT d.name, COUNT(*) FROM employee e JOIN department d ON e.departmentid = d.id GROUP BY d.name;

# title: a GROUP BY name that is both a column and an alias is the column
# expect: not_equivalent
# note: "For GROUP BY or HAVING clauses, it searches the FROM clause before searching in the select_expr values"
SELECT LENGTH(name) AS name, COUNT(*) FROM employee GROUP BY name;
SELECT LENGTH(name) AS name, COUNT(*) FROM employee GROUP BY LENGTH(name);

# title: a date string minus an interval is a date
# expect: equivalent
SELECT id FROM weather WHERE recorddate = '2019-07-05' - INTERVAL 1 DAY;
SELECT id FROM weather WHERE recorddate = DATE_SUB('2019-07-05', INTERVAL 1 DAY);

# title: a date string minus an interval, near miss on the day
# expect: not_equivalent
SELECT id FROM weather WHERE recorddate = '2019-07-05' - INTERVAL 1 DAY;
SELECT id FROM weather WHERE recorddate = '2019-07-05';

# title: DATEDIFF against a string is the number of days
# expect: equivalent
SELECT id FROM weather WHERE DATEDIFF('2019-07-05', recorddate) = 1;
SELECT id FROM weather WHERE recorddate = '2019-07-04';

# title: a date minus a date is a difference of YYYYMMDD numbers, not of days
# expect: not_equivalent
# note: 2019-02-01 - 2019-01-31 is 20190201 - 20190131 = 70 in MySQL
SELECT w1.id FROM weather w1 JOIN weather w2 ON w1.recorddate - w2.recorddate = 1 WHERE w2.recorddate >= '2019-01-31';
SELECT w1.id FROM weather w1 JOIN weather w2 ON DATEDIFF(w1.recorddate, w2.recorddate) = 1 WHERE w2.recorddate >= '2019-01-31';

# title: a date plus one is a number
# expect: equivalent
SELECT id, recorddate + 1 FROM weather;
SELECT id, CAST(DATE_FORMAT(recorddate, '%Y%m%d') AS SIGNED) + 1 FROM weather;

# title: CASE mixing a string and FALSE returns strings
# expect: equivalent
SELECT id, CASE WHEN salary > 100 THEN 'TRUE' ELSE FALSE END FROM employee;
SELECT id, IF(salary > 100, 'TRUE', '0') FROM employee;

# title: CASE mixing a string and FALSE is not a boolean
# expect: not_equivalent
SELECT id, CASE WHEN salary > 100 THEN 'TRUE' ELSE FALSE END FROM employee;
SELECT id, IF(salary > 100, 'TRUE', 'FALSE') FROM employee;

# title: TIMESTAMPDIFF in days over date strings
# expect: equivalent
SELECT id FROM orders WHERE TIMESTAMPDIFF(DAY, '2019-07-01', order_date) < 7;
SELECT id FROM orders WHERE DATEDIFF(order_date, '2019-07-01') < 7;

# title: DIV truncates, / does not
# expect: not_equivalent
SELECT id, salary DIV 2 FROM employee;
SELECT id, salary / 2 FROM employee;

# title: rising temperature by DATEDIFF and by DATE_ADD
# expect: equivalent
# method: symbolic
# note: LeetCode 197; DuckDB runs DATE_ADD(d, INTERVAL 1 DAY) as d + INTERVAL '1' DAY
SELECT w1.id FROM Weather w1 JOIN Weather w2 ON DATEDIFF(w1.recordDate, w2.recordDate) = 1 WHERE w1.temperature > w2.temperature;
SELECT w1.id FROM Weather w1 JOIN Weather w2 ON w1.recordDate = DATE_ADD(w2.recordDate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature;

# title: rising temperature by DATE_SUB and by DATE_ADD
# expect: equivalent
# method: symbolic
SELECT w1.id FROM Weather w1 JOIN Weather w2 ON DATE_SUB(w1.recordDate, INTERVAL 1 DAY) = w2.recordDate WHERE w1.temperature > w2.temperature;
SELECT w1.id FROM Weather w1 JOIN Weather w2 ON w1.recordDate = DATE_ADD(w2.recordDate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature;

# title: rising temperature over two days is another question
# expect: not_equivalent
# note: near miss: a day with no reading the day before but one two days before
SELECT w1.id FROM Weather w1 JOIN Weather w2 ON DATEDIFF(w1.recordDate, w2.recordDate) = 1 WHERE w1.temperature > w2.temperature;
SELECT w1.id FROM Weather w1 JOIN Weather w2 ON w1.recordDate = DATE_ADD(w2.recordDate, INTERVAL 2 DAY) WHERE w1.temperature > w2.temperature;
