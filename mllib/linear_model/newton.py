r"""Newton's method with a Cholesky solve and a backtracking line search.

For a smooth, strictly convex objective :math:`f` the Newton direction solves

.. math:: \nabla^2 f(x_k)\, p_k = -\nabla f(x_k),

a symmetric positive definite system, so it is solved through a Cholesky
factorisation (never an inverse). A full step :math:`t=1` is tried first and
halved until the Armijo condition :math:`f(x_k + t p_k) \le f(x_k) +
c\,t\,\nabla f(x_k)^\top p_k` holds; near the minimiser the full step is always
accepted and convergence is quadratic (Nocedal & Wright, *Numerical
Optimization*, Alg. 3.1 and Thm. 3.5). Logistic, softmax and Poisson regression
use this solver.
"""

import warnings

import numpy as np
from scipy import sparse
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.linalg.blas import dsyrk

from ..exceptions import ConvergenceWarning
from ..optim import OptimizeResult

_ARMIJO = 1e-4  # sufficient-decrease constant c (Nocedal & Wright use 1e-4)
_MIN_STEP = (
    1e-12  # below this the line search gives up: f is flat to rounding error
)


def newton_cholesky(fun, grad_hess, x0, *, max_iter=100, tol=1e-4):
    r"""Minimise ``fun`` by damped Newton steps; stop when
    :math:`\max_j|\nabla_j f| \le` ``tol``.

    Parameters
    ----------
    fun : callable
        ``fun(x) -> float``, the objective.
    grad_hess : callable
        ``grad_hess(x) -> (gradient, hessian)`` of shapes (p,) and (p, p); the
        Hessian must be positive definite. It may be returned as a function of
        no argument, called only if a step is taken (at the last iterate, where
        the gradient meets ``tol``, it is not needed).
    x0 : array-like of shape (p,)
    max_iter : int
        Maximum number of Newton steps.
    tol : float
        Tolerance on the largest absolute entry of the gradient.

    Returns
    -------
    OptimizeResult
        With the history of iterates, objective values and gradient max-norms.
        A ``ConvergenceWarning`` is issued if ``tol`` is not reached.
    """
    x = np.array(x0, dtype=float)  # a copy: the caller's x0 is never modified
    f = float(fun(x))
    xs, fs, grad_norms = [x], [f], []
    stalled = False
    for k in range(max_iter + 1):
        g, H = grad_hess(x)
        grad_norms.append(float(np.max(np.abs(g))) if g.size else 0.0)
        if grad_norms[-1] <= tol or k == max_iter:
            break
        if callable(H):
            H = H()
        try:
            factor = cho_factor(H)
        except LinAlgError:
            raise ValueError(
                "The Hessian is not positive definite (its Cholesky "
                "factorisation failed): "
                "the features are probably collinear or the problem is "
                "unpenalised and "
                "degenerate. Remove duplicate or constant columns, or "
                "add a penalty."
            ) from None
        step = -cho_solve(factor, g)
        accepted = _backtrack(fun, x, f, step, slope=float(g @ step))
        if accepted is None:
            stalled = True
            break
        x, f = accepted
        xs.append(x)
        fs.append(f)
    converged = grad_norms[-1] <= tol
    if not converged:
        warn_not_converged(
            "Newton's method", tol, stalled, max_iter,
            f"final gradient max-norm {grad_norms[-1]:.3g}",
        )  # fmt: skip
    history = {
        "x": np.array(xs),
        "fun": np.array(fs),
        "grad_norm": np.array(grad_norms),
    }
    return OptimizeResult(
        x=x, fun=f, n_iter=len(xs) - 1, converged=converged, history=history
    )


def _backtrack(fun, x, f, step, slope):
    """The first of x + step, x + step/2, ... with sufficient decrease, as
    (x_new, f_new); None if none.

    ``slope`` = ∇fᵀ step < 0. Its negative is the squared Newton decrement, the
    decrease the quadratic model predicts (Boyd & Vandenberghe, §9.5.1). When
    that is below the rounding error of f, no decrease can be measured, but x
    is then so close to the minimiser that the full step is safe, and taking it
    keeps the quadratic convergence.
    """
    if -slope <= 8 * np.finfo(float).eps * max(abs(f), 1.0):
        return x + step, float(fun(x + step))
    t = 1.0
    while t >= _MIN_STEP:
        f_new = float(fun(x + t * step))
        if f_new <= f + _ARMIJO * t * slope:
            return x + t * step, f_new
        t *= 0.5
    return None


def weighted_gram(X, s):
    r""":math:`X^\top\operatorname{diag}(s)X`, shape (d, d): the Hessian of a
    GLM's negative log-likelihood.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n, d)
        A sparse ``X`` is never densified: the product runs over its stored
        entries, and only the (d, d) result is dense.
    s : ndarray of shape (n,)
    """
    if sparse.issparse(X):
        gram = (X.T @ (sparse.diags_array(s) @ X)).toarray()
        # mirror the upper triangle: the sparse product need not sum (j, l)
        # and (l, j) in the same order, and the solvers rely on symmetry
        return np.triu(gram) + np.triu(gram, 1).T
    if np.all(s >= 0):
        # (√s X)ᵀ(√s X) by a symmetric rank-k update (BLAS syrk): half the work
        # of a general product, and no copy when X is Fortran-ordered, as the
        # estimators pass it
        upper = dsyrk(1.0, np.sqrt(s)[:, None] * X, trans=1)
        return np.triu(upper) + np.triu(upper, 1).T
    return X.T @ (s[:, None] * X)


def warn_not_converged(method, tol, stalled, max_iter, final):
    """The ConvergenceWarning of a Newton-type solver that stopped short of
    ``tol``, saying why (a stalled line search or ``max_iter``) and where
    it stopped (``final``), from the caller of the solver's caller."""
    reason = (
        "the line search stalled"
        if stalled
        else f"max_iter={max_iter} was reached"
    )
    warnings.warn(
        f"{method} stopped before reaching tol={tol} ({reason}; {final}). "
        "Increase max_iter or tol.",
        ConvergenceWarning,
        stacklevel=4,
    )
