"""Regression metrics."""

import numpy as np

from ..validation import check_sample_weight
from ._checks import check_consistent_targets


def r2_score(y_true, y_pred, *, sample_weight=None):
    r"""Coefficient of determination.

    .. math:: R^2 = 1 - \frac{\sum_i s_i(y_i - \hat y_i)^2}
                            {\sum_i s_i(y_i - \bar y)^2},
              \qquad \bar y = \frac{\sum_i s_iy_i}{\sum_i s_i},

    It is at most 1 and is negative when the predictions are worse than the
    constant :math:`\bar y` (common on test data). As in scikit-learn, a
    constant ``y_true`` gives 1.0 for a perfect prediction and 0.0
    otherwise.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
        The weights :math:`s_i`; all one if None.
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=True)
    s = check_sample_weight(sample_weight, len(y_true))
    residual = np.sum(s * (y_true - y_pred) ** 2)
    total = np.sum(s * (y_true - np.average(y_true, weights=s)) ** 2)
    if total == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return float(1.0 - residual / total)


def mean_absolute_error(y_true, y_pred):
    r"""Mean absolute error, :math:`\mathrm{MAE} = \frac1n\sum_i |y_i - \hat
    y_i|`.

    In the units of ``y``; each error counts in proportion to its size, so a
    few large errors weigh less than in the MSE.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=True)
    return float(np.mean(np.abs(y_true - y_pred)))


def mean_squared_error(y_true, y_pred):
    r"""Mean squared error, :math:`\mathrm{MSE} = \frac1n\sum_i (y_i - \hat
    y_i)^2`.

    The empirical risk of the squared loss, in squared units of ``y``. It is
    related to :math:`R^2` by :math:`R^2 = 1 -
    \mathrm{MSE}/\widehat{\operatorname{Var}}(y)` (population variance of
    ``y_true``).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=True)
    return float(np.mean((y_true - y_pred) ** 2))


def root_mean_squared_error(y_true, y_pred):
    r"""Root mean squared error, :math:`\mathrm{RMSE} = \sqrt{\mathrm{MSE}}`,
    in the units of ``y``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    """
    return float(np.sqrt(mean_squared_error(y_true, y_pred)))
