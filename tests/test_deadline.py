"""One deadline per check: budgets that count decide, the wall clock only stops a stage.

Real DuckDB and z3 throughout. Speed is measured (``benchmarks/run.py``), not timed
here: the only clock assertions are safety margins many times the expected time.
"""

from __future__ import annotations

import time

import pytest
import z3
from sqlglot import exp

from sqlequiv import Options, check
from sqlequiv.corpus import load_corpus
from sqlequiv.deadline import Deadline
from sqlequiv.guard import GuardedQuery, guard_query
from sqlequiv.schema import Schema, load_schema
from sqlequiv.symbolic.bounded.encode import BudgetExceeded
from sqlequiv.symbolic.bounded.ordering import limit_rows
from sqlequiv.symbolic.bounded.relations import Relation, Row
from sqlequiv.symbolic.layer import Z3Layer
from sqlequiv.symbolic.terms import SymValue

JOINED = """
CREATE TABLE a (id INT PRIMARY KEY, x INT NOT NULL);
CREATE TABLE b (id INT PRIMARY KEY, a_id INT REFERENCES a (id), y INT NOT NULL);
"""
#: ORDER BY ... LIMIT over a join, and the same rows filtered (by a test y NOT NULL always
#: passes) and sorted again outside: equivalent, proved by neither the normalizer nor the
#: prover (which merges only an outer block that does not filter), so bounded verification
#: runs.
TOP = "SELECT a.x, b.y FROM a JOIN b ON b.a_id = a.id ORDER BY a.x, b.y LIMIT 2"
RESORTED = f"SELECT x, y FROM ({TOP}) AS t WHERE t.y = t.y ORDER BY x, y"
#: No fixture search: the bounded stage is reached at once.
NO_SEARCH = Options(max_fixtures=0)


def test_the_term_budget_stops_bounded_verification_and_the_verdict_says_so() -> None:
    v = check(RESORTED, TOP, JOINED, options=Options(max_fixtures=0, max_encoding_terms=10))
    assert v.verdict == "unknown"
    stops = v.evidence.budget_stops
    assert stops is not None
    assert stops["bounded"] == (
        "at bound 1: term budget: ORDER BY ... LIMIT over 3 rows x 2 keys takes the "
        "encoding to 201 terms (limit 10)"
    )
    assert v.evidence.bounded is not None
    assert (v.evidence.bounded.status, v.evidence.bounded.bound) == ("timeout", None)
    # The same stop on every run: it is a count, not a clock.
    again = check(RESORTED, TOP, JOINED, options=Options(max_fixtures=0, max_encoding_terms=10))
    assert again.evidence.budget_stops == stops


def test_within_the_default_term_budget_the_same_pair_is_checked_to_its_bound() -> None:
    v = check(RESORTED, TOP, JOINED, options=NO_SEARCH)
    assert v.verdict == "unknown"
    assert v.evidence.bounded is not None
    assert (v.evidence.bounded.status, v.evidence.bounded.bound) == ("same", 3)
    assert v.evidence.budget_stops is None


def test_a_term_budget_that_stops_a_later_bound_keeps_the_bounds_proven() -> None:
    schema = load_schema(JOINED)
    cand = guard_query(RESORTED, schema, side="candidate")
    ref = guard_query(TOP, schema, side="reference")
    layer = Z3Layer()
    outcome = layer.bounded(cand, ref, schema, Options(max_encoding_terms=1000))
    assert (outcome.status, outcome.bound) == ("timeout", 1)  # bound 1 counts 600 terms
    assert outcome.reason is not None and outcome.reason.startswith("at bound 2: term budget")
    assert layer.stopped_by == outcome.reason


def test_the_check_deadline_stops_every_stage_and_is_recorded() -> None:
    v = check(RESORTED, TOP, JOINED, options=Options(check_time_budget=0.0))
    assert v.verdict == "unknown"  # a deadline never decides a pair
    assert v.evidence.budget_stops == {"floor_search": "check deadline: 0 s"}


def test_a_check_ends_near_its_deadline_whatever_the_stage_budgets_say() -> None:
    # The stages' own caps are far away; the check's deadline of 2 s stops them.
    options = Options(
        check_time_budget=2.0, time_budget=600.0, bounded_time_budget=600.0, max_bound=8,
        max_fixtures=10**6, max_encoding_terms=10**9,
    )  # fmt: skip
    start = time.monotonic()
    v = check(RESORTED, TOP, JOINED, options=options)
    elapsed = time.monotonic() - start
    assert v.verdict == "unknown"
    assert v.evidence.budget_stops == {
        "fixture_search": "check deadline: 2 s",  # stopped while searching
        "bounded": "check deadline: 2 s",  # not started
    }
    assert v.evidence.search is not None and v.evidence.search.time_cap_hit
    assert elapsed < 30, elapsed  # a safety margin, not a speed test: it was unbounded


def test_the_check_deadline_stops_bounded_verification_midway() -> None:
    # Bounds up to 8 with no term budget: encoding and solving would run for minutes.
    options = Options(
        check_time_budget=2.0, max_fixtures=0, bounded_time_budget=600.0, max_bound=8,
        max_encoding_terms=10**9,
    )  # fmt: skip
    start = time.monotonic()
    v = check(RESORTED, TOP, JOINED, options=options)
    elapsed = time.monotonic() - start
    assert v.verdict == "unknown"
    # The deadline, or z3's resource limit per call if a bound's call spends it first:
    # either way bounded verification stops, says why, and claims nothing.
    assert v.evidence.budget_stops is not None
    assert v.evidence.budget_stops["bounded"] in (
        "check deadline",
        "resource limit: 6,000,000 z3 units per call",
    )
    assert v.evidence.bounded is not None and v.evidence.bounded.status == "timeout"
    assert elapsed < 30, elapsed


def test_the_limit_encoding_checks_the_clock_inside_its_loops() -> None:
    value = SymValue("int", z3.Int("v"), z3.BoolVal(False))
    rel = Relation(("v",), tuple(Row(z3.BoolVal(True), (value,)) for _ in range(50)))
    node = exp.select("v").from_("t").order_by("v").limit(3)
    calls = 0

    def tick() -> None:
        nonlocal calls
        calls += 1
        if calls > 5:
            raise BudgetExceeded

    with pytest.raises(BudgetExceeded):
        limit_rows(node, rel, [(value,)] * 50, tag="t", top=True, tick=tick)
    assert calls == 6  # stopped at the sixth pair of rows, not after all 2,450


# -- the prover: its answer rests on counts, the clock is only a net -------------------------


def _month_case() -> tuple[Z3Layer, GuardedQuery, GuardedQuery, Schema]:
    case = next(
        c for c in load_corpus() if c.id == "reasoning/a-month-as-a-half-open-range-vs-date-trunc"
    )
    schema = load_schema(case.schema_ddl)
    cand = guard_query(case.candidate, schema, side="candidate")
    ref = guard_query(case.reference, schema, side="reference")
    return Z3Layer(), cand, ref, schema


def test_the_month_proof_is_decided_by_counts_not_by_the_clock() -> None:
    layer, cand, ref, schema = _month_case()
    assert layer.prove(cand, ref, schema, Options()) == "symbolic"
    assert layer.stopped_by is None
    # Per call, z3 may use what is left of the proof's net: no 3 s cap per call decides.
    assert layer.solver_timeout_ms >= layer.proof_budget * 1000
    # A net a hundred times wider changes nothing: the rlimit and the check count decide.
    wide = Z3Layer(proof_budget=1000.0, solver_timeout_ms=1_000_000)
    assert wide.prove(cand, ref, schema, Options()) == "symbolic"
    assert wide.stopped_by is None


def test_the_prover_records_which_budget_stopped_it() -> None:
    layer, cand, ref, schema = _month_case()
    counted = Z3Layer(max_checks=1)
    assert counted.prove(cand, ref, schema, Options()) is None
    assert counted.stopped_by == "check budget: 1 solver calls"
    # The check's deadline is the last net: past it, no proof, and the stop is recorded.
    past = Deadline.after(0.0)
    assert layer.prove(cand, ref, schema, Options(), deadline=past) is None
    assert layer.stopped_by == "time budget"
