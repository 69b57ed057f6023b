-- The shop without FOREIGN KEYs: an order may name a customer that does not exist,
-- or no customer at all (orders.customer_id is nullable). Keys and CHECKs are kept.
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
  customer_id INTEGER,
  placed_at   TIMESTAMP NOT NULL,
  status      VARCHAR,
  amount      DECIMAL(10, 2) CHECK (amount >= 0)
);

CREATE TABLE order_items (
  order_id    INTEGER NOT NULL,
  line_no     INTEGER NOT NULL,
  product_id  INTEGER NOT NULL,
  quantity    INTEGER NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (order_id, line_no)
);
