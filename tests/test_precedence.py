"""The guard's precedence rule against SQLite's own evaluation, for every operator pair.

For each pair of operators, ``x OP1 y OP2 z`` is either refused (``ambiguous_precedence``:
SQLite groups it differently from sqlglot's tree) or sqlglot's tree, with every operand
put in parentheses, gives what SQLite gives on the text as written, on every row of a
table of NULLs, numbers and strings. No mock: both sides run on SQLite.
"""

from __future__ import annotations

import itertools
import sqlite3

import pytest
import sqlglot
from sqlglot import exp

from sqlequiv import check
from sqlequiv.guard.precedence import sqlite_misread

OPERATORS = ["=", "==", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT", "LIKE", "NOT LIKE",
             "GLOB", "NOT GLOB", "IN", "NOT IN", "BETWEEN", "NOT BETWEEN", "IS DISTINCT FROM",
             "IS NOT DISTINCT FROM", "ISNULL", "NOTNULL"]  # fmt: skip
VALUES = [None, 0, 1, 2, "1", "a"]
_GROUPING = (exp.Binary, exp.Between, exp.In, exp.Not, exp.Is, exp.Like, exp.Glob, exp.Escape)


def _term(op: str, left: str, right: str) -> str:
    if op.endswith("IN"):
        return f"{left} {op} ({right}, 2)"
    if op.endswith("BETWEEN"):
        return f"{left} {op} {right} AND 2"
    if op in ("ISNULL", "NOTNULL"):
        return f"{left} {op}"
    return f"{left} {op} {right}"


def _explicit(tree: exp.Expr) -> str:
    """The tree as SQLite text with every operand in parentheses: what the tree means."""
    tree = tree.copy()
    for node in list(tree.walk()):
        for key, value in list(node.args.items()):
            if isinstance(value, _GROUPING) and not isinstance(value, exp.Dot):
                node.set(key, exp.Paren(this=value))
    return tree.sql("sqlite")


@pytest.fixture(scope="module")
def con() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (x, y, z)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", itertools.product(VALUES, repeat=3))
    return con


def _rows(con: sqlite3.Connection, sql: str) -> list[tuple[object, ...]] | str:
    try:
        return con.execute(sql).fetchall()
    except sqlite3.Error as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("first", OPERATORS)
def test_every_operator_pair_is_refused_or_read_as_sqlite_reads_it(
    con: sqlite3.Connection, first: str
) -> None:
    refused = 0
    for second in OPERATORS:
        sql = f"SELECT rowid, {_term(second, _term(first, 'x', 'y'), 'z')} FROM t ORDER BY rowid"
        tree = sqlglot.parse_one(sql, read="sqlite")
        if sqlite_misread(tree) is not None:
            refused += 1
            continue
        assert _rows(con, _explicit(tree)) == _rows(con, sql), (sql, _explicit(tree))
    # The rule is no blanket refusal: most pairs read the same.
    assert refused < len(OPERATORS)


def test_a_misread_comparison_is_an_error_not_a_proof() -> None:
    ddl = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)"
    v = check("SELECT id FROM t WHERE a = b LIKE 'x'", "SELECT id FROM t WHERE a = (b LIKE 'x')",
              ddl, "sqlite")  # fmt: skip
    assert v.verdict == "error" and v.error is not None
    assert (v.error.side, v.error.kind) == ("candidate", "ambiguous_precedence")
    assert "a = b LIKE 'x'" in v.error.message
    # Parenthesized, the same query is checked (and on SQLite the two readings differ).
    v = check("SELECT id FROM t WHERE (a = b) LIKE 'x'", "SELECT id FROM t WHERE a = (b LIKE 'x')",
              ddl, "sqlite")  # fmt: skip
    assert v.verdict == "not_equivalent"


def test_other_engines_keep_sqlglots_reading() -> None:
    # DuckDB binds LIKE tighter than =, as sqlglot's tree does: nothing to refuse there.
    v = check("SELECT a FROM t WHERE a = (b LIKE 'x')", "SELECT a FROM t WHERE a = b LIKE 'x'",
              "CREATE TABLE t (a BOOLEAN, b TEXT)")  # fmt: skip
    assert v.verdict == "equivalent"
