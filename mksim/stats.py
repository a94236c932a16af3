"""Statistics for reports and gates: intervals, paired comparisons, multiple-testing correction.

Every figure mksim reports carries n and an interval; comparisons are paired on the shared
game seeds of an experiment (game ``k`` of every cell is set up from the same streams).  The
distributions come from :mod:`scipy.stats`; this module only chooses them and packs their
results:

- :func:`mean_ci`: a mean with a bootstrap interval (``scipy.stats.bootstrap``, BCa);
- :func:`proportion_ci`: a rate with a Wilson interval (``binomtest(...).proportion_ci``);
- :func:`paired_difference`: the mean of paired differences with a bootstrap interval,
  the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``), the matched-pairs rank-biserial
  effect size and the share of seeds on which each side did better;
- :func:`mcnemar`: McNemar's exact test for paired win / loss (``binomtest`` on the
  discordant pairs);
- :func:`adjust`: Holm (step-down) or Benjamini-Hochberg
  (``scipy.stats.false_discovery_control``) adjusted p-values.

Intervals are 95% unless ``confidence`` says otherwise.  Bootstrap resampling draws from
its own generator seeded by the caller (``seed``), never from a global one, so a report
made twice from the same results is identical.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

__all__ = ["Estimate", "Paired", "mean_ci", "proportion_ci", "paired_difference", "mcnemar",
           "adjust", "BOOTSTRAP_RESAMPLES"]

#: Bootstrap resamples per interval: enough for stable 95% BCa limits at report precision
#: (the limits move by well under a tenth of the interval width between seeds).
BOOTSTRAP_RESAMPLES = 2000
#: Largest sample given a BCa interval (larger ones get the percentile interval).
BCA_MAX_N = 5000
#: Resamples held in memory at once (bounds memory at BATCH x n floats).
BATCH = 200


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval.

    Attributes
    ----------
    value : float
        The estimate (mean, rate).
    low, high : float
        The interval's limits (``nan`` when it is undefined, e.g. n = 0).
    n : int
        The number of observations it rests on.
    method : str
        How the interval was made (``"bootstrap BCa"``, ``"wilson"``, ``"exact"`` ...).
    """

    value: float
    low: float
    high: float
    n: int
    method: str

    @property
    def width(self) -> float:
        return self.high - self.low

    def excludes(self, x: float = 0.0) -> bool:
        """True when ``x`` lies outside the interval (a difference is separated from 0)."""
        return bool(self.low > x or self.high < x)

    def fmt(self, digits: int = 2) -> str:
        if self.n == 0 or np.isnan(self.value):
            return "-"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


@dataclass(frozen=True)
class Paired:
    """A paired comparison of A against B on shared seeds.

    Attributes
    ----------
    diff : Estimate
        Mean of A − B over the pairs, with a bootstrap interval.
    p : float
        Two-sided p-value (Wilcoxon signed-rank for scores, McNemar exact for win / loss).
    test : str
        The test's name.
    effect : float
        Effect size: the matched-pairs rank-biserial correlation (−1 .. 1) for scores, the
        difference of win rates for win / loss.
    a_better, b_better, ties : int
        Number of seeds on which A did better, B did better, both the same.
    """

    diff: Estimate
    p: float
    test: str
    effect: float
    a_better: int
    b_better: int
    ties: int

    @property
    def n(self) -> int:
        return self.a_better + self.b_better + self.ties


def _as_array(x) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError(f"expected a 1-d sample, got shape {a.shape}")
    return a


def _bootstrap_mean(a: np.ndarray, confidence: float, seed: int) -> tuple[float, float]:
    from scipy.stats import bootstrap
    if len(a) < 2 or np.all(a == a[0]):
        m = float(a.mean()) if len(a) else float("nan")
        return (m, m) if len(a) else (float("nan"), float("nan"))
    # BCa's jackknife costs n^2; above BCA_MAX_N the percentile interval, which BCa approaches
    # as n grows, keeps a 10,000-game report fast.
    method = "BCa" if len(a) <= BCA_MAX_N else "percentile"
    res = bootstrap((a,), np.mean, confidence_level=confidence, n_resamples=BOOTSTRAP_RESAMPLES,
                    method=method, vectorized=True, batch=BATCH, random_state=np.random.default_rng(seed))
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if np.isnan(lo) or np.isnan(hi):      # BCa undefined on a degenerate resample: percentile
        res = bootstrap((a,), np.mean, confidence_level=confidence, n_resamples=BOOTSTRAP_RESAMPLES,
                        method="percentile", vectorized=True, batch=BATCH, random_state=np.random.default_rng(seed))
        lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return lo, hi


def mean_ci(x, confidence: float = 0.95, seed: int = 0) -> Estimate:
    """The mean of ``x`` with a BCa bootstrap interval (``scipy.stats.bootstrap``).

    A sample of one value, or of identical values, has a zero-width interval.
    """
    a = _as_array(x)
    if len(a) == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "bootstrap BCa")
    lo, hi = _bootstrap_mean(a, confidence, seed)
    return Estimate(float(a.mean()), lo, hi, len(a),
                    "bootstrap BCa" if len(a) <= BCA_MAX_N else "bootstrap percentile")


def proportion_ci(k: int, n: int, confidence: float = 0.95) -> Estimate:
    """``k`` successes of ``n`` as a rate with a Wilson score interval.

    >>> e = proportion_ci(7, 10)
    >>> round(e.low, 4), round(e.high, 4)
    (0.3968, 0.8922)
    """
    from scipy.stats import binomtest
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0, "wilson")
    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return Estimate(k / n, float(ci.low), float(ci.high), int(n), "wilson")


def paired_difference(a, b, confidence: float = 0.95, seed: int = 0) -> Paired:
    """Compare paired samples ``a`` and ``b`` (the same seeds, in the same order).

    Returns the mean difference a − b with a BCa bootstrap interval over the pairs, the
    two-sided Wilcoxon signed-rank p-value (zero differences dropped, the ``"wilcox"``
    rule; ``p = 1`` when every pair ties), and the matched-pairs rank-biserial correlation
    ``(R+ − R−) / (R+ + R−)`` computed from the same ranks.
    """
    from scipy.stats import rankdata, wilcoxon
    x, y = _as_array(a), _as_array(b)
    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length: {len(x)} and {len(y)}")
    d = x - y
    diff = mean_ci(d, confidence, seed)
    nz = d[d != 0]
    a_better, b_better = int((d > 0).sum()), int((d < 0).sum())
    ties = len(d) - a_better - b_better
    if len(nz) == 0:
        return Paired(diff, 1.0, "wilcoxon", 0.0, a_better, b_better, ties)
    p = float(wilcoxon(x, y, zero_method="wilcox", alternative="two-sided").pvalue)
    r = rankdata(np.abs(nz))
    plus, minus = float(r[nz > 0].sum()), float(r[nz < 0].sum())
    effect = (plus - minus) / (plus + minus)
    return Paired(diff, p, "wilcoxon", effect, a_better, b_better, ties)


def mcnemar(a_win, b_win, confidence: float = 0.95, seed: int = 0) -> Paired:
    """McNemar's exact test for paired win / loss outcomes.

    ``a_win`` and ``b_win`` are booleans per shared seed.  The p-value is the two-sided
    exact binomial test of the discordant pairs (A won where B lost, and the reverse) at
    1/2 (``scipy.stats.binomtest``); the difference of win rates carries a bootstrap
    interval over the pairs.
    """
    from scipy.stats import binomtest
    x = np.asarray(a_win, dtype=bool)
    y = np.asarray(b_win, dtype=bool)
    if x.shape != y.shape:
        raise ValueError(f"paired samples differ in length: {len(x)} and {len(y)}")
    only_a, only_b = int((x & ~y).sum()), int((~x & y).sum())
    diff = mean_ci(x.astype(float) - y.astype(float), confidence, seed)
    p = 1.0 if only_a + only_b == 0 else float(binomtest(only_a, only_a + only_b, 0.5).pvalue)
    return Paired(diff, p, "mcnemar exact", float(x.mean() - y.mean()) if len(x) else 0.0,
                  only_a, only_b, len(x) - only_a - only_b)


def adjust(pvalues: Sequence[float], method: str = "holm") -> np.ndarray:
    """Adjusted p-values for a family of tests.

    ``"holm"``: Holm's step-down correction (family-wise error); ``"bh"``:
    Benjamini-Hochberg (false discovery rate, ``scipy.stats.false_discovery_control``).
    """
    p = np.asarray(pvalues, dtype=np.float64)
    if p.size == 0:
        return p
    if method == "bh":
        from scipy.stats import false_discovery_control
        return false_discovery_control(p, method="bh")
    if method != "holm":
        raise ValueError(f"unknown correction {method!r}; choose holm or bh")
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    stepped = np.maximum.accumulate(stepped)         # adjusted values never decrease
    out = np.empty(m)
    out[order] = stepped
    return out


def conclusion(a: str, b: str, cmp: Paired, p_adj: float, what: str, digits: int = 2,
               alpha: float = 0.05) -> str:
    """One sentence on A against B: a direction only where the interval excludes 0 and the
    adjusted p-value is below ``alpha``; otherwise that the data do not separate them."""
    d = cmp.diff
    ptxt = "p_adj < 0.001" if p_adj < 0.001 else f"p_adj = {p_adj:.3f}"
    if d.excludes(0.0) and p_adj < alpha:
        word = "higher" if d.value > 0 else "lower"
        return (f"{a} has a {word} mean {what} than {b}: {d.value:+.{digits}f} "
                f"[{d.low:+.{digits}f}, {d.high:+.{digits}f}], {ptxt} (n = {cmp.n} paired games).")
    return (f"The data do not separate {a} and {b} on {what}: {d.value:+.{digits}f} "
            f"[{d.low:+.{digits}f}, {d.high:+.{digits}f}], {ptxt} (n = {cmp.n} paired games).")
