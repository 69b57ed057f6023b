"""ORDER BY ... LIMIT / OFFSET over a symbolic relation, with DuckDB's freedom over ties.

Each row's position is its *rank*: how many present rows sort strictly
before it, ties broken by a fresh integer per row that the solver chooses
(all distinct). Any order DuckDB may produce is some choice of those
tie-breakers, so the rows at positions ``offset .. offset + limit - 1`` are
exactly what some DuckDB run returns, and an UNSAT answer covers every run.

At the top of a query the pipeline does not compare results whose LIMIT
cuts through tied rows (it flags them as nondeterministic); that condition
is returned as ``undetermined`` so the checker can exclude those databases
the same way. Ties of identical rows change nothing and do not count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import z3
from sqlglot import exp

from sqlequiv.symbolic.bounded.relations import Relation, rows_same
from sqlequiv.symbolic.terms import SymValue, Unsupported, compare, same
from sqlequiv.symbolic.terms.formulas import FALSE, TRUE, conj, count, disj, neg

__all__ = ["Limited", "has_limit", "keys_by_output", "limit_rows", "output_index"]


@dataclass(frozen=True)
class Limited:
    """The rows a LIMIT/OFFSET keeps, and what the encoding needs besides."""

    relation: Relation
    #: The tie-breakers are pairwise distinct.
    constraints: list[z3.BoolRef] = field(default_factory=list)
    #: Ties broken in arrival order, DuckDB's usual choice (for models that replay).
    preferences: list[z3.BoolRef] = field(default_factory=list)
    #: At the top of a query: the LIMIT's end cuts through tied rows that differ.
    undetermined: z3.BoolRef | None = None


def limit_rows(
    node: exp.Expr,
    rel: Relation,
    keys: Sequence[tuple[SymValue, ...]],
    *,
    tag: str,
    top: bool,
    tick: Callable[[], None] = lambda: None,
) -> Limited:
    """The rows of ``rel`` that ``node``'s ORDER BY / LIMIT / OFFSET keep.

    ``keys`` holds each row's sort key (one value per ORDER BY item); ``tag``
    names the fresh tie-breakers. The work is quadratic in the rows: ``tick`` is
    called for each pair of rows compared and each row ranked (the encoder's
    deadline check, which raises there).
    """
    limit_node = node.args.get("limit")
    limit = None if limit_node is None else _row_count(limit_node, "LIMIT")
    offset_node = node.args.get("offset")
    offset = 0 if offset_node is None else _row_count(offset_node, "OFFSET")
    order = node.args.get("order")
    directions = (
        [(bool(o.args.get("desc")), _nulls_first(o)) for o in order.expressions]
        if order is not None
        else []
    )
    n = len(rel.rows)
    before = [[FALSE] * n for _ in range(n)]
    tied = [[TRUE] * n for _ in range(n)]
    if order is not None:
        for i in range(n):
            for j in range(n):
                if i != j:
                    tick()
                    before[j][i], tied[j][i] = _precedes(keys[j], keys[i], directions)
    breaker = [z3.Int(f"tiebreak#{tag}.{i}") for i in range(n)]
    constraints, preferences = [], []
    if n > 1:
        constraints.append(z3.Distinct(*breaker))
        preferences.append(conj([breaker[i] < breaker[i + 1] for i in range(n - 1)]))
    rows = []
    for i, row in enumerate(rel.rows):
        tick()
        earlier = [
            conj(
                [
                    rel.rows[j].exists,
                    disj([before[j][i], conj([tied[j][i], breaker[j] < breaker[i]])]),
                ]
            )
            for j in range(n)
            if j != i
        ]
        rank = count(earlier)
        window = [rank >= offset] if offset else []
        if limit is not None:
            window.append(rank < offset + limit)
        rows.append(row.where(conj(window)))
    undetermined = None
    if top and limit is not None and offset + limit > 0:
        # Only where the LIMIT ends: the pipeline flags ties there and nowhere else (a tie
        # cut by the OFFSET is left to the tie-breakers, i.e. to every possible choice).
        undetermined = _cut_through_ties(rel, before, tied, [offset + limit], tick)
    return Limited(Relation(rel.names, tuple(rows)), constraints, preferences, undetermined)


def has_limit(node: exp.Expr) -> bool:
    """Whether a query node has a LIMIT (or FETCH) or an OFFSET of its own."""
    return node.args.get("limit") is not None or node.args.get("offset") is not None


def _row_count(node: exp.Expr, what: str) -> int:
    """The row count of a LIMIT, FETCH or OFFSET clause (a non-negative integer constant)."""
    options = node.args.get("limit_options")
    if isinstance(options, exp.Expr) and (
        options.args.get("percent") or options.args.get("with_ties")
    ):
        raise Unsupported(f"{what} in percent or WITH TIES")
    if isinstance(node, exp.Fetch):
        amount = node.args.get("count") or exp.Literal.number(1)
    elif isinstance(node, (exp.Limit, exp.Offset)):
        amount = node.args.get("expression")
        if node.args.get("offset") or node.args.get("expressions"):
            raise Unsupported(f"{what} with an offset list")
    else:
        amount = node
    if isinstance(amount, exp.Literal) and amount.is_int:
        return int(amount.name)
    raise Unsupported(f"a {what} that is not an integer constant")


def _nulls_first(ordered: exp.Ordered) -> bool:
    # Absent means DuckDB's default: NULLS LAST in both directions.
    return bool(ordered.args.get("nulls_first"))


def output_index(key: exp.Expr, projections: Sequence[exp.Expr]) -> int | None:
    """The output column an ORDER BY key names: an ordinal, an alias, or an identical expression."""
    if isinstance(key, exp.Literal) and key.is_int:
        index = int(key.name) - 1
        if 0 <= index < len(projections):
            return index
        raise Unsupported("an ORDER BY ordinal out of range")
    if isinstance(key, exp.Column) and not key.table:
        names = [p.alias_or_name.lower() for p in projections]
        if key.name.lower() in names:
            return names.index(key.name.lower())
    for i, projection in enumerate(projections):
        if key == projection.unalias():
            return i
    return None


def keys_by_output(order: exp.Order, rel: Relation, i: int) -> tuple[SymValue, ...]:
    """Sort keys of a set operation's row: ordinals or output names only."""
    key = []
    for ordered in order.expressions:
        expr = ordered.this
        if isinstance(expr, exp.Literal) and expr.is_int:
            index = int(expr.name) - 1
        elif isinstance(expr, exp.Column) and not expr.table and expr.name.lower() in rel.names:
            index = rel.names.index(expr.name.lower())
        else:
            raise Unsupported("ORDER BY of a set operation on a non-output expression")
        if not 0 <= index < rel.width:
            raise Unsupported("an ORDER BY ordinal out of range")
        key.append(rel.rows[i].values[index])
    return tuple(key)


def _precedes(
    a: Sequence[SymValue], b: Sequence[SymValue], directions: Sequence[tuple[bool, bool]]
) -> tuple[z3.BoolRef, z3.BoolRef]:
    """(a sorts strictly before b, a and b are tied) under the ORDER BY directions."""
    before: list[z3.BoolRef] = []
    prefix_tied: list[z3.BoolRef] = []
    for x, y, (desc, nulls_first) in zip(a, b, directions, strict=True):
        lt = compare(">" if desc else "<", x, y).true
        null_order = conj([x.null, neg(y.null)]) if nulls_first else conj([y.null, neg(x.null)])
        strictly = disj([lt, null_order])
        before.append(conj([*prefix_tied, strictly]))
        prefix_tied.append(same(x, y))
    return disj(before), conj(prefix_tied)


def _cut_through_ties(
    rel: Relation,
    before: list[list[z3.BoolRef]],
    tied: list[list[z3.BoolRef]],
    bounds: Sequence[int],
    tick: Callable[[], None],
) -> z3.BoolRef:
    """Whether a LIMIT/OFFSET boundary falls inside a group of tied rows that are not identical.

    Row i's group starts at position ``rank_i`` (rows strictly before it) and
    holds ``size_i`` rows; a boundary B cuts it when rank_i < B < rank_i + size_i.
    Only a group whose rows differ makes the result depend on the tie order.
    """
    n = len(rel.rows)
    cuts = []
    for i, row in enumerate(rel.rows):
        tick()
        others = [j for j in range(n) if j != i]
        rank = count([conj([rel.rows[j].exists, before[j][i]]) for j in others])
        size = count([conj([rel.rows[j].exists, tied[j][i]]) for j in others]) + 1
        mixed = disj(
            [
                conj(
                    [rel.rows[j].exists, tied[j][i], neg(rows_same(rel.rows[j].values, row.values))]
                )
                for j in others
            ]
        )
        for bound in bounds:
            cuts.append(conj([row.exists, mixed, rank < bound, rank + size > bound]))
    return disj(cuts)
