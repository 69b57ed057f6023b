"""The sandbox, proven: hostile SQL through ``check`` and ``grade`` touches no file, no socket.

Every attack of ``sandbox_attacks.ATTACKS`` is tried in every placement it lists (the whole
candidate, a subquery, a CTE, a scalar position, the reference, a second statement) through
both entry points, and must be refused before execution or fail inside the sandbox, with
the sentinels untouched: the canary's bytes and access time, a FIFO whose writer thread
counts opens, a loopback listener that counts connections, the directory listing, and the
secret (and a hidden file name) absent from every verdict and record. The sentinels are
first shown to catch a plain DuckDB doing the same things, so a pass means something.

Resource bombs must end within the configured limits as an ``error`` and leave the process
able to check the next pair. Bombs that today escape the limits run in a child process with
a capped address space and a hard kill, so that a failure does not take the runner with it.

``python tests/support/sandbox_attacks.py OUT.md`` writes the same rows as a markdown table.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
import pytest

from sqlequiv.cli import main
from sqlequiv.errors import SchemaError
from sqlequiv.execute.duckdb_engine import DuckDBExecutor
from sqlequiv.grading import RECORD_KEYS
from sqlequiv.grading.run import grade_suite
from sqlequiv.grading.worker import Settings
from sqlequiv.schema import load_schema
from support import sandbox_attacks as sa

CASES = [
    pytest.param(attack, placement, id=f"{attack.name}-{placement}")
    for attack in sa.ATTACKS
    for placement in attack.placements
]


@pytest.fixture(scope="module")
def sentinels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Sentinels]:
    with sa.sentinels_in(tmp_path_factory.mktemp("sandbox") / "sentinels") as found:
        yield found


# -- the sentinels themselves --------------------------------------------------------------


def test_sentinels_catch_a_plain_duckdb(sentinels: sa.Sentinels) -> None:
    """Positive control: an unsandboxed DuckDB doing what the attacks try is caught."""
    con = duckdb.connect(":memory:")
    caught: dict[str, list[str]] = {}
    for name, sql in [
        ("read canary", "SELECT * FROM read_text('{canary}')"),
        ("read FIFO", "SELECT * FROM read_csv('{fifo}')"),
        ("copy to", "COPY (SELECT 1 AS x) TO '{dir}/control.csv'"),
        ("glob", "SELECT * FROM glob('{dir}/*')"),
    ]:
        sentinels.arm()
        output = str(con.execute(sentinels.fill(sql)).fetchall())
        caught[name] = sentinels.breaches(output)
        (sentinels.dir / "control.csv").unlink(missing_ok=True)
    con.close()
    sentinels.arm()
    with socket.create_connection(("127.0.0.1", sentinels.listener.port), timeout=5):
        pass
    time.sleep(0.3)
    caught["connect"] = sentinels.breaches()

    if sentinels.atime_works:
        assert "canary read (access time moved)" in caught["read canary"]
    assert "secret in the output" in caught["read canary"]
    assert "FIFO opened 1 time(s)" in caught["read FIFO"]
    assert "secret in the output" in caught["read FIFO"]
    assert caught["copy to"] == ["files created: ['control.csv']"]
    assert caught["glob"] == ["directory listing in the output"]
    assert caught["connect"] == ["1 connection(s)"]
    sentinels.arm()
    assert sentinels.breaches() == []


# -- attacks through check and grade ---------------------------------------------------------


@pytest.mark.parametrize(("attack", "placement"), CASES)
def test_attack_through_check(attack: sa.Attack, placement: str, sentinels: sa.Sentinels) -> None:
    candidate, reference, side = sa.placed(attack, placement, sentinels)
    sentinels.arm()
    outcome = sa.run_check(candidate, reference, dialect=attack.dialect)
    assert sentinels.breaches(outcome.output) == []
    assert outcome.status == "error", (outcome.label(), outcome.output[:300])
    assert outcome.side == side
    assert outcome.kind in sa.REFUSAL_KINDS, outcome.message


@pytest.mark.parametrize(("attack", "placement"), CASES)
def test_attack_through_grade(attack: sa.Attack, placement: str, sentinels: sa.Sentinels) -> None:
    candidate, reference, side = sa.placed(attack, placement, sentinels)
    sentinels.arm()
    if side == "reference":
        outcome = sa.run_grade(candidate, reference, dialect=attack.dialect)
        assert sentinels.breaches(outcome.output) == []
        # a broken reference is the item's fault: neither pass nor fail, an anomaly
        assert (outcome.status, outcome.kind) == ("anomaly", "reference_error"), outcome.message
        return
    outcome = sa.run_grade(candidate, dialect=attack.dialect)
    assert sentinels.breaches(outcome.output) == []
    assert outcome.status == "error", (outcome.label(), outcome.output[:300])
    assert outcome.kind in sa.REFUSAL_KINDS, outcome.message


# -- hostile schemas -------------------------------------------------------------------------


@pytest.mark.parametrize("attack", sa.SCHEMA_ATTACKS, ids=lambda a: a.name)
def test_schema_attack_through_check(attack: sa.SchemaAttack, sentinels: sa.Sentinels) -> None:
    ddl = sentinels.fill(attack.template)

    def attempt() -> tuple[list[str], sa.Outcome, list[str], list[str]]:
        # a normal pair first: the standard schema is then the one prepared on the connection
        before = sa.healthy(graded_too=False)
        sentinels.arm()
        outcome = sa.run_check(sa.NORMAL_CANDIDATE, sa.NORMAL_REFERENCE, ddl)
        return before, outcome, sentinels.breaches(outcome.output), sa.healthy(graded_too=False)

    before, outcome, breaches, after = sa.in_fresh_thread(attempt)
    assert before == []
    problems = [*breaches, *(f"next normal pair on the same connection: {p}" for p in after)]
    if outcome.status == "raised":
        problems.append(f"check raised {outcome.kind}: {outcome.message}")
    elif attack.may_load:
        if not (outcome.status == "not_equivalent" or outcome.side == "schema"):
            problems.append(f"loaded and answered {outcome.label()}")
    elif (outcome.status, outcome.side) != ("error", "schema"):
        problems.append(f"not refused: {outcome.label()}")
    assert problems == []


@pytest.mark.parametrize("attack", sa.SCHEMA_ATTACKS, ids=lambda a: a.name)
def test_schema_attack_through_grade(attack: sa.SchemaAttack, sentinels: sa.Sentinels) -> None:
    ddl = sentinels.fill(attack.template)

    def attempt() -> tuple[list[str], sa.Outcome, list[str], list[str]]:
        before = sa.healthy(graded_too=False)
        sentinels.arm()
        outcome = sa.run_grade(sa.NORMAL_CANDIDATE, schema=ddl)
        return before, outcome, sentinels.breaches(outcome.output), sa.healthy(graded_too=False)

    before, outcome, breaches, after = sa.in_fresh_thread(attempt)
    assert before == []
    problems = [*breaches, *(f"next normal pair on the same connection: {p}" for p in after)]
    if outcome.status == "raised":
        problems.append(f"building the suite or grading raised {outcome.kind}: {outcome.message}")
    elif outcome.status not in (("fail", "refused") if attack.may_load else ("refused",)):
        problems.append(f"not refused: {outcome.label()}")
    assert problems == []


def test_load_schema_refuses_calls_in_checks_that_reach_outside(sentinels: sa.Sentinels) -> None:
    """CHECK constraints are executed (the constraint checks run them as SQL), so a CHECK may
    call nothing the guard would refuse in a query."""
    loaded = []
    for call in (
        "getenv('HOME')",
        "current_setting('secret_directory')",
        sentinels.fill("(SELECT content FROM read_text('{canary}'))"),
    ):
        ddl = f"CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR CHECK (b <> {call}))"
        try:
            load_schema(ddl)
        except SchemaError:
            continue
        loaded.append(call)
    assert loaded == []


# -- defence in depth: the sandboxed executor on its own ------------------------------------


def test_sandboxed_executor_refuses_io_and_settings(sentinels: sa.Sentinels) -> None:
    executor = DuckDBExecutor(timeout=1.0)
    problems = {t: sa.run_raw(executor, sentinels, t) for t in sa.RAW}
    assert {t: p for t, p in problems.items() if p} == {}


def test_sandboxed_executor_refuses_its_own_temp_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB always allows its temp_directory (``.tmp`` under the working directory at
    connect time) even with external access disabled: the sandbox must not."""
    monkeypatch.chdir(tmp_path)
    with sa.sentinels_in(tmp_path / ".tmp") as inside:
        executor = DuckDBExecutor(timeout=1.0)
        problems = {t: sa.run_raw(executor, inside, t) for t in sa.RAW_TEMP_DIRECTORY}
    assert {t: p for t, p in problems.items() if p} == {}


# -- resource bombs ----------------------------------------------------------------------------

IN_PROCESS = [pytest.param(b, id=b.name) for b in sa.BOMBS if not b.isolated]
ISOLATED = [
    pytest.param(b, entry, id=f"{b.name}-{entry}")
    for b in sa.BOMBS
    if b.isolated
    for entry in ("check", "grade")
]


@pytest.mark.parametrize("bomb", IN_PROCESS)
def test_bomb_through_check(bomb: sa.Bomb) -> None:
    def attempt() -> sa.Outcome:
        outcome = sa.run_check(bomb.sql(), bomb.reference)
        outcome.extra["health"] = sa.healthy()  # the same connection, right after the bomb
        return outcome

    assert sa.bomb_problems(sa.in_fresh_thread(attempt), bomb.must_error) == []


@pytest.mark.parametrize("bomb", IN_PROCESS)
def test_bomb_through_grade(bomb: sa.Bomb) -> None:
    def attempt() -> sa.Outcome:
        outcome = sa.run_grade(bomb.sql())
        outcome.extra["health"] = sa.healthy()
        return outcome

    assert sa.bomb_problems(sa.in_fresh_thread(attempt), bomb.must_error) == []


@pytest.fixture(scope="module")
def isolated_runs() -> Iterator[dict[tuple[str, str], Future[sa.Outcome]]]:
    """Every isolated bomb x entry, two children at a time, started once for the module."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            (b.name, entry): pool.submit(sa.run_isolated, entry, b.sql(), b.reference)
            for b in sa.BOMBS
            if b.isolated
            for entry in ("check", "grade")
        }
        yield futures
        for future in futures.values():
            future.cancel()


@pytest.mark.parametrize(("bomb", "entry"), ISOLATED)
def test_bomb_isolated(
    bomb: sa.Bomb, entry: str, isolated_runs: dict[tuple[str, str], Future[sa.Outcome]]
) -> None:
    outcome = isolated_runs[(bomb.name, entry)].result()
    assert sa.bomb_problems(outcome, bomb.must_error) == []


def test_schema_with_500_tables_works() -> None:
    ddl = "\n".join(
        f"CREATE TABLE t{n} (id INT PRIMARY KEY, v INT"
        + (f", p INT REFERENCES t{n - 1} (id)" if n else "")
        + ");"
        for n in range(500)
    )
    started = time.monotonic()
    checked = sa.run_check("SELECT v FROM t7 WHERE v > 1", "SELECT v FROM t7 WHERE v >= 1", ddl)
    proved = sa.run_check(
        "SELECT id FROM t499 WHERE NOT v <= 1", "SELECT id FROM t499 WHERE v > 1", ddl
    )
    graded = sa.run_grade("SELECT v FROM t7 WHERE v > 1", "SELECT v FROM t7 WHERE v >= 1", ddl)
    elapsed = time.monotonic() - started
    assert checked.status == "not_equivalent", checked.label()
    assert proved.status == "equivalent", proved.label()
    assert graded.status in ("fail", "refused"), graded.label()
    assert elapsed < sa.WALL_BOUND
    assert sa.healthy() == []


# -- binary and oversized input through the CLI ---------------------------------------------


def _cli_files(tmp_path: Path, candidate: bytes) -> list[str]:
    (tmp_path / "schema.sql").write_text(sa.SCHEMA_DDL)
    (tmp_path / "cand.sql").write_bytes(candidate)
    (tmp_path / "ref.sql").write_text(sa.NORMAL_REFERENCE)
    return [
        str(tmp_path / "cand.sql"),
        str(tmp_path / "ref.sql"),
        "--schema",
        str(tmp_path / "schema.sql"),
    ]


def test_cli_invalid_utf8_exits_2_without_traceback(tmp_path: Path) -> None:
    args = _cli_files(tmp_path, b"SELECT a FROM t WHERE b = '\xff\xfe\xc3('")
    done = subprocess.run(
        [sys.executable, "-m", "sqlequiv", "check", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "invalid_text" in done.stdout and "not UTF-8" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (b"SELECT a FROM t WHERE b = 'x\x00'", "invalid_text"),
        (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), "invalid_text"),
        (
            b"SELECT a FROM t WHERE " + b" OR ".join(b"a = %d" % n for n in range(380_000)),
            "too_large",
        ),
    ],
    ids=["NUL byte", "binary junk", "5 MB file"],
)
def test_cli_binary_and_oversized_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, kind: str
) -> None:
    started = time.monotonic()
    code = main(["check", *_cli_files(tmp_path, content), "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert code == 2
    assert printed["verdict"] == "error" and printed["error"]["kind"] == kind
    assert time.monotonic() - started < 5


def test_cli_grade_with_invalid_utf8_candidates_exits_2(tmp_path: Path) -> None:
    (tmp_path / "schema.sql").write_text(sa.SCHEMA_DDL)
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "c.jsonl").write_bytes(b'{"id": "q", "sql": "SELECT a FROM t WHERE b = \xff"}\n')
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sqlequiv",
            "grade",
            str(tmp_path / "suite.yaml"),
            str(tmp_path / "c.jsonl"),
            "--out",
            str(tmp_path / "r.jsonl"),
            "--backend",
            "inline",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "c.jsonl" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# -- batch isolation with worker processes ----------------------------------------------------

SUITE = """
schemas: {shop: schema.sql}
fixtures:
  two:
    rows:
      t: [{a: 1}, {a: 2}]
items:
  - id: q
    question: Which rows have a of at least 1?
    schema: shop
    reference_kind: query
    accepted_references:
      - {name: ge, sql: "SELECT a FROM t WHERE a >= 1"}
    fixtures: [two]
"""


@pytest.mark.slow
def test_hostile_candidates_in_a_local_batch(tmp_path: Path, sentinels: sa.Sentinels) -> None:
    hostile = {
        1: sa.BOMBS[0].sql(),  # endless recursive CTE
        3: sentinels.fill("SELECT * FROM read_csv('{canary}')"),
        4: "SELECT length(string_agg(repeat('x', 1000000), ',')) AS l FROM range(5000)",
        5: "SELECT length(repeat('x', 1000000000)) AS l",  # memory bomb
        6: " " * 40 + "1",  # hangs the guard's regex today: the pool's task timeout stops it
    }
    normal = {
        0: ("SELECT t.a FROM t WHERE t.a >= 1", "pass"),
        2: ("SELECT a FROM t WHERE a > 1", "fail"),
        7: ("SELECT a FROM t WHERE NOT a < 1", "pass"),
    }
    sqls = {**{n: sql for n, (sql, _) in normal.items()}, **hostile}
    (tmp_path / "schema.sql").write_text(sa.SCHEMA_DDL)
    (tmp_path / "suite.yaml").write_text(SUITE)
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text(
        "".join(json.dumps({"id": "q", "sql": sqls[n]}) + "\n" for n in sorted(sqls))
    )
    settings = Settings(options=sa.FAST, task_timeout=15.0)
    sentinels.arm()
    started = time.monotonic()
    result = grade_suite(
        tmp_path / "suite.yaml",
        candidates,
        tmp_path / "r.jsonl",
        backend="local",
        jobs=2,
        settings=settings,
        audit=False,
    )
    elapsed = time.monotonic() - started
    records: dict[Any, dict[str, Any]] = {r["sample"]: r for r in result.records}
    assert sorted(records) == sorted(sqls)
    for record in records.values():
        assert tuple(record) == RECORD_KEYS
    for n, (_, status) in normal.items():
        assert records[n]["status"] == status, records[n]
    for n in hostile:
        assert records[n]["status"] == "error", (n, records[n]["status"])
    assert records[1]["error"]["kind"] == "timeout"
    assert records[3]["error"]["kind"] == "forbidden_function"
    assert records[6]["error"]["kind"] in ("timeout", "parse_error")
    assert sentinels.breaches((tmp_path / "r.jsonl").read_text()) == []
    assert elapsed < 90
