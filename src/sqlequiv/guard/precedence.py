"""Operator precedence an engine or a dialect reads differently from sqlglot's tree.

Two cases are known, and each query in one of them must say with parentheses which
reading it means (``ambiguous_precedence``), since a proof or a counterexample about
sqlglot's tree would be about another query than the one its author wrote.

**IS under Trino.** sqlglot's Trino parser reads ``a = b IS TRUE`` as ``a = (b IS TRUE)``; standard
SQL (and Postgres, DuckDB, Calcite) read ``(a = b) IS TRUE``.

**Comparisons under SQLite.** sqlglot parses every dialect with one precedence ladder:
``=`` and ``<>`` loosest, then ``<``, ``<=``, ``>``, ``>=``, then LIKE, GLOB, IN, BETWEEN,
IS tightest. SQLite
has two levels where sqlglot has three: ``<``, ``<=``, ``>``, ``>=`` bind tighter than
everything else, and ``=``, ``<>``, IS, IN, LIKE, GLOB, MATCH, REGEXP and BETWEEN share
one level, read left to right (SQLite's "Operators, and Parse-Affecting Attributes").
So SQLite reads ``a = b LIKE 'x'`` as ``(a = b) LIKE 'x'`` where sqlglot's tree says
``a = (b LIKE 'x')``; a proof or a counterexample about the tree would be about
another query than the one SQLite runs (queries in the ``sqlite`` dialect run there as
written). ``tests/test_precedence.py`` checks the rule against SQLite's own evaluation
for every pair of operators.

Example:
    >>> import sqlglot
    >>> sqlite_misread(sqlglot.parse_one("SELECT a = b LIKE 'x'", read="sqlite"))
    "a = b LIKE 'x'"
    >>> sqlite_misread(sqlglot.parse_one("SELECT (a = b) LIKE 'x'", read="sqlite")) is None
    True
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.errors import SqlglotError

from sqlequiv.errors import QueryError, Side
from sqlequiv.guard.text import _parse_one


def check_precedence(root: exp.Expr, text: str, *, dialect: str, engine: str, side: Side) -> None:
    """Raise ``ambiguous_precedence`` when ``root`` is not what the engine runs for
    ``text``: see the module docstring."""
    _check_is_precedence(root, text, dialect, side)
    if "sqlite" in (dialect.lower(), engine):
        misread = sqlite_misread(root)
        if misread is not None:
            raise QueryError(
                side,
                "ambiguous_precedence",
                f"SQLite reads {misread!r} left to right (=, <>, IS, IN, LIKE, GLOB and "
                "BETWEEN share one precedence, and <, <=, >, >= bind tighter than all of "
                "them), not as written here; add parentheses to say which is meant",
            )


_COMPARISON = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _comparisons_over_is(root: exp.Expr) -> int:
    """How many comparisons have an ``IS`` test as a (parenthesized) operand."""
    count = 0
    for node in root.find_all(*_COMPARISON):
        for side in (node.this, node.expression):
            inner = side.this if isinstance(side, exp.Paren) else side
            inner = inner.this if isinstance(inner, exp.Not) else inner
            if isinstance(inner, exp.Is):
                count += 1
    return count


def _check_is_precedence(root: exp.Expr, text: str, dialect: str, side: Side) -> None:
    """Refuse ``a = b IS TRUE`` where the dialect's parser binds IS tighter than standard SQL.

    Standard SQL (and Postgres, DuckDB, Calcite) read it as ``(a = b) IS TRUE``;
    sqlglot's Trino parser reads ``a = (b IS TRUE)``. Checking either reading
    could judge a pair by semantics its author did not mean, so the query must
    say which with parentheses.
    """
    if dialect in ("duckdb", "postgres") or _comparisons_over_is(root) == 0:
        return
    try:
        standard = _parse_one(text, "postgres", side)
    except (QueryError, SqlglotError, RecursionError, IndexError):
        return
    if _comparisons_over_is(standard) != _comparisons_over_is(root):
        raise QueryError(
            side,
            "ambiguous_precedence",
            f"the {dialect} parser binds IS more tightly than standard SQL in a comparison "
            "such as 'a = b IS TRUE'; add parentheses to say which is meant",
        )



#: SQLite's tighter level of comparisons.
_ORDERING: tuple[type[exp.Expr], ...] = (exp.LT, exp.LTE, exp.GT, exp.GTE)
#: SQLite's looser level, all of one precedence, left-associative.
_EQUALITY: tuple[type[exp.Expr], ...] = (
    exp.EQ,
    exp.NEQ,
    exp.NullSafeEQ,
    exp.NullSafeNEQ,
    exp.Is,
    exp.In,
    exp.Between,
    exp.Like,
    exp.ILike,
    exp.Glob,
    exp.Match,
    exp.RegexpLike,
)
#: Argument names of the operands an operator reads to its right, outside parentheses.
_RIGHT_OPERANDS = ("expression", "low", "high")


def _level(node: exp.Expr) -> int | None:
    """SQLite's precedence level of ``node`` (higher binds tighter), None for others."""
    while isinstance(node, exp.Not | exp.Escape) and isinstance(node.this, exp.Expr):
        # NOT LIKE, NOT IN, NOT BETWEEN and LIKE ... ESCAPE are the operator they wrap.
        if isinstance(node, exp.Not) and not isinstance(node.this, _EQUALITY):
            return None
        node = node.this
    if isinstance(node, _ORDERING):
        return 2
    if isinstance(node, _EQUALITY):
        return 1
    return None


def sqlite_misread(root: exp.Expr) -> str | None:
    """The first operator whose operand SQLite groups differently from ``root``'s tree,
    as SQL text, or None when SQLite reads the tree as it is."""
    for node in root.walk():
        parent = _level(node)
        if parent is None or isinstance(node, exp.Not | exp.Escape):
            continue
        operands = [("this", node.args.get("this"))]
        operands += [(name, node.args.get(name)) for name in _RIGHT_OPERANDS]
        for name, operand in operands:
            if not isinstance(operand, exp.Expr) or isinstance(operand, exp.Paren):
                continue
            child = _level(operand)
            if child is None:
                continue
            # Left to right within a level: a left operand may be as loose as its parent,
            # a right operand must bind strictly tighter.
            if child < parent or (name != "this" and child == parent):
                return node.sql("sqlite")
    return None
