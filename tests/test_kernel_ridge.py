"""mllib.kernel_ridge.KernelRidge against scikit-learn, the primal ridge solution and its own optimality."""

import numpy as np
import pytest
from sample_weights import check_bad_weights_raise, integer_weights, repeated
from sklearn.datasets import load_diabetes
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from sklearn.linear_model import Ridge as SkRidge

from mllib.exceptions import NotFittedError
from mllib.kernel_ridge import KernelRidge
from mllib.kernels import anova_kernel, rbf_kernel
from mllib.optim import check_gradient


def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    return X[:300], y[:300]


@pytest.mark.parametrize(
    "params",
    [
        dict(kernel="linear", alpha=1.0),
        dict(kernel="linear", alpha=1e-3),
        dict(kernel="rbf", alpha=0.1, gamma=0.5),
        dict(kernel="rbf", alpha=1.0),
        dict(kernel="poly", alpha=0.5, degree=2, gamma=0.3, coef0=1.0),
        dict(kernel="polynomial", alpha=2.0),
    ],
    ids=[
        "linear-1",
        "linear-1e-3",
        "rbf-0.5",
        "rbf-default-gamma",
        "poly-2",
        "poly-default",
    ],
)
def test_matches_sklearn(regression_data, params):
    X, y = regression_data
    ours = KernelRidge(**params).fit(X, y)
    theirs = SkKernelRidge(**params).fit(X, y)
    np.testing.assert_allclose(
        ours.dual_coef_, theirs.dual_coef_, rtol=1e-8, atol=1e-10
    )
    X_new = X[:7] + 0.1
    np.testing.assert_allclose(
        ours.predict(X_new), theirs.predict(X_new), rtol=1e-8, atol=1e-8
    )


def _one_pair(kernel):
    """scikit-learn's KernelRidge calls a callable kernel once per pair of samples."""
    return lambda a, b, **params: kernel(a[None, :], b[None, :], **params)[
        0, 0
    ]


def test_matches_sklearn_on_diabetes_and_with_a_callable():
    X, y = _diabetes()
    X, y = (
        X[:80],
        y[:80],
    )  # scikit-learn's per-pair callable costs n^2 Python calls
    for params in [
        dict(kernel="rbf", gamma=5.0, alpha=0.01),
        dict(kernel=anova_kernel, alpha=0.3),
        dict(kernel=rbf_kernel, kernel_params=dict(gamma=2.0), alpha=0.1),
    ]:
        ours = KernelRidge(**params).fit(X, y)
        if callable(params["kernel"]):
            params["kernel"] = _one_pair(params["kernel"])
        theirs = SkKernelRidge(**params).fit(X, y)
        np.testing.assert_allclose(
            ours.predict(X), theirs.predict(X), rtol=1e-8
        )
        np.testing.assert_allclose(
            ours.dual_coef_, theirs.dual_coef_, rtol=1e-7, atol=1e-9
        )


@pytest.mark.parametrize("alpha", [1e-2, 1.0, 100.0])
def test_linear_kernel_is_primal_ridge_without_intercept(
    regression_data, alpha
):
    X, y = regression_data
    model = KernelRidge(alpha=alpha, kernel="linear").fit(X, y)
    w = X.T @ model.dual_coef_  # w = X^T c
    np.testing.assert_allclose(
        w,
        SkRidge(alpha=alpha, fit_intercept=False).fit(X, y).coef_,
        rtol=1e-7,
        atol=1e-10,
    )
    primal = np.linalg.solve(X.T @ X + alpha * np.eye(X.shape[1]), X.T @ y)
    np.testing.assert_allclose(w, primal, rtol=1e-7, atol=1e-10)


def test_dual_coefficients_minimise_the_dual_objective(rng):
    X, y = rng.normal(size=(40, 3)), rng.normal(size=40)
    alpha = 0.3
    model = KernelRidge(alpha=alpha, kernel="rbf", gamma=0.8).fit(X, y)
    K = rbf_kernel(X, gamma=0.8)
    objective = lambda c: np.sum((y - K @ c) ** 2) + alpha * c @ K @ c
    gradient = lambda c: -2 * K @ (y - K @ c) + 2 * alpha * K @ c
    assert check_gradient(objective, gradient, rng.normal(size=40)) < 1e-7
    np.testing.assert_allclose(gradient(model.dual_coef_), 0, atol=1e-8)
    for _ in range(5):
        assert objective(
            model.dual_coef_ + 1e-3 * rng.normal(size=40)
        ) > objective(model.dual_coef_)
    np.testing.assert_allclose(
        (K + alpha * np.eye(40)) @ model.dual_coef_, y, atol=1e-10
    )


def test_bad_input(rng):
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    with pytest.raises(ValueError, match="not positive semi-definite"):
        KernelRidge(kernel=lambda A, B: np.tanh(A @ B.T - 1.0)).fit(X, y)
    duplicated = np.vstack([X, X])
    with pytest.raises(
        ValueError,
        match="K \\+ alpha\\*I is not positive definite.*Use alpha > 0",
    ):
        KernelRidge(alpha=0.0, kernel="linear").fit(duplicated, np.r_[y, y])
    KernelRidge(alpha=0.0, kernel="rbf").fit(
        X, y
    )  # non-singular K: alpha = 0 is fine
    with pytest.raises(ValueError, match="alpha must be in"):
        KernelRidge(alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="Unknown kernel"):
        KernelRidge(kernel="cosine").fit(X, y)
    with pytest.raises(ValueError, match="non-negative inputs"):
        KernelRidge(kernel="min").fit(X, y)
    with pytest.raises(NotFittedError):
        KernelRidge().predict(X)
    model = KernelRidge().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :1])


def test_inputs_untouched(rng):
    X, y = rng.uniform(size=(15, 3)), rng.normal(size=15)
    X0, y0 = X.copy(), y.copy()
    KernelRidge(kernel="min", alpha=0.1).fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


# -- sample weights: Σ s_i (y_i − f(x_i))² + α‖f‖² ---------------------------

WEIGHTED_KERNELS = [
    dict(kernel="linear", alpha=1.0),
    dict(kernel="rbf", alpha=0.1, gamma=0.5),
    dict(kernel="poly", alpha=0.5, degree=2, gamma=0.3, coef0=1.0),
]


@pytest.mark.parametrize(
    "params", WEIGHTED_KERNELS, ids=["linear", "rbf", "poly"]
)
def test_weighted_fit_matches_sklearn(regression_data, params):
    X, y = regression_data
    weights = integer_weights(len(y), seed=len(y)) + 0.25
    ours = KernelRidge(**params).fit(X, y, sample_weight=weights)
    theirs = SkKernelRidge(**params).fit(X, y, sample_weight=weights)
    # the same Cholesky solve of S^½KS^½ + αI: agreement to rounding
    np.testing.assert_allclose(
        ours.dual_coef_, theirs.dual_coef_, rtol=1e-8, atol=1e-10
    )
    X_new = X[:7] + 0.1
    np.testing.assert_allclose(
        ours.predict(X_new), theirs.predict(X_new), rtol=1e-8, atol=1e-8
    )


def test_weighted_dual_coefficients_solve_the_weighted_normal_equations():
    # stationarity of Σ s_i (y_i − (Kc)_i)² + α cᵀKc: (SK + αI)c = Sy
    X, y = _diabetes()
    weights = np.random.default_rng(0).uniform(0, 2, size=len(y))
    model = KernelRidge(kernel="rbf", gamma=5.0, alpha=0.1)
    c = model.fit(X, y, sample_weight=weights).dual_coef_
    K = rbf_kernel(X, gamma=5.0)
    np.testing.assert_allclose(
        weights * (K @ c) + 0.1 * c, weights * y, atol=1e-8 * np.abs(y).max()
    )


@pytest.mark.parametrize(
    "params", WEIGHTED_KERNELS, ids=["linear", "rbf", "poly"]
)
def test_integer_weights_equal_repeated_rows(params):
    # copies of a sample share its coefficient (y_i − f(x_i))/α, so they sum
    # to the weighted one; a zero weight gives c_i = 0, the sample dropped
    X, y = _diabetes()
    X, y = X[:120], y[:120]
    weights = integer_weights(len(y), seed=2)
    weighted = KernelRidge(**params).fit(X, y, sample_weight=weights)
    plain = KernelRidge(**params).fit(*repeated(X, y, weights))
    np.testing.assert_allclose(
        weighted.predict(X), plain.predict(X), rtol=1e-8
    )
    assert np.all(weighted.dual_coef_[weights == 0] == 0)


def test_weights_rescale_the_loss_but_not_the_penalty():
    X, y = _diabetes()
    weights = np.random.default_rng(3).uniform(0.5, 2, size=len(y))
    params = dict(kernel="rbf", gamma=5.0)
    scaled = KernelRidge(alpha=1.0, **params).fit(
        X, y, sample_weight=4 * weights
    )
    same = KernelRidge(alpha=0.25, **params).fit(X, y, sample_weight=weights)
    other = KernelRidge(alpha=1.0, **params).fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(scaled.predict(X), same.predict(X), rtol=1e-9)
    assert np.max(np.abs(scaled.predict(X) - other.predict(X))) > 1.0


def test_bad_weights_raise(rng):
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    check_bad_weights_raise(KernelRidge(), X, y)
