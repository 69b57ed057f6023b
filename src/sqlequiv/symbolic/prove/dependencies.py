"""Functional dependencies of a block's rows, proved with two copies of the block.

A block's kept rows *functionally determine* ``ys`` from ``xs`` when any two kept
rows that agree on ``xs`` (IS NOT DISTINCT FROM) agree on ``ys``. The proof takes
two independent symbolic copies of the block's source rows (sides ``c`` and
``r`` of one :class:`~sqlequiv.symbolic.prove.scope.Scope`, no source shared), both
satisfying the WHERE; the scope's key axioms relate them (two rows of one table
that agree on a key are one row), and so do CHECKs and NOT NULL.

Two uses make the prover's normal form:

* **Partitions**: ``GROUP BY xs`` and ``GROUP BY ys`` group alike when each
  determines the other (``GROUP BY name`` is ``GROUP BY id`` when ``name`` is
  UNIQUE NOT NULL; ``GROUP BY deptno, sal`` is ``GROUP BY sal`` when the WHERE
  fixes ``deptno``).
* **Sets**: a block returns each row once when its outputs determine the
  identity of every source row (a key of a base table, every column of a
  DISTINCT derived table, the keys of a grouped one), so its DISTINCT can be
  added or dropped without changing the result.

Whatever cannot be translated makes the dependency unproved, never assumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import z3
from sqlglot import exp

from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.prove.blocks import Block, Query, SetOp, Source, has_aggregate
from sqlequiv.symbolic.prove.scope import Scope
from sqlequiv.symbolic.prove.solver import ProofSolver
from sqlequiv.symbolic.terms import SymValue, Unsupported, same
from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or

__all__ = ["determines", "grouped_rows", "identifies", "identifying_columns", "is_set"]


def determines(
    schema: Schema, solver: ProofSolver, block: Block, xs: Sequence[exp.Expr],
    ys: Sequence[exp.Expr],
) -> bool:  # fmt: skip
    """Whether ``xs`` determine ``ys`` over the kept rows of ``block`` (not aggregated)."""
    if any(has_aggregate(e) for e in (*xs, *ys)):
        return False
    scope = _two_copies(schema, solver, block)
    try:
        premise = _both_kept(scope, block) + [_agree(scope, x) for x in xs]
        goal = bool_and(*(_agree(scope, y) for y in ys))
    except (Unsupported, z3.Z3Exception):
        return False
    return solver.valid(scope, z3.Implies(bool_and(*premise), goal))


def is_set(schema: Schema, solver: ProofSolver, block: Block) -> bool:
    """Whether ``block`` returns every row at most once, DISTINCT or not.

    A grouped block is a set when its outputs determine its group keys; any
    other block when its outputs determine every source row.
    """
    if block.aggregate:
        if block.group is None:
            return True  # one row
        plain = [o for o in block.outputs if not has_aggregate(o)]
        keys = [g for g in block.group if g.find(exp.Column) is not None]
        return determines(schema, solver, grouped_rows(block), plain, keys)
    return identifies(schema, solver, block, block.outputs)


def identifies(
    schema: Schema, solver: ProofSolver, block: Block, xs: Sequence[exp.Expr]
) -> bool:
    """Whether ``xs`` determine every source row of the (non-aggregate) block: two kept
    rows that agree on them are one row."""
    scope = _two_copies(schema, solver, block)
    try:
        premise = _both_kept(scope, block) + [_agree(scope, x) for x in xs]
        identities = [_identity(scope, block, s) for s in block.all_sources]
    except (Unsupported, z3.Z3Exception, KeyError):
        return False
    if any(i is None for i in identities):
        return False
    goal = bool_and(*(i for i in identities if i is not None))
    return solver.valid(scope, z3.Implies(bool_and(*premise), goal))


def grouped_rows(block: Block) -> Block:
    """The rows a grouped block groups (its WHERE, no grouping), for dependencies between
    non-aggregate expressions."""
    return replace(block, group=None, having=None, aggregate=False, distinct=False, outputs=[])


def _two_copies(schema: Schema, solver: ProofSolver, block: Block) -> Scope:
    return Scope(schema, solver, {"c": block, "r": block}, mapping={})


def _both_kept(scope: Scope, block: Block) -> list[z3.BoolRef]:
    out = []
    for side in ("c", "r"):
        out.append(scope.predicate(side, block.where).true)
    return out


def _agree(scope: Scope, node: exp.Expr) -> z3.BoolRef:
    a, b = scope.value("c", node), scope.value("r", node)
    return _same(a, b)


def _same(a: SymValue, b: SymValue) -> z3.BoolRef:
    if a.kind != b.kind and not {a.kind, b.kind} <= {"int", "decimal"}:
        raise Unsupported("values of different kinds")
    return same(a, b)


def _identity(scope: Scope, block: Block, source: Source) -> z3.BoolRef | None:
    """A formula saying the two copies' rows of ``source`` are one row (or both the NULL
    padding of a LEFT JOIN), or None when nothing identifies its rows."""
    padded = block.padded(source.alias)
    options: list[z3.BoolRef] = []
    for columns in identifying_columns(scope.schema, source):
        nodes = [exp.column(c, table=source.alias) for c in columns]
        pairs = [(scope.value("c", n), scope.value("r", n)) for n in nodes]
        if source.table is not None:
            # A key identifies a row only where it is not NULL (a UNIQUE column may be).
            options.append(bool_and(*(bool_and(bool_not(a.null), _same(a, b)) for a, b in pairs)))
        else:
            options.append(bool_and(*(_same(a, b) for a, b in pairs)))
    if not options:
        return None
    identity = bool_or(*options)
    if padded:
        pc, pr = scope.pad("c", source.alias), scope.pad("r", source.alias)
        identity = bool_or(bool_and(pc, pr), bool_and(bool_not(pc), bool_not(pr), identity))
    return identity


def identifying_columns(schema: Schema, source: Source) -> list[tuple[str, ...]]:
    """Column lists of ``source`` whose (non-NULL) values identify one of its rows: the
    keys of a base table, every column of a DISTINCT derived table, the group keys of
    a grouped one (among its outputs); none for a derived table that may repeat rows."""
    if source.table is not None:
        return [tuple(key) for key in schema.table(source.table).keys]
    query = source.query
    if query is None:
        return []
    positions = _identifying_positions(query)
    if positions is None:
        return []
    return [tuple(source.columns[p] for p in positions)]


def _identifying_positions(query: Query) -> list[int] | None:
    """Output positions whose values identify a row of the derived query, or None."""
    if isinstance(query, SetOp):
        if query.distinct and query.branches:
            return list(range(_width(query)))
        return None
    if query.limit is not None:
        return None
    if query.distinct:
        return list(range(len(query.outputs)))
    if query.aggregate:
        if query.group is None:
            return []  # a single row: any two are the one row
        texts = [o.sql() for o in query.outputs]
        positions: list[int] = []
        for key in query.group:
            if key.find(exp.Column) is None:
                continue
            if key.sql() not in texts:
                return None
            positions.append(texts.index(key.sql()))
        return sorted(set(positions))
    return None


def _width(query: Query) -> int:
    while isinstance(query, SetOp):
        query = query.branches[0]
    return len(query.outputs)
