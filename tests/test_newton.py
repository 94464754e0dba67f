"""newton_cholesky and weighted_gram, on problems with known answers."""

import numpy as np
import pytest

from mllib.exceptions import ConvergenceWarning
from mllib.linear_model.newton import newton_cholesky, weighted_gram


def test_one_step_on_a_quadratic(rng):
    A = rng.normal(size=(5, 5))
    A = A @ A.T + np.eye(5)
    b = rng.normal(size=5)
    result = newton_cholesky(
        lambda x: 0.5 * x @ A @ x - b @ x,
        lambda x: (A @ x - b, A),
        np.zeros(5),
        tol=1e-10,
    )
    np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-12)
    assert result.n_iter == 1 and result.converged


def test_quadratic_convergence_and_line_search_on_a_smooth_convex_function():
    # f(x) = Σ log cosh(x_i - c_i) + ½‖x‖²/10: a full step from far away overshoots
    c = np.array([4.0, -6.0, 9.0])
    fun = lambda x: (
        np.sum(np.logaddexp(x - c, c - x) - np.log(2)) + 0.05 * x @ x
    )  # noqa: E731
    grad_hess = lambda x: (
        np.tanh(x - c) + 0.1 * x,
        np.diag(1 - np.tanh(x - c) ** 2 + 0.1),
    )  # noqa: E731
    result = newton_cholesky(fun, grad_hess, np.zeros(3), tol=1e-13)
    g = result.history["grad_norm"]
    assert (
        g[1] > g[0]
    )  # the first full step overshoots in gradient, but f decreases throughout
    assert np.all(np.diff(result.history["fun"]) <= 1e-15)
    assert result.converged and g[-1] <= 1e-13
    near = np.flatnonzero(
        (g[:-1] < 1e-2) & (g[1:] > 1e-15)
    )  # steps inside the quadratic region
    assert len(near) >= 2 and np.all(
        g[near + 1] <= 2 * g[near] ** 2
    )  # the error is squared


def test_a_hessian_given_as_a_function_is_evaluated_only_for_steps(rng):
    A = rng.normal(size=(4, 4))
    A = A @ A.T + np.eye(4)
    b = rng.normal(size=4)
    calls = []

    def hessian():
        calls.append(1)
        return A

    result = newton_cholesky(
        lambda x: 0.5 * x @ A @ x - b @ x,
        lambda x: (A @ x - b, hessian),
        np.zeros(4),
        tol=1e-10,
    )
    np.testing.assert_allclose(result.x, np.linalg.solve(A, b), atol=1e-12)
    assert result.n_iter == 1 and len(calls) == 1  # not at the solution


def test_indefinite_hessian_and_max_iter():
    with pytest.raises(ValueError, match="not positive definite"):
        newton_cholesky(
            lambda x: -x @ x, lambda x: (-2 * x, -2 * np.eye(2)), np.ones(2)
        )
    fun = lambda x: np.sum(np.logaddexp(0, x) - 0.3 * x)  # noqa: E731
    grad_hess = lambda x: (
        1 / (1 + np.exp(-x)) - 0.3,
        np.diag(np.exp(-x) / (1 + np.exp(-x)) ** 2),
    )  # noqa: E731
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        newton_cholesky(fun, grad_hess, np.full(2, 5.0), max_iter=1, tol=1e-12)


def test_weighted_gram_both_branches(rng):
    X = rng.normal(size=(30, 4))
    for s in (
        rng.random(30),
        rng.normal(size=30),
    ):  # syrk for s ≥ 0, a general product otherwise
        np.testing.assert_allclose(
            weighted_gram(X, s), X.T @ np.diag(s) @ X, atol=1e-12
        )
        np.testing.assert_allclose(
            weighted_gram(np.asfortranarray(X), s),
            X.T @ np.diag(s) @ X,
            atol=1e-12,
        )
