"""``sqlequiv audit-gold``: the planted hazards of the bundled example are found, each
with a database that shows it when re-executed here, and no clean gold is flagged.

Real SQLite databases, z3 and the Hypothesis search; nothing is mocked. The example is
audited once per module (a few seconds) and its records read by the tests below.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sqlequiv.cli import main
from sqlequiv.goldaudit import (
    HAZARD_KINDS,
    SCHEMA_VERSION,
    AuditSettings,
    audit_benchmark,
    audit_suite,
    found_set,
    load_golds,
    parse_kinds,
)
from sqlequiv.goldaudit.variants import asks_for_order, bare_column_pair
from sqlequiv.options import Options
from sqlequiv.report import ReportData, render_report
from sqlequiv.suite import SuiteDocument, build_suite

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gold_audit"
DB = EXAMPLE / "database"
#: Small budgets: the example's golds are decided well within them.
FAST = ["--time-budget", "2", "--check-time-budget", "6", "--bounded-time-budget", "1"]
SLOW = ["--slow-seconds", "0.5", "--exec-timeout", "1"]


def _audit(tmp: Path, *extra: str, name: str = "audit.jsonl") -> tuple[int, list[dict[str, Any]]]:
    out = tmp / name
    code = main(["audit-gold", "--db", str(DB), "--table", str(EXAMPLE / "tables.json"),
                 "--out", str(out), *FAST, *SLOW, *extra])  # fmt: skip
    records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return code, records


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, list[dict[str, Any]], str]:
    tmp = tmp_path_factory.mktemp("audit")
    files = ["--gold", EXAMPLE / "gold.sql", "--questions", EXAMPLE / "dev.json"]
    code, records = _audit(tmp, *map(str, files), "--pred", str(EXAMPLE / "pred.sql"))
    return code, records, str(tmp / "audit.jsonl")


def _planted() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLE / "planted.json").read_text())
    return data


def test_every_planted_hazard_is_found_and_no_clean_gold_is_flagged(
    example: tuple[int, list[dict[str, Any]], str],
) -> None:
    code, records, _ = example
    planted = _planted()
    want = {(i, kind) for i, kind, _ in planted["hazards"]}
    want |= {(i, "shifted_predictions") for i in planted["shifted"]["items"]}
    assert found_set(records) == want
    reasons = {(r["index"], h["kind"], h["reason"]) for r in records if r["record"] == "gold"
               for h in r["hazards"]}  # fmt: skip
    assert reasons == {tuple(h) for h in planted["hazards"]}
    # Every kind of hazard is planted, so each one is exercised.
    assert {kind for _, kind in want} == set(HAZARD_KINDS) - {"gold_error"}
    pairing = [r for r in records if r["record"] == "pairing"]
    assert [(r["offset"], r["first"], r["length"]) for r in pairing] == [
        (planted["shifted"]["offset"], planted["shifted"]["items"][0],
         len(planted["shifted"]["items"]))
    ]  # fmt: skip
    assert code == 1  # blocking hazards were found


def _load(db_id: str, tables: dict[str, list[dict[str, Any]]] | None) -> sqlite3.Connection:
    """The witness database, built here from the shipped file's own DDL (or the file)."""
    shipped = DB / db_id / f"{db_id}.sqlite"
    if tables is None:
        return sqlite3.connect(f"file:{shipped}?mode=ro", uri=True)
    source = sqlite3.connect(shipped)
    ddl = [sql for (sql,) in source.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL")]  # fmt: skip
    source.close()
    con = sqlite3.connect(":memory:")
    for statement in ddl:
        con.execute(statement)
    for table, rows in tables.items():
        for row in rows:  # an IntegrityError here would be a witness the schema forbids
            con.execute(f'INSERT INTO "{table}" ({", ".join(row)}) VALUES '
                        f'({", ".join("?" for _ in row)})', list(row.values()))  # fmt: skip
    return con


def test_every_witness_shows_its_hazard_when_re_executed(
    example: tuple[int, list[dict[str, Any]], str],
) -> None:
    _, records, _ = example
    checked: Counter[str] = Counter()
    for record in (r for r in records if r["record"] == "gold"):
        for hazard in record["hazards"]:
            witness = hazard["witness"]
            assert witness["verified"] is True
            if hazard["kind"] in {"slow", "empty", "gold_error"}:
                assert witness["database"] == "shipped"
                if hazard["kind"] == "empty":
                    con = _load(record["db_id"], None)
                    assert con.execute(record["gold"]).fetchall() == []
                else:
                    assert witness["seconds"] >= 0.5
                checked[hazard["kind"]] += 1
                continue
            a, b = witness["queries"]
            assert b == hazard["variant"]
            con = _load(record["db_id"], witness["tables"])
            rows_a, rows_b = con.execute(a).fetchall(), con.execute(b).fetchall()
            con.close()
            assert Counter(rows_a) != Counter(rows_b), (record["index"], hazard["reason"])
            checked[witness["database"]] += 1
    assert checked["generated"] >= 3 and checked["shipped"] >= 8


def test_rewrites_are_proved_only_when_equivalent(
    example: tuple[int, list[dict[str, Any]], str],
) -> None:
    _, records, _ = example
    rewrites = {(r["index"], h["reason"]): h["rewrite"] for r in records
                if r["record"] == "gold" for h in r["hazards"] if h["rewrite"]}  # fmt: skip
    assert rewrites, "nondeterministic golds get a proposed rewrite"
    for rewrite in rewrites.values():
        assert rewrite["proved"] == (rewrite["verdict"] == "equivalent")
    oldest = rewrites[(1, "limit_ties")]
    assert oldest["proved"] and "UNIQUE (age)" in oldest["under"]
    assert oldest["sql"].startswith("SELECT name FROM student ORDER BY age DESC, 1")
    assert rewrites[(4, "bare_column")]["sql"].count("MIN(title)") == 1


def test_records_have_one_stable_schema(example: tuple[int, list[dict[str, Any]], str]) -> None:
    _, records, _ = example
    golds = [r for r in records if r["record"] == "gold"]
    assert len(golds) == 34 and len({tuple(r) for r in golds}) == 1
    assert all(r["schema_version"] == SCHEMA_VERSION for r in records)
    hazard_keys = {tuple(h) for r in golds for h in r["hazards"]}
    assert hazard_keys == {("kind", "reason", "severity", "detail", "variant", "witness",
                            "exploit", "rewrite")}  # fmt: skip
    by_index = {r["index"]: r for r in golds}
    assert by_index[12]["blocking"] and not by_index[11]["blocking"]  # empty vs type_fragile


def test_exploits_show_what_the_evaluators_misjudge(
    example: tuple[int, list[dict[str, Any]], str],
) -> None:
    _, records, _ = example
    exploit = {(r["index"], h["reason"]): h["exploit"] for r in records
               if r["record"] == "gold" for h in r["hazards"] if h["exploit"]}  # fmt: skip
    # Any empty answer passes an empty gold, under both rules.
    assert exploit[(12, "empty_on_shipped")]["misjudged_by"] == ["spider", "bird"]
    # A right answer in another order: Spider compares lists and fails it, BIRD passes it.
    physics = exploit[(7, "order_not_asked")]
    assert physics["spider"]["shipped"] is False and physics["bird"]["shipped"] is True
    assert physics["misjudged_by"] == ["spider"]
    # The NOT IN answer that survives a NULL: both pass it on the shipped data, where no
    # advisor lacks a student, and both fail it on the witness.
    not_in = exploit[(10, "not_in_nullable")]
    assert not_in["spider"] == {"shipped": True, "witness": False}


def test_summary_and_html_report(
    example: tuple[int, list[dict[str, Any]], str], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    _, records, path = example
    html = tmp_path / "report.html"
    assert main(["report", path, "--html", str(html)]) == 0
    page = html.read_text()
    assert 'id="gold-audit"' in page and "not_in_nullable" in page and "Failures" not in page
    page = render_report(ReportData("r", gold_audit=records[:2]))
    assert "Gold audit" in page and "2</b> golds audited" in page


def test_exit_status_follows_fail_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.sql"
    gold.write_text("SELECT count(*) FROM student\tschool\n"
                    "SELECT name FROM student WHERE credits > 100\tschool\n")  # fmt: skip
    code, records = _audit(tmp_path, "--gold", str(gold))
    assert code == 0  # type_fragile is a warning by default
    assert [len(r["hazards"]) for r in records] == [0, 1]
    assert records[1]["hazards"][0]["severity"] == "warning"
    out = capsys.readouterr().out
    assert "type_fragile" in out and "2 golds audited, 1 with a hazard" in out
    code, records = _audit(tmp_path, "--gold", str(gold), "--fail-on", "type_fragile")
    assert code == 1 and records[1]["hazards"][0]["severity"] == "blocking"
    clean = tmp_path / "clean.sql"
    clean.write_text("SELECT count(*) FROM student\tschool\n")
    assert _audit(tmp_path, "--gold", str(clean), "--fail-on", "all")[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gold", "missing.sql"], "gold file not found"),
        (["--fail-on", "nope"], "unknown hazard 'nope'"),
        (["--gold", "{gold}", "--slow-seconds", "-1"], "must be a positive number"),
        (["--gold", "{bad}"], "found no tab"),
        (["--suite", "x.yaml", "--gold", "{gold}"], "no --gold or --pred"),
    ],
)
def test_bad_input_exits_2_without_a_traceback(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.sql"
    bad.write_text("SELECT 1\n")
    args = [a.format(gold=EXAMPLE / "gold.sql", bad=bad) for a in args]
    code = main(["audit-gold", "--db", str(DB), *args])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("sqlequiv: error:") and message in err
    assert "Traceback" not in err


def test_bird_rules_flag_an_order_the_set_comparison_ignores(tmp_path: Path) -> None:
    dev = tmp_path / "dev.json"
    dev.write_text(json.dumps([
        {"db_id": "school", "question": "List the students sorted by age, oldest first.",
         "SQL": "SELECT name FROM student ORDER BY age DESC, student_id"},
        {"db_id": "school", "question": "How many courses?", "SQL": "SELECT count(*) FROM course"},
    ]))  # fmt: skip
    items = load_golds("bird", dev)
    settings = AuditSettings(Options(time_budget=1.0, check_time_budget=4.0), exec_timeout=2.0)
    run = audit_benchmark("bird", items, DB, settings=settings)
    assert found_set(run.records) == {(0, "order_sensitive")}
    hazard = run.records[0]["hazards"][0]
    assert hazard["reason"] == "order_not_checked"
    assert hazard["exploit"]["misjudged_by"] == ["bird"]  # the wrong order passes a set


def test_suite_references_are_audited_with_their_databases() -> None:
    suite = build_suite(SuiteDocument({"items": [
        {"id": "top", "question": "The two largest?", "reference_kind": "query",
         "schema": "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)",
         "accepted_references": [
             {"name": "a", "sql": "SELECT id FROM t ORDER BY v DESC LIMIT 2"},
             {"name": "b", "sql": "SELECT id FROM t WHERE v > 0"}]},
        {"id": "ok", "question": "All?", "reference_kind": "query",
         "schema": "CREATE TABLE t (id INT PRIMARY KEY)",
         "accepted_references": [{"name": "a", "sql": "SELECT id FROM t"}]},
    ]}))  # fmt: skip
    run = audit_suite(suite.items, AuditSettings(Options(time_budget=1.0)))
    assert found_set(run.records) == {(0, "nondeterministic"), (0, "alternatives_disagree")}
    assert all(h["witness"]["tables"] for h in run.records[0]["hazards"])


def test_text_patterns_only_nominate() -> None:
    import sqlglot

    # SQLite takes a MAX query's bare columns from the row of the maximum: not nominated.
    assert bare_column_pair(sqlglot.parse_one(
        "SELECT name, max(age) FROM s GROUP BY country"), "sqlite") is None  # fmt: skip
    assert bare_column_pair(sqlglot.parse_one(
        "SELECT name, count(*) FROM s GROUP BY country"), "sqlite") is not None  # fmt: skip
    assert asks_for_order("Show the top 3 teams") and not asks_for_order("Which team won?")
    assert parse_kinds("empty,slow") == {"empty", "slow"} and parse_kinds("none") == set()


def test_a_run_shifted_backwards_is_found_with_its_offset() -> None:
    from dataclasses import replace

    from sqlequiv.goldaudit import shifted_runs

    items = [entry.item for entry in load_golds("spider", EXAMPLE / "gold.sql")][14:24]
    # Predictions 3..6 hold the gold of the item before them; the others their own.
    preds = [items[i - 1].gold if 3 <= i <= 6 else items[i].gold for i in range(len(items))]
    shifted = [replace(item, pred=pred) for item, pred in zip(items, preds, strict=True)]
    runs = shifted_runs(shifted, DB, "spider", timeout=2.0)
    assert [(r["offset"], r["first"], r["last"]) for r in runs] == [(-1, 17, 20)]
    assert shifted_runs(shifted, DB, "spider", min_run=5) == []


def test_the_clock_is_read_only_where_sqlite_reads_it() -> None:
    import sqlglot

    from sqlequiv.goldaudit.variants import volatile_pair

    def pinned(sql: str) -> str | None:
        pair = volatile_pair(sqlglot.parse_one(sql, read="sqlite"), 1, "sqlite")
        return pair.b if pair is not None else None

    assert pinned("SELECT upper('now') FROM t") is None
    assert pinned("SELECT a FROM t WHERE d > date('now', '-1 day')") == (
        "SELECT a FROM t WHERE d > DATE('2031-07-15 12:30:00', '-1 day')"
    )


def test_every_witness_says_how_realistic_it_is_on_the_shipped_database(
    example: tuple[int, list[dict[str, Any]], str],
) -> None:
    """A witness on the shipped database is ``on_data``; a generated one is compared with
    the shipped database as the user's data: ``realistic``, or ``edge`` with what it
    needs that the data never shows."""
    _, records, _ = example
    witnesses = [h["witness"] for r in records if r.get("record") == "gold"
                 for h in r["hazards"] if h["kind"] not in ("slow", "gold_error")]  # fmt: skip
    assert witnesses
    for witness in witnesses:
        if witness["database"] == "shipped":
            assert witness["realism"] == "on_data" and witness["breaks"] == []
        else:
            assert witness["realism"] in ("realistic", "edge"), witness
            assert bool(witness["breaks"]) == (witness["realism"] == "edge"), witness
    assert {w["realism"] for w in witnesses if w["database"] == "generated"}


def test_a_suite_audit_with_data_tiers_its_witnesses(tmp_path: Path) -> None:
    """NOT IN and NOT EXISTS part only on a NULL match.home_team, which the data never
    has: the disagreement is found with or without data, and with it is an edge case
    that says so."""
    from sqlequiv.suite.load import load_suite

    league = Path(__file__).resolve().parent.parent / "examples" / "data" / "league.sqlite"
    path = _suite_file(tmp_path, league)
    items = load_suite(path).items
    plain = audit_suite(items, AuditSettings(Options(time_budget=2.0)))
    run = audit_suite(items, AuditSettings(Options(time_budget=2.0)), data=league)
    assert found_set(plain.records) == found_set(run.records) == {(0, "alternatives_disagree")}
    assert plain.records[0]["hazards"][0]["witness"]["realism"] is None
    witness = run.records[0]["hazards"][0]["witness"]
    assert witness["realism"] == "edge"
    assert any("match.home_team" in b and "never NULL" in b for b in witness["breaks"])
    out = tmp_path / "audit.jsonl"
    code = main(["audit-gold", "--suite", str(path), "--data", str(league), "--out", str(out),
                 "--fail-on", "none"])  # fmt: skip
    assert code == 0
    record = json.loads(out.read_text().splitlines()[0])
    assert record["hazards"][0]["witness"]["realism"] == "edge"


def _suite_file(tmp: Path, league: Path) -> Path:
    import shutil

    shutil.copy(league, tmp / "league.sqlite")
    path = tmp / "suite.yaml"
    path.write_text(
        "items:\n"
        "  - id: never-home\n"
        "    question: Teams that never played at home?\n"
        "    reference_kind: query\n"
        "    schema: league.sqlite\n"
        "    dialect: sqlite\n"
        "    accepted_references:\n"
        "      - {name: exists, sql: 'SELECT t.name FROM team t WHERE NOT EXISTS "
        "(SELECT 1 FROM match m WHERE m.home_team = t.id)'}\n"
        "      - {name: not_in, sql: 'SELECT name FROM team WHERE id NOT IN "
        "(SELECT home_team FROM match)'}\n"
    )
    return path


def test_data_that_cannot_serve_leaves_the_hazards_untiered() -> None:
    """A database whose tables are not the schema's cannot sort a witness: the hazards are
    still found, as without data, with no realism."""
    league = Path(__file__).resolve().parent.parent / "examples" / "data" / "league.sqlite"
    suite = build_suite(SuiteDocument({"items": [
        {"id": "top", "question": "The two largest?", "reference_kind": "query",
         "schema": "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)",
         "accepted_references": [
             {"name": "a", "sql": "SELECT id FROM t ORDER BY v DESC LIMIT 2"},
             {"name": "b", "sql": "SELECT id FROM t WHERE v > 0"}]},
    ]}))  # fmt: skip
    settings = AuditSettings(Options(time_budget=1.0))
    plain = audit_suite(suite.items, settings)
    run = audit_suite(suite.items, settings, data=league)
    assert found_set(run.records) == found_set(plain.records)
    assert {(0, "alternatives_disagree")} <= found_set(run.records)
    assert all(h["witness"]["realism"] is None for h in run.records[0]["hazards"])
