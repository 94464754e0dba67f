"""Lasso, ElasticNet and their paths against scikit-learn and against the optimality conditions."""

import warnings

import numpy as np
import pytest
from sample_weights import check_bad_weights_raise, integer_weights, repeated
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


def constrained_objective_minimum(X, y, alpha, l1_ratio):
    """An independent route to the positive elastic net's minimum: on
    w ≥ 0 the l1 norm is the linear function Σ w_j, so the problem is smooth
    with bounds, which L-BFGS-B solves (centred data: intercept by
    centring)."""
    from scipy.optimize import minimize

    Xc, yc = X - X.mean(0), y - y.mean()
    n = len(y)

    def fun(w):
        r = yc - Xc @ w
        value = r @ r / (2 * n) + alpha * l1_ratio * w.sum()
        value += 0.5 * alpha * (1 - l1_ratio) * w @ w
        grad = -Xc.T @ r / n + alpha * l1_ratio
        return value, grad + alpha * (1 - l1_ratio) * w

    result = minimize(
        fun,
        np.zeros(X.shape[1]),
        jac=True,
        method="L-BFGS-B",
        bounds=[(0, None)] * X.shape[1],
        options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 100_000},
    )
    return result.fun


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("l1_ratio", [0.5, 1.0])
def test_positive_matches_sklearn_and_the_constrained_optimality_conditions(
    name, l1_ratio
):
    X, y = DATA[name]()
    alpha = 0.05 * alpha_max(X, y)
    params = dict(alpha=alpha, positive=True, tol=1e-12, max_iter=100_000)
    ours = ElasticNet(l1_ratio=l1_ratio, **params).fit(X, y)
    ref = sk.ElasticNet(l1_ratio=l1_ratio, **params).fit(X, y)
    assert np.all(ours.coef_ >= 0) and np.any(ours.coef_ > 0)
    np.testing.assert_allclose(
        ours.coef_, ref.coef_, atol=1e-6 * np.abs(ref.coef_).max()
    )
    # KKT of min f(w) + αρ Σ w_j subject to w ≥ 0, with the correlation
    # c = Xᵀr/n - α(1-ρ)w = -∇(smooth part): c_j = αρ where w_j > 0 and
    # c_j ≤ αρ where w_j = 0 (one-sided: a negative c_j is allowed, it
    # would pull w_j below zero)
    c = X.T @ (y - ours.predict(X)) / len(y) - alpha * (1 - l1_ratio) * (
        ours.coef_
    )
    active = ours.coef_ > 0
    np.testing.assert_allclose(c[active], alpha * l1_ratio, rtol=1e-5)
    assert np.all(c[~active] <= alpha * l1_ratio * (1 + 1e-6))
    if name != "diabetes":  # somewhere the constraint binds: the
        # unconstrained solution has negative coefficients
        free = ElasticNet(alpha=alpha, l1_ratio=l1_ratio, tol=1e-12).fit(X, y)
        assert np.any(free.coef_ < 0)
    # the reported gap bounds the distance to an independent minimum
    value = objective(X, y, ours.coef_, ours.intercept_, alpha, l1_ratio)
    best = constrained_objective_minimum(X, y, alpha, l1_ratio)
    assert best - 1e-9 * abs(best) <= value <= best + ours.dual_gap_ + 1e-12


def test_positive_duality_gap_bounds_the_suboptimality():
    X, y = DATA["wide"]()
    Xc, yc = X - X.mean(0), y - y.mean()
    n, alpha = len(y), 0.1 * alpha_max(X, y)
    best = constrained_objective_minimum(X, y, alpha, 1.0)
    rng = np.random.default_rng(3)
    for w in [np.zeros(X.shape[1]), np.abs(rng.normal(size=X.shape[1]))]:
        r = yc - Xc @ w
        gap = duality_gap(w, Xc, yc, r, n * alpha, 0.0, positive=True) / n
        suboptimality = objective(Xc, yc, w, 0.0, alpha) - best
        assert -1e-9 <= suboptimality <= gap + 1e-9
        # the two-sided (unconstrained) gap is a different certificate
        assert gap <= duality_gap(w, Xc, yc, r, n * alpha, 0.0) / n + 1e-12


@pytest.mark.parametrize("model", [Lasso, ElasticNet])
def test_warm_start_continues_from_the_previous_coefficients(model):
    X, y = load_diabetes(return_X_y=True)
    cold = model(alpha=0.01, tol=1e-8).fit(X, y)
    warm = model(alpha=0.01, tol=1e-8, warm_start=True)
    warm.fit(X, y)
    np.testing.assert_array_equal(warm.coef_, cold.coef_)  # nothing to reuse
    assert warm.fit(X, y).n_iter_ == 0  # starts at a certified solution
    np.testing.assert_array_equal(warm.coef_, cold.coef_)
    # along a decreasing alpha sequence the warm fits need fewer sweeps,
    # and every fit still meets its gap tolerance
    alphas = np.geomspace(1.0, 0.001, 8)
    sweeps = {}
    for warm_start in (False, True):
        estimator = model(tol=1e-8, warm_start=warm_start)
        sweeps[warm_start] = 0
        for alpha in alphas:
            estimator.set_params(alpha=alpha).fit(X, y)
            sweeps[warm_start] += estimator.n_iter_
            reference = model(alpha=alpha, tol=1e-8).fit(X, y)
            assert (
                objective(
                    X,
                    y,
                    estimator.coef_,
                    estimator.intercept_,
                    alpha,
                    getattr(estimator, "l1_ratio", 1.0),
                )
                <= objective(
                    X,
                    y,
                    reference.coef_,
                    reference.intercept_,
                    alpha,
                    getattr(estimator, "l1_ratio", 1.0),
                )
                + estimator.dual_gap_
                + 1e-12
            )
    assert sweeps[True] < sweeps[False]
    with pytest.raises(ValueError, match="same features"):
        warm.fit(X[:, :3], y)


def test_warm_start_matches_sklearns_warm_start():
    X, y = load_diabetes(return_X_y=True)
    ours = Lasso(alpha=0.1, warm_start=True, tol=1e-6)
    ref = sk.Lasso(alpha=0.1, warm_start=True, tol=1e-6)
    for alpha in (1.0, 0.1, 0.01):
        ours.set_params(alpha=alpha).fit(X, y)
        ref.set_params(alpha=alpha).fit(X, y)
        # the same cyclic sweeps from the same start and the same stopping
        # rule: the same number of sweeps, coefficients to rounding
        assert ours.n_iter_ == ref.n_iter_
        np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
def test_positive_paths_and_coef_init_match_sklearn(l1_ratio):
    X, y = load_diabetes(return_X_y=True)
    Xc, yc = X - X.mean(0), y - y.mean()
    params = dict(alphas=20, positive=True, tol=1e-10, max_iter=100_000)
    ours = enet_path(Xc, yc, l1_ratio=l1_ratio, **params)
    ref = sk.enet_path(Xc, yc, l1_ratio=l1_ratio, **params)
    np.testing.assert_allclose(ours[0], ref[0], rtol=1e-12)
    np.testing.assert_allclose(
        ours[1], ref[1], atol=1e-6 * np.abs(ref[1]).max()
    )
    assert np.all(ours[1] >= 0)
    # a path started from given coefficients ends where a cold one does
    start = np.linspace(-1, 1, X.shape[1])
    warm = lasso_path(Xc, yc, alphas=[0.5, 0.05], coef_init=start, tol=1e-12)
    cold = lasso_path(Xc, yc, alphas=[0.5, 0.05], tol=1e-12)
    np.testing.assert_allclose(warm[1], cold[1], atol=1e-6)
    with pytest.raises(ValueError, match="one per feature"):
        lasso_path(Xc, yc, coef_init=np.zeros(3))


def degenerate_regression_problems(seed):
    """Tiny problems of every awkward kind: duplicate and collinear columns,
    a constant column, repeated rows, ties in y, n < d, a constant y."""
    rng = np.random.default_rng(seed)
    n, d = rng.integers(2, 9), rng.integers(1, 6)
    X = rng.normal(size=(n, d))
    kind = seed % 6
    if kind == 0 and d > 1:
        X[:, 1] = X[:, 0]  # duplicate column
    elif kind == 1 and d > 2:
        X[:, 2] = X[:, 0] - 2 * X[:, 1]  # collinear
    elif kind == 2:
        X[:, 0] = 1.5  # constant column
    elif kind == 3 and n > 2:
        X[1] = X[0]  # repeated row
    X = np.round(X, 1)  # ties
    y = (
        np.full(n, 2.0)
        if kind == 4
        else np.round(X @ rng.normal(size=d) + rng.normal(size=n), 1)
    )
    return X, y


@pytest.mark.parametrize("positive", [False, True])
def test_many_degenerate_problems_no_crash_and_no_worse_than_sklearn(
    positive,
):
    """P(ours) - P* ≤ our duality gap and P(sklearn) ≥ P*, so P(ours) ≤
    P(sklearn) + our gap: a bound from our stopping rule alone."""
    for seed in range(150):
        X, y = degenerate_regression_problems(seed)
        rng = np.random.default_rng(seed)
        alpha = 10.0 ** rng.uniform(-6, 1)  # tiny alpha included
        l1_ratio = [1.0, 0.5, 0.01][seed % 3]
        params = dict(alpha=alpha, l1_ratio=l1_ratio, positive=positive)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            ours = ElasticNet(max_iter=5000, **params).fit(X, y)
            ref = sk.ElasticNet(max_iter=5000, **params).fit(X, y)
        assert np.all(np.isfinite(ours.coef_))
        assert not positive or np.all(ours.coef_ >= 0)
        mine = objective(X, y, ours.coef_, ours.intercept_, alpha, l1_ratio)
        theirs = objective(X, y, ref.coef_, ref.intercept_, alpha, l1_ratio)
        assert mine <= theirs + ours.dual_gap_ + 1e-12 * (1 + abs(theirs))


# -- sample weights: (1/(2Σs)) Σ s_i r_i² + penalty -------------------------


def weighted_objective(X, y, coef, intercept, alpha, l1_ratio, weights):
    """scikit-learn's weighted elastic-net objective: the squared residuals
    averaged with the weights, so a common factor in them changes nothing."""
    r = y - X @ coef - intercept
    return (
        np.average(r**2, weights=weights) / 2
        + alpha * l1_ratio * np.abs(coef).sum()
        + 0.5 * alpha * (1 - l1_ratio) * coef @ coef
    )


def assert_same_minimiser(first, second, X, y, weights, alpha, l1_ratio):
    """Two fits of one weighted problem agree as far as their duality gaps
    allow: each objective is within its ``dual_gap_`` of the minimum, and
    with l1_ratio < 1 the objective is α(1−ρ)-strongly convex, so
    ‖w − w*‖² ≤ 2·dual_gap_/(α(1−ρ)) for each."""
    values = [
        weighted_objective(
            X, y, fit.coef_, fit.intercept_, alpha, l1_ratio, weights
        )
        for fit in (first, second)
    ]
    gaps = first.dual_gap_ + second.dual_gap_
    assert abs(values[0] - values[1]) <= gaps + 1e-12 * values[1]
    if l1_ratio < 1:
        radius = sum(
            np.sqrt(2 * fit.dual_gap_ / (alpha * (1 - l1_ratio)))
            for fit in (first, second)
        )
        distance = np.linalg.norm(first.coef_ - second.coef_)
        assert distance <= radius + 1e-9 * np.linalg.norm(second.coef_)


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_weighted_fit_matches_sklearn(name, l1_ratio, fit_intercept):
    X, y = DATA[name]()
    weights = np.random.default_rng(len(y)).uniform(0, 3, size=len(y))
    alpha = 0.1 * alpha_max(X, y)
    params = dict(
        alpha=alpha,
        l1_ratio=l1_ratio,
        fit_intercept=fit_intercept,
        tol=1e-10,
        max_iter=100_000,
    )
    ours = ElasticNet(**params).fit(X, y, sample_weight=weights)
    ref = sk.ElasticNet(**params).fit(X, y, sample_weight=weights)
    assert_same_minimiser(ours, ref, X, y, weights, alpha, l1_ratio)
    # the same rescaled problem, so the same gap scale as scikit-learn's
    assert ours.dual_gap_ <= 1e-10 * np.average(
        (y - np.average(y, weights=weights) * fit_intercept) ** 2,
        weights=weights,
    )


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
def test_integer_weights_equal_repeated_rows(l1_ratio):
    X, y = collinear_data()
    weights = integer_weights(len(y), seed=1)
    alpha = 0.05 * alpha_max(X, y)
    params = dict(alpha=alpha, l1_ratio=l1_ratio, tol=1e-12, max_iter=10**5)
    weighted = ElasticNet(**params).fit(X, y, sample_weight=weights)
    plain = ElasticNet(**params).fit(*repeated(X, y, weights))
    assert_same_minimiser(weighted, plain, X, y, weights, alpha, l1_ratio)


def test_lasso_weights_are_scale_free():
    # the loss is a weighted *average*: a common factor leaves the fit (and,
    # after the rescaling to sum n, even the arithmetic) unchanged
    X, y = load_diabetes(return_X_y=True)
    weights = np.random.default_rng(5).uniform(0.5, 2, size=len(y))
    alpha = 0.05 * alpha_max(X, y)
    once = Lasso(alpha=alpha, tol=1e-10).fit(X, y, sample_weight=weights)
    scaled = Lasso(alpha=alpha, tol=1e-10).fit(X, y, sample_weight=9 * weights)
    np.testing.assert_allclose(scaled.coef_, once.coef_, rtol=1e-9)
    # and a number is that weight for every sample: the unweighted fit
    unweighted = Lasso(alpha=alpha, tol=1e-10).fit(X, y)
    number = Lasso(alpha=alpha, tol=1e-10).fit(X, y, sample_weight=3.0)
    np.testing.assert_allclose(number.coef_, unweighted.coef_, rtol=1e-9)


def test_weighted_lasso_satisfies_its_kkt_conditions():
    # stationarity of (1/(2Σs))Σ s_i r_i² + α‖w‖₁ at the weighted centre:
    # |x_jᵀSr|/Σs ≤ α, with equality (and the sign of w_j) where w_j ≠ 0
    X, y = load_diabetes(return_X_y=True)
    weights = np.random.default_rng(6).uniform(0, 2, size=len(y))
    alpha = 0.05 * alpha_max(X, y)
    fit = Lasso(alpha=alpha, tol=1e-12, max_iter=10**5).fit(
        X, y, sample_weight=weights
    )
    residual = y - fit.predict(X)
    assert abs(weights @ residual) <= 1e-9 * weights @ np.abs(y)
    gradient = X.T @ (weights * residual) / weights.sum()
    active = fit.coef_ != 0
    assert np.all(np.abs(gradient) <= alpha * (1 + 1e-5))
    np.testing.assert_allclose(
        gradient[active], alpha * np.sign(fit.coef_[active]), rtol=1e-5
    )


@pytest.mark.parametrize("model", [Lasso(alpha=0.1), ElasticNet(alpha=0.1)])
def test_bad_weights_raise(model):
    X, y = load_diabetes(return_X_y=True)
    check_bad_weights_raise(model, X, y)
