"""Execution match on the shipped database, as Spider's and BIRD's evaluators compute it.

This is the number papers report as execution accuracy, replicated rule for rule
so that sqlequiv's verdict can be set beside it:

* **Spider** (the test-suite evaluator, ``exec_eval.py``): both queries get the
  evaluator's clean-up (``> =`` to ``>=``, ``YEAR(CURDATE())`` to 2020, and every
  ``DISTINCT`` token removed unless ``keep_distinct``); the results match when
  both are empty, or when some permutation of the prediction's columns makes
  the two equal as bags of rows — as lists (row order counts) when the gold's
  text contains ``order by``. The comparison runs on every ``*.sqlite`` file of
  the database's directory and must hold on each. A prediction that fails to
  run is a mismatch; a gold that fails stops the evaluator (an assertion), so
  here the match is unknown (``None``).
* **BIRD** (``evaluation.py``): ``set(predicted_res) == set(ground_truth_res)``
  on the rows as returned (column order counts, duplicates and row order do
  not); any failure of either query is a mismatch.

The evaluator's column-permutation search enumerates up to n**n candidate
permutations and hangs on a wide result (26 columns of similar values);
:func:`spider_result_eq` reaches the same answer by a pruned search over
column bijections (a column may only map to a column with the same multiset
of values, and every partial assignment must keep the projected rows equal as
bags), and gives up after ``max_steps`` steps, which the result records.

Untrusted SQL runs on the shipped file opened read-only and immutable
(``file:...?mode=ro&immutable=1``), under an authorizer that allows only
SELECT, table reads, recursive CTEs and functions outside a deny-list, with no
ATTACH, no extension loading, a per-query deadline enforced by a progress
handler, and a cap on the rows fetched.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sqlglot import TokenType
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError

from sqlequiv.execute.sqlite_sandbox import harden, query_authorizer

Rule = Literal["spider", "bird"]
Row = tuple[Any, ...]

#: Per-query deadline on the shipped database, s (BIRD's ``meta_time_out``).
DEFAULT_TIMEOUT = 30.0
#: Rows fetched from one query before giving up (the match is then unknown).
DEFAULT_MAX_ROWS = 1_000_000
#: Steps of the column-permutation search before it is capped.
DEFAULT_MAX_STEPS = 200_000
#: Virtual-machine instructions between two deadline checks.
_PROGRESS_STEPS = 1_000


@dataclass(frozen=True)
class QueryRun:
    """One query on one database: its rows, or why there are none."""

    rows: list[Row] | None
    #: ``error`` (SQLite refused or failed), ``timeout``, ``too_large``, or None.
    failure: str | None = None
    message: str | None = None
    seconds: float = 0.0


@dataclass
class PermutationSearch:
    """What the column-permutation search did (Spider's rule only)."""

    steps: int = 0
    capped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "capped": self.capped}


@dataclass(frozen=True)
class ExecMatch:
    """The evaluator's execution match for one item, with what decided it."""

    rule: Rule
    #: True / False as the evaluator would score; None when it would not score at all
    #: (Spider's gold fails, the permutation search was capped, a result was too large).
    match: bool | None
    #: Spider: whether the gold's text contains ``order by`` (then row order counts).
    order_matters: bool | None = None
    #: Spider: whether DISTINCT tokens were removed before running (the evaluator's default).
    distinct_removed: bool | None = None
    pred_error: str | None = None
    gold_error: str | None = None
    pred_rows: int | None = None
    gold_rows: int | None = None
    #: The database files compared on (names), and the one that decided a mismatch.
    databases: list[str] = field(default_factory=list)
    failed_on: str | None = None
    permutation_search: dict[str, Any] | None = None
    #: A sentence saying what happened.
    detail: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "match": self.match,
            "order_matters": self.order_matters,
            "distinct_removed": self.distinct_removed,
            "pred_error": self.pred_error,
            "gold_error": self.gold_error,
            "pred_rows": self.pred_rows,
            "gold_rows": self.gold_rows,
            "databases": self.databases,
            "failed_on": self.failed_on,
            "permutation_search": self.permutation_search,
            "detail": self.detail,
            "seconds": round(self.seconds, 4),
        }


# -- the sandboxed, read-only connection ------------------------------------------------


def open_readonly(path: str | Path, *, lenient_text: bool = False) -> sqlite3.Connection:
    """``path`` opened read-only and immutable, with the sandbox's limits.

    ``lenient_text`` decodes text that is not UTF-8 by dropping the bad bytes
    (the Spider evaluator's ``text_factory``); otherwise such text is an error
    (Python's default, which BIRD's evaluator uses).
    """
    uri = Path(path).resolve().as_uri() + "?mode=ro&immutable=1"
    con = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    if lenient_text:
        con.text_factory = lambda b: b.decode(errors="ignore")
    harden(con)
    return con


def memory_connection() -> sqlite3.Connection:
    """An empty in-memory database with the sandbox's limits (to replay a counterexample)."""
    con = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    harden(con)
    return con


#: The execution match reads any table of the file it opened.
_authorize = query_authorizer()


def run_query(
    con: sqlite3.Connection,
    sql: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_rows: int = DEFAULT_MAX_ROWS,
) -> QueryRun:
    """Run ``sql`` under the authorizer and the deadline; never raises for a bad query."""
    start = time.monotonic()
    deadline = start + timeout
    con.set_authorizer(_authorize)
    con.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, _PROGRESS_STEPS)
    try:
        cursor = con.execute(sql)
        rows: list[Row] = []
        while True:
            chunk = cursor.fetchmany(10_000)
            if not chunk:
                break
            rows.extend(tuple(r) for r in chunk)
            if len(rows) > max_rows:
                cursor.close()
                return QueryRun(
                    None, "too_large", f"more than {max_rows} rows", time.monotonic() - start
                )
        return QueryRun(rows, seconds=time.monotonic() - start)
    except (sqlite3.Error, sqlite3.Warning, ValueError, OverflowError, MemoryError) as exc:
        message = _first_line(exc)
        if message.lower() == "interrupted" or time.monotonic() > deadline:
            return QueryRun(
                None, "timeout", f"interrupted after {timeout:g} s", time.monotonic() - start
            )
        return QueryRun(None, "error", message, time.monotonic() - start)
    finally:
        con.set_progress_handler(None, 0)
        con.set_authorizer(None)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


# -- Spider's rule -------------------------------------------------------------------------

_CUR_YEAR = re.compile(r"YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*", re.IGNORECASE)


def spider_postprocess(sql: str) -> str:
    """The evaluator's fix-ups of a prediction: ``> =`` -> ``>=`` (and ``<``, ``!``).

    Example:
        >>> spider_postprocess("SELECT a FROM t WHERE a > = 3")
        'SELECT a FROM t WHERE a >= 3'
    """
    return sql.replace("> =", ">=").replace("< =", "<=").replace("! =", "!=")


def remove_distinct(sql: str) -> str:
    """``sql`` without its ``DISTINCT`` keywords, as the evaluator's default removes them
    (from ``SELECT DISTINCT`` and from ``COUNT(DISTINCT x)`` alike); text it cannot
    tokenize is returned unchanged.

    Example:
        >>> remove_distinct("SELECT DISTINCT a, count(distinct b) FROM t WHERE c = 'distinct'")
        "SELECT  a, count( b) FROM t WHERE c = 'distinct'"
    """
    try:
        tokens = Dialect.get_or_raise("sqlite").tokenize(sql)
    except (SqlglotError, ValueError, IndexError):
        return sql
    out, last = [], 0
    for token in tokens:
        if token.token_type == TokenType.DISTINCT and token.text.lower() == "distinct":
            out.append(sql[last : token.start])
            last = token.end + 1
    out.append(sql[last:])
    return "".join(out)


def spider_prepare(sql: str, *, keep_distinct: bool = False) -> str:
    """A query as the Spider evaluator runs it."""
    sql = spider_postprocess(sql)
    if not keep_distinct:
        sql = remove_distinct(sql)
    return _CUR_YEAR.sub("2020", sql)


def _unorder_row(row: Row) -> Row:
    # The evaluator's key, kept as is: it decides its quick rejection.
    return tuple(sorted(row, key=lambda x: str(x) + str(type(x))))


def _quick_rej(result1: Sequence[Row], result2: Sequence[Row], order_matters: bool) -> bool:
    s1 = [_unorder_row(r) for r in result1]
    s2 = [_unorder_row(r) for r in result2]
    return s1 == s2 if order_matters else set(s1) == set(s2)


def spider_result_eq(
    result1: Sequence[Row],
    result2: Sequence[Row],
    order_matters: bool,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    search: PermutationSearch | None = None,
) -> bool | None:
    """The test-suite evaluator's ``result_eq(gold, pred, order_matters)``, without its hang.

    True when some bijection of the columns of ``result2`` onto those of
    ``result1`` makes the two equal (as bags of rows, or as lists when
    ``order_matters``); None when the search ran past ``max_steps``.

    Example:
        >>> spider_result_eq([(1, "a"), (2, "b")], [("b", 2), ("a", 1)], False)
        True
        >>> spider_result_eq([(1, "a"), (2, "b")], [("b", 2), ("a", 1)], True)
        False
        >>> spider_result_eq([(1, 1), (1, 1)], [(1, 1)], False)
        False
        >>> wide = [tuple(range(26)), tuple(range(1, 27))]
        >>> spider_result_eq(wide, [tuple(reversed(r)) for r in wide], False)
        True
    """
    search = search if search is not None else PermutationSearch()
    if len(result1) == 0 and len(result2) == 0:
        return True
    if len(result1) != len(result2):
        return False
    num_cols = len(result1[0])
    if len(result2[0]) != num_cols:
        return False
    if not _quick_rej(result1, result2, order_matters):
        return False
    if num_cols == 1:
        if order_matters:
            return list(result1) == list(result2)
        return set(result1) == set(result2) and _multiset_eq(result1, result2)
    cols1 = [tuple(r[i] for r in result1) for i in range(num_cols)]
    cols2 = [tuple(r[j] for r in result2) for j in range(num_cols)]
    if order_matters:
        # Rows in the same order: the columns must match as whole vectors, and a
        # bijection exists exactly when the two bags of column vectors are equal.
        search.steps += 1
        return _bag(cols1) == _bag(cols2)
    return _bag_bijection(result1, result2, cols1, cols2, max_steps, search)


def _multiset_eq(l1: Sequence[Hashable], l2: Sequence[Hashable]) -> bool:
    return len(l1) == len(l2) and Counter(l1) == Counter(l2)


def _bag(values: Sequence[Hashable]) -> Counter[Hashable]:
    return Counter(values)


def _bag_bijection(
    result1: Sequence[Row],
    result2: Sequence[Row],
    cols1: list[tuple[Any, ...]],
    cols2: list[tuple[Any, ...]],
    max_steps: int,
    search: PermutationSearch,
) -> bool | None:
    """Is there a bijection ``perm`` with ``bag(rows2[perm]) == bag(rows1)``?"""
    n = len(cols1)
    bags1 = [_bag(c) for c in cols1]
    bags2 = [_bag(c) for c in cols2]
    # A column can only map to one with the same bag of values (row permutations keep it).
    options = [[j for j in range(n) if bags2[j] == bags1[i]] for i in range(n)]
    if any(not o for o in options):
        return False
    # Identical columns of result2 are interchangeable: try only the first unused of each.
    twin_of = {j: cols2.index(cols2[j]) for j in range(n)}
    order = sorted(range(n), key=lambda i: len(options[i]))
    assigned: list[tuple[int, int]] = []
    used: set[int] = set()

    def consistent() -> bool:
        left = Counter(tuple(r[i] for i, _ in assigned) for r in result1)
        right = Counter(tuple(r[j] for _, j in assigned) for r in result2)
        return left == right

    def extend(depth: int) -> bool | None:
        if depth == n:
            return True
        i = order[depth]
        tried_twins: set[int] = set()
        for j in options[i]:
            if j in used or twin_of[j] in tried_twins:
                continue
            tried_twins.add(twin_of[j])
            search.steps += 1
            if search.steps > max_steps:
                search.capped = True
                return None
            assigned.append((i, j))
            used.add(j)
            if consistent():
                found = extend(depth + 1)
                if found is None or found:
                    return found
            assigned.pop()
            used.discard(j)
        return False

    return extend(0)


def bird_result_eq(predicted: Sequence[Row], ground_truth: Sequence[Row]) -> bool:
    """BIRD's rule: ``set(predicted_res) == set(ground_truth_res)``.

    Example:
        >>> bird_result_eq([(1,), (1,), (2,)], [(2,), (1,)])
        True
        >>> bird_result_eq([(1, "a")], [("a", 1)])
        False
    """
    return set(predicted) == set(ground_truth)


# -- one item ------------------------------------------------------------------------------


def execution_match(
    rule: Rule,
    gold: str,
    pred: str,
    databases: Sequence[str | Path],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_rows: int = DEFAULT_MAX_ROWS,
    keep_distinct: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    connect: Callable[..., sqlite3.Connection] = open_readonly,
) -> ExecMatch:
    """The evaluator's execution match of ``pred`` against ``gold`` on ``databases``."""
    start = time.monotonic()
    names = [Path(p).name for p in databases]
    if not databases:
        return ExecMatch(rule, None, gold_error="no database", detail="no database to run on")
    if rule == "bird":
        result = _bird(gold, pred, databases[0], timeout, max_rows, connect)
    else:
        result = _spider(
            gold, pred, databases, timeout, max_rows, keep_distinct, max_steps, connect
        )
    return ExecMatch(
        **{**result, "rule": rule, "databases": names, "seconds": time.monotonic() - start}
    )


def _open(path: str | Path, connect: Callable[..., sqlite3.Connection], lenient: bool) -> Any:
    try:
        return connect(path, lenient_text=lenient)
    except sqlite3.Error as exc:
        return f"cannot open {Path(path).name}: {_first_line(exc)}"


def _failure_text(run: QueryRun) -> str:
    return f"{run.failure}: {run.message}" if run.failure != "error" else str(run.message)


def _bird(
    gold: str,
    pred: str,
    database: str | Path,
    timeout: float,
    max_rows: int,
    connect: Callable[..., sqlite3.Connection],
) -> dict[str, Any]:
    con = _open(database, connect, lenient=False)
    if isinstance(con, str):
        return {"match": None, "gold_error": con, "detail": con}
    try:
        # The evaluator runs both under one time limit, the prediction first.
        # An empty prediction runs too: BIRD executes " " for one, which returns no rows.
        p = run_query(con, pred, timeout=timeout, max_rows=max_rows)
        remaining = max(0.001, timeout - p.seconds)
        g = run_query(con, gold, timeout=remaining, max_rows=max_rows)
    finally:
        con.close()
    base: dict[str, Any] = {
        "pred_rows": len(p.rows) if p.rows is not None else None,
        "gold_rows": len(g.rows) if g.rows is not None else None,
        "pred_error": _failure_text(p) if p.rows is None else None,
        "gold_error": _failure_text(g) if g.rows is None else None,
    }
    if g.failure == "too_large" or p.failure == "too_large":
        return {**base, "match": None, "detail": "a result is too large to compare"}
    if p.rows is None:
        return {
            **base,
            "match": False,
            "failed_on": Path(database).name,
            "detail": f"the prediction fails: {base['pred_error']}",
        }
    if g.rows is None:
        # BIRD scores this 0, like any exception in its execute_sql.
        return {
            **base,
            "match": False,
            "failed_on": Path(database).name,
            "detail": f"the gold query fails: {base['gold_error']}",
        }
    match = bird_result_eq(p.rows, g.rows)
    detail = (
        "same set of rows"
        if match
        else "different sets of rows (compared as sets, column order counts)"
    )
    return {
        **base,
        "match": match,
        "failed_on": None if match else Path(database).name,
        "detail": detail,
    }


def _spider(
    gold: str,
    pred: str,
    databases: Sequence[str | Path],
    timeout: float,
    max_rows: int,
    keep_distinct: bool,
    max_steps: int,
    connect: Callable[..., sqlite3.Connection],
) -> dict[str, Any]:
    g_sql = spider_prepare(gold, keep_distinct=keep_distinct)
    p_sql = spider_prepare(pred, keep_distinct=keep_distinct)
    order_matters = "order by" in g_sql.lower()
    base: dict[str, Any] = {"order_matters": order_matters, "distinct_removed": not keep_distinct}
    search = PermutationSearch()
    for database in databases:
        name = Path(database).name
        con = _open(database, connect, lenient=True)
        if isinstance(con, str):
            return {**base, "match": None, "gold_error": con, "failed_on": name, "detail": con}
        try:
            g = run_query(con, g_sql, timeout=timeout, max_rows=max_rows)
            p = (
                run_query(con, p_sql, timeout=timeout, max_rows=max_rows)
                if p_sql.strip()
                else QueryRun(None, "error", "the prediction is empty")
            )
        finally:
            con.close()
        base["gold_rows"] = len(g.rows) if g.rows is not None else None
        base["pred_rows"] = len(p.rows) if p.rows is not None else None
        if g.rows is None:
            error = _failure_text(g)
            # The evaluator asserts that the gold runs, and stops.
            return {
                **base,
                "match": None,
                "gold_error": error,
                "failed_on": name,
                "detail": f"the gold query fails on {name}: {error}",
            }
        if p.rows is None:
            error = _failure_text(p)
            if p.failure == "too_large":
                return {
                    **base,
                    "match": None,
                    "pred_error": error,
                    "failed_on": name,
                    "detail": f"the prediction's result on {name} is too large",
                }
            return {
                **base,
                "match": False,
                "pred_error": error,
                "failed_on": name,
                "detail": f"the prediction fails on {name}: {error}",
            }
        same = spider_result_eq(g.rows, p.rows, order_matters, max_steps=max_steps, search=search)
        base["permutation_search"] = search.to_dict()
        if same is None:
            return {
                **base,
                "match": None,
                "failed_on": name,
                "detail": f"the column-permutation search was capped after {max_steps} "
                f"steps on {name} (where the evaluator's own search may never finish)",
            }
        if not same:
            how = "as lists (the gold says 'order by')" if order_matters else "as bags"
            return {
                **base,
                "match": False,
                "failed_on": name,
                "detail": f"different results on {name}, compared {how} "
                "under every column permutation",
            }
    return {
        **base,
        "match": True,
        "detail": f"same results on {len(databases)} database"
        + ("s" if len(databases) != 1 else ""),
    }
