"""Run ``sqlequiv.check`` over benchmark pairs and print the figures.

Usage::

    python benchmarks/run.py ../shared/benchmarks/*.jsonl \
        [--limit N] [--baseline] [--out FILE] [--jobs N]

Input: JSONL records with ``id``, ``schema_ddl``, ``dialect``, ``candidate``,
``reference`` and optionally ``label`` (see ../shared/benchmarks/README.md).
A file of peer measurements (records with ``workload``/``index`` and no
``candidate``, like ``verieql_measured_here.jsonl``) is compared pair by pair
with our verdicts on the same pairs.

Per file it prints verdict counts, agreement with labels, counterexamples
replayed independently (a fresh DuckDB with every constraint enforced), errors
by kind, and median / p90 / max seconds per pair. With ``--baseline`` it also
runs the floor the design names — a plain seeded random search over tiny
databases with harvested constants, no normalizer, no Hypothesis, no shrinking
— in the same run, and prints the ratios.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb

from sqlequiv import Options, check
from sqlequiv.database import sql_literal
from sqlequiv.schema import load_schema


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="first N pairs of each file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", action="store_true", help="also run plain random search")
    parser.add_argument("--out", type=Path, default=None, help="write per-pair results as JSONL")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)

    options = Options(seed=args.seed)
    results: dict[str, dict[str, Any]] = {}
    out = args.out.open("w", encoding="utf-8") if args.out else None
    peer_files = []
    for path in args.files:
        records = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
        if records and "candidate" not in records[0]:
            peer_files.append((path, records))
            continue
        if args.limit:
            records = records[: args.limit]
        rows = []
        work = [(record, options, args.baseline) for record in records]
        pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
        pairs = pool.imap(_run_packed, work) if pool else map(_run_packed, work)
        for n, (record, row) in enumerate(zip(records, pairs, strict=True), 1):
            rows.append(row)
            results[record["id"]] = row
            if out:
                out.write(json.dumps(row) + "\n")
            print(f"\r{path.name}: {n}/{len(records)}", end="", file=sys.stderr, flush=True)
        if pool:
            pool.close()
        print(file=sys.stderr)
        report(path.name, rows, args.baseline)
    for path, peer in peer_files:
        report_peer(path.name, peer, results)
    if out:
        out.close()
    return 0


def _run_packed(args: tuple[dict[str, Any], Options, bool]) -> dict[str, Any]:
    return run_pair(*args)


def run_pair(record: dict[str, Any], options: Options, baseline: bool) -> dict[str, Any]:
    start = time.perf_counter()
    verdict = check(
        record["candidate"], record["reference"], record["schema_ddl"], record["dialect"], options
    )
    seconds = time.perf_counter() - start
    row: dict[str, Any] = {
        "id": record["id"],
        "label": record.get("label"),
        "verdict": verdict.verdict,
        "method": verdict.method,
        "seconds": round(seconds, 4),
        "error_kind": verdict.error.kind if verdict.error else None,
        "error": verdict.error.message if verdict.error else None,
        "cause": verdict.counterexample.cause if verdict.counterexample else None,
        "replayed": None,
        "fixtures_tried": verdict.evidence.to_dict().get("fixtures_tried"),
        "stage": decided_by(verdict.verdict, verdict.method, verdict.error),
        "bounded": verdict.evidence.to_dict().get("bounded"),
        "bounded_status": verdict.evidence.to_dict().get("bounded_status"),
        "timings": verdict.timings,
    }
    if verdict.counterexample is not None:
        row["replayed"] = replay(record, verdict.counterexample.tables)
        row["counterexample"] = verdict.counterexample.to_dict()
    if baseline:
        row["baseline"] = random_baseline(record, options)
    return row


#: Error kinds that mean "outside what sqlequiv handles", not "bad input".
UNSUPPORTED_KINDS = {"unsupported", "unknown_function"}


def decided_by(verdict: str, method: str | None, error: Any) -> str:
    """The stage that decided a pair, for the per-stage counts."""
    if verdict in ("equivalent", "not_equivalent"):
        return str(method)
    if verdict == "error":
        return "unsupported" if error is not None and error.kind in UNSUPPORTED_KINDS else "error"
    return "unknown"


def replay(record: dict[str, Any], tables: dict[str, list[dict[str, Any]]]) -> bool:
    """Independently re-run a counterexample: a fresh DuckDB, every constraint enforced."""
    schema = load_schema(record["schema_ddl"], record["dialect"])
    con = duckdb.connect()
    try:
        con.execute(schema.ddl(constraints=True))
        for table in schema.topological():
            types = {c.name: c.type_sql for c in table.columns}
            for row in tables.get(table.name, []):
                values = ", ".join(sql_literal(row[c], types[c]) for c in table.column_names)
                con.execute(f'INSERT INTO "{table.name}" VALUES ({values})')
        from sqlequiv.guard import guard_query

        sides = []
        for sql in (record["candidate"], record["reference"]):
            guarded = guard_query(sql, schema, dialect=record["dialect"])
            sides.append(sorted(map(repr, con.execute(guarded.duckdb_sql).fetchall())))
        # Column order is ignored by the checker; compare sorted row values too.
        if sides[0] == sides[1]:
            return _differs_ignoring_column_order(con, record, schema)
        return True
    except duckdb.ConstraintException:
        return False
    finally:
        con.close()


def _differs_ignoring_column_order(con: Any, record: dict[str, Any], schema: Any) -> bool:
    from sqlequiv.compare.rows import compare_results
    from sqlequiv.guard import guard_query
    from sqlequiv.results import ResultSet

    results = []
    for sql in (record["candidate"], record["reference"]):
        guarded = guard_query(sql, schema, dialect=record["dialect"])
        cursor = con.execute(guarded.duckdb_sql)
        rows = cursor.fetchall()
        results.append(ResultSet(tuple(d[0] for d in cursor.description), tuple(map(tuple, rows))))
    return not compare_results(results[0], results[1], Options()).equal


def random_baseline(record: dict[str, Any], options: Options, draws: int = 300) -> dict[str, Any]:
    """The floor: seeded random databases from harvested constants, first difference wins."""
    from sqlequiv.errors import QueryFailed, SqlequivError
    from sqlequiv.execute import shared_executor
    from sqlequiv.guard import guard_query
    from sqlequiv.search.domains import build_domains
    from sqlequiv.search.generate import RandomGenerator
    from sqlequiv.search.harvest import harvest
    from sqlequiv.search.probe import Prober

    start = time.perf_counter()
    outcome = "none"
    try:
        schema = load_schema(record["schema_ddl"], record["dialect"])
        cand = guard_query(record["candidate"], schema, dialect=record["dialect"])
        ref = guard_query(record["reference"], schema, dialect=record["dialect"], side="reference")
        domains = build_domains(schema, harvest([cand.qualified, ref.qualified]), options.max_rows)
        executor = shared_executor(options.query_timeout)
        executor.prepare(schema)
        prober = Prober(executor, schema, cand, ref, options)
        generator = RandomGenerator(schema, domains, options.seed)
        for _ in range(draws):
            if prober.probe(generator.draw(options.max_rows)).differs:
                outcome = "refuted"
                break
    except (SqlequivError, QueryFailed):
        outcome = "error"
    return {"outcome": outcome, "seconds": round(time.perf_counter() - start, 4)}


def _quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"median {statistics.median(values):.3f} s, p90 {p90:.3f} s, max {values[-1]:.3f} s"


def report(name: str, rows: list[dict[str, Any]], baseline: bool) -> None:
    verdicts = Counter(r["verdict"] for r in rows)
    print(f"\n## {name}: {len(rows)} pairs")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    stages = Counter(r["stage"] for r in rows)
    order = ["normalized", "symbolic", "constant", "fixture_search", "bounded", "unknown",
             "unsupported", "error"]  # fmt: skip
    print("decided by: " + ", ".join(f"{k} {stages[k]}" for k in order if stages[k]))
    bounds = Counter(r["bounded"] for r in rows if r["verdict"] == "unknown")
    if bounds:
        print(
            "unknown, no difference up to bound: "
            + ", ".join(f"k={k} {v}" for k, v in sorted(bounds.items(), key=lambda kv: str(kv[0])))
        )
    labelled = [r for r in rows if r["label"]]
    if labelled:
        agree = sum(r["verdict"] == r["label"] for r in labelled)
        contradict = sum(
            {r["verdict"], r["label"]} == {"equivalent", "not_equivalent"} for r in labelled
        )
        print(
            f"labels: {len(labelled)}; agree {agree}, contradict {contradict}, "
            f"undecided {len(labelled) - agree - contradict}"
        )
    refuted = [r for r in rows if r["verdict"] == "not_equivalent"]
    if refuted:
        ok = sum(bool(r["replayed"]) for r in refuted)
        print(f"counterexamples: {len(refuted)}, replayed independently and differing: {ok}")
        causes = Counter(r["cause"] for r in refuted)
        print("causes: " + ", ".join(f"{k} {v}" for k, v in sorted(causes.items())))
    errors = Counter(r["error_kind"] for r in rows if r["error_kind"])
    if errors:
        print("errors by kind: " + ", ".join(f"{k} {v}" for k, v in errors.most_common()))
    print("time, all pairs: " + _quantiles([r["seconds"] for r in rows]))
    for verdict in ("equivalent", "not_equivalent", "unknown"):
        subset = [r["seconds"] for r in rows if r["verdict"] == verdict]
        if subset:
            print(f"time, {verdict}: " + _quantiles(subset))
    stage_times: dict[str, list[float]] = {}
    for r in rows:
        for stage, spent in (r.get("timings") or {}).items():
            stage_times.setdefault(stage, []).append(spent)
    if stage_times:
        print(
            "stage time, ms (median / p90 over pairs that ran it): "
            + ", ".join(
                f"{k} {statistics.median(v):.0f}/{sorted(v)[int(0.9 * (len(v) - 1))]:.0f}"
                for k, v in stage_times.items()
            )
        )
    if baseline:
        base = [r["baseline"] for r in rows]
        base_refuted = sum(b["outcome"] == "refuted" for b in base)
        print(
            f"baseline (plain random search, 300 draws): refuted {base_refuted} vs sqlequiv "
            f"{len(refuted)}; " + _quantiles([b["seconds"] for b in base])
        )
        both = [
            (r["seconds"], r["baseline"]["seconds"])
            for r in refuted
            if r["baseline"]["outcome"] == "refuted"
        ]
        if both:
            ratio = statistics.median(a / b for a, b in both if b > 0)
            print(f"median time ratio sqlequiv/baseline on pairs both refute: {ratio:.2f}")


def report_peer(name: str, peer: list[dict[str, Any]], ours: dict[str, dict[str, Any]]) -> None:
    print(f"\n## {name}: peer measurements, {len(peer)} pairs")
    mapping = {"EQU": "no difference up to bound", "NEQ": "refuted"}
    table: Counter[tuple[str, str]] = Counter()
    peer_times, our_times = [], []
    for record in peer:
        pair_id = f"verieql_{record['workload']}_{record['index']}"
        mine = ours.get(pair_id)
        if mine is None:
            continue
        theirs = mapping.get(record["raw_state"], record["verdict"])
        table[(theirs, mine["verdict"])] += 1
        peer_times.append(float(record["wall_s"]))
        our_times.append(mine["seconds"])
    if not table:
        print("(run the pair files in the same invocation to compare)")
        return
    print("VeriEQL verdict -> sqlequiv verdict: count")
    for (theirs, mine), count in sorted(table.items()):
        print(f"  {theirs:28s} -> {mine:15s} {count}")
    print("VeriEQL time: " + _quantiles(peer_times))
    print("sqlequiv time: " + _quantiles(our_times))


if __name__ == "__main__":
    sys.exit(main())
