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
``q``'s row count, its non-NULL count and its match test. ``x`` and ``e`` must have one
declared type: SQLite's IN and ``=`` may convert values differently across types. They
are three queries, so ``q`` must return the same rows each time
(``_util.reproducible``: no LIMIT, window or volatile call).
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import not_null_column, schema_source
from sqlequiv.normalize._util import (
    conjuncts,
    is_deterministic,
    outer_join_side,
    plain_group,
    reproducible,
    reverse_preorder,
    same_declared_type,
    truthy_args,
)
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
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> types = {"s": {"y": "INT", "e": "INT"}, "t": {"x": "INT"}}
        >>> tree = annotate_types(sqlglot.parse_one(q), schema=types)
        >>> spelled_out_in(tree, schema=Schema(())).sql()
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
    if not reproducible(rows):
        return None  # the three subqueries must read the same rows
    element = _counted(counted)
    if element is None:
        return None
    x = _matched(match.this, body, _renamed(element, _source(counted).alias))  # type: ignore[union-attr]
    if x is None or not is_deterministic(x) or not same_declared_type(x, element):
        return None  # (SQLite's IN and = may convert across types differently)
    if probe is not None and probe != x:
        return None
    if probe is None and not _never_null(x, schema):
        return None
    query = counted.copy()
    query.set("expressions", [_counted(query).copy()])  # type: ignore[union-attr]
    return exp.In(this=x.copy(), query=exp.Subquery(this=query))


def _is_bool(node: object, value: bool) -> bool:
    return isinstance(node, exp.Boolean) and node.this is value


def _zero_compared(condition: exp.Expr) -> exp.Expr | None:
    """The ``e`` of ``e = 0`` (either way round)."""
    if not isinstance(condition, exp.EQ):
        return None
    sides: tuple[tuple[exp.Expr, exp.Expr], ...] = (
        (condition.this, condition.expression),
        (condition.expression, condition.this),
    )
    for side, other in sides:
        if isinstance(other, exp.Literal) and other == exp.Literal.number(0):
            return side
    return None


def _compared_with_zero(condition: exp.Expr) -> exp.Select | None:
    """The query ``q`` of ``(SELECT COUNT(*) ...) = 0``."""
    side = _zero_compared(condition)
    query = _scalar(side) if side is not None else None
    if query is not None and isinstance(_count_of(query), exp.Star):
        return query
    return None


def _fewer(condition: exp.Expr) -> tuple[exp.Select, exp.Select] | None:
    """``(COUNT(e) query, COUNT(*) query)`` of ``COUNT(e) < COUNT(*)`` either way round."""
    sides = _less_than(condition)
    if sides is None:
        return None
    counted, total = _scalar(sides[0]), _scalar(sides[1])
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
    return _count_arg(query.expressions[0].unalias())


def _count_arg(count: exp.Expr) -> exp.Expr | None:
    """What a ``COUNT`` counts: ``*`` or an expression; None for anything else."""
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


def _never_null(x: exp.Expr, schema: Schema, select: exp.Select | None = None) -> bool:
    """Whether ``x`` is a column declared NOT NULL that no outer join pads: a source of
    the nearest SELECT with its name without outer joins, or the first source of
    ``select`` when all its joins are inner or LEFT joins."""
    if not isinstance(x, exp.Column) or not x.table:
        return False
    if select is not None:
        first = select.args["from_"].this
        sides = {(j.args.get("side") or "").upper() for j in select.args.get("joins") or []}
        if first.alias_or_name == x.table and sides <= {"", "LEFT"}:
            return _table_column_never_null(x, first, schema)
    table = schema_source(x, x.table, schema)
    return table is not None and x.name in table.column_names and not_null_column(table, x.name)


def spelled_out_not_in(expression: E, *, schema: Schema) -> E:
    """Write Calcite's correlated NOT IN filter over per-key counts as ``NOT x IN (...)``.

    Calcite decorrelates ``WHERE x NOT IN (SELECT e FROM s WHERE w AND s.k = o.k)`` into
    a LEFT JOIN to ``(SELECT COUNT(*) AS c, COUNT(e) AS ck, k FROM s WHERE w GROUP BY
    k) t ON o.k = t.k``, a match test ``m`` (an EXISTS once ``left_join_semijoin`` has
    read its LEFT JOIN back) and one of the filters ``t.c = 0 OR (m OR t.ck < t.c) IS
    NOT TRUE`` or ``NOT CASE WHEN t.c = 0 THEN FALSE WHEN m THEN TRUE WHEN t.ck < t.c
    THEN TRUE ELSE FALSE END``.

    Why this is sound. ``t`` groups by exactly the keys its ON equates, so a row meets at
    most one group and the LEFT JOIN keeps each row once. Where a group meets the row,
    ``c`` (at least 1) and ``ck`` count the rows of ``q = SELECT e FROM s WHERE w AND k =
    o.k`` and their non-NULL ``e``, and both filters keep the row exactly when no ``e``
    equals ``x`` and none is NULL. Where none does, ``q`` has no row, ``c`` and ``ck`` are
    NULL, ``m`` is FALSE, and both filters keep the row. That is ``x NOT IN q`` being TRUE,
    given that ``x`` is never NULL (a NULL ``x`` makes NOT IN UNKNOWN over a non-empty
    ``q``; the filters keep it): ``x`` must be a column declared NOT NULL that no outer
    join pads. ``ck`` may be ``COUNT(*)`` only where ``e`` is such a column too. ``m``
    must test exactly ``w``, the key equalities and ``x = e`` over the same source, and
    ``t`` must be read nowhere but in its ON and the filter, which must be a conjunct of
    the WHERE.
    """
    for select in list(expression.find_all(exp.Select)):
        where = select.args.get("where")
        if where is None or not select.args.get("joins"):
            continue
        for part in conjuncts(where.this):
            found = _not_in_filter(select, part, schema)
            if found is not None:
                condition, join = found
                part.replace(condition)
                select.set("joins", [j for j in select.args["joins"] if j is not join] or None)
                break
    return expression


def _not_in_filter(
    select: exp.Select, part: exp.Expr, schema: Schema
) -> tuple[exp.Expr, exp.Join] | None:
    """``(NOT x IN q, the LEFT JOIN to drop)`` for a filter of one of the two forms."""
    form = _counted_filter(part.unnest())
    if form is None:
        return None
    rows, nonnull, match = form
    alias = rows.table
    if not alias or nonnull.table != alias:
        return None
    join = next((j for j in select.args["joins"] if j.alias_or_name == alias), None)
    if join is None or outer_join_side(join) != "LEFT" or not isinstance(join.this, exp.Subquery):
        return None
    counts = _per_key_counts(join.this)
    if counts is None or not reproducible(join.this):
        return None
    body, projections, keys = counts
    if rows.name not in projections or nonnull.name not in projections:
        return None
    if not isinstance(_count_arg(projections[rows.name]), exp.Star):
        return None
    # t is read in its ON and in the filter, nowhere else.
    reads = sum(1 for c in select.find_all(exp.Column) if c.table == alias)
    local = sum(1 for node in (join, part) for c in node.find_all(exp.Column) if c.table == alias)
    if reads != local:
        return None
    pinned = _pinned_keys(join.args.get("on"), alias, keys)
    if pinned is None:
        return None
    inner = _source(join.this.this)
    assert inner is not None
    if any(c.table == inner.alias for _, outer in pinned for c in outer.find_all(exp.Column)):
        return None  # an outer column under the inner name: the texts would not tell them apart
    expected = body[1] | {_equality_text(key, outer, inner.alias) for key, outer in pinned}
    found = _match_rest(match, body[0], expected)
    if found is None:
        return None
    query, x, element = found
    if not is_deterministic(x) or not _never_null(x, schema, select):
        return None
    if not same_declared_type(x, element):
        return None  # (SQLite's IN and = may convert across types differently)
    counted = _count_arg(projections[nonnull.name])
    match_source = _source(query)
    assert match_source is not None
    if isinstance(counted, exp.Star):
        if not _table_column_never_null(element, match_source, schema):
            return None
    elif counted is None or _renamed(counted, inner.alias) != _renamed(
        element, match_source.alias
    ):
        return None
    query.set("expressions", [element.copy()])
    in_ = exp.In(this=x.copy(), query=exp.Subquery(this=query))
    return exp.Not(this=in_), join


def _counted_filter(condition: exp.Expr) -> tuple[exp.Column, exp.Column, exp.Exists] | None:
    """``(t.c, t.ck, m)`` of ``t.c = 0 OR (m OR t.ck < t.c) IS NOT TRUE`` or of ``NOT CASE
    WHEN t.c = 0 THEN FALSE WHEN m THEN TRUE WHEN t.ck < t.c THEN TRUE ELSE FALSE END``."""
    if isinstance(condition, exp.Or):
        for zero, rest in ((condition.this, condition.expression),
                           (condition.expression, condition.this)):  # fmt: skip
            rows = _zero_test(zero.unnest())
            negated = rest.unnest()
            if rows is None or not isinstance(negated, exp.Not):
                continue
            test = negated.this.unnest()
            if not (isinstance(test, exp.Is) and _is_bool(test.expression, True)):
                continue
            either = test.this.unnest()
            if not isinstance(either, exp.Or):
                continue
            for match, nulls in ((either.this, either.expression),
                                 (either.expression, either.this)):  # fmt: skip
                found = _fewer_columns(nulls.unnest(), rows)
                if found is not None and isinstance(match.unnest(), exp.Exists):
                    return rows, found, match.unnest()
        return None
    if not isinstance(condition, exp.Not) or not isinstance(condition.this.unnest(), exp.Case):
        return None
    case = condition.this.unnest()
    branches = case.args.get("ifs") or []
    if case.args.get("this") is not None or len(branches) != 3:
        return None
    if not _is_bool(case.args.get("default"), False):
        return None
    zero, match, nulls = branches
    rows = _zero_test(zero.this)
    if rows is None or not _is_bool(zero.args.get("true"), False):
        return None
    if not isinstance(match.this, exp.Exists) or not _is_bool(match.args.get("true"), True):
        return None
    found = _fewer_columns(nulls.this, rows)
    if found is None or not _is_bool(nulls.args.get("true"), True):
        return None
    return rows, found, match.this


def _zero_test(condition: exp.Expr) -> exp.Column | None:
    """The column of ``t.c = 0`` (either way round)."""
    side = _zero_compared(condition)
    return side if isinstance(side, exp.Column) else None


def _fewer_columns(condition: exp.Expr, rows: exp.Column) -> exp.Column | None:
    """The ``t.ck`` of ``t.ck < t.c`` (either way round), ``t.c`` being ``rows``."""
    sides = _less_than(condition)
    if sides is None:
        return None
    small, large = sides
    if isinstance(small, exp.Column) and large == rows and small.table == rows.table:
        return small
    return None


def _less_than(condition: exp.Expr) -> tuple[exp.Expr, exp.Expr] | None:
    """``(a, b)`` of ``a < b`` or ``b > a``."""
    if isinstance(condition, exp.LT):
        return condition.this, condition.expression
    if isinstance(condition, exp.GT):
        return condition.expression, condition.this
    return None


def _per_key_counts(
    subquery: exp.Subquery,
) -> tuple[Body, dict[str, exp.Expr], dict[str, exp.Column]] | None:
    """For ``(SELECT COUNT(..) AS c, ..., s.k AS k, ... FROM s WHERE w GROUP BY s.k, ...)``:
    its body, its projections by name, and its key columns by output name."""
    query = subquery.this
    if not isinstance(query, exp.Select) or truthy_args(subquery) - {"this", "alias"}:
        return None
    if truthy_args(query) - {"expressions", "from_", "where", "group"}:
        return None
    source = _source(query)
    group = plain_group(query)
    body = _body(query)
    if source is None or group is None or body is None:
        return None
    projections: dict[str, exp.Expr] = {}
    keys: dict[str, exp.Column] = {}
    for projection in query.expressions:
        name, value = projection.alias_or_name, projection.unalias()
        if name in projections:
            return None
        projections[name] = value
        if isinstance(value, exp.Column) and value.table == source.alias:
            keys[name] = value
        elif not isinstance(value, exp.Count):
            return None
    if sorted(k.sql() for k in keys.values()) != sorted(g.sql() for g in group):
        return None
    return body, projections, keys


def _pinned_keys(
    on: exp.Expr | None, alias: str, keys: dict[str, exp.Column]
) -> list[tuple[exp.Column, exp.Expr]] | None:
    """``(key column inside t, outer expression)`` for each conjunct ``outer = t.k`` of the
    ON, when those are all its conjuncts and pin every key once."""
    pinned: dict[str, tuple[exp.Column, exp.Expr]] = {}
    for part in conjuncts(on):
        if not isinstance(part, exp.EQ):
            return None
        for mine, outer in ((part.this, part.expression), (part.expression, part.this)):
            if (
                isinstance(mine, exp.Column)
                and mine.table == alias
                and mine.name in keys
                and mine.name not in pinned
                and not any(c.table == alias for c in outer.find_all(exp.Column))
                and is_deterministic(outer)
            ):
                pinned[mine.name] = (keys[mine.name], outer)
                break
        else:
            return None
    return list(pinned.values()) if len(pinned) == len(keys) else None


def _equality_text(left: exp.Expr, right: exp.Expr, alias: str) -> str:
    """The text of ``left = right`` with ``alias`` renamed, whichever way round."""
    return " = ".join(sorted((_renamed(left, alias), _renamed(right, alias))))


def _condition_text(condition: exp.Expr, alias: str) -> str:
    if isinstance(condition, exp.EQ):
        return _equality_text(condition.this, condition.expression, alias)
    return _renamed(condition, alias)


def _match_rest(
    match: exp.Exists, source_text: str, expected: set[str] | frozenset[str]
) -> tuple[exp.Select, exp.Expr, exp.Expr] | None:
    """For ``EXISTS (SELECT .. FROM s WHERE <expected> AND x = e)``: a copy of its query
    without ``x = e``, ``x`` and ``e`` (read in the copy)."""
    query = match.this
    if not isinstance(query, exp.Select) or truthy_args(query) - {"expressions", "from_", "where"}:
        return None
    source = _source(query)
    where = query.args.get("where")
    if source is None or where is None or _source_text(source) != source_text:
        return None
    alias = source.alias
    parts = conjuncts(where.this)
    texts = [_condition_text(p, alias) for p in parts]
    rest = [i for i, text in enumerate(texts) if text not in expected]
    if len(rest) != 1 or set(texts) - {texts[rest[0]]} != set(expected):
        return None
    equality = parts[rest[0]]
    if not isinstance(equality, exp.EQ):
        return None
    for x, e in ((equality.this, equality.expression), (equality.expression, equality.this)):
        reads = {c.table for c in e.find_all(exp.Column)}
        if reads == {alias} and not any(c.table == alias for c in x.find_all(exp.Column)):
            copy = query.copy()
            kept = [p.copy() for i, p in enumerate(parts) if i != rest[0]]
            copy.set("where", exp.Where(this=exp.and_(*kept)) if kept else None)
            return copy, x, e.copy()
    return None


def _table_column_never_null(element: exp.Expr, source: exp.Expr, schema: Schema) -> bool:
    """Whether ``element`` is a NOT NULL column of ``source``, a table of the schema."""
    if not isinstance(element, exp.Column) or not isinstance(source, exp.Table):
        return False
    if source.name not in schema or source.args.get("db"):
        return False
    table = schema.table(source.name)
    return element.name in table.column_names and not_null_column(table, element.name)
