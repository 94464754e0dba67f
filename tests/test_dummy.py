"""The baselines of mllib.dummy against scikit-learn's and by their
definitions: the quantile strategies, the weighted quantile they share with
gradient boosting, and scikit-learn's attributes and errors."""

import numpy as np
import pytest
from sklearn import dummy as sk_dummy

from mllib.dummy import DummyRegressor, weighted_quantile


def _pinball(d, q):
    return np.maximum(q * d, (q - 1) * d)


@pytest.mark.parametrize("q", [0.0, 0.05, 0.5, 0.9, 0.37, 1.0])
def test_weighted_quantile_minimises_the_pinball_loss(q):
    # sum_i w_i rho_q(v_i - c) is convex and piecewise linear in c with
    # kinks at the v_i, so its minimum is at a data point: the returned
    # value attains it, and it is the smallest v of positive weight whose
    # cumulative weight reaches q W (counted by brute force)
    rng = np.random.default_rng(1)
    for n in (1, 2, 7, 50):
        v, w = rng.normal(size=n), rng.uniform(0.1, 2.0, size=n)
        w[rng.random(n) < 0.2] = 0.0  # zero weights count for nothing
        w[rng.integers(n)] = 1.0
        c = weighted_quantile(v, w, q)
        objective = [np.sum(w * _pinball(v - t, q)) for t in v]
        assert np.sum(w * _pinball(v - c, q)) <= min(objective) * (1 + 1e-12)
        reaching = [t for t in v[w > 0] if w[v <= t].sum() >= q * w.sum()]
        assert c == min(reaching)
    # unit weights, q n an integer: the (q n)-th smallest, as scikit-learn
    v = rng.permutation(np.arange(20.0))
    assert weighted_quantile(v, np.ones(20), 0.25) == 4.0


@pytest.mark.parametrize(
    "strategy, quantile",
    [
        ("median", None),
        ("quantile", 0.0),
        ("quantile", 0.05),
        ("quantile", 0.37),
        ("quantile", 0.5),
        ("quantile", 0.75),
        ("quantile", 1.0),
    ],
)
@pytest.mark.parametrize("weighting", ["none", "positive", "some zero"])
@pytest.mark.parametrize("n", [1, 8, 31])
def test_quantile_strategies_equal_scikit_learn(
    strategy, quantile, weighting, n
):
    # both compute numpy's percentile (no weights) or select one of the
    # values by the same cumulative-weight arithmetic (weights): the same
    # float operations on the same numbers, so equal to the last bit;
    # y has ties (rounded to one decimal) to exercise their rule
    rng = np.random.default_rng(n)
    X, y = rng.normal(size=(n, 2)), np.round(rng.normal(size=n), 1)
    weight = None
    if weighting != "none":
        weight = rng.uniform(0.2, 3.0, size=n)
        if weighting == "some zero":
            weight[: n // 3] = 0.0
    params = {"strategy": strategy, "quantile": quantile}
    ours = DummyRegressor(**params).fit(X, y, sample_weight=weight)
    theirs = sk_dummy.DummyRegressor(**params).fit(X, y, sample_weight=weight)
    assert ours.constant_.shape == theirs.constant_.shape == (1, 1)
    np.testing.assert_array_equal(ours.constant_, theirs.constant_)
    assert ours.n_outputs_ == theirs.n_outputs_ == 1
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("weighted", [False, True])
def test_the_half_quantile_is_the_median(weighted):
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 1)), rng.normal(size=40)
    weight = rng.uniform(0.5, 2.0, size=40) if weighted else None
    half = DummyRegressor(strategy="quantile", quantile=0.5)
    median = DummyRegressor(strategy="median")
    assert (
        half.fit(X, y, sample_weight=weight).constant_
        == median.fit(X, y, sample_weight=weight).constant_
    )


@pytest.mark.parametrize("strategy", ["mean", "constant"])
def test_other_strategies_attributes_and_methods_equal_scikit_learn(
    strategy,
):
    rng = np.random.default_rng(4)
    X, y = rng.normal(size=(12, 3)), rng.normal(size=12)
    weight = rng.uniform(0.5, 2.0, size=12)
    params = {"strategy": strategy, "constant": 2.5}
    ours = DummyRegressor(**params).fit(X, y, sample_weight=weight)
    theirs = sk_dummy.DummyRegressor(**params).fit(X, y, sample_weight=weight)
    # np.average on the same arrays, or the given number
    np.testing.assert_array_equal(ours.constant_, theirs.constant_)
    for got, expected in zip(
        ours.predict(X, return_std=True), theirs.predict(X, return_std=True)
    ):
        np.testing.assert_array_equal(got, expected)
    # R^2 = 1 - SSE/SST of the same constant; only the summation differs
    assert ours.score(None, y) == pytest.approx(
        theirs.score(None, y), rel=1e-12
    )


def test_bad_parameters_fail_as_in_scikit_learn():
    X, y = np.zeros((4, 1)), np.arange(4.0)
    for params in (
        {"strategy": "quantile"},
        {"strategy": "quantile", "quantile": -0.1},
        {"strategy": "quantile", "quantile": 1.5},
        {"strategy": "mode"},
    ):
        with pytest.raises(ValueError):
            sk_dummy.DummyRegressor(**params).fit(X, y)
        with pytest.raises(ValueError, match="quantile|strategy"):
            DummyRegressor(**params).fit(X, y)
    with pytest.raises(TypeError):
        sk_dummy.DummyRegressor(strategy="constant").fit(X, y)
    with pytest.raises(TypeError, match="constant"):
        DummyRegressor(strategy="constant").fit(X, y)


def test_the_callers_arrays_are_left_unchanged():
    rng = np.random.default_rng(5)
    X, y, w = rng.normal(size=(9, 2)), rng.normal(size=9), rng.random(9)
    copies = [a.copy() for a in (X, y, w)]
    DummyRegressor(strategy="quantile", quantile=0.3).fit(X, y, w)
    for array, copy in zip((X, y, w), copies):
        np.testing.assert_array_equal(array, copy)
