r"""Kernel ridge regression: ridge regression in a kernel's feature space,
solved in the dual."""

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .kernels import checked_gram, pairwise_kernels
from .validation import check_sample_weight, check_scalar


class KernelRidge(RegressorMixin, BaseEstimator):
    r"""Kernel ridge regression (no intercept).

    Ridge regression on features :math:`\phi(x)`, :math:`\min_w \lVert y - \Phi
    w\rVert^2 + \lambda\lVert w\rVert^2`, has its minimiser in the span of the
    training features, :math:`w = \Phi^\top c` (the representer theorem). In
    terms of :math:`c` and the Gram matrix :math:`K = \Phi\Phi^\top` the
    objective is

    .. math:: \lVert y - Kc\rVert^2 + \lambda\, c^\top K c ,

    minimised by the solution of :math:`(K + \lambda I)\,c = y`, and the
    prediction is :math:`f(x) = \sum_i c_i\,k(x_i, x)`. The system is solved by
    a Cholesky factorisation of the symmetric positive definite :math:`K +
    \lambda I` (Rasmussen & Williams 2006, Alg. 2.1). With the linear kernel
    this is ``Ridge(alpha, fit_intercept=False)``: :math:`w = X^\top c`.

    With sample weights :math:`s_i \ge 0` the loss is :math:`\sum_i s_i(y_i -
    f(x_i))^2`, i.e. :math:`(y - Kc)^\top S(y - Kc)` with :math:`S =
    \operatorname{diag}(s)`; the gradient :math:`2K[S(Kc - y) + \lambda c]`
    vanishes where :math:`(SK + \lambda I)c = Sy`. That matrix is not
    symmetric, so we substitute :math:`c = S^{1/2}\beta` (the :math:`\sqrt{s}`
    rescaling trick, as in scikit-learn): :math:`(S^{1/2}KS^{1/2} + \lambda
    I)\beta = S^{1/2}y`, symmetric positive definite again, solved by
    Cholesky. A zero weight gives :math:`c_i = 0`: the sample is dropped.

    Same parameters, objective and fitted attributes as
    ``sklearn.kernel_ridge.KernelRidge`` (one target column).

    Parameters
    ----------
    alpha : float
        Regularisation strength :math:`\lambda \ge 0`; with 0, :math:`K` must
        be non-singular.
    kernel : str or callable
        A name in ``mllib.kernels.KERNELS`` (``"linear"``, ``"poly"``,
        ``"rbf"``, ``"anova"``, ``"min"``), or a callable ``kernel(X, Y,
        **kernel_params)`` returning the Gram matrix, which is checked to be
        positive semi-definite on the training data. (scikit-learn's
        ``KernelRidge`` instead calls a callable once per pair of samples; its
        ``SVC``, like every mllib estimator, passes whole arrays.)
    gamma, degree, coef0 : float
        Kernel parameters, passed to the named kernels that take them
        (``gamma=None`` means :math:`1/d`).
    kernel_params : dict, optional
        Keyword arguments for a callable kernel.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        The coefficients :math:`c`.
    X_fit_ : ndarray of shape (n_samples, n_features)
        The training inputs, needed to predict.
    n_features_in_ : int
    """

    def __init__(
        self,
        alpha=1.0,
        kernel="linear",
        gamma=None,
        degree=3,
        coef0=1,
        kernel_params=None,
    ):
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n_samples, n_features) and real ``y``, each squared
        residual weighted by ``sample_weight`` (n_samples,) if given; return
        self."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        alpha = check_scalar(self.alpha, "alpha", low=0)
        K = checked_gram(
            self._kernel(X, X), self.kernel, self.degree, self.coef0
        )
        if sample_weight is not None:
            # S^½ K S^½ and S^½ y: then c = S^½ β below (class docstring)
            sqrt_weight = np.sqrt(check_sample_weight(sample_weight, len(y)))
            K = K * np.outer(sqrt_weight, sqrt_weight)
            y = y * sqrt_weight
        # (K + lambda I) c = y by Cholesky (Rasmussen & Williams, Alg. 2.1)
        factor = _cholesky(K + alpha * np.eye(len(X)), alpha)
        self.dual_coef_ = cho_solve(factor, y, check_finite=False)
        if sample_weight is not None:
            self.dual_coef_ *= sqrt_weight
        self.X_fit_ = X
        return self

    def predict(self, X):
        r""":math:`f(x)=\sum_ic_i\,k(x_i,x)`, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._kernel(X, self.X_fit_) @ self.dual_coef_

    def _kernel(self, X, Y):
        if callable(self.kernel):
            return pairwise_kernels(
                X, Y, self.kernel, **(self.kernel_params or {})
            )
        return pairwise_kernels(
            X,
            Y,
            self.kernel,
            gamma=self.gamma,
            degree=self.degree,
            coef0=self.coef0,
        )


def _cholesky(A, alpha):
    """The Cholesky factor of ``A = K + alpha I``, or an error that says why
    there is none."""
    try:
        return cho_factor(A, lower=True, check_finite=False)
    except LinAlgError:
        raise ValueError(
            f"K + alpha*I is not positive definite (alpha={alpha:g}, "
            f"smallest eigenvalue of K {np.linalg.eigvalsh(A)[0] - alpha:.3g}"
            "), so the kernel matrix is singular: repeated points or a "
            "low-rank kernel. Use alpha > 0."
        ) from None
