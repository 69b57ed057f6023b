"""Limits on untrusted input: size budgets of the proving stages, the address space of
grading workers, and fixture scripts that stay data whatever the schema's names."""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path

import duckdb
import pytest
import sqlglot
from sqlglot import exp

from sqlequiv import Options, check
from sqlequiv.database import Database, insert_script
from sqlequiv.evidence import ProofEvidence
from sqlequiv.grading.pools import limit_address_space
from sqlequiv.grading.run import grade_suite
from sqlequiv.grading.worker import Settings
from sqlequiv.guard import guard_query
from sqlequiv.normalize import (
    DEFAULT_LIMITS,
    SYMBOLIC_LIMITS,
    Limits,
    TooLarge,
    canonical_form,
    canonical_sql,
    measure,
)
from sqlequiv.schema import load_schema
from sqlequiv.symbolic.layer import Z3Layer
from sqlequiv.symbolic.prove.prover import Prover

SCHEMA = "CREATE TABLE t (a INT, b INT)"
KEYED = "CREATE TABLE t (a INT PRIMARY KEY, b INT)"
FAST = Options(max_fixtures=20, time_budget=2.0, bounded_time_budget=0.5)


def or_chain(n: int, reverse: bool = False) -> str:
    values = reversed(range(n)) if reverse else range(n)
    return "SELECT a FROM t WHERE " + " OR ".join(f"a = {i}" for i in values)


def join_chain(n: int, column: str = "a") -> str:
    joins = (f"JOIN t AS t{i} ON t{i}.{column} = t{i - 1}.{column}" for i in range(1, n))
    return "SELECT t0.a FROM t AS t0 " + " ".join(joins)


# -- size budgets ------------------------------------------------------------------


LONG_LIST = ", ".join(map(str, range(1200)))
#: Eight IN lists of 900 values: past the node budget, no chain or list past its own.
WIDE_INS = " AND ".join(f"a + {i} IN ({', '.join(map(str, range(900)))})" for i in range(8))


def nested(levels: int) -> exp.Expr:
    """``SELECT ((...(1)...))``, built without the parser (which recurses per bracket)."""
    node: exp.Expr = exp.Literal.number(1)
    for _ in range(levels):
        node = exp.Paren(this=node)
    return exp.select(node)


@pytest.mark.parametrize(
    ("tree", "measure_name"),
    [
        (sqlglot.parse_one(or_chain(900)), "chain"),
        (sqlglot.parse_one(f"SELECT a FROM t WHERE {WIDE_INS}"), "nodes"),
        (sqlglot.parse_one(join_chain(30)), "widest_from"),
        (sqlglot.parse_one(f"SELECT a FROM t WHERE a IN ({LONG_LIST})"), "terms"),
        (nested(250), "depth"),
        (sqlglot.parse_one(" UNION ALL ".join(["SELECT a FROM t"] * 50)), "tables"),
    ],
)
def test_the_normalizer_declines_a_query_past_a_budget(tree: exp.Expr, measure_name: str) -> None:
    schema = load_schema(SCHEMA)
    expected = Limits(nodes=6000, depth=200, tables=48, widest_from=24, terms=1000, chain=350)
    assert expected == DEFAULT_LIMITS
    with pytest.raises(TooLarge) as info:
        canonical_form(tree, schema)
    assert info.value.measure == measure_name
    assert info.value.value > info.value.limit
    assert "too large" in str(info.value)


def test_a_long_chain_of_ands_is_one_level_deep() -> None:
    size = measure(sqlglot.parse_one(or_chain(900)))
    assert size.depth < 10 and size.terms == 900


def test_declined_queries_are_never_proved_equivalent() -> None:
    # The same 400 alternatives in another order: equivalent, and normalization would
    # prove it were the query not past the budget. Past it, nothing is claimed.
    v = check(or_chain(400), or_chain(400, reverse=True), SCHEMA, options=FAST)
    assert v.verdict == "unknown"
    assert v.evidence.bounded is not None and v.evidence.bounded.status == "skipped"
    assert "too large" in (v.evidence.bounded.reason or "")


def test_just_inside_the_budget_the_same_pair_is_proved() -> None:
    v = check(or_chain(300), or_chain(300, reverse=True), SCHEMA, options=FAST)
    assert (v.verdict, v.method) == ("equivalent", "normalized")


def test_the_or_bomb_spends_no_time_in_the_proving_stages() -> None:
    v = check(or_chain(900), "SELECT a FROM t WHERE a >= 0 AND a < 900", SCHEMA, options=FAST)
    assert v.verdict == "unknown"  # (they are equivalent; no stage may claim it unproved)
    proving = sum(v.timings.get(s, 0.0) for s in ("normalize", "symbolic", "witnesses", "bounded"))
    assert proving < 2000, v.timings  # was 21 s: 6 canonical forms and a 900-way z3 term


def test_the_join_bomb_is_still_refuted_by_execution() -> None:
    # (Twelve joins, not thirty: a fixture with two equal rows makes 2**joins rows. With
    # sixteen, the floor's first 48 databases took 2.6 s on a slow machine, past FAST's
    # time cap, and the pair came back unknown: the cap is a safety net, and this test
    # is about the budgets that count work.)
    v = check(join_chain(12), "SELECT a FROM t", SCHEMA, options=FAST)
    assert (v.verdict, v.method) == ("not_equivalent", "fixture_search")
    # (The random floor may refute it before the prover starts.)
    assert v.timings.get("normalize", 0) + v.timings.get("symbolic", 0) < 2000, v.timings
    again = check(join_chain(12), "SELECT a FROM t", SCHEMA, options=FAST)
    assert again.counterexample == v.counterexample  # budgets by size keep it deterministic


def test_thirty_joins_are_declined_before_any_work() -> None:
    schema = load_schema(SCHEMA)
    cand = guard_query(join_chain(31), schema, side="candidate")
    ref = guard_query("SELECT a FROM t", schema, side="reference")
    layer = Z3Layer()
    assert layer.prove(cand, ref, schema, FAST) is None
    assert layer.last_reason == "candidate: too large: 31 table references (limit 24)"
    assert layer.witnesses(cand, ref, schema, None, FAST) == ()  # type: ignore[arg-type]


def test_the_symbolic_layer_says_why_it_declined() -> None:
    schema = load_schema(SCHEMA)
    in_list = ", ".join(map(str, range(200)))
    cand = guard_query(f"SELECT a FROM t WHERE a IN ({in_list})", schema, side="candidate")
    ref = guard_query("SELECT a FROM t WHERE a BETWEEN 0 AND 199", schema, side="reference")
    layer = Z3Layer()
    assert layer.prove(cand, ref, schema, FAST) is None
    assert layer.last_reason == (
        "candidate: too large: 200 alternatives in one condition (limit 100)"
    )
    assert layer.stopped_by == layer.last_reason  # a budget: for the verdict's evidence
    assert layer.last_proof == ProofEvidence("budget", layer.last_reason)
    outcome = layer.bounded(cand, ref, schema, FAST)
    assert (outcome.status, outcome.bound) == ("skipped", None)
    # Within the budget the same layer proves it.
    small = guard_query(or_chain(20), schema, side="candidate")
    within = guard_query("SELECT a FROM t WHERE a BETWEEN 0 AND 19", schema, side="reference")
    assert layer.prove(small, within, schema, FAST) == "symbolic"
    assert layer.stopped_by is None


def test_a_proof_stops_at_its_count_of_solver_calls() -> None:
    schema = load_schema(KEYED)
    cand = guard_query(join_chain(6).replace("= t", "> t"), schema, side="candidate")
    ref = guard_query(join_chain(6).replace("= t", ">= t"), schema, side="reference")
    forms = [canonical_form(q.qualified, schema, limits=SYMBOLIC_LIMITS) for q in (cand, ref)]
    prover = Prover(schema, max_checks=3)
    assert prover.equivalent(*forms) is False
    assert prover.last_reason == prover.stopped_by == "check budget: 3 solver calls"


def test_key_self_joins_are_still_dropped() -> None:
    # The WHERE equates the keys of all twelve occurrences: they are one row.
    v = check(join_chain(12), "SELECT a FROM t", KEYED, options=FAST)
    assert (v.verdict, v.method) == ("equivalent", "symbolic")


def test_canonical_sql_is_unchanged_inside_the_budget() -> None:
    schema = load_schema(SCHEMA)
    tree = guard_query("SELECT x.a FROM t AS x WHERE 1 < x.a", schema).qualified
    assert canonical_sql(tree, schema) == "SELECT t0.a FROM t AS t0 WHERE t0.a > 1"
    with pytest.raises(TooLarge):
        canonical_sql(tree, schema, limits=Limits(nodes=3))


# -- the address space of grading workers --------------------------------------------


def _allocate_after_limit(extra_mb: int, queue: multiprocessing.Queue[object]) -> None:
    limit = limit_address_space(extra_mb)
    try:
        bytearray((extra_mb + 64) << 20)
    except MemoryError:
        queue.put(("MemoryError", limit))
        return
    queue.put(("allocated", limit))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS on Linux only")
def test_limit_address_space_makes_a_big_allocation_fail() -> None:
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[object] = context.Queue()
    process = context.Process(target=_allocate_after_limit, args=(128, queue))
    process.start()
    outcome, limit = queue.get(timeout=60)  # type: ignore[misc]
    process.join(10)
    assert outcome == "MemoryError"
    assert isinstance(limit, int) and limit > 128 << 20
    assert limit_address_space(0) is None  # 0: no limit (and this process keeps none)


def test_memory_limit_must_be_a_whole_number() -> None:
    from sqlequiv.errors import InvalidOption

    with pytest.raises(InvalidOption, match="must not be negative"):
        Settings(memory_limit_mb=-5)
    with pytest.raises(InvalidOption, match="whole number"):
        Settings(memory_limit_mb=1.5)  # type: ignore[arg-type]
    assert Settings().memory_limit_mb == 4096


SUITE = """
schemas: {shop: schema.sql}
fixtures:
  two:
    rows:
      customers:
        - {customer_id: 1, name: Ann}
        - {customer_id: 2, name: Bo}
items:
  - id: ids
    question: Customer ids
    schema: shop
    reference_kind: query
    accepted_references:
      - {name: r, sql: "SELECT customer_id FROM customers"}
    fixtures: [two]
  - id: limited
    question: Any customers (the predicate reports whether its worker is limited)
    schema: shop
    reference_kind: predicate
    predicate: probe:check
    fixtures: [two]
"""

PROBE = """
import resource

def check(rows):
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return False
    try:
        bytearray(soft)  # the whole address space allowed, and then some: must fail
    except MemoryError:
        return True
    return False
"""

# DuckDB's own memory_limit (1 GB) does not bound this: without the worker's limit it
# runs into the query timeout; with a 256 MiB limit an allocation fails in well under it.
RUNAWAY = "SELECT len(array_agg(i)) FROM range(100000000) AS r(i)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS on Linux only")
def test_a_runaway_allocation_costs_only_its_own_pair(tmp_path: Path) -> None:
    (tmp_path / "schema.sql").write_text(
        "CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);"
    )
    (tmp_path / "probe.py").write_text(PROBE)
    (tmp_path / "suite.yaml").write_text(SUITE)
    candidates = [
        {"id": "ids", "sql": RUNAWAY},
        {"id": "ids", "sql": "SELECT c.customer_id FROM customers AS c"},
        {"id": "limited", "sql": "SELECT customer_id FROM customers"},
    ]
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(c) + "\n" for c in candidates))
    options = Options(max_fixtures=20, time_budget=1.0, bounded_time_budget=0.5,
                      query_timeout=30.0)  # fmt: skip
    settings = Settings(options=options, memory_limit_mb=256, predicate_databases=0)
    result = grade_suite(tmp_path / "suite.yaml", tmp_path / "c.jsonl", tmp_path / "r.jsonl",
                         backend="local", jobs=1, settings=settings, audit=False)  # fmt: skip
    by_sample = {(r["item_id"], r["sample"]): r for r in result.records}
    runaway = by_sample[("ids", 0)]
    assert runaway["status"] == "error"
    assert runaway["error"]["kind"] in ("resource_limit", "worker_crashed")
    assert by_sample[("ids", 1)]["status"] == "pass"  # the next pair, same worker
    assert by_sample[("limited", 0)]["status"] == "pass"  # the worker is under its limit


# -- fixture scripts -----------------------------------------------------------------


def test_insert_script_quotes_names_so_the_script_stays_data() -> None:
    hostile = 'b" VARCHAR); SELECT 1; --'
    escaped = hostile.replace('"', '""')
    ddl = f'CREATE TABLE "we""ird" (a INT PRIMARY KEY, "{escaped}" VARCHAR)'
    schema = load_schema(ddl)
    table = schema.tables[0]
    assert [c.name for c in table.columns][1].startswith('b" ')
    rows = ((1, "x'); DROP TABLE t; --"), (2, None))
    script = insert_script(Database({table.name: rows}), schema)
    con = duckdb.connect()
    con.execute(schema.ddl())
    con.execute(script)
    quoted = exp.to_identifier(table.name, quoted=True).sql("duckdb")
    assert con.execute(f"SELECT * FROM {quoted} ORDER BY a").fetchall() == list(rows)
    # Exactly one statement per table with rows: nothing smuggled in.
    assert len(sqlglot.parse(script, read="duckdb")) == 1


def test_an_exported_fixture_comments_out_every_line_of_its_detail() -> None:
    """A constant holding a newline, quoted in the explanation, must not become SQL."""
    import duckdb

    from sqlequiv import check
    from sqlequiv.database.export import counterexample_inserts
    from sqlequiv.schema import load_schema

    ddl = "CREATE TABLE t (id INT PRIMARY KEY, s TEXT)"
    payload = "x\nDROP TABLE t; --"
    v = check(f"SELECT '{payload}' AS s FROM t", "SELECT s FROM t", ddl)
    assert v.verdict == "not_equivalent" and v.counterexample is not None
    assert "\nDROP TABLE t;" in v.counterexample.detail  # the explanation quotes it
    schema = load_schema(ddl)
    con = duckdb.connect()
    con.execute(schema.ddl())
    con.execute(counterexample_inserts(v.counterexample, schema))
    rows = con.execute("SELECT count(*) FROM t").fetchone()
    assert rows == (len(v.counterexample.tables["t"]),)  # the table survives, rows loaded


def test_the_verdict_says_which_budget_stopped_which_stage() -> None:
    from sqlequiv import check

    chain = "SELECT a FROM t WHERE " + " OR ".join(f"a = {i}" for i in range(400))
    v = check(chain, chain.replace("a = 0 OR ", "a = 0 OR a = 0 OR "), "CREATE TABLE t (a INT)")
    assert v.verdict == "unknown"  # a budget never makes a pair equivalent
    stops = v.evidence.budget_stops
    assert stops is not None
    assert set(stops) >= {"normalize", "symbolic"}
    assert "too large" in stops["normalize"]
    small = check("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a >= 1",
                  "CREATE TABLE t (a INT)")  # fmt: skip
    assert small.evidence.budget_stops is None


# --- Hostile schemas and suites: a clear error, never a traceback or a hang -----------------


def test_a_decimal_of_scale_thirty_is_checked_not_a_traceback() -> None:
    ddl = "CREATE TABLE t (d DECIMAL(38, 30))"
    verdict = check("SELECT d FROM t WHERE d > 1", "SELECT d FROM t", ddl, options=FAST)
    assert verdict.error is None
    assert verdict.verdict == "not_equivalent"
    assert check("SELECT d + 1 FROM t", "SELECT 1 + d FROM t", ddl, options=FAST).verdict == (
        "equivalent"
    )


@pytest.mark.parametrize(
    ("column", "code", "shown"),
    [
        ("d DECIMAL(38, 30)", 1, "NOT EQUIVALENT"),
        ("a INT" + "[]" * 200, 2, "nests 200 levels"),
    ],
)
def test_hostile_column_types_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str, code: int, shown: str
) -> None:
    from sqlequiv.cli import main

    name = column.split(maxsplit=1)[0]
    (tmp_path / "s.sql").write_text(f"CREATE TABLE t ({column})")
    (tmp_path / "a.sql").write_text(f"SELECT {name} FROM t WHERE {name} IS NULL")
    (tmp_path / "b.sql").write_text(f"SELECT {name} FROM t")
    argv = ["check", str(tmp_path / "a.sql"), str(tmp_path / "b.sql")]
    assert main([*argv, "--schema", str(tmp_path / "s.sql")]) == code
    out = capsys.readouterr()
    assert shown in out.out + out.err
    assert "Traceback" not in out.out + out.err


@pytest.mark.parametrize("ddl_type", ["INT" + "[]" * 9, "INT" + "[]" * 200])
def test_deeply_nested_array_types_are_refused_naming_the_column(ddl_type: str) -> None:
    from sqlequiv.errors import SchemaError

    with pytest.raises(SchemaError, match=r"column 'a' of table 't'.*nests \d+ levels") as err:
        load_schema(f"CREATE TABLE t (a {ddl_type})")
    assert err.value.kind == "unsupported_type"
    with pytest.raises(SchemaError, match="nests 200 levels"):
        load_schema({"tables": {"t": {"columns": {"a": "INT" + "[]" * 200}}}})


def test_eight_levels_of_arrays_still_load() -> None:
    assert load_schema("CREATE TABLE t (a INT" + "[]" * 8 + ")").table_names == ("t",)


HOSTILE_SUITE_ITEM = {
    "id": "q1",
    "question": "All ids?",
    "reference_kind": "query",
    "schema": "CREATE TABLE t (id INT PRIMARY KEY)",
    "accepted_references": [{"name": "plain", "sql": "SELECT id FROM t"}],
}


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [101, 50_000])
def test_deeply_nested_schema_files_are_refused(tmp_path: Path, levels: int) -> None:
    from sqlequiv.errors import SchemaError

    json_file = tmp_path / "s.json"
    json_file.write_text('{"tables": {"t": {"columns": {"a": "INT"}, "x": ' + _deep(levels) + "}}}")
    yaml_file = tmp_path / "s.yaml"
    yaml_file.write_text("tables: " + _deep(levels))
    for path in (json_file, yaml_file):
        with pytest.raises(SchemaError, match="nested more than 100 levels deep") as err:
            load_schema(path)
        assert err.value.kind == "too_deep"


@pytest.mark.parametrize("levels", [101, 50_000])
def test_deeply_nested_suites_and_candidates_are_refused(tmp_path: Path, levels: int) -> None:
    from sqlequiv.grading.results import read_candidates, read_results
    from sqlequiv.suite import SuiteError, load_suite

    item = json.dumps(HOSTILE_SUITE_ITEM)
    deep_item = item[:-1] + ', "meta": {"x": ' + _deep(levels) + "}}"
    (tmp_path / "suite.yaml").write_text("items:\n  - " + deep_item + "\n")
    (tmp_path / "suite.jsonl").write_text(item + "\n" + deep_item + "\n")
    for name in ("suite.yaml", "suite.jsonl"):
        with pytest.raises(SuiteError, match="nested more than 100 levels deep"):
            load_suite(tmp_path / name)
    (tmp_path / "ok.jsonl").write_text(item + "\n")
    suite = load_suite(tmp_path / "ok.jsonl")
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text('{"id": "q1", "sql": "SELECT 1", "x": ' + _deep(levels) + "}\n")
    with pytest.raises(SuiteError, match=r"candidates.jsonl line 1: nested more than 100"):
        read_candidates(candidates, suite)
    with pytest.raises(SuiteError, match=r"line 1: not a record: nested more than 100"):
        read_results(candidates)


def test_a_deeply_nested_suite_document_built_in_code_is_refused() -> None:
    from sqlequiv.suite import SuiteDocument, SuiteError, build_suite

    meta: list[object] = []
    for _ in range(200):
        meta = [meta]
    data = {"items": [{**HOSTILE_SUITE_ITEM, "meta": {"x": meta}}]}
    with pytest.raises(SuiteError, match="nested more than 100 levels deep"):
        build_suite(SuiteDocument(data))


def _alias_bomb(levels: int) -> str:
    lines = ['a0: &a0 ["lol"]']
    for n in range(1, levels + 1):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]")
    return "\n".join(lines)


@pytest.mark.parametrize("levels", [8, 9])
def test_a_yaml_alias_bomb_is_refused_at_once(tmp_path: Path, levels: int) -> None:
    import time

    from sqlequiv.errors import SchemaError
    from sqlequiv.suite import SuiteError, load_suite

    bomb = _alias_bomb(levels)
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        bomb.replace("\n", "\n  ").replace("a0:", "bomb:\n  a0:", 1)
        + "\nitems:\n  - "
        + json.dumps({**HOSTILE_SUITE_ITEM, "meta": {"lol": "*placeholder"}}).replace(
            '"*placeholder"', f"*a{levels}"
        )
        + "\n"
    )
    start = time.monotonic()
    with pytest.raises(SuiteError, match=r"aliases expand it to \d+ nodes"):
        load_suite(suite)
    (tmp_path / "s.yaml").write_text(bomb)
    with pytest.raises(SchemaError, match="aliases expand") as err:
        load_schema(tmp_path / "s.yaml")
    assert err.value.kind == "alias_bomb"
    assert time.monotonic() - start < 1.0


def test_a_recursive_yaml_alias_is_refused() -> None:
    from sqlequiv.errors import SchemaError
    from sqlequiv.schema.load import load_yaml_text

    with pytest.raises(SchemaError, match="alias inside its own anchor"):
        load_yaml_text("tables: &a [*a]")


def test_modest_yaml_aliases_still_load() -> None:
    from sqlequiv.schema.load import load_yaml_text

    assert load_yaml_text(_alias_bomb(3))["a3"][0][0][0] == ["lol"]  # type: ignore[index]


def test_json_lines_split_at_newlines_only(tmp_path: Path) -> None:
    from sqlequiv.grading.results import read_candidates, read_results
    from sqlequiv.suite import load_suite

    item = dict(HOSTILE_SUITE_ITEM, question="All\u2028ids\u0085?")
    (tmp_path / "suite.jsonl").write_text(
        json.dumps(item, ensure_ascii=False) + "\r\n", encoding="utf-8"
    )
    suite = load_suite(tmp_path / "suite.jsonl")
    assert suite.item("q1").question == "All\u2028ids\u0085?"
    sql = "SELECT id\u2028FROM t\u0085WHERE id\x0c> 0\x1c"
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text(
        json.dumps({"id": "q1", "sql": sql}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    assert "\u2028" in candidates.read_text(encoding="utf-8")  # raw, not escaped
    (task,) = read_candidates(candidates, suite)
    assert task.sql == sql
    assert read_results(candidates) == [{"id": "q1", "sql": sql}]


EVIL = """
import pathlib
pathlib.Path(__file__).with_name("ran").write_text("imported")


def check(rows):
    return True
"""


def _escaping_suite(tmp_path: Path, **item: object) -> Path:
    (tmp_path / "suite").mkdir(exist_ok=True)
    (tmp_path / "out").mkdir(exist_ok=True)
    (tmp_path / "out" / "s.sql").write_text("CREATE TABLE t (id INT PRIMARY KEY)")
    (tmp_path / "out" / "f.sql").write_text("INSERT INTO t VALUES (1);")
    (tmp_path / "out" / "evil.py").write_text(EVIL)
    path = tmp_path / "suite" / "suite.yaml"
    path.write_text("items:\n  - " + json.dumps({**HOSTILE_SUITE_ITEM, **item}) + "\n")
    return path


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("schema", "../out/s.sql"),
        ("schema", "{out}/s.sql"),
        ("fixtures", [{"name": "f", "file": "../out/f.sql"}]),
        ("fixtures", [{"name": "f", "file": "{out}/f.sql"}]),
    ],
)
def test_suite_files_outside_its_directory_are_refused(
    tmp_path: Path, field: str, value: object
) -> None:
    from sqlequiv.suite import SuiteError, load_suite

    out = str(tmp_path / "out")
    value = json.loads(json.dumps(value).replace("{out}", out))
    suite = _escaping_suite(tmp_path, **{field: value})
    with pytest.raises(SuiteError, match=r"is outside the suite's directory") as err:
        load_suite(suite)
    assert ("../out" if "../" in json.dumps(value) else out) in str(err.value)
    loaded = load_suite(suite, allow_outside_paths=True)
    assert loaded.item("q1").schema.table_names == ("t",)


@pytest.mark.parametrize("module", ["{out}/evil", "../out/evil"])
def test_a_predicate_outside_the_suite_is_refused_before_it_is_imported(
    tmp_path: Path, module: str
) -> None:
    from sqlequiv.suite import SuiteError, load_suite

    spec = module.replace("{out}", str(tmp_path / "out")) + ":check"
    suite = _escaping_suite(
        tmp_path, reference_kind="predicate", predicate=spec, accepted_references=[]
    )
    with pytest.raises(SuiteError, match=r"is outside the suite.s directory|is a path") as err:
        load_suite(suite)
    assert spec in str(err.value)
    assert not (tmp_path / "out" / "ran").exists()


def test_sqlequiv_grade_refuses_outside_paths_unless_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sqlequiv.cli import main
    from sqlequiv.suite.load import read_document

    suite = _escaping_suite(tmp_path, schema="../out/s.sql")
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text('{"id": "q1", "sql": "SELECT id FROM t"}\n')
    argv = ["grade", str(suite), str(candidates), "--out", str(tmp_path / "r.jsonl")]
    assert main([*argv, "--no-audit"]) == 2
    err = capsys.readouterr().err
    assert "'../out/s.sql' is outside the suite's directory" in err
    assert "Traceback" not in err
    assert read_document(suite, allow_outside_paths=True).files == {
        "../out/s.sql": (tmp_path / "out" / "s.sql").read_text()
    }
    assert read_document(suite).files == {}
    assert main([*argv, "--no-audit", "--jobs", "1", "--allow-outside-paths"]) == 0


def test_floating_point_witness_goals_share_a_thousand_units() -> None:
    # Bit-blasting a DOUBLE division took z3 0.1-0.5 s of each such unknown and gave no
    # witness on any benchmark: such goals get SLOW_WITNESS_UNITS in all, linear ones
    # their usual share.
    from sqlequiv.search.domains import build_domains
    from sqlequiv.search.harvest import harvest
    from sqlequiv.symbolic.effort import units_spent
    from sqlequiv.symbolic.prove.witness import SLOW_WITNESS_UNITS

    schema = load_schema("CREATE TABLE f (id INT PRIMARY KEY, d DOUBLE, n INT)")
    layer = Z3Layer()

    def spent(cand_sql: str, ref_sql: str) -> int:
        cand = guard_query(cand_sql, schema, side="candidate")
        ref = guard_query(ref_sql, schema, side="reference")
        domains = build_domains(schema, harvest([cand.qualified, ref.qualified]), 3)
        before = units_spent()
        layer.witnesses(cand, ref, schema, domains, FAST)
        return units_spent() - before

    slow = spent("SELECT id FROM f WHERE d / 60 < 5", "SELECT id FROM f WHERE d < 300")
    # A thousand units and a call's overshoot (about 150), not the 15,625 of before.
    assert SLOW_WITNESS_UNITS <= 1_000
    assert 0 < slow <= 2_000
    assert spent("SELECT id FROM f WHERE n < 5", "SELECT id FROM f WHERE n <= 5") > 0
