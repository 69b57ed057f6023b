"""SQLite's own expressions as opaque functions (``sqlequiv.execute.opaque``).

A proof over opaque calls is sound only if each listed expression is, on SQLite itself,
what the prover assumes: NULL whenever an argument is NULL, and otherwise a value of the
class the rewrite claims (or NULL). A property test runs each listed expression on random
rows through SQLite and checks exactly that; the other tests check what a proof may and
may not rest on. Real SQLite, z3 and Hypothesis; nothing is mocked.
"""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

from sqlequiv import check
from sqlequiv.execute.opaque import opaque_class, opaque_sqlite
from sqlequiv.guard import guard_query
from sqlequiv.schema import load_schema

DDL = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, r REAL, s TEXT)"
SCHEMA = load_schema(DDL, "sqlite")

#: Each listed expression over the columns a (INTEGER), r (REAL), s (TEXT).
EXPRESSIONS = [
    "STRFTIME('%Y', s)", "STRFTIME('%m-%d', s)", "SUBSTR(s, 2, 3)", "SUBSTR(s, 6)",
    "s || 'x' || s", "UPPER(s)", "LOWER(s)", "TRIM(s)", "REPLACE(s, 'a', 'b')",
    "DATE(s)", "DATE(s, '+1 day')", "DATETIME(s)", "TIME(s)", "JULIANDAY(s)",
    "LENGTH(s)", "INSTR(s, 'a')", "CAST(s AS INTEGER)", "CAST(s AS REAL)",
    "CAST(a AS TEXT)", "CAST(r AS INTEGER)", "a / 3", "a / a", "a % 4", "a * 2 + 1",
    "a - a * 3", "r * 2", "a / 2.0", "ROUND(r, 1)", "ROUND(r)", "ABS(a)", "-r",
    "LENGTH(s) * a", "CAST(SUBSTR(s, 1, 4) AS INTEGER) - a",
]  # fmt: skip
_TYPEOF = {"text": "text", "int": "integer", "real": "real"}

# Integers in 32 bits: SQLite's integer arithmetic turns to REAL past 64 bits, where
# DuckDB's own terms (and so every proof) already assume no overflow.
ROWS = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(-(2**31), 2**31)),
        st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False, width=64)),
        st.one_of(
            st.none(),
            st.sampled_from(["2019-06-30", "2020-02-29", "2021-13-01", "1999-12-31 23:59:59",
                             "abc", "", " 12 ", "12abc", "0x1F", "2019"]),
            st.text(max_size=8),
        ),
    ),
    min_size=1, max_size=6,
)  # fmt: skip


def _claim(expression: str) -> tuple[str, list[str]]:
    """The class the rewrite claims for ``expression``, and the columns it reads."""
    query = guard_query(f"SELECT {expression} AS v FROM t", SCHEMA, dialect="sqlite")
    tree = opaque_sqlite(query.qualified, SCHEMA)
    assert tree is not None, expression
    calls = [n for n in tree.find_all(exp.Anonymous) if opaque_class(n)]
    assert len(calls) == 1, expression
    columns = sorted({c.name for c in calls[0].find_all(exp.Column)})
    return str(opaque_class(calls[0])), columns


@pytest.mark.parametrize("expression", EXPRESSIONS)
@settings(max_examples=60, deadline=None)
@given(rows=ROWS)
def test_a_listed_expression_is_strict_and_of_its_class_on_sqlite(
    expression: str, rows: list[tuple[int | None, float | None, str | None]]
) -> None:
    claimed, columns = _claim(expression)
    con = sqlite3.connect(":memory:")
    con.execute(DDL)
    con.executemany("INSERT INTO t (a, r, s) VALUES (?, ?, ?)", rows)
    at = {"a": 0, "r": 1, "s": 2}
    found = con.execute(f"SELECT a, r, s, typeof({expression}), {expression} FROM t")
    for *row, kind, value in found:
        if any(row[at[c]] is None for c in columns):
            assert value is None, (expression, row, value)  # strict
        else:
            assert kind in (_TYPEOF[claimed], "null"), (expression, row, kind, value)


def test_an_expression_made_of_other_things_is_not_made_opaque() -> None:
    """Text in arithmetic (read as a number), a clock, a comparison across classes and a
    column whose affinity is not its kind stay refused: no proof rests on them."""
    schema = load_schema("CREATE TABLE u (n NUMERIC, s TEXT, d TEXT)", "sqlite")
    for sql in (
        "SELECT s + 1 FROM u",
        "SELECT STRFTIME('%Y', 'now') FROM u",
        "SELECT s FROM u WHERE STRFTIME('%Y', d) = 1995",
        "SELECT LENGTH(n) FROM u",
    ):
        query = guard_query(sql, schema, dialect="sqlite")
        assert opaque_sqlite(query.qualified, schema) is None, sql


LEAGUE = "examples/data/league.sqlite"


def test_the_same_sqlite_expression_on_both_sides_is_proved() -> None:
    schema = load_schema(LEAGUE, "sqlite")
    star = "SELECT COUNT(*) FROM player WHERE STRFTIME('%Y', birthday) = '1995'"
    key = "SELECT COUNT(id) FROM player WHERE STRFTIME('%Y', birthday) = '1995'"
    verdict = check(star, key, schema, "sqlite")
    assert (verdict.verdict, verdict.method) == ("equivalent", "symbolic")
    join = ("SELECT DISTINCT t.id FROM team t JOIN match m ON m.home_team = t.id "
            "WHERE STRFTIME('%Y', m.played_on) = '2022'")  # fmt: skip
    semi = ("SELECT id FROM team WHERE id IN (SELECT home_team FROM match "
            "WHERE STRFTIME('%Y', played_on) = '2022')")  # fmt: skip
    assert check(join, semi, schema, "sqlite").verdict == "equivalent"


def test_two_sqlite_expressions_are_two_functions() -> None:
    """The year and the month of a date are not the same opaque function: no proof, and
    the search tells them apart."""
    schema = load_schema(LEAGUE, "sqlite")
    year = "SELECT id FROM match WHERE STRFTIME('%Y', played_on) = '2022'"
    month = "SELECT id FROM match WHERE STRFTIME('%m', played_on) = '2022'"
    assert check(year, month, schema, "sqlite").verdict == "not_equivalent"
