"""Regression metrics."""

import numpy as np

from ._checks import check_consistent_targets


def r2_score(y_true, y_pred):
    r"""Coefficient of determination.

    .. math:: R^2 = 1 - \frac{\sum_i (y_i - \hat y_i)^2}{\sum_i (y_i - \bar y)^2}

    It is at most 1 and is negative when the predictions are worse than the
    constant :math:`\bar y` (common on test data). As in scikit-learn, a constant
    ``y_true`` gives 1.0 for a perfect prediction and 0.0 otherwise.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=True)
    residual = np.sum((y_true - y_pred) ** 2)
    total = np.sum((y_true - y_true.mean()) ** 2)
    if total == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return float(1.0 - residual / total)


def mean_squared_error(y_true, y_pred):
    r"""Mean squared error, :math:`\frac1n\sum_i (y_i - \hat y_i)^2` (scikit-learn's name).

    The empirical risk of the predictions under the squared loss.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=True)
    return float(np.mean((y_true - y_pred) ** 2))
