"""Explain a difference: one cause and a sentence naming the rows.

:func:`compare_results` decides *whether* two results differ; this module says
*why*, in the vocabulary of the grading rubric, so that "17 failures" becomes
"17 failures, 11 of them a grain error". It never changes a verdict.

The rules run in this order and the first that applies wins:

0. The rows are equal as bags but come in an order the reference's ORDER BY
   does not allow (reason ``order``): ``same_keys_different_values``, the key
   being the row position. (The cause list has no ordering cause.)
1. ``projection``: the column counts differ, or the columns cannot be lined up
   (``column_map`` is None) while the row counts agree — unless the column
   counts differ because the candidate groups by every key of the reference
   and more, projects them and returns more rows: that is ``grain``.
2. ``grain``: on some key, one result has several rows where the other has
   one (so the candidate returns rows at all). The key is the grouping
   expressions both queries share when both have a top-level GROUP BY and
   their grouping sets differ (compared without table aliases); otherwise
   the reference's GROUP BY output columns, or, with no reference tree, its
   first column that is unique. Several
   *identical* rows for a key count only when the GROUP BYs differ: without
   that they are plain duplicates (``extra_rows``). When the GROUP BYs differ
   but no shared key is an output column, differing row counts suffice.
3. ``filter_window``: the range comparisons (``>``, ``>=``,
   ``<``, ``<=``, ``BETWEEN``) in the two queries' WHERE, ON and HAVING
   clauses differ: another column, another bound, another inclusivity.
   ``BETWEEN a AND b`` is read as ``>= a AND <= b`` so that it only differs
   from a spelled-out range when the bounds do, and ``YEAR(c) = 2026`` as
   ``c >= '2026-01-01' AND c < '2027-01-01'``. A difference in which every
   row is held by both results, only not equally often, is never a window
   error (it is a duplicate). This comes before
   ``empty_result`` on purpose: the shrinker's minimal counterexample to a
   window error is typically one row on the boundary, which leaves the
   candidate empty, and "empty" would hide the actionable cause. It also
   comes before key pairing: a narrower window on an aggregate changes
   counts, and the bound is what to fix (the sentence names the keys).
4. ``empty_result``: the candidate returns no rows and the reference does.
5. ``projection`` again when rows pair by key and every differing value sits
   in an output column that is a different plain column in the two queries
   (``p.category`` where the reference asks for ``p.name``); otherwise
   ``same_keys_different_values``: a key pairs a missing row with an extra
   row. Keys tried: the reference's GROUP BY output columns (shortened to the
   shortest prefix that is unique in both results), a single column unique in
   both results with the same values on both sides, a unique prefix of the
   columns, and finally "all columns but one".
6. ``missing_rows`` / ``extra_rows``: by which side has the surplus (more
   missing than extra rows means ``missing_rows``); a row the candidate
   returns more often than the reference counts as extra.

Sentences use the reference's column names, quote strings, print NULL as
NULL and temporal values in ISO form, and list at most three rows.
"""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlglot import exp

from sqlequiv.compare.rows import canonical_value, order_keys_of
from sqlequiv.results import Comparison, ResultSet
from sqlequiv.verdict import Cause

__all__ = ["classify", "format_row", "format_value"]

#: Rows (or keys) listed in one sentence before "and N more".
_SHOWN = 3

_RANGE_OPS: dict[type[exp.Expr], str] = {
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
}
_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">="}

Row = tuple[Any, ...]
Key = tuple[Hashable, ...]


def classify(
    comparison: Comparison,
    candidate: ResultSet,
    reference: ResultSet,
    candidate_ast: exp.Expr | None = None,
    reference_ast: exp.Expr | None = None,
) -> tuple[Cause, str]:
    """The cause of a difference and a sentence saying which rows differ.

    ``comparison`` must come from ``compare_results(candidate, reference, ...)``
    and report a difference; the trees, when given, are the qualified ASTs of
    the two queries and let the rules name grouping and filter differences.

    Example:
        >>> from sqlequiv.compare.rows import compare_results
        >>> from sqlequiv.options import Options
        >>> ref = ResultSet(("customer_id", "order_count"), ((101, 3), (104, 0)))
        >>> cand = ResultSet(("id", "n"), ((101, 3),))
        >>> cause, detail = classify(compare_results(cand, ref, Options()), cand, ref)
        >>> cause
        'missing_rows'
        >>> print(detail)
        The reference returns (customer_id=104, order_count=0), which is absent from the candidate.
        >>> cand = ResultSet(("id", "n"), ((101, 3), (104, 1)))
        >>> classify(compare_results(cand, ref, Options()), cand, ref)[1]
        'For customer_id=104 the reference has order_count=0 and the candidate has order_count=1.'
    """
    if comparison.equal or comparison.ambiguous:
        raise ValueError("classify() needs a comparison that found a definite difference")
    view = _View.build(comparison, candidate, reference)
    if comparison.reason == "order":
        return "same_keys_different_values", _order_detail(view, reference_ast)
    if comparison.reason == "column_count" and len(candidate.rows) > len(reference.rows):
        # More rows from more grouping keys: the groups split (a key that is functionally
        # dependent on the reference's, e.g. c.plan beside c.customer_id, splits none).
        finer = _finer_grouping(candidate_ast, reference_ast)
        if finer is not None:
            return "grain", f"{finer} {_projection_detail(view)}"
    if comparison.reason == "column_count" or (
        view.column_map is None and len(candidate.rows) == len(reference.rows)
    ):
        return "projection", _projection_detail(view)
    # A grain needs candidate rows to split; an empty candidate has none.
    grain = _grain(view, candidate_ast, reference_ast) if candidate.rows else None
    if grain is not None:
        return "grain", grain
    pairs, key = _pairs(view, reference_ast)
    # Rows that both results hold, only not equally often, are duplicates, whatever
    # the windows look like.
    window = None if _only_multiplicity(view) else _window_difference(candidate_ast, reference_ast)
    # Before empty_result: a minimal counterexample to a window error often holds
    # one row on the boundary, which leaves the candidate empty.
    if window is not None:
        rows = (
            _pairs_detail(view, pairs, key)
            if pairs
            else _rows_detail(view, view.missing, view.extra)
        )
        return "filter_window", f"{window}. {rows}"
    if not candidate.rows and reference.rows:
        return "empty_result", _empty_detail(view)
    if pairs:
        swapped = _swapped_columns(view, pairs, key, candidate_ast, reference_ast)
        if swapped:
            return "projection", f"{swapped} {_pairs_detail(view, pairs, key)}"
        detail = _pairs_detail(view, pairs, key)
        paired_m = {m for m, _ in pairs}
        paired_e = {e for _, e in pairs}
        rest_m = [m for i, m in enumerate(view.missing) if i not in paired_m]
        rest_e = [e for i, e in enumerate(view.extra) if i not in paired_e]
        if rest_m or rest_e:
            detail += " " + _rows_detail(view, rest_m, rest_e)
        return "same_keys_different_values", detail
    if len(candidate.rows) == len(reference.rows) == len(view.missing) == len(view.extra) == 1:
        # One row each, and not the same: a query's single answer (a scalar aggregate,
        # the top row) is wrong, not some rows missing.
        return "same_keys_different_values", _rows_detail(view, view.missing, view.extra)
    cause: Cause = "missing_rows" if len(view.missing) >= len(view.extra) else "extra_rows"
    if not view.missing and not view.extra:
        return cause, "The results differ, but no row of one is absent from the other."
    return cause, _rows_detail(view, view.missing, view.extra)


# -- the two results, lined up ---------------------------------------------------------


@dataclass(frozen=True)
class _View:
    """Both results in reference column order, with canonical forms for counting."""

    names: tuple[str, ...]
    column_map: tuple[int, ...] | None
    reference: ResultSet
    candidate: ResultSet
    ref_rows: tuple[Row, ...]
    #: Candidate rows permuted into reference column order (as-is without a column map).
    cand_rows: tuple[Row, ...]
    missing: tuple[Row, ...]
    extra: tuple[Row, ...]
    #: Column names for the candidate's rows in ``cand_rows`` and ``extra``.
    extra_names: tuple[str, ...]

    @staticmethod
    def build(comparison: Comparison, candidate: ResultSet, reference: ResultSet) -> _View:
        cmap = comparison.column_map
        if cmap is not None:
            cand_rows = tuple(tuple(row[j] for j in cmap) for row in candidate.rows)
            extra_names = reference.columns
        else:
            cand_rows, extra_names = candidate.rows, candidate.columns
        return _View(
            reference.columns,
            cmap,
            reference,
            candidate,
            reference.rows,
            cand_rows,
            comparison.missing,
            comparison.extra,
            extra_names,
        )


def _canon_row(row: Row, cols: Sequence[int] | None = None) -> Key:
    picked = row if cols is None else tuple(row[c] for c in cols)
    return tuple(canonical_value(v) for v in picked)


# -- formatting ------------------------------------------------------------------------


def format_value(value: Any) -> str:
    """One value as it reads in a sentence: SQL-like literals, ISO temporal values.

    Example:
        >>> import datetime as dt
        >>> [format_value(v) for v in (None, "O'Hara", dt.date(2026, 7, 1), 2.5, True)]
        ['NULL', "'O''Hara'", "'2026-07-01'", '2.5', 'TRUE']
    """
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        text = value if len(value) <= 60 else value[:57] + "..."
        return "'" + text.replace("'", "''") + "'"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return f"'{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date | dt.time | uuid.UUID):
        return f"'{value}'"
    if isinstance(value, dt.timedelta):
        return f"INTERVAL '{value}'"
    if isinstance(value, bytes | bytearray | memoryview):
        return "'" + "".join(f"\\x{b:02x}" for b in bytes(value)) + "'"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(
            f"{k if isinstance(k, str) else format_value(k)}: {format_value(v)}"
            for k, v in value.items()
        )
        return "{" + inner + "}"
    return str(value)


def format_row(names: Sequence[str], row: Sequence[Any], cols: Sequence[int] | None = None) -> str:
    """``name=value`` pairs of ``row`` (only ``cols`` if given), comma-separated.

    Example:
        >>> format_row(("customer_id", "name"), (104, "Ada"))
        "customer_id=104, name='Ada'"
    """
    picked = range(len(row)) if cols is None else cols
    return ", ".join(f"{names[c]}={format_value(row[c])}" for c in picked)


def _row_list(names: Sequence[str], rows: Sequence[Row]) -> str:
    shown = [f"({format_row(names, r)})" for r in rows[:_SHOWN]]
    more = len(rows) - len(shown)
    if more:
        return ", ".join(shown) + f" and {more} more"
    if len(shown) > 1:
        return ", ".join(shown[:-1]) + " and " + shown[-1]
    return shown[0] if shown else ""


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _key_text(names: Sequence[str], row: Row, cols: Sequence[int]) -> str:
    text = format_row(names, row, cols)
    return text if len(cols) == 1 else f"({text})"


# -- rule 0: order ---------------------------------------------------------------------


def _order_detail(view: _View, reference_ast: exp.Expr | None) -> str:
    keys = order_keys_of(reference_ast) if reference_ast is not None else None
    cols = [k.column for k in keys] if keys else list(range(len(view.names)))
    for i, (r, c) in enumerate(zip(view.ref_rows, view.cand_rows, strict=False)):
        if _canon_row(r, cols) != _canon_row(c, cols):
            order = reference_ast.args.get("order") if reference_ast is not None else None
            by = (
                f"the reference's {order.sql(dialect='duckdb')}"
                if isinstance(order, exp.Order)
                else "the reference's order"
            )
            return (
                f"The candidate returns the same rows in a different order: {by} puts "
                f"({format_row(view.names, r)}) at row {i + 1}, where the candidate has "
                f"({format_row(view.names, c)})."
            )
    return (
        "The candidate returns the same rows in an order the reference's ORDER BY does not allow."
    )


# -- rule 1: projection ----------------------------------------------------------------


def _projection_detail(view: _View) -> str:
    ref_names, cand_names = view.reference.columns, view.candidate.columns
    if len(ref_names) != len(cand_names):
        unmatched_ref, unmatched_cand = _unmatched_columns(view.reference, view.candidate)
        head = (
            f"The candidate returns {len(cand_names)} columns ({', '.join(cand_names)}) where "
            f"the reference returns {len(ref_names)} ({', '.join(ref_names)})"
        )
        parts = []
        if unmatched_cand and len(unmatched_cand) < len(cand_names):
            listed = ", ".join(cand_names[j] for j in unmatched_cand)
            noun = "column" if len(unmatched_cand) == 1 else "columns"
            verb = "has" if len(unmatched_cand) == 1 else "have"
            parts.append(f"the candidate's {noun} {listed} {verb} no counterpart in the reference")
        if unmatched_ref and len(unmatched_ref) < len(ref_names):
            listed = ", ".join(ref_names[i] for i in unmatched_ref)
            noun = "column" if len(unmatched_ref) == 1 else "columns"
            verb = "is" if len(unmatched_ref) == 1 else "are"
            parts.append(f"the reference's {noun} {listed} {verb} missing from the candidate")
        return head + ("; " + " and ".join(parts) if parts else "") + "."
    shortfalls = _kind_shortfalls(view.reference, view.candidate)
    if shortfalls:
        return (
            "The candidate's columns do not line up with the reference's: "
            + "; ".join(shortfalls)
            + "."
        )
    return "The candidate's columns cannot be matched with the reference's column by column."


def _column_signature(result: ResultSet, c: int) -> frozenset[tuple[Hashable, int]]:
    return frozenset(Counter(canonical_value(row[c]) for row in result.rows).items())


def _unmatched_columns(reference: ResultSet, candidate: ResultSet) -> tuple[list[int], list[int]]:
    """Reference and candidate columns with no counterpart (by values, then by name)."""
    ref_sig = [_column_signature(reference, i) for i in range(len(reference.columns))]
    cand_sig = [_column_signature(candidate, j) for j in range(len(candidate.columns))]
    free_r = list(range(len(ref_sig)))
    free_c = list(range(len(cand_sig)))

    def same_name(i: int, j: int) -> bool:
        return reference.columns[i].lower() == candidate.columns[j].lower()

    passes = (
        lambda i, j: ref_sig[i] == cand_sig[j] and same_name(i, j),
        lambda i, j: ref_sig[i] == cand_sig[j],
        same_name,
    )
    for fits in passes:
        for i in list(free_r):
            j = next((j for j in free_c if fits(i, j)), None)
            if j is not None:
                free_r.remove(i)
                free_c.remove(j)
    return free_r, free_c


#: How a column's values read in a sentence, by Python type.
_KIND_NAMES = {
    "str": "text",
    "bool": "boolean",
    "datetime": "timestamp",
    "timedelta": "interval",
    "bytes": "blob",
    "UUID": "uuid",
    "dict": "struct",
}


def _kind(result: ResultSet, c: int) -> str | None:
    """The kind of a column's values (numeric, text, date, ...); None if all NULL."""
    for row in result.rows:
        value = row[c]
        if value is None:
            continue
        if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
            return "numeric"
        name = type(value).__name__
        return _KIND_NAMES.get(name, name)
    return None


def _kind_shortfalls(reference: ResultSet, candidate: ResultSet) -> list[str]:
    """Kinds of which the reference has more columns than the candidate can match.

    All-NULL candidate columns can stand for any kind, so they are spent on
    the shortfalls first.
    """
    ref_kinds = [_kind(reference, i) for i in range(len(reference.columns))]
    cand_kinds = [_kind(candidate, j) for j in range(len(candidate.columns))]
    spare = cand_kinds.count(None)
    found = []
    for kind in dict.fromkeys(k for k in ref_kinds if k is not None):
        mine = [reference.columns[i] for i, k in enumerate(ref_kinds) if k == kind]
        theirs = [candidate.columns[j] for j, k in enumerate(cand_kinds) if k == kind]
        short = len(mine) - len(theirs)
        if short <= 0:
            continue
        if spare >= short:
            spare -= short
            continue
        listed = f" ({', '.join(theirs)})" if theirs else ""
        noun = "column" if len(mine) == 1 else "columns"
        found.append(
            f"the reference has {len(mine)} {kind} {noun} ({', '.join(mine)}) and the "
            f"candidate {len(theirs)}{listed}"
        )
    return found


# -- rule 2: empty result --------------------------------------------------------------


def _empty_detail(view: _View) -> str:
    n = len(view.ref_rows)
    rows = "row" if n == 1 else "rows"
    return (
        f"The candidate returns no rows; the reference returns {n} {rows}: "
        f"{_row_list(view.names, view.ref_rows)}."
    )


# -- rule 3: grain ---------------------------------------------------------------------


def _grouping(ast: exp.Expr | None) -> list[exp.Expr] | None:
    """The top-level GROUP BY expressions, or None if the query does not group."""
    if not isinstance(ast, exp.Select):
        return None
    group = ast.args.get("group")
    if not isinstance(group, exp.Group):
        return None
    exprs: list[exp.Expr] = list(group.expressions)
    for name in ("rollup", "cube", "grouping_sets"):
        for node in group.args.get(name) or ():
            exprs.extend(node.expressions if node.expressions else [node])
    return exprs


def _normalized(node: exp.Expr) -> str:
    """SQL text without table qualifiers and without casts around literals."""
    copy = node.copy()
    for column in list(copy.find_all(exp.Column)):
        for part in ("table", "db", "catalog"):
            column.set(part, None)
    for cast in list(copy.find_all(exp.Cast)):
        if isinstance(cast.this, exp.Literal):
            cast.replace(cast.this)
    if isinstance(copy, exp.Cast) and isinstance(copy.this, exp.Literal):
        copy = copy.this
    return copy.sql(dialect="duckdb")


def _output_columns(ast: exp.Expr, exprs: Sequence[exp.Expr]) -> list[int]:
    """The output columns (indexes) whose projection is one of ``exprs``."""
    if not isinstance(ast, exp.Query):
        return []
    wanted = {_normalized(e) for e in exprs}
    return [
        i for i, projection in enumerate(ast.selects) if _normalized(projection.unalias()) in wanted
    ]


def _grain(
    view: _View, candidate_ast: exp.Expr | None, reference_ast: exp.Expr | None
) -> str | None:
    if view.column_map is None:
        return None
    ref_groups = _grouping(reference_ast)
    cand_groups = _grouping(candidate_ast)
    differ = ""
    key: list[int] = []
    if ref_groups is not None and cand_groups is not None and reference_ast is not None:
        ref_norm = {_normalized(e): e for e in ref_groups}
        cand_norm = {_normalized(e): e for e in cand_groups}
        if set(ref_norm) != set(cand_norm):
            differ = _grouping_difference(ref_norm, cand_norm)
            shared = [e for n, e in ref_norm.items() if n in cand_norm]
            key = _output_columns(reference_ast, shared)
            if not key:
                if len(view.cand_rows) == len(view.ref_rows):
                    return None
                return (
                    f"The candidate returns {len(view.cand_rows)} rows where the reference "
                    f"returns {len(view.ref_rows)} ({differ})."
                )
    if not key and ref_groups is not None and reference_ast is not None:
        key = _output_columns(reference_ast, ref_groups)
    if not key and reference_ast is None:
        key = next(([c] for c in range(len(view.names)) if _unique(view.ref_rows, [c])), [])
    if not key:
        return None
    return _grain_evidence(view, key, differ)


def _finer_grouping(
    candidate_ast: exp.Expr | None, reference_ast: exp.Expr | None
) -> str | None:
    """A sentence when the candidate groups by every key of the reference and more, or None."""
    ref_groups, cand_groups = _grouping(reference_ast), _grouping(candidate_ast)
    if ref_groups is None or cand_groups is None:
        return None
    ref_keys = {_normalized(g): g for g in ref_groups}
    cand_keys = {_normalized(g): g for g in cand_groups}
    extra = [k for k in cand_keys if k not in ref_keys]
    if not extra or not set(ref_keys) <= set(cand_keys):
        return None
    return (
        f"The candidate also groups by {', '.join(extra)}: one row per "
        f"{', '.join(cand_keys)} where the reference has one per "
        f"{', '.join(ref_keys) or 'query'}."
    )


def _only_multiplicity(view: _View) -> bool:
    """Every differing row is held by both results, only not equally often."""
    if view.column_map is None or not (view.missing or view.extra):
        return False
    cand = {_canon_row(r) for r in view.cand_rows}
    ref = {_canon_row(r) for r in view.ref_rows}
    return all(_canon_row(r) in cand for r in view.missing) and all(
        _canon_row(r) in ref for r in view.extra
    )


def _grouping_difference(ref_norm: dict[str, exp.Expr], cand_norm: dict[str, exp.Expr]) -> str:
    def listed(exprs: Sequence[exp.Expr]) -> str:
        return ", ".join(e.sql(dialect="duckdb") for e in exprs)

    only_cand = [e for n, e in cand_norm.items() if n not in ref_norm]
    only_ref = [e for n, e in ref_norm.items() if n not in cand_norm]
    if only_cand and not only_ref:
        return f"the candidate groups by more columns: {listed(only_cand)}"
    if only_ref and not only_cand:
        return f"the reference groups by more columns: {listed(only_ref)}"
    return (
        f"the candidate groups by {listed(list(cand_norm.values()))} where the reference "
        f"groups by {listed(list(ref_norm.values()))}"
    )


def _unique(rows: Sequence[Row], cols: Sequence[int]) -> bool:
    keys = [_canon_row(r, cols) for r in rows]
    return len(set(keys)) == len(keys)


def _grain_evidence(view: _View, key: list[int], differ: str) -> str | None:
    """Keys with several rows on one side and exactly one on the other."""
    ref_by: dict[Key, list[Row]] = {}
    cand_by: dict[Key, list[Row]] = {}
    for rows, by in ((view.ref_rows, ref_by), (view.cand_rows, cand_by)):
        for row in rows:
            by.setdefault(_canon_row(row, key), []).append(row)

    def split(many: dict[Key, list[Row]], one: dict[Key, list[Row]]) -> list[Key]:
        return [
            k
            for k, rows in many.items()
            if len(rows) >= 2
            and len(one.get(k, ())) == 1
            # Identical rows are duplicates, not a finer grain, unless the GROUP BYs differ.
            and (differ or len({_canon_row(r) for r in rows}) > 1)
        ]

    for many, one, side, other in (
        (cand_by, ref_by, "candidate", "reference"),
        (ref_by, cand_by, "reference", "candidate"),
    ):
        keys = split(many, one)
        if not keys:
            continue
        shown = _shortest_key(view, key)
        first = many[keys[0]][0]
        text = (
            f"The {side} returns {len(many[keys[0]])} rows for "
            f"{_key_text(view.names, first, shown)} where the {other} returns 1"
        )
        if differ:
            text += f" ({differ})"
        text += "."
        if len(keys) > 1:
            more = "1 more key is" if len(keys) == 2 else f"{len(keys) - 1} more keys are"
            text += f" {more} split the same way."
        return text
    return None


def _shortest_key(view: _View, key: list[int]) -> list[int]:
    """The shortest prefix of ``key`` that determines it in both results (for display)."""
    rows = view.ref_rows + view.cand_rows
    full = {_canon_row(r, key) for r in rows}
    for n in range(1, len(key)):
        if len({_canon_row(r, key[:n]) for r in rows}) == len(full):
            return key[:n]
    return key


# -- rule 4: filter window -------------------------------------------------------------


@dataclass(frozen=True)
class _Bound:
    subject: str
    op: str
    bound: str
    #: The column the bound constrains, for the sentence.
    column: str
    node: exp.Expr


def _bounds(ast: exp.Expr) -> list[_Bound]:
    """Range comparisons in WHERE, JOIN ... ON and HAVING clauses, at any depth."""
    found: list[_Bound] = []
    seen: set[int] = set()
    # Depth-first, so that bounds are listed in the order the query writes them.
    for clause in ast.find_all(exp.Where, exp.Having, exp.Join, bfs=False):
        condition = clause.args.get("on") if isinstance(clause, exp.Join) else clause.this
        if not isinstance(condition, exp.Expr):
            continue
        for node in condition.find_all(
            exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between, exp.EQ, bfs=False
        ):
            if id(node) in seen:
                continue
            seen.add(id(node))
            found.extend(_year_bounds(node) if isinstance(node, exp.EQ) else _node_bounds(node))
    return found


def _year_bounds(node: exp.EQ) -> list[_Bound]:
    """``YEAR(c) = 2026`` (or ``EXTRACT(YEAR FROM c)``) as the window it is:
    ``c >= '2026-01-01' AND c < '2027-01-01'``, so that it matches a spelled-out range."""
    for subject, other in ((node.this, node.expression), (node.expression, node.this)):
        column = _year_of(subject)
        year = other.this if isinstance(other, exp.Cast) else other
        if column is None or not (isinstance(year, exp.Literal) and year.is_int):
            continue
        n = int(year.this)
        low, high = exp.Literal.string(f"{n}-01-01"), exp.Literal.string(f"{n + 1}-01-01")
        return [
            _Bound(_normalized(column), ">=", _normalized(low), column.name, node),
            _Bound(_normalized(column), "<", _normalized(high), column.name, node),
        ]
    return []


def _year_of(node: exp.Expr) -> exp.Column | None:
    """The column ``node`` takes the year of, or None."""
    if isinstance(node, exp.Year) and isinstance(node.this, exp.Column):
        return node.this
    if (
        isinstance(node, exp.Extract)
        and isinstance(node.expression, exp.Column)
        and node.this.name.lower() in {"year", "years", "y", "yr"}
    ):
        return node.expression
    return None


def _node_bounds(node: exp.Expr) -> list[_Bound]:
    if isinstance(node, exp.Between):
        subject = node.this
        column = subject.find(exp.Column)
        if column is None:
            return []
        return [
            _Bound(_normalized(subject), op, _normalized(node.args[arg]), column.name, node)
            for op, arg in ((">=", "low"), ("<=", "high"))
            if isinstance(node.args.get(arg), exp.Expr)
        ]
    left, right = node.this, node.expression
    op = _RANGE_OPS[type(node)]
    if left.find(exp.Column) is None:
        left, right, op = right, left, _FLIPPED[op]
    column = left.find(exp.Column)
    if column is None:
        return []
    return [_Bound(_normalized(left), op, _normalized(right), column.name, node)]


def _window_difference(
    candidate_ast: exp.Expr | None, reference_ast: exp.Expr | None
) -> str | None:
    """A sentence naming the range comparisons that differ, or None if they agree."""
    if candidate_ast is None or reference_ast is None:
        return None
    ref_bounds, cand_bounds = _bounds(reference_ast), _bounds(candidate_ast)
    ref_keys = Counter((b.subject, b.op, b.bound) for b in ref_bounds)
    cand_keys = Counter((b.subject, b.op, b.bound) for b in cand_bounds)
    if ref_keys == cand_keys:
        return None
    differing = (ref_keys - cand_keys) + (cand_keys - ref_keys)
    subjects = {s for s, _, _ in differing}
    columns = sorted({b.column for b in ref_bounds + cand_bounds if b.subject in subjects})

    def spelled(bounds: list[_Bound]) -> str:
        nodes: dict[int, exp.Expr] = {}
        for b in bounds:
            if b.subject in subjects:
                nodes.setdefault(id(b.node), b.node)
        if not nodes:
            return f"no bound on {' or '.join(columns)}"
        return " AND ".join(n.sql(dialect="duckdb") for n in nodes.values())

    sides = f"reference: {spelled(ref_bounds)}; candidate: {spelled(cand_bounds)}"
    if len(columns) == 1:
        return f"The two queries bound {columns[0]} differently ({sides})"
    return f"The two queries filter on different ranges ({sides})"


# -- rule 5: same keys, different values -----------------------------------------------


def _pairs(view: _View, reference_ast: exp.Expr | None) -> tuple[list[tuple[int, int]], list[int]]:
    """Missing and extra rows (by index) that share a key, and the key (reference columns)."""
    if view.column_map is None or not view.missing or not view.extra:
        return [], []
    for key in _key_candidates(view, reference_ast):
        missing_by = _by_key(view.missing, key)
        extra_by = _by_key(view.extra, key)
        if missing_by is None or extra_by is None:
            continue
        pairs = [(m, extra_by[k]) for k, m in missing_by.items() if k in extra_by]
        if pairs:
            return pairs, key
    return [], []


def _by_key(rows: Sequence[Row], key: Sequence[int]) -> dict[Key, int] | None:
    by: dict[Key, int] = {}
    for i, row in enumerate(rows):
        k = _canon_row(row, key)
        if k in by:
            return None  # the key does not identify these rows
        by[k] = i
    return by


def _key_candidates(view: _View, reference_ast: exp.Expr | None) -> list[list[int]]:
    width = len(view.names)

    def unique_in_both(cols: list[int]) -> bool:
        return _unique(view.ref_rows, cols) and _unique(view.cand_rows, cols)

    found: list[list[int]] = []
    groups = _grouping(reference_ast)
    if groups is not None and reference_ast is not None:
        key = _output_columns(reference_ast, groups)
        if key and len(key) < width:
            found.extend(key[:n] for n in range(1, len(key)) if unique_in_both(key[:n]))
            found.append(key)
    for c in range(width):
        same_values = {_canon_row(r, [c]) for r in view.ref_rows} == {
            _canon_row(r, [c]) for r in view.cand_rows
        }
        if same_values and unique_in_both([c]):
            found.append([c])
    found.extend(list(range(n)) for n in range(2, width) if unique_in_both(list(range(n))))
    found.extend([c for c in range(width) if c != skip] for skip in reversed(range(width)))
    unique: list[list[int]] = []
    for key in found:
        if key and len(key) < width and key not in unique:
            unique.append(key)
    return unique


def _swapped_columns(
    view: _View,
    pairs: list[tuple[int, int]],
    key: list[int],
    candidate_ast: exp.Expr | None,
    reference_ast: exp.Expr | None,
) -> str | None:
    """Name the columns the candidate projects in place of the reference's, if that is all.

    Rows pair up by key and every differing value sits in an output column
    that is a plain column in both queries, but a different one
    (``p.category`` where the reference asks for ``p.name``): a projection error.
    """
    if view.column_map is None or not isinstance(candidate_ast, exp.Select):
        return None
    if not isinstance(reference_ast, exp.Select):
        return None
    cand_sel, ref_sel = candidate_ast.selects, reference_ast.selects
    differing = {
        c
        for mi, ei in pairs
        for c in range(len(view.names))
        if c not in key
        and canonical_value(view.missing[mi][c]) != canonical_value(view.extra[ei][c])
    }
    if not differing:
        return None
    clauses = []
    for c in sorted(differing):
        j = view.column_map[c]
        if c >= len(ref_sel) or j >= len(cand_sel):
            return None
        ref_expr, cand_expr = ref_sel[c].unalias(), cand_sel[j].unalias()
        if not (isinstance(ref_expr, exp.Column) and isinstance(cand_expr, exp.Column)):
            return None
        if _normalized(ref_expr) == _normalized(cand_expr):
            return None
        clauses.append(f"{cand_expr.sql()} where the reference projects {ref_expr.sql()}")
    return "The candidate projects " + "; ".join(clauses) + "."


def _pairs_detail(view: _View, pairs: list[tuple[int, int]], key: list[int]) -> str:
    clauses = []
    for mi, ei in pairs[:_SHOWN]:
        m, e = view.missing[mi], view.extra[ei]
        differing = [
            c
            for c in range(len(view.names))
            if c not in key and canonical_value(m[c]) != canonical_value(e[c])
        ] or [c for c in range(len(view.names)) if c not in key]
        clauses.append(
            f"for {_key_text(view.names, m, key)} the reference has "
            f"{format_row(view.names, m, differing)} and the candidate has "
            f"{format_row(view.names, e, differing)}"
        )
    text = "; ".join(clauses)
    text = text[0].upper() + text[1:]
    more = len(pairs) - len(clauses)
    if more:
        text += f"; {more} more {'key differs' if more == 1 else 'keys differ'} the same way"
    return text + "."


# -- rule 6: missing and extra rows ----------------------------------------------------


def _rows_detail(view: _View, missing: Sequence[Row], extra: Sequence[Row]) -> str:
    ref_counts = Counter(_canon_row(r) for r in view.ref_rows)
    cand_counts = Counter(_canon_row(r) for r in view.cand_rows)
    sentences = []
    for rows, names, mine, theirs, side, other in (
        (missing, view.names, ref_counts, cand_counts, "reference", "candidate"),
        (extra, view.extra_names, cand_counts, ref_counts, "candidate", "reference"),
    ):
        if not rows:
            continue
        absent: list[Row] = []
        repeated: dict[Key, Row] = {}
        for row in rows:
            k = _canon_row(row)
            if view.column_map is not None and theirs.get(k, 0) > 0:
                repeated.setdefault(k, row)
            else:
                absent.append(row)
        if len(absent) == 1:
            sentences.append(
                f"The {side} returns ({format_row(names, absent[0])}), "
                f"which is absent from the {other}."
            )
        elif absent:
            sentences.append(
                f"The {side} returns {len(absent)} rows absent from the {other}: "
                f"{_row_list(names, absent)}."
            )
        shown = list(repeated.items())[:_SHOWN]
        for k, row in shown:
            sentences.append(
                f"The {side} returns the row ({format_row(names, row)}) {_times(mine[k])} "
                f"where the {other} returns it {_times(theirs[k])}."
            )
        if len(repeated) > len(shown):
            sentences.append(f"{len(repeated) - len(shown)} more rows are repeated the same way.")
    return " ".join(sentences)
