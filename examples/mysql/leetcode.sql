# LeetCode-style MySQL answer pairs: for each problem, the reference (second query of a
# pair) is an accepted answer and the candidate (first) another answer, correct or wrong,
# written as people write them (names in any case, MySQL's GROUP BY and date functions).
# tests/test_mysql_examples.py checks them all and counts the verdicts.
# schema: leetcode
# dialect: mysql

# title: second highest salary, LIMIT OFFSET vs MAX below MAX
# expect: equivalent
SELECT (SELECT DISTINCT Salary FROM Employee ORDER BY Salary DESC LIMIT 1 OFFSET 1) AS SecondHighestSalary;
SELECT MAX(salary) AS SecondHighestSalary FROM employee WHERE salary < (SELECT MAX(salary) FROM employee);

# title: second highest salary without DISTINCT repeats the top salary
# expect: not_equivalent
SELECT (SELECT Salary FROM Employee ORDER BY Salary DESC LIMIT 1 OFFSET 1) AS SecondHighestSalary;
SELECT MAX(salary) AS SecondHighestSalary FROM employee WHERE salary < (SELECT MAX(salary) FROM employee);

# title: second highest salary without the outer SELECT returns no row instead of NULL
# expect: not_equivalent
SELECT DISTINCT salary AS SecondHighestSalary FROM employee ORDER BY salary DESC LIMIT 1 OFFSET 1;
SELECT MAX(salary) AS SecondHighestSalary FROM employee WHERE salary < (SELECT MAX(salary) FROM employee);

# title: second highest salary with NOT IN the maximum
# expect: equivalent
SELECT MAX(Salary) SecondHighestSalary FROM Employee WHERE Salary NOT IN (SELECT MAX(Salary) FROM Employee);
SELECT MAX(salary) AS SecondHighestSalary FROM employee WHERE salary < (SELECT MAX(salary) FROM employee);

# title: employees earning more than their managers, self join vs subquery
# expect: equivalent
SELECT a.Name AS Employee FROM Employee a JOIN Employee b ON a.ManagerId = b.Id WHERE a.Salary > b.Salary;
SELECT e.name AS Employee FROM employee e WHERE e.salary > (SELECT m.salary FROM employee m WHERE m.id = e.managerid);

# title: employees earning more than their managers, >= lets equal salaries through
# expect: not_equivalent
SELECT a.Name AS Employee FROM Employee a JOIN Employee b ON a.ManagerId = b.Id WHERE a.Salary >= b.Salary;
SELECT e.name AS Employee FROM employee e WHERE e.salary > (SELECT m.salary FROM employee m WHERE m.id = e.managerid);

# title: duplicate emails with GROUP BY HAVING vs self join
# expect: equivalent
SELECT Email FROM Person GROUP BY Email HAVING COUNT(*) > 1;
SELECT DISTINCT p1.email FROM person p1 JOIN person p2 ON p1.email = p2.email AND p1.id <> p2.id;

# title: duplicate emails, HAVING alias
# expect: equivalent
SELECT email, COUNT(*) AS c FROM person GROUP BY email HAVING c > 1;
SELECT email, COUNT(email) FROM person GROUP BY email HAVING COUNT(email) > 1;

# title: duplicate emails, self join without DISTINCT repeats them
# expect: not_equivalent
SELECT p1.email FROM person p1 JOIN person p2 ON p1.email = p2.email AND p1.id <> p2.id;
SELECT Email FROM Person GROUP BY Email HAVING COUNT(*) > 1;

# title: customers who never order, NOT IN vs LEFT JOIN IS NULL
# expect: equivalent
SELECT Name AS Customers FROM Customers WHERE Id NOT IN (SELECT CustomerId FROM Orders);
SELECT c.name AS Customers FROM customers c LEFT JOIN orders o ON o.customerid = c.id WHERE o.id IS NULL;

# title: customers who never order, NOT EXISTS
# expect: equivalent
SELECT c.Name AS Customers FROM Customers c WHERE NOT EXISTS (SELECT 1 FROM Orders o WHERE o.CustomerId = c.Id);
SELECT c.name AS Customers FROM customers c LEFT JOIN orders o ON o.customerid = c.id WHERE o.id IS NULL;

# title: customers who never order, inner join returns those who do
# expect: not_equivalent
SELECT DISTINCT c.Name AS Customers FROM Customers c JOIN Orders o ON o.CustomerId <> c.Id;
SELECT c.name AS Customers FROM customers c LEFT JOIN orders o ON o.customerid = c.id WHERE o.id IS NULL;

# title: department highest salary, IN with a grouped subquery
# expect: equivalent
SELECT d.Name AS Department, e.Name AS Employee, e.Salary FROM Employee e JOIN Department d ON e.DepartmentId = d.Id WHERE (e.DepartmentId, e.Salary) IN (SELECT DepartmentId, MAX(Salary) FROM Employee GROUP BY DepartmentId);
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id WHERE e.salary = (SELECT MAX(x.salary) FROM employee x WHERE x.departmentid = e.departmentid);

# title: department highest salary, joined on the salary alone
# expect: not_equivalent
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id JOIN (SELECT departmentid, MAX(salary) AS m FROM employee GROUP BY departmentid) t ON e.salary = t.m;
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id WHERE e.salary = (SELECT MAX(x.salary) FROM employee x WHERE x.departmentid = e.departmentid);

# title: department highest salary, the maximum of the whole company
# expect: not_equivalent
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id WHERE e.salary = (SELECT MAX(salary) FROM employee);
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id WHERE e.salary = (SELECT MAX(x.salary) FROM employee x WHERE x.departmentid = e.departmentid);

# title: department top three salaries with DENSE_RANK vs a correlated count
# expect: equivalent
SELECT Department, Employee, Salary FROM (SELECT d.Name AS Department, e.Name AS Employee, e.Salary, DENSE_RANK() OVER (PARTITION BY e.DepartmentId ORDER BY e.Salary DESC) AS rnk FROM Employee e JOIN Department d ON e.DepartmentId = d.Id) t WHERE rnk <= 3;
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id WHERE (SELECT COUNT(DISTINCT x.salary) FROM employee x WHERE x.departmentid = e.departmentid AND x.salary > e.salary) < 3;

# title: department top three salaries with RANK skips tied ranks
# expect: not_equivalent
SELECT Department, Employee, Salary FROM (SELECT d.Name AS Department, e.Name AS Employee, e.Salary, RANK() OVER (PARTITION BY e.DepartmentId ORDER BY e.Salary DESC) AS rnk FROM Employee e JOIN Department d ON e.DepartmentId = d.Id) t WHERE rnk <= 3;
SELECT d.name AS Department, e.name AS Employee, e.salary AS Salary FROM employee e JOIN department d ON e.departmentid = d.id WHERE (SELECT COUNT(DISTINCT x.salary) FROM employee x WHERE x.departmentid = e.departmentid AND x.salary > e.salary) < 3;

# title: head count per department, name selected under GROUP BY the key
# expect: equivalent
SELECT d.name, COUNT(*) AS n FROM Department d JOIN Employee e ON e.DepartmentId = d.Id GROUP BY d.Id;
SELECT d.name, COUNT(e.id) AS n FROM department d JOIN employee e ON e.departmentid = d.id GROUP BY d.id, d.name;

# title: head count per department, LEFT JOIN keeps the empty ones
# expect: not_equivalent
SELECT d.name, COUNT(e.id) AS n FROM Department d LEFT JOIN Employee e ON e.DepartmentId = d.Id GROUP BY d.Id;
SELECT d.name, COUNT(e.id) AS n FROM department d JOIN employee e ON e.departmentid = d.id GROUP BY d.id, d.name;

# title: salary total per department, name through the joined key
# expect: equivalent
SELECT d.name, SUM(e.salary) FROM employee e JOIN department d ON e.departmentid = d.id GROUP BY e.departmentid;
SELECT d.name, SUM(e.salary) FROM employee e JOIN department d ON d.id = e.departmentid GROUP BY d.id, d.name;

# title: salary total per department name merges departments of one name
# expect: not_equivalent
SELECT d.name, SUM(e.salary) FROM employee e JOIN department d ON e.departmentid = d.id GROUP BY d.name;
SELECT d.name, SUM(e.salary) FROM employee e JOIN department d ON d.id = e.departmentid GROUP BY d.id, d.name;

# title: employee name under GROUP BY a non-key is refused by MySQL
# expect: error
SELECT e.name, MAX(e.salary) FROM employee e GROUP BY e.departmentid;
SELECT d.name, MAX(e.salary) FROM employee e JOIN department d ON d.id = e.departmentid GROUP BY d.id;

# title: rising temperature, DATEDIFF vs DATE_SUB
# expect: equivalent
SELECT w1.Id FROM Weather w1 JOIN Weather w2 ON DATEDIFF(w1.RecordDate, w2.RecordDate) = 1 WHERE w1.Temperature > w2.Temperature;
SELECT w1.id FROM weather w1 JOIN weather w2 ON w2.recorddate = DATE_SUB(w1.recorddate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature;

# title: rising temperature, date minus INTERVAL
# expect: equivalent
SELECT w1.id FROM weather w1, weather w2 WHERE w2.recorddate = w1.recorddate - INTERVAL 1 DAY AND w1.temperature > w2.temperature;
SELECT w1.id FROM weather w1 JOIN weather w2 ON w2.recorddate = DATE_SUB(w1.recorddate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature;

# title: rising temperature, subtracting dates is wrong across a month end
# expect: not_equivalent
SELECT w1.id FROM weather w1 JOIN weather w2 ON w1.recorddate - w2.recorddate = 1 WHERE w1.temperature > w2.temperature AND w2.recorddate >= '2019-01-31';
SELECT w1.id FROM weather w1 JOIN weather w2 ON w2.recorddate = DATE_SUB(w1.recorddate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature AND w2.recorddate >= '2019-01-31';

# title: rising temperature, DATEDIFF with swapped arguments
# expect: not_equivalent
SELECT w1.id FROM weather w1 JOIN weather w2 ON DATEDIFF(w2.recorddate, w1.recorddate) = 1 WHERE w1.temperature > w2.temperature;
SELECT w1.id FROM weather w1 JOIN weather w2 ON w2.recorddate = DATE_SUB(w1.recorddate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature;

# title: rising temperature, TIMESTAMPDIFF in days
# expect: equivalent
SELECT w1.id FROM weather w1 JOIN weather w2 ON TIMESTAMPDIFF(DAY, w2.recorddate, w1.recorddate) = 1 WHERE w1.temperature > w2.temperature;
SELECT w1.id FROM weather w1 JOIN weather w2 ON w2.recorddate = DATE_SUB(w1.recorddate, INTERVAL 1 DAY) WHERE w1.temperature > w2.temperature;

# title: consecutive numbers, three-way self join vs LAG
# expect: equivalent
SELECT DISTINCT l1.Num AS ConsecutiveNums FROM Logs l1, Logs l2, Logs l3 WHERE l1.Id = l2.Id - 1 AND l2.Id = l3.Id - 1 AND l1.Num = l2.Num AND l2.Num = l3.Num;
SELECT DISTINCT num AS ConsecutiveNums FROM (SELECT num, LAG(num, 1) OVER (ORDER BY id) AS p1, LAG(num, 2) OVER (ORDER BY id) AS p2, LAG(id, 2) OVER (ORDER BY id) AS i2, id FROM logs) t WHERE num = p1 AND num = p2 AND id - i2 = 2;

# title: consecutive numbers, without DISTINCT repeats a run of four
# expect: not_equivalent
SELECT l1.Num AS ConsecutiveNums FROM Logs l1, Logs l2, Logs l3 WHERE l1.Id = l2.Id - 1 AND l2.Id = l3.Id - 1 AND l1.Num = l2.Num AND l2.Num = l3.Num;
SELECT DISTINCT l1.num AS ConsecutiveNums FROM logs l1 JOIN logs l2 ON l2.id = l1.id + 1 JOIN logs l3 ON l3.id = l1.id + 2 WHERE l1.num = l2.num AND l2.num = l3.num;

# title: consecutive numbers, two in a row are not three
# expect: not_equivalent
SELECT DISTINCT l1.num AS ConsecutiveNums FROM logs l1 JOIN logs l2 ON l2.id = l1.id + 1 WHERE l1.num = l2.num;
SELECT DISTINCT l1.num AS ConsecutiveNums FROM logs l1 JOIN logs l2 ON l2.id = l1.id + 1 JOIN logs l3 ON l3.id = l1.id + 2 WHERE l1.num = l2.num AND l2.num = l3.num;

# title: game play first login, MIN per player
# expect: equivalent
SELECT player_id, MIN(event_date) AS first_login FROM Activity GROUP BY player_id;
SELECT a.player_id, a.event_date AS first_login FROM activity a WHERE a.event_date = (SELECT MIN(b.event_date) FROM activity b WHERE b.player_id = a.player_id);

# title: game play first login, device of the first login needs the date too
# expect: not_equivalent
SELECT player_id, MIN(device_id) AS device_id FROM activity GROUP BY player_id;
SELECT a.player_id, a.device_id FROM activity a WHERE a.event_date = (SELECT MIN(b.event_date) FROM activity b WHERE b.player_id = a.player_id);

# title: logins in July 2019, BETWEEN date strings vs DATE_FORMAT
# expect: equivalent
SELECT DISTINCT player_id FROM activity WHERE event_date BETWEEN '2019-07-01' AND '2019-07-31';
SELECT DISTINCT player_id FROM activity WHERE DATE_FORMAT(event_date, '%Y-%m') = '2019-07';

# title: logins in July 2019, a string minus an interval
# expect: equivalent
SELECT DISTINCT player_id FROM activity WHERE event_date > '2019-07-01' - INTERVAL 1 DAY AND event_date < '2019-08-01';
SELECT DISTINCT player_id FROM activity WHERE event_date BETWEEN '2019-07-01' AND '2019-07-31';

# title: logins in July 2019, < end of month drops the 31st
# expect: not_equivalent
SELECT DISTINCT player_id FROM activity WHERE event_date >= '2019-07-01' AND event_date < '2019-07-31';
SELECT DISTINCT player_id FROM activity WHERE event_date BETWEEN '2019-07-01' AND '2019-07-31';

# title: active days in the 30 days before 2019-07-27, DATEDIFF window
# expect: equivalent
SELECT event_date AS day, COUNT(DISTINCT player_id) AS active_users FROM activity WHERE DATEDIFF('2019-07-27', event_date) < 30 AND event_date <= '2019-07-27' GROUP BY event_date;
SELECT event_date AS day, COUNT(DISTINCT player_id) AS active_users FROM activity WHERE event_date BETWEEN DATE_SUB('2019-07-27', INTERVAL 29 DAY) AND '2019-07-27' GROUP BY event_date;

# title: active days, a window of 30 days is one day too long
# expect: not_equivalent
SELECT event_date AS day, COUNT(DISTINCT player_id) AS active_users FROM activity WHERE event_date BETWEEN DATE_SUB('2019-07-27', INTERVAL 30 DAY) AND '2019-07-27' GROUP BY event_date;
SELECT event_date AS day, COUNT(DISTINCT player_id) AS active_users FROM activity WHERE event_date BETWEEN DATE_SUB('2019-07-27', INTERVAL 29 DAY) AND '2019-07-27' GROUP BY event_date;

# title: orders per customer, name under GROUP BY the customer key
# expect: equivalent
SELECT c.Name, COUNT(o.Id) AS orders FROM Customers c LEFT JOIN Orders o ON o.CustomerId = c.Id GROUP BY c.Id;
SELECT c.name, (SELECT COUNT(*) FROM orders o WHERE o.customerid = c.id) AS orders FROM customers c;

# title: orders per customer, COUNT(*) counts the NULL row
# expect: not_equivalent
SELECT c.Name, COUNT(*) AS orders FROM Customers c LEFT JOIN Orders o ON o.CustomerId = c.Id GROUP BY c.Id;
SELECT c.name, (SELECT COUNT(*) FROM orders o WHERE o.customerid = c.id) AS orders FROM customers c;

# title: big customers, IF inside SUM vs CASE
# expect: equivalent
SELECT customerid, SUM(IF(amount > 100, 1, 0)) AS big FROM orders GROUP BY customerid;
SELECT customerid, SUM(CASE WHEN amount > 100 THEN 1 ELSE 0 END) AS big FROM orders GROUP BY customerid;

# title: big customers, IFNULL around the sum of a LEFT JOIN
# expect: equivalent
SELECT c.id, IFNULL(SUM(o.amount), 0) AS total FROM customers c LEFT JOIN orders o ON o.customerid = c.id GROUP BY c.id;
SELECT c.id, COALESCE((SELECT SUM(o.amount) FROM orders o WHERE o.customerid = c.id), 0) AS total FROM customers c;

# title: big customers, without IFNULL the empty ones are NULL
# expect: not_equivalent
SELECT c.id, SUM(o.amount) AS total FROM customers c LEFT JOIN orders o ON o.customerid = c.id GROUP BY c.id;
SELECT c.id, COALESCE((SELECT SUM(o.amount) FROM orders o WHERE o.customerid = c.id), 0) AS total FROM customers c;

# title: average order, / is a decimal division
# expect: equivalent
SELECT customerid, SUM(amount) / COUNT(*) AS avg_amount FROM orders GROUP BY customerid;
SELECT customerid, AVG(amount) AS avg_amount FROM orders GROUP BY customerid;

# title: average order, DIV truncates
# expect: not_equivalent
SELECT customerid, SUM(amount) DIV COUNT(*) AS avg_amount FROM orders GROUP BY customerid;
SELECT customerid, AVG(amount) AS avg_amount FROM orders GROUP BY customerid;

# title: flag of big salaries, CASE mixing 'TRUE' and FALSE
# expect: equivalent
SELECT id, CASE WHEN salary > 5000 THEN 'TRUE' ELSE FALSE END AS rich FROM employee;
SELECT id, IF(salary > 5000, 'TRUE', '0') AS rich FROM employee;

# title: delete duplicate emails as a query, smallest id per email
# expect: equivalent
SELECT MIN(Id) AS Id, Email FROM Person GROUP BY Email;
SELECT p.id AS Id, p.email AS Email FROM person p WHERE NOT EXISTS (SELECT 1 FROM person q WHERE q.email = p.email AND q.id < p.id);

# title: delete duplicate emails as a query, MAX keeps the other copy
# expect: not_equivalent
SELECT MAX(Id) AS Id, Email FROM Person GROUP BY Email;
SELECT p.id AS Id, p.email AS Email FROM person p WHERE NOT EXISTS (SELECT 1 FROM person q WHERE q.email = p.email AND q.id < p.id);

# title: nth highest salary with LIMIT inside a derived table
# expect: equivalent
SELECT MIN(salary) AS getNthHighestSalary FROM (SELECT DISTINCT salary FROM employee ORDER BY salary DESC LIMIT 3) t HAVING COUNT(*) = 3;
SELECT (SELECT DISTINCT salary FROM employee e1 WHERE 2 = (SELECT COUNT(DISTINCT e2.salary) FROM employee e2 WHERE e2.salary > e1.salary)) AS getNthHighestSalary FROM (SELECT 1) one WHERE (SELECT COUNT(DISTINCT salary) FROM employee) >= 3;
