"""sqlequiv.strategies: drawn databases load into DuckDB tables that enforce every constraint."""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis.strategies import SearchStrategy

from sqlequiv import load_schema
from sqlequiv.database import Database
from sqlequiv.errors import QueryError
from sqlequiv.search.domains import build_domains
from sqlequiv.search.draw import database_strategy
from sqlequiv.search.harvest import Harvest
from sqlequiv.strategies import _Checks, databases, insert_sql, tables_of

# Every kind of constraint, including a composite key, a composite foreign key
# and CHECKs the generator cannot evaluate in Python (length()), on one column
# (narrows the value pool) and on two (drops rows after drawing).
DDL = """
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  email VARCHAR NOT NULL UNIQUE,
  plan VARCHAR NOT NULL CHECK (plan IN ('free', 'pro')),
  credit DECIMAL(8, 2) CHECK (credit >= 0 AND credit <= 100)
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  coupon VARCHAR UNIQUE,
  qty INTEGER NOT NULL CHECK (qty > 0),
  placed_on DATE,
  note VARCHAR CHECK (length(note) < 1),
  CHECK (length(coalesce(coupon, '')) <= qty)
);
CREATE TABLE lines (
  order_id INTEGER NOT NULL REFERENCES orders (order_id),
  line_no INTEGER NOT NULL CHECK (line_no BETWEEN 1 AND 3),
  sku VARCHAR,
  PRIMARY KEY (order_id, line_no),
  UNIQUE (order_id, sku)
);
CREATE TABLE returns (
  return_id INTEGER PRIMARY KEY,
  order_id INTEGER,
  line_no INTEGER,
  FOREIGN KEY (order_id, line_no) REFERENCES lines (order_id, line_no)
);
"""
SCHEMA = load_schema(DDL)
#: Parents before children, so that DuckDB's foreign keys accept each insert.
ORDER = ("accounts", "orders", "lines", "returns")

FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


_CON = duckdb.connect(":memory:")


@contextmanager
def _constrained() -> Iterator[duckdb.DuckDBPyConnection]:
    """Fresh tables created from DDL (with every constraint), gone again afterwards.

    They live in a transaction that is rolled back: a new connection per
    example costs ~40 ms, the DDL ~5 ms. DuckDB checks constraints per statement.
    """
    _CON.execute("BEGIN TRANSACTION")
    try:
        _CON.execute(DDL)
        yield _CON
    finally:
        _CON.execute("ROLLBACK")


def _load_rows(con: duckdb.DuckDBPyConnection, tables: dict[str, list[dict[str, Any]]]) -> None:
    """Insert with bound parameters (independent of insert_sql's literal rendering)."""
    for name in ORDER:
        for row in tables[name]:
            columns = ", ".join(row)
            marks = ", ".join("?" for _ in row)
            con.execute(f"INSERT INTO {name} ({columns}) VALUES ({marks})", list(row.values()))


@FAST
@given(databases(DDL, max_rows=4))
def test_drawn_databases_satisfy_every_constraint(db: Database) -> None:
    tables = tables_of(db, DDL)
    with _constrained() as con:
        _load_rows(con, tables)  # DuckDB raises ConstraintException on any violation
        for name in ORDER:
            assert con.execute(f"SELECT count(*) FROM {name}").fetchone() == (len(tables[name]),)
    # length(note) < 1 is checked by DuckDB only: no generated note survives but ''.
    assert {r["note"] for r in tables["orders"]} <= {"", None}


def _breaks_opaque_check(db: Database) -> bool:
    return any(
        (note is not None and note != "") or (coupon is not None and len(coupon) > qty)
        for _, _, coupon, qty, _, note in db.rows("orders")
    )


def test_raw_generator_breaks_the_opaque_checks() -> None:
    """The CHECKs the Python evaluator skips are really enforced by databases(), not by luck."""
    raw = database_strategy(SCHEMA, build_domains(SCHEMA, Harvest(), 4), 4)
    db = next(d for d in _drawn(raw) if _breaks_opaque_check(d))
    with _constrained() as con, pytest.raises(duckdb.ConstraintException):
        _load_rows(con, tables_of(db, SCHEMA))


def test_rows_breaking_a_check_go_with_the_rows_that_reference_them() -> None:
    db = Database(
        {
            "accounts": ((1, "a", "pro", None),),
            "orders": ((10, 1, "kk", 1, None, None), (11, 1, "k", 1, None, None)),
            "lines": ((10, 1, None), (11, 1, None)),
            "returns": ((1, 10, 1), (2, 11, 1), (3, None, None)),
        }
    )
    kept = _Checks(SCHEMA).enforce(db)
    assert kept.rows("orders") == ((11, 1, "k", 1, None, None),)
    assert kept.rows("lines") == ((11, 1, None),)
    assert kept.rows("returns") == ((2, 11, 1), (3, None, None))
    assert kept.rows("accounts") == db.rows("accounts")


@pytest.mark.parametrize(
    "rows",
    [
        {"accounts": [{"id": 1, "email": "a", "plan": "pro"}] * 2},  # PRIMARY KEY
        {
            "accounts": [
                {"id": 1, "email": "a", "plan": "pro"},
                {"id": 2, "email": "a", "plan": "pro"},
            ]
        },
        {"accounts": [{"id": 1, "email": None, "plan": "pro"}]},  # NOT NULL
        {"accounts": [{"id": 1, "email": "a", "plan": "gold"}]},  # CHECK
        {"orders": [{"order_id": 1, "account_id": 9, "qty": 1}]},  # FOREIGN KEY
        {"returns": [{"return_id": 1, "order_id": 1, "line_no": 1}]},  # composite FOREIGN KEY
    ],
)
def test_the_loader_enforces_each_kind_of_constraint(rows: dict[str, list[dict[str, Any]]]) -> None:
    """The harness above would notice a violation of each kind."""
    tables = {name: rows.get(name, []) for name in ORDER}
    with _constrained() as con, pytest.raises(duckdb.ConstraintException):
        _load_rows(con, tables)


@FAST
@given(databases(SCHEMA, max_rows=3))
def test_insert_sql_round_trips(db: Database) -> None:
    script = insert_sql(db, SCHEMA)
    assert bool(script) == (db.size > 0)
    with _constrained() as con:
        if script:
            con.execute(script)
        for table in SCHEMA:
            got = con.execute(f"SELECT * FROM {table.name}").fetchall()
            assert sorted(got, key=repr) == sorted(db.rows(table.name), key=repr)


def test_tables_of_lists_every_table_with_row_dicts() -> None:
    db = Database({"accounts": ((1, "x@y", "pro", decimal.Decimal("2.50")),)})
    assert tables_of(db, DDL) == {
        "accounts": [{"id": 1, "email": "x@y", "plan": "pro", "credit": decimal.Decimal("2.50")}],
        "orders": [],
        "lines": [],
        "returns": [],
    }


def _has(table: str, column: str, value: object) -> Callable[[Database], bool]:
    return lambda db: any(r[column] == value for r in tables_of(db, SCHEMA)[table])


def _drawn(strategy: SearchStrategy[Database], n: int = 60) -> list[Database]:
    """``n`` databases drawn by Hypothesis (derandomized, so repeatable; nothing is shrunk)."""
    out: list[Database] = []

    @settings(max_examples=n, deadline=None, database=None, derandomize=True)
    @given(strategy)
    def run(db: Database) -> None:
        out.append(db)

    run()
    return out


def _counts(dbs: list[Database], predicates: list[Callable[[Database], bool]]) -> list[int]:
    return [sum(p(db) for db in dbs) for p in predicates]


QUERY = (
    "SELECT o.order_id FROM orders o JOIN accounts a ON a.id = o.account_id "
    "WHERE o.qty >= 977 OR a.email = 'zed@example.com' OR o.placed_on < DATE '2031-07-04'"
)
LITERALS = [
    _has("orders", "qty", 977),
    _has("accounts", "email", "zed@example.com"),
    _has("orders", "placed_on", dt.date(2031, 7, 4)),
]


def test_query_literals_seed_the_value_pools() -> None:
    seeded = _counts(_drawn(databases(DDL, queries=[QUERY])), LITERALS)
    assert all(n > 0 for n in seeded), seeded
    # Without the query the values are never drawn: the query is what put them there.
    assert _counts(_drawn(databases(DDL)), LITERALS) == [0, 0, 0]


def test_find_reaches_a_query_literal() -> None:
    seeded = databases(DDL, queries="SELECT order_id FROM orders WHERE qty = 977")  # one str
    db = find(seeded, _has("orders", "qty", 977), settings=settings(max_examples=200))
    qtys = [r["qty"] for r in tables_of(db, DDL)["orders"]]
    # What find() promises is an example that has the literal and was shrunk; how far
    # the shrink gets ([977], or [1, 977] when it stops early) varies from run to run.
    # A draw holds up to 16 rows (4 tables of max_rows=4); shrunk, the example is the
    # order and its account, now and then one order more (36 and 4 of 40 seeded runs).
    assert 977 in qtys
    assert db.size <= 4


def test_max_rows_bounds_every_table() -> None:
    @FAST
    @given(databases(DDL, max_rows=2))
    def check(db: Database) -> None:
        assert all(len(rows) <= 2 for rows in db.tables.values())

    check()
    with pytest.raises(ValueError, match="max_rows"):
        databases(DDL, max_rows=-1)


def test_a_bad_query_raises_query_error() -> None:
    with pytest.raises(QueryError) as info:
        databases(DDL, queries=["SELECT nope FROM orders"])
    assert info.value.kind == "unknown_column"
