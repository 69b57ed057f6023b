"""A LEFT JOIN on a key, read only by whether it matched, as an EXISTS.

Calcite decorrelates ``(e.empno, e.deptno) IN (SELECT empno, deptno FROM emp WHERE
empno < 20)`` into ``emp e LEFT JOIN (SELECT empno, deptno, TRUE AS i FROM emp WHERE
empno < 20) t ON e.empno = t.empno AND e.deptno = t.deptno`` and reads ``t.i IS NOT
NULL``. This rule writes that back as ``EXISTS (SELECT 1 FROM emp AS x WHERE x.empno <
20 AND e.empno = x.empno AND e.deptno = x.deptno)``, the form :mod:`.in_to_exists`
gives the IN.

Why this is sound. The derived table ``t`` reads one table of the schema and projects
its columns and non-NULL constants; the ON equates (with ``=``, between operands of one
declared type and no collation) columns of ``t`` that hold a key of that table with
expressions that do not read ``t``. So a row of the other sources meets at most one
row of ``t``: the LEFT JOIN keeps each such row exactly once, matched or padded with
NULLs, as the query without the join would. ``t`` is read nowhere but in its ON and
in tests ``t.i IS NULL`` / ``t.i IS NOT NULL`` of a column ``i`` that is a non-NULL
constant: such a test is TRUE exactly when the row was padded (resp. matched), which
is ``NOT EXISTS`` (resp. ``EXISTS``) of the rows of ``t`` for which the ON is TRUE.

``t`` may also group by columns it projects, or be DISTINCT, all of those columns
being equated by the ON (its rows are then distinct on them) but for non-NULL
constants (the same on every row), with a HAVING; it may
then read a derived table rather than a table, one that reads nothing from outside
itself (so it means the same in the EXISTS): the EXISTS
keeps its GROUP BY and HAVING (a DISTINCT does not matter to it), the ON filtering the
rows of the groups it picks out. A column the ON equates is never NULL
on a matched row, so a test of it is a match test too (sqlglot's decorrelation reads
``_u_0.k IS NOT NULL``).

A LEFT JOIN anywhere in the FROM may go: it keeps each row of the sources before it
once, so the joins after it see the same rows (a test of ``t`` in their ON is rewritten
like any other). Its conditions must be deterministic; ``t``'s table takes a fresh
name in the EXISTS, so that the outer columns the ON reads are not captured.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from sqlequiv.normalize._keys import only_table
from sqlequiv.normalize._scoping import closed
from sqlequiv.normalize._util import (
    and_all,
    conjuncts,
    fresh_name,
    is_deterministic,
    is_simple_subquery,
    outer_join_side,
    own_columns,
    plain_group,
    same_declared_type,
    truthy_args,
)
from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema

E = TypeVar("E", bound=exp.Expr)


def left_join_semijoin(expression: E, *, schema: Schema) -> E:
    """Rewrite a LEFT JOIN read only by ``IS [NOT] NULL`` of a constant as [NOT] EXISTS.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> i = exp.DataType.build("INT")
        >>> c = Table("c", (Column("id", i, nullable=False), Column("p", i)),
        ...           primary_key=("id",))
        >>> o = Table("o", (Column("id", i), Column("cid", i)))
        >>> e = sqlglot.parse_one("SELECT o.id FROM o AS o LEFT JOIN (SELECT c.id AS id, "
        ...     "TRUE AS i FROM c AS c) AS t ON o.cid = t.id WHERE t.i IS NULL")
        >>> for col in e.find_all(exp.Column):
        ...     col.type = i
        >>> left_join_semijoin(e, schema=Schema((c, o))).sql()
        'SELECT o.id FROM o AS o WHERE NOT EXISTS(SELECT 1 FROM c AS c_0 WHERE o.cid = c_0.id)'
    """
    # Innermost first: a LEFT JOIN inside the derived table of another is rewritten first.
    for select in reversed(list(expression.find_all(exp.Select))):
        for join in reversed(list(select.args.get("joins") or [])):
            if outer_join_side(join) == "LEFT":
                _rewrite(expression, select, join, schema)
    return expression


def _rewrite(root: exp.Expr, select: exp.Select, join: exp.Join, schema: Schema) -> None:
    source = join.this
    on = join.args.get("on")
    if not isinstance(source, exp.Subquery) or on is None or not source.alias:
        return
    body = source.this
    if not isinstance(body, exp.Select):
        return
    if truthy_args(body) - {"expressions", "from_", "where", "group", "having", "distinct"}:
        return
    distinct = body.args.get("distinct")
    if distinct is not None and (truthy_args(distinct) or body.args.get("group") is not None):
        return  # DISTINCT ON, or both
    grouped = body.args.get("group") is not None
    keys = plain_group(body)
    if distinct is not None:
        keys = [p.unalias() for p in body.expressions]  # distinct on all it projects
    if keys is not None:
        # A non-NULL constant is the same on every row: rows distinct on the keys and it
        # are distinct on the other keys (Calcite groups by ``e, TRUE``).
        keys = [k for k in keys if not _is_flag(k)]
    if (grouped and keys is None) or (body.args.get("having") is not None and not grouped):
        return
    table: exp.Expr | None = only_table(body, schema)
    if table is None and keys is not None:
        table = _closed_derived_table(body, schema)
    if table is None:
        return
    inner = table.alias_or_name
    if sum(1 for s in body.find_all(exp.Table, exp.Subquery) if s.alias_or_name == inner) != 1:
        return
    columns, flags = _projections(body, inner)
    if columns is None:
        return
    alias = source.alias
    parts = conjuncts(on)
    if not all(is_deterministic(p) for p in parts):
        return
    read = [c for p in parts for c in p.find_all(exp.Column) if c.table == alias]
    if not read or any(c.name not in columns for c in read):
        return
    equated = [e for e in (_equated(p, alias, columns) for p in parts) if e is not None]
    held = [column for _, column in equated]
    # A column the ON equates is not NULL on a matched row: a test of it is a match test.
    tests = _flag_tests(select, join, alias, flags | {name for name, _ in equated})
    if tests is None:
        return
    if keys is not None:
        # Grouped: the rows are distinct on the group keys, all of which the ON pins.
        if not all(isinstance(k, exp.Column) and k.table == inner and k.name in held
                   for k in keys):  # fmt: skip
            return
    elif not isinstance(table, exp.Table) or not schema.table(table.name).keyed_by(held):
        return
    if isinstance(table, exp.Table) and any(
        schema.table(table.name).column(n).collation for n in held
    ):
        return
    # Build the EXISTS over the table under a fresh name (the ON reads the outer query's
    # columns by name), the ON reading t's columns from the table itself.
    fresh = fresh_name(root, inner)
    own = body.copy()
    for column in own.find_all(exp.Column):
        if column.table == inner:
            column.set("table", exp.to_identifier(fresh))
    moved = {name: _typed(exp.column(c.name, table=fresh), c) for name, c in columns.items()}
    conditions = [p.copy() for p in parts]
    for condition in conditions:
        for column in list(condition.find_all(exp.Column)):
            if column.table == alias:
                column.replace(moved[column.name])
    where = own.args.get("where")
    inner_where = and_all([where.this if where else None, *conditions])
    renamed_table = table.copy()
    renamed_table.set("alias", exp.TableAlias(this=exp.to_identifier(fresh)))
    query = exp.select("1").from_(renamed_table).where(inner_where)
    # A row filter on the group keys commutes with them; without a HAVING the groups do
    # not matter to an EXISTS (it has a group exactly when it has a row).
    if own.args.get("having") is not None:
        for clause in ("group", "having"):
            query.set(clause, own.args[clause])
    exists = exp.Exists(this=query)
    select.set("joins", [j for j in select.args.get("joins") or [] if j is not join] or None)
    for test, negated in tests:
        test.replace(exists.copy() if not negated else exp.Not(this=exists.copy()))


def _typed(column: exp.Column, like: exp.Column) -> exp.Column:
    """``column`` with the type ``like`` was annotated with (later rules compare types)."""
    column.type = like.type
    return column


def _projections(
    body: exp.Select, inner: str
) -> tuple[dict[str, exp.Column] | None, set[str]]:
    """The bare columns of ``body`` by output name, and the names of its non-NULL constants."""
    columns: dict[str, exp.Column] = {}
    flags: set[str] = set()
    names = [p.alias_or_name for p in body.expressions]
    if len(set(names)) != len(names):
        return None, flags
    for name, projection in zip(names, body.expressions, strict=True):
        value = projection.unalias()
        if isinstance(value, exp.Column) and value.table == inner:
            columns[name] = value
        elif _is_flag(value):
            flags.add(name)
        else:
            return None, flags
    return columns, flags


def _is_flag(value: exp.Expr) -> bool:
    """A non-NULL constant: TRUE, FALSE or a number."""
    return isinstance(value, exp.Boolean) or (
        isinstance(value, exp.Literal) and not value.is_string
    )


def _flag_tests(
    select: exp.Select, join: exp.Join, alias: str, flags: set[str]
) -> list[tuple[exp.Expr, bool]] | None:
    """Each ``t.i IS [NOT] NULL`` outside the ON (and whether it is IS NULL); None when
    ``t`` is read any other way, or from a nested query."""
    tests: list[tuple[exp.Expr, bool]] = []
    mine = [c for c in own_columns(select, join) if c.table == alias]
    if len([c for c in select.find_all(exp.Column) if c.table == alias]) != len(mine) + len(
        [c for c in join.find_all(exp.Column) if c.table == alias]
    ):
        return None
    for column in mine:
        test = column.parent
        if column.name not in flags or not isinstance(test, exp.Is):
            return None
        if not isinstance(test.expression, exp.Null) or test.this is not column:
            return None
        if isinstance(test.parent, exp.Not):
            tests.append((test.parent, False))
        else:
            tests.append((test, True))
    return tests


def _equated(
    condition: exp.Expr, alias: str, columns: dict[str, exp.Column]
) -> tuple[str, str] | None:
    """For a conjunct ``x = t.c`` (``x`` reading no ``t`` column, both of one declared
    type): the name of ``t.c`` and of the table column it projects."""
    if not isinstance(condition, exp.EQ):
        return None
    for mine, other in ((condition.this, condition.expression),
                        (condition.expression, condition.this)):  # fmt: skip
        if not isinstance(mine, exp.Column) or mine.table != alias or mine.name not in columns:
            continue
        if any(c.table == alias for c in other.find_all(exp.Column)) or not is_deterministic(
            other
        ):
            continue
        if same_declared_type(mine, other.unnest()):
            return mine.name, columns[mine.name].name
    return None


def _closed_derived_table(body: exp.Select, schema: Schema) -> exp.Subquery | None:
    """The one source of ``body`` when it is a derived table that reads nothing from
    outside itself and calls nothing volatile (it then means the same inside the EXISTS),
    in a schema without collations (the rows are distinct on the group keys under the
    ``=`` the ON compares them with); else None."""
    from_ = body.args.get("from_")
    if from_ is None or body.args.get("joins") or body.args.get("laterals"):
        return None
    source = from_.this
    if not isinstance(source, exp.Subquery) or not is_simple_subquery(source):
        return None
    if not closed(source) or is_volatile(source):
        return None
    if any(column.collation for table in schema for column in table.columns):
        return None
    return source
