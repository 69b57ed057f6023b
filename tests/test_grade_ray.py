"""`sqlequiv grade --backend ray` against a throw-away local Ray head on loopback.

The module starts its own single-node Ray cluster (2 CPUs, bound to 127.0.0.1
only, its own temporary directory) and tears it down afterwards by killing
the process group that ``ray start`` created -- never ``ray stop``, which
would stop every Ray instance of the machine, including ones this test did
not start.

Loopback needs ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` on Linux: without it
Ray rewrites ``127.0.0.1`` into the machine's routable address (in
``ray start`` and in ``ray.init`` alike), binds every interface, and a driver
given ``127.0.0.1:PORT`` waits for a GCS at an address it was never told.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sqlequiv.cli import main
from sqlequiv.grading.record import RECORD_KEYS
from sqlequiv.grading.run import grade_suite
from sqlequiv.grading.worker import Settings
from sqlequiv.options import Options

ray = pytest.importorskip("ray")  # a dev dependency: present wherever the suite is developed

#: Environment of the Ray head and of this (driver) process.
RAY_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # keep 127.0.0.1 as the node address
}

SCHEMA = """
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  plan VARCHAR NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise'))
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  amount INTEGER CHECK (amount >= 0)
);
"""

SUITE = """
suite: ray-smoke
schemas:
  shop: schema.sql
fixtures:
  base:
    description: three customers, one per plan; amounts on both sides of 10 and 100
    rows:
      customers:
        - {customer_id: 1, name: Ann, plan: enterprise}
        - {customer_id: 2, name: Bo, plan: pro}
        - {customer_id: 3, name: Cy, plan: free}
      orders:
        - {order_id: 10, customer_id: 1, amount: 10}
        - {order_id: 11, customer_id: 1, amount: 100}
        - {order_id: 12, customer_id: 2, amount: 101}
        - {order_id: 13, customer_id: 3, amount: 9}
        - {order_id: 14, customer_id: 3}
items:
  - id: enterprise
    question: Which customers are on the enterprise plan?
    schema: shop
    reference_kind: query
    accepted_references:
      - {name: eq, sql: "SELECT customer_id FROM customers WHERE plan = 'enterprise'"}
    fixtures: [base]
  - id: mid-orders
    question: Which orders have an amount from 10 to 100, both included?
    schema: shop
    reference_kind: query
    accepted_references:
      - {name: range, sql: "SELECT order_id FROM orders WHERE amount >= 10 AND amount <= 100"}
    fixtures: [base]
    difficulty: easy
  - id: spend
    question: How much has each customer with orders spent?
    schema: shop
    reference_kind: query
    accepted_references:
      - name: sum
        sql: SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id
    fixtures: [base]
"""

#: (candidate, expected status, expected error kind or None).
CANDIDATES: list[tuple[dict[str, Any], str, str | None]] = [
    (
        {"id": "enterprise", "sql": "SELECT c.customer_id FROM customers AS c "
         "WHERE 'enterprise' = c.plan", "model": "a"},
        "pass", None,
    ),
    (
        {"id": "enterprise", "sql": "SELECT customer_id FROM customers WHERE plan <> 'free'",
         "model": "b"},
        "fail", None,
    ),
    (
        {"id": "mid-orders", "sql": "SELECT order_id FROM orders WHERE amount BETWEEN 10 AND 100"},
        "pass", None,
    ),
    (
        {"id": "mid-orders", "sql": "SELECT order_id FROM orders WHERE amount > 10 "
         "AND amount <= 100"},
        "fail", None,
    ),
    (
        {"id": "mid-orders", "sql": "SELECT order_id FROM orders WHERE amount >= 10 AND"},
        "error", "parse_error",
    ),
    (
        {"id": "spend", "sql": "SELECT customer_id, COUNT(*) AS total FROM orders "
         "GROUP BY customer_id"},
        "fail", None,
    ),
]  # fmt: skip

FAST = Options(max_fixtures=30, time_budget=2.0, bounded_time_budget=1.0)

#: Settings fields that differ between the CLI's defaults and FAST, as CLI flags.
FAST_FLAGS = ["--max-fixtures", "30", "--time-budget", "2", "--bounded-time-budget", "1"]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ray_cli() -> str:
    beside = Path(sys.executable).with_name("ray")
    found = str(beside) if beside.exists() else shutil.which("ray")
    if found is None:
        pytest.fail("ray is importable but its `ray` command is not on PATH")
    return found


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs (zombies waiting for init do not count)."""
    proc = Path("/proc")
    if not proc.is_dir():  # not Linux: any member, zombie or not
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":  # state, ppid, pgrp, ...
            return True
    return False


def _kill_group(pgid: int) -> None:
    """SIGKILL the head's process group (its GCS server and raylet ignore SIGTERM) and wait."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _group_alive(pgid):
        time.sleep(0.1)


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A single-node Ray cluster on loopback, 2 CPUs; yields ``127.0.0.1:PORT``."""
    port = _free_port()
    # A short root: Ray's unix sockets live under it and must fit in 107 bytes.
    temp_dir = tempfile.mkdtemp(prefix="sqeq-ray-", dir="/tmp")
    command = [_ray_cli(), "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
               "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
               f"--temp-dir={temp_dir}"]  # fmt: skip
    env = {**os.environ, **RAY_ENV}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in RAY_ENV.items():
            patch.setenv(name, value)
        # In case Ray was imported before the variable was set (it is read at import).
        from ray._private import ray_constants

        patch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)
        # Its own session (and process group): every daemon and worker the head starts
        # inherits it, so teardown can kill exactly this cluster.
        head = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        try:
            output, _ = head.communicate(timeout=120)
            if head.returncode != 0:
                pytest.fail(f"ray start failed ({head.returncode}):\n{output.decode()}")
            yield f"127.0.0.1:{port}"
        finally:
            if ray.is_initialized():
                ray.shutdown()
            if head.poll() is None:
                head.kill()
                head.wait()
            _kill_group(head.pid)
            shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.fixture
def ray_address(ray_head: str) -> Iterator[str]:
    """The head's address; this process is disconnected from Ray after each test."""
    try:
        yield ray_head
    finally:
        if ray.is_initialized():
            ray.shutdown()


def _write_suite(tmp: Path, candidates: list[dict[str, Any]]) -> tuple[Path, Path]:
    (tmp / "schema.sql").write_text(SCHEMA)
    (tmp / "suite.yaml").write_text(SUITE)
    cands = tmp / "candidates.jsonl"
    cands.write_text("".join(json.dumps(c) + "\n" for c in candidates))
    return tmp / "suite.yaml", cands


def _records(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    by_key = {(r["item_id"], r["sample"]): r for r in records}
    assert len(by_key) == len(records)
    return by_key


def _essence(record: dict[str, Any]) -> tuple[Any, ...]:
    error = record["error"] or {}
    return (record["status"], record["proved"], record["cause"], error.get("kind"),
            record["candidate_sql"], record["candidate_meta"])  # fmt: skip


def test_ray_backend_grades_like_inline(
    ray_address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite, cands = _write_suite(tmp_path, [c for c, _, _ in CANDIDATES])
    ray_out = tmp_path / "ray" / "results.jsonl"
    code = main(["grade", str(suite), str(cands), "--out", str(ray_out), "--backend", "ray",
                 "--ray-address", ray_address, "--json", *FAST_FLAGS])  # fmt: skip
    printed = capsys.readouterr()
    assert code == 0, printed.err
    summary = json.loads(printed.out)
    assert (summary["pairs"], summary["passed"], summary["failed"], summary["errors"]) == (
        6, 2, 3, 1,
    )  # fmt: skip
    assert summary["errors_by_kind"] == {"parse_error": 1}
    assert summary["anomalies"] == []

    ray_records = _records(ray_out)
    samples: dict[str, int] = {}
    for candidate, status, error_kind in CANDIDATES:
        sample = samples.get(candidate["id"], 0)
        samples[candidate["id"]] = sample + 1
        record = ray_records[(candidate["id"], sample)]
        assert record["status"] == status, record
        assert (record["error"] or {}).get("kind") == error_kind
        assert record["candidate_sql"] == candidate["sql"]
        assert tuple(record) == RECORD_KEYS
    assert ray_records[("enterprise", 0)]["candidate_meta"] == {"model": "a"}
    assert ray_records[("mid-orders", 0)]["item_meta"] == {"difficulty": "easy"}
    assert ray_records[("mid-orders", 1)]["counterexample"]["name"] == "base"
    anomalies = json.loads((ray_out.parent / "anomalies.json").read_text())
    assert anomalies["items_audited"] == ["enterprise", "mid-orders", "spend"]

    inline_out = tmp_path / "inline" / "results.jsonl"
    code = main(["grade", str(suite), str(cands), "--out", str(inline_out), "--backend",
                 "inline", "--json", *FAST_FLAGS])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    inline_records = _records(inline_out)
    assert set(inline_records) == set(ray_records)
    for key, record in inline_records.items():
        assert _essence(ray_records[key]) == _essence(record), key


# A query the guard accepts (range is an allowed table function) that DuckDB spends
# minutes on: with a per-query timeout far above the task timeout, only the pool's
# wall clock can stop it.
# The right side (10^6 rows) is materialized once, then 10^12 pairs stream through:
# CPU-bound for hours, with no memory to run out of.
ENDLESS = "SELECT count(*) AS n FROM range(1000000) AS a, range(1000000) AS b"


def test_ray_backend_replaces_an_actor_that_overruns_the_task_timeout(
    ray_address: str, tmp_path: Path
) -> None:
    candidates = [
        {"id": "spend", "sql": ENDLESS},
        {"id": "enterprise", "sql": "SELECT customer_id FROM customers WHERE plan = 'pro'"},
        {"id": "mid-orders", "sql": "SELEC order_id FROM orders"},
    ]
    suite, cands = _write_suite(tmp_path, candidates)
    # RayPool starts a task's clock when it submits the task, so an actor's start-up
    # (importing sqlequiv, building the suite: 1-2 s idle, over 8 s on a loaded 2-CPU
    # machine) is billed to its first task: the timeout must cover the replacement
    # actor's start-up, which is far more than the 0.1 s the other pairs take.
    settings = Settings(options=Options(max_fixtures=30, time_budget=2.0,
                                        bounded_time_budget=1.0, query_timeout=600.0),
                        task_timeout=15.0)  # fmt: skip
    started = time.monotonic()
    result = grade_suite(suite, cands, tmp_path / "r.jsonl", backend="ray",
                         ray_address=ray_address, jobs=1, settings=settings,
                         audit=False)  # fmt: skip
    elapsed = time.monotonic() - started
    by_item = {r["item_id"]: r for r in result.records}
    hung = by_item["spend"]
    assert hung["status"] == "error", hung
    assert hung["error"]["kind"] == "timeout"
    assert "actor was stopped" in hung["error"]["message"]
    assert hung["candidate_sql"] == ENDLESS
    # The pairs after it ran on the fresh actor.
    assert by_item["enterprise"]["status"] == "fail", by_item["enterprise"]
    assert by_item["mid-orders"]["error"]["kind"] == "parse_error", by_item["mid-orders"]
    assert result.workers_replaced == 1
    for record in result.records:
        assert tuple(record) == RECORD_KEYS
    assert elapsed < 60  # one task timeout and two actor start-ups, not DuckDB's 600 s
