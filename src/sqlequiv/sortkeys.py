"""Which output column an ORDER BY key names.

One rule for every reader of a query's sort keys: the comparison (which keys it checks),
the batch statement (which keys it sorts each database's rows by) and the tie analysis
(which keys a LIMIT cuts through). It lives below all three, with sqlglot alone.
"""

from __future__ import annotations

from sqlglot import exp


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
