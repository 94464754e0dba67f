"""PoissonRegressor: scikit-learn oracle, optimality conditions, bad input."""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import PoissonRegressor
from mllib.linear_model.glm import poisson_deviance
from mllib.optim import check_gradient


def poisson_data(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) / np.sqrt(d)
    return X, rng.poisson(np.exp(X @ rng.normal(size=d) + 0.5)).astype(float)


def diabetes_counts():
    X, target = load_diabetes(return_X_y=True)
    return X * 10, np.round(
        target / 25
    )  # the disease score as a count of 25-point steps


DATA = {
    "n200d3": poisson_data(200, 3, 0),
    "n1000d10": poisson_data(1000, 10, 1),
    "n40d25": poisson_data(40, 25, 2),
    "diabetes": diabetes_counts(),
}


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("alpha", [0.0, 0.01, 1.0])
def test_matches_sklearn(name, alpha):
    X, y = DATA[name]
    if alpha == 0.0 and name == "n40d25":
        alpha = 1e-3  # 25 features for 40 counts: the unpenalised fit is barely determined
    ours = PoissonRegressor(alpha=alpha, tol=1e-10).fit(X, y)
    with warnings.catch_warnings():
        # on n40d25 scikit-learn's line search gives up and finishes with
        # lbfgs, warning; the comparison below is what checks its answer
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = sk.PoissonRegressor(
            alpha=alpha, solver="newton-cholesky", tol=1e-12, max_iter=1000
        ).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    assert ours.intercept_ == pytest.approx(ref.intercept_, abs=1e-8)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-8)
    assert ours.score(X, y) == pytest.approx(ref.score(X, y), abs=1e-10)
    assert ours.n_iter_ <= 15  # Newton from the intercept-only start


def test_default_settings_agree_with_sklearn_defaults():
    X, y = DATA["diabetes"]
    ours = PoissonRegressor(tol=1e-8).fit(X, y)
    ref = sk.PoissonRegressor(tol=1e-8, max_iter=1000).fit(X, y)  # lbfgs
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-5)


def test_gradient_vanishes_at_the_solution_and_matches_finite_differences():
    X, y = DATA["n200d3"]
    alpha = 0.1
    model = PoissonRegressor(alpha=alpha, tol=1e-12).fit(X, y)
    X1 = np.column_stack([X, np.ones(len(X))])
    penalised = np.r_[np.ones(X.shape[1]), 0.0]

    def objective(
        theta,
    ):  # scikit-learn's: half the mean deviance plus the penalty
        return poisson_deviance(y, np.exp(X1 @ theta)) / (
            2 * len(y)
        ) + 0.5 * alpha * np.sum(penalised * theta**2)

    def gradient(theta):
        return (
            X1.T @ (np.exp(X1 @ theta) - y) / len(y)
            + alpha * penalised * theta
        )

    theta = np.r_[model.coef_, model.intercept_]
    assert check_gradient(objective, gradient, theta + 0.3) < 1e-8
    assert np.abs(gradient(theta)).max() < 1e-11
    for direction in np.eye(
        len(theta)
    ):  # and it is a minimum: every nearby point is worse
        assert objective(theta + 1e-3 * direction) > objective(theta)


def test_unpenalised_intercept_only_model_predicts_the_mean():
    X, y = DATA["n200d3"]
    model = PoissonRegressor(alpha=1e6, tol=1e-10).fit(
        X, y
    )  # huge penalty: w ≈ 0
    assert np.abs(model.coef_).max() < 1e-4
    assert np.exp(model.intercept_) == pytest.approx(
        y.mean(), rel=1e-4
    )  # the MLE of μ is ȳ


def test_deviance_and_d2():
    y = np.array([0.0, 1.0, 4.0])
    mu = np.array([0.5, 1.0, 2.0])
    expected = 2 * (0 - 0 + 0.5) + 0 + 2 * (4 * np.log(2) - 4 + 2)
    assert poisson_deviance(y, mu) == pytest.approx(expected)
    assert poisson_deviance(y, y + (y == 0)) == pytest.approx(
        2.0
    )  # only the y = 0 term: 2μ
    X, y = DATA["n200d3"]
    model = PoissonRegressor(alpha=0.0).fit(X, y)
    assert 0 < model.score(X, y) < 1


def test_without_intercept():
    X, y = DATA["n200d3"]
    ours = PoissonRegressor(alpha=0.1, fit_intercept=False, tol=1e-10).fit(
        X, y
    )
    ref = sk.PoissonRegressor(
        alpha=0.1, fit_intercept=False, solver="newton-cholesky", tol=1e-12
    ).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    assert ours.intercept_ == 0.0


def test_bad_input_and_warnings():
    X, y = DATA["n200d3"]
    with pytest.raises(ValueError, match="non-negative"):
        PoissonRegressor().fit(X, y - 5)
    with pytest.raises(ValueError, match="zero for every sample"):
        PoissonRegressor().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="alpha"):
        PoissonRegressor(alpha=-1).fit(X, y)
    with pytest.raises(ValueError, match="max_iter"):
        PoissonRegressor(max_iter=0).fit(X, y)
    with pytest.raises(NotFittedError):
        PoissonRegressor().predict(X)
    with pytest.warns(ConvergenceWarning):
        PoissonRegressor(alpha=0.0, max_iter=1, tol=1e-12).fit(X, y)
    X_copy, y_copy = X.copy(), y.copy()
    PoissonRegressor().fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)
