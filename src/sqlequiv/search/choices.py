"""Results an engine may choose: constructs whose rows depend on the order it reads rows in.

A refutation must hold whatever order the engine reads a table's rows in, and however
it breaks ties. The top-level ``ORDER BY ... LIMIT`` is analysed exactly
(:mod:`~sqlequiv.search.ties`); every other construct whose result is an arbitrary
choice of the engine is listed by :func:`arbitrary_choices`:

* a scalar subquery that returns several rows, on SQLite (which takes the first row it
  reads; DuckDB, PostgreSQL and MySQL raise an error instead);
* a bare column beside an aggregate, not among the GROUP BY expressions (SQLite, and
  MySQL without ONLY_FULL_GROUP_BY, take it from an arbitrary row of the group);
* a ``LIMIT`` or ``OFFSET`` anywhere but the outermost query (a subquery, a CTE, a
  derived table, one side of a set operation): which tied rows it keeps;
* ``GROUP_CONCAT`` / ``string_agg`` / ``array_agg`` / ``list`` without an ORDER BY;
* ``first``, ``last``, ``any_value``, ``arbitrary``, ``arg_min``/``arg_max`` (ties);
* window functions that number or pick rows (``ROW_NUMBER``, ``NTILE``, ``LAG``,
  ``LEAD``, ``FIRST_VALUE``, ``LAST_VALUE``, ``NTH_VALUE``) or aggregate over a ROWS
  frame: tied rows of the partition's ORDER BY come in either order;
* ``DISTINCT ON``: which row of each group it keeps.

Where a query has one, a difference counts only if it holds in every order of the
database's rows (:func:`physical_orders` with ``every``: all of them, on a database
small enough to have at most :data:`MAX_ORDERS`; a larger one is set aside, see
:meth:`~sqlequiv.search.probe.Prober.holds_in_every_order`). Where neither query has
one, verification still re-executes the difference with every table reversed and
shuffled with fixed seeds, a net under this list. The list is an over-approximation:
a construct listed here that the data makes deterministic (a scalar subquery over a
key) only costs the extra runs.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from sqlglot import exp

from sqlequiv.database import Database
from sqlequiv.database.model import Row
from sqlequiv.schema.model import Schema

#: Seeds of the shuffled orders tried besides the reversed one (fixed: a verdict is the
#: same on every run and every machine).
SHUFFLE_SEEDS = (20260, 20261)

_PICKING_WINDOWS = (
    exp.RowNumber,
    exp.Ntile,
    exp.Lag,
    exp.Lead,
    exp.FirstValue,
    exp.LastValue,
    exp.NthValue,
)
_ORDERED_AGGREGATES = (exp.GroupConcat, exp.ArrayAgg)
_PICKING_AGGREGATES: tuple[type[exp.Expr], ...] = (
    exp.First,
    exp.Last,
    exp.AnyValue,
    exp.ArgMax,
    exp.ArgMin,
)
_PICKING_NAMES = frozenset(
    {"first", "last", "any_value", "arbitrary", "arg_max", "arg_min", "argmax", "argmin",
     "max_by", "min_by", "list", "string_agg", "group_concat", "array_agg", "listagg"}
)  # fmt: skip


def arbitrary_choices(tree: exp.Expr, dialect: str, schema: Schema | None = None) -> list[str]:
    """The constructs of ``tree`` whose result the engine of ``dialect`` may choose.

    With ``schema``, a bare column of a table whose key the GROUP BY holds whole is
    determined (one value per group), not a choice: ``SELECT m.name, COUNT(*) ... GROUP
    BY m.id`` over ``m``'s primary key ``id``.

    Example:
        >>> import sqlglot
        >>> q = "SELECT a FROM t WHERE id = (SELECT id FROM p WHERE b = 1)"
        >>> arbitrary_choices(sqlglot.parse_one(q), "sqlite")
        ['a scalar subquery that may return several rows']
        >>> arbitrary_choices(sqlglot.parse_one(q), "duckdb")  # DuckDB raises instead
        []
        >>> arbitrary_choices(sqlglot.parse_one("SELECT SUM(x), name FROM t"), "sqlite")
        ['a bare column beside an aggregate (name)']
    """
    found: list[str] = []

    def note(what: str) -> None:
        if what not in found:
            found.append(what)

    for node in tree.walk():
        if isinstance(node, exp.Subquery) and _scalar(node) and dialect == "sqlite":
            note("a scalar subquery that may return several rows")
        elif isinstance(node, exp.Select):
            if node is not tree and (node.args.get("limit") or node.args.get("offset")):
                note("a LIMIT or OFFSET inside the query")
            distinct = node.args.get("distinct")
            if isinstance(distinct, exp.Distinct) and distinct.args.get("on"):
                note("DISTINCT ON")
            bare = _bare_column(node, schema) if dialect in ("sqlite", "mysql") else None
            if bare is not None:
                note(f"a bare column beside an aggregate ({bare})")
        elif isinstance(node, exp.SetOperation) and node is not tree:
            if node.args.get("limit") or node.args.get("offset"):
                note("a LIMIT or OFFSET inside the query")
        elif isinstance(node, _ORDERED_AGGREGATES) and not _ordered_within(node):
            note(f"{_name(node)} without an ORDER BY")
        elif isinstance(node, _PICKING_AGGREGATES):
            note(f"{_name(node)}, which picks a row")
        elif isinstance(node, exp.Anonymous) and node.name.lower() in _PICKING_NAMES:
            if not node.find(exp.Order):
                note(f"{node.name.upper()}, which picks a row or an order")
        elif isinstance(node, exp.Window) and _picking_window(node):
            note("a window function over rows that may tie")
    return found


def physical_orders(db: Database, *, every: bool = False) -> list[Database] | None:
    """``db`` with its rows in other orders: every table reversed, then shuffled with
    each of :data:`SHUFFLE_SEEDS`; with ``every``, then every other order too (each
    table's rows permuted, the tables' permutations combined), or None when there are
    more than :data:`MAX_ORDERS` of them. Orders equal to one already listed (or to
    ``db``) are left out.

    Independent choices need every order: DuckDB's ``any_value`` over two groups whose
    rows come in opposite orders picks the smaller value in one group and the larger
    in the other, in the given order and reversed alike.

    Example:
        >>> db = Database({"t": ((1,), (2,), (3,)), "u": ((9,),)})
        >>> physical_orders(db)[0].tables["t"]
        ((3,), (2,), (1,))
        >>> len(physical_orders(db, every=True))  # 3! orders, db's own left out
        5
        >>> physical_orders(Database({"t": ((1,),)}))  # one row: nothing to reorder
        []
    """
    tables = {name: rows for name, rows in db.tables.items() if rows}
    if every:
        count = 1
        for rows in tables.values():
            count *= _arrangements(rows)
        if count - 1 > MAX_ORDERS:
            return None
    seen = {_order_key(tables)}
    orders: list[Database] = []

    def add(other: dict[str, tuple[Row, ...]]) -> None:
        key = _order_key(other)
        if key not in seen:
            seen.add(key)
            orders.append(Database({**db.tables, **other}))

    add({name: rows[::-1] for name, rows in tables.items()})
    for seed in SHUFFLE_SEEDS:
        rng = random.Random(seed)
        add({name: tuple(rng.sample(rows, len(rows))) for name, rows in tables.items()})
    if every:
        names = sorted(tables)
        for combination in itertools.product(
            *(itertools.permutations(tables[name]) for name in names)
        ):
            add(dict(zip(names, combination, strict=True)))
    return orders


#: The most other orders :func:`physical_orders` lists with ``every`` (a database with
#: more is set aside where a query leaves a choice to the engine: the search then keeps
#: the small databases, on which every order is tried). 4! orders of one table, or
#: 3! x 2! x 2! of three.
MAX_ORDERS = 24


def _arrangements(rows: tuple[Row, ...]) -> int:
    """How many distinct orders ``rows`` has (equal rows are one row)."""
    count = math.factorial(len(rows))
    for copies in Counter(map(repr, rows)).values():
        count //= math.factorial(copies)
    return count


def _name(node: exp.Expr) -> str:
    return {"groupconcat": "GROUP_CONCAT", "arrayagg": "ARRAY_AGG", "anyvalue": "ANY_VALUE"}.get(
        node.key, node.key.upper()
    )


def _order_key(tables: dict[str, tuple[Row, ...]]) -> tuple[tuple[str, str], ...]:
    # repr: 1, 1.0 and True are one row to ``==`` but may be stored apart.
    return tuple(sorted((name, repr(rows)) for name, rows in tables.items()))


def _scalar(node: exp.Subquery) -> bool:
    """Whether a parenthesised query is used as a value (not a source, IN, EXISTS...)."""
    parent = node.parent
    if isinstance(parent, exp.From | exp.Join | exp.Lateral | exp.In | exp.Exists):
        return False
    if isinstance(parent, exp.SetOperation | exp.CTE | exp.Subquery):
        return False
    if isinstance(parent, exp.Any | exp.All):
        return False
    body = node.this
    # One aggregate row, whatever the data: an aggregate without GROUP BY.
    return not (
        isinstance(body, exp.Select)
        and not body.args.get("group")
        and body.expressions
        and all(_aggregate_only(e) for e in body.expressions)
    )


def _aggregate_only(projection: exp.Expr) -> bool:
    """Whether every column of ``projection`` is read inside an aggregate."""
    if not projection.find(exp.AggFunc):
        return False
    return all(_inside_aggregate(col) for col in projection.find_all(exp.Column))


def _inside_aggregate(node: exp.Expr) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, exp.AggFunc):
            return True
        if isinstance(parent, exp.Select | exp.Subquery):
            return False
        parent = parent.parent
    return False


def _bare_column(select: exp.Select, schema: Schema | None) -> str | None:
    """The first projected column of an aggregating SELECT that is neither aggregated,
    nor a GROUP BY expression, nor of a table whose key the GROUP BY holds (None if
    there is none)."""
    group = select.args.get("group")
    aggregates = [
        a for e in select.expressions for a in e.find_all(exp.AggFunc) if _own(a, select)
    ]
    if group is None and not aggregates:
        return None
    keys = group.expressions if group is not None else []
    grouped = {g.sql() for g in keys}
    grouped_names = {g.name for g in keys if isinstance(g, exp.Column)}
    determined = _keyed_aliases(select, keys, schema)
    for projection in select.expressions:
        inner = projection.this if isinstance(projection, exp.Alias) else projection
        if inner.sql() in grouped:
            continue
        for column in projection.find_all(exp.Column):
            if not _own(column, select) or _inside_aggregate(column):
                continue
            if column.sql() in grouped or column.name in grouped_names:
                continue
            if column.table and column.table in determined:
                continue
            return str(column.sql())
    return None


def _keyed_aliases(select: exp.Select, keys: list[exp.Expr], schema: Schema | None) -> set[str]:
    """The aliases of ``select``'s tables (read by inner joins or FROM) whose every
    column the GROUP BY ``keys`` determine: they hold a distinct key of the table whole."""
    if schema is None or not keys:
        return set()
    grouped: dict[str, set[str]] = {}
    for key in keys:
        if isinstance(key, exp.Column) and key.table:
            grouped.setdefault(key.table, set()).add(key.name.lower())
    found: set[str] = set()
    sources = [select.args.get("from_"), *(select.args.get("joins") or [])]
    for source in sources:
        table = source.this if source is not None else None
        if not isinstance(table, exp.Table) or table.args.get("db"):
            continue
        if isinstance(source, exp.Join) and source.side:
            continue  # a padded row's NULL key determines nothing of the group
        alias = table.alias_or_name
        try:
            declared = schema.table(table.name)
        except KeyError:
            continue  # a CTE
        if declared.keyed_by(grouped.get(alias, ())):
            found.add(alias)
    return found


def _own(node: exp.Expr, select: exp.Select) -> bool:
    """Whether ``node`` belongs to ``select`` itself, not to a subquery inside it."""
    return node.parent_select is select


def _ordered_within(node: exp.Expr) -> bool:
    return node.find(exp.Order) is not None


def _picking_window(window: exp.Window) -> bool:
    function = window.this
    if isinstance(function, exp.IgnoreNulls | exp.RespectNulls):
        function = function.this
    if isinstance(function, _PICKING_WINDOWS + _PICKING_AGGREGATES + _ORDERED_AGGREGATES):
        return True
    spec = window.args.get("spec")
    return isinstance(spec, exp.WindowSpec) and str(spec.args.get("kind") or "").upper() == "ROWS"


__all__ = ["MAX_ORDERS", "SHUFFLE_SEEDS", "arbitrary_choices", "physical_orders"]
