"""The values the stages pass each other: a query's rows, the reference's sort keys, and
the outcome of comparing two results.

They live below the executors (which return :class:`ResultSet`) and the comparison
(which returns :class:`Comparison`), so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
