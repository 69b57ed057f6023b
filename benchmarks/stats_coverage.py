"""Coverage of sqlequiv.stats intervals and the size of its test, by simulation.

Usage::

    python benchmarks/stats_coverage.py [--runs N] [--seed S] [--quick]

For each method and setting, data are simulated from a known truth many
times (``runs``), the interval (or test) is computed with the library
function, and the share of runs whose interval covers the truth (or whose
test rejects a true null) is printed with its Monte Carlo standard error
``sqrt(q (1 - q) / runs)``:

* Wilson 95% on binomial data at several p and n (plus the exact coverage,
  summing binomial probabilities over the outcomes whose interval covers p).
* The paired bootstrap 95% interval of a pass-rate difference B - A on
  correlated pass/fail pairs, at several n (it undercovers at small n).
* The audit estimator's 95% intervals (normal and bootstrap) of the
  corrected pass rate when 50 of 160 failures are labelled: one stratum
  (the worked example, 35 false fails, plus the exact hypergeometric
  coverage), several causes with proportional and Neyman allocation, and a
  low false-fail rate where the normal approximation is strained.
* The sign-flip test's type-I error at alpha = 0.05 under the null, on
  paired pass/fail data, on 1-5 rubric scores (both discrete: the test is
  conservative when few differences are nonzero) and on continuous
  differences (exact at n = 10, Monte Carlo at n = 40).

Every setting is seeded (``--seed`` + the setting's index), so the table is
reproducible.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sqlequiv.stats import (
    audit_estimate,
    audit_sample,
    paired_bootstrap_diff,
    sign_flip_test,
    wilson,
)
from sqlequiv.stats.audit import Allocation


@dataclass
class Row:
    method: str
    setting: str
    nominal: float
    observed: float
    runs: int
    seed: int
    exact: float | None = None
    kind: str = "coverage"

    @property
    def se(self) -> float:
        return math.sqrt(self.observed * (1 - self.observed) / self.runs)


def binomial_pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    logs = (
        np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k])
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )
    return np.asarray(np.exp(logs), dtype=np.float64)


def wilson_rows(runs: int, seed: int) -> list[Row]:
    rows = []
    for i, (n, p) in enumerate(
        [(n, p) for n in (20, 50, 200, 500) for p in (0.05, 0.2, 0.5, 0.68, 0.9)]
    ):
        s = seed + i
        intervals = [wilson(k, n) for k in range(n + 1)]
        covers = np.array([lo <= p <= hi for lo, hi in intervals])
        k = np.random.default_rng(s).binomial(n, p, size=runs)
        exact = float(np.sum(binomial_pmf(n, p) * covers))
        rows.append(Row("Wilson", f"n={n} p={p}", 0.95, float(covers[k].mean()), runs, s, exact))
    return rows


def paired_pairs(
    rng: np.random.Generator, n: int, p_a: float, p_b: float, agree: float
) -> tuple[np.ndarray, np.ndarray]:
    """Pass/fail pairs: A ~ Bern(p_a); B copies A with probability ``agree``, else draws Bern(q)
    with q chosen so that P(B) = p_b."""
    q = (p_b - agree * p_a) / (1 - agree)
    a = (rng.random(n) < p_a).astype(float)
    fresh = (rng.random(n) < q).astype(float)
    b = np.where(rng.random(n) < agree, a, fresh)
    return a, b


def paired_rows(runs: int, seed: int, resamples: int) -> list[Row]:
    rows = []
    settings = [
        (20, 0.6, 0.7, 0.6),
        (50, 0.6, 0.7, 0.6),
        (200, 0.6, 0.7, 0.6),
        (50, 0.85, 0.9, 0.5),
    ]
    for i, (n, p_a, p_b, agree) in enumerate(settings):
        s = seed + 100 + i
        rng = np.random.default_rng(s)
        truth = p_b - p_a
        hits = 0
        for r in range(runs):
            a, b = paired_pairs(rng, n, p_a, p_b, agree)
            ci = paired_bootstrap_diff(b, a, n_resamples=resamples, seed=r)
            hits += ci["lo"] <= truth <= ci["hi"]
        rows.append(
            Row(
                "paired bootstrap percentile (B - A)",
                f"n={n} pA={p_a} pB={p_b} agree={agree}",
                0.95,
                hits / runs,
                runs,
                s,
            )
        )
    return rows


def suite(passes: int, causes: dict[str, int]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = [
        {"item_id": f"p{i}", "sample": 0, "status": "pass"} for i in range(passes)
    ]
    for cause, size in causes.items():
        records += [
            {"item_id": f"{cause}{i}", "sample": 0, "status": "fail", "cause": cause}
            for i in range(size)
        ]
    return records


def audit_rows(runs: int, seed: int, resamples: int) -> list[Row]:
    # (label, causes {cause: (N_h, false fails)}, allocation, prior rates)
    settings: list[tuple[str, dict[str, tuple[int, int]], Allocation, dict[str, float] | None]] = [
        ("1 stratum, 35/160 false", {"grain": (160, 35)}, "proportional", None),
        (
            "5 causes, 35/160 false",
            {
                "grain": (70, 21),
                "missing_rows": (50, 10),
                "filter_window": (25, 3),
                "projection": (10, 1),
                "empty_result": (5, 0),
            },
            "proportional",
            None,
        ),
        (
            "5 causes, 35/160 false",
            {
                "grain": (70, 21),
                "missing_rows": (50, 10),
                "filter_window": (25, 3),
                "projection": (10, 1),
                "empty_result": (5, 0),
            },
            "neyman",
            {
                "grain": 0.3,
                "missing_rows": 0.2,
                "filter_window": 0.1,
                "projection": 0.1,
                "empty_result": 0.05,
            },
        ),
        ("1 stratum, 5/160 false", {"grain": (160, 5)}, "proportional", None),
    ]
    rows: list[Row] = []
    for i, (label, causes, allocation, priors) in enumerate(settings):
        s = seed + 200 + i
        records = suite(340, {h: size for h, (size, _) in causes.items()})
        false = {f"{h}{j}" for h, (_, x) in causes.items() for j in range(x)}
        truth = (340 + len(false)) / 500
        normal = boot = 0
        for r in range(runs):
            sample = audit_sample(
                records,
                50,
                seed=s * 100003 + r,
                allocation=allocation,
                prior_rates=priors,
            )
            for row in sample:
                row["false_fail"] = row["item_id"] in false
            est = audit_estimate(records, sample, n_resamples=resamples, seed=r)
            normal += est["ci"][0] <= truth <= est["ci"][1]
            boot += est["bootstrap_ci"][0] <= truth <= est["bootstrap_ci"][1]
        setting = f"{label}, n=50 {allocation}"
        exact = exact_one_stratum(causes, resamples) if len(causes) == 1 else None
        rows.append(
            Row(
                "audit: normal, stratified + FPC",
                setting,
                0.95,
                normal / runs,
                runs,
                s,
                exact and exact[0],
            )
        )
        rows.append(
            Row("audit: Rao-Wu bootstrap", setting, 0.95, boot / runs, runs, s, exact and exact[1])
        )
    return rows


def exact_one_stratum(causes: dict[str, tuple[int, int]], resamples: int) -> tuple[float, float]:
    """Coverage summed over the hypergeometric distribution of the number of false fails seen."""
    ((cause, (size, false)),) = causes.items()
    records = suite(340, {cause: size})
    truth = (340 + false) / 500
    normal = boot = 0.0
    for x in range(0, min(false, 50) + 1):
        logp = _log_choose(false, x) + _log_choose(size - false, 50 - x) - _log_choose(size, 50)
        labels = [
            {"item_id": f"{cause}{j}", "sample": 0, "stratum": cause, "false_fail": j < x}
            for j in range(50)
        ]
        est = audit_estimate(records, labels, n_resamples=resamples)
        normal += math.exp(logp) * (est["ci"][0] <= truth <= est["ci"][1])
        boot += math.exp(logp) * (est["bootstrap_ci"][0] <= truth <= est["bootstrap_ci"][1])
    return (normal, boot)


def _log_choose(n: int, k: int) -> float:
    if k < 0 or k > n:
        return -math.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def sign_flip_rows(runs: int, seed: int, resamples: int) -> list[Row]:
    rows = []
    generators: list[tuple[str, Callable[[np.random.Generator], np.ndarray]]] = []
    for n in (20, 50, 200):

        def pass_fail(rng: np.random.Generator, n: int = n) -> np.ndarray:
            a, b = paired_pairs(rng, n, 0.6, 0.6, 0.6)
            return np.asarray(b - a, dtype=np.float64)

        generators.append((f"pass/fail pairs n={n} pA=pB=0.6", pass_fail))
    for n in (15, 60):

        def scores(rng: np.random.Generator, n: int = n) -> np.ndarray:
            # 1-5 rubric scores: a per-item level shared by both runs, independent noise.
            level = rng.integers(1, 6, size=n)
            a = np.clip(level + rng.integers(-1, 2, size=n), 1, 5)
            b = np.clip(level + rng.integers(-1, 2, size=n), 1, 5)
            return np.asarray(b - a, dtype=np.float64)

        generators.append((f"1-5 scores n={n}, same distribution", scores))
    for n in (10, 40):

        def normal(rng: np.random.Generator, n: int = n) -> np.ndarray:
            return rng.normal(0.0, 1.0, size=n)

        generators.append((f"normal differences n={n}", normal))
    for i, (label, make) in enumerate(generators):
        s = seed + 300 + i
        rng = np.random.default_rng(s)
        rejections = 0
        for r in range(runs):
            d = make(rng)
            rejections += sign_flip_test(d, n_resamples=resamples, seed=r)["p_value"] <= 0.05
        rows.append(
            Row(
                "sign-flip test, alpha=0.05",
                label,
                0.05,
                rejections / runs,
                runs,
                s,
                kind="type-I error",
            )
        )
    return rows


def render(rows: list[Row]) -> str:
    header = (
        "method",
        "setting",
        "measure",
        "nominal",
        "observed",
        "MC SE",
        "exact",
        "runs",
        "seed",
    )
    table = [header] + [
        (
            r.method,
            r.setting,
            r.kind,
            f"{r.nominal:.3f}",
            f"{r.observed:.3f}",
            f"{r.se:.3f}",
            "-" if r.exact is None else f"{r.exact:.3f}",
            str(r.runs),
            str(r.seed),
        )
        for r in rows
    ]
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    lines = []
    for j, row in enumerate(table):
        cells = [
            cell.ljust(w) if c < 3 else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000, help="simulated data sets per setting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--resamples",
        type=int,
        default=2000,
        help="bootstrap resamples / Monte Carlo sign patterns per interval",
    )
    parser.add_argument("--quick", action="store_true", help="200 runs, 1000 resamples")
    args = parser.parse_args(argv)
    runs, resamples = (200, 1000) if args.quick else (args.runs, args.resamples)
    start = time.perf_counter()
    rows = wilson_rows(max(runs, 20000), args.seed)
    rows += paired_rows(runs, args.seed, resamples)
    rows += audit_rows(runs, args.seed, resamples)
    rows += sign_flip_rows(runs, args.seed, resamples)
    print(render(rows))
    print(
        f"\n{time.perf_counter() - start:.0f} s; bootstrap and Monte Carlo sign-flip use "
        f"{resamples} resamples per interval; exact = coverage summed over the sampling "
        "distribution (binomial for Wilson, hypergeometric for the one-stratum audit)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
