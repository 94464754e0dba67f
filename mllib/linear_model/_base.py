r"""What every linear regressor shares: the unpenalised intercept by centring,
the per-sample weights by rescaling, and prediction.

For the objectives of this package, minimising over the intercept :math:`b`
first gives :math:`b = \bar y - \bar x^\top w` whatever :math:`w` is (the
derivative in :math:`b` of :math:`\lVert y - Xw - b\mathbf 1\rVert^2` vanishes
there, and no penalty involves :math:`b`). Substituting back leaves the same
problem for :math:`w` on centred data :math:`X - \mathbf 1\bar x^\top`,
:math:`y - \bar y\mathbf 1`, with no intercept at all. So the solvers work on
centred copies and never penalise a column of ones.

With sample weights :math:`s_i \ge 0` the squared loss is :math:`\sum_i
s_i(y_i - x_i^\top w - b)^2`. Its derivative in :math:`b` vanishes at the
*weighted* means, :math:`b = \bar y_s - \bar x_s^\top w` with :math:`\bar x_s =
\sum_i s_ix_i / \sum_i s_i`, so the data are centred on those. Then
:math:`\sum_i s_i r_i^2 = \lVert S^{1/2}r\rVert^2` with :math:`S =
\operatorname{diag}(s)`: multiplying the rows of the centred :math:`X` and
:math:`y` by :math:`\sqrt{s_i}` turns the weighted problem into an unweighted
one, which every solver here already handles (the :math:`\sqrt{s}` rescaling
trick, as in scikit-learn's ``_rescale_data``).
"""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data


def center_data(X, y, fit_intercept, order="K", sample_weight=None):
    r"""Centred ``X`` and ``y``, rows rescaled by :math:`\sqrt{s_i}` when
    weighted, and the offsets removed.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    fit_intercept : bool
        Without an intercept, nothing is centred and the offsets are zero.
    order : {"K", "C", "F"}, default="K"
        Memory layout of the returned ``X``: ``"F"`` makes every column
        contiguous, which coordinate descent needs; centring and reordering
        then take one pass over ``X``.
    sample_weight : ndarray of shape (n_samples,), default=None
        Checked non-negative weights :math:`s`: the offsets are the weighted
        means, and row :math:`i` of the returned arrays is multiplied by
        :math:`\sqrt{s_i}` (module docstring). ``None``: no weights.

    Returns
    -------
    X_centred, y_centred, X_offset, y_offset
        ``X_offset`` has shape (n_features,), ``y_offset`` is a float. The
        inputs are never modified; without an intercept and weights ``X``
        itself may be returned (callers only read it).
    """
    if fit_intercept:
        X_offset = np.average(X, axis=0, weights=sample_weight)
        y_offset = float(np.average(y, weights=sample_weight))
        X, y = np.subtract(X, X_offset, order=order), y - y_offset
    else:
        X_offset, y_offset = np.zeros(X.shape[1]), 0.0
        X = np.asarray(X, order=order)
    if sample_weight is not None:
        # Σ s_i r_i² = ‖diag(√s) r‖²: rescaled rows, an unweighted problem
        sqrt_weight = np.sqrt(sample_weight)
        X = np.multiply(X, sqrt_weight[:, None], order=order)
        y = y * sqrt_weight
    return X, y, X_offset, y_offset


class LinearModel(RegressorMixin, BaseEstimator):
    r"""Prediction :math:`\hat y = Xw + b` from fitted ``coef_`` :math:`w` and
    ``intercept_`` :math:`b`."""

    def _set_intercept(self, X_offset, y_offset):
        # b = ȳ - x̄ᵀw (weighted means when weighted): the minimiser over b
        # for fixed w (module docstring).
        self.intercept_ = (
            float(y_offset - X_offset @ self.coef_)
            if self.fit_intercept
            else 0.0
        )

    def predict(self, X):
        """Predictions :math:`Xw + b`, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_ + self.intercept_
