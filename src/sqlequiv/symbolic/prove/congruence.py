"""Proofs by parts: two canonical forms that differ only inside self-contained subqueries.

An optimizer rewrites one subquery of a 3,000-node TPC-DS query, and the two canonical
forms then agree everywhere but there: too large for the prover as a whole, yet the parts
that differ are small. :func:`differing_parts` walks both trees in step and, for each
place where they differ, takes the innermost enclosing pair of queries that is
*self-contained*: it reads no column of an enclosing query and no table but the schema's
(or a CTE of its own). :func:`prove_by_parts` proves each such pair equivalent with the
prover, as queries of their own.

Why this is sound: the two queries are one context ``C`` with the parts put in its
holes, ``C[U1, ..., Un]`` against ``C[V1, ..., Vn]``, the context written identically on
both sides. A self-contained query denotes the same bag of rows wherever it stands
(it reads nothing of the row it is evaluated for), so where every ``Ui`` has the rows
of ``Vi`` on every database, with its columns in the same order, the context computes
the same thing from them, whatever it is. The prover proves that of each pair, at the
top level, where an ORDER BY is compared too (stricter than a part needs); the context
reads a part's columns by name, so each pair must name its columns alike, in the same
order, and type them alike (a value of another type may print or compute differently
there, where the prover compares values). A
difference outside every self-contained query (in the outer query's own WHERE, say)
leaves the pair unproved, unless it is a whole filter condition, as below.

When the parts above are not proved, a difference may also end at a whole WHERE,
HAVING or ON condition (:func:`differing_parts` with ``filters=True``): the two
conditions then stand in the same place of queries written alike everywhere else, so
they filter the same rows, and :func:`~sqlequiv.symbolic.prove.filters.same_filter`
proves that they keep the same ones (TRUE on exactly the same values). That reaches a
condition the optimizer rewrote inside a query the prover does not read as a whole
(a window over groups), or that reads its enclosing query.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlglot import exp

from sqlequiv.normalize._scoping import closed
from sqlequiv.normalize._util import is_inside
from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.prove.filters import is_filter

__all__ = ["MAX_PARTS", "differing_parts", "prove_by_parts"]

#: Most pairs of parts one proof may try (each is a proof of its own).
MAX_PARTS = 8

_QUERIES = (exp.Select, exp.SetOperation)


@dataclass(frozen=True)
class _Part:
    left: exp.Expr
    right: exp.Expr


class _Unprovable(Exception):
    """A difference no self-contained pair of queries encloses."""


def differing_parts(
    left: exp.Expr, right: exp.Expr, schema: Schema, *, filters: bool = False
) -> list[tuple[exp.Expr, exp.Expr]] | None:
    """The pairs of self-contained queries outside which ``left`` and ``right`` are written
    alike, outermost pairs only; None when they differ elsewhere (or not at all). With
    ``filters``, a pair of whole filter conditions that differ is a part of its own.

    Example:
        >>> import sqlglot
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INT, b INT)")
        >>> q = "SELECT x.a FROM (SELECT t.a AS a FROM t AS t WHERE {}) AS x"
        >>> l, r = sqlglot.parse_one(q.format("t.b > 1")), sqlglot.parse_one(q.format("1 < t.b"))
        >>> [(a.sql(), b.sql()) for a, b in differing_parts(l, r, schema=s)]
        [('SELECT t.a AS a FROM t AS t WHERE t.b > 1', 'SELECT t.a AS a FROM t AS t WHERE 1 < t.b')]
    """
    found: list[_Part] = []
    # A CTE of the statement may take a schema table's name: a part reading it is not
    # self-contained (the name means the CTE there).
    ctes = frozenset(c.alias_or_name.lower() for t in (left, right) for c in t.find_all(exp.CTE))
    try:
        _compare(left, right, [], found, _Names(schema, ctes, {}, filters))
    except _Unprovable:
        return None
    if not found:
        return None
    outermost: list[tuple[exp.Expr, exp.Expr]] = []
    for part in found:
        if any(part.left is kept for kept, _ in outermost):
            continue
        if any(is_inside(part.left, other.left) for other in found if other is not part):
            continue
        outermost.append((part.left, part.right))
    return outermost


def prove_by_parts(
    left: exp.Expr,
    right: exp.Expr,
    schema: Schema,
    prove: Callable[[exp.Expr, exp.Expr], bool],
    *,
    max_parts: int = MAX_PARTS,
    same_filter: Callable[[exp.Expr, exp.Expr], bool] | None = None,
) -> bool:
    """Whether ``left`` and ``right`` differ only in self-contained parts that ``prove``
    (the prover, on copies of a pair) shows equivalent, at most ``max_parts`` of them;
    failing that, with ``same_filter``, in such parts and whole filter conditions that
    ``same_filter`` shows keep the same rows."""
    if _by_parts(left, right, schema, prove, max_parts, None):
        return True
    return same_filter is not None and _by_parts(left, right, schema, prove, max_parts, same_filter)


def _by_parts(
    left: exp.Expr,
    right: exp.Expr,
    schema: Schema,
    prove: Callable[[exp.Expr, exp.Expr], bool],
    max_parts: int,
    same_filter: Callable[[exp.Expr, exp.Expr], bool] | None,
) -> bool:
    parts = differing_parts(left, right, schema, filters=same_filter is not None)
    if parts is None or len(parts) > max_parts:
        return False
    conditions = [(a, b) for a, b in parts if not isinstance(a, _QUERIES)]
    queries = [(a, b) for a, b in parts if isinstance(a, _QUERIES)]
    if same_filter is not None and not conditions:
        return False  # the parts tried without conditions
    if not all(_same_outputs(a, b) for a, b in queries):
        return False
    if conditions and (same_filter is None or not all(same_filter(a, b) for a, b in conditions)):
        return False
    return all(prove(a.copy(), b.copy()) for a, b in queries)


def _same_outputs(left: exp.Expr, right: exp.Expr) -> bool:
    """Whether two parts name and type their columns alike, in order: the context reads
    a part's columns by name, and a value of another type may print or compute
    differently there (the prover compares values by position)."""
    outputs = []
    for part in (left, right):
        query = part
        while isinstance(query, exp.SetOperation):
            query = query.this  # a set operation is named and typed by its first operand
        if not isinstance(query, exp.Select):
            return False
        outputs.append(
            [(p.alias_or_name.lower(), p.type.sql() if p.type else None) for p in query.expressions]
        )
    return outputs[0] == outputs[1] and all(kind is not None for _, kind in outputs[0])


@dataclass(frozen=True)
class _Names:
    """What a part may read: the schema's tables, under names no CTE of the statement
    takes; and, by the id of a query, whether it was found self-contained (each
    difference asks again of every query around it)."""

    schema: Schema
    statement_ctes: frozenset[str]
    known: dict[int, bool]
    #: Whether a pair of whole filter conditions that differ is a part of its own.
    filters: bool = False


def _compare(
    a: exp.Expr, b: exp.Expr, queries: list[_Part], found: list[_Part], names: _Names
) -> None:
    """Record in ``found`` the enclosing self-contained pair of each difference below
    ``a`` and ``b``; ``queries`` are the pairs of queries above them, outermost first."""
    if names.filters and is_filter(a) and is_filter(b) and a.sql() != b.sql():
        found.append(_Part(a, b))
        return
    if type(a) is not type(b) or not _same_shape(a, b):
        found.append(_enclosing(queries, names))
        return
    if isinstance(a, _QUERIES):
        queries = [*queries, _Part(a, b)]
    paired = _paired_branches(a, b)
    if paired is not None:
        for x, y in paired:
            _compare(x, y, queries, found, names)
        return
    for key, value in a.args.items():
        other = b.args.get(key)
        if isinstance(value, exp.Expr) and isinstance(other, exp.Expr):
            _compare(value, other, queries, found, names)
        elif isinstance(value, list) and isinstance(other, list):
            for x, y in zip(value, other, strict=True):
                if isinstance(x, exp.Expr) and isinstance(y, exp.Expr):
                    _compare(x, y, queries, found, names)


def _paired_branches(a: exp.Expr, b: exp.Expr) -> list[tuple[exp.Expr, exp.Expr]] | None:
    """The branches of two UNIONs (or two UNION ALLs) of as many branches and nothing
    else, paired: the same text first, then by the tables they read. A UNION's branches
    may come in any order (the canonical form sorts them by text, which the parts that
    differ change), and a wrong pairing only costs a proof."""
    if not (isinstance(a, exp.Union) and isinstance(b, exp.Union)):
        return None
    left, right = _branches(a), _branches(b)
    if left is None or right is None or len(left) != len(right):
        return None
    # A UNION is named by its first branch, which the pairing may change: only when
    # every branch names its columns alike does the context read them the same.
    names = {_names(branch) for branch in left + right}
    if len(names) != 1 or None in names:
        return None
    pairs: list[tuple[exp.Expr, exp.Expr]] = []
    rest = list(right)
    for key in (lambda q: q.sql(), _tables_read):
        for x in [x for x in left if all(x is not p for p, _ in pairs)]:
            match = next((y for y in rest if key(y) == key(x)), None)
            if match is not None:
                pairs.append((x, match))
                rest.remove(match)
    unpaired = [x for x in left if all(x is not p for p, _ in pairs)]
    pairs.extend(zip(unpaired, rest, strict=True))
    return pairs


def _branches(union: exp.Union) -> list[exp.Expr] | None:
    """The operands of a chain of one kind of UNION with no ORDER BY or LIMIT of its own."""
    found: list[exp.Expr] = []
    stack: list[exp.Expr] = [union]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Union) and node.args.get("distinct") == union.args.get(
            "distinct"
        ):
            if {k for k, v in node.args.items() if v} - {"this", "expression", "distinct"}:
                return None
            stack.extend([node.expression, node.this])
        else:
            found.append(node)
    return found


def _names(query: exp.Expr) -> tuple[str, ...] | None:
    """The output names of a SELECT, in order; None for anything else."""
    if not isinstance(query, exp.Select):
        return None
    return tuple(p.alias_or_name.lower() for p in query.expressions)


def _tables_read(query: exp.Expr) -> list[str]:
    return sorted(table.name.lower() for table in query.find_all(exp.Table))


def _same_shape(a: exp.Expr, b: exp.Expr) -> bool:
    """Whether ``a`` and ``b`` have the same arguments, alike but for their subtrees."""
    keys = {k for k, v in a.args.items() if v not in (None, [], False)}
    if keys != {k for k, v in b.args.items() if v not in (None, [], False)}:
        return False
    for key in keys:
        x, y = a.args[key], b.args[key]
        if isinstance(x, exp.Expr) or isinstance(y, exp.Expr):
            if not (isinstance(x, exp.Expr) and isinstance(y, exp.Expr)):
                return False
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            for p, q in zip(x, y, strict=True):
                if isinstance(p, exp.Expr) != isinstance(q, exp.Expr):
                    return False
                if not isinstance(p, exp.Expr) and p != q:
                    return False
        elif x != y:
            return False
    return True


def _enclosing(queries: list[_Part], names: _Names) -> _Part:
    """The innermost pair of ``queries`` (the statement excluded) both self-contained."""
    for part in reversed(queries[1:]):
        if _self_contained(part.left, names) and _self_contained(part.right, names):
            return part
    raise _Unprovable


def _self_contained(query: exp.Expr, names: _Names) -> bool:
    """Whether ``query`` reads no column of an enclosing query and no table but the
    schema's (under a name no CTE of the statement takes) and its own CTEs'."""
    known = names.known.get(id(query))
    if known is None:
        known = names.known[id(query)] = _reads_only_its_own(query, names)
    return known


def _reads_only_its_own(query: exp.Expr, names: _Names) -> bool:
    """:func:`_self_contained`, worked out."""
    schema, statement_ctes = names.schema, names.statement_ctes
    own = {cte.alias_or_name.lower() for cte in query.find_all(exp.CTE)}
    for table in query.find_all(exp.Table):
        if table.args.get("db") or table.args.get("catalog"):
            return False
        name = table.name.lower()
        if name not in own and (name in statement_ctes or name not in schema):
            return False
    return closed(query)
