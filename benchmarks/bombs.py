"""Time ``sqlequiv.check`` on hostile inputs, against a simple check in the same process.

Usage::

    python benchmarks/bombs.py [--only NAME ...] [--timeout S] [--seed N] [--out FILE]

Candidate SQL comes from a model, so a candidate may be huge or deeply nested, and a
schema may be large. Each bomb runs in a fresh process (``spawn``): the process first
runs the baseline pair once to warm up (imports, DuckDB's function list), then times
the baseline pair and the bomb. It prints, per bomb, the verdict, the error kind if
any, the seconds, the ratio to the baseline (ratios travel between machines, seconds
do not), the slowest stage, and whether a wall-clock cap decided anything (then the
answer may depend on the machine). A bomb that has not finished after ``--timeout``
seconds is killed and reported as such: that is a bug.

The bombs: a 900-term OR chain, 30 chained JOINs, 3,000 nested parentheses, a 5 MB
query text, 200 nested subqueries, and a 500-table schema whose foreign keys chain
every table to the previous one (the query reads the last).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlequiv import Options, check

SCHEMA = "CREATE TABLE t (a INT PRIMARY KEY, b INT)"
BASELINE = ("SELECT a FROM t WHERE b > 1", "SELECT a FROM t WHERE b >= 1", SCHEMA)


@dataclass(frozen=True)
class Bomb:
    name: str
    #: () -> (candidate, reference, schema DDL); built in the child, so big texts do
    #: not cross the pipe.
    build: Callable[[], tuple[str, str, str]]
    note: str


def _or_chain() -> tuple[str, str, str]:
    ors = " OR ".join(f"b = {i}" for i in range(900))
    return f"SELECT a FROM t WHERE {ors}", "SELECT a FROM t WHERE b BETWEEN 0 AND 899", SCHEMA


def _joins() -> tuple[str, str, str]:
    joins = " ".join(f"JOIN t AS t{i} ON t{i}.a = t{i - 1}.a" for i in range(1, 31))
    return f"SELECT t0.a FROM t AS t0 {joins}", "SELECT a FROM t", "CREATE TABLE t (a INT, b INT)"


def _parentheses() -> tuple[str, str, str]:
    return "SELECT " + "(" * 3000 + "1" + ")" * 3000, "SELECT 1", SCHEMA


def _five_megabytes() -> tuple[str, str, str]:
    values: list[str] = []
    size = 0
    while size < 5_000_000:
        values.append(str(len(values)))
        size += len(values[-1]) + 2
    return f"SELECT a FROM t WHERE b IN ({', '.join(values)})", "SELECT a FROM t", SCHEMA


def _nested_subqueries() -> tuple[str, str, str]:
    sql = "SELECT a, b FROM t"
    for level in range(200):
        sql = f"SELECT a, b FROM ({sql}) AS s{level} WHERE b > {level}"
    return sql, "SELECT a, b FROM t WHERE b > 199", SCHEMA


def _wide_schema() -> tuple[str, str, str]:
    tables = ["CREATE TABLE t0 (id INT PRIMARY KEY, a INT, b INT, c VARCHAR, d DATE)"]
    tables += [
        f"CREATE TABLE t{i} (id INT PRIMARY KEY, a INT, b INT, c VARCHAR, d DATE, "
        f"p INT NOT NULL REFERENCES t{i - 1} (id))"
        for i in range(1, 500)
    ]
    cand = "SELECT x.id FROM t499 AS x JOIN t498 AS y ON y.id = x.p WHERE y.b > 1"
    ref = "SELECT x.id FROM t499 AS x JOIN t498 AS y ON y.id = x.p WHERE y.b >= 1"
    return cand, ref, ";\n".join(tables) + ";"


BOMBS = (
    Bomb("or_chain_900", _or_chain, "900 ORs (equivalent to the BETWEEN)"),
    Bomb("joins_30", _joins, "30 chained self-joins of a table without a key"),
    Bomb("parentheses_3000", _parentheses, "3,000 nested parentheses"),
    Bomb("text_5mb", _five_megabytes, "a 5 MB IN list"),
    Bomb("subqueries_200", _nested_subqueries, "200 nested derived tables"),
    Bomb("schema_500_tables", _wide_schema, "500 tables in one foreign-key chain"),
)

#: Stages whose wall-clock cap, when it fires, makes the answer depend on the machine.
_CAPS = ("time_cap_hit",)


def _timed(candidate: str, reference: str, schema: str, options: Options) -> dict[str, Any]:
    start = time.perf_counter()
    verdict = check(candidate, reference, schema, options=options)
    seconds = time.perf_counter() - start
    timings = dict(verdict.timings)
    slowest = max(timings, key=lambda k: timings[k]) if timings else None
    evidence = verdict.evidence.to_dict()
    return {
        "verdict": verdict.verdict,
        "method": verdict.method,
        "error_kind": verdict.error.kind if verdict.error else None,
        "seconds": round(seconds, 3),
        "slowest_stage": slowest,
        "slowest_ms": round(timings[slowest]) if slowest else None,
        "clock_decided": any(evidence.get(k) for k in _CAPS)
        or evidence.get("bounded_status") == "timeout",
        "bounded_status": evidence.get("bounded_status"),
        "bounded_reason": evidence.get("bounded_reason"),
        "timings": timings,
    }


def _child(name: str, seed: int, queue: Any) -> None:
    bomb = next(b for b in BOMBS if b.name == name)
    options = Options(seed=seed)
    _timed(*BASELINE, options)  # warm-up
    baseline = _timed(*BASELINE, options)
    start = time.perf_counter()
    candidate, reference, schema = bomb.build()
    built = time.perf_counter() - start
    result = _timed(candidate, reference, schema, options)
    result["text_bytes"] = len(candidate)
    result["build_seconds"] = round(built, 3)
    queue.put({"baseline": baseline, "bomb": result})


def run_bomb(bomb: Bomb, seed: int, timeout: float) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_child, args=(bomb.name, seed, queue), daemon=True)
    start = time.perf_counter()
    process.start()
    try:
        outcome: dict[str, Any] = queue.get(timeout=timeout)
    except Exception:  # queue.Empty after the timeout, or the child died
        process.kill()
        process.join(5)
        code = process.exitcode
        what = "did not finish" if code in (None, -9) else f"died (exit code {code})"
        return {"name": bomb.name, "failed": what, "seconds": round(time.perf_counter() - start)}
    process.join(10)
    outcome["name"] = bomb.name
    outcome["ratio"] = round(outcome["bomb"]["seconds"] / max(outcome["baseline"]["seconds"],
                                                              1e-3), 1)  # fmt: skip
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="bomb names to run")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per bomb")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write results as JSONL")
    args = parser.parse_args(argv)
    chosen = [b for b in BOMBS if args.only is None or b.name in args.only]
    unknown = set(args.only or ()) - {b.name for b in BOMBS}
    if unknown:
        names = ", ".join(b.name for b in BOMBS)
        print(f"bombs.py: unknown bomb(s) {sorted(unknown)}; choose from {names}", file=sys.stderr)
        return 2
    out = args.out.open("w", encoding="utf-8") if args.out else None
    header = (f"{'bomb':<18} {'verdict':<15} {'error':<16} {'s':>7} {'base s':>7} "
              f"{'x base':>7} {'slowest stage':<24} clock")  # fmt: skip
    print(header)
    print("-" * len(header))
    failures = 0
    for bomb in chosen:
        row = run_bomb(bomb, args.seed, args.timeout)
        if out:
            out.write(json.dumps(row) + "\n")
        if "failed" in row:
            failures += 1
            print(f"{bomb.name:<18} {row['failed']} after {row['seconds']} s")
            continue
        b = row["bomb"]
        stage = f"{b['slowest_stage']} {b['slowest_ms']} ms" if b["slowest_stage"] else "-"
        print(
            f"{bomb.name:<18} {b['verdict']:<15} {b['error_kind'] or '-':<16} "
            f"{b['seconds']:>7.2f} {row['baseline']['seconds']:>7.3f} {row['ratio']:>7.1f} "
            f"{stage:<24} {'yes' if b['clock_decided'] else 'no'}"
        )
    print("\nbase s: the simple pair, timed in the same process; clock: a wall-clock cap fired")
    if out:
        out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
