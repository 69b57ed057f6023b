"""Rewrites of query blocks that bring two queries to the same shape.

Each rewrite preserves the result exactly (bag semantics, three-valued logic):

* **Inline a derived table** that only selects, filters and inner-joins base
  tables: ``FROM (SELECT e AS c FROM t WHERE p) d WHERE q(d.c)`` is
  ``FROM t WHERE p AND q(e)``. On the NULL-supplying side of a LEFT JOIN the
  derived table must be a single source and every column the outer block
  reads must be a plain column, which is NULL on the padded row exactly as
  the derived column is: ``LEFT JOIN (SELECT … FROM t WHERE p) d ON r`` is
  ``LEFT JOIN t ON r AND p``.
* **Distribute over UNION ALL**: a block that reads a UNION ALL derived table
  (and does not aggregate) is the UNION ALL of the block over each operand,
  because selection, projection and inner joins distribute over bag union;
  with DISTINCT it is the UNION (distinct) of the operands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sqlglot import exp

from sqlequiv.policy import is_volatile
from sqlequiv.symbolic.prove.blocks import Block, LeftJoin, Query, SetOp, Source, has_aggregate

__all__ = ["unnest"]

#: How deep nested derived tables are unnested.
MAX_DEPTH = 6


def unnest(query: Query, depth: int = 0) -> Query:
    """The query with derived tables inlined and UNION ALLs distributed where exact."""
    if depth > MAX_DEPTH:
        return query
    if isinstance(query, SetOp):
        return replace(query, branches=[unnest(b, depth + 1) for b in query.branches])
    if query.full:
        return _unnest_full(query, depth)
    block = _group_to_distinct(_ignored_null_filter(_having_to_where(query)))
    sources = [_sort_columns(_prune(_unnest_source(s, depth), block)) for s in block.sources]
    left_joins = [
        replace(j, source=_sort_columns(_prune(_unnest_source(j.source, depth), block)))
        for j in block.left_joins
    ]
    block = replace(block, sources=sources, left_joins=left_joins)
    deduplicated = _same_columns_once(block)
    if deduplicated is not None:
        return unnest(deduplicated, depth + 1)
    limited = _select_from_limited(block)
    if limited is not None:
        return unnest(limited, depth + 1)
    for source in block.sources:
        constant = _constant_row(block, source)
        if constant is not None:
            return unnest(constant, depth + 1)
    for source in block.sources:
        derived = source.query
        if isinstance(derived, Block) and (
            _inlinable(derived)
            # DISTINCT inside is absorbed by a DISTINCT outside.
            or (block.distinct and not block.aggregate and _inlinable(derived, distinct_ok=True))
        ):
            inlined = _inline(block, source)
            if inlined is not block:
                return unnest(inlined, depth + 1)
    for join in block.left_joins:
        if isinstance(join.source.query, Block) and _inlinable_on_padded_side(block, join):
            return unnest(_inline_left(block, join), depth + 1)
    merged = _merge_partial_aggregates(block)
    if merged is None:
        merged = _merge_refined_aggregates(block)
    if merged is None:
        merged = _select_from_aggregate(block)
    if merged is None:
        merged = _merge_filtered_branches(block)
    if merged is not None:
        return unnest(merged, depth + 1)
    distributed = _distribute(block)
    if distributed is not None:
        return unnest(distributed, depth + 1)
    return block


def _unnest_full(block: Block, depth: int) -> Block:
    """A FULL JOIN block: its derived tables unnested, and a derived table that only
    projects one table (no WHERE, no DISTINCT) inlined on either side when each column
    read from it is NULL when its columns are (as on the padding)."""
    sources = [_sort_columns(_prune(_unnest_source(s, depth), block)) for s in block.sources]
    left_joins = [
        replace(j, source=_sort_columns(_prune(_unnest_source(j.source, depth), block)))
        for j in block.left_joins
    ]
    block = replace(block, sources=sources, left_joins=left_joins)
    for source in block.all_sources:
        derived = source.query
        if not isinstance(derived, Block) or derived.where or len(derived.sources) != 1:
            continue
        if not _inlinable(derived) or not _strict_columns(block, source, derived):
            continue
        substituted = _substituted(block, source, derived)
        if substituted is None:
            continue
        names, rewritten = substituted
        (inner,) = derived.sources
        renamed = replace(inner, alias=names[inner.alias])
        return _unnest_full(
            replace(
                rewritten,
                sources=[renamed if s is source else s for s in rewritten.sources],
                left_joins=[
                    replace(j, source=renamed) if j.source is source else j
                    for j in rewritten.left_joins
                ],
            ),
            depth + 1,
        )
    return block


def _strict_columns(block: Block, source: Source, derived: Block) -> bool:
    """Whether every column ``block`` reads from ``source`` is, in ``derived``, an
    expression NULL when its columns are (a plain column, or one strict in them): only
    such a column is NULL on the padded row exactly when the derived one is."""
    for column in _columns(block):
        if column.table != source.alias:
            continue
        position = source.position(column.name)
        if position is None or not null_when_columns_are(derived.outputs[position]):
            return False
    return True


def _unnest_source(source: Source, depth: int) -> Source:
    if source.query is None:
        return source
    return replace(source, query=unnest(_unordered(source.query), depth + 1))


def _select_from_limited(block: Block) -> Block | None:
    """``SELECT f(d.c) FROM (SELECT … ORDER BY o LIMIT n) d ORDER BY o [LIMIT m]`` is the
    inner query with ``f`` as its outputs (and LIMIT min(n, m)): the outer block keeps the
    same rows in the same order. Only when the outer ORDER BY is the inner one: without
    it the outer rows have no order, which the merged block would claim."""
    if block.aggregate or block.left_joins or block.where or block.distinct or block.windowed:
        return None
    if len(block.sources) != 1 or block.redirect or block.offset:
        return None
    (source,) = block.sources
    inner = source.query
    if not isinstance(inner, Block) or inner.limit is None or inner.limit == 0:
        return None
    if inner.aggregate or inner.distinct or not inner.order:
        return None
    inner_limit = inner.limit
    order = resolved_order(inner)
    if order is None:
        return None
    merged = _read_through(block, source, inner)
    if merged is None:
        return None
    rewritten, inner = merged
    order = resolved_order(inner)
    outer = resolved_order(rewritten)
    if order is None or outer is None or [o.sql() for o in order] != [o.sql() for o in outer]:
        return None
    kept = inner_limit if block.limit is None else min(inner_limit, block.limit)
    return replace(inner, outputs=rewritten.outputs, order=order, limit=kept)


def _read_through(block: Block, source: Source, inner: Block) -> tuple[Block, Block] | None:
    """``block`` reading ``inner``'s expressions instead of ``source``'s columns, and
    ``inner`` under the fresh source names that reading uses; None if a name is ambiguous."""
    substituted = _substituted(block, source, inner)
    if substituted is None:
        return None
    names, rewritten = substituted
    inner = _rewrite_all(inner, lambda n: _renamed(n, names))
    inner = replace(
        inner,
        sources=[replace(s, alias=names[s.alias]) for s in inner.sources],
        left_joins=[
            replace(j, source=replace(j.source, alias=names[j.source.alias]))
            for j in inner.left_joins
        ],
    )
    return rewritten, inner


def resolved_order(block: Block) -> list[exp.Ordered] | None:
    """The block's ORDER BY with output positions replaced by the outputs they name."""
    out: list[exp.Ordered] = []
    for item in block.order:
        key = item.this
        if isinstance(key, exp.Literal) and key.is_int:
            position = int(key.name) - 1
            if not 0 <= position < len(block.outputs):
                return None
            key = block.outputs[position]
        copy = item.copy()
        copy.set("this", key.copy())
        out.append(copy)
    return out


def _constant_row(block: Block, source: Source) -> Block | None:
    """``block`` without a joined ``(SELECT 1 AS c)``: a table of one row of values read
    from no table; its columns are those values."""
    derived = source.query
    if not isinstance(derived, Block) or derived.sources or derived.where:
        return None
    if derived.aggregate or derived.limit is not None or block.left_joins:
        return None
    if any(o.find(exp.Column, exp.Query) is not None for o in derived.outputs):
        return None
    if _any_volatile(derived):
        return None  # each reference would draw its own value
    if block.redirect and source.alias in block.redirect.values():
        return None
    try:
        rewritten = _rewrite_all(block, lambda n: _substitute(n, source, derived.outputs))
    except _Skip:
        return None
    return replace(rewritten, sources=[s for s in rewritten.sources if s is not source])


def _same_columns_once(block: Block) -> Block | None:
    """``block`` reading one column of each derived table that selects one expression
    twice (in every operand), or None when none does. The twin is dropped by pruning;
    rows and multiplicities are unchanged (the twin is a function of the kept column)."""
    for source in block.all_sources:
        if source.query is None or not _permutable(source.query):
            continue
        texts = _operand_texts(source.query)
        if _any_volatile(source.query):
            continue  # two calls of random() are two values, however alike their text
        first: dict[tuple[str, ...], int] = {}
        twins: dict[str, str] = {}
        for position, text in enumerate(zip(*texts, strict=True)):
            if text in first:
                twins[source.columns[position].lower()] = source.columns[first[text]]
            else:
                first[text] = position
        if not twins or len(source.columns) != len(texts[0]):
            continue
        alias = source.alias

        def redirect(node: exp.Expr, alias: str = alias, twins: dict[str, str] = twins) -> exp.Expr:
            copy = node.copy()
            for column in copy.find_all(exp.Column):
                if column.table == alias and column.name.lower() in twins:
                    column.set("this", exp.to_identifier(twins[column.name.lower()]))
            return copy

        return _rewrite_all(block, redirect)
    return None


def _any_volatile(query: Query) -> bool:
    """Whether an output of the query (any operand) may differ between two evaluations."""
    if isinstance(query, SetOp):
        return any(_any_volatile(b) for b in query.branches)
    return any(
        is_volatile(o) or any(isinstance(n, exp.Anonymous) for n in o.walk())
        for o in query.outputs
    )


def operand_blocks(query: Query) -> list[Block]:
    """Every operand of a (nested) set operation, or the block itself."""
    if isinstance(query, Block):
        return [query]
    return [b for branch in query.branches for b in operand_blocks(branch)]


def _operand_texts(query: Query) -> list[list[str]]:
    """The SQL of every output of every operand."""
    return [[o.sql() for o in b.outputs] for b in operand_blocks(query)]


def _unordered(query: Query) -> Query:
    """A derived query without its ORDER BY, when no LIMIT makes the order matter: a
    derived table is a bag, whatever order it was produced in."""
    if isinstance(query, Block):
        return replace(query, order=[]) if query.order and query.limit is None else query
    return replace(query, order=[], branches=[_unordered(b) for b in query.branches])


def _sort_columns(source: Source) -> Source:
    """A derived table with its columns in a canonical order (by the text of what the
    first operand selects, qualifiers read as table names), so that two queries that
    list the same columns in another order read the same shape. Rows are unchanged:
    every operand of a set operation is permuted alike, and the outer block names the
    columns, it does not count them."""
    query = source.query
    if query is None or not _permutable(query):
        return source
    keys = _column_keys(query)
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    if order == list(range(len(keys))) or len(keys) != len(source.columns):
        return source
    return _columns_at(source, query, order)


def _permutable(query: Query) -> bool:
    # ORDER BY may name outputs by position; a LIMIT keeps the order that names them.
    if isinstance(query, Block):
        return not query.order and query.limit is None
    return not query.order and all(_permutable(b) for b in query.branches)


def _column_keys(query: Query) -> list[str]:
    while isinstance(query, SetOp):
        query = query.branches[0]
    tables = {s.alias: s.table or "" for s in query.all_sources}
    keys = []
    for output in query.outputs:
        copy = output.copy()
        for column in copy.find_all(exp.Column):
            if tables.get(column.table):
                column.set("table", exp.to_identifier(tables[column.table]))
        keys.append(copy.sql())
    return keys


def _inlinable(derived: Block, *, distinct_ok: bool = False) -> bool:
    return not (
        derived.aggregate
        or derived.windowed
        or (derived.distinct and not distinct_ok)
        or derived.order
        or derived.limit is not None
        or derived.left_joins
        or derived.redirect
        or not derived.sources
        or any(s.values for s in derived.sources)
    )


def _having_to_where(block: Block) -> Block:
    """HAVING conjuncts that read only grouping columns (no aggregate, no subquery) filter
    rows as they filter groups: they join the WHERE. Only with a GROUP BY: without one,
    HAVING filters the single row even of an empty input."""
    if block.having is None or not block.group:
        return block
    keys = {g.sql() for g in block.group if isinstance(g, exp.Column)}
    kept: list[exp.Expr] = []
    moved: list[exp.Expr] = []
    for conj in _conjuncts(block.having):
        columns = list(conj.find_all(exp.Column))
        if (
            columns
            and not has_aggregate(conj)
            and conj.find(exp.Query) is None
            and all(c.sql() in keys for c in columns)
        ):
            moved.append(conj)
        else:
            kept.append(conj)
    if not moved:
        return block
    having = exp.and_(*kept) if len(kept) > 1 else (kept[0] if kept else None)
    return replace(block, where=[*block.where, *moved], having=having)


def _ignored_null_filter(block: Block) -> Block:
    """``WHERE x IS NOT NULL`` dropped from a block without GROUP BY whose every output
    is an aggregate of ``x`` other than COUNT(*): they all skip NULL arguments, and the
    block returns its one row either way."""
    if not block.aggregate or block.group is not None or block.having is not None:
        return block
    if block.left_joins or block.limit is not None:
        return block
    arguments: set[str] = set()
    for output in block.outputs:
        for column in output.find_all(exp.Column):
            if column.find_ancestor(exp.AggFunc) is None:
                return block  # a column outside any aggregate
        for agg in output.find_all(exp.AggFunc):
            if not isinstance(agg, (exp.Count, exp.Sum, exp.Min, exp.Max, exp.Avg)):
                return block
            arg = agg.this
            if isinstance(arg, exp.Distinct) and len(arg.expressions) == 1:
                arg = arg.expressions[0]
            if arg is None or isinstance(arg, exp.Star):
                return block
            arguments.add(arg.sql())
    if len(arguments) != 1:
        return block
    (argument,) = arguments
    kept = [
        w
        for w in block.where
        if not (
            isinstance(w, exp.Not)
            and isinstance(w.this, exp.Is)
            and isinstance(w.this.expression, exp.Null)
            and w.this.this.sql() == argument
        )
    ]
    return block if len(kept) == len(block.where) else replace(block, where=kept)


def _conjuncts(node: exp.Expr) -> list[exp.Expr]:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _group_to_distinct(block: Block) -> Block:
    """GROUP BY without aggregates is DISTINCT when every key that reads a column is an output.

    The outputs are functions of the keys, and the keys are among the outputs, so
    both partition the rows alike; a key without columns is one value for all rows.
    """
    if block.group is None or block.having is not None or block.order:
        return block
    if any(has_aggregate(o) for o in block.outputs):
        return block
    outputs = {o.sql() for o in block.outputs}
    if any(g.find(exp.Column) is not None and g.sql() not in outputs for g in block.group):
        return block
    return replace(block, group=None, aggregate=False, distinct=True)


def _prune(source: Source, block: Block) -> Source:
    """Drop the columns of a derived table that the block never reads (when that is exact)."""
    query = source.query
    if query is None:
        return source
    lowered = [c.lower() for c in source.columns]
    used = {
        lowered.index(c.name.lower())
        for c in _columns(block)
        if c.table == source.alias and c.name.lower() in lowered
    }
    keep = sorted(used) or [0]
    if len(keep) == len(source.columns) or not _prunable(query):
        return source
    return _columns_at(source, query, keep)


def _prunable(query: Query) -> bool:
    """Whether dropping outputs keeps every row's multiplicity (no DISTINCT, no set semantics)."""
    if isinstance(query, Block):
        # A LIMIT's ORDER BY may name outputs by position: keep them all.
        return not query.distinct and query.limit is None
    return (
        query.kind == "union" and not query.distinct and all(_prunable(b) for b in query.branches)
    )


def _columns_at(source: Source, query: Query, positions: list[int]) -> Source:
    """The derived table with only the columns at ``positions``, in that order."""
    return replace(
        source,
        query=_keep_outputs(query, positions),
        columns=tuple(source.columns[i] for i in positions),
    )


def _keep_outputs(query: Query, keep: list[int]) -> Query:
    if isinstance(query, Block):
        return replace(query, outputs=[query.outputs[i] for i in keep], order=[])
    return replace(query, branches=[_keep_outputs(b, keep) for b in query.branches])


def _fresh(block: Block, derived: Block, alias: str) -> dict[str, str]:
    """New names for the derived table's sources, clear of every name in the outer block."""
    taken = {s.alias for s in block.all_sources} | {c.table for c in _columns(block)}
    names: dict[str, str] = {}
    for s in derived.all_sources:
        name, n = f"{alias}_{s.alias}", 0
        while name in taken or name in names.values():
            n += 1
            name = f"{alias}_{s.alias}_{n}"
        names[s.alias] = name
    return names


def _renamed(node: exp.Expr, names: dict[str, str]) -> exp.Expr:
    copy = node.copy()
    for column in copy.find_all(exp.Column):
        if column.table in names:
            column.set("table", exp.to_identifier(names[column.table]))
    return copy


def _substitute(node: exp.Expr, source: Source, outputs: list[exp.Expr]) -> exp.Expr:
    """``node`` with every ``source.c`` replaced by the derived output named ``c``."""
    copy = node.copy()
    for column in list(copy.find_all(exp.Column)):
        if column.table != source.alias:
            continue
        position = source.position(column.name)
        if position is None:
            raise _Skip()
        replacement = outputs[position].copy()
        if column is copy:
            return replacement
        column.replace(replacement)
    return copy


class _Skip(Exception):
    pass


def _rewrite_all(block: Block, fn: Callable[[exp.Expr], exp.Expr]) -> Block:
    return replace(
        block,
        where=[fn(w) for w in block.where],
        outputs=[fn(o) for o in block.outputs],
        group=[fn(g) for g in block.group] if block.group is not None else None,
        having=fn(block.having) if block.having is not None else None,
        order=[_ordered(fn(o)) for o in block.order],
        left_joins=[replace(j, on=fn(j.on)) for j in block.left_joins],
    )


def _ordered(node: exp.Expr) -> exp.Ordered:
    assert isinstance(node, exp.Ordered)
    return node


def _inline(block: Block, source: Source) -> Block:
    derived = source.query
    assert isinstance(derived, Block)
    if block.redirect and source.alias in block.redirect.values():
        return block
    substituted = _substituted(block, source, derived)
    if substituted is None:
        return block
    names, rewritten = substituted
    inner_sources = [replace(s, alias=names[s.alias]) for s in derived.sources]
    position = block.sources.index(source)
    sources = block.sources[:position] + inner_sources + block.sources[position + 1 :]
    return replace(
        rewritten,
        sources=sources,
        where=rewritten.where + [_renamed(w, names) for w in derived.where],
    )


def _substituted(
    block: Block, source: Source, derived: Block
) -> tuple[dict[str, str], Block] | None:
    """Fresh names for the derived table's sources, and ``block`` with every column of
    ``source`` replaced by the derived output it names (None if a name is ambiguous)."""
    names = _fresh(block, derived, source.alias)
    outputs = [_renamed(o, names) for o in derived.outputs]
    try:
        return names, _rewrite_all(block, lambda n: _substitute(n, source, outputs))
    except _Skip:
        return None


def _inlinable_on_padded_side(block: Block, join: LeftJoin) -> bool:
    derived = join.source.query
    if not isinstance(derived, Block) or not _inlinable(derived) or len(derived.sources) != 1:
        return False
    return _strict_columns(block, join.source, derived)


#: NULL when any operand is NULL.
_STRICT = (
    exp.Add, exp.Sub, exp.Mul, exp.Div, exp.IntDiv, exp.Mod, exp.Neg, exp.Not, exp.Paren,
    exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.Cast, exp.TryCast, exp.Abs,
)  # fmt: skip
#: NULL when every operand is NULL.
_NULL_IF_ALL = (exp.And, exp.Or, exp.Coalesce)


def null_when_columns_are(node: exp.Expr) -> bool:
    """Whether ``node`` is NULL whenever every column it reads is NULL: true of a column,
    of NULL, of arithmetic and comparisons of such operands (AND / OR / COALESCE of
    them too: with every operand NULL they are NULL), and of a CASE whose conditions are
    (a NULL condition is not taken) with such an ELSE. A literal is not."""
    if isinstance(node, (exp.Column, exp.Null)):
        return True
    if isinstance(node, exp.Case):
        if node.this is not None:
            return False
        default = node.args.get("default")
        return all(null_when_columns_are(i.this) for i in node.args.get("ifs") or []) and (
            default is None or null_when_columns_are(default)
        )
    if isinstance(node, (exp.Cast, exp.TryCast)):
        return null_when_columns_are(node.this)
    operands = list(node.iter_expressions())
    if isinstance(node, _STRICT):
        return any(null_when_columns_are(o) for o in operands)
    if isinstance(node, _NULL_IF_ALL):
        return bool(operands) and all(null_when_columns_are(o) for o in operands)
    return False


def _inline_left(block: Block, join: LeftJoin) -> Block:
    source = join.source
    derived = source.query
    assert isinstance(derived, Block)
    substituted = _substituted(block, source, derived)
    if substituted is None:
        return block
    names, rewritten = substituted
    (inner,) = derived.sources
    new_join = next(j for j in rewritten.left_joins if j.source is source)
    conditions = [new_join.on, *(_renamed(w, names) for w in derived.where)]
    on = exp.and_(*conditions) if len(conditions) > 1 else conditions[0]
    replaced = LeftJoin(replace(inner, alias=names[inner.alias]), on)
    return replace(
        rewritten,
        left_joins=[replaced if j is new_join else j for j in rewritten.left_joins],
    )


def _distribute(block: Block) -> Query | None:
    if block.aggregate or block.order or block.limit is not None or block.windowed:
        return None
    if block.left_joins or block.redirect:
        return None
    for source in block.sources:
        union = source.query
        if not (isinstance(union, SetOp) and union.kind == "union" and not union.distinct):
            continue
        if union.order:
            return None
        branches: list[Query] = []
        for branch in union.branches:
            operand = replace(source, query=branch)
            sources = [operand if s is source else s for s in block.sources]
            branches.append(replace(block, sources=sources, distinct=False))
        return SetOp("union", block.distinct, branches, [])
    return None


#: outer aggregate -> branch aggregate it may combine, and what replaces the pair
_COMBINE = {("sum", "sum"): "sum", ("min", "min"): "min", ("max", "max"): "max",
            ("sum", "count"): "count"}  # fmt: skip


def _merge_partial_aggregates(block: Block) -> Block | None:
    """Aggregates over a UNION ALL of partial aggregates are aggregates over the union's rows.

    ``SELECT k, SUM(s) FROM (SELECT k, SUM(x) AS s FROM a GROUP BY k UNION ALL
    SELECT k, SUM(x) AS s FROM b GROUP BY k) GROUP BY k`` is ``SELECT k, SUM(x) FROM
    (SELECT k, x FROM a UNION ALL SELECT k, x FROM b) GROUP BY k``: each outer group
    is the union of the branch groups with its key, and SUM of SUMs, MIN of MINs,
    MAX of MAXs and SUM of COUNTs (over non-empty groups) combine exactly.
    """
    if not block.aggregate or block.having is not None or block.left_joins or block.distinct:
        return None
    if len(block.sources) != 1 or block.limit is not None or block.where:
        return None  # a WHERE outside would filter partial aggregates, not rows
    (source,) = block.sources
    union = source.query
    if not (isinstance(union, SetOp) and union.kind == "union" and not union.distinct):
        return None
    branches = union.branches
    if not all(isinstance(b, Block) and _partial(b) for b in branches):
        return None
    blocks = [b for b in branches if isinstance(b, Block)]
    grouped = [b.group is not None for b in blocks]
    if len(set(grouped)) != 1:
        return None

    def position(node: exp.Expr) -> int | None:
        if isinstance(node, exp.Column) and node.table == source.alias:
            return source.position(node.name)
        return None

    keys = [position(g) for g in block.group or []]
    if any(k is None for k in keys):
        return None
    key_positions = {k for k in keys if k is not None}
    for b in blocks:
        # Each branch groups by exactly the outer keys, so a branch group lies in one outer group.
        if {g.sql() for g in b.group or []} != {b.outputs[k].sql() for k in key_positions}:
            return None
    new_outputs: dict[int, exp.Expr] = {}
    replacements: dict[int, exp.Expr] = {}
    seen: dict[tuple[str, ...], int] = {}
    for node in [*block.outputs, *(o.this for o in block.order)]:
        for agg in node.find_all(exp.AggFunc):
            arg = agg.this
            p = position(arg) if arg is not None else None
            if p is None or p in key_positions:
                return None
            parts = [_aggregate_parts(b.outputs[p]) for b in blocks]
            names = {part[0] for part in parts if part is not None}
            if any(part is None for part in parts) or len(names) != 1:
                return None
            combined = _COMBINE.get((agg.key, names.pop()))
            if combined is None:
                return None
            if combined == "count" and not block.group:
                return None  # SUM over no partial count is NULL, COUNT of no row is 0
            arguments = [part[1] for part in parts if part is not None]
            if all(a is None for a in arguments):
                # SUM of COUNT(*)s is COUNT(*) (only a count has no argument).
                replacements[id(agg)] = exp.Count(this=exp.Star())
                continue
            if any(a is None for a in arguments):
                return None  # COUNT(*) in one branch, COUNT(x) in another
            # Two partial aggregates over the same argument read one column of the union.
            signature = tuple(a.sql() for a in arguments if a is not None)
            p = seen.setdefault(signature, p)
            new_outputs[p] = exp.Literal.number(p)  # placeholder, filled per branch below
            column = exp.column(source.columns[p], table=source.alias)
            replacements[id(agg)] = _aggregate_node(combined, column)
    new_branches: list[Query] = []
    for b in blocks:
        outputs = []
        for i, output in enumerate(b.outputs):
            if i in key_positions:
                outputs.append(output)
            elif i in new_outputs:
                part = _aggregate_parts(output)
                assert part is not None and part[1] is not None
                outputs.append(part[1])
            else:
                outputs.append(exp.Null())
        new_branches.append(replace(b, outputs=outputs, group=None, aggregate=False, order=[]))

    def rewrite(node: exp.Expr) -> exp.Expr:
        copy = node.copy()
        originals = list(node.find_all(exp.AggFunc))
        copies = list(copy.find_all(exp.AggFunc))
        for original, duplicate in zip(originals, copies, strict=True):
            if id(original) in replacements:
                new = replacements[id(original)].copy()
                if duplicate is copy:
                    return new
                duplicate.replace(new)
        return copy

    return replace(
        block,
        sources=[replace(source, query=replace(union, branches=new_branches))],
        outputs=[rewrite(o) for o in block.outputs],
        order=[_ordered(rewrite(o)) for o in block.order],
    )


_DISTINCT_OK = ("sum", "count", "avg", "min", "max")


def _merge_refined_aggregates(block: Block) -> Block | None:
    """An aggregate over a derived table grouped more finely is one aggregate over its rows.

    ``SELECT k, SUM(s), SUM(h) FROM (SELECT k, h, SUM(x) AS s FROM t GROUP BY k, h) d
    GROUP BY k`` is ``SELECT k, SUM(x), SUM(DISTINCT h) FROM t GROUP BY k``: every inner
    group lies in one outer group (the outer keys are inner keys), so SUM of SUMs, MIN of
    MINs, MAX of MAXs and SUM of COUNTs combine exactly; and when the inner keys are the
    outer ones plus at most ``h``, the inner groups of an outer group are one per
    distinct ``h`` (NULL included), so SUM / COUNT / AVG over ``h`` are their DISTINCT
    forms over the rows (MIN / MAX of ``h`` are MIN / MAX whatever the keys). A DISTINCT
    derived table counts as grouped by all its outputs.
    """
    if not block.aggregate or block.left_joins or block.distinct:
        return None
    if len(block.sources) != 1 or block.limit is not None or block.where:
        return None
    if block.having is not None:
        return None
    group = block.group or []
    (source,) = block.sources
    inner = source.query
    if not isinstance(inner, Block) or inner.left_joins or inner.limit is not None:
        return None
    if inner.order or inner.having is not None or inner.redirect or not inner.sources:
        return None
    if inner.aggregate and inner.group is not None and not inner.distinct:
        inner_keys = [g.sql() for g in inner.group if g.find(exp.Column) is not None]
    elif inner.distinct and not inner.aggregate:
        # A typed NULL (a grouping set's missing key) is one value: it splits no group.
        inner_keys = [
            o.sql() for o in inner.outputs if o.find(exp.Column) is not None and not _null(o)
        ]
    else:
        return None
    texts = [o.sql() for o in inner.outputs]
    if len(texts) != len(source.columns):
        return None

    def position(node: exp.Expr | None) -> int | None:
        if isinstance(node, exp.Column) and node.table == source.alias:
            return source.position(node.name)
        return None

    outer_keys: set[str] = set()
    for key in group:
        p = position(key)
        if p is None or texts[p] not in inner_keys:
            return None
        outer_keys.add(texts[p])
    extra = set(inner_keys) - outer_keys
    replacements: dict[int, exp.Expr] = {}
    for node in [*block.outputs, *(o.this for o in block.order)]:
        for agg in node.find_all(exp.AggFunc):
            if isinstance(agg, exp.Count) and isinstance(agg.this, exp.Star):
                # COUNT(*) of the rows of a DISTINCT table of one column, never NULL there.
                counted = _never_null_single(inner)
                if counted is None:
                    return None
                replacements[id(agg)] = exp.Count(this=exp.Distinct(expressions=[counted]))
                continue
            distinct_arg = isinstance(agg.this, exp.Distinct) and len(agg.this.expressions) == 1
            p = position(agg.this.expressions[0] if distinct_arg else agg.this)
            if p is None:
                return None
            inner_output = inner.outputs[p]
            part = _aggregate_parts(inner_output)
            if (
                inner.aggregate
                and not extra
                and agg.key in ("sum", "min", "max")
                and texts[p] not in inner_keys
            ):
                # One inner row per outer group: SUM / MIN / MAX of its value (DISTINCT
                # or not) is the value.
                replacements[id(agg)] = inner_output.copy()
                continue
            if distinct_arg:
                if texts[p] not in inner_keys or agg.key not in (
                    "sum",
                    "count",
                    "avg",
                    "min",
                    "max",
                ):
                    return None
                # The distinct values of a key over the inner groups are those over the rows.
                replacements[id(agg)] = agg.copy()
                replacements[id(agg)].this.set("expressions", [inner_output.copy()])
                continue
            if part is not None and inner.aggregate:
                combined = _COMBINE.get((agg.key, part[0]))
                if combined is None or (combined == "count" and not group):
                    return None  # SUM over no partial count is NULL, COUNT of no row is 0
                arg = part[1]
                replacements[id(agg)] = (
                    exp.Count(this=exp.Star()) if arg is None else _aggregate_node(combined, arg)
                )
            elif texts[p] in inner_keys and agg.key in ("min", "max"):
                replacements[id(agg)] = _aggregate_node(agg.key, inner_output.copy())
            elif (
                texts[p] in inner_keys
                and agg.key in ("sum", "count", "avg")
                and (extra <= {texts[p]})
            ):
                kind = {"sum": exp.Sum, "count": exp.Count, "avg": exp.Avg}[agg.key]
                distinct = exp.Distinct(expressions=[inner_output.copy()])
                replacements[id(agg)] = kind(this=distinct)
            else:
                return None
    outputs = inner.outputs

    def rewrite(node: exp.Expr) -> exp.Expr:
        copy = node.copy()
        originals = list(node.find_all(exp.AggFunc))
        copies = list(copy.find_all(exp.AggFunc))
        for original, duplicate in zip(originals, copies, strict=True):
            new = replacements[id(original)].copy()
            if duplicate is copy:
                return new
            duplicate.replace(new)
        try:
            return _substitute(copy, source, outputs)
        except _Skip:
            raise _Skip() from None

    try:
        return replace(
            block,
            sources=inner.sources,
            where=inner.where,
            group=[rewrite(g) for g in block.group] if block.group is not None else None,
            outputs=[rewrite(o) for o in block.outputs],
            order=[_ordered(rewrite(o)) for o in block.order],
            having=None,
        )
    except _Skip:
        return None


def _merge_filtered_branches(block: Block) -> Block | None:
    """Aggregates that each read one operand of a UNION ALL, picked by a FILTER on a
    column constant in every operand, over operands that aggregate the same rows.

    ``SELECT k, COUNT(x) FILTER (WHERE g0), MIN(s) FILTER (WHERE g1) FROM (SELECT k, x,
    NULL AS s, TRUE AS g0, FALSE AS g1 FROM t GROUP BY k, x UNION ALL SELECT k, NULL,
    SUM(y), FALSE, TRUE FROM t GROUP BY k) GROUP BY k`` (what GROUPING SETS make of
    DISTINCT aggregates) is one aggregate over ``t`` grouped by ``k``: each aggregate is
    merged with its own operand (:func:`_merge_refined_aggregates`), and every operand
    has a group for each ``k`` of the rows, so the outer groups are the same.
    """
    if not block.aggregate or block.left_joins or block.distinct or block.having is not None:
        return None
    if len(block.sources) != 1 or block.where or block.limit is not None or block.order:
        return None
    (source,) = block.sources
    union = source.query
    if not (isinstance(union, SetOp) and union.kind == "union" and not union.distinct):
        return None
    branches = [b for b in union.branches if isinstance(b, Block)]
    if len(branches) != len(union.branches) or len({_rows_text(b) for b in branches}) != 1:
        return None
    for branch in branches:
        # Every operand (picked or not) must group by each outer key, or it would make
        # groups (a NULL key) the merged block does not have.
        if branch.having is not None:
            return None
        if branch.group is not None:
            keys = {g.sql() for g in branch.group}
        elif branch.distinct and not branch.aggregate:
            keys = {o.sql() for o in branch.outputs}
        else:
            return None
        for key in block.group or []:
            position = _column_position(key, source)
            if position is None or branch.outputs[position].sql() not in keys:
                return None
    picked: dict[int, int] = {}  # id of the FILTER node -> operand
    for node in block.outputs:
        for found in node.find_all(exp.Filter):
            condition = found.expression
            condition = condition.this if isinstance(condition, exp.Where) else condition
            position = (
                source.position(condition.name)
                if isinstance(condition, exp.Column) and condition.table == source.alias
                else None
            )
            if position is None:
                return None
            truths = [_constant_truth(b.outputs[position]) for b in branches]
            if truths.count(True) != 1 or any(t is None for t in truths):
                return None
            picked[id(found)] = truths.index(True)
    if not picked:
        return None
    merged_outputs: list[exp.Expr] = []
    shape: tuple[str, ...] | None = None
    merged_sources: list[Source] = []
    merged_where: list[exp.Expr] = []
    merged_group: list[exp.Expr] | None = None
    for output in block.outputs:
        filters = list(output.find_all(exp.Filter))
        operands = {picked[id(f)] for f in filters}
        if len(operands) > 1:
            return None
        index = operands.pop() if operands else 0
        plain = output.copy()
        for found in list(plain.find_all(exp.Filter)):
            if found is plain:
                plain = found.this
            else:
                found.replace(found.this)
        one = replace(
            block,
            outputs=[plain],
            sources=[replace(source, query=branches[index])],
        )
        merged = _merge_refined_aggregates(one)
        if merged is None:
            return None
        text = (
            tuple(f"{s.alias}:{s.table}" for s in merged.sources)
            + tuple(w.sql() for w in merged.where)
            + tuple(g.sql() for g in merged.group or [])
        )
        if shape is None:
            shape, merged_sources, merged_where, merged_group = (
                text,
                merged.sources,
                merged.where,
                merged.group,
            )
        elif text != shape:
            return None
        merged_outputs.append(merged.outputs[0])
    return replace(
        block,
        sources=merged_sources,
        where=merged_where,
        group=merged_group,
        outputs=merged_outputs,
    )


def _null(node: exp.Expr) -> bool:
    """``CASE WHEN FALSE THEN x END``: the typed NULL of a missing grouping key."""
    if not isinstance(node, exp.Case) or node.args.get("default") is not None:
        return False
    ifs = node.args.get("ifs") or []
    return len(ifs) == 1 and isinstance(ifs[0].this, exp.Boolean) and ifs[0].this.this is False


def _column_position(node: exp.Expr, source: Source) -> int | None:
    if isinstance(node, exp.Column) and node.table == source.alias:
        return source.position(node.name)
    return None


def _rows_text(block: Block) -> str:
    """What an operand aggregates: its sources and WHERE, as text."""
    sources = ",".join(f"{s.alias}:{s.table}" for s in block.sources)
    return sources + "|" + " AND ".join(w.sql() for w in block.where) + f"|{block.aggregate}"


def _constant_truth(node: exp.Expr) -> bool | None:
    """The truth of a constant comparison of integers (``1 = 0``) or boolean literal."""
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, (exp.EQ, exp.NEQ)):
        a, b = node.this, node.expression
        if isinstance(a, exp.Literal) and isinstance(b, exp.Literal) and a.is_int and b.is_int:
            return (int(a.name) == int(b.name)) == isinstance(node, exp.EQ)
    return None


def _never_null_single(inner: Block) -> exp.Expr | None:
    """The one output of a DISTINCT, non-aggregate block whose WHERE rejects its NULL."""
    if not inner.distinct or inner.aggregate or len(inner.outputs) != 1:
        return None
    (output,) = inner.outputs
    for conj in inner.where:
        if (
            isinstance(conj, exp.Not)
            and isinstance(conj.this, exp.Is)
            and isinstance(conj.this.expression, exp.Null)
            and conj.this.this == output
        ):
            return output.copy()
    return None


def _select_from_aggregate(block: Block) -> Block | None:
    """``SELECT f(d.c) FROM (SELECT … GROUP BY …) d WHERE p(d.c)`` is the aggregate
    itself with ``f`` as its outputs and ``p`` added to its HAVING: the outer block only
    filters and projects the groups' rows."""
    if block.aggregate or block.left_joins or block.redirect or len(block.sources) != 1:
        return None
    if block.windowed:
        return None  # windows over the groups would move into the aggregate
    (source,) = block.sources
    inner = source.query
    if not isinstance(inner, Block) or not inner.aggregate or inner.distinct:
        return None
    if inner.order or inner.limit is not None:
        return None
    merged = _read_through(block, source, inner)
    if merged is None:
        return None
    rewritten, inner = merged
    conditions = [*([inner.having] if inner.having is not None else []), *rewritten.where]
    having = (
        exp.and_(*conditions) if len(conditions) > 1 else (conditions[0] if conditions else None)
    )
    return replace(
        inner,
        outputs=rewritten.outputs,
        having=having,
        distinct=block.distinct,
        order=rewritten.order,
        limit=block.limit,
        offset=block.offset,
    )


def _partial(branch: Block) -> bool:
    return (
        branch.aggregate
        and branch.having is None
        and not branch.distinct
        and not branch.left_joins
        and branch.limit is None
    )


def _aggregate_parts(node: exp.Expr) -> tuple[str, exp.Expr | None] | None:
    """(function, argument or None for ``*``) of a plain aggregate."""
    if not isinstance(node, (exp.Sum, exp.Min, exp.Max, exp.Count)):
        return None
    arg = node.this
    if isinstance(arg, exp.Distinct):
        return None
    if isinstance(arg, exp.Star):
        return (node.key, None) if node.key == "count" else None
    if arg is None or has_aggregate(arg):
        return None
    return node.key, arg


def _aggregate_node(name: str, arg: exp.Expr) -> exp.Expr:
    return {"sum": exp.Sum, "min": exp.Min, "max": exp.Max, "count": exp.Count}[name](this=arg)


def _columns(block: Block) -> list[exp.Column]:
    return [c for n in block.expressions() for c in n.find_all(exp.Column)]
