"""The values the stages pass each other: a query's rows, the reference's sort keys, and
the outcome of comparing two results.

They live below the executors (which return :class:`ResultSet`) and the comparison
(which returns :class:`Comparison`), so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlglot import exp


@dataclass(frozen=True)
class ResultSet:
    """The rows a query returned, as DuckDB's Python API returns them.

    Example:
        >>> import duckdb
        >>> cur = duckdb.connect().execute("SELECT 1 AS a, 'x' AS b")
        >>> ResultSet(tuple(d[0] for d in cur.description), tuple(cur.fetchall()))
        ResultSet(columns=('a', 'b'), rows=((1, 'x'),))
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class OrderKey:
    """One ORDER BY key of the reference, as an index into its output columns.

    The comparison only needs ``column``: the candidate's key sequence must
    equal the reference's own, which already reflects the direction and
    where NULLs sort. ``descending`` and ``nulls_first`` say how the
    reference sorted, for explanations.

    Example:
        >>> OrderKey(column=1, descending=True, nulls_first=False)
        OrderKey(column=1, descending=True, nulls_first=False)
    """

    column: int
    descending: bool
    nulls_first: bool


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing a candidate's result with the reference's.

    ``column_map[i]`` is the candidate column matched to reference column
    ``i``. When the results are equal (or differ only in order) it is the
    matching that makes them equal. When they differ it is the best alignment
    found for explaining the difference: the columns whose values overlap
    most, keeping positions where that is a tie. It is None when the column
    counts differ, when some reference column has no candidate column of a
    compatible type, or when the comparison is ambiguous.

    ``missing`` and ``extra`` are the bag (or set) differences under
    ``column_map``, both in reference column order; when there is no
    ``column_map`` they are all rows of each side, the candidate's in its own
    column order.
    """

    equal: bool
    reason: str
    column_map: tuple[int, ...] | None
    missing: tuple[tuple[Any, ...], ...]
    extra: tuple[tuple[Any, ...], ...]
    ambiguous: bool = False


# Which output column an ORDER BY key names: one rule for every reader of a query's sort
# keys (the comparison, the batch statement, the tie analysis), with sqlglot alone.
def output_column(key: exp.Expr, selects: list[exp.Expr], *, is_select: bool) -> int | None:
    """The index of the output column the ORDER BY ``key`` names, or None.

    A key names a column when it is an ordinal (``ORDER BY 2``), an output name
    (``ORDER BY total``: an unqualified name binds to the select list first, as in
    DuckDB), or, in a SELECT, an expression identical to a projection.

    Example:
        >>> import sqlglot
        >>> q = sqlglot.parse_one("SELECT a, b + 1 AS total FROM t")
        >>> [output_column(sqlglot.parse_one(k), q.selects, is_select=True)
        ...  for k in ("2", "total", "b + 1", "c")]
        [1, 1, 1, None]
    """
    if isinstance(key, exp.Literal) and key.is_int:
        index = int(key.name) - 1
        return index if 0 <= index < len(selects) else None
    lowered = [s.alias_or_name.lower() for s in selects]
    if isinstance(key, exp.Column) and not key.table and key.name.lower() in lowered:
        return lowered.index(key.name.lower())
    if is_select:
        for i, projection in enumerate(selects):
            if key == projection.unalias() or key.sql() == projection.unalias().sql():
                return i
    return None
