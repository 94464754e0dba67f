r"""Sequential minimal optimisation (SMO) for the dual of the soft-margin SVM.

The dual problem, with :math:`Q_{ij} = y_iy_jK_{ij}`, is

.. math:: \max_\alpha\ D(\alpha) = \sum_i\alpha_i - \tfrac12\alpha^\top Q\alpha
          \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,\quad 0\le\alpha_i\le C .

SMO changes two multipliers at a time along the only direction that keeps
:math:`\sum_iy_i\alpha_i` fixed, :math:`\alpha_i \mathrel{+}= ty_i`, :math:`\alpha_j \mathrel{-}= ty_j`,
and takes the exact maximising step, clipped to the box. Everything is expressed through

.. math:: v_t = y_t - \sum_s \alpha_s y_s K_{st}\qquad(\,= -y_t\,\partial f/\partial\alpha_t
          \text{ for } f=-D\,),

the label minus the decision value without intercept, kept up to date in :math:`O(n)` per step
(libsvm's cached gradient). The KKT conditions say that some :math:`b` satisfies
:math:`v_t\le b` for every :math:`t` in :math:`I_{\text{up}}` (multipliers that can move
along :math:`+y_t`) and :math:`v_t\ge b` on :math:`I_{\text{low}}`; the pair chosen is the most
violating one, with the second-order rule of Fan, Chen & Lin (2005), as in libsvm.
"""

import warnings
from typing import NamedTuple

import numpy as np

from ..exceptions import ConvergenceWarning

TAU = 1e-12  # libsvm's floor on the curvature a_ij, for repeated points or non-PSD kernels


class SMOResult(NamedTuple):
    """The solution of the SVM dual and how SMO reached it.

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        The multipliers, in :math:`[0, C]`.
    intercept : float
        :math:`b`, the mean of :math:`v_t` over the free multipliers :math:`0<\\alpha_t<C` (libsvm's rule).
    n_iter : int
        Number of two-variable steps.
    converged : bool
        Whether the maximal KKT violation fell below ``tol``.
    history : dict of ndarray
        ``"violation"`` (:math:`\\max_{I_{up}} v - \\min_{I_{low}} v` before each step) and
        ``"dual"`` (:math:`D(\\alpha)` after each step).
    """

    alpha: np.ndarray
    intercept: float
    n_iter: int
    converged: bool
    history: dict


def smo(K, y, C, *, tol=1e-3, max_iter=-1):
    r"""Solve the SVM dual for a precomputed Gram matrix by SMO with
    second-order working sets.

    Parameters
    ----------
    K : ndarray of shape (n, n) or KernelRows
        Gram matrix :math:`K_{ij} = k(x_i, x_j)`, symmetric positive
        semi-definite; only its rows ``K[i]`` and ``K.diagonal()`` are used.
    y : ndarray of shape (n,)
        Labels in :math:`\{-1, +1\}`, both present.
    C : float
        Box bound; ``np.inf`` for the hard margin (the caller must check
        separability, or the dual is unbounded).
    tol : float
        Stop when the maximal violation
        :math:`\max_{I_{up}} v - \min_{I_{low}} v < \mathrm{tol}`
        (libsvm's ``eps``).
    max_iter : int
        Maximum number of steps; ``-1`` for no limit.

    Returns
    -------
    SMOResult

    References
    ----------
    Platt (1998), *Sequential minimal optimization*; Fan, Chen & Lin (2005),
    *Working set selection using second order information for training
    SVM*, JMLR 6, Algorithm WSS3.
    """
    n = len(y)
    alpha = np.zeros(n)
    v = y.astype(float)  # alpha = 0: the decision values are 0
    diag = K.diagonal().copy()
    v_up, v_low = np.where(y > 0, v, -np.inf), np.where(y < 0, v, np.inf)
    violations, duals, dual = [], [], 0.0
    labels = y.tolist()  # Python floats: fast scalar tests in the loop
    step = 0
    while True:
        i = int(v_up.argmax())  # most violating "up" multiplier
        violation = v_up[i] - v_low.min()
        violations.append(violation)
        if violation < tol or step == max_iter:
            break
        # Second-order choice of j (WSS3): the largest guaranteed increase
        # g_il^2 / (2 a_il) of D among the "low" multipliers l that violate
        # the KKT conditions together with i, g_il = v_i - v_l > 0
        K_i = K[i]
        slope = np.maximum(v_up[i] - v_low, 0.0)  # g_il, 0 if no violation
        # a_il = K_ii + K_ll - 2 K_il = ||phi(x_i) - phi(x_l)||^2
        curvature = np.maximum(diag[i] + diag - 2.0 * K_i, TAU)
        j = int((slope**2 / curvature).argmax())
        g_ij, a_ij = slope[j], curvature[j]
        # The exact maximiser delta = g/a along alpha_i += delta y_i,
        # alpha_j -= delta y_j, clipped to the box
        y_i, y_j = labels[i], labels[j]
        room_i = C - alpha[i] if y_i > 0 else alpha[i]
        room_j = alpha[j] if y_j > 0 else C - alpha[j]
        delta = min(g_ij / a_ij, room_i, room_j)
        alpha[i] = _move(alpha[i], delta, y_i, delta == room_i, C)
        alpha[j] = _move(alpha[j], delta, -y_j, delta == room_j, C)
        # Cached gradient: v <- v - delta (K_i - K_j), two kernel rows, O(n)
        change = delta * (K_i - K[j])
        v -= change
        v_up -= change
        v_low -= change
        for k in (i, j):
            v_up[k] = (
                v[k]
                if (alpha[k] < C if labels[k] > 0 else alpha[k] > 0)
                else -np.inf
            )
            v_low[k] = (
                v[k]
                if (alpha[k] < C if labels[k] < 0 else alpha[k] > 0)
                else np.inf
            )
        dual += delta * g_ij - 0.5 * delta**2 * a_ij  # exact increase of D
        duals.append(dual)
        step += 1
    converged = violations[-1] < tol
    if not converged:
        warnings.warn(
            f"SMO stopped at max_iter={max_iter} steps with maximal KKT "
            f"violation {violations[-1]:.3g} > tol={tol}. Increase max_iter.",
            ConvergenceWarning,
            stacklevel=2,
        )
    history = {"violation": np.array(violations), "dual": np.array(duals)}
    return SMOResult(
        alpha, _intercept(alpha, v, y, C), step, converged, history
    )


def _move(value, delta, direction, to_bound, C):
    """alpha + delta * direction, set exactly on the bound it was clipped to
    (no rounding residue)."""
    if to_bound:
        return C if direction > 0 else 0.0
    return value + delta * direction


def _intercept(alpha, v, y, C):
    r"""libsvm's rule: b is the mean of v over the free SVs (where y_t f(x_t) = 1 exactly).

    Without free SVs, the KKT conditions only bracket b,
    :math:`\max_{I_{up}} v \le b \le \min_{I_{low}} v`, and the midpoint is taken.
    """
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(v[free].mean())
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y < 0, alpha < C, alpha > 0)
    return float(0.5 * (v[up].max() + v[low].min()))
