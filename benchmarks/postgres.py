"""The PostgreSQL executor against the DuckDB one: same pairs, same seed, in one run.

Usage::

    python benchmarks/postgres.py [--limit N] [--repeat N] [--no-symbolic]

The pairs: every corpus pair in the ``postgres`` dialect, then corpus pairs in the
``duckdb`` dialect up to ``--limit`` in all. Each is checked with ``engine="duckdb"``
and ``engine="postgres"`` (the query translated to PostgreSQL when it is not written
in its dialect). The private server's start-up (initdb and start) is timed apart,
before any check. It prints, per pair, both verdicts and the best of ``--repeat``
times, with the ratio PostgreSQL / DuckDB, then the totals (ratios hold on a noisy
machine; absolute times do not). A pair whose verdicts differ is marked: the engines'
semantics differ there, or one engine cannot run it.
"""

from __future__ import annotations

import argparse
import time

from sqlequiv import Options, check
from sqlequiv.corpus import CorpusCase, load_corpus
from sqlequiv.execute import shared_executor


def _cases(limit: int) -> list[CorpusCase]:
    corpus = load_corpus()
    chosen = [c for c in corpus if c.dialect == "postgres"]
    chosen += [c for c in corpus if c.dialect == "duckdb" and c.expect != "error"]
    return chosen[:limit]


def _best(case: CorpusCase, engine: str, options: Options, repeat: int) -> tuple[str, float]:
    best, verdict = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        v = check(case.candidate, case.reference, case.schema_ddl, case.dialect, options,
                  engine=engine)  # fmt: skip
        best = min(best, time.perf_counter() - start)
        verdict = v.verdict if v.error is None else f"error:{v.error.kind}"
    return verdict, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-symbolic", action="store_true")
    args = parser.parse_args()
    options = Options(symbolic=not args.no_symbolic)

    start = time.perf_counter()
    pg = shared_executor(options.query_timeout, engine="postgres")
    opened = time.perf_counter() - start
    startup = getattr(pg, "startup_seconds", 0.0)
    print(f"PostgreSQL server start-up: {startup:.2f} s (initdb + start); executor {opened:.2f} s")
    shared_executor(options.query_timeout, engine="duckdb")
    cases = _cases(args.limit)
    _best(cases[0], "duckdb", options, 1)  # warm-up: imports, DuckDB's function list
    _best(cases[0], "postgres", options, 1)

    totals = {"duckdb": 0.0, "postgres": 0.0}
    same_total = {"duckdb": 0.0, "postgres": 0.0}
    differ = 0
    print(f"{'pair':<62} {'duckdb':>15} {'postgres':>15} {'ms duck':>8} {'ms pg':>8} {'ratio':>6}")
    for case in cases:
        (vd, td), (vp, tp) = (_best(case, e, options, args.repeat) for e in ("duckdb", "postgres"))
        totals["duckdb"] += td
        totals["postgres"] += tp
        mark = ""
        if vd == vp:
            same_total["duckdb"] += td
            same_total["postgres"] += tp
        else:
            differ += 1
            mark = "  *"
        print(f"{case.id[:62]:<62} {vd[:15]:>15} {vp[:15]:>15} {td * 1000:8.1f} {tp * 1000:8.1f} "
              f"{tp / td:6.2f}{mark}")  # fmt: skip
    print()
    print(f"{len(cases)} pairs, best of {args.repeat}; * = verdicts differ ({differ})")
    print(f"total: duckdb {totals['duckdb']:.2f} s, postgres {totals['postgres']:.2f} s, "
          f"ratio {totals['postgres'] / totals['duckdb']:.2f}")  # fmt: skip
    if same_total["duckdb"]:
        print(f"pairs with the same verdict: duckdb {same_total['duckdb']:.2f} s, postgres "
              f"{same_total['postgres']:.2f} s, ratio "
              f"{same_total['postgres'] / same_total['duckdb']:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
