"""Set operations in the prover's normal form: as blocks, where set semantics allow.

Each rewrite keeps the result exactly (set semantics: every operation here is
DISTINCT):

* **Flatten**: ``(a UNION ALL b) UNION c`` is ``a UNION b UNION c``.
* **One shape, one block**: operands of a UNION that read the same sources and
  select the same expressions, differing only in their WHERE, are one DISTINCT
  block whose WHERE is the OR of theirs (``{f(r) | p(r)} UNION {f(r) | q(r)}`` is
  ``{f(r) | p(r) OR q(r)}``).
* **EXCEPT / INTERSECT of two blocks** is the first block, DISTINCT, with
  ``NOT EXISTS`` / ``EXISTS`` of the second's rows equal to its row. The
  comparison is IS NOT DISTINCT FROM (set operations treat NULLs as equal),
  written ``=`` where both values are never NULL, so that the EXISTS reads as the
  semi-join an ``IN`` is.

Operands the rewrites do not fit stay a :class:`~sqlequiv.symbolic.prove.blocks.SetOp`.
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.prove.blocks import Block, Query, SetOp, select_from
from sqlequiv.symbolic.prove.unnest import unnest

__all__ = ["set_normal_form"]


def set_normal_form(query: Query, schema: Schema) -> Query:
    """``query`` with its top set operation rewritten as above where it fits."""
    if not isinstance(query, SetOp) or not query.distinct or query.order:
        return query
    if query.kind == "union":
        # Each operand may drop its own duplicates first (and so absorb the DISTINCT
        # derived tables it reads): the UNION drops them anyway.
        branches = [_deduplicated(b) if isinstance(b, Block) else b for b in _flattened(query)]
        merged = _merge_same_shape(branches)
        if len(merged) == 1:
            return merged[0]
        return replace(query, branches=merged)
    if len(query.branches) == 2:
        first, second = query.branches
        if isinstance(first, Block) and isinstance(second, Block):
            block = _filtered_by(first, second, schema, negate=query.kind == "except")
            if block is not None:
                return block
    return query


def _deduplicated(block: Block) -> Query:
    if block.distinct or block.aggregate or block.limit is not None or block.windowed:
        return block
    return unnest(replace(block, distinct=True))


def _flattened(query: SetOp) -> list[Query]:
    out: list[Query] = []
    for branch in query.branches:
        if isinstance(branch, SetOp) and branch.kind == "union" and not branch.order:
            out.extend(_flattened(branch))
        else:
            out.append(branch)
    return out


def _plain(block: Block) -> bool:
    return not (
        block.aggregate
        or block.windowed
        or block.left_joins
        or block.limit is not None
        or block.order
        or block.redirect
        or not block.sources
        or any(s.table is None for s in block.sources)
    )


def _shape(block: Block) -> tuple[tuple[tuple[str, str | None], ...], tuple[str, ...]]:
    return (
        tuple((s.alias, s.table) for s in block.sources),
        tuple(o.sql() for o in block.outputs),
    )


def _merge_same_shape(branches: list[Query]) -> list[Query]:
    groups: dict[object, list[Block]] = {}
    order: list[object] = []
    for i, branch in enumerate(branches):
        key: object = _shape(branch) if isinstance(branch, Block) and _plain(branch) else i
        if key not in groups:
            groups[key] = []
            order.append(key)
        if isinstance(branch, Block):
            groups[key].append(branch)
        else:
            groups[key] = [branch]  # type: ignore[list-item]
    out: list[Query] = []
    for key in order:
        members = groups[key]
        if len(members) == 1 and not isinstance(key, tuple):
            out.append(members[0])
            continue
        if len(members) == 1:
            out.append(replace(members[0], distinct=True))
            continue
        alternatives = [_conjunction(b.where) for b in members]
        out.append(replace(members[0], where=[exp.or_(*alternatives)], distinct=True))
    return out


def _conjunction(parts: list[exp.Expr]) -> exp.Expr:
    if not parts:
        return exp.true()
    return exp.paren(exp.and_(*(p.copy() for p in parts)), copy=False)


def _filtered_by(first: Block, second: Block, schema: Schema, *, negate: bool) -> Block | None:
    if not (_plain(first) and _plain(second)) or len(first.outputs) != len(second.outputs):
        return None
    if any(node.find(exp.Query) is not None for node in [*second.where, *second.outputs]):
        return None  # renaming the second block's sources would have to look inside
    taken = {s.alias for s in first.all_sources}
    for node in first.expressions():
        taken |= {c.table for c in node.find_all(exp.Column)}
    names: dict[str, str] = {}
    for source in second.sources:
        name, n = f"x_{source.alias}", 0
        while name in taken or name in names.values():
            n += 1
            name = f"x_{source.alias}_{n}"
        names[source.alias] = name

    def renamed(node: exp.Expr) -> exp.Expr:
        copy = node.copy()
        for column in copy.find_all(exp.Column):
            if column.table in names:
                column.set("table", exp.to_identifier(names[column.table]))
        return copy

    matches: list[exp.Expr] = []
    for mine, theirs in zip(first.outputs, second.outputs, strict=True):
        other = renamed(theirs)
        if _never_null(mine, first, schema) and _never_null(theirs, second, schema):
            matches.append(exp.EQ(this=other, expression=mine.copy()))
        else:
            matches.append(exp.NullSafeEQ(this=other, expression=mine.copy()))
    tables = [(s.table or "", names[s.alias]) for s in second.sources]
    conditions = [*(renamed(w) for w in second.where), *matches]
    test: exp.Expr = exp.Exists(this=select_from(exp.Literal.number(1), tables, conditions))
    if negate:
        test = exp.Not(this=test)
    return replace(first, where=[*first.where, test], distinct=True)


def _never_null(node: exp.Expr, block: Block, schema: Schema) -> bool:
    """A NOT NULL column of a base table of ``block``, or a non-NULL literal."""
    if isinstance(node, exp.Literal):
        return True
    if not isinstance(node, exp.Column):
        return False
    for source in block.sources:
        if source.alias == node.table and source.table is not None:
            table = schema.table(source.table)
            return node.name.lower() in table.column_names and not (
                table.column(node.name).nullable
            )
    return False
