"""The random-floor benchmark of issue 15 (benchmarks/floor*): its pair files are well formed,
every query runs on its engine, and the floor is deterministic on three pairs."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import floor_suite  # noqa: E402
from sqlequiv.schema import load_schema  # noqa: E402

FLOOR = ROOT / "benchmarks" / "floor"
FIELDS = {"id", "schema", "dialect", "question", "reference", "candidate", "expected", "class"}


def _pairs() -> list[dict[str, str]]:
    out = []
    for dialect in ("sqlite", "duckdb"):
        with (FLOOR / f"pairs_{dialect}.jsonl").open(encoding="utf-8") as fh:
            out.extend(json.loads(line) for line in fh if line.strip())
    return out


PAIRS = _pairs()
BY_ID = {p["id"]: p for p in PAIRS}


def test_pair_files_are_well_formed() -> None:
    assert len(PAIRS) >= 220
    assert len(BY_ID) == len(PAIRS), "pair ids are unique"
    for pair in PAIRS:
        assert pair.keys() >= FIELDS, pair.get("id")
        assert pair["expected"] in ("equivalent", "not_equivalent"), pair["id"]
        assert pair["dialect"] in ("sqlite", "duckdb"), pair["id"]
        assert (FLOOR / pair["schema"]).is_file(), pair["id"]
    for cls in ("tie", "size", "value"):
        assert sum(p["class"] == cls for p in PAIRS) >= 3, cls


@pytest.mark.parametrize("dialect", ["sqlite", "duckdb"])
def test_every_query_runs_on_an_empty_database(dialect: str) -> None:
    failures = []
    by_schema: dict[str, list[dict[str, str]]] = {}
    for pair in PAIRS:
        if pair["dialect"] == dialect:
            by_schema.setdefault(pair["schema"], []).append(pair)
    for schema, pairs in by_schema.items():
        ddl = (FLOOR / schema).read_text(encoding="utf-8")
        assert load_schema(FLOOR / schema, dialect).tables
        if dialect == "sqlite":
            con = sqlite3.connect(":memory:")
            con.executescript(ddl)
        else:
            con = duckdb.connect(":memory:")
            con.execute(ddl)
        for pair in pairs:
            for side in ("reference", "candidate"):
                try:
                    con.execute(pair[side]).fetchall()
                except (sqlite3.Error, duckdb.Error) as e:
                    failures.append(f"{pair['id']} {side}: {e}")
        con.close()
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("pair_id", "refuted"),
    [
        ("s002-cars-tie", True),  # GROUP BY name vs id under ORDER BY COUNT(*) LIMIT 1
        ("s014-cars-value", True),  # ROUND(accelerate, 2) vs accelerate
        ("s012-cars-eq_rewrite", False),  # COUNT(1) vs COUNT(*)
    ],
)
def test_floor_answer_is_deterministic(pair_id: str, refuted: bool) -> None:
    pair = BY_ID[pair_id]

    def run() -> floor_suite.FloorResult:
        return floor_suite.floor_check(
            pair["reference"], pair["candidate"], FLOOR / pair["schema"], pair["dialect"], n=60
        )

    first, second = run(), run()
    assert first.refuted is refuted
    assert first.tried > 0
    assert (first.db_index, first.database) == (second.db_index, second.database)
    if refuted:
        assert first.database is not None
        assert not floor_suite.results_equal(
            first.reference_rows or [], first.candidate_rows or [], ordered=True
        )
