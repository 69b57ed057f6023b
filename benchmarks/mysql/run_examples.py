"""Check every LeetCode-style MySQL pair of ``examples/mysql`` and count the verdicts.

Run: ``PYTHONPATH=src python benchmarks/mysql/run_examples.py``. Prints one line per pair
(label, verdict, seconds) and the totals; exits 1 when a verdict contradicts its label
(an equivalent pair refuted, a not-equivalent pair proved) or errors exceed 2 %.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from sqlequiv import Options, check
from sqlequiv.corpus import CorpusCase, default_root, load_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mysql"


def cases() -> list[CorpusCase]:
    """The example pairs, over the corpus's ``leetcode`` schema (one copy of it)."""
    return load_file(EXAMPLES / "leetcode.sql", default_root() / "schemas")
OPTIONS = Options(max_fixtures=100, time_budget=3.0, bounded_time_budget=1.0, check_time_budget=8)


def run(case: CorpusCase) -> str:
    """The verdict of one pair."""
    verdict = check(case.candidate, case.reference, case.schema_ddl, case.dialect, OPTIONS)
    return verdict.verdict


def contradicts(expect: str, verdict: str) -> bool:
    """A verdict that says the opposite of the label (an unknown never does)."""
    return (expect, verdict) in {("equivalent", "not_equivalent"), ("not_equivalent", "equivalent")}


def main() -> int:
    pairs = cases()
    counts: Counter[str] = Counter()
    wrong = 0
    for case in pairs:
        start = time.perf_counter()
        verdict = run(case)
        counts[verdict] += 1
        flag = "  CONTRADICTS LABEL" if contradicts(case.expect, verdict) else ""
        wrong += bool(flag)
        print(
            f"{case.expect:15} {verdict:15} {time.perf_counter() - start:5.2f}s  {case.title}{flag}"
        )
    errors = counts["error"] - sum(c.expect == "error" for c in pairs)
    print(f"{len(pairs)} pairs: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"unexpected errors: {errors} ({100 * errors / len(pairs):.1f} %)")
    return 1 if wrong or errors > 0.02 * len(pairs) else 0


if __name__ == "__main__":
    sys.exit(main())
