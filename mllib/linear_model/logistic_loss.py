r"""The logistic and softmax (multinomial logistic) losses, their gradients and
Hessians.

The objectives are scikit-learn's divided by :math:`Cn` (the same minimiser),
with :math:`\alpha = 1/(Cn)` and the intercept, when there is one, the
coefficient of the last column of ``X`` (a column of ones), never penalised.

**Binary**, :math:`y_i\in\{0,1\}`, parameters :math:`\theta=(w,b)`, :math:`z =
X\theta`, :math:`p=\sigma(z)`:

.. math::

    f(\theta) = \frac1n\sum_i\bigl(\log(1+e^{z_i}) - y_i z_i\bigr)
        + \frac\alpha2\lVert w\rVert^2,\qquad
    \nabla f = \frac1n X^\top(p - y) + \alpha\,(w, 0),\qquad
    \nabla^2 f = \frac1n X^\top\operatorname{diag}\bigl(p_i(1-p_i)\bigr)X
        + \alpha I_w .

**Softmax**, one row :math:`\theta_k` of :math:`\Theta\in\mathbb R^{K\times
d'}` per class, :math:`Z = X\Theta^\top`, :math:`P = \operatorname{softmax}(Z)`
row by row, one-hot :math:`Y`:

.. math::

    f(\Theta) = \frac1n\sum_i\Bigl(\log\sum_k e^{z_{ik}} - z_{iy_i}\Bigr)
        + \frac\alpha2\lVert W\rVert_F^2,\qquad
    \nabla_\Theta f = \frac1n(P - Y)^\top X + \alpha\,[W\ 0],

    \frac{\partial^2 f}{\partial\theta_k\,\partial\theta_l}
    = \frac1n X^\top
        \operatorname{diag}\bigl(p_{\cdot k}(\delta_{kl} - p_{\cdot l})\bigr)X
        + \alpha\,\delta_{kl} I_w .

The binary model is the softmax model with :math:`K=2` and :math:`\theta_0 =
0`.
"""

import numpy as np
from scipy.special import expit, logsumexp, softmax

from .newton import weighted_gram


def _penalty_mask(d_prime, fit_intercept):
    """True for the penalised coefficients: all but the intercept (the last
    one)."""
    mask = np.ones(d_prime, dtype=bool)
    mask[-1] = not fit_intercept
    return mask


def logistic_loss(theta, X, y, alpha=0.0, fit_intercept=True):
    """Binary objective; ``theta`` (d',), ``X`` (n, d'), ``y`` (n,) in {0,
    1}."""
    z = X @ theta
    # log(1 + e^z) = logaddexp(0, z): no overflow for large z, no log(0) for
    # very negative z
    penalty = (
        0.5
        * alpha
        * np.sum(theta[_penalty_mask(len(theta), fit_intercept)] ** 2)
    )
    return float(np.mean(np.logaddexp(0.0, z) - y * z) + penalty)


def logistic_gradient(theta, X, y, alpha=0.0, fit_intercept=True):
    """Binary gradient, shape (d',): ``Xᵀ(σ(Xθ) - y) / n`` plus the penalty."""
    residual = expit(X @ theta) - y
    return X.T @ residual / len(X) + alpha * theta * _penalty_mask(
        len(theta), fit_intercept
    )


def logistic_hessian(theta, X, alpha=0.0, fit_intercept=True):
    """Binary Hessian, shape (d', d'): ``Xᵀ diag(p(1-p)) X / n`` plus the
    penalty."""
    z = X @ theta
    # p(1 - p) = σ(z)σ(-z): no cancellation in 1 - p when p is close to 1
    H = weighted_gram(X, expit(z) * expit(-z)) / len(X)
    H[np.diag_indices_from(H)] += alpha * _penalty_mask(
        len(theta), fit_intercept
    )
    return H


def softmax_loss(Theta, X, Y, alpha=0.0, fit_intercept=True):
    """Softmax objective; ``Theta`` (K, d'), ``X`` (n, d'), one-hot ``Y`` (n,
    K)."""
    Z = Theta @ X.T  # Zᵀ, shape (K, n): the sums over classes run along
    # contiguous rows, several times faster than along rows of length K
    # log Σ_k e^{z_ik} by logsumexp: shifted by the maximum, it never overflows
    penalty = (
        0.5
        * alpha
        * np.sum(Theta[:, _penalty_mask(X.shape[1], fit_intercept)] ** 2)
    )
    return float(
        np.mean(logsumexp(Z, axis=0)) - np.sum(Y.T * Z) / len(X) + penalty
    )


def softmax_gradient(Theta, X, Y, alpha=0.0, fit_intercept=True):
    """Softmax gradient, shape (K, d'): ``(P - Y)ᵀX / n`` plus the penalty."""
    P = softmax(Theta @ X.T, axis=0)  # Pᵀ, shape (K, n), as in softmax_loss
    return (P - Y.T) @ X / len(X) + alpha * Theta * _penalty_mask(
        X.shape[1], fit_intercept
    )


def softmax_hessian(Theta, X, alpha=0.0, fit_intercept=True, rows=None):
    """Softmax Hessian in the rows ``rows`` of ``Theta`` (default all),
    flattened row-major.

    Returns shape (r d', r d') for r = ``len(rows)``; block (k, l) is ``Xᵀ
    diag(p_k(δ_kl - p_l)) X / n``.
    """
    n, d_prime = X.shape
    P = softmax(Theta @ X.T, axis=0)  # Pᵀ: row k is p_k, shape (K, n)
    rows = np.arange(len(Theta)) if rows is None else np.asarray(rows)
    H = np.empty((len(rows) * d_prime, len(rows) * d_prime))
    block = [slice(a * d_prime, (a + 1) * d_prime) for a in range(len(rows))]
    for a, k in enumerate(rows):
        # diagonal block exactly: p_k(1 - p_k) = p_k Σ_{l≠k} p_l, as 1 - p_k
        # cancels when p_k ≈ 1
        others = np.sum(P[:k], axis=0) + np.sum(P[k + 1 :], axis=0)
        H[block[a], block[a]] = weighted_gram(X, P[k] * others)
        for b in range(a + 1, len(rows)):  # H is symmetric: l > k only
            H[block[a], block[b]] = -weighted_gram(X, P[k] * P[rows[b]])
            H[block[b], block[a]] = H[block[a], block[b]].T
    H /= n
    H[np.diag_indices_from(H)] += alpha * np.tile(
        _penalty_mask(d_prime, fit_intercept), len(rows)
    )
    return H
