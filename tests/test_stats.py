"""sqlequiv.stats: intervals checked against scipy, run statistics, paired comparison, audit.

scipy (a dev dependency) is the independent reference: Wilson against
``binomtest(...).proportion_ci``, the bootstrap against ``scipy.stats.bootstrap``,
the sign-flip test against ``scipy.stats.permutation_test``, and the audit
interval's coverage against an exact hypergeometric computation.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps

from sqlequiv.stats import (
    StatsError,
    allocate,
    audit_estimate,
    audit_plan,
    audit_sample,
    bootstrap_ci,
    compare_runs,
    paired_bootstrap_diff,
    read_labels,
    render_audit_estimate,
    render_audit_plan,
    render_comparison,
    render_run_statistics,
    run_statistics,
    sign_flip_test,
    wilson,
)
from sqlequiv.stats.audit import FAIL_ROW_KEYS, PASS_ROW_KEYS

# ---------------------------------------------------------------- intervals


@pytest.mark.parametrize(
    ("k", "n"), [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (26, 45), (340, 500), (1, 1000)]
)
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_wilson_matches_scipy(k: int, n: int, confidence: float) -> None:
    ref = sps.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    lo, hi = wilson(k, n, confidence)
    assert lo == pytest.approx(ref.low, abs=1e-12)
    assert hi == pytest.approx(ref.high, abs=1e-12)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_rejects_bad_input() -> None:
    for args in [(1, 0), (-1, 5), (6, 5)]:
        with pytest.raises(StatsError):
            wilson(*args)
    with pytest.raises(StatsError, match="confidence"):
        wilson(1, 2, confidence=1.0)


CONTINUOUS = np.random.default_rng(7).gamma(2.0, 1.0, size=40)
# 0/1 data: the bootstrap distribution has atoms 1/n apart, so n is large enough here for the
# quantiles of two independent runs to agree within 0.01.
BINARY = np.array([1] * 117 + [0] * 83, dtype=float)


@pytest.mark.parametrize("data", [CONTINUOUS, BINARY], ids=["gamma", "binary"])
def test_bootstrap_percentile_matches_scipy(data: np.ndarray) -> None:
    ours = bootstrap_ci(data, n_resamples=20000, seed=1)
    ref = sps.bootstrap(
        (data,), np.mean, n_resamples=20000, method="percentile", rng=np.random.default_rng(2)
    ).confidence_interval
    assert ours["method"] == "bootstrap-percentile"
    assert ours["estimate"] == pytest.approx(float(np.mean(data)))
    # Two independent Monte Carlo estimates of the same quantiles.
    assert ours["lo"] == pytest.approx(ref.low, abs=0.01)
    assert ours["hi"] == pytest.approx(ref.high, abs=0.01)


def test_bootstrap_bca_matches_scipy_on_continuous_data() -> None:
    ours = bootstrap_ci(CONTINUOUS, n_resamples=20000, seed=1, method="bca")
    ref = sps.bootstrap(
        (CONTINUOUS,), np.mean, n_resamples=20000, method="BCa", rng=np.random.default_rng(2)
    ).confidence_interval
    assert ours["method"] == "bootstrap-bca"
    assert ours["lo"] == pytest.approx(ref.low, abs=0.02)
    assert ours["hi"] == pytest.approx(ref.high, abs=0.02)
    # For right-skewed data BCa moves the interval right of the percentile one.
    pct = bootstrap_ci(CONTINUOUS, n_resamples=20000, seed=1)
    assert ours["hi"] > pct["hi"]


def test_bootstrap_other_statistic_and_reproducibility() -> None:
    med = bootstrap_ci(CONTINUOUS, statistic=lambda x: float(np.median(x)), n_resamples=2000)
    assert med["estimate"] == pytest.approx(float(np.median(CONTINUOUS)))
    assert med["lo"] < med["estimate"] < med["hi"]
    assert bootstrap_ci(BINARY, seed=3) == bootstrap_ci(BINARY, seed=3)
    assert bootstrap_ci(BINARY, seed=3) != bootstrap_ci(BINARY, seed=4)
    # The vectorised mean and the same mean through the generic path draw the same resamples.
    generic = bootstrap_ci(BINARY, statistic=lambda x: float(np.mean(x)), n_resamples=500)
    fast = bootstrap_ci(BINARY, n_resamples=500)
    assert (generic["lo"], generic["hi"]) == pytest.approx((fast["lo"], fast["hi"]))
    with pytest.raises(StatsError):
        bootstrap_ci([])


def test_paired_bootstrap_matches_scipy_paired() -> None:
    rng = np.random.default_rng(11)
    a = (rng.random(60) < 0.55).astype(float)
    b = np.where(rng.random(60) < 0.8, a, 1 - a)  # b agrees with a on most items
    ours = paired_bootstrap_diff(a, b, n_resamples=20000, seed=5)

    def diff(x: np.ndarray, y: np.ndarray, axis: int = -1) -> Any:
        return np.mean(x - y, axis=axis)

    ref = sps.bootstrap(
        (a, b),
        diff,
        paired=True,
        n_resamples=20000,
        method="percentile",
        rng=np.random.default_rng(6),
    ).confidence_interval
    assert ours["method"] == "paired-bootstrap-percentile"
    assert ours["estimate"] == pytest.approx(float(np.mean(a - b)))
    assert ours["lo"] == pytest.approx(ref.low, abs=0.01)
    assert ours["hi"] == pytest.approx(ref.high, abs=0.01)
    # Pairing matters: the unpaired interval of the same difference is wider.
    independent = sps.bootstrap(
        (a, b),
        lambda x, y, axis=-1: np.mean(x, axis=axis) - np.mean(y, axis=axis),
        n_resamples=5000,
        method="percentile",
        rng=np.random.default_rng(6),
    ).confidence_interval
    assert ours["hi"] - ours["lo"] < independent.high - independent.low
    with pytest.raises(StatsError, match="pair up"):
        paired_bootstrap_diff([1, 2], [1])


SIGN_FLIP_DATA = [
    [0.3, -0.1, 1.2, 0.8, -0.4, 0.9, 0.05, 1.1],
    [1, 1, 0, 1, -1, 0, 1, 1, 0, 1, 1, -1],
    [2, -2, 1, -1, 3, -3],
    [0.0, 0.0, 0.0],
    [4, 2, -1, 3, 0, 5, 1, 2, -2, 4, 3],
]


@pytest.mark.parametrize("d", SIGN_FLIP_DATA)
def test_sign_flip_exact_matches_scipy(d: list[float]) -> None:
    x = np.asarray(d, dtype=float)
    ref = sps.permutation_test(
        (x,),
        lambda v, axis=-1: np.mean(v, axis=axis),
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    ours = sign_flip_test(x)
    assert ours["method"] == "sign-flip-exact"
    assert ours["p_value"] == pytest.approx(float(ref.pvalue), abs=1e-12)


def test_sign_flip_exact_by_brute_force() -> None:
    d = np.array([0.7, -0.2, 0.4, 1.5, 0.0, -0.9, 0.3, 0.35, -0.05, 0.6])
    nonzero = d[d != 0]
    obs = abs(d.sum())
    hits = sum(
        abs(np.dot(signs, nonzero)) >= obs - 1e-12
        for signs in itertools.product([1, -1], repeat=len(nonzero))
    )
    result = sign_flip_test(d)
    assert result["p_value"] == hits / 2 ** len(nonzero)
    assert result["n_nonzero"] == 9 and result["n_patterns"] == 512


def test_sign_flip_monte_carlo() -> None:
    rng = np.random.default_rng(3)
    d = rng.normal(0.25, 1.0, size=40)
    ours = sign_flip_test(d, n_resamples=9999, seed=1)
    assert ours["method"] == "sign-flip-monte-carlo"
    # (k + 1) / (R + 1): an integer number of hits plus the observed pattern.
    k = ours["p_value"] * 10000 - 1
    assert k == pytest.approx(round(k), abs=1e-6)
    ref = sps.permutation_test(
        (d,),
        lambda v, axis=-1: np.mean(v, axis=axis),
        permutation_type="samples",
        n_resamples=9999,
        alternative="two-sided",
        rng=np.random.default_rng(2),
    )
    assert ours["p_value"] == pytest.approx(float(ref.pvalue), abs=0.015)
    assert sign_flip_test(d, n_resamples=999, seed=1) == sign_flip_test(d, n_resamples=999, seed=1)
    # 21 nonzero differences is past the exact limit.
    assert sign_flip_test([1.0] * 21)["method"] == "sign-flip-monte-carlo"
    assert sign_flip_test([1.0] * 20)["p_value"] == pytest.approx(2 / 2**20)


# ---------------------------------------------------------------- run statistics


def rec(item: str, sample: int | str = 0, status: str = "pass", **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "item_id": item,
        "sample": sample,
        "status": status,
        "proved": None,
        "cause": None,
        "method": None,
        "error": None,
        "candidate_meta": {},
        "item_meta": {},
        "duplicate_of": None,
    }
    record.update(extra)
    return record


def test_run_statistics_counts_and_groups() -> None:
    records = [
        rec(
            "q1",
            0,
            "pass",
            proved=True,
            item_meta={"difficulty": "easy", "tags": ["a", "b"]},
            candidate_meta={"model": "m1"},
        ),
        rec(
            "q1",
            1,
            "pass",
            proved=False,
            item_meta={"difficulty": "easy", "tags": ["a", "b"]},
            candidate_meta={"model": "m2"},
        ),
        rec(
            "q2",
            0,
            "fail",
            cause="grain",
            method="fixture",
            item_meta={"difficulty": "hard", "tags": ["b"]},
            candidate_meta={"model": "m1"},
        ),
        rec(
            "q2",
            1,
            "fail",
            method="predicate",
            item_meta={"difficulty": "hard", "tags": ["b"]},
            candidate_meta={"model": "m2"},
        ),
        rec("q3", 0, "fail", method="fixture", item_meta={"difficulty": "hard"}),
        rec("q3", 1, "unknown", item_meta={"difficulty": "hard"}),
        rec("q4", 0, "error", error={"kind": "parse_error"}),
        rec("q5", 0, "anomaly", item_meta={"difficulty": "easy"}),
    ]
    s = run_statistics(records, by=["difficulty", "tags", "model"])
    assert (s["n_records"], s["graded"], s["passed"], s["failed"]) == (8, 7, 2, 3)
    assert s["pass_rate"] == pytest.approx(2 / 7)
    assert s["pass_rate_ci"] == pytest.approx(list(wilson(2, 7)))
    assert s["ci_method"] == "wilson" and s["unit"] == "pair"
    assert (s["proved_passes"], s["unrefuted_passes"]) == (1, 1)
    assert s["proved_rate"] == pytest.approx(1 / 7)
    assert s["failures_by_cause"] == {"grain": 1, "predicate": 1, "unclassified": 1}
    assert (s["unknown"], s["errors"], s["errors_by_kind"]) == (1, 1, {"parse_error": 1})
    assert (s["anomalous_pairs"], s["anomalous_items"]) == (1, ["q5"])
    # Anomalies are in no group; a list value counts the record under each element.
    assert s["groups"]["difficulty"]["easy"]["graded"] == 2
    assert s["groups"]["difficulty"]["hard"] == {
        "graded": 4,
        "passed": 0,
        "pass_rate": 0.0,
        "pass_rate_ci": pytest.approx([0.0, wilson(0, 4)[1]]),
    }
    assert s["groups"]["tags"]["b"]["graded"] == 4 and s["groups"]["tags"]["a"]["passed"] == 2
    assert s["groups"]["tags"]["(missing)"]["graded"] == 3  # q3 twice, q4
    assert s["groups"]["model"]["m1"]["graded"] == 2
    assert s["samples_per_item"] == {"min": 1, "max": 2, "items_with_several": 3}
    assert any("several samples" in note for note in s["notes"])
    text = render_run_statistics(s)
    assert "28.6% (2/7) [8.2%, 64.1%] (Wilson 95%)" in text
    assert "by tags:" in text


def test_run_statistics_edge_cases() -> None:
    s = run_statistics([rec("q1", 0, "anomaly")])
    assert s["graded"] == 0 and s["pass_rate"] is None and s["pass_rate_ci"] is None
    assert "none graded" in render_run_statistics(s)
    single = run_statistics([rec("q1"), rec("q2", status="fail", cause="grain")])
    assert not any("several samples" in note for note in single["notes"])
    with pytest.raises(StatsError) as err:
        run_statistics([rec("q1", status="passed"), {"status": "pass"}])
    assert len(err.value.problems) == 2


# ---------------------------------------------------------------- paired comparison


def test_compare_runs_pairs_lists_and_winner() -> None:
    a = [
        rec(f"q{i}", 0, "pass" if i % 2 else "fail", candidate_meta={"judge": {"score": 3}})
        for i in range(60)
    ]
    b = [
        rec(f"q{i}", 0, "pass" if i % 4 else "fail", candidate_meta={"judge": {"score": 3}})
        for i in range(1, 61)
    ]
    a[5]["status"] = "anomaly"
    b[10]["candidate_meta"] = {}
    c = compare_runs(a, b, score="judge.score", label_a="base", label_b="new", n_resamples=4000)
    assert c["paired"] == 59
    assert c["only_in_a"] == [["q0", "0"]] and c["only_in_b"] == [["q60", "0"]]
    pr = c["metrics"]["pass_rate"]
    assert pr["excluded"] == [{"item_id": "q5", "sample": "0", "reason": "anomaly in base"}]
    assert pr["n"] == 58 and pr["direction"] == "new - base"
    assert pr["difference"] == pytest.approx(pr["mean_b"] - pr["mean_a"])
    assert pr["difference"] > 0 and pr["ci"][0] > 0
    assert pr["winner"] == "new" and pr["verdict"].startswith("new is better:")
    assert pr["discordant"]["a_only"] == 0
    score = c["metrics"]["judge.score"]
    assert score["missing"] == [
        {"item_id": "q11", "sample": "0", "reason": "no numeric judge.score in new"}
    ]
    assert score["difference"] == 0.0 and score["winner"] is None
    assert score["verdict"].startswith("no winner: the interval includes 0")
    text = render_comparison(c)
    assert "paired bootstrap, percentile 95%" in text and "sign-flip permutation test" in text


def test_compare_runs_no_winner_when_interval_covers_zero() -> None:
    a = [rec(f"q{i}", s, "pass" if (i + s) % 2 else "fail") for i in range(20) for s in range(2)]
    b = [rec(f"q{i}", s, "pass" if (i + s) % 3 else "fail") for i in range(20) for s in range(2)]
    c = compare_runs(a, b, n_resamples=4000)
    pr = c["metrics"]["pass_rate"]
    assert pr["ci"][0] < 0 < pr["ci"][1]
    assert pr["winner"] is None and pr["verdict"].startswith("no winner")
    assert pr["p_value"] > 0.05
    assert any("several paired samples" in n for n in c["notes"])
    # A is better when the runs swap.
    swapped = compare_runs(b, a, n_resamples=4000)["metrics"]["pass_rate"]
    assert swapped["difference"] == pytest.approx(-pr["difference"])


def test_compare_runs_rejects_repeated_keys() -> None:
    with pytest.raises(StatsError, match="appears 2 times"):
        compare_runs([rec("q1"), rec("q1")], [rec("q1")])
    with pytest.raises(StatsError, match="different labels"):
        compare_runs([rec("q1")], [rec("q1")], label_a="X", label_b="X")


def test_a_retried_pair_counts_once_whoever_reads_the_lines() -> None:
    # A results file after a rerun: q1's first attempt crashed, its retry passed.
    crashed = rec("q1", status="error", error={"kind": "worker_crashed"})
    lines = [crashed, rec("q2", status="fail", cause="grain"), rec("q1", attempts=2)]
    stats = run_statistics(lines)
    assert (stats["n_records"], stats["passed"], stats["errors"]) == (2, 1, 0)
    assert compare_runs(lines, [rec("q1"), rec("q2")])["paired"] == 2
    rows = audit_sample([*lines, rec("q3", status="error", error={"kind": "timeout"}),
                         rec("q3", status="fail", cause="grain", attempts=2)], 10)  # fmt: skip
    assert sorted(r["item_id"] for r in rows) == ["q2", "q3"]


# ---------------------------------------------------------------- audit


def test_allocate_rules() -> None:
    sizes = {"grain": 90, "missing_rows": 50, "projection": 15, "empty_result": 3, "extra_rows": 2}
    alloc = allocate(sizes, 50)
    assert sum(alloc.values()) == 50
    assert all(alloc[h] >= 1 for h in sizes)
    assert alloc == {
        "empty_result": 1,
        "extra_rows": 1,
        "grain": 28,
        "missing_rows": 15,
        "projection": 5,
    }
    # Caps: a stratum never gets more than it has; the excess moves on.
    capped = allocate({"a": 10, "b": 100}, 30, allocation="neyman", prior_rates={"b": 0.01})
    assert capped == {"a": 10, "b": 20}
    # Fewer units than strata: no minimum.
    assert sum(allocate(sizes, 3).values()) == 3
    # Neyman without prior rates is proportional; with rates it favours uncertain strata.
    assert allocate(sizes, 50, allocation="neyman") == alloc
    ney = allocate({"a": 100, "b": 100}, 20, allocation="neyman", prior_rates={"a": 0.5, "b": 0.02})
    assert ney["a"] > ney["b"] >= 1 and sum(ney.values()) == 20
    assert allocate({"a": 5, "b": 0}, 50) == {"a": 5, "b": 0}


def failure_suite(passes: int, causes: dict[str, int]) -> list[dict[str, Any]]:
    records = [rec(f"p{i}", 0, "pass", proved=False) for i in range(passes)]
    for cause, n in causes.items():
        records += [
            rec(
                f"{cause}{i}",
                0,
                "fail",
                cause=cause,
                method="fixture",
                candidate_sql="SELECT 1",
                detail="differs",
            )
            for i in range(n)
        ]
    return records


def test_audit_sample_is_stratified_and_reproducible() -> None:
    records = failure_suite(100, {"grain": 60, "missing_rows": 30, "projection": 10})
    plan = audit_plan(records, 20)
    assert plan["strata"] == {
        "grain": {"N": 60, "n": 12},
        "missing_rows": {"N": 30, "n": 6},
        "projection": {"N": 10, "n": 2},
    }
    rows = audit_sample(records, 20, seed=3, include_passes=4)
    strata = [r["stratum"] for r in rows]
    assert strata.count("grain") == 12 and strata.count("pass") == 4
    assert all(tuple(r) == FAIL_ROW_KEYS for r in rows if r["stratum"] != "pass")
    assert all(tuple(r) == PASS_ROW_KEYS for r in rows if r["stratum"] == "pass")
    assert all(r["false_fail"] is None and r["note"] == "" for r in rows if r["stratum"] != "pass")
    assert len({(r["item_id"], r["sample"]) for r in rows}) == 24
    assert rows == audit_sample(list(reversed(records)), 20, seed=3, include_passes=4)
    assert rows != audit_sample(records, 20, seed=4, include_passes=4)
    assert "proportional allocation" in render_audit_plan(plan)


def label(rows: list[dict[str, Any]], false: dict[str, int]) -> list[dict[str, Any]]:
    """Mark the first ``false[stratum]`` rows of each stratum as false fails, the rest true."""
    seen: dict[str, int] = {}
    out = []
    for row in rows:
        h = row["stratum"]
        field = "false_pass" if h == "pass" else "false_fail"
        out.append({**row, field: seen.get(h, 0) < false.get(h, 0)})
        seen[h] = seen.get(h, 0) + 1
    return out


def test_worked_check_one_stratum() -> None:
    """500 graded, 68% pass, 11 false fails among 50 of the 160 failures."""
    records = failure_suite(340, {"grain": 160})
    rows = label(audit_sample(records, 50), {"grain": 11})
    est = audit_estimate(records, rows)
    assert est["observed_pass_rate"] == 0.68
    assert est["estimated_false_fails"] == pytest.approx(35.2)
    assert est["corrected_pass_rate"] == pytest.approx(0.7504)
    var_total = 160**2 * (1 - 50 / 160) * 0.22 * 0.78 / 49
    se = math.sqrt(var_total) / 500
    assert est["se"] == pytest.approx(se)
    assert est["ci"] == pytest.approx([0.7504 - 1.959964 * se, 0.7504 + 1.959964 * se], abs=1e-6)
    assert est["ci"] == pytest.approx([0.7196, 0.7812], abs=1e-4)
    # The bootstrap carries the same finite population correction: about the same width.
    lo, hi = est["bootstrap_ci"]
    assert lo == pytest.approx(est["ci"][0], abs=0.006) and hi == pytest.approx(
        est["ci"][1], abs=0.006
    )
    assert est["largest_contributor"] == {
        "stratum": "grain",
        "estimated_false_fails": 35.2,
        "share": 1.0,
    }
    assert est["bounds"] == [351 / 500, 461 / 500]


def test_worked_check_interval_coverage_is_exact_hypergeometric() -> None:
    """Over every sample of 50 from 160 failures holding 35 false fails, the 95% interval
    covers the true corrected rate 375/500 with probability ~0.95 (weights: hypergeometric)."""
    records = failure_suite(340, {"grain": 160})
    truth = 375 / 500
    dist = sps.hypergeom(160, 35, 50)
    coverage = boot_coverage = 0.0
    for x in range(0, 36):
        rows = [
            {"item_id": f"grain{i}", "sample": 0, "stratum": "grain", "false_fail": i < x}
            for i in range(50)
        ]
        est = audit_estimate(records, rows, n_resamples=1000)
        coverage += dist.pmf(x) * (est["ci"][0] <= truth <= est["ci"][1])
        boot_coverage += dist.pmf(x) * (est["bootstrap_ci"][0] <= truth <= est["bootstrap_ci"][1])
    assert 0.93 <= coverage <= 0.97
    assert 0.93 <= boot_coverage <= 0.97
    # Without the finite population correction the interval would be wider: coverage above 0.97.
    z = 1.959964
    no_fpc = sum(
        dist.pmf(x)
        * (
            abs((340 + 160 * x / 50) / 500 - truth)
            <= z * math.sqrt(160**2 * (x / 50) * (1 - x / 50) / 49) / 500
        )
        for x in range(0, 51)
    )
    assert no_fpc > coverage


def test_stratified_estimate_by_hand() -> None:
    causes = {"grain": 80, "missing_rows": 50, "projection": 20, "empty_result": 10}
    records = failure_suite(340, causes)
    rows = audit_sample(records, 40)
    n_h = {h: sum(r["stratum"] == h for r in rows) for h in causes}
    assert n_h == {"grain": 20, "missing_rows": 13, "projection": 5, "empty_result": 2}
    x_h = {"grain": 6, "missing_rows": 2, "projection": 1, "empty_result": 0}
    est = audit_estimate(records, label(rows, x_h))
    total = var = 0.0
    for h, size in causes.items():
        p = x_h[h] / n_h[h]
        total += size * p
        var += size**2 * (1 - n_h[h] / size) * p * (1 - p) / (n_h[h] - 1)
    graded = 340 + 160
    assert est["estimated_false_fails"] == pytest.approx(total)  # 24 + 7.69 + 4 + 0
    assert est["corrected_pass_rate"] == pytest.approx((340 + total) / graded)
    assert est["se"] == pytest.approx(math.sqrt(var) / graded)
    by = {s["stratum"]: s for s in est["strata"]}
    assert by["grain"]["estimated"] == pytest.approx(24.0)
    assert by["missing_rows"]["rate"] == pytest.approx(2 / 13)
    assert est["largest_contributor"]["stratum"] == "grain"
    assert est["largest_contributor"]["share"] == pytest.approx(24.0 / total)
    assert any("all agree" in n for n in est["notes"])  # empty_result: 0 of 3
    text = render_audit_estimate(est)
    assert "largest contributor  grain" in text and "Rao-Wu" in text


def test_audit_estimate_edge_rules() -> None:
    records = failure_suite(50, {"grain": 30, "projection": 1, "extra_rows": 5})
    rows = [
        {"item_id": "grain0", "sample": 0, "stratum": "grain", "false_fail": True},
        {"item_id": "grain1", "sample": 0, "stratum": "grain", "false_fail": False},
        {"item_id": "projection0", "sample": 0, "stratum": "projection", "false_fail": True},
        {"item_id": "extra_rows0", "sample": 0, "stratum": "extra_rows", "false_fail": True},
        {"item_id": "p3", "sample": 0, "stratum": "pass", "false_pass": True},
        {"item_id": "p4", "sample": 0, "stratum": "pass", "false_pass": False},
    ]
    est = audit_estimate(records, rows)
    by = {s["stratum"]: s for s in est["strata"]}
    assert by["projection"]["variance"] == 0.0  # a census
    assert by["extra_rows"]["variance"] == pytest.approx(25 * (1 - 1 / 5) * 0.25)  # n_h = 1 rule
    assert by["grain"]["variance"] == pytest.approx(900 * (1 - 2 / 30) * 0.25 / 1)
    assert est["estimated_false_passes"] == pytest.approx(25.0)
    assert est["corrected_pass_rate"] == pytest.approx((50 - 25 + 15 + 1 + 5) / 86)
    assert any("single label" in n for n in est["notes"])
    # An unsampled stratum adds nothing, is listed, and widens the bounds.
    partial = audit_estimate(records, rows[:2])
    assert sorted(partial["unsampled_strata"]) == ["extra_rows", "projection"]
    assert partial["bounds"][1] == pytest.approx((50 + 29 + 1 + 5) / 86)


def test_audit_labels_are_validated_all_at_once(tmp_path: Path) -> None:
    records = [*failure_suite(10, {"grain": 10}), rec("u1", 0, "unknown")]
    rows = audit_sample(records, 4)
    rows[0]["false_fail"] = True
    rows[1]["verdict"] = "mine"  # unknown key, label missing
    rows[2]["false_fail"] = "yes"
    rows[3]["false_fail"] = False
    rows.append({"item_id": "nope", "sample": 0, "stratum": "grain", "false_fail": True})
    rows.append({**rows[0]})  # repeated
    rows.append({"item_id": "u1", "sample": 0, "stratum": "unknown", "false_fail": True})
    rows.append({"item_id": "grain9", "sample": 0, "stratum": "projection", "false_fail": True})
    with pytest.raises(StatsError) as err:
        audit_estimate(records, rows)
    problems = err.value.problems
    assert len(problems) == 7, problems
    assert any("unknown keys 'verdict'" in p for p in problems)
    assert any("false_fail is missing" in p for p in problems)
    assert any("must be true or false" in p for p in problems)
    assert any("not a record of the results" in p for p in problems)
    assert any("same pair as row 1" in p for p in problems)
    assert any("not audited" in p for p in problems)
    assert any("the results say 'grain'" in p for p in problems)
    # Unknowns can be audited as their own stratum when asked for.
    ok = [
        {**r, "false_fail": False} for r in audit_sample(records, 5, statuses=["fail", "unknown"])
    ]
    assert "unknown" in {r["stratum"] for r in ok}
    assert audit_estimate(records, ok, statuses=["fail", "unknown"])["labelled"] == 5
    # The labels file round-trips through JSONL.
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ok) + "\n")
    assert read_labels(path) == ok


def test_failures_are_counted_and_stratified_by_realism() -> None:
    """With data, failures are counted by the realism of their counterexample, and the
    false-fail audit samples each cause and tier apart; without data nothing changes."""
    from sqlequiv.stats.audit import stratum_of
    from sqlequiv.stats.runs import run_statistics

    def fail(i: int, realism: str | None) -> dict[str, object]:
        ce = {"realism": realism, "breaks": []} if realism else None
        return {"item_id": f"q{i}", "sample": 0, "status": "fail", "cause": "grain",
                "counterexample": ce}  # fmt: skip

    records = [fail(0, "edge"), fail(1, "edge"), fail(2, "on_data"), fail(3, None)]
    stats = run_statistics(records)
    assert stats["failures_by_realism"] == {"on_data": 1, "edge": 2}
    assert stats["failures_by_cause"] == {"grain": 4}
    strata = [stratum_of(r) for r in records]
    assert strata == ["grain/edge", "grain/edge", "grain/on_data", "grain"]
    assert run_statistics([fail(0, None)])["failures_by_realism"] == {}
