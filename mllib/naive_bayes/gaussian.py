"""Gaussian naive Bayes, for real-valued features."""

import numpy as np

from ..validation import check_scalar
from .base import BaseNB


class GaussianNB(BaseNB):
    r"""Naive Bayes with independent Gaussian features: :math:`x_j\mid
    k\sim\mathcal N(\mu_{kj}, \sigma^2_{kj})`.

    The maximum-likelihood estimates are the class means and the (biased,
    divide-by-:math:`N_k`) class variances; every variance is increased by
    :math:`\epsilon = ` ``var_smoothing``
    :math:`\times\max_j\operatorname{Var}(x_j)` so that a constant feature
    cannot divide by 0.

    .. math::

        \log\pi_k + \log p(x\mid k) = \log\pi_k
            - \frac12\sum_j\Bigl(\log(2\pi\sigma^2_{kj})
            + \frac{(x_j-\mu_{kj})^2}{\sigma^2_{kj}}\Bigr).

    Parameters
    ----------
    priors : array-like of shape (n_classes,), optional
        Fixed class priors; default the class frequencies.
    var_smoothing : float, default 1e-9

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    theta_ : ndarray of shape (n_classes, n_features)
        :math:`\mu_{kj}`.
    var_ : ndarray of shape (n_classes, n_features)
        :math:`\sigma^2_{kj}`, including :math:`\epsilon`.
    epsilon_ : float
    n_features_in_ : int

    References
    ----------
    Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    §6.6.3. Equivalent to ``sklearn.naive_bayes.GaussianNB``.
    """

    def __init__(self, priors=None, var_smoothing=1e-9):
        self.priors = priors
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        """Fit to ``X`` of shape (n_samples, n_features) and labels ``y``;
        return self."""
        var_smoothing = check_scalar(
            self.var_smoothing, "var_smoothing", low=0
        )
        X, Y = self._fit_classes(X, y)
        self.epsilon_ = var_smoothing * float(np.var(X, axis=0).max())
        self.theta_ = (Y.T @ X) / self.class_count_[:, None]
        # per-class variance from the centred data, not E[x²] - E[x]², which
        # cancels
        self.var_ = (
            np.vstack(
                [np.var(X[Y[:, k] == 1], axis=0) for k in range(Y.shape[1])]
            )
            + self.epsilon_
        )
        if np.any(self.var_ == 0):
            raise ValueError(
                "A feature is constant within a class and var_smoothing "
                "is 0, so its Gaussian has "
                "variance 0. Use var_smoothing > 0 (the default is 1e-9)."
            )
        if self.priors is None:
            self.class_prior_ = self.class_count_ / self.class_count_.sum()
        else:
            prior = np.asarray(self.priors, dtype=float)
            if (
                prior.shape != self.class_count_.shape
                or np.any(prior < 0)
                or not np.isclose(prior.sum(), 1)
            ):
                raise ValueError(
                    f"priors must be {len(self.classes_)} non-negative "
                    "probabilities summing to 1; "
                    f"got {self.priors!r}."
                )
            self.class_prior_ = prior
        return self

    def _joint_log_likelihood(self, X):
        # a zero prior gives log 0 = -inf for its class
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.class_prior_)
        log_normaliser = -0.5 * np.sum(np.log(2 * np.pi * self.var_), axis=1)
        squared = [
            np.sum((X - mu) ** 2 / var, axis=1)
            for mu, var in zip(self.theta_, self.var_)
        ]
        return log_prior + log_normaliser - 0.5 * np.column_stack(squared)
