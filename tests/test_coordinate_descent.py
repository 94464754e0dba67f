"""Lasso, ElasticNet and their paths against scikit-learn and against the optimality conditions."""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import ElasticNet, Lasso, enet_path, lasso_path
from mllib.linear_model.coordinate_descent import duality_gap


def collinear_data():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(60, 4))
    X = np.column_stack(
        [X, X[:, 0] - X[:, 1], 0.5 * X[:, 2] + 0.1 * rng.normal(size=60)]
    )
    return X, 2 * X[:, 0] - X[:, 2] + 0.5 * rng.normal(size=60)


def wide_data():
    rng = np.random.default_rng(12)
    X = rng.normal(size=(30, 80))
    return X, X[:, :4] @ np.array([3.0, -2.0, 1.5, 1.0]) + 0.3 * rng.normal(
        size=30
    )


DATA = {
    "diabetes": lambda: load_diabetes(return_X_y=True),
    "collinear": collinear_data,
    "wide": wide_data,
}


def objective(X, y, coef, intercept, alpha, l1_ratio=1.0):
    """scikit-learn's elastic-net objective, the one the estimators minimise."""
    r = y - X @ coef - intercept
    return (
        r @ r / (2 * len(y))
        + alpha * l1_ratio * np.abs(coef).sum()
        + 0.5 * alpha * (1 - l1_ratio) * coef @ coef
    )


def alpha_max(X, y):
    return np.max(np.abs((X - X.mean(0)).T @ (y - y.mean()))) / len(y)


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("fraction", [0.5, 0.1, 0.01])
def test_lasso_matches_sklearn(name, fraction):
    X, y = DATA[name]()
    alpha = fraction * alpha_max(X, y)
    ours = Lasso(alpha=alpha, tol=1e-10, max_iter=100_000).fit(X, y)
    ref = sk.Lasso(alpha=alpha, tol=1e-10, max_iter=100_000).fit(X, y)
    scale = np.abs(ref.coef_).max()
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-6 * scale)
    assert ours.intercept_ == pytest.approx(
        ref.intercept_, abs=1e-6 * abs(ref.intercept_) + 1e-8
    )
    np.testing.assert_array_equal(
        ours.coef_ == 0, ref.coef_ == 0
    )  # the same support
    assert objective(
        X, y, ours.coef_, ours.intercept_, alpha
    ) == pytest.approx(
        objective(X, y, ref.coef_, ref.intercept_, alpha), rel=1e-9
    )


def test_lasso_matches_sklearn_on_the_fixture_data_including_d_greater_than_n(
    regression_data,
):
    X, y = regression_data
    alpha = 0.05 * alpha_max(X, y)
    for fit_intercept in (True, False):
        ours = Lasso(
            alpha=alpha,
            fit_intercept=fit_intercept,
            tol=1e-10,
            max_iter=100_000,
        ).fit(X, y)
        ref = sk.Lasso(
            alpha=alpha,
            fit_intercept=fit_intercept,
            tol=1e-10,
            max_iter=100_000,
        ).fit(X, y)
        np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
        assert ours.intercept_ == pytest.approx(ref.intercept_, abs=1e-7)
        np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-7)


def test_default_tolerance_gives_sklearns_iterations_and_gap():
    X, y = load_diabetes(return_X_y=True)
    for alpha in (0.01, 0.1, 1.0):
        ours, ref = (
            Lasso(alpha=alpha).fit(X, y),
            sk.Lasso(alpha=alpha).fit(X, y),
        )
        assert ours.n_iter_ == ref.n_iter_
        assert ours.dual_gap_ == pytest.approx(ref.dual_gap_, rel=1e-6)
        np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("l1_ratio", [0.05, 0.5, 0.9, 1.0])
def test_elastic_net_matches_sklearn(name, l1_ratio):
    X, y = DATA[name]()
    alpha = 0.05 * alpha_max(X, y)
    ours = ElasticNet(
        alpha=alpha, l1_ratio=l1_ratio, tol=1e-10, max_iter=100_000
    ).fit(X, y)
    ref = sk.ElasticNet(
        alpha=alpha, l1_ratio=l1_ratio, tol=1e-10, max_iter=100_000
    ).fit(X, y)
    np.testing.assert_allclose(
        ours.coef_, ref.coef_, atol=1e-6 * np.abs(ref.coef_).max()
    )
    assert ours.intercept_ == pytest.approx(
        ref.intercept_, abs=1e-6 * abs(ref.intercept_) + 1e-8
    )
    if l1_ratio == 1.0:
        lasso = Lasso(alpha=alpha, tol=1e-10, max_iter=100_000).fit(X, y)
        np.testing.assert_array_equal(lasso.coef_, ours.coef_)


@pytest.mark.parametrize("name", list(DATA))
def test_lasso_solution_satisfies_the_subgradient_conditions(name):
    X, y = DATA[name]()
    alpha = 0.1 * alpha_max(X, y)
    model = Lasso(alpha=alpha, tol=1e-12, max_iter=100_000).fit(X, y)
    correlation = (
        X.T @ (y - model.predict(X)) / len(y)
    )  # = -gradient of the smooth part
    active = model.coef_ != 0
    assert active.any() and not active.all()
    # 0 ∈ -X^T r / n + α ∂‖w‖₁: equality with sign(w_j) on the support, |·| ≤ α off it
    np.testing.assert_allclose(
        correlation[active], alpha * np.sign(model.coef_[active]), rtol=1e-5
    )
    assert np.all(np.abs(correlation[~active]) <= alpha * (1 + 1e-6))


def test_duality_gap_bounds_the_suboptimality():
    X, y = DATA["collinear"]()
    Xc, yc = X - X.mean(0), y - y.mean()
    n, alpha = len(y), 0.05 * alpha_max(X, y)
    best = Lasso(alpha=alpha, tol=1e-14, max_iter=100_000).fit(X, y)
    p_star = objective(X, y, best.coef_, best.intercept_, alpha)
    rng = np.random.default_rng(0)
    for w in [
        np.zeros(X.shape[1]),
        best.coef_ + 0.1 * rng.normal(size=X.shape[1]),
        rng.normal(size=X.shape[1]),
    ]:
        gap = duality_gap(w, Xc, yc, yc - Xc @ w, n * alpha, 0.0) / n
        suboptimality = objective(Xc, yc, w, 0.0, alpha) - p_star
        assert -1e-12 <= suboptimality <= gap + 1e-12
    # and the gap closes at the solution
    assert duality_gap(
        best.coef_, Xc, yc, yc - Xc @ best.coef_, n * alpha, 0.0
    ) / n < 1e-12 * (yc @ yc)


def test_reported_dual_gap_meets_the_tolerance():
    X, y = load_diabetes(return_X_y=True)
    for tol in (1e-2, 1e-4, 1e-8):
        model = Lasso(alpha=0.05, tol=tol, max_iter=100_000).fit(X, y)
        assert (
            0 <= model.dual_gap_ <= tol * np.sum((y - y.mean()) ** 2) / len(y)
        )
        assert 1 <= model.n_iter_ < 100_000


def test_large_alpha_gives_zero_coefficients_without_iterating():
    X, y = load_diabetes(return_X_y=True)
    model = Lasso(alpha=alpha_max(X, y) * 1.0001).fit(X, y)
    assert np.all(model.coef_ == 0) and model.n_iter_ == 0
    assert model.intercept_ == pytest.approx(y.mean())
    # just below alpha_max one feature enters (tiny: with the default tol, w = 0 already
    # certifies a small enough gap, as in scikit-learn)
    assert (
        np.count_nonzero(
            Lasso(alpha=alpha_max(X, y) * 0.99, tol=1e-12).fit(X, y).coef_
        )
        == 1
    )


def test_constant_column_gets_zero_coefficient():
    X, y = load_diabetes(return_X_y=True)
    X = np.column_stack([X, np.full(len(X), 3.0)])
    model = Lasso(alpha=0.01).fit(X, y)
    assert model.coef_[-1] == 0.0
    np.testing.assert_allclose(
        model.coef_[:-1],
        sk.Lasso(alpha=0.01).fit(X[:, :-1], y).coef_,
        atol=1e-8,
    )


def test_convergence_warning_when_max_iter_is_reached():
    X, y = DATA["collinear"]()
    with pytest.warns(
        ConvergenceWarning,
        match="did not converge in max_iter=2 sweeps.*duality gap",
    ):
        model = Lasso(alpha=0.001, max_iter=2, tol=1e-12).fit(X, y)
    assert model.n_iter_ == 2
    assert model.dual_gap_ > 1e-12 * np.sum((y - y.mean()) ** 2) / len(y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        Lasso(alpha=0.001, max_iter=10_000, tol=1e-8).fit(
            X, y
        )  # converges: no warning


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
def test_paths_match_sklearn(l1_ratio):
    X, y = load_diabetes(return_X_y=True)
    Xc, yc = X - X.mean(0), y - y.mean()
    ours = enet_path(
        Xc, yc, l1_ratio=l1_ratio, alphas=30, tol=1e-10, max_iter=100_000
    )
    ref = sk.enet_path(
        Xc, yc, l1_ratio=l1_ratio, alphas=30, tol=1e-10, max_iter=100_000
    )
    np.testing.assert_allclose(ours[0], ref[0], rtol=1e-12)
    np.testing.assert_allclose(
        ours[1], ref[1], atol=1e-6 * np.abs(ref[1]).max()
    )
    assert np.all(ours[1][:, 0] == 0)  # the grid starts at alpha_max
    if l1_ratio == 1.0:
        mine = lasso_path(Xc, yc, alphas=30, tol=1e-10, max_iter=100_000)
        np.testing.assert_array_equal(mine[1], ours[1])


def test_path_sorts_given_alphas_and_equals_separate_fits():
    X, y = DATA["wide"]()
    Xc, yc = X - X.mean(0), y - y.mean()
    alphas, coefs, gaps = lasso_path(
        Xc, yc, alphas=[0.01, 0.5, 0.1], tol=1e-12, max_iter=100_000
    )
    np.testing.assert_array_equal(alphas, [0.5, 0.1, 0.01])
    for alpha, coef in zip(alphas, coefs.T):
        single = Lasso(
            alpha=alpha, fit_intercept=False, tol=1e-12, max_iter=100_000
        ).fit(Xc, yc)
        np.testing.assert_allclose(coef, single.coef_, atol=1e-7)
    assert np.all(gaps >= 0)


@pytest.mark.parametrize(
    "model", [Lasso(alpha=0.1), ElasticNet(alpha=0.1)], ids=repr
)
def test_inputs_are_never_modified(model):
    X, y = load_diabetes(return_X_y=True)
    X = np.asfortranarray(X)  # even when no reordering copy is needed
    X_before, y_before = X.copy(), y.copy()
    model.fit(X, y).predict(X)
    lasso_path(X, y, alphas=5)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize("model", [Lasso(), ElasticNet()], ids=repr)
def test_bad_input_raises_clear_errors(model):
    X, y = np.random.default_rng(0).normal(size=(6, 2)), np.arange(6.0)
    with pytest.raises(NotFittedError):
        model.predict(X)
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.fit(np.where(np.eye(6, 2) == 1, np.inf, X), y)
    with pytest.raises(ValueError, match="Expected 2D array"):
        model.fit(np.arange(6.0), y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        model.fit(X, y[:5])
    model.fit(X, y)
    with pytest.raises(
        ValueError, match="X has 1 features, but .* expecting 2 features"
    ):
        model.predict(np.ones((3, 1)))


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(alpha=0.0), "alpha must be in"),
        (dict(alpha=-1.0), "alpha must be in"),
        (dict(l1_ratio=0.0), "l1_ratio must be in"),
        (dict(l1_ratio=1.5), "l1_ratio must be in"),
        (dict(max_iter=0), "max_iter must be a positive integer"),
        (dict(max_iter=2.5), "max_iter must be a positive integer"),
        (dict(tol=-1e-3), "tol must be in"),
    ],
)
def test_bad_parameters_are_rejected(params, message):
    with pytest.raises(ValueError, match=message):
        ElasticNet(**params).fit(np.eye(3), np.arange(3.0))
    with pytest.raises(ValueError, match=message):
        enet_path(
            np.eye(3),
            np.arange(3.0),
            **{
                "alphas": [params.get("alpha", 1.0)],
                **{k: v for k, v in params.items() if k != "alpha"},
            },
        )
