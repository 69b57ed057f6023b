"""The commands over results files: ``stats``, ``compare``, ``audit sample|estimate``, ``report``.

Each reads one or two results JSONL files written by ``sqlequiv grade``,
calls :mod:`sqlequiv.stats` and prints text (or JSON with ``--json``). Exit
codes: 0 done, 2 unusable input (the handlers raise :class:`StatsError`,
``SuiteError`` or ``OSError`` listing every problem; the CLI reports it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shlex
from pathlib import Path
from typing import Any

from sqlequiv.goldaudit.records import is_audit_record
from sqlequiv.grading.results import latest_records, read_results
from sqlequiv.report import ReportData, write_report
from sqlequiv.stats import (
    StatsError,
    audit_estimate,
    audit_plan,
    audit_sample,
    compare_runs,
    read_labels,
    render_audit_estimate,
    render_audit_plan,
    render_comparison,
    render_run_statistics,
    run_statistics,
)
from sqlequiv.stats.runs import field_values


def add_parsers(sub: Any) -> None:
    """Add the results commands to the CLI's subparsers."""
    s = sub.add_parser("stats", help="pass rate with its interval, causes, errors, groups")
    s.add_argument("results", help="results JSONL from `sqlequiv grade`")
    s.add_argument("--by", action="append", default=[], metavar="FIELD",
                   help="break down by an item or candidate field (repeatable)")  # fmt: skip
    _common(s)

    c = sub.add_parser("compare", help="two runs paired by item and sample: B - A")
    c.add_argument("run_a", help="results JSONL of run A")
    c.add_argument("run_b", help="results JSONL of run B")
    c.add_argument("--score", default=None,
                   help="also compare this numeric field (e.g. a 1-5 judge score)")  # fmt: skip
    c.add_argument("--labels", nargs=2, default=("A", "B"), metavar=("A", "B"))
    c.add_argument("--select-a", default=None, metavar="FIELD=VALUE",
                   help="keep only these records of run A (e.g. model=m1)")  # fmt: skip
    c.add_argument("--select-b", default=None, metavar="FIELD=VALUE")
    c.add_argument("--pair-by", choices=("sample", "item"), default="sample",
                   help="item: the k-th record of an item in A pairs with its k-th in B "
                   "(two models in one results file)")  # fmt: skip
    c.add_argument("--resamples", type=int, default=10000)
    c.add_argument("--seed", type=int, default=0)
    _common(c)

    a = sub.add_parser("audit", help="the false-fail audit: draw a sample, estimate from labels")
    asub = a.add_subparsers(dest="audit_command", required=True)
    sample = asub.add_parser("sample", help="draw failures to review, stratified by cause")
    sample.add_argument("results")
    sample.add_argument("--n", type=int, default=50, help="failures to draw")
    sample.add_argument("--allocation", choices=("proportional", "neyman"),
                        default="proportional")  # fmt: skip
    sample.add_argument("--passes", type=int, default=0, help="also draw this many passes")
    sample.add_argument("--seed", type=int, default=0)
    sample.add_argument("--out", required=True, help="JSONL to fill with false_fail: true|false")
    _common(sample)
    estimate = asub.add_parser("estimate", help="corrected pass rate from a labelled sample")
    estimate.add_argument("results")
    estimate.add_argument("labels", help="the sample file with false_fail filled in")
    estimate.add_argument("--resamples", type=int, default=10000)
    estimate.add_argument("--seed", type=int, default=0)
    _common(estimate)

    r = sub.add_parser("report", help="a self-contained HTML report")
    r.add_argument("results")
    r.add_argument("--html", required=True, help="file to write")
    r.add_argument("--labels", default=None, help="a labelled audit sample to include")
    r.add_argument("--compare", default=None, metavar="RESULTS_B",
                   help="another run to compare with (this one is A)")  # fmt: skip
    r.add_argument("--score", default=None)
    r.add_argument("--by", action="append", default=[], metavar="FIELD")
    r.add_argument("--title", default=None)
    r.add_argument("--gold-audit", default=None, metavar="AUDIT_JSONL",
                   help="records of `sqlequiv audit-gold` to add as a section (records of "
                   "it in RESULTS are shown too)")  # fmt: skip
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--confidence", type=float, default=0.95)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--json", action="store_true", help="print JSON")


def _records(path: str) -> list[dict[str, Any]]:
    if not Path(path).is_file():
        raise OSError(f"no such results file: {path}")
    return latest_records(read_results(path))  # a retried pair counts once


def _raw_records(path: str) -> list[dict[str, Any]]:
    if not Path(path).is_file():
        raise OSError(f"no such results file: {path}")
    return read_results(path)


def _split_audit(
    raw: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Grading records (one per pair, the last line winning) and gold-audit records."""
    audit = [r for r in raw if is_audit_record(r)]
    return latest_records([r for r in raw if not is_audit_record(r)]), audit


def run_stats(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv stats``: the pass rate with its interval, causes, errors and groups."""
    stats = run_statistics(_records(args.results), by=args.by, confidence=args.confidence)
    _print(stats, args.json, render_run_statistics)
    return 0


def run_compare(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv compare``: run B against run A, paired by item and sample."""
    run_a = _select(_records(args.run_a), args.select_a)
    run_b = _select(_records(args.run_b), args.select_b)
    if args.pair_by == "item":
        run_a, run_b = _by_item(run_a), _by_item(run_b)
    comparison = compare_runs(
        run_a,
        run_b,
        score=args.score,
        confidence=args.confidence,
        n_resamples=args.resamples,
        seed=args.seed,
        label_a=args.labels[0],
        label_b=args.labels[1],
    )
    _print(comparison, args.json, render_comparison)
    return 0


def run_audit_sample(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv audit sample``: draw failures (and passes) to review, stratified by cause."""
    records = _records(args.results)
    rows = audit_sample(records, args.n, allocation=args.allocation, seed=args.seed,
                        include_passes=args.passes)  # fmt: skip
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r, default=str) + "\n" for r in rows), encoding="utf-8")
    plan = audit_plan(records, args.n, allocation=args.allocation)
    if args.json:
        print(json.dumps({**plan, "written": str(out), "rows": len(rows)}, indent=2))
    else:
        print(render_audit_plan(plan))
        print(f"\nwrote {len(rows)} rows to {out}: set false_fail (false_pass for passes) "
              "to true or false, then run `sqlequiv audit estimate`")  # fmt: skip
    return 0


def run_audit_estimate(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv audit estimate``: the corrected pass rate from a labelled sample."""
    estimate = audit_estimate(
        _records(args.results), read_labels(args.labels), args.confidence,
        args.resamples, args.seed,
    )  # fmt: skip
    _print(estimate, args.json, render_audit_estimate)
    return 0


def run_report(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv report``: a self-contained HTML report (``argv`` is shown as its command)."""
    records, gold_audit = _split_audit(_raw_records(args.results))
    if args.gold_audit:
        gold_audit += _split_audit(_raw_records(args.gold_audit))[1]
    stats = (
        run_statistics(records, by=args.by, confidence=args.confidence)
        if records or not gold_audit
        else {}
    )
    audit = None
    if args.labels:
        audit = audit_estimate(records, read_labels(args.labels), args.confidence, seed=args.seed)
    comparison = None
    if args.compare:
        comparison = compare_runs(records, _records(args.compare), score=args.score,
                                  confidence=args.confidence, seed=args.seed)  # fmt: skip
    anomalies_file = Path(args.results).parent / "anomalies.json"
    anomalies = None
    if anomalies_file.is_file():
        try:
            anomalies = json.loads(anomalies_file.read_text(encoding="utf-8")).get("anomalies")
        except (ValueError, AttributeError):
            anomalies = None
    data = ReportData(
        title=args.title or f"sqlequiv report: {Path(args.results).name}",
        statistics=stats,
        records=records,
        audit=audit,
        comparison=comparison,
        generated_at=dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        command="sqlequiv " + shlex.join(argv),
        source=str(args.results),
        anomalies=anomalies,
        gold_audit=gold_audit or None,
    )
    path = write_report(data, args.html)
    print(f"wrote {path}")
    return 0


def _select(records: list[dict[str, Any]], spec: str | None) -> list[dict[str, Any]]:
    """The records whose FIELD (candidate, item or record field) equals VALUE."""
    if spec is None:
        return records
    field, sep, value = spec.partition("=")
    if not sep or not field:
        raise StatsError([f"--select-a/--select-b: expected FIELD=VALUE, not {spec!r}"])
    return [r for r in records if value in field_values(r, field)]


def _by_item(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records renumbered 0, 1, ... within each item (file order), so runs pair by item."""
    seen: dict[str, int] = {}
    renumbered = []
    for record in records:
        item = str(record.get("item_id"))
        renumbered.append({**record, "sample": seen.get(item, 0)})
        seen[item] = seen.get(item, 0) + 1
    return renumbered


def _print(result: dict[str, Any], as_json: bool, render: Any) -> None:
    if as_json:
        print(json.dumps(result, indent=2, default=str))
    else:
        print(render(result))
