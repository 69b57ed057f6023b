"""Proof rates on sqlequiv's own bundled sets (issue 43), part by part.

Each ``prove_sets/*.jsonl`` line is a pair with its truth (``expect``): the
equivalences must be proved, their near misses refuted. For each part it prints how
many equivalences are proved and by which method, how many near misses are refuted,
the reasons of the ``unknown`` ones, and the median time of a proof and of an
``unknown``. A verdict that contradicts the truth (a refuted equivalence, a proved near
miss) is a soundness bug: the run exits 1.

    PYTHONPATH=src python benchmarks/prove_sets.py [--part sqlite] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from sqlequiv import check
from sqlequiv.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent
SETS = Path(__file__).resolve().parent / "prove_sets"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", action="append", help="only these parts")
    parser.add_argument("--json", help="one record per pair")
    args = parser.parse_args(argv)
    pairs = [json.loads(line) for path in sorted(SETS.glob("*.jsonl"))
             for line in path.read_text().splitlines() if line.strip()]  # fmt: skip
    if args.part:
        pairs = [p for p in pairs if p["part"] in args.part]
    schemas: dict[tuple[str, str], Any] = {}
    records = []
    for pair in pairs:
        key = (pair["schema"], pair["dialect"])
        if key not in schemas:
            schemas[key] = load_schema(str(ROOT / pair["schema"]), pair["dialect"])
        start = time.perf_counter()
        verdict = check(pair["candidate"], pair["reference"], schemas[key], pair["dialect"])
        seconds = time.perf_counter() - start
        proof = verdict.evidence.proof if verdict.evidence is not None else None
        records.append({
            "id": pair["id"], "part": pair["part"], "expect": pair["expect"],
            "verdict": verdict.verdict, "method": verdict.method, "seconds": round(seconds, 4),
            "reason": getattr(proof, "reason", None) if verdict.verdict == "unknown" else None,
            "error": verdict.error.message if verdict.error is not None else None,
        })  # fmt: skip
    by_part: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_part[record["part"]].append(record)
    wrong = []
    for part, rs in by_part.items():
        eq = [r for r in rs if r["expect"] == "equivalent"]
        ne = [r for r in rs if r["expect"] == "not_equivalent"]
        proved = [r for r in eq if r["verdict"] == "equivalent"]
        refuted = [r for r in ne if r["verdict"] == "not_equivalent"]
        wrong += [r for r in eq if r["verdict"] == "not_equivalent"]
        wrong += [r for r in ne if r["verdict"] == "equivalent"]
        methods = Counter(r["method"] for r in proved)
        reasons = Counter(_short(r["reason"] or r["error"] or r["verdict"])
                          for r in eq if r["verdict"] != "equivalent")  # fmt: skip
        proof_times = [r["seconds"] for r in proved]
        unknown_times = [r["seconds"] for r in rs if r["verdict"] == "unknown"]
        print(f"{part}: {len(eq)} equivalences, {len(proved)} proved "
              f"({100 * len(proved) / max(len(eq), 1):.0f}%: {dict(methods)}); "
              f"{len(ne)} near misses, {len(refuted)} refuted")  # fmt: skip
        print(f"  median proof {_ms(proof_times)}, median unknown {_ms(unknown_times)}")
        for reason, n in reasons.most_common():
            print(f"  not proved ({n}): {reason}")
        for r in eq:
            if r["verdict"] != "equivalent":
                print(f"    {r['id']}: {r['verdict']}")
    print(f"verdicts contradicting the truth: {len(wrong)} {[r['id'] for r in wrong]}")
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in records))
    return 1 if wrong else 0


def _short(text: str) -> str:
    return text if len(text) <= 110 else text[:107] + "..."


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms" if values else "-"


if __name__ == "__main__":
    sys.exit(main())
