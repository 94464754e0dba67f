r"""The logistic and softmax (multinomial logistic) losses, their gradients and
Hessians.

The objectives are scikit-learn's divided by :math:`Cn` (the same minimiser),
with :math:`\alpha = 1/(Cn)` and the intercept, when there is one, the
coefficient of the last column of ``X`` (a column of ones), never penalised.
Sample weights :math:`s_i \ge 0` (from ``sample_weight`` and
``class_weight``) multiply the terms of the sums over samples below, and the
matching rows of the gradient and Hessian; the formulas are written for
:math:`s_i = 1`. ``X`` may be a ``scipy.sparse`` matrix: the functions use
it only through the products :math:`X\theta`, :math:`X^\top r` and
:math:`X^\top\operatorname{diag}(c)X`, so it is never densified.

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


def _weighted_mean(values, sample_weight):
    """(1/n) Σ_i s_i v_i, the plain mean when ``sample_weight`` is None."""
    if sample_weight is None:
        return np.mean(values)
    return (sample_weight @ values) / len(values)


def logistic_loss(
    theta, X, y, alpha=0.0, fit_intercept=True, sample_weight=None
):
    """Binary objective; ``theta`` (d',), ``X`` (n, d'), ``y`` (n,) in {0,
    1}, optional weights ``sample_weight`` (n,)."""
    z = X @ theta
    # log(1 + e^z) = logaddexp(0, z): no overflow for large z, no log(0) for
    # very negative z
    penalty = (
        0.5
        * alpha
        * np.sum(theta[_penalty_mask(len(theta), fit_intercept)] ** 2)
    )
    terms = np.logaddexp(0.0, z) - y * z
    return float(_weighted_mean(terms, sample_weight) + penalty)


def logistic_gradient(
    theta, X, y, alpha=0.0, fit_intercept=True, sample_weight=None
):
    """Binary gradient, shape (d',): ``Xᵀ s(σ(Xθ) - y) / n`` plus the
    penalty."""
    residual = expit(X @ theta) - y
    if sample_weight is not None:
        residual *= sample_weight
    return X.T @ residual / X.shape[0] + alpha * theta * _penalty_mask(
        len(theta), fit_intercept
    )


def logistic_hessian(
    theta, X, alpha=0.0, fit_intercept=True, sample_weight=None
):
    """Binary Hessian, shape (d', d'): ``Xᵀ diag(s p(1-p)) X / n`` plus the
    penalty."""
    z = X @ theta
    # p(1 - p) = σ(z)σ(-z): no cancellation in 1 - p when p is close to 1
    curvature = expit(z) * expit(-z)
    if sample_weight is not None:
        curvature *= sample_weight
    H = weighted_gram(X, curvature) / X.shape[0]
    H[np.diag_indices_from(H)] += alpha * _penalty_mask(
        len(theta), fit_intercept
    )
    return H


def softmax_loss(
    Theta, X, Y, alpha=0.0, fit_intercept=True, sample_weight=None
):
    """Softmax objective; ``Theta`` (K, d'), ``X`` (n, d'), one-hot ``Y`` (n,
    K), optional weights ``sample_weight`` (n,)."""
    Z = Theta @ X.T  # Zᵀ, shape (K, n): the sums over classes run along
    # contiguous rows, several times faster than along rows of length K
    # log Σ_k e^{z_ik} by logsumexp: shifted by the maximum, it never overflows
    penalty = (
        0.5
        * alpha
        * np.sum(Theta[:, _penalty_mask(X.shape[1], fit_intercept)] ** 2)
    )
    terms = logsumexp(Z, axis=0) - np.sum(Y.T * Z, axis=0)
    return float(_weighted_mean(terms, sample_weight) + penalty)


def softmax_gradient(
    Theta, X, Y, alpha=0.0, fit_intercept=True, sample_weight=None
):
    """Softmax gradient, shape (K, d'): ``(P - Y)ᵀ diag(s) X / n`` plus the
    penalty."""
    P = softmax(Theta @ X.T, axis=0)  # Pᵀ, shape (K, n), as in softmax_loss
    residual = P - Y.T
    if sample_weight is not None:
        residual *= sample_weight
    return residual @ X / X.shape[0] + alpha * Theta * _penalty_mask(
        X.shape[1], fit_intercept
    )


def softmax_hessian(
    Theta, X, alpha=0.0, fit_intercept=True, rows=None, sample_weight=None
):
    """Softmax Hessian in the rows ``rows`` of ``Theta`` (default all),
    flattened row-major.

    Returns shape (r d', r d') for r = ``len(rows)``; block (k, l) is ``Xᵀ
    diag(s p_k(δ_kl - p_l)) X / n``.
    """
    n, d_prime = X.shape
    P = softmax(Theta @ X.T, axis=0)  # Pᵀ: row k is p_k, shape (K, n)
    # each sample's weight multiplies its curvature p_k(δ_kl - p_l)
    s = np.ones(n) if sample_weight is None else sample_weight
    rows = np.arange(len(Theta)) if rows is None else np.asarray(rows)
    H = np.empty((len(rows) * d_prime, len(rows) * d_prime))
    block = [slice(a * d_prime, (a + 1) * d_prime) for a in range(len(rows))]
    for a, k in enumerate(rows):
        # diagonal block exactly: p_k(1 - p_k) = p_k Σ_{l≠k} p_l, as 1 - p_k
        # cancels when p_k ≈ 1
        others = np.sum(P[:k], axis=0) + np.sum(P[k + 1 :], axis=0)
        H[block[a], block[a]] = weighted_gram(X, s * P[k] * others)
        for b in range(a + 1, len(rows)):  # H is symmetric: l > k only
            H[block[a], block[b]] = -weighted_gram(X, s * P[k] * P[rows[b]])
            H[block[b], block[a]] = H[block[a], block[b]].T
    H /= n
    H[np.diag_indices_from(H)] += alpha * np.tile(
        _penalty_mask(d_prime, fit_intercept), len(rows)
    )
    return H
