"""Baselines that ignore the inputs: the yardstick every real model must beat.

A regressor that always predicts the training mean has R² = 0 on its training
data; a classifier that always predicts the majority class has accuracy equal
to that class's frequency. Same names and behaviour as ``sklearn.dummy``.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .validation import check_sample_weight, check_scalar, encode_classes


def weighted_quantile(values, weights, q):
    r"""The smallest of ``values`` whose cumulative weight reaches
    :math:`q\sum_iw_i`: a minimiser of :math:`\sum_iw_i\rho_q(v_i - c)`
    over :math:`c`, with the pinball loss :math:`\rho_q(d)=\max(qd,
    (q-1)d)`; the weighted median for :math:`q=\tfrac12`.

    The objective is convex and piecewise linear in :math:`c`, with slope
    :math:`(1-q)W_{<c} - qW_{>c}`, which changes sign where the weight below
    :math:`c` reaches :math:`q` of the total.

    scikit-learn's ``_weighted_percentile`` (numpy's ``inverted_cdf``),
    including its arithmetic: the target is ``(100 q) / 100`` times the
    total, so that a target that lands on a cumulative weight (``q n`` an
    integer, unit weights) picks the same of the equally good values; for
    :math:`q=0` the target is the smallest positive float, so values of
    weight zero before the first weighted one are skipped (the minimum of
    the weighted values).

    Parameters
    ----------
    values, weights : ndarray of shape (n,), weights non-negative with a
        positive sum
    q : float in [0, 1]
    """
    order = np.argsort(values)
    cumulative = np.cumsum(weights[order])
    target = 100.0 * q / 100 * cumulative[-1]
    if target == 0:
        target = np.nextafter(0.0, 1.0)
    index = min(np.searchsorted(cumulative, target), len(values) - 1)
    return values[order[index]]


class DummyRegressor(RegressorMixin, BaseEstimator):
    r"""Predict a constant: the training mean, median or a quantile, or a
    given value.

    The (weighted) mean minimises the empirical squared loss over
    constants, the median the absolute loss and the :math:`q`-quantile the
    pinball loss :math:`\rho_q` (:func:`weighted_quantile`). As in
    scikit-learn, without ``sample_weight`` the median and quantile are
    numpy's (linearly interpolated) ``np.percentile``; with it, the
    weighted inverted-CDF quantile, the smallest value whose cumulative
    weight reaches :math:`q\sum_iw_i`. ``quantile=0.5`` is ``"median"``.
    Only one target column (scikit-learn also takes several).

    Parameters
    ----------
    strategy : {"mean", "median", "quantile", "constant"}, default="mean"
    constant : float, optional
        The prediction when ``strategy="constant"``.
    quantile : float in [0, 1], optional
        The quantile predicted when ``strategy="quantile"``: 0 the minimum,
        0.5 the median, 1 the maximum.

    Attributes
    ----------
    constant_ : ndarray of shape (1, 1)
        The value predicted for every sample (scikit-learn's shape, (1,
        n_outputs)).
    n_outputs_ : int
        1.
    n_features_in_ : int
    """

    def __init__(self, *, strategy="mean", constant=None, quantile=None):
        self.strategy = strategy
        self.constant = constant
        self.quantile = quantile

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True  # it ignores X by design
        return tags

    def fit(self, X, y, sample_weight=None):
        r"""Learn the constant from ``y`` of shape (n_samples,); return self.

        ``X`` of shape (n_samples, n_features) is validated and its width
        (and column names) recorded, but its values are ignored. With
        ``sample_weight`` the mean is the weighted mean
        :math:`\sum_iw_iy_i/\sum_iw_i`, the median and quantile the
        weighted quantile above.
        """
        if self.strategy not in ("mean", "median", "quantile", "constant"):
            raise ValueError(
                'strategy must be "mean", "median", "quantile" or '
                f'"constant"; got {self.strategy!r}.'
            )
        if self.strategy == "quantile":
            if self.quantile is None:
                raise ValueError(
                    'strategy="quantile" needs the quantile: pass '
                    "quantile=<float in [0, 1]>."
                )
            check_scalar(self.quantile, "quantile", low=0.0, high=1.0)
        if self.strategy == "constant" and self.constant is None:
            raise TypeError(
                'strategy="constant" needs a value: pass constant=<float>.'
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        weighted = sample_weight is not None
        sample_weight = check_sample_weight(sample_weight, len(y))
        if self.strategy == "mean":
            constant = np.average(y, weights=sample_weight)
        elif self.strategy == "constant":
            constant = float(self.constant)
        else:
            q = 0.5 if self.strategy == "median" else self.quantile
            constant = (
                weighted_quantile(y, sample_weight, q)
                if weighted
                else np.percentile(y, 100.0 * q)
            )
        self.n_outputs_ = 1
        self.constant_ = np.full((1, 1), float(constant))
        return self

    def predict(self, X, return_std=False):
        """Return ``constant_`` for every row of ``X``, shape (n_samples,),
        and with ``return_std`` also the predictive standard deviations,
        all zero (a constant has no spread), as scikit-learn."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        y = np.full(len(X), self.constant_[0, 0])
        return (y, np.zeros(len(X))) if return_std else y

    def score(self, X, y, sample_weight=None):
        """:math:`R^2` of the predictions on ``y``; ``X`` may be None, since
        the predictions do not depend on it (as in scikit-learn)."""
        if X is None:
            X = np.zeros((len(y), self.n_features_in_))
        return super().score(X, y, sample_weight)


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
    n_classes_ : int
    n_outputs_ : int
        1 (scikit-learn's also takes several target columns).
    sparse_output_ : bool
        False: ``y`` is dense, and so are the predictions.
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
        self.n_classes_ = len(self.classes_)
        self.n_outputs_ = 1
        self.sparse_output_ = False
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
