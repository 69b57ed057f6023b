"""Plain-text renderings of the statistics for a terminal: aligned, every interval with its method.

Each ``render_*`` takes the dict one of the statistics functions returns
and gives lines of ``label  value``, with every interval followed by the
method and level that produced it, e.g. ``57.8% [43.3%, 71.0%] (Wilson 95%)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "render_audit_estimate",
    "render_audit_plan",
    "render_comparison",
    "render_run_statistics",
]

#: Lines are broken at spaces to stay within this many characters.
WIDTH = 88

_METHODS = {
    "wilson": "Wilson",
    "paired-bootstrap-percentile": "paired bootstrap, percentile",
    "paired-bootstrap-bca": "paired bootstrap, BCa",
    "bootstrap-percentile": "bootstrap, percentile",
    "bootstrap-bca": "bootstrap, BCa",
    "sign-flip-exact": "sign-flip permutation test, exact",
    "sign-flip-monte-carlo": "sign-flip permutation test, Monte Carlo",
}


def _method(name: str | None) -> str:
    return _METHODS.get(name or "", name or "-")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _interval(ci: Sequence[float] | None, method: str, confidence: float) -> str:
    if ci is None:
        return ""
    return f" [{_pct(ci[0])}, {_pct(ci[1])}] ({_method(method)} {confidence:.0%})"


def _table(rows: Sequence[tuple[str, str]]) -> list[str]:
    width = max((len(label) for label, _ in rows), default=0)
    return [f"{label.ljust(width)}  {value}".rstrip() for label, value in rows]


def render_run_statistics(stats: Mapping[str, Any]) -> str:
    """The statistics of a run (:func:`~sqlequiv.stats.runs.run_statistics`) as text.

    Example:
        >>> from sqlequiv.stats.runs import run_statistics
        >>> recs = ([{"item_id": f"q{i}", "sample": 0, "status": "pass", "proved": i < 10,
        ...           "item_meta": {"difficulty": "easy" if i % 2 else "hard"}} for i in range(26)]
        ...         + [{"item_id": f"f{i}", "sample": 0, "status": "fail", "cause": "grain"}
        ...            for i in range(19)])
        >>> print(render_run_statistics(run_statistics(recs, by=["difficulty"])))
        pairs           45 (45 items)
        pass rate       57.8% (26/45) [43.3%, 71.0%] (Wilson 95%)
          proved        22.2% (10/45) [12.5%, 36.3%] (Wilson 95%)
          unrefuted     35.6% (16/45) [23.2%, 50.2%] (Wilson 95%)
        fail            19
          grain         19
        unknown         0
        error           0
        anomaly         0 pairs
        by difficulty:
          (missing)     0.0% (0/19) [0.0%, 16.8%] (Wilson 95%)
          easy          100.0% (13/13) [77.2%, 100.0%] (Wilson 95%)
          hard          100.0% (13/13) [77.2%, 100.0%] (Wilson 95%)
        note: an unrefuted pass survived every fixture and generated database without a proof; a
        proved pass is equivalent on every database the schema allows.
    """
    conf = stats["confidence"]
    method = stats["ci_method"]
    graded = stats["graded"]

    def rate(k: int, value: float | None, ci: Sequence[float] | None) -> str:
        if value is None:
            return "- (none graded)"
        return f"{_pct(value)} ({k}/{graded})" + _interval(ci, method, conf)

    rows: list[tuple[str, str]] = [
        ("pairs", f"{stats['n_records']} ({stats['items']} items)"),
        ("pass rate", rate(stats["passed"], stats["pass_rate"], stats["pass_rate_ci"])),
        (
            "  proved",
            rate(stats["proved_passes"], stats["proved_rate"], stats["proved_rate_ci"]),
        ),
        (
            "  unrefuted",
            rate(stats["unrefuted_passes"], stats["unrefuted_rate"], stats["unrefuted_rate_ci"]),
        ),
        ("fail", str(stats["failed"])),
    ]
    rows += [(f"  {cause}", str(n)) for cause, n in stats["failures_by_cause"].items()]
    tiers = stats.get("failures_by_realism") or {}
    if tiers:
        rows.append(("  by realism", ", ".join(f"{t} {n}" for t, n in tiers.items())))
    rows.append(("unknown", str(stats["unknown"])))
    rows.append(("error", str(stats["errors"])))
    rows += [(f"  {kind}", str(n)) for kind, n in stats["errors_by_kind"].items()]
    items = stats["anomalous_items"]
    shown = ", ".join(items[:5]) + (", ..." if len(items) > 5 else "")
    rows.append(
        ("anomaly", f"{stats['anomalous_pairs']} pairs" + (f" (items {shown})" if items else ""))
    )
    for name, groups in stats["groups"].items():
        rows.append((f"by {name}:", ""))
        for value, cell in groups.items():
            text = (
                f"{_pct(cell['pass_rate'])} ({cell['passed']}/{cell['graded']})"
                + _interval(cell["pass_rate_ci"], method, conf)
                if cell["pass_rate"] is not None
                else "- (none graded)"
            )
            rows.append((f"  {value}", text))
    lines = _table(rows)
    for note in stats["notes"]:
        lines += _split(f"note: {note}")
    return "\n".join(lines)


def _split(text: str, width: int = WIDTH) -> list[str]:
    """Break a long sentence at spaces so no line passes ``width``."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def _number(value: float | None, percent: bool, signed: bool = False) -> str:
    if value is None:
        return "-"
    if percent:
        return f"{value * 100:+.1f} pts" if signed else f"{value:.1%}"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def render_comparison(comparison: Mapping[str, Any]) -> str:
    """A paired comparison (:func:`~sqlequiv.stats.paired.compare_runs`) as text.

    Example:
        >>> from sqlequiv.stats.paired import compare_runs
        >>> a = [{"item_id": f"q{i}", "sample": 0, "status": "pass" if i % 2 else "fail"}
        ...      for i in range(40)]
        >>> b = [{"item_id": f"q{i}", "sample": 0, "status": "pass" if i % 4 else "fail"}
        ...      for i in range(40)]
        >>> print(render_comparison(compare_runs(a, b, n_resamples=2000)))
        runs          A: 40 pairs, B: 40 pairs, paired 40 (only in A 0, only in B 0)
        pass rate     A 50.0%, B 75.0% (n = 40)
          B - A       +25.0 pts [+12.5 pts, +37.5 pts] (paired bootstrap, percentile 95%)
          p-value     0.00195 (sign-flip permutation test, exact)
          discordant  A only 0, B only 10
          verdict     B is better: pass rate 75.0% (B) vs 50.0% (A), B - A +25.0 pts [+12.5 pts,
                      +37.5 pts] (95% paired bootstrap), sign-flip p = 0.00195
        note: only 40 pairs: in simulation (benchmarks/stats_coverage.py) the 95% paired
        bootstrap interval of a pass-rate difference covered about 89% of the time at 20 pairs
        and 91-93% at 50, so a narrow win at this size deserves a second look.
    """
    labels = comparison["labels"]
    la, lb = labels["a"], labels["b"]
    rows: list[tuple[str, str]] = [
        (
            "runs",
            f"{la}: {comparison['n_a']} pairs, {lb}: {comparison['n_b']} pairs, "
            f"paired {comparison['paired']} (only in {la} {len(comparison['only_in_a'])}, "
            f"only in {lb} {len(comparison['only_in_b'])})",
        )
    ]
    for key, metric in comparison["metrics"].items():
        percent = key == "pass_rate"
        rows.append(
            (
                metric["metric"],
                f"{la} {_number(metric['mean_a'], percent)}, {lb} "
                f"{_number(metric['mean_b'], percent)} (n = {metric['n']})",
            )
        )
        if metric["ci"] is not None:
            lo, hi = metric["ci"]
            rows.append(
                (
                    f"  {metric['direction']}",
                    f"{_number(metric['difference'], percent, True)} "
                    f"[{_number(lo, percent, True)}, {_number(hi, percent, True)}] "
                    f"({_method(metric['ci_method'])} {metric['confidence']:.0%})",
                )
            )
            rows.append(
                ("  p-value", f"{metric['p_value']:.3g} ({_method(metric['test_method'])})")
            )
        if "discordant" in metric:
            d = metric["discordant"]
            rows.append(("  discordant", f"{la} only {d['a_only']}, {lb} only {d['b_only']}"))
        if metric.get("excluded"):
            rows.append(("  excluded", f"{len(metric['excluded'])} pairs (anomalies)"))
        if metric.get("missing"):
            rows.append(("  missing", f"{len(metric['missing'])} pairs without a score"))
        rows.append(("  verdict", metric["verdict"]))
        if metric.get("note"):
            rows.append(("  note", metric["note"]))
    width = max(len(label) for label, _ in rows)
    lines: list[str] = []
    for label, value in rows:
        parts = _split(value, WIDTH - width - 2)
        lines.append(f"{label.ljust(width)}  {parts[0]}")
        lines += [f"{' ' * width}  {part}" for part in parts[1:]]
    for name, key in ((la, "only_in_a"), (lb, "only_in_b")):
        keys = comparison[key]
        if keys:
            shown = ", ".join(f"{i}#{s}" for i, s in keys[:5]) + (", ..." if len(keys) > 5 else "")
            lines.append(f"only in {name}: {shown}")
    for note in comparison["notes"]:
        lines += _split(f"note: {note}")
    return "\n".join(lines)


def render_audit_plan(plan: Mapping[str, Any]) -> str:
    """An audit design (:func:`~sqlequiv.stats.audit.audit_plan`) as text.

    Example:
        >>> from sqlequiv.stats.audit import audit_plan
        >>> recs = [{"item_id": f"q{i}", "status": "fail",
        ...          "cause": "grain" if i % 3 else "projection"} for i in range(30)]
        >>> print(render_audit_plan(audit_plan(recs, 10)))
        audit sample  10 of 30 failures
        design        proportional allocation n_h ∝ N_h, largest-remainder rounding, at least 1
                      per non-empty stratum when n allows, simple random sampling within
        stratum       sampled / failures
          grain       7 / 20
          projection  3 / 10
    """
    rows: list[tuple[str, str]] = [
        ("audit sample", f"{plan['sampled']} of {plan['population']} failures"),
        ("design", plan["method"]),
        ("stratum", "sampled / failures"),
    ]
    rows += [(f"  {h}", f"{s['n']} / {s['N']}") for h, s in plan["strata"].items()]
    width = max(len(label) for label, _ in rows)
    lines: list[str] = []
    for label, value in rows:
        parts = _split(value, WIDTH - width - 2)
        lines.append(f"{label.ljust(width)}  {parts[0]}")
        lines += [f"{' ' * width}  {part}" for part in parts[1:]]
    for note in plan["notes"]:
        lines += _split(f"note: {note}")
    return "\n".join(lines)


def render_audit_estimate(estimate: Mapping[str, Any]) -> str:
    """A corrected pass rate (:func:`~sqlequiv.stats.audit.audit_estimate`) as text.

    Example:
        >>> from sqlequiv.stats.audit import audit_estimate, audit_sample
        >>> recs = ([{"item_id": f"p{i}", "sample": 0, "status": "pass"} for i in range(340)]
        ...         + [{"item_id": f"f{i}", "sample": 0, "status": "fail", "cause": "grain"}
        ...            for i in range(160)])
        >>> rows = audit_sample(recs, 50)
        >>> for i, row in enumerate(rows):
        ...     row["false_fail"] = i < 11
        >>> print(render_audit_estimate(audit_estimate(recs, rows, n_resamples=2000)))
        observed pass rate   68.0% (340/500)
        false fails found    11 of 50 labelled (160 failures)
        est. false fails     35.2
        corrected pass rate  75.0% (375.2/500)
          normal CI          [72.0%, 78.1%] (normal, stratified with FPC, 95%)
          bootstrap CI       [71.9%, 78.4%] (Rao-Wu rescaling bootstrap, percentile, 95%)
          possible range     [70.2%, 92.2%] (whatever the unlabelled records are)
        stratum              false / labelled / failures  rate    est. false fails
          grain              11 / 50 / 160                22.0%   35.2
        largest contributor  grain: 35.2 of 35.2 estimated false fails (100%)
        note: passes were not audited: the correction assumes every pass is a true pass, so it
        can only raise the pass rate.
    """
    conf = estimate["confidence"]
    graded = estimate["graded"]
    corrected_passes = estimate["corrected_pass_rate"] * graded
    strata = list(estimate["strata"])
    if estimate["pass_stratum"] is not None:
        strata.append(estimate["pass_stratum"])
    counts = [f"{s['false']} / {s['n']} / {s['N']}" for s in strata]
    width = max([len("false / labelled / failures"), *map(len, counts)])
    rows: list[tuple[str, str]] = [
        (
            "observed pass rate",
            f"{_pct(estimate['observed_pass_rate'])} ({estimate['passes']}/{graded})",
        ),
        (
            "false fails found",
            f"{estimate['false_fails_found']} of {estimate['labelled']} labelled "
            f"({estimate['audited_failures']} failures)",
        ),
        ("est. false fails", f"{estimate['estimated_false_fails']:.1f}"),
    ]
    if estimate["estimated_false_passes"] is not None:
        rows.append(("est. false passes", f"{estimate['estimated_false_passes']:.1f}"))
    lo, hi = estimate["ci"]
    blo, bhi = estimate["bootstrap_ci"]
    plo, phi = estimate["bounds"]
    rows += [
        (
            "corrected pass rate",
            f"{_pct(estimate['corrected_pass_rate'])} ({corrected_passes:.1f}/{graded})",
        ),
        (
            "  normal CI",
            f"[{_pct(lo)}, {_pct(hi)}] (normal, stratified with FPC, {conf:.0%})",
        ),
        (
            "  bootstrap CI",
            f"[{_pct(blo)}, {_pct(bhi)}] (Rao-Wu rescaling bootstrap, percentile, {conf:.0%})",
        ),
        (
            "  possible range",
            f"[{_pct(plo)}, {_pct(phi)}] (whatever the unlabelled records are)",
        ),
        ("stratum", f"{'false / labelled / failures'.ljust(width)}  rate    est. false fails"),
    ]
    for s, count in zip(strata, counts, strict=True):
        rate = _pct(s["rate"]) if s["rate"] is not None else "-"
        est = f"{s['estimated']:.1f}" if s["estimated"] is not None else "- (not sampled)"
        if s["stratum"] == "pass" and s["estimated"] is not None:
            est = f"-{s['estimated']:.1f} (false passes)"
        rows.append((f"  {s['stratum']}", f"{count.ljust(width)}  {rate.ljust(6)}  {est}"))
    top = estimate["largest_contributor"]
    if top is not None:
        rows.append(
            (
                "largest contributor",
                f"{top['stratum']}: {top['estimated_false_fails']:.1f} of "
                f"{estimate['estimated_false_fails']:.1f} estimated false fails "
                f"({top['share']:.0%})",
            )
        )
    lines = _table(rows)
    for note in estimate["notes"]:
        lines += _split(f"note: {note}")
    return "\n".join(lines)
