"""Bounded verification of whole queries: the VeriEQL approach, done soundly.

Both queries are encoded over the same k symbolic rows per table (with every
declared constraint, see :mod:`sqlequiv.symbolic.bounded.tables`), and z3 is asked
whether their results can differ as bags. SAT gives a concrete database (the
pipeline re-executes it before reporting anything); UNSAT at k means no
database with at most k rows per table separates the queries.

What "differ" means, so that UNSAT is a claim the pipeline can trust:

* Results are compared positionally, cell by cell with ``IS NOT DISTINCT
  FROM``; values of different type families (text vs number, DATE vs
  TIMESTAMP, BOOLEAN vs number) are equal only when both are NULL, exactly
  as the result comparison treats them. Positional equality implies the
  pipeline's equality (which also ignores column order and allows a float
  tolerance), so UNSAT is sound; a SAT answer that only differs in column
  order or within the tolerance is rejected when the pipeline re-executes it.
* Queries with a different number of columns always differ (the comparison
  says so even on empty results): the answer is immediate, on the empty
  database.
* When the reference has a top-level ORDER BY whose leading keys are output
  columns, row order counts. UNSAT is then only trusted when the candidate
  sorts by the same leading output columns in the same directions, which
  makes equal bags come out in the same key order.
* Databases on which a query fails at run time (overflow, a scalar subquery
  returning two rows) or on which the end of a top-level LIMIT cuts through
  tied rows that differ are outside the claim, as they are outside the
  pipeline's comparison. Every other choice DuckDB may make (rows tied at an
  OFFSET or at a LIMIT inside a subquery) is left open to the solver, so the
  claim holds whichever DuckDB makes. Models are steered away from runtime
  errors and towards DuckDB's usual choices when possible.
* AVG is encoded soundly through an abstraction refined against DuckDB's
  arithmetic (see :mod:`sqlequiv.symbolic.bounded.averages`).
* The term layer's domains apply: text values are printable ASCII, dates and
  timestamps lie in years 1..9999 (see :mod:`sqlequiv.symbolic.terms.domain`).
* SUM and AVG of floating-point values depend on the order DuckDB adds them
  in; a pair that uses them never gets ``same`` (``unsupported`` instead,
  though a SAT answer is still reported as ``differ``).

Row bounds: table ``t`` gets ``max(b, row_bounds[t])`` rows at bound ``b``;
symmetry breaking makes every check cover all smaller tables too. A pair
whose difference needs a group of 9 rows is found at bound 1 when that
table's row bound is 9 (:func:`suggest_row_bounds` picks such bounds from the
aggregate thresholds and LIMITs of the queries).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import z3
from sqlglot import exp

from sqlequiv.compare.rows import order_keys_of
from sqlequiv.database import Database
from sqlequiv.database.constraints import python_violations
from sqlequiv.deadline import NO_DEADLINE, Deadline
from sqlequiv.guard import GuardedQuery
from sqlequiv.schema.model import Schema
from sqlequiv.symbolic.bounded.averages import Averages
from sqlequiv.symbolic.bounded.encode import MAX_TERMS, BudgetExceeded, Encoder, SizeBudget
from sqlequiv.symbolic.bounded.relations import (
    Relation,
    Row,
    bags_differ,
    bags_differ_pairwise,
    same_value,
)
from sqlequiv.symbolic.bounded.requalify import requalify
from sqlequiv.symbolic.bounded.tables import SymbolicDatabase, build_database
from sqlequiv.symbolic.effort import Units, rlimit_for
from sqlequiv.symbolic.terms import SymValue, Unsupported
from sqlequiv.symbolic.terms.formulas import FALSE, conj, disj, equal, neg

__all__ = ["BoundedResult", "bounded_check", "suggest_row_bounds"]

Status = Literal["differ", "same", "unsupported", "timeout"]

#: z3's resource limit for one call of bounded verification (see
#: :mod:`~sqlequiv.symbolic.effort`; a few seconds of work at most).
BOUNDED_RLIMIT = 6_000_000

#: z3's resource units for all the calls of one bounded run together: with
#: :data:`BOUNDED_RLIMIT` per call and the term budget (projected before each bound),
#: work, not the wall clock, ends a run (the clock is the safety net).
BOUNDED_TOTAL_RLIMIT = 2 * BOUNDED_RLIMIT

#: Rounds of AVG refinement (see :mod:`sqlequiv.symbolic.bounded.averages`) per solve.
MAX_REFINEMENTS = 8

#: The largest per-table row bound :func:`suggest_row_bounds` proposes.
MAX_SUGGESTED_ROWS = 12

#: The most tables an encoding takes on (those read and their foreign-key parents):
#: each gets k symbolic rows with every constraint, before any solving. The peer
#: benchmarks' schemas have at most 7 tables; 500 chained ones took 2 s to build.
MAX_TABLES = 32

_NUMERIC = frozenset({"int", "decimal", "float"})


@dataclass(frozen=True)
class BoundedResult:
    """The outcome of :func:`bounded_check`.

    Attributes:
        status: ``differ`` (``database`` separates the queries according to
            the encoding; still to be re-executed), ``same`` (no database with
            at most ``bound`` rows per table -- more where ``sizes`` says so --
            separates them), ``unsupported`` (a construct outside the exact
            fragment, or an answer that cannot be trusted; ``reason`` says
            which), ``timeout`` (a budget ran out -- the wall clock, or the
            term budget counted before building: ``reason`` says which;
            ``bound`` is the largest bound proven ``same`` before that, 0 if none).
        bound: See ``status``; for ``differ`` the bound of the check that found
            the model (0 when the column counts differ).
        database: For ``differ``: the model, satisfying every declared constraint.
        reason: For ``unsupported`` and ``timeout``: what.
        seconds: Wall-clock time spent.
        sizes: Rows per table of the last completed check (the claim's scope).
    """

    status: Status
    bound: int
    database: Database | None
    reason: str | None
    seconds: float
    sizes: Mapping[str, int] = field(default_factory=dict)


def bounded_check(
    candidate: GuardedQuery,
    reference: GuardedQuery,
    schema: Schema,
    *,
    max_bound: int = 3,
    time_budget: float = 2.0,
    row_bounds: Mapping[str, int] | None = None,
    check_order: bool = True,
    ignore_column_order: bool = True,
    max_tables: int = MAX_TABLES,
    max_terms: int | None = MAX_TERMS,
    deadline: Deadline = NO_DEADLINE,
) -> BoundedResult:
    """Look for a database with at most ``max_bound`` rows per table that separates the queries.

    Bounds 1, 2, ..., ``max_bound`` are checked in turn (each check covers
    every smaller database too), each solver call limited by what is left of
    ``time_budget`` seconds. ``row_bounds`` raises the number of rows of
    particular tables (see the module docstring); ``check_order`` and
    ``ignore_column_order`` mean what the pipeline's options of those names
    do (with ``ignore_column_order``, candidate columns are matched to the
    reference's by the column they copy or by output name, when that is clear).
    Queries sqlglot could not fully qualify (NATURAL/USING joins) are bound
    again first (:func:`~sqlequiv.symbolic.bounded.requalify.requalify`). A pair that
    needs more than ``max_tables`` tables (read, or parents of those) is
    ``unsupported``: a size budget, the same on every machine. So is
    ``max_terms`` (see :data:`~sqlequiv.symbolic.bounded.encode.MAX_TERMS`): a bound
    whose encoding would count more terms is not built, and the result is
    ``timeout`` with the bounds proven before it and the budget as its reason.
    ``deadline`` (the check's) cuts ``time_budget`` short when it comes first;
    both are wall-clock safety nets, checked inside the encoding loops too.

    Returns ``differ`` with the first model found, ``same`` when every bound
    is UNSAT, ``timeout`` when the budget runs out first (with the largest
    bound proven), ``unsupported`` when the pair is outside the fragment.

    Example:
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INT PRIMARY KEY, b INT)")
        >>> q = lambda sql: guard_query(sql, s)
        >>> r = bounded_check(q("SELECT DISTINCT a, b FROM t"), q("SELECT a, b FROM t"), s)
        >>> r.status, r.bound
        ('same', 3)
        >>> r = bounded_check(q("SELECT DISTINCT b FROM t"), q("SELECT b FROM t"), s)
        >>> r.status, r.bound, len(r.database.rows("t"))
        ('differ', 2, 2)
    """
    run = _Run(
        candidate, reference, schema, time_budget, row_bounds or {}, check_order,
        ignore_column_order, max_tables, max_terms, deadline,
    )  # fmt: skip
    return run.execute(max_bound)


@dataclass
class _Run:
    candidate: GuardedQuery
    reference: GuardedQuery
    schema: Schema
    budget: float
    row_bounds: Mapping[str, int]
    check_order: bool
    ignore_column_order: bool
    max_tables: int
    max_terms: int | None
    #: The check's deadline: it stops the run when it comes before ``budget`` does.
    check_deadline: Deadline
    start: float = field(default_factory=time.monotonic)
    alignment: tuple[int, ...] | None = None
    trees: tuple[exp.Expr, exp.Expr] | None = None
    #: Whether z3's resource limit, not the clock, stopped a call.
    out_of_work: bool = False
    #: z3 units the run may still spend (:data:`BOUNDED_TOTAL_RLIMIT`).
    units: Units = field(default_factory=lambda: Units(BOUNDED_TOTAL_RLIMIT))
    #: Whether the run's total, not the per-call limit, stopped a call.
    out_of_total: bool = False
    #: (rows, terms) of each bound's encoding so far.
    growth: list[tuple[int, int]] = field(default_factory=list)

    @property
    def deadline(self) -> float:
        return min(self.start + self.budget, self.check_deadline.at)

    def result(
        self,
        status: Status,
        bound: int,
        *,
        database: Database | None = None,
        reason: str | None = None,
        sizes: Mapping[str, int] | None = None,
    ) -> BoundedResult:
        seconds = round(time.monotonic() - self.start, 4)
        return BoundedResult(status, bound, database, reason, seconds, dict(sizes or {}))

    def execute(self, max_bound: int) -> BoundedResult:
        try:
            cand = requalify(self.candidate, self.schema)
            ref = requalify(self.reference, self.schema)
        except Unsupported as err:
            return self.result("unsupported", 0, reason=str(err))
        self.trees = (cand, ref)
        widths = _width(cand), _width(ref)
        tables = self.schema.closure(_tables_read(cand) | _tables_read(ref))
        if None not in widths and widths[0] != widths[1]:
            empty = Database({t.name: () for t in self.schema})
            return self.result("differ", 0, database=empty)
        if len(tables.tables) > self.max_tables:
            reason = f"too large: {len(tables.tables)} tables to encode (limit {self.max_tables})"
            return self.result("unsupported", 0, reason=reason)
        self.alignment = _alignment(cand, ref) if self.ignore_column_order else None
        caveats = []
        if self.check_order and order_keys_of(ref):
            # The comparison then also checks the order, under a column matching of its
            # own choosing: keep the positions, and require the same sort keys.
            self.alignment = None
        if self.check_order and not _order_follows(cand, ref):
            caveats.append("row order: the candidate does not sort by the reference's keys")
        proven = 0
        sizes: dict[str, int] = {}
        for bound in range(1, max_bound + 1):
            sizes_b = {t.name: max(bound, self.row_bounds.get(t.name, 0)) for t in tables}
            if proven and sizes_b == sizes:
                proven = bound  # the previous check covered these sizes already
                continue
            projected = _projected_terms(self.growth, sum(sizes_b.values()))
            if self.max_terms is not None and projected > self.max_terms:
                reason = (
                    f"at bound {bound}: term budget: the encoding would take about "
                    f"{projected:,} terms (limit {self.max_terms:,}), by its growth so far"
                )
                return self.timeout(proven, caveats, sizes, reason)
            try:
                outcome = self.check(sizes_b)
            except Unsupported as err:
                return self.result("unsupported", 0, reason=str(err) or "unsupported")
            except z3.Z3Exception as err:
                # A term the encoding built wrongly: no claim, but no crash of the pipeline.
                return self.result("unsupported", 0, reason=f"z3 refused the encoding: {err}")
            except SizeBudget as err:
                return self.timeout(proven, caveats, sizes, f"at bound {bound}: {err}")
            except BudgetExceeded:
                return self.timeout(proven, caveats, sizes)
            if isinstance(outcome, Database):
                violations = python_violations(outcome, self.schema)
                if violations:
                    reason = "the model breaks a constraint the encoding could not express: "
                    return self.result("unsupported", 0, reason=reason + violations[0])
                return self.result("differ", bound, database=outcome, sizes=sizes_b)
            if outcome == "unknown":
                return self.timeout(proven, caveats, sizes)
            if outcome == "undecided":
                reason = "AVG: neither its refinement nor its approximation gave a model"
                return self.result("unsupported", 0, reason=reason)
            caveats.extend(c for c in outcome if c not in caveats)
            proven, sizes = bound, sizes_b
        if caveats:
            return self.result("unsupported", 0, reason="; ".join(caveats), sizes=sizes)
        return self.result("same", proven, sizes=sizes)

    def timeout(
        self,
        proven: int,
        caveats: list[str],
        sizes: Mapping[str, int],
        reason: str | None = None,
    ) -> BoundedResult:
        if reason is None and self.out_of_total:
            reason = f"resource limit: {BOUNDED_TOTAL_RLIMIT:,} z3 units in all"
        if reason is None and self.out_of_work:
            reason = f"resource limit: {BOUNDED_RLIMIT:,} z3 units per call"
        if reason is None:
            reason = f"time budget of {self.budget:g} s"
            if self.check_deadline.at < self.start + self.budget:
                reason = "check deadline"
        if caveats:
            return self.result("timeout", 0, reason=reason + "; " + "; ".join(caveats))
        return self.result("timeout", proven, reason=reason, sizes=sizes)

    def remaining_ms(self) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise BudgetExceeded
        return max(1, int(left * 1000))

    def check(
        self, sizes: Mapping[str, int]
    ) -> Database | list[str] | Literal["unknown", "undecided"]:
        """One bound: a separating database, the caveats of an UNSAT answer, or no answer."""
        exact = self.encode(sizes, Averages("exact"))
        self.growth.append((sum(sizes.values()), exact.encoder.terms))
        found = self.search(exact)
        if found == z3.unsat:
            # (A CHECK the encoding dropped only widens the databases checked: UNSAT holds.)
            return list(dict.fromkeys(exact.encoder.inexact))
        if isinstance(found, z3.ModelRef):
            return self.database(exact, found)
        if not exact.encoder.averages.applications:
            return "unknown"
        # AVG's refinement did not settle: look for a model with AVG approximated instead.
        approximate = self.encode(sizes, Averages("approximate"))
        found = self.search(approximate)
        if isinstance(found, z3.ModelRef):
            return self.database(approximate, found)
        return "unknown" if found == z3.unknown else "undecided"

    def encode(self, sizes: Mapping[str, int], averages: Averages) -> _Encoded:
        """Both queries over one symbolic database, and the solver asking whether they differ."""
        sdb = build_database(self.schema, sizes)
        encoder = Encoder(sdb, deadline=self.deadline, averages=averages, max_terms=self.max_terms)
        assert self.trees is not None, "execute() binds the trees first"
        cand = encoder.top(self.trees[0])
        ref = encoder.top(self.trees[1])
        if cand.width != ref.width:
            raise Unsupported("the queries' column counts could not be compared")
        if self.alignment is not None:
            cand = _permute(cand, self.alignment)
        witness = _witness(cand, ref)
        rows = len(cand.rows) + len(ref.rows)
        compared = rows * (rows if witness is None else 2) * ref.width
        encoder.charge(compared, f"comparing results of {rows} rows")
        if witness is None:
            differ = bags_differ_pairwise(cand, ref, cell_equal)
        else:
            differ = bags_differ(cand, ref, cell_equal, witness)
        solver = z3.Solver()
        formulas = [*sdb.constraints, *encoder.constraints, differ]
        solver.add(*sdb.constraints, *encoder.constraints)
        solver.add(*(neg(c) for c in encoder.nondeterministic))
        solver.add(differ)
        return _Encoded(sdb, encoder, solver, rlimit_for(formulas, BOUNDED_RLIMIT))

    def search(self, encoded: _Encoded) -> z3.ModelRef | z3.CheckSatResult:
        """A model whose AVG values are DuckDB's (refining the abstraction), unsat, or unknown."""
        for _ in range(MAX_REFINEMENTS + 1):
            # Work, not time, bounds each call and the run (the wall clock is the
            # safety net): a call gets its limit, or what is left of the run's.
            capped = self.units.left < encoded.rlimit
            encoded.solver.set("timeout", self.remaining_ms())
            verdict = self.units.check(encoded.solver, encoded.rlimit)
            if verdict is None:
                self.out_of_work = self.out_of_total = True
                return z3.unknown
            cancelled = verdict == z3.unknown and "cancel" in encoded.solver.reason_unknown()
            if cancelled and time.monotonic() < self.deadline - 0.01:
                self.out_of_work = True  # cancelled with time left: the resource limit
                self.out_of_total = capped
            if verdict != z3.sat:
                return verdict
            model = encoded.solver.model()
            lemmas = encoded.encoder.averages.refute(model)
            if not lemmas:
                return model
            # True facts about DuckDB's division: adding them keeps an UNSAT answer sound.
            encoded.solver.add(*lemmas)
        return z3.unknown

    def database(self, encoded: _Encoded, model: z3.ModelRef) -> Database:
        """The model's database, preferring one on which neither query fails at run time."""
        preferred = conj(encoded.encoder.preferences)
        if not z3.is_true(model.eval(preferred, model_completion=True)):
            encoded.solver.push()
            encoded.solver.add(preferred)
            better = self.search(encoded)
            encoded.solver.pop()
            if isinstance(better, z3.ModelRef):
                model = better
        return encoded.sdb.to_database(model)


@dataclass
class _Encoded:
    sdb: SymbolicDatabase
    encoder: Encoder
    solver: z3.Solver
    #: The resource limit of one call on these formulas.
    rlimit: int


def _projected_terms(growth: Sequence[tuple[int, int]], rows: int) -> int:
    """The terms an encoding of ``rows`` rows in all is likely to take, from the
    ``(rows, terms)`` of the bounds before it: the power law through the last two
    (quadratic when only one is known), 0 when none is. Deterministic, unlike the time
    an encoding takes before its own count stops it.

    Example:
        >>> _projected_terms([(3, 100), (6, 1600)], 9)   # terms grow as rows**4
        8100
        >>> _projected_terms([(2, 50)], 4), _projected_terms([], 4)
        (200, 0)
    """
    if not growth:
        return 0
    last_rows, last_terms = growth[-1]
    exponent = 2.0
    if len(growth) >= 2:
        prev_rows, prev_terms = growth[-2]
        if last_rows > prev_rows and prev_terms > 0:
            ratio = max(1.0, last_terms / prev_terms)
            exponent = math.log(ratio) / math.log(last_rows / prev_rows)
    if last_rows <= 0 or rows <= last_rows:
        return last_terms
    growth_factor: float = (rows / last_rows) ** exponent
    return round(last_terms * growth_factor)


def cell_equal(a: SymValue, b: SymValue) -> z3.BoolRef:
    """Whether two result cells are equal, as the result comparison decides it (or more strictly).

    Numbers compare by value across INTEGER, DECIMAL and DOUBLE; other values
    only within their own kind. NULL equals NULL whatever the types.

    Two doubles compare as terms (SMT-LIB equality: one NaN, -0.0 distinct
    from 0.0). That is finer than the comparison's (which equates -0.0 and
    0.0), so an UNSAT answer still holds; and, unlike IEEE equality, z3 needs
    no bit-level reasoning to relate two averages computed alike.
    """
    if a.kind == b.kind == "float" and a.bits == b.bits:
        eq = equal(a.value, b.value)
        return disj([conj([a.null, b.null]), conj([neg(a.null), neg(b.null), eq])])
    if (
        a.kind == b.kind
        or (a.kind in _NUMERIC and b.kind in _NUMERIC)
        or "other" in (a.kind, b.kind)
    ):
        try:
            return same_value(a, b)
        except Unsupported:
            pass
    return conj([a.null, b.null])


def _witness(cand: Relation, ref: Relation) -> list[SymValue] | None:
    """Fresh values that can stand for any result row of either side, or None.

    Possible when every column holds values of one type on both sides (up to
    integer width); otherwise the quadratic comparison is used.
    """
    witness = []
    for k in range(ref.width):
        cells = [row.values[k] for rel in (cand, ref) for row in rel.rows]
        typed = [v for v in cells if v.kind != "other"]
        shapes = {(v.kind, v.scale, v.bits if v.kind == "float" else 0) for v in typed}
        if len(shapes) > 1:
            return None
        null = z3.Bool(f"witness#{k}!null")
        if not typed:
            witness.append(SymValue("other", FALSE, null))
            continue
        template = typed[0]
        value = z3.Const(f"witness#{k}", template.value.sort())
        witness.append(replace(template, value=value, null=null))
    return witness


def suggest_row_bounds(
    candidate: GuardedQuery, reference: GuardedQuery, schema: Schema
) -> dict[str, int]:
    """Per-table row bounds that let aggregate thresholds and LIMITs be crossed.

    ``HAVING COUNT(DISTINCT c.x) > 8`` needs a group of 9 rows of ``c``'s
    table; ``COUNT(*) >= 6`` needs 6 rows in the group (given to the first
    table of its FROM); ``LIMIT n OFFSET m`` needs n + m + 1 rows. A threshold
    ``t`` asks for ``t + 1`` rows whatever the comparison (that separates
    ``= t`` from ``>= t`` too). Thresholds needing more than
    :data:`MAX_SUGGESTED_ROWS` rows are ignored (out of reach); only tables
    that need more than one row are listed.

    Example:
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (g INT, x INT)")
        >>> q = lambda n: guard_query(
        ...     f"SELECT g FROM t GROUP BY g HAVING COUNT(DISTINCT x) > {n}", s)
        >>> suggest_row_bounds(q(5), q(8), s)
        {'t': 9}
    """
    wanted: dict[str, int] = {}
    for query in (candidate.qualified, reference.qualified):
        for table, rows in _thresholds(query):
            # A threshold out of reach is not worth the larger encoding.
            if table in schema and rows <= MAX_SUGGESTED_ROWS:
                wanted[table] = max(wanted.get(table, 0), rows)
    return {t: n for t, n in sorted(wanted.items()) if n > 1}


# -- helpers ---------------------------------------------------------------------------


def _width(query: exp.Expr) -> int | None:
    """The number of output columns, when the tree says it plainly."""
    while isinstance(query, exp.Subquery):
        query = query.this
    if isinstance(query, exp.Query):
        selects = query.selects
        if any(isinstance(s, exp.Star) or isinstance(s.unalias(), exp.Star) for s in selects):
            return None
        return len(selects)
    return None


def _alignment(cand: exp.Expr, ref: exp.Expr) -> tuple[int, ...] | None:
    """The candidate column for each reference column, or None to compare by position.

    Columns are matched by what they copy (``table.column`` of a base table,
    through casts), else by output name -- when both sides have the same
    multiset of such labels in a different order; a repeated label is matched
    occurrence by occurrence. Any matching is sound (the comparison ignores
    column order); a good one saves re-executing a model that differs only in
    column order.
    """
    selects = [_first_select(cand), _first_select(ref)]
    if selects[0] is None or selects[1] is None:
        return None
    for label in (_copied_column, _output_name):
        cand_labels = [label(selects[0], p) for p in selects[0].expressions]
        ref_labels = [label(selects[1], p) for p in selects[1].expressions]
        if sorted(cand_labels) != sorted(ref_labels):
            continue
        if cand_labels == ref_labels:
            return None
        unused = list(range(len(cand_labels)))
        order = []
        for wanted in ref_labels:
            match = next(i for i in unused if cand_labels[i] == wanted)
            unused.remove(match)
            order.append(match)
        return tuple(order)
    return None


def _first_select(query: exp.Expr) -> exp.Select | None:
    """The SELECT that names a query's output columns (the leftmost of a set operation)."""
    while isinstance(query, (exp.Subquery, exp.SetOperation)):
        query = query.this
    return query if isinstance(query, exp.Select) else None


def _output_name(select: exp.Select, projection: exp.Expr) -> str:
    return projection.alias_or_name.lower()


def _copied_column(select: exp.Select, projection: exp.Expr) -> str:
    """``table.column`` when the projection copies a base table's column, else its name."""
    inner = projection.unalias()
    while isinstance(inner, exp.Cast):
        inner = inner.this
    if isinstance(inner, exp.Column) and inner.table:
        items = [select.args["from_"].this] if select.args.get("from_") else []
        items += [j.this for j in select.args.get("joins") or ()]
        for item in items:
            if isinstance(item, exp.Table) and item.alias_or_name.lower() == inner.table.lower():
                return f"{item.name.lower()}.{inner.name.lower()}"
    return "=" + _output_name(select, projection)


def _permute(rel: Relation, order: tuple[int, ...]) -> Relation:
    rows = tuple(Row(r.exists, tuple(r.values[i] for i in order)) for r in rel.rows)
    return Relation(tuple(rel.names[i] for i in order), rows)


def _tables_read(query: exp.Expr) -> set[str]:
    """Schema tables a query reads (CTE names excluded)."""
    ctes = {c.alias_or_name.lower() for c in query.find_all(exp.CTE)}
    return {
        t.name.lower() for t in query.find_all(exp.Table) if t.name and t.name.lower() not in ctes
    }


def _order_follows(cand: exp.Expr, ref: exp.Expr) -> bool:
    """Whether equal bags are also equal sequences under the reference's checked sort keys."""
    ref_keys = order_keys_of(ref)
    if not ref_keys:
        return True
    cand_keys = order_keys_of(cand) or []
    return cand_keys[: len(ref_keys)] == ref_keys


def _thresholds(query: exp.Expr) -> Iterator[tuple[str, int]]:
    """(table, rows) pairs from COUNT comparisons with constants and from LIMITs."""
    for node in query.find_all(exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE):
        for agg, const in ((node.this, node.expression), (node.expression, node.this)):
            count = agg.this if isinstance(agg, exp.Filter) else agg
            if isinstance(count, exp.Count) and isinstance(const, exp.Literal) and const.is_int:
                table = _owner(count)
                if table is not None:
                    yield table, int(const.name) + 1
    for select in query.find_all(exp.Select):
        limit = select.args.get("limit")
        amount = None
        if isinstance(limit, exp.Limit):
            amount = limit.args.get("expression")
        elif isinstance(limit, exp.Fetch):
            amount = limit.args.get("count")
        if isinstance(amount, exp.Literal) and amount.is_int:
            offset = select.args.get("offset")
            skip = offset.args.get("expression") if isinstance(offset, exp.Offset) else None
            extra = int(skip.name) if isinstance(skip, exp.Literal) and skip.is_int else 0
            table = _first_table(select)
            if table is not None:
                yield table, int(amount.name) + extra + 1


def _owner(count: exp.Count) -> str | None:
    """The base table whose rows a COUNT counts: its argument's table, or the first FROM table."""
    select = count.find_ancestor(exp.Select)
    if select is None:
        return None
    column = count.find(exp.Column)
    if column is not None and column.table:
        return _base_table(select, column.table.lower(), column.name.lower())
    return _first_table(select)


def _first_table(select: exp.Select) -> str | None:
    from_ = select.args.get("from_")
    if from_ is None:
        return None
    item = from_.this
    if isinstance(item, exp.Table):
        return _resolve_table(select, item)
    if isinstance(item, exp.Subquery) and isinstance(item.this, exp.Select):
        return _first_table(item.this)
    return None


def _base_table(select: exp.Select, alias: str, column: str) -> str | None:
    """The base table behind ``alias.column`` in ``select``'s FROM (through derived tables)."""
    items = []
    from_ = select.args.get("from_")
    if from_ is not None:
        items.append(from_.this)
    items += [j.this for j in select.args.get("joins") or ()]
    for item in items:
        if item.alias_or_name.lower() != alias:
            continue
        if isinstance(item, exp.Table):
            return _resolve_table(select, item, column)
        if isinstance(item, exp.Subquery) and isinstance(item.this, exp.Select):
            return _output_table(item.this, column)
    return None


def _resolve_table(select: exp.Select, table: exp.Table, column: str | None = None) -> str:
    """A table reference's base table, looking through a CTE of that name."""
    name = table.name.lower()
    scope: exp.Expr | None = select
    while scope is not None:
        with_ = scope.args.get("with_")
        if isinstance(with_, exp.With):
            for cte in with_.expressions:
                if cte.alias_or_name.lower() == name and isinstance(cte.this, exp.Select):
                    inner = _output_table(cte.this, column) if column else None
                    return inner or _first_table(cte.this) or name
        scope = scope.parent
    return name


def _output_table(select: exp.Select, column: str | None) -> str | None:
    """The base table of the output column ``column`` of a derived query."""
    for projection in select.expressions:
        if column is not None and projection.alias_or_name.lower() == column:
            inner = projection.unalias()
            if isinstance(inner, exp.Column) and inner.table:
                return _base_table(select, inner.table.lower(), inner.name.lower())
    return _first_table(select)
