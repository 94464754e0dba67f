r"""Karush–Kuhn–Tucker residuals of a constrained problem at a candidate
solution.

For the problem

.. math::

    \min_x f(x) \quad\text{s.t.}\quad g_i(x) \le 0,\ i=1..m,
        \qquad h_j(x) = 0,\ j=1..p

with Lagrangian :math:`\mathcal L(x,\lambda,\nu) = f(x) + \lambda^\top g(x) +
\nu^\top h(x)`, a point :math:`x` with multipliers :math:`(\lambda,\nu)`
satisfies the KKT conditions when

* stationarity: :math:`\nabla f(x) + J_g(x)^\top\lambda + J_h(x)^\top\nu = 0`,
* primal feasibility: :math:`g(x) \le 0` and :math:`h(x) = 0`,
* dual feasibility: :math:`\lambda \ge 0`,
* complementary slackness: :math:`\lambda_i g_i(x) = 0` for every :math:`i`.

``kkt_residuals`` measures how far each condition is from holding, so a
solver's output (ours, scipy's, libsvm's) can be checked against the theory.
"""

from typing import NamedTuple

import numpy as np


class KKTResiduals(NamedTuple):
    """Largest violation of each KKT condition (all zero at an exact KKT
    point)."""

    stationarity: float
    primal_feasibility: float
    dual_feasibility: float
    complementary_slackness: float

    def max(self):
        """The largest of the four residuals."""
        return max(self)


def kkt_residuals(
    grad_f, *, g=None, jac_g=None, lam=None, h=None, jac_h=None, nu=None
):
    r"""Residuals of the KKT conditions, each as a max-norm.

    Parameters
    ----------
    grad_f : array-like of shape (d,)
        :math:`\nabla f(x)`.
    g, jac_g, lam : array-like of shapes (m,), (m, d), (m,), optional
        Inequality-constraint values :math:`g(x)` (feasible when :math:`\le
        0`), their Jacobian, and the multipliers :math:`\lambda`.
    h, jac_h, nu : array-like of shapes (p,), (p, d), (p,), optional
        Equality-constraint values :math:`h(x)`, their Jacobian, and
        :math:`\nu`.

    Returns
    -------
    KKTResiduals
        ``stationarity`` :math:`\|\nabla_x\mathcal L\|_\infty`,
        ``primal_feasibility`` :math:`\max(\max_i g_i^+, \max_j |h_j|)`,
        ``dual_feasibility`` :math:`\max_i (-\lambda_i)^+`,
        ``complementary_slackness`` :math:`\max_i |\lambda_i g_i|`.
    """
    grad_lagrangian = np.array(grad_f, dtype=float)
    d = grad_lagrangian.shape[0]
    g, jac_g, lam = _constraint_block("inequality", g, jac_g, lam, d)
    h, jac_h, nu = _constraint_block("equality", h, jac_h, nu, d)
    grad_lagrangian += jac_g.T @ lam + jac_h.T @ nu
    return KKTResiduals(
        stationarity=_max_abs(grad_lagrangian),
        primal_feasibility=max(_max_abs(np.maximum(g, 0.0)), _max_abs(h)),
        dual_feasibility=_max_abs(np.maximum(-lam, 0.0)),
        complementary_slackness=_max_abs(lam * g),
    )


def _constraint_block(kind, values, jacobian, multipliers, d):
    given = [a is not None for a in (values, jacobian, multipliers)]
    if not any(given):
        return np.zeros(0), np.zeros((0, d)), np.zeros(0)
    if not all(given):
        raise ValueError(
            f"For {kind} constraints pass all three of the values, their "
            "Jacobian and the "
            "multipliers (or none of them)."
        )
    values = np.atleast_1d(np.asarray(values, dtype=float))
    multipliers = np.atleast_1d(np.asarray(multipliers, dtype=float))
    jacobian = np.atleast_2d(np.asarray(jacobian, dtype=float))
    if jacobian.shape != (len(values), d) or len(multipliers) != len(values):
        raise ValueError(
            f"Inconsistent {kind} constraint shapes: {len(values)} "
            "values, Jacobian "
            f"{jacobian.shape}, {len(multipliers)} multipliers, for a "
            f"gradient of length {d}."
        )
    return values, jacobian, multipliers


def _max_abs(a):
    return float(np.max(np.abs(a))) if np.size(a) else 0.0
