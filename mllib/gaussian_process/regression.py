"""Gaussian process regression by a Cholesky factorisation (Rasmussen & Williams, Algorithm 2.1)."""

import numbers
import warnings

import numpy as np
from scipy.linalg import cho_solve, cholesky, solve_triangular
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..validation import check_random_state
from .kernels import RBF, ConstantKernel, Kernel


class GaussianProcessRegressor(RegressorMixin, BaseEstimator):
    r"""Gaussian process regression with a zero prior mean.

    Model: :math:`f\sim\mathcal{GP}(0,k)`, :math:`y_i=f(x_i)+\varepsilon_i`,
    :math:`\varepsilon_i\sim\mathcal N(0,\sigma^2)` with :math:`\sigma^2` = ``alpha``. With
    :math:`K_y = K + \sigma^2 I` and :math:`k_*=k(X,x_*)`, the posterior of :math:`f(x_*)` is

    .. math:: \mathcal N\bigl(k_*^\top K_y^{-1}y,\; k(x_*,x_*)-k_*^\top K_y^{-1}k_*\bigr),

    and the log marginal likelihood (evidence) is
    :math:`\log p(y\mid X,\theta)=-\tfrac12 y^\top K_y^{-1}y-\tfrac12\log\det K_y-\tfrac n2\log 2\pi`.
    Everything goes through :math:`K_y=LL^\top` (R&W Alg. 2.1, cost :math:`n^3/3`); no inverse is formed.

    Parameters
    ----------
    kernel : Kernel, optional
        Covariance function from :mod:`mllib.gaussian_process.kernels`; it is cloned. Default
        ``ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")``, as in scikit-learn.
    alpha : float or array of shape (n_samples,)
        Added to the diagonal of :math:`K`: the noise variance :math:`\sigma^2` (per sample if an
        array). The small default only keeps the Cholesky factorisation possible.
    optimizer : None or "evidence"
        ``"evidence"`` maximises the log marginal likelihood over ``kernel.theta`` (log
        hyperparameters) with L-BFGS-B inside ``kernel.bounds``; ``None`` keeps the kernel as given.
    normalize_y : bool
        Standardise ``y`` before fitting (the GP models the standardised targets; the evidence
        is theirs), and undo it in ``predict``.
    n_restarts_optimizer : int
        Extra optimiser runs from log-uniform random starts inside the bounds.
    random_state : None, int or numpy.random.Generator
        Seeds the restarts.

    Attributes
    ----------
    X_train_, y_train_ : ndarray
        Copies of the training data (``y_train_`` standardised if ``normalize_y``).
    kernel_ : Kernel
        The kernel with the fitted hyperparameters.
    L_ : ndarray of shape (n_samples, n_samples)
        Lower Cholesky factor of :math:`K+\sigma^2I`.
    alpha_ : ndarray of shape (n_samples,)
        :math:`(K+\sigma^2I)^{-1}y`; the predictive mean is :math:`k_*^\top\alpha`.
    log_marginal_likelihood_value_ : float

    Notes
    -----
    Same parameters, attributes and numbers as ``sklearn.gaussian_process.GaussianProcessRegressor``
    (whose ``optimizer="fmin_l_bfgs_b"`` is our ``"evidence"``), for one output. Unlike
    scikit-learn, ``predict`` and ``sample_y`` raise ``NotFittedError`` before ``fit`` instead of
    using the prior. Reference: Rasmussen & Williams (2006), ch. 2 and 5.
    """

    def __init__(
        self,
        kernel=None,
        alpha=1e-10,
        optimizer=None,
        normalize_y=False,
        n_restarts_optimizer=0,
        random_state=None,
    ):
        self.kernel = kernel
        self.alpha = alpha
        self.optimizer = optimizer
        self.normalize_y = normalize_y
        self.n_restarts_optimizer = n_restarts_optimizer
        self.random_state = random_state

    def fit(self, X, y):
        if self.optimizer not in (None, "evidence"):
            raise ValueError(
                f'optimizer must be None or "evidence"; got {self.optimizer!r}.'
            )
        if not (self.kernel is None or isinstance(self.kernel, Kernel)):
            raise ValueError(
                "kernel must be None or a kernel from mllib.gaussian_process.kernels, such as "
                f"ConstantKernel(1.0) * RBF(1.0); got {self.kernel!r}."
            )
        if not (
            isinstance(self.n_restarts_optimizer, numbers.Integral)
            and self.n_restarts_optimizer >= 0
        ):
            raise ValueError(
                f"n_restarts_optimizer must be a non-negative integer; got {self.n_restarts_optimizer!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self._noise = _check_noise(self.alpha, len(y))
        default = ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")
        self.kernel_ = clone(default if self.kernel is None else self.kernel)
        self._y_mean, self._y_std = (
            (np.mean(y), np.std(y) or 1.0) if self.normalize_y else (0.0, 1.0)
        )
        self.X_train_, self.y_train_ = (
            X.copy(),
            (y - self._y_mean) / self._y_std,
        )

        if self.optimizer == "evidence" and self.kernel_.n_dims > 0:
            self.kernel_.theta = self._maximise_evidence(
                check_random_state(self.random_state)
            )

        K = self.kernel_(self.X_train_)
        K[np.diag_indices_from(K)] += self._noise  # K_y = K + sigma^2 I
        try:  # Alg. 2.1 lines 2-3
            self.L_, self.alpha_ = _factorise(K, self.y_train_)
        except np.linalg.LinAlgError:
            suggestion = max(100 * float(np.max(self._noise)), 1e-8)
            raise ValueError(
                f"K + alpha*I with kernel {self.kernel_} and alpha={self.alpha} is not numerically "
                "positive definite (its Cholesky factorisation failed): nearby or repeated inputs "
                f"make K singular to working precision. Increase alpha, e.g. to {suggestion:g} "
                "(it is the noise variance added to the diagonal), or add a WhiteKernel."
            ) from None
        self.log_marginal_likelihood_value_ = _evidence(
            self.L_, self.alpha_, self.y_train_
        )
        return self

    def _maximise_evidence(self, rng):
        """L-BFGS-B on −log p(y | X, θ) over θ = log hyperparameters, from the kernel's θ and
        ``n_restarts_optimizer`` log-uniform draws; the best run wins."""
        bounds = self.kernel_.bounds
        starts = [self.kernel_.theta] + [
            rng.uniform(bounds[:, 0], bounds[:, 1])
            for _ in range(self.n_restarts_optimizer)
        ]

        def negative_evidence(theta):
            value, gradient = self.log_marginal_likelihood(
                theta, eval_gradient=True
            )
            return -value, -gradient

        runs = [
            minimize(
                negative_evidence,
                start,
                jac=True,
                method="L-BFGS-B",
                bounds=bounds,
            )
            for start in starts
        ]
        best = min(runs, key=lambda run: run.fun)
        if not best.success:
            warnings.warn(
                f"L-BFGS-B did not converge on the evidence ({best.message}). Add restarts "
                "or rescale the data.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return best.x

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        r"""Log evidence at log hyperparameters ``theta`` (default: the fitted value), and optionally
        its gradient :math:`\tfrac12\operatorname{tr}\bigl((\alpha\alpha^\top-K_y^{-1})\,\partial K_y/\partial\theta_j\bigr)`
        (R&W eq. 5.9). Returns ``-inf`` (gradient 0) where :math:`K_y` is not positive definite,
        so an optimiser backs away. Nothing stored on the estimator changes."""
        if theta is None:
            if eval_gradient:
                raise ValueError(
                    "eval_gradient=True needs theta; pass self.kernel_.theta."
                )
            return self.log_marginal_likelihood_value_
        kernel = self.kernel_.clone_with_theta(theta)
        K, dK = (
            kernel(self.X_train_, eval_gradient=True)
            if eval_gradient
            else (kernel(self.X_train_), None)
        )
        K[np.diag_indices_from(K)] += (
            self._noise
        )  # K is a fresh array: nothing stored is modified
        try:
            L, alpha = _factorise(K, self.y_train_)
        except np.linalg.LinAlgError:
            return (
                (-np.inf, np.zeros(kernel.n_dims))
                if eval_gradient
                else -np.inf
            )
        value = _evidence(L, alpha, self.y_train_)
        if not eval_gradient:
            return value
        inner = np.outer(alpha, alpha) - cho_solve(
            (L, True), np.eye(len(K)), check_finite=False
        )
        return value, 0.5 * np.einsum(
            "ij,ijk->k", inner, dK
        )  # inner is symmetric

    def predict(self, X, return_std=False, return_cov=False):
        """Posterior mean at ``X`` (n_samples,), and its standard deviation (n_samples,) or covariance
        (n_samples, n_samples) for the latent :math:`f` (a ``WhiteKernel`` in the kernel adds its noise)."""
        if return_std and return_cov:
            raise ValueError(
                "Ask for at most one of return_std and return_cov."
            )
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        K_trans = self.kernel_(X, self.X_train_)
        mean = (
            self._y_std * (K_trans @ self.alpha_) + self._y_mean
        )  # Alg. 2.1 line 4
        if not (return_std or return_cov):
            return mean
        V = solve_triangular(
            self.L_, K_trans.T, lower=True, check_finite=False
        )  # line 5: v = L \ k_*
        if return_cov:
            return mean, self._y_std**2 * (self.kernel_(X) - V.T @ V)  # line 6
        variance = self.kernel_.diag(X) - np.einsum("ij,ij->j", V, V)
        if np.any(variance < 0):
            warnings.warn(
                "Predicted variances smaller than 0 (rounding error where the posterior is "
                "nearly certain). Setting those variances to 0.",
                stacklevel=2,
            )
            variance = np.maximum(variance, 0.0)
        return mean, self._y_std * np.sqrt(variance)

    def sample_y(self, X, n_samples=1, random_state=0):
        """Draws of the posterior process at ``X``, shape (n_query, n_samples).

        The covariance is often singular (points near the data are almost certain), so its square
        root comes from an eigendecomposition with rounding-level negative eigenvalues set to 0,
        not from a Cholesky factorisation."""
        mean, cov = self.predict(X, return_cov=True)
        eigenvalues, eigenvectors = np.linalg.eigh(cov)
        root = eigenvectors * np.sqrt(np.maximum(eigenvalues, 0.0))
        z = check_random_state(random_state).standard_normal(
            (len(mean), n_samples)
        )
        return mean[:, None] + root @ z


def _check_noise(alpha, n_samples):
    """``alpha`` as a float array: one non-negative finite noise variance, or one per sample."""
    try:
        noise = np.asarray(alpha, dtype=float)
    except (TypeError, ValueError):
        noise = None
    if (
        noise is None
        or noise.shape not in ((), (n_samples,))
        or not np.all(np.isfinite(noise))
        or np.any(noise < 0)
    ):
        raise ValueError(
            f"alpha must be a non-negative finite number or an array of {n_samples} of them "
            f"(one noise variance per sample); got {alpha!r}."
        )
    return noise


def _factorise(K, y):
    """Alg. 2.1 lines 2–3: ``L = cholesky(K)``, ``alpha = L^T \\ (L \\ y)``."""
    L = cholesky(K, lower=True, check_finite=False)
    return L, cho_solve((L, True), y, check_finite=False)


def _evidence(L, alpha, y):
    """Alg. 2.1 line 7: −½ yᵀα − Σ log L_ii − (n/2) log 2π, since ½ log det K = Σ log L_ii."""
    return float(
        -0.5 * y @ alpha
        - np.log(np.diag(L)).sum()
        - 0.5 * len(y) * np.log(2 * np.pi)
    )
