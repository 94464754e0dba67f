"""``solver="liblinear"``: LIBLINEAR's objective, in which the intercept is
the penalised weight of an extra feature equal to ``intercept_scaling``.

Three routes to the same minimiser: the definition (mllib's own solver on
X with that column appended and no intercept), its optimality conditions,
and scikit-learn's LIBLINEAR."""

import numpy as np
import pytest
from scipy import sparse
from scipy.special import log_expit
from sklearn import linear_model as sk
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.preprocessing import StandardScaler

from mllib.linear_model import LogisticRegression
from mllib.linear_model.proximal_newton import subgradient_residual


def shifted_classification(seed):
    """Two classes, features shifted away from 0 so that the intercept is
    large and penalising it matters."""
    X, y = make_classification(
        150, 6, n_informative=4, flip_y=0.1, random_state=seed
    )
    return X + 3.0, y


def liblinear_objective(model, X, y, sample_weight=None):
    """C Σ s_i log(1 + exp(-ỹ_i f_i)) + r(w, w0), w0 = b / scaling."""
    w = model.coef_.ravel()
    if model.fit_intercept:
        w = np.append(w, model.intercept_[0] / model.intercept_scaling)
    margins = (2 * y - 1) * (X @ model.coef_.ravel() + model.intercept_[0])
    s = np.ones(len(y)) if sample_weight is None else sample_weight
    loss = -model.C * np.sum(s * log_expit(margins))
    if model.l1_ratio == 1:
        return loss + np.abs(w).sum()
    return loss + 0.5 * w @ w


PARAMS = [
    {"l1_ratio": l1_ratio, "intercept_scaling": scaling, "C": C}
    for l1_ratio in (0, 1)
    for scaling in (1.0, 10.0, 1e4)
    for C in (0.05, 1.0)
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("params", PARAMS)
def test_the_intercept_is_a_penalised_feature(params, seed):
    """The definition: mllib's solver without an intercept, on X with a
    column equal to intercept_scaling, gives w0 and b = w0 scaling."""
    X, y = shifted_classification(seed)
    scaling = params["intercept_scaling"]
    ours = LogisticRegression(solver="liblinear", tol=1e-10, **params)
    ours.fit(X, y)
    augmented = np.column_stack([X, np.full(len(X), scaling)])
    plain = LogisticRegression(
        fit_intercept=False,
        tol=1e-10,
        C=params["C"],
        l1_ratio=params["l1_ratio"],
    ).fit(augmented, y)
    np.testing.assert_allclose(
        ours.coef_, plain.coef_[:, :-1], rtol=1e-7, atol=1e-9
    )
    np.testing.assert_allclose(
        ours.intercept_, plain.coef_[:, -1] * scaling, rtol=1e-7, atol=1e-9
    )


@pytest.mark.parametrize("params", PARAMS)
def test_optimality_conditions_of_liblinear_objective(params):
    """At the minimiser the gradient of the objective (its smallest
    subgradient for l1) in (w, w0) is 0; mllib stops at tol relative to
    C n, so the residual is at most tol C n."""
    X, y = shifted_classification(2)
    tol = 1e-8
    model = LogisticRegression(solver="liblinear", tol=tol, **params)
    model.fit(X, y)
    scaling = params["intercept_scaling"]
    augmented = np.column_stack([X, np.full(len(X), scaling)])
    w = np.append(model.coef_.ravel(), model.intercept_[0] / scaling)
    p = 1 / (1 + np.exp(-(augmented @ w)))
    loss_gradient = params["C"] * augmented.T @ (p - y)
    if params["l1_ratio"] == 1:
        residual = subgradient_residual(w, loss_gradient, np.ones(len(w)))
    else:
        residual = loss_gradient + w
    assert np.abs(residual).max() <= tol * params["C"] * len(y)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    "params", [p for p in PARAMS if p["intercept_scaling"] < 1e3]
)
def test_matches_sklearn_liblinear(params, weighted):
    """Same objective as scikit-learn's LIBLINEAR (sample weights rescale C
    per sample in both): mllib's value is at most scikit-learn's plus its
    stopping slack, and the coefficients agree to that slack. (At
    intercept_scaling 1e4 LIBLINEAR's coordinate steps on the intercept's
    weight are ill-conditioned and it does not reach tol 1e-10.)"""
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X) + 1.0
    weights = None
    if weighted:
        weights = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    ours = LogisticRegression(solver="liblinear", tol=1e-10, **params)
    ours.fit(X, y, sample_weight=weights)
    theirs = sk.LogisticRegression(
        solver="liblinear", tol=1e-10, max_iter=100_000, **params
    ).fit(X, y, sample_weight=weights)
    ours_value = liblinear_objective(ours, X, y, weights)
    theirs_value = liblinear_objective(theirs, X, y, weights)
    assert ours_value <= theirs_value * (1 + 1e-9)
    # LIBLINEAR stops on its own relative gradient rule: a relative
    # difference in value of 1e-9 allows coefficients ~sqrt(1e-9) apart
    scale = np.abs(theirs.coef_).max()
    np.testing.assert_allclose(
        ours.coef_, theirs.coef_, atol=1e-4 * scale, rtol=0
    )
    np.testing.assert_allclose(
        ours.intercept_, theirs.intercept_, atol=1e-4 * scale, rtol=0
    )


def test_without_intercept_it_is_newton():
    """With fit_intercept=False nothing is left for LIBLINEAR's objective
    to change: the fit is solver="newton"'s."""
    X, y = shifted_classification(3)
    for l1_ratio in (0, 1):
        fits = [
            LogisticRegression(
                solver=solver, fit_intercept=False, l1_ratio=l1_ratio
            ).fit(X, y)
            for solver in ("liblinear", "newton")
        ]
        np.testing.assert_array_equal(fits[0].coef_, fits[1].coef_)


def test_intercept_scaling_only_matters_for_liblinear():
    X, y = shifted_classification(4)
    fits = [
        LogisticRegression(intercept_scaling=scaling).fit(X, y)
        for scaling in (1.0, 100.0)
    ]
    np.testing.assert_array_equal(fits[0].coef_, fits[1].coef_)
    np.testing.assert_array_equal(fits[0].intercept_, fits[1].intercept_)


def test_a_large_scaling_approaches_the_unpenalised_intercept():
    """The penalty on b is b² / (2 scaling²): as scaling grows, the fit
    tends to the usual one with a free intercept."""
    X, y = shifted_classification(5)
    free = LogisticRegression(tol=1e-10).fit(X, y)
    gaps = [
        np.abs(
            LogisticRegression(
                solver="liblinear", intercept_scaling=scaling, tol=1e-10
            )
            .fit(X, y)
            .intercept_
            - free.intercept_
        )[0]
        for scaling in (1.0, 10.0, 100.0)
    ]
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[2] < 1e-3 * abs(free.intercept_[0])


def test_sparse_and_dense_agree():
    X, y = shifted_classification(6)
    X[np.abs(X - 3.0) < 0.5] = 0.0
    params = {"solver": "liblinear", "intercept_scaling": 5.0, "tol": 1e-10}
    dense = LogisticRegression(**params).fit(X, y)
    csr = LogisticRegression(**params).fit(sparse.csr_matrix(X), y)
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=1e-9)
    np.testing.assert_allclose(csr.intercept_, dense.intercept_, rtol=1e-9)


def test_warm_start_keeps_the_minimiser():
    """Warm-started from the previous fit (its intercept divided back by
    intercept_scaling), a refit at the same C is already converged."""
    X, y = shifted_classification(7)
    model = LogisticRegression(
        solver="liblinear", intercept_scaling=10.0, warm_start=True, C=0.3
    ).fit(X, y)
    coef, intercept = model.coef_.copy(), model.intercept_.copy()
    model.fit(X, y)
    assert model.n_iter_[0] <= 1
    np.testing.assert_allclose(model.coef_, coef, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(model.intercept_, intercept, rtol=1e-6)


def test_more_than_two_classes_is_an_error_naming_one_vs_rest():
    X, y = make_classification(
        90, 5, n_informative=3, n_classes=3, random_state=0
    )
    with pytest.raises(ValueError, match="OneVsRestClassifier"):
        LogisticRegression(solver="liblinear").fit(X, y)
