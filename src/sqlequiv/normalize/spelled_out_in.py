"""The three-valued IN that Calcite's decorrelation spells out, read back as IN.

Calcite writes ``x IN (SELECT e FROM s WHERE w)`` as a cross join with ``(SELECT
COUNT(*) AS c, COUNT(e) AS ck FROM s WHERE w)``, a LEFT JOIN to ``(SELECT e, TRUE AS i
FROM s WHERE w GROUP BY e, TRUE)`` on ``x = e``, and the CASE::

    CASE WHEN c = 0 THEN FALSE WHEN x IS NULL THEN NULL WHEN i IS NOT NULL THEN TRUE
         WHEN ck < c THEN NULL ELSE FALSE END

``scalar_derived_tables`` reads ``c`` and ``ck`` back as scalar subqueries and
``left_join_semijoin`` the test of ``i`` as ``EXISTS (SELECT 1 FROM s WHERE w AND x =
e)``. This rule writes the CASE that is left as ``x IN (SELECT e FROM s WHERE w)``.

Why this is sound. The CASE is SQL's definition of ``x IN q`` for a query ``q`` of the
rows ``e`` of ``s`` that pass ``w``: FALSE when ``q`` has no row (whatever ``x``); NULL
when ``x`` is NULL (and ``q`` has a row); TRUE when a row has ``x = e`` TRUE; NULL when
none does but an ``e`` is NULL (fewer non-NULL ``e`` than rows), which makes ``x = e``
UNKNOWN; FALSE otherwise. The ``x IS NULL`` branch may be missing only where ``x`` is a
column declared NOT NULL that no outer join pads. The three subqueries must read the
same source (one table or derived table, under any name) with the same conditions, and
the EXISTS must add exactly ``x = e``, with the ``e`` that is counted: then they are
``q``'s row count, its non-NULL count and its match test.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import not_null_column, schema_source
from sqlequiv.normalize._util import conjuncts, is_deterministic, reverse_preorder, truthy_args
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

#: The name every source alias is read under when two bodies are compared.
_PLACEHOLDER = "__source__"

#: A body: the source's text and its conditions' texts, with the alias renamed.
Body = tuple[str, frozenset[str]]


def spelled_out_in(expression: E, *, schema: Schema) -> E:
    """Write each CASE that spells out a three-valued IN as that IN.

    Example:
        >>> import sqlglot
        >>> from sqlequiv.schema.model import Schema
        >>> q = ("SELECT CASE WHEN (SELECT COUNT(*) FROM s AS a WHERE a.y > 1) = 0 THEN FALSE "
        ...      "WHEN t.x IS NULL THEN NULL WHEN EXISTS(SELECT 1 FROM s AS b WHERE b.y > 1 "
        ...      "AND t.x = b.e) THEN TRUE WHEN (SELECT COUNT(a.e) FROM s AS a WHERE a.y > 1) "
        ...      "< (SELECT COUNT(*) FROM s AS a WHERE a.y > 1) THEN NULL ELSE FALSE END FROM t")
        >>> spelled_out_in(sqlglot.parse_one(q), schema=Schema(())).sql()
        'SELECT t.x IN (SELECT a.e FROM s AS a WHERE a.y > 1) FROM t'
    """
    for node in reverse_preorder(expression):
        if isinstance(node, exp.Case) and node.args.get("this") is None:
            found = _spelled_in(node, schema)
            if found is not None:
                node.replace(found)
    return expression


def _spelled_in(case: exp.Case, schema: Schema) -> exp.In | None:
    branches = list(case.args.get("ifs") or [])
    if not _is_bool(case.args.get("default"), False) or len(branches) not in (3, 4):
        return None
    if not all(isinstance(b, exp.If) for b in branches):
        return None
    empty, *middle, nulls = branches
    # WHEN COUNT(*) = 0 THEN FALSE
    rows = _compared_with_zero(empty.this)
    if rows is None or not _is_bool(empty.args.get("true"), False):
        return None
    # [WHEN x IS NULL THEN NULL] WHEN EXISTS (... AND x = e) THEN TRUE
    probe: exp.Expr | None = None
    if len(middle) == 2:
        test = middle[0].this
        if not (isinstance(test, exp.Is) and isinstance(test.expression, exp.Null)):
            return None
        if not isinstance(middle[0].args.get("true"), exp.Null):
            return None
        probe = test.this
    match = middle[-1]
    if not isinstance(match.this, exp.Exists) or not _is_bool(match.args.get("true"), True):
        return None
    # WHEN COUNT(e) < COUNT(*) THEN NULL
    if not isinstance(nulls.args.get("true"), exp.Null):
        return None
    counts = _fewer(nulls.this)
    if counts is None:
        return None
    counted, total = counts
    body = _body(rows)
    if body is None or _body(total) != body or _body(counted) != body:
        return None
    element = _counted(counted)
    if element is None:
        return None
    x = _matched(match.this, body, _renamed(element, _source(counted).alias))  # type: ignore[union-attr]
    if x is None or not is_deterministic(x):
        return None
    if probe is not None and probe != x:
        return None
    if probe is None and not _never_null(x, schema):
        return None
    query = counted.copy()
    query.set("expressions", [_counted(query).copy()])  # type: ignore[union-attr]
    return exp.In(this=x.copy(), query=exp.Subquery(this=query))


def _is_bool(node: object, value: bool) -> bool:
    return isinstance(node, exp.Boolean) and node.this is value


def _compared_with_zero(condition: exp.Expr) -> exp.Select | None:
    """The query ``q`` of ``(q) = 0`` (either way round)."""
    if not isinstance(condition, exp.EQ):
        return None
    for side, other in ((condition.this, condition.expression),
                        (condition.expression, condition.this)):  # fmt: skip
        if isinstance(other, exp.Literal) and other == exp.Literal.number(0):
            query = _scalar(side)
            if query is not None and isinstance(_count_of(query), exp.Star):
                return query
    return None


def _fewer(condition: exp.Expr) -> tuple[exp.Select, exp.Select] | None:
    """``(COUNT(e) query, COUNT(*) query)`` of ``COUNT(e) < COUNT(*)`` either way round."""
    if isinstance(condition, exp.LT):
        small, large = condition.this, condition.expression
    elif isinstance(condition, exp.GT):
        small, large = condition.expression, condition.this
    else:
        return None
    counted, total = _scalar(small), _scalar(large)
    if counted is None or total is None or not isinstance(_count_of(total), exp.Star):
        return None
    return counted, total


def _scalar(node: exp.Expr) -> exp.Select | None:
    """The query of a scalar subquery ``(SELECT COUNT(..) FROM one source WHERE ...)``."""
    if not isinstance(node, exp.Subquery) or node.args.get("alias"):
        return None
    query = node.this
    if not isinstance(query, exp.Select) or truthy_args(query) - {"expressions", "from_", "where"}:
        return None
    if len(query.expressions) != 1 or _count_of(query) is None or _source(query) is None:
        return None
    return query


def _count_of(query: exp.Select) -> exp.Expr | None:
    """What ``query``'s one projection counts: ``*`` or an expression."""
    count = query.expressions[0].unalias()
    if not isinstance(count, exp.Count) or count.expressions:
        return None
    counted = count.this
    if isinstance(counted, exp.Distinct) or not isinstance(counted, exp.Expr):
        return None
    return counted


def _counted(query: exp.Select) -> exp.Expr | None:
    counted = _count_of(query)
    return None if counted is None or isinstance(counted, exp.Star) else counted


def _source(query: exp.Select) -> exp.Expr | None:
    from_ = query.args.get("from_")
    if from_ is None or query.args.get("joins") or query.args.get("laterals"):
        return None
    source = from_.this
    if not isinstance(source, exp.Table | exp.Subquery) or not source.alias:
        return None
    return source


def _renamed(node: exp.Expr, alias: str) -> str:
    """``node``'s text with the columns of ``alias`` read under the placeholder."""
    copy = node.copy()
    for column in copy.find_all(exp.Column):
        if column.table == alias:
            column.set("table", exp.to_identifier(_PLACEHOLDER))
    return copy.sql()


def _source_text(source: exp.Expr) -> str:
    copy = source.copy()
    copy.set("alias", None)
    return copy.sql()


def _body(query: exp.Select) -> Body | None:
    source = _source(query)
    if source is None:
        return None
    alias = source.alias
    where = query.args.get("where")
    parts = conjuncts(where.this) if where is not None else []
    return _source_text(source), frozenset(_renamed(p, alias) for p in parts)


def _matched(exists: exp.Exists, body: Body, wanted: str) -> exp.Expr | None:
    """The ``x`` of ``EXISTS (SELECT .. FROM s WHERE w AND x = e)`` over ``body``, where
    ``wanted`` is the text of ``e`` with its source renamed as :func:`_renamed` does."""
    query = exists.this
    if not isinstance(query, exp.Select) or truthy_args(query) - {"expressions", "from_", "where"}:
        return None
    source = _source(query)
    where = query.args.get("where")
    if source is None or where is None:
        return None
    alias = source.alias
    parts = conjuncts(where.this)
    for i, part in enumerate(parts):
        if not isinstance(part, exp.EQ):
            continue
        sides: tuple[tuple[exp.Expr, exp.Expr], ...] = (
            (part.expression, part.this),
            (part.this, part.expression),
        )
        for mine, other in sides:
            if any(c.table == alias for c in other.find_all(exp.Column)):
                continue
            if _renamed(mine, alias) != wanted:
                continue
            rest = frozenset(_renamed(p, alias) for j, p in enumerate(parts) if j != i)
            if (_source_text(source), rest) == body:
                return other
    return None


def _never_null(x: exp.Expr, schema: Schema) -> bool:
    if not isinstance(x, exp.Column) or not x.table:
        return False
    table = schema_source(x, x.table, schema)
    return table is not None and x.name in table.column_names and not_null_column(table, x.name)
