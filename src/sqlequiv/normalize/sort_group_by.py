"""Sort GROUP BY keys by text and drop repeated keys.

Why this is sound: the groups are the classes of rows that agree on every
key, which depends on the *set* of keys, not on their order or repetition.
Only plain key lists are touched (not ROLLUP, CUBE, GROUPING SETS or GROUP BY
ALL, where order or position matters), and only when no key is an ordinal.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import is_deterministic, is_integer_literal, sql_text, truthy_args

E = TypeVar("E", bound=exp.Expr)


def sort_group_by(expression: E) -> E:
    """Canonicalize plain GROUP BY key lists.

    Example:
        >>> import sqlglot
        >>> sort_group_by(sqlglot.parse_one("SELECT 1 FROM t GROUP BY t.b, t.a, t.b")).sql()
        'SELECT 1 FROM t GROUP BY t.a, t.b'
    """
    for group in list(expression.find_all(exp.Group)):
        if truthy_args(group) != {"expressions"} or not isinstance(group.parent, exp.Select):
            continue
        keys: list[exp.Expr] = list(group.expressions)
        if any(is_integer_literal(key) or not is_deterministic(key) for key in keys):
            continue
        unique: dict[str, exp.Expr] = {}
        for key in keys:
            unique.setdefault(sql_text(key), key)
        group.set("expressions", [unique[text] for text in sorted(unique)])
    return expression
