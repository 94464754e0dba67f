"""mllib.rademacher: Monte Carlo estimates against exact enumeration of all
sign vectors, brute-force suprema over thresholds and intervals, closed
forms, Massart's lemma and monotonicity in the class."""

import itertools
import math

import numpy as np
import pytest

from mllib.rademacher import (
    empirical_rademacher_complexity,
    interval_labellings,
    massart_bound,
    rademacher_intervals,
    rademacher_radius,
    rademacher_thresholds,
    threshold_labellings,
)


def exact_rademacher(vectors):
    """E over all 2^n sign vectors of max_a sigma.a / n, by enumeration."""
    vectors = np.asarray(vectors, dtype=float)
    n = vectors.shape[1]
    sigma = np.array(list(itertools.product([-1.0, 1.0], repeat=n)))
    return (sigma @ vectors.T).max(axis=1).mean() / n


def brute_threshold_vectors(x):
    """Labels of x by thresholds at every point, between points and beyond
    them, computed from the definition h(x) = +1 iff x >= theta."""
    s = np.unique(x)
    thetas = np.concatenate(
        [[s[0] - 1.0], s, (s[:-1] + s[1:]) / 2, [s[-1] + 1.0]]
    )
    return np.where(x[None, :] >= thetas[:, None], 1.0, -1.0)


def brute_interval_vectors(x):
    s = np.unique(x)
    ends = np.concatenate(
        [[s[0] - 1.0], s, (s[:-1] + s[1:]) / 2, [s[-1] + 1.0]]
    )
    return np.array(
        [np.where((x >= a) & (x <= b), 1.0, -1.0) for a in ends for b in ends]
    )


def test_monte_carlo_converges_to_the_exact_value(rng):
    vectors = rng.choice([-1.0, 1.0], size=(7, 10))
    exact = exact_rademacher(vectors)
    estimate = empirical_rademacher_complexity(
        vectors, n_draws=20_000, random_state=1
    )
    assert abs(estimate.value - exact) < 4 * estimate.standard_error
    assert estimate.standard_error < 0.01
    assert exact <= massart_bound(vectors)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_thresholds_and_intervals_match_the_brute_force_supremum(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 15, size=25).astype(float)  # with ties
    for fast, brute, named in [
        (rademacher_thresholds, brute_threshold_vectors, threshold_labellings),
        (rademacher_intervals, brute_interval_vectors, interval_labellings),
    ]:
        value = fast(x, n_draws=500, random_state=seed).value
        by_brute = empirical_rademacher_complexity(
            brute(x), n_draws=500, random_state=seed
        )
        by_labellings = empirical_rademacher_complexity(
            named(x), n_draws=500, random_state=seed
        )
        assert value == pytest.approx(by_brute.value, abs=1e-12)
        assert value == pytest.approx(by_labellings.value, abs=1e-12)
        # the labellings are the distinct behaviours, no more
        assert len(named(x)) == len(np.unique(brute(x), axis=0))


def test_exact_values_for_thresholds_on_a_small_sample():
    x = np.array([0.3, 1.2, 2.0, 2.5, 4.1, 5.0, 6.6, 7.0, 8.2, 9.9])
    for fast, named in [
        (rademacher_thresholds, threshold_labellings),
        (rademacher_intervals, interval_labellings),
    ]:
        exact = exact_rademacher(named(x))
        estimate = fast(x, n_draws=20_000, random_state=3)
        assert abs(estimate.value - exact) < 4 * estimate.standard_error
        assert exact <= massart_bound(named(x))


def test_labelling_counts_are_the_growth_functions():
    x = np.arange(12.0)
    assert len(threshold_labellings(x)) == 13  # n + 1
    assert len(interval_labellings(x)) == 12 * 13 // 2 + 1
    assert len(np.unique(interval_labellings(x), axis=0)) == 79


def test_closed_forms():
    n = 12
    everything = np.array(list(itertools.product([-1.0, 1.0], repeat=n)))
    full = empirical_rademacher_complexity(
        everything, n_draws=50, random_state=0
    )
    assert full.value == 1.0 and full.standard_error == 0.0
    # Massart for all 2^n vectors: sqrt(2 n log 2 / n) = sqrt(2 log 2) > 1
    assert massart_bound(everything) == pytest.approx(
        math.sqrt(2 * math.log(2))
    )
    # {a, -a}: E|sigma.a| / n, exactly E|2 Bin(n, 1/2) - n| / n
    a = np.ones(n)
    k = np.arange(n + 1)
    weights = np.array([math.comb(n, j) for j in k]) / 2**n
    closed = np.sum(weights * np.abs(2 * k - n)) / n
    assert exact_rademacher(np.vstack([a, -a])) == pytest.approx(closed)
    # one vector: E[sigma.a] = 0, and Massart's log|A| = 0
    assert exact_rademacher(a[None, :]) == 0.0
    assert massart_bound(np.vstack([a, a])) == 0.0  # repeats do not count


def test_massart_bounds_the_estimates(rng):
    x = rng.uniform(size=200)
    for fast, named in [
        (rademacher_thresholds, threshold_labellings),
        (rademacher_intervals, interval_labellings),
    ]:
        estimate = fast(x, n_draws=2000, random_state=0)
        assert estimate.value <= massart_bound(named(x))
    # real-valued vectors of different norms: the max norm enters
    vectors = rng.normal(size=(30, 20)) * rng.uniform(0.1, 3, size=(30, 1))
    estimate = empirical_rademacher_complexity(
        vectors, n_draws=5000, random_state=0
    )
    assert estimate.value + 3 * estimate.standard_error <= massart_bound(
        vectors
    )


def test_monotone_in_the_class_with_common_draws(rng):
    x = rng.uniform(size=60)
    thresholds = rademacher_thresholds(x, n_draws=300, random_state=5)
    intervals = rademacher_intervals(x, n_draws=300, random_state=5)
    assert thresholds.value <= intervals.value  # thresholds are intervals
    vectors = rng.choice([-1.0, 1.0], size=(40, 30))
    values = [
        empirical_rademacher_complexity(
            vectors[:m], n_draws=300, random_state=5
        ).value
        for m in (1, 5, 20, 40)
    ]
    assert np.all(np.diff(values) >= 0)
    assert values[-1] > values[0]


def test_the_bound_holds_in_simulation():
    # thresholds on uniform x with labels +1 iff x >= 0.5, flipped with
    # probability 0.2: R(h_theta) = 0.2 + 0.6 |theta - 0.5| on [0, 1]
    rng = np.random.default_rng(7)
    n, delta, failures = 100, 0.1, 0
    for _ in range(200):
        x = rng.uniform(size=n)
        y = np.where(x >= 0.5, 1.0, -1.0) * np.where(
            rng.uniform(size=n) < 0.2, -1.0, 1.0
        )
        thetas = np.append(np.sort(x), 1.0)
        labels = np.where(x[None, :] >= thetas[:, None], 1.0, -1.0)
        empirical = np.mean(labels != y, axis=1)
        true = 0.2 + 0.6 * np.abs(thetas - 0.5)
        complexity = rademacher_thresholds(x, n_draws=200, random_state=0)
        radius = rademacher_radius(n, complexity.value, delta)
        failures += np.max(true - empirical) > radius
    assert failures <= delta * 200
    assert rademacher_radius(n, 0.1, delta) == pytest.approx(
        0.1 + 3 * math.sqrt(math.log(2 / delta) / (2 * n))
    )
    assert rademacher_radius(n, 0.1, delta, empirical=False) == pytest.approx(
        0.1 + math.sqrt(math.log(1 / delta) / (2 * n))
    )


def test_bad_input():
    with pytest.raises(ValueError, match="n_draws"):
        rademacher_thresholds([1.0, 2.0], n_draws=1)
    with pytest.raises(ValueError, match="2D array"):
        empirical_rademacher_complexity([1.0, -1.0])
    with pytest.raises(ValueError, match="NaN"):
        rademacher_intervals([1.0, np.nan])
    with pytest.raises(ValueError, match="delta"):
        rademacher_radius(10, 0.1, 1.5)
    with pytest.raises(ValueError, match="rademacher"):
        rademacher_radius(10, -0.1, 0.1)
