-- The running example of the reference-guided-grading chapter.
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name        VARCHAR NOT NULL,
  plan        VARCHAR NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise'))
);
CREATE TABLE orders (
  order_id    INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  placed_at   TIMESTAMP NOT NULL,
  amount      DECIMAL(10, 2) CHECK (amount >= 0)
);
