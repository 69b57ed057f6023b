"""``sqlequiv check`` and ``sqlequiv fixtures``: one pair of query files against a schema.

``check`` prints the verdict (text; JSON, JUnit XML or GitHub annotations with
``--format``, see :mod:`sqlequiv.cli.formats`); ``fixtures`` also writes
the databases that distinguish the two queries. Both exit with the verdict's code: 0
equivalent, 1 not_equivalent, 2 error, 3 unknown. Input that cannot be checked (an
unreadable file, a bad schema, an option out of range) is an ``error`` verdict, printed
like any other: :func:`error_verdict`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sqlequiv.api import check, distinguishing_fixtures
from sqlequiv.ci_output import Case, case_from_verdict
from sqlequiv.cli.formats import add_format_options, ci_report, display_path, wants_cases
from sqlequiv.cli.options import (
    add_check_options,
    add_engine_options,
    engine_list,
    options_from,
)
from sqlequiv.database.export import write_fixtures
from sqlequiv.errors import InvalidOption, Side, SqlequivError
from sqlequiv.options import Options
from sqlequiv.policy.catalogues import ENGINES
from sqlequiv.render import render
from sqlequiv.schema import Schema, load_schema
from sqlequiv.schema.sqlite_file import is_sqlite_file, read_sqlite_rows
from sqlequiv.verdict import EXIT_CODES, ErrorInfo, Verdict

#: The commands whose unusable input is reported as an ``error`` verdict.
VERDICT_COMMANDS = ("check", "fixtures")

#: Largest query file read, in bytes; the guard applies its own limit after decoding.
_MAX_FILE = 10 * 1024 * 1024


def add_parsers(sub: Any) -> None:
    """Add ``check`` and ``fixtures`` to the CLI's subparsers."""
    for name, help_text in (
        ("check", "check a candidate query against a reference query"),
        ("fixtures", "write databases that distinguish the two queries"),
    ):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("candidate", help="file holding the candidate query ('-' for stdin)")
        p.add_argument("reference", help="file holding the reference query ('-' for stdin)")
        p.add_argument(
            "--schema",
            default=None,  # required, unless [tool.sqlequiv] names it: see settle()
            help="DDL file, JSON/YAML mapping, DuckDB or SQLite database file, or tables.json "
            "(required unless [tool.sqlequiv] of pyproject.toml names one)",
        )
        p.set_defaults(schema_required=True)
        p.add_argument(
            "--dialect", default=None, help="sqlglot dialect of the queries and DDL (duckdb)"
        )
        p.add_argument("--db-id", default=None, help="database of a Spider/BIRD tables.json")
        p.add_argument(
            "--seed-rows",
            type=int,
            default=0,
            help="with an SQLite database file as --schema: up to N rows per table of its data "
            "seed the search for a counterexample (default 0: none)",
        )
        add_format_options(p, text="the verdict report", json="the verdict object")
        add_engine_options(p)
        p.add_argument(
            "--data",
            default=None,
            metavar="DATABASE",
            help="your own database (an SQLite or DuckDB file, or a PostgreSQL URL; read "
            "only): each "
            "counterexample says whether it shows on your data (on_data), on a database "
            "like yours (realistic) or only on one the declared schema allows (edge)",
        )
        if name == "check":
            p.add_argument(
                "--replay-on",
                default="",
                metavar="ENGINES",
                help="after not_equivalent, replay the counterexample on these engines "
                f"(comma list of {', '.join(ENGINES)}) and say whether it separates there",
            )
        add_check_options(p)
        if name == "fixtures":
            p.add_argument("--out", required=True, help="directory to write fixtures into")
            p.add_argument("--limit", type=int, default=5, help="most fixtures to write")


def run_check(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv check``: the verdict on the pair."""
    options, candidate, reference, schema, seed_data = _inputs(args)
    replay_on = engine_list(args.replay_on, "--replay-on")
    verdict = check(
        candidate, reference, schema, args.dialect, options, seed_data=seed_data,
        engine=args.engine, replay_on=replay_on, data=args.data,
    )  # fmt: skip
    return _emit(verdict, args)


def run_fixtures(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv fixtures``: the verdict, and the distinguishing databases written to
    ``--out``."""
    options, candidate, reference, schema, seed_data = _inputs(args)
    verdict, examples = distinguishing_fixtures(
        candidate, reference, schema, args.dialect, options, limit=args.limit, seed_data=seed_data,
        engine=args.engine, data=args.data,
    )  # fmt: skip
    if examples:
        paths = write_fixtures(examples, schema, Path(args.out))
        if args.format == "text":
            print("\n".join(f"wrote {p} (and {p.with_suffix('.json').name})" for p in paths))
    elif args.format == "text":
        print("no distinguishing database found; nothing written")
    return _emit(verdict, args)


def error_verdict(err: SqlequivError, args: argparse.Namespace) -> int:
    """Print ``err`` as an ``error`` verdict in the format ``args`` ask for; its exit code (2)."""
    return _emit(
        Verdict("error", error=ErrorInfo(err.side, err.kind, err.message, err.line, err.col)),
        args,
    )


def _inputs(
    args: argparse.Namespace,
) -> tuple[Options, str, str, Schema, dict[str, list[tuple[Any, ...]]] | None]:
    """The options, both queries, the schema and the seed rows the flags name.

    Raises:
        SqlequivError: one of them is unusable.
    """
    options = options_from(args)
    candidate = _read_query(args.candidate, "candidate")
    reference = _read_query(args.reference, "reference")
    schema: Schema = load_schema(args.schema, args.dialect, db_id=args.db_id)
    seed_data = _seed_rows(args.schema, schema, args.seed_rows)
    return options, candidate, reference, schema, seed_data


def _seed_rows(source: str, schema: Schema, limit: int) -> dict[str, list[tuple[Any, ...]]] | None:
    """Up to ``limit`` rows per table of the SQLite database ``source`` (None when 0)."""
    if limit <= 0:
        return None
    if limit > 10_000:
        raise InvalidOption(f"--seed-rows={limit} must be at most 10000")
    if not is_sqlite_file(source):
        raise InvalidOption("--seed-rows needs an SQLite database file as --schema")
    return read_sqlite_rows(source, schema, limit=limit)


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


def _emit(verdict: Verdict, args: argparse.Namespace) -> int:
    report = None
    if wants_cases(args):
        report = ci_report(args, [_case(verdict, args)], name=f"sqlequiv {args.command}")
    if report is not None:
        print(report)
    elif args.format == "json":
        print(json.dumps(verdict.to_dict(), indent=2))
    else:
        print(render(verdict))
    return EXIT_CODES[verdict.verdict]


def _case(verdict: Verdict, args: argparse.Namespace) -> Case:
    """The CI report's case: annotated on the candidate's file, or on the reference's or the
    schema's when the error is there, at the error's line."""
    err = verdict.error
    path: str = args.candidate
    line: int | None = 1
    if err is not None and err.side in ("reference", "schema"):
        path, line = (args.reference if err.side == "reference" else args.schema), err.line
    return case_from_verdict(
        verdict,
        name=f"{args.candidate} vs {args.reference}",
        classname=f"sqlequiv {args.command}",
        file=None if path == "-" else display_path(path),
        line=line,
    )
