"""mllib.learning_theory: each bound against exact probabilities of simple classes, brute-force
dichotomy counts and the inequalities it is built from."""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import binom

from mllib.learning_theory import (
    count_dichotomies,
    hoeffding_radius,
    occam_radius,
    sample_complexity,
    sauer_bound,
    vc_bound,
    vc_bound_realizable,
)


@pytest.mark.parametrize("n", [10, 50, 200, 1000])
@pytest.mark.parametrize("delta", [0.01, 0.05, 0.3])
def test_hoeffding_radius_covers_every_binomial(n, delta):
    # The empirical error of a fixed classifier is Binomial(n, p) / n: the failure probability
    # P(p - R_hat > eps) is exact, and must stay below delta for every true error p.
    eps = hoeffding_radius(n, delta)
    p = np.linspace(0.001, 0.999, 999)
    failure = binom.cdf(
        np.ceil(n * (p - eps)) - 1, n, p
    )  # P(n R_hat < n (p - eps))
    assert failure.max() <= delta
    np.testing.assert_allclose(math.exp(-2 * n * eps**2), delta, rtol=1e-12)


def test_occam_radius_reduces_to_the_finite_class_and_test_set_bounds():
    n, delta = 500, 0.05
    assert occam_radius(n, 1.0, delta) == pytest.approx(
        hoeffding_radius(n, delta), rel=1e-15
    )
    assert occam_radius(n, 1 / 1000, delta) == pytest.approx(
        math.sqrt(math.log(1000 / delta) / (2 * n))
    )
    eps = occam_radius(n, 1 / 21, delta, realizable=True)
    assert eps == pytest.approx(math.log(21 / delta) / n)
    assert (
        21 * (1 - eps) ** n <= 21 * math.exp(-eps * n) == pytest.approx(delta)
    )  # the union bound
    assert occam_radius(n, 1e-6, delta) > occam_radius(
        n, 1e-3, delta
    )  # a lower prior costs more


def test_realizable_bound_holds_exactly_for_a_grid_of_thresholds():
    # H = {1[x >= j/20]}, target j = 10, x ~ U[0, 1]. A threshold k is consistent with the sample
    # exactly when no point falls between k/20 and 1/2, so the probability that some consistent
    # threshold has error > eps is a closed form; the union bound must dominate it.
    for n in (10, 30, 100, 300):
        eps = occam_radius(n, 1 / 21, 0.05, realizable=True)
        bad = [k for k in range(21) if abs(k - 10) / 20 > eps]
        left = max([k for k in bad if k < 10], default=None)
        right = min([k for k in bad if k > 10], default=None)
        a = 0.0 if left is None else (10 - left) / 20
        b = 0.0 if right is None else (right - 10) / 20
        exact = (
            ((1 - a) ** n if a else 0)
            + ((1 - b) ** n if b else 0)
            - ((1 - a - b) ** n if a and b else 0)
        )
        assert exact <= 0.05


@pytest.mark.parametrize("size", [2, 21, 1000, 10**6])
@pytest.mark.parametrize("realizable", [True, False])
def test_sample_complexity_is_the_smallest_sufficient_n(size, realizable):
    epsilon, delta = 0.05, 0.05
    n = sample_complexity(epsilon, delta, size, realizable=realizable)
    if realizable:
        failure = lambda m: size * math.exp(-epsilon * m)
    else:
        failure = lambda m: 2 * size * math.exp(-2 * m * (epsilon / 2) ** 2)
    assert failure(n) <= delta * (1 + 1e-12) and failure(n - 1) > delta


def test_sample_complexity_values_of_the_review():
    assert sample_complexity(0.01, 0.05, 1000, realizable=True) == 991
    assert sample_complexity(0.1, 0.05, 21, realizable=True) == 61
    assert sample_complexity(0.1, 0.05, 21) == 1347


def _thresholds(points):
    """Every labelling of sorted 1-D points by x -> 1[x >= t]: one threshold per gap."""
    cuts = np.r_[-np.inf, np.sort(points) + 1e-9]
    return (points[None, :] >= cuts[:, None]).astype(int)


def _intervals(points):
    """Every labelling by x -> 1[a <= x <= b], endpoints between consecutive sorted points."""
    edges = np.r_[np.sort(points) - 1e-9, np.inf]
    pairs = [
        (a, b) for a, b in itertools.combinations_with_replacement(edges, 2)
    ]
    return np.array(
        [(points >= a) & (points <= b) for a, b in pairs], dtype=int
    )


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12])
def test_dichotomy_counts_of_thresholds_and_intervals_meet_sauer_with_equality(
    n,
):
    points = np.random.default_rng(n).uniform(size=n)
    assert count_dichotomies(_thresholds(points)) == n + 1 == sauer_bound(n, 1)
    assert (
        count_dichotomies(_intervals(points))
        == n * (n + 1) // 2 + 1
        == sauer_bound(n, 2)
    )
    assert (count_dichotomies(_intervals(points)) == 2**n) == (
        n <= 2
    )  # VC dimension 2


def test_count_dichotomies_ignores_duplicates_and_checks_its_input():
    labels = np.array([[0, 1, 1], [0, 1, 1], [1, 1, 1], [0, 0, 0]])
    assert count_dichotomies(labels) == 3
    assert (
        count_dichotomies(np.array(list(itertools.product([0, 1], repeat=4))))
        == 16
    )
    with pytest.raises(ValueError, match="2-D"):
        count_dichotomies(np.array([0, 1, 1]))


@pytest.mark.parametrize("d", [0, 1, 2, 3, 5])
def test_sauer_bound_pascal_rule_and_closed_form_bounds(d):
    for n in range(0, 30):
        if n <= d:
            assert sauer_bound(n, d) == 2**n
        if n >= 1 and d >= 1:
            assert sauer_bound(n, d) == sauer_bound(n - 1, d) + sauer_bound(
                n - 1, d - 1
            )
        if n >= d >= 1:
            assert sauer_bound(n, d) <= (math.e * n / d) ** d
    assert sauer_bound(20, 3) == 1351


def test_vc_bounds_values_and_their_derivation():
    n, delta = 1000, 0.05
    sauer_growth = (2 * math.e * n / 3) ** 3  # (e 2n / d)^d with d = 3
    assert vc_bound_realizable(n, sauer_growth, delta) == pytest.approx(
        0.075585, abs=1e-6
    )
    eps = vc_bound_realizable(n, sauer_growth, delta)
    assert (
        2 * sauer_growth * 2 ** (-eps * n / 2) == pytest.approx(delta)
        and n * eps >= 8
    )
    eps = vc_bound(n, 2 * n + 1, delta)  # thresholds: Pi(2n) = 2n + 1
    assert 2 * (2 * n + 1) * math.exp(-n * eps**2 / 8) == pytest.approx(delta)
    assert (
        vc_bound(4 * n, 8 * n + 1, delta)
        < eps
        < vc_bound(n, 2 * (2 * n + 1), delta)
    )


def test_realizable_vc_bound_dominates_the_exact_failure_probability_of_thresholds():
    # All thresholds 1[x >= t], t real, target t = 1/2: the worst consistent threshold has error
    # > eps exactly when [1/2 - eps, 1/2) or [1/2, 1/2 + eps) holds no sample point.
    for n in (20, 100, 1000):
        eps = vc_bound_realizable(n, 2 * n + 1, 0.05)
        exact = 2 * (1 - eps) ** n - max(1 - 2 * eps, 0) ** n
        assert (
            exact
            <= 2 * (2 * n + 1) * 2 ** (-eps * n / 2)
            == pytest.approx(0.05)
        )


def test_bad_input():
    with pytest.raises(ValueError, match="delta must be in"):
        hoeffding_radius(100, 1.5)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        hoeffding_radius(0, 0.1)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        vc_bound(10.5, 22, 0.1)
    with pytest.raises(ValueError, match="prior must be in"):
        occam_radius(100, 0.0, 0.1)
    with pytest.raises(ValueError, match="epsilon must be in"):
        sample_complexity(0.0, 0.1, 10)
    with pytest.raises(ValueError, match="non-negative"):
        sauer_bound(-1, 2)
    with pytest.raises(ValueError, match="n_hypotheses must be >= 1"):
        sample_complexity(0.1, 0.1, 0.5)
    for bound in (
        vc_bound,
        vc_bound_realizable,
    ):  # a growth function below 1 would shrink the bound
        with pytest.raises(ValueError, match="growth_2n must be >= 1"):
            bound(100, 0.5, 0.01)
    with pytest.raises(ValueError, match="growth_2n / delta >= 8"):
        vc_bound_realizable(10, 3, 0.5)
