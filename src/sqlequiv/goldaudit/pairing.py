"""The pairing check: predictions aligned by position that look shifted.

A prediction file is aligned with its gold by line (Spider) or key (BIRD). One line
dropped or added shifts every later prediction onto its neighbour's question; the
evaluator then fails them all, quietly. A *shifted run* is a run of at least
``min_run`` consecutive predictions, each of which does not match its own gold but
matches (by the evaluator's execution match on the shipped database) the gold ``offset``
positions away, for one offset ``0 < |offset| <= window``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlequiv.goldaudit.records import SCHEMA_VERSION
from sqlequiv.goldaudit.witness import Database, run_on
from sqlequiv.text2sql.execmatch import bird_result_eq, spider_prepare, spider_result_eq
from sqlequiv.text2sql.formats import BenchmarkItem, database_path

Row = tuple[Any, ...]


def shifted_runs(
    items: Sequence[BenchmarkItem],
    db_dir: str | Path,
    benchmark: str,
    *,
    window: int = 2,
    min_run: int = 3,
    timeout: float = 30.0,
    severity: str = "blocking",
) -> list[dict[str, Any]]:
    """The pairing records of ``items`` (their ``pred`` set): one per shifted run."""
    golds: dict[int, list[Row] | None] = {}
    preds: dict[int, list[Row] | None] = {}

    def rows(sql: str, db_id: str) -> list[Row] | None:
        if not sql.strip():
            return None
        database = Database(database_path(db_dir, db_id), lenient=benchmark != "bird")
        prepared = spider_prepare(sql) if benchmark == "spider" else sql
        return run_on(database, prepared, timeout).rows

    def match(i: int, j: int) -> bool:
        if not 0 <= j < len(items) or items[i].db_id != items[j].db_id:
            return False
        if j not in golds:
            golds[j] = rows(items[j].gold, items[j].db_id)
        if i not in preds:
            preds[i] = rows(items[i].pred, items[i].db_id)
        gold, pred = golds[j], preds[i]
        if gold is None or pred is None or not gold:
            return False  # an empty gold matches every empty answer: no evidence of a shift
        if benchmark == "bird":
            return bird_result_eq(pred, gold)
        order = "order by" in items[j].gold.lower()
        return bool(spider_result_eq(gold, pred, order))

    own = [match(i, i) for i in range(len(items))]
    found: list[dict[str, Any]] = []
    for offset in [d for k in range(1, window + 1) for d in (-k, k)]:
        start = None
        for i in range(len(items) + 1):
            shifted = i < len(items) and not own[i] and match(i, i + offset)
            if shifted and start is None:
                start = i
            if not shifted and start is not None:
                if i - start >= min_run:
                    found.append(_record(items, start, i - 1, offset, severity))
                start = None
    return found


def _record(
    items: Sequence[BenchmarkItem], first: int, last: int, offset: int, severity: str
) -> dict[str, Any]:
    length = last - first + 1
    return {
        "schema_version": SCHEMA_VERSION,
        "record": "pairing",
        "kind": "shifted_predictions",
        "severity": severity,
        "offset": offset,
        "first": items[first].index,
        "last": items[last].index,
        "length": length,
        "detail": f"predictions {items[first].pred_source} to {items[last].pred_source} "
        f"({length}) each fail their own gold but match the gold {abs(offset)} "
        f"{'after' if offset > 0 else 'before'} it: the file looks shifted by {offset:+d}",
        "items": [[items[i].index, items[i + offset].index] for i in range(first, last + 1)],
    }
