"""The random floor of issue 15 against sqlequiv, on the pairs in benchmarks/floor/.

For each pair, in this one process: first the floor (benchmarks/floor_suite.py), then
``sqlequiv.check(candidate, reference, schema, dialect)`` with default Options, each timed
with ``time.perf_counter`` (the schema is loaded once per DDL file and passed as a
``Schema`` to both; the floor's engine connection is made once per DDL file and dialect,
its cost counted in the first pair that uses it). Before the timed run both tools run
once, untimed, on the first pair of each dialect (:func:`warm_up`; its time is printed).

    PYTHONPATH=src python benchmarks/floor.py [--dialect sqlite|duckdb] [--limit N]
        [--ids a,b] [--floor-dbs 300] [--json OUT] [--check]
    python benchmarks/floor.py --from-json OUT     # the report again, labels re-read

``--check`` exits 1 when sqlequiv misses a pair the floor refutes and that is labelled
not_equivalent, or on any bug (an sqlequiv refutation of an expected-equivalent pair, or a
proof of an expected-not_equivalent one).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor_suite
import sqlequiv

HERE = Path(__file__).resolve().parent / "floor"
DIALECTS = ("sqlite", "duckdb")


def load_pairs(dialects: tuple[str, ...] = DIALECTS) -> list[dict[str, Any]]:
    pairs = []
    for dialect in dialects:
        with (HERE / f"pairs_{dialect}.jsonl").open(encoding="utf-8") as fh:
            pairs.extend(json.loads(line) for line in fh if line.strip())
    return pairs


def evidence_summary(verdict: Any) -> str:
    """A one-line summary of what sqlequiv tried."""
    if verdict.verdict == "error" and verdict.error is not None:
        err = verdict.error.to_dict()
        return f"error {err.get('side')}/{err.get('kind')}: {str(err.get('message'))[:120]}"
    if verdict.verdict == "equivalent":
        return f"method={verdict.method}"
    ev = verdict.evidence.to_dict()
    parts = [f"fixtures={ev.get('fixtures_tried')}"]
    for key in ("nondeterministic", "invalid", "runtime_error", "ambiguous"):
        if ev.get(key):
            parts.append(f"{key}={ev[key]}")
    if ev.get("time_cap_hit"):
        parts.append("search time cap hit")
    if ev.get("bounded_status"):
        parts.append(f"bounded={ev['bounded_status']} k={ev.get('bounded')}")
        if ev.get("bounded_reason"):
            parts.append(f"({str(ev['bounded_reason'])[:80]})")
    if ev.get("budget_stops"):
        parts.append(f"budget_stops={dict(ev['budget_stops'])}")
    if ev.get("rejected_counterexamples"):
        parts.append(f"rejected={ev['rejected_counterexamples']}")
    if verdict.counterexample is not None:
        parts.append(f"cause={verdict.counterexample.cause}")
    if ev.get("found_by"):
        parts.append(f"found_by={ev['found_by']}")
    return " ".join(parts) or "-"


def run_pair(pair: dict[str, Any], floor_dbs: int) -> dict[str, Any]:
    ddl = HERE / pair["schema"]
    dialect = pair["dialect"]
    schema = floor_suite.load_ddl(ddl, dialect)

    t0 = time.perf_counter()
    floor = floor_suite.floor_check(pair["reference"], pair["candidate"], ddl, dialect, floor_dbs)
    floor_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    verdict = sqlequiv.check(pair["candidate"], pair["reference"], schema, dialect=dialect)
    sq_s = time.perf_counter() - t0

    return {
        "id": pair["id"],
        "dialect": dialect,
        "class": pair["class"],
        "expected": pair["expected"],
        "floor_refuted": floor.refuted,
        "floor_db_index": floor.db_index,
        "floor_tried": floor.tried,
        "floor_skipped": floor.skipped,
        "floor_database": floor.database,
        "floor_reference_rows": _jsonable(floor.reference_rows),
        "floor_candidate_rows": _jsonable(floor.candidate_rows),
        "floor_s": floor_s,
        "sqlequiv": verdict.verdict,
        "sqlequiv_method": verdict.method,
        "sqlequiv_cause": verdict.counterexample.cause if verdict.counterexample else None,
        "sqlequiv_evidence": evidence_summary(verdict),
        "sqlequiv_s": sq_s,
    }


def warm_up(pairs: list[dict[str, Any]], floor_dbs: int) -> None:
    """Run both tools once, untimed, on the first pair of each dialect: what the first
    call of a process pays once (imports, function catalogues, the first z3 context) is
    not a pair's cost. It is printed, not hidden."""
    firsts = {p["dialect"]: p for p in reversed(pairs)}
    started = time.perf_counter()
    for pair in firsts.values():
        run_pair(pair, floor_dbs)
    print(f"warm-up, not counted: {time.perf_counter() - started:.2f} s "
          f"({len(firsts)} pairs, both tools)", flush=True)  # fmt: skip


def _jsonable(rows: Any) -> Any:
    if rows is None:
        return None
    plain = (int, float, str, type(None))
    return [[v if isinstance(v, plain) else str(v) for v in r] for r in rows]


def _median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms" if values else "-"


def report(records: list[dict[str, Any]]) -> int:
    """Print the summary; return the number of --check failures."""
    failures = 0
    groups = [(d, [r for r in records if r["dialect"] == d]) for d in DIALECTS]
    groups = [g for g in groups if g[1]] + [("total", records)]
    print(f"{'':8} {'pairs':>6} {'floor-ref':>9} {'sq-ref':>7} {'sq-proved':>9} "
          f"{'sq-unknown':>10} {'sq-error':>8}")  # fmt: skip
    for name, recs in groups:
        print(
            f"{name:8} {len(recs):6} {sum(r['floor_refuted'] for r in recs):9} "
            f"{sum(r['sqlequiv'] == 'not_equivalent' for r in recs):7} "
            f"{sum(r['sqlequiv'] == 'equivalent' for r in recs):9} "
            f"{sum(r['sqlequiv'] == 'unknown' for r in recs):10} "
            f"{sum(r['sqlequiv'] == 'error' for r in recs):8}"
        )
    print()
    missed = [r for r in records if r["floor_refuted"] and r["sqlequiv"] != "not_equivalent"]
    print(f"floor refuted, sqlequiv did not: {len(missed)}")
    for r in missed:
        mark = "" if r["expected"] == "not_equivalent" else "  (expected equivalent)"
        print(f"  {r['id']:34} sqlequiv={r['sqlequiv']:10} {r['sqlequiv_s']:6.2f}s "
              f"floor db #{r['floor_db_index']}{mark}")  # fmt: skip
        print(f"      {r['sqlequiv_evidence']}")
        if r["expected"] == "not_equivalent":
            failures += 1
    only_sq = [r for r in records if r["sqlequiv"] == "not_equivalent" and not r["floor_refuted"]]
    print(f"sqlequiv refuted, floor did not: {len(only_sq)}")
    for r in only_sq:
        print(f"  {r['id']:34} cause={r['sqlequiv_cause']} {r['sqlequiv_s']:.2f}s "
              f"(floor tried {r['floor_tried']}, skipped {r['floor_skipped']})")  # fmt: skip
    neither = [
        r for r in records
        if r["expected"] == "not_equivalent" and not r["floor_refuted"]
        and r["sqlequiv"] != "not_equivalent"
    ]  # fmt: skip
    print(f"expected not_equivalent, refuted by neither: {len(neither)}")
    for r in neither:
        print(f"  {r['id']:34} sqlequiv={r['sqlequiv']} {r['sqlequiv_evidence']}")
    print()
    print("median time of a refutation (floor / sqlequiv):")
    for name, recs in groups:
        f_times = [r["floor_s"] for r in recs if r["floor_refuted"]]
        s_times = [r["sqlequiv_s"] for r in recs if r["sqlequiv"] == "not_equivalent"]
        print(f"  {name:8} floor {_median_ms(f_times):>10}   sqlequiv {_median_ms(s_times):>10}")
    print("total time (floor / sqlequiv, ratio sqlequiv/floor):")
    for name, recs in groups:
        f_total = sum(r["floor_s"] for r in recs)
        s_total = sum(r["sqlequiv_s"] for r in recs)
        ratio = s_total / f_total if f_total else float("nan")
        print(f"  {name:8} floor {f_total:8.2f} s   sqlequiv {s_total:8.2f} s   x{ratio:.1f}")
    unknowns = sorted(
        (r for r in records if r["sqlequiv"] == "unknown"), key=lambda r: -r["sqlequiv_s"]
    )
    if unknowns:
        print("slowest unknown:")
        for r in unknowns[:3]:
            print(f"  {r['id']:34} {r['sqlequiv_s']:.2f}s {r['sqlequiv_evidence']}")
    print()
    false_ref = [r for r in records if r["floor_refuted"] and r["expected"] == "equivalent"]
    print(f"floor false refutations (expected equivalent; ties at LIMIT etc.): {len(false_ref)}")
    for r in false_ref:
        print(f"  {r['id']:34} db #{r['floor_db_index']}: reference "
              f"{r['floor_reference_rows']} vs candidate {r['floor_candidate_rows']}")  # fmt: skip
    bugs = [
        r for r in records
        if (r["sqlequiv"] == "not_equivalent" and r["expected"] == "equivalent")
        or (r["sqlequiv"] == "equivalent" and r["expected"] == "not_equivalent")
    ]  # fmt: skip
    if bugs:
        print(f"!!!!!!!! BUG: {len(bugs)} sqlequiv verdict(s) contradict the label !!!!!!!!")
        for r in bugs:
            print(f"  !!! {r['id']:34} expected {r['expected']}, sqlequiv {r['sqlequiv']} "
                  f"({r['sqlequiv_method'] or r['sqlequiv_cause']})")  # fmt: skip
        failures += len(bugs)
    else:
        print("sqlequiv verdicts contradicting the labels (bugs): 0")
    return failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dialect", choices=DIALECTS)
    ap.add_argument("--limit", type=int, help="the first N pairs (per selection)")
    ap.add_argument("--ids", help="comma-separated pair ids")
    ap.add_argument("--floor-dbs", type=int, default=300, help="databases per pair (300)")
    ap.add_argument("--json", type=Path, help="write per-pair records (JSON lines)")
    ap.add_argument("--check", action="store_true", help="exit 1 on a miss or a bug")
    ap.add_argument(
        "--from-json",
        type=Path,
        help="report on records written by --json instead of running (labels re-read)",
    )
    args = ap.parse_args(argv)

    if args.from_json:
        labels = {p["id"]: p["expected"] for p in load_pairs()}
        with args.from_json.open(encoding="utf-8") as fh:
            saved = [json.loads(line) for line in fh if line.strip()]
        for rec in saved:
            rec["expected"] = labels.get(rec["id"], rec["expected"])
        failures = report(saved)
        return 1 if args.check and failures else 0

    pairs = load_pairs((args.dialect,) if args.dialect else DIALECTS)
    if args.ids:
        wanted = set(args.ids.split(","))
        pairs = [p for p in pairs if p["id"] in wanted]
    if args.limit is not None:
        pairs = pairs[: args.limit]
    print(f"{len(pairs)} pairs; per pair the floor ({args.floor_dbs} databases) runs first, "
          "then sqlequiv.check (default Options), in this process", flush=True)  # fmt: skip
    warm_up(pairs, args.floor_dbs)
    records = []
    for i, pair in enumerate(pairs, 1):
        rec = run_pair(pair, args.floor_dbs)
        records.append(rec)
        if i % 25 == 0:
            print(f"  ... {i}/{len(pairs)}", file=sys.stderr, flush=True)
    if args.json:
        with args.json.open("w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec, default=str) + "\n")
    failures = report(records)
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
