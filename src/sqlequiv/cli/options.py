"""What the commands share: the options of ``sqlequiv check`` on the command line, used by
every command that checks pairs (``check``, ``fixtures``, ``grade``, ``spider``, ``bird``) as
one list of flags with one translation into :class:`~sqlequiv.options.Options`; the error a
bad command line raises; and the message of an interrupted run."""

from __future__ import annotations

import argparse
import os
import sys

from sqlequiv.errors import PlainError
from sqlequiv.execute.postgres_server import URL_VARIABLE
from sqlequiv.options import Options
from sqlequiv.policy.catalogues import ENGINES

#: The exit code of a run stopped by Ctrl-C (what it graded is kept; rerun to resume).
EXIT_INTERRUPTED = 130


class UsageError(PlainError, ValueError):
    """A command line the CLI cannot run: argparse's complaint or a flag out of range that
    the CLI checks itself (``--jobs 0``). The CLI prints it as ``sqlequiv: error: ...``."""

    SIDE = "options"
    KIND = "usage"


def interrupted(graded_now: int, out: str) -> int:
    """Say that a run was interrupted and how to resume it; the exit code."""
    print(
        f"interrupted: {graded_now} records written to {out}; rerun the same command to resume",
        file=sys.stderr,
    )
    return EXIT_INTERRUPTED


def add_check_options(p: argparse.ArgumentParser, *, timeout_flag: str = "--timeout") -> None:
    """Add the check options to ``p``. The per-query timeout is ``timeout_flag`` (the
    benchmark commands spell it ``--query-timeout``: their ``--timeout`` is per item)."""
    p.add_argument("--seed", type=int, default=0, help="seed of the counterexample search")
    p.add_argument("--max-fixtures", type=int, default=Options.max_fixtures)
    p.add_argument(
        "--floor-databases",
        type=int,
        default=Options.floor_databases,
        help="tiny random databases tried first (the random floor)",
    )
    p.add_argument("--time-budget", type=float, default=Options.time_budget, help="seconds")
    p.add_argument("--max-rows", type=int, default=Options.max_rows, help="rows per table")
    p.add_argument(
        timeout_flag,
        dest="query_timeout",
        type=float,
        default=Options.query_timeout,
        help="per query, s",
    )
    p.add_argument("--float-tolerance", type=float, default=Options.float_tolerance)
    p.add_argument("--set-semantics", action="store_true", help="ignore duplicate rows")
    p.add_argument("--keep-column-order", action="store_true", help="columns must align")
    p.add_argument("--ignore-order", action="store_true", help="never check row order")
    p.add_argument("--no-symbolic", action="store_true", help="skip z3 proofs and bounds")
    p.add_argument("--max-bound", type=int, default=Options.max_bound, help="rows per table")
    p.add_argument(
        "--bounded-time-budget", type=float, default=Options.bounded_time_budget, help="s"
    )
    p.add_argument(
        "--check-time-budget", type=float, default=Options.check_time_budget, help="s, whole check"
    )
    p.add_argument(
        "--max-query-length", type=int, default=Options.max_query_length, help="characters"
    )
    p.add_argument(
        "--max-query-nodes", type=int, default=Options.max_query_nodes, help="syntax-tree nodes"
    )
    p.add_argument(
        "--mysql-lower-case-table-names",
        type=int,
        choices=(0, 1, 2),
        default=Options.mysql_lower_case_table_names,
        help="MySQL's lower_case_table_names: 0 table names case-sensitive (Linux), "
        "1/2 case-insensitive (default 1)",
    )


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """Add ``--engine`` and ``--postgres-url`` to ``p``."""
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="where the queries run (default: sqlite for --dialect sqlite, postgres for "
        "postgres, duckdb otherwise); another dialect is translated to the engine's",
    )
    p.add_argument(
        "--postgres-url",
        default=None,
        metavar="URL",
        help=f"a PostgreSQL server to run on (also ${URL_VARIABLE}) instead of a private "
        "one sqlequiv starts; queries run as its user in read-only transactions",
    )


def engine_list(text: str, flag: str) -> tuple[str, ...]:
    """The engines of a comma list (``--replay-on duckdb,sqlite``).

    Raises:
        UsageError: a name that is not an engine.
    """
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise UsageError(f"{flag}: unknown engine {unknown[0]!r} (engines: {', '.join(ENGINES)})")
    return names


def apply_engine_options(args: argparse.Namespace) -> None:
    """Make ``--postgres-url`` the server every PostgreSQL executor of this process uses."""
    url = getattr(args, "postgres_url", None)
    if url:
        os.environ[URL_VARIABLE] = url


def options_from(args: argparse.Namespace) -> Options:
    """The :class:`Options` the flags of :func:`add_check_options` ask for.

    Raises:
        InvalidOption: a value out of range.
    """
    apply_engine_options(args)
    return Options(
        bag_semantics=not args.set_semantics,
        ignore_column_order=not args.keep_column_order,
        check_order=not args.ignore_order,
        float_tolerance=args.float_tolerance,
        seed=args.seed,
        max_fixtures=args.max_fixtures,
        floor_databases=args.floor_databases,
        time_budget=args.time_budget,
        max_rows=args.max_rows,
        query_timeout=args.query_timeout,
        symbolic=not args.no_symbolic,
        max_bound=args.max_bound,
        bounded_time_budget=args.bounded_time_budget,
        check_time_budget=args.check_time_budget,
        max_query_length=args.max_query_length,
        max_query_nodes=args.max_query_nodes,
        mysql_lower_case_table_names=args.mysql_lower_case_table_names,
    )
