"""The stages that prove: equal canonical forms, then the symbolic layer.

A proof is reported only once both queries have run on the engine (a proof about
a query the engine rejects, e.g. for a type error, would be about nothing). When
the symbolic layer proves nothing, the evidence says why (``proof``).
"""

from __future__ import annotations

import dataclasses

from sqlglot import exp

from sqlequiv.errors import QueryFailed
from sqlequiv.evidence import ProofEvidence
from sqlequiv.execute.opaque import opaque_sqlite
from sqlequiv.execute.portable import portable
from sqlequiv.guard import GuardedQuery
from sqlequiv.normalize import REWRITE_VARIANTS, TooLarge, canonical_sql
from sqlequiv.normalize._util import truthy_args
from sqlequiv.normalize.constant_case_branches import constant_case_values, has_constant_branch
from sqlequiv.normalize.fold_integer_literals import fold_decimal_comparands
from sqlequiv.normalize.identity_casts import (
    explicit_date_literals,
    identity_casts,
    is_compared_date,
    is_identity_cast,
)
from sqlequiv.normalize.sqlite_reals import changes as sqlite_reals_change
from sqlequiv.normalize.sqlite_reals import sqlite_reals
from sqlequiv.pipeline.failures import LAYER_FAILURES, execution_error
from sqlequiv.pipeline.pair import Pair
from sqlequiv.verdict import Verdict


def normalized(pair: Pair) -> Verdict | None:
    """``equivalent`` when both queries have one canonical form."""
    with pair.timer.stage("normalize"):
        if not (pair.candidate.fully_qualified and pair.reference.fully_qualified):
            return None  # no proof rests on a tree sqlglot could not resolve
        queries = [(q, _prepared(q)) for q in (pair.candidate, pair.reference)]
        if not _sorted(queries[1][1]):
            queries[0] = (queries[0][0], _unordered(queries[0][1]))
        for extended in REWRITE_VARIANTS:
            forms = [_canonical(q, tree, pair, extended) for q, tree in queries]
            if forms[0] is not None and forms[0] == forms[1]:
                break
        else:
            return None
    return proved("normalized", pair)


def symbolic(pair: Pair) -> Verdict | None:
    """``equivalent`` when the symbolic layer proves the two queries agree; otherwise
    None, with why not in the evidence."""
    with pair.timer.stage("symbolic"):
        try:
            method, why = _prove(pair)
        except LAYER_FAILURES as exc:  # a proof that cannot be attempted is no proof
            method = None
            why = ProofEvidence("failed", f"the symbolic layer failed ({type(exc).__name__})")
    if method:
        return proved(method, pair)
    pair.evidence = dataclasses.replace(pair.evidence, proof=why)
    return None


def _prove(pair: Pair) -> tuple[str | None, ProofEvidence]:
    """The layer's method, or None and why there is no proof."""
    cand, ref, schema = pair.candidate, pair.reference, pair.schema
    # On SQLite (type affinity, text compared as text) or PostgreSQL (collations), a
    # proof of DuckDB's terms is about another engine, unless both queries stay where
    # the engines agree.
    gap = pair.semantics_gap
    if gap is not None:
        opaque = _sqlite_opaque(pair)
        if opaque is None:
            return None, ProofEvidence("not_attempted", gap)
        # SQLite's own expressions as opaque functions: a proof for every function they
        # might compute holds for the one SQLite computes (sqlequiv.execute.opaque).
        cand, ref = opaque
    method = pair.layer.prove(cand, ref, schema, pair.options, deadline=pair.deadline)
    pair.note_stop("symbolic")
    why = getattr(pair.layer, "last_proof", None) or ProofEvidence(
        "not_found", "the symbolic layer found no proof (it did not say why)"
    )
    return method, why


def _sqlite_opaque(pair: Pair) -> tuple[GuardedQuery, GuardedQuery] | None:
    """Both queries of a SQLite pair with their SQLite-only expressions made opaque
    calls, when that leaves both portable; else None."""
    if pair.engine_name != "sqlite":
        return None
    rewritten = []
    for query in (pair.candidate, pair.reference):
        tree = opaque_sqlite(query.qualified, pair.schema)
        if tree is None:
            if not portable(query.qualified, pair.schema):
                return None
            tree = query.qualified
        rewritten.append(dataclasses.replace(query, qualified=tree))
    return rewritten[0], rewritten[1]


def proved(method: str, pair: Pair) -> Verdict:
    """``equivalent`` by ``method``, once both queries have run."""
    try:
        pair.results_on_empty()
    except QueryFailed as exc:
        return execution_error(exc, pair)
    return pair.verdict("equivalent", method=method)


def _sorted(tree: exp.Expression) -> bool:
    """Whether ``tree`` has a top-level ORDER BY (around parentheses too)."""
    while isinstance(tree, exp.Subquery) and tree.args.get("order") is None:
        tree = tree.this
    return tree.args.get("order") is not None


def _unordered(tree: exp.Expression) -> exp.Expression:
    """``tree`` without its top-level ORDER BY when no LIMIT or OFFSET reads the order.

    For a candidate whose reference does not sort, the order of the rows is not
    compared, and a sort that picks no rows is no part of what the query returns (the
    symbolic prover ignores it likewise). Where the reference sorts, the candidate keeps
    its ORDER BY even when the order is not compared: rules such as
    :mod:`~sqlequiv.normalize.top_rows_limit` read it.

    Example:
        >>> import sqlglot
        >>> _unordered(sqlglot.parse_one("SELECT a FROM t ORDER BY a")).sql()
        'SELECT a FROM t'
        >>> _unordered(sqlglot.parse_one("SELECT a FROM t ORDER BY a LIMIT 1")).sql()
        'SELECT a FROM t ORDER BY a LIMIT 1'
        >>> union = "(SELECT a FROM t UNION SELECT b FROM u) ORDER BY 1"
        >>> _unordered(sqlglot.parse_one(union)).sql()
        'SELECT a FROM t UNION SELECT b FROM u'
    """
    if tree.args.get("order") is None or tree.args.get("limit") or tree.args.get("offset"):
        return tree
    if tree.args.get("fetch"):
        return tree
    copy = tree.copy()
    copy.set("order", None)
    # ``(q) ORDER BY k`` is a parenthesised query: without the sort, it is ``q``.
    while isinstance(copy, exp.Subquery) and truthy_args(copy) == {"this"}:
        copy = copy.this
    return copy


def _prepared(query: GuardedQuery) -> exp.Expression:
    """``query``'s tree with what its engine's own rules add to the canonical form (once
    per query: each rewrite variant starts from it)."""
    # SQLite reads a decimal literal as a REAL (its sums are not exact) and a declared
    # type as an affinity (a cast to it converts): neither fold holds there.
    prepare = _sqlite_folds if query.engine == "sqlite" else _typed_engine_folds
    return prepare(query.qualified)


def _canonical(
    query: GuardedQuery, tree: exp.Expression, pair: Pair, extended: bool
) -> str | None:
    try:
        ignore_order = pair.options.ignore_column_order
        return canonical_sql(tree, pair.schema, ignore_column_order=ignore_order,
                             extended=extended)  # fmt: skip
    except TooLarge as err:  # past the normalizer's size budget: no proof from it
        pair.budget_stops.setdefault("normalize", f"{query.side}: {err}")
        return None
    except Exception:  # a rewrite that cannot handle a shape just leaves the pair unproved
        return None


def _typed_engine_folds(tree: exp.Expression) -> exp.Expression:
    """``tree`` with what holds for an engine whose types are the declared ones (every one
    but SQLite): arithmetic on decimal literals folded where it is compared with a number
    (:func:`~sqlequiv.normalize.fold_integer_literals.fold_decimal_comparands`: decimal
    literals are exact there), a column's cast to its own declared type dropped and a
    string literal compared with a DATE cast to it
    (:mod:`~sqlequiv.normalize.identity_casts`), a CASE with a constant first condition its
    value (:func:`~sqlequiv.normalize.constant_case_branches.constant_case_values`: no
    affinity to lose). ``tree`` itself where nothing changes
    (its canonical form is then the one the prover asks for too, computed once)."""
    folds = any(_decimal_operand(node) for node in tree.find_all(exp.Add, exp.Sub, exp.Mul))
    casts = any(is_identity_cast(cast) for cast in tree.find_all(exp.Cast))
    dates = any(is_compared_date(literal) for literal in tree.find_all(exp.Literal))
    if not (folds or casts or dates or has_constant_branch(tree)):
        return tree
    folded = explicit_date_literals(identity_casts(fold_decimal_comparands(tree.copy())))
    return constant_case_values(folded)


def _decimal_operand(node: exp.Expr) -> bool:
    return any(
        isinstance(side, exp.Literal) and not side.is_string and "." in side.name
        for side in (node.this, node.expression)
    )


def _sqlite_folds(tree: exp.Expression) -> exp.Expression:
    """``tree`` with what holds for SQLite: :func:`_sqlite_like_patterns`, and its REAL
    arithmetic written one way (:mod:`~sqlequiv.normalize.sqlite_reals`)."""
    tree = _sqlite_like_patterns(tree)
    if not sqlite_reals_change(tree):
        return tree
    return sqlite_reals(tree.copy())


def _sqlite_like_patterns(tree: exp.Expression) -> exp.Expression:
    """``tree`` with constant LIKE patterns in lower case: SQLite's LIKE ignores the case of
    ASCII letters (and PRAGMA case_sensitive_like is refused), so ``LIKE 'A%'`` and
    ``LIKE 'a%'`` are the same test there. Only for the canonical form; the query runs as
    written. ``tree`` itself where no pattern changes: its canonical form is then the one the
    prover asks for too, computed once."""

    def lowered(like: exp.Like) -> str | None:
        pattern = like.expression
        if isinstance(like.parent, exp.Escape) or not (
            isinstance(pattern, exp.Literal) and pattern.is_string
        ):
            return None
        text = "".join(ch.lower() if ch.isascii() else ch for ch in pattern.name)
        return None if text == pattern.name else text

    if not any(lowered(like) is not None for like in tree.find_all(exp.Like)):
        return tree
    tree = tree.copy()
    for like in tree.find_all(exp.Like):
        text = lowered(like)
        if text is not None:
            like.expression.replace(exp.Literal.string(text))
    return tree
