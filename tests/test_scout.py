"""The random floor of DuckDB pairs tried on SQLite (sqlequiv.search.scout): where it
runs, what DuckDB must confirm before anything is reported, and the way back."""

from __future__ import annotations

import duckdb
import pytest

import sqlequiv
from sqlequiv.database import Database
from sqlequiv.execute import shared_executor
from sqlequiv.guard import guard_query, on_engine
from sqlequiv.options import Options
from sqlequiv.pipeline import Pair, Timer
from sqlequiv.pipeline.refute import _confirmed, floor_search
from sqlequiv.schema import load_schema
from sqlequiv.search.probe import Prober
from sqlequiv.symbolic import NoSymbolic

DDL = (
    "CREATE TABLE emp (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, dept INTEGER, "
    "salary INTEGER, hired DATE, rate FLOAT)"
)


@pytest.fixture(scope="module")
def schema():  # type: ignore[no-untyped-def]
    return load_schema(DDL)


def _pair(cand: str, ref: str, schema) -> Pair:  # type: ignore[no-untyped-def]
    return Pair(
        guard_query(cand, schema),
        guard_query(ref, schema, side="reference"),
        schema,
        Options(),
        NoSymbolic(),
        Timer(),
    )


def _replayed(example, cand: str, ref: str) -> tuple[list, list]:  # type: ignore[no-untyped-def]
    """Both queries' rows on a fresh DuckDB holding the counterexample's tables."""
    con = duckdb.connect()
    con.execute(DDL)
    for row in example.tables["emp"]:
        columns = ", ".join(row)
        con.execute(
            f"INSERT INTO emp ({columns}) VALUES ({', '.join('?' for _ in row)})",
            list(row.values()),
        )
    return (
        sorted(con.execute(cand).fetchall(), key=repr),
        sorted(con.execute(ref).fetchall(), key=repr),
    )


@pytest.mark.parametrize(
    ("cand", "ref"),
    [
        ("SELECT name FROM emp WHERE salary > 3", "SELECT name FROM emp WHERE salary >= 3"),
        (
            "SELECT dept, COUNT(*) FROM emp GROUP BY dept",
            "SELECT dept, COUNT(salary) FROM emp GROUP BY dept",
        ),
        (
            "SELECT name FROM emp ORDER BY salary DESC LIMIT 1",
            "SELECT name FROM emp ORDER BY salary LIMIT 1",
        ),
    ],
)
def test_a_scouted_refutation_is_one_duckdb_reproduces(schema, cand: str, ref: str) -> None:  # type: ignore[no-untyped-def]
    verdict = sqlequiv.check(cand, ref, schema)
    assert verdict.verdict == "not_equivalent"
    assert verdict.evidence.search is not None
    assert verdict.evidence.search.scout_engine == "sqlite"
    cand_rows, ref_rows = _replayed(verdict.counterexample, cand, ref)
    assert cand_rows != ref_rows


@pytest.mark.parametrize(
    "cand",
    [
        "SELECT name FROM emp WHERE hired > DATE '2020-01-01'",  # dates are text on SQLite
        "SELECT name FROM emp WHERE rate > 0.5",  # FLOAT is single precision on DuckDB
        "SELECT name FROM emp WHERE salary / 2 > 1",  # integer division differs
        "SELECT name FROM emp WHERE name LIKE 'a%'",  # SQLite's LIKE ignores case
    ],
)
def test_no_scout_where_sqlite_may_compute_otherwise(schema, cand: str) -> None:  # type: ignore[no-untyped-def]
    pair = _pair(cand, "SELECT name FROM emp", schema)
    assert pair.scout is None
    verdict = sqlequiv.check(cand, "SELECT name FROM emp", schema)
    assert verdict.verdict == "not_equivalent"
    assert verdict.evidence.search is not None
    assert verdict.evidence.search.scout_engine is None


def test_no_scout_for_what_sqlglot_cannot_write_for_sqlite(schema) -> None:  # type: ignore[no-untyped-def]
    cand = "SELECT dept FROM emp EXCEPT ALL SELECT salary FROM emp"
    ref = "SELECT dept FROM emp EXCEPT SELECT salary FROM emp"
    assert _pair(cand, ref, schema).scout is None
    verdict = sqlequiv.check(cand, ref, schema)
    assert verdict.verdict == "not_equivalent"


def test_a_query_sqlite_cannot_run_sends_the_floor_back_to_duckdb(schema) -> None:  # type: ignore[no-untyped-def]
    # SQLite does not take a parenthesised member of a UNION: the scout fails on its
    # first run, and DuckDB runs the floor instead.
    cand = (
        "(SELECT name FROM emp ORDER BY salary DESC LIMIT 1) UNION "
        "(SELECT name FROM emp ORDER BY salary LIMIT 1)"
    )
    ref = "(SELECT name FROM emp ORDER BY salary DESC LIMIT 1)"
    pair = _pair(cand, ref, schema)
    assert pair.scout is not None
    verdict = floor_search(pair)
    assert pair.scout is None
    assert verdict is not None and verdict.verdict == "not_equivalent"
    assert verdict.evidence.search is not None
    assert verdict.evidence.search.scout_engine is None


def test_a_find_duckdb_does_not_confirm_is_not_reported(schema) -> None:  # type: ignore[no-untyped-def]
    # A scout whose candidate is another query than the pair's: on SQLite it differs
    # from the reference, on DuckDB the pair's two queries are the same. The find must
    # fail verification, and the floor must go back to DuckDB, where nothing differs.
    query = "SELECT name FROM emp WHERE salary > 3"
    pair = _pair(query, query, schema)
    assert pair.scout is not None
    other = on_engine(guard_query("SELECT name FROM emp", schema), schema, "sqlite")
    lying = Prober(
        shared_executor(2.0, engine="sqlite"), schema, other, pair.scout.reference, pair.options
    )
    pair.__dict__["scout"] = lying
    assert floor_search(pair) is None
    assert pair.scout is None
    assert pair.evidence.rejected_counterexamples == 1
    assert pair.search.scout_engine is None  # a new search, on DuckDB


def test_a_difference_only_a_tie_break_explains_is_not_confirmed(schema) -> None:  # type: ignore[no-untyped-def]
    # Two rows tied on the sort key: which one LIMIT 1 keeps is DuckDB's choice, so a
    # single run of each query (all verify does) may differ, and proves nothing.
    pair = _pair(
        "SELECT name FROM emp ORDER BY salary, name LIMIT 1",
        "SELECT name FROM emp ORDER BY salary LIMIT 1",
        schema,
    )
    pair.engine.prepare(schema)
    tied = Database({"emp": ((1, "a", None, 5, None, None), (2, "b", None, 5, None, None))})
    assert not _confirmed(tied, pair)
    untied = Database({"emp": ((1, "b", None, 4, None, None), (2, "a", None, 5, None, None))})
    assert not _confirmed(untied, pair)  # no difference at all
    other = _pair(
        "SELECT name FROM emp ORDER BY salary DESC LIMIT 1",
        "SELECT name FROM emp ORDER BY salary LIMIT 1",
        schema,
    )
    assert _confirmed(untied, other)


def test_scouting_finds_what_the_duckdb_floor_finds(schema) -> None:  # type: ignore[no-untyped-def]
    # The same databases from the same stream: with and without the scout, the same
    # pairs are refuted by the floor.
    pairs = [
        ("SELECT name FROM emp WHERE dept = 1 OR salary > 2",
         "SELECT name FROM emp WHERE dept = 1"),
        ("SELECT DISTINCT dept FROM emp", "SELECT dept FROM emp"),
        ("SELECT COUNT(*) FROM emp WHERE dept IS NULL", "SELECT COUNT(dept) FROM emp"),
        ("SELECT name FROM emp WHERE dept NOT IN (SELECT salary FROM emp)",
         "SELECT name FROM emp e WHERE NOT EXISTS (SELECT 1 FROM emp f WHERE f.salary = e.dept)"),
    ]  # fmt: skip
    for cand, ref in pairs:
        scouted = _pair(cand, ref, schema)
        assert scouted.scout is not None
        plain = _pair(cand, ref, schema)
        plain.__dict__["scout"] = None
        a, b = floor_search(scouted), floor_search(plain)
        assert (a and a.verdict) == (b and b.verdict) == "not_equivalent", (cand, ref)
