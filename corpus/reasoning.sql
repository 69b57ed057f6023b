# Equivalent pairs that take real reasoning (three-valued logic, keys, integer domains,
# set operations) rather than a rewrite to one canonical form. No method tag: any
# sound proof will do, and an honest checker may also answer unknown.
# schema: shop

# title: IN subquery vs correlated EXISTS
# expect: equivalent
SELECT c.customer_id, c.name
FROM customers c
WHERE c.customer_id IN (SELECT o.customer_id FROM orders o WHERE o.status = 'shipped');
SELECT c.customer_id, c.name
FROM customers c
WHERE EXISTS (
  SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'shipped'
);

# title: NOT EXISTS vs LEFT JOIN IS NULL on a non-null key
# expect: equivalent
# note: o.order_id is the primary key, so it is NULL only on the NULL-extended row
SELECT c.customer_id
FROM customers c
WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);
SELECT c.customer_id
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE o.order_id IS NULL;

# title: quantity >= 5 vs quantity > 4 on an INTEGER
# expect: equivalent
SELECT order_id, line_no
FROM order_items
WHERE quantity >= 5;
SELECT order_id, line_no
FROM order_items
WHERE quantity > 4;

# title: NOT (amount > 100) vs amount <= 100
# expect: equivalent
# note: both are unknown, hence filtered, when amount is NULL
SELECT order_id
FROM orders
WHERE NOT (amount > 100);
SELECT order_id
FROM orders
WHERE amount <= 100;

# title: HAVING on a group key vs WHERE
# expect: equivalent
SELECT status, COUNT(*) AS n
FROM orders
GROUP BY status
HAVING status = 'shipped';
SELECT status, COUNT(*) AS n
FROM orders
WHERE status = 'shipped'
GROUP BY status;

# title: UNION vs UNION ALL under DISTINCT
# expect: equivalent
SELECT customer_id FROM orders WHERE status = 'shipped'
UNION
SELECT customer_id FROM orders WHERE amount > 100;
SELECT DISTINCT customer_id
FROM (
  SELECT customer_id FROM orders WHERE status = 'shipped'
  UNION ALL
  SELECT customer_id FROM orders WHERE amount > 100
) AS t;

# title: UNION of two filters vs one DISTINCT with OR
# expect: equivalent
SELECT customer_id FROM orders WHERE status = 'shipped'
UNION
SELECT customer_id FROM orders WHERE amount > 100;
SELECT DISTINCT customer_id
FROM orders
WHERE status = 'shipped' OR amount > 100;

# title: COUNT(*) vs COUNT(o.order_id) under an inner join
# expect: equivalent
# note: inside an inner join o.order_id is never NULL, so the two counts agree
SELECT c.customer_id, COUNT(*) AS n
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.order_id) AS n
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;

# title: inner join count vs correlated count restricted to customers with orders
# expect: equivalent
# note: the corrected form of the first trap: EXISTS drops the zero-count customers as the join does
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01'
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name,
       (SELECT COUNT(*) FROM orders o
        WHERE o.customer_id = c.customer_id
          AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01') AS order_count
FROM customers c
WHERE EXISTS (
  SELECT 1 FROM orders o
  WHERE o.customer_id = c.customer_id
    AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01'
);

# title: COUNT(DISTINCT order_id) vs COUNT(order_id) on the primary key
# expect: equivalent
SELECT customer_id, COUNT(DISTINCT order_id) AS n
FROM orders
GROUP BY customer_id;
SELECT customer_id, COUNT(order_id) AS n
FROM orders
GROUP BY customer_id;

# title: IN list vs OR of equalities
# expect: equivalent
SELECT order_id
FROM orders
WHERE status IN ('shipped', 'delivered');
SELECT order_id
FROM orders
WHERE status = 'shipped' OR status = 'delivered';

# title: COUNT with CASE vs COUNT FILTER
# expect: equivalent
SELECT COUNT(CASE WHEN plan = 'enterprise' THEN 1 END) AS n
FROM customers;
SELECT COUNT(*) FILTER (WHERE plan = 'enterprise') AS n
FROM customers;

# title: ORDER BY in the candidate is ignored when the reference has none
# expect: equivalent
SELECT customer_id, name
FROM customers
WHERE plan = 'pro'
ORDER BY name;
SELECT customer_id, name
FROM customers
WHERE plan = 'pro';

# title: ties of the reference sort key may come in any order
# expect: equivalent
# note: the reference sorts by plan only; the candidate breaks ties by customer_id, an order the reference allows
SELECT customer_id, plan
FROM customers
ORDER BY plan, customer_id;
SELECT customer_id, plan
FROM customers
ORDER BY plan;

# title: COALESCE(comm, 0) > 0 vs comm > 0
# schema: hr
# expect: equivalent
SELECT empno, ename
FROM emp
WHERE COALESCE(comm, 0) > 0;
SELECT empno, ename
FROM emp
WHERE comm > 0;

# title: sal plus COALESCE(comm, 0) vs a CASE on comm IS NULL
# schema: hr
# expect: equivalent
SELECT empno, sal + COALESCE(comm, 0) AS total_pay
FROM emp;
SELECT empno, CASE WHEN comm IS NULL THEN sal ELSE sal + comm END AS total_pay
FROM emp;

# title: earning more than the manager by self join vs scalar subquery
# schema: hr
# expect: equivalent
# note: empno is the key, so the scalar subquery has at most one row; a NULL mgr makes both sides drop the row
SELECT e.empno, e.ename
FROM emp e
JOIN emp m ON e.mgr = m.empno
WHERE e.sal > m.sal;
SELECT e.empno, e.ename
FROM emp e
WHERE e.sal > (SELECT m.sal FROM emp m WHERE m.empno = e.mgr);

# title: departments with employees by IN vs DISTINCT join
# schema: hr
# expect: equivalent
SELECT d.deptno, d.dname
FROM dept d
WHERE d.deptno IN (SELECT e.deptno FROM emp e);
SELECT DISTINCT d.deptno, d.dname
FROM dept d
JOIN emp e ON e.deptno = d.deptno;

# title: GROUP BY without aggregates vs DISTINCT
# schema: school
# expect: equivalent
SELECT student_id
FROM enrollments
WHERE grade >= 90
GROUP BY student_id;
SELECT DISTINCT student_id
FROM enrollments
WHERE grade >= 90;

# title: grade < 60 vs NOT (grade >= 60)
# schema: school
# expect: equivalent
SELECT s.student_id, s.name, e.course_id
FROM students s
JOIN enrollments e ON e.student_id = s.student_id
WHERE e.grade < 60;
SELECT s.student_id, s.name, e.course_id
FROM students s
JOIN enrollments e ON e.student_id = s.student_id
WHERE NOT (e.grade >= 60);

# title: filtering NULL values first vs HAVING COUNT(value) > 0
# schema: events
# expect: equivalent
SELECT user_id, COUNT(*) AS n
FROM events
WHERE value IS NOT NULL
GROUP BY user_id;
SELECT user_id, COUNT(value) AS n
FROM events
GROUP BY user_id
HAVING COUNT(value) > 0;

# title: a month as a half-open range vs DATE_TRUNC
# schema: events
# expect: equivalent
SELECT event_id
FROM events
WHERE ts >= '2026-03-01' AND ts < '2026-04-01';
SELECT event_id
FROM events
WHERE DATE_TRUNC('month', ts) = TIMESTAMP '2026-03-01 00:00:00';

# title: a year as YEAR() = c vs a half-open range
# schema: events
# expect: equivalent
SELECT event_id
FROM events
WHERE YEAR(ts) = 2026;
SELECT event_id
FROM events
WHERE ts >= '2026-01-01' AND ts < '2027-01-01';

# title: a year as YEAR() = c vs a range that takes in the next New Year's midnight
# schema: events
# expect: not_equivalent
SELECT event_id
FROM events
WHERE EXTRACT(YEAR FROM ts) = 2026;
SELECT event_id
FROM events
WHERE ts >= '2026-01-01' AND ts <= '2027-01-01';

# title: the years before c as YEAR() < c vs a range
# schema: events
# expect: equivalent
SELECT event_id
FROM events
WHERE YEAR(ts) < 2026 AND kind = 'click';
SELECT event_id
FROM events
WHERE kind = 'click' AND ts < TIMESTAMP '2026-01-01 00:00:00';

# title: a day as CAST to DATE vs a half-open range
# schema: events
# expect: equivalent
SELECT event_id, kind
FROM events
WHERE CAST(ts AS DATE) = DATE '2026-03-15';
SELECT event_id, kind
FROM events
WHERE ts >= '2026-03-15' AND ts < '2026-03-16';

# title: INTERSECT vs EXISTS on a key
# schema: events
# expect: equivalent
SELECT user_id FROM users
INTERSECT
SELECT user_id FROM events;
SELECT u.user_id
FROM users u
WHERE EXISTS (SELECT 1 FROM events e WHERE e.user_id = u.user_id);

# title: an aggregate's FILTER vs a CASE on its argument
# schema: events
# expect: equivalent
SELECT user_id, AVG(value) FILTER (WHERE value IS NOT NULL) AS avg_value,
       COUNT(*) FILTER (WHERE kind = 'click') AS clicks
FROM events
GROUP BY user_id;
SELECT user_id, AVG(value) AS avg_value,
       COUNT(CASE WHEN kind = 'click' THEN 'yes' END) AS clicks
FROM events
GROUP BY user_id;

# title: COUNT(*) FILTER vs a COUNT of a column that can be NULL on the filtered rows
# schema: events
# expect: not_equivalent
SELECT user_id, COUNT(*) FILTER (WHERE kind = 'click') AS clicks
FROM events
GROUP BY user_id;
SELECT user_id, COUNT(CASE WHEN kind = 'click' THEN value END) AS clicks
FROM events
GROUP BY user_id;
