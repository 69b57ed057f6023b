"""CI reports: JUnit XML read back as CI systems read it, GitHub workflow commands and their
escaping, and the report flags of ``check``, ``grade``, ``spider`` and ``bird``."""

from __future__ import annotations

import json
import re
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sqlequiv.ci_output import (
    Case,
    case_from_benchmark_record,
    escape_data,
    escape_property,
    render_github,
    render_junit,
)
from sqlequiv.cli import main

#: One case of each status; the unknown one's message and details carry what XML and
#: workflow commands must escape.
CASES = [
    Case("q1", "suite.a", "passed", "equivalent (proved by normalized)", seconds=0.25),
    Case("q2", "suite.a", "failed", "not equivalent (missing_rows): 1 row", "tables\nrows",
         file="q.sql", line=3),
    Case("q3", "suite.b", "error", "error: candidate: parse_error", file="q.sql", line=9),
    Case("q4", "suite.b", "unknown", "unknown: 100% <not> \"proved\" & \x00\x1b",
         "a\r\nb: c, d", file="dir/x,y.sql", line=1),
    Case("q5", "suite.b", "skipped", "new file: nothing to compare", file="new.sql"),
]  # fmt: skip

#: Attributes the JUnit schema (Jenkins', which CI systems follow) requires.
SUITE_ATTRIBUTES = ("name", "tests", "failures", "errors", "skipped", "time")
CASE_ATTRIBUTES = ("name", "classname", "time")


def check_junit(xml: str) -> ET.Element:
    """Parse ``xml`` as a CI system does and check it against the schema's structure:
    <testsuites> of <testsuite> of <testcase>, each with its required attributes and
    totals that agree with its children."""
    root = ET.fromstring(xml.encode("utf-8"))
    assert root.tag == "testsuites"
    assert all(root.get(a) is not None for a in SUITE_ATTRIBUTES)
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for suite in root:
        assert suite.tag == "testsuite"
        assert all(suite.get(a) is not None for a in SUITE_ATTRIBUTES), suite.attrib
        cases = list(suite)
        assert all(c.tag == "testcase" for c in cases)
        for case in cases:
            assert all(case.get(a) is not None for a in CASE_ATTRIBUTES), case.attrib
            float(case.get("time", ""))
            outcomes = [e for e in case if e.tag in ("failure", "error", "skipped")]
            assert len(outcomes) <= 1
            for element in outcomes:
                assert element.get("message") is not None
            assert {e.tag for e in case} <= {"failure", "error", "skipped", "system-out"}
        found = {
            "tests": len(cases),
            "failures": sum(c.find("failure") is not None for c in cases),
            "errors": sum(c.find("error") is not None for c in cases),
            "skipped": sum(c.find("skipped") is not None for c in cases),
        }
        assert {k: int(suite.get(k, "")) for k in found} == found
        for key, value in found.items():
            totals[key] += value
        float(suite.get("time", ""))
    assert {k: int(root.get(k, "")) for k in totals} == totals
    return root


def test_junit_has_the_schema_structure_and_each_status_its_element() -> None:
    root = check_junit(render_junit(CASES, name="sqlequiv grade", timestamp="2026-01-01T00:00:00"))
    assert [s.get("name") for s in root] == ["suite.a", "suite.b"]
    assert root.get("name") == "sqlequiv grade"
    assert root[0].get("timestamp") == "2026-01-01T00:00:00"
    by_name = {c.get("name"): c for c in root.iter("testcase")}
    assert by_name["q1"].get("time") == "0.250" and len(by_name["q1"]) == 0
    failure = by_name["q2"].find("failure")
    assert failure is not None and failure.get("type") == "not_equivalent"
    assert failure.get("message") == "not equivalent (missing_rows): 1 row"
    assert failure.text == "tables\nrows"
    assert by_name["q2"].get("file") == "q.sql" and by_name["q2"].get("line") == "3"
    assert by_name["q3"].find("error") is not None
    # unknown is never a silent pass: skipped by default, with the reason ...
    skipped = by_name["q4"].find("skipped")
    assert skipped is not None
    assert skipped.get("message", "").startswith('unknown: 100% <not> "proved" & ')
    assert by_name["q4"].findtext("system-out") == "a\nb: c, d"  # XML normalizes \r\n
    assert by_name["q5"].find("skipped") is not None


def test_unknown_fails_makes_unknown_a_failure() -> None:
    root = check_junit(render_junit(CASES, unknown_fails=True))
    unknown = next(c for c in root.iter("testcase") if c.get("name") == "q4")
    failure = unknown.find("failure")
    assert failure is not None and failure.get("type") == "unknown"
    assert root.get("failures") == "2" and root.get("skipped") == "1"


def test_characters_xml_cannot_hold_are_written_out_not_dropped() -> None:
    root = check_junit(render_junit(CASES))
    message = next(c for c in root.iter("skipped") if "100%" in c.get("message", ""))
    assert message.get("message", "").endswith("& \\x00\\x1b")


def test_an_empty_report_is_still_a_valid_document() -> None:
    root = check_junit(render_junit([], name="sqlequiv diff"))
    assert root.get("tests") == "0" and [s.get("name") for s in root] == ["sqlequiv diff"]


#: A workflow command: ``::name properties::message`` on one line.
COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-z]+=[^,:]*,)*title=[^,:]*)::([^\r\n]*)$")


def test_github_annotations_are_one_line_commands_escaped_as_github_requires() -> None:
    lines = render_github(CASES).split("\n")
    commands = [COMMAND.match(line) for line in lines[:-1]]
    assert all(commands), lines
    assert [m.group(1) for m in commands if m] == ["error", "error", "warning", "notice"]
    unknown = next(m for m in commands if m and m.group(1) == "warning")
    # Properties escape ':' and ',' too (the file's name holds a comma) ...
    assert unknown.group(2) == "file=dir/x%2Cy.sql,line=1,title=sqlequiv%3A unknown"
    # ... the message only '%', CR and LF.
    assert unknown.group(3) == 'q4: unknown: 100%25 <not> "proved" & \x00\x1b%0Aa%0D%0Ab: c, d'
    failed = next(m for m in commands if m and m.group(1) == "error")
    assert failed.group(2).startswith("file=q.sql,line=3,")
    assert lines[-1] == (
        "sqlequiv: 5 checked: 1 equivalent, 1 not equivalent, 1 unknown, 1 error, 1 not checked"
    )
    assert not lines[-1].startswith("::")


def test_github_unknown_fails_makes_unknown_an_error() -> None:
    lines = render_github(CASES, unknown_fails=True).split("\n")
    assert [line.split(" ", 1)[0] for line in lines[:-1]].count("::error") == 3


def test_escaping_round_trips_as_the_runner_unescapes() -> None:
    text = "50%\r\n: a, b %0A"
    # The runner's unescaping (actions/runner ActionCommand.cs), applied in its order.
    for escaped in (escape_data(text), escape_property(text)):
        back = escaped.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":")
        assert back.replace("%2C", ",").replace("%25", "%") == text
    assert "\n" not in escape_data(text) and ":" not in escape_property(text)


# -- the commands ---------------------------------------------------------------------------

DDL = "CREATE TABLE t (a INT PRIMARY KEY, b INT NOT NULL);"


@pytest.fixture
def pair(tmp_path: Path) -> dict[str, str]:
    files = {
        "schema": DDL,
        "cand": "SELECT a FROM t WHERE b > 1",
        "ref": "SELECT a FROM t WHERE b >= 1",
        "same": "SELECT t.a FROM t WHERE 1 <= t.b",
        "bad": "SELECT a FROM t\nWHERE zz = 1",
    }
    for name, text in files.items():
        (tmp_path / f"{name}.sql").write_text(text)
    return {name: str(tmp_path / f"{name}.sql") for name in files}


def test_check_junit_carries_the_counterexample_and_json_is_unchanged(
    pair: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", pair["cand"], pair["ref"], "--schema", pair["schema"]]
    assert main([*argv, "--format", "junit"]) == 1
    root = check_junit(capsys.readouterr().out)
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and (failure.get("message") or "").startswith("not equivalent")
    body = failure.text or ""
    assert "database (" in body and "candidate result:" in body and "reference result:" in body
    assert main([*argv, "--json"]) == 1
    as_alias = json.loads(capsys.readouterr().out)
    assert main([*argv, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == as_alias["verdict"] == "not_equivalent"


def test_check_github_on_stdout_and_junit_file_from_one_run(
    pair: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "reports" / "check.xml"
    argv = ["check", pair["same"], pair["ref"], "--schema", pair["schema"]]
    assert main([*argv, "--format", "github", "--junit-xml", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sqlequiv: 1 checked: 1 equivalent")  # a pass annotates nothing
    assert check_junit(report.read_text()).get("failures") == "0"
    # An error is annotated at its line of the file it is in.
    assert main(["check", pair["bad"], pair["ref"], "--schema", pair["schema"],
                 "--format", "github"]) == 2  # fmt: skip
    command = COMMAND.match(capsys.readouterr().out.splitlines()[0])
    assert command is not None and command.group(1) == "error"
    assert re.match(r"file=[^,]*bad\.sql,line=2,", command.group(2))


GRADE_SUITE = """
schemas: {shop: schema.sql}
items:
  - id: big
    question: ids with b over 1
    schema: shop
    reference_kind: query
    accepted_references:
      - {name: gold, sql: "SELECT a FROM t WHERE b > 1"}
"""


def test_grade_junit_has_a_case_per_record_at_its_candidate_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "schema.sql").write_text(DDL)
    (tmp_path / "suite.yaml").write_text(GRADE_SUITE)
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text(
        '{"id": "big", "sql": "SELECT t.a FROM t WHERE 1 < t.b"}\n'
        "\n"
        '{"id": "big", "sql": "SELECT a FROM t WHERE b >= 1"}\n'
    )
    out, report = tmp_path / "results.jsonl", tmp_path / "junit.xml"
    argv = ["grade", str(tmp_path / "suite.yaml"), str(candidates), "--out", str(out),
            "--backend", "inline", "--no-audit", "--max-fixtures", "30"]  # fmt: skip
    assert main([*argv, "--format", "github", "--junit-xml", str(report)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("::error file=")
    assert ",line=3,title=sqlequiv%3A not equivalent::big[1]: not equivalent" in lines[0]
    assert "%0Acandidate:%0ASELECT a FROM t WHERE b >= 1" in lines[0]
    root = check_junit(report.read_text())
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"big[0]", "big[1]"}
    assert cases["big[0]"].get("classname") == "suite" and cases["big[0]"].get("line") == "1"
    failure = cases["big[1]"].find("failure")
    assert failure is not None and "reference result:" in (failure.text or "")
    # A rerun grades nothing new, and its report still holds every record.
    assert main([*argv, "--format", "junit"]) == 0
    assert check_junit(capsys.readouterr().out).get("tests") == "2"


def _spider_files(root: Path) -> dict[str, Path]:
    db = root / "db" / "shop" / "shop.sqlite"
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as connection:
        connection.executescript(
            "CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER NOT NULL);"
            "INSERT INTO t VALUES (1, 1), (2, 5);"
        )
    connection.close()
    (root / "gold.sql").write_text(
        "SELECT a FROM t WHERE b > 1\tshop\nSELECT count(*) FROM t\tshop\n"
    )
    (root / "pred.sql").write_text("SELECT a FROM t WHERE b >= 2\nSELECT count(a) + 0 FROM t\n")
    (root / "predict.json").write_text(json.dumps(
        {"0": "SELECT a FROM t WHERE b >= 2\t----- bird -----\tshop",
         "1": "SELECT count(*) FROM t WHERE b > 0\t----- bird -----\tshop"}, indent=4))  # fmt: skip
    (root / "dev.json").write_text(json.dumps([
        {"question_id": 0, "db_id": "shop", "question": "q0", "evidence": "",
         "SQL": "SELECT a FROM t WHERE b > 1", "difficulty": "simple"},
        {"question_id": 1, "db_id": "shop", "question": "q1", "evidence": "",
         "SQL": "SELECT count(*) FROM t", "difficulty": "simple"}]))  # fmt: skip
    return {"db": root / "db"}


def test_spider_and_bird_reports_point_at_the_prediction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _spider_files(tmp_path)
    common = ["--db", str(files["db"]), "--backend", "inline", "--max-fixtures", "30"]
    spider = ["spider", "--gold", str(tmp_path / "gold.sql"), "--pred",
              str(tmp_path / "pred.sql"), "--out", str(tmp_path / "s.jsonl"), *common]  # fmt: skip
    assert main([*spider, "--format", "junit"]) == 0
    root = check_junit(capsys.readouterr().out)
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"spider #0", "spider #1"}
    assert cases["spider #1"].get("line") == "2" and cases["spider #1"].get("classname") == (
        "spider.shop"
    )
    bird = ["bird", "--gold", str(tmp_path / "dev.json"),
            "--pred", str(tmp_path / "predict.json"),
            "--out", str(tmp_path / "b.jsonl"), *common]  # fmt: skip
    assert main([*bird, "--format", "github"]) == 0
    lines = capsys.readouterr().out.splitlines()
    refuted = [line for line in lines if line.startswith("::error")]
    assert len(refuted) == 1 and "line=3," in refuted[0]  # key "1" is the JSON's line 3
    assert "execution match: pass; false_pass" in refuted[0]


def test_a_benchmark_record_without_a_verdict_is_an_error_case() -> None:
    case = case_from_benchmark_record({"benchmark": "bird", "index": 0, "error": None})
    assert case.status == "error" and "execution match: no score" in case.message
