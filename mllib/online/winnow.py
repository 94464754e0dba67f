r"""Winnow: a mistake-driven learner with multiplicative updates, for sparse
Boolean targets.

Inputs :math:`x\in\{0,1\}^n` and labels :math:`y\in\{0,1\}`, as in
Littlestone's paper.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..linear_model.perceptron import run_mistake_driven_passes
from ..validation import check_random_state, check_scalar
from ._binary import check_binary


class Winnow(ClassifierMixin, BaseEstimator):
    r"""Littlestone's Winnow (Winnow2): promote or demote the active weights on
    each mistake.

    Start from :math:`w=\mathbf 1`; predict :math:`\hat y=1` iff :math:`w^\top
    x\ge\theta`. On a mistake, multiply every weight whose feature is on
    (:math:`x_j=1`) by :math:`\alpha^{\,y-\hat y}`: by :math:`\alpha` after a
    missed positive (promotion), by :math:`1/\alpha` after a false positive
    (demotion). With :math:`\theta=n` and :math:`\alpha=2`, the number of
    mistakes on any sequence labelled by a monotone disjunction of :math:`k` of
    the :math:`n` variables is at most :math:`2+3k(\log_2 n+1)`; in general
    (for :math:`\theta\ge1`) at most :math:`\frac{\alpha
    n}{(\alpha-1)\theta}+(\alpha+1)\,k\,(\log_\alpha\theta+1)`.

    Parameters
    ----------
    threshold : float > 0 or None
        :math:`\theta`; ``None`` means the number of features :math:`n`.
    promotion : float > 1
        :math:`\alpha`, the promotion factor; demotion divides by the same
        factor.
    max_iter : int
        Maximum number of passes over the data; ``max_iter=1, shuffle=False``
        is one online pass over the stream in its order.
    shuffle : bool
        Visit the samples in a new random order in each pass.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The weights :math:`w`.
    threshold_ : float
    n_updates_ : int
        Number of mistakes (each one is an update).
    n_promotions_, n_demotions_ : int
        Mistakes on positive examples (:math:`M_p`) and on negative ones
        (:math:`M_n`).
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
    mistake_indices_ : ndarray of shape (n_updates_,)
    n_iter_, n_features_in_ : int

    References
    ----------
    Littlestone (1988), "Learning quickly when irrelevant attributes abound".
    scikit-learn has no equivalent.
    """

    def __init__(
        self,
        threshold=None,
        promotion=2.0,
        max_iter=1000,
        shuffle=True,
        random_state=None,
    ):
        self.threshold = threshold
        self.promotion = promotion
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X, y):
        """Run passes over ``X`` in {0,1} and ``y`` in {0,1}; return self."""
        X, y, threshold, promotion = self._validate_fit_arguments(X, y)
        rng = check_random_state(self.random_state)
        w = np.ones(X.shape[1])

        def is_mistake(i):  # predict 1 iff w'x >= theta
            return (X[i] @ w >= threshold) != y[i]

        # multiply the active weights by alpha^(y - ŷ): promote after a
        # missed positive, demote after a false positive
        def update(i):
            w[X[i] == 1] *= promotion if y[i] == 1 else 1.0 / promotion

        self.n_iter_, self.mistakes_per_epoch_, self.mistake_indices_ = (
            run_mistake_driven_passes(
                is_mistake,
                update,
                len(X),
                max_iter=self.max_iter,
                shuffle=self.shuffle,
                rng=rng,
                name="Winnow",
            )
        )
        self.coef_, self.threshold_ = w, threshold
        self.n_updates_ = len(self.mistake_indices_)
        self.n_promotions_ = int(y[self.mistake_indices_].sum())
        self.n_demotions_ = self.n_updates_ - self.n_promotions_
        return self

    def _validate_fit_arguments(self, X, y):
        """``X``, ``y`` as 0/1 floats, the threshold and the promotion."""
        promotion = check_scalar(
            self.promotion, "promotion", low=1.0, low_inclusive=False
        )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        check_binary(X, "X"), check_binary(y, "y")
        if self.threshold is None:
            return X, y, float(X.shape[1]), promotion
        threshold = check_scalar(
            self.threshold, "threshold", low=0.0, low_inclusive=False
        )
        return X, y, threshold, promotion

    def decision_function(self, X):
        r""":math:`w^\top x-\theta` for each row of ``X``; the prediction is 1
        where it is :math:`\ge0`."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        check_binary(X, "X")
        return X @ self.coef_ - self.threshold_

    def predict(self, X):
        """1 where :math:`w^\\top x\\ge\\theta`, else 0, shape (n_samples,)."""
        return (self.decision_function(X) >= 0).astype(int)
