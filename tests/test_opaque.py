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


TEXT_VALUES = st.one_of(
    st.sampled_from(["7", "07", "7.0", " 7", "7 ", "7a", "+7", "-7", "7e0", "0x7", "", "7.5",
                     "9223372036854775807", "1e3", "abc"]),
    st.from_regex(r"[ +-]?[0-9]{1,3}(\.[0-9]{0,2})?[ a]?", fullmatch=True),
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.none(), TEXT_VALUES), ints=st.lists(
    st.one_of(st.none(), st.integers(-1000, 1000)), min_size=1, max_size=6))
def test_a_text_meets_at_most_one_integer_and_every_spelling_agrees(
    text: str | None, ints: list[int | None]
) -> None:
    """What the opaque integer of a TEXT value compared with an INTEGER column rests on,
    checked on SQLite: one text value meets at most one integer (so some function of the
    text gives the integer it meets), a NULL meets nothing, and the join, IN (SELECT ...)
    and a correlated EXISTS meet the same rows."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE p (id INTEGER PRIMARY KEY, t TEXT)")
    con.execute("CREATE TABLE q (id INTEGER PRIMARY KEY, i INTEGER)")
    con.execute("INSERT INTO p VALUES (1, ?)", (text,))
    values = [*ints, *([int(float(text))] if _number(text) else [])]
    con.executemany("INSERT INTO q (i) VALUES (?)", [(v,) for v in values])
    met = {i for (i,) in con.execute("SELECT q.i FROM p JOIN q ON p.t = q.i")}
    assert len(met) <= 1, (text, met)
    if text is None:
        assert not met
    join = sorted(con.execute("SELECT p.id FROM p JOIN q ON p.t = q.i").fetchall())
    semi = sorted(con.execute("SELECT p.id FROM p WHERE t IN (SELECT i FROM q)").fetchall())
    correlated = "SELECT p.id FROM p WHERE EXISTS (SELECT 1 FROM q WHERE q.i = p.t)"
    exists = sorted(con.execute(correlated).fetchall())
    assert sorted(set(join)) == semi == exists


def _number(text: str | None) -> bool:
    try:
        return text is not None and float(text) == int(float(text)) and abs(float(text)) < 1e15
    except (ValueError, OverflowError):
        return False


def test_a_text_to_integer_join_and_its_in_are_proved_only_at_a_conjunct() -> None:
    schema = load_schema(LEAGUE, "sqlite")
    join = "SELECT p.name FROM player p JOIN team t ON p.team_id = t.id WHERE t.city = 'Leeds'"
    semi = "SELECT name FROM player WHERE team_id IN (SELECT id FROM team WHERE city = 'Leeds')"
    assert check(join, semi, schema, "sqlite").verdict == "equivalent"
    # Under NOT, FALSE and NULL part ways: 'abc' = 7 is FALSE, NOT of it TRUE.
    query = guard_query("SELECT p.name FROM player p, team t WHERE NOT (p.team_id = t.id)",
                        schema, dialect="sqlite")  # fmt: skip
    assert opaque_sqlite(query.qualified, schema) is None
