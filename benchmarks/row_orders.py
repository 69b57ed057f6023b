"""Does every refutation hold whatever order the engine reads rows in? (issue 40)

For each pair (the text-to-SQL pairs of ``benchmarks/row_orders/pairs.jsonl``, written
in the shapes that leave a row to the engine's choice, and every corpus case), run
``sqlequiv.check``; for each ``not_equivalent``, replay its counterexample **independently
of sqlequiv's executors**: a fresh connection of the engine that ran it (``sqlite3``,
``duckdb``, or psycopg on a PostgreSQL server), plain ``CREATE TABLE``s of the schema's
column types, the reported rows inserted in the order reported, reversed, and shuffled
with three seeds of this script's own; the two executed queries run on each and their
results are compared as sqlequiv compares results (bags, columns matched, the
reference's ORDER BY when order is checked). A refutation whose results come out equal in
any of those orders is **order-explained**: the figure must be 0.

    PYTHONPATH=src python benchmarks/row_orders.py [--no-corpus] [--ids a,b] [--json OUT]

Prints one line per refutation that does not replay, then the totals per engine; exits 1
when any refutation is order-explained or fails to replay.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb

from sqlequiv import check
from sqlequiv.compare.rows import compare_results, order_keys_of
from sqlequiv.corpus import load_corpus
from sqlequiv.guard import guard_query
from sqlequiv.options import Options
from sqlequiv.results import ResultSet
from sqlequiv.schema import load_schema
from sqlequiv.schema.model import Schema

HERE = Path(__file__).resolve().parent / "row_orders"
#: This script's own shuffles (not sqlequiv's SHUFFLE_SEEDS: the replay is independent).
SEEDS = (1, 2, 3)


def load_pairs(with_corpus: bool) -> list[dict[str, Any]]:
    with (HERE / "pairs.jsonl").open(encoding="utf-8") as fh:
        pairs = [json.loads(line) for line in fh if line.strip()]
    if with_corpus:
        for case in load_corpus():
            if case.expect == "error":
                continue
            pairs.append({
                "id": case.id, "dialect": case.dialect, "schema": case.schema_ddl,
                "candidate": case.candidate, "reference": case.reference,
            })  # fmt: skip
    return pairs


class Replayer:
    """One engine's connection, tables made afresh for each counterexample."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.server: Any = None
        if engine == "postgres":
            import psycopg

            from sqlequiv.execute import postgres_server

            server = postgres_server.private_server()
            self.con: Any = psycopg.connect(
                server.conninfo(postgres_server.OWNER), autocommit=True
            )
        elif engine == "sqlite":
            self.con = sqlite3.connect(":memory:")
        else:
            self.con = duckdb.connect()

    def run(self, schema: Schema, tables: dict[str, list[dict[str, Any]]], sql: str) -> ResultSet:
        cur = self.con.cursor()
        mark = "%s" if self.engine == "postgres" else "?"
        for table in schema:
            cur.execute(f'DROP TABLE IF EXISTS "{table.name}"')
            columns = ", ".join(
                f'"{c.name}" {self._type(c.type)}' for c in table.columns
            )
            cur.execute(f'CREATE TABLE "{table.name}" ({columns})')
            for row in tables.get(table.name, []):
                names = ", ".join(f'"{n}"' for n in row)
                marks = ", ".join(mark for _ in row)
                values = tuple(row.values())
                cur.execute(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', values)
        cur.execute(sql)
        columns = tuple(d[0] for d in cur.description)
        return ResultSet(columns, tuple(tuple(r) for r in cur.fetchall()))

    def _type(self, dtype: Any) -> str:
        if self.engine == "sqlite":
            return str(dtype.sql("sqlite"))
        return str(dtype.sql(self.engine))


def orders(tables: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    out = [("reported", tables), ("reversed", {t: rows[::-1] for t, rows in tables.items()})]
    for seed in SEEDS:
        rng = random.Random(seed)
        out.append((f"shuffled({seed})",
                    {t: rng.sample(rows, len(rows)) for t, rows in tables.items()}))  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-corpus", action="store_true", help="only the pairs file")
    parser.add_argument("--ids", help="comma-separated pair ids")
    parser.add_argument("--json", help="write one record per pair here")
    args = parser.parse_args(argv)
    pairs = load_pairs(not args.no_corpus)
    if args.ids:
        wanted = set(args.ids.split(","))
        pairs = [p for p in pairs if p["id"] in wanted]
    replayers: dict[str, Replayer] = {}
    totals: Counter[str] = Counter()
    records = []
    bad = 0
    start = time.perf_counter()
    for pair in pairs:
        verdict = check(pair["candidate"], pair["reference"], pair["schema"], pair["dialect"])
        record = {"id": pair["id"], "verdict": verdict.verdict, "method": verdict.method}
        records.append(record)
        totals[verdict.verdict] += 1
        example = verdict.counterexample
        if verdict.verdict != "not_equivalent" or example is None:
            continue
        engine = str(verdict.executed["engine"])
        schema = load_schema(pair["schema"], pair["dialect"])
        ref_tree = guard_query(pair["reference"], schema, dialect=pair["dialect"]).qualified
        options = Options()
        keys = order_keys_of(ref_tree) if options.check_order else None
        replayer = replayers.get(engine) or replayers.setdefault(engine, Replayer(engine))
        outcome = "holds"
        for name, tables in orders(example.tables):
            try:
                cand = replayer.run(schema, tables, str(verdict.executed["candidate"]))
                ref = replayer.run(schema, tables, str(verdict.executed["reference"]))
            except Exception as exc:  # an independent replay: any failure is reported
                outcome = f"replay failed in order {name}: {type(exc).__name__}: {exc}"[:200]
                break
            if compare_results(cand, ref, options, keys).equal:
                outcome = f"order-explained: equal with the rows {name}"
                break
        record["replay"] = outcome
        totals[f"{engine} refutations"] += 1
        if outcome != "holds":
            bad += 1
            totals[f"{engine} {outcome.split(':')[0]}"] += 1
            print(f"{pair['id']}: {outcome}")
    seconds = time.perf_counter() - start
    print(f"{len(pairs)} pairs in {seconds:.1f} s: " + ", ".join(
        f"{k} {v}" for k, v in sorted(totals.items())))  # fmt: skip
    print(f"refutations that do not hold in every order tried: {bad}")
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in records))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
