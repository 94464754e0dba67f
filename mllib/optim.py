"""Unconstrained optimisation and derivative checks.

``gradient_descent`` keeps the full history of its iterates so chapters can plot
convergence against theory; ``numerical_gradient`` / ``numerical_jacobian`` /
``check_gradient`` compare analytic derivatives with central differences, for
variables of any shape (vectors, matrices).
"""

import warnings
from dataclasses import dataclass, field

import numpy as np

from .exceptions import ConvergenceWarning


@dataclass
class OptimizeResult:
    """Outcome of an iterative method.

    Attributes
    ----------
    x : ndarray
        Final iterate (same shape as ``x0``).
    fun : float
        Objective value at ``x``.
    n_iter : int
        Number of iterations performed.
    converged : bool
        Whether the stopping criterion was met before ``max_iter``.
    history : dict of ndarray
        ``"x"`` of shape (n_iter + 1, *x0.shape), ``"fun"`` and ``"grad_norm"`` of
        shape (n_iter + 1,): the values at every iterate, starting with ``x0``.
    """

    x: np.ndarray
    fun: float
    n_iter: int
    converged: bool
    history: dict = field(repr=False)


def gradient_descent(fun, grad, x0, *, step_size, max_iter=1000, tol=1e-6):
    r"""Minimise ``fun`` by gradient descent with a constant step.

    .. math:: x_{k+1} = x_k - \eta\, \nabla f(x_k)

    For a convex, :math:`L`-smooth :math:`f` and :math:`\eta \le 1/L`,
    :math:`f(x_k) - f^\star \le \|x_0 - x^\star\|^2 / (2\eta k)`; for
    :math:`\eta > 2/L` the iterates can diverge.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> float``.
    grad : callable
        ``grad(x) -> ndarray`` of the same shape as ``x``.
    x0 : array-like
        Starting point, of any shape (a vector, or a matrix variable).
    step_size : float
        The step :math:`\eta > 0`.
    max_iter : int
        Maximum number of steps.
    tol : float
        Stop when :math:`\|\nabla f(x_k)\|_2 \le` ``tol``.

    Returns
    -------
    OptimizeResult
        With the history of iterates, objective values and gradient norms.
        A ``ConvergenceWarning`` is issued if ``tol`` is not reached.
    """
    if not step_size > 0:
        raise ValueError(f"step_size must be positive; got {step_size!r}.")
    x = np.array(x0, dtype=float)  # a copy: the caller's x0 is never modified
    xs, fs, grad_norms = [x], [float(fun(x))], []
    for k in range(max_iter + 1):
        g = np.asarray(grad(x), dtype=float)
        grad_norms.append(float(np.linalg.norm(g)))
        if grad_norms[-1] <= tol or k == max_iter:
            break
        x = x - step_size * g  # a new array, so the stored iterates stay intact
        xs.append(x)
        fs.append(float(fun(x)))
        if not np.isfinite(fs[-1]):
            grad_norms.append(np.nan)
            warnings.warn(
                f"gradient descent diverged after {k + 1} steps (objective {fs[-1]}); the step "
                "size is probably above 2/L. Use a smaller step_size.",
                ConvergenceWarning,
                stacklevel=2,
            )
            break
    converged = grad_norms[-1] <= tol
    if not converged and np.isfinite(fs[-1]):
        warnings.warn(
            f"gradient descent did not reach tol={tol} in max_iter={max_iter} steps (final "
            f"gradient norm {grad_norms[-1]:.3g}). Increase max_iter or step_size.",
            ConvergenceWarning,
            stacklevel=2,
        )
    history = {"x": np.array(xs), "fun": np.array(fs), "grad_norm": np.array(grad_norms)}
    return OptimizeResult(x=x, fun=fs[-1], n_iter=len(xs) - 1, converged=converged, history=history)


def numerical_jacobian(fun, x, *, eps=1e-6):
    r"""Central-difference Jacobian of ``fun`` at ``x``.

    .. math:: J_{\dots,i} \approx \frac{f(x + h_i e_i) - f(x - h_i e_i)}{2 h_i},
              \qquad h_i = \varepsilon \max(1, |x_i|)

    The truncation error is :math:`O(h^2)`; the rounding error grows like
    :math:`\epsilon_{\mathrm{mach}}/h`, so :math:`\varepsilon \approx 10^{-6}`
    balances the two in double precision.

    Parameters
    ----------
    fun : callable
        Maps an array shaped like ``x`` to an array (or scalar) of shape ``out_shape``.
    x : array-like
        Point of any shape.

    Returns
    -------
    ndarray of shape ``out_shape + x.shape``
        ``J[..., i]`` is the derivative of ``fun`` with respect to ``x[i]``.
    """
    x = np.array(x, dtype=float)
    out_shape = np.shape(fun(x))
    jac = np.empty(out_shape + (x.size,))
    flat = x.reshape(-1)  # a view into our copy, so perturbations reach `x`
    for i in range(x.size):
        h = eps * max(1.0, abs(flat[i]))
        original = flat[i]
        flat[i] = original + h
        f_plus = np.asarray(fun(x), dtype=float)
        flat[i] = original - h
        f_minus = np.asarray(fun(x), dtype=float)
        flat[i] = original
        jac[..., i] = (f_plus - f_minus) / (2 * h)
    return jac.reshape(out_shape + x.shape)


def numerical_gradient(fun, x, *, eps=1e-6):
    """Central-difference gradient of a scalar function; same shape as ``x``.

    This is :func:`numerical_jacobian` for a scalar output, so its entry ``[i, j]``
    for a matrix ``x`` is the derivative with respect to ``x[i, j]`` (the layout
    in which the gradient has the shape of the variable).
    """
    value = fun(np.array(x, dtype=float))
    if np.ndim(value) != 0:
        raise ValueError(
            f"fun must return a scalar for a gradient; it returned shape {np.shape(value)}. "
            "Use numerical_jacobian for vector-valued functions."
        )
    return numerical_jacobian(fun, x, eps=eps)


def check_gradient(fun, grad, x, *, eps=1e-6):
    r"""Relative error between an analytic gradient and central differences at ``x``.

    .. math:: \frac{\|g - \hat g\|}{\max(\|g\| + \|\hat g\|, 10^{-12})}

    Around 1e-8 or below for a correct gradient of a smooth function; of order 1
    for a wrong one.
    """
    analytic = np.asarray(grad(np.array(x, dtype=float)), dtype=float)
    numeric = numerical_gradient(fun, x, eps=eps)
    if analytic.shape != numeric.shape:
        raise ValueError(
            f"grad returned shape {analytic.shape}, but x has shape {numeric.shape}; "
            "a gradient has the shape of its variable."
        )
    scale = max(np.linalg.norm(analytic) + np.linalg.norm(numeric), 1e-12)
    return float(np.linalg.norm(analytic - numeric) / scale)
