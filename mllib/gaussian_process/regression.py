"""Gaussian process regression by a Cholesky factorisation (Rasmussen &
Williams, Algorithm 2.1)."""

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
    :math:`\varepsilon_i\sim\mathcal N(0,\sigma^2)` with :math:`\sigma^2` =
    ``alpha``. With :math:`K_y = K + \sigma^2 I`, :math:`k_\star=k(X,x_\star)`
    and :math:`k_{\star\star}=k(x_\star,x_\star)`, the posterior of
    :math:`f(x_\star)` is

    .. math:: \mathcal N\bigl(k_\star^\top K_y^{-1}y,\;
              k_{\star\star}-k_\star^\top K_y^{-1}k_\star\bigr),

    and the log marginal likelihood (evidence) is
    :math:`\log p(y\mid X,\theta)=-\tfrac12 y^\top K_y^{-1}y
    -\tfrac12\log\det K_y-\tfrac n2\log 2\pi`. Everything goes through
    :math:`K_y=LL^\top` (R&W Alg. 2.1, cost :math:`n^3/3`); no inverse is
    formed.

    Parameters
    ----------
    kernel : Kernel, optional
        Covariance function from :mod:`mllib.gaussian_process.kernels`; it is
        cloned. Default ``ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")``,
        as in scikit-learn.
    alpha : float or array of shape (n_samples,)
        Added to the diagonal of :math:`K`: the noise variance
        :math:`\sigma^2` (per sample if an array). The small default only
        keeps the Cholesky factorisation possible.
    optimizer : None or "evidence"
        ``"evidence"`` maximises the log marginal likelihood over
        ``kernel.theta`` (log hyperparameters) with L-BFGS-B inside
        ``kernel.bounds``; ``None`` keeps the kernel as given.
    normalize_y : bool
        Standardise ``y`` before fitting (the GP models the standardised
        targets; the evidence is theirs), and undo it in ``predict``.
    n_restarts_optimizer : int
        Extra optimiser runs from log-uniform random starts inside the
        bounds.
    random_state : None, int or numpy.random.Generator
        Seeds the restarts.

    Attributes
    ----------
    X_train_, y_train_ : ndarray
        Copies of the training data (``y_train_`` standardised if
        ``normalize_y``).
    kernel_ : Kernel
        The kernel with the fitted hyperparameters.
    L_ : ndarray of shape (n_samples, n_samples)
        Lower Cholesky factor of :math:`K+\sigma^2I`.
    alpha_ : ndarray of shape (n_samples,)
        The weights :math:`c=(K+\sigma^2I)^{-1}y` (R&W's :math:`\alpha`; the
        name is scikit-learn's); the predictive mean is
        :math:`k_\star^\top c`.
    log_marginal_likelihood_value_ : float

    Notes
    -----
    Same parameters, attributes and numbers as
    ``sklearn.gaussian_process.GaussianProcessRegressor`` (whose
    ``optimizer="fmin_l_bfgs_b"`` is our ``"evidence"``), for one output.
    Unlike scikit-learn, ``predict`` and ``sample_y`` raise
    ``NotFittedError`` before ``fit`` instead of using the prior.
    Reference: Rasmussen & Williams (2006), ch. 2 and 5.
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
        r"""Fit to ``X`` of shape (n_samples, n_features) and ``y`` of shape
        (n_samples,); return self.

        R&W Algorithm 2.1, lines 1-3 and 7 (after the evidence chooses the
        kernel's hyperparameters, if ``optimizer="evidence"``)."""
        X, y = self._validate_training_data(X, y)
        if self.optimizer == "evidence" and self.kernel_.n_dims > 0:
            self.kernel_.theta = self._maximise_evidence(
                check_random_state(self.random_state)
            )
        K_y = self.kernel_(X) + np.diag(self._noise)  # K_y = K + σ²I
        self.L_ = self._cholesky(K_y)  # line 2: K_y = L Lᵀ
        self.alpha_ = cho_solve((self.L_, True), y)  # line 3: c = K_y⁻¹y
        self.log_marginal_likelihood_value_ = _evidence(
            self.L_, self.alpha_, y
        )  # line 7
        return self

    def predict(self, X, return_std=False, return_cov=False):
        """Posterior mean at ``X`` (n_samples,), and its standard deviation
        (n_samples,) or covariance (n_samples, n_samples) for the latent f
        (a ``WhiteKernel`` in the kernel adds its noise).

        R&W Algorithm 2.1, lines 4-6, for all test inputs at once."""
        X = self._validate_test_data(X, return_std, return_cov)
        K_star = self.kernel_(self.X_train_, X)  # column j is k⋆ of x⋆j
        mean = K_star.T @ self.alpha_  # line 4: f̄⋆ = k⋆ᵀc
        mean = self._y_std * mean + self._y_mean  # undo normalize_y
        if not (return_std or return_cov):
            return mean
        V = solve_triangular(self.L_, K_star, lower=True)  # line 5: L⁻¹k⋆
        if return_cov:
            cov = self.kernel_(X) - V.T @ V  # line 6: k⋆⋆ − vᵀv
            return mean, self._y_std**2 * cov
        variance = self.kernel_.diag(X) - np.sum(V**2, axis=0)
        return mean, self._y_std * np.sqrt(_clip_rounding(variance))

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        r"""Log evidence at log hyperparameters ``theta`` (default: the
        fitted value), and optionally its gradient (R&W eq. 5.9)

        .. math:: \tfrac12\operatorname{tr}\bigl((cc^\top-K_y^{-1})\,
                  \partial K_y/\partial\theta_j\bigr),\qquad c=K_y^{-1}y.

        Returns ``-inf`` (gradient 0) where :math:`K_y` is not positive
        definite, so an optimiser backs away. Nothing stored on the estimator
        changes."""
        if theta is None:
            if eval_gradient:
                raise ValueError(
                    "eval_gradient=True needs theta; pass self.kernel_.theta."
                )
            return self.log_marginal_likelihood_value_
        kernel = self.kernel_.clone_with_theta(theta)
        X, y = self.X_train_, self.y_train_
        if eval_gradient:
            K, dK = kernel(X, eval_gradient=True)  # dK[:, :, j] = ∂K/∂θ_j
        else:
            K = kernel(X)
        K_y = K + np.diag(self._noise)
        try:
            L = cholesky(K_y, lower=True)
        except np.linalg.LinAlgError:
            if eval_gradient:
                return -np.inf, np.zeros(kernel.n_dims)
            return -np.inf
        c = cho_solve((L, True), y)  # c = K_y⁻¹y
        value = _evidence(L, c, y)
        if not eval_gradient:
            return value
        K_y_inverse = cho_solve((L, True), np.eye(len(y)))  # O(n³), once
        inner = np.outer(c, c) - K_y_inverse
        # ½ tr(inner ∂K_y/∂θ_j) for every j; inner and ∂K_y are symmetric
        return value, 0.5 * np.einsum("ij,ijk->k", inner, dK)

    def _validate_training_data(self, X, y):
        """Check the parameters and the data; set ``kernel_``, ``_noise``,
        ``X_train_``, ``y_train_`` and the ``normalize_y`` shift and scale;
        return ``X`` and the (standardised) ``y``."""
        if self.optimizer not in (None, "evidence"):
            raise ValueError(
                'optimizer must be None or "evidence"; '
                f"got {self.optimizer!r}."
            )
        if not (self.kernel is None or isinstance(self.kernel, Kernel)):
            raise ValueError(
                "kernel must be None or a kernel from "
                "mllib.gaussian_process.kernels, such as "
                f"ConstantKernel(1.0) * RBF(1.0); got {self.kernel!r}."
            )
        if not (
            isinstance(self.n_restarts_optimizer, numbers.Integral)
            and self.n_restarts_optimizer >= 0
        ):
            raise ValueError(
                "n_restarts_optimizer must be a non-negative integer; "
                f"got {self.n_restarts_optimizer!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self._noise = _check_noise(self.alpha, len(y))
        default = ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")
        self.kernel_ = clone(default if self.kernel is None else self.kernel)
        self._y_mean, self._y_std = (
            (np.mean(y), np.std(y) or 1.0) if self.normalize_y else (0.0, 1.0)
        )
        self.X_train_ = X.copy()
        self.y_train_ = (y - self._y_mean) / self._y_std
        return self.X_train_, self.y_train_

    def _validate_test_data(self, X, return_std, return_cov):
        if return_std and return_cov:
            raise ValueError(
                "Ask for at most one of return_std and return_cov."
            )
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _cholesky(self, K_y):
        """The lower Cholesky factor of ``K_y``, or a ``ValueError`` that
        says what to change when ``K_y`` is not numerically positive
        definite."""
        try:
            return cholesky(K_y, lower=True)
        except np.linalg.LinAlgError:
            suggestion = max(100 * float(np.max(self._noise)), 1e-8)
            raise ValueError(
                f"K + alpha*I with kernel {self.kernel_} and "
                f"alpha={self.alpha} is not numerically positive definite "
                "(its Cholesky factorisation failed): nearby or repeated "
                "inputs make K singular to working precision. Increase "
                f"alpha, e.g. to {suggestion:g} (it is the noise variance "
                "added to the diagonal), or add a WhiteKernel."
            ) from None

    def _maximise_evidence(self, rng):
        """L-BFGS-B on −log p(y | X, θ) over θ = log hyperparameters, from
        the kernel's θ and ``n_restarts_optimizer`` log-uniform draws; the
        best run wins."""
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
                f"L-BFGS-B did not converge on the evidence ({best.message})."
                " Add restarts or rescale the data.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return best.x

    def sample_y(self, X, n_samples=1, random_state=0):
        """Draws of the posterior process at ``X``, shape
        (n_query, n_samples).

        The covariance is often singular (points near the data are almost
        certain), so its square root comes from an eigendecomposition with
        rounding-level negative eigenvalues set to 0, not from a Cholesky
        factorisation."""
        mean, cov = self.predict(X, return_cov=True)
        eigenvalues, eigenvectors = np.linalg.eigh(cov)
        root = eigenvectors * np.sqrt(np.maximum(eigenvalues, 0.0))
        z = check_random_state(random_state).standard_normal(
            (len(mean), n_samples)
        )
        return mean[:, None] + root @ z


def _check_noise(alpha, n_samples):
    """``alpha`` as an array of ``n_samples`` noise variances: one
    non-negative finite number for all samples, or one per sample."""
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
            "alpha must be a non-negative finite number or an array of "
            f"{n_samples} of them (one noise variance per sample); "
            f"got {alpha!r}."
        )
    return np.broadcast_to(noise, (n_samples,))


def _clip_rounding(variance):
    """Variances with rounding-level negative values set to 0, with a
    warning (where the posterior is nearly certain, k⋆⋆ − vᵀv can come out
    slightly below 0)."""
    if np.any(variance < 0):
        warnings.warn(
            "Predicted variances smaller than 0 (rounding error where the "
            "posterior is nearly certain). Setting those variances to 0.",
            stacklevel=3,
        )
    return np.maximum(variance, 0.0)


def _evidence(L, c, y):
    """Alg. 2.1 line 7: −½ yᵀc − Σ log L_ii − (n/2) log 2π, where
    c = K_y⁻¹y and ½ log det K_y = Σ log L_ii."""
    return float(
        -0.5 * y @ c
        - np.log(np.diag(L)).sum()
        - 0.5 * len(y) * np.log(2 * np.pi)
    )
