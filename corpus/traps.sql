# The classic traps of reference-guided grading (see the seed chapter): each pair looks
# like two ways of writing one answer and is not. The candidate comes first.
# schema: shop

# title: inner join count drops the customer with zero Q3 orders
# expect: not_equivalent
# cause: missing_rows
# note: the reference's correlated subquery keeps an enterprise customer with no Q3 order (count 0); the inner join drops that customer
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE c.plan = 'enterprise'
  AND o.placed_at >= '2026-07-01'
  AND o.placed_at < '2026-10-01'
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name,
       (SELECT COUNT(*)
        FROM orders o
        WHERE o.customer_id = c.customer_id
          AND o.placed_at >= '2026-07-01'
          AND o.placed_at < '2026-10-01') AS order_count
FROM customers c
WHERE c.plan = 'enterprise';

# title: left join with the right-table filter in WHERE instead of ON
# expect: not_equivalent
# cause: missing_rows
# note: a WHERE predicate on o.placed_at is never true for the NULL-extended row, so the LEFT JOIN becomes an inner join
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE c.plan = 'enterprise'
  AND o.placed_at >= '2026-07-01'
  AND o.placed_at < '2026-10-01'
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o
  ON o.customer_id = c.customer_id
 AND o.placed_at >= '2026-07-01'
 AND o.placed_at < '2026-10-01'
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id, c.name;

# title: BETWEEN on a timestamp drops the last day of the quarter
# expect: not_equivalent
# cause: filter_window
# note: '2026-09-30' as a timestamp is midnight, so an order at 2026-09-30 10:00 is outside the BETWEEN
SELECT o.customer_id, COUNT(*) AS order_count
FROM orders o
WHERE o.placed_at BETWEEN '2026-07-01' AND '2026-09-30'
GROUP BY o.customer_id;
SELECT o.customer_id, COUNT(*) AS order_count
FROM orders o
WHERE o.placed_at >= '2026-07-01'
  AND o.placed_at < '2026-10-01'
GROUP BY o.customer_id;

# title: COUNT(*) instead of COUNT(o.order_id) under a LEFT JOIN
# expect: not_equivalent
# cause: same_keys_different_values
# note: a customer with no Q3 order has one NULL-extended row: COUNT(*) says 1, COUNT(o.order_id) says 0
SELECT c.customer_id, c.name, COUNT(*) AS order_count
FROM customers c
LEFT JOIN orders o
  ON o.customer_id = c.customer_id
 AND o.placed_at >= '2026-07-01'
 AND o.placed_at < '2026-10-01'
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o
  ON o.customer_id = c.customer_id
 AND o.placed_at >= '2026-07-01'
 AND o.placed_at < '2026-10-01'
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id, c.name;

# title: per customer and month instead of per customer
# expect: not_equivalent
# cause: grain
# note: a customer with orders in two months of Q3 gets two rows in the candidate
SELECT o.customer_id, COUNT(*) AS order_count
FROM orders o
WHERE o.placed_at >= '2026-07-01'
  AND o.placed_at < '2026-10-01'
GROUP BY o.customer_id, DATE_TRUNC('month', o.placed_at);
SELECT o.customer_id, COUNT(*) AS order_count
FROM orders o
WHERE o.placed_at >= '2026-07-01'
  AND o.placed_at < '2026-10-01'
GROUP BY o.customer_id;

# title: per customer and status instead of per customer
# expect: not_equivalent
# cause: grain
SELECT o.customer_id, SUM(o.amount) AS total
FROM orders o
GROUP BY o.customer_id, o.status;
SELECT o.customer_id, SUM(o.amount) AS total
FROM orders o
GROUP BY o.customer_id;

# title: NOT IN over a nullable column vs NOT EXISTS
# schema: hr
# expect: not_equivalent
# cause: empty_result
# note: the president's mgr is NULL, so "empno NOT IN (..., NULL)" is never true and the candidate returns nothing
SELECT e.empno, e.ename
FROM emp e
WHERE e.empno NOT IN (SELECT m.mgr FROM emp m);
SELECT e.empno, e.ename
FROM emp e
WHERE NOT EXISTS (SELECT 1 FROM emp m WHERE m.mgr = e.empno);

# title: missing DISTINCT after a one-to-many join
# expect: not_equivalent
# cause: extra_rows
# note: a customer with two shipped orders comes back twice
SELECT c.customer_id, c.name
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE o.status = 'shipped';
SELECT DISTINCT c.customer_id, c.name
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE o.status = 'shipped';

# title: swapped bounds of the Q3 window return nothing
# expect: not_equivalent
# note: always empty, and a filter window gone wrong: both empty_result and filter_window fit, so no cause is labelled
SELECT order_id, amount
FROM orders
WHERE placed_at >= '2026-10-01'
  AND placed_at < '2026-07-01';
SELECT order_id, amount
FROM orders
WHERE placed_at >= '2026-07-01'
  AND placed_at < '2026-10-01';

# title: AND where the question says or returns nothing
# expect: not_equivalent
# cause: empty_result
# note: no order is both shipped and delivered, so the candidate is empty on every database
SELECT order_id, status
FROM orders
WHERE status = 'shipped' AND status = 'delivered';
SELECT order_id, status
FROM orders
WHERE status = 'shipped' OR status = 'delivered';

# title: candidate leaves out the count column
# expect: not_equivalent
# cause: projection
SELECT c.customer_id, c.name
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name, COUNT(*) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.name;

# title: candidate projects category where the reference asks for the name
# expect: not_equivalent
# cause: projection
SELECT product_id, category
FROM products
WHERE price > 100;
SELECT product_id, name
FROM products
WHERE price > 100;

# title: fan-out of order_items inflates the order totals
# expect: not_equivalent
# cause: same_keys_different_values
# note: an order with two lines is summed twice
SELECT o.customer_id, SUM(o.amount) AS total
FROM orders o
JOIN order_items oi ON oi.order_id = o.order_id
GROUP BY o.customer_id;
SELECT o.customer_id, SUM(o.amount) AS total
FROM orders o
WHERE o.order_id IN (SELECT oi.order_id FROM order_items oi)
GROUP BY o.customer_id;

# title: YEAR() = 2026 is the same window as the half-open range; the LEFT JOIN filter in WHERE drops customers
# expect: not_equivalent
# cause: missing_rows
# note: the classifier read YEAR(placed_at) = 2026 as "no bound on placed_at" and said filter_window (example suite q-0145)
SELECT c.customer_id, COALESCE(SUM(o.amount), 0) AS total
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE year(o.placed_at) = 2026
GROUP BY c.customer_id;
SELECT c.customer_id, COALESCE(SUM(o.amount), 0) AS total
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
 AND o.placed_at >= '2026-01-01' AND o.placed_at < '2027-01-01'
GROUP BY c.customer_id;

# title: the same year window spelled with YEAR(), a different HAVING threshold
# expect: not_equivalent
# cause: extra_rows
# note: filter_window blamed the window, which is the same (example suite q-0150)
SELECT customer_id, COUNT(*) AS n FROM orders WHERE year(placed_at) = 2026
GROUP BY customer_id HAVING COUNT(*) >= 2;
SELECT customer_id, COUNT(*) AS n FROM orders
WHERE placed_at >= '2026-01-01' AND placed_at < '2027-01-01'
GROUP BY customer_id HAVING COUNT(*) > 2;

# title: a row repeated, not a window: first orders that tie on the timestamp
# expect: not_equivalent
# cause: extra_rows
# note: both queries have the same window; the difference is a duplicate row, classified filter_window before (example suite q-0154)
SELECT o.customer_id, o.placed_at FROM orders o
WHERE o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01'
  AND NOT EXISTS (SELECT 1 FROM orders e WHERE e.customer_id = o.customer_id AND e.placed_at < o.placed_at);
SELECT customer_id, MIN(placed_at) AS placed_at FROM orders GROUP BY customer_id
HAVING MIN(placed_at) >= '2026-07-01' AND MIN(placed_at) < '2026-10-01';
