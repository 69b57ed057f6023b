"""``sqlequiv grade``: a candidates file against a suite, one record per candidate.

Records are appended to ``--out`` (a rerun resumes where the last one stopped) and
a summary is printed (JSON with ``--json``). Exit codes: 0 the run completed, 2
unusable input or another run writing the same ``--out``, 74 the results file could
not be written (a full disk; it ends at its last whole record), 130 interrupted
(everything graded so far is kept).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sqlequiv.cli.options import (
    UsageError,
    add_check_options,
    add_engine_options,
    interrupted,
    options_from,
)
from sqlequiv.grading.progress import Progress
from sqlequiv.grading.run import BACKENDS, grade_suite
from sqlequiv.grading.summary import render_run
from sqlequiv.grading.worker import Settings


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
    g.add_argument("--json", action="store_true", help="print the summary as JSON")
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
    if args.json:
        print(json.dumps({**result.summary, "anomalies": result.anomalies}, indent=2, default=str))
    else:
        print(render_run(result, Path(args.out)))
    if result.interrupted:
        return interrupted(result.graded_now, args.out)
    return 0
