"""Gaussian process regression by a Cholesky factorisation (Rasmussen &
Williams, Algorithm 2.1), with the kernel's hyperparameters chosen by
maximising the evidence (R&W §5.4.1)."""

import numbers
import warnings

import numpy as np
from scipy.linalg import LinAlgError, cho_solve, cholesky, solve_triangular
from scipy.optimize import minimize
from sklearn.base import (
    BaseEstimator,
    MultiOutputMixin,
    RegressorMixin,
    clone,
)
from sklearn.utils.validation import validate_data

from ..exceptions import ConvergenceWarning
from .kernels import RBF, ConstantKernel, Kernel


class GaussianProcessRegressor(
    MultiOutputMixin, RegressorMixin, BaseEstimator
):
    r"""Gaussian process regression with a zero prior mean.

    Model: :math:`f\sim\mathcal{GP}(0,k_\theta)`,
    :math:`y_i=f(x_i)+\varepsilon_i`,
    :math:`\varepsilon_i\sim\mathcal N(0,\sigma^2)` with :math:`\sigma^2` =
    ``alpha``. With :math:`K_y = K + \sigma^2 I`, :math:`k_\star=k(X,x_\star)`
    and :math:`k_{\star\star}=k(x_\star,x_\star)`, the posterior of
    :math:`f(x_\star)` is

    .. math:: \mathcal N\bigl(k_\star^\top K_y^{-1}y,\;
              k_{\star\star}-k_\star^\top K_y^{-1}k_\star\bigr),

    and the log marginal likelihood (evidence) is

    .. math:: \log p(y\mid X,\theta)=-\tfrac12 y^\top K_y^{-1}y
              -\tfrac12\log\det K_y-\tfrac n2\log 2\pi .

    Everything goes through :math:`K_y=LL^\top` (R&W Alg. 2.1, cost
    :math:`n^3/3`); no inverse is formed. Before that, unless ``optimizer``
    is None, ``fit`` chooses the kernel's free hyperparameters by
    maximising the evidence over :math:`\theta` = their logarithms, inside
    ``kernel.bounds`` (type-II maximum likelihood, R&W §5.4.1). The
    evidence is not concave in :math:`\theta` and may have several local
    maxima (a wiggly noise-free fit and a smooth noisy one, say), so the
    search starts from the kernel's own values and from
    ``n_restarts_optimizer`` points drawn uniformly in the box of log
    bounds, and keeps the best optimum.

    Parameters
    ----------
    kernel : Kernel, optional
        Covariance function from :mod:`mllib.gaussian_process.kernels`; it
        is cloned. Default ``ConstantKernel() * RBF()`` (both hyperparameters
        free, bounds (1e-5, 1e5)), as in scikit-learn; before ``fit`` the
        prior uses ``ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")``, as
        scikit-learn's does.
    alpha : float or array of shape (n_samples,), default=1e-10
        Added to the diagonal of :math:`K`: the noise variance
        :math:`\sigma^2` (per sample if an array). The small default only
        keeps the Cholesky factorisation possible.
    optimizer : "fmin_l_bfgs_b", callable or None, default="fmin_l_bfgs_b"
        ``"fmin_l_bfgs_b"``: L-BFGS-B (``scipy.optimize.minimize``) on
        :math:`-\log p(y\mid X,\theta)` with its gradient (R&W eq. 5.9),
        inside ``kernel.bounds``. A callable is called as
        ``theta_opt, func_min = optimizer(obj_func, initial_theta,
        bounds=bounds)``, where ``obj_func(theta, eval_gradient=True)``
        returns the negative evidence (and its gradient), as in
        scikit-learn. ``None`` keeps the kernel's hyperparameters as given.
    n_restarts_optimizer : int, default=0
        Extra optimiser runs, from log-uniform random starts inside the
        bounds.
    normalize_y : bool, default=False
        Standardise ``y`` (each target) before fitting: the GP models the
        standardised targets and the evidence is theirs; ``predict`` undoes
        it.
    copy_X_train : bool, default=True
        Store copies of the training data in ``X_train_`` and ``y_train_``;
        if False, references (changing the arrays afterwards changes the
        predictions).
    n_targets : int, optional
        The number of targets, checked against ``y`` in ``fit``; before
        ``fit`` it sets the number of prior means returned (default 1).
    random_state : None, int, numpy.random.Generator or RandomState
        Draws the restarts' starting points. An int seeds numpy's
        ``RandomState``, as scikit-learn does, so that the same int gives the
        same starting points in both libraries.

    Attributes
    ----------
    X_train_ : ndarray of shape (n_samples, n_features)
    y_train_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        The training targets (standardised if ``normalize_y``).
    kernel_ : Kernel
        The kernel with the fitted hyperparameters.
    L_ : ndarray of shape (n_samples, n_samples)
        Lower Cholesky factor of :math:`K+\sigma^2I`.
    alpha_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        The weights :math:`c=(K+\sigma^2I)^{-1}y` (R&W's :math:`\alpha`; the
        name is scikit-learn's); the predictive mean is
        :math:`k_\star^\top c`.
    log_marginal_likelihood_value_ : float
        The evidence at ``kernel_.theta``, summed over the targets.
    n_features_in_ : int

    Notes
    -----
    Same parameters, defaults, attributes and numbers as
    ``sklearn.gaussian_process.GaussianProcessRegressor``; several targets
    share the kernel and its hyperparameters (the evidence is summed over
    them). Kernels are mllib's (their bounds must be positive and finite).
    Reference: Rasmussen & Williams (2006), ch. 2 and 5.
    """

    def __init__(
        self,
        kernel=None,
        *,
        alpha=1e-10,
        optimizer="fmin_l_bfgs_b",
        n_restarts_optimizer=0,
        normalize_y=False,
        copy_X_train=True,
        n_targets=None,
        random_state=None,
    ):
        self.kernel = kernel
        self.alpha = alpha
        self.optimizer = optimizer
        self.n_restarts_optimizer = n_restarts_optimizer
        self.normalize_y = normalize_y
        self.copy_X_train = copy_X_train
        self.n_targets = n_targets
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False  # before fit, predict uses the prior
        return tags

    def fit(self, X, y):
        r"""Fit to ``X`` of shape (n_samples, n_features) and ``y`` of shape
        (n_samples,) or (n_samples, n_targets); return self.

        The evidence chooses the kernel's hyperparameters (unless
        ``optimizer`` is None); then R&W Algorithm 2.1, lines 1-3."""
        X, y = self._validate_training_data(X, y)
        if self.optimizer is not None and self.kernel_.n_dims > 0:
            theta, negative_evidence = self._maximise_evidence()
            self.kernel_.theta = theta
            _warn_at_bounds(self.kernel_)
            self.log_marginal_likelihood_value_ = -negative_evidence
        else:
            self.log_marginal_likelihood_value_ = self.log_marginal_likelihood(
                self.kernel_.theta, clone_kernel=False
            )
        K_y = self.kernel_(X)
        K_y[np.diag_indices_from(K_y)] += self._noise  # K_y = K + σ²I
        self.L_ = self._cholesky(K_y)  # line 2: K_y = L Lᵀ
        self.alpha_ = cho_solve((self.L_, True), y)  # line 3: c = K_y⁻¹y
        return self

    def predict(self, X, return_std=False, return_cov=False):
        """Posterior mean at ``X``, shape (n_queries,) or (n_queries,
        n_targets), and its standard deviation (same shape) or covariance
        (n_queries, n_queries[, n_targets]) for the latent f (a
        ``WhiteKernel`` in the kernel adds its noise).

        R&W Algorithm 2.1, lines 4-6, for all test inputs at once. Before
        ``fit``, the prior: mean 0 and the kernel's covariance."""
        if return_std and return_cov:
            raise RuntimeError(
                "At most one of return_std or return_cov can be requested."
            )
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if not hasattr(self, "X_train_"):
            return self._prior(X, return_std, return_cov)
        K_star = self.kernel_(self.X_train_, X)  # column j is k⋆ of x⋆j
        mean = K_star.T @ self.alpha_  # line 4: f̄⋆ = k⋆ᵀc
        mean = self._y_train_std * mean + self._y_train_mean  # normalize_y
        if mean.ndim == 2 and mean.shape[1] == 1:
            mean = mean[:, 0]  # y of shape (n, 1): scikit-learn's shape
        if not (return_std or return_cov):
            return mean
        V = solve_triangular(self.L_, K_star, lower=True)  # line 5: L⁻¹k⋆
        if return_cov:
            cov = self.kernel_(X) - V.T @ V  # line 6: k⋆⋆ − vᵀv
            return mean, _per_target(cov, self._y_train_std**2)
        variance = self.kernel_.diag(X) - np.einsum("ij,ij->j", V, V)
        variance = _per_target(_clip_rounding(variance), self._y_train_std**2)
        return mean, np.sqrt(variance)

    def _prior(self, X, return_std, return_cov):
        """Mean 0 and the prior kernel's (co)variances at ``X``, one copy per
        target (scikit-learn's shapes)."""
        kernel = self.kernel
        if kernel is None:
            kernel = ConstantKernel(1.0, "fixed") * RBF(1.0, "fixed")
        n_targets = 1 if self.n_targets is None else self.n_targets
        mean = np.zeros((len(X), n_targets)).squeeze()
        if return_cov:
            return mean, _per_target(kernel(X), np.ones(n_targets))
        if return_std:
            variance = _per_target(kernel.diag(X), np.ones(n_targets))
            return mean, np.sqrt(variance)
        return mean

    def log_marginal_likelihood(
        self, theta=None, eval_gradient=False, clone_kernel=True
    ):
        r"""Log evidence at log hyperparameters ``theta`` (default: the
        fitted value), summed over the targets, and optionally its gradient
        (R&W eq. 5.9)

        .. math:: \tfrac12\operatorname{tr}\bigl((cc^\top-K_y^{-1})\,
                  \partial K_y/\partial\theta_j\bigr),\qquad c=K_y^{-1}y.

        Returns ``-inf`` (gradient 0) where :math:`K_y` is not positive
        definite, so an optimiser backs away. With ``clone_kernel=False``
        the fitted kernel ``kernel_`` itself is set to ``theta`` (the
        optimiser's way, which saves a copy); otherwise nothing stored on
        the estimator changes."""
        if theta is None:
            if eval_gradient:
                raise ValueError(
                    "Gradient can only be evaluated for theta!=None: pass "
                    "self.kernel_.theta."
                )
            return self.log_marginal_likelihood_value_
        if clone_kernel:
            kernel = self.kernel_.clone_with_theta(theta)
        else:
            kernel = self.kernel_
            kernel.theta = theta
        if eval_gradient:
            K, dK = kernel(self.X_train_, eval_gradient=True)  # dK[..., j]
        else:
            K = kernel(self.X_train_)
        K[np.diag_indices_from(K)] += self._noise  # K_y = K + σ²I
        try:
            L = cholesky(K, lower=True, check_finite=False)
        except LinAlgError:
            if eval_gradient:
                return -np.inf, np.zeros(kernel.n_dims)
            return -np.inf
        Y = self.y_train_.reshape(len(K), -1)  # one column per target
        C = cho_solve((L, True), Y, check_finite=False)  # c = K_y⁻¹y
        value = float(
            -0.5 * np.einsum("ik,ik->", Y, C)
            - Y.shape[1] * np.log(np.diag(L)).sum()
            - 0.5 * Y.size * np.log(2 * np.pi)
        )
        if not eval_gradient:
            return value
        # Σ_targets ccᵀ − t K_y⁻¹, then ½ tr(inner ∂K_y/∂θ_j) for every j
        # (both matrices symmetric); K_y⁻¹ costs O(n³), once
        inner = C @ C.T - Y.shape[1] * cho_solve(
            (L, True), np.eye(len(K)), check_finite=False
        )
        return value, 0.5 * np.einsum("ij,ijk->k", inner, dK)

    def _validate_training_data(self, X, y):
        """Check the parameters and the data; set ``kernel_``, ``_noise``,
        ``X_train_``, ``y_train_`` and the ``normalize_y`` shift and scale;
        return ``X`` and the (standardised) ``y``."""
        if not (
            self.optimizer is None
            or callable(self.optimizer)
            or (
                isinstance(self.optimizer, str)
                and self.optimizer == "fmin_l_bfgs_b"
            )
        ):
            raise ValueError(
                'optimizer must be "fmin_l_bfgs_b", a callable or None; '
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
        X, y = validate_data(
            self, X, y, dtype=np.float64, multi_output=True, y_numeric=True
        )
        n_targets = y.shape[1] if y.ndim == 2 else 1
        if self.n_targets is not None and n_targets != self.n_targets:
            raise ValueError(
                "The number of targets seen in `y` is different from the "
                f"parameter `n_targets`. Got {n_targets} != {self.n_targets}."
            )
        self._noise = _check_noise(self.alpha, len(y))
        self.kernel_ = clone(
            ConstantKernel() * RBF() if self.kernel is None else self.kernel
        )
        if self.normalize_y:
            self._y_train_mean = np.mean(y, axis=0)
            std = np.std(y, axis=0)
            # a constant target is left unscaled (scikit-learn's rule)
            self._y_train_std = np.where(
                std < 10 * np.finfo(float).eps, 1.0, std
            )
            y = (y - self._y_train_mean) / self._y_train_std
        else:
            shape = (n_targets,) if y.ndim == 2 else ()
            self._y_train_mean, self._y_train_std = (
                np.zeros(shape),
                np.ones(shape),
            )
        self.X_train_ = np.copy(X) if self.copy_X_train else X
        self.y_train_ = np.copy(y) if self.copy_X_train else y
        return self.X_train_, self.y_train_

    def _cholesky(self, K_y):
        """The lower Cholesky factor of ``K_y``, or a ``LinAlgError`` (a
        ``ValueError``) that says what to change when ``K_y`` is not
        numerically positive definite."""
        try:
            return cholesky(K_y, lower=True, check_finite=False)
        except LinAlgError:
            suggestion = max(100 * float(np.max(self._noise)), 1e-8)
            raise LinAlgError(
                f"K + alpha*I with kernel {self.kernel_} and "
                f"alpha={self.alpha} is not numerically positive definite "
                "(its Cholesky factorisation failed): nearby or repeated "
                "inputs make K singular to working precision. Increase "
                f"alpha, e.g. to {suggestion:g} (it is the noise variance "
                "added to the diagonal), or add a WhiteKernel."
            ) from None

    def _maximise_evidence(self):
        """Minimise −log p(y | X, θ) over θ = log hyperparameters, from the
        kernel's θ and from ``n_restarts_optimizer`` starts drawn uniformly
        in the box of log bounds; return the best (θ, −log evidence)."""

        def negative_evidence(theta, eval_gradient=True):
            if eval_gradient:
                value, gradient = self.log_marginal_likelihood(
                    theta, eval_gradient=True, clone_kernel=False
                )
                return -value, -gradient
            return -self.log_marginal_likelihood(theta, clone_kernel=False)

        bounds = self.kernel_.bounds
        starts = [self.kernel_.theta]
        if self.n_restarts_optimizer > 0:
            rng = _restart_generator(self.random_state)
            # one draw per restart, in scikit-learn's order
            starts += [
                rng.uniform(bounds[:, 0], bounds[:, 1])
                for _ in range(self.n_restarts_optimizer)
            ]
        optima = [
            self._run_optimizer(negative_evidence, start, bounds)
            for start in starts
        ]
        return min(optima, key=lambda optimum: optimum[1])

    def _run_optimizer(self, negative_evidence, start, bounds):
        if callable(self.optimizer):
            theta, value = self.optimizer(
                negative_evidence, start, bounds=bounds
            )
            return np.asarray(theta, dtype=float), float(value)
        run = minimize(
            negative_evidence,
            start,
            jac=True,
            method="L-BFGS-B",
            bounds=bounds,
        )
        if run.status != 0:
            warnings.warn(
                f"L-BFGS-B did not converge on the evidence after {run.nit} "
                f"iteration(s) (status={run.status}): {run.message}. Add "
                "restarts or rescale the data.",
                ConvergenceWarning,
                stacklevel=4,
            )
        return run.x, float(run.fun)

    def sample_y(self, X, n_samples=1, random_state=0):
        """Draws of the posterior process at ``X`` (of the prior before
        ``fit``): shape (n_queries, n_samples), or (n_queries, n_targets,
        n_samples).

        Each draw is ``mean + A z`` with ``z`` standard normal and ``A``
        a square root of the predictive covariance from its singular value
        decomposition (numpy's ``multivariate_normal``): the covariance is
        often singular (points near the data are almost certain), which a
        Cholesky factorisation would refuse. An int ``random_state`` seeds
        numpy's ``RandomState``, as in scikit-learn, so the draws agree."""
        rng = _restart_generator(random_state)
        mean, cov = self.predict(X, return_cov=True)
        if mean.ndim == 1:
            return rng.multivariate_normal(mean, cov, n_samples).T
        return np.stack(
            [
                rng.multivariate_normal(mean[:, t], cov[..., t], n_samples).T
                for t in range(mean.shape[1])
            ],
            axis=1,
        )


def _restart_generator(random_state):
    """A generator with ``uniform`` and ``multivariate_normal``: numpy's
    ``RandomState(random_state)`` for an int (scikit-learn's stream), the
    generator itself if one is given, fresh entropy for None (scikit-learn
    would draw from numpy's global state, which mllib never touches)."""
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, (numbers.Integral, np.integer)) and not (
        isinstance(random_state, bool)
    ):
        return np.random.RandomState(random_state)
    if isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        return random_state
    raise ValueError(
        "random_state must be None, an int, a numpy.random.Generator or a "
        f"numpy.random.RandomState; got {random_state!r}."
    )


def _warn_at_bounds(kernel):
    """A ``ConvergenceWarning`` for each fitted hyperparameter at (within
    ``np.isclose`` of) a bound, in log space: a larger box might give a
    larger evidence. scikit-learn warns alike, in the same words."""
    close = np.isclose(kernel.bounds, kernel.theta[:, None])
    free = [h for h in kernel.hyperparameters if not h.fixed]
    for (at_low, at_high), h in zip(close, free):
        if at_low or at_high:
            side, verb, bound = (
                ("lower", "Decreasing", h.bounds[0][0])
                if at_low
                else ("upper", "Increasing", h.bounds[0][1])
            )
            warnings.warn(
                f"The optimal value found for dimension 0 of parameter "
                f"{h.name} is close to the specified {side} bound {bound}. "
                f"{verb} the bound and calling fit again may find a better "
                "value.",
                ConvergenceWarning,
                stacklevel=3,
            )


def _check_noise(alpha, n_samples):
    """``alpha`` as an array of ``n_samples`` noise variances: one
    non-negative finite number for all samples, or one per sample."""
    try:
        noise = np.asarray(alpha, dtype=float)
    except (TypeError, ValueError):
        noise = None
    if noise is not None and noise.shape == (1,):
        noise = noise[0]  # scikit-learn reads a one-entry array as a number
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


def _per_target(matrix, scales):
    """``matrix`` (a variance vector or a covariance matrix) times the
    variance scale of each target: a trailing target axis when there are
    several targets, none for one (scikit-learn's shapes)."""
    scales = np.atleast_1d(scales)
    if len(scales) == 1:
        return matrix * scales[0]
    return matrix[..., None] * scales


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
