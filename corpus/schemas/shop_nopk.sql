-- The shop with a customers table that has no key: the same customer_id (and name)
-- may appear on several rows, e.g. a CRM export with one row per contact.
-- Nothing can reference a column that is not unique, so orders has no FOREIGN KEY.
CREATE TABLE customers (
  customer_id INTEGER NOT NULL,
  name        VARCHAR NOT NULL,
  plan        VARCHAR CHECK (plan IN ('free', 'pro', 'enterprise')),
  created_at  DATE
);

CREATE TABLE orders (
  order_id    INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  placed_at   TIMESTAMP NOT NULL,
  status      VARCHAR,
  amount      DECIMAL(10, 2) CHECK (amount >= 0)
);
