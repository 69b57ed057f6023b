"""Which queries mean on SQLite exactly what they mean on DuckDB.

The symbolic prover's terms follow DuckDB's semantics. SQLite differs in
type affinity (a TEXT column compared with a number is compared as text),
integer division, case-insensitive ``LIKE``, collations, dates stored as
text, and every function. A proof may still be used for queries in the
``sqlite`` dialect when nothing of that kind is in them: this module decides
that, conservatively, by allowing only

* columns of INTEGER affinity holding integers, REAL affinity holding reals,
  or TEXT affinity holding text, with the default (BINARY) collation;
* comparisons (``=``, ``<``, ``IN``, ``BETWEEN``, ``IS NULL``) whose sides are
  both numbers or both text, so no affinity conversion happens;
* ``AND``/``OR``/``NOT`` over comparisons, ``EXISTS``, ``CASE``/``COALESCE``,
  ``COUNT``/``MIN``/``MAX`` and ``SUM``/``AVG`` of numbers;
* joins, grouping, ordering, limits, set operations and subqueries;

and nothing else: no arithmetic, no function, no cast, no ``LIKE``.
Anything not listed makes a query non-portable, which only costs a proof.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from sqlequiv.policy.opaque import opaque_class
from sqlequiv.schema.model import Column, Schema, Table
from sqlequiv.values import kind_of

_STRUCTURE: tuple[type[exp.Expression], ...] = (
    exp.Select, exp.From, exp.Join, exp.Where, exp.Group, exp.Having, exp.Order, exp.Ordered,
    exp.Limit, exp.Offset, exp.Subquery, exp.Union, exp.Intersect, exp.Except, exp.With,
    exp.CTE, exp.TableAlias, exp.Table, exp.Identifier, exp.Alias, exp.Star, exp.Distinct,
    exp.Paren,
)  # fmt: skip
_PREDICATES: tuple[type[exp.Expression], ...] = (
    exp.And, exp.Or, exp.Not, exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Is,
    exp.In, exp.Between, exp.Exists,
)  # fmt: skip
_VALUES: tuple[type[exp.Expression], ...] = (
    exp.Column, exp.Literal, exp.Null, exp.Count, exp.Min, exp.Max, exp.Sum, exp.Avg,
    exp.Case, exp.If, exp.Coalesce,
)  # fmt: skip
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.In, exp.Between)

#: The affinity a column must have for each kind of value it holds.
_PORTABLE_KINDS = {"int": "INTEGER", "float": "REAL", "text": "TEXT"}


def portable(query: exp.Expr, schema: Schema) -> bool:
    """True if ``query`` (a qualified, type-annotated tree) computes the same rows on
    SQLite as on DuckDB, on every database of ``schema``; False when unsure.

    Example:
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INTEGER, b TEXT)", "sqlite")
        >>> portable(guard_query("SELECT b FROM t WHERE a > 1", s).qualified, s)
        True
        >>> portable(guard_query("SELECT b FROM t WHERE b > 1", s).qualified, s)
        False
        >>> portable(guard_query("SELECT b FROM t WHERE b LIKE 'x%'", s).qualified, s)
        False
    """
    ok = node_checker(query, schema)
    return all(ok(node) for node in query.walk())


def node_checker(query: exp.Expr, schema: Schema) -> Callable[[exp.Expr], bool]:
    """The test :func:`portable` applies to each node of ``query``: True when the node
    itself (not its children) computes alike on both engines. An opaque call of
    :mod:`~sqlequiv.execute.opaque` is a value of its annotated type."""
    tables = _aliases(query, schema)
    unread = _unread_columns(query)

    def ok(node: exp.Expr) -> bool:
        if id(node) in unread:
            return True
        if opaque_class(node) is not None:
            return True
        if not isinstance(node, _STRUCTURE + _PREDICATES + _VALUES):
            return False
        if isinstance(node, exp.Column) and not _portable_column(node, tables):
            return False
        if isinstance(node, _COMPARISONS) and not _same_class(node):
            return False
        if (  # SQLite's `a IS b` compares like `=`, affinity included
            isinstance(node, exp.Is)
            and not isinstance(node.expression, exp.Null)
            and not _same_class(node)
        ):
            return False
        if isinstance(node, exp.Sum | exp.Avg) and _value_class(node.this) != "number":
            return False
        if isinstance(node, exp.Where | exp.Having) and not _predicate(node.this):
            return False
        if isinstance(node, exp.Join) and node.args.get("on") and not _predicate(node.args["on"]):
            return False
        if isinstance(node, exp.And | exp.Or) and not (
            _predicate(node.this) and _predicate(node.expression)
        ):
            return False
        if isinstance(node, exp.Not) and not _predicate(node.this):
            return False
        return not (isinstance(node, exp.If) and not _predicate(node.this))

    return ok


def _unread_columns(query: exp.Expr) -> set[int]:
    """The plain columns an ``EXISTS`` subquery outputs: only whether it has a row is
    read, and a column reference cannot fail, so their types do not matter."""
    unread: set[int] = set()
    for exists in query.find_all(exp.Exists):
        select = exists.this
        while isinstance(select, exp.Subquery | exp.Paren):
            select = select.this
        if isinstance(select, exp.Select):
            for projection in select.expressions:
                if isinstance(projection.unalias(), exp.Column | exp.Star | exp.Literal):
                    unread.update(id(n) for n in projection.walk())
    return unread


def _aliases(query: exp.Expr, schema: Schema) -> dict[str, list[Table]]:
    """Each table alias (and name) used in ``query``, with the schema tables it may stand
    for (an alias reused in two scopes stands for both: each must be portable)."""
    found: dict[str, list[Table]] = {}
    for table in query.find_all(exp.Table):
        if table.name.lower() in schema:
            for name in {table.alias_or_name.lower(), table.name.lower()}:
                found.setdefault(name, []).append(schema.table(table.name.lower()))
    return found


def _portable_column(column: exp.Column, tables: dict[str, list[Table]]) -> bool:
    if not column.table:
        # ORDER BY naming an output column (checked as the projection itself); anything
        # else unqualified was not resolved (NATURAL or USING joins): not portable.
        return isinstance(column.parent, exp.Ordered) and _value_class(column) is not None
    candidates = tables.get(column.table.lower(), [])
    if not candidates:
        # A column of a CTE or derived table: its definition is checked where it is
        # written; its value class comes from the type annotation.
        return _value_class(column) is not None
    for table in candidates:
        try:
            if not _portable_schema_column(table.column(column.name)):
                return False
        except KeyError:
            return False
    return True


def _portable_schema_column(column: Column) -> bool:
    """A column whose values SQLite stores as the declared kind and compares byte-wise."""
    if column.collation is not None:
        return False
    wanted = _PORTABLE_KINDS.get(kind_of(column.type))
    return wanted is not None and column.affinity == wanted


def _predicate(node: exp.Expression) -> bool:
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, _PREDICATES)


def _value_class(node: exp.Expr) -> str | None:
    """"number", "text" or "null" for a value expression; None when neither is certain."""
    if isinstance(node, exp.Null):
        return "null"
    if isinstance(node, exp.Literal):
        return "text" if node.is_string else "number"
    dtype = node.type
    if dtype is None:
        return None
    if dtype.is_type(*exp.DataType.INTEGER_TYPES, *exp.DataType.REAL_TYPES):
        return "number"
    if dtype.is_type(*exp.DataType.TEXT_TYPES):
        return "text"
    return None


def only_column(query: exp.Expr) -> exp.Expr | None:
    """The one output expression of a subquery that is a plain SELECT; None otherwise."""
    while isinstance(query, exp.Subquery | exp.Paren):
        query = query.this
    if not isinstance(query, exp.Select) or len(query.expressions) != 1:
        return None
    column: exp.Expression = query.expressions[0].unalias()
    return column


def _same_class(node: exp.Expression) -> bool:
    """Both sides of a comparison are numbers, or both text (NULL goes with either)."""
    operands: list[exp.Expr] = [node.this]
    if isinstance(node, exp.In):
        query = node.args.get("query")
        if query is not None:
            # IN (subquery): compared with the subquery's one column, as `=` would be
            # (its own columns are checked where the walk meets them).
            column = only_column(query)
            if column is None:
                return False
            operands.append(column)
        operands += node.expressions
    elif isinstance(node, exp.Between):
        operands += [node.args["low"], node.args["high"]]
    else:
        operands.append(node.expression)
    classes = {_value_class(o) for o in operands} - {"null"}
    return len(classes) == 1 and None not in classes



def postgres_portable(query: exp.Expression, schema: Schema, *, bytewise_text: bool) -> bool:
    """What :func:`portable` does not cover on PostgreSQL, for a query it accepts: False
    if the query names a ``char(n)`` column (PostgreSQL ignores trailing spaces when it
    compares them, DuckDB does not), or any text column when the database's collation
    is not byte-wise (``C``), since DuckDB orders text byte by byte. Columns are matched
    by name against every table the query reads, so a doubt costs a proof, never more.

    Example:
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INTEGER, b CHAR(3), c TEXT)", "postgres")
        >>> def ok(sql, bytewise):
        ...     return postgres_portable(guard_query(sql, s).qualified, s, bytewise_text=bytewise)
        >>> ok("SELECT a FROM t", False), ok("SELECT b FROM t", True)
        (True, False)
        >>> ok("SELECT c FROM t", True), ok("SELECT c FROM t", False)
        (True, False)
    """
    char = (exp.DataType.Type.CHAR, exp.DataType.Type.NCHAR)
    unsafe = _names_of_columns_read(
        query,
        schema,
        lambda column: column.type.is_type(*char)
        or (not bytewise_text and column.type.is_type(*exp.DataType.TEXT_TYPES)),
    )
    for node in query.find_all(exp.Column):
        dtype = node.type
        if node.name.lower() in unsafe or dtype is None:
            return False
        if not bytewise_text and dtype.is_type(*exp.DataType.TEXT_TYPES):
            return False
    return True


#: DuckDB types :func:`portable` accepts whose values SQLite stores otherwise: a FLOAT is
#: single precision (SQLite's REAL is double), and these integers (HUGEINT is INT128)
#: reach past SQLite's 64 bits.
_NOT_STORED_ALIKE = (
    exp.DataType.Type.FLOAT, exp.DataType.Type.UBIGINT, exp.DataType.Type.INT128,
    exp.DataType.Type.UINT128, exp.DataType.Type.INT256, exp.DataType.Type.UINT256,
)  # fmt: skip


def sqlite_stores_alike(query: exp.Expression, schema: Schema) -> bool:
    """What :func:`portable` does not cover for a DuckDB query run on SQLite: False if
    the query names a column whose DuckDB type holds values SQLite stores otherwise (a
    single-precision FLOAT, integers past 64 bits). Columns are matched by name against
    every table the query reads, so a doubt costs only speed.

    Example:
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INTEGER, b FLOAT, c DOUBLE)")
        >>> [sqlite_stores_alike(guard_query(f"SELECT {c} FROM t", s).qualified, s) for c in "abc"]
        [True, False, True]
    """
    unsafe = _names_of_columns_read(
        query, schema, lambda column: column.type.is_type(*_NOT_STORED_ALIKE)
    )
    return not any(node.name.lower() in unsafe for node in query.find_all(exp.Column))


def _names_of_columns_read(
    query: exp.Expression, schema: Schema, unsafe: Callable[[Column], bool]
) -> set[str]:
    """The lower-cased names of the ``unsafe`` columns of every schema table ``query``
    reads (matched by name only: a doubt costs a proof or speed, never more)."""
    names: set[str] = set()
    for table in query.find_all(exp.Table):
        if table.name.lower() in schema:
            for column in schema.table(table.name.lower()).columns:
                if unsafe(column):
                    names.add(column.name.lower())
    return names
