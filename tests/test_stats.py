"""Statistical helpers of reports and gates (mksim/stats.py) against values known
independently: textbook examples worked by hand or from published tables."""
import numpy as np
import pytest

from mksim.stats import adjust, conclusion, mcnemar, mean_ci, paired_difference, proportion_ci


def test_wilson_interval_for_7_of_10():
    """Wilson score interval for 7/10 at 95%: [0.3968, 0.8922] (Newcombe 1998, table I,
    example 7/10 gives 0.3968 - 0.8922)."""
    e = proportion_ci(7, 10)
    assert e.value == pytest.approx(0.7)
    assert e.low == pytest.approx(0.3968, abs=5e-5)
    assert e.high == pytest.approx(0.8922, abs=5e-5)
    assert e.n == 10 and e.method == "wilson"


def test_wilson_interval_at_the_edges_stays_inside_0_1():
    lo0 = proportion_ci(0, 20)
    hi = proportion_ci(20, 20)
    assert lo0.low == 0.0 and 0.15 < lo0.high < 0.18          # 0/20: [0, 0.1611]
    assert hi.high == pytest.approx(1.0) and 0.82 < hi.low < 0.85
    assert np.isnan(proportion_ci(0, 0).value)


def test_mcnemar_exact_worked_by_hand():
    """10 seeds on which only A won, 2 on which only B won, 8 concordant: the exact test is
    2 * P(X <= 2 | n = 12, 1/2) = 2 * (1 + 12 + 66) / 4096 = 0.038574..."""
    a = np.array([1] * 10 + [0] * 2 + [1] * 5 + [0] * 3, dtype=bool)
    b = np.array([0] * 10 + [1] * 2 + [1] * 5 + [0] * 3, dtype=bool)
    r = mcnemar(a, b)
    assert r.p == pytest.approx(158 / 4096)
    assert (r.a_better, r.b_better, r.ties) == (10, 2, 8)
    assert r.effect == pytest.approx((15 - 7) / 20)           # win rates 0.75 and 0.35
    assert r.diff.value == pytest.approx(0.4)


def test_mcnemar_with_no_discordant_pair_has_p_1():
    a = np.array([True, False, True])
    assert mcnemar(a, a).p == 1.0


def test_wilcoxon_on_darwins_maize_against_the_published_table():
    """Darwin's Zea mays pairs (Fisher 1935), cross - self in eighths of an inch: the
    signed-rank statistic is T = 24 (negative ranks 10 + 14); the published two-sided 5%
    critical value for n = 15 is 25, so the difference is significant (exact p = 0.0413)."""
    d = np.array([49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48], dtype=float)
    r = paired_difference(d, np.zeros_like(d))
    assert r.p == pytest.approx(0.041259765625)
    assert r.p < 0.05
    # rank-biserial from the same ranks: (R+ - R-) / (R+ + R-) = (96 - 24) / 120
    assert r.effect == pytest.approx(0.6)
    assert (r.a_better, r.b_better, r.ties) == (13, 2, 0)
    assert r.diff.value == pytest.approx(d.mean())
    assert r.diff.low < d.mean() < r.diff.high


def test_paired_difference_all_ties():
    x = np.array([3.0, 4.0, 5.0])
    r = paired_difference(x, x)
    assert r.p == 1.0 and r.ties == 3 and r.diff.value == 0.0 and not r.diff.excludes(0.0)


def test_paired_difference_refuses_unequal_lengths():
    with pytest.raises(ValueError, match="differ in length"):
        paired_difference([1.0, 2.0], [1.0])


def test_bootstrap_mean_interval_covers_and_is_reproducible():
    rng = np.random.default_rng(5)
    x = rng.normal(10.0, 2.0, 400)
    e1, e2 = mean_ci(x, seed=3), mean_ci(x, seed=3)
    assert (e1.low, e1.high) == (e2.low, e2.high)
    # the t interval's half-width is 1.966 * 2 / 20 = 0.197; the bootstrap agrees within 15%
    half = (e1.high - e1.low) / 2
    assert 0.8 * 0.197 < half < 1.15 * 0.197
    assert e1.low < x.mean() < e1.high
    assert mean_ci([4.0, 4.0, 4.0]).width == 0.0


def test_large_samples_use_the_percentile_interval():
    x = np.arange(6000, dtype=float) % 7
    assert mean_ci(x).method == "bootstrap percentile"
    assert mean_ci(x[:100]).method == "bootstrap BCa"


def test_holm_against_a_hand_computation():
    """p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005*4 = 0.02, 0.01*3 = 0.03,
    0.03*2 = 0.06, 0.04*1 = 0.04 -> monotone 0.02, 0.03, 0.06, 0.06."""
    out = adjust([0.01, 0.04, 0.03, 0.005], "holm")
    assert out == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_benjamini_hochberg_against_a_hand_computation():
    """p = 0.01, 0.04, 0.03, 0.005: sorted q = 0.005*4/1 = 0.02, 0.01*4/2 = 0.02,
    0.03*4/3 = 0.04, 0.04*4/4 = 0.04."""
    assert adjust([0.01, 0.04, 0.03, 0.005], "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    with pytest.raises(ValueError, match="unknown correction"):
        adjust([0.1], "bonferonni")


def test_conclusion_states_a_direction_only_when_the_interval_excludes_0():
    a = np.arange(40, dtype=float) % 5 + 3.0           # A ahead by 2 or 3 on every seed
    b = a - 2.0 - (np.arange(40) % 2)
    r = paired_difference(a, b)
    assert r.diff.value == pytest.approx(2.5) and r.diff.excludes(0.0)
    assert conclusion("Tovak", "Goldyx", r, 0.0001, "score").startswith(
        "Tovak has a higher mean score than Goldyx: +2.50 [")
    assert "p_adj < 0.001 (n = 40 paired games)" in conclusion("Tovak", "Goldyx", r, 0.0001, "score")
    assert "lower mean score" in conclusion("Goldyx", "Tovak", paired_difference(b, a), 0.0001, "score")
    # the interval excludes 0 but the adjusted p-value does not support it: no direction
    assert conclusion("Tovak", "Goldyx", r, 0.2, "score").startswith("The data do not separate Tovak and Goldyx")
    flat = paired_difference([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0])
    assert "do not separate" in conclusion("A", "B", flat, 0.001, "Fame")
