r"""Ridge regression, in its primal and its dual form.

.. math::

    \min_{w, b}\ \lVert y - Xw - b\mathbf 1\rVert_2^2
        + \lambda\lVert w\rVert_2^2

On centred data (the intercept is never penalised) the gradient
:math:`2X^\top(Xw - y) + 2\lambda w` vanishes at

.. math:: \text{primal:}\quad w = (X^\top X + \lambda I_d)^{-1} X^\top y,
          \qquad
          \text{dual:}\quad w = X^\top\alpha,
          \quad \alpha = (XX^\top + \lambda I_n)^{-1} y,

the two being equal by the push-through identity :math:`(X^\top X + \lambda
I)^{-1}X^\top = X^\top(XX^\top + \lambda I)^{-1}`. The primal costs
:math:`O(nd^2 + d^3)`, the dual :math:`O(n^2d + n^3)`: the primal is cheaper
when :math:`d \le n`. Both matrices are symmetric positive definite for
:math:`\lambda > 0`, so each system is solved by a Cholesky factorisation,
never by forming an inverse.
"""

import numpy as np
from scipy import linalg
from sklearn.utils.validation import validate_data

from ..validation import check_scalar
from ._base import LinearModel, center_data


class Ridge(LinearModel):
    r"""Least squares with a squared 2-norm penalty, :math:`\lVert
    y-Xw-b\rVert_2^2 + \lambda\lVert w\rVert_2^2`.

    Parameters
    ----------
    alpha : float, default=1.0
        The penalty :math:`\lambda > 0` (for :math:`\lambda = 0` use
        ``LinearRegression``).
    fit_intercept : bool, default=True
        Fit an unpenalised intercept by centring ``X`` and ``y``.
    solver : {"auto", "primal", "dual"}, default="auto"
        ``"primal"`` solves the :math:`d\times d` system, ``"dual"`` the
        :math:`n\times n` one; ``"auto"`` picks the smaller (primal when
        ``n_features <= n_samples``).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    dual_coef_ : ndarray of shape (n_samples,)
        The dual weights :math:`\alpha`, with ``coef_`` :math:`=
        X_c^\top\alpha` (centred :math:`X_c`). The dual solver finds them
        directly; after the primal solve they are read off the residual,
        :math:`\alpha = (y_c - X_c w)/\lambda`, the stationarity condition
        rearranged.
    solver_ : str
        ``"primal"`` or ``"dual"``, the form actually solved.
    n_features_in_ : int

    Notes
    -----
    Same objective as ``sklearn.linear_model.Ridge(alpha)``, whose
    ``"cholesky"`` solver makes the same primal/dual choice; scikit-learn names
    its solvers by method (``"cholesky"``, ``"svd"``, ...) rather than by form.

    References
    ----------
    Hoerl & Kennard (1970), *Technometrics* 12(1); Hastie, Tibshirani &
    Friedman, *The Elements of Statistical Learning*, §3.4.1.
    """

    def __init__(self, alpha=1.0, fit_intercept=True, solver="auto"):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver

    def fit(self, X, y):
        """Fit to ``X`` (n_samples, n_features) and ``y`` (n_samples,)."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        alpha = self._check_params()
        n_samples, n_features = X.shape
        self.solver_ = self.solver
        if self.solver == "auto":  # the smaller system, d × d or n × n
            self.solver_ = "primal" if n_features <= n_samples else "dual"
        # centred data: the intercept is unpenalised, b = ȳ − x̄ᵀw at the end
        Xc, yc, X_offset, y_offset = center_data(X, y, self.fit_intercept)
        if self.solver_ == "primal":
            # (XᵀX + λI) w = Xᵀy, by Cholesky
            gram = Xc.T @ Xc + alpha * np.eye(n_features)
            self.coef_ = linalg.solve(gram, Xc.T @ yc, assume_a="pos")
            # the stationarity condition λw = Xᵀ(y − Xw) reads w = Xᵀα
            self.dual_coef_ = (yc - Xc @ self.coef_) / alpha
        else:
            # (XXᵀ + λI) α = y, by Cholesky, and w = Xᵀα
            kernel = Xc @ Xc.T + alpha * np.eye(n_samples)
            self.dual_coef_ = linalg.solve(kernel, yc, assume_a="pos")
            self.coef_ = Xc.T @ self.dual_coef_
        self._set_intercept(X_offset, y_offset)
        return self

    def _check_params(self):
        """The penalty λ > 0, validated, after checking the solver's name."""
        if self.solver not in ("auto", "primal", "dual"):
            raise ValueError(
                'solver must be "auto", "primal" or "dual"; got '
                f"{self.solver!r}."
            )
        return check_scalar(self.alpha, "alpha", low=0, low_inclusive=False)
