# Inputs that cannot be checked: each is an `error` verdict, never a traceback and
# never executed. By convention the bad query is the candidate and the reference is
# a valid query. A candidate with two statements keeps them on one line (a line
# ending in ';' ends the query).
# schema: shop

# title: unbalanced parenthesis
# expect: error
# kind: parse_error
SELECT customer_id FROM customers WHERE (plan = 'pro';
SELECT customer_id FROM customers WHERE plan = 'pro';

# title: select list ends in a comma before FROM
# expect: error
# kind: parse_error
SELECT customer_id, name, FROM customers WHERE plan = 'pro' AND;
SELECT customer_id, name FROM customers WHERE plan = 'pro';

# title: invented column email on customers
# expect: error
# kind: unknown_column
SELECT customer_id, email FROM customers;
SELECT customer_id, name FROM customers;

# title: invented column on a qualified alias in MySQL
# dialect: mysql
# expect: error
# kind: unknown_column
SELECT o.order_id, o.total_amount FROM orders o WHERE o.status = 'shipped';
SELECT o.order_id, o.amount FROM orders o WHERE o.status = 'shipped';

# title: unknown table clients
# expect: error
# kind: unknown_table
SELECT client_id, name FROM clients;
SELECT customer_id, name FROM customers;

# title: DELETE instead of a query
# expect: error
# kind: not_read_only
DELETE FROM orders WHERE status = 'cancelled';
SELECT order_id FROM orders WHERE status = 'cancelled';

# title: INSERT instead of a query
# expect: error
# kind: not_read_only
INSERT INTO customers (customer_id, name, plan) VALUES (999, 'Mallory', 'enterprise');
SELECT customer_id, name, plan FROM customers;

# title: CREATE TABLE AS instead of a query
# expect: error
# kind: not_read_only
CREATE TABLE big_orders AS SELECT order_id FROM orders WHERE amount > 100;
SELECT order_id FROM orders WHERE amount > 100;

# title: two statements in the candidate
# expect: error
# kind: multiple_statements
SELECT order_id FROM orders WHERE amount > 100; SELECT order_id FROM orders WHERE amount <= 100;
SELECT order_id FROM orders;

# title: read_csv reads a file from disk
# expect: error
# kind: forbidden_function
SELECT * FROM read_csv('/etc/passwd');
SELECT customer_id, name FROM customers;

# title: read_parquet reaches the network
# expect: error
# kind: forbidden_function
SELECT * FROM read_parquet('https://example.com/orders.parquet');
SELECT order_id FROM orders;

# title: ATTACH another database
# expect: error
# kind: not_read_only
ATTACH '/tmp/other.duckdb' AS other;
SELECT customer_id FROM customers;

# title: PRAGMA instead of a query
# expect: error
# kind: not_read_only
PRAGMA database_list;
SELECT customer_id FROM customers;

# title: COPY a table to a file
# expect: error
# kind: not_read_only
COPY orders TO '/tmp/orders.csv' (HEADER);
SELECT order_id FROM orders;

# title: SET a configuration option
# expect: error
# kind: not_read_only
SET memory_limit = '100GB';
SELECT order_id FROM orders;

# title: a long row of JOINs without ON is refused before parsing
# expect: error
# kind: too_complex
# note: sqlglot's parser backtracks on a JOIN without ON: its time doubles with each one (15 took 5 s, 100 never end)
SELECT 1 FROM orders o JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers co JOIN customers c ON c.customer_id = o.customer_id;
SELECT 1 FROM orders o JOIN customers c ON c.customer_id = o.customer_id;

# title: a DuckDB column under COLLATE NOCASE is refused, not compared byte by byte
# schema: collated
# expect: error
# kind: unsupported_constraint
# note: equivalent on DuckDB under the collation; it was refuted on a database with 'a' and 'A' as names, which the key forbids
SELECT id FROM tags WHERE name = 'a';
SELECT id FROM tags WHERE name = 'A';
