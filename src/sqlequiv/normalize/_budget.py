"""Size budgets: how large a query the proving stages take on.

Normalization and the symbolic layer only ever *prove*; a query they decline
is not judged by them, and goes on to the counterexample search and the bounded
check like any pair they could not prove. Their cost grows faster than the
query does. What grows fastest is one chain of ANDs or ORs, whose operands are
sorted by their text: one canonical form of a 400-term OR chain (2,400 nodes)
took 1.5 s and of an 800-term one 6 s, so a chain is limited on its own (350
operands: 0.55 s). Joins and table references cost less since the source
ordering was made linear: on one core of the development machine, 24 self-joins
take 0.3 s, a UNION ALL of 40 queries 0.1 s, two 350-term chains in 4,300 nodes
1.1 s. The prover then checks pairs of sources, so its own limits are tighter. So
before any work a query is measured in one linear pass, and one past any
limit of :class:`Limits` is declined with :class:`TooLarge`.

The limits are sizes, not clocks, so that the same query is declined on every
machine and the verdict stays a function of the inputs and the seed. They sit
above real queries: across the corpus and the peer benchmarks (936 queries) the
largest qualified query has 352 nodes, depth 18, 5 table references and 5
sources in one FROM clause. TPC-DS queries as an optimizer rewrites them reach
2,900 nodes, 45 table references and 18 sources in one FROM clause (their
canonical forms take up to 0.8 s).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from sqlglot import exp

__all__ = [
    "DEFAULT_LIMITS",
    "SYMBOLIC_LIMITS",
    "Limits",
    "Size",
    "TooLarge",
    "check_size",
    "measure",
]


@dataclass(frozen=True)
class Size:
    """What the budgets measure in a query tree.

    Attributes:
        nodes: Expression nodes in the tree (identifiers and literals included).
        depth: The longest path from the root to a leaf, in nodes; a chain of ANDs
            (or of ORs) counts as one level, as the rewrites walk it without recursion.
        tables: Table references anywhere in the query (base tables and CTE names).
        widest_from: The most sources of one FROM clause (its first item and its joins).
        terms: The most alternatives of one condition: operands of one chain of ANDs
            or of ORs, or values of one IN list (each is a case for the solver).
        literal: The characters of the longest literal (z3 spends its time and memory
            outside any rlimit writing a long string constant into a model).
        chain: The most operands of one chain of ANDs or of ORs (the normalizer sorts
            each chain by its operands' text, which costs more than an IN list's values).
    """

    nodes: int
    depth: int
    tables: int
    widest_from: int
    terms: int
    literal: int = 0
    chain: int = 0


@dataclass(frozen=True)
class Limits:
    """The largest :class:`Size` the proving stages take on, measure by measure.

    Example:
        >>> Limits().exceeded(Size(nodes=6411, depth=8, tables=1, widest_from=1, terms=900))
        ('nodes', 6411, 6000)
        >>> Limits().exceeded(Size(nodes=40, depth=5, tables=2, widest_from=2, terms=3)) is None
        True
    """

    nodes: int = 6000
    depth: int = 200
    tables: int = 48
    widest_from: int = 24
    terms: int = 1000
    literal: int = 1_000_000
    chain: int = 350

    def exceeded(self, size: Size) -> tuple[str, int, int] | None:
        """The first measure of ``size`` past its limit: (name, value, limit), or None."""
        for f in fields(self):
            value, limit = getattr(size, f.name), getattr(self, f.name)
            if value > limit:
                return f.name, value, limit
        return None


#: The normalizer's budget.
DEFAULT_LIMITS = Limits()

#: The symbolic layer's budget: tighter, because every alternative of a condition is a
#: case for z3 and every pair of sources of one table a candidate for a key argument.
#: A 99,950-character literal cost z3 52 s and 6.4 GB building a model, outside its rlimit.
SYMBOLIC_LIMITS = Limits(
    nodes=1000, tables=24, widest_from=12, terms=100, literal=10_000, chain=100
)

_WHAT = {
    "nodes": "expression nodes",
    "depth": "levels of nesting",
    "tables": "table references",
    "widest_from": "sources in one FROM clause",
    "terms": "alternatives in one condition",
    "literal": "characters in one literal",
    "chain": "operands of one AND/OR chain",
}


class TooLarge(Exception):
    """A query past a size budget: the stage declines it and claims nothing.

    Attributes:
        size: The query's measured size.
        measure: The name of the measure past its limit (a field of :class:`Size`).
        value: Its value.
        limit: Its limit.
    """

    def __init__(self, size: Size, measure: str, value: int, limit: int) -> None:
        self.size = size
        self.measure = measure
        self.value = value
        self.limit = limit
        super().__init__(f"too large: {value:,} {_WHAT[measure]} (limit {limit:,})")


def measure(tree: exp.Expr) -> Size:
    """The :class:`Size` of ``tree``, in one pass without recursion (any depth is fine).

    Example:
        >>> import sqlglot
        >>> measure(sqlglot.parse_one("SELECT a FROM t JOIN u ON t.k = u.k WHERE a > 1"))
        Size(nodes=21, depth=5, tables=2, widest_from=2, terms=1, literal=1, chain=1)
        >>> measure(sqlglot.parse_one("SELECT 1 WHERE a = 1 OR a = 2 OR a = 3 OR a IN (4, 5)"))
        Size(nodes=23, depth=6, tables=0, widest_from=0, terms=4, literal=1, chain=4)
    """
    nodes = depth = tables = widest = literal = 0
    terms = chain_most = 1
    # (node, its level, the operand count of the AND/OR chain it continues, if any)
    stack: list[tuple[exp.Expr, int, list[int] | None]] = [(tree, 1, None)]
    while stack:
        node, level, chain = stack.pop()
        nodes += 1
        depth = max(depth, level)
        if isinstance(node, exp.Table):
            tables += 1
        elif isinstance(node, exp.Select):
            sources = (node.args.get("from_") is not None) + len(node.args.get("joins") or ())
            widest = max(widest, sources)
        elif isinstance(node, exp.In):
            terms = max(terms, len(node.expressions))
        elif isinstance(node, exp.Literal):
            literal = max(literal, len(node.name))
        if isinstance(node, exp.Connector):
            if chain is None:
                chain = [1]
            chain[0] += 1  # a connector joins one more operand to its chain
            terms = max(terms, chain[0])
            chain_most = max(chain_most, chain[0])
            for child in node.iter_expressions():
                same = type(child) is type(node)
                stack.append((child, level if same else level + 1, chain if same else None))
        else:
            stack.extend((child, level + 1, None) for child in node.iter_expressions())
    return Size(nodes, depth, tables, widest, terms, literal, chain_most)


def check_size(tree: exp.Expr, limits: Limits = DEFAULT_LIMITS) -> Size:
    """The size of ``tree``; raises :class:`TooLarge` when it is past ``limits``.

    Example:
        >>> import sqlglot
        >>> ors = " OR ".join(f"a = {i}" for i in range(400))
        >>> check_size(sqlglot.parse_one(f"SELECT a FROM t WHERE {ors}"))
        Traceback (most recent call last):
        ...
        sqlequiv.normalize._budget.TooLarge: too large: 400 operands of one AND/OR chain (limit 350)
    """
    size = measure(tree)
    found = limits.exceeded(size)
    if found is not None:
        raise TooLarge(size, *found)
    return size
