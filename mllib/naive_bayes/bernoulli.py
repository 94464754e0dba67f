"""Bernoulli naive Bayes, for binary features (e.g. which words occur in a
document)."""

import numpy as np

from .base import DiscreteNB, log_prob_product


class BernoulliNB(DiscreteNB):
    r"""Naive Bayes with independent Bernoulli features: :math:`p(x\mid
    k)=\prod_j\theta_{kj}^{x_j}(1-\theta_{kj})^{1-x_j}`.

    .. math:: \hat\theta_{kj} = \frac{N_{kj} + \alpha}{N_k + 2\alpha},

    with :math:`N_k=\sum_i w_i[y_i=k]` the (weighted) number of training
    samples of class :math:`k` and :math:`N_{kj}=\sum_i w_i[y_i=k]\,x_{ij}`
    those of them with :math:`x_j=1`, weights :math:`w_i` from
    ``sample_weight`` (default 1). Unlike the multinomial
    model, an absent feature (:math:`x_j=0`) is evidence too, through
    :math:`1-\theta_{kj}`.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, used exactly as given; ``alpha=0`` is the
        maximum-likelihood estimate (zero probabilities are handled as
        described in :mod:`mllib.naive_bayes.base`).
    binarize : float or None, default 0.0
        Threshold: features above it become 1, the others 0. ``None``: the
        features must already be 0 or 1, and any other value raises a
        ``ValueError``.
    fit_prior : bool
    class_prior : array-like of shape (n_classes,), optional

    Attributes
    ----------
    classes_, class_count_, class_log_prior_ : ndarray of shape (n_classes,)
    feature_count_ : ndarray of shape (n_classes, n_features)
        :math:`N_{kj}`.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        :math:`\log\hat\theta_{kj}`.
    n_features_in_ : int

    References
    ----------
    Manning, Raghavan & Schütze, *Introduction to Information Retrieval*,
    §13.3. Equivalent to ``sklearn.naive_bayes.BernoulliNB(alpha=alpha,
    binarize=binarize)`` for ``alpha > 0``.
    """

    def __init__(
        self, alpha=1.0, binarize=0.0, fit_prior=True, class_prior=None
    ):
        self.alpha = alpha
        self.binarize = binarize
        self.fit_prior = fit_prior
        self.class_prior = class_prior

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # thresholding the checks' Gaussian blobs at 0 loses most of the
        # signal (scikit-learn's BernoulliNB has the same tag)
        tags.classifier_tags.poor_score = True
        return tags

    def _start_counts(self, n_features):
        self.feature_count_ = np.zeros((len(self.classes_), n_features))

    def _add_counts(self, X, Y, y_index, weights):
        self.feature_count_ = self.feature_count_ + Y.T @ X  # Σᵢ wᵢ[yᵢ=k]xᵢⱼ

    def _update_estimates(self):
        alpha = self._check_alpha()
        denominator = self.class_count_[:, None] + 2 * alpha
        # log 0 = -inf is the intended value for alpha = 0 (and 0/0 = NaN
        # for a class not seen yet with alpha = 0, as its prior is 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.feature_log_prob_ = np.log(
                self.feature_count_ + alpha
            ) - np.log(denominator)
            # log(1 - θ) from the complementary count, exact even when θ rounds
            # to 1; clipped at 0, as the two weighted sums round differently
            complement = np.maximum(
                self.class_count_[:, None] - self.feature_count_, 0.0
            )
            self._log_complement = np.log(complement + alpha) - np.log(
                denominator
            )
        self._set_class_log_prior()

    def _binary(self, X):
        if self.binarize is not None:
            return (X > self.binarize).astype(float)
        if not np.all((X == 0) | (X == 1)):
            bad = np.argwhere((X != 0) & (X != 1))[0]
            raise ValueError(
                "With binarize=None the features must be 0 or 1; "
                f"X[{bad[0]}, {bad[1]}] = "
                f"{float(X[tuple(bad)]):g}. Pass a threshold as "
                "binarize, or use MultinomialNB for counts."
            )
        return X

    def _check_features(self, X):
        return self._binary(X)

    def _joint_log_likelihood(self, X):
        return (
            log_prob_product(X, self.feature_log_prob_)
            + log_prob_product(1 - X, self._log_complement)
            + self.class_log_prior_
        )
