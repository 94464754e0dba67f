"""Bayesian linear regression with a Gaussian prior and known precisions (Bishop's notation)."""

import numpy as np
from scipy.linalg import cholesky, solve_triangular
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import check_random_state, check_scalar


class BayesianLinearRegression(RegressorMixin, BaseEstimator):
    r"""Exact posterior of a linear model with prior :math:`w\sim\mathcal N(0,\alpha^{-1}I)` and
    noise :math:`y_i\mid x_i,w,b\sim\mathcal N(w^\top x_i+b,\ \beta^{-1})`.

    With centred data :math:`X_c, y_c` and :math:`A=\alpha I+\beta X_c^\top X_c=LL^\top`, the
    posterior is :math:`w\mid y\sim\mathcal N(m,\Sigma)` with :math:`\Sigma=A^{-1}` and
    :math:`m=\beta A^{-1}X_c^\top y_c`, which is also the ridge solution for :math:`\lambda=\alpha/\beta`.

    **Intercept.** ``fit_intercept=True`` gives :math:`b` a flat (improper) prior. Then
    :math:`\lVert y-Xw-b\mathbf 1\rVert^2=\lVert y_c-X_cw\rVert^2+n(\bar y-\bar x^\top w-b)^2`, so
    the posterior of :math:`w` is that of the centred problem, and the value of the model at
    the mean input, :math:`b+\bar x^\top w\sim\mathcal N(\bar y,\ 1/(n\beta))`, is independent of
    :math:`w`. ``intercept_`` is the posterior mean :math:`\bar y-\bar x^\top m`.

    Parameters
    ----------
    alpha : float
        Prior precision :math:`\alpha=1/\tau^2` of each weight (**not** a regularisation
        strength: that is :math:`\lambda=\alpha/\beta`).
    beta : float
        Noise precision :math:`\beta=1/\sigma^2`.
    fit_intercept : bool

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Posterior mean :math:`m`.
    sigma_ : ndarray of shape (n_features, n_features)
        Posterior covariance :math:`\Sigma` of the weights.
    intercept_ : float
    X_offset_ : ndarray of shape (n_features,)
        Training mean of ``X`` (zeros if ``fit_intercept=False``).
    log_marginal_likelihood_value_ : float
        :math:`\log p(y\mid X,\alpha,\beta)`; see :meth:`log_marginal_likelihood`.

    Notes
    -----
    ``sklearn.linear_model.BayesianRidge`` has the same model but learns the precisions,
    and swaps the names: its ``lambda_`` is our ``alpha``, its ``alpha_`` our ``beta``. For
    given precisions, ``coef_``, ``sigma_`` and ``intercept_`` agree. Its predictive standard
    deviation leaves out the intercept's uncertainty :math:`1/(n\beta)`, and its log evidence
    counts :math:`n` rather than :math:`n-1` residual degrees of freedom when it centres.
    Reference: Bishop (2006), *Pattern Recognition and Machine Learning*, §3.3–3.5.
    """

    def __init__(self, alpha=1.0, beta=1.0, fit_intercept=True):
        self.alpha = alpha
        self.beta = beta
        self.fit_intercept = fit_intercept

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self.X_offset_ = (
            X.mean(axis=0) if self.fit_intercept else np.zeros(X.shape[1])
        )
        self._y_offset = y.mean() if self.fit_intercept else 0.0
        self._Xc, self._yc = (
            X - self.X_offset_,
            y - self._y_offset,
        )  # new arrays: X, y untouched
        self._L, self.coef_ = self._posterior(self.alpha, self.beta)
        L_inv = solve_triangular(self._L, np.eye(len(self._L)), lower=True)
        self.sigma_ = L_inv.T @ L_inv  # Σ = A⁻¹ = L⁻ᵀL⁻¹, exactly symmetric
        self.intercept_ = float(self._y_offset - self.X_offset_ @ self.coef_)
        self.log_marginal_likelihood_value_ = self.log_marginal_likelihood()
        return self

    def _posterior(self, alpha, beta):
        """Cholesky factor L of A = αI + βX_cᵀX_c and the posterior mean
        m = βA⁻¹X_cᵀy_c, by two triangular solves (no inverse)."""
        alpha, beta = _check_precisions(alpha, beta)
        d = self._Xc.shape[1]
        A = alpha * np.eye(d) + beta * (self._Xc.T @ self._Xc)
        L = cholesky(A, lower=True)  # A = LLᵀ
        half = solve_triangular(L, beta * (self._Xc.T @ self._yc), lower=True)
        m = solve_triangular(L.T, half, lower=False)  # m = L⁻ᵀL⁻¹ βX_cᵀy_c
        return L, m

    def log_marginal_likelihood(self, alpha=None, beta=None):
        r"""Log evidence :math:`\log p(y\mid X,\alpha,\beta)` of the training
        data, at the fitted precisions or at others (Bishop eq. 3.86):

        .. math:: \tfrac d2\log\alpha+\tfrac{n'}2\log\beta
                  -\tfrac\beta2\lVert y_c-X_cm\rVert^2
                  -\tfrac\alpha2\lVert m\rVert^2-\tfrac12\log\det A
                  -\tfrac{n'}2\log2\pi-\delta\,\tfrac12\log n

        with :math:`n'=n` and :math:`\delta=0` without an intercept. With the
        flat prior on the intercept (density 1), integrating :math:`b` out
        leaves :math:`n'=n-1` and :math:`\delta=1`.
        """
        alpha = self.alpha if alpha is None else alpha
        beta = self.beta if beta is None else beta
        L, m = (
            (self._L, self.coef_)
            if (alpha, beta) == (self.alpha, self.beta)
            else self._posterior(alpha, beta)
        )
        n, d = self._Xc.shape
        dof = n - 1 if self.fit_intercept else n
        misfit = (
            0.5 * beta * np.sum((self._yc - self._Xc @ m) ** 2)
            + 0.5 * alpha * m @ m
        )
        value = (
            0.5 * d * np.log(alpha)
            + 0.5 * dof * np.log(beta / (2 * np.pi))
            - misfit
            - np.log(np.diag(L)).sum()
        )  # ½ log det A = Σ log L_ii
        return float(value - 0.5 * np.log(n) if self.fit_intercept else value)

    def predict(self, X, return_std=False):
        r"""Posterior predictive mean :math:`x^\top m+b`, and with
        ``return_std`` its standard deviation
        :math:`\sqrt{(x-\bar x)^\top\Sigma(x-\bar x)+1/(n\beta)+1/\beta}`
        (the last term is the noise; the middle one, the intercept's
        uncertainty, is absent without an intercept)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        mean = X @ self.coef_ + self.intercept_
        if not return_std:
            return mean
        V = solve_triangular(
            self._L, (X - self.X_offset_).T, lower=True
        )  # xᵀΣx = ‖L⁻¹x‖²
        variance = (
            np.sum(V**2, axis=0) + self._intercept_variance() + 1.0 / self.beta
        )
        return mean, np.sqrt(variance)

    def _intercept_variance(self):
        return 1.0 / (len(self._yc) * self.beta) if self.fit_intercept else 0.0

    def sample_coef(self, n_samples=1, random_state=None):
        r"""Posterior draws of the weights and intercepts: arrays of shapes
        (n_samples, n_features) and (n_samples,). :math:`w=m+L^{-\top}z` with
        :math:`z\sim\mathcal N(0,I)` has covariance
        :math:`L^{-\top}L^{-1}=A^{-1}=\Sigma`."""
        rng = check_random_state(random_state)
        z = rng.standard_normal((len(self.coef_), n_samples))
        coefs = self.coef_ + solve_triangular(self._L.T, z, lower=False).T
        centre = self._y_offset + np.sqrt(
            self._intercept_variance()
        ) * rng.standard_normal(n_samples)
        intercepts = (
            centre - coefs @ self.X_offset_
            if self.fit_intercept
            else np.zeros(n_samples)
        )
        return coefs, intercepts

    def sample_y(self, X, n_samples=1, random_state=None):
        """Posterior draws of the regression function :math:`w^\\top x+b` (no noise) at the rows of
        ``X``: shape (n_query, n_samples), like ``GaussianProcessRegressor.sample_y``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        coefs, intercepts = self.sample_coef(n_samples, random_state)
        return X @ coefs.T + intercepts


def _check_precisions(alpha, beta):
    """``alpha`` and ``beta`` as floats, each positive and finite."""
    return tuple(
        check_scalar(
            value,
            name,
            low=0,
            high=np.inf,
            low_inclusive=False,
            high_inclusive=False,
        )
        for value, name in ((alpha, "alpha"), (beta, "beta"))
    )
