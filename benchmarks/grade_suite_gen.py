"""A generated grading suite for throughput measurements: a shop schema, 50 items, candidates.

Ten question templates (filters, ranges, counts, semi- and anti-joins, zero
counts, HAVING thresholds, DISTINCT) times five parameter sets give 50 items
over customers / products / orders / order_items, each with the named
fixtures ``base`` (ten customers, nine products, eleven orders) and ``empty``.

Every template lists *right* rewrites of its reference (renamed aliases,
reordered predicates and columns, join vs EXISTS, IN vs EXISTS, COUNT(*) vs
COUNT(pk), BETWEEN vs >=/<= on integer columns, CTEs, correlated subqueries)
and *wrong* ones (off-by-one boundaries, missing DISTINCT, LEFT vs INNER,
wrong column, missing filter, inverted conditions). Each is written in three
alias styles (``customers AS c``, ``customers cust``, bare table names), and
each item draws its candidates, all distinct, from those with a fixed seed:
about 55% right and 45% wrong. The label travels in the candidate's
metadata (``label``, ``rewrite``), so a grading run can be checked against it.

Usage as a module::

    from grade_suite_gen import write_suite
    suite_path, candidates_path, pairs = write_suite(directory, pairs=1000)
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SCHEMA = """\
CREATE TABLE customers (
  customer_id  INTEGER PRIMARY KEY,
  name         VARCHAR NOT NULL,
  city         VARCHAR NOT NULL,
  plan         VARCHAR NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise')),
  signup_year  INTEGER NOT NULL
);
CREATE TABLE products (
  product_id   INTEGER PRIMARY KEY,
  name         VARCHAR NOT NULL,
  category     VARCHAR NOT NULL,
  price        INTEGER NOT NULL CHECK (price >= 0)
);
CREATE TABLE orders (
  order_id     INTEGER PRIMARY KEY,
  customer_id  INTEGER NOT NULL REFERENCES customers (customer_id),
  order_year   INTEGER NOT NULL,
  status       VARCHAR NOT NULL CHECK (status IN ('open', 'shipped', 'cancelled'))
);
CREATE TABLE order_items (
  order_id     INTEGER NOT NULL REFERENCES orders (order_id),
  product_id   INTEGER NOT NULL REFERENCES products (product_id),
  quantity     INTEGER NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (order_id, product_id)
);
"""

_CUSTOMERS = [
    (1, "Ann", "Paris", "enterprise", 2019),
    (2, "Bo", "Paris", "pro", 2020),
    (3, "Cy", "Berlin", "free", 2021),
    (4, "Di", "Berlin", "enterprise", 2022),
    (5, "Ed", "Lyon", "pro", 2020),
    (6, "Flo", "Lyon", "free", 2023),
    (7, "Gus", "Paris", "enterprise", 2021),
    (8, "Hal", "Madrid", "pro", 2022),
    (9, "Ivy", "Madrid", "free", 2019),
    (10, "Jo", "Berlin", "pro", 2023),
]
_PRODUCTS = [
    (1, "Pen", "office", 2),
    (2, "Desk", "office", 150),
    (3, "Lamp", "home", 40),
    (4, "Rug", "home", 90),
    (5, "Mug", "kitchen", 10),
    (6, "Pan", "kitchen", 35),
    (7, "Chair", "office", 60),
    (8, "Vase", "home", 25),
    (9, "Stool", "office", 45),  # never ordered
]
_ORDERS = [  # customers 6 and 10 have no orders
    (101, 1, 2022, "shipped"),
    (102, 1, 2023, "open"),
    (103, 2, 2023, "shipped"),
    (104, 2, 2023, "cancelled"),
    (105, 3, 2022, "shipped"),
    (106, 4, 2023, "shipped"),
    (107, 5, 2021, "open"),
    (108, 7, 2023, "shipped"),
    (109, 7, 2023, "shipped"),
    (110, 8, 2022, "cancelled"),
    (111, 9, 2023, "open"),
]
_ORDER_ITEMS = [
    (101, 1, 3), (101, 2, 1), (102, 3, 2), (103, 5, 4), (103, 6, 1), (104, 2, 1),
    (105, 1, 10), (105, 8, 1), (106, 7, 2), (106, 4, 1), (107, 5, 1), (108, 3, 1),
    (108, 5, 2), (109, 6, 3), (110, 4, 1), (111, 1, 5),
]  # fmt: skip


def _rows(columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [dict(zip(columns, row, strict=True)) for row in rows]


FIXTURES: dict[str, Any] = {
    "base": {
        "description": "ten customers in four cities, nine products (one never ordered), "
        "eleven orders; two customers without orders",
        "rows": {
            "customers": _rows(("customer_id", "name", "city", "plan", "signup_year"), _CUSTOMERS),
            "products": _rows(("product_id", "name", "category", "price"), _PRODUCTS),
            "orders": _rows(("order_id", "customer_id", "order_year", "status"), _ORDERS),
            "order_items": _rows(("order_id", "product_id", "quantity"), _ORDER_ITEMS),
        },
    },
    "empty": {
        "description": "no rows at all",
        "rows": {"customers": [], "products": [], "orders": [], "order_items": []},
    },
}

#: Alias styles: table placeholder -> (FROM text, column prefix). ``{C}``/``{c}`` are
#: customers, ``{O}``/``{o}`` orders, ``{P}``/``{p}`` products, ``{I}``/``{i}`` order_items.
_TABLES = {"C": "customers", "O": "orders", "P": "products", "I": "order_items"}
STYLES: dict[str, dict[str, tuple[str, str]]] = {
    "short": {"C": ("customers AS c", "c."), "O": ("orders AS o", "o."),
              "P": ("products AS p", "p."), "I": ("order_items AS oi", "oi.")},
    "word": {"C": ("customers cust", "cust."), "O": ("orders ord", "ord."),
             "P": ("products prod", "prod."), "I": ("order_items item", "item.")},
    "bare": {k: (t, f"{t}.") for k, t in _TABLES.items()},
}  # fmt: skip


def _styled(
    form: str, style: str, params: dict[str, Any], parts: dict[str, str] | None = None
) -> str:
    """``form`` with its ``$part`` fragments, alias placeholders and parameters filled in."""
    for name, text in (parts or {}).items():
        form = form.replace(f"${name}", text)
    names: dict[str, Any] = dict(params)
    for key, (from_text, prefix) in STYLES[style].items():
        names[key] = from_text
        names[key.lower()] = prefix
    return " ".join(form.format(**names).split())


@dataclass(frozen=True)
class Template:
    """One kind of question: a reference and its right and wrong rewrites, all as forms."""

    name: str
    question: str
    reference: str
    right: dict[str, str]
    wrong: dict[str, str]
    params: list[dict[str, Any]]
    tags: tuple[str, ...]
    difficulty: str
    #: Fragments shared by several forms, written ``$name`` in them.
    parts: dict[str, str] = field(default_factory=dict)


def _t1() -> Template:
    where = "{c}city = '{city}' AND {c}plan = '{plan}'"
    return Template(
        "city_plan",
        "Which customers in {city} are on the {plan} plan? (customer_id, name)",
        "SELECT customer_id, name FROM customers WHERE city = '{city}' AND plan = '{plan}'",
        right={
            "aliases": "SELECT {c}customer_id, {c}name FROM {C} WHERE $where",
            "reordered_predicates": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE {c}plan = '{plan}' AND {c}city = '{city}'",
            "reordered_columns": "SELECT {c}name, {c}customer_id FROM {C} WHERE $where",
            "in_list": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE {c}plan IN ('{plan}') AND {c}city = '{city}'",
            "flipped_comparisons": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE '{city}' = {c}city AND '{plan}' = {c}plan",
            "de_morgan": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE NOT ({c}city <> '{city}' OR {c}plan <> '{plan}')",
        },
        wrong={
            "missing_filter_plan": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE {c}city = '{city}'",
            "missing_filter_city": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE {c}plan = '{plan}'",
            "or_for_and": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE {c}city = '{city}' OR {c}plan = '{plan}'",
            "wrong_column": "SELECT {c}customer_id, {c}city FROM {C} WHERE $where",
            "inverted_filter": "SELECT {c}customer_id, {c}name FROM {C} "
            "WHERE {c}city = '{city}' AND {c}plan <> '{plan}'",
            "dropped_column": "SELECT DISTINCT {c}name FROM {C} WHERE $where",
        },
        params=[
            {"city": "Paris", "plan": "enterprise"},
            {"city": "Berlin", "plan": "free"},
            {"city": "Lyon", "plan": "pro"},
            {"city": "Madrid", "plan": "pro"},
            {"city": "Berlin", "plan": "enterprise"},
        ],
        tags=("filter",),
        difficulty="easy",
        parts={"where": where},
    )


def _t2() -> Template:
    cols = "{p}product_id, {p}name, {p}price"
    return Template(
        "price_range",
        "Which products cost from {lo} to {hi}, both included? (product_id, name, price)",
        "SELECT product_id, name, price FROM products WHERE price >= {lo} AND price <= {hi}",
        right={
            "between": f"SELECT {cols} FROM {{P}} WHERE {{p}}price BETWEEN {{lo}} AND {{hi}}",
            "reordered_predicates": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}price <= {hi} AND {p}price >= {lo}",
            "strict_integer_bounds": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}price > {lo_minus} AND {p}price < {hi_plus}",
            "de_morgan": f"SELECT {cols} FROM {{P}} "
            "WHERE NOT ({p}price < {lo} OR {p}price > {hi})",
            "reordered_columns": "SELECT {p}name, {p}price, {p}product_id FROM {P} "
            "WHERE {p}price >= {lo} AND {p}price <= {hi}",
            "flipped_comparisons": f"SELECT {cols} FROM {{P}} "
            "WHERE {lo} <= {p}price AND {hi} >= {p}price",
        },
        wrong={
            "off_by_one_lower": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}price > {lo} AND {p}price <= {hi}",
            "off_by_one_upper": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}price >= {lo} AND {p}price < {hi}",
            "between_shifted": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}price BETWEEN {lo_plus} AND {hi}",
            "missing_upper_bound": f"SELECT {cols} FROM {{P}} WHERE {{p}}price >= {{lo}}",
            "wrong_column": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}product_id BETWEEN {lo} AND {hi}",
            "between_short": f"SELECT {cols} FROM {{P}} "
            "WHERE {p}price BETWEEN {lo} AND {hi_minus}",
        },
        params=[
            {"lo": 10, "hi": 60},
            {"lo": 25, "hi": 90},
            {"lo": 2, "hi": 40},
            {"lo": 35, "hi": 150},
            {"lo": 45, "hi": 90},
        ],
        tags=("range", "boundary"),
        difficulty="easy",
    )


def _t3() -> Template:
    where = "{o}status = '{status}' AND {o}order_year = {year}"
    return Template(
        "orders_per_customer",
        "How many {status} orders of {year} has each customer? (customers with at least one)",
        "SELECT customer_id, COUNT(*) AS n_orders FROM orders "
        "WHERE status = '{status}' AND order_year = {year} GROUP BY customer_id",
        right={
            "count_pk": "SELECT {o}customer_id, COUNT({o}order_id) AS n_orders FROM {O} "
            "WHERE $where GROUP BY {o}customer_id",
            "reordered_predicates": "SELECT {o}customer_id, COUNT(*) AS n_orders FROM {O} "
            "WHERE {o}order_year = {year} AND {o}status = '{status}' GROUP BY {o}customer_id",
            "count_one": "SELECT {o}customer_id, COUNT(1) AS n_orders FROM {O} "
            "WHERE $where GROUP BY {o}customer_id",
            "group_by_ordinal": "SELECT {o}customer_id, COUNT({o}order_id) AS n_orders "
            "FROM {O} WHERE $where GROUP BY 1",
            "sum_one": "SELECT {o}customer_id, SUM(1) AS n_orders FROM {O} "
            "WHERE $where GROUP BY {o}customer_id",
            "count_distinct_pk": "SELECT {o}customer_id, COUNT(DISTINCT {o}order_id) AS "
            "n_orders FROM {O} WHERE $where GROUP BY {o}customer_id",
        },
        wrong={
            "missing_filter_year": "SELECT {o}customer_id, COUNT(*) AS n_orders FROM {O} "
            "WHERE {o}status = '{status}' GROUP BY {o}customer_id",
            "count_wrong_column": "SELECT {o}customer_id, COUNT(DISTINCT {o}customer_id) "
            "AS n_orders FROM {O} WHERE $where GROUP BY {o}customer_id",
            "inverted_filter": "SELECT {o}customer_id, COUNT(*) AS n_orders FROM {O} "
            "WHERE {o}status <> '{status}' AND {o}order_year = {year} GROUP BY {o}customer_id",
            "open_year_range": "SELECT {o}customer_id, COUNT(*) AS n_orders FROM {O} "
            "WHERE {o}status = '{status}' AND {o}order_year >= {year} GROUP BY {o}customer_id",
            "extra_having": "SELECT {o}customer_id, COUNT(*) AS n_orders FROM {O} "
            "WHERE $where GROUP BY {o}customer_id HAVING COUNT(*) > 1",
            "or_for_and": "SELECT {o}customer_id, COUNT(*) AS n_orders FROM {O} "
            "WHERE {o}status = '{status}' OR {o}order_year = {year} GROUP BY {o}customer_id",
        },
        params=[
            {"status": "shipped", "year": 2023},
            {"status": "shipped", "year": 2022},
            {"status": "open", "year": 2023},
            {"status": "cancelled", "year": 2023},
            {"status": "open", "year": 2021},
        ],
        tags=("count", "group-by"),
        difficulty="easy",
        parts={"where": where},
    )


_LINES = "{O} JOIN {I} ON {i}order_id = {o}order_id JOIN {P} ON {p}product_id = {i}product_id"


def _t4() -> Template:
    cond = "{p}category = '{category}' AND {i}quantity >= {qty}"
    return Template(
        "bought_category",
        "Which customers ordered at least {qty} units of some {category} product in one "
        "order? (customer_id, name, once each)",
        "SELECT c.customer_id, c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o "
        "JOIN order_items oi ON oi.order_id = o.order_id JOIN products p ON p.product_id = "
        "oi.product_id WHERE o.customer_id = c.customer_id AND p.category = '{category}' "
        "AND oi.quantity >= {qty})",
        right={
            "in_subquery": "SELECT {c}customer_id, {c}name FROM {C} WHERE {c}customer_id IN "
            "(SELECT {o}customer_id FROM $lines WHERE $cond)",
            "join_distinct": "SELECT DISTINCT {c}customer_id, {c}name FROM {C} JOIN {O} ON "
            "{o}customer_id = {c}customer_id JOIN {I} ON {i}order_id = {o}order_id JOIN {P} "
            "ON {p}product_id = {i}product_id WHERE $cond",
            "exists_reordered": "SELECT {c}customer_id, {c}name FROM {C} WHERE EXISTS "
            "(SELECT 1 FROM $lines WHERE {i}quantity > {qty_minus} AND "
            "{p}category = '{category}' AND {o}customer_id = {c}customer_id)",
            "nested_in": "SELECT {c}customer_id, {c}name FROM {C} WHERE {c}customer_id IN "
            "(SELECT {o}customer_id FROM {O} WHERE {o}order_id IN (SELECT {i}order_id FROM "
            "{I} WHERE {i}quantity >= {qty} AND {i}product_id IN (SELECT {p}product_id "
            "FROM {P} WHERE {p}category = '{category}')))",
            "join_group_by": "SELECT {c}customer_id, {c}name FROM {C} JOIN {O} ON "
            "{o}customer_id = {c}customer_id JOIN {I} ON {i}order_id = {o}order_id JOIN {P} "
            "ON {p}product_id = {i}product_id WHERE $cond GROUP BY {c}customer_id, "
            "{c}name",
        },
        wrong={
            "missing_distinct": "SELECT {c}customer_id, {c}name FROM {C} JOIN {O} ON "
            "{o}customer_id = {c}customer_id JOIN {I} ON {i}order_id = {o}order_id JOIN {P} "
            "ON {p}product_id = {i}product_id WHERE $cond",
            "not_exists": "SELECT {c}customer_id, {c}name FROM {C} WHERE NOT EXISTS "
            "(SELECT 1 FROM $lines WHERE {o}customer_id = {c}customer_id AND $cond)",
            "off_by_one": "SELECT {c}customer_id, {c}name FROM {C} WHERE {c}customer_id IN "
            "(SELECT {o}customer_id FROM $lines WHERE {p}category = '{category}' "
            "AND {i}quantity > {qty})",
            "missing_filter_category": "SELECT {c}customer_id, {c}name FROM {C} WHERE "
            "{c}customer_id IN (SELECT {o}customer_id FROM $lines WHERE "
            "{i}quantity >= {qty})",
            "wrong_column": "SELECT DISTINCT {c}customer_id, {p}name FROM {C} JOIN {O} ON "
            "{o}customer_id = {c}customer_id JOIN {I} ON {i}order_id = {o}order_id JOIN {P} "
            "ON {p}product_id = {i}product_id WHERE $cond",
        },
        params=[
            {"category": "office", "qty": 1},
            {"category": "home", "qty": 1},
            {"category": "kitchen", "qty": 2},
            {"category": "home", "qty": 2},
            {"category": "office", "qty": 3},
        ],
        tags=("semi-join", "exists", "distinct"),
        difficulty="medium",
        parts={"lines": _LINES, "cond": cond},
    )


def _t5() -> Template:
    return Template(
        "no_orders_with_status",
        "Which {plan}-plan customers have no {status} order? (customer_id)",
        "SELECT c.customer_id FROM customers c WHERE c.plan = '{plan}' AND NOT EXISTS "
        "(SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = '{status}')",
        right={
            "not_in": "SELECT {c}customer_id FROM {C} WHERE {c}plan = '{plan}' AND "
            "{c}customer_id NOT IN (SELECT {o}customer_id FROM {O} WHERE "
            "{o}status = '{status}')",
            "left_join_is_null": "SELECT {c}customer_id FROM {C} LEFT JOIN {O} ON "
            "{o}customer_id = {c}customer_id AND {o}status = '{status}' WHERE "
            "{c}plan = '{plan}' AND {o}order_id IS NULL",
            "except": "SELECT {c}customer_id FROM {C} WHERE {c}plan = '{plan}' EXCEPT "
            "SELECT {o}customer_id FROM {O} WHERE {o}status = '{status}'",
            "not_exists_reordered": "SELECT {c}customer_id FROM {C} WHERE NOT EXISTS "
            "(SELECT 1 FROM {O} WHERE {o}status = '{status}' AND {o}customer_id = "
            "{c}customer_id) AND {c}plan = '{plan}'",
            "zero_count": "SELECT {c}customer_id FROM {C} WHERE {c}plan = '{plan}' AND "
            "(SELECT COUNT(*) FROM {O} WHERE {o}customer_id = {c}customer_id AND "
            "{o}status = '{status}') = 0",
        },
        wrong={
            "inner_for_left": "SELECT {c}customer_id FROM {C} JOIN {O} ON {o}customer_id = "
            "{c}customer_id AND {o}status = '{status}' WHERE {c}plan = '{plan}' AND "
            "{o}order_id IS NULL",
            "filter_in_where": "SELECT {c}customer_id FROM {C} LEFT JOIN {O} ON "
            "{o}customer_id = {c}customer_id WHERE {c}plan = '{plan}' AND "
            "({o}order_id IS NULL OR {o}status <> '{status}')",
            "missing_filter_plan": "SELECT {c}customer_id FROM {C} WHERE NOT EXISTS "
            "(SELECT 1 FROM {O} WHERE {o}customer_id = {c}customer_id AND "
            "{o}status = '{status}')",
            "missing_filter_status": "SELECT {c}customer_id FROM {C} WHERE {c}plan = "
            "'{plan}' AND NOT EXISTS (SELECT 1 FROM {O} WHERE {o}customer_id = "
            "{c}customer_id)",
            "exists_for_not_exists": "SELECT {c}customer_id FROM {C} WHERE {c}plan = "
            "'{plan}' AND EXISTS (SELECT 1 FROM {O} WHERE {o}customer_id = {c}customer_id "
            "AND {o}status = '{status}')",
        },
        params=[
            {"plan": "free", "status": "shipped"},
            {"plan": "pro", "status": "shipped"},
            {"plan": "enterprise", "status": "open"},
            {"plan": "pro", "status": "cancelled"},
            {"plan": "free", "status": "open"},
        ],
        tags=("anti-join", "left-join"),
        difficulty="medium",
    )


def _t6() -> Template:
    return Template(
        "units_per_product",
        "How many units of each {category} product were ordered in {year}? "
        "(product_id, units; products with orders only)",
        "SELECT p.product_id, SUM(oi.quantity) AS units FROM products p JOIN order_items oi "
        "ON oi.product_id = p.product_id JOIN orders o ON o.order_id = oi.order_id "
        "WHERE p.category = '{category}' AND o.order_year = {year} GROUP BY p.product_id",
        right={
            "aliases": "$units FROM $joined WHERE $cond GROUP BY {p}product_id",
            "join_order": "$units FROM {I} JOIN {P} ON {p}product_id = {i}product_id "
            "JOIN {O} ON {o}order_id = {i}order_id WHERE $cond GROUP BY {p}product_id",
            "group_by_join_key": "SELECT {i}product_id, SUM({i}quantity) AS units "
            "FROM $joined WHERE {o}order_year = {year} AND {p}category = '{category}' "
            "GROUP BY {i}product_id",
            "in_subqueries": "SELECT {i}product_id, SUM({i}quantity) AS units FROM {I} WHERE "
            "{i}product_id IN (SELECT {p}product_id FROM {P} WHERE {p}category = "
            "'{category}') AND {i}order_id IN (SELECT {o}order_id FROM {O} WHERE "
            "{o}order_year = {year}) GROUP BY {i}product_id",
            "dependent_group_by": "$units FROM $joined WHERE $cond "
            "GROUP BY {p}product_id, {p}category",
        },
        wrong={
            "left_for_inner": "$units FROM {P} LEFT JOIN {I} ON {i}product_id = "
            "{p}product_id LEFT JOIN {O} ON {o}order_id = {i}order_id AND "
            "{o}order_year = {year} WHERE {p}category = '{category}' GROUP BY {p}product_id",
            "count_for_sum": "SELECT {p}product_id, COUNT(*) AS units FROM $joined "
            "WHERE $cond GROUP BY {p}product_id",
            "missing_filter_year": "$units FROM $joined WHERE {p}category = '{category}' "
            "GROUP BY {p}product_id",
            "wrong_column": "SELECT {p}product_id, SUM({p}price) AS units FROM $joined "
            "WHERE $cond GROUP BY {p}product_id",
            "off_by_one_year": "$units FROM $joined WHERE {p}category = '{category}' "
            "AND {o}order_year > {year} GROUP BY {p}product_id",
            "inverted_filter": "$units FROM $joined WHERE {p}category <> '{category}' "
            "AND {o}order_year = {year} GROUP BY {p}product_id",
        },
        params=[
            {"category": "office", "year": 2023},
            {"category": "home", "year": 2023},
            {"category": "kitchen", "year": 2023},
            {"category": "home", "year": 2022},
            {"category": "office", "year": 2022},
        ],
        tags=("join", "sum", "group-by"),
        difficulty="medium",
        parts={
            "units": "SELECT {p}product_id, SUM({i}quantity) AS units",
            "joined": "{P} JOIN {I} ON {i}product_id = {p}product_id "
            "JOIN {O} ON {o}order_id = {i}order_id",
            "cond": "{p}category = '{category}' AND {o}order_year = {year}",
        },
    )


def _t7() -> Template:
    return Template(
        "status_count_with_zero",
        "How many {status} orders has each {plan}-plan customer? (customer_id, n; 0 for none)",
        "SELECT c.customer_id, COUNT(o.order_id) AS n FROM customers c LEFT JOIN orders o "
        "ON o.customer_id = c.customer_id AND o.status = '{status}' WHERE c.plan = '{plan}' "
        "GROUP BY c.customer_id",
        right={
            "correlated_count": "SELECT {c}customer_id, (SELECT COUNT(*) FROM {O} WHERE "
            "{o}customer_id = {c}customer_id AND {o}status = '{status}') AS n FROM {C} "
            "WHERE {c}plan = '{plan}'",
            "cte_coalesce": "WITH per AS (SELECT {o}customer_id, COUNT(*) AS k FROM {O} "
            "WHERE {o}status = '{status}' GROUP BY {o}customer_id) SELECT {c}customer_id, "
            "COALESCE(per.k, 0) AS n FROM {C} LEFT JOIN per ON per.customer_id = "
            "{c}customer_id WHERE {c}plan = '{plan}'",
            "count_filter": "SELECT {c}customer_id, COUNT({o}order_id) FILTER (WHERE "
            "{o}status = '{status}') AS n FROM {C} LEFT JOIN {O} ON {o}customer_id = "
            "{c}customer_id WHERE {c}plan = '{plan}' GROUP BY {c}customer_id",
            "sum_case": "SELECT {c}customer_id, SUM(CASE WHEN {o}status = '{status}' THEN 1 "
            "ELSE 0 END) AS n FROM {C} LEFT JOIN {O} ON {o}customer_id = {c}customer_id "
            "WHERE {c}plan = '{plan}' GROUP BY {c}customer_id",
            "reordered_on": "SELECT {c}customer_id, COUNT({o}order_id) AS n FROM {C} LEFT "
            "JOIN {O} ON {o}status = '{status}' AND {c}customer_id = {o}customer_id WHERE "
            "{c}plan = '{plan}' GROUP BY {c}customer_id",
        },
        wrong={
            "inner_for_left": "SELECT {c}customer_id, COUNT({o}order_id) AS n FROM {C} JOIN "
            "{O} ON {o}customer_id = {c}customer_id AND {o}status = '{status}' WHERE "
            "{c}plan = '{plan}' GROUP BY {c}customer_id",
            "count_star": "SELECT {c}customer_id, COUNT(*) AS n FROM {C} LEFT JOIN {O} ON "
            "{o}customer_id = {c}customer_id AND {o}status = '{status}' WHERE "
            "{c}plan = '{plan}' GROUP BY {c}customer_id",
            "filter_in_where": "SELECT {c}customer_id, COUNT({o}order_id) AS n FROM {C} "
            "LEFT JOIN {O} ON {o}customer_id = {c}customer_id WHERE {c}plan = '{plan}' "
            "AND {o}status = '{status}' GROUP BY {c}customer_id",
            "missing_filter_status": "SELECT {c}customer_id, COUNT({o}order_id) AS n FROM "
            "{C} LEFT JOIN {O} ON {o}customer_id = {c}customer_id WHERE {c}plan = '{plan}' "
            "GROUP BY {c}customer_id",
            "missing_filter_plan": "SELECT {c}customer_id, COUNT({o}order_id) AS n FROM {C} "
            "LEFT JOIN {O} ON {o}customer_id = {c}customer_id AND {o}status = '{status}' "
            "GROUP BY {c}customer_id",
        },
        params=[
            {"plan": "enterprise", "status": "shipped"},
            {"plan": "pro", "status": "shipped"},
            {"plan": "free", "status": "open"},
            {"plan": "pro", "status": "cancelled"},
            {"plan": "enterprise", "status": "open"},
        ],
        tags=("left-join", "zero-count"),
        difficulty="medium",
    )


def _t8() -> Template:
    return Template(
        "orders_above_value",
        "Which orders are worth more than {t}? (order_id, value = sum of quantity * price)",
        "SELECT oi.order_id, SUM(oi.quantity * p.price) AS value FROM order_items oi "
        "JOIN products p ON p.product_id = oi.product_id GROUP BY oi.order_id "
        "HAVING SUM(oi.quantity * p.price) > {t}",
        right={
            "cte": "WITH v AS ($head GROUP BY {i}order_id) "
            "SELECT order_id, value FROM v WHERE value > {t}",
            "having_integer_bound": "$head GROUP BY {i}order_id HAVING $value >= {t_plus}",
            "commuted_product": "SELECT {i}order_id, SUM({p}price * {i}quantity) AS value "
            "FROM {P} JOIN {I} ON {i}product_id = {p}product_id GROUP BY {i}order_id "
            "HAVING SUM({p}price * {i}quantity) > {t}",
            "derived_table": "SELECT x.order_id, x.value FROM ($head GROUP BY {i}order_id) "
            "AS x WHERE x.value > {t}",
            "flipped_having": "$head GROUP BY {i}order_id HAVING {t} < $value",
        },
        wrong={
            "off_by_one": "$head GROUP BY {i}order_id HAVING $value >= {t}",
            "price_without_quantity": "SELECT {i}order_id, SUM({p}price) AS value "
            "FROM $lines GROUP BY {i}order_id HAVING SUM({p}price) > {t}",
            "wrong_column": "$head GROUP BY {i}order_id HAVING SUM({i}quantity) > {t}",
            "row_filter_for_having": "$head WHERE {i}quantity * {p}price > {t} "
            "GROUP BY {i}order_id",
            "count_for_sum": "SELECT {i}order_id, COUNT(*) AS value FROM $lines "
            "GROUP BY {i}order_id HAVING $value > {t}",
        },
        params=[{"t": 150}, {"t": 80}, {"t": 60}, {"t": 105}, {"t": 45}],
        tags=("having", "threshold", "join"),
        difficulty="medium",
        # (order matters: $head contains $value and $lines)
        parts={
            "head": "SELECT {i}order_id, $value AS value FROM $lines",
            "value": "SUM({i}quantity * {p}price)",
            "lines": "{I} JOIN {P} ON {p}product_id = {i}product_id",
        },
    )


def _t9() -> Template:
    return Template(
        "cities_by_signup",
        "In which cities did customers sign up between {y1} and {y2}, both included? "
        "(city, once each)",
        "SELECT DISTINCT city FROM customers WHERE signup_year BETWEEN {y1} AND {y2}",
        right={
            "group_by": "SELECT {c}city FROM {C} WHERE {c}signup_year BETWEEN {y1} AND {y2} "
            "GROUP BY {c}city",
            "comparisons": "SELECT DISTINCT {c}city FROM {C} WHERE {c}signup_year >= {y1} "
            "AND {c}signup_year <= {y2}",
            "strict_integer_bounds": "SELECT DISTINCT {c}city FROM {C} WHERE "
            "{c}signup_year > {y1_minus} AND {c}signup_year < {y2_plus}",
            "in_list": "SELECT DISTINCT {c}city FROM {C} WHERE {c}signup_year IN ({years})",
            "group_by_comparisons": "SELECT {c}city FROM {C} WHERE {c}signup_year <= {y2} "
            "AND {c}signup_year >= {y1} GROUP BY {c}city",
        },
        wrong={
            "missing_distinct": "SELECT {c}city FROM {C} WHERE {c}signup_year BETWEEN {y1} "
            "AND {y2}",
            "off_by_one_lower": "SELECT DISTINCT {c}city FROM {C} WHERE {c}signup_year "
            "BETWEEN {y1_plus} AND {y2}",
            "off_by_one_upper": "SELECT DISTINCT {c}city FROM {C} WHERE {c}signup_year >= "
            "{y1} AND {c}signup_year < {y2}",
            "wrong_column": "SELECT DISTINCT {c}name FROM {C} WHERE {c}signup_year BETWEEN "
            "{y1} AND {y2}",
            "missing_lower_bound": "SELECT DISTINCT {c}city FROM {C} WHERE {c}signup_year <= {y2}",
        },
        params=[
            {"y1": 2019, "y2": 2020},
            {"y1": 2020, "y2": 2022},
            {"y1": 2021, "y2": 2023},
            {"y1": 2019, "y2": 2021},
            {"y1": 2022, "y2": 2023},
        ],
        tags=("distinct", "range"),
        difficulty="easy",
    )


def _t10() -> Template:
    return Template(
        "customers_per_plan",
        "How many customers who signed up in {year} or later are on each plan? "
        "(plan, customers; plans with none are omitted)",
        "SELECT plan, COUNT(*) AS customers FROM customers WHERE signup_year >= {year} "
        "GROUP BY plan",
        right={
            "count_pk": "SELECT {c}plan, COUNT({c}customer_id) AS customers FROM {C} "
            "WHERE {c}signup_year >= {year} GROUP BY {c}plan",
            "strict_integer_bound": "SELECT {c}plan, COUNT(*) AS customers FROM {C} "
            "WHERE {c}signup_year > {year_minus} GROUP BY {c}plan",
            "count_distinct_pk": "SELECT {c}plan, COUNT(DISTINCT {c}customer_id) AS "
            "customers FROM {C} WHERE {c}signup_year >= {year} GROUP BY {c}plan",
            "group_by_ordinal": "SELECT {c}plan, COUNT(*) AS customers FROM {C} "
            "WHERE {c}signup_year >= {year} GROUP BY 1",
            "sum_one": "SELECT {c}plan, SUM(1) AS customers FROM {C} WHERE {year} <= "
            "{c}signup_year GROUP BY {c}plan",
        },
        wrong={
            "count_wrong_column": "SELECT {c}plan, COUNT(DISTINCT {c}city) AS customers "
            "FROM {C} WHERE {c}signup_year >= {year} GROUP BY {c}plan",
            "off_by_one": "SELECT {c}plan, COUNT(*) AS customers FROM {C} "
            "WHERE {c}signup_year > {year} GROUP BY {c}plan",
            "missing_filter": "SELECT {c}plan, COUNT(*) AS customers FROM {C} GROUP BY {c}plan",
            "extra_grouping": "SELECT {c}plan, COUNT(*) AS customers FROM {C} WHERE "
            "{c}signup_year >= {year} GROUP BY {c}plan, {c}city",
            "inverted_filter": "SELECT {c}plan, COUNT(*) AS customers FROM {C} "
            "WHERE {c}signup_year <= {year} GROUP BY {c}plan",
        },
        params=[{"year": 2020}, {"year": 2021}, {"year": 2022}, {"year": 2019}, {"year": 2023}],
        tags=("count", "group-by"),
        difficulty="easy",
    )


TEMPLATES: tuple[Callable[[], Template], ...] = (
    _t1, _t2, _t3, _t4, _t5, _t6, _t7, _t8, _t9, _t10,
)  # fmt: skip

#: Share of right candidates per item.
RIGHT_SHARE = 0.55
#: 50 items x 20 candidates: the most the templates' distinct rewrites allow.
MAX_PAIRS = 1000


def _derived(params: dict[str, Any]) -> dict[str, Any]:
    """Integer neighbours of every integer parameter (``x_minus``, ``x_plus``) and more."""
    out = dict(params)
    for key, value in params.items():
        if isinstance(value, int):
            out[f"{key}_minus"] = value - 1
            out[f"{key}_plus"] = value + 1
    if "y1" in params:
        out["years"] = ", ".join(str(y) for y in range(params["y1"], params["y2"] + 1))
    return out


@dataclass(frozen=True)
class Candidate:
    item_id: str
    sql: str
    label: str  # right | wrong
    rewrite: str
    style: str


def _variants(
    forms: dict[str, str], params: dict[str, Any], parts: dict[str, str]
) -> list[tuple[str, str, str]]:
    """(sql, rewrite, style) for every form in every alias style, distinct SQL only."""
    seen: set[str] = set()
    out = []
    for style in STYLES:
        for rewrite, form in forms.items():
            sql = _styled(form, style, params, parts)
            if sql not in seen:
                seen.add(sql)
                out.append((sql, rewrite, style))
    return out


def _pick(
    rng: random.Random, variants: list[tuple[str, str, str]], n: int
) -> list[tuple[str, str, str]]:
    """``n`` variants, covering every rewrite before repeating one in another style."""
    if n > len(variants):
        raise ValueError(f"only {len(variants)} distinct variants, {n} wanted")
    by_rewrite: dict[str, list[tuple[str, str, str]]] = {}
    for variant in variants:
        by_rewrite.setdefault(variant[1], []).append(variant)
    for group in by_rewrite.values():
        rng.shuffle(group)
    rounds = [
        [group[k] for group in by_rewrite.values() if k < len(group)] for k in range(len(STYLES))
    ]
    picked: list[tuple[str, str, str]] = []
    for round_ in rounds:
        rng.shuffle(round_)
        picked.extend(round_[: n - len(picked)])
    return picked


def _items() -> Iterator[tuple[Template, int, dict[str, Any]]]:
    """Items in an order that covers every template first: param set 0 of each, then 1..."""
    templates = [make() for make in TEMPLATES]
    for k in range(max(len(t.params) for t in templates)):
        for template in templates:
            if k < len(template.params):
                yield template, k, template.params[k]


def generate(pairs: int = 1000, seed: int = 0) -> tuple[dict[str, Any], list[Candidate]]:
    """The suite document (YAML-ready) and exactly ``pairs`` candidates."""
    all_items = list(_items())
    if not 1 <= pairs <= MAX_PAIRS:
        raise ValueError(f"pairs must be from 1 to {MAX_PAIRS}")
    per_item = 20 if pairs >= 20 * 10 else max(2, math.ceil(pairs / 10))
    n_items = math.ceil(pairs / per_item)
    if n_items > len(all_items):
        per_item = math.ceil(pairs / len(all_items))
        n_items = math.ceil(pairs / per_item)
    rng = random.Random(seed)
    used: set[str] = set()  # SQL texts already given to an earlier item
    items: list[dict[str, Any]] = []
    candidates: list[Candidate] = []
    for template, k, raw in all_items[:n_items]:
        params = _derived(raw)
        item_id = f"{template.name}-{k + 1}"
        items.append(
            {
                "id": item_id,
                "question": template.question.format(**params),
                "schema": "shop",
                "reference_kind": "query",
                "accepted_references": [
                    {"name": "reference", "sql": _styled(template.reference, "bare", params)}
                ],
                "fixtures": ["base", "empty"],
                "difficulty": template.difficulty,
                "tags": list(template.tags),
                "meta": {"template": template.name},
            }
        )
        n = min(per_item, pairs - len(candidates))
        right = round(n * RIGHT_SHARE)
        reference = items[-1]["accepted_references"][0]["sql"]
        used.add(reference)
        for label, forms, wanted in (
            ("right", template.right, right),
            ("wrong", template.wrong, n - right),
        ):
            fresh = [v for v in _variants(forms, params, template.parts) if v[0] not in used]
            chosen = _pick(rng, fresh, wanted)
            used.update(sql for sql, _, _ in chosen)
            candidates += [Candidate(item_id, sql, label, rw, st) for sql, rw, st in chosen]
    suite = {
        "suite": f"shop-throughput-{pairs}",
        "dialect": "duckdb",
        "schemas": {"shop": "schema.sql"},
        "fixtures": FIXTURES,
        "items": items,
    }
    return suite, candidates


def write_suite(directory: str | Path, pairs: int = 1000, seed: int = 0) -> tuple[Path, Path, int]:
    """Write ``schema.sql``, ``suite.yaml`` and ``candidates.jsonl`` into ``directory``."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    suite, candidates = generate(pairs, seed)
    (directory / "schema.sql").write_text(SCHEMA, encoding="utf-8")
    suite_path = directory / "suite.yaml"
    suite_path.write_text(yaml.safe_dump(suite, sort_keys=False, width=100), encoding="utf-8")
    candidates_path = directory / "candidates.jsonl"
    rng = random.Random(seed + 1)
    shuffled = list(candidates)
    rng.shuffle(shuffled)  # a candidates file is in no particular order
    with candidates_path.open("w", encoding="utf-8") as handle:
        for c in shuffled:
            entry = {"id": c.item_id, "sql": c.sql, "label": c.label, "rewrite": c.rewrite,
                     "style": c.style}  # fmt: skip
            handle.write(json.dumps(entry) + "\n")
    return suite_path, candidates_path, len(candidates)
