"""The summary of a benchmark run: execution accuracy beside sqlequiv's verdicts.

Every rate comes with its Wilson interval (:func:`sqlequiv.stats.intervals.wilson`)
and the counts it is computed from:

* **execution accuracy**: the evaluator's own number (Spider's or BIRD's rule on
  the shipped database); an item it would not score (Spider's gold fails) counts
  as not passed, and is counted separately;
* **sqlequiv, proved**: items proved equivalent to the gold on every database
  the schema allows — a lower bound on the true accuracy;
* **sqlequiv, proved or unresolved**: unknown verdicts counted as passes — the
  lenient variant;
* **execution accuracy, corrected**: sqlequiv's decision where it has one (a
  proof passes, a verified counterexample fails), the execution match
  elsewhere;

and the disagreements, by item index: *false passes* (execution match passes,
a verified counterexample refutes) and *false fails* (execution match fails,
equivalence is proved).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from sqlequiv.stats.intervals import wilson
from sqlequiv.text2sql.item import CATEGORIES, BenchmarkRecordJSON, as_benchmark_record

#: BIRD's difficulty levels, in its evaluator's order.
_DIFFICULTIES = ("simple", "moderate", "challenging")
_VERDICTS = ("equivalent", "not_equivalent", "unknown", "error")
#: Disagreements listed one per line in the readable summary.
_SHOWN = 20


def _rate(successes: int, n: int, confidence: float) -> dict[str, Any]:
    if n == 0:
        return {
            "passed": 0,
            "n": 0,
            "rate": None,
            "lo": None,
            "hi": None,
            "method": "wilson",
            "confidence": confidence,
        }
    lo, hi = wilson(successes, n, confidence)
    return {
        "passed": successes,
        "n": n,
        "rate": successes / n,
        "lo": lo,
        "hi": hi,
        "method": "wilson",
        "confidence": confidence,
    }


def _verdict(record: BenchmarkRecordJSON) -> str:
    """The verdict, with a counterexample that breaks a constraint of the real database
    (``replay.illegal``) counted as no refutation."""
    verdict = str(record.get("verdict"))
    replay = record.get("replay")
    if verdict == "not_equivalent" and isinstance(replay, Mapping) and replay.get("illegal"):
        return "unknown"
    return verdict


def _corrected_pass(record: BenchmarkRecordJSON) -> bool:
    verdict = _verdict(record)
    if verdict == "equivalent":
        return True
    if verdict == "not_equivalent":
        return False
    return record.get("exec_match") is True


def _rates(records: list[BenchmarkRecordJSON], confidence: float) -> dict[str, Any]:
    n = len(records)
    return {
        "execution_accuracy": _rate(
            sum(r.get("exec_match") is True for r in records), n, confidence
        ),
        "sqlequiv_proved": _rate(
            sum(r.get("verdict") == "equivalent" for r in records), n, confidence
        ),
        "sqlequiv_proved_or_unresolved": _rate(
            sum(_verdict(r) in ("equivalent", "unknown") for r in records), n, confidence
        ),
        "corrected_execution_accuracy": _rate(
            sum(_corrected_pass(r) for r in records), n, confidence
        ),
    }


def summarize_benchmark(
    records: Iterable[Mapping[str, Any]],
    *,
    benchmark: str | None = None,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """The machine-readable summary of a run's records.

    Example:
        >>> s = summarize_benchmark([
        ...     {"index": 0, "exec_match": True, "verdict": "not_equivalent",
        ...      "category": "false_pass", "cause": "missing_rows"},
        ...     {"index": 1, "exec_match": False, "verdict": "equivalent",
        ...      "category": "false_fail"},
        ...     {"index": 2, "exec_match": True, "verdict": "equivalent",
        ...      "category": "agree_pass"}])
        >>> s["execution_accuracy"]["passed"], s["corrected_execution_accuracy"]["passed"]
        (2, 2)
        >>> s["false_passes"], s["false_fails"]
        ([0], [1])
    """
    rows = sorted(map(as_benchmark_record, records), key=lambda r: int(r.get("index") or 0))
    categories = Counter(str(r.get("category")) for r in rows)
    table: dict[str, dict[str, int]] = {
        key: dict.fromkeys(_VERDICTS, 0) for key in ("pass", "fail", "not_scored")
    }
    for r in rows:
        match = r.get("exec_match")
        key = "pass" if match is True else "fail" if match is False else "not_scored"
        verdict = _verdict(r)
        if verdict in table[key]:
            table[key][verdict] += 1
    refuted_causes = Counter(str(r.get("cause")) for r in rows if _verdict(r) == "not_equivalent")
    false_pass_causes = Counter(
        str(r.get("cause")) for r in rows if r.get("category") == "false_pass"
    )
    errors = Counter(
        f"{(r.get('error') or {}).get('side')}: {(r.get('error') or {}).get('kind')}"
        for r in rows
        if r.get("verdict") == "error"
    )
    methods = Counter(str(r.get("method")) for r in rows if r.get("verdict") == "equivalent")
    replays = Counter(
        _replay_key(r.get("replay")) for r in rows if r.get("category") == "false_pass"
    )
    summary: dict[str, Any] = {
        "benchmark": benchmark or (rows[0].get("benchmark") if rows else None),
        "items": len(rows),
        "databases": len({r.get("db_id") for r in rows}),
        **_rates(rows, confidence),
        "verdicts": dict(Counter(str(r.get("verdict")) for r in rows)),
        "proved_by_method": dict(methods),
        "categories": {c: categories.get(c, 0) for c in CATEGORIES},
        "exec_by_verdict": table,
        "false_passes": [r.get("index") for r in rows if r.get("category") == "false_pass"],
        "false_fails": [r.get("index") for r in rows if r.get("category") == "false_fail"],
        "disagreements": [
            {
                "index": r.get("index"),
                "category": r.get("category"),
                "db_id": r.get("db_id"),
                "cause": r.get("cause"),
                "method": r.get("method"),
                "detail": r.get("detail")
                if r.get("category") == "false_pass"
                else (r.get("exec") or {}).get("detail"),
            }
            for r in rows
            if r.get("category") in ("false_pass", "false_fail")
        ],
        "unresolved": [
            r.get("index")
            for r in rows
            if r.get("category") in ("unresolved_pass", "unresolved_fail")
        ],
        "false_passes_by_cause": dict(false_pass_causes),
        "false_passes_by_realism": dict(Counter(
            str((r.get("counterexample") or {}).get("realism"))
            for r in rows if r.get("category") == "false_pass"
        )),
        "false_passes_replayed": dict(replays),
        "illegal_counterexamples": [
            r.get("index") for r in rows if (r.get("replay") or {}).get("illegal")
        ],
        "refuted_by_cause": dict(refuted_causes),
        "errors_by_kind": dict(errors),
        "exec": _exec_counts(rows),
        "by_difficulty": _by_difficulty(rows, confidence),
    }
    return summary


def _replay_key(replay: Any) -> str:
    if not isinstance(replay, Mapping):
        return "not_replayed"
    match = replay.get("evaluator_match")
    if match is False:
        return "evaluator_fails_too"
    if match is True:
        return "evaluator_rule_blind"
    return "not_replayed"


def _exec_counts(rows: list[BenchmarkRecordJSON]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for r in rows:
        info = r.get("exec") or {}
        if info.get("pred_error"):
            counts["pred_errors"] += 1
            if str(info.get("pred_error")).startswith("timeout"):
                counts["pred_timeouts"] += 1
        if info.get("gold_error"):
            counts["gold_errors"] += 1
        if r.get("exec_match") is None:
            counts["not_scored"] += 1
        search = info.get("permutation_search") or {}
        if search.get("capped"):
            counts["permutation_search_capped"] += 1
        if info.get("order_matters"):
            counts["order_sensitive"] += 1
    keys = (
        "pred_errors",
        "pred_timeouts",
        "gold_errors",
        "not_scored",
        "permutation_search_capped",
        "order_sensitive",
    )
    return {k: counts.get(k, 0) for k in keys}


def _by_difficulty(rows: list[BenchmarkRecordJSON], confidence: float) -> dict[str, Any]:
    levels = [str(r.get("difficulty")) for r in rows if r.get("difficulty") is not None]
    if not levels:
        return {}
    order = [d for d in _DIFFICULTIES if d in levels] + sorted(set(levels) - set(_DIFFICULTIES))
    out = {}
    for level in order:
        group = [r for r in rows if str(r.get("difficulty")) == level]
        out[level] = {
            **_rates(group, confidence),
            "false_passes": sum(r.get("category") == "false_pass" for r in group),
            "false_fails": sum(r.get("category") == "false_fail" for r in group),
        }
    return out


# -- the readable table ------------------------------------------------------------------------


def _pct(rate: Mapping[str, Any]) -> str:
    if rate.get("rate") is None:
        return "-"
    level = round(100 * float(rate["confidence"]))
    return (
        f"{100 * rate['rate']:.1f}% ({rate['passed']}/{rate['n']}) "
        f"[{100 * rate['lo']:.1f}%, {100 * rate['hi']:.1f}%] (Wilson {level}%)"
    )


def _indexes(indexes: list[Any], limit: int = 30) -> str:
    shown = " ".join(f"#{i}" for i in indexes[:limit])
    return shown + (f" ... (+{len(indexes) - limit})" if len(indexes) > limit else "")


def render_benchmark_summary(summary: Mapping[str, Any]) -> str:
    """The summary as a table a person reads (and can quote)."""
    rule = {"spider": "Spider test-suite rule", "bird": "BIRD rule"}.get(
        str(summary.get("benchmark")), "evaluator's rule"
    )
    w = 46
    lines = [
        f"{'items':<{w}}{summary['items']} ({_n(summary['databases'], 'database')})",
        f"{'execution accuracy (' + rule + ')':<{w}}{_pct(summary['execution_accuracy'])}",
        f"{'sqlequiv: proved equivalent':<{w}}{_pct(summary['sqlequiv_proved'])}",
        f"{'sqlequiv: proved or unresolved':<{w}}{_pct(summary['sqlequiv_proved_or_unresolved'])}",
        f"{'corrected execution accuracy':<{w}}{_pct(summary['corrected_execution_accuracy'])}",
        "  (proved: pass; refuted by a verified counterexample: fail; else the execution match)",
        "",
        f"{'':<22}{'proved':>8}{'refuted':>9}{'unknown':>9}{'error':>7}",
    ]
    labels = {
        "pass": "execution match pass",
        "fail": "execution match fail",
        "not_scored": "not scored",
    }
    for key, label in labels.items():
        row = summary["exec_by_verdict"][key]
        if key == "not_scored" and not any(row.values()):
            continue
        lines.append(
            f"{label:<22}{row['equivalent']:>8}{row['not_equivalent']:>9}"
            f"{row['unknown']:>9}{row['error']:>7}"
        )
    lines.append("")
    fp, ff = summary["false_passes"], summary["false_fails"]
    lines.append(
        f"false passes: {len(fp)}  (execution match passes; a verified counterexample refutes)"
    )
    if fp:
        lines.append(f"  items {_indexes(fp)}")
        causes = ", ".join(f"{c} {n}" for c, n in sorted(summary["false_passes_by_cause"].items()))
        lines.append(f"  by cause: {causes}")
        tiers = summary.get("false_passes_by_realism") or {}
        if any(t in tiers for t in ("on_data", "realistic", "edge")):
            lines.append(
                f"  against the benchmark's own database: {tiers.get('realistic', 0)} with a "
                f"realistic counterexample (every fact its data shows holds), "
                f"{tiers.get('edge', 0)} only on an edge case (a fact of the data broken)"
            )
        replayed = summary["false_passes_replayed"]
        lines.append(
            "  replayed on the counterexample database, the evaluator's own rule fails "
            f"{replayed.get('evaluator_fails_too', 0)} of them"
        )
        blind = replayed.get("evaluator_rule_blind", 0)
        if blind:
            lines.append(
                f"  and cannot see the difference in {blind} (duplicates, row order, DISTINCT)"
            )
    lines.append(f"false fails: {len(ff)}  (execution match fails; equivalence is proved)")
    if ff:
        lines.append(f"  items {_indexes(ff)}")
    shown = summary["disagreements"][:_SHOWN]
    if shown:
        lines.append("")
        for d in shown:
            kind = "false pass" if d["category"] == "false_pass" else "false fail"
            why = d["cause"] if d["category"] == "false_pass" else f"proved: {d['method']}"
            lines.append(f"  #{d['index']} {kind} ({d['db_id']}, {why})")
            lines.append(f"     {_clip(d['detail'])}")
        more = len(summary["disagreements"]) - len(shown)
        if more > 0:
            lines.append(f"  ... {more} more in the results file")
    unresolved = summary["unresolved"]
    if unresolved:
        lines.append(f"unresolved: {len(unresolved)}  (neither proved nor refuted)")
        lines.append(f"  items {_indexes(unresolved)}")
    illegal = summary["illegal_counterexamples"]
    if illegal:
        lines.append(
            f"not counted as refuted: {len(illegal)}  (the counterexample breaks a constraint "
            "of the real database; schema from tables.json)"
        )
        lines.append(f"  items {_indexes(illegal)}")
    if summary["refuted_by_cause"]:
        lines.append("")
        lines.append("refuted, by cause:")
        for cause, n in sorted(summary["refuted_by_cause"].items(), key=lambda kv: -kv[1]):
            lines.append(f"  {cause:<40}{n}")
    if summary["errors_by_kind"]:
        lines.append("sqlequiv errors, by kind:")
        for kind, n in sorted(summary["errors_by_kind"].items(), key=lambda kv: -kv[1]):
            lines.append(f"  {kind:<40}{n}")
    ex = summary["exec"]
    notes = [
        f"{_n(ex['pred_errors'], 'prediction')} {_verb(ex['pred_errors'], 'fails')} to run "
        f"({ex['pred_timeouts']} time out)",
        f"{_n(ex['order_sensitive'], 'gold query', 'gold queries')} "
        f"{_verb(ex['order_sensitive'], 'makes')} row order count",
    ]
    if ex["gold_errors"]:
        notes.append(
            f"{_n(ex['gold_errors'], 'gold query', 'gold queries')} "
            f"{_verb(ex['gold_errors'], 'fails')} to run"
        )
    if ex["permutation_search_capped"]:
        capped = _n(ex["permutation_search_capped"], "search", "searches")
        notes.append(f"{capped} over column permutations capped (the evaluator would hang)")
    lines.append("execution: " + "; ".join(notes))
    if summary["by_difficulty"]:
        lines.append("")
        lines.append(
            f"{'difficulty':<14}{'n':>5}{'exec acc':>10}{'proved':>9}{'corrected':>11}"
            f"{'false pass':>12}{'false fail':>12}"
        )
        for level, group in summary["by_difficulty"].items():
            n = group["execution_accuracy"]["n"]
            lines.append(
                f"{level:<14}{n:>5}"
                f"{_short(group['execution_accuracy']):>10}"
                f"{_short(group['sqlequiv_proved']):>9}"
                f"{_short(group['corrected_execution_accuracy']):>11}"
                f"{group['false_passes']:>12}{group['false_fails']:>12}"
            )
    return "\n".join(lines)


def _n(count: int, noun: str, plural: str | None = None) -> str:
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def _clip(value: Any, width: int = 95) -> str:
    text = " ".join(str(value or "").split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _verb(count: int, singular: str) -> str:
    return singular if count == 1 else singular[:-1]


def _short(rate: Mapping[str, Any]) -> str:
    return "-" if rate.get("rate") is None else f"{100 * rate['rate']:.1f}%"
