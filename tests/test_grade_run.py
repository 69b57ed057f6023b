"""`sqlequiv grade`: results files, resuming, interrupts, anomalies.json, isolated workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sqlequiv.cli import main
from sqlequiv.grading import RECORD_KEYS
from sqlequiv.grading.run import grade_suite
from sqlequiv.grading.worker import Settings
from sqlequiv.options import Options

DDL = """
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  plan VARCHAR NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise'))
);
"""

SUITE = """
schemas: {shop: schema.sql}
fixtures:
  two:
    rows:
      customers:
        - {customer_id: 1, name: Ann, plan: enterprise}
        - {customer_id: 2, name: Bo, plan: pro}
items:
  - id: ent
    question: Enterprise customer ids
    schema: shop
    reference_kind: query
    accepted_references:
      - {name: eq, sql: "SELECT customer_id FROM customers WHERE plan = 'enterprise'"}
    fixtures: [two]
    difficulty: easy
  - id: noref
    question: Broken item
    schema: shop
    reference_kind: query
  - id: hostile
    question: Any customers (a predicate that misbehaves on purpose)
    schema: shop
    reference_kind: predicate
    predicate: misbehave:check
    fixtures: [two]
"""

MISBEHAVE = """
import os, time

def check(rows):
    ids = {r["customer_id"] for r in rows}
    if ids == {2}:
        os._exit(3)          # the worker process dies
    if ids == {1}:
        time.sleep(float(os.environ.get("SQLEQUIV_TEST_SLEEP", "60")))
    return True
"""

CANDIDATES = [
    {"id": "ent", "sql": "SELECT c.customer_id FROM customers AS c WHERE c.plan = 'enterprise'"},
    {"id": "ent", "sql": "SELECT customer_id FROM customers", "model": "m2"},
    {"id": "ent", "sql": "SELEC customer_id FROM customers"},
    {"id": "noref", "sql": "SELECT 1"},
]

FAST = Options(max_fixtures=30, time_budget=1.0, bounded_time_budget=0.5)


def write_suite(tmp: Path, candidates: list[dict[str, Any]]) -> tuple[Path, Path]:
    (tmp / "schema.sql").write_text(DDL)
    (tmp / "misbehave.py").write_text(MISBEHAVE)
    (tmp / "suite.yaml").write_text(SUITE)
    cands = tmp / "candidates.jsonl"
    cands.write_text("".join(json.dumps(c) + "\n" for c in candidates))
    return tmp / "suite.yaml", cands


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_cli_grades_writes_durable_records_and_anomalies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite, cands = write_suite(tmp_path, CANDIDATES)
    out = tmp_path / "run" / "results.jsonl"
    code = main(["grade", str(suite), str(cands), "--out", str(out), "--backend", "inline",
                 "--max-fixtures", "30", "--time-budget", "1"])  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0
    records = lines(out)
    assert [(r["item_id"], r["sample"], r["status"]) for r in records] == [
        ("ent", 0, "pass"),
        ("ent", 1, "fail"),
        ("ent", 2, "error"),
        ("noref", 0, "anomaly"),
    ]
    for record in records:
        assert tuple(record) == RECORD_KEYS  # same keys, nulls written, never dropped
    assert records[0]["item_meta"] == {"difficulty": "easy"}
    assert records[1]["candidate_meta"] == {"model": "m2"}
    assert records[1]["counterexample"]["name"] == "two"
    assert records[3]["passed"] is None and records[3]["anomaly"]["kind"] == "missing_reference"
    anomalies = json.loads((tmp_path / "run" / "anomalies.json").read_text())
    assert anomalies["items_audited"] == ["ent", "noref"]
    assert [(a["item_id"], a["kind"]) for a in anomalies["anomalies"]] == [
        ("noref", "missing_reference")
    ]
    assert "pass rate" in printed and "33.3% (1/3)" in printed
    assert "missing_reference" in printed


def test_rerun_resumes_skips_done_pairs_and_cuts_a_torn_line(tmp_path: Path) -> None:
    suite, cands = write_suite(tmp_path, CANDIDATES[:2])
    out = tmp_path / "results.jsonl"
    settings = Settings(options=FAST)
    first = grade_suite(suite, cands, out, backend="inline", settings=settings)
    assert first.graded_now == 2 and first.resumed == 0
    with open(out, "a") as handle:
        handle.write('{"item_id": "ent", "sample": 2, "sta')  # died mid-write
    write_suite(tmp_path, CANDIDATES)
    second = grade_suite(suite, cands, out, backend="inline", settings=settings)
    assert second.graded_now == 2 and second.resumed == 2
    assert second.summary["pairs"] == 4
    keys = [(r["item_id"], r["sample"]) for r in lines(out)]
    assert keys == [("ent", 0), ("ent", 1), ("ent", 2), ("noref", 0)]
    third = grade_suite(suite, cands, out, backend="inline", settings=settings)
    assert third.graded_now == 0 and third.resumed == 4


def test_results_of_other_candidates_are_refused(tmp_path: Path) -> None:
    suite, cands = write_suite(tmp_path, CANDIDATES[:1])
    out = tmp_path / "results.jsonl"
    assert main(["grade", str(suite), str(cands), "--out", str(out), "--backend", "inline"]) == 0
    changed = [{**CANDIDATES[0], "sql": "SELECT 2"}]
    write_suite(tmp_path, changed)
    assert main(["grade", str(suite), str(cands), "--out", str(out), "--backend", "inline"]) == 2


def test_bad_inputs_exit_2_naming_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite, cands = write_suite(tmp_path, [{"id": "nope", "sql": "SELECT 1"}, {"id": "ent"}])
    code = main(["grade", str(suite), str(cands), "--out", str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert code == 2
    assert "line 1" in err and "'nope' is not an item" in err
    assert "line 2" in err and "`sql` must be a string" in err


def test_identical_samples_are_graded_once(tmp_path: Path) -> None:
    same = CANDIDATES[0]["sql"]
    suite, cands = write_suite(
        tmp_path, [{"id": "ent", "sql": same}, {"id": "ent", "sql": same, "model": "b"}]
    )
    result = grade_suite(suite, cands, tmp_path / "r.jsonl", backend="inline",
                         settings=Settings(options=FAST))  # fmt: skip
    first, second = result.records
    assert first["duplicate_of"] is None and second["duplicate_of"] == 0
    assert second["sample"] == 1 and second["candidate_meta"] == {"model": "b"}
    assert first["status"] == second["status"] == "pass"


def test_local_workers_survive_a_crash_and_a_hang(tmp_path: Path) -> None:
    hostile = [
        {"id": "hostile", "sql": "SELECT customer_id FROM customers WHERE customer_id = 2"},
        {"id": "hostile", "sql": "SELECT customer_id FROM customers WHERE customer_id = 1"},
        {"id": "hostile", "sql": "SELECT customer_id FROM customers"},
        *CANDIDATES[:2],
    ]
    suite, cands = write_suite(tmp_path, hostile)
    settings = Settings(options=FAST, task_timeout=8.0, predicate_databases=3)
    started = time.monotonic()
    result = grade_suite(suite, cands, tmp_path / "r.jsonl", backend="local", jobs=2,
                         settings=settings, audit=False)  # fmt: skip
    elapsed = time.monotonic() - started
    by_sample = {(r["item_id"], r["sample"]): r for r in result.records}
    crashed = by_sample[("hostile", 0)]
    assert crashed["status"] == "error" and crashed["error"]["kind"] == "worker_crashed"
    hung = by_sample[("hostile", 1)]
    assert hung["status"] == "error" and hung["error"]["kind"] == "timeout"
    assert by_sample[("hostile", 2)]["status"] == "pass"
    assert by_sample[("ent", 0)]["status"] == "pass"
    assert by_sample[("ent", 1)]["status"] == "fail"
    assert result.workers_replaced == 2
    for record in result.records:
        assert tuple(record) == RECORD_KEYS
    assert elapsed < 60  # the hang cost its own timeout, not the predicate's 60 s


def test_ctrl_c_keeps_what_is_written_and_the_rerun_finishes(tmp_path: Path) -> None:
    slow = [
        {"id": "hostile", "sql": f"SELECT customer_id FROM customers WHERE customer_id = 1 AND {n}"}
        for n in range(6)
    ]
    suite, cands = write_suite(tmp_path, slow)
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(out), "--jobs", "1", "--predicate-databases", "0", "--no-audit"]  # fmt: skip
    env = {**os.environ, "SQLEQUIV_TEST_SLEEP": "1.5"}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (not out.exists() or not out.read_text().strip()):
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err.decode()
    assert b"rerun the same command to resume" in err
    written = lines(out)  # every line is a whole record
    assert 1 <= len(written) < 6
    finish = subprocess.run(command, check=False, env=env, capture_output=True, timeout=120)
    assert finish.returncode == 0, finish.stderr.decode()
    assert sorted(r["sample"] for r in lines(out)) == list(range(6))


def test_workers_exit_quietly_when_grade_is_killed(tmp_path: Path) -> None:
    slow = [
        {"id": "hostile", "sql": f"SELECT customer_id FROM customers WHERE customer_id = 1 AND {n}"}
        for n in range(6)
    ]
    suite, cands = write_suite(tmp_path, slow)
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(out), "--jobs", "2", "--predicate-databases", "0", "--no-audit"]  # fmt: skip
    env = {**os.environ, "SQLEQUIV_TEST_SLEEP": "1.5"}
    stderr = tmp_path / "stderr.txt"
    with open(stderr, "wb") as err:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and (not out.exists() or not out.read_text().strip()):
            time.sleep(0.1)
        process.kill()
        process.wait(10)
        time.sleep(4)  # the workers finish their task and find the parent gone
    assert "Traceback" not in stderr.read_text(), stderr.read_text()


def test_a_second_run_on_the_same_out_fails_at_once(tmp_path: Path) -> None:
    slow = [
        {"id": "hostile", "sql": f"SELECT customer_id FROM customers WHERE customer_id = 1 AND {n}"}
        for n in range(3)
    ]
    suite, cands = write_suite(tmp_path, slow)
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(out), "--jobs", "1", "--predicate-databases", "0", "--no-audit"]  # fmt: skip
    env = {**os.environ, "SQLEQUIV_TEST_SLEEP": "1.5"}
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (not out.exists() or not out.read_text().strip()):
        time.sleep(0.1)
    second = subprocess.run(command, check=False, env=env, capture_output=True, timeout=60)
    assert second.returncode == 2, second.stderr.decode()
    message = second.stderr.decode()
    assert f"r.jsonl is being written by another sqlequiv grade (pid {first.pid})" in message
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err.decode()
    assert sorted(r["sample"] for r in lines(out)) == [0, 1, 2]


def test_a_rerun_retries_a_crash_or_timeout_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = [
        {"id": "hostile", "sql": "SELECT customer_id FROM customers WHERE customer_id = 2"},
        {"id": "hostile", "sql": "SELECT customer_id FROM customers WHERE customer_id = 1"},
        CANDIDATES[0],
    ]
    suite, cands = write_suite(tmp_path, hostile)
    out = tmp_path / "r.jsonl"
    monkeypatch.setenv("SQLEQUIV_TEST_SLEEP", "6")  # the workers inherit it

    def grade(task_timeout: float) -> Any:
        settings = Settings(options=FAST, task_timeout=task_timeout, predicate_databases=0)
        return grade_suite(suite, cands, out, backend="local", jobs=2, settings=settings,
                           audit=False)  # fmt: skip

    first = grade(3.0)  # the hang overruns
    assert [(r["sample"], r["error"] and r["error"]["kind"], r["attempts"])
            for r in sorted(first.records, key=lambda r: str(r["item_id"]) + str(r["sample"]))
            ] == [(0, None, 1), (0, "worker_crashed", 1), (1, "timeout", 1)]  # fmt: skip
    second = grade(30.0)  # the retry has the time it needs; the crash crashes again
    assert second.graded_now == 2 and second.resumed == 1 and second.summary["pairs"] == 3
    by_key = {(r["item_id"], r["sample"]): r for r in second.records}
    assert by_key[("hostile", 0)]["error"]["kind"] == "worker_crashed"  # it crashes every time
    assert by_key[("hostile", 0)]["attempts"] == 2
    assert by_key[("hostile", 1)]["status"] == "pass" and by_key[("hostile", 1)]["attempts"] == 2
    for record in lines(out):
        assert tuple(record) == RECORD_KEYS
    assert len(lines(out)) == 5  # the first attempts stay on disk; the last line of a pair wins
    third = grade(30.0)  # a second failure is not retried again
    assert third.graded_now == 0 and third.resumed == 3
    assert main(["stats", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["n_records"] == 3
