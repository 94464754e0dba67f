import numpy as np
import pytest
from scipy.optimize import approx_fprime

from mllib.exceptions import ConvergenceWarning
from mllib.optim import check_gradient, gradient_descent, numerical_gradient, numerical_jacobian


def quadratic(rng, d=5, cond=10.0):
    """f(x) = ½ xᵀAx − bᵀx with eigenvalues of A in [1, cond]; minimiser A⁻¹b, L = cond."""
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    A = Q @ np.diag(np.linspace(1.0, cond, d)) @ Q.T
    b = rng.normal(size=d)
    return A, b, (lambda x: 0.5 * x @ A @ x - b @ x), (lambda x: A @ x - b)


def test_gradient_descent_reaches_the_minimiser(rng):
    A, b, f, g = quadratic(rng)
    result = gradient_descent(f, g, np.zeros(5), step_size=1 / 10.0, tol=1e-10, max_iter=5000)
    assert result.converged
    np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-9)
    assert result.history["x"].shape == (result.n_iter + 1, 5)
    assert result.history["fun"].shape == result.history["grad_norm"].shape == (result.n_iter + 1,)
    assert np.all(np.diff(result.history["fun"]) <= 1e-12)  # descent lemma with step 1/L


def test_gradient_descent_obeys_the_sublinear_bound(rng):
    A, b, f, g = quadratic(rng, cond=50.0)
    x_star = np.linalg.solve(A, b)
    eta = 1 / 50.0
    x0 = rng.normal(size=5)
    with pytest.warns(ConvergenceWarning, match="did not reach"):
        result = gradient_descent(f, g, x0, step_size=eta, max_iter=200, tol=1e-300)
    k = np.arange(1, 201)
    gap = result.history["fun"][1:] - f(x_star)
    assert np.all(gap <= np.sum((x0 - x_star) ** 2) / (2 * eta * k) + 1e-12)


def test_gradient_descent_warns_on_divergence(rng):
    A, b, f, g = quadratic(rng, cond=10.0)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        result = gradient_descent(f, g, np.ones(5), step_size=2.5 / 10.0, max_iter=10_000)
    assert not result.converged
    assert not np.isfinite(result.fun)
    assert len(result.history["grad_norm"]) == len(result.history["fun"])


def test_gradient_descent_accepts_matrix_variables_and_keeps_x0():
    target = np.arange(6.0).reshape(2, 3)
    x0 = np.zeros((2, 3))
    result = gradient_descent(lambda W: np.sum((W - target) ** 2), lambda W: 2 * (W - target),
                              x0, step_size=0.25, tol=1e-12)
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
    np.testing.assert_allclose(ours, approx_fprime(x, f, 1e-7), rtol=1e-4, atol=1e-5)


def test_numerical_gradient_of_matrix_function_has_variable_layout(rng):
    """d(aᵀXb)/dX = abᵀ: entry [i, j] is the derivative with respect to X[i, j]."""
    a, b = rng.normal(size=3), rng.normal(size=4)
    X = rng.normal(size=(3, 4))
    np.testing.assert_allclose(numerical_gradient(lambda X: a @ X @ b, X), np.outer(a, b), atol=1e-9)


def test_numerical_jacobian_of_linear_map(rng):
    W = rng.normal(size=(4, 3))
    x = rng.normal(size=3)
    np.testing.assert_allclose(numerical_jacobian(lambda x: W @ x, x), W, atol=1e-9)


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
    assert check_gradient(f, lambda x: A.T @ x + b, x) > 1e-1  # a sign error in the linear term
    with pytest.raises(ValueError, match="shape of its variable"):
        check_gradient(f, lambda x: g(x)[:-1], x)
