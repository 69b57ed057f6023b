"""Counterexamples from the user's own data (issue 42): ``check(..., data=...)``.

On ``examples/data/league.sqlite`` (rebuilt here from its script, so the test never
depends on a stale file): the snapshot and its errors, the facts mined, and the three
tiers, each re-checked independently of the code that made it: an ``on_data``
counterexample is rows of the file on which the queries, run on the file itself with
``sqlite3``, differ; a ``realistic`` one satisfies every mined fact, re-checked in SQL on
DuckDB; an ``edge`` one is still reported, with what it breaks; and nothing is lost:
every refutation without data is one with data, and a proof stays a proof.
"""

from __future__ import annotations

import importlib.util
import sqlite3
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from sqlequiv import check
from sqlequiv.data.mining import mine
from sqlequiv.data.source import read_data
from sqlequiv.errors import SchemaError
from sqlequiv.schema import load_schema
from sqlequiv.schema.model import Schema
from support.facts_sql import holds_in_sql

ROOT = Path(__file__).resolve().parent.parent
MAKER = ROOT / "examples" / "data" / "make_league.py"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = importlib.util.spec_from_file_location("make_league", MAKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = tmp_path_factory.mktemp("data") / "league.sqlite"
    module.build(path)
    return path


@pytest.fixture(scope="module")
def schema(league: Path) -> Schema:
    return load_schema(str(league), "sqlite")


def test_the_bundled_example_is_what_its_script_writes(league: Path) -> None:
    shipped = ROOT / "examples" / "data" / "league.sqlite"
    dump = lambda p: list(sqlite3.connect(p).iterdump())  # noqa: E731
    assert dump(shipped) == dump(league)


def test_the_bundled_bank_is_what_its_script_writes(tmp_path: Path) -> None:
    maker = ROOT / "examples" / "data" / "make_bank.py"
    spec = importlib.util.spec_from_file_location("make_bank", maker)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path / "bank.sqlite")
    dump = lambda p: list(sqlite3.connect(p).iterdump())  # noqa: E731
    assert dump(ROOT / "examples" / "data" / "bank.sqlite") == dump(tmp_path / "bank.sqlite")


def test_references_are_named_after_what_they_point_at() -> None:
    """The bank's card ids 3..241 sit inside its client ids 1..300 by numbering alone:
    only the column named after its target is a reference, and an id column is no
    range (an id past the largest seen is a row added later)."""
    bank = ROOT / "examples" / "data" / "bank.sqlite"
    schema = load_schema(str(bank), "sqlite")
    facts = {(f.kind, f.table, f.column): f for f in mine(read_data(bank, schema), schema)}
    assert facts[("references", "card", "disp_id")].detail == ("disp", "disp_id")
    assert facts[("references", "loan", "account_id")].detail == ("account", "account_id")
    assert ("range", "card", "disp_id") not in facts
    assert ("range", "loan", "amount") in facts


def test_a_snapshot_reads_every_table_read_only(league: Path, schema: Schema) -> None:
    before = league.stat().st_mtime_ns
    snapshot = read_data(league, schema)
    assert snapshot.counts == {"league": 5, "team": 40, "player": 400, "match": 600}
    assert snapshot.complete and snapshot.size == 1045
    sampled = read_data(league, schema, max_rows=10)
    assert not sampled.complete and len(sampled.rows["match"]) == 10
    assert league.stat().st_mtime_ns == before  # nothing written, not even a journal


def test_data_that_does_not_match_the_schema_is_a_clear_error(
    league: Path, schema: Schema, tmp_path: Path
) -> None:
    other = load_schema("CREATE TABLE league (id INT, nickname TEXT)")
    with pytest.raises(SchemaError, match="table 'league' has no column 'nickname'"):
        read_data(league, other)
    with pytest.raises(SchemaError, match="has no table 'stadium'"):
        read_data(league, load_schema("CREATE TABLE stadium (id INT)"))
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    with pytest.raises(SchemaError) as info:
        read_data(junk, schema)
    assert info.value.kind == "unreadable_database"
    verdict = check("SELECT 1", "SELECT 2", schema, "sqlite", data=tmp_path / "missing.db")
    assert verdict.error is not None and verdict.error.kind == "file_not_found"


def test_a_duckdb_file_is_read_too(tmp_path: Path) -> None:
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR)")
    con.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)")
    con.close()
    snapshot = read_data(path, load_schema("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)"))
    assert snapshot.counts == {"t": 3} and sorted(snapshot.rows["t"], key=repr)[0][0] == 1


def test_the_facts_are_what_the_data_shows(league: Path, schema: Schema) -> None:
    facts = {(f.kind, f.table, f.column): f for f in mine(read_data(league, schema), schema)}
    assert ("unique", "team", "name") in facts  # unique in practice, not declared
    assert ("not_null", "team", "city") in facts
    assert ("not_null", "player", "height") not in facts  # some heights are NULL
    # The foreign key the schema forgot, across mismatched types: TEXT '7' -> INTEGER 7.
    assert facts[("references", "player", "team_id")].detail == ("team", "id")
    assert facts[("values", "match", "season")].detail == ("2021", "2022", "2023")
    assert facts[("non_empty", "match", None)].evidence == "match has 600 rows"
    # A table's own key is no reference to another table's (1..5 inside 1..40).
    assert ("references", "league", "id") not in facts
    assert facts[("unique", "team", "name")].evidence == "team.name is unique over 40 rows"
    # Text shapes: dates kept as text, numbers kept as text, names with no stray space.
    assert facts[("shape", "player", "birthday")].detail == "date"
    assert facts[("shape", "player", "team_id")].detail == "number"
    assert facts[("shape", "team", "name")].detail == "trimmed"
    assert ("shape", "match", "season") not in facts  # a category says more
    # A season is fixed by the day a match is played on, not the other way round.
    assert facts[("determines", "match", "played_on")].detail == "season"
    assert ("determines", "match", "season") not in facts


def test_a_text_shape_and_a_dependency_say_what_breaks_them(schema: Schema) -> None:
    from sqlequiv.data.mining import Fact
    from sqlequiv.database import Database

    date = Fact("shape", "player", "birthday", "date", "dates")
    row = (1, "1", "Ann", "F", 1.8, "1999-12-31")
    assert date.broken_by(Database({"player": (row,)}), schema) is None
    late = (*row[:5], "1999-12-31 10:00")
    assert date.broken_by(Database({"player": (late,)}), schema) == (
        "needs player.birthday = '1999-12-31 10:00'; dates"
    )
    trimmed = Fact("shape", "team", "name", "trimmed", "trimmed")
    assert not trimmed.holds_for("Leeds ") and not trimmed.holds_for("")
    season = Fact("determines", "match", "played_on", "season", "one season a day")
    one = (1, "2021", "2021-08-01", 1, 2, 0, 0)
    other = (2, "2022", "2021-08-01", 3, 4, 0, 0)
    assert season.broken_by(Database({"match": (one,)}), schema) is None
    assert season.broken_by(Database({"match": (one, other)}), schema) == (
        "needs two rows with match.played_on = '2021-08-01' and different season; "
        "one season a day"
    )


ON_DATA = ("SELECT COUNT(*) FROM player WHERE height > 1.9",
           "SELECT COUNT(*) FROM player WHERE height >= 1.9")  # fmt: skip
REALISTIC = (
    "SELECT l.name, COUNT(t.id) FROM league l LEFT JOIN team t ON t.league_id = l.id GROUP BY l.id",
    "SELECT l.name, COUNT(*) FROM league l JOIN team t ON t.league_id = l.id GROUP BY l.id",
)
EDGE = ("SELECT name FROM team WHERE id NOT IN (SELECT home_team FROM match)",
        "SELECT t.name FROM team t WHERE NOT EXISTS "
        "(SELECT 1 FROM match m WHERE m.home_team = t.id)")  # fmt: skip
PROVED = ("SELECT t.name FROM team t WHERE t.id IN (SELECT home_team FROM match)",
          "SELECT t.name FROM team t WHERE EXISTS "
          "(SELECT 1 FROM match m WHERE m.home_team = t.id)")  # fmt: skip


def test_on_data_is_rows_of_the_data_on_which_the_queries_differ(
    league: Path, schema: Schema
) -> None:
    verdict = check(*ON_DATA, schema, "sqlite", data=league)
    example = verdict.counterexample
    assert verdict.verdict == "not_equivalent" and verdict.method == "on_data"
    assert example is not None and example.realism == "on_data" and example.breaks == []
    # Independently: the queries differ on the file itself, and every reported row is one
    # of the file's rows (dropped rows only, no value changed).
    con = sqlite3.connect(f"file:{league}?mode=ro", uri=True)
    assert con.execute(ON_DATA[0]).fetchall() != con.execute(ON_DATA[1]).fetchall()
    for table, rows in example.tables.items():
        stored = {tuple(r) for r in con.execute(f"SELECT * FROM {table}")}
        assert all(tuple(r.values()) in stored for r in rows), table
    assert sum(len(rows) for rows in example.tables.values()) <= 3  # the difference, not the data


def test_a_realistic_counterexample_keeps_every_fact_of_the_data(
    league: Path, schema: Schema
) -> None:
    verdict = check(*REALISTIC, schema, "sqlite", data=league)
    example = verdict.counterexample
    assert verdict.verdict == "not_equivalent"
    assert example is not None and example.realism == "realistic" and example.breaks == []
    facts = mine(read_data(league, schema), schema)
    read = {"league", "team"}
    filled = {t for t, rows in example.tables.items() if rows}
    checked = [f for f in facts if f.table in read or (f.kind != "non_empty" and f.table in filled)]
    assert len(checked) >= 10
    for fact in checked:
        assert holds_in_sql(fact, example.tables, schema), fact.evidence


def test_an_edge_counterexample_is_kept_and_says_what_it_breaks(
    league: Path, schema: Schema
) -> None:
    without = check(*EDGE, schema, "sqlite")
    verdict = check(*EDGE, schema, "sqlite", data=league)
    assert without.verdict == verdict.verdict == "not_equivalent"
    example = verdict.counterexample
    assert example is not None and example.realism == "edge"
    # NOT IN over a NULL: the data never leaves match.home_team NULL, and that is the
    # one fact the difference needs broken (the others the search broke are mended).
    assert len(example.breaks) == 1, example.breaks
    assert "match.home_team" in example.breaks[0] and "never NULL" in example.breaks[0]
    assert without.counterexample is not None and without.counterexample.realism is None
    assert verdict.to_dict()["counterexample"]["breaks"] == example.breaks


def test_a_proof_stays_a_proof_and_data_never_makes_one(league: Path, schema: Schema) -> None:
    verdict = check(*PROVED, schema, "sqlite", data=league)
    assert verdict.verdict == "equivalent"
    # Equal on the data, different on a database it does not hold: still refuted.
    same_on_data = ("SELECT name FROM team WHERE city IS NOT NULL", "SELECT name FROM team")
    refuted = check(*same_on_data, schema, "sqlite", data=league)
    assert refuted.verdict == "not_equivalent"
    assert refuted.counterexample is not None and refuted.counterexample.realism == "edge"


def test_the_cli_takes_data(
    league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sqlequiv.cli import main

    cand, ref = tmp_path / "c.sql", tmp_path / "r.sql"
    cand.write_text(ON_DATA[0])
    ref.write_text(ON_DATA[1])
    code = main(["check", str(cand), str(ref), "--schema", str(league), "--dialect", "sqlite",
                 "--data", str(league)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1 and "realism: on_data" in out
    tiers = Counter(
        check(*pair, str(league), "sqlite", data=league).counterexample.realism  # type: ignore[union-attr]
        for pair in (ON_DATA, REALISTIC, EDGE)
    )
    assert tiers == Counter({"on_data": 1, "realistic": 1, "edge": 1})


def test_a_suite_with_data_grades_with_tiers(league: Path, tmp_path: Path) -> None:
    """``data:`` in a suite (here the suite's, relative to its directory) sorts each
    failing candidate's counterexample; a wrong path is a problem of the suite."""
    from sqlequiv.grading import grade
    from sqlequiv.suite.load import SuiteDocument, SuiteError, build_suite

    item = {"id": "q", "question": "?", "schema": str(league), "dialect": "sqlite",
            "reference_kind": "query",
            "accepted_references": [{"name": "gold", "sql": REALISTIC[0]}]}  # fmt: skip
    suite = build_suite(SuiteDocument({"data": league.name, "items": [item]},
                                      base_dir=str(league.parent)))  # fmt: skip
    assert suite.item("q").data == league
    record = grade(suite.item("q"), REALISTIC[1])
    assert record.status == "fail"
    assert record.counterexample is not None and record.counterexample["realism"] == "realistic"
    with pytest.raises(SuiteError, match="no such database file"):
        build_suite(SuiteDocument({"data": "missing.sqlite", "items": [item]},
                                  base_dir=str(tmp_path)))  # fmt: skip


def test_fail_on_lets_a_grader_fail_only_realistic_refutations(league: Path) -> None:
    """``--fail-on realistic``: a candidate refuted only by an edge case (a NULL the data
    never holds) is not failed, and says why; a realistic refutation still fails it; and
    ``on_data`` fails only what the data itself shows."""
    from sqlequiv.errors import InvalidOption
    from sqlequiv.grading import grade
    from sqlequiv.grading.worker import Settings
    from sqlequiv.suite.load import SuiteDocument, build_suite
    from sqlequiv.suite.model import Item

    def item(gold: str) -> Item:
        spec = {"id": "q", "question": "?", "schema": str(league), "dialect": "sqlite",
                "reference_kind": "query", "data": league.name,
                "accepted_references": [{"name": "gold", "sql": gold}]}  # fmt: skip
        suite = build_suite(SuiteDocument({"items": [spec]}, base_dir=str(league.parent)))
        return suite.item("q")

    edge = item(EDGE[1])
    assert grade(edge, EDGE[0]).status == "fail"
    waived = grade(edge, EDGE[0], fail_on="realistic")
    assert waived.status == "pass" and waived.proved is False
    assert waived.detail is not None and "--fail-on realistic" in waived.detail
    assert waived.counterexample is not None and waived.counterexample["realism"] == "edge"
    realistic = item(REALISTIC[0])
    assert grade(realistic, REALISTIC[1], fail_on="realistic").status == "fail"
    assert grade(realistic, REALISTIC[1], fail_on="on_data").status == "pass"
    on_data = item(ON_DATA[1])
    assert grade(on_data, ON_DATA[0], fail_on="on_data").status == "fail"
    with pytest.raises(InvalidOption):
        Settings(fail_on="sometimes")


def test_the_grade_summary_splits_failures_by_realism() -> None:
    from sqlequiv.grading.summary import render_grade_summary, summarize_grades

    records = [
        {"item_id": "a", "status": "fail", "cause": "grain",
         "counterexample": {"realism": "edge", "breaks": ["needs ..."]}},
        {"item_id": "b", "status": "fail", "cause": "missing_rows",
         "counterexample": {"realism": "on_data", "breaks": []}},
        {"item_id": "c", "status": "fail", "cause": "grain", "counterexample": {"realism": None}},
    ]  # fmt: skip
    summary = summarize_grades(records)
    assert summary["failures_by_realism"] == {"on_data": 1, "edge": 1}
    line = next(x for x in render_grade_summary(summary).splitlines() if "by realism" in x)
    assert line.split() == ["by", "realism", "on_data", "1,", "edge", "1"]
    assert summarize_grades(records[2:])["failures_by_realism"] == {}


def test_fixtures_with_data_come_sorted_by_realism(league: Path, tmp_path: Path) -> None:
    """``sqlequiv fixtures --data``: the data's own rows first when the queries differ on
    them, then each distinguishing database realistic or edge, what it breaks said."""
    from sqlequiv import distinguishing_fixtures

    verdict, examples = distinguishing_fixtures(*ON_DATA, str(league), "sqlite", limit=3,
                                                data=league)  # fmt: skip
    assert verdict.verdict == "not_equivalent" and examples
    assert examples[0].realism == "on_data"
    tiers = [e.realism for e in examples]
    assert tiers == sorted(tiers, key=["on_data", "realistic", "edge"].index)
    assert all((e.realism == "edge") == bool(e.breaks) for e in examples)
    _, plain = distinguishing_fixtures(*ON_DATA, str(league), "sqlite", limit=3)
    assert all(e.realism is None for e in plain)


def test_a_few_rows_of_the_data_make_a_realistic_counterexample(
    league: Path, schema: Schema, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every team has players in the data, so COUNT(*) and COUNT(p.id) over the LEFT JOIN
    agree there; two teams of the data with only one's players tell them apart, and
    break nothing the data shows (the rows are the data's own). The first find is not
    mended here, so that the small sets of the data's rows are what finds it."""
    from sqlequiv.pipeline import realism

    monkeypatch.setattr(realism, "mend", lambda db, *args, **kwargs: db)
    star = ("SELECT t.name, COUNT(*) FROM team t LEFT JOIN player p ON p.team_id = t.id "
            "GROUP BY t.id")  # fmt: skip
    ids = star.replace("COUNT(*)", "COUNT(p.id)")
    verdict = check(star, ids, schema, "sqlite", data=league)
    example = verdict.counterexample
    assert verdict.verdict == "not_equivalent"
    assert example is not None and example.realism == "realistic", example and example.breaks
    con = sqlite3.connect(f"file:{league}?mode=ro", uri=True)
    stored = {tuple(r) for r in con.execute("SELECT * FROM team")}
    assert all(tuple(r.values()) in stored for r in example.tables["team"])
    facts = mine(read_data(league, schema), schema)
    read = {"team", "player"}
    filled = {t for t, rows in example.tables.items() if rows}
    for fact in facts:
        if fact.table in read or (fact.kind != "non_empty" and fact.table in filled):
            assert holds_in_sql(fact, example.tables, schema), fact.evidence


def test_an_edge_counterexample_keeps_only_the_breaks_the_difference_needs(
    league: Path, schema: Schema
) -> None:
    """The search's find breaks facts by accident (a NULL name, a founding year of 0, a
    league that is not there); mended, it breaks only the NULL city the difference needs,
    and the queries still differ on it, re-executed here on SQLite."""
    from sqlequiv.data.realism import broken_facts
    from sqlequiv.database import Database

    pair = ("SELECT city FROM team WHERE city IS NOT NULL", "SELECT city FROM team")
    facts = mine(read_data(league, schema), schema)
    without = check(*pair, schema, "sqlite")
    assert without.counterexample is not None and without.counterexample.database is not None
    assert len(broken_facts(without.counterexample.database, facts, schema, {"team"})) > 1
    verdict = check(*pair, schema, "sqlite", data=league)
    example = verdict.counterexample
    assert example is not None and example.realism == "edge"
    assert [b.split(";")[0] for b in example.breaks] == ["needs a NULL team.city"]
    con = sqlite3.connect(":memory:")
    source = sqlite3.connect(f"file:{league}?mode=ro", uri=True)
    for (ddl,) in source.execute("SELECT sql FROM sqlite_master WHERE type = 'table'"):
        con.execute(ddl)
    for table, rows in example.tables.items():
        for row in rows:
            marks = ", ".join("?" for _ in row)
            con.execute(f"INSERT INTO {table} VALUES ({marks})", tuple(row.values()))
    assert sorted(map(repr, con.execute(pair[0]))) != sorted(map(repr, con.execute(pair[1])))
    assert example.database is not None
    assert broken_facts(example.database, facts, schema, {"team"}) == example.breaks
    assert isinstance(example.database, Database)


def test_a_difference_that_needs_a_time_in_a_date_column_is_edge(
    league: Path, schema: Schema
) -> None:
    """BETWEEN '1990-01-01' AND '1999-12-31' and < '2000-01-01' part only on a birthday
    written with a time (or any text past the date): the data writes every birthday as a
    date, so the refutation is an edge case, and says so."""
    pair = (
        "SELECT name FROM player WHERE birthday BETWEEN '1990-01-01' AND '1999-12-31'",
        "SELECT name FROM player WHERE birthday >= '1990-01-01' AND birthday < '2000-01-01'",
    )
    verdict = check(*pair, schema, "sqlite", data=league)
    example = verdict.counterexample
    assert verdict.verdict == "not_equivalent" and example is not None
    assert example.realism == "edge"
    assert len(example.breaks) == 1 and "date written YYYY-MM-DD" in example.breaks[0]


def test_a_counterexample_is_dressed_in_the_data_s_values(league: Path, schema: Schema) -> None:
    """The values the difference does not need are the data's own (a league's name, a
    team's city), not the search's 'a' and 0."""
    verdict = check(*REALISTIC, schema, "sqlite", data=league)
    example = verdict.counterexample
    assert example is not None and example.realism == "realistic"
    con = sqlite3.connect(f"file:{league}?mode=ro", uri=True)
    names = {n for (n,) in con.execute("SELECT name FROM league")}
    assert [r["name"] for r in example.tables["league"]]
    assert all(r["name"] in names for r in example.tables["league"])


def test_mending_gives_a_row_the_value_its_determinant_fixes() -> None:
    """Two matches on one day in two seasons break "played_on determines season": mended,
    the second takes the first's season, where the difference does not need it."""
    from sqlequiv.data.mining import Fact
    from sqlequiv.data.source import Snapshot
    from sqlequiv.database import Database
    from sqlequiv.pipeline.repair import mend
    from sqlequiv.search.domains import build_domains
    from sqlequiv.search.harvest import Harvest

    schema = load_schema("CREATE TABLE m (id INT PRIMARY KEY, season TEXT, day TEXT)")
    season = Fact("determines", "m", "day", "season", "one season a day")
    db = Database({"m": ((1, "2021", "2021-08-01"), (2, "2022", "2021-08-01"))})
    snapshot = Snapshot("x", {"m": ((1, "2021", "2021-08-01"),)}, {"m": 1})
    mended = mend(db, lambda d: len(d.rows("m")) == 2, [season], snapshot, schema,
                  build_domains(schema, Harvest(), 3), {"m"})  # fmt: skip
    assert mended.rows("m") == ((1, "2021", "2021-08-01"), (2, "2021", "2021-08-01"))
    assert season.broken_by(mended, schema) is None
