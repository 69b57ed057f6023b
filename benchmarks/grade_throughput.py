"""Throughput of ``sqlequiv grade`` per backend: local workers (1 and 2) and a local Ray head.

Usage::

    python benchmarks/grade_throughput.py [--pairs N | --quick] [--backends local-1,local-2,ray]
        [--audit] [--seed S] [--workdir DIR] [--keep]

It generates a suite (``grade_suite_gen``: a shop schema with customers,
products, orders and order_items, 20 candidates per item, about 55% right
rewrites and 45% wrong ones, every SQL text distinct) into a temporary
directory, then grades the same candidates once per backend, each into a
fresh results file, with the default grading settings. For ``ray`` it starts
a single-node Ray head on 127.0.0.1 with 2 CPUs in its own process group and
kills exactly that group afterwards (never ``ray stop``, which stops every
Ray instance of the machine); the head's start-up is not timed, connecting
to it and starting the actors is (as starting worker processes is for
``local``).

Printed: the command line and machine, a table of backend, workers, pairs,
seconds, pairs/s and speed-up against local-1 of the same run, the
pass/fail/unknown/error counts of each backend and whether they are
identical, the pairs whose status differs between backends, and how the
baseline's statuses line up with the generator's right/wrong labels.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from grade_suite_gen import MAX_PAIRS, write_suite
from sqlequiv.grading.progress import Progress
from sqlequiv.grading.run import grade_suite
from sqlequiv.grading.worker import Settings

#: Environment of the Ray head and of this (driver) process: no usage reporting, and
#: keep 127.0.0.1 as the node address (on Linux Ray otherwise swaps loopback for the
#: machine's routable address, binds every interface, and a driver given 127.0.0.1
#: never finds the GCS).
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
RAY_CPUS = 2
STATUSES = ("pass", "fail", "unknown", "error", "anomaly")
BACKENDS = {"local-1": ("local", 1), "local-2": ("local", 2), "ray": ("ray", None)}


@dataclass
class Run:
    label: str
    backend: str
    workers: int
    seconds: float = 0.0
    records: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    replaced: int = 0
    note: str = ""
    #: CPUs busy machine-wide during the run (all processes, not only ours), and the
    #: 1-minute load average at its end.
    machine_busy: float | None = None
    load: float | None = None

    @property
    def pairs(self) -> int:
        return len(self.records)

    @property
    def rate(self) -> float:
        return self.pairs / self.seconds if self.seconds > 0 else 0.0

    def counts(self) -> Counter[str]:
        return Counter(str(r["status"]) for r in self.records)

    def by_key(self) -> dict[tuple[str, str], dict[str, Any]]:
        return {(str(r["item_id"]), str(r["sample"])): r for r in self.records}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=1000, help=f"pairs (at most {MAX_PAIRS})")
    parser.add_argument("--quick", action="store_true", help="100 pairs, to try it out")
    parser.add_argument("--backends", default="local-1,local-2,ray",
                        help="comma-separated, from " + ", ".join(BACKENDS))  # fmt: skip
    parser.add_argument("--audit", action="store_true", help="also audit every item (off: pairs)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated candidates")
    parser.add_argument("--workdir", type=Path, default=None, help="default: a temporary dir")
    parser.add_argument("--keep", action="store_true", help="keep the suite and results")
    args = parser.parse_args(argv)
    pairs = 100 if args.quick else args.pairs
    labels = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = [b for b in labels if b not in BACKENDS]
    if unknown or not labels:
        parser.error(f"--backends: unknown {unknown}; choose from {', '.join(BACKENDS)}")
    if not 1 <= pairs <= MAX_PAIRS:
        parser.error(f"--pairs must be from 1 to {MAX_PAIRS}")
    os.environ.update(RAY_ENV)  # before anything imports ray
    signal.signal(signal.SIGTERM, _interrupt)  # a kill still tears the Ray head down

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="sqlequiv-grade-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    suite, candidates, n = write_suite(workdir, pairs, args.seed)
    settings = Settings()
    _print_header(suite, candidates, n, settings, args.audit, labels)

    runs: list[Run] = []
    try:
        for label in labels:
            backend, jobs = BACKENDS[label]
            out = workdir / label / "results.jsonl"
            if out.parent.exists():
                shutil.rmtree(out.parent)
            print(f"\n== {label}: grading {n} pairs ...", flush=True)
            if backend == "ray":
                with ray_head(RAY_CPUS) as (address, startup):
                    run = _grade(label, suite, candidates, out, settings, args.audit,
                                 backend="ray", jobs=None, workers=RAY_CPUS,
                                 ray_address=address)  # fmt: skip
                    run.note = f"head started in {startup:.1f} s (not timed)"
            else:
                run = _grade(label, suite, candidates, out, settings, args.audit,
                             backend=backend, jobs=jobs, workers=jobs or 1)  # fmt: skip
            runs.append(run)
            print(f"   {run.pairs} pairs in {run.seconds:.1f} s ({run.rate:.2f} pairs/s)"
                  + (f"; {run.note}" if run.note else ""), flush=True)  # fmt: skip
            if run.interrupted:
                print("   interrupted: the remaining backends are skipped", flush=True)
                break
    finally:
        if runs:
            _report(runs, n)
        if args.keep or args.workdir:
            print(f"\nsuite, candidates and results kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 130 if any(r.interrupted for r in runs) else 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _grade(
    label: str,
    suite: Path,
    candidates: Path,
    out: Path,
    settings: Settings,
    audit: bool,
    *,
    backend: Any,
    jobs: int | None,
    workers: int,
    ray_address: str | None = None,
) -> Run:
    progress = Progress(0, sys.stderr, tty=False, every=60.0, label=label)
    cpu_before = _cpu_ticks()
    started = time.monotonic()
    result = grade_suite(suite, candidates, out, backend=backend, jobs=jobs, settings=settings,
                         ray_address=ray_address, audit=audit, progress=progress)  # fmt: skip
    seconds = time.monotonic() - started
    cpu_after = _cpu_ticks()
    run = Run(label, backend, workers, seconds, result.records, result.interrupted,
              result.workers_replaced)  # fmt: skip
    if cpu_before and cpu_after:
        busy, total = (a - b for a, b in zip(cpu_after, cpu_before, strict=True))
        run.machine_busy = (os.cpu_count() or 1) * busy / total if total else None
    with contextlib.suppress(OSError):
        run.load = os.getloadavg()[0]
    return run


def _cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs so far, from /proc/stat (Linux), else None."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal
    return total - idle, total


# -- the Ray head --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs (zombies waiting for init do not count)."""
    proc = Path("/proc")
    if not proc.is_dir():
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
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


@contextlib.contextmanager
def ray_head(cpus: int) -> Iterator[tuple[str, float]]:
    """A single-node Ray cluster on loopback; yields (``127.0.0.1:PORT``, start-up seconds).

    ``ray start`` runs in a session of its own, so every daemon and worker of the
    cluster is in its process group; leaving kills that group and nothing else.
    """
    beside = Path(sys.executable).with_name("ray")
    ray_cli = str(beside) if beside.exists() else shutil.which("ray")
    if ray_cli is None:
        raise SystemExit("the ray backend needs Ray: pip install 'sqlequiv[ray]'")
    port = _free_port()
    temp_dir = tempfile.mkdtemp(prefix="sqeq-ray-", dir="/tmp")  # unix sockets: short paths
    command = [ray_cli, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
               f"--num-cpus={cpus}", "--include-dashboard=false", "--disable-usage-stats",
               f"--temp-dir={temp_dir}"]  # fmt: skip
    started = time.monotonic()
    head = subprocess.Popen(command, env={**os.environ, **RAY_ENV}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    try:
        output, _ = head.communicate(timeout=180)
        if head.returncode != 0:
            raise SystemExit(f"ray start failed ({head.returncode}):\n{output.decode()}")
        yield f"127.0.0.1:{port}", time.monotonic() - started
    finally:
        with contextlib.suppress(Exception):
            import ray

            if ray.is_initialized():
                ray.shutdown()
        if head.poll() is None:
            head.kill()
            head.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # its GCS server and raylet ignore SIGTERM
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _group_alive(head.pid):
            time.sleep(0.1)
        shutil.rmtree(temp_dir, ignore_errors=True)


# -- output --------------------------------------------------------------------------------


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def _memory() -> str:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return "-"


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "-"


def _print_header(
    suite: Path, candidates: Path, n: int, settings: Settings, audit: bool, labels: list[str]
) -> None:
    command = " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv])
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "-"
    labels_count = Counter(json.loads(line)["label"] for line in candidates.open())
    items = len({json.loads(line)["id"] for line in candidates.open()})
    options = settings.options
    print(f"command:  {command}")
    print(f"machine:  {platform.node()}, {platform.platform()}, {_cpu_model()}")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "-"
    print(f"cpus:     os.cpu_count()={os.cpu_count()}, usable by this process={usable}, "
          f"memory {_memory()}, load average now {load}")  # fmt: skip
    print(f"versions: python {platform.python_version()}, sqlequiv {_version('sqlequiv')}, "
          f"duckdb {_version('duckdb')}, z3 {_version('z3-solver')}, sqlglot "
          f"{_version('sqlglot')}, ray {_version('ray')}")  # fmt: skip
    print(f"suite:    {suite} ({items} items, fixtures base + empty)")
    print(f"pairs:    {n} ({labels_count['right']} right rewrites, {labels_count['wrong']} "
          f"wrong; every SQL text distinct)")  # fmt: skip
    print(f"settings: defaults (max_fixtures={options.max_fixtures}, "
          f"time_budget={options.time_budget:g} s, bounded_time_budget="
          f"{options.bounded_time_budget:g} s, query_timeout={options.query_timeout:g} s, "
          f"task_timeout={settings.task_timeout:g} s); item audit "
          f"{'on' if audit else 'off'}")  # fmt: skip
    print(f"backends: {', '.join(labels)} (ray: one local head, {RAY_CPUS} CPUs, 127.0.0.1)")


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows, strict=True)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True))
             for row in [header, *rows]]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _report(runs: list[Run], n: int) -> None:
    base = next((r for r in runs if r.label == "local-1"), None)
    print("\n== throughput")
    rows = []
    for run in runs:
        speedup = f"{run.rate / base.rate:.2f}x" if base and base.rate and run.pairs else "-"
        ms = [float((r.get("timings") or {}).get("total_ms") or 0.0) for r in run.records]
        busy = sum(ms) / 1000
        efficiency = busy / (run.seconds * run.workers) if run.seconds else 0.0
        machine = f"{run.machine_busy:.2f}" if run.machine_busy is not None else "-"
        load = f"{run.load:.1f}" if run.load is not None else "-"
        rows.append([run.label, str(run.workers), f"{run.pairs}/{n}", f"{run.seconds:.1f}",
                     f"{run.rate:.3f}", speedup, f"{busy:.0f}", f"{efficiency:.0%}",
                     f"{statistics.median(ms) / 1000:.2f}" if ms else "-",
                     f"{max(ms) / 1000:.1f}" if ms else "-",
                     str(run.replaced), f"{machine}/{os.cpu_count()}", load])  # fmt: skip
    print(_table(["backend", "workers", "pairs", "seconds", "pairs/s", "vs local-1",
                  "grading s", "busy", "median s", "max s", "replaced", "machine CPUs busy",
                  "load"], rows))  # fmt: skip
    print(
        "(grading s: the sum of the records' timings.total_ms; busy: grading s over "
        "seconds x workers; machine CPUs busy: all processes of the machine during the run, "
        "ours and others'; load: 1-minute load average at the end)"
    )

    print("\n== outcomes")
    rows = []
    for run in runs:
        counts = run.counts()
        proved = sum(1 for r in run.records if r["status"] == "pass" and r.get("proved"))
        errors = Counter(str((r.get("error") or {}).get("kind")) for r in run.records
                         if r["status"] == "error")  # fmt: skip
        rows.append([run.label, *(str(counts[s]) for s in STATUSES), str(proved),
                     ", ".join(f"{k} {v}" for k, v in errors.most_common()) or "-"])  # fmt: skip
    print(_table(["backend", *STATUSES, "proved", "errors by kind"], rows))
    complete = [r for r in runs if r.pairs == n]
    same_counts = len({tuple(r.counts()[s] for s in STATUSES) for r in complete}) <= 1
    if len(complete) < len(runs):
        print("(some runs were interrupted; only complete runs are compared)")
    print(f"pass/fail/unknown/error counts identical across backends: "
          f"{'YES' if same_counts else 'NO'}")  # fmt: skip

    reference = next((r for r in complete if r is base), complete[0] if complete else None)
    if reference is not None:
        ref = reference.by_key()
        for run in complete:
            if run is reference:
                continue
            other = run.by_key()
            status = [k for k in ref if other.get(k, {}).get("status") != ref[k]["status"]]
            proof = [k for k in ref if other.get(k, {}).get("proved") != ref[k]["proved"]]
            print(f"{run.label} vs {reference.label}: {len(status)} pairs differ in status, "
                  f"{len(proof)} in proved")  # fmt: skip
            for key in status[:10]:
                a, b = ref[key], other.get(key, {})
                print(f"   {key[0]} sample {key[1]}: {a['status']} vs {b.get('status')} "
                      f"({(a.get('candidate_meta') or {}).get('rewrite')})")  # fmt: skip

        print(f"\n== {reference.label} statuses by the generator's label")
        grid: Counter[tuple[str, str]] = Counter()
        for record in reference.records:
            label = str((record.get("candidate_meta") or {}).get("label"))
            grid[(label, str(record["status"]))] += 1
        rows = [[label, *(str(grid[(label, s)]) for s in STATUSES)] for label in ("right", "wrong")]
        print(_table(["label", *STATUSES], rows))


if __name__ == "__main__":
    sys.exit(main())
