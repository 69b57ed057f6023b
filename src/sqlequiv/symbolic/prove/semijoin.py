"""Semi-joins: one shape for EXISTS, IN and joins with a DISTINCT derived table.

``EXISTS (SELECT … FROM t s WHERE s.e = o.x AND p(s))``, ``o.x IN (SELECT s.e
FROM t s WHERE p(s))`` and ``JOIN (SELECT DISTINCT s.e AS c0 FROM t s WHERE
p(s)) d ON d.c0 = o.x`` all ask whether some row of ``t`` satisfying ``p``
matches ``o.x`` with ``=``. A :class:`SemiJoin` names that question by its
parts so that the prover can give the three forms one atom. IN is *true*
exactly when such a row exists (it is unknown rather than false in some
other cases, which the caller handles); the join with a DISTINCT derived
table keeps a row once exactly when such a row exists, because the derived
table holds each value once and ``=`` never matches NULL.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from sqlequiv.symbolic.prove.blocks import Block, NotABlock, Source, read_query, select_from

__all__ = ["SemiJoin", "constant_rows_exists", "semi_join", "semi_join_exists"]


@dataclass(frozen=True)
class SemiJoin:
    """``outer IN (SELECT inner FROM sources WHERE conditions)``, as parts."""

    outer: exp.Expr
    inner: exp.Expr
    sources: tuple[Source, ...]
    conditions: tuple[exp.Expr, ...]

    def as_in(self) -> exp.In:
        """A canonical IN node (sources by table, conditions by text) to name the atom by."""
        return exp.In(this=self.outer.copy(), query=exp.Subquery(this=self._select(self.inner)))

    def as_exists(self) -> exp.Exists:
        """``EXISTS (SELECT 1 FROM sources WHERE conditions AND inner = outer)``."""
        match = exp.EQ(this=self.inner.copy(), expression=self.outer.copy())
        return exp.Exists(this=self._select(exp.Literal.number(1), extra=match))

    def _select(self, item: exp.Expr, extra: exp.Expr | None = None) -> exp.Select:
        ordered = sorted(self.sources, key=lambda s: (s.table or "", s.alias))
        conditions = sorted(self.conditions, key=lambda c: c.sql())
        if extra is not None:
            conditions.append(extra)
        return select_from(item, [(s.table or "", s.alias) for s in ordered], conditions)


def semi_join(query: exp.Expr, outer: exp.Expr | None = None) -> SemiJoin | None:
    """Read a subquery as a semi-join, or None.

    With ``outer`` (an IN), the subquery must be uncorrelated with one output;
    without (an EXISTS), exactly one WHERE conjunct must be ``inner = outer``
    and every other conjunct must read only the subquery's own sources.
    """
    try:
        block = read_query(query)
    except NotABlock:
        return None
    if not isinstance(block, Block) or block.aggregate or block.left_joins or block.order:
        return None
    if block.limit is not None:
        return None
    if not block.sources or any(s.table is None for s in block.sources):
        return None
    own = {s.alias for s in block.sources}
    local: list[exp.Expr] = []
    matches: list[tuple[exp.Expr, exp.Expr]] = []
    for condition in block.where:
        tables = _tables(condition)
        if tables <= own and not _has_query(condition):
            local.append(condition)
            continue
        if outer is not None or not isinstance(condition, exp.EQ):
            return None
        a, b = condition.this, condition.expression
        ta, tb = _tables(a), _tables(b)
        if ta and ta <= own and tb and not tb & own and not _has_query(b):
            matches.append((a, b))
        elif tb and tb <= own and ta and not ta & own and not _has_query(a):
            matches.append((b, a))
        else:
            return None
    if outer is not None:
        if len(block.outputs) != 1:
            return None  # IN ignores DISTINCT: duplicates never change whether a row matches
        return SemiJoin(outer, block.outputs[0], tuple(block.sources), tuple(local))
    if len(matches) != 1:
        return None
    inner, found_outer = matches[0]
    return SemiJoin(found_outer, inner, tuple(block.sources), tuple(local))


def semi_join_exists(derived: Block, column: int, outer: exp.Expr) -> exp.Exists | None:
    """The EXISTS that a join with the DISTINCT derived table ``derived`` on ``column`` is.

    None unless ``derived`` is a DISTINCT, non-aggregate block over base tables
    whose other outputs are non-NULL literals (which cannot split a value).
    """
    if not derived.distinct or derived.aggregate or derived.left_joins or derived.order:
        return None
    if derived.limit is not None:
        return None
    if not derived.sources or any(s.table is None for s in derived.sources):
        return None
    for i, output in enumerate(derived.outputs):
        if i != column and not isinstance(output, (exp.Literal, exp.Boolean)):
            return None
    own = {s.alias for s in derived.sources}
    if any(not _tables(c) <= own for c in derived.where):
        return None
    return SemiJoin(
        outer, derived.outputs[column], tuple(derived.sources), tuple(derived.where)
    ).as_exists()


def constant_rows_exists(derived: Block) -> exp.Exists | None:
    """``EXISTS (SELECT 1 FROM sources WHERE conditions)`` for a DISTINCT derived table
    whose outputs are all literals: it holds one row when that EXISTS is true and none
    otherwise. None for any other table."""
    if not derived.distinct or derived.aggregate or derived.left_joins or derived.order:
        return None
    if derived.limit is not None or not derived.sources:
        return None
    if any(s.table is None for s in derived.sources):
        return None
    if not all(isinstance(o, (exp.Literal, exp.Boolean)) for o in derived.outputs):
        return None
    own = {s.alias for s in derived.sources}
    if any(not _tables(c) <= own or _has_query(c) for c in derived.where):
        return None  # correlated: not a constant
    tables = [(s.table or "", s.alias) for s in derived.sources]
    return exp.Exists(this=select_from(exp.Literal.number(1), tables, derived.where))


def _tables(node: exp.Expr) -> set[str]:
    return {c.table for c in node.find_all(exp.Column)}


def _has_query(node: exp.Expr) -> bool:
    return node.find(exp.Query) is not None
