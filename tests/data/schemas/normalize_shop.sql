-- The normalizer tests' schema: customers and orders with keys, a nullable foreign key.
CREATE TABLE customers (
    customer_id INT PRIMARY KEY,
    name VARCHAR,
    plan VARCHAR
);
CREATE TABLE orders (
    order_id INT PRIMARY KEY,
    customer_id INT REFERENCES customers (customer_id),
    placed_at TIMESTAMP,
    amount DECIMAL(10, 2)
);
