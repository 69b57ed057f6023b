"""The prover over TPC-H and TPC-DS queries against their own optimizer rewrites (issue 40).

Each query of ``benchmarks/tpc/`` (sqlglot's TPC-H and TPC-DS fixtures) is rewritten by
sqlglot's rule-based optimizer, one family of rules at a time and all together:
decorrelation (``unnest_subqueries``), predicate pushdown, derived-table merging, CTE
extraction and inlining, join reordering, projection pushdown, CNF/DNF normalization, and
the whole ``optimize()`` with and without simplification. Every rewrite that changed the
text is a pair (rewrite, original), checked with the proving stages only (normalized,
symbolic, constant): a rewrite is equivalent by construction, so an ``internal_error``
is a bug (must be 0), a refutation would be a soundness bug of the rewrite or of
sqlequiv, and the rest measures how much of an optimizer's output sqlequiv proves.

    PYTHONPATH=src python benchmarks/analytic_rewrites.py [--only tpch|tpcds] [--limit N]
        [--families a,b] [--json OUT]

Prints the internal errors (with their message), then per family the pairs, proofs by
method, unknowns, errors and the median and total seconds; exits 1 on an internal error.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.optimizer import RULES, optimize

# An internal error must come back as a verdict here (not raise), as a user would see it.
os.environ.pop("SQLEQUIV_STRICT", None)

from sqlequiv import check
from sqlequiv.pipeline import PROVING_STAGES
from sqlequiv.schema import load_schema

HERE = Path(__file__).resolve().parent / "tpc"
_RULES = {rule.__name__: rule for rule in RULES}
#: Each family: the rules applied, in sqlglot's order (qualify first, as optimize does).
FAMILIES: dict[str, list[str]] = {
    "decorrelate": ["qualify", "unnest_subqueries"],
    "pushdown": ["qualify", "pushdown_predicates"],
    "merge": ["qualify", "merge_subqueries"],
    "extract_ctes": ["qualify", "eliminate_subqueries"],
    "extract_then_merge": ["qualify", "eliminate_subqueries", "merge_subqueries"],
    "reorder_joins": ["qualify", "optimize_joins"],
    "projections": ["qualify", "pushdown_projections"],
    "normalize": ["qualify", "normalize"],
    "decorrelate_merge": ["qualify", "unnest_subqueries", "merge_subqueries"],
    "decorrelate_push_merge": [
        "qualify", "unnest_subqueries", "pushdown_predicates", "merge_subqueries",
    ],
    "optimize_unsimplified": [
        r for r in _RULES if r not in ("simplify", "canonicalize", "quote_identifiers",
                                       "annotate_types")
    ],
    "optimize": list(_RULES),
}  # fmt: skip


def sqlglot_schema(ddl: str) -> dict[str, dict[str, str]]:
    """The DDL's tables as sqlglot's optimizer reads a schema (name -> column -> type)."""
    tables: dict[str, dict[str, str]] = {}
    for statement in sqlglot.parse(ddl, read="duckdb"):
        if isinstance(statement, exp.Create) and isinstance(statement.this, exp.Schema):
            table = statement.this
            tables[table.this.name] = {
                c.name: c.args["kind"].sql()
                for c in table.expressions
                if isinstance(c, exp.ColumnDef)
            }
    return tables


def rewrites(only: str | None, families: list[str]) -> list[dict[str, Any]]:
    """Every (rewrite, original) pair whose rewrite changed the text."""
    pairs = []
    for name in ("tpch", "tpcds"):
        if only and only != name:
            continue
        with (HERE / f"{name}.jsonl").open(encoding="utf-8") as fh:
            queries = [json.loads(line) for line in fh if line.strip()]
        for query in queries:
            schema = sqlglot_schema(query["schema_ddl"])
            for family in families:
                rules = [_RULES[r] for r in FAMILIES[family]]
                try:
                    tree = optimize(
                        sqlglot.parse_one(query["reference"], read="duckdb"),
                        schema=schema, dialect="duckdb", rules=rules,
                    )  # fmt: skip
                    rewritten = tree.sql("duckdb")
                except Exception:  # the optimizer's limits are not ours
                    continue
                if rewritten != query["reference"]:
                    pairs.append({
                        "id": f"{query['id']}/{family}", "family": family,
                        "schema_ddl": query["schema_ddl"], "candidate": rewritten,
                        "reference": query["reference"],
                    })  # fmt: skip
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("tpch", "tpcds"))
    parser.add_argument("--limit", type=int, help="the first N pairs")
    parser.add_argument("--families", help=f"comma-separated, of {', '.join(FAMILIES)}")
    parser.add_argument("--json", help="write one record per pair here")
    args = parser.parse_args(argv)
    families = args.families.split(",") if args.families else list(FAMILIES)
    made = time.perf_counter()
    pairs = rewrites(args.only, families)[: args.limit]
    print(f"{len(pairs)} rewrites made in {time.perf_counter() - made:.1f} s")
    schemas: dict[str, Any] = {}
    seconds: dict[str, list[float]] = defaultdict(list)
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    records = []
    internal = 0
    for pair in pairs:
        ddl = pair["schema_ddl"]
        schema = schemas.get(ddl) or schemas.setdefault(ddl, load_schema(ddl))
        start = time.perf_counter()
        verdict = check(pair["candidate"], pair["reference"], schema, stages=PROVING_STAGES)
        took = time.perf_counter() - start
        outcome = verdict.method if verdict.verdict == "equivalent" else verdict.verdict
        if verdict.error is not None:
            outcome = f"error/{verdict.error.kind}"
        if verdict.error is not None and verdict.error.kind == "internal_error":
            internal += 1
            print(f"INTERNAL ERROR {pair['id']}: {verdict.error.message[:160]}")
        for key in (pair["family"], "all"):
            outcomes[key][str(outcome)] += 1
            seconds[key].append(took)
        records.append({"id": pair["id"], "outcome": outcome, "seconds": round(took, 3)})
    print(f"{'family':24} pairs  normalized symbolic unknown errors  median s  total s")
    for key in [*families, "all"]:
        if not seconds[key]:
            continue
        c = outcomes[key]
        errors = sum(v for k, v in c.items() if k.startswith("error/"))
        print(f"{key:24} {len(seconds[key]):5}  {c['normalized']:10} {c['symbolic']:8} "
              f"{c['unknown']:7} {errors:6}  {statistics.median(seconds[key]):8.3f} "
              f"{sum(seconds[key]):8.1f}")  # fmt: skip
    print(f"internal errors: {internal}")
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in records))
    return 1 if internal else 0


if __name__ == "__main__":
    sys.exit(main())
