# Not-equivalent pairs beyond the classic traps: boundaries, join types, set
# operations, NULLs, arithmetic, ordering. The candidate comes first.
# schema: shop

# title: amount > 100 vs amount >= 100
# expect: not_equivalent
# cause: filter_window
SELECT order_id
FROM orders
WHERE amount > 100;
SELECT order_id
FROM orders
WHERE amount >= 100;

# title: created_at > vs >= the first day of the year on a DATE
# expect: not_equivalent
# cause: filter_window
SELECT customer_id
FROM customers
WHERE created_at > '2026-01-01';
SELECT customer_id
FROM customers
WHERE created_at >= '2026-01-01';

# title: casting to DATE widens the upper bound to the whole last day
# expect: not_equivalent
# cause: filter_window
SELECT order_id
FROM orders
WHERE CAST(placed_at AS DATE) <= '2026-09-30';
SELECT order_id
FROM orders
WHERE placed_at <= '2026-09-30';

# title: LEFT JOIN where the reference uses an inner join
# expect: not_equivalent
# cause: extra_rows
SELECT c.customer_id, o.order_id
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.customer_id, o.order_id
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id;

# title: GREATEST with a floor at the bound keeps the rows below it
# expect: not_equivalent
SELECT order_id FROM orders WHERE GREATEST(amount, 10) >= 10;
SELECT order_id FROM orders WHERE amount >= 10;

# title: a date_diff in months counts boundaries, not 30-day periods
# expect: not_equivalent
SELECT customer_id FROM customers WHERE date_diff('month', created_at, DATE '2024-03-01') <= 1;
SELECT customer_id FROM customers WHERE created_at >= DATE '2024-01-31';

# title: YEAR of a date vs a range that leaves out New Year's Day
# expect: not_equivalent
# cause: filter_window
SELECT customer_id FROM customers WHERE YEAR(created_at) = 2024;
SELECT customer_id FROM customers
WHERE created_at > DATE '2024-01-01' AND created_at < DATE '2025-01-01';

# title: date_trunc to the month vs a month range that includes the next month's first instant
# expect: not_equivalent
# cause: filter_window
SELECT order_id FROM orders WHERE date_trunc('month', placed_at) = DATE '2024-03-01';
SELECT order_id FROM orders
WHERE placed_at >= TIMESTAMP '2024-03-01' AND placed_at <= TIMESTAMP '2024-04-01';

# title: an amount rounded to one decimal vs the amount
# expect: not_equivalent
# cause: same_keys_different_values
SELECT order_id, ROUND(amount, 1) FROM orders;
SELECT order_id, amount FROM orders;

# title: LOWER of the status vs the status as stored
# expect: not_equivalent
SELECT order_id FROM orders WHERE LOWER(status) = 'paid';
SELECT order_id FROM orders WHERE status = 'paid';

# title: UPPER of LOWER vs UPPER, for the letters whose case mappings do not round-trip
# expect: not_equivalent
# note: SQLSolver's Spark pair 45 calls these equivalent; UPPER(LOWER(x)) of the Ohm sign U+2126 is the capital omega U+03A9 (DuckDB, and Java's toUpperCase in Spark)
SELECT customer_id, UPPER(LOWER(name)) FROM customers;
SELECT customer_id, UPPER(name) FROM customers;

# title: SUBSTRING from the second character vs a prefix test
# expect: not_equivalent
SELECT customer_id FROM customers WHERE SUBSTRING(name, 2, 2) = 'cm';
SELECT customer_id FROM customers WHERE name LIKE 'cm%';

# title: inner join where the reference keeps departments without employees
# schema: hr
# expect: not_equivalent
# cause: missing_rows
SELECT d.dname, COUNT(e.empno) AS headcount
FROM dept d
JOIN emp e ON e.deptno = d.deptno
GROUP BY d.dname;
SELECT d.dname, COUNT(e.empno) AS headcount
FROM dept d
LEFT JOIN emp e ON e.deptno = d.deptno
GROUP BY d.dname;

# title: UNION ALL where the reference uses UNION
# expect: not_equivalent
# cause: extra_rows
SELECT customer_id FROM orders WHERE status = 'shipped'
UNION ALL
SELECT customer_id FROM orders WHERE status = 'returned';
SELECT customer_id FROM orders WHERE status = 'shipped'
UNION
SELECT customer_id FROM orders WHERE status = 'returned';

# title: status <> 'cancelled' drops orders with a NULL status
# expect: not_equivalent
# cause: missing_rows
SELECT order_id
FROM orders
WHERE status <> 'cancelled';
SELECT order_id
FROM orders
WHERE status IS DISTINCT FROM 'cancelled';

# title: comm = NULL is never true
# schema: hr
# expect: not_equivalent
# cause: empty_result
SELECT empno, ename
FROM emp
WHERE comm = NULL;
SELECT empno, ename
FROM emp
WHERE comm IS NULL;

# title: sal + comm is NULL without a commission
# schema: hr
# expect: not_equivalent
# cause: same_keys_different_values
SELECT empno, sal + comm AS total_pay
FROM emp;
SELECT empno, sal + COALESCE(comm, 0) AS total_pay
FROM emp;

# title: SUM over COUNT of integers truncates in Postgres where AVG does not
# dialect: postgres
# expect: not_equivalent
# cause: same_keys_different_values
# note: Postgres int / int is integer division: quantities 1 and 2 give 1, AVG gives 1.5
SELECT order_id, SUM(quantity) / COUNT(quantity) AS avg_quantity
FROM order_items
GROUP BY order_id;
SELECT order_id, AVG(quantity) AS avg_quantity
FROM order_items
GROUP BY order_id;

# title: integer division by 2 vs 2.0 in Postgres
# dialect: postgres
# expect: not_equivalent
# cause: same_keys_different_values
# note: quantity is an INTEGER; quantity / 2 truncates, quantity / 2.0 does not
SELECT order_id, line_no, quantity / 2 AS half
FROM order_items;
SELECT order_id, line_no, quantity / 2.0 AS half
FROM order_items;

# title: top 2 orders by date vs top 2 by amount
# expect: not_equivalent
# note: rows are both missing and extra, so no single cause is labelled; the sort keys end in the primary key so LIMIT is deterministic
SELECT order_id
FROM orders
ORDER BY placed_at DESC, order_id
LIMIT 2;
SELECT order_id
FROM orders
ORDER BY amount DESC NULLS LAST, order_id
LIMIT 2;

# title: descending where the reference sorts ascending
# expect: not_equivalent
# note: the same rows in the wrong order; the reference's top-level ORDER BY makes order part of the answer
SELECT order_id, amount
FROM orders
ORDER BY order_id DESC;
SELECT order_id, amount
FROM orders
ORDER BY order_id;

# title: ORDER BY LIMIT 1 vs MAX on an empty table
# expect: not_equivalent
# cause: empty_result
# note: MAX over no rows is one row holding NULL; the LIMIT query returns no row
SELECT amount
FROM orders
ORDER BY amount DESC NULLS LAST
LIMIT 1;
SELECT MAX(amount)
FROM orders;

# title: LIKE 'a%' vs LIKE 'A%'
# expect: not_equivalent
# note: LIKE is case-sensitive in DuckDB; each side finds names the other misses
SELECT customer_id
FROM customers
WHERE name LIKE 'a%';
SELECT customer_id
FROM customers
WHERE name LIKE 'A%';

# title: ILIKE where the reference is case-sensitive
# expect: not_equivalent
# cause: extra_rows
SELECT customer_id
FROM customers
WHERE name ILIKE 'a%';
SELECT customer_id
FROM customers
WHERE name LIKE 'A%';

# title: COUNT(DISTINCT status) vs COUNT(status)
# expect: not_equivalent
# cause: same_keys_different_values
SELECT customer_id, COUNT(DISTINCT status) AS n
FROM orders
GROUP BY customer_id;
SELECT customer_id, COUNT(status) AS n
FROM orders
GROUP BY customer_id;

# title: HAVING COUNT(*) >= 2 vs >= 1
# expect: not_equivalent
# cause: missing_rows
# note: repeat customers only, where the reference wants every customer with an order
SELECT customer_id, COUNT(*) AS n
FROM orders
GROUP BY customer_id
HAVING COUNT(*) >= 2;
SELECT customer_id, COUNT(*) AS n
FROM orders
GROUP BY customer_id
HAVING COUNT(*) >= 1;

# title: OR binds weaker than AND
# expect: not_equivalent
# cause: extra_rows
# note: the candidate reads as shipped OR (delivered AND amount > 100)
SELECT order_id
FROM orders
WHERE status = 'shipped' OR status = 'delivered' AND amount > 100;
SELECT order_id
FROM orders
WHERE (status = 'shipped' OR status = 'delivered') AND amount > 100;

# title: SUM of a CASE vs COUNT FILTER on an empty table
# expect: not_equivalent
# note: SUM over no rows is NULL, COUNT is 0
SELECT SUM(CASE WHEN plan = 'enterprise' THEN 1 ELSE 0 END) AS n
FROM customers;
SELECT COUNT(*) FILTER (WHERE plan = 'enterprise') AS n
FROM customers;

# title: SUM of a LEFT JOIN is NULL where the reference says 0
# expect: not_equivalent
# cause: same_keys_different_values
SELECT c.customer_id, SUM(o.amount) AS total
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, COALESCE(SUM(o.amount), 0) AS total
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;

# title: number of order lines vs number of items
# expect: not_equivalent
# cause: same_keys_different_values
SELECT order_id, COUNT(*) AS items
FROM order_items
GROUP BY order_id;
SELECT order_id, SUM(quantity) AS items
FROM order_items
GROUP BY order_id;

# title: enrollments per course vs distinct students per course
# schema: school
# expect: not_equivalent
# cause: same_keys_different_values
# note: a student who retakes a course in another term is enrolled twice
SELECT course_id, COUNT(*) AS students
FROM enrollments
GROUP BY course_id;
SELECT course_id, COUNT(DISTINCT student_id) AS students
FROM enrollments
GROUP BY course_id;

# title: average grade counting ungraded enrollments as zero
# schema: school
# expect: not_equivalent
# cause: same_keys_different_values
SELECT course_id, AVG(COALESCE(grade, 0)) AS avg_grade
FROM enrollments
GROUP BY course_id;
SELECT course_id, AVG(grade) AS avg_grade
FROM enrollments
GROUP BY course_id;

# title: passing grade with ungraded enrollments let through
# schema: school
# expect: not_equivalent
# cause: extra_rows
SELECT student_id, course_id, term
FROM enrollments
WHERE grade >= 50 OR grade IS NULL;
SELECT student_id, course_id, term
FROM enrollments
WHERE grade >= 50;

# title: anti-join tested on a nullable column
# schema: events
# expect: not_equivalent
# cause: extra_rows
# note: e.value IS NULL also holds for a matched event that carries no value
SELECT u.user_id
FROM users u
LEFT JOIN events e ON e.user_id = u.user_id
WHERE e.value IS NULL;
SELECT u.user_id
FROM users u
LEFT JOIN events e ON e.user_id = u.user_id
WHERE e.event_id IS NULL;

# title: events per country vs users per country
# schema: events
# expect: not_equivalent
# cause: same_keys_different_values
SELECT u.country, COUNT(*) AS n
FROM events e
JOIN users u ON u.user_id = e.user_id
GROUP BY u.country;
SELECT u.country, COUNT(DISTINCT e.user_id) AS n
FROM events e
JOIN users u ON u.user_id = e.user_id
GROUP BY u.country;

# title: daily active users per day and kind vs per day
# schema: events
# expect: not_equivalent
# cause: grain
SELECT CAST(ts AS DATE) AS day, COUNT(DISTINCT user_id) AS dau
FROM events
GROUP BY CAST(ts AS DATE), kind;
SELECT CAST(ts AS DATE) AS day, COUNT(DISTINCT user_id) AS dau
FROM events
GROUP BY CAST(ts AS DATE);

# title: ts <= the last day of March misses the rest of that day
# schema: events
# expect: not_equivalent
# cause: filter_window
SELECT event_id
FROM events
WHERE ts >= '2026-03-01' AND ts <= '2026-03-31';
SELECT event_id
FROM events
WHERE ts >= '2026-03-01' AND ts < '2026-04-01';

# title: average value counting NULL as zero
# schema: events
# expect: not_equivalent
# cause: same_keys_different_values
SELECT kind, AVG(COALESCE(value, 0)) AS avg_value
FROM events
GROUP BY kind;
SELECT kind, AVG(value) AS avg_value
FROM events
GROUP BY kind;

# title: employees without a department are lost by the join
# schema: hr
# expect: not_equivalent
# cause: missing_rows
SELECT e.empno, e.ename, d.dname
FROM emp e
JOIN dept d ON d.deptno = e.deptno;
SELECT e.empno, e.ename, d.dname
FROM emp e
LEFT JOIN dept d ON d.deptno = e.deptno;

# title: a filter after the ranking is not the same filter before LIMIT
# expect: not_equivalent
# note: two unshipped orders ranked first leave the candidate without rows the reference finds further down
SELECT r.order_id
FROM (SELECT order_id, status, ROW_NUMBER() OVER (ORDER BY order_id) AS rn FROM orders) AS r
WHERE r.rn <= 2 AND r.status = 'shipped'
ORDER BY r.rn;
SELECT order_id
FROM orders
WHERE status = 'shipped'
ORDER BY order_id
LIMIT 2;

# title: the first order of each customer is not the first order
# expect: not_equivalent
# cause: extra_rows
# note: two customers with one order each: the candidate returns both
SELECT order_id
FROM orders
QUALIFY ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_id) = 1
ORDER BY order_id;
SELECT order_id
FROM orders
ORDER BY order_id
LIMIT 1;

# title: ROW_NUMBER() < 3 keeps two rows, LIMIT 3 three
# expect: not_equivalent
# cause: missing_rows
# note: three orders
SELECT order_id
FROM orders
QUALIFY ROW_NUMBER() OVER (ORDER BY placed_at, order_id) < 3
ORDER BY placed_at, order_id;
SELECT order_id
FROM orders
ORDER BY placed_at, order_id
LIMIT 3;

# title: COUNT(*) of SELECT DISTINCT a nullable column counts NULL once
# expect: not_equivalent
# cause: same_keys_different_values
# note: one order with a NULL status: the candidate counts 1, COUNT(DISTINCT status) 0
SELECT COUNT(*)
FROM (SELECT DISTINCT status FROM orders) AS t;
SELECT COUNT(DISTINCT status)
FROM orders;

# title: SUM of CASE ... THEN 1 ELSE 0 without GROUP BY is NULL on no order
# expect: not_equivalent
# note: on the empty database the candidate returns NULL, the reference 0
SELECT SUM(CASE WHEN status = 'shipped' THEN 1 ELSE 0 END)
FROM orders;
SELECT COUNT(*) FILTER (WHERE status = 'shipped')
FROM orders;

# title: a grouped SUM of CASE ... THEN 1 without ELSE is NULL in a group without a match
# expect: not_equivalent
# cause: same_keys_different_values
# note: a customer whose only order is not shipped: NULL against 0
SELECT customer_id, SUM(CASE WHEN status = 'shipped' THEN 1 END)
FROM orders
GROUP BY customer_id;
SELECT customer_id, COUNT(*) FILTER (WHERE status = 'shipped')
FROM orders
GROUP BY customer_id;

# title: <> ANY is not NOT IN
# expect: not_equivalent
# note: two returned orders of different amounts: every amount differs from one of them
SELECT o.order_id
FROM orders o
WHERE o.amount <> ANY (SELECT f.amount FROM orders f WHERE f.status = 'returned');
SELECT o.order_id
FROM orders o
WHERE o.amount NOT IN (SELECT f.amount FROM orders f WHERE f.status = 'returned');

# title: COUNT(*) FILTER over a LEFT JOIN is not COUNT(*) with the condition in ON
# expect: not_equivalent
# cause: same_keys_different_values
# note: a customer without a shipped order: the FILTER counts 0, the padded row of the longer ON counts 1
SELECT c.customer_id, COUNT(*) FILTER (WHERE o.status = 'shipped') AS shipped
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(*)
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'shipped'
GROUP BY c.customer_id;

# title: COUNT of the customer's column under a CASE is not the condition moved into ON
# expect: not_equivalent
# cause: same_keys_different_values
# note: a plan whose customer has no shipped order: the CASE counts 0, the padded row's customer_id counts 1
SELECT c.plan, COUNT(CASE WHEN o.status = 'shipped' THEN c.customer_id END) AS n
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.plan;
SELECT c.plan, COUNT(c.customer_id)
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'shipped'
GROUP BY c.plan;

# title: IN over a subquery as a value is not EXISTS
# expect: not_equivalent
# cause: same_keys_different_values
# note: an order of unknown amount while some order was returned: IN is NULL, EXISTS is false
SELECT o.order_id, o.amount IN (SELECT f.amount FROM orders f WHERE f.status = 'returned') AS seen
FROM orders o;
SELECT o.order_id, EXISTS (SELECT 1 FROM orders f WHERE f.status = 'returned' AND f.amount = o.amount)
FROM orders o;

# title: an EXCEPT of names is not the customers who never ordered
# expect: not_equivalent
# note: two customers named alike, one of whom ordered: the EXCEPT drops the name, NOT EXISTS keeps the other customer
SELECT name FROM customers
EXCEPT
SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.name
FROM customers c
WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: a join to the orders is not an EXISTS of them
# expect: not_equivalent
# note: orders.customer_id is no key of orders: a customer with two large orders comes back twice from the join, once from EXISTS
SELECT c.name
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE o.amount > 10;
SELECT c.name
FROM customers c
WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 10);

# title: NOT IN guarded only on one side of an OR is not NOT EXISTS
# expect: not_equivalent
# note: an order of unknown amount while some amount is known: NOT IN is UNKNOWN and the OR drops the order, NOT EXISTS is true and keeps it
SELECT o.order_id
FROM orders o
WHERE o.status = 'shipped'
   OR o.amount NOT IN (SELECT f.amount FROM orders f WHERE f.amount IS NOT NULL);
SELECT o.order_id
FROM orders o
WHERE o.status = 'shipped'
   OR NOT EXISTS (SELECT 1 FROM orders f WHERE f.amount = o.amount);
