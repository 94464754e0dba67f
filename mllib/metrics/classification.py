"""Classification metrics."""

import numpy as np

from ._checks import check_consistent_targets


def accuracy_score(y_true, y_pred):
    r"""Fraction of correct predictions, :math:`\frac1n\sum_i \mathbb 1[\hat y_i = y_i]`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Class labels of any type that compares with ``==``.
    """
    y_true, y_pred = check_consistent_targets(y_true, y_pred, numeric=False)
    return float(np.mean(y_true == y_pred))
