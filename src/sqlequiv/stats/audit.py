"""The false-fail audit: sample failures by cause, have a person label them, correct the pass rate.

A grading run's failures are countable (every one is in the results file),
so how many of them are wrong can be *estimated* from a labelled sample:

1. :func:`audit_sample` draws ``n`` failures stratified by cause (the
   ``cause`` enum, plus ``predicate`` and ``unclassified``), by simple random
   sampling without replacement within each stratum, and returns rows with
   ``false_fail: null`` and ``note: ""`` for a person to fill in (written as
   JSONL by the caller). Optionally a few passes too (stratum ``pass``,
   ``false_pass: null``).
2. :func:`audit_estimate` reads the labelled rows back and estimates, per
   stratum ``h`` with ``N_h`` failures of which ``n_h`` were labelled and
   ``x_h`` found to be false fails, ``p̂_h = x_h / n_h`` and ``N_h p̂_h``
   false fails; the corrected pass rate is ``(passes + Σ N_h p̂_h) / graded``
   (minus ``N_pass p̂_pass`` when passes were audited), with the
   stratified estimator's variance
   ``Σ N_h² (1 - n_h/N_h) p̂_h (1 - p̂_h) / (n_h - 1)`` (finite population
   correction), a normal interval, and a stratified rescaling bootstrap
   interval as a second method.

Within-stratum sampling makes the estimator unbiased whatever the
allocation; the allocation only changes its variance. The estimate is only
as good as the labelling: a row dropped from the labels file, or labelled
after looking at the result, biases it, which is why every sampled row must
come back with a label.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from sqlequiv.grading.record import RecordJSON, as_record, latest_records
from sqlequiv.stats.intervals import StatsError, normal_quantile
from sqlequiv.stats.runs import failure_realism, failure_stratum, record_key, validate_records

__all__ = [
    "FAIL_ROW_KEYS",
    "PASS_ROW_KEYS",
    "allocate",
    "audit_estimate",
    "audit_plan",
    "audit_sample",
    "counterexample_summary",
    "read_labels",
    "stratum_of",
]

Allocation = Literal["proportional", "neyman"]
#: Statuses whose records can be audited as failures (a pass is audited as stratum ``pass``).
AUDITABLE = ("fail", "unknown", "error")

#: The keys of a sampled failure row (and of its labelled version).
FAIL_ROW_KEYS = (
    "item_id",
    "sample",
    "stratum",
    "status",
    "method",
    "candidate_sql",
    "detail",
    "counterexample",
    "false_fail",
    "note",
)
#: The keys of a sampled pass row.
PASS_ROW_KEYS = (
    "item_id",
    "sample",
    "stratum",
    "status",
    "method",
    "proved",
    "candidate_sql",
    "detail",
    "counterexample",
    "false_pass",
    "note",
)

_EXAMPLES = 3


def stratum_of(record: Mapping[str, Any], statuses: Sequence[str] = ("fail",)) -> str | None:
    """The audit stratum of a record, or None when it is not audited as a failure.

    A ``fail`` is stratified by cause (:func:`~sqlequiv.stats.runs.failure_stratum`),
    and, where its counterexample was compared with the user's data, by its realism too
    (``grain/edge``: an edge case and a realistic one are not equally likely to be a
    false fail in a grader's eyes); ``unknown`` and ``error`` records, when included in
    ``statuses``, form strata of those names.

    Example:
        >>> stratum_of({"status": "fail", "cause": "grain"})
        'grain'
        >>> stratum_of({"status": "fail", "cause": "grain",
        ...             "counterexample": {"realism": "edge"}})
        'grain/edge'
        >>> stratum_of({"status": "unknown"})
        >>> stratum_of({"status": "unknown"}, ["fail", "unknown"])
        'unknown'
    """
    status = record.get("status")
    if status not in statuses:
        return None
    if status != "fail":
        return str(status)
    realism = failure_realism(record)
    return failure_stratum(record) + (f"/{realism}" if realism is not None else "")


def _check_statuses(statuses: Sequence[str]) -> None:
    bad = [s for s in statuses if s not in AUDITABLE]
    if bad or not statuses:
        raise StatsError(
            [f"statuses must be a non-empty subset of {', '.join(AUDITABLE)}, got {list(statuses)}"]
        )


def _capped_shares(
    sizes: Mapping[str, int], weights: Mapping[str, float], n: int
) -> dict[str, float]:
    """Real allocations ``min(N_h, λ w_h)`` summing to ``n`` (water-filling under the caps)."""
    share = dict.fromkeys(sizes, 0.0)
    active = {h for h in sizes if weights[h] > 0}
    remaining = float(n)
    while active:
        total = sum(weights[h] for h in active)
        scale = remaining / total
        capped = {h for h in active if scale * weights[h] >= sizes[h]}
        if not capped:
            for h in active:
                share[h] = scale * weights[h]
            break
        for h in capped:
            share[h] = float(sizes[h])
            remaining -= sizes[h]
        active -= capped
    return share


def allocate(
    sizes: Mapping[str, int],
    n: int,
    *,
    allocation: Allocation = "proportional",
    prior_rates: Mapping[str, float] | None = None,
) -> dict[str, int]:
    """How many of ``n`` sampled units go to each stratum of ``sizes`` (``{stratum: N_h}``).

    * ``proportional``: ``n_h ∝ N_h``.
    * ``neyman``: ``n_h ∝ N_h sqrt(p_h (1 - p_h))``, the allocation that
      minimises the variance of the estimated total for a fixed ``n``, with
      ``p_h`` from ``prior_rates`` (an expected false-fail rate per stratum)
      and ``p_h = 0.5`` for a stratum without one -- so without prior rates
      Neyman allocation *is* proportional allocation.

    The real-valued allocation is capped at ``N_h`` (the excess goes to the
    other strata), rounded down, and the units left over go to the largest
    remainders (ties: larger stratum, then name). When ``n`` is at least the
    number of non-empty strata, each gets at least 1 (taken from the
    stratum furthest above its exact share); with fewer, some get none. ``n``
    at or above the total takes every unit (a census).

    Example:
        >>> allocate({"grain": 80, "missing_rows": 60, "projection": 2}, 10)
        {'grain': 5, 'missing_rows': 4, 'projection': 1}
        >>> allocate({"a": 100, "b": 100}, 10, allocation="neyman",
        ...          prior_rates={"a": 0.5, "b": 0.1})
        {'a': 6, 'b': 4}
        >>> allocate({"a": 3, "b": 1}, 10)
        {'a': 3, 'b': 1}
    """
    if n < 0:
        raise StatsError([f"the sample size must be at least 0, got {n}"])
    if allocation not in ("proportional", "neyman"):
        raise StatsError([f"allocation must be 'proportional' or 'neyman', got {allocation!r}"])
    rates = dict(prior_rates or {})
    bad = [
        f"prior rate of {h}: {p!r} is not in [0, 1]" for h, p in rates.items() if not 0 <= p <= 1
    ]
    if bad:
        raise StatsError(bad)
    strata = sorted(h for h, size in sizes.items() if size > 0)
    out = dict.fromkeys(sorted(sizes), 0)
    total = sum(sizes[h] for h in strata)
    if n >= total:
        out.update({h: sizes[h] for h in strata})
        return out
    live = {h: sizes[h] for h in strata}
    weights: dict[str, float] = {h: float(sizes[h]) for h in strata}
    if allocation == "neyman":
        neyman = {
            h: sizes[h] * math.sqrt(rates.get(h, 0.5) * (1 - rates.get(h, 0.5))) for h in strata
        }
        if sum(neyman.values()) > 0:
            weights = neyman
    share = _capped_shares(live, weights, n)
    alloc = {h: math.floor(share[h] + 1e-9) for h in strata}
    order = sorted(strata, key=lambda h: (-(share[h] - alloc[h]), -sizes[h], h))
    left = n - sum(alloc.values())
    for h in order:
        if left <= 0:
            break
        if alloc[h] < sizes[h]:
            alloc[h] += 1
            left -= 1
    if n >= len(strata):
        for h in strata:
            if alloc[h] == 0:
                # From the stratum furthest above its exact share (ties: larger, then name).
                donors = [d for d in strata if alloc[d] >= 2]
                donor = min(donors, key=lambda d: (-(alloc[d] - share[d]), -sizes[d], d))
                alloc[donor] -= 1
                alloc[h] = 1
    out.update(alloc)
    return out


def _strata_sizes(records: Sequence[Mapping[str, Any]], statuses: Sequence[str]) -> Counter[str]:
    sizes: Counter[str] = Counter()
    for record in records:
        stratum = stratum_of(record, statuses)
        if stratum is not None:
            sizes[stratum] += 1
    return sizes


def audit_plan(
    records: Iterable[Mapping[str, Any]],
    n: int = 50,
    *,
    allocation: Allocation = "proportional",
    prior_rates: Mapping[str, float] | None = None,
    statuses: Sequence[str] = ("fail",),
) -> dict[str, Any]:
    """The stratified design :func:`audit_sample` would draw: ``N_h`` and ``n_h`` per stratum.

    Keys: ``allocation``, ``method`` (a sentence), ``n`` (requested),
    ``sampled`` (total drawn), ``population`` (failures), ``statuses``,
    ``strata`` (``{stratum: {"N": N_h, "n": n_h}}``, largest first) and
    ``notes``.

    Example:
        >>> recs = ([{"item_id": f"a{i}", "status": "fail", "cause": "grain"} for i in range(30)]
        ...         + [{"item_id": f"b{i}", "status": "fail", "cause": "projection"}
        ...            for i in range(2)]
        ...         + [{"item_id": "c", "status": "pass"}])
        >>> plan = audit_plan(recs, 8)
        >>> plan["strata"], plan["sampled"], plan["population"]
        ({'grain': {'N': 30, 'n': 7}, 'projection': {'N': 2, 'n': 1}}, 8, 32)
    """
    _check_statuses(statuses)
    records = list(records)
    validate_records(records)
    records = latest_records(records)  # a retried pair counts once
    sizes = _strata_sizes(records, statuses)
    alloc = allocate(sizes, n, allocation=allocation, prior_rates=prior_rates)
    population = sum(sizes.values())
    notes: list[str] = []
    if allocation == "neyman":
        assumed = sorted(h for h in sizes if h not in (prior_rates or {}))
        if assumed:
            notes.append(
                "Neyman allocation assumes a false-fail rate of 0.5 (the largest variance) for "
                f"strata without a prior rate: {', '.join(assumed)}."
            )
        method = "Neyman allocation n_h ∝ N_h·sqrt(p_h(1-p_h)), largest-remainder rounding"
    else:
        method = "proportional allocation n_h ∝ N_h, largest-remainder rounding"
    method += ", at least 1 per non-empty stratum when n allows, simple random sampling within"
    if n >= population:
        notes.append(f"n = {n} covers all {population} failures: the audit is a census.")
    elif n < len(sizes):
        notes.append(
            f"n = {n} is smaller than the number of strata ({len(sizes)}): some strata are not "
            "sampled, and their false fails cannot be estimated."
        )
    return {
        "allocation": allocation,
        "method": method,
        "n": n,
        "sampled": sum(alloc.values()),
        "population": population,
        "statuses": list(statuses),
        "strata": {
            h: {"N": sizes[h], "n": alloc[h]} for h in sorted(sizes, key=lambda s: (-sizes[s], s))
        },
        "notes": notes,
    }


def _rows_summary(rows: Any) -> tuple[int | None, list[Any]]:
    if not isinstance(rows, list):
        return (None, [])
    return (len(rows), rows[:_EXAMPLES])


def counterexample_summary(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a labeller needs from a counterexample: the database, row counts, a few rows.

    Example:
        >>> counterexample_summary({"counterexample": {"name": "base",
        ...     "tables": {"t": [{"x": 1}, {"x": 2}]}, "candidate_rows": [[1]],
        ...     "reference_rows": [[1], [2]], "missing_rows": [[2]], "extra_rows": []}})
        {'database': 'base', 'table_rows': {'t': 2}, 'candidate_rows': 1, 'reference_rows': 2, \
'missing_rows': 1, 'missing_examples': [[2]], 'extra_rows': 0, 'extra_examples': []}
    """
    typed = as_record(record)
    cx = typed.get("counterexample")
    if not isinstance(cx, Mapping):
        predicate = typed.get("predicate")
        if isinstance(predicate, Mapping) and predicate.get("violated_on"):
            return {"predicate": predicate.get("name"), "violated_on": predicate["violated_on"]}
        return None
    tables = cx.get("tables")
    table_rows = (
        {str(t): len(rows) for t, rows in tables.items() if isinstance(rows, list)}
        if isinstance(tables, Mapping)
        else {}
    )
    missing, missing_examples = _rows_summary(cx.get("missing_rows"))
    extra, extra_examples = _rows_summary(cx.get("extra_rows"))
    summary: dict[str, Any] = {
        "database": cx.get("name"),
        "table_rows": table_rows,
        "candidate_rows": _rows_summary(cx.get("candidate_rows"))[0],
        "reference_rows": _rows_summary(cx.get("reference_rows"))[0],
    }
    if missing is not None or extra is not None:
        summary.update(
            missing_rows=missing,
            missing_examples=missing_examples,
            extra_rows=extra,
            extra_examples=extra_examples,
        )
    return summary


def audit_sample(
    records: Iterable[Mapping[str, Any]],
    n: int = 50,
    *,
    allocation: Allocation = "proportional",
    seed: int = 0,
    include_passes: int = 0,
    prior_rates: Mapping[str, float] | None = None,
    statuses: Sequence[str] = ("fail",),
) -> list[dict[str, Any]]:
    """Draw ``n`` failures stratified by cause for a person to label (see :func:`audit_plan`).

    Within each stratum (sorted by name) ``n_h`` records are drawn without
    replacement from the stratum's records sorted by ``(item_id, sample)``,
    with ``numpy.random.default_rng(seed)``, so the draw depends on the
    results and the seed only, not on the order of the file. The rows, in
    stratum then key order, carry :data:`FAIL_ROW_KEYS`: ``item_id``,
    ``sample``, ``stratum``, ``status``, ``method``, ``candidate_sql``,
    ``detail``, ``counterexample`` (:func:`counterexample_summary`),
    ``false_fail: None`` and ``note: ""``. ``include_passes`` passes are then
    drawn at random (stratum ``pass``, :data:`PASS_ROW_KEYS`, with
    ``false_pass: None`` instead).

    Example:
        >>> recs = ([{"item_id": f"q{i}", "sample": 0, "status": "fail", "cause": "grain"}
        ...          for i in range(40)]
        ...         + [{"item_id": f"p{i}", "sample": 0, "status": "pass"} for i in range(60)])
        >>> rows = audit_sample(recs, 5, include_passes=2)
        >>> [r["stratum"] for r in rows], rows[0]["false_fail"], rows[-1]["false_pass"]
        (['grain', 'grain', 'grain', 'grain', 'grain', 'pass', 'pass'], None, None)
        >>> rows == audit_sample(list(reversed(recs)), 5, include_passes=2)
        True
    """
    records = list(records)
    plan = audit_plan(records, n, allocation=allocation, prior_rates=prior_rates, statuses=statuses)
    records = latest_records(records)  # a retried pair is drawn at most once
    if include_passes < 0:
        raise StatsError([f"include_passes must be at least 0, got {include_passes}"])
    by_stratum: dict[str, list[RecordJSON]] = {}
    passes: list[RecordJSON] = []
    for record in map(as_record, records):
        stratum = stratum_of(record, statuses)
        if stratum is not None:
            by_stratum.setdefault(stratum, []).append(record)
        elif record["status"] == "pass":
            passes.append(record)
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for stratum in sorted(by_stratum):
        population = sorted(by_stratum[stratum], key=record_key)
        chosen = rng.choice(len(population), size=plan["strata"][stratum]["n"], replace=False)
        for i in sorted(int(c) for c in chosen):
            record = population[i]
            rows.append(
                {
                    "item_id": record["item_id"],
                    "sample": record.get("sample"),
                    "stratum": stratum,
                    "status": record["status"],
                    "method": record.get("method"),
                    "candidate_sql": record.get("candidate_sql"),
                    "detail": record.get("detail") or (record.get("error") or {}).get("message"),
                    "counterexample": counterexample_summary(record),
                    "false_fail": None,
                    "note": "",
                }
            )
    if include_passes:
        population = sorted(passes, key=record_key)
        size = min(include_passes, len(population))
        chosen = rng.choice(len(population), size=size, replace=False)
        for i in sorted(int(c) for c in chosen):
            record = population[i]
            rows.append(
                {
                    "item_id": record["item_id"],
                    "sample": record.get("sample"),
                    "stratum": "pass",
                    "status": "pass",
                    "method": record.get("method"),
                    "proved": record.get("proved"),
                    "candidate_sql": record.get("candidate_sql"),
                    "detail": record.get("detail"),
                    "counterexample": None,
                    "false_pass": None,
                    "note": "",
                }
            )
    return rows


def read_labels(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a labels file (JSONL); every line that is not a JSON object is reported.

    Example:
        >>> import tempfile, os
        >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        ...     _ = f.write('{"item_id": "q1"}\\n\\nnot json\\n[1]\\n')
        >>> read_labels(f.name)
        Traceback (most recent call last):
        ...
        sqlequiv.stats.intervals.StatsError: 2 problems:
          line 3: invalid JSON (Expecting value)
          line 4: expected an object
        >>> os.unlink(f.name)
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise StatsError([f"cannot read {path}: {err}"]) from err
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            problems.append(f"line {number}: invalid JSON ({err.msg})")
            continue
        if not isinstance(row, dict):
            problems.append(f"line {number}: expected an object")
            continue
        rows.append(row)
    if problems:
        raise StatsError(problems)
    return rows


def _validate_labels(
    records: Sequence[Mapping[str, Any]],
    labels: Sequence[Mapping[str, Any]],
    statuses: Sequence[str],
) -> tuple[dict[str, list[bool]], list[bool]]:
    """The labels per failure stratum and of passes; every problem at once as a StatsError."""
    index = {record_key(r): r for r in records}
    problems: list[str] = []
    seen: dict[tuple[str, str], int] = {}
    strata: dict[str, list[bool]] = {}
    pass_labels: list[bool] = []
    for i, row in enumerate(labels, start=1):
        if not isinstance(row, Mapping):
            problems.append(f"row {i}: expected an object")
            continue
        where = f"row {i}"
        if "item_id" not in row or "sample" not in row:
            problems.append(f"{where}: needs item_id and sample")
            continue
        key = record_key(row)
        where = f"row {i} ({key[0]} sample {key[1]})"
        is_pass = row.get("stratum") == "pass"
        allowed = PASS_ROW_KEYS if is_pass else FAIL_ROW_KEYS
        field = "false_pass" if is_pass else "false_fail"
        unknown = sorted(set(row) - set(allowed))
        if unknown:
            problems.append(f"{where}: unknown keys {', '.join(map(repr, unknown))}")
        if key in seen:
            problems.append(f"{where}: the same pair as row {seen[key]}")
            continue
        seen[key] = i
        record = index.get(key)
        if record is None:
            problems.append(f"{where}: not a record of the results")
            continue
        expected = "pass" if record.get("status") == "pass" else stratum_of(record, statuses)
        if expected is None:
            problems.append(
                f"{where}: the results record is {record.get('status')!r}, which is not audited"
            )
            continue
        if row.get("stratum") != expected:
            problems.append(
                f"{where}: stratum {row.get('stratum')!r} but the results say {expected!r}"
            )
            continue
        value = row.get(field)
        if value is None:
            problems.append(f"{where}: {field} is missing (label it true or false)")
            continue
        if not isinstance(value, bool):
            problems.append(f"{where}: {field} must be true or false, got {value!r}")
            continue
        if is_pass:
            pass_labels.append(value)
        else:
            strata.setdefault(expected, []).append(value)
    if problems:
        raise StatsError(problems)
    return strata, pass_labels


def _stratum_variance(size: int, labelled: int, p: float) -> float:
    """Variance contribution ``N² (1 - n/N) p(1-p) / (n - 1)``; ``n = 1`` uses ``p(1-p) = 1/4``."""
    if labelled == 0 or labelled >= size:
        return 0.0
    fpc = 1 - labelled / size
    if labelled == 1:
        return size**2 * fpc * 0.25
    return size**2 * fpc * p * (1 - p) / (labelled - 1)


def audit_estimate(
    records: Iterable[Mapping[str, Any]],
    labels: Iterable[Mapping[str, Any]],
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    *,
    statuses: Sequence[str] = ("fail",),
) -> dict[str, Any]:
    """The pass rate corrected for the false fails (and false passes) found in a labelled sample.

    ``labels`` are the rows of :func:`audit_sample` with ``false_fail``
    (``false_pass`` for a pass row) set to true or false. They are checked
    first, and every problem is reported at once (:class:`StatsError`):
    unknown keys, rows that are not records of ``records`` (or not in the
    stratum the results put them in), repeated rows and missing labels.

    Per failure stratum ``h`` (``N_h`` failures in the results, ``n_h``
    labelled, ``x_h`` false fails): ``p̂_h = x_h / n_h``, estimated false
    fails ``N_h p̂_h``, and variance contribution
    ``N_h² (1 - n_h/N_h) p̂_h (1 - p̂_h) / (n_h - 1)``. Rules at the edges:

    * ``n_h = N_h`` (a census): variance 0.
    * ``n_h = 1 < N_h``: the sample variance is undefined, so the largest
      possible per-unit variance, 1/4, is used: ``N_h² (1 - 1/N_h) / 4``
      (conservative).
    * ``n_h = 0`` (stratum not sampled): it contributes no correction, it is
      listed in ``unsampled_strata`` and ``bounds`` shows how far its
      failures could move the rate.
    * Passes, when labelled, form a stratum that *subtracts*
      ``N_pass p̂_pass`` false passes. Without pass labels every pass is
      assumed a true pass (said in ``notes``).

    The corrected rate is ``(passes - N_pass p̂_pass + Σ N_h p̂_h) / graded``,
    its standard error ``sqrt(Σ var_h) / graded``; ``ci`` is the normal
    interval ``± z·se`` and ``bootstrap_ci`` a percentile interval from a
    stratified Rao-Wu rescaling bootstrap (per stratum, ``n_h - 1`` labels
    drawn with replacement, deviations scaled by ``sqrt(1 - n_h/N_h)`` so
    the finite population correction carries over; an ``n_h = 1`` stratum
    draws a fair coin, matching the 1/4 rule). Both are clipped to
    ``bounds``, the range the rate can take whatever the unlabelled records
    turn out to be.

    Returned keys: ``graded``, ``passes``, ``observed_pass_rate``,
    ``audited_failures`` (Σ N_h), ``labelled`` (Σ n_h), ``false_fails_found``
    (Σ x_h), ``estimated_false_fails`` (Σ N_h p̂_h), ``estimated_false_passes``
    (None without pass labels), ``corrected_pass_rate``, ``se``, ``ci``,
    ``ci_method``, ``bootstrap_ci``, ``bootstrap_method``, ``confidence``,
    ``bounds``, ``strata`` (a list of ``{"stratum", "N", "n", "false", "rate",
    "estimated", "variance"}``, largest estimate first), ``pass_stratum``
    (same keys or None), ``largest_contributor`` (``{"stratum",
    "estimated_false_fails", "share"}``: the cause with the largest
    ``N_h p̂_h`` and its share of Σ N_h p̂_h, or None), ``unsampled_strata``,
    ``notes``, ``n_resamples``, ``seed``.

    Example (the worked check: 500 graded, 340 passes, 160 failures, 11 false
    fails among 50 labelled):

        >>> recs = ([{"item_id": f"p{i}", "sample": 0, "status": "pass"} for i in range(340)]
        ...         + [{"item_id": f"f{i}", "sample": 0, "status": "fail", "cause": "grain"}
        ...            for i in range(160)])
        >>> rows = audit_sample(recs, 50)
        >>> for i, row in enumerate(rows):
        ...     row["false_fail"] = i < 11
        >>> est = audit_estimate(recs, rows)
        >>> round(est["corrected_pass_rate"], 4), [round(v, 4) for v in est["ci"]]
        (0.7504, [0.7196, 0.7812])
        >>> est["largest_contributor"]
        {'stratum': 'grain', 'estimated_false_fails': 35.2, 'share': 1.0}
    """
    _check_statuses(statuses)
    if not 0 < confidence < 1:
        raise StatsError([f"confidence must be between 0 and 1 (exclusive), got {confidence!r}"])
    records = list(records)
    validate_records(records)
    records = latest_records(records)  # a retried pair counts once
    strata_labels, pass_labels = _validate_labels(records, list(labels), statuses)
    sizes = _strata_sizes(records, statuses)
    graded = sum(1 for r in records if r["status"] != "anomaly")
    passes = sum(1 for r in records if r["status"] == "pass")
    if graded == 0:
        raise StatsError(["no graded records: there is no pass rate to correct"])

    def describe(name: str, size: int, values: list[bool]) -> dict[str, Any]:
        n_h, x_h = len(values), sum(values)
        rate = x_h / n_h if n_h else None
        return {
            "stratum": name,
            "N": size,
            "n": n_h,
            "false": x_h,
            "rate": rate,
            "estimated": size * rate if rate is not None else None,
            "variance": _stratum_variance(size, n_h, rate) if rate is not None else None,
        }

    strata = [describe(h, sizes[h], strata_labels.get(h, [])) for h in sizes]
    strata.sort(key=lambda s: (-(s["estimated"] or 0.0), -s["N"], s["stratum"]))
    sampled = [s for s in strata if s["n"]]
    unsampled = [s["stratum"] for s in strata if not s["n"]]
    pass_stratum = describe("pass", passes, pass_labels) if pass_labels else None
    parts = sampled + ([pass_stratum] if pass_stratum else [])
    signs = [1.0] * len(sampled) + ([-1.0] if pass_stratum else [])

    est_ff = sum(s["estimated"] for s in sampled)
    est_fp = pass_stratum["estimated"] if pass_stratum else None
    corrected = (passes - (est_fp or 0.0) + est_ff) / graded
    variance = sum(s["variance"] for s in parts)
    se = math.sqrt(variance) / graded
    z = normal_quantile(1 - (1 - confidence) / 2)

    # What the rate could be whatever the unlabelled records are.
    true_passes_seen = pass_stratum["n"] - pass_stratum["false"] if pass_stratum else passes
    low = true_passes_seen + sum(s["false"] for s in sampled)
    high = (passes - (pass_stratum["false"] if pass_stratum else 0)) + sum(
        s["N"] - (s["n"] - s["false"]) for s in strata
    )
    bounds = [low / graded, high / graded]

    def clip(lo: float, hi: float) -> list[float]:
        return [max(lo, bounds[0]), min(hi, bounds[1])]

    rng = np.random.default_rng(seed)
    total = np.full(n_resamples, float(passes), dtype=np.float64)
    for part, sign in zip(parts, signs, strict=True):
        size, n_h, rate = part["N"], part["n"], part["rate"]
        if n_h >= size:
            draws = np.full(n_resamples, rate)
        elif n_h == 1:
            coin = rng.integers(0, 2, size=n_resamples).astype(np.float64)
            draws = rate + math.sqrt(1 - n_h / size) * (coin - 0.5)
        else:
            m = n_h - 1
            star = rng.binomial(m, rate, size=n_resamples) / m
            draws = rate + math.sqrt(1 - n_h / size) * (star - rate)
        total += sign * size * draws
    boot = total / graded
    alpha = 1 - confidence
    boot_lo, boot_hi = (float(v) for v in np.quantile(boot, [alpha / 2, 1 - alpha / 2]))

    positive = [s for s in sampled if s["estimated"] > 0]
    largest = None
    if positive:
        top = max(positive, key=lambda s: (s["estimated"], s["N"]))
        largest = {
            "stratum": top["stratum"],
            "estimated_false_fails": top["estimated"],
            "share": top["estimated"] / est_ff,
        }
    notes: list[str] = []
    if pass_stratum is None:
        notes.append(
            "passes were not audited: the correction assumes every pass is a true pass, so it "
            "can only raise the pass rate."
        )
    if unsampled:
        notes.append(
            f"{len(unsampled)} strata have no labels ({', '.join(unsampled)}; "
            f"{sum(sizes[h] for h in unsampled)} failures): they add no correction; "
            "'bounds' shows how far they could move it."
        )
    ones = [s["stratum"] for s in parts if s["n"] == 1 and s["N"] > 1]
    if ones:
        notes.append(
            f"strata with a single label ({', '.join(ones)}) use the largest per-unit variance, "
            "1/4 (conservative)."
        )
    degenerate = [
        s["stratum"] for s in parts if s["n"] >= 2 and s["rate"] in (0.0, 1.0) and s["n"] < s["N"]
    ]
    if degenerate:
        notes.append(
            f"strata whose labels all agree ({', '.join(degenerate)}) contribute no variance "
            "to either interval, which is then too narrow if their rate is not exactly 0 or 1."
        )
    return {
        "graded": graded,
        "passes": passes,
        "observed_pass_rate": passes / graded,
        "audited_failures": sum(sizes.values()),
        "labelled": sum(s["n"] for s in strata),
        "false_fails_found": sum(s["false"] for s in strata),
        "estimated_false_fails": est_ff,
        "estimated_false_passes": est_fp,
        "corrected_pass_rate": corrected,
        "se": se,
        "ci": clip(corrected - z * se, corrected + z * se),
        "ci_method": "normal approximation, stratified estimator with finite population correction",
        "bootstrap_ci": clip(boot_lo, boot_hi),
        "bootstrap_method": "stratified Rao-Wu rescaling bootstrap, percentile",
        "confidence": confidence,
        "bounds": bounds,
        "strata": strata,
        "pass_stratum": pass_stratum,
        "largest_contributor": largest,
        "unsampled_strata": unsampled,
        "notes": notes,
        "n_resamples": n_resamples,
        "seed": seed,
    }
