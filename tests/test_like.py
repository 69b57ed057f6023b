"""LIKE in Python (a schema CHECK's evaluator): the same answers as a regular expression
and as DuckDB, without the regular expression's backtracking."""

from __future__ import annotations

import re
import threading

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from sqlequiv.database.constraints import compiled_checks
from sqlequiv.schema import load_schema
from sqlequiv.values import like_match

TEXT = st.text(alphabet="ab%_.", max_size=8)


def _regex(value: str, pattern: str) -> bool:
    regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, value, re.DOTALL) is not None


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab.", max_size=10), TEXT)
def test_like_match_agrees_with_the_regular_expression(value: str, pattern: str) -> None:
    assert like_match(value, pattern) == _regex(value, pattern)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab.", max_size=6), TEXT)
def test_like_match_agrees_with_duckdb(value: str, pattern: str) -> None:
    expected = duckdb.execute("SELECT ? LIKE ?", [value, pattern]).fetchone()
    assert expected is not None
    assert like_match(value, pattern) == expected[0]


def _finishes(work: object, seconds: float = 10.0) -> bool:
    """Whether ``work()`` returns within ``seconds`` (a hang guard: the work takes
    milliseconds; the backtracking it replaces took minutes)."""
    thread = threading.Thread(target=work, daemon=True)  # type: ignore[arg-type]
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()


def test_patterns_that_made_the_regular_expression_backtrack_answer_at_once() -> None:
    many = "%a" * 40 + "%b"
    assert _finishes(lambda: like_match("a" * 60, many))
    assert like_match("a" * 60, many) is False
    long_text = "x" * 60_000
    assert _finishes(lambda: like_match(long_text, "%_@_%.%"))
    assert like_match(long_text, "%_@_%.%") is False
    assert like_match("x" * 30_000 + "@y.z", "%_@_%.%") is True


def test_a_check_with_such_a_pattern_evaluates_at_once() -> None:
    schema = load_schema(
        "CREATE TABLE t (email TEXT CHECK (email LIKE '%_@_%.%'), "
        "s TEXT CHECK (s NOT LIKE '" + "%a" * 30 + "%'))"
    )
    evaluators = [evaluate for _, evaluate in compiled_checks(schema.table("t"))]
    assert all(evaluate is not None for evaluate in evaluators)
    # 20 a's cannot fill 30 %a runs: LIKE is false, NOT LIKE true (a regular expression
    # tries every way to place the a's first).
    row = {"email": "x" * 60_000, "s": "a" * 20 + "b" * 40}
    results: list[object] = []
    assert _finishes(lambda: results.extend(e(row) for e in evaluators if e is not None))
    assert results == [False, True]
