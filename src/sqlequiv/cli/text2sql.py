"""The benchmark commands: ``sqlequiv spider`` and ``sqlequiv bird``.

They take the files the Spider test-suite evaluator and BIRD's evaluator
take, write one JSON record per item (the evaluator's execution match on the
shipped database beside sqlequiv's verdict) and print a summary of where the
two disagree (or, with ``--format junit|github`` and ``--junit-xml``, a CI report of
every item: :mod:`sqlequiv.cli.formats`). Exit codes: 0 done, 2 unusable input
(every problem listed in a :class:`~sqlequiv.text2sql.formats.BenchmarkInputError`
the CLI reports), 74 the results file could not be written (a full disk), 130
interrupted (rerun the same command to resume).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
from collections import Counter
from typing import Any, TextIO

from sqlequiv._version import __version__
from sqlequiv.ci_output import Case, case_from_benchmark_record
from sqlequiv.cli.formats import add_format_options, ci_report, display_path, wants_cases
from sqlequiv.cli.options import add_check_options, interrupted, options_from
from sqlequiv.text2sql.execmatch import DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT
from sqlequiv.text2sql.formats import BenchmarkInputError
from sqlequiv.text2sql.item import CATEGORIES, BenchmarkSettings
from sqlequiv.text2sql.run import BACKENDS, grade_benchmark, load_items
from sqlequiv.text2sql.summary import render_benchmark_summary


def add_parsers(sub: Any) -> None:
    """Add ``spider`` and ``bird`` to the CLI's subparsers."""
    s = sub.add_parser(
        "spider",
        help="grade Spider predictions: execution match and sqlequiv's verdict per item",
        description="Grade a Spider prediction file as the test-suite evaluator does "
        "(execution match on the shipped databases) and with sqlequiv (proved / refuted / "
        "unknown), and show where the two disagree.",
    )
    s.add_argument("--gold", required=True, help="gold file: one 'SQL<TAB>db_id' per line")
    s.add_argument(
        "--pred",
        required=True,
        help="predictions: one query per line in the gold's order (an empty line "
        "for a missing one)",
    )
    s.add_argument("--db", required=True, help="database directory: DB/{db_id}/{db_id}.sqlite")
    s.add_argument(
        "--table", default=None, help="tables.json (the schema when a .sqlite file cannot be read)"
    )
    s.add_argument(
        "--keep-distinct",
        action="store_true",
        help="keep DISTINCT for the execution match (the evaluator's "
        "--keep_distinct; by default it removes every DISTINCT)",
    )
    _common(s)

    b = sub.add_parser(
        "bird",
        help="grade BIRD predictions: execution match and sqlequiv's verdict per item",
        description="Grade a BIRD prediction file as BIRD's evaluator does (set equality of "
        "the results on the shipped database) and with sqlequiv, and show where the two "
        "disagree.",
    )
    b.add_argument(
        "--pred",
        required=True,
        help='predictions JSON: {"0": "SQL\\t----- bird -----\\tdb_id", ...}',
    )
    b.add_argument(
        "--gold",
        required=True,
        help="dev.json (questions with SQL, db_id, difficulty) or dev.sql ('SQL<TAB>db_id' lines)",
    )
    b.add_argument("--db", required=True, help="database directory: DB/{db_id}/{db_id}.sqlite")
    b.add_argument(
        "--table",
        default=None,
        help="dev_tables.json (the schema when a .sqlite file cannot be read)",
    )
    b.add_argument(
        "--diff-json",
        default=None,
        help="dev.json to take questions and difficulties from when --gold is "
        "dev.sql (the evaluator's --diff_json_path)",
    )
    _common(b)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, help="results JSONL (appended to; reruns resume)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: cores)")
    p.add_argument(
        "--timeout",
        type=float,
        default=BenchmarkSettings.item_timeout,
        help="wall-clock limit per item, s (the worker is replaced)",
    )
    p.add_argument(
        "--exec-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help="limit per query on the shipped database, s",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: worker processes; inline: this process (no isolation)",
    )
    add_format_options(p, text="the summary", json="the summary and the run's settings")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress (default: when stderr is a terminal)",
    )
    p.add_argument("--confidence", type=float, default=0.95, help="of the Wilson intervals")
    p.add_argument(
        "--seed-rows",
        type=int,
        default=BenchmarkSettings.seed_rows,
        help="rows per table of the real database that seed the search",
    )
    p.add_argument(
        "--max-permutation-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help="cap of the column-permutation search (Spider's rule)",
    )
    # The options of `sqlequiv check`, under the same names (--query-timeout is check's
    # --timeout: here --timeout is per item).
    add_check_options(p, timeout_flag="--query-timeout")


def run_benchmark(args: argparse.Namespace, argv: list[str]) -> int:
    """Run ``spider`` or ``bird``; unusable input raises a :class:`BenchmarkInputError`
    listing every problem (or the error of the part that failed) for the CLI to report."""
    settings = _settings(args)
    items = load_items(
        args.command, args.gold, args.pred, diff_json=getattr(args, "diff_json", None)
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = _Progress(len(items), sys.stderr) if show else None
    result = grade_benchmark(
        items,
        settings,
        args.out,
        backend=args.backend,
        jobs=args.jobs,
        on_record=progress.update if progress is not None else None,
        on_start=progress.restart if progress is not None else None,
        confidence=args.confidence,
    )
    if progress is not None:
        progress.finish()
    report = None
    if wants_cases(args):
        report = ci_report(args, _cases(result.records, args), name=f"sqlequiv {args.command}")
    if report is not None:
        print(report)
    elif args.format == "json":
        run_info = {
            "gold": args.gold,
            "pred": args.pred,
            "db": args.db,
            "table": args.table,
            "out": args.out,
            "keep_distinct": settings.keep_distinct,
            "exec_timeout": settings.exec_timeout,
            "max_permutation_steps": settings.max_permutation_steps,
            "seed_rows": settings.seed_rows,
            "options": settings.options.to_dict(),
            "sqlequiv_version": __version__,
            "graded_now": result.graded_now,
            "resumed": result.resumed,
            "seconds": round(result.seconds, 3),
            "workers_replaced": result.workers_replaced,
        }
        print(json.dumps({**result.summary, "run": run_info}, indent=2, default=str))
    else:
        rate = result.graded_now / result.seconds if result.seconds > 0 else 0.0
        resumed = f", {result.resumed} already in the file" if result.resumed else ""
        print(
            f"graded {result.graded_now} items in {result.seconds:.1f} s ({rate:.2f} items/s"
            f"{resumed}); records in {args.out}\n"
        )
        print(render_benchmark_summary(result.summary))
    if result.interrupted:
        return interrupted(result.graded_now, args.out)
    return 0


def _settings(args: argparse.Namespace) -> BenchmarkSettings:
    problems = []
    if args.jobs is not None and args.jobs < 1:
        problems.append(f"--jobs={args.jobs} must be at least 1")
    for name in ("timeout", "exec_timeout"):
        value = getattr(args, name)
        if not value > 0 or value == float("inf"):
            problems.append(f"--{name.replace('_', '-')}={value} must be a positive number")
    if not 0 < args.confidence < 1:
        problems.append(f"--confidence={args.confidence} must be between 0 and 1")
    if args.seed_rows < 0:
        problems.append(f"--seed-rows={args.seed_rows} must not be negative")
    if args.max_permutation_steps < 1:
        problems.append(f"--max-permutation-steps={args.max_permutation_steps} must be >= 1")
    if problems:
        raise BenchmarkInputError(problems)
    options = options_from(args)
    return BenchmarkSettings(
        benchmark=args.command,
        db_dir=os.fspath(args.db),
        tables_json=args.table,
        options=options,
        exec_timeout=args.exec_timeout,
        keep_distinct=getattr(args, "keep_distinct", False),
        max_permutation_steps=args.max_permutation_steps,
        seed_rows=args.seed_rows,
        item_timeout=args.timeout,
    )


def _cases(records: list[dict[str, Any]], args: argparse.Namespace) -> list[Case]:
    """The CI report's cases: one per item, annotated at its prediction in ``--pred``
    (Spider: its line; BIRD: the line of its key in the JSON object)."""
    file = display_path(args.pred)
    keys = _json_key_lines(args.pred) if args.command == "bird" else {}
    cases = []
    for record in records:
        source = str(record.get("pred_source") or "")
        line: int | None = None
        if args.command == "spider":
            number = source.rpartition(":")[2]
            line = int(number) if number.isdigit() else None
        else:  # predict_dev.json['3']
            key = source.partition("[")[2].rstrip("]").strip("'\"")
            line = keys.get(key)
        cases.append(case_from_benchmark_record(record, file=file, line=line))
    return cases


def _json_key_lines(path: str) -> dict[str, int]:
    """The line where each key of a BIRD predictions JSON stands (best effort: the first
    of a key written twice; nothing for a file that cannot be read)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return {}
    found: dict[str, int] = {}
    line, counted = 1, 0
    # Left to right, the pattern matches JSON's strings exactly (none holds a bare quote);
    # a string followed by ':' is a key.
    for match in _STRING.finditer(text):
        if match.group(2):
            line += text.count("\n", counted, match.start())
            counted = match.start()
            with contextlib.suppress(ValueError):
                found.setdefault(json.loads(f'"{match.group(1)}"'), line)
    return found


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"(\s*:)?')


class _Progress:
    """done/total and the agreement categories so far, on one line."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.tty = stream.isatty()
        self.counts: Counter[str] = Counter()
        self.start = time.monotonic()
        self._shown = 0.0

    def restart(self, total: int) -> None:
        self.total = total
        self.start = time.monotonic()

    def update(self, record: dict[str, Any]) -> None:
        self.counts[str(record.get("category"))] += 1
        now = time.monotonic()
        if now - self._shown >= (0.1 if self.tty else 10.0):
            self._shown = now
            self._write()

    def _line(self) -> str:
        done = sum(self.counts.values())
        rate = done / max(time.monotonic() - self.start, 1e-9)
        counts = " ".join(f"{c} {self.counts[c]}" for c in CATEGORIES if self.counts[c])
        return f"graded {done}/{self.total} | {counts} | {rate:.2f} items/s"

    def _write(self) -> None:
        if self.tty:
            self.stream.write("\r" + self._line() + "\x1b[K")
        else:
            self.stream.write(self._line() + "\n")
        self.stream.flush()

    def finish(self) -> None:
        self._write()
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()
