"""A derived table's column that is one constant on every row, read as that constant.

Calcite writes ``SELECT ..., NULL AS u FROM emp UNION ALL SELECT ..., NULL AS u FROM emp``
in a derived table and sums ``t.u`` above it; its aggregate-pushdown rules write
``SUM(NULL) AS s`` in each branch (which ``constant_aggregates`` reads as NULL under a
GROUP BY). This rule reads ``t.u`` (``t.s``) as ``NULL``.

Why this is sound. Every row of the derived table comes from one of its SELECTs (the
branches of a UNION ALL, or the one SELECT), and in each the column is the same literal,
so every row holds it, with the literal's own type (the UNION unifies that one type with
itself). Where an outer join pads the derived table, a padded row holds NULL instead:
only a derived table in the FROM or behind an inner join, in a SELECT without RIGHT or
FULL joins, is read so. Only UNION ALL chains and plain SELECTs (no VALUES, no set operation that is
not UNION ALL), without a star, are read; a reference to the column is replaced in the
SELECT that reads the derived table, when no other source of that SELECT or of a query
nested in it takes the derived table's name, and not where it is a whole GROUP BY or
ORDER BY key (a number there would be read as a column's position).
"""

from __future__ import annotations

from sqlglot import exp

from sqlequiv.normalize._util import from_items, is_inside, union_all_selects

#: The literals a column may hold.
_CONSTANTS: tuple[type[exp.Expr], ...] = (exp.Null, exp.Literal, exp.Boolean)


def read_constant_columns(select: exp.Select) -> None:
    """Replace ``select``'s reads of its derived tables' constant columns by the constant.

    Example:
        >>> import sqlglot
        >>> q = ("SELECT t.a, SUM(t.u) FROM (SELECT s.a AS a, NULL AS u FROM s AS s "
        ...      "UNION ALL SELECT r.a, NULL FROM r AS r) AS t GROUP BY t.a")
        >>> tree = sqlglot.parse_one(q)
        >>> read_constant_columns(tree)
        >>> tree.sql()
        'SELECT t.a, SUM(NULL) FROM (SELECT s.a AS a, NULL AS u FROM s AS s UNION ALL SELECT r.a, NULL FROM r AS r) AS t GROUP BY t.a'
    """  # noqa: E501
    for source in _unpadded_sources(select):
        if not isinstance(source, exp.Subquery) or not source.alias:
            continue
        constants = _constant_columns(source.this)
        if not constants:
            continue
        alias = source.alias
        bound = [n for n in select.find_all(exp.Table, exp.Subquery) if n.alias_or_name == alias]
        if len(bound) != 1:
            continue  # another source of that name would make a reference ambiguous
        for column in list(select.find_all(exp.Column)):
            if column.table != alias or column.name not in constants or column.args.get("db"):
                continue
            if is_inside(column, source) or isinstance(column.parent, exp.Group | exp.Ordered):
                continue  # (a number there would be read as a column's position)
            column.replace(constants[column.name].copy())


def _unpadded_sources(select: exp.Select) -> list[exp.Expr]:
    """The sources of ``select`` that no outer join pads with NULLs: the FROM's, and
    those of inner joins, when no join is a RIGHT or FULL one."""
    joins = select.args.get("joins") or []
    sides = {(j.args.get("side") or "").upper() for j in joins}
    if sides - {"", "LEFT"} or select.args.get("laterals"):
        return []
    sources = from_items(select)[:1]
    return sources + [j.this for j in joins if not j.args.get("side")]


def _constant_columns(query: exp.Expr) -> dict[str, exp.Expr]:
    """The columns of ``query`` that are the same literal in every branch, by name."""
    branches = union_all_selects(query, parenthesised=True)
    if not branches or any(
        isinstance(p.unalias(), exp.Star) for branch in branches for p in branch.expressions
    ):
        return {}
    names = [p.alias_or_name for p in branches[0].expressions]
    if len(set(names)) != len(names) or any(not n for n in names):
        return {}
    found: dict[str, exp.Expr] = {}
    for index, name in enumerate(names):
        values = [b.expressions[index].unalias() if index < len(b.expressions) else None
                  for b in branches]  # fmt: skip
        first = values[0]
        if isinstance(first, _CONSTANTS) and all(v == first for v in values):
            found[name] = first
    return found
