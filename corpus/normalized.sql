# Equivalent pairs that differ only in ways the normalizer must see through
# (# method: normalized): aliases, column order, AND/OR order, BETWEEN, COUNT(1),
# inner-join order, comma joins, derived tables and CTEs, GROUP BY ordinals,
# in several source dialects.
# schema: shop
# dialect: duckdb

# title: column and table alias renames
# expect: equivalent
# method: normalized
SELECT c.name AS customer_name, c.plan AS tier
FROM customers AS c
WHERE c.plan = 'pro';
SELECT customers.name, customers.plan
FROM customers
WHERE customers.plan = 'pro';

# title: alias renames with MySQL backticks
# dialect: mysql
# expect: equivalent
# method: normalized
SELECT `o`.`order_id` AS `id`, `o`.`amount` AS `total`
FROM `orders` AS `o`
WHERE `o`.`status` = 'shipped';
SELECT x.order_id, x.amount
FROM orders x
WHERE x.status = 'shipped';

# title: column order in the select list
# dialect: postgres
# expect: equivalent
# method: normalized
SELECT name, customer_id, plan
FROM customers;
SELECT customer_id, plan, name
FROM customers;

# title: AND operands swapped
# dialect: mysql
# expect: equivalent
# method: normalized
SELECT order_id
FROM orders
WHERE amount > 100 AND status = 'shipped';
SELECT order_id
FROM orders
WHERE status = 'shipped' AND amount > 100;

# title: OR operands swapped
# dialect: trino
# expect: equivalent
# method: normalized
SELECT order_id, status
FROM orders
WHERE status = 'delivered' OR status = 'shipped';
SELECT order_id, status
FROM orders
WHERE status = 'shipped' OR status = 'delivered';

# title: mixed AND and OR with operands reordered
# dialect: postgres
# expect: equivalent
# method: normalized
SELECT order_id
FROM orders
WHERE (amount > 100 OR status = 'vip') AND placed_at >= '2026-07-01';
SELECT order_id
FROM orders
WHERE placed_at >= '2026-07-01' AND (status = 'vip' OR amount > 100);

# title: BETWEEN vs two comparisons on a decimal
# dialect: sqlite
# expect: equivalent
# method: normalized
SELECT order_id
FROM orders
WHERE amount BETWEEN 10 AND 20;
SELECT order_id
FROM orders
WHERE amount >= 10 AND amount <= 20;

# title: BETWEEN vs two comparisons on a date
# dialect: trino
# expect: equivalent
# method: normalized
SELECT customer_id
FROM customers
WHERE created_at BETWEEN DATE '2026-01-01' AND DATE '2026-03-31';
SELECT customer_id
FROM customers
WHERE created_at >= DATE '2026-01-01' AND created_at <= DATE '2026-03-31';

# title: COUNT(1) vs COUNT(*)
# dialect: postgres
# expect: equivalent
# method: normalized
SELECT customer_id, COUNT(1) AS n
FROM orders
GROUP BY customer_id;
SELECT customer_id, COUNT(*) AS n
FROM orders
GROUP BY customer_id;

# title: COUNT(1) vs COUNT(*) in MySQL
# dialect: mysql
# expect: equivalent
# method: normalized
SELECT status, COUNT(1)
FROM orders
WHERE amount > 50
GROUP BY status;
SELECT status, COUNT(*)
FROM orders
WHERE amount > 50
GROUP BY status;

# title: inner join operands swapped
# expect: equivalent
# method: normalized
SELECT o.order_id, c.name
FROM orders o
JOIN customers c ON c.customer_id = o.customer_id
WHERE c.plan = 'enterprise';
SELECT o.order_id, c.name
FROM customers c
INNER JOIN orders o ON o.customer_id = c.customer_id
WHERE c.plan = 'enterprise';

# title: three-way inner join in another order
# expect: equivalent
# method: normalized
SELECT o.order_id, p.name, oi.quantity
FROM order_items oi
JOIN orders o ON o.order_id = oi.order_id
JOIN products p ON p.product_id = oi.product_id;
SELECT o.order_id, p.name, oi.quantity
FROM products p
JOIN order_items oi ON oi.product_id = p.product_id
JOIN orders o ON oi.order_id = o.order_id;

# title: comma join vs JOIN ON
# dialect: mysql
# expect: equivalent
# method: normalized
SELECT c.name, o.order_id
FROM customers c, orders o
WHERE c.customer_id = o.customer_id AND c.plan = 'pro';
SELECT c.name, o.order_id
FROM customers c
JOIN orders o ON c.customer_id = o.customer_id
WHERE c.plan = 'pro';

# title: comma join vs JOIN ON in SQLite
# dialect: sqlite
# expect: equivalent
# method: normalized
SELECT p.name, oi.quantity
FROM order_items oi, products p
WHERE p.product_id = oi.product_id;
SELECT p.name, oi.quantity
FROM order_items oi
INNER JOIN products p ON p.product_id = oi.product_id;

# title: derived table vs flat query
# dialect: postgres
# expect: equivalent
# method: normalized
SELECT t.order_id
FROM (SELECT order_id, amount FROM orders WHERE status = 'paid') AS t
WHERE t.amount > 50;
SELECT order_id
FROM orders
WHERE status = 'paid' AND amount > 50;

# title: CTE vs flat query
# dialect: trino
# expect: equivalent
# method: normalized
WITH pro AS (
  SELECT customer_id, name FROM customers WHERE plan = 'pro'
)
SELECT name FROM pro;
SELECT name
FROM customers
WHERE plan = 'pro';

# title: GROUP BY ordinal vs column
# dialect: sqlite
# expect: equivalent
# method: normalized
SELECT status, COUNT(*)
FROM orders
GROUP BY 1;
SELECT status, COUNT(*)
FROM orders
GROUP BY status;

# title: GROUP BY two ordinals vs columns
# dialect: postgres
# expect: equivalent
# method: normalized
SELECT customer_id, status, SUM(amount)
FROM orders
GROUP BY 1, 2;
SELECT customer_id, status, SUM(amount)
FROM orders
GROUP BY customer_id, status;

# title: a CTE of one aggregate row cross-joined vs the scalar subquery
# expect: equivalent
# method: normalized
# note: the floor benchmark's s096 and d063 shape; an aggregate without GROUP BY is exactly one row
WITH a AS (SELECT AVG(amount) AS avg_amount FROM orders)
SELECT o.order_id FROM orders o, a WHERE o.amount > a.avg_amount;
SELECT order_id FROM orders WHERE amount > (SELECT AVG(amount) FROM orders);

# title: near miss: an aggregate row that HAVING can remove vs the scalar subquery
# expect: not_equivalent
# note: with one order, HAVING COUNT(*) > 1 leaves the CTE empty and the join returns nothing
WITH a AS (SELECT MAX(amount) AS top FROM orders HAVING COUNT(*) > 1)
SELECT o.order_id FROM orders o, a WHERE o.amount >= a.top;
SELECT order_id FROM orders WHERE amount >= (SELECT MAX(amount) FROM orders);

# title: the first rows by ROW_NUMBER in a derived table and ORDER BY ... LIMIT
# expect: equivalent
# method: normalized
# note: order_id is the key of orders, so (amount DESC, order_id) orders the rows one way only; rn <= 3 keeps the first three of it, in the order of rn
SELECT r.order_id, r.amount
FROM (SELECT order_id, amount, ROW_NUMBER() OVER (ORDER BY amount DESC, order_id) AS rn
      FROM orders WHERE amount IS NOT NULL) AS r
WHERE r.rn <= 3
ORDER BY r.rn;
SELECT order_id, amount
FROM orders
WHERE amount IS NOT NULL
ORDER BY amount DESC, order_id ASC
LIMIT 3;

# title: QUALIFY ROW_NUMBER() < n over a key and ORDER BY ... LIMIT n - 1
# expect: equivalent
# method: normalized
# note: placed_at ties, order_id breaks them; rn < 3 is rn <= 2
SELECT order_id, customer_id
FROM orders
QUALIFY ROW_NUMBER() OVER (ORDER BY placed_at, order_id) < 3
ORDER BY placed_at, order_id;
SELECT o.order_id, o.customer_id
FROM orders o
ORDER BY o.placed_at, o.order_id
LIMIT 2;

# title: the latest order per customer with QUALIFY and with a ranked derived table
# expect: equivalent
# method: normalized
# note: the same window over the same rows, filtered before or after naming it
SELECT customer_id, order_id, placed_at
FROM orders
QUALIFY ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY placed_at DESC, order_id DESC) = 1;
SELECT customer_id, order_id, placed_at
FROM (SELECT customer_id, order_id, placed_at,
             ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY placed_at DESC, order_id DESC) AS rn
      FROM orders) AS ranked
WHERE rn = 1;

# title: the top rows by a ranked derived table in Postgres
# dialect: postgres
# expect: equivalent
# method: normalized
# note: Postgres sorts NULLs first under DESC, in a window as in a query's ORDER BY
SELECT t.order_id
FROM (SELECT order_id, placed_at, ROW_NUMBER() OVER (ORDER BY placed_at DESC, order_id) AS n
      FROM orders) t
WHERE t.n <= 5
ORDER BY t.n;
SELECT order_id
FROM orders
ORDER BY placed_at DESC, order_id
LIMIT 5;

# title: COUNT(*) of SELECT DISTINCT a NOT NULL column and COUNT(DISTINCT)
# expect: equivalent
# method: normalized
# note: orders.customer_id is NOT NULL, so the derived table has one row per distinct non-NULL value, which COUNT(DISTINCT) counts
SELECT COUNT(*) AS customers_with_orders
FROM (SELECT DISTINCT customer_id FROM orders WHERE placed_at >= TIMESTAMP '2026-07-01') AS t;
SELECT COUNT(DISTINCT customer_id)
FROM orders
WHERE placed_at >= TIMESTAMP '2026-07-01';

# title: a grouped SUM of CASE ... THEN 1 ELSE 0 and COUNT(*) FILTER
# expect: equivalent
# method: normalized
# note: every group has a row, so the SUM of 0s and 1s is never NULL: it counts the rows where the condition is true
SELECT customer_id, SUM(CASE WHEN status = 'shipped' THEN 1 ELSE 0 END) AS shipped
FROM orders
GROUP BY customer_id;
SELECT customer_id, COUNT(*) FILTER (WHERE status = 'shipped')
FROM orders
GROUP BY customer_id;

# title: a grouped SUM of CASE WHEN x IS NULL THEN 0 ELSE 1 under a LEFT JOIN and COUNT(x)
# expect: equivalent
# method: normalized
# note: each customer is a group of one row or more; the CASE is 1 where the order's id is not NULL
SELECT c.customer_id, SUM(CASE WHEN o.order_id IS NULL THEN 0 ELSE 1 END) AS orders
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.order_id)
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;

# title: <> ALL over a subquery and NOT IN
# expect: equivalent
# method: normalized
# note: x NOT IN (q) is NOT (x = ANY (q)), which is x <> ALL (q) in three-valued logic, NULLs and empty q included
SELECT o.order_id
FROM orders o
WHERE o.amount <> ALL (SELECT f.amount FROM orders f WHERE f.status = 'returned');
SELECT o.order_id
FROM orders o
WHERE o.amount NOT IN (SELECT f.amount FROM orders f WHERE f.status = 'returned');

# title: COUNT FILTER over a LEFT JOIN and the same condition in its ON clause
# expect: equivalent
# method: normalized
# note: a customer keeps one row either way; the FILTER counts the orders the longer ON keeps, and the padded row's order_id is NULL
SELECT c.customer_id, c.name,
       COUNT(o.order_id) FILTER (WHERE o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01') AS q3_orders
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id, c.name;
SELECT c.customer_id, c.name, COUNT(o.order_id)
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
  AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01'
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id, c.name;

# title: SUM of CASE WHEN over a LEFT JOIN and the condition in its ON clause
# expect: equivalent
# method: normalized
# note: the CASE is NULL where the condition is not true, and SUM skips NULLs: the same orders are summed, none (NULL, then 0) for a customer without one
SELECT c.customer_id,
       COALESCE(SUM(CASE WHEN o.status = 'shipped' THEN o.amount END), 0) AS shipped_total
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id;
SELECT c.customer_id, COALESCE(SUM(o.amount), 0)
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'shipped'
GROUP BY c.customer_id;

# title: a semi-join written with IN and with a correlated EXISTS
# expect: equivalent
# method: normalized
# note: a WHERE drops a row whose IN is UNKNOWN as it drops one whose EXISTS is FALSE; the IN is TRUE exactly where some enterprise customer has the order's id
SELECT o.order_id
FROM orders o
WHERE o.amount IS NOT NULL
  AND o.customer_id IN (SELECT customer_id FROM customers WHERE plan = 'enterprise');
SELECT o.order_id
FROM orders o
WHERE EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND c.plan = 'enterprise')
  AND o.amount IS NOT NULL;

# title: customers who never ordered, as an EXCEPT and as NOT EXISTS
# expect: equivalent
# method: normalized
# note: both sides of the EXCEPT carry customers' primary key, so a customer is removed exactly when the join has a row for that very customer
SELECT customer_id, name FROM customers WHERE plan = 'enterprise'
EXCEPT
SELECT c.customer_id, c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.customer_id, c.name
FROM customers c
WHERE c.plan = 'enterprise'
  AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: orders of enterprise customers, as a join on the customer's key and as IN
# expect: equivalent
# method: normalized
# note: customer_id is customers' primary key, so an order meets at most one customer: the join keeps each order once, exactly when that customer is an enterprise one
SELECT o.order_id, o.amount
FROM orders o
JOIN customers c ON c.customer_id = o.customer_id
WHERE c.plan = 'enterprise';
SELECT order_id, amount
FROM orders
WHERE customer_id IN (SELECT customer_id FROM customers WHERE plan = 'enterprise');

# title: amounts no free customer paid, as a join with NOT EXISTS and as IN with NOT IN
# expect: equivalent
# method: normalized
# note: the NOT IN's subquery keeps no NULL and the WHERE keeps only orders of known amount, so NOT IN is never UNKNOWN where it matters; the joins are on customers' key
SELECT o.order_id
FROM orders o
JOIN customers c ON c.customer_id = o.customer_id
WHERE c.plan = 'enterprise'
  AND o.amount IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM orders f JOIN customers fc ON fc.customer_id = f.customer_id
                  WHERE fc.plan = 'free' AND f.amount = o.amount);
SELECT o.order_id
FROM orders o
WHERE o.customer_id IN (SELECT customer_id FROM customers WHERE plan = 'enterprise')
  AND o.amount IS NOT NULL
  AND o.amount NOT IN (SELECT f.amount FROM orders f JOIN customers fc ON fc.customer_id = f.customer_id
                       WHERE fc.plan = 'free' AND f.amount IS NOT NULL);

# title: each customer's largest order by a correlated subquery and by GROUP BY
# expect: equivalent
# method: normalized
# note: customer_id is NOT NULL: DISTINCT keeps one row per customer, the subquery aggregates its group
SELECT DISTINCT o.customer_id, (SELECT MAX(o2.amount) FROM orders o2 WHERE o2.customer_id = o.customer_id) AS top
FROM orders o;
SELECT customer_id, MAX(amount) FROM orders GROUP BY customer_id;
