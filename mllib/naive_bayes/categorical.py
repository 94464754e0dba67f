"""Categorical naive Bayes, for features that take one of finitely many
values."""

import numpy as np

from .base import DiscreteNB, smoothed_log_frequencies


class CategoricalNB(DiscreteNB):
    r"""Naive Bayes with a categorical distribution per feature and class.

    Feature :math:`j` takes values :math:`0,\dots,V_j-1` (encode categories as
    integers first):

    .. math::

        \hat P(x_j = v\mid k) = \frac{N_{kjv} + \alpha}{N_k + \alpha V_j},

    with :math:`N_{kjv}=\sum_i w_i[y_i=k][x_{ij}=v]` the (weighted) number of
    training samples of class :math:`k` whose feature :math:`j` equals
    :math:`v`, and :math:`N_k=\sum_i w_i[y_i=k]`, weights :math:`w_i` from
    ``sample_weight`` (default 1). ``partial_fit`` adds a batch's counts;
    a category first seen in a later batch adds a column of zeros before.

    **Categories unseen in training.** A value :math:`v < V_j` that never
    occurred gets the smoothed probability :math:`\alpha/(N_k+\alpha V_j)` (so
    0 with ``alpha=0``). A value :math:`v \ge V_j` is unknown to the model and
    raises a ``ValueError`` at prediction time (scikit-learn raises an
    ``IndexError``); declare the full range with ``min_categories``.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, used exactly as given; ``alpha=0`` is the
        maximum-likelihood estimate.
    fit_prior : bool
    class_prior : array-like of shape (n_classes,), optional
    min_categories : int or array-like of shape (n_features,), optional
        At least this many categories :math:`V_j` per feature (default: the
        largest value seen, plus 1).

    Attributes
    ----------
    classes_, class_count_, class_log_prior_ : ndarray of shape (n_classes,)
    category_count_ : list of ndarray of shape (n_classes, V_j)
        :math:`N_{kjv}`, one array per feature.
    feature_log_prob_ : list of ndarray of shape (n_classes, V_j)
    n_categories_ : ndarray of shape (n_features,)
        :math:`V_j`.
    n_features_in_ : int

    References
    ----------
    Murphy, *Machine Learning: A Probabilistic Perspective*, §3.5. Equivalent
    to ``sklearn.naive_bayes.CategoricalNB(alpha=alpha)`` for ``alpha > 0``.
    """

    def __init__(
        self, alpha=1.0, fit_prior=True, class_prior=None, min_categories=None
    ):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.min_categories = min_categories

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True  # codes 0, 1, 2, ...
        tags.input_tags.positive_only = True
        return tags

    def _start_counts(self, n_features):
        K = len(self.classes_)
        self.n_categories_ = np.zeros(n_features, dtype=np.int64)
        self.category_count_ = [np.zeros((K, 0)) for _ in range(n_features)]

    def _add_counts(self, X, Y, y_index, weights):
        # a batch may bring new categories: every count array grows to the
        # largest value seen so far plus 1 (and at least min_categories)
        self.n_categories_ = np.maximum(self.n_categories_, X.max(axis=0) + 1)
        if self.min_categories is not None:
            minimum = np.broadcast_to(
                np.asarray(self.min_categories), self.n_categories_.shape
            )
            if minimum.dtype.kind not in "iu":
                raise ValueError(
                    "min_categories must be integers; got "
                    f"{self.min_categories!r}."
                )
            self.n_categories_ = np.maximum(self.n_categories_, minimum)
        K = len(self.classes_)
        for j, V in enumerate(self.n_categories_):
            # N_kjv += Σᵢ wᵢ [yᵢ = k][xᵢⱼ = v], one bincount over (k, v) pairs
            batch = np.bincount(
                y_index * V + X[:, j], weights=weights, minlength=K * V
            ).reshape(K, V)
            seen = self.category_count_[j]
            self.category_count_[j] = batch + np.pad(
                seen, ((0, 0), (0, V - seen.shape[1]))
            )

    def _update_estimates(self):
        alpha = self._check_alpha()
        self.feature_log_prob_ = [
            smoothed_log_frequencies(c, alpha) for c in self.category_count_
        ]
        self._set_class_log_prior()

    def _check_features(self, X):
        return _check_categories(X)

    def _check_X(self, X):
        X = super()._check_X(X)
        unseen = X >= self.n_categories_
        if unseen.any():
            i, j = np.argwhere(unseen)[0]
            raise ValueError(
                f"X[{i}, {j}] = {X[i, j]} is a category never seen in "
                f"training (feature {j} has "
                f"categories 0..{self.n_categories_[j] - 1}). Declare "
                "all categories when fitting "
                "with min_categories."
            )
        return X

    def _joint_log_likelihood(self, X):
        jll = np.tile(self.class_log_prior_, (len(X), 1))
        for j, log_prob in enumerate(self.feature_log_prob_):
            jll += log_prob[
                :, X[:, j]
            ].T  # adding -inf for an impossible value is exact
        return jll


def _check_categories(X):
    if np.any(X < 0):
        raise ValueError(
            "Negative values in data passed to CategoricalNB, which needs "
            "categories coded as integers 0, 1, 2, ...; encode each feature's "
            "categories first."
        )
    if np.any(X != np.round(X)):
        raise ValueError(
            "CategoricalNB needs categories coded as integers 0, 1, 2, ...; X "
            "has non-integer values. Encode each feature's categories first."
        )
    return X.astype(np.int64)
