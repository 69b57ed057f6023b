"""``sqlequiv diff [REV] [PATH...]``: do the changed queries still return the same rows?

Every ``.sql`` file that differs between REV (default ``HEAD``) and the working tree (or,
with ``--staged``, the index: the pre-commit mode) is split into queries, paired by
position, and each changed query is checked against its old version with the schema and
the check options of ``sqlequiv check`` (:mod:`sqlequiv.ci_output.gitdiff` does the work). The first
argument is REV unless it is an existing path (pre-commit passes file names only);
``--rev`` names the revision unambiguously.

Exit codes: 0 no changed query is refuted or in error (new, deleted and unchanged files,
unknown queries and files whose queries cannot be paired are reported, and do not fail
without ``--unknown-fails``); 1 a query is not equivalent (its counterexample is shown);
2 a query cannot be checked or a file read, or the command cannot run (not a git
repository, an unknown revision, a bad schema or flag); 3 with ``--unknown-fails``, a query
is unknown or a file's queries cannot be paired.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from sqlequiv.ci_output import cases_from_diff, escape_data, escape_property
from sqlequiv.ci_output.gitdiff import DiffResult, FileChange, GitError, Repository, diff_queries
from sqlequiv.cli.formats import add_format_options, ci_report, wants_cases
from sqlequiv.cli.options import add_check_options, add_engine_options, options_from
from sqlequiv.render import render
from sqlequiv.schema import load_schema

_HEADLINES = {
    "equivalent": "EQUIVALENT",
    "not_equivalent": "NOT EQUIVALENT",
    "unknown": "UNKNOWN",
    "error": "ERROR",
    "unchanged": "unchanged",
}


def add_parser(sub: Any) -> None:
    """Add ``diff`` to the CLI's subparsers."""
    d = sub.add_parser(
        "diff",
        help="check the .sql files changed since a revision against their old versions",
        description="Check every query of the .sql files that differ from REV (default "
        "HEAD) against its version at REV: equivalent, not equivalent with a "
        "counterexample, or unknown. Exit 1 when a query is not equivalent.",
    )
    d.add_argument(
        "paths",
        nargs="*",
        metavar="[REV] PATH",
        help="a revision (default HEAD; taken as a path when a file or directory of that "
        "name exists), then the files or directories to look at (default: all)",
    )
    d.add_argument("--rev", default=None, help="the revision to compare with (then every "
                   "argument is a path)")  # fmt: skip
    d.add_argument("--staged", "--cached", action="store_true",
                   help="compare the index (what the next commit holds) with REV, not the "
                   "working tree: the pre-commit hook's mode")  # fmt: skip
    d.add_argument(
        "--schema",
        default=None,  # required, unless [tool.sqlequiv] names it: see settle()
        help="DDL file, JSON/YAML mapping, DuckDB or SQLite database file, or tables.json "
        "(read from the working tree; never read as queries; required unless "
        "[tool.sqlequiv] of pyproject.toml names one)",
    )
    d.set_defaults(schema_required=True)
    d.add_argument(
        "--dialect", default=None, help="sqlglot dialect of the queries and DDL (duckdb)"
    )
    d.add_argument("--db-id", default=None, help="database of a Spider/BIRD tables.json")
    add_format_options(d, text="a report per file", json="every file and verdict")
    add_engine_options(d)
    add_check_options(d)


def run_diff(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv diff``; git's refusals and an unusable schema raise (the CLI reports them)."""
    options = options_from(args)
    repo = Repository.open()
    rev, paths = args.rev, list(args.paths)
    guessed = rev is None and bool(paths) and not os.path.lexists(paths[0])
    if guessed:
        rev = paths.pop(0)
        if repo.commit(rev) is None:
            raise GitError(
                f"{rev!r} is neither a revision nor a path here (--rev REV names a revision)"
            )
    schema = load_schema(args.schema, args.dialect, db_id=args.db_id)
    result = diff_queries(
        schema, args.dialect, options, rev=rev or "HEAD", paths=paths, staged=args.staged,
        repository=repo, schema_path=args.schema, engine=args.engine,
    )  # fmt: skip
    report = (
        ci_report(args, cases_from_diff(result), name="sqlequiv diff")
        if wants_cases(args)
        else None
    )
    if report is not None:
        if args.format == "github" and result.schema_note:
            print(f"::notice title={escape_property('sqlequiv: schema')}::"
                  f"{escape_data(result.schema_note)}")  # fmt: skip
        print(report)
    elif args.format == "json":
        print(json.dumps(result.to_dict(unknown_fails=args.unknown_fails), indent=2))
    else:
        print(render_diff(result))
    return result.exit_code(unknown_fails=args.unknown_fails)


def render_diff(result: DiffResult) -> str:
    """The text report: a line per query (the counterexample or evidence under it), a line
    per file that was not checked, then the counts."""
    lines = [
        f"{result.new_side} against {result.rev} ({result.commit}): "
        "each changed query (candidate) checked against its old version (reference)"
    ]
    if result.schema_note:
        lines.append(f"note: {result.schema_note}")
    if not result.files:
        lines.append(f"no .sql file differs from {result.rev}")
    for change in result.files:
        lines.extend(_file_lines(change))
    lines.extend(["", _summary(result)])
    return "\n".join(lines)


def _file_lines(change: FileChange) -> list[str]:
    if change.status != "checked":
        return [f"{change.path}: {change.note}"]
    lines = [f"{change.path}:"]
    if not change.queries:
        lines.append("  no queries")
    for query in change.queries:
        head = f"  query {query.index} (line {query.line}): "
        verdict = query.verdict
        if verdict is None:
            lines.append(head + "unchanged")
            continue
        report = render(verdict).splitlines()
        lines.append(head + report[0].removeprefix("verdict: "))
        if verdict.verdict != "equivalent":
            body = [line for line in report[1:] if not line.startswith("timings:")]
            lines.extend(f"      {line}".rstrip() for line in body)
    return lines


def _summary(result: DiffResult) -> str:
    statuses = [q.status for f in result.files for q in f.queries]
    checked = [s for s in statuses if s != "unchanged"]
    counts = ", ".join(
        f"{checked.count(s)} {_HEADLINES[s].lower()}"
        for s in ("equivalent", "not_equivalent", "unknown", "error")
    )
    text = f"{len(checked)} changed {'query' if len(checked) == 1 else 'queries'}: {counts}"
    if statuses.count("unchanged"):
        text += f" ({statuses.count('unchanged')} unchanged)"
    not_checked = [f for f in result.files if f.status != "checked"]
    if not_checked:
        kinds = ", ".join(
            f"{sum(f.status == k for f in not_checked)} {k}"
            for k in ("added", "deleted", "unpaired", "unreadable")
            if any(f.status == k for f in not_checked)
        )
        text += f"; files not checked: {kinds}"
    return text
