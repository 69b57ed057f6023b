"""Tests of the normalizer: equal canonical SQL is a *proof* of equivalence.

Three kinds of test discharge that obligation:

- positive pairs: spellings of the same query that must meet;
- negative pairs: near-identical queries that differ on some database and
  must not meet (both are data, ``tests/data/normalize_pairs.sql``, in the
  corpus format, over ``tests/data/schemas/normalize_shop.sql``);
- a soundness oracle: every query of a pool (the pairs above plus some 140
  more) is run on small random databases next to its own canonical SQL, and
  every pair of pool queries whose canonical forms are equal is run side by
  side; the results must be the same bag of rows on every database. Random
  queries from a small grammar get the same treatment. The default sizes keep
  the file near 20 s; ``SQLEQUIV_ORACLE_DATABASES=300
  SQLEQUIV_RANDOM_QUERIES=1000`` is the soak run.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
from sqlglot import exp
from sqlglot.optimizer.merge_subqueries import merge_subqueries

from sqlequiv.corpus import load_file
from sqlequiv.guard.qualify import qualify_query, to_duckdb
from sqlequiv.normalize import RULES, canonical_form, canonical_sql
from sqlequiv.schema import load_schema
from sqlequiv.schema.model import Column, Schema, Table


def _t(name: str) -> exp.DataType:
    return exp.DataType.build(name)


DATA = Path(__file__).resolve().parent / "data"
#: The pairs below and their schema are data, in the corpus format (corpus/README.md).
SCHEMA = load_schema((DATA / "schemas" / "normalize_shop.sql").read_text(encoding="utf-8"))
PAIRS = load_file(DATA / "normalize_pairs.sql", DATA / "schemas")


#: Random databases per oracle run: every pool query and its canonical SQL run
#: on each (about 400 statements, 1-2 ms apiece; one-table statements run once
#: per variant of their table). A soak run raises both numbers, e.g.
#: SQLEQUIV_ORACLE_DATABASES=300 SQLEQUIV_RANDOM_QUERIES=1000.
ORACLE_DATABASES = int(os.environ.get("SQLEQUIV_ORACLE_DATABASES", "20"))
#: Random queries checked against their canonical SQL (each on 8 databases).
RANDOM_QUERIES = int(os.environ.get("SQLEQUIV_RANDOM_QUERIES", "30"))


def qualified(sql: str, dialect: str = "duckdb") -> exp.Expression:
    ast = sqlglot.parse_one(sql, read=dialect)
    assert isinstance(ast, exp.Expression)
    return qualify_query(ast, SCHEMA, dialect)


@functools.cache
def form_of(
    sql: str, *, ignore_column_order: bool = True, dialect: str = "duckdb"
) -> exp.Expression:
    """The canonical form of ``sql`` (cached: tests only read it)."""
    return canonical_form(qualified(sql, dialect), SCHEMA, ignore_column_order=ignore_column_order)


def canon(sql: str, *, ignore_column_order: bool = True, dialect: str = "duckdb") -> str:
    return form_of(sql, ignore_column_order=ignore_column_order, dialect=dialect).sql(
        dialect="duckdb"
    )


# --------------------------------------------------------------------------
# Positive pairs: each must normalize to the same canonical SQL.
# --------------------------------------------------------------------------

#: (name, left, right): spellings of one query that must meet (data/normalize_pairs.sql).
POSITIVE: list[tuple[str, str, str]] = [
    (c.title, c.candidate, c.reference) for c in PAIRS if c.expect == "equivalent"
]

# --------------------------------------------------------------------------
# Negative pairs: not equivalent, must not normalize equal.
# --------------------------------------------------------------------------

#: (name, left, right): near misses that must not meet (data/normalize_pairs.sql).
NEGATIVE: list[tuple[str, str, str]] = [
    (c.title, c.candidate, c.reference) for c in PAIRS if c.expect == "not_equivalent"
]

#: Pairs that only differ in column order: equal iff column order is ignored.
_ORDER_SENSITIVE = {"column-order-kept-when-asked"}


@pytest.mark.parametrize(
    ("left", "right"), [pytest.param(a, b, id=name) for name, a, b in POSITIVE]
)
def test_positive_pairs_normalize_equal(left: str, right: str) -> None:
    assert canon(left) == canon(right)


@pytest.mark.parametrize(
    ("left", "right", "name"), [pytest.param(a, b, name, id=name) for name, a, b in NEGATIVE]
)
def test_negative_pairs_stay_apart(left: str, right: str, name: str) -> None:
    ignore = name not in _ORDER_SENSITIVE
    assert canon(left, ignore_column_order=ignore) != canon(right, ignore_column_order=ignore)


def test_rules_run_structure_first_and_parentheses_last() -> None:
    names = [rule.__name__ for rule in RULES]
    assert names[0] == "unquote_identifiers"
    assert names.index("canonical_aliases") < names.index("sort_connectives")
    assert names[-1] == "ensure_parens"


def test_input_is_untouched() -> None:
    tree = qualified("SELECT c.name AS n FROM customers c WHERE 1 < c.customer_id")
    before = tree.sql()
    form = canonical_form(tree, SCHEMA)
    assert tree.sql() == before
    assert form is not tree


def test_quoted_identifiers_in_other_dialects() -> None:
    mysql = canon("SELECT `o`.`order_id` AS `id` FROM `orders` AS `o`", dialect="mysql")
    postgres = canon('SELECT "x"."order_id" FROM "orders" "x"', dialect="postgres")
    assert mysql == postgres == canon("SELECT order_id FROM orders")


def test_other_dialect_with_integer_division() -> None:
    # Postgres integer division keeps its meaning through normalization.
    pg = canon("SELECT customer_id / 2 FROM customers", dialect="postgres")
    duck = canon("SELECT customer_id / 2 FROM customers")
    assert pg != duck
    assert pg == canon("SELECT c.customer_id / 2 AS h FROM customers c", dialect="postgres")


# --------------------------------------------------------------------------
# Refusals: shapes that must not be merged, and the sqlglot rule we rejected.
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "inner",
    [
        "SELECT DISTINCT plan, name FROM customers",
        "SELECT plan, max(name) AS name FROM customers GROUP BY plan",
        "SELECT max(plan) AS plan, max(name) AS name FROM customers",
        "SELECT plan, name FROM customers ORDER BY name LIMIT 2",
        "SELECT plan, name FROM customers LIMIT 1 OFFSET 1",
        "SELECT plan, name FROM customers UNION ALL SELECT name, plan FROM customers",
    ],
)
def test_merge_refuses_non_plain_inner_queries(inner: str) -> None:
    form = canon(f"SELECT s.plan FROM ({inner}) AS s WHERE s.name = 'a'")
    assert "(SELECT" in form


def test_a_window_of_a_derived_table_is_filtered_by_qualify() -> None:
    # The outer WHERE reads the window once: a QUALIFY of the merged query, whatever
    # the ties (merge_ranked_tables).
    inner = "SELECT plan, row_number() OVER (ORDER BY name) AS name FROM customers"
    form = canon(f"SELECT s.plan FROM ({inner}) AS s WHERE s.name = 'a'")
    assert form == (
        "SELECT t0.plan FROM customers AS t0 QUALIFY ROW_NUMBER() OVER (ORDER BY t0.name) = 'a'"
    )
    # Read twice, a numbering over ties stays one value per row in its derived table.
    twice = canon(f"SELECT s.plan, s.name FROM ({inner}) AS s WHERE s.name = 1")
    assert "(SELECT" in twice


def test_merge_refuses_derived_table_on_null_side_of_outer_join() -> None:
    sql = (
        "SELECT c.name, s.one FROM customers c LEFT JOIN (SELECT 1 AS one, customer_id FROM "
        "orders) s ON c.customer_id = s.customer_id"
    )
    assert "(SELECT" in canon(sql)
    # sqlglot's merge_subqueries does merge it, turning an unmatched NULL into 1.
    merged = merge_subqueries(qualified(sql))
    assert "LEFT JOIN orders" in merged.sql()


def test_merge_refuses_outer_filter_across_right_join() -> None:
    sql = (
        "SELECT s.name, o.order_id FROM (SELECT name, customer_id FROM customers WHERE "
        "plan = 'x') s RIGHT JOIN orders o ON o.customer_id = s.customer_id"
    )
    assert "(SELECT" in canon(sql)


def test_cte_referenced_twice_is_inlined_only_when_deterministic() -> None:
    # A deterministic body is the same bag of rows wherever it is read: a copy each.
    form = canon(
        "WITH s AS (SELECT customer_id, amount FROM orders WHERE amount > 1) "
        "SELECT a.amount FROM s a JOIN s b ON a.customer_id = b.customer_id"
    )
    assert not form.startswith("WITH") and form.count("amount > 1") == 2
    # LIMIT without a total order may pick other rows each time it is read: kept once.
    form = canon(
        "WITH s AS (SELECT customer_id, amount FROM orders LIMIT 3) "
        "SELECT a.amount FROM s a JOIN s b ON a.customer_id = b.customer_id"
    )
    assert form.startswith("WITH cte0 AS (SELECT") and form.count("LIMIT 3") == 1


def test_unused_cte_is_dropped() -> None:
    assert canon("WITH s AS (SELECT 1 AS x) SELECT name FROM customers") == canon(
        "SELECT name FROM customers"
    )


def test_a_join_on_a_key_under_a_collation_stays_a_join() -> None:
    # SQLite's = takes one operand's collation: a key unique under BINARY ('A', 'a')
    # meets one NOCASE value twice, so the join is no semi-join.
    text = _t("VARCHAR")
    keyed = Table("k", (Column("name", text, collation="NOCASE"),), primary_key=("name",))
    other = Table("r", (Column("name", text),))
    schema = Schema((keyed, other))
    sql = "SELECT r.name FROM r AS r, k AS k WHERE k.name = r.name"
    ast = qualify_query(sqlglot.parse_one(sql), schema, "duckdb")
    assert "EXISTS" not in canonical_sql(ast, schema)
    plain = Schema((Table("k", (Column("name", text),), primary_key=("name",)), other))
    ast = qualify_query(sqlglot.parse_one(sql), plain, "duckdb")
    assert "EXISTS" in canonical_sql(ast, plain)


def test_volatile_duplicates_are_kept() -> None:
    form = canon("SELECT name FROM customers WHERE random() > 0.5 AND random() > 0.5")
    assert form.count("RANDOM()") == 2


# --------------------------------------------------------------------------
# The soundness oracle.
# --------------------------------------------------------------------------

POOL: list[str] = [
    "SELECT c.name FROM customers c",
    "SELECT name, plan FROM customers WHERE plan = 'x' OR name = 'a'",
    "SELECT name FROM customers WHERE NOT (plan = 'x' AND name = 'a')",
    "SELECT name FROM customers WHERE plan <> 'x' OR name <> 'a'",
    "SELECT name FROM customers WHERE plan IS NOT NULL AND NOT plan IN ('x', 'y')",
    "SELECT c.plan, COUNT(1) FROM customers c GROUP BY c.plan",
    "SELECT plan, COUNT(name) FROM customers GROUP BY plan",
    "SELECT plan, COUNT(DISTINCT name) FROM customers GROUP BY plan HAVING COUNT(*) > 1",
    "SELECT o.order_id FROM orders o WHERE o.amount BETWEEN 1 AND 5",
    "SELECT o.order_id FROM orders o WHERE o.amount > 1 AND o.amount < 5",
    "SELECT order_id FROM orders WHERE NOT amount BETWEEN 1 AND 5",
    "SELECT order_id FROM orders WHERE placed_at < TIMESTAMP '2020-02-01'",
    "SELECT order_id FROM orders WHERE placed_at BETWEEN DATE '2020-01-01' AND DATE '2020-01-31'",
    "SELECT c.name, o.amount FROM customers c JOIN orders o ON c.customer_id = o.customer_id",
    "SELECT c.name, o.amount FROM customers c LEFT JOIN orders o ON c.customer_id = o.customer_id",
    "SELECT c.name, o.amount FROM customers c LEFT JOIN orders o "
    "ON c.customer_id = o.customer_id AND o.amount > 2",
    "SELECT c.name, o.amount FROM customers c LEFT JOIN orders o "
    "ON c.customer_id = o.customer_id WHERE o.amount > 2",
    "SELECT c.name, o.amount FROM customers c FULL JOIN orders o ON c.customer_id = o.customer_id",
    "SELECT a.order_id, b.order_id FROM orders a JOIN orders b ON a.customer_id = b.customer_id "
    "AND a.order_id < b.order_id",
    "SELECT a.order_id FROM orders a, orders b, customers c WHERE a.customer_id = c.customer_id "
    "AND b.customer_id = c.customer_id AND b.amount > a.amount",
    "SELECT DISTINCT c.plan FROM customers c JOIN orders o ON o.customer_id = c.customer_id",
    "SELECT c.plan FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.plan",
    "SELECT name FROM customers WHERE customer_id IN (SELECT customer_id FROM orders)",
    "SELECT name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders)",
    "SELECT name FROM customers c WHERE NOT EXISTS "
    "(SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.amount > 1)",
    "SELECT c.name, (SELECT MAX(o.amount) FROM orders o WHERE o.customer_id = c.customer_id) "
    "FROM customers c",
    "SELECT s.plan, s.n FROM (SELECT plan, COUNT(*) AS n FROM customers GROUP BY plan) s "
    "WHERE s.n > 1",
    "SELECT plan, COUNT(*) FROM customers GROUP BY plan HAVING COUNT(*) > 1",
    "SELECT * FROM (SELECT name, plan FROM customers WHERE customer_id > 1) s WHERE s.plan = 'x'",
    "SELECT name, plan FROM customers WHERE plan = 'x' AND customer_id > 1",
    "WITH t AS (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) "
    "SELECT c.name, t.total FROM customers c JOIN t ON t.customer_id = c.customer_id",
    "SELECT c.name, SUM(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.customer_id "
    "GROUP BY c.customer_id, c.name",
    "SELECT name FROM customers UNION SELECT plan FROM customers",
    "SELECT name FROM customers UNION ALL SELECT plan FROM customers",
    "SELECT name FROM customers EXCEPT SELECT plan FROM customers",
    "SELECT name FROM customers INTERSECT ALL SELECT plan FROM customers",
    "SELECT name FROM customers ORDER BY name NULLS FIRST LIMIT 2",
    "SELECT name FROM customers ORDER BY customer_id DESC LIMIT 1 OFFSET 1",
    "SELECT x.n FROM (SELECT name AS n FROM customers ORDER BY customer_id LIMIT 2) x",
    "SELECT s.one, c.name FROM customers c LEFT JOIN "
    "(SELECT 1 AS one, customer_id FROM orders) s ON s.customer_id = c.customer_id",
    "SELECT big.name, o.order_id FROM (SELECT * FROM customers WHERE plan = 'x') big "
    "LEFT JOIN orders o ON o.customer_id = big.customer_id",
    "SELECT o.order_id, s.name FROM orders o LEFT JOIN (SELECT name, customer_id FROM customers "
    "WHERE plan = 'x') s ON o.customer_id = s.customer_id",
    "SELECT s.name, o.order_id FROM (SELECT name, customer_id FROM customers WHERE plan = 'x') s "
    "RIGHT JOIN orders o ON o.customer_id = s.customer_id",
    "SELECT order_id FROM orders WHERE amount * 2 > 4 OR amount IS NULL",
    "SELECT s.d FROM (SELECT amount * 2 AS d FROM orders) s WHERE s.d > 4 OR s.d IS NULL",
    "SELECT s.d + 1 FROM (SELECT amount - 1 AS d FROM orders) s",
    "SELECT amount - 1 + 1 FROM orders",
    "SELECT COUNT(*) FROM orders WHERE customer_id = 1 OR customer_id = 2",
    "SELECT COUNT(*) FROM orders WHERE customer_id IN (2, 1)",
    "SELECT plan, name, COUNT(*) FROM customers GROUP BY name, plan ORDER BY 3 DESC, 1, 2",
    "SELECT DISTINCT name, plan FROM customers ORDER BY plan",
    "SELECT name, plan FROM customers GROUP BY plan, name ORDER BY plan",
    "SELECT c.name FROM customers c WHERE c.customer_id > ALL (SELECT o.customer_id FROM orders o "
    "WHERE o.customer_id IS NOT NULL)",
    "SELECT c.name FROM customers c WHERE NOT c.customer_id > ANY (SELECT o.customer_id FROM "
    "orders o)",
    "SELECT c.name FROM customers c WHERE c.customer_id <= ALL "
    "(SELECT o.customer_id FROM orders o)",
    "SELECT s.x, count(*) FROM (SELECT 'k' AS x, name FROM customers WHERE plan = 'x') s "
    "GROUP BY s.x",
    "SELECT c.name, s.customer_id FROM customers c, (SELECT c.customer_id FROM orders c "
    "WHERE c.amount > 1) s WHERE s.customer_id = c.customer_id",
    "SELECT s.name, o.order_id, o2.order_id FROM (SELECT * FROM customers WHERE plan = 'x') s "
    "LEFT JOIN orders o ON o.customer_id = s.customer_id LEFT JOIN orders o2 "
    "ON o2.order_id = o.order_id AND o2.amount > 1",
    "SELECT s.name, o.order_id FROM (SELECT * FROM customers WHERE plan = 'x') s LEFT JOIN "
    "orders o ON o.customer_id = s.customer_id JOIN orders o2 ON o2.customer_id = s.customer_id",
    "SELECT * FROM (SELECT name FROM customers ORDER BY name LIMIT 2) t",
    "SELECT name FROM customers WHERE plan IN ('x', NULL)",
    "SELECT s.v, s.v IS NULL FROM (SELECT o.amount IS NULL AS v FROM orders o) s",
    "SELECT s.y FROM (SELECT NOT (amount > 2) AS y FROM orders) s WHERE s.y OR s.y IS NULL",
    "SELECT s.x - 1 FROM (SELECT amount + 1 AS x FROM orders) s WHERE -s.x < 0",
    "SELECT name FROM customers ORDER BY (SELECT count(*) FROM orders o "
    "WHERE o.customer_id = customers.customer_id), name",
    "SELECT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id) AS has_orders, "
    "c.name FROM customers c",
    "SELECT s.name, row_number() OVER (ORDER BY s.name) FROM (SELECT name FROM customers "
    "WHERE plan = 'x') s",
    "SELECT count(*) OVER () FROM (SELECT * FROM customers WHERE plan = 'x') s",
    "SELECT * FROM (SELECT name FROM customers UNION SELECT plan FROM customers) u "
    "ORDER BY u.name DESC LIMIT 2",
    "SELECT name FROM customers UNION SELECT plan FROM customers ORDER BY 1 DESC LIMIT 2",
    "SELECT * FROM orders o WHERE o.amount BETWEEN o.customer_id AND 5",
    "SELECT * FROM orders o WHERE o.amount IN (o.customer_id)",
    "SELECT name FROM customers WHERE customer_id IN (1.0)",
    "SELECT count(1) FILTER (WHERE amount > 1), count(amount) FROM orders",
    "SELECT CASE WHEN amount > 5 THEN 'big' WHEN amount IS NULL THEN NULL ELSE 'small' END = "
    "'big' OR amount < 1 FROM orders",
    "SELECT name FROM customers WHERE (plan = 'x' OR name = 'a') AND NOT (plan = 'y' AND "
    "name IS NULL)",
    # Shapes most rules leave alone; the ones that apply must still be exact.
    "SELECT * FROM customers NATURAL JOIN orders",
    "SELECT * FROM customers JOIN orders USING (customer_id) WHERE amount > 1",
    "SELECT * FROM customers LEFT JOIN orders USING (customer_id)",
    "SELECT c.plan, o.amount FROM customers c, LATERAL (SELECT max(amount) AS amount "
    "FROM orders o WHERE o.customer_id = c.customer_id) o",
    "SELECT x FROM (VALUES (1), (2)) v(x)",
    "SELECT name FROM customers WHERE customer_id IN (SELECT unnest([1, 2]))",
    "SELECT r.range FROM range(3) r",
    "SELECT name, count(*) FROM customers GROUP BY ALL",
    "SELECT plan, name FROM customers GROUP BY ROLLUP (plan, name)",
    "SELECT DISTINCT ON (plan) plan, name FROM customers ORDER BY plan, name",
    "SELECT name FROM customers QUALIFY row_number() OVER (PARTITION BY plan "
    "ORDER BY customer_id) = 1",
    "SELECT name FROM customers c WHERE plan = 'x' UNION ALL BY NAME "
    "SELECT plan AS name FROM customers",
    "WITH s AS (SELECT customer_id, amount FROM orders WHERE amount > 1) SELECT c.name "
    "FROM customers c WHERE c.customer_id IN (SELECT s.customer_id FROM s) AND EXISTS "
    "(SELECT 1 FROM s s2 WHERE s2.customer_id = c.customer_id AND s2.amount > 2)",
    "WITH u AS (SELECT name AS v FROM customers UNION ALL SELECT plan FROM customers) "
    "SELECT a.v, b.v FROM u a, u b WHERE a.v < b.v",
    "SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE "
    "o.customer_id = c.customer_id AND EXISTS (SELECT 1 FROM customers c2 WHERE "
    "c2.customer_id = o.customer_id AND c2.plan = c.plan))",
    "SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders c WHERE c.order_id = 1)",
    "SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM (SELECT o.amount FROM orders o "
    "WHERE o.customer_id = c.customer_id) s WHERE s.amount > 1)",
    "SELECT c.name, (SELECT count(*) FROM (SELECT o.order_id FROM orders o WHERE "
    "o.customer_id = c.customer_id AND o.amount > 1) x) FROM customers c",
    "SELECT name FROM (SELECT * FROM customers) c1 WHERE customer_id = "
    "(SELECT max(c2.customer_id) FROM customers c2 WHERE c2.plan = c1.plan)",
    "SELECT o.customer_id, sum(o.amount) FROM orders o GROUP BY o.customer_id "
    "HAVING sum(o.amount) > (SELECT avg(amount) FROM orders)",
    "(SELECT name FROM customers ORDER BY name LIMIT 1) ORDER BY 1 DESC",
    "SELECT plan, name FROM customers ORDER BY ALL DESC NULLS FIRST LIMIT 2",
    "SELECT plan, count(*) FROM customers GROUP BY ALL ORDER BY ALL LIMIT 1",
]


def _pool() -> list[str]:
    queries = list(POOL)
    for _, left, right in POSITIVE + NEGATIVE:
        queries.extend((left, right))
    return list(dict.fromkeys(queries))


_NAMES = (None, "a", "b")
_PLANS = (None, "x", "y")
_TIMES = (None, "2020-01-01 00:00:00", "2020-01-31 23:59:59", "2020-02-01 00:00:00")
_AMOUNTS = (None, Decimal("0"), Decimal("1.00"), Decimal("2.50"), Decimal("5"), Decimal("10"))


Rows = list[tuple[Any, ...]]


def _customers(rng: random.Random) -> Rows:
    ids = rng.sample([1, 2, 3], rng.choice([0, 1, 2, 3, 3]))
    return [(i, rng.choice(_NAMES), rng.choice(_PLANS)) for i in sorted(ids)]


def _orders(rng: random.Random) -> Rows:
    ids = rng.sample([1, 2, 3], rng.choice([0, 1, 2, 3, 3]))
    parents = (None, 1, 2, 3)
    return [(i, rng.choice(parents), rng.choice(_TIMES), rng.choice(_AMOUNTS)) for i in sorted(ids)]


class Databases:
    """``count`` small databases that satisfy the keys and the foreign key.

    Each is a pair (customers variant, orders variant): the tables vary
    independently, so a query that reads one table only needs to run once per
    variant of that table (see the oracle's cache).
    """

    def __init__(self, count: int, seed: int = 7) -> None:
        rng = random.Random(seed)
        variants = max(6, count // 2)
        self.customers: list[Rows] = [[], *(_customers(rng) for _ in range(variants - 1))]
        self.orders: list[Rows] = [[], *(_orders(rng) for _ in range(variants - 1))]
        valid = [
            (i, j)
            for i, customers in enumerate(self.customers)
            for j, orders in enumerate(self.orders)
            if {row[1] for row in orders} - {None} <= {row[0] for row in customers}
        ]
        rng.shuffle(valid)
        valid.remove((0, 0))
        self.pairs: list[tuple[int, int]] = [(0, 0), *valid[: count - 1]]

    def __iter__(self) -> Iterator[tuple[int, int, dict[str, Rows]]]:
        for i, j in self.pairs:
            yield i, j, {"customers": self.customers[i], "orders": self.orders[j]}


def _load(con: duckdb.DuckDBPyConnection, db: dict[str, Rows]) -> None:
    con.execute("DELETE FROM orders; DELETE FROM customers")
    for table, rows in db.items():
        if rows:
            marks = ", ".join("(" + ", ".join("?" * len(row)) + ")" for row in rows)
            con.execute(f"INSERT INTO {table} VALUES {marks}", [v for row in rows for v in row])


def _bag(rows: Sequence[tuple[Any, ...]]) -> list[str]:
    return sorted(repr(row) for row in rows)


def _same_bag(
    left: list[tuple[Any, ...]], right: list[tuple[Any, ...]], ignore_order: bool
) -> bool:
    """Bag equality of two results, up to a permutation of columns if ``ignore_order``.

    Columns are matched as value vectors: both sides order their columns by
    the sorted multiset of each column's values, then only columns with equal
    multisets (ties) are permuted.
    """
    if len(left) != len(right):
        return False
    if not left:
        return True
    width = len(left[0])
    if width != len(right[0]):
        return False
    if not ignore_order:
        return _bag(left) == _bag(right)

    def keyed(rows: list[tuple[Any, ...]]) -> tuple[list[str], list[tuple[Any, ...]]]:
        keys = [repr(sorted(repr(row[j]) for row in rows)) for j in range(width)]
        order = sorted(range(width), key=lambda j: keys[j])
        return [keys[j] for j in order], [tuple(row[j] for j in order) for row in rows]

    left_keys, left_rows = keyed(left)
    right_keys, right_rows = keyed(right)
    if left_keys != right_keys:
        return False
    target = _bag(left_rows)
    groups = [list(g) for _, g in itertools.groupby(range(width), key=lambda j: left_keys[j])]
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        perm = [j for group in choice for j in group]
        if target == _bag([tuple(row[j] for j in perm) for row in right_rows]):
            return True
    return False


@pytest.fixture(scope="module")
def connection() -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(config={"threads": 1})
    con.execute(SCHEMA.ddl(constraints=False))
    yield con
    con.close()


#: What a query that raises returns in the oracle: a rewrite must raise where its query
#: does (Calcite's SINGLE_VALUE), and this row matches no real result.
_RAISED: Rows = [("<the query raised>",)]


def _run(connection: duckdb.DuckDBPyConnection, sql: str) -> Rows:
    try:
        return connection.execute(sql).fetchall()
    except duckdb.InvalidInputException:
        return _RAISED


def test_soundness_oracle(connection: duckdb.DuckDBPyConnection) -> None:
    """Every canonical form means what its query means; equal forms mean equal results.

    Each pool query runs next to its own canonical SQL on every database: a
    rewrite that changed the meaning shows up as a difference there. Pairs of
    pool queries with the same canonical SQL are then compared directly (this
    also follows from the first check by transitivity).
    """
    # Volatile queries differ from themselves; the negative pairs cover them.
    queries = [sql for sql in _pool() if "random()" not in sql]
    original = {sql: to_duckdb(qualified(sql)) for sql in queries}
    forms = {sql: canon(sql) for sql in queries}
    groups: dict[str, list[str]] = {}
    for sql in queries:
        groups.setdefault(forms[sql], []).append(sql)
    proved = [pair for members in groups.values() for pair in itertools.combinations(members, 2)]
    assert len(proved) >= len(POSITIVE)

    statements = sorted(set(original.values()) | set(forms.values()))
    reads = {sql: _tables_read(sql) for sql in statements}
    cache: dict[tuple[str, int, int], Rows] = {}
    for i, j, db in Databases(ORACLE_DATABASES):
        _load(connection, db)
        results: dict[str, Rows] = {}
        for sql in statements:
            # A statement's result only depends on the tables it reads.
            key = (sql, i if "customers" in reads[sql] else -1, j if "orders" in reads[sql] else -1)
            if key not in cache:
                cache[key] = _run(connection, sql)
            results[sql] = cache[key]
        for sql in queries:
            assert _same_bag(results[original[sql]], results[forms[sql]], ignore_order=True), (
                f"canonical form changed the result on {db}:\n  {original[sql]}\n"
                f"  {forms[sql]}\n  {results[original[sql]]}\n  {results[forms[sql]]}"
            )
        for left, right in proved:
            assert _same_bag(
                results[original[left]], results[original[right]], ignore_order=True
            ), f"proved pair differs on {db}:\n  {left}\n  {right}"


def _tables_read(sql: str) -> set[str]:
    return {table.name for table in sqlglot.parse_one(sql, read="duckdb").find_all(exp.Table)}


# --------------------------------------------------------------------------
# Random queries: rule interactions nobody thought to write down.
# --------------------------------------------------------------------------

_COLUMNS = {
    "customers": (("customer_id", "int"), ("name", "str"), ("plan", "str")),
    "orders": (("order_id", "int"), ("customer_id", "int"), ("placed_at", "ts"), ("amount", "num")),
}
_LITERALS = {
    "int": ("0", "1", "2", "3"),
    "num": ("0", "1", "2.5", "5"),
    "str": ("'a'", "'b'", "'x'", "'y'"),
    "ts": ("TIMESTAMP '2020-01-01 00:00:00'", "TIMESTAMP '2020-01-31 23:59:59'"),
}
Col = tuple[str, str]  # (qualified column, type family)


class RandomQueries:
    """A small grammar of SELECTs over the test schema: joins of every kind,
    derived tables, CTEs, predicates with NOT/BETWEEN/IN/EXISTS, GROUP BY,
    DISTINCT, set operations, and ORDER BY over every column with LIMIT (so
    that the result is a deterministic bag)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.count = 0

    def alias(self) -> str:
        self.count += 1
        return f"a{self.count}"

    def pick(self, cols: list[Col], family: str | None = None) -> Col | None:
        fits = [c for c in cols if family is None or c[1] == family]
        return self.rng.choice(fits) if fits else None

    def source(self, depth: int) -> tuple[str, list[Col]]:
        if depth > 0 and self.rng.random() < 0.3:
            sql, names = self.select(depth - 1)
            alias = self.alias()
            return f"({sql}) {alias}", [(f"{alias}.{n}", t) for n, t in names]
        table = self.rng.choice(list(_COLUMNS))
        alias = self.alias()
        return f"{table} {alias}", [(f"{alias}.{c}", t) for c, t in _COLUMNS[table]]

    def predicate(self, cols: list[Col], depth: int) -> str:
        rng = self.rng
        roll = rng.random()
        if depth > 0 and roll < 0.25:
            op = rng.choice(["AND", "OR"])
            return f"({self.predicate(cols, depth - 1)} {op} {self.predicate(cols, depth - 1)})"
        if depth > 0 and roll < 0.33:
            return f"NOT ({self.predicate(cols, depth - 1)})"
        if depth > 0 and roll < 0.38:
            table = rng.choice(list(_COLUMNS))
            alias = self.alias()
            inner = [(f"{alias}.{c}", t) for c, t in _COLUMNS[table]]
            mine, theirs = self.pick(inner, "int"), self.pick(cols, "int")
            link = f"{mine[0]} = {theirs[0]}" if mine and theirs else "TRUE"
            body = f"{self.predicate(inner, 0)} AND {link}"
            return f"{rng.choice(['', 'NOT '])}EXISTS (SELECT * FROM {table} {alias} WHERE {body})"
        column, family = rng.choice(cols)
        literals = _LITERALS[family]
        roll = rng.random()
        if roll < 0.1:
            return f"{column} IS {rng.choice(['', 'NOT '])}NULL"
        if roll < 0.25:
            low, high = sorted(rng.sample(literals, 2))
            return f"{column} {rng.choice(['', 'NOT '])}BETWEEN {low} AND {high}"
        if roll < 0.4:
            items = ", ".join(rng.choice([*literals, "NULL"]) for _ in range(rng.randint(1, 3)))
            return f"{column} {rng.choice(['', 'NOT '])}IN ({items})"
        op = rng.choice(["=", "<>", "<", "<=", ">", ">="])
        other = self.pick(cols, family) if rng.random() < 0.3 else None
        value = other[0] if other else rng.choice(literals)
        return f"{value} {op} {column}" if rng.random() < 0.3 else f"{column} {op} {value}"

    def select(self, depth: int) -> tuple[str, list[tuple[str, str]]]:
        rng = self.rng
        from_sql, cols = self.source(depth)
        for _ in range(rng.choice([0, 1, 1, 2])):
            sql, more = self.source(depth)
            kind = rng.choice([",", "CROSS JOIN", "JOIN", "JOIN", "LEFT JOIN"])
            if kind in (",", "CROSS JOIN"):
                from_sql += f"{'' if kind == ',' else ' '}{kind} {sql}"
            else:
                left, right = self.pick(cols, "int"), self.pick(more, "int")
                on = f"{left[0]} = {right[0]}" if left and right else "TRUE"
                if rng.random() < 0.3:
                    on += f" AND {self.predicate(more, 0)}"
                from_sql += f" {kind} {sql} ON {on}"
            cols += more
        sql = f" FROM {from_sql}"
        if rng.random() < 0.7:
            sql += f" WHERE {self.predicate(cols, 2)}"
        names: list[tuple[str, str]] = []
        projections: list[str] = []
        if rng.random() < 0.25:
            keys = list(dict.fromkeys(rng.choice(cols) for _ in range(rng.randint(1, 2))))
            for i, (key, family) in enumerate(keys):
                projections.append(f"{key} AS k{i}")
                names.append((f"k{i}", family))
            measure = rng.choice(["COUNT(*)", "COUNT(1)", f"COUNT({rng.choice(cols)[0]})"])
            projections.append(f"{measure} AS m")
            names.append(("m", "int"))
            sql += " GROUP BY " + ", ".join(key for key, _ in keys)
            if rng.random() < 0.3:
                sql += f" HAVING COUNT(*) > 1 OR {keys[0][0]} IS NULL"
        else:
            for i in range(rng.randint(1, 3)):
                column, family = rng.choice(cols)
                projections.append(f"{column} AS p{i}")
                names.append((f"p{i}", family))
        distinct = "DISTINCT " if rng.random() < 0.2 else ""
        sql = f"SELECT {distinct}{', '.join(projections)}{sql}"
        if rng.random() < 0.25:
            order = ", ".join(f"{i + 1}{rng.choice(['', ' DESC'])}" for i in range(len(names)))
            sql += f" ORDER BY {order} LIMIT {rng.randint(0, 3)}"
        return sql, names

    def query(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.15:
            (left, a), (right, b) = self.select(1), self.select(1)
            if len(a) == len(b) and "ORDER BY" not in left + right:
                op = rng.choice(["UNION", "UNION ALL", "INTERSECT", "EXCEPT"])
                return f"{left} {op} {right}"
        if roll < 0.25:
            body, names = self.select(1)
            first = names[0][0]
            return (
                f"WITH w AS ({body}) SELECT x.{first}, y.{first} FROM w x "
                f"{rng.choice(['JOIN', 'LEFT JOIN'])} w y ON x.{first} = y.{first}"
            )
        return self.select(2)[0]


def test_random_queries_keep_their_meaning(connection: duckdb.DuckDBPyConnection) -> None:
    """Random queries run next to their canonical SQL on a few databases."""
    generator = RandomQueries(seed=2024)
    databases = list(Databases(8, seed=3))
    checked = 0
    for _ in range(RANDOM_QUERIES):
        sql = generator.query()
        try:
            tree = qualified(sql)
        except Exception:  # the grammar can produce an ambiguous name; not our concern
            continue
        original, form = to_duckdb(tree), canonical_sql(tree, SCHEMA)
        for _i, _j, db in databases:
            _load(connection, db)
            try:
                left = connection.execute(original).fetchall()
            except duckdb.Error:  # e.g. a value the grammar compares across types
                break
            right = connection.execute(form).fetchall()
            assert _same_bag(left, right, ignore_order=True), (sql, form, db, left, right)
        else:
            checked += 1
    assert checked >= RANDOM_QUERIES // 2


def _strict_equal(left: Any, right: Any) -> bool:
    if isinstance(left, exp.Expr) or isinstance(right, exp.Expr):
        if type(left) is not type(right):
            return False
        keys = {k for k, v in left.args.items() if v not in (None, False, [])}
        if keys != {k for k, v in right.args.items() if v not in (None, False, [])}:
            return False
        return all(_strict_equal(left.args[k], right.args[k]) for k in keys)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(_strict_equal, left, right))
    return bool(left == right)


def test_canonical_trees_are_well_formed() -> None:
    """The text is a faithful picture of the tree, and parent links are exact.

    Reading the canonical SQL back must give the very same tree (no missing
    parentheses: two different trees never share a rendering). Rules rewrite
    through ``replace``, which trusts parent links, so those must stay exact.
    """
    for sql in _pool():
        form = form_of(sql)
        reparsed = sqlglot.parse_one(form.sql(dialect="duckdb"), read="duckdb")
        assert _strict_equal(form, reparsed), form.sql(dialect="duckdb")
        for node in form.walk():
            for child in node.iter_expressions():
                assert child.parent is node, (sql, node.sql(), child.sql())


def test_a_form_is_computed_once_whatever_the_limits_and_each_limit_still_holds() -> None:
    from sqlequiv import normalize
    from sqlequiv.normalize import Limits, TooLarge

    tree = qualify_query(
        sqlglot.parse_one("SELECT order_id FROM orders WHERE order_id = 1 OR order_id = 3"),
        SCHEMA,
        "duckdb",
    )
    calls = []
    original = normalize._canonical_form

    def counted(*args: Any) -> exp.Expression:
        calls.append(args)
        return original(*args)

    normalize._canonical_form = counted  # type: ignore[assignment]
    try:
        first = canonical_form(tree, SCHEMA)
        # The prover's tighter limits reuse the form (a copy: the held one stays intact).
        again = canonical_form(tree, SCHEMA, limits=Limits(nodes=1000, terms=100))
        assert again.sql() == first.sql() and again is not first
        assert len(calls) == 1
        # A limit the tree is past still refuses it, though its form is held.
        with pytest.raises(TooLarge):
            canonical_form(tree, SCHEMA, limits=Limits(nodes=5))
    finally:
        normalize._canonical_form = original  # type: ignore[assignment]
