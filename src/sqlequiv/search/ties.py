"""What a LIMIT may return when its ORDER BY leaves rows tied at the cut.

``ORDER BY n DESC LIMIT 1`` over two groups with the same ``n`` may return either:
which tied rows a LIMIT keeps is the engine's choice. A difference between two
results counts only if no such choice, on either side, makes them equal: then the
queries differ under every tie-break. :func:`cut_of` writes the query that shows the
rows around the cut (no LIMIT, the sort keys appended as columns); :func:`outcomes`
lists every result a tie-break can give.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlequiv.results import ResultSet, output_column

#: Tie-break outcomes listed for one side before the side is left undecided.
MAX_OUTCOMES = 64


@dataclass(frozen=True)
class Cut:
    """A query's top-level LIMIT: ``sql`` is the query without it, its sort keys
    appended as ``keys`` extra columns (0 when they cannot be listed: then every row
    is tied with every other)."""

    sql: str
    limit: int
    offset: int
    keys: int


def cut_of(query: exp.Expr, dialect: str) -> Cut | None:
    """The query's constant top-level LIMIT as a :class:`Cut`, or None if it has none.

    Example:
        >>> import sqlglot
        >>> cut = cut_of(sqlglot.parse_one("SELECT a FROM t ORDER BY b DESC LIMIT 2"), "duckdb")
        >>> cut.sql, cut.limit, cut.offset, cut.keys
        ('SELECT a, b AS __sqlequiv_k0 FROM t ORDER BY b DESC', 2, 0, 1)
    """
    limit_node = query.args.get("limit")
    if limit_node is None:
        return None
    try:
        limit = int(limit_node.expression.name)
        offset_node = query.args.get("offset")
        offset = int(offset_node.expression.name) if offset_node is not None else 0
    except (AttributeError, ValueError):
        return None
    body = query.copy()
    body.set("limit", None)
    body.set("offset", None)
    order = body.args.get("order")
    if order is None or not isinstance(body, exp.Select) or body.args.get("distinct"):
        # Without listable sort keys, any result longer than the limit may be cut anywhere.
        return Cut(body.sql(dialect), limit, offset, 0)
    keys = [_resolved(o.this, body.selects) for o in order.expressions]
    body.set(
        "expressions",
        [*body.expressions, *(k.as_(f"__sqlequiv_k{i}") for i, k in enumerate(keys))],
    )
    return Cut(body.sql(dialect), limit, offset, len(keys))


def has_limit(tree: exp.Expr) -> bool:
    """Whether the query's outermost level has a LIMIT or an OFFSET."""
    return bool(tree.args.get("limit") or tree.args.get("offset"))


def tie_broken(
    tree: exp.Expr, width: int, *, descending: bool, dialect: str, first_only: bool = False
) -> str:
    """``tree`` with every output column appended to its ORDER BY (an ORDER BY made if it
    has none), ascending or descending: a query whose order leaves no tie but identical rows.

    ``first_only`` also adds ``LIMIT 1`` when there is no LIMIT: the first row differs
    between the two tie-breaks exactly when the first rows in the gold's order are tied.

    Example:
        >>> import sqlglot
        >>> tie_broken(sqlglot.parse_one("SELECT a, b FROM t ORDER BY b LIMIT 2"), 2,
        ...            descending=True, dialect="sqlite")
        'SELECT a, b FROM t ORDER BY b, 1 DESC, 2 DESC LIMIT 2'
    """
    variant = tree.copy()
    ordered = variant.args.get("order")
    # Ascending with NULLs first, descending with NULLs last: exact reverses of each other
    # (and SQLite's default, so that no NULLS clause is printed there).
    extra = [
        exp.Ordered(this=exp.Literal.number(i), desc=descending, nulls_first=not descending)
        for i in range(1, width + 1)
    ]
    if ordered is None:
        variant.set("order", exp.Order(expressions=extra))
    else:
        ordered.set("expressions", [*ordered.expressions, *extra])
    if first_only and not has_limit(variant):
        variant.set("limit", exp.Limit(expression=exp.Literal.number(1)))
    return variant.sql(dialect=dialect)


def _resolved(key: exp.Expr, selects: list[exp.Expr]) -> exp.Expr:
    """An ORDER BY key as an expression the select list can hold: the projection an
    output alias or position names (SQLite resolves no alias in a select list)."""
    index = output_column(key, selects, is_select=True)
    return (selects[index].unalias() if index is not None else key).copy()


def outcomes(result: ResultSet, full: ResultSet, cut: Cut) -> list[ResultSet] | None:
    """Every result the query may return under some tie-break, ``result`` among them.

    ``full`` is the query's result without its LIMIT (:attr:`Cut.sql`). Returns
    ``[result]`` when the cut goes through no tie, None when there are more than
    :data:`MAX_OUTCOMES` outcomes.

    Example:
        >>> full = ResultSet(("n", "k"), (("a", 3), ("b", 3), ("c", 1)))
        >>> cut = Cut("", limit=1, offset=0, keys=1)
        >>> [o.rows for o in outcomes(ResultSet(("n",), (("a",),)), full, cut)]
        [(('a',),), (('b',),)]
        >>> outcomes(ResultSet(("n",), (("a",), ("b",))), full, Cut("", 2, 0, 1))[0].rows
        (('a',), ('b',))
    """
    width = len(full.columns) - cut.keys
    if width <= 0 and cut.keys:
        return None
    rows = full.rows
    start, stop = min(cut.offset, len(rows)), min(cut.offset + cut.limit, len(rows))
    groups = _groups(rows, width, cut.keys)
    fixed: list[list[tuple[Any, ...]]] = []
    choices: list[list[tuple[tuple[Any, ...], ...]]] = []
    total = 1
    for first, last in groups:
        taken = max(0, min(last, stop) - max(first, start))
        members = [r[:width] for r in rows[first:last]]
        if taken == 0:
            continue
        if taken == last - first:
            fixed.append(members)
            choices.append([tuple(members)])
            continue
        total *= math.comb(last - first, taken)
        if total > MAX_OUTCOMES:
            return None
        choices.append([tuple(c) for c in itertools.combinations(members, taken)])
    if total == 1:
        return [result]
    return [
        ResultSet(result.columns, tuple(row for part in pick for row in part))
        for pick in itertools.product(*choices)
    ]


def _groups(rows: tuple[tuple[Any, ...], ...], width: int, keys: int) -> list[tuple[int, int]]:
    """``[first, last)`` row ranges of equal sort keys (all rows one range without keys)."""
    if not keys:
        return [(0, len(rows))] if rows else []
    out: list[tuple[int, int]] = []
    first = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or _loose(rows[i][width:]) != _loose(rows[first][width:]):
            out.append((first, i))
            first = i
    return out


def _loose(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """Sort keys as the loosest engine collation could see them: text that differs
    only in case or trailing spaces may tie (NOCASE, RTRIM), so it counts as tied."""
    return tuple(
        v.casefold().rstrip() if isinstance(v, str) else float(v) if isinstance(v, int) else v
        for v in key
    )
