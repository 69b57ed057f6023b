"""The corpus as a property-test suite.

Semantics-preserving rewrites of corpus queries must never be refuted.
Semantics-changing mutations must be refuted whenever an exhaustive search
over tiny databases shows that they differ.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import duckdb
import pytest
import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlequiv import Options, check
from sqlequiv.compare.rows import compare_results
from sqlequiv.corpus import load_corpus
from sqlequiv.database import Database, insert_script
from sqlequiv.database.constraints import python_violations
from sqlequiv.guard import guard_query
from sqlequiv.results import ResultSet
from sqlequiv.schema import Schema, load_schema
from support.rewrites import CHANGING, PRESERVING

FAST = Options(max_fixtures=150, time_budget=1.0)
CASES = [c for c in load_corpus() if c.expect != "error"]


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    case=st.sampled_from(CASES),
    side=st.sampled_from(["candidate", "reference"]),
    names=st.lists(st.sampled_from(sorted(PRESERVING)), min_size=1, max_size=3),
    seed=st.integers(0, 1000),
)
def test_preserving_rewrites_are_never_refuted(case, side, names, seed) -> None:  # type: ignore[no-untyped-def]
    sql = case.candidate if side == "candidate" else case.reference
    tree = sqlglot.parse_one(sql, read=case.dialect)
    rng = random.Random(seed)
    applied = []
    for name in names:
        rewritten = PRESERVING[name](tree, rng)
        if rewritten is not None:
            tree, applied = rewritten, [*applied, name]
    rewritten_sql = tree.sql(dialect=case.dialect)
    verdict = check(rewritten_sql, sql, case.schema_ddl, case.dialect, FAST)
    assert verdict.verdict != "not_equivalent", (
        case.id,
        applied,
        rewritten_sql,
        verdict.counterexample,
    )


# -- mutations against an exhaustive oracle -----------------------------------------

MINI_DDL = """
CREATE TABLE r (k INTEGER PRIMARY KEY, a INTEGER);
CREATE TABLE s (id INTEGER, rk INTEGER REFERENCES r (k), b INTEGER);
"""
MINI_VALUES = {
    ("r", "k"): [1, 2],
    ("r", "a"): [None, 1],
    ("s", "id"): [1],
    ("s", "rk"): [None, 1, 2],
    ("s", "b"): [None, 1, 2],
}
BASES = [
    "SELECT DISTINCT r.a FROM r JOIN s ON s.rk = r.k",
    "SELECT r.k, s.b FROM r LEFT JOIN s ON s.rk = r.k AND s.b >= 2",
    "SELECT r.k, COUNT(s.b) FROM r LEFT JOIN s ON s.rk = r.k GROUP BY r.k",
    "SELECT r.k FROM r JOIN s ON s.rk = r.k WHERE s.b >= 1",
    "SELECT r.k, s.b FROM r JOIN s ON s.rk = r.k",
    "SELECT DISTINCT s.rk FROM s WHERE s.b >= 2",
    "SELECT r.a, COUNT(s.id) FROM r JOIN s ON s.rk = r.k GROUP BY r.a",
]


def _tiny_databases(schema: Schema) -> Iterator[Database]:
    """Every database with at most two rows per table over MINI_VALUES, smallest first."""
    per_table = []
    for table in schema.topological():
        rows = list(itertools.product(*(MINI_VALUES[(table.name, c)] for c in table.column_names)))
        bags = [()] + [(r,) for r in rows] + list(itertools.combinations_with_replacement(rows, 2))
        per_table.append((table.name, bags))
    names = [n for n, _ in per_table]
    for combo in sorted(
        itertools.product(*(b for _, b in per_table)), key=lambda c: sum(map(len, c))
    ):
        db = Database(dict(zip(names, combo, strict=True)))
        if not python_violations(db, schema):
            yield db


def _differs_on_tiny_database(candidate: str, reference: str, schema: Schema) -> bool:
    cand = guard_query(candidate, schema).duckdb_sql
    ref = guard_query(reference, schema, side="reference").duckdb_sql
    con = duckdb.connect()
    con.execute(schema.ddl(constraints=False))
    for db in _tiny_databases(schema):
        for table in schema:
            con.execute(f'DELETE FROM "{table.name}"')
        script = insert_script(db, schema)
        if script:
            con.execute(script)
        results = []
        for sql in (cand, ref):
            cursor = con.execute(sql)
            rows = cursor.fetchall()
            results.append(
                ResultSet(tuple(d[0] for d in cursor.description), tuple(map(tuple, rows)))
            )
        if not compare_results(results[0], results[1], Options()).equal:
            return True
    return False


MUTANTS = [
    (name, base)
    for base in BASES
    for name, mutate in CHANGING.items()
    if mutate(sqlglot.parse_one(base), random.Random(0)) is not None
]


@pytest.mark.parametrize(("name", "base"), MUTANTS, ids=[f"{n}:{b[:40]}" for n, b in MUTANTS])
def test_mutations_are_refuted_when_tiny_databases_separate_them(name: str, base: str) -> None:
    schema = load_schema(MINI_DDL)
    mutant = CHANGING[name](sqlglot.parse_one(base), random.Random(0))
    assert mutant is not None
    mutant_sql = mutant.sql()
    verdict = check(mutant_sql, base, schema)
    if _differs_on_tiny_database(mutant_sql, base, schema):
        assert verdict.verdict == "not_equivalent", (name, base, mutant_sql, verdict.evidence)
    else:
        assert verdict.verdict != "not_equivalent" or verdict.counterexample is not None
