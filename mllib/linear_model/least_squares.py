r"""Ordinary least squares.

.. math:: \min_{w, b}\ \sum_{i=1}^n s_i\,(y_i - x_i^\top w - b)^2

with sample weights :math:`s_i \ge 0` (all ones by default).

The normal equations :math:`X^\top X w = X^\top y` (on centred data)
characterise every minimiser. Solving them through :math:`X^\top X` squares the
condition number of :math:`X`, so, like scikit-learn, we solve the
least-squares problem directly with an SVD (LAPACK ``gelsd`` via
:func:`scipy.linalg.lstsq`). When :math:`X` does not have full column rank
(collinear columns, or more features than samples) there are infinitely many
minimisers, and the SVD returns the one of minimum norm, :math:`w = X^+ y`.
With weights, the same solve runs on the weighted-centred rows rescaled by
:math:`\sqrt{s_i}` (``_base``).
"""

import numpy as np
from scipy import linalg
from sklearn.utils.validation import validate_data

from ..validation import check_sample_weight, check_scalar
from ._base import LinearModel, center_data


class LinearRegression(LinearModel):
    r"""Least-squares linear regression, :math:`\min_{w,b}\sum_i s_i(y_i -
    x_i^\top w - b)^2`, with sample weights :math:`s_i` (default 1).

    Parameters
    ----------
    fit_intercept : bool, default=True
        Fit an (unpenalised) intercept by centring ``X`` and ``y``.
    tol : float, default=1e-6
        Singular values below ``tol`` times the largest are treated as zero
        (the ``cond`` argument of :func:`scipy.linalg.lstsq`), which decides
        the numerical rank.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The minimum-norm least-squares weights :math:`w = (S^{1/2}X_c)^+
        S^{1/2}y_c` (data centred on the weighted means, :math:`S =
        \operatorname{diag}(s)`; :math:`S = I` without weights).
    intercept_ : float
    rank_ : int
        Numerical rank of the (centred, rescaled) design matrix.
    singular_ : ndarray of shape (min(n_samples, n_features),)
        Its singular values.
    n_features_in_ : int

    Notes
    -----
    Same objective, parameters and attributes as
    ``sklearn.linear_model.LinearRegression``; the fitted values agree to
    rounding error, including the minimum-norm solution when :math:`X` is rank
    deficient. ``tol`` is the singular-value cut-off that scikit-learn uses on
    dense data since version 1.9 (earlier versions cut off near machine
    precision, which gives a different ``rank_`` and ``coef_`` when the
    condition number exceeds ``1/tol``).

    References
    ----------
    Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    §3.2.
    """

    def __init__(self, fit_intercept=True, tol=1e-6):
        self.fit_intercept = fit_intercept
        self.tol = tol

    def fit(self, X, y, sample_weight=None):
        """Fit to ``X`` (n_samples, n_features) and ``y`` (n_samples,), each
        squared residual weighted by ``sample_weight`` (n_samples,) if
        given."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        tol = check_scalar(self.tol, "tol", low=0)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, len(y))
        # centring removes the intercept: b = ȳ − x̄ᵀw once w is known (means
        # weighted, rows rescaled by √s, when weighted)
        Xc, yc, X_offset, y_offset = center_data(
            X, y, self.fit_intercept, sample_weight=sample_weight
        )
        # w = X_c⁺ y_c, the minimum-norm least-squares solution, by the SVD
        # (LAPACK gelsd); singular values below tol·σ₁ count as zero
        self.coef_, _, self.rank_, self.singular_ = linalg.lstsq(
            Xc, yc, cond=tol
        )
        self._set_intercept(X_offset, y_offset)
        return self
