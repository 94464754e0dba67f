r"""Ridge regression, in its primal and its dual form.

.. math::

    \min_{w, b}\ \sum_{i=1}^n s_i\,(y_i - x_i^\top w - b)^2
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

Sample weights :math:`s_i \ge 0` (default 1) enter through the data alone:
centre on the weighted means and multiply row :math:`i` of :math:`X` and
:math:`y` by :math:`\sqrt{s_i}` (``_base``); the formulas above then hold for
the rescaled :math:`S^{1/2}X`, :math:`S^{1/2}y`. The penalty is not rescaled:
multiplying every weight by :math:`c` is the same fit as dividing
:math:`\lambda` by :math:`c`, as in scikit-learn.
"""

import numpy as np
from scipy import linalg
from sklearn.utils.validation import validate_data

from ..validation import check_sample_weight, check_scalar
from ._base import LinearModel, center_data


class Ridge(LinearModel):
    r"""Least squares with a squared 2-norm penalty, :math:`\sum_i s_i(y_i
    - x_i^\top w - b)^2 + \lambda\lVert w\rVert_2^2`, with sample weights
    :math:`s_i` (default 1).

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
        :math:`\alpha = S(y_c - X_c w)/\lambda`, the stationarity condition
        rearranged (:math:`S = \operatorname{diag}(s)`, the identity
        without weights).
    solver_ : str
        ``"primal"`` or ``"dual"``, the form actually solved.
    n_iter_ : None
        Both solves are direct (Cholesky), with no iterations: None, as
        scikit-learn's for its direct solvers.
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

    def fit(self, X, y, sample_weight=None):
        """Fit to ``X`` (n_samples, n_features) and ``y`` (n_samples,), each
        squared residual weighted by ``sample_weight`` (n_samples,) if
        given."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        alpha = self._check_params()
        n_samples, n_features = X.shape
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, n_samples)
        self.solver_ = self.solver
        if self.solver == "auto":  # the smaller system, d × d or n × n
            self.solver_ = "primal" if n_features <= n_samples else "dual"
        # centred data: the intercept is unpenalised, b = ȳ − x̄ᵀw at the end;
        # with weights, weighted means and rows rescaled by √s (_base), so
        # Xc, yc below stand for S^½X_c, S^½y_c
        Xc, yc, X_offset, y_offset = center_data(
            X, y, self.fit_intercept, sample_weight=sample_weight
        )
        if self.solver_ == "primal":
            # (XᵀX + λI) w = Xᵀy, by Cholesky
            gram = Xc.T @ Xc + alpha * np.eye(n_features)
            self.coef_ = linalg.solve(gram, Xc.T @ yc, assume_a="pos")
            # the stationarity condition λw = Xᵀ(y − Xw) reads w = Xᵀβ
            dual = (yc - Xc @ self.coef_) / alpha
        else:
            # (XXᵀ + λI) β = y, by Cholesky, and w = Xᵀβ
            kernel = Xc @ Xc.T + alpha * np.eye(n_samples)
            dual = linalg.solve(kernel, yc, assume_a="pos")
            self.coef_ = Xc.T @ dual
        # w = (S^½X_c)ᵀβ = X_cᵀ(S^½β): the dual weights of the centred data
        self.dual_coef_ = (
            dual if sample_weight is None else np.sqrt(sample_weight) * dual
        )
        self.n_iter_ = None
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
