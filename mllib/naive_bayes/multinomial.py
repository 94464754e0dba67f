"""Multinomial naive Bayes, for counts (e.g. word counts of a document)."""

import numpy as np

from .base import DiscreteNB, log_prob_product, smoothed_log_frequencies


class MultinomialNB(DiscreteNB):
    r"""Naive Bayes with multinomial class-conditionals: :math:`p(x\mid
    k)\propto\prod_j\theta_{kj}^{x_j}`.

    .. math::

        \hat\theta_{kj} = \frac{N_{kj} + \alpha}{\sum_{j'} N_{kj'} + \alpha d},

    with :math:`N_{kj}=\sum_i w_i[y_i=k]\,x_{ij}` the total (weighted) count
    of feature :math:`j` in class :math:`k`, and :math:`N_k=\sum_i w_i[y_i=k]`
    (``class_count_``), weights :math:`w_i` from ``sample_weight`` (default
    1); ``alpha=0`` is the maximum-likelihood estimate. The multinomial
    coefficient does not depend on the class and is left out of the joint
    log-likelihood, as in scikit-learn.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive (Laplace for 1, Lidstone below 1) smoothing, used exactly as
        given. ``alpha=0`` is allowed (see :mod:`mllib.naive_bayes.base` for
        the zero probabilities it produces); scikit-learn raises it to 1e-10
        unless ``force_alpha=True``.
    fit_prior : bool
        Learn class priors from the class frequencies; otherwise uniform.
    class_prior : array-like of shape (n_classes,), optional
        Fixed priors (override ``fit_prior``).

    Attributes
    ----------
    classes_, class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    feature_count_ : ndarray of shape (n_classes, n_features)
        :math:`N_{kj}`.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        :math:`\log\hat\theta_{kj}`.
    n_features_in_ : int

    References
    ----------
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval*,
    §13.2. Equivalent to ``sklearn.naive_bayes.MultinomialNB(alpha=alpha)`` for
    ``alpha > 0``.
    """

    def __init__(self, alpha=1.0, fit_prior=True, class_prior=None):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True  # counts
        # the checks' shifted Gaussian blobs are no counts (as in sklearn)
        tags.classifier_tags.poor_score = True
        return tags

    def _start_counts(self, n_features):
        self.feature_count_ = np.zeros((len(self.classes_), n_features))

    def _add_counts(self, X, Y, y_index, weights):
        self.feature_count_ = self.feature_count_ + Y.T @ X  # Σᵢ wᵢ[yᵢ=k]xᵢⱼ

    def _update_estimates(self):
        self.feature_log_prob_ = smoothed_log_frequencies(
            self.feature_count_, self._check_alpha()
        )
        self._set_class_log_prior()

    def _check_features(self, X):
        return _check_counts(X)

    def _joint_log_likelihood(self, X):
        return (
            log_prob_product(X, self.feature_log_prob_) + self.class_log_prior_
        )


def _check_counts(X):
    if np.any(X < 0):
        raise ValueError(
            "Negative values in data passed to MultinomialNB, which needs "
            f"counts: X has {np.count_nonzero(X < 0)} negative value(s), the "
            f"smallest {float(X.min()):g}. Use GaussianNB for real features."
        )
    return X
