r"""Weighted means and variances of data seen in batches.

An estimator that learns from batches (``partial_fit``) keeps, for each
column, the total weight :math:`n`, the mean :math:`\mu` and the biased
(divide-by-:math:`n`) variance :math:`\sigma^2` of everything it has seen.
A new batch is summarised the same way and the two summaries are merged with
Chan, Golub & LeVeque's pairwise formula, so the result equals the two-pass
statistics of all the data together, up to rounding, however the data were
split. ``StandardScaler`` and ``GaussianNB`` share these two functions.
"""

import numpy as np


def batch_moments(X, weights):
    r"""Total weight, weighted mean and weighted variance of each column.

    .. math::

        n = \sum_i w_i, \qquad
        \mu_j = \frac1n\sum_i w_i x_{ij}, \qquad
        \sigma^2_j = \frac1n\sum_i w_i (x_{ij} - \mu_j)^2,

    the variance from the centred data (two passes), not
    :math:`E[x^2]-E[x]^2`, which cancels. Integer weights give the statistics
    of the data with each row repeated :math:`w_i` times.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    weights : ndarray of shape (n_samples,), non-negative

    Returns
    -------
    n : float
    mean, var : ndarray of shape (n_features,)
        Zero when :math:`n = 0` (an empty summary: merging it changes nothing).
    """
    n = float(weights.sum())
    if n == 0:
        return 0.0, np.zeros(X.shape[1]), np.zeros(X.shape[1])
    mean = weights @ X / n
    return n, mean, weights @ (X - mean) ** 2 / n


def merge_moments(n_a, mean_a, var_a, n_b, mean_b, var_b):
    r"""Mean and variance of two groups from their summaries.

    Chan, Golub & LeVeque's pairwise update: with :math:`n = n_a + n_b` and
    :math:`\delta = \mu_b - \mu_a`,

    .. math::

        \mu = \mu_a + \delta\,\frac{n_b}{n}, \qquad
        n\,\sigma^2 = n_a\sigma_a^2 + n_b\sigma_b^2
            + \delta^2\,\frac{n_a n_b}{n}.

    The last term is the spread between the two group means; every term is
    non-negative, so nothing cancels, unlike the running sum of squares.

    Parameters
    ----------
    n_a, n_b : float or ndarray of shape (n_groups, 1)
        Total weights (one per row of the means, e.g. per class).
    mean_a, var_a, mean_b, var_b : ndarray of shape (n_features,) or
        (n_groups, n_features)

    Returns
    -------
    n, mean, var
        ``n`` has the shape of ``n_a``; a group with :math:`n = 0` keeps
        mean and variance 0.

    References
    ----------
    Chan, Golub & LeVeque, "Updating formulae and a pairwise algorithm for
    computing sample variances", Stanford CS report STAN-CS-79-773 (1979),
    eq. 2.1.
    """
    n = n_a + n_b
    safe_n = np.where(n > 0, n, 1.0)  # an empty group stays 0, without 0/0
    delta = mean_b - mean_a
    mean = mean_a + delta * (n_b / safe_n)
    var = (
        n_a * var_a + n_b * var_b + delta**2 * (n_a * n_b / safe_n)
    ) / safe_n
    return n, mean, var
