# Equivalent pairs that only the symbolic prover decides: the two queries have the same
# shape but their predicates, keys or joins differ in a way no rewrite to one canonical
# form removes. Each needs z3 (three-valued logic, integer and timestamp domains, keys).
# schema: shop

# title: a BETWEEN on timestamps vs a half-open range that ends at the same instant
# expect: equivalent
# method: symbolic
SELECT order_id FROM orders
WHERE placed_at BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND TIMESTAMP '2024-01-31 23:59:59.999999';
SELECT order_id FROM orders
WHERE placed_at >= TIMESTAMP '2024-01-01' AND placed_at < TIMESTAMP '2024-02-01';

# title: an integer divided by a constant and compared with one vs the product
# expect: equivalent
# method: symbolic
# note: DuckDB's / is DOUBLE division; quantity / 12 >= 2 holds exactly for quantity >= 24
SELECT order_id, line_no FROM order_items WHERE quantity / 12 >= 2;
SELECT order_id, line_no FROM order_items WHERE quantity >= 24;

# title: a negative divisor turns the comparison around
# expect: equivalent
# method: symbolic
SELECT order_id FROM orders WHERE order_id / -10 < -3;
SELECT order_id FROM orders WHERE order_id > 30;

# title: near miss: a strict comparison of the quotient misses the product itself
# expect: not_equivalent
# note: quantity 24: 24 / 12 is 2.0, not above 2
SELECT order_id, line_no FROM order_items WHERE quantity / 12 > 2;
SELECT order_id, line_no FROM order_items WHERE quantity >= 24;

# title: a CASE in the WHERE clause vs the one branch that can be true
# expect: equivalent
# method: symbolic
SELECT COUNT(*) FROM orders
WHERE CASE WHEN status = 'shipped' THEN 2 WHEN status = 'paid' THEN 1 ELSE NULL END = 1;
SELECT COUNT(*) FROM orders WHERE status = 'paid';

# title: contradictory bounds vs an empty result
# expect: equivalent
# method: symbolic
SELECT order_id FROM orders WHERE amount > 10 AND amount <= 10;
SELECT order_id FROM orders WHERE 1 = 0;

# title: a range implied by a join vs the range repeated on the other side
# expect: equivalent
# method: symbolic
SELECT o.order_id, c.name
FROM orders o JOIN customers c ON o.customer_id = c.customer_id
WHERE c.customer_id < 4;
SELECT o.order_id, c.name
FROM orders o JOIN customers c ON o.customer_id = c.customer_id
WHERE c.customer_id < 4 AND o.customer_id <= 3;

# title: a LEFT JOIN whose WHERE rejects the NULL-extended rows vs an inner join
# expect: equivalent
# method: symbolic
SELECT c.name, o.order_id
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE o.amount > 100;
SELECT c.name, o.order_id
FROM customers c JOIN orders o ON o.customer_id = c.customer_id
WHERE o.amount > 100;

# title: a redundant join to the parent on a NOT NULL foreign key
# expect: equivalent
# method: symbolic
# note: every order has exactly one customer, so the join neither drops nor repeats rows
SELECT o.order_id, o.amount
FROM orders o JOIN customers c ON o.customer_id = c.customer_id;
SELECT o.order_id, o.amount FROM orders o;

# title: a self-join on the primary key vs the table alone
# expect: equivalent
# method: symbolic
SELECT a.order_id, b.status
FROM orders a JOIN orders b ON a.order_id = b.order_id
WHERE a.amount > 5;
SELECT order_id, status FROM orders WHERE amount > 5;

# title: COUNT of a NOT NULL column vs COUNT(*)
# expect: equivalent
# method: symbolic
SELECT customer_id, COUNT(placed_at) FROM orders GROUP BY customer_id;
SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id;

# title: HAVING on an integer count, >= 2 vs > 1
# expect: equivalent
# method: symbolic
SELECT customer_id FROM orders GROUP BY customer_id HAVING COUNT(*) >= 2;
SELECT customer_id FROM orders GROUP BY customer_id HAVING COUNT(*) > 1;

# title: COALESCE vs CASE WHEN IS NULL
# expect: equivalent
# method: symbolic
SELECT order_id, COALESCE(status, 'none') FROM orders;
SELECT order_id, CASE WHEN status IS NULL THEN 'none' ELSE status END FROM orders;

# title: NOT IN a list vs a conjunction of inequalities
# expect: equivalent
# method: symbolic
# note: both are unknown for a NULL status and filter the row out
SELECT order_id FROM orders WHERE status NOT IN ('paid', 'shipped');
SELECT order_id FROM orders WHERE status <> 'paid' AND status <> 'shipped';

# title: an EXISTS implied by the join it repeats
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id
WHERE EXISTS (SELECT 1 FROM customers c2 WHERE c2.customer_id = o.customer_id);
SELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id;

# title: a CHECK constraint makes a filter redundant
# expect: equivalent
# method: symbolic
# note: quantity > 0 is declared, so quantity >= 1 holds on every row
SELECT order_id, line_no FROM order_items WHERE quantity >= 1 AND product_id = 3;
SELECT order_id, line_no FROM order_items WHERE product_id = 3;

# title: a date cast of a timestamp vs a half-open timestamp range
# expect: equivalent
# method: symbolic
SELECT order_id FROM orders WHERE CAST(placed_at AS DATE) = DATE '2024-03-01';
SELECT order_id FROM orders
WHERE placed_at >= TIMESTAMP '2024-03-01' AND placed_at < TIMESTAMP '2024-03-02';

# title: the BETWEEN that stops at midnight of the last day is not the half-open range
# expect: not_equivalent
# cause: filter_window
SELECT order_id FROM orders
WHERE placed_at BETWEEN TIMESTAMP '2024-01-01' AND TIMESTAMP '2024-01-31';
SELECT order_id FROM orders
WHERE placed_at >= TIMESTAMP '2024-01-01' AND placed_at < TIMESTAMP '2024-02-01';

# title: a join to the parent on a nullable key is not redundant
# expect: not_equivalent
# schema: shop_nofk
SELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id;
SELECT o.order_id FROM orders o;

# title: YEAR of a date vs the half-open range of that year
# expect: equivalent
# method: symbolic
SELECT customer_id FROM customers WHERE YEAR(created_at) = 2024;
SELECT customer_id FROM customers
WHERE created_at >= DATE '2024-01-01' AND created_at < DATE '2025-01-01';

# title: date_trunc to the month vs a half-open month range
# expect: equivalent
# method: symbolic
SELECT order_id FROM orders WHERE date_trunc('month', placed_at) = DATE '2024-03-01';
SELECT order_id FROM orders
WHERE placed_at >= TIMESTAMP '2024-03-01' AND placed_at < TIMESTAMP '2024-04-01';

# title: a SUBSTRING prefix vs LIKE with that prefix
# expect: equivalent
# method: symbolic
# note: SUBSTRING(s, 1, 2) is the first two code points of s, '' or one when s is shorter
SELECT order_id FROM orders WHERE SUBSTRING(status, 1, 2) = 'pa';
SELECT order_id FROM orders WHERE status LIKE 'pa%';

# title: LEFT vs STARTS_WITH
# expect: equivalent
# method: symbolic
SELECT customer_id FROM customers WHERE LEFT(name, 3) = 'Acm';
SELECT customer_id FROM customers WHERE starts_with(name, 'Acm');

# title: ROUND to a whole number vs the range that rounds to it
# expect: equivalent
# method: symbolic
# note: DuckDB rounds decimals half away from zero; amount has two decimal places
SELECT order_id FROM orders WHERE ROUND(amount) = 3;
SELECT order_id FROM orders WHERE amount >= 2.5 AND amount < 3.5;

# title: the same rounded value under two spellings of one filter
# expect: equivalent
# method: symbolic
SELECT order_id, ROUND(amount, 1) FROM orders WHERE amount > 2;
SELECT order_id, ROUND(amount, 1) FROM orders WHERE amount >= 2.01;

# title: LOWER compared with two constants vs LOWER IN the list
# expect: equivalent
# method: symbolic
# note: LOWER is left uninterpreted; equal arguments give equal results whatever it does
SELECT order_id FROM orders WHERE LOWER(status) = 'paid' OR LOWER(status) = 'new';
SELECT order_id FROM orders WHERE LOWER(status) IN ('new', 'paid');

# title: an UPPER filter on the parent of a join with a rewritten amount bound
# expect: equivalent
# method: symbolic
SELECT o.order_id FROM orders o JOIN customers c ON c.customer_id = o.customer_id
WHERE UPPER(c.name) = 'ACME' AND o.amount > 5;
SELECT o.order_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id
WHERE o.amount >= 5.01 AND UPPER(c.name) = 'ACME';

# title: a date_diff in days vs the date it bounds
# expect: equivalent
# method: symbolic
# note: date_diff('day', d, DATE '2024-03-01') is the day count between them; <= 30 means d >= 2024-01-31
SELECT customer_id FROM customers WHERE date_diff('day', created_at, DATE '2024-03-01') <= 30;
SELECT customer_id FROM customers WHERE created_at >= DATE '2024-01-31';

# title: GREATEST with a floor below the bound vs the bound alone
# expect: equivalent
# method: symbolic
# note: GREATEST skips a NULL amount (giving 10, not above 20); amount > 20 is unknown there
SELECT order_id FROM orders WHERE GREATEST(amount, 10) > 20;
SELECT order_id FROM orders WHERE amount > 20;

# title: a year and its quarter vs the quarter's half-open range of timestamps
# expect: equivalent
# method: symbolic
# note: the two conjuncts read as one range: the quarter alone is calendar arithmetic that cost z3 a third of a second
SELECT SUM(amount) AS q3 FROM orders WHERE year(placed_at) = 2026 AND quarter(placed_at) = 3;
SELECT SUM(amount) AS q3 FROM orders
WHERE placed_at >= TIMESTAMP '2026-07-01 00:00:00' AND placed_at < TIMESTAMP '2026-10-01 00:00:00';

# title: near miss: a year and its quarter vs a range that stops a day short
# expect: not_equivalent
SELECT order_id FROM orders WHERE EXTRACT(year FROM placed_at) = 2026 AND quarter(placed_at) = 3;
SELECT order_id FROM orders
WHERE placed_at >= TIMESTAMP '2026-07-01 00:00:00' AND placed_at < TIMESTAMP '2026-09-30 00:00:00';

# title: a month of a leap year, the parts apart, vs the month's days
# expect: equivalent
# method: symbolic
SELECT order_id FROM orders WHERE month(placed_at) = 2 AND status = 'paid' AND year(placed_at) = 2024;
SELECT order_id FROM orders
WHERE status = 'paid' AND placed_at >= TIMESTAMP '2024-02-01' AND placed_at < TIMESTAMP '2024-03-01';

# title: near miss: December of one year vs a range into the next January
# expect: not_equivalent
SELECT COUNT(*) FROM orders WHERE year(placed_at) = 2025 AND month(placed_at) = 12;
SELECT COUNT(*) FROM orders
WHERE placed_at >= TIMESTAMP '2025-12-01' AND placed_at <= TIMESTAMP '2026-01-01';

# title: a year compared inside a derived table vs the year's range outside it
# expect: equivalent
# method: symbolic
# note: the derived table's column comes back in parentheses, (YEAR(placed_at)) = 2026
SELECT m, COUNT(*) AS n FROM (SELECT month(placed_at) AS m FROM orders WHERE year(placed_at) = 2026) AS t GROUP BY m;
SELECT month(placed_at) AS m, COUNT(*) AS n FROM orders
WHERE placed_at >= TIMESTAMP '2026-01-01' AND placed_at < TIMESTAMP '2027-01-01' GROUP BY month(placed_at);

# title: each order's customer name by a key lookup and by a join
# expect: equivalent
# method: symbolic
# note: the normalizer makes the key lookup a LEFT JOIN; the prover, with the NOT NULL foreign key, an inner one
SELECT o.order_id, (SELECT c.name FROM customers c WHERE c.customer_id = o.customer_id) FROM orders o;
SELECT o.order_id, c.name FROM orders o JOIN customers c ON c.customer_id = o.customer_id;

# title: a WHERE rewritten to its conjunctive form under a window over groups
# schema: shop
# expect: equivalent
# method: symbolic
# note: the prover does not read the derived table whole (a window over groups); the two are alike but for the WHERE, which z3 shows keeps the same rows (TPC-DS query 53 and sqlglot's optimizer)
SELECT x.customer_id, x.total FROM (
  SELECT customer_id, SUM(amount) AS total, AVG(SUM(amount)) OVER (PARTITION BY customer_id) AS mean
  FROM orders WHERE (status = 'paid' AND amount > 10) OR (status = 'new' AND amount > 100)
  GROUP BY customer_id, status) AS x
WHERE x.total > x.mean;
SELECT x.customer_id, x.total FROM (
  SELECT customer_id, SUM(amount) AS total, AVG(SUM(amount)) OVER (PARTITION BY customer_id) AS mean
  FROM orders WHERE (status = 'paid' OR status = 'new') AND (status = 'paid' OR amount > 100)
    AND (amount > 10 OR status = 'new') AND (amount > 10 OR amount > 100)
  GROUP BY customer_id, status) AS x
WHERE x.total > x.mean;

# title: the same, with a clause of the conjunctive form dropped
# schema: shop
# expect: not_equivalent
# note: a new order of amount 50 passes the second WHERE only
SELECT x.customer_id, x.total FROM (
  SELECT customer_id, SUM(amount) AS total, AVG(SUM(amount)) OVER (PARTITION BY customer_id) AS mean
  FROM orders WHERE (status = 'paid' AND amount > 10) OR (status = 'new' AND amount > 100)
  GROUP BY customer_id, status) AS x
WHERE x.total >= x.mean;
SELECT x.customer_id, x.total FROM (
  SELECT customer_id, SUM(amount) AS total, AVG(SUM(amount)) OVER (PARTITION BY customer_id) AS mean
  FROM orders WHERE (status = 'paid' OR status = 'new') AND (amount > 10 OR status = 'new')
    AND (amount > 10 OR amount > 100)
  GROUP BY customer_id, status) AS x
WHERE x.total >= x.mean;
