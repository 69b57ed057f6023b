"""Cross-check every proof: search for a counterexample to each pair ``check`` proves.

Usage::

    python benchmarks/soundness.py ../shared/benchmarks/*.jsonl \
        [--no-corpus] [--limit N] [--jobs N] [--databases 360] [--seed 0] [--out FILE]

For each benchmark file (JSONL records with ``candidate``; a file of peer
measurements is skipped) and for the corpus (``sqlequiv.corpus.load_corpus()``),
every pair that ``sqlequiv.check`` proves (``equivalent``, by any method) is
checked again with every proving stage off (``sqlequiv.pipeline.REFUTING_STAGES``:
the counterexample search, then bounded verification) and a larger budget
(``--databases``: 360, for at least 300 distinct databases per pair, against 150 by
default). A proof is sound only if
none of them is refuted: a refutation here is a verified database on which the
two queries differ, so either the proof or the verification is wrong.

Per file it prints: pairs, proved, re-searched, refuted, unknown, error, the
median seconds of a re-search, the databases tried by those that found nothing, how
many hit the wall-clock cap (which then stopped them short); then every refuted
pair with both queries and its counterexample. Exit status 1 if any pair is
refuted, else 0.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlequiv import Options, check
from sqlequiv.corpus import load_corpus
from sqlequiv.pipeline import PROVING_STAGES, REFUTING_STAGES
from sqlequiv.render import render

ROOT = Path(__file__).resolve().parent.parent

#: The re-search's budget (``max_fixtures``): the searches that find nothing then try at
#: least 300 distinct databases each, where the value pools hold as many (the Hypothesis
#: phase is given the rest of the budget as examples, some of which repeat a database
#: already tried: the evidence's ``fixtures_tried`` counts distinct databases).
DATABASES = 360

#: The search's databases per second, roughly, on a slow pair: the wall-clock cap of a
#: re-search is its database budget at this rate (a safety net; the evidence says when
#: it was hit).
_DATABASES_PER_SECOND = 10

_COLUMNS = ("file", "pairs", "proved", "re-searched", "refuted", "unknown", "error",
            "median s", "databases (min / median)", "time cap hit")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--no-corpus", action="store_true", help="skip the bundled corpus")
    parser.add_argument("--limit", type=int, default=None, help="first N pairs of each file")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--databases", type=int, default=DATABASES, help="search budget of a re-search"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write per-pair results as JSONL")
    args = parser.parse_args(argv)

    workloads: list[tuple[str, list[dict[str, Any]]]] = []
    for path in args.files:
        records = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
        if records and "candidate" not in records[0]:
            print(f"{path.name}: no pairs (peer measurements), skipped", file=sys.stderr)
            continue
        workloads.append((path.name, records[: args.limit] if args.limit else records))
    if not args.no_corpus:
        cases = [_corpus_record(case) for case in load_corpus()]
        workloads.append(("corpus", cases[: args.limit] if args.limit else cases))

    proving = Options(seed=args.seed)
    searching = Options(
        seed=args.seed,
        max_fixtures=args.databases,
        time_budget=max(proving.time_budget, args.databases / _DATABASES_PER_SECOND),
    )
    out = args.out.open("w", encoding="utf-8") if args.out else None
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    table: list[tuple[str, ...]] = []
    refuted: list[dict[str, Any]] = []
    try:
        for name, records in workloads:
            work = [(record, proving, searching) for record in records]
            results: Iterable[dict[str, Any]] = (
                pool.imap(_run_packed, work) if pool else map(_run_packed, work)
            )
            rows = []
            for n, row in enumerate(results, 1):
                rows.append(row)
                if out:
                    out.write(json.dumps({"file": name, **row}) + "\n")
                print(f"\r{name}: {n}/{len(records)}", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            table.append(summary(name, rows))
            refuted.extend({"file": name, **r} for r in rows if r["recheck"] == "not_equivalent")
    finally:
        if pool:
            pool.close()
        if out:
            out.close()
    print_table(table)
    for row in refuted:
        print(f"\n## REFUTED: {row['file']} {row['id']} (proved by {row['method']})")
        print(f"candidate: {row['candidate']}")
        print(f"reference: {row['reference']}")
        print(row["report"])
    if refuted:
        print(f"\n{len(refuted)} proved pair(s) refuted: a soundness bug.")
        return 1
    print("\nNo proved pair was refuted.")
    return 0


def _corpus_record(case: Any) -> dict[str, Any]:
    return {
        "id": case.id,
        "schema_ddl": case.schema_ddl,
        "dialect": case.dialect,
        "candidate": case.candidate,
        "reference": case.reference,
    }


def _run_packed(args: tuple[dict[str, Any], Options, Options]) -> dict[str, Any]:
    return run_pair(*args)


def run_pair(record: dict[str, Any], proving: Options, searching: Options) -> dict[str, Any]:
    """Check one pair; when it is proved, search for a counterexample with the proofs off."""
    # The peers' records carry their DDL; sqlequiv's own sets (prove_sets/) a schema file
    # (an SQLite database or a DDL script) relative to the repository.
    schema = record.get("schema_ddl") or str(ROOT / record["schema"])
    pair = (record["candidate"], record["reference"], schema, record["dialect"])
    # Only the proving stages: check() proves exactly what they prove (they run first, and
    # no later stage proves), and an unproved pair needs no search here.
    verdict = check(*pair, proving, stages=PROVING_STAGES)
    row: dict[str, Any] = {
        "id": record["id"],
        "verdict": verdict.verdict,
        "method": verdict.method,
        "recheck": None,
    }
    if verdict.verdict != "equivalent":
        return row
    start = time.perf_counter()
    again = check(*pair, searching, stages=REFUTING_STAGES)
    evidence = again.evidence.to_dict()
    row.update(
        recheck=again.verdict,
        recheck_method=again.method,
        seconds=round(time.perf_counter() - start, 4),
        databases=evidence.get("fixtures_tried"),
        time_cap_hit=bool(evidence.get("time_cap_hit")),
        bounded=evidence.get("bounded"),
        error=again.error.to_dict() if again.error else None,
    )
    if again.verdict == "not_equivalent":
        row.update(
            candidate=record["candidate"],
            reference=record["reference"],
            counterexample=again.counterexample.to_dict() if again.counterexample else None,
            report=render(again),
        )
    return row


def summary(name: str, rows: list[dict[str, Any]]) -> tuple[str, ...]:
    """One line of the table: what was proved and what the re-search made of it."""
    proved = [r for r in rows if r["verdict"] == "equivalent"]

    def count(kind: str) -> int:
        return sum(r["recheck"] == kind for r in proved)

    seconds = [r["seconds"] for r in proved]
    # Databases tried by the searches that found nothing (a refutation stops early).
    tried = [r["databases"] for r in proved if r["recheck"] == "unknown" and r["databases"]]
    return (
        name,
        str(len(rows)),
        str(len(proved)),
        str(sum(r["recheck"] in ("not_equivalent", "unknown") for r in proved)),
        str(count("not_equivalent")),
        str(count("unknown")),
        str(count("error")),
        f"{statistics.median(seconds):.2f}" if seconds else "-",
        f"{min(tried)} / {statistics.median(tried):.0f}" if tried else "-",
        str(sum(r["time_cap_hit"] for r in proved)),
    )


def print_table(table: list[tuple[str, ...]]) -> None:
    print("\n| " + " | ".join(_COLUMNS) + " |")
    print("|" + "---|" * len(_COLUMNS))
    for line in table:
        print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    sys.exit(main())
