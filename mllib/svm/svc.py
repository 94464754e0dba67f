r"""The support vector classifier, trained by SMO on the dual problem."""

import numbers

import numpy as np
from scipy.optimize import linprog
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels import check_psd, is_psd_by_construction, pairwise_kernels
from ..validation import check_scalar, encode_classes
from .kernel_cache import KernelRows
from .smo import smo


class SVC(ClassifierMixin, BaseEstimator):
    r"""Binary soft- or hard-margin support vector classifier (libsvm's C-SVC).

    Minimises, over :math:`w` in the kernel's feature space and an unpenalised
    intercept :math:`b`,

    .. math::

        \tfrac12\lVert w\rVert^2
              + C\sum_{i=1}^n \max\bigl(0,\ 1 - y_i(w^\top\phi(x_i) + b)\bigr),
              \qquad y_i\in\{-1,+1\},

    through its dual, :math:`\max_\alpha \sum_i\alpha_i -
    \tfrac12\sum_{ij}\alpha_i\alpha_jy_iy_jk(x_i,x_j)` subject to
    :math:`\sum_i\alpha_iy_i = 0` and :math:`0\le\alpha_i\le C`, solved by
    :func:`mllib.svm.smo`. ``C=np.inf`` is the hard margin. The decision
    function is :math:`f(x) = \sum_i\alpha_iy_ik(x_i, x) + b`, a sum over the
    support vectors (:math:`\alpha_i>0`). The averaged form
    :math:`\frac\lambda2\lVert w\rVert^2 + \frac1n\sum_i\text{hinge}_i` is the
    same problem with :math:`C = 1/(n\lambda)`.

    Same parameters, objective and fitted attributes as ``sklearn.svm.SVC`` for
    two classes.

    Parameters
    ----------
    C : float
        Penalty on the margin violations, in :math:`(0, \infty]`.
    kernel : {"rbf", "linear", "poly"} or callable
        A callable is called as ``kernel(X, Y)`` and must return the Gram
        matrix; it is checked to be positive semi-definite on the training
        data.
    degree : float
        Degree of the ``"poly"`` kernel :math:`(\gamma x^\top t + c_0)^p`.
    gamma : {"scale", "auto"} or float
        Kernel width for ``"rbf"`` and ``"poly"``: ``"scale"`` is
        :math:`1/(d\operatorname{Var}(X))`, ``"auto"`` is :math:`1/d`.
    coef0 : float
        The offset :math:`c_0` of the ``"poly"`` kernel.
    tol : float
        SMO stops when the maximal KKT violation is below ``tol`` (libsvm's
        ``eps``).
    cache_size : float
        Megabytes for the rows of the Gram matrix that SMO keeps
        (:class:`KernelRows`).
    max_iter : int
        Maximum number of SMO steps, ``-1`` for no limit.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The labels; ``classes_[1]`` plays the role of :math:`y=+1`.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, those of ``classes_[0]`` first (as in
        scikit-learn).
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of shape (2,)
        Number of support vectors in each class.
    dual_coef_ : ndarray of shape (1, n_SV)
        :math:`\alpha_iy_i` for the support vectors.
    intercept_ : ndarray of shape (1,)
        :math:`b`, averaged over the free support vectors
        (:math:`0<\alpha_i<C`).
    coef_ : ndarray of shape (1, n_features)
        :math:`w=\sum_i\alpha_iy_ix_i`; only for ``kernel="linear"``.
    n_iter_ : ndarray of shape (1,)
        Number of SMO steps.
    n_features_in_ : int

    References
    ----------
    Cortes & Vapnik (1995); Chang & Lin (2011), *LIBSVM*; Fan, Chen & Lin
    (2005).
    """

    def __init__(
        self,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        cache_size=200,
        max_iter=-1,
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.cache_size = cache_size
        self.max_iter = max_iter

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only
        return tags

    def fit(self, X, y):
        """Fit on ``X`` of shape (n_samples, n_features) and two-class labels
        ``y``; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        C = check_scalar(self.C, "C", low=0, low_inclusive=False)
        tol = check_scalar(self.tol, "tol", low=0, low_inclusive=False)
        if not isinstance(self.max_iter, numbers.Integral) or not (
            self.max_iter == -1 or self.max_iter > 0
        ):
            raise ValueError(
                "max_iter must be a positive integer or -1 (no limit); "
                f"got {self.max_iter!r}."
            )
        self.classes_, index = encode_classes(
            y, binary_only=True, estimator=self
        )
        signs = 2.0 * index - 1.0  # classes_[0] -> -1, classes_[1] -> +1
        cache_size = check_scalar(
            self.cache_size, "cache_size", low=0, low_inclusive=False
        )
        self._gamma = self._resolve_gamma(X)
        psd_by_construction = is_psd_by_construction(
            self.kernel, self.degree, self.coef0
        )
        if psd_by_construction and np.isfinite(C):
            kernel, params = self._kernel_and_params()
            gram = KernelRows(X, kernel, cache_size, **params)
        else:  # the checks below need the whole matrix
            gram = self._kernel(X, X)
            if not psd_by_construction:
                check_psd(
                    gram,
                    name="The Gram matrix of the kernel on the training data",
                )
            if np.isinf(C):
                _check_separable(gram, signs)
        result = smo(gram, signs, C, tol=tol, max_iter=self.max_iter)
        # scikit-learn's order: the support vectors of classes_[0], then those
        # of classes_[1]
        self.support_ = np.concatenate(
            [np.flatnonzero((result.alpha > 0) & (index == k)) for k in (0, 1)]
        )
        self.support_vectors_ = X[self.support_]
        self.n_support_ = np.array(
            [np.sum(index[self.support_] == k) for k in (0, 1)], dtype=np.int32
        )
        self.dual_coef_ = (result.alpha * signs)[self.support_][None, :]
        self.intercept_ = np.array([result.intercept])
        self.n_iter_ = np.array([result.n_iter])
        return self

    @property
    def coef_(self):
        r""":math:`w=\sum_i\alpha_iy_ix_i`, shape (1, n_features); only for
        ``kernel="linear"`` (as in scikit-learn)."""
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError(
                "coef_ exists only for kernel='linear'; this SVC has "
                f"kernel={self.kernel!r}."
            )
        check_is_fitted(self)
        return self.dual_coef_ @ self.support_vectors_

    def decision_function(self, X):
        r""":math:`f(x)=\sum_{i\in SV}\alpha_iy_ik(x_i,x)+b`, shape
        (n_samples,); positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return (
            self._kernel(X, self.support_vectors_) @ self.dual_coef_[0]
            + self.intercept_[0]
        )

    def predict(self, X):
        """The class on the side of the hyperplane where each row of ``X``
        falls, shape (n_samples,)."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def _resolve_gamma(self, X):
        if self.gamma == "scale":
            variance = X.var()
            return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        if isinstance(self.gamma, str):
            raise ValueError(
                'gamma must be "scale", "auto" or a positive number; '
                f"got {self.gamma!r}."
            )
        return check_scalar(self.gamma, "gamma", low=0, low_inclusive=False)

    def _kernel_and_params(self):
        if callable(self.kernel):
            return self.kernel, {}
        if self.kernel not in ("linear", "poly", "rbf"):
            raise ValueError(
                'kernel must be "linear", "poly", "rbf" or a callable; '
                f"got {self.kernel!r}."
            )
        return self.kernel, dict(
            gamma=self._gamma, degree=self.degree, coef0=self.coef0
        )

    def _kernel(self, X, Y):
        kernel, params = self._kernel_and_params()
        return pairwise_kernels(X, Y, kernel, **params)


def _check_separable(K, y):
    r"""Raise unless some :math:`(\beta, b)` has :math:`y_i\bigl((K\beta)_i +
    b\bigr)\ge1` for all i.

    By the representer argument a separating :math:`w` can be replaced by its
    projection :math:`\sum_j\beta_j\phi(x_j)` without changing any
    :math:`w^\top\phi(x_i)`, so this linear feasibility problem has a solution
    exactly when the data are separable in feature space. Without one, the
    hard-margin dual is unbounded and SMO would never stop.
    """
    n = len(y)
    A = -y[:, None] * np.hstack([K, np.ones((n, 1))])
    result = linprog(
        np.zeros(n + 1),
        A_ub=A,
        b_ub=-np.ones(n),
        bounds=[(None, None)] * (n + 1),
        method="highs",
    )
    if result.status == 2:
        raise ValueError(
            "C=np.inf asks for a hard margin, but the training data are "
            "not separable in the "
            "feature space of this kernel (no w, b with y_i (w . "
            "phi(x_i) + b) >= 1 for every i; "
            "the dual is unbounded). Use a finite C (soft margin) or a "
            "more flexible kernel."
        )
    if result.status != 0:
        raise RuntimeError(f"The separability check failed: {result.message}")
