r"""The Gaussian components of a mixture: weighted maximum-likelihood estimates and log-densities.

A component is stored through the Cholesky factor :math:`U` of its **precision**
:math:`\Sigma^{-1}=UU^\top` (upper triangular), as scikit-learn does: then

.. math:: \log\mathcal N(x\mid\mu,\Sigma) = -\tfrac12\bigl(d\log2\pi+\lVert U^\top(x-\mu)\rVert^2\bigr)+\sum_j\log U_{jj},

with neither an inverse nor a determinant (:math:`\log\det\Sigma^{-1}=2\sum_j\log U_{jj}`).
``covariance_type`` fixes the shape of the covariances and of their factors:

========== ============================ ===========================================
type       covariances                  precision factors
========== ============================ ===========================================
full       (K, d, d), one per component (K, d, d), upper triangular
tied       (d, d), shared               (d, d)
diag       (K, d), diagonals            (K, d), :math:`1/\sigma_{kj}`
spherical  (K,), :math:`\sigma_k^2 I`   (K,), :math:`1/\sigma_k`
========== ============================ ===========================================
"""

import numpy as np
from scipy.linalg import cholesky, solve_triangular

COVARIANCE_TYPES = ("full", "tied", "diag", "spherical")

SINGULAR_MESSAGE = (
    "A component's covariance is singular (not positive definite): it has collapsed onto too few "
    "points, or onto a lower-dimensional subspace, where the likelihood is unbounded. Increase "
    "reg_covar, use fewer components, or standardise X."
)


def estimate_gaussian_parameters(X, resp, reg_covar, covariance_type):
    r"""The M-step: weighted counts, means and covariances for the
    responsibilities ``resp`` (n, K).

    .. math::
        N_k=\sum_ir_{ik},\qquad \mu_k=\frac1{N_k}\sum_ir_{ik}x_i,\qquad
        \Sigma_k=\frac1{N_k}\sum_ir_{ik}(x_i-\mu_k)(x_i-\mu_k)^\top
        +\epsilon I,

    with :math:`\epsilon=` ``reg_covar``. "tied" pools
    :math:`\sum_kN_k\Sigma_k/n`; "diag" keeps the diagonal of
    :math:`\Sigma_k`; "spherical" its mean diagonal entry. Covariances are
    computed from centred data (not as :math:`E[xx^\top]-\mu\mu^\top`,
    which cancels). :math:`N_k` gets :math:`10\epsilon_{\text{mach}}`, so an
    empty component divides by no zero.

    Returns
    -------
    nk : ndarray of shape (K,)
    means : ndarray of shape (K, d)
    covariances : ndarray, shape given by ``covariance_type``
    """
    nk = resp.sum(axis=0) + 10 * np.finfo(float).eps
    means = (resp.T @ X) / nk[:, None]
    d = X.shape[1]
    if covariance_type in ("full", "tied"):
        covariances = np.empty((len(nk), d, d))
        for k, (mean, weight) in enumerate(zip(means, resp.T)):
            centred = X - mean
            covariances[k] = (weight * centred.T) @ centred / nk[k]
        if covariance_type == "tied":
            covariances = np.tensordot(nk, covariances, axes=1) / nk.sum()
        return nk, means, covariances + reg_covar * np.eye(d)
    diagonals = (
        np.stack([w @ (X - m) ** 2 for m, w in zip(means, resp.T)])
        / nk[:, None]
        + reg_covar
    )
    return (
        nk,
        means,
        diagonals if covariance_type == "diag" else diagonals.mean(axis=1),
    )


def precision_cholesky(covariances, covariance_type):
    r"""Upper-triangular :math:`U` with :math:`UU^\top=\Sigma^{-1}`: :math:`U=L^{-\top}` for :math:`\Sigma=LL^\top`.

    Raises ``ValueError`` (suggesting a larger ``reg_covar``) if a covariance is not positive definite.
    """
    if covariance_type in ("diag", "spherical"):
        if np.any(covariances <= 0):
            raise ValueError(SINGULAR_MESSAGE)
        return 1.0 / np.sqrt(covariances)
    stacked = covariances[None] if covariance_type == "tied" else covariances
    factors = np.empty_like(stacked)
    d = stacked.shape[-1]
    for k, covariance in enumerate(stacked):
        try:
            lower = cholesky(covariance, lower=True)
        except np.linalg.LinAlgError:
            raise ValueError(SINGULAR_MESSAGE) from None
        factors[k] = solve_triangular(
            lower, np.eye(d), lower=True
        ).T  # L^{-T}, by substitution
    return factors[0] if covariance_type == "tied" else factors


def precision_cholesky_from_precisions(precisions, covariance_type):
    r"""Upper-triangular :math:`U` with :math:`UU^\top=P` for given precisions :math:`P`.

    With :math:`J` the reversal permutation, the (lower) Cholesky factor :math:`JPJ=LL^\top` gives
    :math:`P=(JLJ)(JLJ)^\top`, and :math:`JLJ` is upper triangular.
    """
    if covariance_type in ("diag", "spherical"):
        return np.sqrt(precisions)
    flip = lambda A: A[..., ::-1, ::-1]  # noqa: E731  J A J
    stacked = precisions[None] if covariance_type == "tied" else precisions
    factors = np.stack([flip(cholesky(flip(P), lower=True)) for P in stacked])
    return factors[0] if covariance_type == "tied" else factors


def covariances_from_precision_cholesky(factors, covariance_type):
    r""":math:`\Sigma=(UU^\top)^{-1}=U^{-\top}U^{-1}`, with :math:`U^{-1}` by back substitution."""
    if covariance_type in ("diag", "spherical"):
        return 1.0 / factors**2
    stacked = factors[None] if covariance_type == "tied" else factors
    inverses = [
        solve_triangular(U, np.eye(U.shape[0]), lower=False) for U in stacked
    ]
    covariances = np.stack([V.T @ V for V in inverses])
    return covariances[0] if covariance_type == "tied" else covariances


def log_gaussian_density(X, means, factors, covariance_type):
    r""":math:`\log\mathcal N(x_i\mid\mu_k,\Sigma_k)` for all samples and components, shape (n, K)."""
    n, d = X.shape
    log_density = np.empty((n, len(means)))
    for k, mean in enumerate(means):
        U = factors if covariance_type == "tied" else factors[k]
        whitened = (
            (X - mean) @ U if U.ndim == 2 else (X - mean) * U
        )  # U^T (x - mu), row by row
        log_det = (
            np.sum(np.log(np.diag(U)))
            if U.ndim == 2
            else d * np.mean(np.log(U))
        )
        log_density[:, k] = (
            -0.5 * (d * np.log(2 * np.pi) + np.sum(whitened**2, axis=1))
            + log_det
        )
    return log_density
