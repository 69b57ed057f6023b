"""End-to-end behaviour of ``check``: the contract, the classic traps, soundness."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

from conftest import SHOP_DDL
from sqlequiv import Options, check, distinguishing_fixtures
from sqlequiv.database.export import counterexample_inserts
from sqlequiv.errors import InvalidOption
from sqlequiv.evidence import ProofEvidence
from sqlequiv.pipeline import REFUTING_STAGES
from sqlequiv.schema import load_schema
from sqlequiv.symbolic.layer import NO_PROOF

NOFK_DDL = SHOP_DDL.replace("REFERENCES customers (customer_id)", "")


def test_equivalent_by_normalization_does_not_search() -> None:
    v = check(
        "SELECT o.amount AS a, c.name FROM orders o, customers c "
        "WHERE c.customer_id = o.customer_id AND o.amount BETWEEN 1 AND 5",
        "SELECT cu.name, ord.amount FROM customers cu JOIN orders ord "
        "ON ord.customer_id = cu.customer_id WHERE ord.amount <= 5 AND ord.amount >= 1",
        SHOP_DDL,
    )
    assert (v.verdict, v.method) == ("equivalent", "normalized")
    assert "fixture_search" not in v.timings


def test_inner_join_vs_correlated_count_finds_zero_order_customer() -> None:
    reference = (
        "SELECT c.customer_id, c.name, (SELECT COUNT(*) FROM orders o "
        "WHERE o.customer_id = c.customer_id AND o.placed_at >= '2026-07-01' "
        "AND o.placed_at < '2026-10-01') AS n FROM customers c WHERE c.plan = 'enterprise'"
    )
    candidate = (
        "SELECT c.customer_id, c.name, COUNT(o.order_id) AS n FROM customers c "
        "JOIN orders o ON o.customer_id = c.customer_id WHERE c.plan = 'enterprise' "
        "AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01' "
        "GROUP BY c.customer_id, c.name"
    )
    v = check(candidate, reference, SHOP_DDL)
    assert v.verdict == "not_equivalent"
    ce = v.counterexample
    assert ce is not None
    assert ce.cause in ("missing_rows", "empty_result")
    assert set(ce.tables) == {"customers", "orders"}
    # The reference has a row with count 0 that the candidate lacks.
    assert any(row[-1] == 0 for row in ce.reference_rows)
    assert ce.name == "customers_without_orders"


def test_between_on_timestamp_vs_half_open_range() -> None:
    v = check(
        "SELECT order_id FROM orders WHERE placed_at BETWEEN '2026-07-01' AND '2026-09-30'",
        "SELECT order_id FROM orders WHERE placed_at >= '2026-07-01' AND placed_at < '2026-10-01'",
        SHOP_DDL,
    )
    assert v.verdict == "not_equivalent"
    ce = v.counterexample
    assert ce is not None
    placed = [r["placed_at"] for r in ce.tables["orders"]]
    assert any(p.startswith("2026-09-30") and p != "2026-09-30T00:00:00" for p in placed)
    assert ce.cause in ("filter_window", "missing_rows")


def test_foreign_key_decides_both_ways() -> None:
    candidate = "SELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id"
    reference = "SELECT order_id FROM orders WHERE customer_id IS NOT NULL"
    with_fk = check(candidate, reference, SHOP_DDL)
    assert with_fk.verdict != "not_equivalent"
    without_fk = check(candidate, reference, NOFK_DDL)
    assert without_fk.verdict == "not_equivalent"


def test_counterexample_is_valid_and_replays_on_enforcing_duckdb() -> None:
    v = check(
        "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id "
        "WHERE o.amount > 10",
        "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id "
        "AND o.amount > 10",
        SHOP_DDL,
    )
    assert v.verdict == "not_equivalent"
    assert v.counterexample is not None
    schema = load_schema(SHOP_DDL)
    con = duckdb.connect()
    con.execute(schema.ddl(constraints=True))
    # Raises on any constraint violation.
    con.execute(counterexample_inserts(v.counterexample, schema))
    assert v.executed["candidate"] and v.executed["reference"]
    cand = con.execute(v.executed["candidate"]).fetchall()
    ref = con.execute(v.executed["reference"]).fetchall()
    assert sorted(map(repr, cand)) != sorted(map(repr, ref))


def test_fixtures_for_an_equivalent_pair_are_none() -> None:
    verdict, examples = distinguishing_fixtures("SELECT 1 AS x", "SELECT 1 AS y", SHOP_DDL)
    assert verdict.verdict == "equivalent"
    assert examples == []


def test_several_distinct_fixtures_are_found() -> None:
    verdict, examples = distinguishing_fixtures(
        "SELECT order_id FROM orders WHERE amount > 5",
        "SELECT order_id FROM orders WHERE amount >= 5",
        SHOP_DDL,
        limit=3,
    )
    assert verdict.verdict == "not_equivalent"
    assert 1 <= len(examples) <= 3
    assert len({json.dumps(e.tables, sort_keys=True) for e in examples}) == len(examples)


def test_same_seed_same_verdict_and_counterexample() -> None:
    args = (
        "SELECT customer_id FROM orders WHERE amount >= 5",
        "SELECT customer_id FROM orders WHERE amount > 5",
        SHOP_DDL,
    )
    a = check(*args, options=Options(seed=3))
    b = check(*args, options=Options(seed=3))
    assert a.verdict == "not_equivalent"
    assert a.counterexample == b.counterexample


def test_unknown_when_nothing_found_carries_evidence() -> None:
    v = check(
        "SELECT customer_id FROM customers WHERE customer_id IN (SELECT customer_id FROM orders)",
        "SELECT c.customer_id FROM customers c WHERE EXISTS "
        "(SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
        SHOP_DDL,
        options=Options(max_fixtures=60),
    )
    assert v.verdict in ("unknown", "equivalent")
    if v.verdict == "unknown":
        assert v.evidence.search is not None and v.evidence.search.fixtures_tried > 0
        assert v.evidence.search.seed == 0


T_DDL = "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT)"
# Equivalent (a ROW_NUMBER is at least 1), and past what the normalizer rewrites; the
# prover does not read QUALIFY, where the two differ (a WHERE that differs would be
# proved as a filter of queries written alike elsewhere).
WINDOWED = (
    "SELECT id FROM t WHERE a > 1 AND b > 2 QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1",
    "SELECT id FROM t WHERE b > 2 AND a > 1 QUALIFY ROW_NUMBER() OVER (ORDER BY a) <= 1",
)


def test_unknown_says_which_construct_the_prover_could_not_handle() -> None:
    v = check(*WINDOWED, T_DDL, options=Options(max_fixtures=20))
    assert v.verdict == "unknown"
    evidence = v.to_dict()["evidence"]
    assert evidence["fixtures_tried"] > 0  # the rest of the contract is still there
    assert evidence["proof"]["status"] == "unsupported"
    assert "QUALIFY" in evidence["proof"]["reason"]


def test_unknown_from_shapes_that_do_not_match_is_not_found() -> None:
    v = check(
        "SELECT a FROM t WHERE a IN (1, 2)",
        "SELECT a FROM t WHERE a = 1 UNION ALL SELECT a FROM t WHERE a = 2",
        T_DDL,
        options=Options(max_fixtures=20),
    )
    assert v.verdict == "unknown"
    assert v.evidence.proof == ProofEvidence("not_found", NO_PROOF)


def test_a_proved_pair_has_no_evidence() -> None:
    v = check(
        "SELECT a FROM t WHERE a > 1 AND b > 2",
        "SELECT a FROM t WHERE b > 2 AND a > 1 AND a > 0",
        T_DDL,
    )
    assert (v.verdict, v.method) == ("equivalent", "symbolic")
    assert v.to_dict()["evidence"] == {}


def test_without_the_symbolic_layer_no_proof_is_attempted() -> None:
    v = check(*WINDOWED, T_DDL, options=Options(max_fixtures=20, symbolic=False))
    assert v.verdict == "unknown"
    assert v.evidence.proof is not None and v.evidence.proof.status == "not_attempted"


def test_the_refuting_stages_alone_search_a_proved_pair() -> None:
    pair = ("SELECT a FROM t WHERE a > 1 AND b > 2", "SELECT a FROM t WHERE b > 2 AND a > 1", T_DDL)
    assert check(*pair).method == "normalized"
    v = check(*pair, options=Options(max_fixtures=20), stages=REFUTING_STAGES)
    assert v.verdict == "unknown"
    assert "normalize" not in v.timings and "symbolic" not in v.timings
    evidence = v.to_dict()["evidence"]
    assert evidence["fixtures_tried"] > 0 and evidence["proof"] is None


@pytest.mark.parametrize("dialect", ["duckdb", "sqlite"])
def test_hypothesis_alone_finds_a_difference(dialect: str) -> None:
    # No floor and no random draws: the budget's twelve databases are Hypothesis's,
    # drawn first and probed together (one statement on DuckDB).
    from sqlequiv.pipeline import fixture_search

    options = Options(floor_databases=0, max_fixtures=12, symbolic=False)
    pair = ("SELECT a FROM t", "SELECT a FROM t WHERE a > 0", T_DDL)
    v = check(*pair, dialect=dialect, options=options, stages=(fixture_search,))
    assert v.verdict == "not_equivalent", v.to_dict()
    evidence = v.to_dict()["evidence"]
    assert evidence["found_by"] == "hypothesis"
    assert 0 < evidence["fixtures_tried"] <= 12


def test_the_hypothesis_phase_writes_nothing_into_the_working_directory(tmp_path: Path) -> None:
    # Hypothesis's own backend would parse the constants of every local module loaded
    # (sqlequiv's sources, this script) into its draws and cache them under
    # ./.hypothesis: a check would leave a folder wherever it runs, and its databases
    # would depend on what its process had imported.
    script = tmp_path / "grader.py"
    script.write_text(
        "import sys\n"
        "from sqlequiv import Options, check\n"
        "from sqlequiv.pipeline import REFUTING_STAGES\n"
        "LIMITS = [1234, 56789, 'a local constant', 3.25]\n"
        f"v = check('SELECT a FROM t WHERE a > 1 AND b > 2',\n"
        f"          'SELECT a FROM t WHERE b > 2 AND a > 1', {T_DDL!r},\n"
        "          options=Options(max_fixtures=40), stages=REFUTING_STAGES)\n"
        "print(v.verdict, v.to_dict()['evidence']['fixtures_tried'])\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    verdict, tried = done.stdout.split()
    # The whole budget was drawn, Hypothesis's twelve databases included.
    assert verdict == "unknown" and int(tried) == Options().floor_databases + 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grader.py"]


@pytest.mark.parametrize("max_fixtures", [0, 5, 20])
def test_shaped_databases_before_the_proof_stay_within_the_budget(max_fixtures: int) -> None:
    # GROUP BY opens the shaped databases before the proof; they are the rich part's,
    # so a small --max-fixtures bounds them too.
    grouped = (
        "SELECT a, COUNT(*) FROM t WHERE a > 1 AND b > 2 GROUP BY a "
        "QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1",
        "SELECT a, COUNT(*) FROM t WHERE b > 2 AND a > 1 GROUP BY a "
        "QUALIFY ROW_NUMBER() OVER (ORDER BY a) <= 1",
    )
    options = Options(max_fixtures=max_fixtures)
    v = check(*grouped, T_DDL, options=options)
    assert v.verdict == "unknown"
    evidence = v.to_dict()["evidence"]
    assert evidence["budget"]["max_fixtures"] == options.floor_databases + max_fixtures
    assert options.floor_databases - 5 < evidence["fixtures_tried"]
    assert evidence["fixtures_tried"] <= options.floor_databases + max_fixtures


def test_on_sqlite_a_query_outside_the_shared_fragment_is_not_attempted() -> None:
    # SQLite's own || is an opaque call, strict: a proof needs nothing more of it.
    concatenated = check(
        "SELECT a FROM t WHERE a || 'x' = 'yx'",
        "SELECT a FROM t WHERE a || 'x' = 'yx' AND a IS NOT NULL",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)",
        dialect="sqlite",
    )
    assert concatenated.verdict == "equivalent"
    # Text in arithmetic (read as a number by SQLite) is neither shared nor listed.
    v = check(
        "SELECT a FROM t WHERE a + 1 = 2",
        "SELECT a FROM t WHERE a + 1 = 2 AND a IS NOT NULL",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)",
        dialect="sqlite",
        options=Options(max_fixtures=20),
    )
    assert v.verdict == "unknown"
    assert v.evidence.proof is not None
    assert v.evidence.proof.status == "not_attempted"
    assert "candidate query" in v.evidence.proof.reason
    # Bounded verification's models would be DuckDB's differences: not run at all.
    evidence = v.to_dict()["evidence"]
    assert evidence["bounded_status"] == "skipped" and evidence["bounded"] is None
    assert "candidate query" in evidence["bounded_reason"]


def test_on_sqlite_queries_in_the_shared_fragment_get_bounded_evidence() -> None:
    # Integer keys only: the queries mean on SQLite what they mean on DuckDB, so the
    # encoding's "same up to 3 rows" is evidence about the engine that ran them.
    ddl = (
        "CREATE TABLE c (id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE k (id INTEGER PRIMARY KEY, c INTEGER REFERENCES c (id))"
    )
    v = check(
        "SELECT name FROM c WHERE NOT EXISTS (SELECT 1 FROM k WHERE k.c = c.id)",
        # (Without the WHERE, which says again what the ON says, the normalizer proves it:
        # the join to the parent keeps the rows whose ``k.c`` is not NULL.)
        "SELECT name FROM c WHERE id NOT IN "
        "(SELECT k.c FROM k JOIN c AS p ON p.id = k.c WHERE p.id = k.c)",
        ddl,
        dialect="sqlite",
    )
    assert v.verdict == "unknown"
    evidence = v.to_dict()["evidence"]
    assert (evidence["bounded_status"], evidence["bounded"]) == ("same", 3)
    assert evidence["bounded_semantics"] is None


@pytest.mark.parametrize(
    ("candidate", "kind"),
    [
        ("SELEC 1", "parse_error"),
        ("SELECT nme FROM customers", "unknown_column"),
        ("SELECT * FROM custmers", "unknown_table"),
        ("DELETE FROM orders", "not_read_only"),
        ("SELECT 1; SELECT 2", "multiple_statements"),
        ("SELECT * FROM read_csv('/etc/passwd')", "forbidden_function"),
        ("", "empty_query"),
    ],
)
def test_bad_candidate_is_an_error_not_a_traceback(candidate: str, kind: str) -> None:
    v = check(candidate, "SELECT name FROM customers", SHOP_DDL)
    assert v.verdict == "error"
    assert v.error is not None
    assert (v.error.side, v.error.kind) == ("candidate", kind)
    assert v.exit_code == 2


def test_bad_schema_is_an_error() -> None:
    v = check("SELECT 1", "SELECT 1", "CREATE TABLE (")
    assert v.verdict == "error"
    assert v.error is not None and v.error.side == "schema"


@pytest.mark.parametrize(
    ("ddl", "kind"),
    [
        ("CREATE TABLE t (q DECIMAL(''))", "invalid_type"),  # int('') raised ValueError
        ("CREATE TABLE t (q DECIMAL(1e3, 2))", "invalid_type"),
        ("CREATE TABLE t (q DECIMAL(x))", "invalid_type"),  # DuckDB's ParserException at prepare
        ("CREATE TABLE t (q DECIMAL(10, 'x'))", "invalid_type"),  # DuckDB's BinderException
        ("CREATE TABLE t (q MAP(INT))", "invalid_type"),
        # DuckDB's BinderException when the constraints were re-checked
        ("CREATE TABLE t (q INT CHECK (q > TIMESTAMP '2020-01-01'))", "invalid_check"),
    ],
)
def test_schema_duckdb_refuses_is_a_schema_error(ddl: str, kind: str) -> None:
    v = check("SELECT q FROM t", "SELECT q FROM t WHERE q > 0", ddl)
    assert v.verdict == "error"
    assert v.error is not None and (v.error.side, v.error.kind) == ("schema", kind), v.error


def test_unbindable_check_of_a_schema_built_in_code_is_a_schema_error() -> None:
    # A Schema object skips load_schema's validation: the constraint re-check still says so.
    loaded = load_schema("CREATE TABLE t (q INT)")
    table = loaded.table("t")
    bad = type(table)(
        table.name, table.columns, checks=(exp.condition("q > TIMESTAMP '2020-01-01'"),)
    )
    schema = type(loaded)((bad,))
    v = check("SELECT q FROM t", "SELECT q FROM t WHERE q > 0", schema)
    assert v.verdict == "error"
    assert v.error is not None and v.error.side == "schema", v.error


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bounded_time_budget": float("nan")}, "bounded_time_budget=nan must be a finite number"),
        ({"time_budget": float("inf")}, "time_budget=inf must be a finite number"),
        ({"max_fixtures": float("inf")}, "max_fixtures=inf must be a whole number"),
        ({"max_fixtures": "5"}, "max_fixtures='5' must be a whole number"),
        ({"max_fixtures": 5.0}, "max_fixtures=5.0 must be a whole number"),
        ({"max_fixtures": 10**400}, "must be a finite number"),
        ({"max_rows": True}, "max_rows=True must be a whole number"),
        ({"float_tolerance": "0.1"}, "float_tolerance='0.1' must be a number"),
        ({"symbolic": 1}, "symbolic=1 must be True or False"),
        ({"seed": None}, "seed=None must be a whole number"),
        ({"query_timeout": -1.0}, "query_timeout=-1.0 must not be negative"),
    ],
)
def test_invalid_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOption) as info:
        Options(**options)  # type: ignore[arg-type]
    assert info.value.kind == "invalid_option"
    assert message in info.value.message


def test_numbers_of_either_kind_are_valid_options() -> None:
    opts = Options(time_budget=1, float_tolerance=0, bounded_time_budget=0.5, max_fixtures=0)
    assert (opts.time_budget, opts.float_tolerance, opts.max_fixtures) == (1, 0, 0)


def test_a_bug_in_a_stage_is_an_internal_error_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlequiv.pipeline import pair

    def broken(*args: object) -> object:
        raise KeyError("boom")

    monkeypatch.setattr(pair, "harvest", broken)
    args = ("SELECT a FROM t WHERE a > 1", "SELECT a FROM t", "CREATE TABLE t (a INT)")
    with pytest.raises(KeyError):  # the test-suite runs strict (conftest.py)
        check(*args)
    monkeypatch.delenv("SQLEQUIV_STRICT")
    v = check(*args)
    assert v.verdict == "error" and v.exit_code == 2
    assert v.error is not None and v.error.kind == "internal_error"
    assert "KeyError: 'boom'" in v.error.message
    verdict, examples = distinguishing_fixtures(*args)
    assert verdict.error is not None and verdict.error.kind == "internal_error"
    assert examples == []


@settings(max_examples=1, deadline=None)
@given(st.just(0))
def test_check_inside_a_hypothesis_test(_: int) -> None:
    # The counterexample search's Hypothesis phase cannot nest in a running @given (Hypothesis
    # fails its nested_given health check): it is skipped there. A BOOLEAN table has few
    # databases, so the random phase runs dry and the search reaches that phase.
    v = check(
        "SELECT b FROM t WHERE COALESCE(b, FALSE)",
        "SELECT b FROM t WHERE b IS TRUE",
        "CREATE TABLE t (b BOOLEAN)",
        options=Options(max_fixtures=50, symbolic=False),
    )
    assert v.verdict == "unknown", v.error


def test_runaway_candidate_times_out_as_error() -> None:
    v = check(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        "SELECT count(*) AS c FROM r",
        "SELECT count(*) AS c FROM customers",
        SHOP_DDL,
        options=Options(query_timeout=0.3),
    )
    assert v.verdict == "error"
    assert v.error is not None and (v.error.side, v.error.kind) == ("candidate", "timeout")


def test_postgres_integer_division_survives_transpiling() -> None:
    ddl = "CREATE TABLE t (a INT NOT NULL)"
    v = check("SELECT a / 2 FROM t", "SELECT a / 2.0 FROM t", ddl, dialect="postgres")
    assert v.verdict == "not_equivalent"
    same = check("SELECT a / 2 FROM t", "SELECT a / 2 FROM t AS x", ddl, dialect="postgres")
    assert same.verdict == "equivalent"


def test_json_form_has_every_contract_key() -> None:
    v = check("SELECT name FROM customers", "SELECT plan FROM customers", SHOP_DDL)
    data = json.loads(v.to_json())
    for key in ("verdict", "method", "counterexample", "error", "evidence", "options", "timings"):
        assert key in data
    assert data["verdict"] == "not_equivalent"
    ce = data["counterexample"]
    for key in ("tables", "candidate_rows", "reference_rows", "cause", "detail"):
        assert key in ce
    assert data["options"]["seed"] == 0


def test_size_limits_are_options_recorded_in_the_verdict() -> None:
    chain = "SELECT a FROM t WHERE " + " OR ".join(f"a = {i}" for i in range(40))
    ddl = "CREATE TABLE t (a INT)"
    assert check(chain, "SELECT a FROM t", ddl).verdict == "not_equivalent"
    small = Options(max_query_nodes=50)
    v = check(chain, "SELECT a FROM t", ddl, options=small)
    assert v.error is not None and (v.error.side, v.error.kind) == ("candidate", "too_complex")
    assert v.options["max_query_nodes"] == 50
    v = check("SELECT a FROM t", "SELECT a FROM t", ddl, options=Options(max_query_length=10))
    assert v.error is not None and v.error.kind == "too_large"
    with pytest.raises(InvalidOption):
        Options(max_query_nodes=0)
