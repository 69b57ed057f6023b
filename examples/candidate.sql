-- A model's answer: "how many orders did each enterprise customer place in Q3?"
SELECT c.customer_id, c.name,
       (SELECT COUNT(*)
        FROM orders o
        WHERE o.customer_id = c.customer_id
          AND o.placed_at >= '2026-07-01'
          AND o.placed_at <  '2026-10-01') AS order_count
FROM customers c
WHERE c.plan = 'enterprise';
