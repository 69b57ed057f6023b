"""What the rules that reason about aggregates share: which calls are aggregates, and
which aggregates only see the set of values of a group.

A dialect sqlglot reads a function of without knowing it (Trino's ``BIT_AND``, any
user-defined aggregate) leaves an anonymous call, which may well be an aggregate: a
rule that must know every aggregate of a SELECT treats such a call as an aggregate it
cannot reason about, unless it is one of the idempotent aggregates named below.
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlglot import exp

from sqlequiv.normalize._util import own_nodes
from sqlequiv.policy.opaque import opaque_class

#: Aggregates whose value over a group is the same whatever the multiplicity of its
#: values, and over one value is that value, of its own type.
IDEMPOTENT = (exp.Max, exp.Min, exp.LogicalAnd, exp.LogicalOr, exp.BitwiseAndAgg, exp.BitwiseOrAgg)

#: The exact numeric types: a SUM of them is exact, however the rows are grouped
#: (floating-point addition is not associative).
EXACT_NUMBERS = frozenset(
    {
        exp.DataType.Type.TINYINT,
        exp.DataType.Type.SMALLINT,
        exp.DataType.Type.INT,
        exp.DataType.Type.BIGINT,
        exp.DataType.Type.INT128,
        exp.DataType.Type.DECIMAL,
    }
)

#: The same aggregates, by the name an unknown call of them keeps.
_IDEMPOTENT_NAMES = frozenset({"bit_and", "bit_or", "bool_and", "bool_or", "every", "min", "max"})

_UNKNOWN_CALLS = (exp.Anonymous, exp.AnonymousAggFunc, exp.ParameterizedAgg)


#: The aggregates that skip the rows on which their argument is NULL (COUNT(*) aside).
NULL_SKIPPING: tuple[type[exp.Expr], ...] = (exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max)

def aggregates(select: exp.Select) -> list[exp.Func] | None:
    """The aggregate calls of ``select``'s own scope, the idempotent unknown ones among
    them; None if it calls an unknown function that may be another aggregate."""
    found: list[exp.Func] = list(own_nodes(select, exp.AggFunc))
    for call in _own_walk(select):
        if not isinstance(call, _UNKNOWN_CALLS) or opaque_class(call) is not None:
            continue
        if call.name.lower() not in _IDEMPOTENT_NAMES:
            return None
        found.append(call)
    return found


def idempotent_argument(aggregate: exp.Func) -> exp.Expr | None:
    """The one argument of an idempotent aggregate (under its DISTINCT, if any), else None."""
    if isinstance(aggregate, IDEMPOTENT) and not aggregate.expressions:
        argument = aggregate.this
    elif isinstance(aggregate, _UNKNOWN_CALLS) and aggregate.name.lower() in _IDEMPOTENT_NAMES:
        if len(aggregate.expressions) != 1:
            return None
        argument = aggregate.expressions[0]
    else:
        return None
    if isinstance(argument, exp.Distinct):
        if len(argument.expressions) != 1:
            return None
        argument = argument.expressions[0]
    return argument if isinstance(argument, exp.Expr) else None


def _own_walk(select: exp.Select) -> Iterator[exp.Expr]:
    """Every node of ``select``'s own scope (nested queries excluded)."""
    stack: list[exp.Expr] = list(select.iter_expressions())
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Query):
            continue
        yield node
        stack.extend(node.iter_expressions())
