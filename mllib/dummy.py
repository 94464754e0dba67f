"""Baselines that ignore the inputs: the yardstick every real model must beat.

A regressor that always predicts the training mean has R² = 0 on its training
data; a classifier that always predicts the majority class has accuracy equal to
that class's frequency. Same names and behaviour as ``sklearn.dummy``.
"""

import numpy as np

from .base import BaseEstimator, ClassifierMixin, RegressorMixin
from .validation import check_classification_targets


class DummyRegressor(RegressorMixin, BaseEstimator):
    """Predict a constant: the training mean, the training median, or a given value.

    The mean minimises the empirical squared loss over constants, the median the
    absolute loss.

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

    def fit(self, X, y):
        X, y = self._validate_data(X, y, reset=True)
        if self.strategy == "mean":
            self.constant_ = float(np.mean(y))
        elif self.strategy == "median":
            self.constant_ = float(np.median(y))
        elif self.strategy == "constant":
            if self.constant is None:
                raise ValueError(
                    'strategy="constant" needs a value: pass constant=<float>.'
                )
            self.constant_ = float(self.constant)
        else:
            raise ValueError(
                f'strategy must be "mean", "median" or "constant"; got {self.strategy!r}.'
            )
        return self

    def predict(self, X):
        """Return ``constant_`` for every row of ``X``, shape (n_samples,)."""
        X = self._validate_data(X, reset=False)
        return np.full(len(X), self.constant_)


class DummyClassifier(ClassifierMixin, BaseEstimator):
    """Predict the most frequent training class; ``predict_proba`` gives the class frequencies.

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
        Fraction of training samples in each class.
    n_features_in_ : int
    """

    def __init__(self, strategy="prior"):
        self.strategy = strategy

    def fit(self, X, y):
        if self.strategy not in ("prior", "most_frequent"):
            raise ValueError(
                f'strategy must be "prior" or "most_frequent"; got {self.strategy!r}.'
            )
        X, y = self._validate_data(X, y, reset=True, y_numeric=False)
        self.classes_, y_index = check_classification_targets(y)
        self.class_prior_ = np.bincount(
            y_index, minlength=len(self.classes_)
        ) / len(y_index)
        return self

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes), columns ordered as ``classes_``."""
        X = self._validate_data(X, reset=False)
        if self.strategy == "prior":
            row = self.class_prior_
        else:
            row = np.eye(len(self.classes_))[np.argmax(self.class_prior_)]
        return np.tile(row, (len(X), 1))

    def predict(self, X):
        """The majority class for every row, shape (n_samples,)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
