r"""Rows of a Gram matrix computed on demand and kept in a least-recently-used
cache (libsvm's kernel cache)."""

from collections import OrderedDict

import numpy as np


class KernelRows:
    r"""The Gram matrix :math:`K_{ij} = k(x_i, x_j)` of the training set, one
    row at a time.

    SMO reads two rows per step, and near the optimum mostly rows of support
    vectors, so computing all :math:`n^2` entries up front wastes time (and,
    for large :math:`n`, memory). ``rows[i]`` computes row :math:`i` the first
    time it is asked for and keeps it while it is among the most recently used
    rows that fit in ``cache_size`` megabytes. It offers the two things
    :func:`mllib.svm.smo` uses from a Gram matrix, ``rows[i]`` and
    ``rows.diagonal()``, so the solver accepts either.

    A row costs one matrix-vector product :math:`Xx_i` plus :math:`O(n)` work,
    because the four kernels are functions of inner products and of the
    squared norms :math:`\lVert x_j\rVert^2`, computed once (libsvm's
    ``x_square``): :math:`x_i^\top x_j`, :math:`(\gamma x_i^\top x_j + c_0)^p`,
    :math:`\tanh(\gamma x_i^\top x_j + c_0)` and
    :math:`\exp\bigl(-\gamma(\lVert x_i\rVert^2 + \lVert x_j\rVert^2 -
    2x_i^\top x_j)\bigr)`. For the Gaussian kernel the data are centred first
    (distances do not change, cancellation shrinks) and the squared distance
    clipped at 0. (:func:`mllib.kernels.squared_euclidean_distances` sums
    squared differences instead, which keeps the distances of very close points
    accurate too; for the SVM the absolute accuracy of the expansion is
    enough.) The rows equal those of :func:`mllib.kernels.pairwise_kernels` to
    rounding.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    kernel : {"linear", "poly", "rbf", "sigmoid"}
    cache_size : float
        Memory for cached rows, in megabytes (scikit-learn's
        ``SVC(cache_size=200)``).
    gamma, degree, coef0 : float
        Kernel parameters (``gamma`` is required for all but ``"linear"``).
    """

    def __init__(
        self, X, kernel, cache_size=200, *, gamma=None, degree=3, coef0=0.0
    ):
        if kernel not in ("linear", "poly", "rbf", "sigmoid"):
            raise ValueError(
                'KernelRows computes "linear", "poly", "rbf" or "sigmoid" '
                f"kernels; got {kernel!r}."
            )
        self.kernel, self.gamma, self.degree, self.coef0 = (
            kernel,
            gamma,
            degree,
            coef0,
        )
        # distances do not change
        self.X = X - X.mean(axis=0) if kernel == "rbf" else X
        self.sq_norms = np.einsum("ij,ij->i", self.X, self.X)
        if kernel == "rbf":
            self.scaled_sq_norms = gamma * self.sq_norms
        self.capacity = max(2, int(cache_size * 2**20 // (8 * len(X))))
        self.rows = OrderedDict()

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        row = self.rows.get(i)
        if row is None:
            row = self._transform(self.X @ self.X[i], self.sq_norms[i])
            self.rows[i] = row
            if len(self.rows) > self.capacity:
                # evict the least recently used row
                self.rows.popitem(last=False)
        else:
            self.rows.move_to_end(i)
        return row

    def diagonal(self):
        """:math:`(k(x_i, x_i))_i`, shape (n,)."""
        return self._transform(self.sq_norms, self.sq_norms)

    def _transform(self, inner, sq_norm_i):
        """Kernel values from inner products x_i . x_j and squared norms."""
        if self.kernel == "linear":
            return inner
        if self.kernel == "poly":
            return (self.gamma * inner + self.coef0) ** self.degree
        if self.kernel == "sigmoid":
            return np.tanh(self.gamma * inner + self.coef0)
        # -gamma ||x_i - x_j||^2
        #   = 2 gamma x_i.x_j - gamma ||x_i||^2 - gamma ||x_j||^2 <= 0,
        # in place in one array (the rows are computed thousands of times)
        exponent = inner * (2.0 * self.gamma)
        exponent -= self.gamma * sq_norm_i
        exponent -= self.scaled_sq_norms
        np.minimum(exponent, 0.0, out=exponent)  # the clip at distance 0
        return np.exp(exponent, out=exponent)
