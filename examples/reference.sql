-- The analyst's reference.
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE c.plan = 'enterprise'
  AND o.placed_at >= '2026-07-01'
  AND o.placed_at <  '2026-10-01'
GROUP BY c.customer_id, c.name;
