"""The SQLite executor against the DuckDB one: same pairs, same seed, in one run.

Usage::

    python benchmarks/engines.py [--repeat N]

Every corpus pair written in the ``sqlite`` dialect is checked twice: on SQLite
(where it runs unchanged, the truth for these pairs) and on DuckDB (translated,
as sqlequiv did before it had an SQLite executor). It prints, per engine, the
verdicts, how many agree with the corpus label, and the total time, with the
ratio SQLite / DuckDB (ratios hold on a noisy machine; absolute times do not).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from sqlequiv import check
from sqlequiv.corpus import load_corpus
from sqlequiv.execute.base import Executor
from sqlequiv.execute.duckdb_engine import DuckDBExecutor
from sqlequiv.execute.sqlite_engine import SQLiteExecutor


def _run(executor: Executor, repeat: int) -> tuple[Counter[str], int, float, int]:
    cases = [c for c in load_corpus() if c.dialect == "sqlite"]
    verdicts: Counter[str] = Counter()
    right = refuted_wrongly = 0
    start = time.perf_counter()
    for _ in range(repeat):
        for case in cases:
            v = check(case.candidate, case.reference, case.schema_ddl, "sqlite", executor=executor)
            verdicts[v.verdict] += 1
            if v.verdict == case.expect or (case.expect == "equivalent" and v.verdict == "unknown"):
                right += 1
            if case.expect == "equivalent" and v.verdict == "not_equivalent":
                refuted_wrongly += 1
    return verdicts, right, time.perf_counter() - start, refuted_wrongly


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    total = sum(c.dialect == "sqlite" for c in load_corpus()) * args.repeat
    rows = {}
    for name, executor in (("sqlite", SQLiteExecutor()), ("duckdb", DuckDBExecutor())):
        _run(executor, 1)  # warm-up: imports, function catalogues
        rows[name] = _run(executor, args.repeat)
    print(f"{total} checks per engine ({args.repeat} x the corpus's sqlite-dialect pairs)")
    print(f"{'engine':8} {'consistent':>10} {'false refutations':>18} {'seconds':>8}  verdicts")
    for name, (verdicts, right, seconds, wrong) in rows.items():
        shown = ", ".join(f"{k} {n}" for k, n in sorted(verdicts.items()))
        print(f"{name:8} {right:>10} {wrong:>18} {seconds:>8.2f}  {shown}")
    print(f"time ratio sqlite / duckdb: {rows['sqlite'][2] / rows['duckdb'][2]:.2f}")
    print("consistent: the corpus label, or unknown for an equivalent pair")


if __name__ == "__main__":
    main()
