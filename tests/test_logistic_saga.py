"""``solver="saga"``: SAGA (mllib.linear_model.saga) reaches the minimiser
that proximal Newton finds to rounding, for every penalty, both losses, with
sample weights and sparse X; its randomness is its own random_state's."""

import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn import linear_model as sk
from sklearn.datasets import load_iris, make_classification

from mllib.exceptions import ConvergenceWarning
from mllib.linear_model import LogisticRegression
from mllib.linear_model.saga import saga_step_size


def problem(n_classes, seed=0):
    X, y = make_classification(
        120,
        8,
        n_informative=4,
        n_classes=n_classes,
        n_clusters_per_class=1,
        flip_y=0.1,
        random_state=seed,
    )
    return X, y


def exact(X, y, **params):
    """The minimiser, by (proximal) Newton run to rounding."""
    return LogisticRegression(tol=1e-12, max_iter=500, **params).fit(X, y)


# every penalty at C = 0.1 with two seeds of the draws; at C = 1 (weaker
# curvature, hundreds of epochs) the l2 and l1 penalties with one
CASES = [
    ({"l1_ratio": l1_ratio, "C": 0.1}, seed)
    for l1_ratio in (0.0, 0.5, 1.0)
    for seed in (0, 1)
] + [({"l1_ratio": l1_ratio, "C": 1.0}, 2) for l1_ratio in (0.0, 1.0)]


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("params, seed", CASES)
def test_reaches_the_minimiser(params, seed, n_classes):
    """SAGA converges linearly; its rule stops once an epoch changes the
    weights by at most tol of the largest, so with tol = 1e-9 the distance
    left is a modest multiple of 1e-9 (the inverse of one minus the rate
    per epoch): 1e-6 of the largest weight is ample, for every seed of
    the draws."""
    X, y = problem(n_classes, seed)
    target = exact(X, y, **params)
    fit = LogisticRegression(
        solver="saga", tol=1e-9, max_iter=5000, random_state=seed, **params
    ).fit(X, y)
    scale = np.abs(target.coef_).max()
    np.testing.assert_allclose(fit.coef_, target.coef_, atol=1e-6 * scale)
    np.testing.assert_allclose(
        fit.intercept_, target.intercept_, atol=1e-6 * scale
    )
    if params["l1_ratio"] > 0:  # the prox sets exact zeros: the same ones
        np.testing.assert_array_equal(fit.coef_ == 0, target.coef_ == 0)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sample_weights_and_class_weights(fit_intercept):
    """Integer sample weights are repeated samples: the weighted SAGA fit
    and the fit on repeated rows reach the same minimiser. The step
    accounts for the weights (the largest s_i‖x̃_i‖² bounds the
    curvature)."""
    X, y = problem(2, 3)
    weights = np.random.default_rng(0).integers(0, 6, len(y)).astype(float)
    params = {
        "l1_ratio": 0.5,
        "fit_intercept": fit_intercept,
        "class_weight": {0: 1.0, 1: 2.0},
    }
    target = LogisticRegression(tol=1e-12, **params).fit(
        X, y, sample_weight=weights
    )
    fit = LogisticRegression(
        solver="saga", tol=1e-9, max_iter=5000, random_state=0, **params
    ).fit(X, y, sample_weight=weights)
    rows = np.repeat(np.arange(len(y)), weights.astype(int))
    repeated = LogisticRegression(
        solver="saga", tol=1e-9, max_iter=5000, random_state=0, **params
    ).fit(X[rows], y[rows])
    scale = np.abs(target.coef_).max()
    for model in (fit, repeated):
        np.testing.assert_allclose(
            model.coef_, target.coef_, atol=1e-6 * scale
        )
        np.testing.assert_allclose(
            model.intercept_, target.intercept_, atol=1e-6 * scale
        )


def test_sparse_input_takes_the_same_steps():
    """CSR rows visit only their stored entries; the same draws give the
    same iterates up to the order of the sums in each dot product."""
    X, y = problem(3, 4)
    X[np.abs(X) < 0.8] = 0.0
    params = {
        "solver": "saga",
        "l1_ratio": 1.0,
        "random_state": 7,
        "max_iter": 1000,
    }
    dense = LogisticRegression(**params).fit(X, y)
    csr = LogisticRegression(**params).fit(sparse.csr_matrix(X), y)
    assert csr.n_iter_[0] == dense.n_iter_[0]
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=1e-9, atol=1e-12)


def test_random_state():
    X, y = problem(2, 5)
    fits = [
        LogisticRegression(solver="saga", random_state=seed).fit(X, y).coef_
        for seed in (0, 0, 1)
    ]
    np.testing.assert_array_equal(fits[0], fits[1])
    assert not np.array_equal(fits[0], fits[2])


def test_step_size_is_scikit_learns():
    """1/(2L + min(2nα, L)), L = max ‖x̃_i‖²/4 + α for the logistic loss
    (scikit-learn's get_auto_step_size for SAGA, unit weights)."""
    X, _ = problem(2, 6)
    X1 = np.column_stack([X, np.ones(len(X))])
    for alpha in (0.0, 1e-4, 1.0):
        L = 0.25 * np.max(np.sum(X1**2, axis=1)) + alpha
        expected = 1 / (2 * L + min(2 * len(X) * alpha, L))
        assert saga_step_size(X1, np.ones(len(X)), alpha, 2) == expected


def test_same_minimiser_as_sklearn_saga():
    """Both SAGAs, run long, end at the same point (their draws differ)."""
    X, y = load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    params = {"C": 0.5, "l1_ratio": 0.7, "tol": 1e-9, "max_iter": 10_000}
    ours = LogisticRegression(solver="saga", random_state=0, **params)
    theirs = sk.LogisticRegression(solver="saga", random_state=0, **params)
    ours.fit(X, y)
    theirs.fit(X, y)
    scale = np.abs(theirs.coef_).max()
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6 * scale)


def test_too_few_epochs_warn():
    X, y = problem(2, 8)
    with pytest.warns(ConvergenceWarning, match="SAGA did not converge"):
        LogisticRegression(solver="saga", max_iter=2, tol=1e-10).fit(X, y)


def test_converged_fit_is_silent():
    X, y = problem(2, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LogisticRegression(solver="saga", random_state=0).fit(X, y)
