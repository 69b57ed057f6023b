"""Drop the quotes of identifiers that mean the same without them.

``"orders"."order_id"`` and MySQL's `` `orders`.`order_id` `` become
``orders.order_id``.

Why this is sound: qualification resolved every name against the schema,
whose names are lower case, and the canonical SQL is read by DuckDB, where a
quoted lower-case identifier made of letters, digits and underscores denotes
the same object as the unquoted one. The SQL generator quotes reserved words
again by itself. Identifiers with other characters, or with capitals, keep
their quotes.
"""

from __future__ import annotations

import re
from typing import TypeVar

from sqlglot import exp

E = TypeVar("E", bound=exp.Expr)

_PLAIN = re.compile(r"^[a-z_][a-z0-9_]*$")


def unquote_identifiers(expression: E) -> E:
    """Unquote lower-case identifiers that need no quotes.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT `o`.`order_id` FROM `orders` AS `o`", read="mysql")
        >>> unquote_identifiers(e).sql()
        'SELECT o.order_id FROM orders AS o'
    """
    for identifier in expression.find_all(exp.Identifier):
        if identifier.quoted and _PLAIN.match(identifier.name):
            identifier.set("quoted", False)
    return expression
