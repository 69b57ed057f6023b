# ruff: noqa: E501  (report lines)
"""Counterexamples from the user's own data (issue 42), on the pairs of ``data_tiers/``.

For each pair (text-to-SQL style, over ``examples/data/league.sqlite`` or
``examples/data/bank.sqlite``): ``check`` without
data, then with ``data=`` the database, each timed in this process (the snapshot is read
and cached by the first check with data: its cost is printed apart). Then:

* **none lost**: every pair refuted without data is refuted with it;
* **tiers**: how many refutations are ``on_data``, ``realistic``, ``edge``;
* **on_data re-executed on the data**: both queries run on the file itself through
  ``sqlite3`` (read-only) must differ, and every reported row must be one of the file's;
* **realistic re-checked**: every fact mined for the tables the queries read holds on
  the counterexample, re-checked in SQL on DuckDB (not by the Python that mined it);
* **the floor from the data's values**: a plain random test suite whose databases draw
  every value from the data's own rows (the test-suite evaluator's method), 300
  databases per pair; sqlequiv with data must refute every pair it refutes, and its
  time is compared with the floor's.

    PYTHONPATH=src python benchmarks/data_tiers.py [--floor-dbs 300] [--json OUT]

Exits 1 when a refutation is lost, an on_data or realistic re-check fails, or the floor
refutes a pair sqlequiv (with data) does not.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp

from sqlequiv import check
from sqlequiv.compare.rows import compare_results
from sqlequiv.data.mining import comparable, mine
from sqlequiv.data.source import read_data
from sqlequiv.options import Options
from sqlequiv.results import ResultSet
from sqlequiv.schema import load_schema
from sqlequiv.schema.model import Schema

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.facts_sql import holds_in_sql  # noqa: E402  (the tests' own re-check)

PAIRS = Path(__file__).resolve().parent / "data_tiers" / "pairs.jsonl"


def floor_from_data(
    pair: dict[str, Any], data: Path, schema: Schema, rows: dict[str, list[tuple[Any, ...]]],
    n: int, seed: int,
) -> bool:
    """The test-suite evaluator's method: ``n`` small databases (0-3 rows a table, the
    declared keys kept unique) whose every value is drawn from the data's own values of
    that column, in tables made by the file's own ``CREATE TABLE`` statements (SQLite's
    affinities as declared); both queries run on SQLite and are compared as sqlequiv
    compares. True when one database tells them apart."""
    rng = random.Random(seed)
    pools = {
        t.name: [sorted({r[i] for r in rows[t.name]}, key=repr) or [None]
                 for i in range(len(t.columns))]
        for t in schema
    }  # fmt: skip
    con = sqlite3.connect(":memory:")
    source = sqlite3.connect(f"file:{data}?mode=ro", uri=True)
    for (ddl,) in source.execute("SELECT sql FROM sqlite_master WHERE type = 'table'"):
        con.execute(ddl)
    for _ in range(n):
        for table in schema:
            con.execute(f'DELETE FROM "{table.name}"')
            keys = [tuple(table.column_names.index(c) for c in key) for key in table.keys]
            seen: set[tuple[Any, ...]] = set()
            for _ in range(rng.randint(0, 3)):
                row = [rng.choice(pool) for pool in pools[table.name]]
                marks = {(k, tuple(row[i] for i in k)) for k in keys}
                if marks & seen:
                    continue
                seen |= marks
                con.execute(f'INSERT INTO "{table.name}" VALUES ({", ".join("?" for _ in row)})',
                            row)  # fmt: skip
        try:
            a = con.execute(pair["candidate"])
            cand = ResultSet(tuple(d[0] for d in a.description), tuple(a.fetchall()))
            b = con.execute(pair["reference"])
            ref = ResultSet(tuple(d[0] for d in b.description), tuple(b.fetchall()))
        except sqlite3.Error:
            continue
        comparison = compare_results(cand, ref, Options(check_order=False))
        if not comparison.equal and not comparison.ambiguous:
            return True
    return False


def tables_read(pair: dict[str, Any]) -> set[str]:
    return {
        t.name.lower()
        for sql in (pair["candidate"], pair["reference"])
        for t in sqlglot.parse_one(sql, read="sqlite").find_all(exp.Table)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floor-dbs", type=int, default=300)
    parser.add_argument("--json", help="write one record per pair here")
    args = parser.parse_args(argv)
    pairs = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    sources = {}
    for name in dict.fromkeys(p["data"] for p in pairs):
        data = ROOT / name
        schema = load_schema(str(data), "sqlite")
        start = time.perf_counter()
        snapshot = read_data(data, schema)
        facts = mine(snapshot, schema)
        mined = time.perf_counter() - start
        print(f"{sum(p['data'] == name for p in pairs)} pairs over {data.name} "
              f"({snapshot.size} rows); snapshot and mining {mined * 1000:.0f} ms, "
              f"{len(facts)} facts")  # fmt: skip
        first = next(p for p in pairs if p["data"] == name)
        check(first["candidate"], first["reference"], schema, "sqlite", data=data)  # warm-up
        values = {
            (t.name, c): {comparable(r[i]) for r in snapshot.rows.get(t.name, ())}
            for t in schema
            for i, c in enumerate(t.column_names)
        }
        sources[name] = (data, schema, snapshot, facts, values,
                         sqlite3.connect(f"file:{data}?mode=ro", uri=True))  # fmt: skip
    tiers: Counter[str] = Counter()
    plain_s, data_s, floor_s = [], [], []
    lost, bad_on_data, bad_realistic, floor_missed = [], [], [], []
    records = []
    data_cells = all_cells = 0
    for pair in pairs:
        data, schema, snapshot, facts_all, data_values, sqlite_file = sources[pair["data"]]
        t0 = time.perf_counter()
        plain = check(pair["candidate"], pair["reference"], schema, "sqlite")
        t1 = time.perf_counter()
        with_data = check(pair["candidate"], pair["reference"], schema, "sqlite", data=data)
        t2 = time.perf_counter()
        floor = floor_from_data(pair, data, schema, {t: list(r) for t, r in snapshot.rows.items()},
                                args.floor_dbs, seed=0)  # fmt: skip
        t3 = time.perf_counter()
        plain_s.append(t1 - t0)
        data_s.append(t2 - t1)
        floor_s.append(t3 - t2)
        example = with_data.counterexample
        tier = example.realism if example is not None else None
        record = {"id": pair["id"], "without": plain.verdict, "with": with_data.verdict,
                  "tier": tier, "floor": floor, "breaks": example.breaks if example else []}  # fmt: skip
        records.append(record)
        if plain.verdict == "not_equivalent" and with_data.verdict != "not_equivalent":
            lost.append(pair["id"])
        if floor and with_data.verdict != "not_equivalent":
            floor_missed.append(pair["id"])
        if example is None:
            tiers[with_data.verdict] += 1
            continue
        tiers[str(tier)] += 1
        if tier == "on_data":
            differ = sqlite_file.execute(pair["candidate"]).fetchall() != sqlite_file.execute(
                pair["reference"]
            ).fetchall()
            stored = all(
                tuple(r.values()) in {tuple(x) for x in sqlite_file.execute(f'SELECT * FROM "{t}"')}
                for t, rs in example.tables.items()
                for r in rs
            )
            if not (differ and stored):
                bad_on_data.append(pair["id"])
        if tier in ("realistic", "edge"):
            for t, rs in example.tables.items():
                for r in rs:
                    for column, value in r.items():
                        if value is not None:
                            all_cells += 1
                            data_cells += comparable(value) in data_values[(t, column)]
        if tier == "realistic":
            read = tables_read(pair)
            filled = {t for t, rs in example.tables.items() if rs}
            for fact in facts_all:
                if fact.table not in read and (fact.kind == "non_empty" or fact.table not in filled):
                    continue
                if not holds_in_sql(fact, example.tables, schema):
                    bad_realistic.append(f"{pair['id']}: {fact.evidence}")
    refuted = sum(tiers[t] for t in ("on_data", "realistic", "edge"))
    print(f"verdicts with data: {dict(tiers)}")
    print("refutations by tier: " + ", ".join(
        f"{t} {tiers[t]} ({100 * tiers[t] / refuted:.0f}%)" for t in ("on_data", "realistic", "edge")
    ) if refuted else "no refutation")  # fmt: skip
    print(f"refutations lost with data: {len(lost)} {lost}")
    print(f"on_data differences that do not re-execute on the data: {len(bad_on_data)} {bad_on_data}")
    print(f"realistic counterexamples breaking a mined fact (SQL re-check): {len(bad_realistic)} {bad_realistic[:5]}")
    floor_refuted = sum(r["floor"] for r in records)
    print(f"floor from the data's values ({args.floor_dbs} databases a pair): refutes "
          f"{floor_refuted}; refuted by it and not by sqlequiv with data: {len(floor_missed)} {floor_missed}")  # fmt: skip
    print(f"values of the realistic and edge counterexamples that are the data's own (same "
          f"column): {data_cells} of {all_cells} ({100 * data_cells / max(all_cells, 1):.0f}%)")
    print(f"time: without data {sum(plain_s):.2f} s, with data {sum(data_s):.2f} s "
          f"(x{sum(data_s) / sum(plain_s):.2f}; x{sum(data_s) / sum(floor_s):.2f} the floor's), "
          f"floor {sum(floor_s):.2f} s; "
          f"median {statistics.median(plain_s) * 1000:.0f} / {statistics.median(data_s) * 1000:.0f} / "
          f"{statistics.median(floor_s) * 1000:.0f} ms")  # fmt: skip
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in records))
    return 1 if lost or bad_on_data or bad_realistic or floor_missed else 0


if __name__ == "__main__":
    sys.exit(main())
