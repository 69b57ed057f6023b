"""Calls that build a huge value inside one DuckDB call are refused before they run.

Neither the watchdog nor the memory limit holds inside one DuckDB call, so the guard
computes the size such a call asks for from its constant arguments (arithmetic
included) and refuses it (``resource_limit``). Each bomb here ran for tens of seconds
or took gigabytes before.
"""

from __future__ import annotations

import pytest

from sqlequiv import Options, check

DDL = "CREATE TABLE t (a INT)"
BOMBS = [
    "SELECT length(repeat('x', 1000 * 1000 * 1000)) AS l FROM t",
    "SELECT length(repeat('x', CAST(2e9 AS BIGINT))) AS l FROM t",
    "SELECT len(generate_series(TIMESTAMP '2000-01-01', TIMESTAMP '2000-01-02', "
    "INTERVAL 1 MICROSECOND)) AS n FROM t",
    "SELECT len(range(TIMESTAMP '2000-01-01', TIMESTAMP '2001-01-01', INTERVAL '1' SECOND)) "
    "AS n FROM t",
    "SELECT length(format('{:>2000000000}', 'x')) AS l FROM t",
    "SELECT length(printf('%2000000000s', 'x')) AS l FROM t",
    "SELECT length(printf('%.2000000000f', 1.5)) AS l FROM t",
    "SELECT length(printf('%*s', 2000000000, 'x')) AS l FROM t",
]


@pytest.mark.parametrize("bomb", BOMBS)
def test_a_constant_size_bomb_is_refused_before_it_runs(bomb: str) -> None:
    v = check(bomb, "SELECT 1 AS l FROM t", DDL)
    assert v.verdict == "error" and v.error is not None
    assert (v.error.side, v.error.kind) == ("candidate", "resource_limit"), v.error
    assert "1,000,000" in v.error.message
    assert v.timings.get("symbolic") is None  # refused by the guard, nothing ran


@pytest.mark.parametrize(
    "query",
    [
        "SELECT length(repeat('x', 3 * 2)) AS l FROM t",
        "SELECT len(generate_series(TIMESTAMP '2000-01-01', TIMESTAMP '2000-01-02', "
        "INTERVAL 1 HOUR)) AS l FROM t",
        "SELECT length(format('{:>8}', 'x')) AS l FROM t",
        "SELECT length(printf('%5.2f', 1.5)) AS l FROM t",
    ],
)
def test_small_sizes_still_run(query: str) -> None:
    v = check(query, query.replace(" AS l", " AS m"), DDL)
    assert v.verdict == "equivalent", v.error


def test_a_series_in_from_streams_under_the_watchdog_and_is_not_refused() -> None:
    query = "SELECT count(*) AS l FROM generate_series(1, 2 * 1000 * 1000) AS g(i), t"
    v = check(query, query.replace(" AS l", " AS m"), DDL)
    assert v.verdict != "error", v.error


def test_a_long_literal_is_left_to_execution_not_to_z3() -> None:
    # z3 spent 52 s and 6.4 GB writing a 99,950-character constant into a model, outside
    # its rlimit: the symbolic layer declines such a pair by size, and says so.
    lit = "x" * 99_950
    ddl = "CREATE TABLE t (a INT, b TEXT)"
    near = "x" * 90_000  # leaves the reference room under the 100,000-character limit
    # No random floor: it would refute the pair before the symbolic layer is asked.
    v = check(f"SELECT a FROM t WHERE b = '{lit}'",
              f"SELECT a FROM t WHERE b = '{lit}' AND a > 0", ddl,
              options=Options(floor_databases=0))  # fmt: skip
    assert v.verdict == "not_equivalent"
    assert v.evidence.budget_stops is not None
    assert "characters in one literal" in v.evidence.budget_stops["symbolic"]
    same = check(f"SELECT a FROM t WHERE b = '{near}'",
                 f"SELECT a FROM t WHERE b = '{near}' AND (a > 0 OR a <= 0 OR a IS NULL)",
                 ddl)  # fmt: skip
    assert same.verdict == "unknown"  # a budget never makes a pair equivalent
    assert same.evidence.bounded is not None and same.evidence.bounded.status == "skipped"
