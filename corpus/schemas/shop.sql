-- The shop of the reference-guided-grading chapter, with every constraint declared.
-- orders.customer_id is NOT NULL and references customers: every order has exactly one customer.
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name        VARCHAR NOT NULL,
  plan        VARCHAR CHECK (plan IN ('free', 'pro', 'enterprise')),
  created_at  DATE
);

CREATE TABLE products (
  product_id  INTEGER PRIMARY KEY,
  name        VARCHAR NOT NULL,
  category    VARCHAR,
  price       DECIMAL(10, 2) CHECK (price >= 0)
);

CREATE TABLE orders (
  order_id    INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  placed_at   TIMESTAMP NOT NULL,
  status      VARCHAR,
  amount      DECIMAL(10, 2) CHECK (amount >= 0)
);

CREATE TABLE order_items (
  order_id    INTEGER NOT NULL REFERENCES orders (order_id),
  line_no     INTEGER NOT NULL,
  product_id  INTEGER NOT NULL REFERENCES products (product_id),
  quantity    INTEGER NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (order_id, line_no)
);
