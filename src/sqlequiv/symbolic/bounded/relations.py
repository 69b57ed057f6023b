"""Symbolic relations: a fixed list of rows that may or may not exist.

A relation over k symbolic rows stands for every bag of at most k rows at
once: row ``i`` is in the bag exactly when its ``exists`` formula holds. The
operators here are the bag semantics of SQL written as formulas over those
flags, the VeriEQL encoding. Every operator is *exact*: on any assignment of
the variables, the rows whose ``exists`` holds are exactly the rows SQL would
return (duplicates included), which is what lets an UNSAT answer be trusted.

Values are :class:`~sqlequiv.symbolic.terms.SymValue` s. Rows are compared
with ``IS NOT DISTINCT FROM`` (NULL equals NULL), as DISTINCT, GROUP BY and the
set operations do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from sqlequiv.symbolic.terms import SymValue, same
from sqlequiv.symbolic.terms.formulas import conj, count, disj, equal, is_false, neg

__all__ = [
    "CellEq",
    "Relation",
    "Row",
    "bags_differ",
    "bags_differ_pairwise",
    "count_matching",
    "distinct",
    "except_",
    "intersect",
    "occurrence_index",
    "rows_same",
    "same_value",
    "union_all",
]

#: Decides whether two cells are equal, as a formula.
CellEq = Callable[[SymValue, SymValue], z3.BoolRef]

#: Kinds whose IS NOT DISTINCT FROM is plain equality of the value terms
#: (given equal kinds and scales); floats need IEEE equality (NaN, -0.0).
_PLAIN = frozenset({"int", "decimal", "text", "bool", "date", "timestamp"})


@dataclass(frozen=True)
class Row:
    """One symbolic row: present when ``exists`` holds, with one value per column."""

    exists: z3.BoolRef
    values: tuple[SymValue, ...]

    def where(self, condition: z3.BoolRef) -> Row:
        """The same row, present only when ``condition`` also holds."""
        return Row(conj([self.exists, condition]), self.values)


@dataclass(frozen=True)
class Relation:
    """A bag of at most ``len(rows)`` rows with the given column names."""

    names: tuple[str, ...]
    rows: tuple[Row, ...]

    @property
    def width(self) -> int:
        return len(self.names)


def same_value(a: SymValue, b: SymValue) -> z3.BoolRef:
    """``a IS NOT DISTINCT FROM b``; a fast path of :func:`~sqlequiv.symbolic.terms.same`.

    Values of one kind and scale (the common case: the same column on two
    rows) compare their terms directly; anything else goes to the term layer.
    """
    if a.kind != b.kind or a.kind not in _PLAIN or a.scale != b.scale:
        return same(a, b)
    eq = equal(a.value, b.value)
    if is_false(a.null) and is_false(b.null):
        return eq
    both_null = conj([a.null, b.null])
    both_present = conj([neg(a.null), neg(b.null), eq])
    return disj([both_null, both_present])


def rows_same(a: Sequence[SymValue], b: Sequence[SymValue], eq: CellEq = same_value) -> z3.BoolRef:
    """Whether two value tuples are equal, cell by cell under ``eq`` (default IS NOT DISTINCT)."""
    return conj([eq(x, y) for x, y in zip(a, b, strict=True)])


def count_matching(
    rel: Relation, values: Sequence[SymValue], eq: CellEq = same_value
) -> z3.ArithRef:
    """How many present rows of ``rel`` equal ``values``."""
    return count([conj([r.exists, rows_same(r.values, values, eq)]) for r in rel.rows])


def occurrence_index(rel: Relation, i: int) -> z3.ArithRef:
    """1 + the number of present rows before row ``i`` equal to it: its rank among duplicates."""
    row = rel.rows[i]
    earlier = [conj([r.exists, rows_same(r.values, row.values)]) for r in rel.rows[:i]]
    return count(earlier) + 1


def distinct(rel: Relation) -> Relation:
    """``SELECT DISTINCT``: a row survives when no earlier present row equals it.

    The first present copy of each value tuple represents it, so exactly one
    row per distinct tuple exists.
    """
    rows = []
    for i, row in enumerate(rel.rows):
        dup = disj([conj([r.exists, rows_same(r.values, row.values)]) for r in rel.rows[:i]])
        rows.append(row.where(neg(dup)))
    return Relation(rel.names, tuple(rows))


def union_all(left: Relation, right: Relation) -> Relation:
    """``UNION ALL``: both bags, concatenated (names come from the left side)."""
    return Relation(left.names, left.rows + right.rows)


def intersect(left: Relation, right: Relation, *, all_: bool) -> Relation:
    """``INTERSECT [ALL]``.

    With ALL, the j-th copy of a tuple on the left survives when the right has
    at least j copies, so min(left, right) copies remain. Without ALL, the
    first copy survives when the right has any.
    """
    rows = []
    base = left if all_ else distinct(left)
    for i, row in enumerate(base.rows):
        if all_:
            keep = count_matching(right, row.values) >= occurrence_index(base, i)
        else:
            keep = disj([conj([r.exists, rows_same(r.values, row.values)]) for r in right.rows])
        rows.append(row.where(keep))
    return Relation(left.names, tuple(rows))


def except_(left: Relation, right: Relation, *, all_: bool) -> Relation:
    """``EXCEPT [ALL]``.

    With ALL, the j-th copy of a tuple on the left survives when the right has
    fewer than j copies, so max(left - right, 0) copies remain. Without ALL,
    the first copy survives when the right has none.
    """
    rows = []
    base = left if all_ else distinct(left)
    for i, row in enumerate(base.rows):
        if all_:
            keep = count_matching(right, row.values) < occurrence_index(base, i)
        else:
            keep = neg(
                disj([conj([r.exists, rows_same(r.values, row.values)]) for r in right.rows])
            )
        rows.append(row.where(keep))
    return Relation(left.names, tuple(rows))


def bags_differ(a: Relation, b: Relation, eq: CellEq, witness: Sequence[SymValue]) -> z3.BoolRef:
    """Whether the two bags differ: some value tuple occurs a different number of times.

    ``witness`` is a tuple of fresh, unconstrained values: the solver picks
    the tuple whose counts differ. That is exact -- bags differ iff some
    tuple's counts differ -- and linear in the number of rows, where
    comparing every row with every other is quadratic. ``eq`` must be an
    equivalence relation under which the witness can stand for any row of
    either side (see :func:`sqlequiv.symbolic.bounded.verify.cell_equal`).
    """
    in_a = count_matching(a, witness, eq)
    in_b = count_matching(b, witness, eq)
    return neg(equal(in_a, in_b))


def bags_differ_pairwise(a: Relation, b: Relation, eq: CellEq) -> z3.BoolRef:
    """:func:`bags_differ` with the rows themselves as the candidate witnesses (quadratic).

    For results whose columns differ in type between the sides, where no one
    witness value can stand for cells of both.
    """
    witnesses = []
    for row in a.rows + b.rows:
        in_a = count_matching(a, row.values, eq)
        in_b = count_matching(b, row.values, eq)
        witnesses.append(conj([row.exists, neg(equal(in_a, in_b))]))
    return disj(witnesses)
