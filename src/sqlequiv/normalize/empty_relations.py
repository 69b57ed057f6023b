"""Queries and join sides that return no row on any database (and EXISTS of a query whose
answer does not depend on the database).

Two rewrites, both about a SELECT whose WHERE has a FALSE conjunct (``FALSE`` or an
equality of two different number literals, as Calcite writes ``1 = 0``) and that
does not aggregate without a GROUP BY (an aggregate over no row is still one row):
such a SELECT returns no row on every database.

1. ``empty_outer_sides``: an outer join whose NULL-padded side is such a derived
   table is the other side alone, the derived table's columns being NULL of their
   types. ``A LEFT JOIN (SELECT ... WHERE FALSE) t ON ...`` keeps each row of ``A``
   once, unmatched, padded with NULLs, whatever the ON says; so does a FULL JOIN,
   and a RIGHT JOIN whose left side (the FROM) is the empty one. Calcite's
   PruneEmptyRules write the second form.
2. ``empty_results``: the whole query, when it is such a SELECT, becomes
   ``SELECT NULL, ... WHERE FALSE``: only the number of its columns can tell two
   empty results apart (the comparison does not read column names).

A NATURAL or USING join (whose output merges columns) is left alone, as is a
derived table whose columns are also read by a nested query (the substitution
is made in the SELECT's own scope only).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._aggregates import aggregates
from sqlequiv.normalize._util import (
    conjuncts,
    is_inner_or_left_join,
    outer_join_side,
    output_names,
    own_columns,
    plain_group,
    remove_source,
    reproducible,
    truthy_args,
)

E = TypeVar("E", bound=exp.Expr)


def empty_outer_sides(expression: E) -> E:
    """Drop an outer join's side that is empty on every database.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = sqlglot.parse_one(
        ...     "SELECT a.x, t.y FROM a AS a LEFT JOIN (SELECT b.y FROM b AS b WHERE FALSE) AS t "
        ...     "ON a.x = t.y")
        >>> e = annotate_types(e, schema={"a": {"x": "INT"}, "b": {"y": "INT"}})
        >>> empty_outer_sides(e).sql()
        'SELECT a.x, CAST(NULL AS INT) FROM a AS a'
    """
    for select in list(expression.find_all(exp.Select)):
        joins = select.args.get("joins") or []
        from_ = select.args.get("from_")
        if from_ is None or not joins or truthy_args(from_) != {"this"}:
            continue
        if any(truthy_args(j) - {"this", "on", "side", "kind"} for j in joins):
            continue  # USING, NATURAL, lateral...
        for index, join in enumerate(joins):
            side = outer_join_side(join)
            if side in ("LEFT", "FULL") and _empty(join.this):
                _drop(select, join.this)
                break
            if index == 0 and side in ("RIGHT", "FULL") and _empty(from_.this):
                _drop(select, from_.this)
                break
    return expression


def empty_results(expression: E) -> E:
    """Write a query that returns no row on any database as ``SELECT NULL, ... WHERE FALSE``.

    Example:
        >>> import sqlglot
        >>> empty_results(sqlglot.parse_one("SELECT a.x AS x FROM a AS a WHERE 1 = 0")).sql()
        'SELECT NULL WHERE FALSE'
    """
    if not isinstance(expression, exp.Select) or not is_empty_select(expression):
        return expression
    if any(isinstance(p, exp.Star) for p in expression.expressions):
        return expression
    # The whole query: its column names are not compared, only how many there are.
    empty = exp.select(*(exp.Null() for _ in expression.expressions)).where(exp.false())
    return empty  # type: ignore[return-value]


def is_empty_select(select: exp.Select) -> bool:
    """Whether ``select`` returns no row on any database (see the module's docstring;
    a FALSE conjunct of its QUALIFY will do too)."""
    qualify = select.args.get("qualify")
    if qualify is not None and any(_false(c) for c in conjuncts(qualify.this)):
        return True  # QUALIFY filters last, after any aggregate
    where = select.args.get("where")
    if where is None or not any(_false(c) for c in conjuncts(where.this)):
        return False
    if select.args.get("group") is not None:
        # ROLLUP, CUBE, GROUPING SETS and GROUP BY () have a grand total: a row over no row.
        return plain_group(select) is not None
    return aggregates(select) == []


def _empty(source: exp.Expr) -> bool:
    return (
        isinstance(source, exp.Subquery)
        and isinstance(source.this, exp.Select)
        and bool(source.alias)
        and is_empty_select(source.this)
    )


def _false(condition: exp.Expr) -> bool:
    if isinstance(condition, exp.Boolean):
        return condition.this is False
    if isinstance(condition, exp.EQ):
        left, right = condition.this, condition.expression
        return (
            isinstance(left, exp.Literal)
            and isinstance(right, exp.Literal)
            and not left.is_string
            and not right.is_string
            and left.to_py() != right.to_py()
        )
    return False


def _drop(select: exp.Select, source: exp.Subquery) -> None:
    """Remove ``source`` from ``select``, its columns read as NULLs of their types."""
    alias = source.alias
    mine = [c for c in own_columns(select, source) if c.table == alias]
    others = [c for c in select.find_all(exp.Column) if c.table == alias]
    if len(others) != len(mine):
        return  # read from a nested query too
    types = [c.type for c in mine]
    if any(t is None or t.is_type("unknown") for t in types):
        return
    remove_source(select, source)
    for column, data_type in zip(mine, types, strict=True):
        assert data_type is not None
        column.replace(exp.Cast(this=exp.Null(), to=data_type.copy()))


def constant_exists(expression: E) -> E:
    """``EXISTS`` of a query whose row count the schema does not matter to, as a constant.

    First, ``(SELECT 1 FROM ... LIMIT 1) IS NOT NULL`` becomes the EXISTS it spells.

    ``EXISTS`` of a SELECT that returns no row on any database (see
    :func:`is_empty_select`) is FALSE; ``EXISTS`` of a SELECT that aggregates without a
    GROUP BY, HAVING, QUALIFY, LIMIT or OFFSET is TRUE: such a SELECT returns one row
    even over no row (``SELECT COUNT(*) FROM t WHERE ...``), whatever it correlates with.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT a.x FROM a AS a WHERE EXISTS "
        ...                       "(SELECT COUNT(*) FROM b AS b WHERE b.y = a.x)")
        >>> constant_exists(e).sql()
        'SELECT a.x FROM a AS a'
    """
    for test in reversed(list(expression.find_all(exp.Is))):
        _first_row_test(test)
    for node in reversed(list(expression.find_all(exp.Exists))):
        query = node.this
        if not isinstance(query, exp.Select) or truthy_args(node) != {"this"}:
            continue
        if is_empty_select(query):
            _fold(node, False)
        elif _one_row(query):
            _fold(node, True)
    return expression


def _fold(node: exp.Expr, value: bool) -> None:
    """Replace ``node`` by the constant ``value`` and fold it into what it is part of:
    NOT, AND and OR (a TRUE conjunct or FALSE disjunct goes, a FALSE conjunct or TRUE
    disjunct is the whole), and a WHERE of TRUE (dropped)."""
    constant: exp.Expr = exp.Boolean(this=value)
    node.replace(constant)
    while True:
        parent = constant.parent
        if isinstance(parent, exp.Paren | exp.Not):
            value = value if isinstance(parent, exp.Paren) else not value
            constant = exp.Boolean(this=value)
            parent.replace(constant)
        elif isinstance(parent, exp.And | exp.Or) and value == isinstance(parent, exp.And):
            other = parent.expression if parent.this is constant else parent.this
            parent.replace(other)  # the neutral element goes
            return
        elif isinstance(parent, exp.And | exp.Or):
            constant = exp.Boolean(this=value)  # the absorbing one takes the whole
            parent.replace(constant)
        elif isinstance(parent, exp.Where) and value and isinstance(parent.parent, exp.Select):
            parent.parent.set("where", None)
            return
        else:
            return


def _first_row_test(test: exp.Is) -> None:
    """``(SELECT 1 FROM ... LIMIT 1) IS [NOT] NULL`` is ``[NOT] NOT EXISTS (SELECT 1 FROM ...)``:
    the scalar subquery is the constant when a row exists, else NULL (its LIMIT 1 keeps
    it from having two rows)."""
    query = test.this
    if not isinstance(query, exp.Subquery) or not isinstance(test.expression, exp.Null):
        return
    select = query.this
    if not isinstance(select, exp.Select) or truthy_args(query) != {"this"}:
        return
    if truthy_args(select) - {"expressions", "from_", "joins", "where", "limit"}:
        return
    limit = select.args.get("limit")
    value = limit.expression if isinstance(limit, exp.Limit) else None
    if not (isinstance(value, exp.Literal) and value.is_int and int(value.name) == 1):
        return
    if len(select.expressions) != 1 or aggregates(select) != []:
        return
    constant = select.expressions[0].unalias()
    if not (isinstance(constant, exp.Literal | exp.Boolean)):
        return
    body = select.copy()
    body.set("limit", None)
    test.replace(exp.Not(this=exp.Exists(this=body)))


def _one_row(select: exp.Select) -> bool:
    if truthy_args(select) & {"group", "having", "qualify", "limit", "offset", "windows"}:
        return False
    found = aggregates(select)
    return bool(found) and not any(isinstance(a, exp.Window) for a in select.find_all(exp.Window))


def empty_set_operations(expression: E) -> E:
    """Write a SELECT reading an empty derived table, and an EXCEPT or INTERSECT that
    returns no row on any database, as an empty SELECT.

    Calcite's PruneEmptyRules and rewrites such as ``q EXCEPT ALL q`` leave these:

    - a SELECT whose FROM, or a source it joins by an inner join, is a derived table
      that returns no row (all its joins inner or LEFT, so none pads the empty side's
      partner back in) returns no row: it gets a FALSE conjunct (then it is empty in the
      sense above, unless it aggregates without a GROUP BY);
    - ``e EXCEPT [ALL] x`` and ``e INTERSECT [ALL] x`` with an empty ``e``, and
      ``x INTERSECT [ALL] e``, return no row; so does ``q EXCEPT [ALL] q``, for two
      operands written alike that return the same rows each time they run (no volatile
      call, LIMIT, window or order-dependent aggregate: ``_util.reproducible``), so that
      each row of the one is matched by the same row of the other.

    The empty result keeps the left operand's column names (a set operation takes its
    names from its first operand), but for the whole query (see :func:`empty_results`).

    Example:
        >>> import sqlglot
        >>> q = "SELECT a.x FROM (SELECT b.x FROM b AS b EXCEPT ALL SELECT b.x FROM b AS b) AS a"
        >>> empty_set_operations(sqlglot.parse_one(q)).sql()
        'SELECT a.x FROM (SELECT NULL AS x WHERE FALSE) AS a WHERE FALSE'
    """
    for node in reversed(list(expression.find_all(exp.Select, exp.Except, exp.Intersect))):
        if isinstance(node, exp.Select):
            if _reads_empty(node) and not is_empty_select(node):
                node.where(exp.false(), copy=False)
            continue
        if truthy_args(node) - {"this", "expression", "distinct"}:
            continue  # ORDER BY or LIMIT on the operation
        left, right = _operand(node.this), _operand(node.expression)
        empty = _is_empty(left) or (isinstance(node, exp.Intersect) and _is_empty(right))
        if isinstance(node, exp.Except) and not empty:
            empty = left.sql() == right.sql() and reproducible(left)
        names = output_names(left)
        if not empty or names is None or any(not name for name in names):
            continue
        replacement = exp.select(*(exp.alias_(exp.Null(), n) for n in names)).where(exp.false())
        if node is expression:
            return empty_results(replacement)  # type: ignore[return-value]
        node.replace(replacement)
    return expression


def _operand(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Subquery) and truthy_args(node) == {"this"}:
        node = node.this
    return node


def _is_empty(node: exp.Expr) -> bool:
    return isinstance(node, exp.Select) and is_empty_select(node)


def _reads_empty(select: exp.Select) -> bool:
    """Whether ``select`` reads an empty derived table in its FROM or by an inner join,
    all its joins being inner or LEFT joins."""
    from_ = select.args.get("from_")
    if from_ is None or truthy_args(from_) != {"this"} or select.args.get("laterals"):
        return False
    joins = select.args.get("joins") or []
    if any(not is_inner_or_left_join(join) for join in joins):
        return False
    sources = [from_.this, *(j.this for j in joins if outer_join_side(j) is None)]
    return any(_empty(s) for s in sources)


#: Aggregates whose value over no row is NULL (COUNT's is 0).
_NULL_OVER_NOTHING: tuple[type[exp.Expr], ...] = (exp.Sum, exp.Avg, exp.Min, exp.Max)
_AGGREGATES_OVER_NOTHING: tuple[type[exp.Expr], ...] = (exp.Count, *_NULL_OVER_NOTHING)


def aggregates_over_nothing(expression: E) -> E:
    """Write a whole query of aggregates without GROUP BY over no row as its one row.

    ``SELECT COUNT(*), SUM(t.x) FROM t AS t WHERE FALSE`` returns the one row ``(0,
    NULL)`` on every database: an aggregate without GROUP BY returns one row even over no
    row, where ``COUNT`` is 0 and ``SUM``, ``AVG``, ``MIN`` and ``MAX`` (with or without
    DISTINCT or a FILTER) are NULL. The query becomes ``SELECT 0, NULL`` (one row, from no
    table), each constant cast to the type of the aggregate it stands for;
    ``COALESCE(<aggregate>, d)`` becomes ``d``, cast to the COALESCE's type.

    Only the whole query, each of whose columns is one such aggregate or COALESCE of one
    and a literal, with no HAVING, window, QUALIFY, ORDER BY or LIMIT, is rewritten: its
    columns are then read by nothing but the comparison of results, which compares values.
    Elsewhere a constant could compare otherwise (in SQLite a CAST has an affinity an
    aggregate has not) or combine to another type. Aggregates of unknown type are left
    alone.

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> q = "SELECT COALESCE(SUM(t.x), 0), COUNT(*) FROM t AS t WHERE 1 = 0"
        >>> tree = annotate_types(sqlglot.parse_one(q), schema={"t": {"x": "INT"}})
        >>> aggregates_over_nothing(tree).sql()
        'SELECT CAST(0 AS BIGINT), CAST(0 AS BIGINT)'
    """
    select = expression
    if not isinstance(select, exp.Select):
        return expression
    if truthy_args(select) - {"expressions", "from_", "joins", "where"}:
        return expression
    if not _over_nothing(select):
        return expression
    found: list[exp.Expr] = []
    for projection in select.expressions:
        value: exp.Expr = projection.unalias()
        if isinstance(value, exp.Coalesce) and all(
            isinstance(a, exp.Literal | exp.Null) for a in value.expressions
        ):
            value = value.this
        if isinstance(value, exp.Filter):
            value = value.this
        if not isinstance(value, _AGGREGATES_OVER_NOTHING) or _unknown_type(value):
            return expression
        if value.find(exp.Window, exp.Subquery):
            return expression
        if any(c.find_ancestor(exp.AggFunc) is not value for c in value.find_all(exp.Column)):
            return expression
        found.append(value)
    for aggregate in found:
        constant = exp.Literal.number(0) if isinstance(aggregate, exp.Count) else exp.Null()
        call = aggregate.parent if isinstance(aggregate.parent, exp.Filter) else aggregate
        call.replace(exp.cast(constant, aggregate.type or "UNKNOWN", copy=False))
    for coalesce in list(select.find_all(exp.Coalesce)):
        _fold_coalesce(coalesce)
    for clause in ("from_", "joins", "where"):
        select.set(clause, None)
    return expression


def _over_nothing(select: exp.Select) -> bool:
    where = select.args.get("where")
    return where is not None and any(_false(c) for c in conjuncts(where.this))


def _unknown_type(node: exp.Expr) -> bool:
    return node.type is None or node.type.is_type(exp.DataType.Type.UNKNOWN, exp.DataType.Type.NULL)


def _fold_coalesce(coalesce: exp.Coalesce) -> None:
    """``COALESCE(NULL, x)`` as ``x``, cast to the COALESCE's type."""
    arguments = [coalesce.this, *coalesce.expressions]
    while len(arguments) > 1 and _is_null(arguments[0]):
        arguments.pop(0)
    if len(arguments) == 1 and coalesce.type is not None and not _unknown_type(coalesce):
        coalesce.replace(exp.cast(arguments[0], coalesce.type))


def _is_null(node: exp.Expr) -> bool:
    """NULL, or a CAST of NULL."""
    if isinstance(node, exp.Cast):
        node = node.this
    return isinstance(node, exp.Null)
