"""Compare two grading runs pair by pair: which one is better, and is the difference real?

Two runs over the same suite (two models, two prompts) are paired by
``(item_id, sample)``: the same item graded twice. For each metric the
difference is **B - A** (positive: the second run is higher), with a paired
bootstrap interval (:func:`~sqlequiv.stats.intervals.paired_bootstrap_diff`,
resampling pairs) and a two-sided sign-flip permutation p-value
(:func:`~sqlequiv.stats.intervals.sign_flip_test`). A run is named the
winner only when the interval excludes 0; otherwise the verdict says there
is no winner. Nothing is dropped silently: keys found in one run only, pairs
excluded because an item is anomalous, and pairs without a score are listed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from sqlequiv.grading.record import RecordJSON, as_record, latest_records, repeated_pairs
from sqlequiv.stats.intervals import (
    BootstrapMethod,
    StatsError,
    paired_bootstrap_diff,
    sign_flip_test,
)
from sqlequiv.stats.runs import lookup, record_key, validate_records

__all__ = ["compare_runs", "metric_comparison"]


def _index(records: Sequence[Mapping[str, Any]], label: str) -> dict[tuple[str, str], RecordJSON]:
    """The validated records of one run by (item, sample), typed from here on."""
    validate_records(records, what=label)
    # A retried pair's first attempt is superseded; any other repeat would be a record
    # hidden from the comparison.
    repeated = {cast(tuple[str, str], k): n for k, n in repeated_pairs(records).items()}
    if repeated:
        raise StatsError(
            [
                f"run {label}: {item} sample {sample} appears {n + 1} times"
                for (item, sample), n in sorted(repeated.items())
            ]
        )
    return {record_key(r): as_record(r) for r in latest_records(records)}


def _score(record: Mapping[str, Any], name: str) -> float | None:
    value = lookup(record, name, places=("candidate_meta",))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _fmt(value: float, percent: bool, signed: bool = False) -> str:
    if percent:
        return f"{value * 100:+.1f} pts" if signed else f"{value:.1%}"
    return f"{value:+.3g}" if signed else f"{value:.3g}"


def metric_comparison(
    a: Sequence[float],
    b: Sequence[float],
    *,
    name: str,
    label_a: str = "A",
    label_b: str = "B",
    percent: bool = False,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    method: BootstrapMethod = "percentile",
) -> dict[str, Any]:
    """Paired comparison of one metric: means, B - A with its interval, p-value, winner.

    Keys: ``metric``, ``n`` (pairs), ``mean_a``, ``mean_b``, ``difference``
    (``mean_b - mean_a``), ``direction`` (``"B - A"`` with the labels),
    ``ci`` ``[lo, hi]``, ``ci_method``, ``confidence``, ``p_value``,
    ``test_method``, ``winner`` (a label, or None unless the interval
    excludes 0), ``verdict`` (a sentence) and ``note`` (when the interval
    and the test disagree about significance at ``1 - confidence``).

    Example:
        >>> m = metric_comparison([0, 0, 1, 0, 1, 0, 0, 1] * 5, [1, 0, 1, 1, 1, 1, 0, 1] * 5,
        ...                       name="pass rate", percent=True, n_resamples=2000)
        >>> m["mean_a"], m["mean_b"], m["difference"], m["winner"]
        (0.375, 0.75, 0.375, 'B')
        >>> m["verdict"].split(":")[0]
        'B is better'
        >>> metric_comparison([1, 0], [0, 1], name="pass rate")["verdict"].split(":")[0]
        'no winner'
    """
    if len(a) != len(b):
        raise StatsError([f"{name}: {len(a)} values for {label_a} against {len(b)} for {label_b}"])
    direction = f"{label_b} - {label_a}"
    result: dict[str, Any] = {
        "metric": name,
        "n": len(a),
        "mean_a": None,
        "mean_b": None,
        "difference": None,
        "direction": direction,
        "ci": None,
        "ci_method": f"paired-bootstrap-{method}",
        "confidence": confidence,
        "p_value": None,
        "test_method": None,
        "winner": None,
        "verdict": "no winner: no pairs to compare",
        "note": None,
    }
    if not a:
        return result
    interval = paired_bootstrap_diff(
        b, a, confidence=confidence, n_resamples=n_resamples, seed=seed, method=method
    )
    test = sign_flip_test([y - x for x, y in zip(a, b, strict=True)], n_resamples, seed)
    mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
    lo, hi = interval["lo"], interval["hi"]
    winner = label_b if lo > 0 else label_a if hi < 0 else None
    shown = (
        f"{name} {_fmt(mean_b, percent)} ({label_b}) vs {_fmt(mean_a, percent)} ({label_a}), "
        f"{direction} {_fmt(mean_b - mean_a, percent, True)} "
        f"[{_fmt(lo, percent, True)}, {_fmt(hi, percent, True)}] "
        f"({confidence:.0%} paired bootstrap), sign-flip p = {test['p_value']:.3g}"
    )
    if winner is not None:
        verdict = f"{winner} is better: {shown}"
    else:
        verdict = f"no winner: the interval includes 0; {shown}"
    alpha = 1 - confidence
    note = None
    if (winner is None) != (test["p_value"] >= alpha):
        note = (
            f"the interval and the test disagree at the {alpha:g} level "
            f"(p = {test['p_value']:.3g}); the verdict follows the interval"
        )
    result.update(
        mean_a=mean_a,
        mean_b=mean_b,
        difference=mean_b - mean_a,
        ci=[lo, hi],
        p_value=test["p_value"],
        test_method=test["method"],
        winner=winner,
        verdict=verdict,
        note=note,
    )
    return result


def compare_runs(
    records_a: Iterable[Mapping[str, Any]],
    records_b: Iterable[Mapping[str, Any]],
    *,
    score: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    label_a: str = "A",
    label_b: str = "B",
    method: BootstrapMethod = "percentile",
) -> dict[str, Any]:
    """Compare two runs paired by ``(item_id, sample)``; the difference is **B - A**.

    Returned keys: ``labels`` (``{"a", "b"}``), ``n_a``, ``n_b``,
    ``paired`` (keys in both runs), ``only_in_a`` and ``only_in_b`` (sorted
    ``[item_id, sample]`` lists, never dropped silently), ``direction``,
    ``confidence``, ``n_resamples``, ``seed``, ``notes`` and ``metrics``:

    * ``metrics["pass_rate"]`` -- passed as 1, anything else graded as 0;
      a pair where either side is an anomaly is excluded and listed in
      ``excluded`` (``[{"item_id", "sample", "reason"}]``). Also
      ``discordant``: ``{"a_only": A passes and B does not, "b_only": ...}``
      (only discordant pairs move the difference).
    * ``metrics[score]`` when ``score`` is given -- a numeric field looked up
      in ``candidate_meta`` then at the top level (a dotted name reaches into
      objects, e.g. ``judge.score``), such as a 1-5 rubric score; a pair
      without a number on both sides is listed in ``missing``. Scores are
      compared whatever the grading status (a judge score does not depend on
      the item being well formed).

    Each metric carries the keys of :func:`metric_comparison`: ``winner``
    is set only when the ``confidence`` paired bootstrap interval of B - A
    excludes 0, and ``verdict`` is ``"<label> is better: ..."`` or
    ``"no winner: the interval includes 0; ..."``.

    Example:
        >>> a = [{"item_id": f"q{i}", "sample": 0, "status": "pass" if i % 3 == 0 else "fail",
        ...       "candidate_meta": {"score": 3}} for i in range(30)]
        >>> b = [{"item_id": f"q{i}", "sample": 0, "status": "pass" if i % 3 else "fail",
        ...       "candidate_meta": {"score": 4}} for i in range(1, 31)]
        >>> c = compare_runs(a, b, score="score", n_resamples=2000, label_a="old", label_b="new")
        >>> c["paired"], c["only_in_a"], c["only_in_b"]
        (29, [['q0', '0']], [['q30', '0']])
        >>> pr = c["metrics"]["pass_rate"]
        >>> pr["direction"], pr["winner"], pr["discordant"]
        ('new - old', 'new', {'a_only': 9, 'b_only': 20})
        >>> c["metrics"]["score"]["difference"], c["metrics"]["score"]["winner"]
        (1.0, 'new')
    """
    if label_a == label_b:
        raise StatsError([f"the two runs need different labels, both are {label_a!r}"])
    list_a, list_b = list(records_a), list(records_b)
    index_a, index_b = _index(list_a, label_a), _index(list_b, label_b)
    keys = sorted(index_a.keys() & index_b.keys())
    settings: dict[str, Any] = {
        "label_a": label_a,
        "label_b": label_b,
        "confidence": confidence,
        "n_resamples": n_resamples,
        "seed": seed,
        "method": method,
    }
    excluded: list[dict[str, Any]] = []
    pass_a: list[float] = []
    pass_b: list[float] = []
    a_only = b_only = 0
    for key in keys:
        ra, rb = index_a[key], index_b[key]
        sides = [lab for lab, r in ((label_a, ra), (label_b, rb)) if r["status"] == "anomaly"]
        if sides:
            excluded.append(
                {"item_id": key[0], "sample": key[1], "reason": f"anomaly in {' and '.join(sides)}"}
            )
            continue
        xa, xb = float(ra["status"] == "pass"), float(rb["status"] == "pass")
        a_only += int(xa > xb)
        b_only += int(xb > xa)
        pass_a.append(xa)
        pass_b.append(xb)
    metrics: dict[str, dict[str, Any]] = {}
    pass_metric = metric_comparison(pass_a, pass_b, name="pass rate", percent=True, **settings)
    pass_metric["excluded"] = excluded
    pass_metric["discordant"] = {"a_only": a_only, "b_only": b_only}
    metrics["pass_rate"] = pass_metric
    if score is not None:
        missing: list[dict[str, Any]] = []
        score_a: list[float] = []
        score_b: list[float] = []
        for key in keys:
            sa, sb = _score(index_a[key], score), _score(index_b[key], score)
            if sa is None or sb is None:
                sides = [lab for lab, s in ((label_a, sa), (label_b, sb)) if s is None]
                missing.append(
                    {
                        "item_id": key[0],
                        "sample": key[1],
                        "reason": f"no numeric {score} in {' and '.join(sides)}",
                    }
                )
                continue
            score_a.append(sa)
            score_b.append(sb)
        score_metric = metric_comparison(score_a, score_b, name=score, **settings)
        score_metric["missing"] = missing
        metrics[score] = score_metric
    per_item = Counter(item for item, _ in keys)
    notes: list[str] = []
    several = sum(1 for n in per_item.values() if n > 1)
    if several:
        notes.append(
            f"{several} of {len(per_item)} items have several paired samples: pairs are "
            "resampled one by one, so the interval and the test treat the samples of one item "
            "as independent and are too optimistic when they agree."
        )
    if not keys:
        notes.append(
            f"the runs share no (item_id, sample) key: nothing is compared "
            f"({len(index_a)} keys only in {label_a}, {len(index_b)} only in {label_b})."
        )
    elif len(keys) < 100:
        notes.append(
            f"only {len(keys)} pairs: in simulation (benchmarks/stats_coverage.py) the 95% paired "
            "bootstrap interval of a pass-rate difference covered about 89% of the time at 20 "
            "pairs and 91-93% at 50, so a narrow win at this size deserves a second look."
        )
    return {
        "labels": {"a": label_a, "b": label_b},
        "n_a": len(list_a),
        "n_b": len(list_b),
        "paired": len(keys),
        "only_in_a": [list(k) for k in sorted(index_a.keys() - index_b.keys())],
        "only_in_b": [list(k) for k in sorted(index_b.keys() - index_a.keys())],
        "direction": f"{label_b} - {label_a}",
        "confidence": confidence,
        "n_resamples": n_resamples,
        "seed": seed,
        "metrics": metrics,
        "notes": notes,
    }
