r"""Learning with expert advice: the weighted majority and halving algorithms.

On trial :math:`t` each of :math:`n` experts predicts :math:`x_{t,i}\in\{0,1\}`, the learner
predicts :math:`\hat y_t`, and then sees the label :math:`y_t\in\{0,1\}`. Neither algorithm
looks at the inputs behind the advice; only at which experts have been wrong so far.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import check_scalar
from ._binary import check_binary


def weighted_vote(advice, weights):
    """Predict 1 where the experts advising 1 carry at least half the total weight (ties go to 1).

    ``advice`` has shape (n_trials, n_experts); ``weights`` has shape (n_experts,), or one row
    of weights per trial.
    """
    weight_for_one = (advice * weights).sum(axis=-1)
    return (2 * weight_for_one >= weights.sum(axis=-1)).astype(int)


class WeightedMajority(ClassifierMixin, BaseEstimator):
    r"""Weighted majority vote over experts (Littlestone and Warmuth, 1994).

    Every expert starts with weight 1; on each trial the learner predicts the weighted
    majority of the advice, and every expert that was wrong has its weight multiplied by
    :math:`\beta`, so after :math:`m_i` mistakes expert :math:`i` weighs :math:`\beta^{m_i}`. For
    every expert :math:`i` the learner's number of mistakes satisfies

    .. math::

        M \le \frac{\ln(1/\beta)\,M_i + \ln n}{\ln\bigl(2/(1+\beta)\bigr)} .

    Parameters
    ----------
    beta : float in [0, 1)
        Penalty factor. ``beta=0`` discards an expert at its first mistake: that is the
        halving algorithm (:class:`Halving`) while a perfect expert remains. Once every expert
        has erred, ``beta=0`` lets only the experts with the fewest mistakes so far vote, rather
        than compare two zero weights.

    Attributes
    ----------
    predictions_ : ndarray of shape (n_trials,)
        The learner's online prediction on each training trial.
    mistakes_ : ndarray of bool, shape (n_trials,)
    n_mistakes_ : int
        :math:`M`, the learner's number of mistakes on the stream.
    expert_mistakes_ : ndarray of shape (n_experts,)
        :math:`M_i`, each expert's number of mistakes on the stream.
    weights_ : ndarray of shape (n_experts,)
        Final weights :math:`\beta^{M_i}` divided by the largest one (only ratios matter).
    n_features_in_ : int
        The number of experts.

    Notes
    -----
    The weights depend only on the experts' past mistakes, never on the learner's own
    predictions, so the whole stream is processed at once from the running mistake counts.
    Rescaling every weight by :math:`\beta^{-\min_j m_j}` leaves each vote unchanged and keeps
    the largest weight at 1, so long streams cannot underflow to a 0/0 vote. scikit-learn
    has no equivalent.
    """

    _needs_a_perfect_expert = False

    def __init__(self, beta=0.5):
        self.beta = beta

    def _penalty(self):
        return check_scalar(
            self.beta, "beta", low=0.0, high=1.0, high_inclusive=False
        )

    def fit(self, X, y):
        """Run the algorithm over the stream: ``X`` (n_trials, n_experts) of
        advice, ``y`` (n_trials,)."""
        beta = self._penalty()
        X, y = self._validate_stream(X, y)
        wrong = X != y[:, None]
        # m_{t,i}: expert i's mistakes before trial t; its weight is
        # beta^m_{t,i}, rescaled by beta^(-min_j m_{t,j}) (the vote is the
        # same, and the largest weight stays 1). beta ** 0 == 1 also for
        # beta = 0, so experts without mistakes keep weight 1.
        mistakes_before = np.cumsum(wrong, axis=0) - wrong
        weights = beta ** (
            mistakes_before - mistakes_before.min(axis=1, keepdims=True)
        )
        self.predictions_ = weighted_vote(X, weights)
        self.mistakes_ = self.predictions_ != y
        self.n_mistakes_ = int(self.mistakes_.sum())
        self.expert_mistakes_ = wrong.sum(axis=0)
        self.weights_ = beta ** (
            self.expert_mistakes_ - self.expert_mistakes_.min()
        )
        return self

    def _validate_stream(self, X, y):
        """The advice and labels as 0/1 floats; for halving, a perfect expert
        must exist."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        check_binary(X, "X (the expert advice)"), check_binary(y, "y")
        wrong = X != y[:, None]
        if self._needs_a_perfect_expert and wrong.any(axis=0).all():
            last = int(np.max(np.argmax(wrong, axis=0)))
            raise ValueError(
                "No expert is right on every trial (the last one made its "
                f"first mistake on trial {last}), so the halving algorithm "
                "would discard them all. It assumes a perfect expert; use "
                "WeightedMajority(beta) when none may exist."
            )
        return X, y

    def predict(self, X):
        """The weighted majority of new advice ``X`` (n_trials, n_experts) with the final weights."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        check_binary(X, "X (the expert advice)")
        return weighted_vote(X, self.weights_)


class Halving(WeightedMajority):
    r"""The halving algorithm: predict the majority of the experts not yet wrong, then drop the wrong ones.

    It is weighted majority with :math:`\beta=0`. Each of its mistakes removes at least half of
    the surviving experts, so if one expert is always right, :math:`1\le n/2^M`, i.e.
    :math:`M\le\log_2 n`.

    Attributes
    ----------
    alive_ : ndarray of bool, shape (n_experts,)
        The experts that made no mistake on the stream.
    predictions_, mistakes_, n_mistakes_, expert_mistakes_, weights_, n_features_in_
        As for :class:`WeightedMajority`; ``weights_`` is ``alive_`` as 0/1.

    Raises
    ------
    ValueError
        From ``fit``, if no expert is right on every trial of the stream.
    """

    _needs_a_perfect_expert = True

    def __init__(self):
        pass

    def _penalty(self):
        return 0.0

    def fit(self, X, y):
        super().fit(X, y)
        self.alive_ = self.expert_mistakes_ == 0
        return self

    fit.__doc__ = WeightedMajority.fit.__doc__
