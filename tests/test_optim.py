import numpy as np
import pytest
from scipy.optimize import approx_fprime, linprog

from mllib.exceptions import ConvergenceWarning
from mllib.optim import (
    Constant,
    Cosine,
    InverseScaling,
    StepDecay,
    check_gradient,
    coordinate_descent,
    gradient_descent,
    minibatch_sgd,
    numerical_gradient,
    numerical_jacobian,
    subgradient_descent,
)


def quadratic(rng, d=5, cond=10.0):
    """f(x) = ½ xᵀAx − bᵀx with eigenvalues of A in [1, cond]; minimiser A⁻¹b, L = cond."""
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    A = Q @ np.diag(np.linspace(1.0, cond, d)) @ Q.T
    b = rng.normal(size=d)
    return A, b, (lambda x: 0.5 * x @ A @ x - b @ x), (lambda x: A @ x - b)


def test_gradient_descent_reaches_the_minimiser(rng):
    A, b, f, g = quadratic(rng)
    result = gradient_descent(
        f, g, np.zeros(5), step_size=1 / 10.0, tol=1e-10, max_iter=5000
    )
    assert result.converged
    np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-9)
    assert result.history["x"].shape == (result.n_iter + 1, 5)
    assert (
        result.history["fun"].shape
        == result.history["grad_norm"].shape
        == (result.n_iter + 1,)
    )
    assert np.all(
        np.diff(result.history["fun"]) <= 1e-12
    )  # descent lemma with step 1/L


def test_gradient_descent_obeys_the_sublinear_bound(rng):
    A, b, f, g = quadratic(rng, cond=50.0)
    x_star = np.linalg.solve(A, b)
    eta = 1 / 50.0
    x0 = rng.normal(size=5)
    with pytest.warns(ConvergenceWarning, match="did not reach"):
        result = gradient_descent(
            f, g, x0, step_size=eta, max_iter=200, tol=1e-300
        )
    k = np.arange(1, 201)
    gap = result.history["fun"][1:] - f(x_star)
    assert np.all(gap <= np.sum((x0 - x_star) ** 2) / (2 * eta * k) + 1e-12)


def test_gradient_descent_warns_on_divergence(rng):
    A, b, f, g = quadratic(rng, cond=10.0)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        result = gradient_descent(
            f, g, np.ones(5), step_size=2.5 / 10.0, max_iter=10_000
        )
    assert not result.converged
    assert not np.isfinite(result.fun)
    assert len(result.history["grad_norm"]) == len(result.history["fun"])


def test_gradient_descent_accepts_matrix_variables_and_keeps_x0():
    target = np.arange(6.0).reshape(2, 3)
    x0 = np.zeros((2, 3))
    result = gradient_descent(
        lambda W: np.sum((W - target) ** 2),
        lambda W: 2 * (W - target),
        x0,
        step_size=0.25,
        tol=1e-12,
    )
    np.testing.assert_allclose(result.x, target)
    assert np.all(x0 == 0)
    assert result.history["x"].shape[1:] == (2, 3)


def test_gradient_descent_rejects_bad_step():
    with pytest.raises(ValueError, match="step_size must be positive"):
        gradient_descent(np.sum, np.ones_like, np.zeros(2), step_size=0.0)


def test_numerical_gradient_matches_scipy_and_closed_form(rng):
    A, b, f, g = quadratic(rng)
    x = rng.normal(size=5)
    ours = numerical_gradient(f, x)
    np.testing.assert_allclose(ours, g(x), rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(
        ours, approx_fprime(x, f, 1e-7), rtol=1e-4, atol=1e-5
    )


def test_numerical_gradient_of_matrix_function_has_variable_layout(rng):
    """d(aᵀXb)/dX = abᵀ: entry [i, j] is the derivative with respect to X[i, j]."""
    a, b = rng.normal(size=3), rng.normal(size=4)
    X = rng.normal(size=(3, 4))
    np.testing.assert_allclose(
        numerical_gradient(lambda X: a @ X @ b, X), np.outer(a, b), atol=1e-9
    )


def test_numerical_jacobian_of_linear_map(rng):
    W = rng.normal(size=(4, 3))
    x = rng.normal(size=3)
    np.testing.assert_allclose(
        numerical_jacobian(lambda x: W @ x, x), W, atol=1e-9
    )


def test_numerical_gradient_rejects_vector_valued_functions():
    with pytest.raises(ValueError, match="scalar"):
        numerical_gradient(lambda x: 2 * x, np.ones(3))


def test_numerical_gradient_does_not_modify_x(rng):
    x = rng.normal(size=4)
    x0 = x.copy()
    numerical_gradient(lambda v: np.sum(v**3), x)
    np.testing.assert_array_equal(x, x0)


def test_check_gradient_separates_right_from_wrong(rng):
    A, b, f, g = quadratic(rng)
    x = rng.normal(size=5)
    assert check_gradient(f, g, x) < 1e-7
    assert (
        check_gradient(f, lambda x: A.T @ x + b, x) > 1e-1
    )  # a sign error in the linear term
    with pytest.raises(ValueError, match="shape of its variable"):
        check_gradient(f, lambda x: g(x)[:-1], x)


# ---------------------------------------------------------------- step-size schedules


def test_schedules_follow_their_formulas():
    assert Constant(0.3)(1) == Constant(0.3)(1000) == 0.3
    assert InverseScaling(2.0, 1.0)(4) == 0.5  # c/t
    assert InverseScaling(2.0, 0.5)(4) == 1.0  # c/sqrt(t)
    assert [
        StepDecay(1.0, drop=0.1, every=3)(t) for t in (1, 3, 4, 7)
    ] == pytest.approx([1, 1, 0.1, 0.01])
    cosine = Cosine(1.0, total=10, eta_min=0.2)
    assert (
        cosine(1) == 1.0
        and cosine(11) == pytest.approx(0.2)
        and cosine(50) == pytest.approx(0.2)
    )
    assert cosine(6) == pytest.approx(0.6)  # halfway: the mean of the two ends
    assert np.all(np.diff([cosine(t) for t in range(1, 12)]) < 0)


def test_gradient_descent_accepts_a_schedule(rng):
    A, b, f, g = quadratic(rng)
    result = gradient_descent(
        f,
        g,
        np.zeros(5),
        step_size=StepDecay(0.1, drop=0.9, every=200),
        tol=1e-9,
        max_iter=20_000,
    )
    np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-8)
    with pytest.raises(ValueError, match="schedule returned"):
        gradient_descent(f, g, np.zeros(5), step_size=lambda t: 0.1 - 0.05 * t)


def test_step_k_uses_the_schedule_at_k():
    """x_k = x_{k-1} - eta_k g(x_{k-1}) with eta_k = schedule(k), k = 1, 2, ...: the first step uses eta_1."""
    schedule = StepDecay(0.5, drop=0.5, every=2)  # 0.5, 0.5, 0.25, 0.25, 0.125
    f, g = (lambda x: 0.5 * x @ x), (lambda x: x)
    x0 = np.array([1.0, -2.0])
    expected = [x0]
    for k in range(1, 6):
        expected.append(expected[-1] * (1 - schedule(k)))
    with pytest.warns(ConvergenceWarning):
        gd = gradient_descent(
            f, g, x0, step_size=schedule, max_iter=5, tol=0.0
        )
    with pytest.warns(ConvergenceWarning):
        sub = subgradient_descent(
            f, g, x0, step_size=schedule, max_iter=5, tol=0.0
        )
    sgd = minibatch_sgd(
        f, lambda x, batch: x, x0, 1, step_size=schedule, max_iter=5, tol=None
    )
    for result in (gd, sub, sgd):
        np.testing.assert_allclose(result.history["x"], expected, rtol=1e-15)
    np.testing.assert_allclose(
        sgd.history["step_size"], [schedule(k) for k in range(1, 6)]
    )


# ---------------------------------------------------------------- minibatch SGD


def least_squares(rng, n=200, d=3, noise=0.5):
    """F(w) = (1/2n)||y - Xw||², per-sample gradients x_i(x_iᵀw - y_i)."""
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + noise * rng.normal(size=n)
    fun = lambda w: 0.5 * np.mean((y - X @ w) ** 2)  # noqa: E731
    grad = lambda w, batch: X[batch].T @ (X[batch] @ w - y[batch]) / len(batch)  # noqa: E731
    return X, y, fun, grad, np.linalg.lstsq(X, y, rcond=None)[0]


def test_full_batch_sgd_is_gradient_descent(rng):
    X, y, fun, grad, _ = least_squares(rng)
    sgd = minibatch_sgd(
        fun,
        grad,
        np.zeros(3),
        len(y),
        step_size=0.3,
        batch_size=len(y),
        max_iter=25,
        tol=None,
        random_state=0,
    )
    full = np.arange(len(y))
    w = np.zeros(3)
    for k in range(
        25
    ):  # the GD recursion written out; the order of a full batch does not matter
        w = w - 0.3 * grad(w, full)
        np.testing.assert_allclose(
            sgd.history["x"][k + 1], w, rtol=1e-12, atol=1e-14
        )
    assert sgd.n_iter == 25 and sgd.converged


def test_sgd_with_decreasing_steps_reaches_the_least_squares_solution(rng):
    X, y, fun, grad, w_star = least_squares(rng)
    result = minibatch_sgd(
        fun,
        grad,
        np.zeros(3),
        len(y),
        step_size=InverseScaling(0.5, 0.75),
        batch_size=4,
        max_iter=400,
        tol=None,
        random_state=1,
    )
    np.testing.assert_allclose(result.x, w_star, atol=5e-3)
    assert result.history["x"].shape == (401, 3) and result.history[
        "fun"
    ].shape == (401,)
    assert result.history["step_size"].shape == (400 * 50,)


def test_constant_step_sgd_stalls_at_a_floor_that_shrinks_with_the_step(rng):
    X, y, fun, grad, w_star = least_squares(rng)
    gaps = []
    for eta in (0.1, 0.01):
        result = minibatch_sgd(
            fun,
            grad,
            w_star,
            len(y),
            step_size=eta,
            max_iter=30,
            tol=None,
            random_state=2,
        )
        gaps.append(np.mean(result.history["fun"][10:]) - fun(w_star))
    assert (
        gaps[0] > 5 * gaps[1] > 0
    )  # started at the optimum, SGD is kicked off it by gradient noise


def test_sgd_early_stopping_and_warnings(rng):
    X, y, fun, grad, w_star = least_squares(rng)
    stopped = minibatch_sgd(
        fun,
        grad,
        np.zeros(3),
        len(y),
        step_size=0.05,
        max_iter=200,
        tol=1e-3,
        random_state=0,
    )
    assert stopped.converged and stopped.n_iter < 200
    assert (
        np.argmin(stopped.history["fun"]) <= stopped.n_iter - 5
    )  # 5 epochs without progress
    with pytest.warns(ConvergenceWarning, match="still improving"):
        minibatch_sgd(
            fun,
            grad,
            np.zeros(3),
            len(y),
            step_size=1e-5,
            max_iter=3,
            tol=1e-3,
        )
    with pytest.warns(ConvergenceWarning, match="diverged"):
        minibatch_sgd(
            fun, grad, np.zeros(3), len(y), step_size=5.0, max_iter=50
        )


def test_sgd_is_reproducible_and_records_steps(rng):
    X, y, fun, grad, _ = least_squares(rng, n=20)
    runs = [
        minibatch_sgd(
            fun,
            grad,
            np.zeros(3),
            20,
            step_size=0.1,
            batch_size=6,
            max_iter=3,
            tol=None,
            random_state=5,
            record_steps=True,
        )
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0].x, runs[1].x)
    assert runs[0].history["steps"].shape == (
        3 * 4 + 1,
        3,
    )  # batches of 6, 6, 6, 2
    np.testing.assert_array_equal(runs[0].history["steps"][-1], runs[0].x)


def test_sgd_rejects_bad_arguments():
    fun, grad = (lambda w: 0.0), (lambda w, b: w)
    for kwargs, message in [
        ({"batch_size": 0}, "batch_size"),
        ({"max_iter": 0}, "max_iter"),
        ({"step_size": -1.0}, "step_size must be positive"),
    ]:
        with pytest.raises(ValueError, match=message):
            minibatch_sgd(
                fun, grad, np.zeros(2), 10, **{"step_size": 0.1, **kwargs}
            )


# ---------------------------------------------------------------- subgradient descent


def least_absolute_deviations(rng, n=40, d=3):
    """f(x) = ||Ax - b||_1 and its optimum from the linear programme min Σt, -t <= Ax - b <= t."""
    A, b = rng.normal(size=(n, d)), rng.normal(size=n)
    lp = linprog(
        np.r_[np.zeros(d), np.ones(n)],
        A_ub=np.block([[A, -np.eye(n)], [-A, -np.eye(n)]]),
        b_ub=np.r_[b, -b],
        bounds=[(None, None)] * d + [(0, None)] * n,
    )
    return (
        A,
        b,
        (lambda x: np.abs(A @ x - b).sum()),
        (lambda x: A.T @ np.sign(A @ x - b)),
        lp,
    )


def test_subgradient_descent_obeys_its_bound_and_tracks_the_best_iterate(rng):
    A, b, f, g, lp = least_absolute_deviations(rng)
    schedule = InverseScaling(0.05, 0.5)
    with pytest.warns(ConvergenceWarning, match="best iterate"):
        result = subgradient_descent(
            f, g, np.zeros(3), step_size=schedule, max_iter=3000
        )
    fun, best = result.history["fun"], result.history["fun_best"]
    assert result.fun == best[-1] == fun.min() and f(result.x) == result.fun
    assert np.any(np.diff(fun) > 0)  # individual steps go uphill ...
    assert np.all(
        np.diff(best) <= 0
    )  # ... which is why the best iterate is kept
    assert result.fun - lp.fun < 1e-2 * lp.fun
    # f_best,k - f* <= (R² + G² Σ η²) / (2 Σ η), with R = ||x0 - x*|| and G = max ||g||
    R2 = np.sum(lp.x[:3] ** 2)
    G2 = np.sum(
        np.abs(A).sum(axis=0) ** 2
    )  # ||Aᵀs||² <= Σ_j (Σ_i |A_ij|)² for s ∈ [-1, 1]^n
    eta = np.array([schedule(t) for t in range(1, 3001)])
    bound = (R2 + G2 * np.cumsum(eta**2)) / (2 * np.cumsum(eta))
    assert np.all(best[1:] - lp.fun <= bound + 1e-9)


def test_subgradient_descent_stops_on_a_certificate():
    f, g = (
        (lambda x: abs(x[0] - 1.0)),
        (lambda x: np.sign(x - 1.0)),
    )  # sign(0) = 0 ∈ ∂|·|(0)
    result = subgradient_descent(
        f, g, np.array([0.0]), step_size=0.25, max_iter=100
    )
    assert result.converged and result.x[0] == 1.0 and result.n_iter == 4
    result = subgradient_descent(
        f,
        g,
        np.array([0.1]),
        step_size=InverseScaling(1.0, 1.0),
        max_iter=10_000,
        tol=1e-3,
        f_star=0.0,
    )
    assert result.converged and result.fun <= 1e-3


# ---------------------------------------------------------------- coordinate descent


def test_coordinate_descent_on_a_quadratic_is_gauss_seidel(rng):
    A, b, f, _ = quadratic(rng, d=6, cond=20.0)
    exact_minimiser = lambda j, x: (b[j] - A[j] @ x + A[j, j] * x[j]) / A[j, j]  # noqa: E731
    x0 = np.zeros(6)
    for selection in ("cyclic", "random"):
        result = coordinate_descent(
            exact_minimiser,
            x0,
            selection=selection,
            random_state=0,
            tol=1e-12,
            max_iter=5000,
            fun=f,
        )
        assert result.converged
        np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-10)
        assert np.all(
            np.diff(result.history["fun"]) <= 1e-12
        )  # exact coordinate steps never go uphill
        assert result.history["max_change"].shape == (result.n_iter,)
        assert result.history["x"].shape == (result.n_iter + 1, 6)
    assert np.all(x0 == 0)
    # one cyclic sweep is one Gauss–Seidel step: (D + L) x_new = b - U x_old
    one = coordinate_descent(
        exact_minimiser, np.ones(6), max_iter=1, tol=np.inf
    )
    np.testing.assert_allclose(
        one.x, np.linalg.solve(np.tril(A), b - np.triu(A, 1) @ np.ones(6))
    )


def test_coordinate_descent_contract_lets_an_update_keep_a_residual(rng):
    """A lasso update that maintains r = y - Xw (O(n) per coordinate) matches scikit-learn's Lasso."""
    from sklearn.linear_model import Lasso

    X, y = rng.normal(size=(50, 8)), rng.normal(size=50)
    n, alpha = len(y), 0.1
    residual = y.copy()
    col_sq = np.sum(X**2, axis=0)

    def update(j, w):
        rho = X[:, j] @ residual + col_sq[j] * w[j]
        new = np.sign(rho) * max(abs(rho) - n * alpha, 0.0) / col_sq[j]
        residual[:] -= X[:, j] * (
            new - w[j]
        )  # the driver writes `new` into w[j] next
        return new

    result = coordinate_descent(
        update, np.zeros(8), tol=1e-12, max_iter=10_000
    )
    sk = Lasso(
        alpha=alpha, fit_intercept=False, tol=1e-12, max_iter=100_000
    ).fit(X, y)
    np.testing.assert_allclose(result.x, sk.coef_, atol=1e-9)
    np.testing.assert_allclose(residual, y - X @ result.x, atol=1e-10)


def test_coordinate_descent_warnings_and_bad_input(rng):
    A, b, f, _ = quadratic(rng)
    exact_minimiser = lambda j, x: (b[j] - A[j] @ x + A[j, j] * x[j]) / A[j, j]  # noqa: E731
    with pytest.warns(
        ConvergenceWarning, match="did not converge in max_iter=2"
    ):
        result = coordinate_descent(
            exact_minimiser, np.zeros(5), max_iter=2, tol=1e-12
        )
    assert not result.converged and np.isnan(result.fun)
    with pytest.warns(
        ConvergenceWarning
    ):  # a certificate that never holds blocks convergence
        coordinate_descent(
            exact_minimiser,
            np.zeros(5),
            max_iter=50,
            tol=1e-3,
            certificate=lambda x: False,
        )
    checked = coordinate_descent(
        exact_minimiser,
        np.zeros(5),
        max_iter=500,
        tol=1e-3,
        certificate=lambda x: np.linalg.norm(A @ x - b) < 1e-10,
    )
    assert np.linalg.norm(A @ checked.x - b) < 1e-10
    with pytest.raises(ValueError, match="selection"):
        coordinate_descent(exact_minimiser, np.zeros(5), selection="greedy")
    with pytest.raises(ValueError, match="max_iter"):
        coordinate_descent(exact_minimiser, np.zeros(5), max_iter=0)
