r"""Gaussian mixture models fitted by expectation-maximisation (EM)."""

import warnings

import numpy as np
from scipy.linalg import solve_triangular
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, DensityMixin
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted, validate_data

from ..cluster import KMeans, kmeans_plusplus
from ..exceptions import ConvergenceWarning
from ..validation import check_int, check_random_state, check_scalar
from .gaussian_components import (
    COVARIANCE_TYPES,
    covariances_from_precision_cholesky,
    estimate_gaussian_parameters,
    log_gaussian_density,
    precision_cholesky,
    precision_cholesky_from_precisions,
)

INIT_PARAMS = ("kmeans", "k-means++", "random", "random_from_data")


def e_step(X, weights, means, factors, covariance_type):
    r"""The E-step in log space: :math:`\log p(x_i)` (n,) and the log
    responsibilities (n, K),

    .. math::
        \log r_{ik}=a_{ik}-\log\sum_j e^{a_{ij}},\qquad
        a_{ik}=\log\pi_k+\log\mathcal N(x_i\mid\mu_k,\Sigma_k),

    normalised with ``logsumexp``, so a sample far from every component (all
    densities underflowing to 0) still gets responsibilities that sum to 1.
    """
    with np.errstate(divide="ignore"):  # a zero weight: log 0 = -inf, r = 0
        weighted = log_gaussian_density(
            X, means, factors, covariance_type
        ) + np.log(weights)
    log_norm = logsumexp(weighted, axis=1)
    return log_norm, weighted - log_norm[:, None]


def m_step(X, resp, reg_covar, covariance_type):
    r"""The M-step: :math:`\pi_k=N_k/n` and the weighted estimates of
    :func:`estimate_gaussian_parameters`.

    Returns (weights, means, covariances, precision Cholesky factors).
    """
    nk, means, covariances = estimate_gaussian_parameters(
        X, resp, reg_covar, covariance_type
    )
    return (
        nk / nk.sum(),
        means,
        covariances,
        precision_cholesky(covariances, covariance_type),
    )


def _is_positive_definite(precisions, covariance_type):
    if covariance_type in ("diag", "spherical"):
        return bool(np.all(precisions > 0))
    if not np.allclose(precisions, np.swapaxes(precisions, -1, -2)):
        return False
    try:
        precision_cholesky_from_precisions(precisions, covariance_type)
    except np.linalg.LinAlgError:
        return False
    return True


class GaussianMixture(DensityMixin, BaseEstimator):
    r"""A mixture of :math:`K` Gaussians, :math:`p(x)=\sum_k\pi_k\mathcal
    N(x\mid\mu_k,\Sigma_k)`, fitted by EM.

    EM maximises the log-likelihood :math:`\ell=\sum_i\log p(x_i)` by
    alternating the E-step (responsibilities :math:`r_{ik}=P(z_i=k\mid x_i)`)
    and the M-step (weighted estimates); each iteration does not decrease
    :math:`\ell` (exactly so for ``reg_covar=0``). It stops when the mean
    log-likelihood :math:`\ell/n` changes by less than ``tol``, keeping the
    best of ``n_init`` runs.

    Parameters
    ----------
    n_components : int, default 1
    covariance_type : {"full", "tied", "diag", "spherical"}, default "full"
    tol : float, default 1e-3
        On the change of the per-sample mean log-likelihood.
    reg_covar : float, default 1e-6
        Added to the diagonal of every covariance: a floor that keeps the
        likelihood bounded.
    max_iter : int, default 100
    n_init : int, default 1
    init_params : {"kmeans", "k-means++", "random", "random_from_data"}
        Initial responsibilities: k-means labels, k-means++ seeds, uniform
        random (normalised), or random samples.
    weights_init, means_init, precisions_init : array-like, optional
        Initial parameters, replacing those from ``init_params`` (precisions in
        the shape of ``covariances_``). If all three are given, no random
        initialisation happens.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    weights_, means_, covariances_, precisions_, precisions_cholesky_
        Of shapes (K,), (K, d) and as in
        :mod:`mllib.mixture.gaussian_components`.
    converged_ : bool
    n_iter_ : int
    lower_bound_ : float
        Mean log-likelihood computed by the last E-step, i.e. of the parameters
        *before* the last M-step; the final parameters score at least as well
        (monotonicity).
    lower_bounds_ : list of float
        ``lower_bound_`` after every iteration of the best run.
    n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.mixture.GaussianMixture`` (same objective, M-step,
    ``reg_covar``, stopping rule and attributes); from the same initial
    parameters both take the same EM steps. The k-means initialisation uses
    :class:`mllib.cluster.KMeans`.

    References
    ----------
    Dempster, Laird & Rubin, J. R. Stat. Soc. B 39 (1977); Bishop, *Pattern
    Recognition and Machine Learning*, §9.2–9.4.
    """

    def __init__(
        self,
        n_components=1,
        *,
        covariance_type="full",
        tol=1e-3,
        reg_covar=1e-6,
        max_iter=100,
        n_init=1,
        init_params="kmeans",
        weights_init=None,
        means_init=None,
        precisions_init=None,
        random_state=None,
    ):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.tol = tol
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.precisions_init = precisions_init
        self.random_state = random_state

    def fit(self, X, y=None):
        """Fit to ``X`` of shape (n_samples, n_features); ``y`` is ignored.
        Returns self."""
        self.fit_predict(X)
        return self

    def fit_predict(self, X, y=None):
        """Fit, then return the most probable component of each sample, shape
        (n_samples,)."""
        X = validate_data(self, X, dtype=np.float64)
        n_components, tol, reg_covar, max_iter, n_init, given = (
            self._check_parameters(X)
        )
        kind = self.covariance_type
        rng = check_random_state(self.random_state)
        best, best_bound = None, -np.inf
        for _ in range(n_init):
            params = self._initialize(X, rng, n_components, reg_covar, given)
            bound, bounds, converged, n_iter = -np.inf, [], False, 0
            for n_iter in range(1, max_iter + 1):
                log_norm, log_resp = e_step(
                    X, params[0], params[1], params[3], kind
                )
                previous, bound = bound, float(np.mean(log_norm))
                bounds.append(bound)
                params = m_step(X, np.exp(log_resp), reg_covar, kind)
                if abs(bound - previous) < tol:
                    converged = True
                    break
            if best is None or bound > best_bound:
                best, best_bound = (params, n_iter, bounds, converged), bound
        params, self.n_iter_, self.lower_bounds_, self.converged_ = best
        (
            self.weights_,
            self.means_,
            self.covariances_,
            self.precisions_cholesky_,
        ) = params
        self.lower_bound_ = best_bound
        U = self.precisions_cholesky_
        self.precisions_ = (
            U**2
            if kind in ("diag", "spherical")
            else U @ np.swapaxes(U, -1, -2)
        )
        if not self.converged_ and max_iter > 0:
            warnings.warn(
                f"EM did not converge in max_iter={max_iter} iterations "
                "(the best run's last "
                "change in mean log-likelihood was at least tol); "
                "increase max_iter or tol.",
                ConvergenceWarning,
            )
        # final E-step: agrees with predict(X)
        return np.argmax(self._e_step(X)[1], axis=1)

    def _check_parameters(self, X):
        n_components = check_int(self.n_components, "n_components", low=1)
        if n_components > len(X):
            raise ValueError(
                f"n_components={n_components} is larger than the number "
                f"of samples ({len(X)})."
            )
        if self.covariance_type not in COVARIANCE_TYPES:
            raise ValueError(
                f"covariance_type must be one of {COVARIANCE_TYPES}; got "
                f"{self.covariance_type!r}."
            )
        if self.init_params not in INIT_PARAMS:
            raise ValueError(
                f"init_params must be one of {INIT_PARAMS}; got "
                f"{self.init_params!r}."
            )
        return (
            n_components,
            check_scalar(self.tol, "tol", low=0),
            check_scalar(self.reg_covar, "reg_covar", low=0),
            check_int(self.max_iter, "max_iter", low=0),
            check_int(self.n_init, "n_init", low=1),
            self._check_initial_parameters(n_components, X.shape[1]),
        )

    def _check_initial_parameters(self, K, d):
        shapes = {
            "weights_init": (K,),
            "means_init": (K, d),
            "precisions_init": {
                "full": (K, d, d),
                "tied": (d, d),
                "diag": (K, d),
                "spherical": (K,),
            }[self.covariance_type],
        }
        given = {}
        for name, shape in shapes.items():
            value = getattr(self, name)
            if value is not None:
                given[name] = check_array(
                    value,
                    ensure_2d=False,
                    allow_nd=True,
                    dtype=np.float64,
                    input_name=name,
                )
                if given[name].shape != shape:
                    raise ValueError(
                        f"{name} must have shape {shape} for "
                        f"n_components={K}, {d} features and "
                        f"covariance_type={self.covariance_type!r}; got "
                        f"{given[name].shape}."
                    )
        weights = given.get("weights_init")
        if weights is not None and (
            np.any(weights < 0) or abs(weights.sum() - 1) > 1e-8
        ):
            raise ValueError(
                "weights_init must be non-negative and sum to 1; got "
                f"sum {weights.sum()!r}."
            )
        precisions = given.get("precisions_init")
        if precisions is not None and not _is_positive_definite(
            precisions, self.covariance_type
        ):
            raise ValueError(
                "precisions_init must hold symmetric positive definite "
                "matrices (positive numbers "
                f"for covariance_type={self.covariance_type!r})."
            )
        return given

    def _initialize(self, X, rng, n_components, reg_covar, given):
        kind = self.covariance_type
        weights = covariances = means = None
        if len(given) < 3:
            resp = self._initial_responsibilities(X, rng, n_components)
            nk, means, covariances = estimate_gaussian_parameters(
                X, resp, reg_covar, kind
            )
            weights = nk / len(X)
        weights = given.get("weights_init", weights)
        means = given.get("means_init", means)
        if "precisions_init" in given:
            factors = precision_cholesky_from_precisions(
                given["precisions_init"], kind
            )
            covariances = covariances_from_precision_cholesky(factors, kind)
        else:
            factors = precision_cholesky(covariances, kind)
        return weights, means, covariances, factors

    def _initial_responsibilities(self, X, rng, K):
        if self.init_params == "kmeans":
            return np.eye(K)[
                KMeans(K, n_init=1, random_state=rng).fit(X).labels_
            ]
        if self.init_params == "random":
            resp = rng.uniform(size=(len(X), K))
            return resp / resp.sum(axis=1, keepdims=True)
        chosen = (
            kmeans_plusplus(X, K, random_state=rng)[1]
            if self.init_params == "k-means++"
            else rng.choice(len(X), K, replace=False)
        )
        resp = np.zeros((len(X), K))
        resp[chosen, np.arange(K)] = 1.0
        return resp

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _e_step(self, X):
        return e_step(
            X,
            self.weights_,
            self.means_,
            self.precisions_cholesky_,
            self.covariance_type,
        )

    def score_samples(self, X):
        r"""Log-density :math:`\log p(x_i)` of each row of ``X``, shape
        (n_samples,)."""
        return self._e_step(self._check_X(X))[0]

    def score(self, X, y=None):
        """Mean log-density of the rows of ``X``."""
        return float(np.mean(self.score_samples(X)))

    def predict_proba(self, X):
        r"""Responsibilities :math:`P(z=k\mid x_i)`, shape (n_samples,
        n_components)."""
        return np.exp(self._e_step(self._check_X(X))[1])

    def predict(self, X):
        """Most probable component of each row of ``X``, shape (n_samples,)."""
        return np.argmax(self._e_step(self._check_X(X))[1], axis=1)

    def _n_parameters(self):
        K, d = self.means_.shape
        covariance = {
            "full": K * d * (d + 1) / 2,
            "tied": d * (d + 1) / 2,
            "diag": K * d,
            "spherical": K,
        }
        return int(covariance[self.covariance_type] + K * d + K - 1)

    def bic(self, X):
        r"""Bayesian information criterion :math:`-2\ell+p\log n` on ``X``
        (lower is better)."""
        return -2 * self.score(X) * len(X) + self._n_parameters() * np.log(
            len(X)
        )

    def aic(self, X):
        r"""Akaike information criterion :math:`-2\ell+2p` on ``X`` (lower is
        better)."""
        return -2 * self.score(X) * len(X) + 2 * self._n_parameters()

    def sample(self, n_samples=1):
        r"""Draw ``n_samples`` points: returns ``X`` (n_samples, d) and their
        components ``y``.

        :math:`x=\mu_k+U_k^{-\top}z` with :math:`z\sim\mathcal N(0,I)` has
        covariance :math:`U_k^{-\top}U_k^{-1}=\Sigma_k`; the triangular solve
        replaces an inverse.
        """
        n_samples = check_int(n_samples, "n_samples", low=1)
        check_is_fitted(self)
        rng = check_random_state(self.random_state)
        counts = rng.multinomial(n_samples, self.weights_)
        draws = []
        for k, (mean, count) in enumerate(zip(self.means_, counts)):
            U = (
                self.precisions_cholesky_
                if self.covariance_type == "tied"
                else self.precisions_cholesky_[k]
            )
            z = rng.standard_normal((count, len(mean)))
            draws.append(
                mean
                + (
                    solve_triangular(U, z.T, trans="T").T
                    if U.ndim == 2
                    else z / U
                )
            )
        return np.vstack(draws), np.repeat(np.arange(len(counts)), counts)
