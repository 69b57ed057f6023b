"""The command line: ``main(argv)`` parses, dispatches and reports errors, in one place.

The CLI is thin: it reads files, builds options, calls the library and renders the
result. Each family of commands is a module with its parsers and handlers:

- :mod:`sqlequiv.cli.check`: ``check`` and ``fixtures`` (one pair of queries);
- :mod:`sqlequiv.cli.grade`: ``grade`` (a candidates file against a suite);
- :mod:`sqlequiv.cli.stats`: ``stats``, ``compare``, ``audit sample|estimate``, ``report``
  (results files);
- :mod:`sqlequiv.cli.text2sql`: ``spider`` and ``bird`` (the benchmarks' files);
- :mod:`sqlequiv.cli.diff`: ``diff`` (the queries a git change touches);
- :mod:`sqlequiv.cli.formats`: the report flags (``--format text|json|junit|github``,
  ``--junit-xml``, ``--unknown-fails``) of every command that checks queries;
- :mod:`sqlequiv.cli.config`: ``config`` (the settings in force, from ``[tool.sqlequiv]``);
- :mod:`sqlequiv.cli.audit_gold`: ``audit-gold`` (a benchmark's gold queries);
- :mod:`sqlequiv.cli.options`: what they share (the check flags, :class:`UsageError`).

:data:`COMMANDS` maps each command to its handler, ``handler(args, argv) -> exit code``.
A handler raises on input it cannot use; :func:`main` turns that into a message and an
exit code and never raises for bad input: a :class:`~sqlequiv.errors.SqlequivError` or an
``OSError`` is ``sqlequiv: error: ...`` on stderr and exit 2, except that ``check`` and
``fixtures`` report a ``SqlequivError`` as an ``error`` verdict (also exit 2). ``check``
exits 0 equivalent, 1 not_equivalent, 2 error or bad usage, 3 unknown; ``diff`` exits 1
when a changed query is not equivalent, else 2 when one cannot be checked (or git, the
revision or the schema cannot be used), else 3 when ``--unknown-fails`` and one is
unknown, else 0; ``grade``, ``spider`` and ``bird`` exit 0 when the run completed, whatever
the verdicts (their CI reports carry them); a run stopped by
Ctrl-C (``grade``, ``spider``, ``bird``) exits 130 with what it graded kept, and one
whose results file cannot be written (a full disk) exits 74 (``EX_IOERR``), the file
ending at its last whole record.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from sqlequiv.cli import audit_gold, check, config, diff, grade, stats, text2sql
from sqlequiv.cli.options import UsageError, settle
from sqlequiv.errors import SqlequivError
from sqlequiv.grading.results import EXIT_UNWRITABLE, ResultsUnwritable

__all__ = ["COMMANDS", "build_parser", "main"]

#: A command's handler: the parsed arguments and the command line; returns the exit code.
Handler = Callable[[argparse.Namespace, list[str]], int]

#: Every command (``audit``'s by its subcommand) and its handler.
COMMANDS: dict[str, Handler] = {
    "check": check.run_check,
    "fixtures": check.run_fixtures,
    "grade": grade.run_grade,
    "stats": stats.run_stats,
    "compare": stats.run_compare,
    "audit sample": stats.run_audit_sample,
    "audit estimate": stats.run_audit_estimate,
    "report": stats.run_report,
    "spider": text2sql.run_benchmark,
    "bird": text2sql.run_benchmark,
    "diff": diff.run_diff,
    "config": config.run_config,
    "audit-gold": audit_gold.run_audit_gold,
}


class _Parser(argparse.ArgumentParser):
    """Raises :class:`UsageError` instead of exiting (subparsers are made of this class too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command."""
    parser = _Parser(
        prog="sqlequiv",
        description="Decide whether two SQL queries return the same rows on every database "
        "a schema allows.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check.add_parsers(sub)
    grade.add_parser(sub)
    stats.add_parsers(sub)
    text2sql.add_parsers(sub)
    diff.add_parser(sub)
    config.add_parser(sub)
    audit_gold.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args_list = list(argv if argv is not None else sys.argv[1:])
    try:
        args = build_parser().parse_args(args_list)
        settle(args)  # flags, then [tool.sqlequiv], then the defaults
    except UsageError as err:
        return _error(err)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    try:
        return COMMANDS[_command_name(args)](args, args_list)
    except ResultsUnwritable as err:
        _error(err)
        return EXIT_UNWRITABLE
    except SqlequivError as err:
        if args.command in check.VERDICT_COMMANDS:
            return check.error_verdict(err, args)
        return _error(err)
    except OSError as err:
        return _error(err)


def _command_name(args: argparse.Namespace) -> str:
    """The key of :data:`COMMANDS` the parsed ``args`` ask for (``audit sample``, ...)."""
    subcommand = getattr(args, "audit_command", None)
    return f"{args.command} {subcommand}" if subcommand else str(args.command)


def _error(err: Exception) -> int:
    print(f"sqlequiv: error: {err}", file=sys.stderr)
    return 2
