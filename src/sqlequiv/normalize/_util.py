"""Helpers shared by the normalization rules.

Every rule must keep the tree's meaning exactly (a wrong rewrite is a false
proof), so most helpers here answer a conservative question: "is this node
simple enough that the textbook rewrite is obviously valid?". When the answer
is unclear they say no, and the rule leaves the node alone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from typing import TypeVar

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from sqlequiv.policy import is_volatile

N = TypeVar("N", bound=exp.Expr)

#: The arguments of a set operation that has nothing of its own (no ORDER BY or LIMIT).
_SET_OPERATION = frozenset({"this", "expression", "distinct"})

#: Comparison operators whose truth value is NULL as soon as one side is NULL.
COMPARISONS: tuple[type[exp.Expr], ...] = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
#: Each comparison and the one that means the same with its operands swapped.
MIRRORED: dict[type[exp.Expr], type[exp.Expr]] = {
    exp.EQ: exp.EQ,
    exp.NEQ: exp.NEQ,
    exp.NullSafeEQ: exp.NullSafeEQ,
    exp.NullSafeNEQ: exp.NullSafeNEQ,
    exp.GT: exp.LT,
    exp.LT: exp.GT,
    exp.GTE: exp.LTE,
    exp.LTE: exp.GTE,
}

#: Nodes that render as one token or a self-delimited group: they never need
#: parentheses, whatever operator they are an operand of.
ATOMIC: tuple[type[exp.Expr], ...] = (
    exp.Column,
    exp.Literal,
    exp.Null,
    exp.Boolean,
    exp.Paren,
    exp.Subquery,
    exp.Star,
    exp.Exists,
    exp.Any,
    exp.All,
)

#: Functions that render as ``NAME(arguments)`` (or ``CASE ... END``): their
#: arguments are comma-separated slots and the call itself is self-delimited.
CALLS: tuple[type[exp.Expr], ...] = (
    exp.AggFunc,
    exp.Anonymous,
    exp.Cast,
    exp.TryCast,
    exp.Case,
    exp.If,
    exp.Coalesce,
    exp.Nullif,
    exp.Greatest,
    exp.Least,
    exp.Upper,
    exp.Lower,
    exp.Length,
    exp.Abs,
    exp.Round,
    exp.Floor,
    exp.Ceil,
    exp.DateTrunc,
    exp.TimestampTrunc,
    exp.Extract,
    exp.Substring,
    exp.Trim,
    exp.Rand,
    exp.Window,
)

#: Parents whose child slot is a list item or a clause body, never an operator
#: operand, so the child's precedence cannot matter.
SLOT_PARENTS: tuple[type[exp.Expr], ...] = (
    exp.Alias,
    exp.Select,
    exp.Where,
    exp.Having,
    exp.Qualify,
    exp.Group,
    exp.Ordered,
    exp.Tuple,
    exp.Paren,
    exp.Join,
    *CALLS,
)


_T = exp.DataType.Type
_EXACT_NUMERIC = frozenset(
    {_T.TINYINT, _T.SMALLINT, _T.INT, _T.BIGINT, _T.UTINYINT, _T.USMALLINT, _T.UINT, _T.DECIMAL}
)
_TEXT = frozenset({_T.VARCHAR, _T.TEXT, _T.CHAR, _T.NVARCHAR, _T.NCHAR})
_TEMPORAL = frozenset({_T.DATE, _T.TIMESTAMP, _T.TIMESTAMPNTZ, _T.DATETIME})
_FLOAT = frozenset({_T.FLOAT, _T.DOUBLE})
#: The floating-point types, whose -0.0/0.0 and NaN make equality and grouping delicate.
FLOAT_TYPES = _FLOAT


def same_exact_family(*nodes: exp.Expr) -> bool:
    """Whether the annotated types of ``nodes`` convert into each other exactly.

    Integers and decimals; strings; dates and timestamps without time zone; or
    one single floating-point type. Comparing such values pairwise or after a
    common cast gives the same answer, so rewrites that change how operands are
    grouped for typing (BETWEEN, IN) keep their meaning.
    """
    kinds = set()
    for node in nodes:
        data_type = node.type
        if data_type is None:
            return False
        kinds.add(data_type.this)
    return any(kinds <= family for family in (_EXACT_NUMERIC, _TEXT, _TEMPORAL)) or (
        len(kinds) == 1 and kinds <= _FLOAT
    )


#: A string literal that reads as a date alone: cast to a DATE or to a TIMESTAMP, it is
#: the same instant (midnight), so it compares with either type alike.
ISO_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")


def compared_with(node: exp.Expr) -> exp.Expr | None:
    """What ``node`` is compared with: the other operand of the comparison (``=``, ``<>``,
    ``<``, ...) it is an operand of, or the subject of the BETWEEN it is a bound of; else
    None.

    Example:
        >>> import sqlglot
        >>> e = sqlglot.parse_one("SELECT 1 FROM t WHERE t.a BETWEEN 1 AND t.b + 2")
        >>> compared_with(e.find(exp.Add)).sql()
        't.a'
    """
    parent = node.parent
    other: exp.Expr | None = None
    if isinstance(parent, COMPARISONS):
        other = parent.expression if parent.this is node else parent.this
    elif isinstance(parent, exp.Between) and parent.this is not node:
        other = parent.this
    return other


def compared_alike(subject: exp.Expr, *others: exp.Expr) -> bool:
    """Whether ``subject`` compares with each of ``others`` in one pair as it does with all
    of them typed together (as BETWEEN types its three operands).

    :func:`same_exact_family` operands, counting a decimal literal as the exact number
    DuckDB, PostgreSQL and MySQL read (sqlglot types it DOUBLE; SQLite, which reads a
    REAL, compares BETWEEN's operands pairwise anyway); a DOUBLE against exact numbers
    or DOUBLEs (each
    pair is compared as DOUBLE either way, DOUBLE being the widest numeric type); a
    date or timestamp against dates, timestamps and string literals that spell a date
    (the cast to either type is the same midnight, and a DATE widens to a TIMESTAMP
    without changing its order).

    Example:
        >>> import sqlglot
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> e = annotate_types(sqlglot.parse_one(
        ...     "SELECT CAST(x AS DOUBLE) BETWEEN 1 AND 2.5, CAST(x AS DATE) BETWEEN '2001-3-4' "
        ...     "AND CAST(y AS TIMESTAMP), CAST(x AS INT) BETWEEN 1 AND 2.5E0"))
        >>> [compared_alike(b.this, b.args["low"], b.args["high"])
        ...  for b in e.find_all(exp.Between)]
        [True, True, False]
    """
    if same_exact_family(subject, *others):
        return True
    if _exact_number(subject) and all(_exact_number(other) for other in others):
        return True
    kind = subject.type.this if subject.type is not None else None
    if kind == _T.DOUBLE:
        return all(
            other.type is not None and other.type.this in _EXACT_NUMERIC | {_T.DOUBLE}
            for other in others
        )
    if kind in _TEMPORAL:
        return all(
            (other.type is not None and other.type.this in _TEMPORAL)
            or (
                isinstance(other, exp.Literal)
                and other.is_string
                and ISO_DATE.fullmatch(other.name) is not None
            )
            for other in others
        )
    return False


def _exact_number(node: exp.Expr) -> bool:
    """An exact numeric type, or a numeric literal written without exponent."""
    if node.type is not None and node.type.this in _EXACT_NUMERIC:
        return True
    if isinstance(node, exp.Neg):
        node = node.this
    return (
        isinstance(node, exp.Literal)
        and not node.is_string
        and node.name.replace(".", "", 1).isdigit()
        and len(node.name) <= 19
    )


def sql_text(node: exp.Expr) -> str:
    """The DuckDB SQL of ``node``: the text every sort key is built from."""
    return node.sql(dialect="duckdb")


def is_deterministic(node: exp.Expr) -> bool:
    """Whether two evaluations of ``node`` on the same row surely give the same value.

    Conservative: volatile functions, window functions (whose value depends on
    an order that may have ties) and subqueries (which may contain a LIMIT
    without a total order) all count as non-deterministic.
    """
    if is_volatile(node):
        return False
    return not any(isinstance(sub, exp.Window | exp.Query) for sub in node.walk())


#: Aggregates whose value does not depend on the order they read rows in.
ORDER_INSENSITIVE_AGGREGATES: tuple[type[exp.Expr], ...] = (
    exp.Count,
    exp.Sum,
    exp.Avg,
    exp.Min,
    exp.Max,
)


def reproducible(body: exp.Expr) -> bool:
    """Whether ``body`` returns the same rows each time it runs on the same database: no
    volatile call, no LIMIT/OFFSET/FETCH or window (tied rows), no sample, no aggregate
    that depends on the order of its rows, no DISTINCT ON."""
    if is_volatile(body) or contains(
        body, exp.Limit, exp.Offset, exp.Fetch, exp.Window, exp.TableSample
    ):
        return False
    for node in body.walk():
        if isinstance(node, exp.AggFunc) and not isinstance(node, ORDER_INSENSITIVE_AGGREGATES):
            return False
        if isinstance(node, exp.Distinct) and node.args.get("on"):
            return False
    return True


def is_inside(node: exp.Expr, ancestor: exp.Expr) -> bool:
    """Whether ``ancestor`` is a proper ancestor of ``node``."""
    parent = node.parent
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.parent
    return False


def contains(node: exp.Expr, *types: type[exp.Expr]) -> bool:
    """Whether ``node`` or any descendant is an instance of ``types``."""
    return any(isinstance(sub, types) for sub in node.walk())


def wrap_operand(node: exp.Expr) -> exp.Expr:
    """Parenthesize ``node`` unless it is atomic, for use as an operator operand.

    The canonical SQL text is only a faithful picture of the tree when every
    operand that binds more loosely than its operator is parenthesized; adding
    parentheses around anything non-atomic is always safe.
    """
    return node if self_delimited(node) else exp.Paren(this=node)


def self_delimited(node: exp.Expr) -> bool:
    """Whether ``node`` renders as one token or a self-delimited group (never needs parens)."""
    # A call class that is also an operator (``->``, ``||``) would render infix.
    return isinstance(node, ATOMIC) or (
        isinstance(node, CALLS) and not isinstance(node, exp.Binary | exp.Unary | exp.Predicate)
    )


#: Operators that bind more loosely than a comparison: as a comparison operand
#: they need parentheses.
LOOSE: tuple[type[exp.Expr], ...] = (exp.Connector, exp.Not, exp.Predicate)

#: Arithmetic and concatenation, which bind more tightly than any comparison.
TIGHT: tuple[type[exp.Expr], ...] = (
    exp.Add,
    exp.Sub,
    exp.Mul,
    exp.Div,
    exp.IntDiv,
    exp.Mod,
    exp.DPipe,
    exp.Neg,
)


def comparison_operand(node: exp.Expr) -> exp.Expr:
    """Parenthesize ``node`` if it binds more loosely than a comparison operator."""
    if isinstance(node, LOOSE) and not isinstance(node, exp.Any | exp.All):
        return exp.Paren(this=node)
    return node


def needs_parens(node: exp.Expr, parent: exp.Expr | None) -> bool:
    """Whether ``node`` placed under ``parent`` must be parenthesized."""
    if parent is None or isinstance(parent, SLOT_PARENTS):
        return False
    return not self_delimited(node)


def replace_keeping_precedence(old: exp.Expr, new: exp.Expr) -> None:
    """Replace ``old`` by ``new``, adding parentheses when the context needs them."""
    if needs_parens(new, old.parent):
        new = exp.Paren(this=new)
    old.replace(new)


def flatten(node: exp.Expr, kind: type[exp.Connector]) -> list[exp.Expr]:
    """The operands of a chain of ``kind`` (AND or OR), looking through parentheses."""
    inner = node.unnest()
    if isinstance(inner, kind):
        return flatten(inner.this, kind) + flatten(inner.expression, kind)
    return [inner]


def conjuncts(node: exp.Expr | None) -> list[exp.Expr]:
    """The conjuncts of a condition (empty for ``None``)."""
    return [] if node is None else flatten(node, exp.And)


def build_chain(operands: list[exp.Expr], kind: type[exp.Connector]) -> exp.Expr:
    """A left-deep chain of ``kind`` over ``operands``, parenthesizing weaker operands."""
    wrapped = [_wrap_for(op, kind) for op in operands]
    result = wrapped[0]
    for operand in wrapped[1:]:
        result = kind(this=result, expression=operand)
    return result


def _wrap_for(operand: exp.Expr, kind: type[exp.Connector]) -> exp.Expr:
    # OR binds more loosely than AND; an AND under OR gets parentheses too, for
    # readability (sqlglot's own ``or_`` does the same).
    if isinstance(operand, exp.Connector) and not isinstance(operand, kind):
        return exp.Paren(this=operand)
    return operand


def and_all(conditions: Iterable[exp.Expr | None]) -> exp.Expr | None:
    """AND of the non-``None`` conditions, or ``None`` when there are none.

    Literal TRUE conjuncts are dropped (``p AND TRUE`` is ``p`` in three-valued
    logic, and a WHERE that is TRUE keeps every row), so ``JOIN ... ON TRUE``
    meets a comma join.
    """
    parts: list[exp.Expr] = []
    for condition in conditions:
        parts.extend(
            part
            for part in conjuncts(condition)
            if not (isinstance(part, exp.Boolean) and part.this is True)
        )
    return build_chain(parts, exp.And) if parts else None


def set_where(select: exp.Select, condition: exp.Expr | None) -> None:
    """Set (or clear) the WHERE clause of ``select``."""
    select.set("where", exp.Where(this=condition) if condition is not None else None)


def plain_group(select: exp.Select) -> list[exp.Expr] | None:
    """The keys of ``select``'s GROUP BY when it is a plain, non-empty list of keys; None
    without one, and for ROLLUP, CUBE, GROUPING SETS or ``GROUP BY ()``, which have a
    grand total (a group, and so a row, even over no row)."""
    group = select.args.get("group")
    if group is None or truthy_args(group) != {"expressions"} or not group.expressions:
        return None
    keys: list[exp.Expr] = list(group.expressions)
    if any(isinstance(k, exp.Rollup | exp.Cube | exp.GroupingSets) for k in keys):
        return None
    return keys


def truthy_args(node: exp.Expr) -> set[str]:
    """The names of the arguments of ``node`` that are set."""
    return {k for k, v in node.args.items() if v not in (None, False, [])}


def is_simple_table(node: exp.Expr) -> bool:
    """A plain base-table (or CTE) reference ``name AS alias``."""
    return (
        isinstance(node, exp.Table)
        and isinstance(node.this, exp.Identifier)
        and truthy_args(node) <= {"this", "alias", "db", "catalog"}
        and _plain_alias(node)
    )


def is_simple_subquery(node: exp.Expr) -> bool:
    """A non-lateral derived table ``(query) AS alias`` with no column list."""
    return (
        isinstance(node, exp.Subquery)
        and isinstance(node.this, exp.Query)
        and truthy_args(node) <= {"this", "alias"}
        and _plain_alias(node)
    )


def _plain_alias(node: exp.Expr) -> bool:
    alias = node.args.get("alias")
    if alias is None:
        return True
    return (
        isinstance(alias, exp.TableAlias)
        and isinstance(alias.this, exp.Identifier)
        and not alias.args.get("columns")
    )


def is_simple_source(node: exp.Expr) -> bool:
    """A source a rule may move around: a plain table or a plain derived table."""
    return is_simple_table(node) or is_simple_subquery(node)


def outer_join_side(join: exp.Join) -> str | None:
    """``"LEFT"``, ``"RIGHT"`` or ``"FULL"`` for a plain outer join (``[OUTER]``, an ON or
    none, no USING, NATURAL or lateral); None for anything else, inner joins and
    ``LEFT SEMI``/``LEFT ANTI`` joins included (sqlglot reads those with a LEFT side)."""
    if truthy_args(join) - {"this", "on", "side", "kind"}:
        return None
    side = (join.args.get("side") or "").upper()
    kind = (join.args.get("kind") or "").upper()
    return side if side in ("LEFT", "RIGHT", "FULL") and kind in ("", "OUTER") else None


def is_inner_or_left_join(join: exp.Join) -> bool:
    """An inner, cross, comma or LEFT [OUTER] join, with an ON or none (no USING, NATURAL,
    ASOF, SEMI or ANTI): a join that keeps every row of the sources before it."""
    if truthy_args(join) - {"this", "on", "kind", "side"}:
        return False
    kind = (join.args.get("kind") or "").upper()
    side = (join.args.get("side") or "").upper()
    return kind in ("", "INNER", "CROSS", "OUTER") and side in ("", "LEFT")


#: Parents under which a parenthesised query is not read as one value: a source, a set
#: operation's operand, a CTE, the query of IN, EXISTS, ANY or ALL.
_NOT_A_VALUE: tuple[type[exp.Expr], ...] = (
    exp.In,
    exp.Exists,
    exp.Any,
    exp.All,
    exp.From,
    exp.Join,
    exp.Lateral,
    exp.SetOperation,
    exp.With,
    exp.CTE,
)


def read_as_value(subquery: exp.Subquery) -> bool:
    """Whether ``subquery`` stands where its one value is read (a scalar subquery)."""
    return not isinstance(subquery.parent, _NOT_A_VALUE)


def is_inner_join(join: exp.Join) -> bool:
    """An inner, cross or comma join with a plain source and no USING/NATURAL."""
    return (
        truthy_args(join) <= {"this", "on", "kind"}
        and (join.args.get("kind") or "").upper() in ("", "INNER", "CROSS")
        and is_simple_source(join.this)
    )


def from_items(select: exp.Select) -> list[exp.Expr]:
    """The sources of ``select`` in FROM/JOIN order (empty without a FROM)."""
    from_ = select.args.get("from_")
    if from_ is None:
        return []
    return [from_.this] + [join.this for join in select.args.get("joins") or []]


def is_flat_inner(select: exp.Select) -> bool:
    """Whether the FROM clause of ``select`` is a comma list of plain sources.

    That is the shape ``flatten_inner_joins`` produces: no ON conditions left,
    no outer joins, no lateral or table-function sources.
    """
    from_ = select.args.get("from_")
    if from_ is None or truthy_args(from_) != {"this"} or not is_simple_source(from_.this):
        return False
    if select.args.get("laterals") or select.args.get("pivots"):
        return False
    return all(is_inner_join(j) and not j.args.get("on") for j in select.args.get("joins") or [])


def remove_source(select: exp.Select, source: exp.Expr) -> None:
    """Drop ``source`` (one of :func:`from_items`) from ``select``'s FROM: the first join's
    source takes its place when it is the FROM's own."""
    joins = list(select.args.get("joins") or [])
    from_ = select.args["from_"]
    if from_.this is source:
        from_.set("this", joins.pop(0).this)
    else:
        joins = [j for j in joins if j.this is not source]
    select.set("joins", joins or None)


def source_alias(node: exp.Expr) -> str:
    """The name a source is referenced by (its alias, else its name)."""
    return node.alias_or_name


def output_names(query: exp.Expr) -> list[str] | None:
    """The output column names of a query (from the leftmost SELECT of a set operation)."""
    leaf = leftmost_select(query)
    if leaf is None:
        return None
    return [projection.alias_or_name for projection in leaf.expressions]


def leftmost_select(query: exp.Expr) -> exp.Select | None:
    """The SELECT whose projection names a query's output columns."""
    node: exp.Expr = query
    while True:
        node = node.unnest() if isinstance(node, exp.Paren) else node
        if isinstance(node, exp.Subquery | exp.SetOperation):
            node = node.this
        else:
            break
    return node if isinstance(node, exp.Select) else None


def set_operation_leaves(query: exp.Expr) -> Iterator[exp.Expr]:
    """The branches of a (possibly nested) set operation, left to right."""
    node = query.this if isinstance(query, exp.Subquery) else query
    if isinstance(node, exp.SetOperation):
        yield from set_operation_leaves(node.this)
        yield from set_operation_leaves(node.expression)
    else:
        yield node


def union_all_selects(
    query: exp.Expr, *, parenthesised: bool = False
) -> list[exp.Select] | None:
    """``[query]`` for a SELECT; the SELECTs of a chain of UNION ALLs with nothing of their
    own (no ORDER BY, LIMIT...: every row of each branch, columns by position), left to
    right; else None. With ``parenthesised``, a branch may be a parenthesised chain too.

    Example:
        >>> import sqlglot
        >>> q = sqlglot.parse_one("SELECT a FROM t UNION ALL SELECT b FROM u")
        >>> [s.sql() for s in union_all_selects(q)]
        ['SELECT a FROM t', 'SELECT b FROM u']
        >>> union_all_selects(sqlglot.parse_one("SELECT a FROM t UNION SELECT b FROM u")) is None
        True
    """
    if isinstance(query, exp.Select):
        return [query]
    if parenthesised and isinstance(query, exp.Subquery) and truthy_args(query) == {"this"}:
        return union_all_selects(query.this, parenthesised=True)
    if not isinstance(query, exp.Union) or truthy_args(query) != {"this", "expression"}:
        return None  # UNION (DISTINCT), or an ORDER BY or LIMIT of its own
    left = union_all_selects(query.this, parenthesised=parenthesised)
    right = union_all_selects(query.expression, parenthesised=parenthesised)
    return None if left is None or right is None else left + right


def scopes(root: exp.Expr) -> list[Scope] | None:
    """sqlglot's scopes of ``root`` (innermost first), or ``None`` if it cannot build them."""
    try:
        return traverse_scope(root)
    except Exception:  # sqlglot raises assorted errors on shapes it does not know
        return None


def unqualified_columns_in_scope(query: exp.Expr) -> bool:
    """Whether a SELECT has column references without a table qualifier.

    After qualification those are references to output aliases (``ORDER BY
    name``); a rule that renames or drops aliases must leave such scopes alone.
    Nested queries are not searched: they are scopes of their own.
    """
    stack: list[exp.Expr] = [
        child for child in query.iter_expressions() if not isinstance(child, exp.With)
    ]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Query):
            continue
        if isinstance(node, exp.Column) and not node.table:
            return True
        stack.extend(node.iter_expressions())
    return False


def is_integer_literal(node: exp.Expr) -> bool:
    """A non-negative integer literal (an ordinal in ORDER BY / GROUP BY)."""
    return isinstance(node, exp.Literal) and not node.is_string and node.is_int


def limit_rows(query: exp.Expr) -> int | None:
    """The row count of ``query``'s ``LIMIT n`` or ``FETCH FIRST/NEXT n ROWS ONLY`` (a literal
    ``n``, no OFFSET part, no PERCENT or WITH TIES), else None."""
    limit = query.args.get("limit")
    if isinstance(limit, exp.Limit) and truthy_args(limit) == {"expression"}:
        value = limit.expression
    elif isinstance(limit, exp.Fetch) and truthy_args(limit) <= {"direction", "count",
                                                                 "limit_options"}:  # fmt: skip
        options = limit.args.get("limit_options")
        if options is not None and truthy_args(options) - {"rows"}:
            return None  # PERCENT or WITH TIES
        value = limit.args.get("count")
    else:
        return None
    return int(value.to_py()) if is_integer_literal(value) else None


def remap_ordinals(select: exp.Select, order: list[int]) -> bool:
    """Renumber the ordinals of ``select``'s GROUP BY and ORDER BY for its projections put
    in ``order`` (new position ``i`` holds old position ``order[i]``, from 0); False, with
    nothing changed, when a key is read by position some other way (``ORDER BY ALL``, a
    bare word, an ordinal out of range). ``sort_projections`` and ``sort_derived_columns``
    permute projections with it."""
    new_position = {old + 1: new + 1 for new, old in enumerate(order)}
    clauses: list[exp.Expr] = []
    if (group := select.args.get("group")) is not None:
        clauses.extend(group.expressions)
    if (sort := select.args.get("order")) is not None:
        clauses.extend(ordered.this for ordered in sort.expressions)
    for item in clauses:
        if is_integer_literal(item):
            if int(item.name) not in new_position:
                return False
        elif not _position_independent(item):
            return False
    for item in clauses:
        if is_integer_literal(item):
            item.replace(exp.Literal.number(new_position[int(item.name)]))
    return True


def _position_independent(key: exp.Expr) -> bool:
    """Whether a GROUP BY / ORDER BY key names its value without using positions.

    ``ORDER BY ALL`` (DuckDB) sorts by every column from left to right, and
    other bare words or constants may be read positionally by some engine, so
    only keys that read a column (qualified, or an output alias) or compute an
    aggregate or window value are accepted.
    """
    if isinstance(key, exp.Column):
        return bool(key.table) or key.name.lower() != "all"
    return contains(key, exp.Column, exp.AggFunc, exp.Window) and not isinstance(
        key, exp.Var | exp.Literal
    )


def reverse_preorder(root: exp.Expr) -> list[exp.Expr]:
    """Every node of ``root``, descendants before their ancestors."""
    return list(reversed(list(root.dfs())))


Binding = tuple[int, str]


def bind_columns(all_scopes: list[Scope]) -> dict[int, Binding]:
    """Map ``id(column)`` to ``(id(select), source name)`` for every bound column.

    A correlated reference is bound to the enclosing scope that declares its
    source (sqlglot lists it among that scope's columns), so each qualified
    column is bound exactly once.
    """
    bound: dict[int, Binding] = {}
    for scope in all_scopes:
        for name in scope.selected_sources:
            for column in scope.source_columns(name):
                bound[id(column)] = (id(scope.expression), name)
    return bound


def all_qualified_columns_bound(root: exp.Expr, bound: dict[int, Binding]) -> bool:
    """Whether every ``table.column`` reference in ``root`` has a binding."""
    return all(id(c) in bound for c in root.find_all(exp.Column) if c.table)


def own_columns(select: exp.Select, skip: exp.Expr) -> list[exp.Column]:
    """Columns of ``select``'s own scope (nested queries and ``skip`` excluded)."""
    return own_nodes(select, exp.Column, skip)


def own_nodes(select: exp.Select, kind: type[N], skip: exp.Expr | None = None) -> list[N]:
    """The ``kind`` nodes of ``select``'s own scope (nested queries and ``skip``
    excluded), outermost first on each path: one inside another is not listed."""
    found: list[N] = []
    stack: list[exp.Expr] = [c for c in select.iter_expressions() if c is not skip]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Query) or node is skip:
            continue
        if isinstance(node, kind):
            found.append(node)
            continue
        stack.extend(node.iter_expressions())
    return found


def fresh_name(root: exp.Expr, base: str) -> str:
    """``base_0``, ``base_1``, ...: the first that no identifier of ``root`` spells (in
    any case: an unquoted name matches whatever its case)."""
    taken = {identifier.name.lower() for identifier in root.find_all(exp.Identifier)}
    return next(f"{base}_{n}" for n in itertools.count() if f"{base}_{n}".lower() not in taken)


def rename_sources_apart(root: exp.Expr, inner_scope: Scope) -> None:
    """Give the inner query's sources names used nowhere else in the statement.

    Fresh names cannot capture or be captured by any other reference once the
    sources move into the outer scope.
    """
    taken = {identifier.name.lower() for identifier in root.find_all(exp.Identifier)}
    renames: list[tuple[exp.Expr, list[exp.Column]]] = []
    for name, (source_node, _source) in inner_scope.selected_sources.items():
        renames.append((source_node, list(inner_scope.source_columns(name))))
    counter = 0
    for node, columns in renames:
        while f"_m{counter}" in taken:
            counter += 1
        fresh = f"_m{counter}"
        taken.add(fresh)
        for column in columns:
            column.set("table", exp.to_identifier(fresh))
        holder = node if isinstance(node, exp.Table) else node.parent
        if holder is not None:
            holder.set("alias", exp.TableAlias(this=exp.to_identifier(fresh)))


def named_projections(select: exp.Select) -> dict[str, exp.Expr] | None:
    """Each output name of ``select`` and the expression it names (unaliased); None when
    a projection is neither a column nor aliased, or two share a name."""
    named: dict[str, exp.Expr] = {}
    for projection in select.expressions:
        name = projection.alias_or_name
        if not isinstance(projection, exp.Alias | exp.Column) or not name or name in named:
            return None
        named[name] = projection.unalias()
    return named


def substitute(columns: Iterable[exp.Column], values: dict[str, exp.Expr]) -> None:
    """Replace each of ``columns`` by a copy of the value its name has in ``values`` (as
    an output column of the same name where the column is one)."""
    for column in columns:
        value = values[column.name].copy()
        if isinstance(column.parent, exp.Select):
            value = exp.Alias(this=value, alias=exp.to_identifier(column.name))
        replace_keeping_precedence(column, value)


def is_not_null_test(condition: exp.Expr, column: exp.Column) -> bool:
    """Whether ``condition`` is ``column IS NOT NULL``."""
    test = condition.unnest()
    if not isinstance(test, exp.Not):
        return False
    inner = test.this.unnest()
    return (
        isinstance(inner, exp.Is)
        and isinstance(inner.expression, exp.Null)
        and inner.this == column
    )


def same_declared_type(x: exp.Expr, y: exp.Expr) -> bool:
    """Whether ``x`` and ``y`` are annotated with one and the same known type (SQLite's
    ``IN`` and ``=`` may convert values differently when they are not)."""
    known = (x.type, y.type)
    if any(t is None or t.this == exp.DataType.Type.UNKNOWN for t in known):
        return False
    return bool(known[0].sql() == known[1].sql())  # type: ignore[union-attr]


def pinned_column(condition: exp.Expr, alias: str) -> str | None:
    """The column of ``alias`` that ``condition`` equates, by ``=`` between operands of one
    declared type, with a deterministic expression that does not read ``alias``."""
    if not isinstance(condition, exp.EQ):
        return None
    for mine, other in ((condition.this, condition.expression),
                        (condition.expression, condition.this)):  # fmt: skip
        if not isinstance(mine, exp.Column) or mine.table != alias:
            continue
        if any(c.table == alias for c in other.find_all(exp.Column)):
            continue
        if same_declared_type(mine, other) and is_deterministic(other):
            return mine.name
    return None


def in_subquery(node: exp.In, clauses: frozenset[str]) -> tuple[exp.Column, exp.Select] | None:
    """``(x, select)`` for ``x IN (select)``: ``x`` a qualified column, ``select`` a SELECT
    of one projection that sets no clause but ``clauses`` and binds no source under
    ``x``'s alias (which would capture ``x`` moved into it); else None."""
    query, x = node.args.get("query"), node.this
    if node.expressions or truthy_args(node) - {"this", "query"} or not isinstance(x, exp.Column):
        return None
    if not isinstance(query, exp.Subquery) or not isinstance(query.this, exp.Select):
        return None
    sub = query.this
    if truthy_args(query) != {"this"} or truthy_args(sub) - clauses or len(sub.expressions) != 1:
        return None
    if not x.table or any(
        n.alias_or_name == x.table for n in sub.find_all(exp.Table, exp.Subquery)
    ):
        return None
    return x, sub


def distinct_select_sides(node: exp.SetOperation) -> tuple[exp.Select, exp.Select] | None:
    """The two SELECTs of ``node``, a set operation with DISTINCT semantics (not ALL) and
    nothing of its own (no ORDER BY or LIMIT); else None."""
    if node.args.get("distinct") is not True or truthy_args(node) - _SET_OPERATION:
        return None
    left, right = node.this, node.expression
    if not (isinstance(left, exp.Select) and isinstance(right, exp.Select)):
        return None
    return left, right


def one_branch_case(node: exp.Expr) -> tuple[exp.Expr, exp.Expr, exp.Expr | None] | None:
    """``(p, then, default)`` for ``CASE WHEN p THEN then [ELSE default] END`` (``default``
    None without ELSE); None for anything else."""
    if not isinstance(node, exp.Case) or "ifs" not in truthy_args(node):
        return None
    if truthy_args(node) - {"ifs", "default"} or len(node.args["ifs"]) != 1:
        return None
    branch = node.args["ifs"][0]
    if not isinstance(branch, exp.If) or truthy_args(branch) != {"this", "true"}:
        return None
    return branch.this, branch.args["true"], node.args.get("default")
