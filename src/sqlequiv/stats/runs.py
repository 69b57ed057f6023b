"""The statistics of one grading run: pass rate with its interval, failures by cause, groups.

A pass rate from a results file is a proportion over (item, sample) pairs,
and it is reported with a Wilson interval (:func:`~sqlequiv.stats.intervals.wilson`).
Anomalous pairs (the item itself is broken) are neither passes nor failures
and are left out of every rate; a candidate that errors or stays unknown
counts as not passed, as in :func:`sqlequiv.grading.summary.summarize_grades`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlequiv.grading.record import STATUSES, as_record, latest_records, pair_key
from sqlequiv.stats.intervals import StatsError, wilson

__all__ = [
    "MISSING",
    "REALISM_TIERS",
    "failure_realism",
    "failure_stratum",
    "field_values",
    "lookup",
    "record_key",
    "run_statistics",
    "validate_records",
]

#: The group a record falls in when it has no value for the field.
MISSING = "(missing)"


#: What identifies a pair, ``(item_id, sample)`` as strings: the grader's own key.
record_key = pair_key


def _dig(container: Any, name: str) -> tuple[bool, Any]:
    """``container[name]``, or along a dotted path (``judge.score``) when the key is absent."""
    if not isinstance(container, Mapping):
        return (False, None)
    if name in container:
        return (True, container[name])
    if "." in name:
        head, rest = name.split(".", 1)
        if head in container:
            return _dig(container[head], rest)
    return (False, None)


def lookup(
    record: Mapping[str, Any], name: str, places: Sequence[str] = ("item_meta", "candidate_meta")
) -> Any:
    """A field of a record: from ``item_meta``, then ``candidate_meta``, then the top level.

    A dotted name (``judge.score``) reaches into nested objects. Absent
    everywhere (or null) gives None.

    Example:
        >>> r = {"status": "pass", "item_meta": {"difficulty": "hard"},
        ...      "candidate_meta": {"model": "m1", "judge": {"score": 4}}}
        >>> lookup(r, "difficulty"), lookup(r, "model"), lookup(r, "judge.score")
        ('hard', 'm1', 4)
        >>> lookup(r, "status"), lookup(r, "nothing")
        ('pass', None)
    """
    for place in places:
        found, value = _dig(record.get(place), name)
        if found and value is not None:
            return value
    found, value = _dig(record, name)
    return value if found else None


def _group_label(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def field_values(record: Mapping[str, Any], name: str) -> list[str]:
    """The group labels of a record for one field: a list value gives one per element.

    Example:
        >>> field_values({"item_meta": {"tags": ["nulls", "count", "nulls"]}}, "tags")
        ['nulls', 'count']
        >>> field_values({"item_meta": {}}, "difficulty"), field_values({"sample": 2}, "sample")
        (['(missing)'], ['2'])
    """
    value = lookup(record, name)
    items = value if isinstance(value, list | tuple) else [value]
    labels = [_group_label(v) for v in items if v is not None]
    return list(dict.fromkeys(labels)) or [MISSING]


def validate_records(records: Iterable[Mapping[str, Any]], what: str = "records") -> None:
    """Raise :class:`StatsError` listing every record without an ``item_id`` or a known status.

    Example:
        >>> validate_records([{"item_id": "q", "status": "pass"}])
        >>> validate_records([{"item_id": "q", "status": "ok"}, {"status": "fail"}])
        Traceback (most recent call last):
        ...
        sqlequiv.stats.intervals.StatsError: 2 problems:
          records[0] (q): status 'ok' is not one of pass, fail, unknown, error, anomaly
          records[1]: no item_id
    """
    problems: list[str] = []
    for i, record in enumerate(records):
        if not isinstance(record, Mapping):
            problems.append(f"{what}[{i}]: not an object")
            continue
        item = record.get("item_id")
        if item is None:
            problems.append(f"{what}[{i}]: no item_id")
            continue
        status = record.get("status")
        if status not in STATUSES:
            problems.append(
                f"{what}[{i}] ({item}): status {status!r} is not one of {', '.join(STATUSES)}"
            )
    if problems:
        raise StatsError(problems)


def _rate(k: int, n: int, confidence: float) -> tuple[float | None, list[float] | None]:
    if n == 0:
        return (None, None)
    lo, hi = wilson(k, n, confidence)
    return (k / n, [lo, hi])


def failure_stratum(record: Mapping[str, Any]) -> str:
    """The cause a failure is counted under: its cause, ``predicate``, or ``unclassified``.

    Example:
        >>> failure_stratum({"status": "fail", "cause": "grain"})
        'grain'
        >>> failure_stratum({"status": "fail", "cause": None, "method": "predicate"})
        'predicate'
        >>> failure_stratum({"status": "fail", "cause": None, "method": "fixture"})
        'unclassified'
    """
    typed = as_record(record)
    cause = typed.get("cause")
    if cause is None:
        return "predicate" if typed.get("method") == "predicate" else "unclassified"
    return str(cause)


#: The tiers of a counterexample compared with the user's data, most realistic first.
REALISM_TIERS = ("on_data", "realistic", "edge")


def failure_realism(record: Mapping[str, Any]) -> str | None:
    """How realistic a failure's counterexample is against the user's data (``on_data``,
    ``realistic``, ``edge``); None when it was not compared with data.

    Example:
        >>> failure_realism({"status": "fail", "counterexample": {"realism": "edge"}})
        'edge'
        >>> failure_realism({"status": "fail", "counterexample": None})
    """
    example = as_record(record).get("counterexample")
    realism = example.get("realism") if isinstance(example, Mapping) else None
    return str(realism) if realism is not None else None


def run_statistics(
    records: Iterable[Mapping[str, Any]],
    *,
    by: Sequence[str] = (),
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Pass rate with a Wilson interval, failures by cause, errors, anomalies and groups.

    Returned keys: ``n_records``, ``items``, ``unit`` (``"pair"``: every
    rate is over (item, sample) pairs), ``graded`` (records that are not
    anomalies), ``passed``, ``pass_rate``, ``pass_rate_ci`` ``[lo, hi]``,
    ``ci_method`` (``"wilson"``), ``confidence``, ``proved_passes``,
    ``proved_rate``, ``proved_rate_ci``, ``unrefuted_passes``,
    ``unrefuted_rate``, ``unrefuted_rate_ci``, ``failed``,
    ``failures_by_cause`` (``{cause | "predicate" | "unclassified": n}``,
    largest first; a predicate failure has no cause), ``failures_by_realism``
    (``{on_data | realistic | edge: n}`` for failures whose counterexample was compared
    with the user's data; empty without data), ``unknown``,
    ``errors``, ``errors_by_kind``, ``anomalous_pairs``, ``anomalous_items``
    (sorted ids), ``samples_per_item`` (``{"min", "max",
    "items_with_several"}``), ``duplicates`` (pairs whose SQL repeats another
    sample's and were graded once), ``groups`` and ``notes`` (sentences a
    reader needs to interpret the numbers). Rates are None when nothing is
    graded.

    ``groups`` is ``{field: {value: {"graded", "passed", "pass_rate",
    "pass_rate_ci"}}}`` for each field in ``by``, looked up by
    :func:`lookup` (``item_meta``, then ``candidate_meta``, then the top
    level; dotted names reach into objects). A list value (``tags``) counts
    the record once under each distinct element, so group sizes can add up
    to more than ``graded``; a record without the field is counted under
    ``"(missing)"``.

    Example:
        >>> recs = [
        ...     {"item_id": "q1", "sample": 0, "status": "pass", "proved": True,
        ...      "item_meta": {"difficulty": "easy"}},
        ...     {"item_id": "q2", "sample": 0, "status": "fail", "cause": "grain",
        ...      "item_meta": {"difficulty": "hard"}},
        ...     {"item_id": "q3", "sample": 0, "status": "error", "error": {"kind": "parse_error"},
        ...      "item_meta": {"difficulty": "hard"}},
        ...     {"item_id": "q4", "sample": 0, "status": "anomaly"},
        ... ]
        >>> s = run_statistics(recs, by=["difficulty"])
        >>> s["graded"], s["passed"], round(s["pass_rate"], 4), s["ci_method"]
        (3, 1, 0.3333, 'wilson')
        >>> [round(v, 4) for v in s["pass_rate_ci"]]
        [0.0615, 0.7923]
        >>> s["failures_by_cause"], s["errors_by_kind"], s["anomalous_items"]
        ({'grain': 1}, {'parse_error': 1}, ['q4'])
        >>> s["groups"]["difficulty"]["hard"]["graded"], s["groups"]["difficulty"]["hard"]["passed"]
        (2, 0)
    """
    records = list(records)
    validate_records(records)
    records = latest_records(records)  # a retried pair counts once
    status: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    proved = unrefuted = duplicates = 0
    anomalous_items: set[str] = set()
    samples: Counter[str] = Counter()
    groups: dict[str, dict[str, list[int]]] = {name: {} for name in by}
    for record in map(as_record, records):
        kind = str(record["status"])
        status[kind] += 1
        samples[str(record["item_id"])] += 1
        if record.get("duplicate_of") is not None:
            duplicates += 1
        if kind == "anomaly":
            anomalous_items.add(str(record["item_id"]))
            continue
        passed = kind == "pass"
        if passed:
            if record.get("proved"):
                proved += 1
            else:
                unrefuted += 1
        elif kind == "fail":
            causes[failure_stratum(record)] += 1
            realism = failure_realism(record)
            if realism is not None:
                tiers[realism] += 1
        elif kind == "error":
            error = record.get("error") or {}
            errors[str(error.get("kind") or "unknown")] += 1
        for name in by:
            for label in field_values(record, name):
                cell = groups[name].setdefault(label, [0, 0])
                cell[0] += 1
                cell[1] += int(passed)
    graded = sum(n for s, n in status.items() if s != "anomaly")
    pass_rate, pass_ci = _rate(status["pass"], graded, confidence)
    proved_rate, proved_ci = _rate(proved, graded, confidence)
    unrefuted_rate, unrefuted_ci = _rate(unrefuted, graded, confidence)
    several = sum(1 for n in samples.values() if n > 1)
    notes: list[str] = []
    if several:
        notes.append(
            f"{several} of {len(samples)} items have several samples: the pass rate is per "
            "(item, sample) pair, and the Wilson interval treats pairs as independent, so it is "
            "too narrow when the samples of one item tend to pass or fail together."
        )
    if duplicates:
        notes.append(
            f"{duplicates} pairs repeat the SQL of another sample of the same item; each is "
            "counted as its own pair."
        )
    if status["anomaly"]:
        notes.append(
            f"{status['anomaly']} pairs of {len(anomalous_items)} anomalous items are left out "
            "of every rate (neither passed nor failed)."
        )
    if proved and unrefuted:
        notes.append(
            "an unrefuted pass survived every fixture and generated database without a proof; "
            "a proved pass is equivalent on every database the schema allows."
        )
    group_stats: dict[str, dict[str, dict[str, Any]]] = {}
    for name, cells in groups.items():
        group_stats[name] = {}
        for label in sorted(cells):
            n, k = cells[label]
            rate, ci = _rate(k, n, confidence)
            group_stats[name][label] = {
                "graded": n,
                "passed": k,
                "pass_rate": rate,
                "pass_rate_ci": ci,
            }
    return {
        "n_records": len(records),
        "items": len(samples),
        "unit": "pair",
        "graded": graded,
        "passed": status["pass"],
        "pass_rate": pass_rate,
        "pass_rate_ci": pass_ci,
        "ci_method": "wilson",
        "confidence": confidence,
        "proved_passes": proved,
        "proved_rate": proved_rate,
        "proved_rate_ci": proved_ci,
        "unrefuted_passes": unrefuted,
        "unrefuted_rate": unrefuted_rate,
        "unrefuted_rate_ci": unrefuted_ci,
        "failed": status["fail"],
        "failures_by_cause": dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "failures_by_realism": {t: tiers[t] for t in REALISM_TIERS if tiers[t]},
        "unknown": status["unknown"],
        "errors": status["error"],
        "errors_by_kind": dict(sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))),
        "anomalous_pairs": status["anomaly"],
        "anomalous_items": sorted(anomalous_items),
        "samples_per_item": {
            "min": min(samples.values(), default=0),
            "max": max(samples.values(), default=0),
            "items_with_several": several,
        },
        "duplicates": duplicates,
        "groups": group_stats,
        "notes": notes,
    }
