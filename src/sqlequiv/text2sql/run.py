"""A benchmark run: the evaluator's files in, one JSON record per item out, and a summary.

The results file is append-only and resumable like ``sqlequiv grade``'s: a
record is one flushed line; rerunning with the same ``--out`` grades only the
items it does not hold yet (a torn last line is cut off first; of two lines for
one item the last wins, as in ``grade``), and refuses a file whose records were
graded from different gold or predicted SQL. A full disk stops the run with
:class:`~sqlequiv.grading.results.ResultsUnwritable`, the file whole.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sqlequiv.grading.results import ResultsUnwritable, ResultWriter, latest_records, read_results
from sqlequiv.suite.load import SuiteError
from sqlequiv.text2sql.formats import (
    Benchmark,
    BenchmarkInputError,
    BenchmarkItem,
    check_databases,
    read_bird,
    read_spider,
)
from sqlequiv.text2sql.item import BenchmarkSettings
from sqlequiv.text2sql.pool import BenchmarkPool, InlineBenchmarkPool, LocalBenchmarkPool
from sqlequiv.text2sql.summary import summarize_benchmark

Backend = Literal["local", "inline"]
BACKENDS: tuple[Backend, ...] = ("local", "inline")


@dataclass
class BenchmarkRun:
    """What a run did; ``records`` are every item's, old and new, in item order."""

    summary: dict[str, Any]
    records: list[dict[str, Any]]
    graded_now: int
    resumed: int
    seconds: float
    interrupted: bool = False
    workers_replaced: int = 0
    out: Path | None = None


def load_items(
    benchmark: Benchmark,
    gold: str | Path,
    pred: str | Path,
    *,
    diff_json: str | Path | None = None,
) -> list[BenchmarkItem]:
    """The items of a Spider or BIRD prediction file, aligned with the gold."""
    if benchmark == "spider":
        return read_spider(gold, pred)
    return read_bird(pred, gold, diff_json)


def _index(record: Mapping[str, Any]) -> object:
    """What identifies a benchmark record: its item's index in the prediction file."""
    return record.get("index")


def pending_items(
    items: list[BenchmarkItem], done: list[dict[str, Any]], benchmark: Benchmark
) -> tuple[list[BenchmarkItem], list[dict[str, Any]]]:
    """The items a results file does not hold yet, and its records of the others.

    A record for the same index with other SQL (or of the other benchmark) means
    the file belongs to another run: that is an error, not a skip.
    """
    by_index = {line["index"]: line for line in done if isinstance(line.get("index"), int)}
    problems = []
    todo: list[BenchmarkItem] = []
    kept: list[dict[str, Any]] = []
    for item in items:
        record = by_index.get(item.index)
        if record is None:
            todo.append(item)
        elif (
            record.get("benchmark") != benchmark
            or record.get("gold") != item.gold
            or record.get("pred") != item.pred
        ):
            problems.append(
                f"item {item.index} ({item.pred_source}) was graded from different SQL "
                "(or another benchmark) in this results file; use another --out"
            )
        else:
            kept.append(record)
    if problems:
        raise BenchmarkInputError(problems)
    return todo, kept


def grade_benchmark(
    items: list[BenchmarkItem],
    settings: BenchmarkSettings,
    out: str | Path,
    *,
    backend: Backend = "local",
    jobs: int | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    confidence: float = 0.95,
) -> BenchmarkRun:
    """Grade every item not yet in ``out``, appending records; summarise all of them.

    Raises :class:`BenchmarkInputError` (every problem listed) before grading
    anything when a database is missing or the results file belongs to another
    run. ``KeyboardInterrupt`` stops the run after saving what is done.
    ``on_start`` receives the number of items left to grade, ``on_record`` each
    new record.
    """
    started = time.monotonic()
    out = Path(out)
    check_databases(items, settings.db_dir, settings.tables_json)
    try:
        previous = latest_records(read_results(out), key=_index)  # the last line of an item wins
    except SuiteError as err:
        raise BenchmarkInputError([str(p) for p in err.problems]) from err
    todo, kept = pending_items(items, previous, settings.benchmark)
    if on_start is not None:
        on_start(len(todo))
    pool: BenchmarkPool = (
        InlineBenchmarkPool(settings) if backend == "inline" else LocalBenchmarkPool(settings, jobs)
    )
    writer = ResultWriter(out)
    new: list[dict[str, Any]] = []
    interrupted = False
    try:
        for _, record in pool.run(todo):
            writer.write(record)
            new.append(record)
            if on_record is not None:
                on_record(record)
    except KeyboardInterrupt:
        interrupted = True
    except ResultsUnwritable as err:
        raise err.adding("make room and rerun the same command to resume") from None
    finally:
        writer.close()
        replaced = getattr(pool, "replaced", 0)
        pool.close()
    records = sorted(kept + new, key=lambda r: int(r["index"]))
    return BenchmarkRun(
        summary=summarize_benchmark(records, benchmark=settings.benchmark, confidence=confidence),
        records=records,
        graded_now=len(new),
        resumed=len(kept),
        seconds=time.monotonic() - started,
        interrupted=interrupted,
        workers_replaced=replaced,
        out=out,
    )
