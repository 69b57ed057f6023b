# Constraints matter both ways: each pair appears twice, once under a schema whose
# PRIMARY KEY / FOREIGN KEY / NOT NULL / UNIQUE makes it equivalent, once under a
# schema without that constraint, where a database breaking the assumption exists.
# schema: shop

# title: join to customers on the FK vs customer_id IS NOT NULL (FK declared)
# expect: equivalent
# note: every order's customer_id is NOT NULL and references a customer, which is unique: the join keeps each order exactly once
SELECT o.order_id
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id;
SELECT order_id
FROM orders
WHERE customer_id IS NOT NULL;

# title: join to customers vs customer_id IS NOT NULL without the FK
# schema: shop_nofk
# expect: not_equivalent
# cause: missing_rows
# note: an order whose customer does not exist is dropped by the join
SELECT o.order_id
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id;
SELECT order_id
FROM orders
WHERE customer_id IS NOT NULL;

# title: left join group count vs correlated count (customer_id is the key)
# expect: equivalent
# note: one group per customer because customer_id is the PRIMARY KEY
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name,
       (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) AS order_count
FROM customers c;

# title: left join group count vs correlated count without a key on customers
# schema: shop_nopk
# expect: not_equivalent
# note: two customers rows with the same id and name merge into one group; the subquery keeps one row per customers row
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name,
       (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) AS order_count
FROM customers c;

# title: DISTINCT is redundant over the primary key
# expect: equivalent
SELECT customer_id, name, plan
FROM customers;
SELECT DISTINCT customer_id, name, plan
FROM customers;

# title: DISTINCT is not redundant without a key
# schema: shop_nopk
# expect: not_equivalent
# cause: extra_rows
SELECT customer_id, name, plan
FROM customers;
SELECT DISTINCT customer_id, name, plan
FROM customers;

# title: COUNT(customer_id) equals COUNT(*) on a NOT NULL column
# expect: equivalent
SELECT status, COUNT(customer_id) AS n
FROM orders
GROUP BY status;
SELECT status, COUNT(*) AS n
FROM orders
GROUP BY status;

# title: COUNT(customer_id) differs from COUNT(*) on a nullable column
# schema: shop_nofk
# expect: not_equivalent
# cause: same_keys_different_values
SELECT status, COUNT(customer_id) AS n
FROM orders
GROUP BY status;
SELECT status, COUNT(*) AS n
FROM orders
GROUP BY status;

# title: NOT IN equals NOT EXISTS when the subquery column is NOT NULL
# expect: equivalent
SELECT c.customer_id, c.name
FROM customers c
WHERE c.customer_id NOT IN (SELECT o.customer_id FROM orders o);
SELECT c.customer_id, c.name
FROM customers c
WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: NOT IN differs from NOT EXISTS when orders.customer_id is nullable
# schema: shop_nofk
# expect: not_equivalent
# cause: empty_result
# note: one order with customer_id NULL makes NOT IN unknown for every customer
SELECT c.customer_id, c.name
FROM customers c
WHERE c.customer_id NOT IN (SELECT o.customer_id FROM orders o);
SELECT c.customer_id, c.name
FROM customers c
WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: redundant join from order_items to orders on the FK
# expect: equivalent
SELECT oi.order_id, oi.line_no, oi.quantity
FROM order_items oi
JOIN orders o ON o.order_id = oi.order_id;
SELECT order_id, line_no, quantity
FROM order_items;

# title: join from order_items to orders is a filter without the FK
# schema: shop_nofk
# expect: not_equivalent
# cause: missing_rows
SELECT oi.order_id, oi.line_no, oi.quantity
FROM order_items oi
JOIN orders o ON o.order_id = oi.order_id;
SELECT order_id, line_no, quantity
FROM order_items;

# title: LEFT JOIN to customers equals the inner join on a NOT NULL FK
# expect: equivalent
SELECT o.order_id, c.name
FROM orders o
LEFT JOIN customers c ON c.customer_id = o.customer_id;
SELECT o.order_id, c.name
FROM orders o
JOIN customers c ON c.customer_id = o.customer_id;

# title: LEFT JOIN to customers keeps orders the inner join drops without the FK
# schema: shop_nofk
# expect: not_equivalent
# cause: extra_rows
SELECT o.order_id, c.name
FROM orders o
LEFT JOIN customers c ON c.customer_id = o.customer_id;
SELECT o.order_id, c.name
FROM orders o
JOIN customers c ON c.customer_id = o.customer_id;

# title: UNIQUE email still allows several NULL emails
# schema: school
# expect: not_equivalent
# cause: extra_rows
# note: UNIQUE does not make NULLs distinct-checked; two students without an email give two NULL rows
SELECT email
FROM students;
SELECT DISTINCT email
FROM students;

# title: DISTINCT is redundant over a UNIQUE column once NULLs are filtered
# schema: school
# expect: equivalent
SELECT email
FROM students
WHERE email IS NOT NULL;
SELECT DISTINCT email
FROM students
WHERE email IS NOT NULL;

# title: COUNT(DISTINCT) of a UNIQUE column is its COUNT, NULLs skipped by both
# schema: school
# expect: equivalent
# method: normalized
# note: the floor benchmark's s178 and d119 shape; a UNIQUE column repeats only NULL, and COUNT skips NULL
SELECT year, COUNT(DISTINCT email)
FROM students
GROUP BY year;
SELECT s.year, COUNT(s.email)
FROM students s
GROUP BY s.year;

# title: COUNT(DISTINCT) of a UNIQUE column under a join counts it once per student
# schema: school
# expect: not_equivalent
# note: near miss of the proof above: a student with two enrollments repeats the email in the join
SELECT COUNT(DISTINCT s.email)
FROM students s
JOIN enrollments e ON e.student_id = s.student_id;
SELECT COUNT(s.email)
FROM students s
JOIN enrollments e ON e.student_id = s.student_id;

# title: CHECK on amount makes amount >= 0 the same as amount IS NOT NULL
# expect: equivalent
SELECT order_id
FROM orders
WHERE amount >= 0;
SELECT order_id
FROM orders
WHERE amount IS NOT NULL;

# title: CHECK on plan makes the IN list the same as plan IS NOT NULL
# expect: equivalent
SELECT customer_id
FROM customers
WHERE plan IN ('free', 'pro', 'enterprise');
SELECT customer_id
FROM customers
WHERE plan IS NOT NULL;

# title: the primary key determines name so grouping by the id alone is enough
# expect: equivalent
SELECT c.customer_id, MAX(c.name) AS name, COUNT(*) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, c.name, COUNT(*) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.name;

# title: grouping by id alone is not enough when names repeat under one id
# schema: shop_nopk
# expect: not_equivalent
# cause: grain
# note: without a key, customer 1 may be 'Ann' on one row and 'Bob' on another
SELECT c.customer_id, MAX(c.name) AS name, COUNT(*) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, c.name, COUNT(*) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.name;

# title: INTERSECT of two filters of students on the key vs both filters at once
# schema: school
# expect: equivalent
# method: normalized
# note: the floor benchmark's s120 and d081 shape; student_id is the key, so a row of both sides is one student meeting both conditions
SELECT student_id, name FROM students WHERE year > 2
INTERSECT
SELECT student_id, name FROM students WHERE student_id IN (SELECT student_id FROM enrollments);
SELECT student_id, name FROM students
WHERE year > 2 AND student_id IN (SELECT student_id FROM enrollments);

# title: INTERSECT of two filters of students on a name vs both filters at once
# schema: school
# expect: not_equivalent
# note: near miss of the proof above: two students share a name, one in year 3, the other enrolled
SELECT name FROM students WHERE year > 2
INTERSECT
SELECT name FROM students WHERE student_id IN (SELECT student_id FROM enrollments);
SELECT DISTINCT name FROM students
WHERE year > 2 AND student_id IN (SELECT student_id FROM enrollments);

# title: INTERSECT of two filters on a UNIQUE column that may be NULL vs both filters at once
# schema: school
# expect: not_equivalent
# note: near miss: UNIQUE lets two students have no email; INTERSECT matches the two NULLs
SELECT email FROM students WHERE year > 2
INTERSECT
SELECT email FROM students WHERE year < 2;
SELECT DISTINCT email FROM students WHERE year > 2 AND year < 2;
