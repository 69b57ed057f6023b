"""``sqlequiv audit-gold``: audit a benchmark's gold queries before trusting its scores.

Reads Spider's files (``--gold gold.sql``, ``--questions dev.json``, ``--db``,
``--table``), BIRD's (``--benchmark bird --gold dev.json|dev.sql``) or a sqlequiv suite
(``--suite suite.yaml``); writes one JSON record per gold (and one per shifted run of
``--pred`` predictions) to ``--out``, and prints a summary table by hazard.

Exit codes, for CI: 0 no blocking hazard, 1 a hazard of a ``--fail-on`` kind was found
(by default the blocking kinds of :data:`~sqlequiv.goldaudit.records.DEFAULT_BLOCKING`),
2 unusable input (every problem listed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sqlequiv.cli.options import UsageError, add_check_options, options_from
from sqlequiv.goldaudit import (
    DEFAULT_BLOCKING,
    HAZARD_KINDS,
    AuditRun,
    AuditSettings,
    PairingSettings,
    audit_benchmark,
    audit_suite,
    load_golds,
    parse_kinds,
    render_summary,
    summarize,
)
from sqlequiv.text2sql.formats import BenchmarkInputError, check_databases


def add_parser(sub: Any) -> None:
    """Add ``audit-gold`` to the CLI's subparsers."""
    p = sub.add_parser(
        "audit-gold",
        help="audit a benchmark's gold queries: hazards, each with the database showing it",
        description="Find the gold queries whose execution-match score cannot be trusted "
        "(nondeterministic, order-, NULL- or type-sensitive, slow, empty, alternatives that "
        "disagree) and predictions paired with the wrong gold; each hazard comes with a "
        "database on which it was executed. Exit 1 when a --fail-on hazard is found.",
    )
    p.add_argument("--benchmark", choices=("spider", "bird"), default="spider",
                   help="the files' format and the evaluator rule (default spider)")  # fmt: skip
    p.add_argument("--gold", default=None,
                   help="gold.sql / dev.sql ('SQL<TAB>db_id' lines) or dev.json")  # fmt: skip
    p.add_argument("--questions", default=None,
                   help="dev.json with the natural-language questions (and 'alternatives' "
                   "golds), in the gold's order (BIRD's --diff_json_path)")  # fmt: skip
    p.add_argument("--db", default=None, help="database directory: DB/{db_id}/{db_id}.sqlite")
    p.add_argument("--table", default=None, help="tables.json (schema when a .sqlite fails)")
    p.add_argument("--pred", default=None,
                   help="predictions to check the pairing of (Spider: one per line; BIRD: "
                   "its JSON)")  # fmt: skip
    p.add_argument("--suite", default=None, help="a sqlequiv suite (YAML) instead of --gold")
    p.add_argument("--data", default=None, metavar="DB",
                   help="with --suite: the database (SQLite or DuckDB file, PostgreSQL URL) "
                   "each witness is compared with, for the items with no data: of their own: "
                   "on_data, realistic or edge (a benchmark's own databases are used "
                   "unasked)")  # fmt: skip
    p.add_argument("--out", default=None, help="JSONL of the audit records (overwritten)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--fail-on", default=",".join(sorted(DEFAULT_BLOCKING)), metavar="KIND,...",
                   help="hazards that exit 1 (default: %(default)s; 'all' or 'none'); kinds: "
                   + ", ".join(HAZARD_KINDS))  # fmt: skip
    p.add_argument("--slow-seconds", type=float, default=AuditSettings.slow_seconds,
                   help="a gold slower than this on the shipped database is slow")  # fmt: skip
    p.add_argument("--exec-timeout", type=float, default=AuditSettings.exec_timeout,
                   help="limit per query on the shipped database, s")  # fmt: skip
    p.add_argument("--shift-window", type=int, default=PairingSettings.window,
                   help="largest offset of a shifted run looked for")  # fmt: skip
    p.add_argument("--shift-run", type=int, default=PairingSettings.min_run,
                   help="shortest run of shifted predictions reported")  # fmt: skip
    p.add_argument("--seed-rows", type=int, default=50,
                   help="rows per table of the real database that seed the search")  # fmt: skip
    p.add_argument("--no-rewrite", action="store_true",
                   help="do not propose (and check) deterministic rewrites")  # fmt: skip
    add_check_options(p, timeout_flag="--query-timeout")


def run_audit_gold(args: argparse.Namespace, argv: list[str]) -> int:
    """Run ``audit-gold``; bad input raises for the CLI to report (exit 2)."""
    try:
        fail_on = parse_kinds(args.fail_on)
    except ValueError as err:
        raise UsageError(str(err)) from err
    settings = _settings(args)
    run = _run(args, settings, fail_on)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for record in run.records:
                out.write(json.dumps(record, default=str) + "\n")
    summary = summarize(run.records)
    summary["seconds"] = round(run.seconds, 3)
    summary["fail_on"] = sorted(fail_on)
    failing = run.failing(fail_on)
    summary["exit"] = int(failing)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        per = run.seconds / max(summary["golds"], 1)
        where = f"; records in {args.out}" if args.out else ""
        print(f"audited {summary['golds']} golds in {run.seconds:.1f} s "
              f"({per:.2f} s per gold){where}\n")  # fmt: skip
        print(render_summary(summary))
        if failing:
            print(f"\nexit 1: hazards of kinds in --fail-on ({', '.join(sorted(fail_on))})")
    return 1 if failing else 0


def _run(args: argparse.Namespace, settings: AuditSettings, fail_on: frozenset[str]) -> AuditRun:
    if args.suite is not None:
        if args.gold or args.pred:
            raise UsageError("--suite audits a suite's references: no --gold or --pred with it")
        from sqlequiv.suite.load import load_suite

        suite = load_suite(args.suite)
        return audit_suite(suite.items, settings, blocking=fail_on, data=args.data)
    if not args.gold or not args.db:
        raise UsageError("give --gold and --db (or --suite)")
    if args.data is not None:
        raise UsageError("--data is for --suite: a benchmark's witnesses are compared with "
                         "its own databases (--db) already")  # fmt: skip
    items = load_golds(args.benchmark, args.gold, questions=args.questions, pred=args.pred)
    check_databases([i.item for i in items], args.db, args.table)
    return audit_benchmark(
        args.benchmark,
        items,
        args.db,
        tables_json=args.table,
        settings=settings,
        pairing=PairingSettings(args.shift_window, args.shift_run),
        predictions=args.pred is not None,
        blocking=fail_on,
        seed_rows=args.seed_rows,
    )


def _settings(args: argparse.Namespace) -> AuditSettings:
    problems = []
    for name in ("slow_seconds", "exec_timeout"):
        value = getattr(args, name)
        if not value > 0 or value == float("inf"):
            problems.append(f"--{name.replace('_', '-')}={value} must be a positive number")
    if args.shift_window < 1:
        problems.append(f"--shift-window={args.shift_window} must be at least 1")
    if args.shift_run < 2:
        problems.append(f"--shift-run={args.shift_run} must be at least 2")
    if args.seed_rows < 0:
        problems.append(f"--seed-rows={args.seed_rows} must not be negative")
    if args.out and Path(args.out).is_dir():
        problems.append(f"--out={args.out} is a directory")
    if problems:
        raise BenchmarkInputError(problems)
    return AuditSettings(
        options=options_from(args),
        exec_timeout=args.exec_timeout,
        slow_seconds=args.slow_seconds,
        rewrite=not args.no_rewrite,
    )
