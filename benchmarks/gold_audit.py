"""Time per gold of ``sqlequiv audit-gold`` on the bundled example, and what the evaluators miss.

Usage::

    python benchmarks/gold_audit.py [--repeat N] [--slow-seconds S] [--exec-timeout T]

Audits ``examples/gold_audit`` (34 Spider-format golds, every hazard kind planted, and a
prediction file shifted by one line for five items) ``--repeat`` times in this process
and prints:

* the seconds per gold (median over the repeats; the slow gold's timeout included, the
  pairing check included in the total, not in the per-gold times), with the five
  slowest golds;
* the summary table by hazard;
* how the two evaluator rules judge each hazard's *exploiting prediction* (the other
  tie-break, the answer in another order, an empty answer for an empty gold, the NOT IN
  that survives a NULL, the numeric comparison of numbers stored as text, the other
  accepted gold...): for how many hazards Spider's execution match (lists when the gold
  says 'order by', bags otherwise, DISTINCT removed) and BIRD's ``set(pred) ==
  set(gold)`` pass a wrong prediction or fail a right one, on the shipped database
  (what the benchmark scores today) and on the hazard's witness database (what it scores
  as soon as the data has the case). Hazards whose prediction has no right answer to be
  judged against (an order the question asks but the gold does not say; random()) and
  ``slow`` (no exploit: the gold itself times out) are left out of those counts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sqlequiv.goldaudit import (  # noqa: E402
    AuditSettings,
    audit_benchmark,
    load_golds,
    render_summary,
    summarize,
)
from sqlequiv.options import Options  # noqa: E402

EXAMPLE = ROOT / "examples" / "gold_audit"


def run(repeat: int, slow_seconds: float, exec_timeout: float) -> None:
    items = load_golds("spider", EXAMPLE / "gold.sql", questions=EXAMPLE / "dev.json",
                       pred=EXAMPLE / "pred.sql")  # fmt: skip
    settings = AuditSettings(
        Options(time_budget=2.0, check_time_budget=6.0, bounded_time_budget=1.0),
        exec_timeout=exec_timeout,
        slow_seconds=slow_seconds,
    )
    totals, per_gold = [], []
    records: list[dict[str, Any]] = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = audit_benchmark("spider", items, EXAMPLE / "database",
                                 tables_json=str(EXAMPLE / "tables.json"), settings=settings,
                                 predictions=True)  # fmt: skip
        totals.append(time.perf_counter() - start)
        records = result.records
        per_gold.append([r["seconds"] for r in records if r["record"] == "gold"])
    golds = len(per_gold[0])
    medians = [statistics.median(run[i] for run in per_gold) for i in range(golds)]
    total, median = statistics.median(totals), statistics.median(medians)
    mean = sum(medians) / golds
    print(f"audited {golds} golds x {repeat}: total {total:.2f} s (median; pairing check "
          f"included), {mean:.3f} s per gold (mean of per-gold medians), {median:.3f} s "
          "median gold")  # fmt: skip
    slowest = sorted(range(golds), key=lambda i: -medians[i])[:5]
    print("slowest golds: " + ", ".join(f"#{i} {medians[i]:.2f} s" for i in slowest))
    print()
    print(render_summary(summarize(records)))
    print()
    _evaluators(records)


def _evaluators(records: list[dict[str, Any]]) -> None:
    judged = 0
    wrong: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = {}
    for record in records:
        for hazard in record.get("hazards") or []:
            exploit = hazard.get("exploit")
            if not exploit or exploit.get("correct") is None:
                continue
            judged += 1
            right = exploit["correct"]
            for rule in ("spider", "bird"):
                for where in ("shipped", "witness"):
                    match = exploit[rule][where]
                    if match is not None and match != right:
                        key = f"{rule} {where} " + ("passes wrongly" if match else "fails wrongly")
                        wrong[key] += 1
                        kinds.setdefault(key, Counter())[hazard["kind"]] += 1
            if exploit["misjudged_by"]:
                wrong["any rule, any database"] += 1
            if any(exploit[r]["shipped"] not in (None, right) for r in ("spider", "bird")):
                wrong["any rule, shipped database"] += 1
    print(f"{judged} hazards with an exploiting prediction to judge")
    for key in sorted(wrong):
        detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.get(key, Counter()).items()))
        print(f"  {key:<34}{wrong[key]:>3}" + (f"   ({detail})" if detail else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--slow-seconds", type=float, default=0.5)
    parser.add_argument("--exec-timeout", type=float, default=1.0)
    args = parser.parse_args()
    run(args.repeat, args.slow_seconds, args.exec_timeout)


if __name__ == "__main__":
    main()
