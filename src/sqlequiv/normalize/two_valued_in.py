"""An IN subquery over operands that cannot be NULL is its EXISTS, wherever it is.

``SELECT e.empno, (e.empno, e.deptno) IN (SELECT x.empno, x.deptno FROM emp x WHERE
x.empno < 20) FROM emp e`` returns ``SELECT e.empno, EXISTS (SELECT 1 FROM emp x
WHERE x.empno < 20 AND e.empno = x.empno AND e.deptno = x.deptno) FROM emp e`` when
every column involved is NOT NULL; so does the same IN under OR or NOT.
:mod:`.in_to_exists` only rewrites an IN that is a conjunct of a WHERE, where UNKNOWN
and FALSE drop a row alike.

Why this is sound: ``(x1, ..., xn) IN S`` is TRUE when a row of ``S`` equals the tuple
on every column, else UNKNOWN when some comparison is UNKNOWN, else FALSE. A
comparison is UNKNOWN only with a NULL operand: when every ``xi`` is a NOT NULL (or
primary key) column of a table no outer join pads, and every ``yi`` is a NOT NULL
column of the subquery's one table, the IN is never UNKNOWN, and it is TRUE exactly
when ``EXISTS`` of the subquery's rows with every ``xi = yi`` is. Only a plain
subquery of one table (no join, GROUP BY, aggregate, DISTINCT ON, ORDER BY or LIMIT)
projecting bare columns is rewritten, each ``xi`` and ``yi`` of one declared type
(SQLite's IN and ``=`` may convert values differently across types), when the
subquery does not bind the outer columns' aliases again.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import not_null_column, only_table, schema_source
from sqlequiv.normalize._util import and_all, fresh_name, same_declared_type, truthy_args
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)

_PLAIN = frozenset({"expressions", "from_", "where", "distinct"})


def two_valued_in(expression: E, *, schema: Schema) -> E:
    """Rewrite each IN subquery whose operands are all NOT NULL columns as an EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> s = Schema((Table("t", (Column("a", i, nullable=False),)),
        ...             Table("u", (Column("b", i, nullable=False),))))
        >>> e = sqlglot.parse_one("SELECT t.a IN (SELECT u.b FROM u AS u) FROM t AS t")
        >>> for c in e.find_all(exp.Column):
        ...     c.type = i
        >>> two_valued_in(e, schema=s).sql()
        'SELECT EXISTS(SELECT u.b FROM u AS u WHERE t.a = u.b) FROM t AS t'
    """
    for node in reversed(list(expression.find_all(exp.In))):
        rewritten = _exists(node, schema, expression)
        if rewritten is not None:
            node.replace(rewritten)
    return expression


def _exists(node: exp.In, schema: Schema, root: exp.Expr) -> exp.Expr | None:
    query, left = node.args.get("query"), node.this
    if node.expressions or truthy_args(node) - {"this", "query"}:
        return None
    if not isinstance(query, exp.Subquery) or truthy_args(query) != {"this"}:
        return None
    sub = query.this
    if not isinstance(sub, exp.Select) or truthy_args(sub) - _PLAIN:
        return None
    distinct = sub.args.get("distinct")
    if distinct is not None and truthy_args(distinct):
        return None  # DISTINCT ON
    xs = list(left.expressions) if isinstance(left, exp.Tuple) else [left]
    ys = [p.unalias() for p in sub.expressions]
    if len(xs) != len(ys):
        return None
    inner = only_table(sub, schema)
    if inner is None or sub.find(exp.AggFunc, exp.Window) is not None:
        return None
    inner_table = schema.table(inner.name)
    bound = [n.alias_or_name for n in sub.find_all(exp.Table, exp.Subquery)]
    for x in xs:
        if not isinstance(x, exp.Column) or not x.table:
            return None
        if x.table in bound and (x.table != inner.alias_or_name or bound.count(x.table) != 1):
            return None
    for x, y in zip(xs, ys, strict=True):
        if not isinstance(y, exp.Column) or y.table != inner.alias_or_name:
            return None
        if y.name not in inner_table.column_names or not not_null_column(inner_table, y.name):
            return None
        if not same_declared_type(x, y):
            return None
        outer = schema_source(node, x.table, schema)
        if outer is None or x.name not in outer.column_names:
            return None
        if not not_null_column(outer, x.name):
            return None
    filtered = sub.copy()
    filtered.set("distinct", None)
    if inner.alias_or_name in {x.table for x in xs}:
        _rename_apart(filtered, inner.alias_or_name, root)
        ys = [p.unalias() for p in filtered.expressions]
    where = filtered.args.get("where")
    matched = [exp.EQ(this=x.copy(), expression=y.copy()) for x, y in zip(xs, ys, strict=True)]
    filtered.set("where", exp.Where(this=and_all([where.this if where else None, *matched])))
    return exp.Exists(this=filtered)


def _rename_apart(sub: exp.Select, alias: str, root: exp.Expr) -> None:
    """Name ``sub``'s one source (``alias``, bound once in ``sub``) afresh, so that the
    outer columns moved into it are not captured: every column of ``sub`` named after
    ``alias`` reads that source, which shadows any outer one of the name."""
    fresh = fresh_name(root, alias)
    for column in sub.find_all(exp.Column):
        if column.table == alias:
            column.set("table", exp.to_identifier(fresh))
    table = sub.args["from_"].this
    table.set("alias", exp.TableAlias(this=exp.to_identifier(fresh)))
