r"""Kernel functions, the pairwise distances they are built on, and a positive-semi-definiteness check.

A kernel :math:`k(x, t) = \langle\phi(x), \phi(t)\rangle` is an inner product of feature maps.
Every function here returns the whole Gram matrix :math:`K_{ij} = k(x_i, t_j)` of two sets of
points at once, as a few matrix operations over all pairs (never a Python loop over pairs).
Names, signatures and defaults are scikit-learn's (``sklearn.metrics.pairwise``), so the same
``gamma``, ``degree`` and ``coef0`` mean the same kernel in both libraries.
"""

import numpy as np
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.utils import check_array

from .validation import check_scalar


def squared_euclidean_distances(X, Y=None):
    r"""All pairwise squared distances :math:`D_{ij} = \lVert x_i - y_j\rVert^2`.

    Computed from the differences, :math:`\sum_k (x_{ik} - y_{jk})^2` (scipy's compiled
    ``pdist``/``cdist``), so every entry, however small, carries only a relative rounding error
    of a few units in the last place; with ``Y=None`` each pair is computed once, the
    diagonal is exactly 0 and ``D`` exactly symmetric. The vectorised alternative
    :math:`\lVert x\rVert^2 + \lVert y\rVert^2 - 2x^\top y` has an *absolute* error of about
    :math:`\epsilon_{\text{mach}}(\lVert x\rVert^2 + \lVert y\rVert^2)`, which swamps the
    distances between close points: exactly the entries of a Gaussian kernel near 1 that decide
    how badly conditioned :math:`K` is. (For the input sizes of this book the differences are
    also faster; the expansion wins only for many features, through the matrix product.)

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (m, d), optional
        Defaults to ``X``.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X, Y = _check_pair(X, Y)
    if Y is X:
        return squareform(pdist(X, "sqeuclidean"))
    return cdist(X, Y, "sqeuclidean")


def linear_kernel(X, Y=None):
    r"""The linear kernel :math:`k(x, t) = x^\top t`, i.e. :math:`K = XY^\top`.

    Its feature map is the identity. Same as ``sklearn.metrics.pairwise.linear_kernel``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (m, d), optional
        Defaults to ``X``.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X, Y = _check_pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1):
    r"""The polynomial kernel :math:`k(x, t) = (\gamma\, x^\top t + c_0)^p`.

    For an integer degree :math:`p` and :math:`c_0 > 0` its feature map lists every monomial
    of degree at most :math:`p` in the :math:`d` inputs, :math:`\binom{d+p}{p}` of them, each
    scaled by the square root of a multinomial coefficient. Same as
    ``sklearn.metrics.pairwise.polynomial_kernel``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (m, d), optional
        Defaults to ``X``.
    degree : float
        The power :math:`p`.
    gamma : float, optional
        Scale of the inner product; ``None`` means :math:`1/d`.
    coef0 : float
        The offset :math:`c_0`; with :math:`c_0 = 0` the kernel is homogeneous (degree exactly :math:`p`).

    Returns
    -------
    ndarray of shape (n, m)
    """
    X, Y = _check_pair(X, Y)
    gamma = _default_gamma(gamma, X)
    K = X @ Y.T
    K *= gamma
    K += coef0
    K **= degree
    return K


def rbf_kernel(X, Y=None, gamma=None):
    r"""The Gaussian (radial basis function) kernel :math:`k(x, t) = \exp(-\gamma\lVert x - t\rVert^2)`.

    :math:`\gamma = 1/(2\ell^2)` for a length-scale :math:`\ell`. Its feature map is
    infinite-dimensional. Distances come from :func:`squared_euclidean_distances`, so the
    entries stay accurate for close points and for data far from the origin. Same as
    ``sklearn.metrics.pairwise.rbf_kernel``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (m, d), optional
        Defaults to ``X``.
    gamma : float, optional
        Inverse squared width; ``None`` means :math:`1/d`.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X, Y = _check_pair(X, Y)
    gamma = _default_gamma(gamma, X)
    K = squared_euclidean_distances(X, None if Y is X else Y)
    K *= -gamma
    np.exp(K, out=K)
    return K


def anova_kernel(X, Y=None):
    r"""The ANOVA (all-subsets) kernel
    :math:`k(x, t) = \prod_{k=1}^d (1 + x_k t_k)`.

    Expanding the product gives
    :math:`\sum_{S\subseteq\{1..d\}} \prod_{k\in S} x_k t_k`, the inner
    product of the feature maps :math:`\phi(x) = (\prod_{k\in S} x_k)_S`
    with one coordinate per subset of the features: :math:`2^d` of them,
    computed in :math:`O(d)`. For inputs in :math:`\{0, 1\}^d` the features
    are the monotone conjunctions, and :math:`k(x, t) = 2^{x^\top t}` counts
    the conjunctions that both points satisfy (the perceptron chapter learns
    DNF formulas with it). scikit-learn has no equivalent.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (m, d), optional
        Defaults to ``X``.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X, Y = _check_pair(X, Y)
    K = np.ones((len(X), len(Y)))
    for k in range(X.shape[1]):  # one factor (1 + x_k t_k) for all pairs
        K *= 1.0 + np.outer(X[:, k], Y[:, k])
    return K


def min_kernel(X, Y=None):
    r"""The min (intersection) kernel :math:`k(x, t) = \sum_{k=1}^d \min(x_k, t_k)` on :math:`[0, \infty)^d`.

    In one dimension :math:`\min(x, t) = \int_0^\infty \mathbb 1[s \le x]\,\mathbb 1[s \le t]\,ds`,
    the inner product of the indicator functions of :math:`[0, x]` and :math:`[0, t]`, so the
    kernel is positive semi-definite, but only for non-negative inputs: for :math:`x < 0`,
    :math:`k(x, x) = x < 0`. It is the covariance of Brownian motion. scikit-learn has no
    equivalent.

    Parameters
    ----------
    X : array-like of shape (n, d), non-negative
    Y : array-like of shape (m, d), non-negative, optional
        Defaults to ``X``.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X, Y = _check_pair(X, Y)
    for name, A in (("X", X), ("Y", Y)):
        if np.any(A < 0):
            raise ValueError(
                f"min_kernel is a kernel only on non-negative inputs, but {name} has negative "
                f"entries (smallest {A.min():.3g}). Shift or rescale the features to [0, inf) first."
            )
    K = np.zeros((len(X), len(Y)))
    for k in range(X.shape[1]):
        K += np.minimum(X[:, k][:, None], Y[:, k][None, :])
    return K


KERNELS = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
    "anova": anova_kernel,
    "min": min_kernel,
}

_KERNEL_PARAMS = {
    linear_kernel: (),
    polynomial_kernel: ("degree", "gamma", "coef0"),
    rbf_kernel: ("gamma",),
    anova_kernel: (),
    min_kernel: (),
}


def pairwise_kernels(X, Y=None, metric="linear", **params):
    r"""The Gram matrix of a kernel given by name (a key of ``KERNELS``) or as a callable.

    For a named kernel, parameters it does not take are ignored, so an estimator can pass
    ``gamma``, ``degree`` and ``coef0`` whatever the kernel (scikit-learn's
    ``pairwise_kernels(..., filter_params=True)``). A callable is called as
    ``metric(X, Y, **params)`` and must return the (n, m) Gram matrix.

    Returns
    -------
    ndarray of shape (n, m)
    """
    if callable(metric):
        X, Y = _check_pair(X, Y)
        K = np.asarray(metric(X, Y, **params), dtype=float)
        if K.shape != (len(X), len(Y)):
            raise ValueError(
                f"The kernel callable returned shape {K.shape}; it must return the Gram matrix "
                f"of shape (len(X), len(Y)) = {(len(X), len(Y))}."
            )
        return K
    if metric not in KERNELS:
        raise ValueError(
            f"Unknown kernel {metric!r}; use one of {sorted(KERNELS)} or a callable."
        )
    function = KERNELS[metric]
    return function(
        X,
        Y,
        **{k: v for k, v in params.items() if k in _KERNEL_PARAMS[function]},
    )


def is_psd_by_construction(kernel, degree=3, coef0=1):
    r"""Whether a named kernel is positive semi-definite for all inputs, so no numerical check is needed.

    True for ``"linear"``, ``"rbf"``, ``"anova"``, ``"min"`` (which rejects inputs outside its
    domain itself) and for ``"poly"`` with a non-negative integer degree and ``coef0`` :math:`\ge0`
    (then :math:`(\gamma x^\top t + c_0)^p` is a sum of products of kernels). False for
    callables, which estimators check with :func:`check_psd` on the training Gram matrix.
    """
    if callable(kernel):
        return False
    if kernel in ("poly", "polynomial"):
        return coef0 >= 0 and float(degree).is_integer() and degree >= 0
    return kernel in KERNELS


def check_psd(K, *, tol=1e-8, name="K"):
    r"""Check that ``K`` is a symmetric positive semi-definite matrix; return
    its smallest eigenvalue.

    Rounding makes the computed eigenvalues of an exactly PSD Gram matrix
    slightly negative, of the order of
    :math:`n\,\epsilon_{\text{mach}}\max_i|\lambda_i|`, so the test is
    relative: symmetric to within ``tol`` times the largest entry, and

    .. math:: \lambda_{\min}(K) \ge -\mathrm{tol}\cdot\max_i |\lambda_i(K)| .

    Parameters
    ----------
    K : array-like of shape (n, n)
    tol : float
        Relative tolerance.
    name : str
        Name used in the error message.

    Returns
    -------
    float
        The smallest eigenvalue of ``K`` (``scipy``'s symmetric eigensolver).

    Raises
    ------
    ValueError
        If ``K`` is not square, not symmetric, or has an eigenvalue below the
        tolerance.
    """
    K = check_array(K, dtype=np.float64, input_name=name)
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"{name} must be a square Gram matrix; got shape {K.shape}."
        )
    scale = np.abs(K).max()
    asymmetry = np.abs(K - K.T).max()
    if asymmetry > tol * scale:
        raise ValueError(
            f"{name} is not symmetric (largest |K_ij - K_ji| = "
            f"{asymmetry:.3g}); a kernel must satisfy k(x, t) = k(t, x)."
        )
    eigenvalues = np.linalg.eigvalsh(K)
    smallest, largest = eigenvalues[0], np.abs(eigenvalues).max()
    if smallest < -tol * largest:
        raise ValueError(
            f"{name} is not positive semi-definite: its smallest eigenvalue "
            f"is {smallest:.3g} (largest magnitude {largest:.3g}), so the "
            "function that produced it is not a valid kernel (no feature map "
            "reproduces it) and the optimisation problem is not convex. Use "
            "a positive semi-definite kernel, such as 'rbf', 'linear' or "
            "'poly'."
        )
    return float(smallest)


def checked_gram(K, kernel, degree=3, coef0=1):
    """The training Gram matrix ``K`` of ``kernel``, after :func:`check_psd`
    unless the kernel is PSD by construction: without a feature map a kernel
    method has no geometry (no margin, no mistake bound), and its training
    problem need not be convex."""
    if not is_psd_by_construction(kernel, degree, coef0):
        check_psd(K, name="The Gram matrix of the kernel on the training data")
    return K


def _check_pair(X, Y):
    X = check_array(X, dtype=np.float64)
    Y = X if Y is None else check_array(Y, dtype=np.float64, input_name="Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features; got {X.shape[1]} and {Y.shape[1]}."
        )
    return X, Y


def _default_gamma(gamma, X):
    if gamma is None:
        return 1.0 / X.shape[1]
    return check_scalar(gamma, "gamma", low=0)
