r"""Poisson regression, a generalised linear model with the log link.

For counts :math:`y_i\in\{0,1,2,\dots\}` the model is :math:`y_i\sim\operatorname{Poisson}(\mu_i)`
with :math:`\log\mu_i = \eta_i = w^\top x_i + b`. The objective is scikit-learn's,

.. math::

    \frac{1}{2n}\sum_{i=1}^n D(y_i, \mu_i) + \frac{\alpha}{2}\lVert w\rVert^2,
    \qquad D(y,\mu) = 2\Bigl(y\log\frac y\mu - y + \mu\Bigr),

whose data term is the negative log-likelihood :math:`\frac1n\sum_i(\mu_i - y_i\eta_i)` up to a
constant. Its gradient is :math:`\frac1n X^\top(\mu - y) + \alpha(w, 0)` and its Hessian
:math:`\frac1n X^\top\operatorname{diag}(\mu)X + \alpha I_w`; the fit runs Newton's method on them.
"""

import numbers

import numpy as np
from scipy.special import xlogy
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import check_scalar
from .newton import newton_cholesky, weighted_gram


def poisson_deviance(y, mu):
    r"""Total Poisson deviance :math:`\sum_i 2(y_i\log(y_i/\mu_i) - y_i + \mu_i)`, with :math:`0\log0 = 0`."""
    return float(2 * np.sum(xlogy(y, y / mu) - y + mu))


class PoissonRegressor(RegressorMixin, BaseEstimator):
    r"""Penalised maximum-likelihood Poisson regression with the log link.

    Parameters
    ----------
    alpha : float, default 1.0
        Penalty strength :math:`\alpha \ge 0` in :math:`\frac{1}{2n}\sum_i D(y_i,\mu_i) + \frac\alpha2\lVert w\rVert^2`.
    fit_intercept : bool
        Fit an unpenalised intercept :math:`b`.
    max_iter : int
        Maximum number of Newton steps.
    tol : float
        Stop when the largest absolute entry of the gradient is at most ``tol``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    n_iter_ : int
    n_features_in_ : int

    References
    ----------
    McCullagh & Nelder, *Generalized Linear Models*, 2nd ed., §2.5 and §6.2.
    Equivalent to ``sklearn.linear_model.PoissonRegressor(alpha=alpha)``.
    """

    def __init__(self, alpha=1.0, fit_intercept=True, max_iter=100, tol=1e-4):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.positive_only = True  # counts
        return tags

    def fit(self, X, y):
        """Fit to ``X`` of shape (n_samples, n_features) and counts ``y`` of
        shape (n_samples,); return self."""
        X, y, alpha, tol = self._validate_fit_input(X, y)
        n, d = X.shape
        X1 = np.asfortranarray(  # rows x̃_i = (x_i, 1) with an intercept
            np.column_stack([X, np.ones(n)]) if self.fit_intercept else X
        )
        penalised = np.r_[np.ones(d), np.zeros(X1.shape[1] - d)]  # w, not b

        def fun(theta):  # (1/n) Σ (μ_i − y_i η_i) + (α/2)‖w‖²
            eta = X1 @ theta
            with np.errstate(over="ignore"):  # a wild trial step overflows
                mu = np.exp(eta)  # to inf, which the line search rejects
            penalty = 0.5 * alpha * np.sum(penalised * theta**2)
            return float(np.mean(mu - y * eta) + penalty)

        def grad_hess(theta):  # X̃ᵀ(μ − y)/n and X̃ᵀ diag(μ) X̃/n, plus α
            mu = np.exp(X1 @ theta)
            grad = X1.T @ (mu - y) / n + alpha * penalised * theta
            hess = weighted_gram(X1, mu) / n + alpha * np.diag(penalised)
            return grad, hess

        theta0 = np.zeros(X1.shape[1])
        if self.fit_intercept:  # the optimum when w = 0: a good start
            theta0[-1] = np.log(np.mean(y))
        result = newton_cholesky(
            fun, grad_hess, theta0, max_iter=self.max_iter, tol=tol
        )
        self.coef_ = result.x[:d].copy()
        self.intercept_ = float(result.x[d]) if self.fit_intercept else 0.0
        self.n_iter_ = result.n_iter
        return self

    def _validate_fit_input(self, X, y):
        """The checked data and hyperparameters: ``X, y, alpha, tol``."""
        alpha = check_scalar(self.alpha, "alpha", low=0)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        if (
            not isinstance(self.max_iter, numbers.Integral)
            or self.max_iter < 1
        ):
            raise ValueError(
                f"max_iter must be a positive integer; got {self.max_iter!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        if np.any(y < 0):
            raise ValueError(
                "y must be non-negative for Poisson regression (it models "
                f"counts); found {np.count_nonzero(y < 0)} negative "
                f"value(s), the smallest {float(y.min()):g}."
            )
        if np.all(y == 0):
            raise ValueError(
                "y is zero for every sample: the maximum-likelihood mean is "
                "0, so log μ = -∞ and no finite coefficients fit. Poisson "
                "regression needs some positive counts."
            )
        return X, y, alpha, tol

    def predict(self, X):
        r"""Predicted means :math:`\mu = e^{Xw + b}`, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.exp(X @ self.coef_ + self.intercept_)

    def score(self, X, y):
        r""":math:`D^2`, the fraction of Poisson deviance explained: :math:`1 - D(y,\hat\mu)/D(y,\bar y)`.

        The analogue of :math:`R^2` (it is :math:`R^2` when the deviance is the squared error),
        as in scikit-learn's ``PoissonRegressor.score``.
        """
        mu = self.predict(X)
        y = np.asarray(y, dtype=float)
        if y.shape != mu.shape or np.any(y < 0):
            raise ValueError(
                f"y must be non-negative with shape {mu.shape}; got shape {y.shape}."
            )
        return 1.0 - poisson_deviance(y, mu) / poisson_deviance(
            y, np.full_like(y, y.mean())
        )
