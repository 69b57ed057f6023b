"""Drop the branches of a searched CASE whose condition is a constant.

Calcite's simplifier leaves ``CASE WHEN TRUE THEN CAST(deptno AS INTEGER) ELSE NULL END``
in a plan; the query it came from reads ``deptno``. This rule drops a ``WHEN FALSE`` or
``WHEN NULL`` branch, and a ``WHEN TRUE`` branch makes the CASE its value (the branches
after it are never reached).

Why this is sound. A searched CASE returns the value of its first branch whose
condition is TRUE, else its ELSE (NULL without one). A branch whose condition is FALSE
or NULL is never that branch, so it can go; a first branch whose condition is TRUE is
always that branch. A value is computed only when its branch is chosen (DuckDB, SQLite,
MySQL; PostgreSQL may fold a constant one while planning and raise, and a query that
raises has no rows the comparison counts). What changes is the CASE's type, which an
engine unifies over all the values: a value that is dropped must be the NULL literal
(which takes any type) or of the very type of the one that stays.

In SQLite a CASE has no affinity, where a column, a CAST or a subquery has one (and a
column its collation): ``CASE WHEN TRUE THEN x END = '1'`` compares an integer ``x`` with
the text '1', ``x = '1'`` converts '1' to a number first. So the CASE becomes a value of
that kind only in :func:`constant_case_values`, which runs for every engine but SQLite
(``pipeline.prove``); :func:`constant_case_branches`, a rule for all, drops the constant
branches and makes a CASE any other value (a literal, an arithmetic or a call, which
have no affinity either).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._util import reverse_preorder

E = TypeVar("E", bound=exp.Expr)


def constant_case_branches(expression: E) -> E:
    """Fold the constant conditions of each searched CASE.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = annotate_types(sqlglot.parse_one(
        ...     "SELECT CASE WHEN FALSE THEN NULL WHEN TRUE THEN CAST(a AS INT) + 1 ELSE NULL END, "
        ...     "CASE WHEN FALSE THEN 0 WHEN TRUE THEN CAST(a AS INT) END"))
        >>> constant_case_branches(e).sql()
        'SELECT CAST(a AS INT) + 1, CASE WHEN TRUE THEN CAST(a AS INT) END'
    """
    return _fold_all(expression, any_value=False)


def constant_case_values(expression: E) -> E:
    """:func:`constant_case_branches`, a CASE becoming its value whatever that value is:
    for the engines whose types are the declared ones (every one but SQLite).

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = annotate_types(sqlglot.parse_one(
        ...     "SELECT CASE WHEN TRUE THEN t.a ELSE NULL END FROM t", read="trino"),
        ...     schema={"t": {"a": "INT"}})
        >>> constant_case_values(e).sql()
        'SELECT t.a FROM t'
    """
    return _fold_all(expression, any_value=True)


def _fold_all(expression: E, *, any_value: bool) -> E:
    for node in reverse_preorder(expression):
        if isinstance(node, exp.Case) and node.args.get("this") is None:
            _fold(node, any_value=any_value)
    return expression


def _fold(case: exp.Case, *, any_value: bool) -> None:
    branches = list(case.args.get("ifs") or [])
    if not branches or not all(isinstance(b, exp.If) for b in branches):
        return
    kept = [b for b in branches if not _never(b.this)]
    default = case.args.get("default")
    if kept and _always(kept[0].this):
        chosen: exp.Expr = kept[0].args["true"]
    elif not kept and isinstance(default, exp.Expr):
        chosen = default
    else:
        if len(kept) < len(branches) and kept:
            case.set("ifs", kept)
        return
    values = [b.args["true"] for b in branches] + ([default] if default is not None else [])
    if not any_value and _has_affinity(chosen):
        if len(kept) < len(branches) and kept:
            case.set("ifs", kept)
    elif all(v is chosen or _same_type(v, chosen) for v in values):
        case.replace(chosen)
    elif len(kept) < len(branches) and kept:
        case.set("ifs", kept)


def has_constant_branch(tree: exp.Expr) -> bool:
    """Whether a searched CASE of ``tree`` has a TRUE, FALSE or NULL condition."""
    for node in tree.find_all(exp.Case):
        branches = node.args.get("ifs") or []
        if node.args.get("this") is None and any(
            isinstance(b, exp.If) and (_never(b.this) or _always(b.this)) for b in branches
        ):
            return True
    return False


def _has_affinity(value: exp.Expr) -> bool:
    """Whether SQLite may give ``value`` an affinity (or a collation) a CASE does not have:
    a column, a CAST, a subquery (that of its column), in parentheses or not."""
    while isinstance(value, exp.Paren):
        value = value.this
    return isinstance(value, exp.Column | exp.Cast | exp.Subquery)


def _never(condition: exp.Expr) -> bool:
    return isinstance(condition, exp.Null) or (
        isinstance(condition, exp.Boolean) and condition.this is False
    )


def _always(condition: exp.Expr) -> bool:
    return isinstance(condition, exp.Boolean) and condition.this is True


def _same_type(dropped: exp.Expr, kept: exp.Expr) -> bool:
    """Whether dropping ``dropped`` leaves the CASE's type that of ``kept``."""
    if isinstance(dropped, exp.Null):
        return True
    known = kept.type
    if known is None or known.is_type(exp.DataType.Type.UNKNOWN, exp.DataType.Type.NULL):
        return False
    return dropped.type == known
