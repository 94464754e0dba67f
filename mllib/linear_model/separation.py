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
from scipy.optimize import linprog


def separating_direction(X, y_index, n_classes):
    """A direction ``V`` of shape (n_classes, n_features) that separates, or
    ``None``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The design matrix, including a column of ones when the model has an
        intercept.
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
    n, d = X.shape
    rows = []
    for k in range(n_classes):
        others = y_index != k
        # constraint rows x_iᵀ(v_{y_i} - v_k) for the samples not in class k
        A = np.zeros((np.count_nonzero(others), n_classes, d))
        A[np.arange(len(A)), y_index[others]] = X[others]
        A[:, k] -= X[others]
        rows.append(A[:, 1:].reshape(len(A), -1))  # v_0 = 0 is not a variable
    A = np.vstack(rows)
    result = linprog(
        c=-A.sum(axis=0),
        A_ub=np.vstack([A, -A]),
        b_ub=np.r_[np.ones(len(A)), np.zeros(len(A))],
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
