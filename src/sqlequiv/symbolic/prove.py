"""Proofs of equivalence for queries of the same shape.

Both queries are read into blocks (:mod:`sqlequiv.symbolic.blocks`). Two
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
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import z3
from sqlglot import exp

from sqlequiv.policy import is_volatile
from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.blocks import (
    Block,
    NotABlock,
    Query,
    SetOp,
    Source,
    conjuncts,
    fk_conjuncts,
)
from sqlequiv.symbolic.scope import Scope, Side
from sqlequiv.symbolic.semijoin import semi_join_exists
from sqlequiv.symbolic.terms import SymBool, SymValue, Unsupported, same
from sqlequiv.symbolic.unnest import unnest

__all__ = ["MAX_CHECKS", "Prover"]

#: Most source bijections tried per pair of blocks.
MAX_MAPPINGS = 120

#: Most solver calls of one proof: the deterministic bound on its work (z3's ``rlimit``
#: bounds each call). Trying all :data:`MAX_MAPPINGS` bijections takes one call each at
#: least; across the corpus and the peer benchmarks a proof makes at most 128.
MAX_CHECKS = 200


class _Budget(Exception):
    """The proof ran out of its budget (the message says which)."""


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
        self._deadline = 0.0
        # Solver calls left to the running proof (None outside equivalent()).
        self._checks_left: int | None = None
        self.last_reason: str | None = None
        #: The budget that stopped the last proof ("check budget: ...", "time budget"), if any.
        self.stopped_by: str | None = None

    def equivalent(self, candidate: exp.Expr, reference: exp.Expr) -> bool:
        """True when the two canonical queries are proved to return the same rows."""
        from sqlequiv.symbolic.blocks import read_query

        self._deadline = time.monotonic() + self.time_budget
        self._checks_left = self.max_checks
        self.last_reason = self.stopped_by = None
        try:
            left = unnest(read_query(candidate, top=True))
            right = unnest(read_query(reference, top=True))
            return self._query(left, right, top=True)
        except (NotABlock, Unsupported) as exc:
            self.last_reason = str(exc)
            return False
        except _Budget as exc:
            self.last_reason = self.stopped_by = str(exc)
            return False
        finally:
            self._deadline = 0.0
            self._checks_left = None

    # -- queries ---------------------------------------------------------

    def _query(self, left: Query, right: Query, *, top: bool) -> bool:
        self._tick()
        if isinstance(left, Block) and isinstance(right, Block):
            return self._blocks(left, right, top=top)
        left_branches = self._live_branches(left)
        right_branches = self._live_branches(right)
        if left_branches is not None and right_branches is not None:
            # UNION ALL: the branches must pair off (proved equivalence is an
            # equivalence relation, so a greedy pairing is complete).
            if top and isinstance(right, SetOp) and right.order:
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
        if (left.aggregate, left.distinct) != (right.aggregate, right.distinct):
            return False
        if (left.group is None) != (right.group is None):
            return False
        if top and right.order and not left.order:
            return False
        if (left.limit, left.offset) != (right.limit, right.offset):
            return False
        if left.limit is not None and len(left.order) != len(right.order):
            # LIMIT keeps the first rows of an order both queries must share. Rows tied
            # on every sort key may still come out differently; the comparison reports
            # such ties as nondeterministic rather than as a difference.
            return False
        for mapping in self._mappings(left, right):
            if self._under_mapping(left, right, mapping, top=top):
                return True
        return False

    def _empty(self, block: Block) -> bool:
        """The block returns no row on any database (its WHERE is never true)."""
        if block.limit == 0:
            return True
        if block.aggregate and block.group is None:
            return False  # an aggregate without GROUP BY always returns one row
        scope = Scope(self.schema, self, {"c": block})
        try:
            where = scope.predicate("c", block.where)
        except Unsupported:
            return False
        return not self.satisfiable(scope, where.true)

    def _simplify(self, block: Block, side: Side) -> Block:
        block = self._semi_joins(block)
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
            source = join.source
            if not isinstance(source.query, Block) or block.column_uses(source.alias) != 2:
                continue
            if {s.alias for s in source.query.sources} & taken:
                continue
            on = conjuncts(join.on)
            found = _equality_with(on[0], source, block) if len(on) == 1 else None
            test = _is_null_test(block.where, source, block)
            if found is None or test is None:
                continue
            conj, position = test
            output = source.query.outputs[position]
            if position != found[0] and not isinstance(output, (exp.Literal, exp.Boolean)):
                continue  # padding is told apart only by a column never NULL on a match
            exists = semi_join_exists(source.query, found[0], found[1])
            if exists:
                return self._semi_joins(
                    replace(
                        block,
                        left_joins=[j for j in block.left_joins if j is not join],
                        where=[*(w for w in block.where if w is not conj), exp.Not(this=exists)],
                    )
                )
        return block

    def _reject_nulls(self, block: Block) -> Block:
        """LEFT JOINs whose padded rows the WHERE never keeps become inner joins."""
        changed = True
        while changed and block.left_joins:
            changed = False
            for join in block.left_joins:
                scope = Scope(self.schema, self, {"c": block})
                try:
                    where = scope.predicate("c", block.where)
                except Unsupported:
                    return block
                pad = scope.pad("c", join.source.alias)
                if not self.satisfiable(scope, z3.And(pad, where.true)):
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
                    scope = Scope(self.schema, self, {"c": block})
                    where = scope.predicate("c", block.where)
                else:
                    # The WHERE reads both keys, so key_equal adds no variable: every
                    # pair would build the very same scope, and it is built once. (Were
                    # a key read only inside a subquery, its variables and their axioms
                    # would stay for the next pairs: facts of every database, no harm.)
                    if shared is None:
                        fresh = Scope(self.schema, self, {"c": block})
                        shared = fresh, fresh.predicate("c", block.where)
                    scope, where = shared
                for key in keys:
                    equal = [scope.key_equal("c", a.alias, b.alias, column) for column in key]
                    if self.valid(scope, z3.Implies(where.true, z3.And(*equal))):
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
                    if any(child_table.column(c).nullable for c in fk.columns):
                        continue
                    rest = [w for w in block.where if not any(w is f for f in found)]
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
        self._tick()
        scope = Scope(self.schema, self, {"c": left, "r": right}, mapping=mapping)
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
        for lj, rj in zip(left.left_joins, right.left_joins, strict=True):
            if mapping.get(rj.source.alias) != lj.source.alias:
                return False
            on_l = scope.predicate("c", conjuncts(lj.on))
            on_r = scope.predicate("r", conjuncts(rj.on))
            if not self.valid(scope, on_l.true == on_r.true):
                return False
        where_l = scope.predicate("c", left.where)
        where_r = scope.predicate("r", right.where)
        if not self.valid(scope, where_l.true == where_r.true):
            return False
        kept = where_l.true
        scope.kept = kept
        if (
            left.group is not None
            and right.group is not None
            and not self._same_keys(scope, left.group, right.group, kept)
        ):
            return False
        if left.having is not None or right.having is not None:
            having_l = scope.predicate("c", [left.having] if left.having is not None else [])
            having_r = scope.predicate("r", [right.having] if right.having is not None else [])
            if not self.valid(scope, z3.Implies(kept, having_l.true == having_r.true)):
                return False
        # Without GROUP BY an aggregate block returns one row even on empty input,
        # so its outputs may not assume a kept row.
        assume = kept if not (left.aggregate and left.group is None) else z3.BoolVal(True)
        outputs_l = [scope.value("c", o) for o in left.outputs]
        outputs_r = [scope.value("r", o) for o in right.outputs]
        if not self._outputs_match(scope, outputs_l, outputs_r, assume, top=top):
            return False
        if top and (right.order or left.limit is not None):
            return self._same_order(scope, left.order, right.order, assume)
        return True

    def _same_keys(
        self, scope: Scope, left: Sequence[exp.Expr], right: Sequence[exp.Expr], kept: z3.BoolRef
    ) -> bool:
        # A key without columns (GROUP BY 42 + 24, d) is the same in every group, so
        # it does not change the partition (both sides do group, so empty input
        # gives no row either way).
        lv = [scope.value("c", g) for g in left if _reads_columns(g)]
        rv = [scope.value("r", g) for g in right if _reads_columns(g)]

        def covered(xs: list[SymValue], ys: list[SymValue]) -> bool:
            return all(any(self.valid(scope, z3.Implies(kept, same(x, y))) for y in ys) for x in xs)

        return covered(lv, rv) and covered(rv, lv)

    def _outputs_match(
        self,
        scope: Scope,
        left: list[SymValue],
        right: list[SymValue],
        assume: z3.BoolRef,
        *,
        top: bool,
    ) -> bool:
        def eq(a: SymValue, b: SymValue) -> bool:
            if a.kind == b.kind or {a.kind, b.kind} <= {"int", "decimal"}:
                try:
                    return self.valid(scope, z3.Implies(assume, same(a, b)))
                except (Unsupported, z3.Z3Exception):
                    pass
            # Values of different kinds are the same only when both are always NULL.
            return self.valid(scope, z3.Implies(assume, z3.And(a.null, b.null)))

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

    def satisfiable(self, scope: Scope, formula: z3.BoolRef) -> bool:
        """Whether ``formula`` can hold under the scope's constraints (unknown counts as yes)."""
        self._tick()
        if self._checks_left is not None:
            if self._checks_left <= 0:
                raise _Budget(f"check budget: {self.max_checks} solver calls")
            self._checks_left -= 1
        solver = z3.Solver()
        timeout = self.solver_timeout_ms
        if self._deadline:  # a call never runs past the proof's own safety net
            timeout = max(1, min(timeout, int((self._deadline - time.monotonic()) * 1000)))
        solver.set("timeout", timeout)
        solver.set("rlimit", self.solver_rlimit)
        solver.add(*scope.constraints())
        solver.add(formula)
        return bool(solver.check() != z3.unsat)

    def valid(self, scope: Scope, formula: z3.BoolRef) -> bool:
        """Whether ``formula`` holds under the scope's constraints (unknown counts as no)."""
        return not self.satisfiable(scope, z3.Not(formula))

    def _tick(self) -> None:
        if self._deadline and time.monotonic() > self._deadline:
            raise _Budget("time budget")


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


def _is_null_test(
    where: list[exp.Expr], source: Source, block: Block
) -> tuple[exp.Expr, int] | None:
    """The one conjunct ``source.c IS NULL``: (the conjunct, position of c)."""
    for conj in where:
        if (
            isinstance(conj, exp.Is)
            and isinstance(conj.expression, exp.Null)
            and isinstance(conj.this, exp.Column)
            and block.resolve_alias(conj.this.table) == source.alias
        ):
            position = source.position(conj.this.name)
            if position is not None:
                return conj, position
    return None


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
