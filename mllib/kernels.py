"""Kernel functions and the pairwise distances they are built on."""

import numpy as np

from .validation import check_array


def squared_euclidean_distances(X, Y=None):
    r"""All pairwise squared distances :math:`D_{ij} = \lVert x_i - y_j\rVert^2`.

    Vectorised through :math:`\lVert x\rVert^2 + \lVert y\rVert^2 - 2x^\top y`, one matrix
    product instead of an :math:`n\times m\times d` array. That expansion loses
    accuracy when the points are far from the origin compared with their spread
    (catastrophic cancellation), so both sets are first shifted by the same vector,
    the mean of ``X`` (distances do not change), and rounding is clipped at 0.

    Parameters
    ----------
    X : array-like of shape (n, d)
    Y : array-like of shape (m, d), optional
        Defaults to ``X``, in which case the diagonal is exactly 0 and ``D`` is symmetric.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X = check_array(X)
    Y = X if Y is None else check_array(Y, name="Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features; got {X.shape[1]} and {Y.shape[1]}."
        )
    shift = X.mean(axis=0)
    Xc = X - shift
    Yc = Xc if Y is X else Y - shift
    D = np.sum(Xc**2, axis=1)[:, None] + np.sum(Yc**2, axis=1)[None, :] - 2.0 * (Xc @ Yc.T)
    np.maximum(D, 0.0, out=D)
    if Y is X:
        np.fill_diagonal(D, 0.0)
        D = 0.5 * (D + D.T)  # exact symmetry, which Cholesky-based callers rely on
    return D
