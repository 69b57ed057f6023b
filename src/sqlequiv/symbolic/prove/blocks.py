"""Query blocks: the shape the prover compares.

A canonical query (see :mod:`sqlequiv.normalize`) is read into a small tree:
a :class:`Block` is one SELECT — its inner-joined sources, the LEFT joins
applied after them, the WHERE conjuncts (inner-join ON conditions included),
grouping, HAVING, DISTINCT, ORDER BY and the output expressions; a
:class:`SetOp` combines queries with UNION / INTERSECT / EXCEPT. Sources are
base tables or derived queries. Anything the prover cannot reason about
exactly (LIMIT, window functions, USING joins, FULL joins, GROUPING SETS,
VALUES with rows that matter, ...) raises :class:`NotABlock`, and the pair
goes on to the later stages.

Why inner-join ON conditions may join the WHERE and inner sources may come
before every LEFT join: ``X JOIN c ON q`` is ``s_q(X x c)``, selections
commute, and ``(X LEFT JOIN_r d) x c = (X x c) LEFT JOIN_r d`` whenever ``r`` does not mention
``c`` — which holds because ``r`` was written before ``c`` joined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from sqlglot import exp

__all__ = [
    "Block",
    "LeftJoin",
    "NotABlock",
    "Query",
    "SetOp",
    "Source",
    "conjuncts",
    "fk_conjuncts",
    "has_aggregate",
    "read_query",
    "select_from",
]


class NotABlock(Exception):
    """The query uses a construct outside the prover's fragment."""


@dataclass
class Source:
    """One FROM item: a base table or a derived query, under an alias."""

    alias: str
    table: str | None = None
    query: Query | None = None
    #: Output column names of a derived query, in order.
    columns: tuple[str, ...] = ()
    #: A VALUES list (kept so that an always-false block can still be read).
    values: bool = False

    def position(self, name: str) -> int | None:
        """The position of the derived column ``name`` (case-insensitive); None if absent
        or ambiguous."""
        lowered = [c.lower() for c in self.columns]
        return lowered.index(name.lower()) if lowered.count(name.lower()) == 1 else None

    @property
    def signature(self) -> str:
        """What must agree for two sources to be matched."""
        if self.table is not None:
            return f"table:{self.table}"
        return f"derived:{len(self.columns)}"


@dataclass
class LeftJoin:
    """``... LEFT JOIN source ON on`` applied after the inner sources."""

    source: Source
    on: exp.Expr
    #: ``FULL JOIN``: the block's one inner source is padded too (see :attr:`Block.full`).
    full: bool = False


@dataclass
class Block:
    """One SELECT."""

    sources: list[Source]
    left_joins: list[LeftJoin]
    where: list[exp.Expr]
    outputs: list[exp.Expr]
    group: list[exp.Expr] | None
    having: exp.Expr | None
    distinct: bool
    order: list[exp.Ordered]
    aggregate: bool
    node: exp.Select = field(repr=False)
    #: ``LIMIT n`` (top level only, or 0 anywhere) and ``OFFSET m``.
    limit: int | None = None
    offset: int = 0
    #: Aliases of dropped sources, and the alias that now stands for each.
    redirect: dict[str, str] = field(default_factory=dict)

    @property
    def windowed(self) -> bool:
        """Whether an output is (or reads) a window function: its value depends on the
        whole bag of the block's rows, which no rewrite may change."""
        return any(isinstance(n, exp.Window) for o in self.outputs for n in own_nodes(o))

    @property
    def full(self) -> bool:
        """``a FULL JOIN b ON p``: one inner source ``a`` and one join ``b``, both of which
        may be the NULL padding (never both on one row)."""
        return any(j.full for j in self.left_joins)

    def padded(self, alias: str) -> bool:
        """Whether the source may be the NULL padding of an outer join."""
        alias = self.resolve_alias(alias)
        if any(j.source.alias == alias for j in self.left_joins):
            return True
        return self.full and any(s.alias == alias for s in self.sources)

    @property
    def all_sources(self) -> list[Source]:
        return self.sources + [j.source for j in self.left_joins]

    def without(self, dropped: Source, stand_in: str) -> Block:
        """A copy without ``dropped``, whose columns are now ``stand_in``'s."""
        redirect = {k: (stand_in if v == dropped.alias else v) for k, v in self.redirect.items()}
        redirect[dropped.alias] = stand_in
        return replace(
            self,
            sources=[s for s in self.sources if s is not dropped],
            redirect=redirect,
        )

    def resolve_alias(self, alias: str) -> str:
        """The alias a column qualifier now stands for."""
        return self.redirect.get(alias, alias)

    def expressions(self) -> list[exp.Expr]:
        """Every expression of the block: WHERE, outputs, grouping, HAVING, ORDER BY, ON."""
        nodes: list[exp.Expr] = [*self.where, *self.outputs, *(o.this for o in self.order)]
        nodes += self.group or []
        nodes += [self.having] if self.having is not None else []
        nodes += [j.on for j in self.left_joins]
        return nodes

    def column_uses(self, alias: str) -> int:
        """How many column references (subqueries included) reach ``alias``."""
        return sum(
            1
            for node in self.expressions()
            for column in node.find_all(exp.Column)
            if column.table and self.resolve_alias(column.table) == alias
        )

    def redirect_targets(self) -> set[str]:
        return set(self.redirect.values())


@dataclass
class SetOp:
    """UNION / INTERSECT / EXCEPT; ``branches`` holds every operand of a flattened chain."""

    kind: str  # "union", "intersect", "except"
    distinct: bool
    branches: list[Query]
    order: list[exp.Ordered]


Query = Block | SetOp


def read_query(node: exp.Expr, *, top: bool = False) -> Query:
    """Read a canonical query into blocks, or raise :class:`NotABlock`.

    ``top``: the outermost query, the only place a LIMIT other than 0 is read.
    """
    if isinstance(node, exp.Subquery):
        if node.args.get("limit") or node.args.get("offset") or (top and node.args.get("order")):
            raise NotABlock("ORDER BY / LIMIT on a parenthesised query")
        # Inside a query, an ORDER BY without LIMIT orders a bag: nothing to keep.
        return read_query(node.this)
    if isinstance(node, exp.SetOperation):
        return _read_setop(node)
    if isinstance(node, exp.Select):
        expanded = _grouping_sets(node)
        if expanded is not None:
            return expanded
        return _read_select(node, top=top)
    raise NotABlock(f"{type(node).__name__} is not a query block")


def _read_setop(node: exp.SetOperation) -> Query:
    if node.args.get("limit") or node.args.get("offset"):
        if _literal_int(node.args.get("limit")) == 0 and not node.args.get("offset"):
            # LIMIT 0: no row, whatever the operands.
            first = read_query(node.this)
            while isinstance(first, SetOp):
                first = first.branches[0]
            return replace(first, limit=0, offset=0, order=[])
        raise NotABlock("LIMIT on a set operation")
    kind = {exp.Union: "union", exp.Intersect: "intersect", exp.Except: "except"}.get(type(node))
    if kind is None:
        raise NotABlock(f"set operation {type(node).__name__}")
    distinct = bool(node.args.get("distinct"))
    if node.args.get("by_name") or node.args.get("side") or node.args.get("kind"):
        raise NotABlock("set operation BY NAME / with a side")
    order = list(node.args["order"].expressions) if node.args.get("order") else []
    branches: list[Query] = []
    # UNION chains are associative: (a | b) | c has the operands a, b, c.
    for part in (node.this, node.expression):
        if (
            kind == "union"
            and isinstance(part, exp.Union)
            and bool(part.args.get("distinct")) == distinct
            and not part.args.get("order")
            and not part.args.get("limit")
        ):
            flat = _read_setop(part)
            branches.extend(flat.branches if isinstance(flat, SetOp) else [flat])
        else:
            branch = read_query(part)
            if isinstance(branch, Block) and branch.limit is None:
                branch = replace(branch, order=[])  # an operand's order is not kept
            branches.append(branch)
    return SetOp(kind, distinct, branches, order)


_UNSUPPORTED_ARGS = ("qualify", "windows", "laterals", "pivots", "prewhere")


def _read_select(node: exp.Select, *, top: bool = False) -> Block:
    node = _without_laterals(node)
    if node.args.get("group") is not None and node.find(exp.Grouping) is not None:
        # GROUPING(...) of a plain GROUP BY: every key is grouped, the mask is 0.
        node = node.copy()
        for grouping in list(node.find_all(exp.Grouping)):
            if grouping.find_ancestor(exp.Select) is node:
                grouping.replace(exp.Literal.number(0))
    limit = _literal_int(node.args.get("limit"))
    offset = _literal_int(node.args.get("offset"))
    if (node.args.get("limit") and limit is None) or (node.args.get("offset") and offset is None):
        raise NotABlock("LIMIT / OFFSET that is not an integer literal")

    for arg in _UNSUPPORTED_ARGS:
        if node.args.get(arg):
            raise NotABlock(f"SELECT with {arg.upper()}")
    if node.args.get("with_") or node.args.get("with"):
        raise NotABlock("WITH")
    if _window_outside_outputs(node):
        raise NotABlock("window function outside the SELECT list")
    distinct_node = node.args.get("distinct")
    if distinct_node is not None and distinct_node.args.get("on"):
        raise NotABlock("DISTINCT ON")
    from_ = node.args.get("from_") or node.args.get("from")
    sources: list[Source] = []
    left_joins: list[LeftJoin] = []
    where: list[exp.Expr] = []
    if from_ is not None:
        sources.append(_read_source(from_.this))
    for join in node.args.get("joins") or []:
        if join.args.get("using"):
            raise NotABlock("JOIN ... USING")
        side = (join.side or "").upper()
        kind = (join.kind or "").upper()
        if kind in ("SEMI", "ANTI", "ASOF", "POSITIONAL") or join.args.get("method"):
            raise NotABlock(f"{kind or join.args.get('method')} JOIN")
        source = _read_source(join.this)
        on = join.args.get("on")
        if side == "LEFT":
            left_joins.append(LeftJoin(source, on if on is not None else exp.true()))
        elif side == "RIGHT":
            # a RIGHT JOIN b  ==  b LEFT JOIN a, when a is the whole left side.
            if len(sources) != 1 or left_joins:
                raise NotABlock("RIGHT JOIN after other joins")
            left_joins.append(LeftJoin(sources[0], on if on is not None else exp.true()))
            sources = [source]
        elif side == "FULL":
            if len(sources) != 1 or left_joins or len(node.args.get("joins") or []) != 1:
                raise NotABlock("FULL JOIN with other joins")
            left_joins.append(LeftJoin(source, on if on is not None else exp.true(), full=True))
        elif side:
            raise NotABlock(f"{side} JOIN")
        else:
            sources.append(source)
            if on is not None:
                where.extend(conjuncts(on))
    if node.args.get("where") is not None:
        where.extend(conjuncts(node.args["where"].this))
    group_node = node.args.get("group")
    group: list[exp.Expr] | None = None
    if group_node is not None:
        if any(group_node.args.get(k) for k in ("rollup", "cube", "grouping_sets", "totals")):
            raise NotABlock("ROLLUP / CUBE / GROUPING SETS")
        group = list(group_node.expressions)
    outputs = []
    for item in node.expressions:
        if isinstance(item, exp.Star) or (
            isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
        ):
            raise NotABlock("SELECT *")
        outputs.append(item.this if isinstance(item, exp.Alias) else item)
    having = node.args["having"].this if node.args.get("having") is not None else None
    aggregate = group is not None or having is not None or any(has_aggregate(o) for o in outputs)
    order = list(node.args["order"].expressions) if node.args.get("order") else []
    return Block(
        sources=sources,
        left_joins=left_joins,
        where=where,
        outputs=outputs,
        group=group,
        having=having,
        distinct=distinct_node is not None,
        order=order,
        aggregate=aggregate,
        node=node,
        limit=limit,
        offset=offset or 0,
    )


#: Most grouping sets one GROUP BY may expand to.
MAX_GROUPING_SETS = 16


def _grouping_sets(node: exp.Select) -> SetOp | None:
    """A GROUP BY with ROLLUP / CUBE / GROUPING SETS as the UNION ALL of one grouped
    block per grouping set, or None when it has none.

    In the block of a set, a grouping key outside the set is NULL (written ``CASE
    WHEN FALSE THEN key END`` to keep its type) wherever it is read outside an
    aggregate, and ``GROUPING(…)`` is the constant bit mask of the keys outside the set;
    the empty set is one row even over no input (as an aggregate without GROUP BY).
    """
    group = node.args.get("group")
    if group is None or not any(
        isinstance(e, (exp.Rollup, exp.Cube, exp.GroupingSets)) for e in group.expressions
    ):
        return None
    if node.args.get("order") or node.args.get("limit") or node.args.get("offset"):
        raise NotABlock("ORDER BY / LIMIT over grouping sets")
    sets: list[list[exp.Expr]] = [[]]
    for element in group.expressions:
        options: list[list[exp.Expr]]
        if isinstance(element, exp.Rollup):
            keys = list(element.expressions)
            options = [keys[:i] for i in range(len(keys), -1, -1)]
        elif isinstance(element, exp.Cube):
            keys = list(element.expressions)
            if len(keys) > 4:
                raise NotABlock("CUBE of more than four keys")
            options = [
                [k for i, k in enumerate(keys) if mask >> i & 1]
                for mask in range(2 ** len(keys) - 1, -1, -1)
            ]
        elif isinstance(element, exp.GroupingSets):
            options = [
                list(e.expressions) if isinstance(e, exp.Tuple) else [e]
                for e in element.expressions
            ]
        else:
            options = [[element]]
        sets = [s + o for s in sets for o in options]
        if len(sets) > MAX_GROUPING_SETS:
            raise NotABlock(f"more than {MAX_GROUPING_SETS} grouping sets")
    every: dict[str, exp.Expr] = {}
    for keys in sets:
        for key in keys:
            every.setdefault(key.sql(), key)
    distinct = node.args.get("distinct") is not None
    branches: list[Query] = []
    for keys in sets:
        present = {k.sql() for k in keys}
        variant = node.copy()
        variant.set("distinct", None)
        if keys:
            variant.set("group", exp.Group(expressions=[k.copy() for k in keys]))
        else:
            variant.set("group", None)
        items = []
        for item in variant.expressions:
            if item.sql() in every and item.sql() not in present:
                # The item is a key outside the set: NULL, under the name it had.
                items.append(exp.alias_(_typed_null(item), item.alias_or_name))
            else:
                _outside_set(item, every, present)
                items.append(item)
        variant.set("expressions", items)
        if variant.args.get("having") is not None:
            _outside_set(variant.args["having"], every, present)
        if not keys and not any(has_aggregate(e) for e in variant.expressions):
            variant.set("having", exp.Having(this=exp.true()))  # one row, like the total
        branches.append(_read_select(variant))
    return SetOp("union", distinct, branches, [])


def _outside_set(node: exp.Expr, every: dict[str, exp.Expr], present: set[str]) -> None:
    """In place: GROUPING(…) as its constant, keys outside the set below ``node`` as
    typed NULLs (never inside an aggregate, which reads the rows)."""
    for grouping in list(node.find_all(exp.Grouping)):
        mask = 0
        for arg in grouping.expressions:
            mask = mask * 2 + (0 if arg.sql() in present else 1)
        grouping.replace(exp.Literal.number(mask))
    stack: list[exp.Expr] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (exp.AggFunc, exp.Query, exp.Subquery)):
            continue
        text = current.sql()
        if (
            current is not node
            and text in every
            and text not in present
            and not isinstance(current, exp.Alias)
        ):
            current.replace(_typed_null(current))
            continue
        stack.extend(current.iter_expressions())


def _typed_null(node: exp.Expr) -> exp.Expr:
    """NULL of ``node``'s type."""
    return exp.Case(ifs=[exp.If(this=exp.false(), true=node.copy())])


def _window_outside_outputs(node: exp.Select) -> bool:
    """A window function this SELECT computes anywhere but in its SELECT list (its
    ORDER BY, a join condition, ...): the prover reads windows only as outputs."""
    outputs = {id(n) for item in node.expressions for n in own_nodes(item)}
    return any(isinstance(n, exp.Window) and id(n) not in outputs for n in own_nodes(node))


def _without_laterals(node: exp.Select) -> exp.Select:
    """``node`` with its LATERAL joins in forms the prover reads (a copy, if any changes).

    ``[LEFT] JOIN LATERAL (SELECT AGG(…) … WHERE <correlated>) s [ON TRUE]`` returns one
    row per outer row (an aggregate without GROUP BY always has one): each ``s.c`` is
    the correlated scalar subquery of that output. ``JOIN LATERAL (SELECT … WHERE
    <correlated>) s`` (inner) is a derived table whose columns name the outer row's:
    read as one, it is inlined like any other (it cannot be read on its own).
    """
    joins = node.args.get("joins") or []
    if not any(isinstance(j.this, exp.Lateral) for j in joins):
        return node
    node = node.copy()
    for join in list(node.args.get("joins") or []):
        lateral = join.this
        if not isinstance(lateral, exp.Lateral) or not isinstance(lateral.this, exp.Subquery):
            continue
        inner = lateral.this.this
        on = join.args.get("on")
        if on is not None and not (isinstance(on, exp.Boolean) and on.this is True):
            continue
        alias = lateral.alias
        side = (join.side or "").upper()
        if not alias or not isinstance(inner, exp.Select):
            continue
        one_row = (
            not inner.args.get("group")
            and not inner.args.get("having")
            and not inner.args.get("limit")
            and inner.expressions
            and all(has_aggregate(e) for e in inner.expressions)
        )
        if one_row and side in ("", "LEFT"):
            outputs = {e.alias_or_name.lower(): e for e in inner.expressions}
            for column in list(node.find_all(exp.Column)):
                if column.table == alias and column.name.lower() in outputs:
                    item = outputs[column.name.lower()]
                    value = item.this if isinstance(item, exp.Alias) else item
                    scalar = inner.copy()
                    scalar.set("expressions", [value.copy()])
                    column.replace(exp.Subquery(this=scalar))
            if any(c.table == alias for c in node.find_all(exp.Column)):
                continue  # a column we could not replace: leave the LATERAL (unread)
            join.pop()
        elif (
            not side
            and (join.kind or "").upper() in ("", "INNER", "CROSS")
            and not any(inner.args.get(k) for k in ("group", "having", "limit", "distinct"))
            and not any(has_aggregate(e) for e in inner.expressions)
        ):
            join.set("this", exp.Subquery(this=inner.copy(), alias=lateral.args.get("alias")))
    return node


def _literal_int(node: exp.Expr | None) -> int | None:
    if node is None:
        return None
    if isinstance(node, exp.Fetch):
        options = node.args.get("limit_options")
        if options is not None and (options.args.get("percent") or options.args.get("with_ties")):
            return None
        value = node.args.get("count")
    else:
        value = node.args.get("expression") if isinstance(node, (exp.Limit, exp.Offset)) else node
    if isinstance(value, exp.Literal) and value.is_int:
        return int(value.name)
    return None


def _read_source(node: exp.Expr) -> Source:
    alias = node.alias_or_name
    if isinstance(node, exp.Table):
        if not isinstance(node.this, exp.Identifier) or node.args.get("db"):
            raise NotABlock("table expression")
        return Source(alias=alias, table=node.name.lower())
    if isinstance(node, exp.Subquery):
        inner = node.this
        if isinstance(inner, exp.Values):
            return _values_source(node, inner, alias)
        query = read_query(node)
        return Source(alias=alias, query=query, columns=output_names(node.this))
    if isinstance(node, exp.Values):
        return _values_source(node, node, alias)
    raise NotABlock(f"FROM item {type(node).__name__}")


def _values_source(node: exp.Expr, values: exp.Values, alias: str) -> Source:
    """A VALUES list; one row of literals reads as ``(SELECT <literals>)``, which the
    normal form inlines as constants."""
    columns = _values_columns(node)
    rows = values.expressions
    if len(rows) == 1 and isinstance(rows[0], exp.Tuple):
        items = rows[0].expressions
        if len(items) == len(columns) and all(
            isinstance(i, (exp.Literal, exp.Boolean, exp.Null))
            or (isinstance(i, exp.Cast) and isinstance(i.this, (exp.Literal, exp.Null)))
            for i in items
        ):
            select = exp.Select(
                expressions=[exp.alias_(i.copy(), c) for i, c in zip(items, columns, strict=True)]
            )
            return Source(alias=alias, query=_read_select(select), columns=columns)
    return Source(alias=alias, values=True, columns=columns)


def _values_columns(node: exp.Expr) -> tuple[str, ...]:
    alias = node.args.get("alias")
    if alias is None or not alias.columns:
        raise NotABlock("VALUES without column names")
    return tuple(c.name for c in alias.columns)


def output_names(node: exp.Expr) -> tuple[str, ...]:
    """The output column names of a query (of its first branch for set operations)."""
    while isinstance(node, (exp.SetOperation, exp.Subquery)):
        node = node.this
    if not isinstance(node, exp.Select):
        raise NotABlock("derived query without a SELECT")
    return tuple(item.alias_or_name for item in node.expressions)


def select_from(
    item: exp.Expr, tables: Sequence[tuple[str, str]], conditions: Sequence[exp.Expr] = ()
) -> exp.Select:
    """``SELECT item FROM t1 AS a1 JOIN t2 AS a2 … WHERE conditions`` over (table, alias)
    pairs, built from copies: the subqueries the prover writes (EXISTS, scalar) read so."""
    first, *rest = (
        exp.Table(this=exp.to_identifier(t), alias=exp.TableAlias(this=exp.to_identifier(a)))
        for t, a in tables
    )
    select = exp.Select(expressions=[item.copy()]).from_(first, copy=False)
    for table in rest:
        select = select.join(table, copy=False)
    if conditions:
        select = select.where(*(c.copy() for c in conditions), copy=False)
    return select


def conjuncts(node: exp.Expr) -> list[exp.Expr]:
    """The operands of a chain of ANDs (parentheses looked through)."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return conjuncts(node.this) + conjuncts(node.expression)
    return [node]


def own_nodes(node: exp.Expr) -> list[exp.Expr]:
    """The nodes of an expression, not looking inside nested queries."""
    out: list[exp.Expr] = []
    stack = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        if current is not node and isinstance(current, (exp.Query, exp.Subquery)):
            continue
        stack.extend(current.iter_expressions())
    return out


def has_aggregate(node: exp.Expr) -> bool:
    return any(isinstance(n, exp.AggFunc) for n in own_nodes(node))


def fk_conjuncts(
    where: list[exp.Expr],
    child: str,
    parent: str,
    pairs: dict[str, str],
    resolve: Callable[[str], str] = str,
) -> list[exp.Expr] | None:
    """Every conjunct ``child.fk = parent.key``, if together they cover the foreign key.

    ``pairs`` maps the parent's key columns to the child's; ``resolve`` maps a
    column qualifier to the source it stands for (after dropped self-joins).
    """
    found: list[exp.Expr] = []
    covered: set[str] = set()
    for conj in where:
        if not isinstance(conj, exp.EQ):
            continue
        a, b = conj.this, conj.expression
        if not (isinstance(a, exp.Column) and isinstance(b, exp.Column)):
            continue
        for p, c in ((a, b), (b, a)):
            if (
                resolve(p.table) == parent
                and resolve(c.table) == child
                and (pairs.get(p.name.lower()) or "").lower() == c.name.lower()
            ):
                found.append(conj)
                covered.add(p.name.lower())
                break
    if covered != {k.lower() for k in pairs}:
        return None
    return found
