import numpy as np
import pytest
from scipy.linalg import solve
from sklearn.base import clone
from sklearn.datasets import load_diabetes
from sklearn.linear_model import SGDRegressor as SkSGDRegressor

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.linear_model import Ridge, SGDRegressor
from mllib.model_selection import GridSearchCV
from mllib.optim import Constant, Cosine, InverseScaling


def standardised(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def ridge_closed_form(X, y, penalty, fit_intercept=True):
    """argmin ||y - Xw - b||² + penalty ||w||², b unpenalised, by centring and a Cholesky solve."""
    x_mean = X.mean(axis=0) if fit_intercept else np.zeros(X.shape[1])
    y_mean = y.mean() if fit_intercept else 0.0
    Xc, yc = X - x_mean, y - y_mean
    w = solve(
        Xc.T @ Xc + penalty * np.eye(X.shape[1]), Xc.T @ yc, assume_a="pos"
    )
    return w, y_mean - x_mean @ w


def gradient_descent(n, step, alpha, fit_intercept=True):
    """SGDRegressor whose one minibatch is all n rows: each step a gradient
    step of the objective, run to convergence."""
    return SGDRegressor(
        alpha=alpha,
        fit_intercept=fit_intercept,
        learning_rate="constant",
        eta0=step,
        batch_size=n,
        max_iter=100_000,
        tol=1e-15,
        random_state=0,
    )


def data_sets():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(120, 4)) + 2.0
    yield (
        "synthetic",
        X,
        X @ np.array([1.0, -2.0, 0.5, 3.0]) + 4.0 + 0.2 * rng.normal(size=120),
    )
    X, y = load_diabetes(return_X_y=True)
    yield "diabetes", standardised(X[:150]), y[:150]


@pytest.mark.parametrize(
    "name, X, y",
    list(data_sets()),
    ids=lambda v: v if isinstance(v, str) else "",
)
@pytest.mark.parametrize(
    "alpha, fit_intercept", [(0.1, True), (0.5, False), (0.0, True)]
)
def test_full_batch_sgd_converges_to_the_closed_form(
    name, X, y, alpha, fit_intercept
):
    """With batch_size = n each step is a gradient step on J = |Xw + b -
    y|^2 / 2n + alpha |w|^2 / 2, so SGD must reach Ridge(alpha = n alpha).

    How near it stops is set by its rule, not by fixed digits: it stops once
    the loss has not dropped by tol for n_iter_no_change epochs. A step 1/L
    lowers J by at least |g|^2 / 2L (the descent lemma), and the loss is
    computed to within delta = n eps J of its value, so at the stop |g|^2 <=
    2L (2 delta + tol). In the coordinates (w, b + mean(x) w) the objective
    is quadratic with least curvature mu, so the parameters are within
    |g| / mu of the minimiser."""
    n = len(y)
    x_mean = X.mean(axis=0) if fit_intercept else np.zeros(X.shape[1])
    Xc = X - x_mean
    curvatures = np.linalg.eigvalsh(Xc.T @ Xc / n) + alpha
    L = curvatures.max()  # smoothness constant of the objective
    model = gradient_descent(n, 1 / L, alpha, fit_intercept).fit(X, y)
    w, b = ridge_closed_form(X, y, n * alpha, fit_intercept)
    assert model.intercept_.shape == (1,)
    residual = X @ model.coef_ + model.intercept_[0] - y
    gradient = Xc.T @ residual / n + alpha * model.coef_
    distance = [model.coef_ - w]
    mu = curvatures.min()
    if fit_intercept:
        # b + mean(x) w has curvature 1 and gradient mean(residual)
        gradient = np.r_[gradient, residual.mean()]
        distance.append([model.intercept_[0] - b + x_mean @ distance[0]])
        mu = min(mu, 1.0)
    J_star = 0.5 * np.mean((X @ w + b - y) ** 2) + 0.5 * alpha * w @ w
    delta = n * np.finfo(float).eps * J_star
    tol = gradient_descent(n, 1 / L, alpha).tol
    assert np.linalg.norm(gradient) <= np.sqrt(2 * L * (2 * delta + tol))
    assert np.linalg.norm(np.concatenate(distance)) <= (
        np.linalg.norm(gradient) / mu + 1e-12 * np.abs(w).max()
    )
    assert np.all(
        np.diff(model.loss_curve_) <= 1e-13 * model.loss_curve_[0]
    )  # step 1/L: the descent lemma
    if alpha > 0:
        ridge = Ridge(alpha=n * alpha, fit_intercept=fit_intercept).fit(X, y)
        np.testing.assert_allclose(
            model.predict(X),
            ridge.predict(X),
            rtol=1e-5,
            atol=1e-6 * np.abs(y).max(),
        )


@pytest.mark.parametrize("batch_size", [1, 8])
def test_minibatch_sgd_gets_close_to_the_ridge_solution(batch_size):
    _, X, y = next(data_sets())
    X = standardised(X)
    model = SGDRegressor(
        alpha=0.1,
        learning_rate="invscaling",
        eta0=0.05,
        power_t=0.5,
        batch_size=batch_size,
        max_iter=60,
        tol=None,
        random_state=0,
    ).fit(X, y)
    w, b = ridge_closed_form(X, y, len(y) * 0.1)
    assert np.max(np.abs(model.coef_ - w)) < 0.03 * np.abs(w).max()
    assert model.intercept_[0] == pytest.approx(b, abs=0.05)
    assert model.n_iter_ == 60 and model.loss_curve_.shape == (61,)


def test_agrees_loosely_with_sklearn_sgd():
    """Same objective, different sampling and stopping: both land near the ridge solution, so near each other."""
    _, X, y = next(data_sets())
    X = standardised(X)
    ours = SGDRegressor(
        alpha=0.01, random_state=0, max_iter=200, batch_size=4, tol=1e-6
    ).fit(X, y)
    theirs = SkSGDRegressor(
        alpha=0.01, random_state=0, max_iter=1000, tol=1e-6
    ).fit(X, y)
    w, b = ridge_closed_form(X, y, len(y) * 0.01)
    for model in (ours, theirs):
        assert np.max(np.abs(model.coef_ - w)) < 0.05 * np.abs(w).max()
    np.testing.assert_allclose(
        ours.coef_, theirs.coef_, rtol=0.05, atol=0.05 * np.abs(w).max()
    )
    np.testing.assert_allclose(
        ours.predict(X), theirs.predict(X), atol=0.1 * y.std()
    )


def test_loss_curve_is_the_penalised_objective():
    """loss_curve_ records (1/2n)||yc - Xc w||² + (alpha/2)||w||² on the centred data, from w = 0."""
    _, X, y = next(data_sets())
    X = standardised(X)
    model = SGDRegressor(
        alpha=0.5, batch_size=10, max_iter=5, tol=None, random_state=0
    ).fit(X, y)
    Xc, yc, w = X - X.mean(axis=0), y - y.mean(), model.coef_
    assert model.loss_curve_[0] == pytest.approx(
        0.5 * np.mean(yc**2), rel=1e-12
    )
    assert model.loss_curve_[-1] == pytest.approx(
        0.5 * np.mean((yc - Xc @ w) ** 2) + 0.25 * w @ w, rel=1e-12
    )


def test_named_learning_rates_are_the_schedules():
    _, X, y = next(data_sets())
    X = standardised(X)
    for params, schedule in [
        (
            dict(learning_rate="invscaling", eta0=0.05, power_t=0.6),
            InverseScaling(0.05, 0.6),
        ),
        (dict(learning_rate="constant", eta0=0.02), Constant(0.02)),
    ]:
        named = SGDRegressor(
            **params, batch_size=7, max_iter=3, tol=None, random_state=1
        ).fit(X, y)
        explicit = SGDRegressor(
            learning_rate=schedule,
            batch_size=7,
            max_iter=3,
            tol=None,
            random_state=1,
        ).fit(X, y)
        np.testing.assert_array_equal(named.coef_, explicit.coef_)


def test_accepts_a_schedule_and_is_reproducible():
    _, X, y = next(data_sets())
    X = standardised(X)
    fits = [
        SGDRegressor(
            learning_rate=Cosine(0.05, total=600),
            batch_size=10,
            max_iter=50,
            tol=None,
            random_state=3,
        ).fit(X, y)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(fits[0].coef_, fits[1].coef_)
    assert fits[0].score(X, y) > 0.99


def test_warns_when_max_iter_is_too_small():
    _, X, y = next(data_sets())
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        SGDRegressor(max_iter=2, tol=1e-6, random_state=0).fit(
            standardised(X), y
        )


def test_works_inside_grid_search():
    _, X, y = next(data_sets())
    X = standardised(X)
    search = GridSearchCV(
        SGDRegressor(batch_size=10, max_iter=30, tol=None, random_state=0),
        {"alpha": [1e-4, 1.0]},
        cv=3,
        scoring="r2",
    ).fit(X, y)
    assert search.best_params_ == {
        "alpha": 1e-4
    }  # the data are almost noiseless: less shrinkage wins
    assert clone(search.best_estimator_).get_params()["alpha"] == 1e-4


def test_bad_input_and_unfitted_use(rng):
    X, y = rng.normal(size=(20, 3)), rng.normal(size=20)
    with pytest.raises(NotFittedError):
        SGDRegressor().predict(X)
    bad = [
        (dict(), X.ravel(), y, "Expected 2D array"),
        (dict(), X, y[:-1], "inconsistent numbers of samples"),
        (dict(), np.where(X > 1, np.nan, X), y, "NaN"),
        (dict(alpha=-1.0), X, y, "alpha"),
        (dict(penalty="l1"), X, y, "penalty"),
        (dict(learning_rate="optimal"), X, y, "learning_rate"),
        (dict(eta0=0.0), X, y, "eta0"),
        (dict(batch_size=0), X, y, "batch_size"),
        (dict(max_iter=0), X, y, "max_iter"),
    ]
    for params, X_bad, y_bad, message in bad:
        with pytest.raises(ValueError, match=message):
            SGDRegressor(**params).fit(X_bad, y_bad)
    model = SGDRegressor(max_iter=5, tol=None).fit(X, y)
    with pytest.raises(ValueError, match="3"):
        model.predict(X[:, :2])


def test_does_not_modify_its_inputs(rng):
    X, y = rng.normal(size=(20, 3)), rng.normal(size=20)
    X0, y0 = X.copy(), y.copy()
    SGDRegressor(max_iter=5, tol=None).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


# ---- partial_fit -------------------------------------------------------------


def test_partial_fit_continues_the_schedule_and_the_iterate():
    """With one minibatch per call, each call is one gradient step of the
    uncentred objective, taken with the next step size η_t, t = t_."""
    _, X, y = next(data_sets())
    n, alpha = len(y), 0.1
    schedule = InverseScaling(0.05, 0.5)
    model = SGDRegressor(
        alpha=alpha,
        learning_rate="invscaling",
        eta0=0.05,
        power_t=0.5,
        batch_size=n,
    )
    w, b = np.zeros(X.shape[1]), 0.0
    for t in (1, 2, 3):
        assert model.partial_fit(X, y) is model
        residual = X @ w + b - y
        w, b = (
            w - schedule(t) * (X.T @ residual / n + alpha * w),
            b - schedule(t) * residual.mean(),
        )
        np.testing.assert_allclose(model.coef_, w, rtol=1e-12)
        np.testing.assert_allclose(model.intercept_, [b], rtol=1e-12)
        assert model.t_ == t + 1 and model.n_iter_ == 1
    # fit starts afresh, and counts its steps the same way
    model.set_params(max_iter=4, tol=None, batch_size=8).fit(X, y)
    assert model.t_ == 1 + 4 * int(np.ceil(n / 8))


@pytest.mark.parametrize("batch_size", [1, 8])
def test_partial_fit_over_batches_converges_to_the_ridge_solution(
    batch_size,
):
    """Epochs of partial_fit over random splits minimise fit's objective.

    The intercept is learnt by SGD here: its error shrinks like
    exp(-Σ η_t), Σ η_t ≈ 2 η₀ √(steps) ≈ 5.5 for batches of 8 and 200 epochs.
    """
    _, X, y = next(data_sets())
    X = standardised(X)
    rng = np.random.default_rng(0)
    model = SGDRegressor(
        alpha=0.1,
        eta0=0.05,
        power_t=0.5,
        batch_size=batch_size,
        random_state=0,
    )
    for _ in range(200):
        for batch in np.array_split(rng.permutation(len(y)), 3):
            model.partial_fit(X[batch], y[batch])
    w, b = ridge_closed_form(X, y, len(y) * 0.1)
    assert np.max(np.abs(model.coef_ - w)) < 0.03 * np.abs(w).max()
    assert model.intercept_[0] == pytest.approx(b, abs=0.05 * abs(b))
    theirs = SkSGDRegressor(alpha=0.1, eta0=0.05, power_t=0.5, random_state=0)
    for _ in range(200):
        for batch in np.array_split(rng.permutation(len(y)), 3):
            theirs.partial_fit(X[batch], y[batch])
    np.testing.assert_allclose(
        model.coef_, theirs.coef_, atol=0.05 * np.abs(w).max()
    )


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_weighted_full_batch_sgd_reaches_the_weighted_closed_form(
    fit_intercept,
):
    """(1/n) Σ sᵢ ½ rᵢ² + (α/2)‖w‖² is ridge on √s-scaled rows after centring
    by s-weighted means: (X̃ᵀSX̃ + nαI) w = X̃ᵀS ỹ."""
    _, X, y = next(data_sets())
    n, alpha = len(y), 0.1
    s = np.random.default_rng(1).uniform(0, 3, n)
    if fit_intercept:
        x_mean, y_mean = s @ X / s.sum(), s @ y / s.sum()
    else:
        x_mean, y_mean = np.zeros(X.shape[1]), 0.0
    Xc, yc = X - x_mean, y - y_mean
    w = solve(
        Xc.T @ (s[:, None] * Xc) + n * alpha * np.eye(X.shape[1]),
        Xc.T @ (s * yc),
        assume_a="pos",
    )
    b = y_mean - x_mean @ w
    L = np.linalg.eigvalsh(Xc.T @ (s[:, None] * Xc) / n).max() + alpha
    model = gradient_descent(n, 1 / L, alpha, fit_intercept).fit(
        X, y, sample_weight=s
    )
    np.testing.assert_allclose(
        model.coef_, w, rtol=1e-5, atol=1e-6 * np.abs(w).max()
    )
    assert model.intercept_[0] == pytest.approx(b, rel=1e-5, abs=1e-6)
    # sklearn's per-sample steps scale the loss gradient by sᵢ: the same
    # minimiser, reached loosely
    theirs = SkSGDRegressor(
        alpha=alpha,
        fit_intercept=fit_intercept,
        max_iter=2000,
        tol=1e-8,
        random_state=0,
    ).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(
        theirs.coef_, w, rtol=0.05, atol=0.05 * np.abs(w).max()
    )


def test_integer_weights_are_repeated_rows_with_alpha_rescaled():
    """(1/n) Σ cᵢ Lᵢ + αR = (N/n) · [(1/N) Σ_repeated Lᵢ + (αn/N) R], N = Σ cᵢ:
    weights c are repeated rows once α is scaled by n/N (why scikit-learn's
    weight-equivalence check fails for SGD, as for scikit-learn's own)."""
    _, X, y = next(data_sets())
    counts = np.random.default_rng(2).integers(0, 4, len(y))
    n, N = len(y), counts.sum()

    weighted = gradient_descent(n, 0.05, 0.1).fit(X, y, sample_weight=counts)
    repeated = gradient_descent(N, 0.05, 0.1 * n / N).fit(
        np.repeat(X, counts, axis=0), np.repeat(y, counts)
    )
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-5)
    np.testing.assert_allclose(
        weighted.intercept_, repeated.intercept_, rtol=1e-5
    )


def test_partial_fit_with_weights_is_a_weighted_gradient_step():
    _, X, y = next(data_sets())
    n, alpha = len(y), 0.1
    s = np.linspace(0, 2, n)
    model = SGDRegressor(
        alpha=alpha, learning_rate="constant", eta0=0.01, batch_size=n
    ).partial_fit(X, y, sample_weight=s)
    residual = s * -y  # from w = 0, b = 0
    np.testing.assert_allclose(model.coef_, -0.01 * X.T @ residual / n)
    np.testing.assert_allclose(model.intercept_, [-0.01 * residual.mean()])


def test_partial_fit_rejects_bad_input_and_keeps_inputs(rng):
    X, y = rng.normal(size=(20, 3)), rng.normal(size=20)
    X0, y0 = X.copy(), y.copy()
    model = SGDRegressor().partial_fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    with pytest.raises(ValueError, match="3 features"):
        model.partial_fit(X[:, :2], y)
    with pytest.raises(ValueError, match="eta0"):
        SGDRegressor(eta0=0.0).partial_fit(X, y)
    for bad, message in [
        (np.ones(3), "shape"),
        (-np.ones(20), "non-negative"),
        (np.zeros(20), "non-zero"),
    ]:
        with pytest.raises(ValueError, match=message):
            SGDRegressor().fit(X, y, sample_weight=bad)
        with pytest.raises(ValueError, match=message):
            SGDRegressor().partial_fit(X, y, sample_weight=bad)
