"""Aggregates over the members of a symbolic group, with DuckDB's result types.

A group is a list of ``(member, value)`` pairs: ``member`` says whether the
row belongs to the group (and passed the aggregate's FILTER), ``value`` is
the aggregate's argument on that row. NULL arguments are skipped, as SQL
does; on no non-NULL input SUM/AVG/MIN/MAX are NULL and COUNT is 0.

Result types follow DuckDB 2.0 (checked with ``typeof``): COUNT is BIGINT;
SUM of an integer is HUGEINT, of DECIMAL(p, s) is DECIMAL(38, s), of a float
is DOUBLE; AVG is DOUBLE; MIN/MAX keep the argument's type.

Exactness: SUM of integers and decimals is exact (no overflow is possible
at these sizes: a HUGEINT or DECIMAL(38) holds any sum of a few dozen
values). AVG divides the exact sum by the count in the way
:class:`~sqlequiv.symbolic.bounded.averages.Averages` encodes (soundly, or
approximately for model finding). SUM and AVG of floats depend on the order
DuckDB adds the values in, which is not fixed; they are encoded in row order
and reported as inexact, so that an UNSAT answer involving them is not trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from sqlequiv.symbolic.bounded.averages import Averages
from sqlequiv.symbolic.bounded.relations import same_value
from sqlequiv.symbolic.terms import SymValue, Unsupported, compare, ite
from sqlequiv.symbolic.terms.formulas import FALSE, conj, count, disj, equal, neg, select
from sqlequiv.symbolic.terms.sqlvalue import null_of

__all__ = ["AggregateResult", "average", "count_values", "extreme", "total"]

Member = tuple[z3.BoolRef, SymValue]

_ZERO = z3.IntVal(0)
_FLOAT_SUM = "a SUM or AVG of floating-point values depends on DuckDB's addition order"


@dataclass(frozen=True)
class AggregateResult:
    """An aggregate's value, and why an UNSAT answer resting on it is not trusted (if so)."""

    value: SymValue
    caveat: str | None = None


def _present(members: Sequence[Member]) -> list[tuple[z3.BoolRef, SymValue]]:
    """Members whose argument is not NULL (an untyped NULL never is)."""
    return [(conj([m, neg(v.null)]), v) for m, v in members if v.kind != "other"]


def _first_copies(members: Sequence[Member]) -> list[tuple[z3.BoolRef, SymValue]]:
    """For DISTINCT: each non-NULL value counts once, at its first member."""
    present = _present(members)
    out = []
    for i, (flag, value) in enumerate(present):
        earlier = disj([conj([f, same_value(v, value)]) for f, v in present[:i]])
        out.append((conj([flag, neg(earlier)]), value))
    return out


def count_values(members: Sequence[Member], *, star: bool, distinct: bool) -> AggregateResult:
    """COUNT(*), COUNT(x) or COUNT(DISTINCT x), as a non-NULL BIGINT."""
    if star:
        flags = [m for m, _ in members]
    elif distinct:
        flags = [f for f, _ in _first_copies(members)]
    else:
        flags = [f for f, _ in _present(members)]
    return AggregateResult(SymValue("int", count(flags), FALSE, bits=64))


def _sum_term(kept: Sequence[tuple[z3.BoolRef, SymValue]], kind: str, bits: int) -> z3.ExprRef:
    if kind == "float":
        zero = z3.FPVal(0.0, kept[0][1].value.sort()) if kept else None
        acc = zero
        for flag, v in kept:
            acc = select(flag, z3.fpAdd(z3.RNE(), acc, v.value), acc)
        return acc
    terms = [select(flag, v.value, _ZERO) for flag, v in kept]
    if not terms:
        return _ZERO
    return terms[0] if len(terms) == 1 else z3.Sum(terms)


def _sample(members: Sequence[Member]) -> SymValue | None:
    """The first typed argument: an untyped NULL (kind ``other``) is NULL on every row."""
    return next((v for _, v in members if v.kind != "other"), None)


def _numeric(members: Sequence[Member], name: str) -> SymValue | None:
    sample = _sample(members)
    if sample is not None and sample.kind not in ("int", "decimal", "float"):
        raise Unsupported(f"{name} of a {sample.kind} value")
    return sample


def total(members: Sequence[Member], *, distinct: bool) -> AggregateResult:
    """SUM(x) or SUM(DISTINCT x)."""
    sample = _numeric(members, "SUM")
    if sample is None:
        return AggregateResult(null_of("int", bits=128))  # DuckDB: SUM(NULL) is a HUGEINT
    kept = _first_copies(members) if distinct else _present(members)
    none = neg(disj([f for f, _ in kept]))
    term = _sum_term(kept, sample.kind, sample.bits)
    if sample.kind == "int":
        return AggregateResult(SymValue("int", term, none, bits=128))
    if sample.kind == "decimal":
        return AggregateResult(SymValue("decimal", term, none, sample.scale, precision=38))
    return AggregateResult(SymValue("float", term, none, bits=64), caveat=_FLOAT_SUM)


def average(members: Sequence[Member], *, distinct: bool, averages: Averages) -> AggregateResult:
    """AVG(x) or AVG(DISTINCT x), a DOUBLE (its division is encoded by ``averages``)."""
    sample = _numeric(members, "AVG")
    if sample is None:
        return AggregateResult(null_of("float", bits=64))
    kept = _first_copies(members) if distinct else _present(members)
    n = count([f for f, _ in kept])
    none = equal(n, _ZERO)
    term = _sum_term(kept, sample.kind, sample.bits)
    total_ = SymValue(sample.kind, term, FALSE, sample.scale, sample.bits, sample.precision)
    value = averages.divide(total_, n, len(kept), none)
    if sample.kind == "float":
        return AggregateResult(value, caveat=_FLOAT_SUM)
    if averages.approximate:
        return AggregateResult(value, caveat="AVG approximated to find a model")
    return AggregateResult(value)


def extreme(members: Sequence[Member], *, largest: bool) -> AggregateResult:
    """MIN(x) or MAX(x): a fold keeping the smallest (largest) non-NULL value seen."""
    sample = _sample(members)
    if sample is None:
        return AggregateResult(null_of("other"))
    acc = null_of(sample.kind, scale=sample.scale, bits=sample.bits, precision=sample.precision)
    op = ">" if largest else "<"
    for flag, v in _present(members):
        better = compare(op, v, acc).true
        take = conj([flag, disj([acc.null, better])])
        acc = ite(take, v, acc)
    return AggregateResult(acc)
