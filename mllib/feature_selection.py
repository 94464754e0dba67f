r"""Greedy forward and backward feature selection by cross-validated score.

Choosing the best subset of :math:`k` out of :math:`d` features means comparing
:math:`\binom dk` models. The greedy alternatives compare :math:`O(d)` models
per step: *forward* selection starts from no feature and adds, at each step,
the one whose addition gives the best cross-validated score; *backward*
selection starts from all features and removes, at each step, the one whose
removal hurts least. Neither is guaranteed to find the best subset, and the two
need not agree.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted, validate_data

from .model_selection import cross_val_score
from .validation import feature_names_in


class SequentialFeatureSelector(TransformerMixin, BaseEstimator):
    r"""Select features one at a time, forward or backward, by cross-validated
    score.

    Parameters
    ----------
    estimator : estimator
        Cloned and refitted on every candidate subset.
    n_features_to_select : "auto", int or float, default="auto"
        How many features to keep: an integer, a fraction of ``n_features``, or
        ``"auto"``: half the features when ``tol`` is None, otherwise as many
        as keep improving the score by at least ``tol``.
    tol : float, optional
        With ``n_features_to_select="auto"``: stop when the best step changes
        the score by less than ``tol`` (the source's Algorithm 3 is forward
        selection with ``tol=0``).
    direction : {"forward", "backward"}, default="forward"
    scoring : None, str or callable, default=None
        As in :func:`mllib.model_selection.cross_val_score` (None:
        ``estimator.score``).
    cv : int, splitter or iterable, default=5

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features,)
        The selected features.
    n_features_to_select_ : int
    n_features_in_ : int

    Notes
    -----
    Same parameters, stopping rule and results as
    ``sklearn.feature_selection.SequentialFeatureSelector`` (without
    ``n_jobs``), given the same folds.
    """

    def __init__(
        self,
        estimator,
        n_features_to_select="auto",
        tol=None,
        direction="forward",
        scoring=None,
        cv=5,
    ):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.tol = tol
        self.direction = direction
        self.scoring = scoring
        self.cv = cv

    def fit(self, X, y):
        """Select features of ``X`` (n_samples, n_features) for ``y``."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        n_features = X.shape[1]
        target, auto = self._check_params(n_features)
        forward = self.direction == "forward"
        # `chosen` marks the features added (forward) or removed (backward)
        chosen = np.zeros(n_features, dtype=bool)
        n_steps = target if (auto or forward) else n_features - target
        best_score = -np.inf
        for _ in range(n_steps):
            scores = {}
            for j in np.flatnonzero(~chosen):  # try adding or removing j
                candidate = chosen.copy()
                candidate[j] = True
                columns = candidate if forward else ~candidate
                scores[j] = cross_val_score(
                    self.estimator,
                    X[:, columns],
                    y,
                    cv=self.cv,
                    scoring=self.scoring,
                ).mean()
            # the best step; ties go to the lowest index, as in scikit-learn
            j = max(scores, key=scores.get)
            stalled = (
                self.tol is not None and scores[j] - best_score < self.tol
            )
            if auto and stalled:  # no step improves the score by tol
                break
            best_score = scores[j]
            chosen[j] = True
        self.support_ = chosen if forward else ~chosen
        self.n_features_to_select_ = int(self.support_.sum())
        return self

    def _check_params(self, n_features):
        """How many features to keep, and whether that is "auto"."""
        if n_features < 2:
            raise ValueError(
                "Feature selection needs at least 2 features; got "
                f"n_features={n_features}."
            )
        if self.direction not in ("forward", "backward"):
            raise ValueError(
                'direction must be "forward" or "backward"; got '
                f"{self.direction!r}."
            )
        if (
            self.tol is not None
            and self.tol < 0
            and self.direction == "forward"
        ):
            raise ValueError("tol must be non-negative for forward selection.")
        wanted = self.n_features_to_select
        if wanted == "auto":
            return (
                n_features - 1 if self.tol is not None else n_features // 2
            ), True
        if isinstance(wanted, Integral) and not isinstance(wanted, bool):
            if not 0 < wanted < n_features:
                raise ValueError(
                    "n_features_to_select must be between 1 and "
                    f"{n_features - 1}; got {wanted}."
                )
            return wanted, False
        if isinstance(wanted, Real) and 0 < wanted <= 1:
            return int(n_features * wanted), False
        raise ValueError(
            'n_features_to_select must be "auto", an integer or a fraction in '
            f"(0, 1]; got {wanted!r}."
        )

    def get_support(self, indices=False):
        """The boolean mask of selected features, or their indices."""
        check_is_fitted(self)
        return np.flatnonzero(self.support_) if indices else self.support_

    def get_feature_names_out(self, input_features=None):
        """Names of the selected features (see :meth:`get_support`)."""
        return feature_names_in(self, input_features)[self.get_support()]

    def transform(self, X):
        """Keep only the selected columns of ``X``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X[:, self.support_]

    def inverse_transform(self, X):
        """``X`` of shape (n_samples, n_features_to_select_) back in the
        original columns, shape (n_samples, n_features_in_), with zeros in
        the columns :meth:`transform` drops, as scikit-learn's."""
        support = self.get_support()
        X = check_array(X, dtype=None)
        if X.shape[1] != support.sum():
            raise ValueError(
                f"X has {X.shape[1]} columns; {support.sum()} features were "
                "selected."
            )
        restored = np.zeros((len(X), support.size), dtype=X.dtype)
        restored[:, support] = X
        return restored
