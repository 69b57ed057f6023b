"""Many databases per statement: the batched probe answers as the one-at-a-time probe does.

The search runs each query once over a batch of staged databases on DuckDB
(``execute/duckdb_batch.py``). Every answer it gives must be the answer of running the
database alone: the same differs / set-aside outcome, the same result rows (as bags; in
order where the reference sorts). These tests draw real databases for corpus pairs and
compare the two paths, and pin the tie analysis a LIMIT needs.
"""

from __future__ import annotations

from collections import Counter

import pytest

from sqlequiv.corpus import CorpusCase, load_corpus
from sqlequiv.database import Database
from sqlequiv.execute import DuckDBExecutor
from sqlequiv.execute.duckdb_batch import batch_query
from sqlequiv.guard import guard_query
from sqlequiv.options import Options
from sqlequiv.results import ResultSet
from sqlequiv.schema import load_schema
from sqlequiv.search.domains import build_domains
from sqlequiv.search.generate import RandomGenerator
from sqlequiv.search.harvest import harvest
from sqlequiv.search.probe import Prober
from sqlequiv.search.ties import Cut, outcomes

CASES = [
    c
    for c in load_corpus()
    if c.dialect == "duckdb" and c.expect in ("equivalent", "not_equivalent")
][::4]


def _bag(rows: tuple[tuple[object, ...], ...]) -> Counter[str]:
    return Counter(map(repr, rows))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_batch_answers_as_each_database_alone(case: CorpusCase) -> None:
    schema = load_schema(case.schema_ddl, case.dialect)
    cand = guard_query(case.candidate, schema, dialect=case.dialect, side="candidate")
    ref = guard_query(case.reference, schema, dialect=case.dialect, side="reference")
    executor = DuckDBExecutor(timeout=2.0)
    executor.prepare(schema)
    prober = Prober(executor, schema, cand, ref, Options())
    domains = build_domains(schema, harvest([cand.qualified, ref.qualified]), 4)
    generator = RandomGenerator(schema, domains, seed=1)
    dbs = [generator.draw(3) for _ in range(12)] + [generator.draw_shaped() for _ in range(12)]
    batched = prober.probe_many(dbs)
    for db, together in zip(dbs, batched, strict=True):
        alone = prober.probe(db)
        # Whether the results differ does not depend on a tie-break (every one is tried);
        # whether two tied rows happened to come out alike does.
        assert together.differs == alone.differs, db
        if "nondeterministic" not in (together.skipped, alone.skipped):
            assert together.skipped == alone.skipped, db
        if prober._cuts["candidate"] or prober._cuts["reference"]:
            continue  # which tied rows a LIMIT keeps is the engine's choice
        for a, b in ((together.candidate, alone.candidate), (together.reference, alone.reference)):
            if a is not None and b is not None:
                assert _bag(a.rows) == _bag(b.rows), db


def test_the_batch_statement_keeps_each_database_apart() -> None:
    schema = load_schema("CREATE TABLE t (a INT, b INT)")
    executor = DuckDBExecutor(timeout=2.0)
    executor.prepare(schema)
    handles = executor.stage(
        [Database({"t": ((1, 1), (2, 1))}), Database({}), Database({"t": ((5, 2),)})]
    )
    sql = "SELECT COUNT(*), SUM(t.a) FROM t AS t"
    results = executor.run_batch(sql, handles)
    assert [results[h].rows for h in handles] == [((2, 3),), ((0, None),), ((1, 5),)]
    ordered = executor.run_batch("SELECT t.a FROM t AS t ORDER BY t.a DESC LIMIT 1", handles)
    assert [ordered[h].rows for h in handles] == [((2,),), (), ((5,),)]


@pytest.mark.parametrize("rows", [3, 4, 40], ids=["as_literals", "a_nul_as_lists", "as_lists"])
def test_staged_values_come_back_as_they_went_in(rows: int) -> None:
    # A few rows are staged as literals, more as lists: either way every text (quotes,
    # a statement's worth of SQL, backslashes, a NUL) is a value, never SQL.
    schema = load_schema("CREATE TABLE t (s VARCHAR, d DOUBLE, n DECIMAL(5, 2), b BOOLEAN)")
    texts = ["it's", "'); DROP TABLE t; --", "a\\b", "é\u2028\x00x", "", None]
    values = [
        (texts[i % len(texts)], [-0.0, 1e300, 0.1, None][i % 4], [None, 1.25][i % 2], i % 3 == 0)
        for i in range(rows)
    ]
    executor = DuckDBExecutor(timeout=2.0)
    executor.prepare(schema)
    handle = executor.stage([Database({"t": tuple(values)})])[0]
    executor.activate(handle)
    back = executor.run("SELECT s, d, CAST(n AS DOUBLE), b FROM t").rows
    expected = [(s, d, None if n is None else float(n), b) for s, d, n, b in values]
    assert _bag(back) == _bag(tuple(expected))
    negative_zero = [r[1] for r in back if r[1] == 0]
    assert all(str(v) == "-0.0" for v in negative_zero)  # the sign survives either way


def test_a_query_the_rewrite_cannot_express_is_declined() -> None:
    tables = {"t": ("data_t", ["a"])}
    assert batch_query("WITH t AS (SELECT 1 AS a) SELECT a FROM t", tables, "fid") is None
    assert batch_query("SELECT * FROM t", tables, "fid") is None  # a star left unexpanded
    assert batch_query("SELECT t.a FROM t AS t", tables, "fid") is not None


def test_a_tie_at_the_cut_lists_every_outcome() -> None:
    full = ResultSet(("name", "k"), (("x", 3), ("y", 3), ("z", 1)))
    cut = Cut("", limit=1, offset=0, keys=1)
    got = outcomes(ResultSet(("name",), (("x",),)), full, cut)
    assert got is not None and sorted(o.rows for o in got) == [(("x",),), (("y",),)]
    untied = ResultSet(("name", "k"), (("x", 3), ("y", 2)))
    assert outcomes(ResultSet(("name",), (("x",),)), untied, cut) == [
        ResultSet(("name",), (("x",),))
    ]


def test_a_difference_no_tie_break_explains_counts() -> None:
    ddl = """
    CREATE TABLE country (code INT PRIMARY KEY, name TEXT);
    CREATE TABLE city (id INT PRIMARY KEY, code INT REFERENCES country (code));
    """
    schema = load_schema(ddl)
    by_name = "SELECT co.name FROM country co JOIN city ci ON ci.code = co.code GROUP BY co.name ORDER BY COUNT(*) DESC LIMIT 1"  # noqa: E501
    by_code = "SELECT co.name FROM country co JOIN city ci ON ci.code = co.code GROUP BY co.code, co.name ORDER BY COUNT(*) DESC LIMIT 1"  # noqa: E501
    cand = guard_query(by_name, schema, side="candidate")
    ref = guard_query(by_code, schema, side="reference")
    executor = DuckDBExecutor(timeout=2.0)
    executor.prepare(schema)
    prober = Prober(executor, schema, cand, ref, Options())
    # Two countries 'x' with two cities each, 'y' with three: 'x' by name, 'y' by code.
    split = Database(
        {
            "country": ((1, "x"), (2, "x"), (3, "y")),
            "city": ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 3)),
        }
    )
    # Two countries with one city each: by code either may come first, and 'x' is one.
    tied = Database({"country": ((1, "x"), (2, "y")), "city": ((1, 1), (2, 2))})
    for probe in (prober.probe(split), prober.probe_many([split, tied])[0]):
        assert probe.differs and probe.skipped is None
    for probe in (prober.probe(tied), prober.probe_many([split, tied])[1]):
        assert not probe.differs
