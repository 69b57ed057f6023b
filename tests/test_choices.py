"""Refutations that hold whatever order the engine reads rows in (issue 40).

:func:`arbitrary_choices` lists the constructs whose result is the engine's choice;
:func:`physical_orders` gives the other orders of a database's rows; the prober counts a
difference only if it holds in each. Run on the engines themselves: SQLite's scalar
subquery really keeps the first row it reads, DuckDB's ``any_value`` really picks.
"""

from __future__ import annotations

import math

import pytest
import sqlglot

from sqlequiv import check
from sqlequiv.database import Database
from sqlequiv.execute.duckdb_engine import DuckDBExecutor
from sqlequiv.execute.sqlite_engine import SQLiteExecutor
from sqlequiv.guard import guard_query
from sqlequiv.options import Options
from sqlequiv.schema import load_schema
from sqlequiv.search.choices import MAX_ORDERS, arbitrary_choices, physical_orders
from sqlequiv.search.probe import Prober

PATIENTS = """
CREATE TABLE patient (id INTEGER PRIMARY KEY, birthday DATE);
CREATE TABLE laboratory (lab_id INTEGER PRIMARY KEY, id INTEGER NOT NULL, got INTEGER);
"""
FIRST_READ = (
    "SELECT got FROM laboratory WHERE id = (SELECT id FROM patient WHERE birthday = '1959-03-01')"
)
SMALLEST = (
    "SELECT got FROM laboratory WHERE id = "
    "(SELECT MIN(id) FROM patient WHERE birthday = '1959-03-01')"
)
EVERY = (
    "SELECT got FROM laboratory WHERE id IN (SELECT id FROM patient WHERE birthday = '1959-03-01')"
)


@pytest.mark.parametrize(
    ("sql", "dialect", "found"),
    [
        (FIRST_READ, "sqlite", "a scalar subquery that may return several rows"),
        ("SELECT SUM(wins), forename FROM standings", "sqlite", "a bare column beside"),
        ("SELECT d, name, COUNT(*) FROM t GROUP BY d", "mysql", "a bare column beside"),
        ("SELECT a FROM t WHERE b = (SELECT b FROM u ORDER BY c DESC LIMIT 1 OFFSET 1)",
         "duckdb", "a LIMIT or OFFSET inside"),
        ("SELECT * FROM (SELECT a FROM t LIMIT 2) x", "duckdb", "a LIMIT or OFFSET inside"),
        ("SELECT GROUP_CONCAT(name) FROM t", "sqlite", "GROUP_CONCAT without an ORDER BY"),
        ("SELECT string_agg(name, ',') FROM t", "duckdb", "GROUP_CONCAT without an ORDER BY"),
        ("SELECT a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) FROM t", "duckdb",
         "a window function"),
        ("SELECT LAG(a) OVER (ORDER BY b) FROM t", "postgres", "a window function"),
        ("SELECT first(a) FROM t GROUP BY b", "duckdb", "FIRST, which picks a row"),
        ("SELECT any_value(a) FROM t", "duckdb", "ANY_VALUE, which picks a row"),
        ("SELECT DISTINCT ON (a) a, b FROM t", "postgres", "DISTINCT ON"),
    ],
)  # fmt: skip
def test_each_construct_that_leaves_a_choice_is_listed(sql: str, dialect: str, found: str) -> None:
    choices = arbitrary_choices(sqlglot.parse_one(sql, read=dialect), dialect)
    assert any(c.startswith(found) for c in choices), choices


@pytest.mark.parametrize(
    ("sql", "dialect"),
    [
        (FIRST_READ, "duckdb"),  # DuckDB raises on a second row instead of choosing
        (SMALLEST, "sqlite"),  # an aggregate without GROUP BY is one row
        ("SELECT (SELECT COUNT(*) FROM u WHERE u.a = t.a) FROM t", "sqlite"),
        ("SELECT d, SUM(x) FROM t GROUP BY d", "sqlite"),
        ("SELECT t.d AS d, SUM(x) FROM t GROUP BY t.d", "sqlite"),
        ("SELECT a FROM t ORDER BY a LIMIT 1", "sqlite"),  # the tie analysis' own
        ("SELECT string_agg(name, ',' ORDER BY name) FROM t", "duckdb"),
        ("SELECT RANK() OVER (PARTITION BY a ORDER BY b) FROM t", "duckdb"),
        ("SELECT SUM(x) OVER (PARTITION BY a ORDER BY b) FROM t", "duckdb"),  # peers summed
        ("SELECT a FROM t WHERE a IN (SELECT b FROM u) OR EXISTS (SELECT 1 FROM u)", "sqlite"),
    ],
)
def test_deterministic_constructs_are_not_listed(sql: str, dialect: str) -> None:
    assert arbitrary_choices(sqlglot.parse_one(sql, read=dialect), dialect) == []


def test_every_order_is_listed_once_and_a_large_database_has_too_many() -> None:
    db = Database({"t": ((1,), (2,), (3,)), "u": ((7,), (8,)), "v": ((9,),)})
    orders = physical_orders(db, every=True)
    assert orders is not None
    assert len(orders) == math.factorial(3) * math.factorial(2) - 1  # db's own left out
    assert len({repr(sorted(o.tables.items())) for o in [db, *orders]}) == len(orders) + 1
    assert all(sorted(o.rows("t")) == [(1,), (2,), (3,)] for o in orders)
    # Equal rows are one row: (1,), (1,), (2,) has 3 orders, not 6.
    assert len(physical_orders(Database({"t": ((1,), (1,), (2,))}), every=True) or []) == 2
    big = Database({"t": tuple((i,) for i in range(5))})  # 120 orders
    assert math.factorial(5) - 1 > MAX_ORDERS
    assert physical_orders(big, every=True) is None
    # Without every: reversed and shuffled only, whatever the size.
    sampled = physical_orders(big)
    assert sampled is not None and sampled[0].rows("t") == tuple((i,) for i in range(4, -1, -1))


def _prober(executor: DuckDBExecutor | SQLiteExecutor, cand: str, ref: str) -> Prober:
    dialect = executor.dialect
    schema = load_schema(PATIENTS, dialect)
    executor.prepare(schema)
    return Prober(
        executor,
        schema,
        guard_query(cand, schema, dialect=dialect, side="candidate"),
        guard_query(ref, schema, dialect=dialect, side="reference"),
        Options(),
    )


# Two patients born that day, the larger id stored first; each has one lab result.
TWO_BORN = Database({
    "patient": ((2, "1959-03-01"), (1, "1959-03-01")),
    "laboratory": ((10, 1, 100), (20, 2, 200)),
})  # fmt: skip


def test_sqlite_takes_the_first_row_a_scalar_subquery_reads() -> None:
    """The premise, on SQLite itself: the difference exists in one order only."""
    prober = _prober(SQLiteExecutor(timeout=2.0), FIRST_READ, SMALLEST)
    ex = prober.executor
    ex.load(TWO_BORN)
    assert ex.run(FIRST_READ).rows == ((200,),)  # patient 2, read first
    ex.load(physical_orders(TWO_BORN)[0])  # reversed: patient 1 first
    assert ex.run(FIRST_READ).rows == ((100,),) == ex.run(SMALLEST).rows


def test_a_difference_one_order_explains_is_set_aside() -> None:
    prober = _prober(SQLiteExecutor(timeout=2.0), FIRST_READ, SMALLEST)
    assert prober.choices
    probe = prober.probe(TWO_BORN)
    assert not probe.differs and probe.skipped == "nondeterministic"
    assert prober.stats["nondeterministic"] == 1
    # Against every patient of that day the difference holds in every order: 1 row vs 2.
    every = _prober(SQLiteExecutor(timeout=2.0), FIRST_READ, EVERY)
    assert every.probe(TWO_BORN).differs


def test_duckdb_any_value_over_groups_in_opposite_orders_is_set_aside() -> None:
    """Reversing every table is not enough: two groups whose rows come in opposite
    orders differ from MIN in one group or the other under both; every order is tried."""
    ddl = "CREATE TABLE s (sid INTEGER PRIMARY KEY, driver INTEGER NOT NULL, wins INTEGER NOT NULL)"
    cand = "SELECT driver, any_value(wins) FROM s GROUP BY driver"
    ref = "SELECT driver, MIN(wins) FROM s GROUP BY driver"
    schema = load_schema(ddl)
    executor = DuckDBExecutor(timeout=2.0)
    executor.prepare(schema)
    prober = Prober(executor, schema, guard_query(cand, schema, side="candidate"),
                    guard_query(ref, schema, side="reference"), Options())  # fmt: skip
    db = Database({"s": ((1, 0, -1), (2, 0, 0), (3, 1, 0), (4, 1, -1))})
    for order in (db, physical_orders(db)[0]):  # as given, and every table reversed
        executor.load(order)
        assert sorted(executor.run(cand).rows) != sorted(executor.run(ref).rows)
    probe = prober.probe(db)
    assert not probe.differs and probe.skipped == "nondeterministic"


@pytest.mark.parametrize("dialect", ["sqlite", "duckdb"])
def test_check_never_refutes_through_an_order_and_still_refutes_beyond_one(dialect: str) -> None:
    if dialect == "sqlite":
        near, far = (FIRST_READ, SMALLEST), (FIRST_READ, EVERY)
    else:
        near = ("SELECT id, any_value(got) FROM laboratory GROUP BY id",
                "SELECT id, MIN(got) FROM laboratory GROUP BY id")  # fmt: skip
        far = ("SELECT id, any_value(got) FROM laboratory GROUP BY id",
               "SELECT id, SUM(got) FROM laboratory GROUP BY id")  # fmt: skip
    assert check(*near, PATIENTS, dialect=dialect).verdict == "unknown"
    refuted = check(*far, PATIENTS, dialect=dialect)
    assert refuted.verdict == "not_equivalent"
    assert refuted.counterexample is not None


def test_a_bare_column_the_grouped_key_determines_is_no_choice() -> None:
    """GROUP BY a table's key gives each group one row of that table: its other columns
    have one value (SQLite and MySQL accept them, and no order changes them). Through the
    padded side of a LEFT JOIN, or grouped by a non-key, the column is still a choice."""
    schema = load_schema(
        "CREATE TABLE m (id INT PRIMARY KEY, name TEXT);"
        "CREATE TABLE o (oid INT PRIMARY KEY, mid INT)"
    )
    joined = "FROM m AS m JOIN o AS o ON o.mid = m.id"

    def listed(sql: str) -> list[str]:
        return arbitrary_choices(sqlglot.parse_one(sql), "sqlite", schema)

    assert listed(f"SELECT m.name, COUNT(*) {joined} GROUP BY m.id") == []
    assert listed("SELECT m.name, COUNT(*) FROM o AS o LEFT JOIN m AS m ON o.mid = m.id "
                  "GROUP BY m.id")  # fmt: skip
    assert listed(f"SELECT m.id, COUNT(*) {joined} GROUP BY m.name")
    assert listed(f"SELECT o.mid, COUNT(*) {joined} GROUP BY m.id")
