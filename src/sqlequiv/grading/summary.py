"""The end-of-run summary: pass rate, failures by cause, unknowns, errors by kind, anomalies.

The pass rate counts every graded pair except those of anomalous items
(which are neither passes nor failures of the candidate): a candidate that
does not parse or execute counts as not passed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from sqlequiv.grading.record import as_record


class GradeSummary(TypedDict):
    """What :func:`summarize_grades` returns, key for key, in the order it is printed
    as JSON (``sqlequiv grade --json``); typed so its readers (the text table, the
    report, the CLI) cannot misname a count."""

    pairs: int
    items: int
    graded: int
    passed: int
    pass_rate: float | None
    proved_passes: int
    unrefuted_passes: int
    failed: int
    failures_by_cause: dict[str, int]
    #: With a suite's ``data:``: the failures by how realistic their counterexample is
    #: (``on_data``, ``realistic``, ``edge``; docs/data.md); empty without data.
    failures_by_realism: dict[str, int]
    unknown: int
    errors: int
    errors_by_kind: dict[str, int]
    anomalous_pairs: int
    anomalous_items: list[str]


#: The tiers of a counterexample sorted against the user's data, most realistic first.
_TIERS = ("on_data", "realistic", "edge")


def summarize_grades(records: Iterable[Mapping[str, Any]]) -> GradeSummary:
    """Counts for a run.

    Example:
        >>> s = summarize_grades([{"status": "pass", "proved": True}, {"status": "fail",
        ...     "cause": "grain"}, {"status": "anomaly", "item_id": "q9"}])
        >>> s["graded"], s["passed"], s["pass_rate"], s["failures_by_cause"]
        (2, 1, 0.5, {'grain': 1})
    """
    status: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    proved = unrefuted = 0
    anomalous_items: set[str] = set()
    items: set[str] = set()
    for record in map(as_record, records):
        kind = str(record.get("status"))
        status[kind] += 1
        items.add(str(record.get("item_id")))
        if kind == "pass":
            if record.get("proved"):
                proved += 1
            else:
                unrefuted += 1
        elif kind == "fail":
            cause = record.get("cause")
            if cause is None:
                cause = "predicate" if record.get("method") == "predicate" else "unclassified"
            causes[str(cause)] += 1
            realism = (record.get("counterexample") or {}).get("realism")
            if realism is not None:
                tiers[str(realism)] += 1
        elif kind == "error":
            error = record.get("error") or {}
            errors[str(error.get("kind") or "unknown")] += 1
        elif kind == "anomaly":
            anomalous_items.add(str(record.get("item_id")))
    graded = sum(n for s, n in status.items() if s != "anomaly")
    return {
        "pairs": sum(status.values()),
        "items": len(items),
        "graded": graded,
        "passed": status["pass"],
        "pass_rate": status["pass"] / graded if graded else None,
        "proved_passes": proved,
        "unrefuted_passes": unrefuted,
        "failed": status["fail"],
        "failures_by_cause": dict(causes.most_common()),
        "failures_by_realism": {t: tiers[t] for t in _TIERS if t in tiers},
        "unknown": status["unknown"],
        "errors": status["error"],
        "errors_by_kind": dict(errors.most_common()),
        "anomalous_pairs": status["anomaly"],
        "anomalous_items": sorted(anomalous_items),
    }


def render_grade_summary(summary: GradeSummary, anomalies: int | None = None) -> str:
    """The summary as an aligned text table."""
    graded = summary["graded"]
    rate = summary["pass_rate"]
    rows: list[tuple[str, str]] = [
        ("pairs", f"{summary['pairs']} ({summary['items']} items)"),
        (
            "pass rate",
            f"{rate:.1%} ({summary['passed']}/{graded})" if rate is not None else "- (none graded)",
        ),
        ("  proved", str(summary["proved_passes"])),
        ("  unrefuted", str(summary["unrefuted_passes"])),
        ("fail", str(summary["failed"])),
    ]
    rows += [(f"  {cause}", str(n)) for cause, n in summary["failures_by_cause"].items()]
    tiers = summary.get("failures_by_realism") or {}
    if tiers:  # a suite with data: how realistic each failure's counterexample is
        rows.append(("  by realism", ", ".join(f"{t} {n}" for t, n in tiers.items())))
    rows.append(("unknown", str(summary["unknown"])))
    rows.append(("error", str(summary["errors"])))
    rows += [(f"  {kind}", str(n)) for kind, n in summary["errors_by_kind"].items()]
    items = summary["anomalous_items"]
    shown = ", ".join(items[:5]) + (", ..." if len(items) > 5 else "")
    rows.append(
        ("anomaly", f"{summary['anomalous_pairs']} pairs" + (f" (items {shown})" if items else ""))
    )
    if anomalies is not None:
        rows.append(("item anomalies", f"{anomalies} (see anomalies.json)"))
    width = max(len(label) for label, _ in rows)
    return "\n".join(f"{label.ljust(width)}  {value}" for label, value in rows)


@dataclass
class RunResult:
    """What a run did: the summary over every record of its candidates, old and new."""

    summary: GradeSummary
    graded_now: int
    resumed: int
    anomalies: list[dict[str, Any]]
    seconds: float
    interrupted: bool = False
    workers_replaced: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def pairs_per_second(self) -> float:
        return self.graded_now / self.seconds if self.seconds > 0 else 0.0


def render_run(result: RunResult, out: Path) -> str:
    """What ``sqlequiv grade`` prints at the end of a run."""
    head = (
        f"graded {result.graded_now} pairs in {result.seconds:.1f} s "
        f"({result.pairs_per_second:.2f} pairs/s)"
    )
    if result.resumed:
        head += f"; {result.resumed} already in {out.name}"
    if result.workers_replaced:
        head += f"; {result.workers_replaced} workers replaced"
    lines = [head, "", render_grade_summary(result.summary, len(result.anomalies))]
    if result.anomalies:
        lines.append("")
        lines.append("item anomalies:")
        for anomaly in result.anomalies[:20]:
            ref = f" [{anomaly['reference']}]" if anomaly.get("reference") else ""
            lines.append(
                f"  {anomaly['item_id']}{ref}: {anomaly['kind']} ({anomaly['severity']}): "
                f"{anomaly['detail']}"
            )
        if len(result.anomalies) > 20:
            lines.append(f"  ... {len(result.anomalies) - 20} more in anomalies.json")
    return "\n".join(lines)
