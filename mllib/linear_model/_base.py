r"""What every linear regressor shares: the unpenalised intercept by centring,
and prediction.

For the objectives of this package, minimising over the intercept :math:`b`
first gives :math:`b = \bar y - \bar x^\top w` whatever :math:`w` is (the
derivative in :math:`b` of :math:`\lVert y - Xw - b\mathbf 1\rVert^2` vanishes
there, and no penalty involves :math:`b`). Substituting back leaves the same
problem for :math:`w` on centred data :math:`X - \mathbf 1\bar x^\top`,
:math:`y - \bar y\mathbf 1`, with no intercept at all. So the solvers work on
centred copies and never penalise a column of ones.
"""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data


def center_data(X, y, fit_intercept, order="K"):
    """Centred ``X`` and ``y`` and the offsets removed.

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

    Returns
    -------
    X_centred, y_centred, X_offset, y_offset
        ``X_offset`` has shape (n_features,), ``y_offset`` is a float. The
        inputs are never modified; without an intercept ``X`` itself may be
        returned (callers only read it).
    """
    if not fit_intercept:
        return np.asarray(X, order=order), y, np.zeros(X.shape[1]), 0.0
    X_offset, y_offset = X.mean(axis=0), float(y.mean())
    return (
        np.subtract(X, X_offset, order=order),
        y - y_offset,
        X_offset,
        y_offset,
    )


class LinearModel(RegressorMixin, BaseEstimator):
    r"""Prediction :math:`\hat y = Xw + b` from fitted ``coef_`` :math:`w` and
    ``intercept_`` :math:`b`."""

    def _set_intercept(self, X_offset, y_offset):
        # b = ȳ - x̄ᵀw: the minimiser over b for fixed w (module docstring).
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
