"""The command line: ``check``, ``fixtures``, ``grade`` (and the results commands of
:mod:`sqlequiv.cli.stats`: ``stats``, ``compare``, ``audit``, ``report``; and the benchmark
commands of :mod:`sqlequiv.cli.text2sql`: ``spider``, ``bird``).

The CLI is thin: it reads files, builds options, calls the library and renders
the result. ``main(argv)`` returns the exit code (for ``check``: 0 equivalent, 1
not_equivalent, 2 error or bad usage, 3 unknown) and never raises for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlequiv.api import check, distinguishing_fixtures
from sqlequiv.cli.options import add_check_options, options_from
from sqlequiv.cli.stats import COMMANDS as RESULTS_COMMANDS
from sqlequiv.cli.stats import add_parsers as add_results_parsers
from sqlequiv.cli.stats import run as run_results_command
from sqlequiv.cli.text2sql import COMMANDS as TEXT2SQL_COMMANDS
from sqlequiv.cli.text2sql import add_parsers as add_text2sql_parsers
from sqlequiv.cli.text2sql import run as run_text2sql_command
from sqlequiv.errors import InvalidOption, Side, SqlequivError
from sqlequiv.export import write_fixtures
from sqlequiv.grading.pools import WorkerStartError
from sqlequiv.grading.progress import Progress
from sqlequiv.grading.ray_pool import RayUnavailable
from sqlequiv.grading.run import BACKENDS, grade_suite
from sqlequiv.grading.summary import render_run
from sqlequiv.grading.worker import Settings
from sqlequiv.options import Options
from sqlequiv.render import render
from sqlequiv.schema import Schema, load_schema
from sqlequiv.schema.sqlite_file import is_sqlite_file, read_sqlite_rows
from sqlequiv.suite.load import SuiteError
from sqlequiv.verdict import EXIT_CODES, ErrorInfo, Verdict

#: Largest query file read, in bytes; the guard applies its own limit after decoding.
_MAX_FILE = 10 * 1024 * 1024


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sqlequiv",
        description="Decide whether two SQL queries return the same rows on every database "
        "a schema allows.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("check", "check a candidate query against a reference query"),
        ("fixtures", "write databases that distinguish the two queries"),
    ):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("candidate", help="file holding the candidate query ('-' for stdin)")
        p.add_argument("reference", help="file holding the reference query ('-' for stdin)")
        p.add_argument(
            "--schema",
            required=True,
            help="DDL file, JSON/YAML mapping, DuckDB or SQLite database file, or tables.json",
        )
        p.add_argument("--dialect", default="duckdb", help="sqlglot dialect of the queries and DDL")
        p.add_argument("--db-id", default=None, help="database of a Spider/BIRD tables.json")
        p.add_argument(
            "--seed-rows",
            type=int,
            default=0,
            help="with an SQLite database file as --schema: up to N rows per table of its data "
            "seed the search for a counterexample (default 0: none)",
        )
        p.add_argument("--json", action="store_true", help="print the verdict as JSON")
        add_check_options(p)
        if name == "fixtures":
            p.add_argument("--out", required=True, help="directory to write fixtures into")
            p.add_argument("--limit", type=int, default=5, help="most fixtures to write")
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
    add_check_options(g)
    add_results_parsers(sub)
    add_text2sql_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    try:
        args = build_parser().parse_args(argv)
    except _UsageError as exc:
        print(f"sqlequiv: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    if args.command in RESULTS_COMMANDS:
        return run_results_command(args, list(argv if argv is not None else sys.argv[1:]))
    if args.command in TEXT2SQL_COMMANDS:
        return run_text2sql_command(args)
    try:
        options = options_from(args)
        if args.command == "grade":
            return _grade(args, options)
        candidate = _read_query(args.candidate, "candidate")
        reference = _read_query(args.reference, "reference")
        schema: Schema = load_schema(args.schema, args.dialect, db_id=args.db_id)
        seed_data = _seed_rows(args.schema, schema, args.seed_rows)
    except SqlequivError as err:
        if args.command == "grade":
            print(f"sqlequiv: error: {err}", file=sys.stderr)
            return 2
        return _emit(
            Verdict("error", error=ErrorInfo(err.side, err.kind, err.message, err.line, err.col)),
            args.json,
        )
    if args.command == "check":
        verdict = check(candidate, reference, schema, args.dialect, options, seed_data=seed_data)
        return _emit(verdict, args.json)
    verdict, examples = distinguishing_fixtures(
        candidate, reference, schema, args.dialect, options, limit=args.limit, seed_data=seed_data
    )
    if examples:
        paths = write_fixtures(examples, schema, Path(args.out))
        if not args.json:
            print("\n".join(f"wrote {p} (and {p.with_suffix('.json').name})" for p in paths))
    elif not args.json:
        print("no distinguishing database found; nothing written")
    return _emit(verdict, args.json)


def _seed_rows(source: str, schema: Schema, limit: int) -> dict[str, list[tuple[Any, ...]]] | None:
    """Up to ``limit`` rows per table of the SQLite database ``source`` (None when 0)."""
    if limit <= 0:
        return None
    if limit > 10_000:
        raise InvalidOption(f"--seed-rows={limit} must be at most 10000")
    if not is_sqlite_file(source):
        raise InvalidOption("--seed-rows needs an SQLite database file as --schema")
    return read_sqlite_rows(source, schema, limit=limit)


def _grade(args: argparse.Namespace, options: Options) -> int:
    """``sqlequiv grade``: exit 0 when the run completes, 2 for unusable input, 130 when
    interrupted (everything graded so far is kept; rerun to resume)."""
    if args.jobs is not None and args.jobs < 1:
        print("sqlequiv: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    settings = Settings(
        options=options,
        strict=args.strict,
        predicate_databases=max(0, args.predicate_databases),
        task_timeout=args.task_timeout,
        memory_limit_mb=args.memory_limit_mb,
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = Progress(0, sys.stderr) if show else None
    try:
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
        )
    except SuiteError as err:
        print(f"sqlequiv: error: {err}", file=sys.stderr)
        return 2
    except (RayUnavailable, WorkerStartError) as err:
        print(f"sqlequiv: error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({**result.summary, "anomalies": result.anomalies}, indent=2, default=str))
    else:
        print(render_run(result, Path(args.out)))
    if result.interrupted:
        print(
            f"interrupted: {result.graded_now} records written to {args.out}; "
            "rerun the same command to resume",
            file=sys.stderr,
        )
        return 130
    return 0


def _read_query(path: str, side: Side) -> str:
    try:
        if path == "-":
            data = sys.stdin.buffer.read(_MAX_FILE + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(_MAX_FILE + 1)
    except OSError as exc:
        raise SqlequivError(
            side, "file_not_found", f"cannot read {path!r}: {exc.strerror}"
        ) from exc
    if len(data) > _MAX_FILE:
        raise SqlequivError(side, "too_large", f"{path!r} is larger than {_MAX_FILE} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SqlequivError(
            side, "invalid_text", f"{path!r} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from exc


def _emit(verdict: Verdict, as_json: bool) -> int:
    if as_json:
        print(json.dumps(verdict.to_dict(), indent=2))
    else:
        print(render(verdict))
    return EXIT_CODES[verdict.verdict]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
