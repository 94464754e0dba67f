r"""Proximal Newton: Newton's method for a smooth objective plus a weighted
:math:`\ell_1` norm.

The problem is

.. math:: \min_x\ F(x) = f(x) + \sum_j \lambda_j |x_j|,
          \qquad \lambda_j \ge 0,

with :math:`f` smooth and convex (the logistic or softmax loss plus an
:math:`\ell_2` penalty). :math:`F` is not differentiable where a penalised
:math:`x_j` is 0, so the Newton equation has no meaning there. The proximal
Newton method keeps the :math:`\ell_1` term exact and replaces only
:math:`f` by its quadratic model at :math:`x_k`:

.. math::

    x_k + \Delta_k = \arg\min_u\ g^\top(u - x_k)
        + \tfrac12 (u - x_k)^\top H (u - x_k) + \sum_j\lambda_j|u_j|,

:math:`g = \nabla f(x_k)`, :math:`H = \nabla^2 f(x_k)`. With
:math:`\lambda = 0` it is Newton's step. The subproblem is a lasso with a
quadratic form in place of a least-squares term, solved here by cyclic
coordinate descent: with the other coordinates fixed, the model in
:math:`u_j` is :math:`c\,(u_j - x_j) + \tfrac12 H_{jj}(u_j - x_j)^2 +
\lambda_j|u_j|`, where :math:`c = g_j + (H\delta)_j - H_{jj}\delta_j` is its
slope at :math:`\delta_j = 0` for the current step :math:`\delta = u - x_k`,
and its minimiser is the soft threshold

.. math:: u_j = S_{\lambda_j}(H_{jj}x_j - c)/H_{jj},
          \qquad S_t(z) = \operatorname{sign}(z)\max(|z| - t, 0).

Keeping :math:`H\delta` up to date costs one column of :math:`H` per changed
coordinate. The step is then damped by backtracking until the sufficient
decrease

.. math:: F(x_k + t\Delta_k) \le F(x_k) + \sigma t D_k,\qquad
          D_k = g^\top\Delta_k + \sum_j\lambda_j(|x_j + \Delta_{kj}| - |x_j|)
          < 0

holds (Tseng & Yun 2009, eq. (9); Lee, Sun & Saunders 2014, Alg. 1). Near
the solution the full step is accepted and convergence is superlinear, as
for Newton's method, provided the subproblems are solved accurately enough:
here to a fraction of the current optimality residual.

**Optimality and the stopping rule.** :math:`x` minimises :math:`F` if and
only if :math:`0 \in \nabla f(x) + \partial(\sum_j\lambda_j|x_j|)`, that is

.. math::

    \nabla_j f(x) = -\lambda_j\operatorname{sign}(x_j) \text{ if } x_j \ne
    0, \qquad |\nabla_j f(x)| \le \lambda_j \text{ if } x_j = 0 .

The smallest element of the subdifferential of :math:`F` measures how far
these conditions fail: its entries are :math:`\nabla_j f + \lambda_j
\operatorname{sign}(x_j)` where :math:`x_j \ne 0` and
:math:`\operatorname{sign}(\nabla_j f)\max(|\nabla_j f| - \lambda_j, 0)`
where :math:`x_j = 0` (:func:`subgradient_residual`). The method stops
when its max-norm is at most ``tol``, the rule of
:func:`mllib.linear_model.newton.newton_cholesky` (which it reduces to when
every :math:`\lambda_j = 0`).

References
----------
Lee, Sun & Saunders (2014), *Proximal Newton-type methods for minimizing
composite functions*, SIAM J. Optim. 24(3). Yuan, Ho & Lin (2012), *An
improved GLMNET for L1-regularized logistic regression*, JMLR 13. Friedman,
Hastie & Tibshirani (2010), *J. Stat. Softw.* 33(1), §3 (the quadratic
model solved by coordinate descent).
"""

import numpy as np

from ..optim import OptimizeResult
from .newton import (
    _backtrack,  # Armijo backtracking on F, the same rule
    warn_not_converged,
)

_MAX_SWEEPS = 1000  # coordinate-descent sweeps per subproblem, at most


def subgradient_residual(x, gradient, l1_weights):
    r"""The minimum-norm element of :math:`\nabla f(x) + \partial
    \sum_j\lambda_j|x_j|`, shape (p,): zero exactly at a minimiser."""
    off_zero = gradient + l1_weights * np.sign(x)
    at_zero = np.sign(gradient) * np.maximum(
        np.abs(gradient) - l1_weights, 0.0
    )
    return np.where(x != 0, off_zero, at_zero)


def proximal_newton(fun, grad_hess, x0, l1_weights, *, max_iter=100, tol=1e-4):
    r"""Minimise ``fun(x) + Σ_j l1_weights[j] |x_j|`` by proximal Newton
    steps (module docstring); stop when the max-norm of
    :func:`subgradient_residual` is at most ``tol``.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> float``, the smooth part :math:`f`.
    grad_hess : callable
        ``grad_hess(x) -> (gradient, hessian)``, shapes (p,) and (p, p), the
        Hessian positive semi-definite (it may be returned as a function of
        no argument, called only when a step is taken).
    x0 : array-like of shape (p,)
    l1_weights : ndarray of shape (p,)
        :math:`\lambda_j \ge 0`; 0 for an unpenalised coordinate.
    max_iter : int
        Maximum number of proximal Newton steps.
    tol : float

    Returns
    -------
    OptimizeResult
        ``x``, ``fun`` (the full objective :math:`F`), ``n_iter``,
        ``converged`` and the history of :math:`F` and of the residual's
        max-norm. A ``ConvergenceWarning`` is issued if ``tol`` is not
        reached.
    """
    x = np.array(x0, dtype=float)  # a copy: the caller's x0 is untouched
    l1_weights = np.asarray(l1_weights, dtype=float)

    def objective(v):
        return float(fun(v)) + float(l1_weights @ np.abs(v))

    F = objective(x)
    values, residuals, n_iter, stalled = [F], [], 0, False
    for k in range(max_iter + 1):
        g, H = grad_hess(x)
        residual = subgradient_residual(x, g, l1_weights)
        residuals.append(float(np.max(np.abs(residual), initial=0.0)))
        if residuals[-1] <= tol or k == max_iter:
            break
        H = H() if callable(H) else H
        # an inexact subproblem, solved to a fraction of the outer residual
        # that shrinks with it (a forcing sequence, Lee et al. §3.3)
        step = _subproblem(
            x, g, H, l1_weights, 0.1 * residuals[-1] * min(1, residuals[-1])
        )
        decrease = float(
            g @ step + l1_weights @ (np.abs(x + step) - np.abs(x))
        )
        # F(x + tΔ) ≤ F(x) + σ t D, t = 1, 1/2, ...; when D is below the
        # rounding error of F, the full step (x is then at the minimiser)
        accepted = _backtrack(objective, x, F, step, slope=decrease)
        if accepted is None:
            stalled = True
            break
        x, F = accepted
        values.append(F)
        n_iter += 1
    converged = residuals[-1] <= tol
    if not converged:
        warn_not_converged(
            "Proximal Newton", tol, stalled, max_iter,
            f"final optimality residual {residuals[-1]:.3g}",
        )  # fmt: skip
    history = {"fun": np.array(values), "residual": np.array(residuals)}
    return OptimizeResult(
        x=x, fun=F, n_iter=n_iter, converged=converged, history=history
    )


def _subproblem(x, g, H, l1_weights, tol):
    r"""The step :math:`\Delta` minimising the quadratic model plus the
    :math:`\ell_1` term (module docstring), by cyclic coordinate descent
    until the model's own optimality residual is at most ``tol``."""
    p = len(x)
    step = np.zeros(p)
    H_step = np.zeros(p)  # H Δ, kept up to date
    diagonal = np.diag(H).tolist()
    x_list, g_list, lam = x.tolist(), g.tolist(), l1_weights.tolist()
    H = np.ascontiguousarray(H)  # row j is column j: H is symmetric
    for _ in range(_MAX_SWEEPS):
        for j in range(p):
            a = diagonal[j]
            if a <= 0.0:  # a flat coordinate: the model cannot move it
                continue
            delta_j = step[j]
            # slope of the model in u_j at δ_j = 0, then the soft threshold
            c = g_list[j] + H_step[j] - a * delta_j
            z = a * x_list[j] - c
            if z > lam[j]:
                u = (z - lam[j]) / a
            elif z < -lam[j]:
                u = (z + lam[j]) / a
            else:
                u = 0.0
            change = (u - x_list[j]) - delta_j
            if change != 0.0:
                step[j] += change
                H_step += change * H[j]
        model_residual = subgradient_residual(x + step, g + H_step, l1_weights)
        if np.max(np.abs(model_residual), initial=0.0) <= tol:
            break
    return step
