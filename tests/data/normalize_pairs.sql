# The normalizer's pairs (tests/test_normalize.py): spellings of one query that must meet
# (expect: equivalent, method: normalized: their canonical forms are equal) and near
# misses that must not (expect: not_equivalent). The corpus format (corpus/README.md),
# read with sqlequiv.corpus.load_file; the schema is tests/data/schemas/normalize_shop.sql.
# schema: normalize_shop

#----------------------------------------------------------------------
# Positive pairs: each must normalize to the same canonical SQL.
#----------------------------------------------------------------------

# 1. alias and table-alias renames
# title: alias-rename
# expect: equivalent
# method: normalized
SELECT c.name AS n FROM customers c;
SELECT x.name FROM customers AS x;

# title: unaliased-vs-aliased-table
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan = 'x';
SELECT cu.name AS customer_name FROM customers cu WHERE cu.plan = 'x';

# title: derived-table-alias-and-column-names
# expect: equivalent
# method: normalized
SELECT s.k, s.n FROM (SELECT plan AS k, count(*) AS n FROM customers GROUP BY plan) s WHERE s.n > 1;
SELECT q.p, q.cnt FROM (SELECT plan AS p, count(*) AS cnt FROM customers GROUP BY plan) AS q WHERE q.cnt > 1;

# title: correlated-subquery-aliases
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);
SELECT a.name FROM customers a WHERE EXISTS (SELECT 1 FROM orders b WHERE a.customer_id = b.customer_id);

# 2. column order at the top level
# title: column-order
# expect: equivalent
# method: normalized
SELECT name, plan FROM customers;
SELECT plan, name FROM customers;

# title: column-order-with-order-by-ordinal
# expect: equivalent
# method: normalized
SELECT name, plan FROM customers ORDER BY 2, 1;
SELECT plan, name FROM customers ORDER BY 1, 2;

# title: order-by-alias-vs-expression
# expect: equivalent
# method: normalized
SELECT name AS n FROM customers ORDER BY n DESC;
SELECT name FROM customers ORDER BY customers.name DESC;

# 3. AND / OR operand order, nesting and duplicates
# title: and-order
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan = 'x' AND customer_id > 1;
SELECT name FROM customers WHERE customer_id > 1 AND plan = 'x';

# title: and-nesting-and-dup
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE (plan = 'x' AND name = 'a') AND plan = 'x';
SELECT name FROM customers WHERE name = 'a' AND (plan = 'x');

# title: or-order-and-dup
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan = 'x' OR name = 'a' OR plan = 'x';
SELECT name FROM customers WHERE name = 'a' OR plan = 'x';

# title: or-of-ands
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE (plan = 'x' AND name = 'a') OR customer_id = 1;
SELECT name FROM customers WHERE customer_id = 1 OR (name = 'a' AND plan = 'x');

# 4. BETWEEN, NOT BETWEEN, comparison orientation
# title: between
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE amount BETWEEN 1 AND 5;
SELECT order_id FROM orders WHERE amount >= 1 AND amount <= 5;

# title: not-between
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE amount NOT BETWEEN 1 AND 5;
SELECT order_id FROM orders WHERE amount < 1 OR amount > 5;

# title: between-timestamps
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE placed_at BETWEEN TIMESTAMP '2020-01-01' AND TIMESTAMP '2020-01-31';
SELECT order_id FROM orders WHERE TIMESTAMP '2020-01-31' >= placed_at AND placed_at >= TIMESTAMP '2020-01-01';

# title: between-a-date-string-and-a-timestamp
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE placed_at BETWEEN '2020-1-01' AND CAST('2020-01-01' AS DATE) + INTERVAL 30 DAY;
SELECT order_id FROM orders WHERE placed_at <= CAST('2020-01-01' AS DATE) + INTERVAL 30 DAY AND placed_at >= '2020-1-01';

# title: between-integers-for-a-double
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE CAST(amount AS DOUBLE) BETWEEN 100 AND 200.5;
SELECT order_id FROM orders WHERE CAST(amount AS DOUBLE) >= 100 AND CAST(amount AS DOUBLE) <= 200.5;

# title: simple-case-vs-searched-case
# expect: equivalent
# method: normalized
SELECT order_id, CASE customer_id WHEN 0 THEN 0 WHEN 1 THEN order_id ELSE amount END FROM orders;
SELECT order_id, CASE WHEN customer_id = 0 THEN 0 WHEN customer_id = 1 THEN order_id ELSE amount END FROM orders;

# title: a-filter-on-the-padded-side-in-a-derived-table-or-in-the-on
# expect: equivalent
# method: normalized
SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN (SELECT order_id, customer_id, amount FROM orders WHERE amount > 10) o ON TRUE AND c.customer_id = o.customer_id GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id AND o.amount > 10 GROUP BY c.customer_id;

# title: an-unread-aggregate-of-a-grouped-derived-table
# expect: equivalent
# method: normalized
SELECT s.plan FROM (SELECT plan, COUNT(*) AS n FROM customers GROUP BY plan HAVING COUNT(*) > 1) s;
SELECT plan FROM customers GROUP BY plan HAVING COUNT(*) > 1;

# title: inner-joins-after-a-left-join-are-filters
# expect: equivalent
# method: normalized
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id JOIN customers k ON TRUE AND k.customer_id = c.customer_id AND k.plan = 'x' WHERE TRUE;
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id, customers k WHERE k.customer_id = c.customer_id AND k.plan = 'x';

# title: a-derived-table-after-a-left-join
# expect: equivalent
# method: normalized
SELECT c.name, o.order_id, k.plan FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id, (SELECT customer_id, plan FROM customers WHERE plan <> 'x') k WHERE k.customer_id = c.customer_id;
SELECT c.name, o.order_id, k.plan FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id JOIN customers k ON k.customer_id = c.customer_id WHERE k.plan <> 'x';

# title: left-outer-join-is-left-join
# expect: equivalent
# method: normalized
SELECT c.name, o.order_id FROM customers c LEFT OUTER JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id;

# title: two-keyed-tables-in-either-from-order
# expect: equivalent
# method: normalized
SELECT 1 FROM customers c, orders o WHERE c.customer_id = o.order_id AND c.plan = 'x' AND o.amount > 5;
SELECT 1 FROM orders o, customers c WHERE o.amount > 5 AND c.plan = 'x' AND o.order_id = c.customer_id;

# title: max-of-an-uncorrelated-scalar-in-a-grouped-having
# expect: equivalent
# method: normalized
SELECT customer_id, SUM(amount) FROM orders GROUP BY customer_id HAVING SUM(amount) > MAX((SELECT AVG(amount) FROM orders));
SELECT customer_id, SUM(amount) FROM orders GROUP BY customer_id HAVING SUM(amount) > (SELECT AVG(amount) FROM orders);

# title: an-unread-column-of-a-union-all
# expect: equivalent
# method: normalized
SELECT u.k, SUM(u.v) FROM (SELECT customer_id AS k, amount AS v, order_id AS extra FROM orders UNION ALL SELECT customer_id, 1, customer_id FROM customers) u GROUP BY u.k;
SELECT u.k, SUM(u.v) FROM (SELECT customer_id AS k, amount AS v FROM orders UNION ALL SELECT customer_id, 1 FROM customers) u GROUP BY u.k;

# (This pair was a near miss until 2026-12: both read every name and every plan, as
# DuckDB confirms; pruning the unread column of the UNION ALL showed it.)
# title: union-columns-by-position-whatever-their-names
# expect: equivalent
# method: normalized
SELECT u.x FROM (SELECT name AS x, plan AS y FROM customers UNION ALL SELECT plan AS y, name AS x FROM customers) u;
SELECT u.x FROM (SELECT plan AS y, name AS x FROM customers UNION ALL SELECT name AS x, plan AS y FROM customers) u;

# title: a-decorrelated-exists-of-a-join-under-or
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT o.customer_id AS k FROM orders o, customers x WHERE o.customer_id = x.customer_id AND x.plan = 'p' GROUP BY o.customer_id) t ON c.customer_id = t.k WHERE t.k IS NOT NULL OR c.plan = 'z';
SELECT c.name FROM customers c WHERE c.plan = 'z' OR EXISTS (SELECT 1 FROM orders o JOIN customers x ON o.customer_id = x.customer_id WHERE o.customer_id = c.customer_id AND x.plan = 'p');

# title: a-decorrelated-scalar-average-over-a-join
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o, customers c LEFT JOIN (SELECT 2 * AVG(p.amount) AS v, p.customer_id AS k FROM orders p, customers x WHERE p.customer_id = x.customer_id AND x.plan = 'p' GROUP BY p.customer_id) u ON c.customer_id = u.k WHERE o.order_id = c.customer_id AND o.amount > u.v;
SELECT o.order_id FROM orders o, customers c WHERE o.order_id = c.customer_id AND o.amount > (SELECT 2 * AVG(p.amount) FROM orders p JOIN customers x ON p.customer_id = x.customer_id WHERE x.plan = 'p' AND p.customer_id = c.customer_id);

# title: concatenated-string-literals
# expect: equivalent
# method: normalized
SELECT name, 'A' || ',' || 'B' FROM customers WHERE plan = 'x' || 'y';
SELECT name, 'A,B' FROM customers WHERE plan = 'xy';

# title: a-decorrelated-scalar-over-a-derived-table
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT AVG(t.s) AS v, t.k AS k FROM (SELECT customer_id AS k, SUM(amount) AS s FROM orders GROUP BY customer_id, placed_at) t GROUP BY t.k) u ON c.customer_id = u.k WHERE u.v > 10;
SELECT c.name FROM customers c WHERE (SELECT AVG(t.s) FROM (SELECT customer_id AS k, SUM(amount) AS s FROM orders GROUP BY customer_id, placed_at) t WHERE t.k = c.customer_id) > 10;

# title: a-sole-derived-table-with-a-left-join
# expect: equivalent
# method: normalized
SELECT t.k, SUM(t.v) FROM (SELECT c.customer_id AS k, COALESCE(o.amount, 0) AS v FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE c.plan = 'x') t WHERE t.v < 100 GROUP BY t.k;
SELECT c.customer_id, SUM(COALESCE(o.amount, 0)) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE c.plan = 'x' AND COALESCE(o.amount, 0) < 100 GROUP BY c.customer_id;

# title: a-decorrelated-in-over-a-ranked-derived-table
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT DISTINCT r.p AS p FROM (SELECT plan AS p, RANK() OVER (ORDER BY customer_id) AS n FROM customers) r WHERE r.n <= 3) u ON c.plan = u.p WHERE u.p IS NOT NULL;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM (SELECT plan AS p, RANK() OVER (ORDER BY customer_id) AS n FROM customers) r WHERE r.n <= 3 AND r.p = c.plan);

# (A derived table without FROM made merge_derived_tables raise, 2026-12: no proof.)
# title: a-sole-derived-table-without-from
# expect: equivalent
# method: normalized
SELECT t.a FROM (SELECT 1 AS a, NULL AS b) t WHERE t.a > 0;
SELECT u.x FROM (SELECT 1 AS x, NULL AS y) AS u WHERE 0 < u.x;

# title: orientation
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE 5 < customer_id;
SELECT name FROM customers WHERE customer_id > 5;

# title: equality-orientation
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o, customers c WHERE o.customer_id = c.customer_id;
SELECT o.order_id FROM orders o, customers c WHERE c.customer_id = o.customer_id;

# 5. COUNT(1) / COUNT(literal)
# title: count-1
# expect: equivalent
# method: normalized
SELECT COUNT(1) FROM orders;
SELECT COUNT(*) FROM orders;

# title: count-string
# expect: equivalent
# method: normalized
SELECT COUNT('x') FROM orders;
SELECT COUNT(*) FROM orders;

# 6. inner-join order, comma joins, ON vs WHERE
# title: join-vs-comma
# expect: equivalent
# method: normalized
SELECT c.name, o.amount FROM customers c JOIN orders o ON c.customer_id = o.customer_id;
SELECT c.name, o.amount FROM customers c, orders o WHERE c.customer_id = o.customer_id;

# title: join-order
# expect: equivalent
# method: normalized
SELECT c.name FROM orders o INNER JOIN customers c ON o.customer_id = c.customer_id WHERE o.amount > 5;
SELECT c.name FROM customers c JOIN orders o ON c.customer_id = o.customer_id AND o.amount > 5;

# title: join-using
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c JOIN orders o USING (customer_id);
SELECT c.name FROM orders o, customers c WHERE o.customer_id = c.customer_id;

# title: self-join-swapped-aliases
# expect: equivalent
# method: normalized
SELECT a.order_id FROM orders a JOIN orders b ON a.customer_id = b.customer_id WHERE b.amount > 5;
SELECT y.order_id FROM orders x JOIN orders y ON x.customer_id = y.customer_id WHERE x.amount > 5;

# title: cross-join
# expect: equivalent
# method: normalized
SELECT c.name, o.order_id FROM customers c CROSS JOIN orders o;
SELECT c.name, o.order_id FROM orders o, customers c;

# 7. derived tables and CTEs vs the flat query
# title: derived-star
# expect: equivalent
# method: normalized
SELECT * FROM (SELECT name, plan FROM customers WHERE customer_id > 1) s;
SELECT name, plan FROM customers WHERE customer_id > 1;

# title: derived-with-outer-filter
# expect: equivalent
# method: normalized
SELECT s.name FROM (SELECT name, plan FROM customers) s WHERE s.plan = 'x';
SELECT name FROM customers WHERE plan = 'x';

# title: cte-flat
# expect: equivalent
# method: normalized
WITH s AS (SELECT name, plan FROM customers WHERE plan = 'x') SELECT name FROM s;
SELECT name FROM customers WHERE plan = 'x';

# title: cte-chain
# expect: equivalent
# method: normalized
WITH a AS (SELECT * FROM orders WHERE amount > 1), b AS (SELECT order_id, amount FROM a WHERE amount < 9) SELECT order_id FROM b;
SELECT order_id FROM orders WHERE amount > 1 AND amount < 9;

# title: derived-join
# expect: equivalent
# method: normalized
SELECT c.name, t.amount FROM customers c JOIN (SELECT customer_id, amount FROM orders WHERE amount > 2) t ON c.customer_id = t.customer_id;
SELECT c.name, o.amount FROM customers c, orders o WHERE o.amount > 2 AND c.customer_id = o.customer_id;

# title: derived-expression-projection
# expect: equivalent
# method: normalized
SELECT s.total FROM (SELECT amount * 2 AS total FROM orders) s WHERE s.total > 4;
SELECT amount * 2 FROM orders WHERE amount * 2 > 4;

# title: derived-grouped-identity
# expect: equivalent
# method: normalized
SELECT * FROM (SELECT plan, count(*) AS n FROM customers GROUP BY plan) t;
SELECT plan, count(*) FROM customers GROUP BY plan;

# title: derived-grouped-order-limit
# expect: equivalent
# method: normalized
SELECT * FROM (SELECT plan, count(*) AS n FROM customers GROUP BY plan) t ORDER BY t.n DESC LIMIT 1;
SELECT plan, count(*) AS n FROM customers GROUP BY plan ORDER BY n DESC LIMIT 1;

# title: cte-left-join
# expect: equivalent
# method: normalized
WITH big AS (SELECT * FROM customers WHERE plan = 'x') SELECT big.name, o.order_id FROM big LEFT JOIN orders o ON o.customer_id = big.customer_id;
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE c.plan = 'x';

# 8. GROUP BY ordinal and key order
# title: group-by-ordinal
# expect: equivalent
# method: normalized
SELECT plan, count(*) FROM customers GROUP BY 1;
SELECT plan, count(*) FROM customers GROUP BY plan;

# title: group-by-key-order
# expect: equivalent
# method: normalized
SELECT plan, name, count(*) FROM customers GROUP BY plan, name;
SELECT name, plan, count(*) FROM customers GROUP BY name, plan;

# 9. other sound rewrites
# title: not-equal
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE NOT (plan = 'x');
SELECT name FROM customers WHERE plan <> 'x';

# title: bang-equal
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan != 'x';
SELECT name FROM customers WHERE plan <> 'x';

# title: de-morgan
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE NOT (plan = 'x' OR customer_id < 2);
SELECT name FROM customers WHERE plan <> 'x' AND customer_id >= 2;

# title: in-single
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan IN ('x');
SELECT name FROM customers WHERE plan = 'x';

# title: in-sorted-dedup
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan IN ('y', 'x', 'y');
SELECT name FROM customers WHERE plan IN ('x', 'y');

# title: not-in-single
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan NOT IN ('x');
SELECT name FROM customers WHERE plan <> 'x';

# title: distinct-vs-group-by
# expect: equivalent
# method: normalized
SELECT DISTINCT plan FROM customers;
SELECT plan FROM customers GROUP BY plan;

# title: distinct-redundant-with-group-by
# expect: equivalent
# method: normalized
SELECT DISTINCT plan, count(*) FROM customers GROUP BY plan;
SELECT plan, count(*) FROM customers GROUP BY plan;

# title: parentheses
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE ((amount) + 1) > 2;
SELECT order_id FROM orders WHERE amount + 1 > 2;

# title: union-branch-aliases
# expect: equivalent
# method: normalized
SELECT name AS x FROM customers UNION SELECT plan AS y FROM customers;
SELECT c.name FROM customers c UNION SELECT d.plan FROM customers d;

# title: not-like
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE NOT (name LIKE 'a%' OR name IS NULL);
SELECT name FROM customers WHERE name NOT LIKE 'a%' AND name IS NOT NULL;

# title: having-orientation-and-alias
# expect: equivalent
# method: normalized
SELECT plan, count(*) AS n FROM customers GROUP BY plan HAVING n > 1;
SELECT plan, count(*) FROM customers GROUP BY 1 HAVING 1 < count(*);

# title: derived-union-column-names
# expect: equivalent
# method: normalized
SELECT u.n FROM (SELECT name AS n FROM customers UNION SELECT plan AS p FROM customers) u WHERE u.n = 'a';
SELECT v.m FROM (SELECT name AS m FROM customers UNION SELECT plan FROM customers) AS v WHERE 'a' = v.m;

# title: cte-twice-vs-chain
# expect: equivalent
# method: normalized
WITH a AS (SELECT customer_id, name FROM customers WHERE plan = 'x'), b AS (SELECT a.name FROM a JOIN orders o ON o.customer_id = a.customer_id) SELECT b.name FROM b, a WHERE a.name = b.name;
WITH a AS (SELECT customer_id, name FROM customers WHERE plan = 'x') SELECT x.name FROM a x JOIN orders o ON o.customer_id = x.customer_id JOIN a y ON y.name = x.name;

# title: exists-over-derived
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE EXISTS (SELECT * FROM (SELECT o.customer_id FROM orders o WHERE o.amount > 1) s WHERE s.customer_id = c.customer_id);
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.amount > 1 AND o.customer_id = c.customer_id);

# title: exists-star-vs-one
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.customer_id = c.customer_id);
SELECT c.name FROM customers c WHERE NOT EXISTS (SELECT DISTINCT o.amount FROM orders o WHERE c.customer_id = o.customer_id);

# title: aggregate-over-derived
# expect: equivalent
# method: normalized
SELECT count(*) FROM (SELECT * FROM orders WHERE amount > 1) s;
SELECT count(1) FROM orders WHERE amount > 1;

# title: three-way-self-join
# expect: equivalent
# method: normalized
SELECT a.order_id, b.order_id, c.order_id FROM orders a, orders b, orders c WHERE a.customer_id = b.customer_id AND b.amount < c.amount;
SELECT z.order_id, y.order_id, x.order_id FROM orders x, orders y, orders z WHERE z.customer_id = y.customer_id AND y.amount < x.amount;

# title: group-by-without-aggregates-vs-distinct-with-order
# expect: equivalent
# method: normalized
SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1 ORDER BY c.name LIMIT 2;
SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1 GROUP BY c.name ORDER BY c.name LIMIT 2;

# title: nested-derived
# expect: equivalent
# method: normalized
SELECT x.n FROM (SELECT y.n FROM (SELECT z.name AS n FROM (SELECT name FROM customers WHERE plan = 'x') z) y WHERE y.n = 'a') x;
SELECT name FROM customers WHERE plan = 'x' AND name = 'a';

# title: derived-correlated-reference
# expect: equivalent
# method: normalized
SELECT s.name FROM (SELECT name, customer_id FROM customers WHERE plan = 'x') s WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = s.customer_id);
SELECT c.name FROM customers c WHERE c.plan = 'x' AND EXISTS (SELECT 1 FROM orders o WHERE c.customer_id = o.customer_id);

# title: having-on-group-key-vs-where
# expect: equivalent
# method: normalized
SELECT plan, count(*) FROM customers GROUP BY plan HAVING plan = 'x' AND count(*) > 1;
SELECT plan, count(*) FROM customers WHERE plan = 'x' GROUP BY plan HAVING count(*) > 1;

# title: distinct-over-primary-key
# expect: equivalent
# method: normalized
SELECT DISTINCT customer_id, name FROM customers WHERE plan = 'x';
SELECT name, customer_id FROM customers WHERE plan = 'x';

# title: count-distinct-of-primary-key
# expect: equivalent
# method: normalized
SELECT plan, COUNT(DISTINCT customer_id) FROM customers WHERE name <> 'x' GROUP BY plan;
SELECT c.plan, COUNT(c.customer_id) FROM customers c WHERE c.name <> 'x' GROUP BY c.plan;

# title: intersect-of-filters-on-the-key
# expect: equivalent
# method: normalized
SELECT customer_id, name FROM customers WHERE plan = 'x' INTERSECT SELECT customer_id, name FROM customers WHERE name <> 'y';
SELECT c.customer_id, c.name FROM customers c WHERE c.plan = 'x' AND c.name <> 'y';

# title: one-row-aggregate-derived-table-vs-scalar-subquery
# expect: equivalent
# method: normalized
SELECT o.order_id, t.m FROM orders o, (SELECT MAX(amount) AS m FROM orders) t WHERE o.amount = t.m;
SELECT order_id, (SELECT MAX(amount) FROM orders) FROM orders WHERE amount = (SELECT MAX(amount) FROM orders);

# title: not-in-a-null-free-subquery-vs-not-exists
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL AND amount > 5);
SELECT c.name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.amount > 5 AND c.customer_id = o.customer_id);

# title: not-in-a-key-vs-not-exists
# expect: equivalent
# method: normalized
SELECT customer_id FROM orders WHERE order_id NOT IN (SELECT customer_id FROM customers);
SELECT o.customer_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.order_id);

# title: union-branch-order
# expect: equivalent
# method: normalized
SELECT name FROM customers UNION SELECT plan FROM customers WHERE plan <> 'x';
SELECT plan FROM customers WHERE 'x' <> plan UNION SELECT name FROM customers;

# title: union-all-chain-order-with-limit
# expect: equivalent
# method: normalized
SELECT name FROM customers UNION ALL SELECT plan FROM customers UNION ALL SELECT name FROM customers WHERE customer_id = 1 ORDER BY 1 LIMIT 3;
SELECT name FROM customers WHERE customer_id = 1 UNION ALL SELECT name FROM customers UNION ALL SELECT plan FROM customers ORDER BY 1 LIMIT 3;

# title: intersect-order-in-subquery
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE customer_id IN (SELECT customer_id FROM customers INTERSECT SELECT customer_id FROM orders);
SELECT order_id FROM orders WHERE customer_id IN (SELECT customer_id FROM orders INTERSECT SELECT customer_id FROM customers);

# title: union-order-by-name
# expect: equivalent
# method: normalized
SELECT name FROM customers UNION ALL SELECT plan FROM customers ORDER BY name;
SELECT name FROM customers UNION ALL SELECT plan FROM customers ORDER BY 1;

# ranked derived tables and the first rows by a total order
# title: ranked-derived-table-vs-order-by-limit
# expect: equivalent
# method: normalized
SELECT r.order_id, r.amount FROM (SELECT order_id, amount, ROW_NUMBER() OVER (ORDER BY amount DESC, order_id) AS rn FROM orders WHERE amount > 1) r WHERE r.rn <= 3 ORDER BY r.rn;
SELECT order_id, amount FROM orders WHERE amount > 1 ORDER BY amount DESC, order_id ASC LIMIT 3;

# title: qualify-vs-order-by-limit
# expect: equivalent
# method: normalized
SELECT order_id, amount FROM orders QUALIFY ROW_NUMBER() OVER (ORDER BY placed_at, order_id) < 3 ORDER BY placed_at, order_id;
SELECT o.order_id, o.amount FROM orders o ORDER BY o.placed_at, o.order_id LIMIT 2;

# title: ranked-derived-table-vs-qualify
# expect: equivalent
# method: normalized
SELECT customer_id, order_id FROM (SELECT customer_id, order_id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY placed_at DESC, order_id DESC) AS rn FROM orders) AS x WHERE rn = 1;
SELECT o.customer_id, o.order_id FROM orders o QUALIFY ROW_NUMBER() OVER (PARTITION BY o.customer_id ORDER BY o.placed_at DESC, o.order_id DESC) = 1;

# title: rank-read-twice
# expect: equivalent
# method: normalized
SELECT d.plan, d.k FROM (SELECT plan, RANK() OVER (ORDER BY plan) AS k FROM customers) d WHERE d.k <= 2;
SELECT plan, RANK() OVER (ORDER BY plan) FROM customers QUALIFY RANK() OVER (ORDER BY plan) <= 2;

# title: count-of-distinct-rows-of-a-key
# expect: equivalent
# method: normalized
SELECT COUNT(*) FROM (SELECT DISTINCT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1) AS s;
SELECT COUNT(DISTINCT c.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1;

# title: count-of-distinct-rows-not-null-by-where
# expect: equivalent
# method: normalized
SELECT COUNT(*) AS n FROM (SELECT DISTINCT plan FROM customers WHERE plan IS NOT NULL) AS s;
SELECT COUNT(DISTINCT plan) FROM customers WHERE plan IS NOT NULL;

# title: grouped-sum-of-indicators-vs-count-filter
# expect: equivalent
# method: normalized
SELECT plan, SUM(CASE WHEN name LIKE 'A%' THEN 1 ELSE 0 END) AS n FROM customers GROUP BY plan;
SELECT plan, COUNT(*) FILTER (WHERE name LIKE 'A%') FROM customers GROUP BY plan;

# title: grouped-sum-of-not-null-indicators-vs-count
# expect: equivalent
# method: normalized
SELECT c.customer_id, SUM(CASE WHEN o.amount IS NULL THEN 0 ELSE 1 END) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.amount) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;

# title: grouped-sum-of-inverted-indicators
# expect: equivalent
# method: normalized
SELECT plan, SUM(CASE WHEN name = 'a' THEN 0 ELSE 1 END) FROM customers GROUP BY plan;
SELECT plan, COUNT(CASE WHEN name = 'a' THEN NULL ELSE 1 END) FROM customers GROUP BY plan;

# title: not-equal-all-vs-not-in
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE customer_id <> ALL (SELECT customer_id FROM orders);
SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders);

# title: equal-any-vs-in
# expect: equivalent
# method: normalized
SELECT name FROM customers c WHERE c.customer_id = ANY (SELECT o.customer_id FROM orders o WHERE o.amount > 1);
SELECT name FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE amount > 1);

# title: explicit-asc
# expect: equivalent
# method: normalized
SELECT name FROM customers ORDER BY name ASC;
SELECT name FROM customers ORDER BY name;

# title: in-subquery-vs-exists
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o WHERE o.amount > 1 AND o.customer_id IN (SELECT c.customer_id FROM customers c WHERE c.plan = 'x');
SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND c.plan = 'x') AND o.amount > 1;

# title: in-subquery-over-the-same-table-unaliased-vs-exists
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE plan = 'y' AND name IN (SELECT name FROM customers WHERE plan = 'x');
SELECT c.name FROM customers c WHERE c.plan = 'y' AND EXISTS (SELECT 1 FROM customers k WHERE k.plan = 'x' AND c.name = k.name);

# title: in-subquery-whose-alias-shadows-the-outer-one-vs-exists
# expect: equivalent
# method: normalized
SELECT t.name FROM customers t WHERE t.customer_id IN (SELECT t.customer_id FROM orders t WHERE t.amount > 5);
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.amount > 5 AND c.customer_id = o.customer_id);

# title: in-distinct-subquery-of-a-join-vs-exists
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE c.customer_id IN (SELECT DISTINCT o.customer_id FROM orders o JOIN customers k ON k.customer_id = o.customer_id WHERE k.plan = 'y');
SELECT c.name FROM customers c WHERE EXISTS (SELECT o.order_id FROM orders o, customers k WHERE o.customer_id = c.customer_id AND k.customer_id = o.customer_id AND k.plan = 'y');

# title: except-of-keyed-rows-vs-not-exists
# expect: equivalent
# method: normalized
SELECT customer_id, name FROM customers WHERE plan = 'x' EXCEPT SELECT c.customer_id, c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1;
SELECT c.customer_id, c.name FROM customers c WHERE c.plan = 'x' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 1);

# title: count-filter-of-a-left-join-vs-its-on-condition
# expect: equivalent
# method: normalized
SELECT c.customer_id, COUNT(o.order_id) FILTER (WHERE o.amount > 1) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount > 1 GROUP BY c.customer_id;

# title: sums-of-a-case-of-a-left-join-vs-its-on-condition
# expect: equivalent
# method: normalized
SELECT c.name, COALESCE(SUM(CASE WHEN o.placed_at >= '2020-01-15' THEN o.amount END), 0), MAX(CASE WHEN o.placed_at >= '2020-01-15' THEN o.order_id END) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE c.plan = 'x' GROUP BY c.customer_id, c.name HAVING MAX(CASE WHEN o.placed_at >= '2020-01-15' THEN o.order_id END) IS NULL OR c.name = 'a';
SELECT c.name, COALESCE(SUM(o.amount), 0), MAX(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.placed_at >= '2020-01-15' WHERE c.plan = 'x' GROUP BY c.customer_id, c.name HAVING MAX(o.order_id) IS NULL OR c.name = 'a';

# title: join-to-a-keyed-table-vs-in
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE c.plan = 'x' AND o.amount > 1;
SELECT order_id FROM orders WHERE amount > 1 AND customer_id IN (SELECT customer_id FROM customers WHERE plan = 'x');

# title: grouped-join-to-a-keyed-table-vs-exists
# expect: equivalent
# method: normalized
SELECT o.customer_id, COUNT(*) FROM customers c, orders o WHERE o.customer_id = c.customer_id AND (c.plan = 'x' OR c.name = o.placed_at::TEXT) GROUP BY o.customer_id;
SELECT o.customer_id, COUNT(*) FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND (c.plan = 'x' OR c.name = o.placed_at::TEXT)) GROUP BY o.customer_id;

# title: not-in-guarded-by-the-where-vs-not-exists
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o WHERE o.amount IS NOT NULL AND o.amount NOT IN (SELECT p.amount FROM orders p WHERE p.amount IS NOT NULL AND p.order_id > 1);
SELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM orders p WHERE p.order_id > 1 AND p.amount = o.amount) AND o.amount IS NOT NULL;

# 30. foreign_key_joins: a join to the parent, and an EXISTS of it, that the (nullable)
# foreign key makes redundant once the key is tested
# title: fk-join-dropped-under-not-null-test
# expect: equivalent
# method: normalized
SELECT c.customer_id, o.amount FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT o.customer_id, o.amount FROM orders o WHERE o.customer_id IS NOT NULL;

# title: fk-exists-is-a-not-null-test
# expect: equivalent
# method: normalized
SELECT order_id FROM orders WHERE customer_id IN (SELECT customer_id FROM customers);
SELECT order_id FROM orders WHERE customer_id IS NOT NULL;

# title: distinct-child-keys-are-the-parents-with-a-child
# expect: equivalent
# method: normalized
SELECT DISTINCT customer_id FROM orders WHERE customer_id IS NOT NULL AND amount > 5;
SELECT c.customer_id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 5);

# 31. in_to_exists inside in_to_exists, and flatten_exists: whichever table a spelling
# nests inside the other, EXISTS over EXISTS is one EXISTS over the join
# title: in-inside-in-is-exists-over-a-join
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE c.customer_id IN (SELECT o.customer_id FROM orders o WHERE o.order_id IN (SELECT x.order_id FROM orders x WHERE x.amount > 5));
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders x, orders o WHERE x.amount > 5 AND o.order_id = x.order_id AND o.customer_id = c.customer_id);

# 32. distinct_key_semijoin: DISTINCT over a join that projects a NOT NULL key
# title: distinct-key-over-a-join-is-an-exists
# expect: equivalent
# method: normalized
SELECT DISTINCT c.customer_id, c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 100;
SELECT c.customer_id, c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.amount > 100 AND o.customer_id = c.customer_id);

# 33. inline_ctes: a deterministic CTE read twice is a derived table in each place
# title: cte-read-twice-is-two-derived-tables
# expect: equivalent
# method: normalized
WITH big AS (SELECT customer_id, amount FROM orders WHERE amount > 10) SELECT a.customer_id FROM big a JOIN big b ON a.customer_id = b.customer_id WHERE a.amount < b.amount;
SELECT x.customer_id FROM (SELECT customer_id, amount FROM orders WHERE amount > 10) x JOIN (SELECT customer_id, amount FROM orders WHERE amount > 10) y ON x.customer_id = y.customer_id WHERE x.amount < y.amount;

# title: a-small-cte-read-in-six-places-is-six-derived-tables
# expect: equivalent
# method: normalized
WITH c AS (SELECT customer_id, plan FROM customers) SELECT o.order_id FROM orders o, c a, c b, c d, c e, c f, c g WHERE a.customer_id = o.customer_id AND b.customer_id = a.customer_id AND d.customer_id = b.customer_id AND e.customer_id = d.customer_id AND f.customer_id = e.customer_id AND g.plan = f.plan;
SELECT o.order_id FROM orders o, customers a, customers b, customers d, customers e, customers f, customers g WHERE a.customer_id = o.customer_id AND b.customer_id = a.customer_id AND d.customer_id = b.customer_id AND e.customer_id = d.customer_id AND f.customer_id = e.customer_id AND g.plan = f.plan;

# title: inner-group-by-under-outer-group-by
# expect: equivalent
# method: normalized
SELECT t.plan, MAX(t.n) FROM (SELECT plan, name AS n FROM customers GROUP BY plan, name) t LEFT JOIN orders o ON o.customer_id = 7 GROUP BY t.plan;
SELECT c.plan, MAX(c.name) FROM customers c LEFT JOIN orders o ON o.customer_id = 7 GROUP BY c.plan;

# title: inner-distinct-in-exists-and-union
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM (SELECT DISTINCT customer_id FROM orders) o WHERE o.customer_id = c.customer_id) UNION SELECT d.plan FROM (SELECT DISTINCT plan FROM customers) d;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id) UNION SELECT plan FROM customers;

# title: group-by-primary-key-is-one-row-per-group
# expect: equivalent
# method: normalized
SELECT order_id, COUNT(amount), COUNT(*), MIN(placed_at), SUM(amount) FROM orders GROUP BY order_id, customer_id;
SELECT order_id, CASE WHEN amount IS NOT NULL THEN 1 ELSE 0 END, 1, placed_at, amount FROM orders;

# title: empty-left-join-side-is-nulls
# expect: equivalent
# method: normalized
SELECT o.order_id, t.name FROM orders o LEFT JOIN (SELECT * FROM customers WHERE FALSE) t ON t.customer_id = o.customer_id;
SELECT order_id, CAST(NULL AS VARCHAR) FROM orders;

# title: empty-from-of-a-right-join-is-nulls
# expect: equivalent
# method: normalized
SELECT t.amount, c.name FROM (SELECT * FROM orders WHERE 1 = 0) t RIGHT JOIN customers c ON t.customer_id = c.customer_id;
SELECT CAST(NULL AS DECIMAL(10, 2)), name FROM customers;

# title: a-window-count-is-never-null
# expect: equivalent
# method: normalized
SELECT * FROM (SELECT order_id, COUNT(amount) OVER (PARTITION BY customer_id) AS n FROM orders) t WHERE t.n IS NULL;
SELECT order_id, amount FROM orders WHERE 1 = 0;

# title: sum-of-sums-and-max-of-maxes
# expect: equivalent
# method: normalized
SELECT t.plan, SUM(t.s), MAX(t.m) FROM (SELECT c.plan AS plan, o.customer_id AS cid, SUM(o.order_id) AS s, MAX(o.amount) AS m FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.plan, o.customer_id) t GROUP BY t.plan;
SELECT c.plan, SUM(o.order_id), MAX(o.amount) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.plan;

# title: counts-through-union-all-under-rollup
# expect: equivalent
# method: normalized
SELECT t.plan, COALESCE(SUM(t.n), 0) FROM (SELECT plan, COUNT(*) AS n FROM customers GROUP BY plan UNION ALL SELECT plan, COUNT(*) AS n FROM customers GROUP BY plan) t GROUP BY ROLLUP (t.plan);
SELECT t.plan, COUNT(*) FROM (SELECT plan, 1 AS n FROM customers UNION ALL SELECT plan, 1 AS n FROM customers) t GROUP BY ROLLUP (t.plan);

# title: sum-of-the-count-of-an-ungrouped-table
# expect: equivalent
# method: normalized
SELECT SUM(t.n), MIN(t.m) FROM (SELECT COUNT(amount) AS n, MIN(placed_at) AS m FROM orders) t;
SELECT COUNT(amount), MIN(placed_at) FROM orders;

# title: left-join-read-as-a-match-is-exists
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o LEFT JOIN (SELECT customer_id, TRUE AS i FROM customers WHERE plan = 'pro') t ON t.customer_id = o.customer_id WHERE t.i IS NULL OR o.amount > 3;
SELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.plan = 'pro' AND o.customer_id = c.customer_id) OR o.amount > 3;

# title: in-over-not-null-columns-in-a-projection
# expect: equivalent
# method: normalized
SELECT c.customer_id IN (SELECT o.order_id FROM orders o WHERE o.amount > 5) FROM customers c;
SELECT EXISTS (SELECT 1 FROM orders o WHERE o.amount > 5 AND o.order_id = c.customer_id) FROM customers c;

# title: aggregates-pushed-below-a-join
# expect: equivalent
# method: normalized
SELECT o.customer_id, SUM(o.order_id), COUNT(*), MAX(o.amount) FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY o.customer_id, c.customer_id;
SELECT t1.customer_id, t1.s * t2.c, t2.c * t1.n, t1.m FROM (SELECT customer_id, SUM(order_id) AS s, COUNT(*) AS n, MAX(amount) AS m FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id, COUNT(*) AS c FROM customers GROUP BY customer_id) t2 ON t1.customer_id = t2.customer_id;

# title: aggregates-pushed-beside-a-distinct-side
# expect: equivalent
# method: normalized
SELECT t.customer_id, SUM(o.order_id), COUNT(*) FROM orders o JOIN (SELECT customer_id FROM customers GROUP BY customer_id) t ON o.customer_id = t.customer_id WHERE o.amount > 2 GROUP BY o.customer_id, t.customer_id;
SELECT t2.customer_id, t1.s, t1.n FROM (SELECT customer_id, SUM(order_id) AS s, COUNT(*) AS n FROM orders WHERE amount > 2 GROUP BY customer_id) t1 JOIN (SELECT customer_id FROM customers GROUP BY customer_id) t2 ON t1.customer_id = t2.customer_id;

# title: exists-of-an-ungrouped-aggregate-is-true
# expect: equivalent
# method: normalized
SELECT name FROM customers c WHERE EXISTS (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) AND plan = 'x';
SELECT name FROM customers WHERE plan = 'x';

# title: exists-of-an-empty-query-is-false
# expect: equivalent
# method: normalized
SELECT name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE 1 = 0 AND o.customer_id = c.customer_id) OR plan = 'x';
SELECT name FROM customers;

# title: a-parenthesized-tree-of-inner-joins
# expect: equivalent
# method: normalized
SELECT o.order_id, c.name FROM orders o JOIN (customers c CROSS JOIN orders p) ON o.customer_id = c.customer_id AND p.order_id = o.order_id;
SELECT o.order_id, c.name FROM orders o, customers c, orders p WHERE o.customer_id = c.customer_id AND p.order_id = o.order_id;

# title: count-of-a-join-as-pushed-counts
# expect: equivalent
# method: normalized
SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id;
SELECT COALESCE(SUM(t1.n * t2.n), 0) FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id, COUNT(*) AS n FROM customers GROUP BY customer_id) t2 ON t1.customer_id = t2.customer_id;

# title: aggregates-pushed-beside-a-keyed-table
# expect: equivalent
# method: normalized
SELECT c.customer_id, c.name, m.top FROM customers c JOIN (SELECT customer_id, MAX(amount) AS top FROM orders GROUP BY customer_id) m ON m.customer_id = c.customer_id;
SELECT c.customer_id, c.name, MAX(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY o.customer_id, c.customer_id, c.name;

# title: counts-per-customer-zero-included
# expect: equivalent
# method: normalized
SELECT c.customer_id, COALESCE(x.n, 0), x.s FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*) AS n, SUM(order_id) AS s FROM orders WHERE amount > 1 GROUP BY customer_id) x ON x.customer_id = c.customer_id;
SELECT c.customer_id, COUNT(o.order_id), SUM(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount > 1 GROUP BY c.customer_id;

# title: aggregates-over-distinct-values
# expect: equivalent
# method: normalized
SELECT SUM(t.customer_id), COUNT(t.customer_id), MAX(t.customer_id) FROM (SELECT customer_id FROM orders GROUP BY customer_id) t;
SELECT SUM(DISTINCT customer_id), COUNT(DISTINCT customer_id), MAX(customer_id) FROM orders;

# title: count-over-distinct-values-per-group
# expect: equivalent
# method: normalized
SELECT t.plan, COUNT(t.name) FROM (SELECT plan, name FROM customers GROUP BY plan, name) t GROUP BY t.plan;
SELECT plan, COUNT(DISTINCT name) FROM customers GROUP BY plan;

# title: order-by-either-copy-of-a-column
# expect: equivalent
# method: normalized
SELECT customer_id, customer_id FROM customers ORDER BY 2 LIMIT 2;
SELECT customer_id AS a, customer_id AS a FROM customers ORDER BY a LIMIT 2;

# title: a-join-to-distinct-rows-on-all-their-columns-is-exists
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o JOIN (SELECT customer_id, plan FROM customers GROUP BY customer_id, plan) g ON g.customer_id = o.customer_id AND g.plan = 'pro';
SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND c.plan = 'pro');

# title: an-unread-left-join-under-distinct
# expect: equivalent
# method: normalized
SELECT DISTINCT c.plan FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id;
SELECT DISTINCT plan FROM customers;

# title: an-unread-right-join-under-count-distinct
# expect: equivalent
# method: normalized
SELECT c.plan, COUNT(DISTINCT c.name) FROM orders o RIGHT JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.plan;
SELECT plan, COUNT(DISTINCT name) FROM customers GROUP BY plan;

# title: an-order-key-the-where-fixes
# expect: equivalent
# method: normalized
SELECT plan, name FROM customers WHERE plan = 'pro' ORDER BY plan, name LIMIT 3;
SELECT plan, name FROM customers WHERE plan = 'pro' ORDER BY name LIMIT 3;

# title: a-first-constant-row-is-not-null-is-exists
# expect: equivalent
# method: normalized
SELECT name FROM customers c WHERE (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id LIMIT 1) IS NOT NULL;
SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: in-a-grouped-subquery-as-a-decorrelated-left-join
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE c.customer_id IN (SELECT o.customer_id FROM orders o GROUP BY o.customer_id HAVING SUM(o.amount) > 300);
SELECT c.name FROM customers c LEFT JOIN (SELECT o.customer_id FROM orders o GROUP BY o.customer_id HAVING SUM(o.amount) > 300) u ON c.customer_id = u.customer_id WHERE NOT u.customer_id IS NULL;

# title: a-decorrelated-scalar-aggregate
# expect: equivalent
# method: normalized
SELECT o.order_id FROM orders o WHERE o.amount > (SELECT 0.5 * AVG(x.amount) FROM orders x WHERE x.customer_id = o.customer_id);
SELECT o.order_id FROM orders o LEFT JOIN (SELECT 0.5 * AVG(x.amount) AS v, x.customer_id AS k FROM orders x WHERE TRUE GROUP BY x.customer_id) u ON u.k = o.customer_id WHERE o.amount > u.v;

# title: a-group-by-inside-exists
# expect: equivalent
# method: normalized
SELECT name FROM customers c WHERE NOT EXISTS (SELECT o.customer_id FROM orders o WHERE o.customer_id = c.customer_id GROUP BY o.customer_id);
SELECT name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: two-decorrelated-left-joins
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE c.customer_id IN (SELECT o.customer_id FROM orders o GROUP BY o.customer_id) AND c.customer_id > (SELECT MIN(x.order_id) FROM orders x WHERE x.customer_id = c.customer_id);
SELECT c.name FROM customers c LEFT JOIN (SELECT o.customer_id FROM orders o GROUP BY o.customer_id) u0 ON c.customer_id = u0.customer_id LEFT JOIN (SELECT MIN(x.order_id) AS m, x.customer_id AS k FROM orders x GROUP BY x.customer_id) u1 ON u1.k = c.customer_id WHERE NOT u0.customer_id IS NULL AND c.customer_id > u1.m;

# title: integer-literals-folded
# expect: equivalent
# method: normalized
SELECT name FROM customers WHERE customer_id = 1998 + 1 OR customer_id = (2 - 5) * 3;
SELECT name FROM customers WHERE customer_id = 1999 OR customer_id = -9;

# title: a-one-row-aggregate-left-joined-on-true-is-a-scalar-subquery
# expect: equivalent
# method: normalized
SELECT c.name, t.m FROM customers c LEFT JOIN (SELECT MAX(amount) AS m FROM orders) t ON TRUE;
SELECT name, (SELECT MAX(amount) FROM orders) FROM customers;

# title: a-one-row-aggregate-cross-joined-among-left-joins
# expect: equivalent
# method: normalized
SELECT c.name, o.amount FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id CROSS JOIN (SELECT MAX(amount) AS m FROM orders) t WHERE o.amount = t.m;
SELECT c.name, o.amount FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount = (SELECT MAX(amount) FROM orders);

# title: calcite-single-value-scalar-subquery
# expect: equivalent
# method: normalized
SELECT c.name, t.v FROM customers c LEFT JOIN (SELECT CASE WHEN COUNT(o.amount IS NULL) > 1 THEN ERROR('more than one value in agg SINGLE_VALUE') ELSE MIN(o.amount) END AS v FROM orders o WHERE o.order_id < 3) t ON TRUE;
SELECT c.name, (SELECT o.amount FROM orders o WHERE o.order_id < 3) FROM customers c;

# title: calcite-single-value-in-a-where
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT CASE WHEN COUNT(*) > 1 THEN ERROR('two') ELSE MIN(o.customer_id) END AS v FROM orders o WHERE o.amount > 5) t ON TRUE WHERE c.customer_id < t.v OR c.plan = 'x';
SELECT name FROM customers WHERE customer_id < (SELECT customer_id FROM orders WHERE amount > 5) OR plan = 'x';

# title: a-when-true-branch-is-the-case
# expect: equivalent
# method: normalized
SELECT CASE WHEN TRUE THEN amount + 1 ELSE NULL END FROM orders;
SELECT amount + 1 FROM orders;

# title: a-when-false-branch-goes
# expect: equivalent
# method: normalized
SELECT CASE WHEN FALSE THEN 0 WHEN plan = 'x' THEN 1 ELSE 2 END FROM customers;
SELECT CASE WHEN plan = 'x' THEN 1 ELSE 2 END FROM customers;

# title: a-one-row-values-of-constants-is-its-constants
# expect: equivalent
# method: normalized
SELECT c.name, v.f FROM customers c, (VALUES (TRUE)) AS v(f);
SELECT name, TRUE FROM customers;

# title: calcite-spelled-out-in-over-a-nullable-probe
# expect: equivalent
# method: normalized
SELECT c.name, CASE WHEN t.c = 0 THEN FALSE WHEN c.plan IS NULL THEN NULL WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM customers c CROSS JOIN (SELECT COUNT(*) AS c, COUNT(d.name) AS ck FROM customers d WHERE d.customer_id > 1) t LEFT JOIN (SELECT d.name AS k, TRUE AS i FROM customers d WHERE d.customer_id > 1 GROUP BY d.name, TRUE) u ON c.plan = u.k;
SELECT name, plan IN (SELECT name FROM customers WHERE customer_id > 1) FROM customers;

# title: calcite-spelled-out-in-over-a-key
# expect: equivalent
# method: normalized
SELECT c.name, CASE WHEN t.c = 0 THEN FALSE WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM customers c CROSS JOIN (SELECT COUNT(*) AS c, COUNT(o.customer_id) AS ck FROM orders o) t LEFT JOIN (SELECT o.customer_id AS k, v.i AS i FROM orders o, (VALUES (TRUE)) AS v(i) GROUP BY o.customer_id, v.i) u ON c.customer_id = u.k;
SELECT name, customer_id IN (SELECT customer_id FROM orders) FROM customers;

# title: calcite-intersect-by-counting-grouped-branches
# expect: equivalent
# method: normalized
SELECT t.name, t.plan FROM (SELECT name, plan, COUNT(*) AS f FROM customers WHERE customer_id > 1 GROUP BY name, plan UNION ALL SELECT c.name, c.plan, COUNT(*) AS f FROM customers c WHERE c.plan = 'x' GROUP BY c.name, c.plan) AS t GROUP BY t.name, t.plan HAVING COUNT(*) = 2;
SELECT name, plan FROM customers WHERE customer_id > 1 INTERSECT SELECT name, plan FROM customers WHERE plan = 'x';

# title: intersect-by-counting-three-distinct-branches
# expect: equivalent
# method: normalized
SELECT t.k FROM (SELECT DISTINCT customer_id AS k FROM orders UNION ALL SELECT DISTINCT customer_id FROM customers UNION ALL SELECT DISTINCT o.customer_id FROM orders o WHERE o.amount > 5) t GROUP BY t.k HAVING COUNT(*) = 3;
SELECT customer_id FROM orders INTERSECT SELECT customer_id FROM customers INTERSECT SELECT customer_id FROM orders WHERE amount > 5;

# title: calcite-correlated-not-in-over-per-key-counts
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT COUNT(*) AS c, COUNT(*) AS ck, d.plan AS k FROM customers d WHERE d.name > 'a' GROUP BY d.plan) t ON c.plan = t.k LEFT JOIN (SELECT d.customer_id AS e, TRUE AS i, d.plan AS k FROM customers d WHERE d.name > 'a') u ON c.customer_id = u.e AND c.plan = u.k WHERE t.c = 0 OR (u.i IS NOT NULL OR t.ck < t.c) IS NOT TRUE;
SELECT c.name FROM customers c WHERE c.customer_id NOT IN (SELECT d.customer_id FROM customers d WHERE d.name > 'a' AND d.plan = c.plan);

# title: calcite-correlated-not-in-as-a-negated-case
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT COUNT(*) AS c, COUNT(o.customer_id) AS ck, o.order_id AS k FROM orders o GROUP BY o.order_id) t ON c.customer_id = t.k LEFT JOIN (SELECT o.customer_id AS e, TRUE AS i, o.order_id AS k FROM orders o) u ON c.customer_id = u.e AND c.customer_id = u.k WHERE NOT CASE WHEN t.c = 0 THEN FALSE WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN TRUE ELSE FALSE END;
SELECT c.name FROM customers c WHERE c.customer_id NOT IN (SELECT o.customer_id FROM orders o WHERE o.order_id = c.customer_id);

# title: nth-value-one-is-first-value
# expect: equivalent
# method: normalized
SELECT order_id, NTH_VALUE(amount, 1) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders;
SELECT order_id, FIRST_VALUE(amount) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders;

# title: except-of-one-table-keyed-rows-is-a-filter
# expect: equivalent
# method: normalized
SELECT customer_id, name FROM customers WHERE plan = 'x' EXCEPT SELECT customer_id, name FROM customers WHERE name > 'b';
SELECT DISTINCT customer_id, name FROM customers WHERE plan = 'x' AND NOT COALESCE(name > 'b', FALSE);

# title: a-one-row-aggregate-inside-a-join-tree-read-in-its-on
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (orders o LEFT JOIN (SELECT MAX(amount) AS m FROM orders) t ON TRUE) ON o.customer_id = c.customer_id AND o.amount = t.m;
SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount = (SELECT MAX(amount) FROM orders);

# title: a-union-all-branch-cut-to-more-rows-than-the-union-keeps
# expect: equivalent
# method: normalized
SELECT name FROM customers UNION ALL SELECT plan FROM customers ORDER BY 1 LIMIT 3;
(SELECT name FROM customers ORDER BY 1 LIMIT 5) UNION ALL (SELECT plan FROM customers ORDER BY 1 FETCH FIRST 3 ROWS ONLY) ORDER BY 1 LIMIT 3;

# title: an-except-all-of-a-query-and-itself-is-empty
# expect: equivalent
# method: normalized
SELECT t.name FROM (SELECT name, plan FROM customers EXCEPT ALL SELECT c.name, c.plan FROM customers c) t JOIN orders o ON o.customer_id = 1;
SELECT name FROM customers WHERE 1 = 0;

# title: an-intersect-with-an-empty-operand-is-empty
# expect: equivalent
# method: normalized
SELECT name FROM customers INTERSECT SELECT name FROM customers WHERE FALSE;
SELECT plan FROM orders, customers WHERE FALSE;

# title: aggregates-over-no-row-are-one-row-of-constants
# expect: equivalent
# method: normalized
SELECT COUNT(*), MIN(amount) FROM orders WHERE 1 = 0;
SELECT COUNT(o.order_id), MAX(o.amount) FROM orders o, customers c WHERE FALSE AND o.customer_id = c.customer_id;

# title: a-coalesce-of-an-aggregate-over-no-row
# expect: equivalent
# method: normalized
SELECT COALESCE(MAX(amount), 0) FROM orders WHERE FALSE;
SELECT COALESCE(MIN(o.amount), 0) FROM orders o, customers c WHERE 1 = 2;

# title: a-column-null-in-every-union-branch-is-null
# expect: equivalent
# method: normalized
SELECT t.n, SUM(t.u) FROM (SELECT name AS n, NULL AS u FROM customers UNION ALL SELECT plan, NULL FROM customers) t GROUP BY t.n;
SELECT t.n, NULL FROM (SELECT name AS n FROM customers UNION ALL SELECT plan FROM customers) t GROUP BY t.n;

# title: sum-and-avg-of-null-per-group-are-null
# expect: equivalent
# method: normalized
SELECT plan, SUM(NULL), AVG(NULL) FROM customers GROUP BY plan;
SELECT plan, NULL, NULL FROM customers GROUP BY plan;

# title: a-scalar-subquery-looking-a-column-up-by-a-key-is-a-left-join
# expect: equivalent
# method: normalized
SELECT o.order_id, (SELECT c.name FROM customers c WHERE c.customer_id = o.customer_id) AS n FROM orders o;
SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id;

# title: a-projected-single-value-subquery-keeps-its-name
# expect: equivalent
# method: normalized
SELECT t.v FROM (SELECT c.customer_id, (SELECT CASE WHEN COUNT(*) > 1 THEN ERROR('two') ELSE MIN(o.amount) END FROM orders o WHERE o.order_id = 1) AS v FROM customers c) t;
SELECT t.v FROM (SELECT c.customer_id, (SELECT o.amount FROM orders o WHERE o.order_id = 1) AS v FROM customers c) t;

# Queries over at most one row (one_row_sources): Spark's redundant GROUP BY and DISTINCT
# title: one-row-source-group-by
# expect: equivalent
# method: normalized
SELECT s.name FROM (SELECT name FROM customers ORDER BY customer_id LIMIT 1) s GROUP BY s.name;
SELECT s.name FROM (SELECT name FROM customers ORDER BY customer_id LIMIT 1) s;

# title: one-row-source-aggregate-distinct
# expect: equivalent
# method: normalized
SELECT SUM(DISTINCT s.amount), COUNT(DISTINCT s.amount) FROM (SELECT amount FROM orders ORDER BY order_id LIMIT 1) s GROUP BY s.amount;
SELECT SUM(s.amount), COUNT(s.amount) FROM (SELECT amount FROM orders ORDER BY order_id LIMIT 1) s GROUP BY s.amount;

# title: one-row-source-select-distinct-over-aggregate
# expect: equivalent
# method: normalized
SELECT DISTINCT s.m FROM (SELECT MAX(amount) AS m FROM orders) s WHERE s.m > 1;
SELECT s.m FROM (SELECT MAX(amount) AS m FROM orders) s WHERE s.m > 1;

# LIMIT below LEFT JOINs that meet at most one row (left_join_limits): Calcite's
# SortJoinTransposeRule, Spark's LimitPushDown
# title: left-join-limit-pushed-below
# expect: equivalent
# method: normalized
SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id LIMIT 3;
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 3) o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id;

# title: left-join-limit-kept-above-too
# expect: equivalent
# method: normalized
SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id DESC LIMIT 2;
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id DESC LIMIT 2) o LEFT JOIN customers c ON o.customer_id = c.customer_id ORDER BY o.order_id DESC LIMIT 2;

# title: left-join-limit-under-a-parenthesised-join
# expect: equivalent
# method: normalized
SELECT o.order_id, c.plan FROM (orders o LEFT JOIN customers c ON c.customer_id = o.customer_id AND c.plan = 'x') ORDER BY o.order_id LIMIT 2;
SELECT o.order_id, c.plan FROM ((SELECT * FROM orders ORDER BY order_id LIMIT 2) o LEFT JOIN customers c ON c.customer_id = o.customer_id AND c.plan = 'x') ORDER BY o.order_id;

# title: left-join-limit-smaller-inner-limit
# expect: equivalent
# method: normalized
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 2) o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id LIMIT 5;
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 2) o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id;

# UNION ALL branches' own LIMIT under the UNION's, no order (Spark's LimitPushDown)
# title: union-all-unordered-branch-limits
# expect: equivalent
# method: normalized
(SELECT name FROM customers) UNION ALL (SELECT plan FROM customers) LIMIT 3;
(SELECT name FROM customers LIMIT 3) UNION ALL (SELECT plan FROM customers LIMIT 4) LIMIT 3;

# Derived tables' columns in any order (sort_derived_columns)
# title: derived-columns-in-another-order
# expect: equivalent
# method: normalized
SELECT s.p, COUNT(*) FROM (SELECT DISTINCT name AS n, plan AS p FROM customers) s GROUP BY s.p;
SELECT s.p, COUNT(*) FROM (SELECT DISTINCT plan AS p, name AS n FROM customers) s GROUP BY s.p;

# title: derived-columns-in-another-order-with-ordinals
# expect: equivalent
# method: normalized
SELECT s.n FROM (SELECT amount AS a, order_id AS n FROM orders ORDER BY 1 DESC NULLS LAST, 2 LIMIT 2) s WHERE s.a > 1;
SELECT s.n FROM (SELECT order_id AS n, amount AS a FROM orders ORDER BY 2 DESC NULLS LAST, 1 LIMIT 2) s WHERE s.a > 1;

# A LEFT JOIN to per-key aggregates over a join, as a scalar subquery (left_join_to_scalar):
# TPC-H's query 2 decorrelated
# title: left-join-to-scalar-over-a-join
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c LEFT JOIN (SELECT SUM(o2.amount) AS m, o.customer_id AS k FROM orders o, orders o2 WHERE o2.customer_id = o.customer_id AND o.amount > 1 GROUP BY o.customer_id) u ON u.k = c.customer_id WHERE u.m > 5;
SELECT c.name FROM customers c WHERE (SELECT SUM(o2.amount) FROM orders o JOIN orders o2 ON o2.customer_id = o.customer_id WHERE o.amount > 1 AND o.customer_id = c.customer_id) > 5;

# A count of rows compared with zero, as [NOT] EXISTS (counted_exists)
# title: count-above-zero-as-exists
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) > 0;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: count-at-least-one-as-exists
# expect: equivalent
# method: normalized
SELECT c.name FROM customers c WHERE 1 <= (SELECT COUNT(1) FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 5);
SELECT c.name FROM customers c WHERE EXISTS (SELECT * FROM orders o WHERE o.amount > 5 AND o.customer_id = c.customer_id);

# title: count-zero-as-not-exists
# expect: equivalent
# method: normalized
SELECT c.name, (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) = 0 FROM customers c;
SELECT c.name, NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id) FROM customers c;

# The parents that have a matching child, as the children's foreign keys
# (parent_key_semijoins)
# title: parents-with-a-child-counted-over-the-children
# expect: equivalent
# method: normalized
SELECT COUNT(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 5);
SELECT COUNT(DISTINCT customer_id) FROM orders WHERE amount > 5;

# title: parents-with-a-child-counted-by-a-join
# expect: equivalent
# method: normalized
SELECT COUNT(DISTINCT c.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 5;
SELECT COUNT(*) FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE amount > 5);

# (the keys listed are met by distinct_key_semijoin, the other way round; kept beside
# the counts, which parent_key_semijoins writes over the children)
# title: parent-keys-with-a-child-listed-over-the-children
# expect: equivalent
# method: normalized
SELECT c.customer_id FROM customers c WHERE c.customer_id IN (SELECT o.customer_id FROM orders o WHERE o.placed_at > TIMESTAMP '2020-01-01 00:00:00');
SELECT DISTINCT o.customer_id FROM orders o WHERE o.placed_at > TIMESTAMP '2020-01-01 00:00:00' AND o.customer_id IS NOT NULL;

# title: not-null-test-under-null-skipping-aggregates
# expect: equivalent
# method: normalized
SELECT MAX(amount), COUNT(DISTINCT amount) FROM orders WHERE amount IS NOT NULL AND customer_id > 1;
SELECT MAX(o.amount), COUNT(DISTINCT o.amount) FROM orders o WHERE o.customer_id > 1;

# A HAVING on a group's greatest (least) value as a WHERE on each row (extremum_having)
# title: having-max-above-as-where
# expect: equivalent
# method: normalized
SELECT customer_id FROM orders GROUP BY customer_id HAVING MAX(amount) > 5;
SELECT DISTINCT o.customer_id FROM orders o WHERE o.amount > 5;

# title: having-min-below-as-where
# expect: equivalent
# method: normalized
SELECT customer_id FROM orders WHERE placed_at IS NOT NULL GROUP BY customer_id HAVING 2 >= MIN(order_id);
SELECT customer_id FROM orders WHERE order_id <= 2 AND placed_at IS NOT NULL GROUP BY customer_id;

#----------------------------------------------------------------------
# Negative pairs: not equivalent, must not normalize equal.
#----------------------------------------------------------------------

# title: count-col-vs-star
# expect: not_equivalent
SELECT COUNT(plan) FROM customers;
SELECT COUNT(*) FROM customers;

# title: count-distinct-1-vs-star
# expect: not_equivalent
SELECT COUNT(DISTINCT 1) FROM customers;
SELECT COUNT(*) FROM customers;

# title: left-vs-inner
# expect: not_equivalent
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id;
SELECT c.name, o.order_id FROM customers c JOIN orders o ON c.customer_id = o.customer_id;

# title: left-join-filter-on-vs-where
# expect: not_equivalent
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id AND o.amount > 5;
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id WHERE o.amount > 5;

# title: distinct-vs-not
# expect: not_equivalent
SELECT DISTINCT plan FROM customers;
SELECT plan FROM customers;

# title: gte-vs-gt
# expect: not_equivalent
SELECT name FROM customers WHERE customer_id >= 2;
SELECT name FROM customers WHERE customer_id > 2;

# title: union-vs-union-all
# expect: not_equivalent
SELECT name FROM customers UNION SELECT plan FROM customers;
SELECT name FROM customers UNION ALL SELECT plan FROM customers;

# title: different-limit
# expect: not_equivalent
SELECT name FROM customers ORDER BY name LIMIT 1;
SELECT name FROM customers ORDER BY name LIMIT 2;

# title: order-direction
# expect: not_equivalent
SELECT name FROM customers ORDER BY name;
SELECT name FROM customers ORDER BY name DESC;

# title: column-order-under-union
# expect: not_equivalent
SELECT name, plan FROM customers UNION ALL SELECT plan, name FROM customers;
SELECT plan, name FROM customers UNION ALL SELECT plan, name FROM customers;

# title: self-join-different-filter-side
# expect: not_equivalent
SELECT a.order_id FROM orders a JOIN orders b ON a.customer_id = b.customer_id WHERE a.amount > 5;
SELECT a.order_id FROM orders a JOIN orders b ON a.customer_id = b.customer_id WHERE b.amount > 5;

# title: self-join-different-projection
# expect: not_equivalent
SELECT a.order_id, b.amount FROM orders a JOIN orders b ON a.order_id < b.order_id;
SELECT b.order_id, a.amount FROM orders a JOIN orders b ON a.order_id < b.order_id;

# title: derived-distinct-vs-flat
# expect: not_equivalent
SELECT s.plan FROM (SELECT DISTINCT plan, name FROM customers) s;
SELECT plan FROM customers;

# title: derived-group-vs-flat
# expect: not_equivalent
SELECT s.plan FROM (SELECT plan, count(*) AS n FROM customers GROUP BY plan) s;
SELECT plan FROM customers;

# title: derived-limit-vs-flat
# expect: not_equivalent
SELECT s.name FROM (SELECT name FROM customers ORDER BY name LIMIT 1) s;
SELECT name FROM customers ORDER BY name;

# title: derived-aggregate-vs-flat
# expect: not_equivalent
SELECT s.n FROM (SELECT count(*) AS n FROM orders) s WHERE s.n > 0;
SELECT count(*) FROM orders HAVING count(*) > 0 AND count(*) > 1;

# title: derived-on-null-side-constant
# expect: not_equivalent
SELECT c.name, s.one FROM customers c LEFT JOIN (SELECT 1 AS one, customer_id FROM orders) s ON c.customer_id = s.customer_id;
SELECT c.name, 1 FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id;

# title: not-in-vs-not-equal-any
# expect: not_equivalent
SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders);
SELECT name FROM customers WHERE customer_id <> ALL (SELECT customer_id FROM orders) OR customer_id IS NULL;

# title: not-vs-is-null
# expect: not_equivalent
SELECT name FROM customers WHERE NOT (plan = 'x');
SELECT name FROM customers WHERE plan <> 'x' OR plan IS NULL;

# title: not-in-with-null-vs-not-equal
# expect: not_equivalent
SELECT name FROM customers WHERE plan NOT IN ('x', NULL);
SELECT name FROM customers WHERE plan <> 'x';

# title: self-join-projection-from-other-side
# expect: not_equivalent
SELECT a.order_id FROM orders a, orders b WHERE a.amount < b.amount;
SELECT b.order_id FROM orders a, orders b WHERE a.amount < b.amount;

# title: group-by-extra-key-vs-distinct
# expect: not_equivalent
SELECT plan FROM customers GROUP BY plan, name;
SELECT DISTINCT plan FROM customers;

# title: count-null-vs-star
# expect: not_equivalent
SELECT count(s.n) FROM (SELECT NULL AS n FROM orders) s;
SELECT count(*) FROM orders;

# title: exists-aggregate-vs-one
# expect: not_equivalent
SELECT name FROM customers c WHERE EXISTS (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id);
SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: volatile-duplicate
# expect: not_equivalent
SELECT name FROM customers WHERE random() < 0.5 AND random() < 0.5;
SELECT name FROM customers WHERE random() < 0.5;

# title: intersect-of-filters-on-a-non-key
# expect: not_equivalent
SELECT name FROM customers WHERE plan = 'x' INTERSECT SELECT name FROM customers WHERE name <> 'y';
SELECT DISTINCT name FROM customers WHERE plan = 'x' AND name <> 'y';

# title: grouped-aggregate-derived-table-vs-scalar-subquery
# expect: not_equivalent
SELECT o.order_id FROM orders o, (SELECT MAX(amount) AS m FROM orders GROUP BY customer_id) t WHERE o.amount = t.m;
SELECT order_id FROM orders WHERE amount = (SELECT MAX(amount) FROM orders);

# title: filtered-aggregate-derived-table-vs-scalar-subquery
# expect: not_equivalent
SELECT o.order_id FROM orders o, (SELECT MAX(p.amount) AS m FROM orders p WHERE p.order_id < 3) t WHERE o.amount = t.m;
SELECT order_id FROM orders WHERE amount = (SELECT MAX(amount) FROM orders);

# title: not-in-a-subquery-that-may-return-null-vs-not-exists
# expect: not_equivalent
SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders);
SELECT c.name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE c.customer_id = o.customer_id);

# title: not-in-from-the-padded-side-of-a-left-join-vs-not-exists
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.order_id NOT IN (SELECT customer_id FROM customers);
SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE NOT EXISTS (SELECT 1 FROM customers d WHERE d.customer_id = o.order_id);

# title: not-in-from-a-nullable-column-vs-not-exists
# expect: not_equivalent
SELECT order_id FROM orders WHERE customer_id NOT IN (SELECT customer_id FROM customers);
SELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id);

# title: distinct-over-non-key
# expect: not_equivalent
SELECT DISTINCT customer_id, amount FROM orders;
SELECT customer_id, amount FROM orders;

# title: count-distinct-of-non-key
# expect: not_equivalent
SELECT COUNT(DISTINCT customer_id) FROM orders;
SELECT COUNT(customer_id) FROM orders;

# title: count-distinct-of-key-under-a-join
# expect: not_equivalent
SELECT COUNT(DISTINCT c.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT COUNT(c.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.customer_id;

# title: distinct-over-key-of-joined-table
# expect: not_equivalent
SELECT DISTINCT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id;

# title: having-aggregate-stays
# expect: not_equivalent
SELECT plan FROM customers GROUP BY plan HAVING count(*) > 1;
SELECT plan FROM customers WHERE plan IS NOT NULL GROUP BY plan HAVING count(*) > 1;

# title: having-without-group-by-stays
# expect: not_equivalent
SELECT count(*) FROM customers HAVING count(*) >= 0;
SELECT count(*) FROM customers WHERE customer_id >= 0;

# title: except-is-not-commutative
# expect: not_equivalent
SELECT name FROM customers EXCEPT SELECT plan FROM customers;
SELECT plan FROM customers EXCEPT SELECT name FROM customers;

# title: union-under-union-all
# expect: not_equivalent
SELECT name FROM customers UNION SELECT plan FROM customers UNION ALL SELECT name FROM customers;
SELECT name FROM customers UNION ALL SELECT plan FROM customers UNION SELECT name FROM customers;

# (The second branch's columns are matched by position, not by name: x is its plan.)
# title: derived-union-names-come-from-first-branch
# expect: not_equivalent
SELECT u.x FROM (SELECT name AS x, plan AS y FROM customers UNION ALL SELECT plan AS y, name AS x FROM customers) u;
SELECT u.x FROM (SELECT name AS x, plan AS y FROM customers UNION ALL SELECT name AS x, plan AS y FROM customers) u;

# title: order-by-all-depends-on-column-order
# expect: not_equivalent
SELECT name, plan FROM customers ORDER BY ALL DESC LIMIT 1;
SELECT plan, name FROM customers ORDER BY ALL DESC LIMIT 1;

# title: parenthesized-query-ordered-by-swapped-alias
# expect: not_equivalent
(SELECT name AS plan, plan AS name FROM customers) ORDER BY name LIMIT 1;
(SELECT name, plan FROM customers) ORDER BY name LIMIT 1;

# title: column-order-kept-when-asked
# expect: not_equivalent
SELECT name, plan FROM customers;
SELECT plan, name FROM customers;

# title: count-of-distinct-rows-counts-null
# expect: not_equivalent
SELECT COUNT(*) FROM (SELECT DISTINCT plan FROM customers) AS s;
SELECT COUNT(DISTINCT plan) FROM customers;

# title: count-of-distinct-rows-of-a-padded-column
# expect: not_equivalent
SELECT COUNT(*) FROM (SELECT DISTINCT o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id) AS s;
SELECT COUNT(DISTINCT o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id;

# title: ungrouped-sum-of-indicators-is-null-on-no-row
# expect: not_equivalent
SELECT SUM(CASE WHEN name LIKE 'A%' THEN 1 ELSE 0 END) FROM customers;
SELECT COUNT(*) FILTER (WHERE name LIKE 'A%') FROM customers;

# title: grouped-sum-without-else-is-null-in-a-group-without-match
# expect: not_equivalent
SELECT plan, SUM(CASE WHEN name LIKE 'A%' THEN 1 END) FROM customers GROUP BY plan;
SELECT plan, COUNT(*) FILTER (WHERE name LIKE 'A%') FROM customers GROUP BY plan;

# title: grouped-sum-of-inverted-indicators-vs-count
# expect: not_equivalent
SELECT plan, SUM(CASE WHEN name = 'a' THEN 0 ELSE 1 END) FROM customers GROUP BY plan;
SELECT plan, COUNT(*) FILTER (WHERE name <> 'a') FROM customers GROUP BY plan;

# title: not-equal-any-vs-not-in
# expect: not_equivalent
SELECT name FROM customers WHERE customer_id <> ANY (SELECT customer_id FROM orders);
SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders);

# title: equal-all-vs-in
# expect: not_equivalent
SELECT name FROM customers WHERE customer_id = ALL (SELECT customer_id FROM orders);
SELECT name FROM customers WHERE customer_id IN (SELECT customer_id FROM orders);

# title: row-number-over-ties-vs-limit
# expect: not_equivalent
SELECT order_id FROM orders QUALIFY ROW_NUMBER() OVER (ORDER BY amount) <= 2 ORDER BY amount;
SELECT order_id FROM orders ORDER BY amount LIMIT 2;

# title: qualify-without-order-by-vs-limit
# expect: not_equivalent
SELECT order_id FROM orders QUALIFY ROW_NUMBER() OVER (ORDER BY order_id) <= 2;
SELECT order_id FROM orders ORDER BY order_id LIMIT 2;

# title: first-per-partition-vs-first
# expect: not_equivalent
SELECT order_id FROM orders QUALIFY ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_id) = 1 ORDER BY order_id;
SELECT order_id FROM orders ORDER BY order_id LIMIT 1;

# title: filter-after-ranking-vs-before
# expect: not_equivalent
SELECT r.order_id FROM (SELECT order_id, amount, ROW_NUMBER() OVER (ORDER BY order_id) AS rn FROM orders) r WHERE r.rn <= 2 AND r.amount > 1 ORDER BY r.order_id;
SELECT order_id FROM orders WHERE amount > 1 ORDER BY order_id LIMIT 2;

# title: order-by-an-alias-of-another-column
# expect: not_equivalent
SELECT order_id AS amount, amount AS x FROM orders QUALIFY ROW_NUMBER() OVER (ORDER BY amount DESC, order_id) <= 2 ORDER BY amount DESC, order_id;
SELECT order_id AS amount, amount AS x FROM orders ORDER BY x DESC, amount LIMIT 2;

# title: negated-in-subquery-vs-not-exists
# expect: not_equivalent
SELECT o.order_id FROM orders o WHERE NOT (o.customer_id IN (SELECT c.customer_id FROM customers c WHERE c.plan = 'x'));
SELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND c.plan = 'x');

# title: in-subquery-as-a-value-vs-exists
# expect: not_equivalent
SELECT o.order_id, o.amount IN (SELECT p.amount FROM orders p WHERE p.order_id > 2) FROM orders o;
SELECT o.order_id, EXISTS (SELECT 1 FROM orders p WHERE p.order_id > 2 AND o.amount = p.amount) FROM orders o;

# title: except-of-unkeyed-rows-vs-not-exists
# expect: not_equivalent
SELECT name FROM customers EXCEPT SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: except-of-other-columns-vs-not-exists
# expect: not_equivalent
SELECT customer_id, name FROM customers EXCEPT SELECT c.customer_id, c.plan FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.customer_id, c.name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: count-star-filter-of-a-left-join-vs-its-on-condition
# expect: not_equivalent
SELECT c.customer_id, COUNT(*) FILTER (WHERE o.amount > 1) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(*) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount > 1 GROUP BY c.customer_id;

# title: case-of-the-preserved-side-vs-on-condition
# expect: not_equivalent
SELECT c.plan, COUNT(CASE WHEN o.amount > 1 THEN c.customer_id END) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.plan;
SELECT c.plan, COUNT(c.customer_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount > 1 GROUP BY c.plan;

# title: case-of-a-left-join-whose-where-reads-it-vs-on-condition
# expect: not_equivalent
SELECT c.customer_id, COUNT(CASE WHEN o.amount > 1 THEN o.order_id END) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount IS NULL OR o.amount > 1 GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount > 1 WHERE o.amount IS NULL OR o.amount > 1 GROUP BY c.customer_id;

# title: two-conditions-of-a-left-join-vs-one-on-condition
# expect: not_equivalent
SELECT c.customer_id, COUNT(CASE WHEN o.amount > 1 THEN o.order_id END), SUM(CASE WHEN o.amount > 2 THEN o.amount END) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;
SELECT c.customer_id, COUNT(o.order_id), SUM(o.amount) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount > 1 GROUP BY c.customer_id;

# title: row-number-of-ties-read-twice
# expect: not_equivalent
SELECT d.rn FROM (SELECT ROW_NUMBER() OVER (ORDER BY plan) AS rn FROM customers) d WHERE d.rn <= 2;
SELECT ROW_NUMBER() OVER (ORDER BY plan) FROM customers QUALIFY ROW_NUMBER() OVER (ORDER BY plan) <= 2;

# title: join-on-a-column-that-is-no-key-vs-exists
# expect: not_equivalent
SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 1);

# title: join-to-a-keyed-table-on-another-column-vs-exists
# expect: not_equivalent
SELECT o.order_id FROM orders o JOIN customers c ON c.name = o.placed_at::TEXT WHERE c.plan = 'x';
SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.name = o.placed_at::TEXT AND c.plan = 'x');

# title: not-in-guarded-under-or-vs-not-exists
# expect: not_equivalent
SELECT o.order_id FROM orders o WHERE o.amount IS NOT NULL OR o.amount NOT IN (SELECT p.amount FROM orders p WHERE p.amount IS NOT NULL);
SELECT o.order_id FROM orders o WHERE o.amount IS NOT NULL OR NOT EXISTS (SELECT 1 FROM orders p WHERE p.amount = o.amount);

# title: not-in-guarded-on-another-column-vs-not-exists
# expect: not_equivalent
SELECT o.order_id FROM orders o WHERE o.customer_id IS NOT NULL AND o.amount NOT IN (SELECT p.amount FROM orders p WHERE p.amount IS NOT NULL);
SELECT o.order_id FROM orders o WHERE o.customer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.amount = o.amount);

# title: fk-join-reading-the-parent-beyond-its-key
# expect: not_equivalent
SELECT c.name, o.amount FROM customers c JOIN orders o ON o.customer_id = c.customer_id;
SELECT o.customer_id, o.amount FROM orders o WHERE o.customer_id IS NOT NULL;

# title: distinct-child-keys-without-the-null-test
# expect: not_equivalent
SELECT DISTINCT customer_id FROM orders WHERE amount > 5;
SELECT c.customer_id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 5);

# title: exists-over-exists-is-not-exists-over-not-exists
# expect: not_equivalent
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND NOT EXISTS (SELECT 1 FROM orders x WHERE x.order_id = o.order_id AND x.amount > 5));
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders x, orders o WHERE x.amount > 5 AND o.order_id = x.order_id AND o.customer_id = c.customer_id);

# title: distinct-non-key-over-a-join-is-not-an-exists
# expect: not_equivalent
SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 100;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.amount > 100 AND o.customer_id = c.customer_id);

# title: cte-read-twice-against-two-different-filters
# expect: not_equivalent
WITH big AS (SELECT customer_id, amount FROM orders WHERE amount > 10) SELECT a.customer_id FROM big a JOIN big b ON a.customer_id = b.customer_id WHERE a.amount < b.amount;
SELECT x.customer_id FROM (SELECT customer_id, amount FROM orders WHERE amount > 10) x JOIN (SELECT customer_id, amount FROM orders WHERE amount > 20) y ON x.customer_id = y.customer_id WHERE x.amount < y.amount;

# title: inner-group-by-under-outer-count
# expect: not_equivalent
SELECT t.plan, COUNT(*) FROM (SELECT plan, name FROM customers GROUP BY plan, name) t GROUP BY t.plan;
SELECT plan, COUNT(*) FROM customers GROUP BY plan;

# title: inner-distinct-under-union-all
# expect: not_equivalent
SELECT d.plan FROM (SELECT DISTINCT plan FROM customers) d UNION ALL SELECT name FROM customers;
SELECT plan FROM customers UNION ALL SELECT name FROM customers;

# title: inner-distinct-under-an-unknown-aggregate
# expect: not_equivalent
SELECT t.plan, PRODUCT(t.customer_id) FROM (SELECT DISTINCT plan, customer_id FROM orders o JOIN customers c USING (customer_id)) t GROUP BY t.plan;
SELECT c.plan, PRODUCT(c.customer_id) FROM orders o JOIN customers c USING (customer_id) GROUP BY c.plan;

# title: group-by-a-non-key-is-not-one-row-per-group
# expect: not_equivalent
SELECT customer_id, COUNT(amount) FROM orders GROUP BY customer_id;
SELECT customer_id, CASE WHEN amount IS NOT NULL THEN 1 ELSE 0 END FROM orders;

# title: empty-side-of-an-inner-join
# expect: not_equivalent
SELECT o.order_id FROM orders o JOIN (SELECT * FROM customers WHERE FALSE) t ON TRUE;
SELECT order_id FROM orders;

# title: an-aggregate-over-no-row-is-one-row
# expect: not_equivalent
SELECT o.order_id, t.n FROM orders o LEFT JOIN (SELECT COUNT(*) AS n FROM customers WHERE FALSE) t ON TRUE;
SELECT order_id, CAST(NULL AS BIGINT) FROM orders;

# title: rollup-over-no-row-is-a-grand-total
# expect: not_equivalent
SELECT plan, COUNT(*) FROM customers WHERE FALSE GROUP BY ROLLUP (plan);
SELECT plan, COUNT(*) FROM customers WHERE FALSE GROUP BY plan;

# title: a-count-on-the-padded-side-is-null
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t ON t.customer_id = c.customer_id WHERE t.n IS NULL;
SELECT name FROM customers WHERE FALSE;

# title: sum-of-counts-over-no-group-is-null
# expect: not_equivalent
SELECT SUM(t.n) FROM (SELECT plan, COUNT(*) AS n FROM customers GROUP BY plan) t;
SELECT COUNT(*) FROM customers;

# title: min-of-sums-is-not-min
# expect: not_equivalent
SELECT t.plan, MIN(t.s) FROM (SELECT plan, name, SUM(customer_id) AS s FROM customers GROUP BY plan, name) t GROUP BY t.plan;
SELECT plan, MIN(customer_id) FROM customers GROUP BY plan;

# title: grouping-the-one-row-of-an-ungrouped-count
# expect: not_equivalent
SELECT SUM(t.n) FROM (SELECT COUNT(*) AS n FROM orders WHERE amount > 0) t GROUP BY 1 = 1;
SELECT COUNT(*) FROM orders WHERE amount > 0 GROUP BY 1 = 1;

# title: left-join-on-a-non-key-read-as-a-match
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT customer_id, 1 AS i FROM orders) t ON t.customer_id = c.customer_id WHERE t.i IS NOT NULL;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: in-over-a-nullable-column-in-a-projection
# expect: not_equivalent
SELECT o.customer_id IN (SELECT c.customer_id FROM customers c) FROM orders o;
SELECT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id) FROM orders o;

# title: a-sum-pushed-below-a-join-without-the-count
# expect: not_equivalent
SELECT a.customer_id, SUM(a.order_id) FROM orders a JOIN orders b ON a.customer_id = b.customer_id GROUP BY a.customer_id, b.customer_id;
SELECT t1.customer_id, t1.s FROM (SELECT customer_id, SUM(order_id) AS s FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id, COUNT(*) AS c FROM orders GROUP BY customer_id) t2 ON t1.customer_id = t2.customer_id;

# title: a-sum-pushed-below-a-join-times-a-key
# expect: not_equivalent
SELECT o.customer_id, SUM(o.order_id) FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY o.customer_id, c.customer_id;
SELECT t1.customer_id, t1.s * t2.customer_id FROM (SELECT customer_id, SUM(order_id) AS s FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id, COUNT(*) AS c FROM customers GROUP BY customer_id) t2 ON t1.customer_id = t2.customer_id;

# title: a-join-on-a-pushed-aggregate
# expect: not_equivalent
SELECT o.customer_id, MAX(o.order_id) FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY o.customer_id, c.customer_id;
SELECT t1.customer_id, t1.m FROM (SELECT customer_id, MAX(order_id) AS m FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id FROM customers GROUP BY customer_id) t2 ON t1.m = t2.customer_id;

# title: exists-of-a-grouped-aggregate
# expect: not_equivalent
SELECT name FROM customers c WHERE EXISTS (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id GROUP BY o.customer_id);
SELECT name FROM customers;

# title: exists-of-an-aggregate-with-having
# expect: not_equivalent
SELECT name FROM customers c WHERE EXISTS (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id HAVING COUNT(*) > 0);
SELECT name FROM customers;

# title: a-left-join-to-a-parenthesized-tree
# expect: not_equivalent
SELECT o.order_id FROM orders o LEFT JOIN (customers c CROSS JOIN orders p) ON o.customer_id = c.customer_id;
SELECT o.order_id FROM orders o, customers c, orders p WHERE o.customer_id = c.customer_id;

# title: pushed-counts-summed-without-coalesce
# expect: not_equivalent
SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id;
SELECT SUM(t1.n * t2.n) FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id, COUNT(*) AS n FROM customers GROUP BY customer_id) t2 ON t1.customer_id = t2.customer_id;

# title: aggregates-pushed-beside-a-keyed-table-but-summed
# expect: not_equivalent
SELECT c.plan, m.total FROM customers c JOIN (SELECT customer_id, SUM(order_id) AS total FROM orders GROUP BY customer_id) m ON m.customer_id = c.customer_id;
SELECT c.plan, SUM(o.order_id) FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY o.customer_id, c.plan;

# title: counts-per-customer-without-coalesce
# expect: not_equivalent
SELECT c.customer_id, x.n FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) x ON x.customer_id = c.customer_id;
SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;

# title: counts-per-customer-filtered-after-the-join
# expect: not_equivalent
SELECT c.customer_id, COALESCE(x.n, 0) FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*) AS n FROM orders WHERE amount > 1 GROUP BY customer_id) x ON x.customer_id = c.customer_id;
SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1 GROUP BY c.customer_id;

# title: counts-per-customer-as-count-star
# expect: not_equivalent
SELECT c.customer_id, COALESCE(x.n, 0) FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) x ON x.customer_id = c.customer_id;
SELECT c.customer_id, COUNT(*) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;

# title: count-over-values-distinct-with-another-column
# expect: not_equivalent
SELECT t.plan, COUNT(t.name) FROM (SELECT plan, name, customer_id FROM customers GROUP BY plan, name, customer_id) t GROUP BY t.plan;
SELECT plan, COUNT(DISTINCT name) FROM customers GROUP BY plan;

# title: order-by-another-column-of-the-same-name
# expect: not_equivalent
SELECT customer_id AS a, name AS b FROM customers ORDER BY 2 LIMIT 1;
SELECT customer_id AS a, name AS b FROM customers ORDER BY a LIMIT 1;

# title: a-join-to-distinct-rows-on-some-of-their-columns
# expect: not_equivalent
SELECT o.order_id FROM orders o JOIN (SELECT customer_id, plan FROM customers GROUP BY customer_id, plan) g ON g.plan = 'pro';
SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.plan = 'pro');

# title: an-unread-left-join-without-distinct
# expect: not_equivalent
SELECT c.plan FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id;
SELECT plan FROM customers;

# title: a-left-join-read-by-the-where-under-distinct
# expect: not_equivalent
SELECT DISTINCT c.plan FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 1;
SELECT DISTINCT plan FROM customers;

# title: an-order-key-the-where-does-not-fix
# expect: not_equivalent
SELECT plan, name FROM customers WHERE plan > 'pro' ORDER BY plan, name LIMIT 3;
SELECT plan, name FROM customers WHERE plan > 'pro' ORDER BY name LIMIT 3;

# title: a-first-nullable-value-is-not-null-is-not-exists
# expect: not_equivalent
SELECT name FROM customers c WHERE (SELECT o.amount FROM orders o WHERE o.customer_id = c.customer_id LIMIT 1) IS NOT NULL;
SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: in-a-grouped-subquery-of-another-column
# expect: not_equivalent
SELECT c.name FROM customers c WHERE c.customer_id IN (SELECT MAX(o.order_id) FROM orders o GROUP BY o.customer_id HAVING SUM(o.amount) > 300);
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id GROUP BY o.customer_id HAVING SUM(o.amount) > 300);

# title: a-left-join-to-groups-not-pinned-on-all-keys
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT o.customer_id, o.placed_at FROM orders o GROUP BY o.customer_id, o.placed_at) u ON c.customer_id = u.customer_id WHERE NOT u.customer_id IS NULL;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: a-decorrelated-scalar-count
# expect: not_equivalent
SELECT o.order_id, (SELECT COUNT(*) FROM orders x WHERE x.customer_id = o.customer_id) FROM orders o;
SELECT o.order_id, u.n FROM orders o LEFT JOIN (SELECT COUNT(*) AS n, x.customer_id AS k FROM orders x GROUP BY x.customer_id) u ON u.k = o.customer_id;

# title: a-decorrelated-scalar-with-a-default
# expect: not_equivalent
SELECT c.customer_id, (SELECT COALESCE(SUM(x.amount), 0) FROM orders x WHERE x.customer_id = c.customer_id) FROM customers c;
SELECT c.customer_id, u.v FROM customers c LEFT JOIN (SELECT COALESCE(SUM(x.amount), 0) AS v, x.customer_id AS k FROM orders x GROUP BY x.customer_id) u ON u.k = c.customer_id;

# title: a-rollup-inside-exists
# expect: not_equivalent
SELECT name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id GROUP BY ROLLUP (o.customer_id));
SELECT name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# title: integer-literals-divided-are-not-folded-as-integers
# expect: not_equivalent
SELECT customer_id + 7 / 2 FROM customers;
SELECT customer_id + 3 FROM customers;

# title: count-over-a-grouping-by-an-unprojected-key
# expect: not_equivalent
SELECT t.plan, COUNT(t.name) FROM (SELECT plan, name FROM customers GROUP BY plan, name, customer_id) t GROUP BY t.plan;
SELECT plan, COUNT(DISTINCT name) FROM customers GROUP BY plan;

# title: pushed-aggregates-beside-groups-with-an-unprojected-key
# expect: not_equivalent
SELECT t.customer_id, SUM(o.order_id) FROM orders o JOIN (SELECT customer_id FROM customers GROUP BY customer_id, name) t ON o.customer_id = t.customer_id GROUP BY o.customer_id, t.customer_id;
SELECT t2.customer_id, t1.s FROM (SELECT customer_id, SUM(order_id) AS s FROM orders GROUP BY customer_id) t1 JOIN (SELECT customer_id FROM customers GROUP BY customer_id, name) t2 ON t1.customer_id = t2.customer_id;

# title: an-unread-left-anti-join-under-distinct
# expect: not_equivalent
SELECT DISTINCT c.plan FROM customers c LEFT ANTI JOIN orders o ON o.customer_id = c.customer_id;
SELECT DISTINCT plan FROM customers;

# title: a-left-semi-join-to-an-empty-side
# expect: not_equivalent
SELECT c.name FROM customers c LEFT SEMI JOIN (SELECT * FROM orders WHERE FALSE) t ON t.customer_id = c.customer_id;
SELECT name FROM customers;

# title: a-shadowed-name-means-the-inner-source
# expect: not_equivalent
SELECT name FROM customers WHERE name IN (SELECT name FROM customers WHERE plan = 'x');
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM customers k WHERE c.plan = 'x' AND c.name = k.name);

# title: a-shadowing-alias-is-not-the-outer-row
# expect: not_equivalent
SELECT t.name FROM customers t WHERE t.customer_id IN (SELECT t.customer_id FROM orders t);
SELECT t.name FROM customers t WHERE EXISTS (SELECT 1 FROM orders o WHERE t.customer_id = t.customer_id);

# title: between-a-date-string-is-not-after-it
# expect: not_equivalent
SELECT order_id FROM orders WHERE placed_at BETWEEN '2020-1-01' AND CAST('2020-01-01' AS DATE) + INTERVAL 30 DAY;
SELECT order_id FROM orders WHERE placed_at <= CAST('2020-01-01' AS DATE) + INTERVAL 30 DAY AND placed_at > '2020-1-01';

# title: simple-case-on-null-is-not-is-null
# expect: not_equivalent
SELECT order_id, CASE customer_id WHEN NULL THEN 0 ELSE 1 END FROM orders;
SELECT order_id, CASE WHEN customer_id IS NULL THEN 0 ELSE 1 END FROM orders;


# title: a-filter-on-the-padded-side-is-not-a-filter-after-the-join
# expect: not_equivalent
SELECT c.customer_id, o.order_id FROM customers c LEFT JOIN (SELECT order_id, customer_id FROM orders WHERE amount > 10) o ON c.customer_id = o.customer_id;
SELECT c.customer_id, o.order_id FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id WHERE o.amount > 10;

# title: a-padded-constant-is-null-not-the-constant
# expect: not_equivalent
SELECT c.customer_id, o.one FROM customers c LEFT JOIN (SELECT customer_id, 1 AS one FROM orders WHERE amount > 10) o ON c.customer_id = o.customer_id;
SELECT c.customer_id, 1 FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id AND o.amount > 10;


# title: an-unread-aggregate-without-group-by-makes-one-row
# expect: not_equivalent
SELECT s.one FROM (SELECT 1 AS one, COUNT(*) AS n FROM customers) s;
SELECT 1 FROM customers;

# title: an-unread-column-of-a-distinct-derived-table-counts
# expect: not_equivalent
SELECT s.plan FROM (SELECT DISTINCT plan, name FROM customers) s;
SELECT DISTINCT plan FROM customers;


# title: a-filter-before-a-right-join-is-not-a-where
# expect: not_equivalent
SELECT c.name, o.order_id FROM customers c JOIN customers k ON k.customer_id = c.customer_id AND k.plan = 'x' RIGHT JOIN orders o ON o.customer_id = c.customer_id;
SELECT c.name, o.order_id FROM customers c CROSS JOIN customers k RIGHT JOIN orders o ON o.customer_id = c.customer_id WHERE k.customer_id = c.customer_id AND k.plan = 'x';


# title: a-derived-table-before-a-right-join-keeps-its-filter
# expect: not_equivalent
SELECT c.name, o.order_id FROM customers c, (SELECT customer_id FROM customers WHERE plan = 'x') k RIGHT JOIN orders o ON o.customer_id = k.customer_id WHERE k.customer_id = c.customer_id OR c.customer_id IS NULL;
SELECT c.name, o.order_id FROM customers c, customers k RIGHT JOIN orders o ON o.customer_id = k.customer_id WHERE (k.customer_id = c.customer_id OR c.customer_id IS NULL) AND k.plan = 'x';


# title: max-of-a-scalar-over-no-group-is-null
# expect: not_equivalent
SELECT MAX((SELECT AVG(amount) FROM orders)) FROM orders WHERE amount > 100;
SELECT (SELECT AVG(amount) FROM orders) FROM orders WHERE amount > 100 LIMIT 1;

# title: max-of-a-correlated-scalar-is-not-the-scalar
# expect: not_equivalent
SELECT o.customer_id, MAX((SELECT MAX(p.amount) FROM orders p WHERE p.order_id < o.order_id)) FROM orders o GROUP BY o.customer_id;
SELECT o.customer_id, (SELECT MAX(p.amount) FROM orders p WHERE p.order_id < MIN(o.order_id)) FROM orders o GROUP BY o.customer_id;


# title: an-unread-column-of-a-union-counts
# expect: not_equivalent
SELECT COUNT(u.k) FROM (SELECT customer_id AS k, order_id AS extra FROM orders UNION SELECT customer_id, customer_id FROM customers) u;
SELECT COUNT(u.k) FROM (SELECT customer_id AS k FROM orders UNION SELECT customer_id FROM customers) u;


# title: a-left-join-to-a-join-is-no-match-test
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT o.customer_id AS k FROM orders o, customers x WHERE o.customer_id = x.customer_id AND x.plan = 'p') t ON c.customer_id = t.k WHERE t.k IS NOT NULL OR c.plan = 'z';
SELECT c.name FROM customers c WHERE c.plan = 'z' OR EXISTS (SELECT 1 FROM orders o JOIN customers x ON o.customer_id = x.customer_id WHERE o.customer_id = c.customer_id AND x.plan = 'p');


# title: a-decorrelated-scalar-average-keeps-its-join
# expect: not_equivalent
SELECT o.order_id FROM orders o, customers c LEFT JOIN (SELECT 2 * AVG(p.amount) AS v, p.customer_id AS k FROM orders p, customers x WHERE p.customer_id = x.customer_id AND x.plan = 'p' GROUP BY p.customer_id) u ON c.customer_id = u.k WHERE o.order_id = c.customer_id AND o.amount > u.v;
SELECT o.order_id FROM orders o, customers c WHERE o.order_id = c.customer_id AND o.amount > (SELECT 2 * AVG(p.amount) FROM orders p WHERE p.customer_id = c.customer_id);


# title: concatenation-with-a-column-is-not-folded
# expect: not_equivalent
SELECT name FROM customers WHERE plan = 'x' || name;
SELECT name FROM customers WHERE plan = 'x';


# title: a-decorrelated-count-over-a-derived-table-is-zero-not-null
# expect: not_equivalent
SELECT c.name, u.n FROM customers c LEFT JOIN (SELECT COUNT(t.s) AS n, t.k AS k FROM (SELECT customer_id AS k, SUM(amount) AS s FROM orders GROUP BY customer_id, placed_at) t GROUP BY t.k) u ON c.customer_id = u.k;
SELECT c.name, (SELECT COUNT(t.s) FROM (SELECT customer_id AS k, SUM(amount) AS s FROM orders GROUP BY customer_id, placed_at) t WHERE t.k = c.customer_id) FROM customers c;


# title: a-filter-after-a-derived-left-join-is-not-in-its-on
# expect: not_equivalent
SELECT t.k, t.v FROM (SELECT c.customer_id AS k, o.amount AS v FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id) t WHERE t.v < 100;
SELECT c.customer_id, o.amount FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.amount < 100;


# title: a-left-join-to-a-ranked-derived-table-without-distinct-repeats
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT r.p AS p FROM (SELECT plan AS p, RANK() OVER (ORDER BY customer_id) AS n FROM customers) r WHERE r.n <= 3) u ON c.plan = u.p WHERE u.p IS NOT NULL;
SELECT c.name FROM customers c WHERE c.plan IN (SELECT r.p FROM (SELECT plan AS p, RANK() OVER (ORDER BY customer_id) AS n FROM customers) r WHERE r.n <= 3);


# title: a-sole-derived-table-without-from-and-another-value
# expect: not_equivalent
SELECT t.a FROM (SELECT 1 AS a, NULL AS b) t WHERE t.a > 0;
SELECT t.a FROM (SELECT 2 AS a, NULL AS b) t WHERE t.a > 0;


# title: a-one-row-aggregate-left-joined-on-a-condition-pads-with-null
# expect: not_equivalent
SELECT c.name, t.m FROM customers c LEFT JOIN (SELECT MAX(amount) AS m FROM orders) t ON c.customer_id > 1;
SELECT name, (SELECT MAX(amount) FROM orders) FROM customers;


# title: a-one-row-aggregate-before-a-right-join-is-padded
# expect: not_equivalent
SELECT o.order_id, t.m FROM customers c CROSS JOIN (SELECT MAX(amount) AS m FROM orders) t RIGHT JOIN orders o ON o.customer_id = c.customer_id;
SELECT o.order_id, (SELECT MAX(amount) FROM orders) FROM customers c RIGHT JOIN orders o ON o.customer_id = c.customer_id;


# title: single-value-under-exists-is-always-a-row
# expect: not_equivalent
SELECT name FROM customers c WHERE EXISTS (SELECT CASE WHEN COUNT(*) > 1 THEN ERROR('two') ELSE MIN(o.order_id) END FROM orders o WHERE o.customer_id = c.customer_id);
SELECT name FROM customers c WHERE EXISTS (SELECT o.order_id FROM orders o WHERE o.customer_id = c.customer_id);


# title: a-one-row-aggregate-joined-on-a-condition-filters
# expect: not_equivalent
SELECT o.order_id, t.m FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id JOIN (SELECT MAX(amount) AS m FROM orders) t ON o.amount = t.m;
SELECT o.order_id, (SELECT MAX(amount) FROM orders) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id;


# title: single-value-of-an-outer-column-aggregates-the-outer-query
# expect: not_equivalent
SELECT (SELECT CASE WHEN COUNT(*) > 1 THEN ERROR('two') ELSE MIN(c.customer_id) END FROM orders o WHERE o.order_id = 1) FROM customers c;
SELECT (SELECT c.customer_id FROM orders o WHERE o.order_id = 1) FROM customers c;


# title: a-when-true-after-a-condition-is-not-the-case
# expect: not_equivalent
SELECT CASE WHEN plan = 'x' THEN 1 WHEN TRUE THEN 2 END FROM customers;
SELECT 2 FROM customers;


# title: a-two-row-values-is-not-its-first-row
# expect: not_equivalent
SELECT c.name, v.f FROM customers c, (VALUES (TRUE), (FALSE)) AS v(f);
SELECT name, TRUE FROM customers;


# title: spelled-out-in-without-the-null-branch-over-a-nullable-probe
# expect: not_equivalent
SELECT c.name, CASE WHEN t.c = 0 THEN FALSE WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM customers c CROSS JOIN (SELECT COUNT(*) AS c, COUNT(d.name) AS ck FROM customers d WHERE d.customer_id > 1) t LEFT JOIN (SELECT d.name AS k, TRUE AS i FROM customers d WHERE d.customer_id > 1 GROUP BY d.name, TRUE) u ON c.plan = u.k;
SELECT name, plan IN (SELECT name FROM customers WHERE customer_id > 1) FROM customers;


# title: spelled-out-in-counting-another-column
# expect: not_equivalent
SELECT c.name, CASE WHEN t.c = 0 THEN FALSE WHEN c.plan IS NULL THEN NULL WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM customers c CROSS JOIN (SELECT COUNT(*) AS c, COUNT(d.plan) AS ck FROM customers d WHERE d.customer_id > 1) t LEFT JOIN (SELECT d.name AS k, TRUE AS i FROM customers d WHERE d.customer_id > 1 GROUP BY d.name, TRUE) u ON c.plan = u.k;
SELECT name, plan IN (SELECT name FROM customers WHERE customer_id > 1) FROM customers;


# title: spelled-out-in-with-another-filter-in-the-match
# expect: not_equivalent
SELECT c.name, CASE WHEN t.c = 0 THEN FALSE WHEN c.plan IS NULL THEN NULL WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN NULL ELSE FALSE END FROM customers c CROSS JOIN (SELECT COUNT(*) AS c, COUNT(d.name) AS ck FROM customers d WHERE d.customer_id > 1) t LEFT JOIN (SELECT d.name AS k, TRUE AS i FROM customers d WHERE d.customer_id > 2 GROUP BY d.name, TRUE) u ON c.plan = u.k;
SELECT name, plan IN (SELECT name FROM customers WHERE customer_id > 1) FROM customers;


# title: counting-two-of-three-branches-is-not-their-intersect
# expect: not_equivalent
SELECT t.k FROM (SELECT DISTINCT customer_id AS k FROM orders UNION ALL SELECT DISTINCT customer_id FROM customers UNION ALL SELECT DISTINCT o.customer_id FROM orders o WHERE o.amount > 5) t GROUP BY t.k HAVING COUNT(*) = 2;
SELECT customer_id FROM orders INTERSECT SELECT customer_id FROM customers INTERSECT SELECT customer_id FROM orders WHERE amount > 5;


# title: counting-branches-with-duplicates-is-not-their-intersect
# expect: not_equivalent
SELECT t.name, t.plan FROM (SELECT name, plan FROM customers WHERE customer_id > 1 UNION ALL SELECT c.name, c.plan FROM customers c WHERE c.plan = 'x') AS t GROUP BY t.name, t.plan HAVING COUNT(*) = 2;
SELECT name, plan FROM customers WHERE customer_id > 1 INTERSECT SELECT name, plan FROM customers WHERE plan = 'x';


# title: counting-a-nullable-column-is-not-counting-branches
# expect: not_equivalent
SELECT t.name, t.plan FROM (SELECT name, plan, COUNT(*) AS f FROM customers WHERE customer_id > 1 GROUP BY name, plan UNION ALL SELECT c.name, c.plan, COUNT(*) AS f FROM customers c WHERE c.plan = 'x' GROUP BY c.name, c.plan) AS t GROUP BY t.name, t.plan HAVING COUNT(t.name) = 2;
SELECT name, plan FROM customers WHERE customer_id > 1 INTERSECT SELECT name, plan FROM customers WHERE plan = 'x';


# title: per-key-count-not-in-over-a-nullable-probe
# expect: not_equivalent
SELECT o.order_id FROM orders o LEFT JOIN (SELECT COUNT(*) AS c, COUNT(*) AS ck, d.customer_id AS k FROM customers d GROUP BY d.customer_id) t ON o.order_id = t.k LEFT JOIN (SELECT d.customer_id AS e, TRUE AS i, d.customer_id AS k FROM customers d) u ON o.customer_id = u.e AND o.order_id = u.k WHERE t.c = 0 OR (u.i IS NOT NULL OR t.ck < t.c) IS NOT TRUE;
SELECT o.order_id FROM orders o WHERE o.customer_id NOT IN (SELECT d.customer_id FROM customers d WHERE d.customer_id = o.order_id);


# title: per-key-count-not-in-counting-rows-of-a-nullable-column
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT COUNT(*) AS c, COUNT(*) AS ck, o.order_id AS k FROM orders o GROUP BY o.order_id) t ON c.customer_id = t.k LEFT JOIN (SELECT o.customer_id AS e, TRUE AS i, o.order_id AS k FROM orders o) u ON c.customer_id = u.e AND c.customer_id = u.k WHERE NOT CASE WHEN t.c = 0 THEN FALSE WHEN u.i IS NOT NULL THEN TRUE WHEN t.ck < t.c THEN TRUE ELSE FALSE END;
SELECT c.name FROM customers c WHERE c.customer_id NOT IN (SELECT o.customer_id FROM orders o WHERE o.order_id = c.customer_id);


# title: per-key-count-not-in-with-another-filter-in-the-match
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT COUNT(*) AS c, COUNT(*) AS ck, d.plan AS k FROM customers d WHERE d.name > 'a' GROUP BY d.plan) t ON c.plan = t.k LEFT JOIN (SELECT d.customer_id AS e, TRUE AS i, d.plan AS k FROM customers d) u ON c.customer_id = u.e AND c.plan = u.k WHERE t.c = 0 OR (u.i IS NOT NULL OR t.ck < t.c) IS NOT TRUE;
SELECT c.name FROM customers c WHERE c.customer_id NOT IN (SELECT d.customer_id FROM customers d WHERE d.name > 'a' AND d.plan = c.plan);


# title: nth-value-two-is-not-first-value
# expect: not_equivalent
SELECT order_id, NTH_VALUE(amount, 2) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders;
SELECT order_id, FIRST_VALUE(amount) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders;


# title: except-of-one-table-rows-without-a-key-is-no-filter
# expect: not_equivalent
SELECT name FROM customers WHERE plan = 'x' EXCEPT SELECT name FROM customers WHERE customer_id > 2;
SELECT DISTINCT name FROM customers WHERE plan = 'x' AND NOT COALESCE(customer_id > 2, FALSE);


# title: a-one-row-aggregate-inside-a-padded-join-tree-read-outside
# expect: not_equivalent
SELECT c.name, t.m FROM customers c LEFT JOIN (orders o LEFT JOIN (SELECT MAX(amount) AS m FROM orders) t ON TRUE) ON o.customer_id = c.customer_id;
SELECT c.name, (SELECT MAX(amount) FROM orders) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id;


# title: a-union-all-branch-cut-to-fewer-rows-than-the-union-keeps
# expect: not_equivalent
SELECT customer_id FROM customers UNION ALL SELECT order_id + 100 FROM orders ORDER BY 1 LIMIT 3;
(SELECT customer_id FROM customers ORDER BY 1 LIMIT 2) UNION ALL (SELECT order_id + 100 FROM orders ORDER BY 1 LIMIT 3) ORDER BY 1 LIMIT 3;


# title: a-union-all-branch-cut-in-another-order
# expect: not_equivalent
SELECT customer_id FROM customers UNION ALL SELECT order_id + 100 FROM orders ORDER BY 1 LIMIT 1;
(SELECT customer_id FROM customers ORDER BY 1 DESC LIMIT 1) UNION ALL (SELECT order_id + 100 FROM orders ORDER BY 1 LIMIT 1) ORDER BY 1 LIMIT 1;


# title: an-except-all-of-a-query-and-a-filter-of-it-is-not-empty
# expect: not_equivalent
SELECT name FROM customers EXCEPT ALL SELECT name FROM customers WHERE plan = 'x';
SELECT name FROM customers WHERE 1 = 0;


# title: a-union-all-with-an-empty-operand-is-not-empty
# expect: not_equivalent
SELECT name FROM customers WHERE FALSE UNION ALL SELECT name FROM customers;
SELECT name FROM customers WHERE 1 = 0;


# title: a-left-join-to-an-empty-derived-table-is-not-empty
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT name FROM customers EXCEPT ALL SELECT name FROM customers) t ON t.name = c.name;
SELECT name FROM customers WHERE 1 = 0;


# title: an-except-all-of-a-volatile-query-and-itself-is-not-empty
# expect: not_equivalent
SELECT random() < 0.5 AS r FROM customers EXCEPT ALL SELECT random() < 0.5 AS r FROM customers;
SELECT plan = 'x' FROM customers WHERE FALSE;


# title: a-grouped-aggregate-over-no-row-is-no-row
# expect: not_equivalent
SELECT COUNT(*) FROM customers WHERE 1 = 2;
SELECT COUNT(*) FROM customers WHERE 1 = 2 GROUP BY plan;


# title: a-count-over-no-row-is-zero-not-null
# expect: not_equivalent
SELECT COUNT(amount) FROM orders WHERE FALSE;
SELECT SUM(amount) FROM orders WHERE FALSE;


# title: a-sum-of-null-without-group-by-is-one-row
# expect: not_equivalent
SELECT SUM(NULL) FROM customers;
SELECT NULL FROM customers;


# title: a-column-null-in-one-union-branch-only-is-not-null
# expect: not_equivalent
SELECT t.n, SUM(t.u) FROM (SELECT name AS n, NULL AS u FROM customers UNION ALL SELECT plan, customer_id FROM customers) t GROUP BY t.n;
SELECT t.n, NULL FROM (SELECT name AS n FROM customers UNION ALL SELECT plan FROM customers) t GROUP BY t.n;


# title: a-constant-column-on-the-padded-side-of-a-left-join-is-null-there
# expect: not_equivalent
SELECT c.name, s.one FROM customers c LEFT JOIN (SELECT 1 AS one, customer_id FROM orders UNION ALL SELECT 1, customer_id FROM orders) s ON s.customer_id = c.customer_id;
SELECT c.name, 1 FROM customers c LEFT JOIN (SELECT customer_id FROM orders UNION ALL SELECT customer_id FROM orders) s ON s.customer_id = c.customer_id;


# title: an-except-all-of-a-limited-query-and-itself-may-keep-rows
# expect: not_equivalent
SELECT name FROM (SELECT name FROM customers LIMIT 1) a EXCEPT ALL SELECT name FROM (SELECT name FROM customers LIMIT 1) b;
SELECT name FROM customers WHERE 1 = 0;


# title: a-one-row-arbitrary-pick-read-twice-is-not-two-picks
# expect: not_equivalent
SELECT c.name, t.v, t.v FROM customers c, (SELECT ANY_VALUE(name) AS v FROM customers) t;
SELECT c.name, (SELECT ANY_VALUE(name) FROM customers), (SELECT ANY_VALUE(name) FROM customers) FROM customers c;


# title: a-key-lookup-of-an-expression-is-not-the-expression-on-a-padded-row
# expect: not_equivalent
SELECT o.order_id, (SELECT COALESCE(c.name, 'none') FROM customers c WHERE c.customer_id = o.customer_id) FROM orders o;
SELECT o.order_id, COALESCE(c.name, 'none') FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id;


# title: distinct-nullable-keys-with-correlated-aggregates-are-no-group-by
# expect: not_equivalent
SELECT DISTINCT o.customer_id, (SELECT MAX(p.amount) FROM orders p WHERE p.customer_id = o.customer_id) FROM orders o;
SELECT customer_id, MAX(amount) FROM orders GROUP BY customer_id;


# title: distinct-keys-with-an-aggregate-over-another-filter-are-no-group-by
# expect: not_equivalent
SELECT DISTINCT c.plan, (SELECT COUNT(*) FROM customers d WHERE d.plan = c.plan AND d.name > 'a') FROM customers c WHERE c.plan IS NOT NULL;
SELECT plan, COUNT(*) FROM customers WHERE plan IS NOT NULL GROUP BY plan;


# near miss (one_row_sources): LIMIT 2 keeps two rows, which may repeat an amount
# title: near-miss-two-row-source-aggregate-distinct
# expect: not_equivalent
SELECT SUM(DISTINCT s.amount) FROM (SELECT amount FROM orders ORDER BY order_id LIMIT 2) s GROUP BY s.amount;
SELECT SUM(s.amount) FROM (SELECT amount FROM orders ORDER BY order_id LIMIT 2) s GROUP BY s.amount;

# near miss (one_row_sources): a join beside the one-row source multiplies its row
# title: near-miss-one-row-source-joined
# expect: not_equivalent
SELECT DISTINCT s.name FROM (SELECT name FROM customers ORDER BY customer_id LIMIT 1) s, orders o;
SELECT s.name FROM (SELECT name FROM customers ORDER BY customer_id LIMIT 1) s, orders o;

# near miss (left_join_limits): customer_id is no key of orders, a customer meets several
# title: near-miss-left-join-limit-many-matches
# expect: not_equivalent
SELECT c.customer_id, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id ORDER BY c.customer_id LIMIT 1;
SELECT c.customer_id, o.order_id FROM (SELECT * FROM customers ORDER BY customer_id LIMIT 1) c LEFT JOIN orders o ON o.customer_id = c.customer_id ORDER BY c.customer_id;

# near miss (left_join_limits): an inner join drops rows the limit counted
# title: near-miss-inner-join-limit
# expect: not_equivalent
SELECT o.order_id, c.name FROM orders o JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id LIMIT 1;
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 1) o JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id;

# near miss (left_join_limits): the inner LIMIT is larger than the query's
# title: near-miss-left-join-larger-inner-limit
# expect: not_equivalent
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 3) o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id LIMIT 2;
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 3) o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id;

# near miss (left_join_limits): ordered by the padded side's column
# title: near-miss-left-join-limit-ordered-by-padded-side
# expect: not_equivalent
SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY c.name, o.order_id LIMIT 1;
SELECT o.order_id, c.name FROM (SELECT * FROM orders ORDER BY order_id LIMIT 1) o LEFT JOIN customers c ON c.customer_id = o.customer_id ORDER BY c.name, o.order_id;

# near miss (union_branch_limits): a branch cut below the UNION's LIMIT
# title: near-miss-union-all-unordered-branch-limit-smaller
# expect: not_equivalent
SELECT name FROM customers UNION ALL SELECT plan FROM customers LIMIT 3;
(SELECT name FROM customers LIMIT 1) UNION ALL (SELECT plan FROM customers LIMIT 1) LIMIT 3;


# near miss (sort_derived_columns): the columns swapped, the ordinal left as it was
# title: near-miss-derived-columns-swapped-ordinal-kept
# expect: not_equivalent
SELECT s.n FROM (SELECT amount AS a, order_id AS n FROM orders ORDER BY 1 DESC NULLS LAST, 2 LIMIT 1) s;
SELECT s.n FROM (SELECT order_id AS n, amount AS a FROM orders ORDER BY 1 DESC NULLS LAST, 2 LIMIT 1) s;


# near miss (left_join_to_scalar): the derived table also groups by a column the ON does
# not pin, so a customer meets a group per placed_at
# title: near-miss-left-join-to-scalar-unpinned-key
# expect: not_equivalent
SELECT c.name FROM customers c LEFT JOIN (SELECT SUM(o2.amount) AS m, o.customer_id AS k FROM orders o, orders o2 WHERE o2.customer_id = o.customer_id AND o.amount > 1 GROUP BY o.customer_id, o.placed_at) u ON u.k = c.customer_id WHERE u.m > 5;
SELECT c.name FROM customers c WHERE (SELECT SUM(o2.amount) FROM orders o JOIN orders o2 ON o2.customer_id = o.customer_id WHERE o.amount > 1 AND o.customer_id = c.customer_id) > 5;


# near miss (counted_exists): COUNT of a nullable column skips the orders without amount
# title: near-miss-count-of-nullable-column-as-exists
# expect: not_equivalent
SELECT c.name FROM customers c WHERE (SELECT COUNT(o.amount) FROM orders o WHERE o.customer_id = c.customer_id) > 0;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);

# near miss (counted_exists): more than one order is not some order
# title: near-miss-count-above-one-as-exists
# expect: not_equivalent
SELECT c.name FROM customers c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) > 1;
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);


# near miss (parent_key_semijoins): the orders counted, not the distinct customers
# title: near-miss-parents-with-a-child-counted-with-repeats
# expect: not_equivalent
SELECT COUNT(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 5);
SELECT COUNT(customer_id) FROM orders WHERE amount > 5;

# near miss (parent_key_semijoins): names are no key; two customers may share one
# title: near-miss-parent-names-with-a-child-as-distinct-names
# expect: not_equivalent
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id);
SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id;


# near miss (null_tests_under_aggregates): COUNT(*) counts the rows whose amount is NULL
# title: near-miss-not-null-test-under-count-star
# expect: not_equivalent
SELECT COUNT(*), MAX(amount) FROM orders WHERE amount IS NOT NULL;
SELECT COUNT(*), MAX(amount) FROM orders;

# near miss (null_tests_under_aggregates): a group of NULL amounts only is a row of its own
# title: near-miss-not-null-test-under-grouped-aggregates
# expect: not_equivalent
SELECT customer_id, MAX(amount) FROM orders WHERE amount IS NOT NULL GROUP BY customer_id;
SELECT customer_id, MAX(amount) FROM orders GROUP BY customer_id;


# near miss (extremum_having): MAX below a bound is every row below it, not some row
# title: near-miss-having-max-below-as-where
# expect: not_equivalent
SELECT customer_id FROM orders GROUP BY customer_id HAVING MAX(amount) < 5;
SELECT DISTINCT customer_id FROM orders WHERE amount < 5;

# near miss (extremum_having): the count reads the rows the WHERE would drop
# title: near-miss-having-max-with-a-count
# expect: not_equivalent
SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id HAVING MAX(amount) > 5;
SELECT customer_id, COUNT(*) FROM orders WHERE amount > 5 GROUP BY customer_id;
