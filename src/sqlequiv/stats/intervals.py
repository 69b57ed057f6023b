"""Confidence intervals and a permutation test: Wilson, bootstrap, paired bootstrap, sign flip.

Every function is deterministic: the random ones take a ``seed`` (default 0)
and draw from ``numpy.random.default_rng(seed)``, so the same call gives the
same numbers. Every result says which method produced it (``method``), so a
number is never quoted without the procedure behind it.

* :func:`wilson` -- the Wilson score interval of a binomial proportion
  (no continuity correction; the interval ``scipy.stats.binomtest(...)
  .proportion_ci(method="wilson")`` returns).
* :func:`bootstrap_ci` -- a nonparametric bootstrap interval of a statistic
  (percentile or BCa).
* :func:`paired_bootstrap_diff` -- the bootstrap interval of ``mean(a - b)``
  resampling the pairs ``(a_i, b_i)`` together.
* :func:`sign_flip_test` -- the two-sided paired permutation test of
  "the differences are symmetric about 0": exact enumeration of the sign
  patterns when at most 20 differences are nonzero, Monte Carlo with the
  ``(k + 1) / (R + 1)`` correction otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import Literal, TypedDict

import numpy as np
from numpy.typing import NDArray

from sqlequiv.errors import PlainError

Array = NDArray[np.float64]
Statistic = Callable[[Array], float]
BootstrapMethod = Literal["percentile", "bca"]

#: At most this many nonzero differences are enumerated exactly (2**20 sign patterns).
EXACT_LIMIT = 20
#: Resampled values held in memory at once (the index matrix is chunked to this size).
_CHUNK = 1 << 21

__all__ = [
    "EXACT_LIMIT",
    "BootstrapInterval",
    "SignFlipResult",
    "StatsError",
    "bootstrap_ci",
    "mean",
    "normal_quantile",
    "paired_bootstrap_diff",
    "sign_flip_test",
    "wilson",
]


class StatsError(PlainError, ValueError):
    """Input the statistics cannot be computed from; ``problems`` lists every one found.

    Example:
        >>> err = StatsError(["line 3: unknown key 'x'", "line 7: false_fail is missing"])
        >>> print(err)
        2 problems:
          line 3: unknown key 'x'
          line 7: false_fail is missing
    """

    SIDE = "stats"
    KIND = "invalid_input"

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            lines = [f"{len(self.problems)} problems:"] + [f"  {p}" for p in self.problems]
            message = "\n".join(lines)
        super().__init__(message)


class BootstrapInterval(TypedDict):
    """A bootstrap interval and how it was made."""

    #: The statistic on the data as observed.
    estimate: float
    lo: float
    hi: float
    confidence: float
    #: ``bootstrap-percentile`` or ``bootstrap-bca`` (``paired-`` prefixed for pairs).
    method: str
    #: Number of observations (pairs, for a paired interval).
    n: int
    n_resamples: int
    seed: int


class SignFlipResult(TypedDict):
    """A two-sided sign-flip permutation test and how it was made."""

    p_value: float
    #: ``sign-flip-exact`` (every sign pattern) or ``sign-flip-monte-carlo``.
    method: str
    #: The test statistic: the mean of the differences.
    statistic: float
    n: int
    #: Differences that are not zero (a zero is unchanged by a flip and left out).
    n_nonzero: int
    #: Sign patterns evaluated: ``2**n_nonzero`` (exact) or ``n_resamples`` (Monte Carlo).
    n_patterns: int
    seed: int
    alternative: str


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise StatsError([f"confidence must be between 0 and 1 (exclusive), got {confidence!r}"])


def normal_quantile(p: float) -> float:
    """The standard normal quantile (inverse CDF) at ``p``.

    Example:
        >>> round(normal_quantile(0.975), 6)
        1.959964
    """
    return NormalDist().inv_cdf(p)


def mean(values: Array) -> float:
    """The arithmetic mean (the default bootstrap statistic, computed vectorised).

    Example:
        >>> mean(np.array([1.0, 2.0, 6.0]))
        3.0
    """
    return float(np.mean(values))


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion ``successes / n``.

    The interval inverts the score test: it is the set of ``p`` for which
    ``|x/n - p| <= z * sqrt(p (1 - p) / n)``. Unlike the Wald interval it
    never leaves ``[0, 1]`` and does not collapse to a point at 0 or n
    successes. No continuity correction.

    Example:
        >>> lo, hi = wilson(26, 45)
        >>> round(lo, 4), round(hi, 4)
        (0.433, 0.7103)
        >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
        (0.0, 0.2775)
    """
    _check_confidence(confidence)
    if n <= 0:
        raise StatsError([f"the Wilson interval needs n >= 1, got n = {n}"])
    if not 0 <= successes <= n:
        raise StatsError([f"successes must be between 0 and n = {n}, got {successes}"])
    z = normal_quantile(1 - (1 - confidence) / 2)
    z2 = z * z
    centre = (successes + z2 / 2) / (n + z2)
    half = z / (n + z2) * math.sqrt(successes * (n - successes) / n + z2 / 4)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def _as_array(values: Sequence[float] | Array, name: str = "values") -> Array:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise StatsError([f"{name} must be one-dimensional"])
    if not np.all(np.isfinite(array)):
        raise StatsError([f"{name} must be finite numbers"])
    return array


def _bootstrap_distribution(
    x: Array, statistic: Statistic, n_resamples: int, rng: np.random.Generator
) -> Array:
    """The statistic on ``n_resamples`` resamples (with replacement) of ``x``."""
    n = len(x)
    out = np.empty(n_resamples, dtype=np.float64)
    rows = max(1, _CHUNK // n)
    for start in range(0, n_resamples, rows):
        stop = min(n_resamples, start + rows)
        idx = rng.integers(0, n, size=(stop - start, n))
        if statistic is mean:
            out[start:stop] = x[idx].mean(axis=1)
        else:
            resampled = x[idx]
            out[start:stop] = [statistic(row) for row in resampled]
    return out


def _jackknife(x: Array, statistic: Statistic) -> Array:
    """The statistic with each observation left out in turn."""
    n = len(x)
    if statistic is mean:
        return np.asarray((x.sum() - x) / (n - 1), dtype=np.float64)
    return np.array([statistic(np.delete(x, i)) for i in range(n)], dtype=np.float64)


def _bca_levels(
    x: Array, statistic: Statistic, theta: float, boot: Array, alpha: float
) -> tuple[float, float]:
    """BCa-adjusted quantile levels (Efron 1987), ties counted half in the bias correction."""
    r = len(boot)
    below = float(np.count_nonzero(boot < theta)) + 0.5 * float(np.count_nonzero(boot == theta))
    # Keep z0 finite when every resample falls on one side (as with very skewed 0/1 data).
    proportion = min(max(below / r, 0.5 / r), 1 - 0.5 / r)
    z0 = normal_quantile(proportion)
    if len(x) < 3:
        a = 0.0
    else:
        jack = _jackknife(x, statistic)
        dev = jack.mean() - jack
        denom = 6.0 * float(np.sum(dev**2)) ** 1.5
        a = float(np.sum(dev**3)) / denom if denom > 0 else 0.0
    levels = []
    for q in (alpha / 2, 1 - alpha / 2):
        zq = normal_quantile(q)
        shifted = z0 + zq
        levels.append(NormalDist().cdf(z0 + shifted / (1 - a * shifted)))
    return (levels[0], levels[1])


def bootstrap_ci(
    values: Sequence[float] | Array,
    statistic: Statistic = mean,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    method: BootstrapMethod = "percentile",
) -> BootstrapInterval:
    """A nonparametric bootstrap interval of ``statistic(values)``.

    Draws ``n_resamples`` samples of ``len(values)`` with replacement and
    takes the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
    quantiles (linear interpolation) of the statistic over them
    (``percentile``), or the BCa-adjusted quantiles (``bca``: bias
    correction from the share of resampled statistics below the estimate,
    ties counted half; acceleration from the jackknife). ``statistic``
    takes a 1-D float array; the default :func:`mean` is vectorised, any
    other is called once per resample. When every resampled statistic is
    equal (constant data, or one value) the interval is that point.

    Example:
        >>> ci = bootstrap_ci([1, 0, 1, 1, 0, 1, 1, 1, 0, 1], n_resamples=2000)
        >>> ci["estimate"], ci["method"], ci["n"], ci["seed"]
        (0.7, 'bootstrap-percentile', 10, 0)
        >>> ci["lo"] < 0.7 < ci["hi"]
        True
        >>> bootstrap_ci([2, 2, 2])["lo"], bootstrap_ci([2, 2, 2], method="bca")["hi"]
        (2.0, 2.0)
    """
    _check_confidence(confidence)
    if method not in ("percentile", "bca"):
        raise StatsError([f"method must be 'percentile' or 'bca', got {method!r}"])
    if n_resamples < 1:
        raise StatsError([f"n_resamples must be at least 1, got {n_resamples}"])
    x = _as_array(values)
    if len(x) == 0:
        raise StatsError(["a bootstrap interval needs at least one value"])
    theta = float(statistic(x))
    rng = np.random.default_rng(seed)
    boot = _bootstrap_distribution(x, statistic, n_resamples, rng)
    alpha = 1 - confidence
    if float(np.min(boot)) == float(np.max(boot)):
        lo = hi = float(boot[0])
    else:
        if method == "bca":
            q_lo, q_hi = _bca_levels(x, statistic, theta, boot, alpha)
        else:
            q_lo, q_hi = alpha / 2, 1 - alpha / 2
        lo, hi = (float(v) for v in np.quantile(boot, [q_lo, q_hi]))
    return BootstrapInterval(
        estimate=theta,
        lo=lo,
        hi=hi,
        confidence=confidence,
        method=f"bootstrap-{method}",
        n=len(x),
        n_resamples=n_resamples,
        seed=seed,
    )


def paired_bootstrap_diff(
    a: Sequence[float] | Array,
    b: Sequence[float] | Array,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
    method: BootstrapMethod = "percentile",
) -> BootstrapInterval:
    """The bootstrap interval of ``mean(a - b)``, resampling pairs ``(a_i, b_i)`` together.

    Resampling pairs keeps whatever the two measurements of one unit share
    (the same item is easy or hard for both runs), which is what makes a
    paired interval narrower than one that treats the runs as independent.
    The estimate is ``mean(a) - mean(b)``: the sign convention is **a - b**.

    Example:
        >>> ci = paired_bootstrap_diff([1, 1, 0, 1, 1, 1], [0, 1, 0, 0, 1, 0], n_resamples=2000)
        >>> round(ci["estimate"], 4), ci["method"], ci["n"]
        (0.5, 'paired-bootstrap-percentile', 6)
    """
    xa, xb = _as_array(a, "a"), _as_array(b, "b")
    if len(xa) != len(xb):
        raise StatsError([f"a and b must pair up: {len(xa)} values against {len(xb)}"])
    result = bootstrap_ci(
        xa - xb,
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
        method=method,
    )
    result["method"] = "paired-" + result["method"]
    return result


def _subset_sums(values: Array) -> Array:
    """The sums of every subset of ``values`` (``2**len(values)`` of them)."""
    sums = np.zeros(1, dtype=np.float64)
    for v in values:
        sums = np.concatenate([sums, sums + v])
    return sums


def sign_flip_test(
    differences: Sequence[float] | Array, n_resamples: int = 10000, seed: int = 0
) -> SignFlipResult:
    """Two-sided paired permutation test: is the mean of ``differences`` zero?

    Under the null hypothesis each difference is as likely to have either
    sign, so the observed mean is compared with the means over sign
    patterns: the p-value is the share of patterns whose ``|mean|`` is at
    least the observed one. A zero difference is unchanged by a flip and
    left out of the enumeration (the p-value is the same either way). With
    at most :data:`EXACT_LIMIT` nonzero differences every one of the
    ``2**n_nonzero`` patterns is evaluated (``sign-flip-exact``, the p-value
    ``scipy.stats.permutation_test(..., permutation_type="samples")``
    computes when it enumerates); otherwise ``n_resamples`` random patterns
    are drawn and ``p = (k + 1) / (R + 1)`` counts the observed pattern
    among them (``sign-flip-monte-carlo``), so ``p`` is never 0.

    Example:
        >>> r = sign_flip_test([1, 1, 1, 1, 1])
        >>> r["p_value"], r["method"], r["n_patterns"]
        (0.0625, 'sign-flip-exact', 32)
        >>> sign_flip_test([0, 0, 0])["p_value"]
        1.0
        >>> r = sign_flip_test([1.0] * 30, n_resamples=999)
        >>> r["p_value"], r["method"]
        (0.001, 'sign-flip-monte-carlo')
    """
    if n_resamples < 1:
        raise StatsError([f"n_resamples must be at least 1, got {n_resamples}"])
    d = _as_array(differences, "differences")
    n = len(d)
    if n == 0:
        raise StatsError(["a sign-flip test needs at least one difference"])
    nonzero = d[d != 0]
    m = len(nonzero)
    observed = float(np.sum(nonzero))
    # Sums of the same numbers in another order can differ in the last bits.
    tol = 64 * np.finfo(np.float64).eps * float(np.sum(np.abs(nonzero)))
    threshold = abs(observed) - tol
    if m <= EXACT_LIMIT:
        # Flipping the subset F turns the sum S into S - 2 * sum(F).
        flipped = observed - 2 * _subset_sums(nonzero)
        count = int(np.count_nonzero(np.abs(flipped) >= threshold))
        p = count / 2**m
        method, patterns = "sign-flip-exact", 2**m
    else:
        rng = np.random.default_rng(seed)
        count = 0
        rows = max(1, _CHUNK // m)
        for start in range(0, n_resamples, rows):
            stop = min(n_resamples, start + rows)
            signs = rng.integers(0, 2, size=(stop - start, m), dtype=np.int8) * 2 - 1
            sums = signs @ nonzero
            count += int(np.count_nonzero(np.abs(sums) >= threshold))
        p = (count + 1) / (n_resamples + 1)
        method, patterns = "sign-flip-monte-carlo", n_resamples
    return SignFlipResult(
        p_value=min(1.0, p),
        method=method,
        statistic=float(np.mean(d)),
        n=n,
        n_nonzero=m,
        n_patterns=patterns,
        seed=seed,
        alternative="two-sided",
    )
