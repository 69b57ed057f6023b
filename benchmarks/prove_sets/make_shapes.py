# ruff: noqa: E501
"""Writes ``shapes.jsonl``: one question written as a join, IN, EXISTS, a CTE, a derived
table, a scalar subquery (issue 43, part 2), over the shop schema (every key and foreign
key declared: ``corpus/schemas/shop.sql``), each shape paired with the question's
reference; next to each question a near miss that must be refuted.

    python benchmarks/prove_sets/make_shapes.py
"""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA = "corpus/schemas/shop.sql"

# question: (reference, [equivalent shapes], [near misses])
QUESTIONS: dict[str, tuple[str, list[str], list[str]]] = {
    "buyers": (
        "SELECT customer_id FROM customers WHERE customer_id IN (SELECT customer_id FROM orders)",
        [
            "SELECT DISTINCT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id",
            "SELECT c.customer_id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
            "WITH buyers AS (SELECT DISTINCT customer_id FROM orders) SELECT c.customer_id FROM customers c JOIN buyers b ON b.customer_id = c.customer_id",
            "SELECT c.customer_id FROM customers c JOIN (SELECT customer_id FROM orders GROUP BY customer_id) b ON b.customer_id = c.customer_id",
            "SELECT DISTINCT customer_id FROM orders",
        ],
        ["SELECT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id"],
    ),
    "big-spender-names": (
        "SELECT name FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE amount > 100)",
        [
            "SELECT c.name FROM customers c WHERE EXISTS (SELECT * FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 100)",
            "WITH big AS (SELECT customer_id FROM orders WHERE amount > 100) SELECT name FROM customers WHERE customer_id IN (SELECT customer_id FROM big)",
            "SELECT c.name FROM customers c JOIN (SELECT DISTINCT customer_id FROM orders WHERE amount > 100) b ON b.customer_id = c.customer_id",
        ],
        ["SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount > 100"],
    ),
    "no-orders": (
        "SELECT c.customer_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
        [
            "SELECT customer_id FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders)",
            "SELECT c.customer_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.order_id IS NULL",
            "SELECT customer_id FROM customers EXCEPT SELECT customer_id FROM orders",
            "WITH buyers AS (SELECT customer_id FROM orders) SELECT customer_id FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM buyers)",
        ],
        ["SELECT c.customer_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.amount IS NULL"],
    ),
    "orders-per-customer": (
        "SELECT c.customer_id, COUNT(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id",
        [
            "SELECT c.customer_id, (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id) FROM customers c",
            "SELECT c.customer_id, COALESCE(x.n, 0) FROM customers c LEFT JOIN (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) x ON x.customer_id = c.customer_id",
            "WITH n AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT c.customer_id, COALESCE(n.n, 0) FROM customers c LEFT JOIN n ON n.customer_id = c.customer_id",
        ],
        ["SELECT c.customer_id, COUNT(*) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id"],
    ),
    "spend-per-buyer": (
        "SELECT customer_id, SUM(amount) FROM orders GROUP BY customer_id",
        [
            "SELECT c.customer_id, SUM(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id",
            "WITH t AS (SELECT customer_id, amount FROM orders) SELECT customer_id, SUM(amount) FROM t GROUP BY customer_id",
            "SELECT x.customer_id, x.s FROM (SELECT customer_id, SUM(amount) AS s FROM orders GROUP BY customer_id) x",
        ],
        ["SELECT c.customer_id, SUM(o.amount) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id"],
    ),
    "never-ordered": (
        "SELECT p.product_id FROM products p WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.product_id = p.product_id)",
        [
            "SELECT product_id FROM products WHERE product_id NOT IN (SELECT product_id FROM order_items)",
            "SELECT p.product_id FROM products p LEFT JOIN order_items i ON i.product_id = p.product_id WHERE i.order_id IS NULL",
            "SELECT product_id FROM products EXCEPT SELECT product_id FROM order_items",
        ],
        ["SELECT product_id FROM products WHERE product_id NOT IN (SELECT order_id FROM order_items)"],
    ),
    "pro-orders": (
        "SELECT o.order_id FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE c.plan = 'pro'",
        [
            "SELECT order_id FROM orders WHERE customer_id IN (SELECT customer_id FROM customers WHERE plan = 'pro')",
            "SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND c.plan = 'pro')",
            "SELECT o.order_id FROM orders o JOIN (SELECT customer_id FROM customers WHERE plan = 'pro') p ON p.customer_id = o.customer_id",
            "WITH pro AS (SELECT * FROM customers WHERE plan = 'pro') SELECT o.order_id FROM pro JOIN orders o ON o.customer_id = pro.customer_id",
        ],
        ["SELECT order_id FROM orders WHERE customer_id NOT IN (SELECT customer_id FROM customers WHERE plan = 'free')"],
    ),
    "order-customer-name": (
        "SELECT o.order_id, c.name FROM orders o JOIN customers c ON c.customer_id = o.customer_id",
        [
            "SELECT o.order_id, (SELECT c.name FROM customers c WHERE c.customer_id = o.customer_id) FROM orders o",
            "SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id",
            "WITH n AS (SELECT customer_id, name FROM customers) SELECT o.order_id, n.name FROM orders o JOIN n ON n.customer_id = o.customer_id",
        ],
        ["SELECT o.order_id, c.name FROM orders o JOIN customers c ON c.customer_id = o.order_id"],
    ),
    "max-per-customer": (
        "SELECT customer_id, MAX(amount) FROM orders GROUP BY customer_id",
        [
            "SELECT DISTINCT o.customer_id, (SELECT MAX(o2.amount) FROM orders o2 WHERE o2.customer_id = o.customer_id) FROM orders o",
            "SELECT c.customer_id, m.top FROM customers c JOIN (SELECT customer_id, MAX(amount) AS top FROM orders GROUP BY customer_id) m ON m.customer_id = c.customer_id",
        ],
        ["SELECT o.customer_id, (SELECT MAX(o2.amount) FROM orders o2 WHERE o2.customer_id = o.customer_id) FROM orders o"],
    ),
    "bought-product-7": (
        "SELECT customer_id FROM customers WHERE customer_id IN (SELECT o.customer_id FROM orders o WHERE o.order_id IN (SELECT order_id FROM order_items WHERE product_id = 7))",
        [
            "SELECT DISTINCT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN order_items i ON i.order_id = o.order_id WHERE i.product_id = 7",
            "SELECT c.customer_id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.customer_id = c.customer_id AND i.product_id = 7)",
            "WITH o7 AS (SELECT DISTINCT o.customer_id FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE i.product_id = 7) SELECT customer_id FROM o7",
        ],
        ["SELECT DISTINCT o.customer_id FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE i.product_id <> 7"],
    ),
    "busy-statuses": (
        "SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) > 2",
        [
            "SELECT status, n FROM (SELECT status, COUNT(*) AS n FROM orders GROUP BY status) s WHERE n > 2",
            "WITH s AS (SELECT status, COUNT(*) AS n FROM orders GROUP BY status) SELECT status, n FROM s WHERE n > 2",
            "SELECT status, COUNT(order_id) FROM orders GROUP BY status HAVING COUNT(order_id) > 2",
        ],
        ["SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) >= 2"],
    ),
    "items-of-big-orders": (
        "SELECT i.order_id, i.line_no FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE o.amount > 500",
        [
            "SELECT order_id, line_no FROM order_items WHERE order_id IN (SELECT order_id FROM orders WHERE amount > 500)",
            "SELECT i.order_id, i.line_no FROM order_items i WHERE EXISTS (SELECT 1 FROM orders o WHERE o.order_id = i.order_id AND o.amount > 500)",
            "WITH big AS (SELECT order_id FROM orders WHERE amount > 500) SELECT i.order_id, i.line_no FROM big JOIN order_items i ON i.order_id = big.order_id",
        ],
        ["SELECT i.order_id, i.line_no FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE o.amount >= 500"],
    ),
}


def main() -> None:
    out = Path(__file__).resolve().parent / "shapes.jsonl"
    n = 0
    with out.open("w", encoding="utf-8") as f:
        for question, (reference, shapes, misses) in QUESTIONS.items():
            for expect, candidates in (("equivalent", shapes), ("not_equivalent", misses)):
                for i, candidate in enumerate(candidates, 1):
                    suffix = "miss" if expect == "not_equivalent" else "shape"
                    f.write(json.dumps({
                        "id": f"{question}-{suffix}{i}", "part": "shapes", "expect": expect,
                        "schema": SCHEMA, "dialect": "duckdb",
                        "candidate": candidate, "reference": reference,
                    }) + "\n")  # fmt: skip
                    n += 1
    print(f"wrote {n} pairs to {out}")


if __name__ == "__main__":
    main()
