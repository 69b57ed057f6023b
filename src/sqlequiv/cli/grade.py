"""``sqlequiv grade``: a candidates file against a suite, one record per candidate.

Records are appended to ``--out`` (a rerun resumes where the last one stopped) and
a summary is printed (JSON with ``--json``; a JUnit XML or GitHub report of every record
with ``--format junit|github``, annotated at the candidate's line of the candidates file;
``--junit-xml PATH`` also writes the JUnit report: :mod:`sqlequiv.cli.formats`).
Exit codes: 0 the run completed, 2 unusable input or another run writing the same
``--out``, 74 the results file could not be written (a full disk; it ends at its last
whole record), 130 interrupted (everything graded so far is kept).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sqlequiv.ci_output import Case, case_from_grade_record
from sqlequiv.cli.formats import add_format_options, ci_report, display_path, wants_cases
from sqlequiv.cli.options import (
    UsageError,
    add_check_options,
    add_engine_options,
    interrupted,
    options_from,
)
from sqlequiv.grading.item import FAIL_ON
from sqlequiv.grading.progress import Progress
from sqlequiv.grading.record import pair_key
from sqlequiv.grading.run import BACKENDS, grade_suite
from sqlequiv.grading.summary import render_run
from sqlequiv.grading.worker import Settings
from sqlequiv.suite.load import json_lines, parse_json_line


def add_parser(sub: Any) -> None:
    """Add ``grade`` to the CLI's subparsers."""
    g = sub.add_parser("grade", help="grade a candidates file against a suite")
    g.add_argument("suite", help="suite file (.yaml/.yml or .jsonl)")
    g.add_argument("candidates", help='JSONL of {"id": ..., "sql": ...} lines')
    g.add_argument("--out", required=True, help="results JSONL (appended to; reruns resume)")
    g.add_argument("--backend", choices=BACKENDS, default="local", help="where workers run")
    g.add_argument("--jobs", type=int, default=None, help="workers (default: one per core)")
    g.add_argument("--ray-address", default=None, help="Ray cluster address (default: auto)")
    g.add_argument("--strict", action="store_true", help="a pass must be proved: unrefuted "
                   "passes become unknown")  # fmt: skip
    g.add_argument("--fail-on", choices=FAIL_ON, default="any",
                   help="with a suite's data: (your database), fail a candidate only on a "
                   "counterexample this realistic: any (default), realistic (not an edge case "
                   "alone), on_data (a difference on the data itself)")  # fmt: skip
    g.add_argument("--predicate-databases", type=int, default=Settings.predicate_databases,
                   help="generated databases each predicate is checked on")  # fmt: skip
    g.add_argument("--task-timeout", type=float, default=Settings.task_timeout,
                   help="wall-clock limit per pair, s (the worker is replaced)")  # fmt: skip
    g.add_argument("--memory-limit-mb", type=int, default=Settings.memory_limit_mb,
                   metavar="MIB", help="address space a worker may take beyond its start-up "
                   "footprint (Linux; 0: no limit)")  # fmt: skip
    g.add_argument("--no-audit", action="store_true", help="skip the item anomaly audit")
    g.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show progress (default: when stderr is a terminal)")  # fmt: skip
    add_format_options(g, text="the summary", json="the summary")
    g.add_argument("--allow-outside-paths", action="store_true",
                   help="let the suite name schema, fixture and predicate files outside its "
                   "directory (refused by default: a suite may be someone else's)")  # fmt: skip
    add_engine_options(g)
    add_check_options(g)


def run_grade(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv grade``; an unusable suite, candidates file or backend raises (the CLI
    reports it)."""
    options = options_from(args)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    settings = Settings(
        options=options,
        strict=args.strict,
        fail_on=args.fail_on,
        predicate_databases=max(0, args.predicate_databases),
        task_timeout=args.task_timeout,
        memory_limit_mb=args.memory_limit_mb,
        engine=args.engine,
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = Progress(0, sys.stderr) if show else None
    result = grade_suite(
        args.suite,
        args.candidates,
        args.out,
        backend=args.backend,
        jobs=args.jobs,
        settings=settings,
        ray_address=args.ray_address,
        audit=not args.no_audit,
        progress=progress,
        allow_outside_paths=args.allow_outside_paths,
    )
    report = None
    if wants_cases(args):
        report = ci_report(args, _cases(result.records, args), name="sqlequiv grade")
    if report is not None:
        print(report)
    elif args.format == "json":
        print(json.dumps({**result.summary, "anomalies": result.anomalies}, indent=2, default=str))
    else:
        print(render_run(result, Path(args.out)))
    if result.interrupted:
        return interrupted(result.graded_now, args.out)
    return 0


def _cases(records: list[dict[str, Any]], args: argparse.Namespace) -> list[Case]:
    """The CI report's cases: one per record, at its line of the candidates file."""
    lines = _candidate_lines(Path(args.candidates))
    file = display_path(args.candidates)
    classname = Path(args.suite).stem
    return [
        case_from_grade_record(r, classname=classname, file=file, line=lines.get(pair_key(r)))
        for r in records
    ]


def _candidate_lines(path: Path) -> dict[tuple[str, str], int]:
    """Each (item id, sample)'s line in the candidates file, numbering samples as
    :func:`~sqlequiv.grading.results.read_candidates` does (the file was read whole by then;
    a line it could not read has no number)."""
    found: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = {}
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return found
    for number, line in json_lines(text):
        try:
            entry = parse_json_line(line) if line.strip() else None
        except ValueError:
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str | int):
            continue
        item_id = str(entry["id"])
        sample = entry.get("sample", counts.get(item_id, 0))
        counts[item_id] = counts.get(item_id, 0) + 1
        found.setdefault((item_id, str(sample)), number)
    return found
