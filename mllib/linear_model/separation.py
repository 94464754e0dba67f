r"""Does the maximum-likelihood estimate of (multinomial) logistic regression
exist?

Along a direction :math:`V` (one row :math:`v_k` per class, the first fixed at
0, since only score differences matter) the loss of sample :math:`i` with label
:math:`c` is :math:`\log\sum_k e^{z_{ik} + t\,(d_{ik} - d_{ic})} - z_{ic}`,
with :math:`d_{ik} = x_i^\top v_k`. It never increases in :math:`t` when
:math:`d_{ic}\ge d_{ik}` for every :math:`k`, and strictly decreases when one
of these inequalities is strict. So if some :math:`V` has

.. math:: x_i^\top(v_{y_i} - v_k) \ge 0 \quad\text{for all } i \text{ and } k,
          \text{ not all zero},

every point can be improved by moving along :math:`V`, and the unpenalised
minimum is not attained: the data are (completely or quasi-completely)
separable and the MLE does not exist (Albert & Anderson, *Biometrika* 71,
1984). Otherwise the loss grows in every direction that changes the
predictions, and a minimiser exists. The search for such a :math:`V` is a
linear programme: maximise :math:`\sum_{i,k} x_i^\top(v_{y_i}-v_k)` subject to
:math:`0 \le x_i^\top(v_{y_i}-v_k) \le 1`. Its optimum is 0 when no direction
exists and at least 1 when one does (scale it until a constraint reaches 1).
"""

import numpy as np
from scipy import sparse
from scipy.optimize import linprog


def separating_direction(X, y_index, n_classes):
    """A direction ``V`` of shape (n_classes, n_features) that separates, or
    ``None``.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
        The design matrix, including a column of ones when the model has an
        intercept. A sparse one gives a sparse linear programme.
    y_index : ndarray of shape (n_samples,)
        Class indices in ``0 .. n_classes - 1``.
    n_classes : int

    Returns
    -------
    ndarray of shape (n_classes, n_features) or None
        ``V`` with ``V[0] = 0`` such that ``X @ (V[y_i] - V[k]) >= 0`` for
        every sample and class, with at least one strict inequality; ``None``
        if no such direction exists (then the maximum-likelihood estimate
        exists).
    """
    d = X.shape[1]
    if sparse.issparse(X):
        X = X.tocsr()  # rows are selected below, which COO cannot do
    stack = sparse.hstack if sparse.issparse(X) else np.hstack
    rows = []
    for k in range(n_classes):
        others = y_index != k
        X_others, y_others = X[others], y_index[others]
        # constraint rows x_iᵀ(v_{y_i} - v_k) for the samples not in class
        # k: block j (the variables v_j, j ≥ 1, as v_0 = 0 is none) of row i
        # is x_i ([y_i = j] - [k = j]), that is x_i, -x_i or 0
        rows.append(
            stack(
                [
                    _scale_rows(X_others, (y_others == j) - float(k == j))
                    for j in range(1, n_classes)
                ]
            )
        )
    vstack = sparse.vstack if sparse.issparse(X) else np.vstack
    A = vstack(rows)
    result = linprog(
        c=-np.asarray(A.sum(axis=0)).ravel(),
        A_ub=vstack([A, -A]),
        b_ub=np.r_[np.ones(A.shape[0]), np.zeros(A.shape[0])],
        bounds=(None, None),
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(
            f"The separation linear programme failed: {result.message}"
        )
    # the optimum is 0 (overlap) or at least 1 (separation)
    if -result.fun < 0.5:
        return None
    return np.vstack([np.zeros(d), result.x.reshape(n_classes - 1, d)])


def _scale_rows(X, c):
    """diag(c) X, sparse (CSR) when X is."""
    if sparse.issparse(X):
        return sparse.diags_array(c) @ X
    return c[:, None] * X
