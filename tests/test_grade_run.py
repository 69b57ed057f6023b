"""`sqlequiv grade`: results files, resuming, interrupts, anomalies.json, isolated workers."""

from __future__ import annotations

import json
import multiprocessing
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
from sqlequiv.suite import SuiteError

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


def test_a_suite_that_does_not_build_stops_the_early_workers_quietly(tmp_path: Path) -> None:
    # Local workers start while the parent builds the suite; a fixture that breaks the
    # schema's CHECK stops the run with the parent's message, not a worker's traceback.
    suite, cands = write_suite(tmp_path, CANDIDATES[:1])
    suite.write_text(SUITE.replace("plan: pro", "plan: gold"))
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(tmp_path / "r.jsonl"), "--jobs", "2"]  # fmt: skip
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "violates the schema's constraints" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def test_local_workers_are_gone_when_the_run_returns(tmp_path: Path) -> None:
    suite, cands = write_suite(tmp_path, CANDIDATES[:2])
    result = grade_suite(suite, cands, tmp_path / "r.jsonl", backend="local", jobs=2,
                         settings=Settings(options=FAST), audit=False)  # fmt: skip
    assert {r["sample"]: r["status"] for r in result.records} == {0: "pass", 1: "fail"}
    assert multiprocessing.active_children() == []


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


def slow_candidates(n: int) -> list[dict[str, str]]:
    """``n`` distinct candidates of the item whose predicate sleeps SQLEQUIV_TEST_SLEEP s."""
    return [
        {"id": "hostile", "sql": f"SELECT customer_id FROM customers WHERE customer_id = 1 AND {k}"}
        for k in range(n)
    ]


def test_ctrl_c_keeps_what_is_written_and_the_rerun_finishes(tmp_path: Path) -> None:
    slow = slow_candidates(6)
    suite, cands = write_suite(tmp_path, slow)
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(out), "--jobs", "1", "--predicate-databases", "0", "--no-audit"]  # fmt: skip
    env = {**os.environ, "SQLEQUIV_TEST_SLEEP": "1.5"}
    # A shell that runs this suite in the background (CI's, without job control) makes its
    # children ignore SIGINT, and Python keeps an inherited SIG_IGN: grade would then never
    # see the Ctrl-C. A terminal's Ctrl-C reaches a grade whose SIGINT is the default.
    # (A handled signal is reset to the default by exec, an ignored one is not.)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    finally:
        signal.signal(signal.SIGINT, inherited)
    wait_for_records(out, 1, process)
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
    slow = slow_candidates(6)
    suite, cands = write_suite(tmp_path, slow)
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(out), "--jobs", "2", "--predicate-databases", "0", "--no-audit"]  # fmt: skip
    env = {**os.environ, "SQLEQUIV_TEST_SLEEP": "1.5"}
    stderr = tmp_path / "stderr.txt"
    with open(stderr, "wb") as err:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        wait_for_records(out, 1, process)
        process.kill()
        process.wait(10)
        time.sleep(4)  # the workers finish their task and find the parent gone
    assert "Traceback" not in stderr.read_text(), stderr.read_text()


def test_a_second_run_on_the_same_out_fails_at_once(tmp_path: Path) -> None:
    slow = slow_candidates(3)
    suite, cands = write_suite(tmp_path, slow)
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out",
               str(out), "--jobs", "1", "--predicate-databases", "0", "--no-audit"]  # fmt: skip
    env = {**os.environ, "SQLEQUIV_TEST_SLEEP": "1.5"}
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_records(out, 1, first)
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


def test_a_write_to_a_full_device_raises_results_unwritable() -> None:
    from sqlequiv.grading.results import ResultsUnwritable, ResultWriter

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    writer = ResultWriter("/dev/full")  # every write fails with ENOSPC
    with pytest.raises(ResultsUnwritable, match="No space left on device"):
        writer.write({"item_id": "q", "sample": 0})
    with pytest.raises(ResultsUnwritable):  # and keeps failing, without writing more
        writer.write({"item_id": "q", "sample": 1})
    writer.close()


def test_a_results_path_that_is_not_a_file_is_refused(tmp_path: Path) -> None:
    suite, cands = write_suite(tmp_path, CANDIDATES[:1])
    out = tmp_path / "r.jsonl"
    out.symlink_to("/dev/zero")  # would be read for ever
    with pytest.raises(SuiteError, match="is not a regular file"):
        grade_suite(suite, cands, out, backend="inline", settings=Settings(options=FAST))


# ------------------------------------------------ faults: each resumes to an uninterrupted run

#: Slow pairs first (the predicate sleeps SQLEQUIV_TEST_SLEEP s on them), so a fault lands
#: while one is being graded; then a pass, a fail, an error and an anomaly.
FAULT_CANDIDATES = slow_candidates(4) + CANDIDATES
FAULT_ENV = {**os.environ, "SQLEQUIV_TEST_SLEEP": "0.6"}
#: What may differ between two runs of the same pairs: how long they took, and how many
#: attempts a pair needed (a retry after a fault says so).
VARIABLE_KEYS = ("timings", "attempts")


def fault_command(suite: Path, cands: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "sqlequiv", "grade", str(suite), str(cands), "--out", str(out),
            "--jobs", "1", "--predicate-databases", "0", "--max-fixtures", "30",
            "--time-budget", "1"]  # fmt: skip


def comparable(out: Path) -> list[dict[str, Any]]:
    """The latest record of each pair, in (item, sample) order, without timings or attempts."""
    from sqlequiv.grading.results import latest_records, read_results

    records = [
        {k: v for k, v in r.items() if k not in VARIABLE_KEYS}
        for r in latest_records(read_results(out))
    ]
    return sorted(records, key=lambda r: (str(r["item_id"]), str(r["sample"])))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The records of a run nothing interrupts, to compare every fault run with."""
    tmp = tmp_path_factory.mktemp("uninterrupted")
    suite, cands = write_suite(tmp, FAULT_CANDIDATES)
    done = subprocess.run(fault_command(suite, cands, tmp / "r.jsonl"), check=False,
                          env=FAULT_ENV, capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    records = comparable(tmp / "r.jsonl")
    assert len(records) == len(FAULT_CANDIDATES)
    assert {r["status"] for r in records} == {"pass", "fail", "error", "anomaly"}
    return records


def wait_for_records(out: Path, n: int, process: subprocess.Popen[bytes]) -> None:
    """Wait until ``out`` holds ``n`` whole lines (or the process ended)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= n:
            return
        time.sleep(0.02)
    raise AssertionError(f"{out} did not reach {n} records")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux ``/proc``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def grading_workers(pid: int) -> list[int]:
    """The grading workers of ``grade`` process ``pid`` (not multiprocessing's tracker)."""
    workers = []
    for child in children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            workers.append(child)
    return workers


def resume(suite: Path, cands: Path, out: Path) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run(fault_command(suite, cands, out), check=False, env=FAULT_ENV,
                          capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    return done


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_grade_resumes_to_the_uninterrupted_records(
    tmp_path: Path, uninterrupted: list[dict[str, Any]]
) -> None:
    suite, cands = write_suite(tmp_path, FAULT_CANDIDATES)
    out = tmp_path / "r.jsonl"
    process = subprocess.Popen(fault_command(suite, cands, out), env=FAULT_ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    wait_for_records(out, 1, process)
    process.kill()  # SIGKILL: no finally, no flush, no anomalies.json
    process.wait(10)
    assert 1 <= len(lines(out)) < len(FAULT_CANDIDATES)
    resume(suite, cands, out)  # the dead run's lock went with it
    assert comparable(out) == uninterrupted
    assert len(lines(out)) == len(FAULT_CANDIDATES)  # nothing graded twice


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_a_worker_resumes_to_the_uninterrupted_records(
    tmp_path: Path, uninterrupted: list[dict[str, Any]]
) -> None:
    suite, cands = write_suite(tmp_path, FAULT_CANDIDATES)
    out = tmp_path / "r.jsonl"
    process = subprocess.Popen(fault_command(suite, cands, out), env=FAULT_ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    wait_for_records(out, 1, process)  # the worker is now on the second slow pair
    (worker,) = grading_workers(process.pid)
    os.kill(worker, signal.SIGKILL)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err.decode()  # the pool replaced the worker
    crashed = [r for r in lines(out) if r["error"] and r["error"]["kind"] == "worker_crashed"]
    assert [(r["item_id"], r["sample"], r["attempts"]) for r in crashed] == [("hostile", 1, 1)]
    resume(suite, cands, out)  # grades the crashed pair once more
    assert comparable(out) == uninterrupted
    retried = [r for r in lines(out) if (r["item_id"], r["sample"]) == ("hostile", 1)]
    assert [(r["status"], r["attempts"]) for r in retried] == [("error", 1), ("pass", 2)]


@pytest.mark.slow
def test_two_runs_started_together_one_refuses_and_the_file_is_one_run(
    tmp_path: Path, uninterrupted: list[dict[str, Any]]
) -> None:
    suite, cands = write_suite(tmp_path, FAULT_CANDIDATES)
    out = tmp_path / "r.jsonl"
    command = fault_command(suite, cands, out)
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    runs = [subprocess.Popen(command, env=FAULT_ENV, **pipes) for _ in range(2)]
    ended = [(run, *run.communicate(timeout=120)) for run in runs]
    codes = sorted(run.returncode for run, _, _ in ended)
    assert codes == [0, 2], [err.decode() for _, _, err in ended]
    (refused_err,) = [err.decode() for run, _, err in ended if run.returncode == 2]
    (winner,) = [run for run, _, _ in ended if run.returncode == 0]
    assert refused_err == (
        f"sqlequiv: error: r.jsonl is being written by another sqlequiv grade (pid {winner.pid});"
        " wait for it or use another --out\n"
    )
    assert len(lines(out)) == len(FAULT_CANDIDATES)  # each pair once
    assert comparable(out) == uninterrupted
    resume(suite, cands, out)  # a rerun finds nothing to do
    assert len(lines(out)) == len(FAULT_CANDIDATES)


#: Runs ``sqlequiv`` under a file-size limit (``RLIMIT_FSIZE``, argv[1] bytes): a write past
#: it fails with EFBIG, the way a full disk fails with ENOSPC, without root or a tmpfs.
#: SIGXFSZ is ignored so that the write fails instead of the process being killed.
UNDER_FSIZE_LIMIT = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from sqlequiv.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.slow
def test_a_full_disk_stops_with_one_line_and_a_whole_file_then_resumes(
    tmp_path: Path, uninterrupted: list[dict[str, Any]]
) -> None:
    from sqlequiv.grading.results import EXIT_UNWRITABLE

    suite, cands = write_suite(tmp_path, FAULT_CANDIDATES)
    out = tmp_path / "r.jsonl"
    size = {(r["item_id"], r["sample"]): len(json.dumps(r)) for r in uninterrupted}
    # Past the first record (with its timings and attempts), half-way into the second.
    limit = size[("hostile", 0)] + 60 + size[("hostile", 1)] // 2
    command = fault_command(suite, cands, out)
    full = subprocess.run([sys.executable, "-c", UNDER_FSIZE_LIMIT, str(limit), *command[3:]],
                          check=False, env=FAULT_ENV, capture_output=True, timeout=120)  # fmt: skip
    err = full.stderr.decode()
    assert full.returncode == EXIT_UNWRITABLE, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("sqlequiv: error: cannot write r.jsonl: File too large; it ends at its "
                          "last whole record (1 written by this run); anomalies.json is saved; "
                          "make room and rerun the same command to resume")  # fmt: skip
    data = out.read_bytes()
    assert data.endswith(b"\n") and len(lines(out)) == 1  # the torn second line was cut off
    assert json.loads((tmp_path / "anomalies.json").read_text())["items_audited"]
    assert not (tmp_path / "anomalies.json.tmp").exists()
    resume(suite, cands, out)
    assert comparable(out) == uninterrupted
