r"""Principal component analysis: the orthogonal directions of largest
variance."""

from numbers import Integral, Real

import numpy as np
from scipy.linalg import eigh, svd
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
)
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted, validate_data

SOLVERS = ("auto", "full", "covariance_eigh")


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Principal component analysis by the SVD of the centred data or ``eigh``
    of its covariance.

    With :math:`X_c = X - \mathbf 1\bar x^\top` the centred data and :math:`S =
    X_c^\top X_c/(n-1)` the sample covariance, the :math:`j`-th principal axis
    :math:`u_j` maximises the variance of the projections,

    .. math::

        u_j = \arg\max_{\lVert u\rVert = 1,\ u\perp u_1,\dots,u_{j-1}}
            u^\top S u ,

    so :math:`S u_j = \lambda_j u_j` with
    :math:`\lambda_1\ge\lambda_2\ge\dots`; equivalently the first :math:`k`
    axes minimise the mean squared reconstruction error
    :math:`\frac1n\sum_i\lVert x_i - \bar x - U_kU_k^\top(x_i-\bar x)\rVert^2`.
    If :math:`X_c = U\Sigma V^\top` is the thin SVD, the axes are the rows of
    :math:`V^\top` and :math:`\lambda_j = \sigma_j^2/(n-1)` (Jolliffe 2002, ch.
    1 and 3.5).

    Parameters
    ----------
    n_components : int, float in (0, 1) or None, default=None
        Number :math:`k` of components kept; ``None`` keeps :math:`\min(n, d)`.
        A float keeps the smallest :math:`k` whose cumulative
        explained-variance ratio *exceeds* it.
    whiten : bool, default=False
        Divide each projection by :math:`\sqrt{\lambda_j}`, so the transformed
        training data have identity sample covariance. Raises ``ValueError`` if
        a kept component has (numerically) zero variance, instead of dividing
        by it.
    svd_solver : {"auto", "full", "covariance_eigh"}, default="auto"
        ``"full"``: LAPACK SVD of :math:`X_c`, :math:`O(nd\min(n,d))`, every
        singular value accurate to about
        :math:`\varepsilon_{\text{mach}}\sigma_1`. ``"covariance_eigh"``:
        ``eigh`` of the :math:`d\times d` matrix :math:`S`, :math:`O(nd^2 +
        d^3)`, fastest when :math:`n\gg d`, but forming :math:`S` squares the
        condition number, so eigenvalues below about
        :math:`\varepsilon_{\text{mach}}\lambda_1` are lost. ``"auto"``:
        ``"covariance_eigh"`` when :math:`n\ge 10d` and :math:`d\le 1000`, else
        ``"full"``.

    Attributes
    ----------
    components_ : ndarray of shape (n_components_, n_features)
        Principal axes (orthonormal rows), by decreasing variance. **Sign
        convention**: the entry of largest absolute value in each row is
        positive (the first such entry on a tie), as scikit-learn's
        ``svd_flip(..., u_based_decision=False)`` (scikit-learn 1.5 and later),
        so both solvers return the same axes.
    explained_variance_ : ndarray of shape (n_components_,)
        :math:`\lambda_j`, the sample variance (divisor :math:`n-1`) along each
        axis.
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        :math:`\lambda_j/\sum_{l}\lambda_l`, the sum running over *all*
        :math:`\min(n, d)` components (the total variance
        :math:`\operatorname{tr}S`).
    singular_values_ : ndarray of shape (n_components_,)
        :math:`\sigma_j = \sqrt{(n-1)\lambda_j}`, the singular values of
        :math:`X_c`.
    noise_variance_ : float
        :math:`\sigma^2`, the maximum-likelihood noise variance of
        probabilistic PCA: the mean of the discarded eigenvalues
        :math:`\frac{1}{q-k}\sum_{j>k}\lambda_j` over all :math:`q =
        \min(n, d)` of them, and 0 when :math:`k = q`. Does not depend on
        ``whiten``.
    mean_ : ndarray of shape (n_features,)
    n_components_ : int
    n_samples_ : int
    n_features_in_ : int

    Notes
    -----
    **Probabilistic PCA.** :meth:`score_samples`, :meth:`score`,
    :meth:`get_covariance` and :meth:`get_precision` read the fit as the
    maximum-likelihood fit of probabilistic PCA (Tipping & Bishop 1999): a
    latent :math:`z\sim\mathcal N(0, I_k)` generates

    .. math::

        x = Wz + \mu + \varepsilon,\qquad
        \varepsilon\sim\mathcal N(0, \sigma^2 I_d),

    so :math:`x\sim\mathcal N(\mu, C)` with :math:`C = WW^\top +
    \sigma^2 I_d` (:math:`W` is :math:`d\times k`). With :math:`S_n =
    \frac1n\sum_i(x_i-\bar x)(x_i-\bar x)^\top = \sum_j\tilde\lambda_j
    u_ju_j^\top`, the log-likelihood :math:`-\frac n2(d\log 2\pi + \log\det
    C + \operatorname{tr}C^{-1}S_n)` is maximised (:math:`k < d`) by
    :math:`\mu = \bar x`,

    .. math::

        W = U_k(\tilde\Lambda_k - \sigma^2 I_k)^{1/2}R,\qquad
        \sigma^2 = \frac{1}{d-k}\sum_{j=k+1}^{d}\tilde\lambda_j

    for any rotation :math:`R` (Tipping & Bishop 1999, eqs. 7-8). As
    :math:`\sigma^2\to 0` the posterior mean of :math:`z` tends to the
    whitened PCA scores. This class, as scikit-learn's, plugs in the
    eigenvalues :math:`\lambda_j = \frac{n}{n-1}\tilde\lambda_j` of
    :math:`S` (divisor :math:`n-1`, over its :math:`\min(n, d)`
    eigenvalues): ``noise_variance_`` is the mean of the discarded
    :math:`\lambda_j` and :math:`C = U_k(\Lambda_k - \sigma^2 I)U_k^\top +
    \sigma^2 I` with :math:`U_k^\top` = ``components_``, the maximiser
    scaled by :math:`n/(n-1)`.

    ``sklearn.decomposition.PCA`` with the same ``n_components``, ``whiten``
    and ``svd_solver`` gives the same attributes and transforms (one
    difference: where scikit-learn's ``"auto"`` would pick its approximate
    randomized solver, this one uses ``"full"``). No ``"mle"`` choice of
    :math:`k`, sparse input, or randomized/ARPACK solvers.

    **One deliberate difference**, with ``whiten=True``: whitening changes
    only :meth:`transform`, not the model of :math:`x`, so
    :meth:`get_covariance`, :meth:`get_precision` and the scores here do
    not depend on ``whiten``. scikit-learn (1.9) multiplies its unit-norm
    ``components_`` by :math:`\sqrt{\lambda_j}` there, giving
    :math:`U_k\operatorname{diag}(\lambda_j(\lambda_j-\sigma^2))U_k^\top
    + \sigma^2 I`, whose trace is not the data's total variance and whose
    training log-likelihood is lower than the maximum (scikit-learn issue
    #13898). With ``whiten=False`` the two agree.

    References
    ----------
    Tipping, M. E. and Bishop, C. M. (1999). Probabilistic principal
    component analysis. *J. R. Statist. Soc. B* 61(3), 611-622.
    """

    def __init__(self, n_components=None, *, whiten=False, svd_solver="auto"):
        self.n_components = n_components
        self.whiten = whiten
        self.svd_solver = svd_solver

    def fit(self, X, y=None):
        """Fit on ``X`` of shape (n_samples, n_features); ``y`` is ignored.
        Returns self."""
        X = self._validated_training_data(X)
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        X_centred = X - self.mean_  # a new array: the caller's X is untouched
        if self._solver(n, d) == "full":
            # X_c = A Σ Vᵀ: the axes are the rows of Vᵀ, λ_j = σ_j²/(n - 1)
            _, singular_values, Vt = svd(
                X_centred, full_matrices=False, check_finite=False
            )
            variances = singular_values**2 / (n - 1)
        else:
            # S = V Λ Vᵀ, formed from the centred data: the shortcut
            # XᵀX - n x̄x̄ᵀ cancels catastrophically when the mean is large
            eigenvalues, V = eigh(
                X_centred.T @ X_centred / (n - 1), check_finite=False
            )
            # eigh sorts ascending; rounding can leave a zero slightly < 0
            variances = np.clip(eigenvalues[::-1][: min(n, d)], 0.0, None)
            Vt = V[:, ::-1].T[: min(n, d)]
            singular_values = np.sqrt(variances * (n - 1))
        ratios = variances / _total_variance(variances)
        k = self._number_of_components(ratios, min(n, d))
        if self.whiten:
            _check_whitenable(variances, k, n, d)
        self.components_ = _flip_signs(Vt[:k])
        self.explained_variance_ = variances[:k]
        self.explained_variance_ratio_ = ratios[:k]
        self.singular_values_ = singular_values[:k]
        # σ² of probabilistic PCA: the mean of the min(n, d) - k discarded
        # eigenvalues (Tipping & Bishop 1999, eq. 8)
        self.noise_variance_ = (
            float(np.mean(variances[k:])) if k < min(n, d) else 0.0
        )
        self.n_components_ = k
        self.n_samples_ = n
        return self

    def _validated_training_data(self, X):
        X = validate_data(self, X, dtype=np.float64)
        if len(X) < 2:
            raise ValueError(
                "PCA needs at least 2 samples to estimate variances (divisor "
                f"n - 1); got n_samples={len(X)}."
            )
        return X

    @property
    def _n_features_out(self):
        # output width, for get_feature_names_out (scikit-learn's mixin)
        return self.n_components_

    def transform(self, X):
        r"""Project: :math:`z = U_k^\top(x-\bar x)`, divided by
        :math:`\sqrt{\lambda_j}` if ``whiten``. Returns shape (n_samples,
        n_components_)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        Z = (X - self.mean_) @ self.components_.T
        return Z / np.sqrt(self.explained_variance_) if self.whiten else Z

    def inverse_transform(self, X):
        r"""Map back: :math:`\hat x = \bar x + U_k z` (undoing the whitening
        first), for the rows :math:`z` of ``X``, shape (n_samples,
        n_components_), the output of :meth:`transform`. The result, shape
        (n_samples, n_features), is the orthogonal projection of the original
        point onto the fitted affine subspace. The argument is called ``X``,
        as in scikit-learn, so ``inverse_transform(X=Z)`` works in both."""
        check_is_fitted(self)
        Z = check_array(X, dtype=np.float64)
        if Z.shape[1] != self.n_components_:
            raise ValueError(
                f"X has {Z.shape[1]} columns, but this PCA keeps "
                f"{self.n_components_} "
                "components. Pass the output of transform."
            )
        if self.whiten:
            Z = Z * np.sqrt(self.explained_variance_)
        return Z @ self.components_ + self.mean_

    def get_covariance(self):
        r"""The model covariance :math:`C = WW^\top + \sigma^2 I =
        U_k\operatorname{diag}(\lambda_j - \sigma^2)U_k^\top +
        \sigma^2 I_d` of probabilistic PCA, shape (n_features,
        n_features). Its trace is the total sample variance when
        :math:`k` is ``min(n, d)`` or :math:`d`."""
        check_is_fitted(self)
        variances, noise = self._model_variances()
        V = self.components_
        covariance = (V.T * (variances - noise)) @ V
        covariance.flat[:: len(covariance) + 1] += noise
        return covariance

    def get_precision(self):
        r"""The inverse :math:`C^{-1}` of :meth:`get_covariance`, shape
        (n_features, n_features), without inverting a :math:`d\times d`
        matrix.

        Matrix inversion lemma (Woodbury) with :math:`C = \sigma^2 I +
        U_kDU_k^\top`, :math:`D = \operatorname{diag}(\lambda_j -
        \sigma^2)`: :math:`C^{-1} = \sigma^{-2}I - \sigma^{-2}U_k
        (\sigma^2D^{-1} + I_k)^{-1}U_k^\top`. The columns of :math:`U_k`
        are orthonormal, so the :math:`k\times k` core is diagonal and
        :math:`C^{-1} = \sigma^{-2}I + U_k\operatorname{diag}(1/\lambda_j -
        1/\sigma^2)U_k^\top`. Raises ``ValueError`` if :math:`C` is
        singular (:math:`\sigma^2 = 0` with :math:`k < d`)."""
        check_is_fitted(self)
        variances, noise = self._model_variances()
        self._check_nonsingular(variances, noise)
        V = self.components_
        if noise == 0.0:  # k = d: U_k is square and orthogonal
            return (V.T / variances) @ V
        precision = (V.T * (1.0 / variances - 1.0 / noise)) @ V
        precision.flat[:: len(precision) + 1] += 1.0 / noise
        return precision

    def score_samples(self, X):
        r"""Log-likelihood :math:`\log\mathcal N(x_i;\bar x, C)` of each
        sample under the fitted probabilistic PCA, shape (n_samples,).

        With :math:`r = x - \bar x`, :math:`z = U_k^\top r` and the
        eigenvalues of :math:`C` (:math:`\lambda_1..\lambda_k`, then
        :math:`\sigma^2` :math:`d-k` times),

        .. math::

            \log p(x) = -\tfrac12\Bigl(d\log 2\pi
            + \textstyle\sum_j\log\lambda_j + (d-k)\log\sigma^2
            + \sum_j z_j^2/\lambda_j
            + \lVert r - U_kz\rVert^2/\sigma^2\Bigr).

        The eigendecomposition of :math:`C` is known, so neither a
        :math:`d\times d` factorisation nor an inverse is needed; the
        residual off the subspace is formed directly, not as
        :math:`\lVert r\rVert^2 - \lVert z\rVert^2`, which cancels."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        variances, noise = self._model_variances()
        self._check_nonsingular(variances, noise)
        d = X.shape[1]
        R = X - self.mean_
        Z = R @ self.components_.T
        quadratic = np.sum(Z**2 / variances, axis=1)
        log_det = np.sum(np.log(variances))
        if noise > 0.0:
            residual = R - Z @ self.components_
            quadratic += np.sum(residual**2, axis=1) / noise
            log_det += (d - len(variances)) * np.log(noise)
        return -0.5 * (d * np.log(2 * np.pi) + log_det + quadratic)

    def score(self, X, y=None):
        """Mean log-likelihood of the samples of ``X`` under the fitted
        probabilistic PCA (the mean of :meth:`score_samples`); ``y`` is
        ignored."""
        return float(np.mean(self.score_samples(X)))

    def _model_variances(self):
        """The variances along the kept axes and σ². λ_j ≥ σ² in exact
        arithmetic (σ² averages eigenvalues ≤ λ_k); the maximum only absorbs
        rounding on ties, as scikit-learn's clipping of λ_j - σ² at 0."""
        noise = self.noise_variance_
        return np.maximum(self.explained_variance_, noise), noise

    def _check_nonsingular(self, variances, noise):
        d = self.components_.shape[1]
        tiny = max(self.n_samples_, d) * np.finfo(float).eps * variances[0]
        if (noise <= tiny and len(variances) < d) or variances[-1] <= tiny:
            raise ValueError(
                "The fitted Gaussian N(mean_, C) is degenerate: C is "
                "singular to rounding (noise_variance_="
                f"{noise:.3g} with n_components={len(variances)} of "
                f"n_features={d}, or a kept variance is zero), so its density "
                "and precision do not exist. Fit with fewer components than "
                "the rank of the centred data."
            )

    def _solver(self, n, d):
        if self.svd_solver not in SOLVERS:
            raise ValueError(
                f"svd_solver must be one of {SOLVERS}; got "
                f"{self.svd_solver!r}."
            )
        if self.svd_solver == "auto":
            return "covariance_eigh" if n >= 10 * d and d <= 1000 else "full"
        return self.svd_solver

    def _number_of_components(self, ratios, rank_bound):
        k = self.n_components
        if k is None:
            return rank_bound
        if isinstance(k, Integral) and not isinstance(k, bool):
            if not 1 <= k <= rank_bound:
                raise ValueError(
                    f"n_components={k} must be between 1 and "
                    "min(n_samples, n_features)="
                    f"{rank_bound}."
                )
            return int(k)
        if isinstance(k, Real) and not isinstance(k, bool) and 0 < k < 1:
            # The smallest k whose cumulative ratio exceeds the fraction
            # (scikit-learn's rule).
            return int(
                min(
                    np.searchsorted(np.cumsum(ratios), k, side="right") + 1,
                    rank_bound,
                )
            )
        raise ValueError(
            "n_components must be None, an int >= 1 or a float in (0, "
            "1) (a fraction of "
            f"variance to keep); got {k!r}."
        )


def _total_variance(variances):
    total = variances.sum()
    if total <= 0:
        raise ValueError(
            "X has zero variance: every sample is the same point, so there "
            "are no principal directions. Check the data."
        )
    return total


def _check_whitenable(variances, k, n, d):
    """Refuse to whiten a component whose variance is zero to rounding."""
    tiny = max(n, d) * np.finfo(float).eps * variances[0]
    if variances[k - 1] <= tiny:
        rank = int(np.sum(variances > tiny))
        raise ValueError(
            "whiten=True would divide by a zero variance: the centred data "
            f"have numerical rank {rank}, but n_components={k}. Set "
            f"n_components to at most {rank}."
        )


def _flip_signs(components):
    """Make the entry of largest magnitude in each row positive:
    eigenvectors and singular vectors are defined only up to sign, and
    LAPACK's choice differs between routines and machines."""
    largest = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(len(components)), largest])
    return components * signs[:, None]
