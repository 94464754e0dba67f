"""LinearRegression and Ridge against scikit-learn, closed forms and each other."""

import numpy as np
import pytest
from sample_weights import check_bad_weights_raise, integer_weights, repeated
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from mllib.exceptions import NotFittedError
from mllib.linear_model import LinearRegression, Ridge


def collinear_data():
    """Column 3 = column 0 + 2·column 1 exactly, and column 4 duplicates column 2."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 3))
    X = np.column_stack([X, X[:, 0] + 2 * X[:, 1], X[:, 2]])
    y = X[:, 0] - X[:, 2] + 0.3 + 0.1 * rng.normal(size=40)
    return X, y


def wide_data():
    """More features than samples (d = 60 > n = 25)."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(25, 60))
    return X, X[:, :5] @ np.arange(1.0, 6.0) + rng.normal(size=25)


def diabetes():
    return load_diabetes(return_X_y=True)


DATA = {"collinear": collinear_data, "wide": wide_data, "diabetes": diabetes}


@pytest.fixture(params=list(DATA), ids=list(DATA))
def hard_data(request):
    return DATA[request.param]()


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_linear_regression_matches_sklearn(regression_data, fit_intercept):
    X, y = regression_data
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9, atol=1e-10)
    assert ours.intercept_ == pytest.approx(ref.intercept_, abs=1e-9)
    assert ours.rank_ == ref.rank_
    np.testing.assert_allclose(ours.singular_, ref.singular_, rtol=1e-10)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-9)


def test_linear_regression_rank_deficient_gives_sklearns_minimum_norm_solution(
    hard_data,
):
    X, y = hard_data
    ours = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-7, atol=1e-8)
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=1e-9, abs=1e-8)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    # the minimum-norm least-squares solution is the pseudo-inverse one
    np.testing.assert_allclose(
        ours.coef_, np.linalg.pinv(Xc) @ yc, rtol=1e-7, atol=1e-8
    )
    # and it satisfies the normal equations even when XᵀX is singular
    np.testing.assert_allclose(
        Xc.T @ (Xc @ ours.coef_ - yc), 0, atol=1e-8 * np.abs(Xc.T @ yc).max()
    )


def test_linear_regression_rank_of_collinear_data():
    X, y = collinear_data()
    assert LinearRegression().fit(X, y).rank_ == 3
    assert (
        LinearRegression().fit(*wide_data()).rank_ == 24
    )  # centring removes one dimension


def test_linear_regression_tol_sets_the_numerical_rank():
    # Columns 1, x, ..., x^9 on [0, 1]: condition number about 4e6, so the smallest singular value
    # is below the default cut-off 1e-6 * sigma_1 and above a cut-off of 1e-9 * sigma_1.
    x = np.linspace(0, 1, 50)
    Phi = np.vander(x, 10, increasing=True)
    singular = np.linalg.svd(Phi, compute_uv=False)
    assert 1e-9 < singular[-1] / singular[0] < 1e-6
    y = Phi @ np.ones(10)
    for tol, rank in [(1e-6, 9), (1e-9, 10), (0.0, 10)]:
        ours = LinearRegression(fit_intercept=False, tol=tol).fit(Phi, y)
        # the truncated pseudo-inverse, by numpy's SVD (scikit-learn >= 1.9 gives the same)
        assert (
            ours.rank_
            == np.linalg.matrix_rank(Phi, tol=tol * singular[0])
            == rank
        )
        np.testing.assert_allclose(
            ours.coef_,
            np.linalg.pinv(Phi, rcond=tol) @ y,
            rtol=1e-8,
            atol=1e-8,
        )
    # dropping a direction changes the coefficients, not the fit
    truncated = LinearRegression(fit_intercept=False).fit(Phi, y)
    full = LinearRegression(fit_intercept=False, tol=0.0).fit(Phi, y)
    np.testing.assert_allclose(
        Phi @ truncated.coef_, Phi @ full.coef_, atol=1e-10
    )
    np.testing.assert_allclose(full.coef_, 1, atol=1e-8)
    assert (
        np.abs(truncated.coef_ - 1).max() > 100 * np.abs(full.coef_ - 1).max()
    )


def test_linear_regression_residual_is_orthogonal_to_columns_and_ones(
    regression_data,
):
    X, y = regression_data
    model = LinearRegression().fit(X, y)
    residual = y - model.predict(X)
    scale = np.linalg.norm(X) * np.linalg.norm(y)
    assert abs(residual.sum()) < 1e-10 * scale
    np.testing.assert_allclose(X.T @ residual, 0, atol=1e-10 * scale)


def test_linear_regression_recovers_exact_polynomial():
    x = np.linspace(-2, 3, 12)
    X = np.column_stack([x, x**2])
    model = LinearRegression().fit(X, 1.5 - 2 * x + 0.25 * x**2)
    np.testing.assert_allclose(model.coef_, [-2, 0.25], atol=1e-12)
    assert model.intercept_ == pytest.approx(1.5, abs=1e-12)


@pytest.mark.parametrize("solver", ["auto", "primal", "dual"])
@pytest.mark.parametrize("alpha", [1e-3, 1.0, 50.0])
def test_ridge_matches_sklearn(regression_data, solver, alpha):
    X, y = regression_data
    ours = Ridge(alpha=alpha, solver=solver).fit(X, y)
    ref = sk.Ridge(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-8, atol=1e-10)
    assert ours.intercept_ == pytest.approx(ref.intercept_, abs=1e-9)
    np.testing.assert_allclose(
        ours.predict(X), ref.predict(X), rtol=1e-9, atol=1e-9
    )


@pytest.mark.parametrize("solver", ["primal", "dual"])
def test_ridge_matches_sklearn_on_collinear_wide_and_real_data(
    hard_data, solver
):
    X, y = hard_data
    for alpha in (1e-2, 1.0, 10.0):
        ours = Ridge(alpha=alpha, solver=solver).fit(X, y)
        ref = sk.Ridge(alpha=alpha).fit(X, y)
        np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-7, atol=1e-9)
        assert ours.intercept_ == pytest.approx(
            ref.intercept_, rel=1e-9, abs=1e-9
        )


def test_ridge_without_intercept_matches_sklearn(regression_data):
    X, y = regression_data
    for solver in ("primal", "dual"):
        ours = Ridge(alpha=2.0, fit_intercept=False, solver=solver).fit(X, y)
        ref = sk.Ridge(alpha=2.0, fit_intercept=False).fit(X, y)
        np.testing.assert_allclose(
            ours.coef_, ref.coef_, rtol=1e-9, atol=1e-10
        )
        assert ours.intercept_ == 0.0


def test_ridge_primal_equals_dual_and_dual_coef_is_the_scaled_residual(
    regression_data,
):
    X, y = regression_data
    alpha = 0.5
    primal = Ridge(alpha=alpha, solver="primal").fit(X, y)
    dual = Ridge(alpha=alpha, solver="dual").fit(X, y)
    np.testing.assert_allclose(primal.coef_, dual.coef_, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(
        primal.dual_coef_, dual.dual_coef_, rtol=1e-8, atol=1e-10
    )
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    np.testing.assert_allclose(Xc.T @ dual.dual_coef_, dual.coef_, atol=1e-12)
    np.testing.assert_allclose(
        dual.dual_coef_, (yc - Xc @ dual.coef_) / alpha, rtol=1e-8, atol=1e-10
    )


def test_ridge_gradient_vanishes_and_intercept_is_not_penalised(
    regression_data,
):
    X, y = regression_data
    alpha = 3.0
    model = Ridge(alpha=alpha).fit(X, y)
    residual = y - model.predict(X)
    gradient_w = -2 * X.T @ residual + 2 * alpha * model.coef_
    scale = np.linalg.norm(X) * np.linalg.norm(y)
    np.testing.assert_allclose(gradient_w, 0, atol=1e-10 * scale)
    # ∂/∂b = -2·Σ residuals = 0: the intercept carries no penalty
    assert abs(residual.sum()) < 1e-10 * scale
    # penalising a column of ones instead shrinks the intercept (a different, wrong model)
    ones = np.column_stack([np.ones(len(X)), X])
    penalised = np.linalg.solve(
        ones.T @ ones + alpha * np.eye(ones.shape[1]), ones.T @ y
    )
    assert abs(penalised[0] - model.intercept_) > 1e-6


def test_ridge_auto_picks_the_smaller_system():
    X, y = wide_data()
    assert Ridge(solver="auto").fit(X, y).solver_ == "dual"
    assert (
        Ridge(solver="auto").fit(X.T[:, :20], X.T[:, 20]).solver_ == "primal"
    )


def full_rank_data():
    X, y = collinear_data()
    return X[:, :3], y


@pytest.mark.parametrize(
    "data", [diabetes, full_rank_data], ids=["diabetes", "full-rank"]
)
def test_ridge_tends_to_least_squares_as_alpha_vanishes(data):
    X, y = data()
    ols = LinearRegression().fit(X, y)
    assert (
        ols.rank_ == X.shape[1]
    )  # a unique least-squares solution to converge to
    np.testing.assert_allclose(
        Ridge(alpha=1e-12).fit(X, y).coef_, ols.coef_, rtol=1e-6
    )
    assert np.linalg.norm(Ridge(alpha=1.0).fit(X, y).coef_) < np.linalg.norm(
        ols.coef_
    )


@pytest.mark.parametrize(
    "model", [LinearRegression(), Ridge(), Ridge(solver="dual")], ids=repr
)
def test_inputs_are_never_modified(model, regression_data):
    X, y = regression_data
    X_before, y_before = X.copy(), y.copy()
    model.fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize("model", [LinearRegression(), Ridge()], ids=repr)
def test_bad_input_raises_clear_errors(model):
    X, y = np.ones((5, 2)), np.arange(5.0)
    with pytest.raises(NotFittedError):
        model.predict(X)
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.fit(np.where(np.eye(5, 2) == 1, np.nan, X), y)
    with pytest.raises(ValueError, match="NaN|infinity"):
        model.fit(X, np.r_[np.inf, y[1:]])
    with pytest.raises(ValueError, match="(?s)Expected 2D array.*reshape"):
        model.fit(np.arange(5.0), y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        model.fit(X, y[:4])
    model.fit(X + np.eye(5, 2), y)
    with pytest.raises(
        ValueError, match="X has 3 features, but .* expecting 2 features"
    ):
        model.predict(np.ones((4, 3)))


@pytest.mark.parametrize("alpha", [0, -1.0, np.nan, "1"])
def test_ridge_rejects_non_positive_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        Ridge(alpha=alpha).fit(np.eye(3), np.ones(3))


def test_ridge_rejects_unknown_solver():
    with pytest.raises(
        ValueError, match='solver must be "auto", "primal" or "dual"'
    ):
        Ridge(solver="cholesky").fit(np.eye(3), np.ones(3))


# -- sample weights: Σ s_i (y_i − x_iᵀw − b)² (+ α‖w‖² for Ridge) ----------

WEIGHTED = {
    "LinearRegression": (LinearRegression, sk.LinearRegression, {}),
    "Ridge-primal": (Ridge, sk.Ridge, {"alpha": 2.0, "solver": "primal"}),
    "Ridge-dual": (Ridge, sk.Ridge, {"alpha": 2.0, "solver": "dual"}),
}


def weighted_fits(name, X, y, sample_weight, **params):
    """Ours and scikit-learn's fits of one weighted problem."""
    ours, theirs, shared = WEIGHTED[name]
    ours_params = {**shared, **params}
    theirs_params = {k: v for k, v in ours_params.items() if k != "solver"}
    return (
        ours(**ours_params).fit(X, y, sample_weight=sample_weight),
        theirs(**theirs_params).fit(X, y, sample_weight=sample_weight),
    )


@pytest.mark.parametrize("name", list(WEIGHTED))
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_weighted_fit_matches_sklearn(regression_data, name, fit_intercept):
    X, y = regression_data
    weights = np.random.default_rng(len(y)).uniform(0, 3, size=len(y))
    ours, ref = weighted_fits(name, X, y, weights, fit_intercept=fit_intercept)
    # closed forms on the same rescaled data: agreement to rounding
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9, atol=1e-10)
    assert ours.intercept_ == pytest.approx(ref.intercept_, abs=1e-9)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-9)


@pytest.mark.parametrize("name", list(WEIGHTED))
def test_integer_weights_equal_repeated_rows(name):
    X, y = load_diabetes(return_X_y=True)
    weights = integer_weights(len(y), seed=0)
    ours = weighted_fits(name, X, y, weights)[0]
    X_rep, y_rep = repeated(X, y, weights)
    model, _, params = WEIGHTED[name]
    plain = model(**params).fit(X_rep, y_rep)
    np.testing.assert_allclose(ours.coef_, plain.coef_, rtol=1e-9)
    assert ours.intercept_ == pytest.approx(plain.intercept_, rel=1e-12)


def test_ridge_weights_rescale_the_loss_but_not_the_penalty():
    # Σ c·s_i r_i² + α‖w‖² = c(Σ s_i r_i² + (α/c)‖w‖²): the same minimiser as
    # α/c with weights s, and a different one from α with weights s
    X, y = load_diabetes(return_X_y=True)
    weights = np.random.default_rng(1).uniform(0.5, 2, size=len(y))
    scaled = Ridge(alpha=0.5).fit(X, y, sample_weight=10 * weights)
    same = Ridge(alpha=0.05).fit(X, y, sample_weight=weights)
    other = Ridge(alpha=0.5).fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(scaled.coef_, same.coef_, rtol=1e-10)
    assert np.max(np.abs(scaled.coef_ - other.coef_)) > 0.1 * np.max(
        np.abs(other.coef_)
    )
    # a number is that weight for every sample: α/2 unweighted
    doubled = Ridge(alpha=0.5).fit(X, y, sample_weight=2)
    halved = Ridge(alpha=0.25).fit(X, y)
    np.testing.assert_allclose(doubled.coef_, halved.coef_, rtol=1e-10)


def test_linear_regression_ignores_a_common_factor_in_the_weights():
    X, y = load_diabetes(return_X_y=True)
    weights = np.random.default_rng(2).uniform(0.5, 2, size=len(y))
    once = LinearRegression().fit(X, y, sample_weight=weights)
    scaled = LinearRegression().fit(X, y, sample_weight=7.5 * weights)
    np.testing.assert_allclose(scaled.coef_, once.coef_, rtol=1e-9)
    assert scaled.intercept_ == pytest.approx(once.intercept_, rel=1e-12)


@pytest.mark.parametrize("name", list(WEIGHTED))
def test_weighted_intercept_is_the_weighted_mean_identity(name):
    # the unpenalised intercept: b = ȳ_s − x̄_sᵀw, weighted means
    X, y = load_diabetes(return_X_y=True)
    weights = np.random.default_rng(3).uniform(0, 2, size=len(y))
    ours = weighted_fits(name, X, y, weights)[0]
    x_mean = np.average(X, axis=0, weights=weights)
    y_mean = np.average(y, weights=weights)
    assert ours.intercept_ == pytest.approx(y_mean - x_mean @ ours.coef_)
    # and the weighted residuals are orthogonal to the constant
    residual = y - ours.predict(X)
    assert abs(weights @ residual) <= 1e-9 * weights @ np.abs(y)


def test_ridge_dual_coef_reproduce_coef_with_weights():
    X, y = load_diabetes(return_X_y=True)
    weights = np.random.default_rng(4).uniform(0, 2, size=len(y))
    for solver in ("primal", "dual"):
        ours = Ridge(alpha=0.3, solver=solver).fit(X, y, sample_weight=weights)
        Xc = X - np.average(X, axis=0, weights=weights)
        np.testing.assert_allclose(Xc.T @ ours.dual_coef_, ours.coef_)


@pytest.mark.parametrize("model", [LinearRegression(), Ridge()])
def test_bad_weights_raise(model):
    X, y = load_diabetes(return_X_y=True)
    check_bad_weights_raise(model, X, y)
