"""``sqlequiv grade`` on the example suite: this tree against an earlier one, in one run.

Usage::

    python benchmarks/grade_speedup.py [--baseline REV] [--repeat N] [--backend B]

Checks ``REV`` out into a temporary git worktree (default ``7ad2ea0``, the tree
before issue 15: the random floor, batches and the rest of its search), then grades
``examples/suite.yaml`` with ``examples/candidates.jsonl`` ``--repeat`` times with
each tree, interleaved, in fresh processes (``python -m sqlequiv grade``, the same
options, each into a fresh results file; ``--backend`` as ``sqlequiv grade`` takes
it, default ``local``: one worker per core). The item audit runs, as by default. Both
trees are compiled to bytecode first, so that no run pays for it.

Printed: the median wall time of each tree, the speed-up (ratios hold on a noisy
machine; absolute times do not), and whether every pair got the same status from
both trees (listing those that did not). Exit status 1 if a status differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "examples" / "suite.yaml"
CANDIDATES = ROOT / "examples" / "candidates.jsonl"
#: The last commit before issue 15's work on the search.
BEFORE_ISSUE_15 = "7ad2ea0"


def _grade(src: Path, out: Path, backend: str) -> tuple[float, dict[tuple[str, str], str]]:
    """Seconds one ``grade`` run took with the package in ``src``, and each pair's status."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    argv = [sys.executable, "-m", "sqlequiv", "grade", str(SUITE), str(CANDIDATES)]
    argv += ["--out", str(out), "--backend", backend, "--no-progress"]
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    statuses = {}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        statuses[(record["item_id"], str(record["sample"]))] = record["status"]
    return seconds, statuses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default=BEFORE_ISSUE_15, help="git revision to compare")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backend", default="local", choices=("local", "inline"))
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="sqlequiv-speedup-") as tmp:
        work = Path(tmp)
        tree = work / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.baseline],
            check=True,
        )
        try:
            trees = {"baseline": tree / "src", "this tree": ROOT / "src"}
            for src in trees.values():
                # A fresh worktree has no bytecode: its first run compiled it (10 s more),
                # which is no part of grading.
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)
            times: dict[str, list[float]] = {name: [] for name in trees}
            statuses: dict[str, dict[tuple[str, str], str]] = {}
            for n in range(args.repeat):
                for name, src in trees.items():
                    out = work / f"{name.replace(' ', '_')}-{n}.jsonl"
                    seconds, statuses[name] = _grade(src, out, args.backend)
                    times[name].append(seconds)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )

    print(f"sqlequiv grade {SUITE.name} {CANDIDATES.name} --backend {args.backend}, "
          f"{args.repeat} runs each, interleaved; baseline {args.baseline}")  # fmt: skip
    median = {name: statistics.median(ts) for name, ts in times.items()}
    for name, ts in times.items():
        runs = ", ".join(f"{t:.1f}" for t in ts)
        print(f"  {name:10s} median {median[name]:6.1f} s   ({runs})")
    print(f"  speed-up   {median['baseline'] / median['this tree']:.2f}x")
    before, after = statuses["baseline"], statuses["this tree"]
    differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    verdict = "identical" if not differ else f"{len(differ)} differ"
    print(f"  statuses   {len(after)} pairs, {verdict}")
    for key in differ:
        print(f"    {key[0]} sample {key[1]}: {before.get(key)} -> {after.get(key)}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
