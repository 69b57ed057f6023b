"""Witness databases: run two queries on the shipped database or on a searched one
replayed in the real database's own tables, and say whether their rows differ.

A hazard is only reported with a database on which its two variants were executed here
and returned different rows. A searched database (a counterexample of
:func:`sqlequiv.check`) is loaded into an in-memory SQLite database made by the
shipped file's own ``CREATE TABLE`` statements, so a database that breaks a declared
constraint (primary key, NOT NULL, UNIQUE, CHECK, foreign key) is refused there and
shows nothing.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlequiv.text2sql.execmatch import QueryRun, Rule, execution_match, open_readonly, run_query
from sqlequiv.text2sql.item import LoadFailure, load_counterexample

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Database:
    """Where a query of the audit runs: the shipped file, or a witness's rows loaded into
    the real database's DDL (``tables``)."""

    path: Path | None = None
    ddl: tuple[str, ...] = ()
    tables: Mapping[str, Any] | None = None
    lenient: bool = True

    def connect(self) -> sqlite3.Connection | LoadFailure:
        """A fresh connection (each run may close it)."""
        if self.tables is not None:
            return load_counterexample(self.ddl, self.tables)
        assert self.path is not None
        try:
            return open_readonly(self.path, lenient_text=self.lenient)
        except sqlite3.Error as exc:
            return LoadFailure(f"cannot open {self.path.name}: {exc}")


def run_on(database: Database, sql: str, timeout: float) -> QueryRun:
    """``sql`` on ``database`` (sandboxed, under ``timeout``); never raises."""
    con = database.connect()
    if isinstance(con, LoadFailure):
        return QueryRun(None, "illegal" if con.illegal else "error", con.message)
    try:
        return run_query(con, sql, timeout=timeout)
    finally:
        con.close()


def _canon(value: Any) -> Any:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return round(float(value), 9)
    return value


def _key(row: Row) -> Row:
    # Column order ignored, like both evaluators' permutation or sort of a row's values:
    # two results that differ under this key differ under any column matching.
    return tuple(sorted((_canon(v) for v in row), key=lambda v: (type(v).__name__, str(v))))


def rows_differ(a: Sequence[Row], b: Sequence[Row]) -> bool:
    """Whether two results differ as bags of rows, whatever the order of their columns.

    Example:
        >>> rows_differ([(1, "a"), (2, "b")], [("b", 2), ("a", 1)])
        False
        >>> rows_differ([(1,)], [(1.0000001,)]), rows_differ([(1,)], [(1,), (1,)])
        (True, True)
    """
    return Counter(map(_key, a)) != Counter(map(_key, b))


@dataclass(frozen=True)
class Shown:
    """Two queries executed on one database, and whether their rows differ."""

    differ: bool
    a_rows: list[list[Any]] | None
    b_rows: list[list[Any]] | None
    problem: str | None = None


def show(database: Database, a: str, b: str, timeout: float) -> Shown:
    """Run ``a`` and ``b`` on ``database``; ``differ`` only when both ran and differ."""
    ra = run_on(database, a, timeout)
    if ra.rows is None:
        return Shown(False, None, None, f"{ra.failure}: {ra.message}")
    rb = run_on(database, b, timeout)
    if rb.rows is None:
        return Shown(False, _json_rows(ra.rows), None, f"{rb.failure}: {rb.message}")
    return Shown(rows_differ(ra.rows, rb.rows), _json_rows(ra.rows), _json_rows(rb.rows))


def _json_rows(rows: Sequence[Row], limit: int = 20) -> list[list[Any]]:
    return [
        [v if v is None or isinstance(v, int | float | str) else repr(v) for v in row]
        for row in rows[:limit]
    ]


def judge(
    rule: Rule, gold: str, prediction: str, database: Database, timeout: float
) -> bool | None:
    """The evaluator's execution match (``rule``: Spider's or BIRD's) of ``prediction``
    against ``gold`` on ``database``; None when it would not score."""
    con = database.connect()
    if isinstance(con, LoadFailure):
        return None

    def connect(_path: str | Path, lenient_text: bool) -> sqlite3.Connection:
        return con

    try:
        return execution_match(rule, gold, prediction, ["db"], timeout=timeout,
                               connect=connect).match  # fmt: skip
    finally:
        con.close()
