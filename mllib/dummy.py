"""Baselines that ignore the inputs: the yardstick every real model must beat.

A regressor that always predicts the training mean has R² = 0 on its training
data; a classifier that always predicts the majority class has accuracy equal
to that class's frequency. Same names and behaviour as ``sklearn.dummy``.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .validation import check_sample_weight, encode_classes


class DummyRegressor(RegressorMixin, BaseEstimator):
    """Predict a constant: the training mean, the training median, or a given
    value.

    The mean minimises the empirical squared loss over constants, the median
    the absolute loss.

    Parameters
    ----------
    strategy : {"mean", "median", "constant"}
    constant : float, optional
        The prediction when ``strategy="constant"``.

    Attributes
    ----------
    constant_ : float
        The value predicted for every sample.
    n_features_in_ : int
    """

    def __init__(self, strategy="mean", constant=None):
        self.strategy = strategy
        self.constant = constant

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True  # it ignores X by design
        return tags

    def fit(self, X, y, sample_weight=None):
        r"""Learn the constant from ``y`` of shape (n_samples,); return self.

        ``X`` of shape (n_samples, n_features) is validated and its width
        (and column names) recorded, but its values are ignored. With
        ``sample_weight`` the mean is the weighted mean
        :math:`\sum_iw_iy_i/\sum_iw_i`.
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        weighted = sample_weight is not None
        sample_weight = check_sample_weight(sample_weight, len(y))
        if self.strategy == "mean":
            self.constant_ = float(np.average(y, weights=sample_weight))
        elif self.strategy == "median":
            if weighted:
                raise ValueError(
                    'strategy="median" does not take sample_weight in '
                    "mllib; sklearn.dummy.DummyRegressor computes a "
                    "weighted median."
                )
            self.constant_ = float(np.median(y))
        elif self.strategy == "constant":
            if self.constant is None:
                raise ValueError(
                    'strategy="constant" needs a value: pass constant=<float>.'
                )
            self.constant_ = float(self.constant)
        else:
            raise ValueError(
                'strategy must be "mean", "median" or "constant"; got '
                f"{self.strategy!r}."
            )
        return self

    def predict(self, X):
        """Return ``constant_`` for every row of ``X``, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.full(len(X), self.constant_)


class DummyClassifier(ClassifierMixin, BaseEstimator):
    """Predict the most frequent training class; ``predict_proba`` gives the
    class frequencies.

    Parameters
    ----------
    strategy : {"prior", "most_frequent"}
        Both predict the majority class (ties go to the smallest label, as in
        scikit-learn). ``"prior"`` returns the class frequencies from
        ``predict_proba``; ``"most_frequent"`` returns a one-hot vector.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_prior_ : ndarray of shape (n_classes,)
        Fraction of training samples in each class (of the total
        ``sample_weight``, when given).
    n_features_in_ : int
    """

    def __init__(self, strategy="prior"):
        self.strategy = strategy

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # it ignores X by design
        return tags

    def fit(self, X, y, sample_weight=None):
        """Learn the class frequencies of ``y``; return self."""
        if self.strategy not in ("prior", "most_frequent"):
            raise ValueError(
                'strategy must be "prior" or "most_frequent"; got '
                f"{self.strategy!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        sample_weight = check_sample_weight(sample_weight, len(y_index))
        weight = np.bincount(
            y_index, weights=sample_weight, minlength=len(self.classes_)
        )
        self.class_prior_ = weight / weight.sum()
        return self

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes), columns ordered
        as ``classes_``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if self.strategy == "prior":
            row = self.class_prior_
        else:
            row = np.eye(len(self.classes_))[np.argmax(self.class_prior_)]
        return np.tile(row, (len(X), 1))

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba` (``-inf`` for a class of
        probability 0), as scikit-learn's."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The majority class for every row, shape (n_samples,)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
