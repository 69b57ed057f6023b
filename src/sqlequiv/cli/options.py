"""What the commands share: the options of ``sqlequiv check`` on the command line, used by
every command that checks pairs (``check``, ``fixtures``, ``grade``, ``spider``, ``bird``) as
one list of flags with one translation into :class:`~sqlequiv.options.Options`; the error a
bad command line raises; and the message of an interrupted run."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from sqlequiv.config import Config, ConfigError, load_config
from sqlequiv.errors import InvalidOption, PlainError
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
    benchmark commands spell it ``--query-timeout``: their ``--timeout`` is per item).

    A flag not given is None: :func:`settle` then takes the value from ``[tool.sqlequiv]``
    or the built-in default."""
    p.set_defaults(check_options_timeout_flag=timeout_flag)
    p.add_argument("--seed", type=int, default=None, help="seed of the counterexample search")
    p.add_argument("--max-fixtures", type=int, default=None)
    p.add_argument(
        "--floor-databases",
        type=int,
        default=None,
        help="tiny random databases tried first (the random floor)",
    )
    p.add_argument("--time-budget", type=float, default=None, help="seconds")
    p.add_argument("--max-rows", type=int, default=None, help="rows per table")
    p.add_argument(
        timeout_flag,
        dest="query_timeout",
        type=float,
        default=None,
        help="per query, s",
    )
    p.add_argument("--float-tolerance", type=float, default=None)
    for flag, text in (
        ("--set-semantics", "ignore duplicate rows"),
        ("--keep-column-order", "columns must align"),
        ("--ignore-order", "never check row order"),
        ("--no-symbolic", "skip z3 proofs and bounds"),
    ):
        p.add_argument(flag, action="store_true", default=None, help=text)
    p.add_argument("--max-bound", type=int, default=None, help="rows per table")
    p.add_argument(
        "--bounded-time-budget", type=float, default=None, help="s"
    )
    p.add_argument(
        "--check-time-budget", type=float, default=None, help="s, whole check"
    )
    p.add_argument(
        "--max-query-length", type=int, default=None, help="characters"
    )
    p.add_argument(
        "--max-query-nodes", type=int, default=None, help="syntax-tree nodes"
    )
    p.add_argument(
        "--mysql-lower-case-table-names",
        type=int,
        choices=(0, 1, 2),
        default=None,
        help="MySQL's lower_case_table_names: 0 table names case-sensitive (Linux), "
        "1/2 case-insensitive (default 1)",
    )
    p.add_argument(
        "--no-mysql-only-full-group-by",
        action="store_true",
        default=None,
        help="the MySQL server's SQL mode lacks ONLY_FULL_GROUP_BY: a bare column is "
        "any row's value (a refutation must hold for each), not an error",
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
    """The :class:`Options` the flags of :func:`add_check_options` ask for, over the
    project's ``[tool.sqlequiv]`` options (see :func:`settle`).

    Raises:
        InvalidOption: a value out of range.
    """
    apply_engine_options(args)
    config = getattr(args, "sqlequiv_config", None)
    return (config if isinstance(config, Config) else settle(args)).to_options()


#: Flag destination -> (the Options field, whether the flag says the opposite).
_OPTION_FLAGS: dict[str, tuple[str, bool]] = {
    "set_semantics": ("bag_semantics", True),
    "keep_column_order": ("ignore_column_order", True),
    "ignore_order": ("check_order", True),
    "no_symbolic": ("symbolic", True),
    "no_mysql_only_full_group_by": ("mysql_only_full_group_by", True),
    **{
        name: (name, False)
        for name in (
            "float_tolerance", "seed", "max_fixtures", "floor_databases", "time_budget",
            "max_rows", "query_timeout", "max_bound", "bounded_time_budget",
            "check_time_budget", "max_query_length", "max_query_nodes",
            "mysql_lower_case_table_names",
        )
    },
}  # fmt: skip


def settle(args: argparse.Namespace) -> Config:
    """Give the flags of :func:`add_check_options` (and ``--schema``, ``--dialect`` and
    ``--engine`` where the command has them) their values in force: a flag given, else
    ``[tool.sqlequiv]`` of the nearest ``pyproject.toml``, else the built-in default.

    Sets ``args.schema``, ``args.dialect`` and ``args.engine`` (those the command has) to
    the values in force and ``args.sqlequiv_config`` to the :class:`Config`; does nothing
    for a command without the check options.

    Raises:
        UsageError: the configuration cannot be used, or a required ``--schema`` is
            given neither on the command line nor in the configuration.
    """
    timeout_flag = getattr(args, "check_options_timeout_flag", None)
    if timeout_flag is None:
        return Config()
    try:
        config = load_config()
    except ConfigError as err:
        raise UsageError(str(err)) from err
    values: dict[str, Any] = {}
    keys: dict[str, str] = {}
    for dest, (name, negated) in _OPTION_FLAGS.items():
        value = getattr(args, dest, None)
        if value is not None:
            values[name] = not value if negated else value
            keys[name] = timeout_flag if dest == "query_timeout" else "--" + dest.replace("_", "-")
    for name in ("schema", "dialect", "engine"):
        if getattr(args, name, None) is not None:
            values[name] = getattr(args, name)
            keys[name] = f"--{name}"
    try:
        config = config.override(values, source="flag", keys=keys)
    except InvalidOption as err:
        raise UsageError(err.message) from err
    for name in ("schema", "dialect", "engine"):
        if hasattr(args, name):
            setattr(args, name, getattr(config, name).value)
    if getattr(args, "schema_required", False) and args.schema is None:
        raise UsageError("the following arguments are required: --schema")
    args.sqlequiv_config = config
    return config
