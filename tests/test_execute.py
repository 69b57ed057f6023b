"""The DuckDB sandbox: no file or network access, locked configuration, timeouts."""

from __future__ import annotations

import time

import duckdb
import pytest
from sqlglot import exp

from sqlequiv.database import Database, sql_literal
from sqlequiv.errors import QueryFailed
from sqlequiv.execute.duckdb_engine import DuckDBExecutor
from sqlequiv.schema.model import Column, Schema, Table

SCHEMA = Schema((Table("t", (Column("a", exp.DataType.build("INT")),)),))


@pytest.fixture(scope="module")
def executor() -> DuckDBExecutor:
    ex = DuckDBExecutor(timeout=0.5)
    ex.prepare(SCHEMA)
    return ex


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM '/etc/passwd'",
        "COPY (SELECT 1) TO '/tmp/sqlequiv-should-not-exist.csv'",
        "ATTACH '/tmp/sqlequiv-should-not-exist.db'",
        "INSTALL httpfs",
        "SET enable_external_access = true",
        "SET memory_limit = '100GB'",
    ],
)
def test_sandbox_refuses_escapes(executor: DuckDBExecutor, sql: str) -> None:
    with pytest.raises(QueryFailed):
        executor.run(sql)


def test_runaway_query_is_interrupted(executor: DuckDBExecutor) -> None:
    start = time.monotonic()
    with pytest.raises(QueryFailed) as info:
        executor.run(
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
        )
    assert info.value.timeout
    assert time.monotonic() - start < 5
    # The connection is still usable afterwards.
    assert executor.run("SELECT 42 AS x").rows == ((42,),)


def test_load_replaces_previous_contents(executor: DuckDBExecutor) -> None:
    executor.load(Database({"t": ((1,), (2,))}))
    assert executor.run("SELECT count(*) FROM t").rows == ((2,),)
    executor.load(Database({}))
    assert executor.run("SELECT count(*) FROM t").rows == ((0,),)


def test_a_database_loaded_again_shows_its_own_rows_whatever_was_staged_between() -> None:
    # load() activates a database it staged before instead of staging it again: by
    # identity only (1 == True in Python), and never across an emptying of the tables.
    from sqlequiv.execute.base import MAX_STAGED

    schema = Schema((Table("t", (Column("a", exp.DataType.build("INT")),
                                 Column("b", exp.DataType.build("VARCHAR")))),))  # fmt: skip
    ex = DuckDBExecutor(timeout=2.0)
    ex.prepare(schema)
    ones = Database({"t": ((1, 1),)})
    trues = Database({"t": ((1, True),)})
    assert ones.key() == trues.key()  # what an equality cache would confuse
    ex.load(ones)
    ex.load(trues)
    assert ex.run("SELECT b FROM t").rows == (("TRUE",),)
    ex.load(Database({}))
    assert ex.run("SELECT a FROM t").rows == ()
    ex.load(ones)
    assert ex.run("SELECT b FROM t").rows == (("1",),)
    ex.stage([Database({"t": ((n, "x"),)}) for n in range(MAX_STAGED)])  # empties the tables
    ex.load(ones)
    assert ex.run("SELECT a, b FROM t").rows == ((1, "1"),)
    ex.prepare(schema)  # same tables: the empty database
    assert ex.run("SELECT a FROM t").rows == ()
    ex.load(ones)
    assert ex.run("SELECT COUNT(*) FROM t").rows == ((1,),)


def test_static_and_runtime_errors_are_told_apart(executor: DuckDBExecutor) -> None:
    with pytest.raises(QueryFailed) as static:
        executor.run("SELECT no_such_function(a) FROM t")
    assert static.value.static
    with pytest.raises(QueryFailed) as runtime:
        executor.run("SELECT CAST('x' AS INT)")
    assert not runtime.value.static


def test_negative_zero_keeps_its_sign_through_the_literal() -> None:
    text = sql_literal(-0.0, exp.DataType.build("DOUBLE"))
    assert duckdb.sql(f"SELECT ({text})::VARCHAR").fetchall() == [("-0.0",)]


def test_identifiers_cannot_break_out_of_their_quotes() -> None:
    # A column name holding a quote once closed the identifier in the generated DDL.
    from sqlequiv import check

    hostile = 'CREATE TABLE t (a INT PRIMARY KEY, "b"" VARCHAR); SELECT 1; --" VARCHAR)'
    verdict = check('SELECT a, "b"" VARCHAR); SELECT 1; --" FROM t', "SELECT a FROM t", hostile)
    assert verdict.verdict == "not_equivalent"
    assert verdict.counterexample is not None
    # The shared connection is still sound for the next, ordinary pair.
    normal = check("SELECT a FROM t WHERE a > 1", "SELECT a FROM t", "CREATE TABLE t (a INT)")
    assert normal.verdict == "not_equivalent"
