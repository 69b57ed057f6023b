"""Proofs of equivalence for queries of the same shape.

Both queries are read into blocks (:mod:`sqlequiv.symbolic.prove.blocks`). Two
blocks are equivalent when a bijection s between their sources (same base
table, or derived queries proved equivalent in turn) makes

* the WHERE conditions true on exactly the same source rows,
* the LEFT JOINs the same (same sources, ON conditions true on the same rows),
* the grouping the same partition, HAVING true on the same groups,
* and every output column equal (IS NOT DISTINCT FROM) on every row kept,

all under the schema's constraints. Each condition is one z3 validity check
over symbolic source rows (one row per source; see :mod:`.scope`). Because s
maps a tuple of source rows on one side to the same tuple on the other, bag
multiplicities agree, so the proof holds under bag semantics.

Before matching, each block is simplified by rewrites that are each sound on
their own: a LEFT JOIN whose NULL-padded rows the WHERE always rejects is an
inner join; a second occurrence of a table joined on a key to the first one is
the first one; a parent table joined only on a declared foreign key (with a
NOT NULL referencing column) contributes exactly one row and is dropped.

A block whose WHERE can never be true returns no rows; two such blocks are
equivalent whatever else they say.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import z3
from sqlglot import exp

from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.prove.blocks import (
    Block,
    LeftJoin,
    NotABlock,
    Query,
    SetOp,
    Source,
    conjuncts,
    fk_conjuncts,
    has_aggregate,
    read_query,
    select_from,
)
from sqlequiv.symbolic.prove.dependencies import (
    determines,
    grouped_rows,
    identifies,
    identifying_columns,
    is_set,
)
from sqlequiv.symbolic.prove.scope import Scope, Side
from sqlequiv.symbolic.prove.semijoin import constant_rows_exists, semi_join, semi_join_exists
from sqlequiv.symbolic.prove.setops import set_normal_form
from sqlequiv.symbolic.prove.solver import BudgetExhausted, Constrained, ProofSolver
from sqlequiv.symbolic.prove.unnest import (
    null_when_columns_are,
    operand_blocks,
    resolved_order,
    unnest,
)
from sqlequiv.symbolic.terms import SymBool, SymValue, Unsupported, same
from sqlequiv.symbolic.terms.formulas import bool_and

__all__ = ["MAX_CHECKS", "Prover"]

#: Most source bijections tried per pair of blocks.
MAX_MAPPINGS = 120

#: Most solver calls of one proof: the deterministic bound on its work (z3's ``rlimit``
#: bounds each call). Trying all :data:`MAX_MAPPINGS` bijections takes one call each at
#: least; across the corpus and the peer benchmarks a proof makes at most 128.
MAX_CHECKS = 200


@dataclass
class Prover:
    """Proves pairs of canonical queries equivalent, or says it cannot.

    Example:
        >>> # see tests/test_symbolic_prove.py
    """

    schema: Schema
    ignore_column_order: bool = True
    #: z3's deterministic work limit per check: what bounds a proof in practice, so
    #: that the same pair gets the same answer on a fast or a slow machine.
    solver_rlimit: int = 4_000_000
    #: Solver calls one proof may make (see :data:`MAX_CHECKS`).
    max_checks: int = MAX_CHECKS
    #: Wall-clock safety nets (per check, per proof; a check never runs past the
    #: proof's); when one fires the answer may depend on the machine.
    solver_timeout_ms: int = 10_000
    time_budget: float = 10.0

    def __post_init__(self) -> None:
        #: The calls to z3 and their budget, which every scope of this prover decides with.
        self.solver = ProofSolver(
            self.solver_rlimit, self.max_checks, self.solver_timeout_ms, self.time_budget
        )
        self.last_reason: str | None = None
        #: ``not_found`` when :attr:`last_reason` names a fact not proved rather than a
        #: construct not handled (``unsupported``, the default).
        self.last_status: str | None = None
        #: The budget that stopped the last proof ("check budget: ...", "time budget"), if any.
        self.stopped_by: str | None = None

    def equivalent(self, candidate: exp.Expr, reference: exp.Expr) -> bool:
        """True when the two canonical queries are proved to return the same rows."""
        from sqlequiv.symbolic.prove.blocks import read_query

        self.solver.start()
        self.last_reason = self.stopped_by = self.last_status = None
        try:
            left = unnest(read_query(candidate, top=True))
            right = unnest(read_query(reference, top=True))
            for query in (left, right):
                _no_inner_limit(query, top=True)
            if self._query(left, right, top=True):
                return True
            if not self.ignore_column_order:
                return False
            # The comparison ignores the order of the result's columns: a set operation's
            # may be put in a canonical one, every operand alike, and compared again.
            canonical = _canonical_columns(left), _canonical_columns(right)
            if canonical[0] is left and canonical[1] is right:
                return False
            return self._query(canonical[0], canonical[1], top=True)
        except (NotABlock, Unsupported) as exc:
            self.last_reason = str(exc)
            return False
        except BudgetExhausted as exc:
            self.last_reason = self.stopped_by = str(exc)
            return False
        finally:
            self.solver.stop()

    # -- queries ---------------------------------------------------------

    def _query(self, left: Query, right: Query, *, top: bool) -> bool:
        self.solver.tick()
        left, right = set_normal_form(left, self.schema), set_normal_form(right, self.schema)
        if isinstance(left, Block) and isinstance(right, Block):
            return self._blocks(left, right, top=top)
        left_branches = self._live_branches(left)
        right_branches = self._live_branches(right)
        if left_branches is not None and right_branches is not None:
            # UNION ALL: the branches must pair off (proved equivalence is an
            # equivalence relation, so a greedy pairing is complete).
            if (
                top
                and isinstance(right, SetOp)
                and right.order
                and not _same_positional_order(left, right)
            ):
                return False
            return self._pair_off(left_branches, right_branches)
        if isinstance(left, SetOp) and isinstance(right, SetOp):
            if (left.kind, left.distinct) != (right.kind, right.distinct):
                return False
            if top and right.order:
                return False
            if len(left.branches) != len(right.branches):
                return False
            if left.kind == "union":
                # UNION (distinct): every branch has an equivalent on the other side.
                return all(
                    any(self._query(a, b, top=False) for b in right.branches) for a in left.branches
                ) and all(
                    any(self._query(a, b, top=False) for a in left.branches) for b in right.branches
                )
            return all(
                self._query(a, b, top=False)
                for a, b in zip(left.branches, right.branches, strict=True)
            )
        return False

    def _live_branches(self, query: Query) -> list[Query] | None:
        """The non-empty operands of a UNION ALL (a block counts as one), or None."""
        if isinstance(query, Block):
            return [] if self._empty(query) else [query]
        if query.kind == "union" and not query.distinct:
            out: list[Query] = []
            for branch in query.branches:
                live = self._live_branches(branch)
                if live is None:
                    out.append(branch)
                else:
                    out.extend(live)
            return out
        return None

    def _pair_off(self, left: list[Query], right: list[Query]) -> bool:
        if len(left) != len(right):
            return False
        remaining = list(right)
        for a in left:
            for i, b in enumerate(remaining):
                if self._query(a, b, top=False):
                    del remaining[i]
                    break
            else:
                return False
        return True

    # -- blocks ----------------------------------------------------------

    def _blocks(self, left: Block, right: Block, *, top: bool) -> bool:
        if len(left.outputs) != len(right.outputs):
            return False
        left = self._simplify(left, "c")
        right = self._simplify(right, "r")
        left_empty, right_empty = self._empty(left), self._empty(right)
        if left_empty or right_empty:
            return left_empty and right_empty
        if _one_row(left) and _one_row(right) and not self._same_sources(left, right):
            return self._one_rows(left, right, top=top)
        if (left.aggregate, left.distinct) != (right.aggregate, right.distinct):
            return False
        if (left.group is None) != (right.group is None):
            return False
        if top and right.order and not left.order:
            return False
        if (left.limit, left.offset) != (right.limit, right.offset):
            return False
        if left.limit is not None and not (left.aggregate or right.aggregate):
            # Sort keys after a prefix that identifies the rows never break a tie.
            left = replace(left, order=self._identifying_prefix(left))
            right = replace(right, order=self._identifying_prefix(right))
        if left.limit is not None and len(left.order) != len(right.order):
            # LIMIT keeps the first rows of an order both queries must share. Rows tied
            # on every sort key may still come out differently; the comparison reports
            # such ties as nondeterministic rather than as a difference.
            return False
        for mapping in self._mappings(left, right):
            if self._under_mapping(left, right, mapping, top=top):
                return True
        return False

    def _same_sources(self, left: Block, right: Block) -> bool:
        signatures = [sorted(s.signature for s in b.all_sources) for b in (left, right)]
        return signatures[0] == signatures[1] and left.aggregate == right.aggregate

    def _one_rows(self, left: Block, right: Block, *, top: bool) -> bool:
        """Two blocks that return exactly one row each (an aggregate without GROUP BY, or
        values read from no table) and share no source: equal when their outputs are the
        same values whatever the rows (aggregates over no row or only NULLs fold to
        constants, see :class:`.scope.Scope`), or, with each aggregate written as the
        scalar subquery it equals, the same scalar subqueries."""
        return self._one_row_outputs(left, right, top=top, scalar=False) or (
            self._one_row_outputs(left, right, top=top, scalar=True)
        )

    def _one_row_outputs(self, left: Block, right: Block, *, top: bool, scalar: bool) -> bool:
        scope = Scope(self.schema, self.solver, {"c": left, "r": right}, mapping={})
        scope.shared_rows = False
        try:
            scope.kept_by_side = {
                "c": scope.predicate("c", left.where).true,
                "r": scope.predicate("r", right.where).true,
            }
            outputs = [_as_scalar_subqueries(b) if scalar else b.outputs for b in (left, right)]
            outputs_l = _output_values(scope, "c", outputs[0])
            outputs_r = _output_values(scope, "r", outputs[1])
            return self._outputs_match(scope, outputs_l, outputs_r, z3.BoolVal(True), top=top)
        except Unsupported as exc:
            self.last_reason = str(exc)
            return False

    def _empty(self, block: Block) -> bool:
        """The block returns no row on any database (its WHERE is never true)."""
        if block.limit == 0:
            return True
        if block.aggregate and block.group is None:
            return False  # an aggregate without GROUP BY always returns one row
        scope = Scope(self.schema, self.solver, {"c": block})
        try:
            where = scope.predicate("c", block.where)
        except Unsupported:
            return False
        return not self.satisfiable(scope, where.true)

    def _simplify(self, block: Block, side: Side) -> Block:
        if block.windowed:
            return block  # a window reads the whole bag of rows: none of it may change
        block = self._needless_distinct_aggregates(block)
        if block.full:
            outer = self._outer_join_of_full(block)
            if outer is None:
                return block  # the rewrites below read inner sources as never padded
            unnested = unnest(outer)
            if not isinstance(unnested, Block) or unnested.full:
                raise NotABlock("FULL JOIN")
            block = unnested
        return self._set_semantics(self._simplify_joins(block), side)

    def _outer_join_of_full(self, block: Block) -> Block | None:
        """``a FULL JOIN b ON p`` as the join its WHERE leaves: ``b LEFT JOIN a`` when it
        rejects every row padding ``b`` (``a``'s unmatched rows go), ``a LEFT JOIN b``
        when it rejects those padding ``a``, an inner join when both; None otherwise."""
        (a,), (join,) = block.sources, block.left_joins
        scope = Scope(self.schema, self.solver, {"c": block})
        try:
            where = scope.predicate("c", block.where).true
        except Unsupported:
            return None
        pad_a, pad_b = scope.pad("c", a.alias), scope.pad("c", join.source.alias)
        keeps_a_pad = self.satisfiable(scope, bool_and(pad_a, where))
        keeps_b_pad = self.satisfiable(scope, bool_and(pad_b, where))
        if not keeps_a_pad and not keeps_b_pad:
            return replace(
                block,
                sources=[a, join.source],
                left_joins=[],
                where=block.where + conjuncts(join.on),
            )
        if not keeps_b_pad:
            return replace(block, sources=[join.source], left_joins=[LeftJoin(a, join.on)])
        if not keeps_a_pad:
            return replace(block, left_joins=[replace(join, full=False)])
        return None

    def _set_semantics(self, block: Block, side: Side) -> Block:
        """DISTINCT as the normal form wants it: a block that is a set anyway absorbs the
        DISTINCT derived tables it joins (as DISTINCT would), and keeps no DISTINCT of
        its own when dropping it changes nothing (see :mod:`.dependencies`)."""
        if (
            not block.distinct
            and not block.aggregate
            and any(_distinct_derived(s) for s in block.sources)
            and is_set(self.schema, self.solver, block)
        ):
            absorbed = unnest(replace(block, distinct=True))
            if isinstance(absorbed, Block) and absorbed.distinct:
                block = self._simplify_joins(absorbed)
        if block.distinct and is_set(self.schema, self.solver, replace(block, distinct=False)):
            block = replace(block, distinct=False)
        return block

    def _simplify_joins(self, block: Block) -> Block:
        block = self._distinct_semi_joins(self._foreign_key_left_joins(block))
        block = self._drop_unread_left_joins(self._semi_joins(self._keyed_semi_joins(block)))
        block = self._per_row_aggregates(block)
        block = self._reject_nulls(block)
        block = self._drop_key_self_joins(block)
        return self._drop_foreign_key_joins(block)

    def _semi_joins(self, block: Block) -> Block:
        """Joins with a DISTINCT derived table become EXISTS; anti-joins become NOT EXISTS.

        ``JOIN (SELECT DISTINCT e AS c0 ...) d ON d.c0 = x`` keeps each row once when
        a match exists; ``LEFT JOIN (SELECT DISTINCT e AS c0, 1 AS c1 ...) d ON d.c0 = x
        WHERE d.c1 IS NULL`` keeps each row once when none does.
        """
        taken = {s.alias for s in block.all_sources}
        for source in block.sources:
            constant = _constant_source(block, source, taken)
            if constant is not None:
                return self._semi_joins(constant)
        for source in block.sources:
            if not isinstance(source.query, Block) or block.column_uses(source.alias) != 1:
                continue
            if {s.alias for s in source.query.sources} & taken:
                continue  # the EXISTS would capture an outer alias
            for conj in block.where:
                found = _equality_with(conj, source, block)
                exists = found and semi_join_exists(source.query, found[0], found[1])
                if exists:
                    return self._semi_joins(
                        replace(
                            block,
                            sources=[s for s in block.sources if s is not source],
                            where=[*(w for w in block.where if w is not conj), exists],
                        )
                    )
        for join in block.left_joins:
            tested = _left_semi_join(block, join, lambda q: is_set(self.schema, self.solver, q))
            if tested is None:
                tested = self._left_anti_join(block, join)
            if tested is not None:
                return self._semi_joins(tested)
        return block

    def _left_anti_join(self, block: Block, join: LeftJoin) -> Block | None:
        """``LEFT JOIN t ON p WHERE t.c IS NULL`` with ``c`` never NULL on a match (NOT
        NULL, or matched by ``=`` in ``p``) keeps exactly the rows without a match, once:
        ``WHERE NOT EXISTS (SELECT 1 FROM t WHERE p)``, when nothing else reads ``t``."""
        source = join.source
        if source.table is None:
            return None
        table = self.schema.table(source.table)
        on = conjuncts(join.on)
        if any(isinstance(n, (exp.Query, exp.Subquery)) for c in on for n in c.walk()):
            return None
        matched = {
            c.name.lower()
            for conj in on
            if isinstance(conj, exp.EQ)
            for c in (conj.this, conj.expression)
            if isinstance(c, exp.Column) and block.resolve_alias(c.table) == source.alias
        }
        test = None
        for conj in block.where:
            column = conj.this if isinstance(conj, exp.Is) else None
            if (
                isinstance(column, exp.Column)
                and isinstance(conj.expression, exp.Null)
                and block.resolve_alias(column.table) == source.alias
                and column.name.lower() in table.column_names
                and (not table.column(column.name).nullable or column.name.lower() in matched)
            ):
                test = conj
                break
        if test is None:
            return None
        uses = _uses_in(source.alias, on, block) + 1
        if block.column_uses(source.alias) != uses:
            return None
        select = select_from(exp.Literal.number(1), [(source.table, source.alias)], on)
        missing = exp.Not(this=exp.Exists(this=select))
        return replace(
            block,
            left_joins=[j for j in block.left_joins if j is not join],
            where=[missing if w is test else w for w in block.where],
        )

    def _needless_distinct_aggregates(self, block: Block) -> Block:
        """``AGG(DISTINCT k)`` is ``AGG(k)`` when ``k`` identifies the rows (a key): no two
        rows of a group share a value of it."""
        if not block.aggregate or block.full:
            return block
        rows = grouped_rows(block)
        changed = False
        outputs = []
        for output in block.outputs:
            copy = output.copy()
            for agg in list(copy.find_all(exp.Count, exp.Sum, exp.Avg)):
                arg = agg.this
                if not (isinstance(arg, exp.Distinct) and len(arg.expressions) == 1):
                    continue
                key = arg.expressions[0]
                if key.find(exp.Query, exp.AggFunc) is None and identifies(
                    self.schema, self.solver, rows, [key]
                ):
                    agg.set("this", key.copy())
                    changed = True
            outputs.append(copy)
        return replace(block, outputs=outputs) if changed else block

    def _foreign_key_left_joins(self, block: Block) -> Block:
        """``c LEFT JOIN p ON c.fk = p.key`` with a NOT NULL foreign key: every row of ``c``
        has exactly one match, no row is padded, so it is the inner join."""
        for join in block.left_joins:
            parent = join.source
            if parent.table is None or join.full:
                continue
            on = conjuncts(join.on)
            parent_keys = {frozenset(k) for k in self.schema.table(parent.table).keys}
            for child in block.sources:
                if child.table is None or block.padded(child.alias):
                    continue
                child_table = self.schema.table(child.table)
                for fk in child_table.foreign_keys:
                    if fk.ref_table.lower() != parent.table:
                        continue
                    if frozenset(fk.ref_columns) not in parent_keys:
                        continue
                    if any(child_table.column(c).nullable for c in fk.columns):
                        continue
                    pairs = dict(zip(fk.ref_columns, fk.columns, strict=True))
                    found = fk_conjuncts(on, child.alias, parent.alias, pairs, block.resolve_alias)
                    if found is None or len(found) != len(on):
                        continue
                    return self._foreign_key_left_joins(
                        replace(
                            block,
                            sources=[*block.sources, parent],
                            left_joins=[j for j in block.left_joins if j is not join],
                            where=block.where + on,
                        )
                    )
        return block

    def _distinct_semi_joins(self, block: Block) -> Block:
        """Under DISTINCT, a joined table read only by WHERE conjuncts is an EXISTS: the set
        of output rows is that of the rows for which some row of it qualifies."""
        if not block.distinct or block.aggregate or block.limit is not None:
            return block
        if len(block.sources) < 2 or block.redirect:
            return block
        for source in block.sources:
            if source.table is None:
                continue
            parts = [w for w in block.where if _reads_any(w, {source.alias}, block)]
            if not parts or block.column_uses(source.alias) != _uses_in(source.alias, parts, block):
                continue
            if any(n.find(exp.Query) is not None for n in parts):
                continue
            select = select_from(exp.Literal.number(1), [(source.table, source.alias)], parts)
            if semi_join(select) is None:
                # Only an EXISTS with one correlation reads as the semi-join atom an IN or
                # another EXISTS shares; any other would be an atom of its own text.
                continue
            return self._distinct_semi_joins(
                replace(
                    block,
                    sources=[s for s in block.sources if s is not source],
                    where=[w for w in block.where if not any(w is p for p in parts)]
                    + [exp.Exists(this=select)],
                )
            )
        return block

    def _keyed_semi_joins(self, block: Block) -> Block:
        """``WHERE x IN (SELECT t.k FROM t WHERE p)`` (or the EXISTS with ``t.k = x``) is a
        join with ``t`` on ``t.k = x AND p`` when ``p`` and the match fix a whole key of
        ``t``: at most one row of ``t`` matches, so the join keeps each row once, as the
        semi-join does. Only WHERE conjuncts, where false and unknown both reject."""
        taken = {s.alias for s in block.all_sources}
        for node in block.expressions():
            taken |= {c.table for c in node.find_all(exp.Column)}
        for conj in block.where:
            found = _semi_join_parts(conj)
            if found is None:
                continue
            select, match = found
            try:
                inner = read_query(select)
            except NotABlock:
                continue
            if not isinstance(inner, Block) or len(inner.sources) != 1 or inner.left_joins:
                continue
            (source,) = inner.sources
            if source.table is None or inner.aggregate or inner.distinct or inner.limit is not None:
                continue
            if any(n.find(exp.Query) is not None for n in inner.where):
                continue
            conditions = list(inner.where)
            if match is not None:
                if len(inner.outputs) != 1:
                    continue
                conditions.append(exp.EQ(this=inner.outputs[0].copy(), expression=match.copy()))
            if not _at_most_one(self.schema, inner, source, conditions):
                continue
            alias, n = f"s_{source.alias}", 0
            while alias in taken:
                n += 1
                alias = f"s_{source.alias}_{n}"

            def renamed(node: exp.Expr, old: str = source.alias, new: str = alias) -> exp.Expr:
                copy = node.copy()
                for column in copy.find_all(exp.Column):
                    if column.table == old:
                        column.set("table", exp.to_identifier(new))
                return copy

            return self._keyed_semi_joins(
                replace(
                    block,
                    sources=[*block.sources, replace(source, alias=alias)],
                    where=[*(w for w in block.where if w is not conj)]
                    + [renamed(c) for c in conditions],
                )
            )
        return block

    def _per_row_aggregates(self, block: Block) -> Block:
        """``SELECT t.a, AGG(c.x) FROM t LEFT JOIN c ON p GROUP BY <a key of t>, …`` is
        ``SELECT t.a, (SELECT AGG(c.x) FROM c WHERE p) FROM t``: each group is one row
        of ``t`` with its matches, or with the NULL padding, which every aggregate of an
        expression NULL on the padding skips (COUNT(*) would count it: not this rule).
        The decorrelated form is the one a correlated scalar subquery reads as."""
        if not block.aggregate or not block.group or block.having is not None:
            return block
        if len(block.sources) != 1 or len(block.left_joins) != 1 or block.distinct:
            return block
        (parent,), (join,) = block.sources, block.left_joins
        child = join.source
        if parent.table is None or child.table is None or block.redirect:
            return block
        grouped = {
            g.name.lower()
            for g in block.group
            if isinstance(g, exp.Column) and g.table == parent.alias
        }
        if len(grouped) != len(block.group):
            return block
        if not any(all(k in grouped for k in key) for key in self.schema.table(parent.table).keys):
            return block
        if any(_reads_any(w, {child.alias}, block) for w in block.where):
            return block
        child_table = self.schema.table(child.table)
        on = conjuncts(join.on)
        matched = {
            c.name.lower()
            for conj in on
            if isinstance(conj, exp.EQ)
            for c in (conj.this, conj.expression)
            if isinstance(c, exp.Column) and c.table == child.alias
        }
        outputs: list[exp.Expr] = []
        for output in block.outputs:
            if not _reads_any(output, {child.alias}, block):
                if has_aggregate(output):
                    return block
                outputs.append(output)
                continue
            if not isinstance(output, (exp.Count, exp.Sum, exp.Min, exp.Max, exp.Avg)):
                return block
            arg = output.this
            plain = arg.expressions[0] if isinstance(arg, exp.Distinct) else arg
            if (
                plain is None
                or isinstance(plain, exp.Star)
                or _reads_any(plain, {parent.alias}, block)
                or plain.find(exp.Query) is not None
                or not null_when_columns_are(plain)
            ):
                return block
            aggregate = output.copy()
            if (
                isinstance(output, exp.Count)
                and isinstance(plain, exp.Column)
                and not isinstance(arg, exp.Distinct)
                and (
                    plain.name.lower() in matched
                    or (
                        plain.name.lower() in child_table.column_names
                        and not child_table.column(plain.name).nullable
                    )
                )
            ):
                aggregate = exp.Count(this=exp.Star())  # never NULL on a match
                aggregate.type = output.type or exp.DataType.build("BIGINT")
            select = select_from(aggregate, [(child.table, child.alias)], on)
            outputs.append(exp.Subquery(this=select))
        if any(_reads_any(o, {child.alias}, block) or has_aggregate(o) for o in block.order):
            return block
        return replace(block, left_joins=[], outputs=outputs, group=None, aggregate=False)

    def _drop_unread_left_joins(self, block: Block) -> Block:
        """A LEFT JOIN read only by its own ON keeps every row of the left side: once,
        when at most one row of the joined source can match (its ON equates a key of it
        to values of the left side), or as often as DISTINCT cares, under DISTINCT."""
        for join in block.left_joins:
            source = join.source
            on = conjuncts(join.on)
            if block.column_uses(source.alias) != _uses_in(source.alias, on, block):
                continue
            if not (block.distinct or _at_most_one(self.schema, block, source, on)):
                continue
            if any(
                block.resolve_alias(c.table) == source.alias
                for j in block.left_joins
                if j is not join
                for c in j.on.find_all(exp.Column)
            ):
                continue
            if any(isinstance(n, (exp.Query, exp.Subquery)) for c in on for n in c.walk()):
                continue  # a subquery in ON may raise an error: keep it where it was
            rest = [j for j in block.left_joins if j is not join]
            return self._drop_unread_left_joins(replace(block, left_joins=rest))
        return block

    def _reject_nulls(self, block: Block) -> Block:
        """LEFT JOINs whose padded rows the WHERE never keeps become inner joins."""
        changed = True
        while changed and block.left_joins:
            changed = False
            for join in block.left_joins:
                scope = Scope(self.schema, self.solver, {"c": block})
                try:
                    where = scope.predicate("c", block.where)
                except Unsupported:
                    return block
                pad = scope.pad("c", join.source.alias)
                if not self.satisfiable(scope, bool_and(pad, where.true)):
                    block = replace(
                        block,
                        sources=[*block.sources, join.source],
                        left_joins=[j for j in block.left_joins if j is not join],
                        where=block.where + conjuncts(join.on),
                    )
                    changed = True
                    break
        return block

    def _drop_key_self_joins(self, block: Block) -> Block:
        """A second occurrence of a table, equal to the first on a key, is the first."""
        read = _columns_read(block.where, block)
        shared: tuple[Scope, SymBool] | None = None
        for a, b in itertools.permutations(block.sources, 2):
            if a.table is None or a.table != b.table or b.alias in block.redirect_targets():
                continue
            table = self.schema.table(a.table)
            # Only a key the WHERE reads on both sides can be implied equal (unless a CHECK
            # pins its value): the others are skipped untried, and a chain of thirty
            # self-joins costs no 870 translations of its WHERE.
            keys = [
                key
                for key in table.keys
                if table.checks
                or all((s, c.lower()) in read for s in (a.alias, b.alias) for c in key)
            ]
            if not keys:
                continue
            try:
                if table.checks:
                    # key_equal may bring in key columns the WHERE does not read, with
                    # their CHECKs: a scope of this pair's own.
                    scope = Scope(self.schema, self.solver, {"c": block})
                    where = scope.predicate("c", block.where)
                else:
                    # The WHERE reads both keys, so key_equal adds no variable: every
                    # pair would build the very same scope, and it is built once. (Were
                    # a key read only inside a subquery, its variables and their axioms
                    # would stay for the next pairs: facts of every database, no harm.)
                    if shared is None:
                        fresh = Scope(self.schema, self.solver, {"c": block})
                        shared = fresh, fresh.predicate("c", block.where)
                    scope, where = shared
                for key in keys:
                    equal = [scope.key_equal("c", a.alias, b.alias, column) for column in key]
                    if self.valid(scope, z3.Implies(where.true, bool_and(*equal))):
                        return self._drop_key_self_joins(block.without(b, a.alias))
            except Unsupported:
                return block
        return block

    def _drop_foreign_key_joins(self, block: Block) -> Block:
        """A parent joined only on a NOT NULL foreign key adds exactly one row: drop it."""
        for parent in block.sources:
            if parent.table is None:
                continue
            uses = block.column_uses(parent.alias)
            for child in block.sources:
                if child is parent or child.table is None:
                    continue
                for fk in self.schema.table(child.table).foreign_keys:
                    if fk.ref_table.lower() != parent.table:
                        continue
                    parent_keys = {frozenset(k) for k in self.schema.table(parent.table).keys}
                    if frozenset(fk.ref_columns) not in parent_keys:
                        continue  # only a key guarantees at most one parent row
                    pairs = dict(zip(fk.ref_columns, fk.columns, strict=True))
                    found = fk_conjuncts(
                        block.where, child.alias, parent.alias, pairs, block.resolve_alias
                    )
                    # Each conjunct reads the parent once: no other use may remain.
                    if found is None or uses != len(found):
                        continue
                    child_table = self.schema.table(child.table)
                    # A NULL in the reference matches no parent (and the FK does not
                    # apply); a reference without NULL matches exactly one.
                    present = [
                        exp.Not(
                            this=exp.Is(
                                this=exp.column(c, table=child.alias), expression=exp.Null()
                            )
                        )
                        for c in fk.columns
                        if child_table.column(c).nullable
                    ]
                    rest = [w for w in block.where if not any(w is f for f in found)] + present
                    smaller = replace(
                        block,
                        sources=[s for s in block.sources if s is not parent],
                        where=rest,
                    )
                    return self._drop_foreign_key_joins(smaller)
        return block

    # -- matching --------------------------------------------------------

    def _mappings(self, left: Block, right: Block) -> Iterator[dict[str, str]]:
        """Bijections from the reference's source aliases to the candidate's."""
        groups: dict[tuple[bool, str], tuple[list[Source], list[Source]]] = {}
        for outer, sources in ((False, left.sources), (True, [j.source for j in left.left_joins])):
            for s in sources:
                groups.setdefault((outer, s.signature), ([], []))[0].append(s)
        for outer, sources in (
            (False, right.sources),
            (True, [j.source for j in right.left_joins]),
        ):
            for s in sources:
                groups.setdefault((outer, s.signature), ([], []))[1].append(s)
        if any(len(a) != len(b) for a, b in groups.values()):
            return
        if any(s.values for s in left.all_sources + right.all_sources):
            return
        per_group = []
        for lefts, rights in groups.values():
            options = []
            for perm in itertools.permutations(rights):
                if all(self._sources_match(a, b) for a, b in zip(lefts, perm, strict=True)):
                    options.append({b.alias: a.alias for a, b in zip(lefts, perm, strict=True)})
                if len(options) >= MAX_MAPPINGS:
                    break
            if not options:
                return
            per_group.append(options)
        for count, combo in enumerate(itertools.product(*per_group)):
            if count >= MAX_MAPPINGS:
                return
            merged: dict[str, str] = {}
            for part in combo:
                merged.update(part)
            yield merged

    def _sources_match(self, a: Source, b: Source) -> bool:
        if a.table is not None or b.table is not None:
            return a.table == b.table
        if a.query is None or b.query is None:
            return False
        key = (id(a.query), id(b.query))
        cached = self._derived_cache.get(key)
        if cached is None:
            cached = self._query(a.query, b.query, top=False)
            self._derived_cache[key] = cached
        return cached

    @property
    def _derived_cache(self) -> dict[tuple[int, int], bool]:
        if not hasattr(self, "_cache"):
            self._cache: dict[tuple[int, int], bool] = {}
        return self._cache

    def _under_mapping(
        self, left: Block, right: Block, mapping: dict[str, str], *, top: bool
    ) -> bool:
        self.solver.tick()
        scope = Scope(self.schema, self.solver, {"c": left, "r": right}, mapping=mapping)
        try:
            return self._check_mapping(scope, left, right, mapping, top=top)
        except Unsupported as exc:
            self.last_reason = str(exc)
            return False

    def _check_mapping(
        self, scope: Scope, left: Block, right: Block, mapping: dict[str, str], *, top: bool
    ) -> bool:
        # LEFT JOINs: the same sources in the same order, ON true on the same rows.
        if len(left.left_joins) != len(right.left_joins):
            return False
        where_l = scope.predicate("c", left.where)
        where_r = scope.predicate("r", right.where)
        # The WHERE conjuncts that read no LEFT-joined source hold or fail whatever a
        # LEFT JOIN matches: the ONs need only agree on the rows they keep.
        padded = {s.alias for s in left.all_sources if left.padded(s.alias)}
        inner = scope.predicate(
            "c", [w for w in left.where if not _reads_any(w, padded, left)]
        ).true
        for lj, rj in zip(left.left_joins, right.left_joins, strict=True):
            if mapping.get(rj.source.alias) != lj.source.alias or lj.full != rj.full:
                return self._miss("the outer joins read different tables")
            on_l = scope.predicate("c", conjuncts(lj.on))
            on_r = scope.predicate("r", conjuncts(rj.on))
            if not self.valid(scope, z3.Implies(inner, on_l.true == on_r.true)):
                return self._miss("an outer join's ON is not proved to match the same rows")
        if not self.valid(scope, where_l.true == where_r.true):
            return self._miss("the WHERE conditions are not proved to keep the same rows")
        kept = where_l.true
        scope.kept = kept
        if (
            left.group is not None
            and right.group is not None
            and not self._same_keys(scope, left.group, right.group, kept)
            and not self._same_partition(left, right, mapping)
        ):
            return self._miss("the GROUP BY keys are not proved to group alike")
        if left.having is not None or right.having is not None:
            having_l = scope.predicate("c", [left.having] if left.having is not None else [])
            having_r = scope.predicate("r", [right.having] if right.having is not None else [])
            if not self.valid(scope, z3.Implies(kept, having_l.true == having_r.true)):
                return self._miss("the HAVING conditions are not proved to keep the same groups")
        # Without GROUP BY an aggregate block returns one row even on empty input,
        # so its outputs may not assume a kept row.
        assume = kept if not (left.aggregate and left.group is None) else z3.BoolVal(True)
        outputs_l = _output_values(scope, "c", left.outputs)
        outputs_r = _output_values(scope, "r", right.outputs)
        if not self._outputs_match(scope, outputs_l, outputs_r, assume, top=top):
            return self._miss("an output column is not proved equal")
        if top and (right.order or left.limit is not None):
            orders = resolved_order(left), resolved_order(right)
            if orders[0] is None or orders[1] is None:
                return False
            if not self._same_order(scope, orders[0], orders[1], assume):
                return self._miss("the ORDER BY keys are not proved to sort alike")
        return True

    def _miss(self, reason: str) -> bool:
        """Record the fact a proof attempt could not establish (the first one), and fail."""
        if self.last_reason is None:
            self.last_reason, self.last_status = reason, "not_found"
        return False

    def _identifying_prefix(self, block: Block) -> list[exp.Ordered]:
        """The block's ORDER BY cut after the first keys that identify its rows."""
        order = resolved_order(block)
        if order is None:
            return block.order
        for n in range(1, len(order)):
            if identifies(self.schema, self.solver, block, [o.this for o in order[:n]]):
                return order[:n]
        return order

    def _same_keys(
        self, scope: Scope, left: Sequence[exp.Expr], right: Sequence[exp.Expr], kept: z3.BoolRef
    ) -> bool:
        # A key without columns (GROUP BY 42 + 24, d) is the same in every group, so
        # it does not change the partition (both sides do group, so empty input
        # gives no row either way).
        lv = [scope.value("c", g) for g in left if _reads_columns(g)]
        rv = [scope.value("r", g) for g in right if _reads_columns(g)]

        def equal(x: SymValue, y: SymValue) -> bool:
            if x.kind != y.kind and not {x.kind, y.kind} <= {"int", "decimal"}:
                return False  # keys of different types never partition alike by value
            return self.valid(scope, z3.Implies(kept, same(x, y)))

        def covered(xs: list[SymValue], ys: list[SymValue]) -> bool:
            return all(any(equal(x, y) for y in ys) for x in xs)

        return covered(lv, rv) and covered(rv, lv)

    def _same_partition(self, left: Block, right: Block, mapping: dict[str, str]) -> bool:
        """The two GROUP BYs partition the (same) kept rows alike: each key list
        determines the other (see :mod:`.dependencies`)."""
        assert left.group is not None and right.group is not None
        keys = [_onto(g, right, left, mapping) for g in right.group]
        if any(k is None for k in keys):
            return False
        mine = [g for g in left.group if _reads_columns(g)]
        theirs = [k for k in keys if k is not None and _reads_columns(k)]
        rows = grouped_rows(left)
        schema, solver = self.schema, self.solver
        return determines(schema, solver, rows, mine, theirs) and determines(
            schema, solver, rows, theirs, mine
        )

    def _outputs_match(
        self,
        scope: Scope,
        left: list[SymValue | None],
        right: list[SymValue | None],
        assume: z3.BoolRef,
        *,
        top: bool,
    ) -> bool:
        def eq(a: SymValue | None, b: SymValue | None) -> bool:
            if a is None or b is None:  # a NULL of no type: the other must be NULL
                other = b if a is None else a
                return other is None or self.valid(scope, z3.Implies(assume, other.null))
            if a.kind == b.kind or {a.kind, b.kind} <= {"int", "decimal"}:
                try:
                    return self.valid(scope, z3.Implies(assume, same(a, b)))
                except (Unsupported, z3.Z3Exception):
                    pass
            # Values of different kinds are the same only when both are always NULL.
            return self.valid(scope, z3.Implies(assume, bool_and(a.null, b.null)))

        if all(eq(a, b) for a, b in zip(left, right, strict=True)):
            return True
        if not (top and self.ignore_column_order):
            return False
        # A bijection between output columns (the comparison ignores their order).
        candidates = [[j for j, b in enumerate(right) if eq(a, b)] for a in left]
        return _has_matching(candidates, len(right))

    def _same_order(
        self,
        scope: Scope,
        left: list[exp.Ordered],
        right: list[exp.Ordered],
        assume: z3.BoolRef,
    ) -> bool:
        if len(left) < len(right):
            return False
        for a, b in zip(left, right, strict=False):
            if bool(a.args.get("desc")) != bool(b.args.get("desc")):
                return False
            if bool(a.args.get("nulls_first")) != bool(b.args.get("nulls_first")):
                return False
            va, vb = scope.value("c", a.this), scope.value("r", b.this)
            if not self.valid(scope, z3.Implies(assume, same(va, vb))):
                return False
        return True

    # -- solving ---------------------------------------------------------

    def satisfiable(self, scope: Constrained, formula: z3.BoolRef) -> bool:
        """Whether ``formula`` can hold under the scope's constraints (:attr:`solver`)."""
        return self.solver.satisfiable(scope, formula)

    def valid(self, scope: Constrained, formula: z3.BoolRef) -> bool:
        """Whether ``formula`` holds under the scope's constraints (:attr:`solver`)."""
        return self.solver.valid(scope, formula)


def _reads_any(node: exp.Expr, aliases: set[str], block: Block) -> bool:
    """Whether ``node`` reads a column of one of ``aliases`` (subqueries included)."""
    return any(
        column.table and block.resolve_alias(column.table) in aliases
        for column in node.find_all(exp.Column)
    )


def _uses_in(alias: str, parts: Sequence[exp.Expr], block: Block) -> int:
    return sum(
        1
        for part in parts
        for column in part.find_all(exp.Column)
        if column.table and block.resolve_alias(column.table) == alias
    )


def _at_most_one(schema: Schema, block: Block, source: Source, on: Sequence[exp.Expr]) -> bool:
    """``on`` equates every column of an identifying column list of ``source`` to an
    expression of the other sources: at most one of its rows matches a given row."""
    equated: set[str] = set()
    for conj in on:
        found = _equality_with(conj, source, block) if source.table is None else None
        if found is not None:
            equated.add(source.columns[found[0]].lower())
            continue
        if source.table is not None and isinstance(conj, exp.EQ):
            for mine, other in ((conj.this, conj.expression), (conj.expression, conj.this)):
                if (
                    isinstance(mine, exp.Column)
                    and block.resolve_alias(mine.table) == source.alias
                    and not any(
                        block.resolve_alias(c.table) == source.alias
                        for c in other.find_all(exp.Column)
                    )
                ):
                    equated.add(mine.name.lower())
    return any(
        all(c.lower() in equated for c in columns)
        for columns in identifying_columns(schema, source)
    )


def _constant_source(block: Block, source: Source, taken: set[str]) -> Block | None:
    """``block`` with an inner-joined table of one constant row or none (a DISTINCT
    derived table of literals) replaced by the EXISTS that says it has its row, and its
    columns by their literals."""
    derived = source.query
    if not isinstance(derived, Block):
        return None
    if {s.alias for s in derived.all_sources} & taken:
        return None
    exists = constant_rows_exists(derived)
    if exists is None:
        return None
    literals = derived.outputs

    def substitute(node: exp.Expr) -> exp.Expr:
        copy = node.copy()
        for column in list(copy.find_all(exp.Column)):
            if column.table and block.resolve_alias(column.table) == source.alias:
                position = source.position(column.name)
                if position is None:
                    raise Unsupported(f"derived column {column.name} is missing or ambiguous")
                if column is copy:
                    return literals[position].copy()
                column.replace(literals[position].copy())
        return copy

    try:
        rewritten = replace(
            block,
            sources=[s for s in block.sources if s is not source],
            left_joins=[replace(j, on=substitute(j.on)) for j in block.left_joins],
            where=[*(substitute(w) for w in block.where), exists],
            outputs=[substitute(o) for o in block.outputs],
            group=[substitute(g) for g in block.group] if block.group is not None else None,
            having=substitute(block.having) if block.having is not None else None,
            order=[o for o in (substitute(o) for o in block.order) if isinstance(o, exp.Ordered)],
        )
    except Unsupported:
        return None
    if not rewritten.sources:
        return None  # a block needs a source to read its rows from
    return rewritten


def _semi_join_parts(conj: exp.Expr) -> tuple[exp.Select, exp.Expr | None] | None:
    """(the subquery, the value it is matched with) of ``x IN (SELECT …)``, or (the
    subquery, None) of ``EXISTS (SELECT …)``; None for anything else."""
    if isinstance(conj, exp.In) and isinstance(conj.args.get("query"), exp.Subquery):
        select = conj.args["query"].this
        if isinstance(select, exp.Select) and not isinstance(conj.this, exp.Tuple):
            return select, conj.this
    if isinstance(conj, exp.Exists) and isinstance(conj.this, exp.Select):
        return conj.this, None
    return None


def _canonical_columns(query: Query) -> Query:
    """A top-level set operation (no ORDER BY) with its columns sorted by what its operands
    select there (a typed NULL read as NULL), every operand permuted alike."""
    if not isinstance(query, SetOp) or query.order:
        return query
    operands = operand_blocks(query)
    if any(b.order or b.limit is not None for b in operands):
        return query
    width = len(operands[0].outputs)
    if any(len(b.outputs) != width for b in operands):
        return query
    keys = [tuple(sorted(_column_text(b.outputs[i]) for b in operands)) for i in range(width)]
    order = sorted(range(width), key=lambda i: keys[i])
    if order == list(range(width)):
        return query
    return _permuted(query, order)


def _permuted(query: Query, order: list[int]) -> Query:
    if isinstance(query, Block):
        return replace(query, outputs=[query.outputs[i] for i in order])
    return replace(query, branches=[_permuted(b, order) for b in query.branches])


def _column_text(node: exp.Expr) -> str:
    if isinstance(node, exp.Null):
        return "NULL"
    if (
        isinstance(node, exp.Case)
        and node.args.get("default") is None
        and len(node.args.get("ifs") or []) == 1
        and isinstance(node.args["ifs"][0].this, exp.Boolean)
        and node.args["ifs"][0].this.this is False
    ):
        return "NULL"  # the typed NULL of a grouping set's missing key
    return node.sql()


def _no_inner_limit(query: Query, *, top: bool) -> None:
    """Raise :class:`NotABlock` for a LIMIT (other than 0) the normal form left inside a
    query: which rows it keeps depends on an order the matching does not compare."""
    if isinstance(query, SetOp):
        for branch in query.branches:
            _no_inner_limit(branch, top=False)
        return
    if not top and query.limit is not None and query.limit != 0:
        raise NotABlock("LIMIT inside a query")
    if not top and query.offset:
        raise NotABlock("OFFSET inside a query")
    for source in query.all_sources:
        if source.query is not None:
            _no_inner_limit(source.query, top=False)


def _same_positional_order(left: Query, right: Query) -> bool:
    """Both sort their rows by the same output positions (``ORDER BY 1 DESC``), so that
    operands that pair off column for column are sorted alike."""
    if not isinstance(left, SetOp) or not isinstance(right, SetOp):
        return False
    if len(left.order) != len(right.order) or not left.order:
        return False
    for a, b in zip(left.order, right.order, strict=True):
        if not (isinstance(a.this, exp.Literal) and a.this.is_int) or a.sql() != b.sql():
            return False
    return True


def _output_values(scope: Scope, side: Side, outputs: Sequence[exp.Expr]) -> list[SymValue | None]:
    """The outputs' values; None for a bare NULL, whose type only the other query says."""
    return [None if isinstance(o, exp.Null) else scope.value(side, o) for o in outputs]


def _as_scalar_subqueries(block: Block) -> list[exp.Expr]:
    """The outputs of an aggregate block without GROUP BY over base tables, each aggregate
    written as the scalar subquery ``(SELECT AGG(x) FROM … WHERE …)`` it equals (so that a
    scalar subquery of the other query names the same value); other blocks as they are."""
    if not block.aggregate or block.group is not None or block.left_joins:
        return block.outputs
    if not block.sources or any(s.table is None for s in block.sources) or block.redirect:
        return block.outputs
    tables = [(s.table or "", s.alias) for s in block.sources]
    outputs = []
    for output in block.outputs:
        copy = output.copy()
        for agg in [a for a in copy.find_all(exp.AggFunc) if a.find_ancestor(exp.AggFunc) is None]:
            if agg.type is None:
                return block.outputs  # a scalar subquery needs its type
            scalar = exp.Subquery(this=select_from(agg, tables, block.where))
            if agg is copy:
                copy = scalar
            else:
                agg.replace(scalar)
        outputs.append(copy)
    return outputs


def _one_row(block: Block) -> bool:
    """The block returns exactly one row on every database."""
    if block.limit == 0 or block.having is not None or (block.order and block.limit is not None):
        return False
    if block.aggregate:
        return block.group is None
    return not block.sources and not block.left_joins and not block.where and not block.distinct


def _distinct_derived(source: Source) -> bool:
    return isinstance(source.query, Block) and source.query.distinct


def _onto(node: exp.Expr, right: Block, left: Block, mapping: dict[str, str]) -> exp.Expr | None:
    """A reference expression over the candidate's sources, through the source bijection
    (derived columns by position), or None when it reads anything else."""
    if any(isinstance(n, (exp.Query, exp.Subquery)) for n in node.walk()):
        return None
    by_alias = {s.alias: s for s in left.all_sources}
    theirs = {s.alias: s for s in right.all_sources}
    copy = node.copy()
    for column in copy.find_all(exp.Column):
        alias = right.resolve_alias(column.table)
        target = mapping.get(alias)
        if target is None or alias not in theirs or target not in by_alias:
            return None
        source, mine = theirs[alias], by_alias[target]
        if source.table is None:
            position = source.position(column.name)
            if position is None or position >= len(mine.columns):
                return None
            column.set("this", exp.to_identifier(mine.columns[position]))
        column.set("table", exp.to_identifier(target))
    return copy


def _equality_with(conj: exp.Expr, source: Source, block: Block) -> tuple[int, exp.Expr] | None:
    """``source.c = x`` (either way round, x not reading source): (position of c, x)."""
    if not isinstance(conj, exp.EQ):
        return None
    for mine, other in ((conj.this, conj.expression), (conj.expression, conj.this)):
        if (
            isinstance(mine, exp.Column)
            and block.resolve_alias(mine.table) == source.alias
            and not any(
                block.resolve_alias(c.table) == source.alias for c in other.find_all(exp.Column)
            )
        ):
            position = source.position(mine.name)
            if position is not None:
                return position, other
    return None


def _left_semi_join(block: Block, join: LeftJoin, a_set: Callable[[Block], bool]) -> Block | None:
    """``block`` with ``LEFT JOIN d ON d.c = x`` replaced by an EXISTS, when ``d`` is a
    DISTINCT derived table (so at most one row matches and the LEFT JOIN keeps every
    row once) and the block reads ``d`` only in ``d.k IS [NOT] NULL`` tests of a column
    never NULL on a match (``c`` itself, which ``=`` matched, or a literal): each test
    asks whether a match exists. Anywhere in the block, not only in a WHERE conjunct."""
    source = join.source
    derived = source.query
    if not isinstance(derived, Block):
        return None
    if {s.alias for s in derived.all_sources} & {s.alias for s in block.all_sources}:
        return None  # the EXISTS would capture an outer alias
    on = conjuncts(join.on)
    if len(on) == 1 and isinstance(on[0], exp.Boolean) and on[0].this is True:
        # ON TRUE with a table of one constant row or none: a match exists when it has it.
        exists = constant_rows_exists(derived)
        position = -1
    else:
        found = _equality_with(on[0], source, block) if len(on) == 1 else None
        if found is None:
            return None
        position, outer = found
        if not derived.distinct and not derived.aggregate and a_set(derived):
            derived = replace(derived, distinct=True)  # it has no duplicate to remove
        exists = semi_join_exists(derived, position, outer)
    if exists is None:
        return None
    tests: list[exp.Is] = []
    for node in block.expressions():
        if node is join.on:
            continue
        for column in node.find_all(exp.Column):
            if not column.table or block.resolve_alias(column.table) != source.alias:
                continue
            test = column.parent
            at = source.position(column.name)
            if not (
                isinstance(test, exp.Is)
                and test.this is column
                and isinstance(test.expression, exp.Null)
                and at is not None
                and (at == position or isinstance(derived.outputs[at], (exp.Literal, exp.Boolean)))
            ):
                return None
            tests.append(test)
    if not tests:
        return None  # nothing reads the match: another rewrite's business

    def replaced(node: exp.Expr) -> exp.Expr:
        copy = node.copy()
        for test in list(copy.find_all(exp.Is)):
            column = test.this
            if (
                isinstance(column, exp.Column)
                and column.table
                and block.resolve_alias(column.table) == source.alias
            ):
                missing = exp.Not(this=exists.copy())
                if test is copy:
                    return missing
                test.replace(missing)
        return copy

    rest = [j for j in block.left_joins if j is not join]
    return replace(
        block,
        left_joins=[replace(j, on=replaced(j.on)) for j in rest],
        where=[replaced(w) for w in block.where],
        outputs=[replaced(o) for o in block.outputs],
        group=[replaced(g) for g in block.group] if block.group is not None else None,
        having=replaced(block.having) if block.having is not None else None,
        order=[o for o in (replaced(o) for o in block.order) if isinstance(o, exp.Ordered)],
    )


def _columns_read(parts: Sequence[exp.Expr], block: Block) -> set[tuple[str, str]]:
    """(source alias, lower-cased column name) of every column ``parts`` read, subqueries
    included."""
    return {
        (block.resolve_alias(column.table), column.name.lower())
        for part in parts
        for column in part.find_all(exp.Column)
        if column.table
    }


def _reads_columns(node: exp.Expr) -> bool:
    return (
        node.find(exp.Column) is not None
        or any(isinstance(n, (exp.Query, exp.Subquery, exp.AggFunc)) for n in node.walk())
        or _volatile(node)
    )


def _volatile(node: exp.Expr) -> bool:
    # An unknown function may be volatile too: no proof treats it as a constant.
    return is_volatile(node) or any(isinstance(n, exp.Anonymous) for n in node.walk())


def _has_matching(candidates: list[list[int]], size: int) -> bool:
    """Whether each left index can take a distinct right index from its candidates."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in candidates[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(candidates))) and len(owner) == size
