"""The gold files an audit reads: Spider's ``gold.sql`` (+ ``dev.json`` for questions),
BIRD's ``dev.json`` or ``dev.sql``, with their predictions when given.

Alternative golds: an entry of ``dev.json`` may list ``"alternatives"``, other queries
accepted for the same question (strings); they are audited against the gold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sqlequiv.text2sql.formats import (
    BenchmarkInputError,
    BenchmarkItem,
    attach_questions,
    read_bird,
    read_bird_gold_json,
    read_gold_sql,
    read_spider,
    read_text,
)


@dataclass(frozen=True)
class AuditItem:
    """A gold item and its alternative golds."""

    item: BenchmarkItem
    alternatives: tuple[str, ...] = ()


def load_golds(
    benchmark: str,
    gold: str | Path,
    *,
    questions: str | Path | None = None,
    pred: str | Path | None = None,
) -> list[AuditItem]:
    """The gold items (predictions attached when ``pred`` is given).

    Raises:
        BenchmarkInputError: every problem of the files, each naming its file and line.
    """
    gold_path = Path(gold)
    is_json = gold_path.suffix.lower() in {".json", ".jsonl"}
    if pred is not None and benchmark == "bird":
        items = read_bird(pred, gold_path, questions)
    elif pred is not None and not is_json:
        items = read_spider(gold_path, pred)
        if questions is not None:
            items = attach_questions(items, questions)
    else:
        items = read_bird_gold_json(gold_path) if is_json else read_gold_sql(gold_path)
        if questions is not None:
            items = attach_questions(items, questions)
        if pred is not None:
            raise BenchmarkInputError(
                [f"{pred}: predictions for a JSON gold are read with --benchmark bird"]
            )
    source = questions if questions is not None else (gold_path if is_json else None)
    alternatives = _alternatives(source, len(items)) if source is not None else {}
    return [AuditItem(i, alternatives.get(n, ())) for n, i in enumerate(items)]


def _alternatives(path: str | Path, count: int) -> dict[int, tuple[str, ...]]:
    text = read_text(path, "questions")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    problems: list[str] = []
    out: dict[int, tuple[str, ...]] = {}
    for n, entry in enumerate(data if isinstance(data, list) else []):
        raw = entry.get("alternatives") if isinstance(entry, dict) else None
        if raw is None:
            continue
        if not isinstance(raw, list) or not all(isinstance(s, str) and s.strip() for s in raw):
            problems.append(f"{path} item {n}: 'alternatives' must be a list of SQL strings")
            continue
        if n < count:
            out[n] = tuple(s.strip() for s in raw)
    if problems:
        raise BenchmarkInputError(problems)
    return out
