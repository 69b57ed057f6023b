"""Write ``LEFT SEMI JOIN`` and ``LEFT ANTI JOIN`` as ``SEMI JOIN`` and ``ANTI JOIN``.

Spark spells a semi-join ``LEFT SEMI JOIN``; sqlglot reads it as a join with a LEFT side
and a SEMI kind, and writes it for DuckDB as ``SEMI JOIN``, which DuckDB reads without a
side. The two trees are one join (DuckDB has no other), so the canonical form keeps the
one its own text reads back as: the rendering must picture the tree exactly.

``LEFT OUTER JOIN`` is ``LEFT JOIN`` (likewise RIGHT and FULL): OUTER is a noise word the
standard allows, and the canonical form drops it.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)


def semi_join_sides(expression: E) -> E:
    """Drop the LEFT side of SEMI and ANTI joins, and the OUTER of outer joins.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT a.x FROM a LEFT ANTI JOIN b ON a.x = b.x", read="spark")
        >>> semi_join_sides(e).args["joins"][0].args.get("side") is None
        True
    """
    for join in expression.find_all(exp.Join):
        kind = (join.args.get("kind") or "").upper()
        side = (join.args.get("side") or "").upper()
        if kind in ("SEMI", "ANTI") and side == "LEFT":
            join.set("side", None)
        elif kind == "OUTER" and side in ("LEFT", "RIGHT", "FULL"):
            join.set("kind", None)
    return expression
