r"""AdaBoost (discrete SAMME): reweight the training points, fit a weak
learner, repeat.

With weights :math:`D_t(i)` summing to one (:math:`D_1(i)=1/n`, or
:math:`w_i/\sum_jw_j` for sample weights :math:`w`), round
:math:`t` fits a weak classifier :math:`h_t` to the weighted data, measures its
weighted error :math:`\varepsilon_t=\sum_i D_t(i)\,\mathbb 1[h_t(x_i)\ne y_i]`,
gives it the vote

.. math::

    \beta_t = \eta\Bigl(\log\frac{1-\varepsilon_t}{\varepsilon_t}
        + \log(K-1)\Bigr),

multiplies the weights of the points it misclassified by :math:`e^{\beta_t}`
and renormalises. The ensemble predicts the class with the largest total vote.
For :math:`K=2` classes and learning rate :math:`\eta=1` this is Freund &
Schapire's AdaBoost: with labels in :math:`\{-1,+1\}`,
:math:`\beta_t=2\alpha_t` where
:math:`\alpha_t=\tfrac12\log\frac{1-\varepsilon_t}{\varepsilon_t}`, and the
update :math:`D_{t+1}(i)\propto D_t(i)e^{-\alpha_t y_ih_t(x_i)}` differs from
:math:`D_t(i)e^{\beta_t\mathbb 1[h_t(x_i)\ne y_i]}` only by a factor
:math:`e^{\alpha_t}` common to all points.

**Probabilities** (scikit-learn's SAMME rule): with the normalised votes
:math:`f_k(x)` of :meth:`AdaBoostClassifier.decision_function` (they sum to
zero over the classes), :math:`p_k(x) = \operatorname{softmax}_k\bigl(
f_k(x)/(K-1)\bigr)`. This is the symmetric multiple logistic link of Zhu et
al. (2009), under which the population minimiser of SAMME's exponential loss
:math:`\exp(-\tfrac1K\,y^\top f)` (:math:`y_k=1` for the true class and
:math:`-1/(K-1)` otherwise) satisfies :math:`f_k = (K-1)\bigl(\log p_k -
\tfrac1K\sum_j\log p_j\bigr)`; for two classes it reduces to
:math:`p_1=\sigma(f)`, with :math:`f` the binary decision function. The
scores are normalised by the total vote, so they are calibrated only up to
that scale: use them to rank, or calibrate them.

**Feature importances**: the vote-weighted mean :math:`\sum_t\beta_t
\,\mathrm{imp}(h_t)/\sum_t\beta_t` of the weak learners' normalised impurity
importances (scikit-learn's definition).

**Sample weights** (scikit-learn's rule) only set :math:`D_1`. A point of
weight zero keeps weight zero in every round (it neither trains nor counts in
:math:`\varepsilon_t`), which is dropping it; an integer weight :math:`c` is
:math:`c` repeated rows for any weak learner whose weighted fit equals its fit
on repeated rows (a tree's does), since every later :math:`D_t(i)` is then the
sum of its copies'. Positive weights are kept above machine epsilon, so a
weight that underflows after many rounds never becomes a dropped point.

Boosting stops early if a learner is perfect (:math:`\varepsilon_t=0`: it gets
vote 1 and the loop ends) or no better than chance (:math:`\varepsilon_t\ge
1-1/K`: it is discarded). Same parameters, fitted attributes
(``estimator_weights_`` :math:`=\beta_t`, ``estimator_errors_``
:math:`=\varepsilon_t`) and decision function as scikit-learn's
``AdaBoostClassifier``.

References: Freund & Schapire (1997); Zhu, Zou, Rosset & Hastie (2009),
*Multi-class AdaBoost*.
"""

import inspect

import numpy as np
from scipy.special import softmax
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from ..metrics import accuracy_score
from ..tree import DecisionTreeClassifier
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)


class AdaBoostClassifier(ClassifierMixin, BaseEstimator):
    """Discrete AdaBoost (SAMME) with decision stumps by default.

    Parameters
    ----------
    estimator : classifier accepting ``sample_weight`` in ``fit``, optional
        The weak learner; ``DecisionTreeClassifier(max_depth=1)`` (a stump) by
        default.
    n_estimators : int
        Maximum number of rounds :math:`T`.
    learning_rate : float, positive
        :math:`\\eta`, shrinking every vote.
    random_state : None, int, numpy.random.Generator or RandomState
        Seeds the weak learners.

    Attributes
    ----------
    classes_, n_classes_
    estimator_ : classifier
        The weak learner the rounds clone: ``estimator``, or the default
        stump (unfitted).
    estimators_ : list of fitted weak learners
        Fewer than ``n_estimators`` after an early stop.
    estimator_weights_ : ndarray of shape (n_estimators,)
        The votes :math:`\\beta_t` (0 for rounds that did not run).
    estimator_errors_ : ndarray of shape (n_estimators,)
        The weighted errors :math:`\\varepsilon_t` (1 for rounds that did not
        run).
    feature_importances_ : ndarray of shape (n_features,)
        The vote-weighted mean of the weak learners' importances.
    """

    def __init__(
        self,
        estimator=None,
        *,
        n_estimators=50,
        learning_rate=1.0,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Boost on ``X`` (n_samples, n_features) and labels ``y``, starting
        from :math:`D_1` proportional to ``sample_weight`` (n_samples,;
        uniform if None); return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        sample_weight = check_sample_weight(sample_weight, len(y))
        # one class is allowed, as in scikit-learn: the first weak learner
        # is perfect, boosting stops, and every vote goes to the class
        self.classes_, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        self.n_classes_ = len(self.classes_)
        return self._boost(X, y_index, sample_weight)

    def _check_params(self):
        """The weak learner to clone, the learning rate and the random
        generator, after checking the parameters."""
        check_int(self.n_estimators, "n_estimators", low=1)
        learning_rate = check_scalar(
            self.learning_rate, "learning_rate", low=0.0, low_inclusive=False
        )
        weak_learner = (
            self.estimator
            if self.estimator is not None
            else DecisionTreeClassifier(max_depth=1)
        )
        fit_parameters = inspect.signature(weak_learner.fit).parameters
        if "sample_weight" not in fit_parameters:
            raise ValueError(
                "AdaBoost needs a weak learner whose fit accepts "
                f"sample_weight; {type(weak_learner).__name__}.fit does not."
            )
        return (
            weak_learner,
            learning_rate,
            check_random_state(self.random_state),
        )

    def _boost(self, X, y, sample_weight):
        """The rounds of SAMME on ``X`` and class indices ``y``, from
        :math:`D_1` proportional to ``sample_weight``."""
        weak_learner, learning_rate, rng = self._check_params()
        self.estimator_ = weak_learner
        K = self.n_classes_
        self.estimators_ = []
        self.estimator_weights_ = np.zeros(self.n_estimators)  # beta_t
        self.estimator_errors_ = np.ones(self.n_estimators)  # epsilon_t
        weights = sample_weight / sample_weight.sum()  # D_1, a new array
        dropped = sample_weight == 0
        for t in range(self.n_estimators):
            # a weight can underflow after many rounds: keep it above eps,
            # and the dropped points at 0
            weights = np.where(
                dropped, 0.0, np.maximum(weights, np.finfo(float).eps)
            )
            learner = clone(weak_learner)
            if "random_state" in learner.get_params():
                learner.set_params(random_state=int(rng.integers(2**32)))
            learner.fit(X, y, sample_weight=weights)
            wrong = learner.predict(X) != y
            error = np.average(wrong, weights=weights)
            if error <= 0:  # perfect: it alone decides, nothing to reweight
                self.estimators_.append(learner)
                self.estimator_weights_[t] = 1.0
                self.estimator_errors_[t] = 0.0
                break
            if error >= 1.0 - 1.0 / K:  # no better than chance: stop
                if not self.estimators_:
                    raise ValueError(
                        f"The first weak learner has weighted error "
                        f"{error:.3f} >= 1 - 1/K = {1 - 1 / K:.3f}, no "
                        "better than chance; boosting cannot start. Use a "
                        "stronger weak learner."
                    )
                break
            vote = learning_rate * (
                np.log((1.0 - error) / error) + np.log(K - 1.0)
            )
            self.estimators_.append(learner)
            self.estimator_weights_[t], self.estimator_errors_[t] = vote, error
            if t < self.n_estimators - 1:
                # D_{t+1}(i) proportional to D_t(i) exp(beta_t [mistake])
                weights = weights * np.exp(vote * wrong)
                weights /= weights.sum()
        return self

    def staged_decision_function(self, X):
        """The decision function after each round: a generator of arrays (see
        :meth:`decision_function`)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        K = self.n_classes_
        votes, total = np.zeros((len(X), K)), 0.0
        for learner, weight in zip(self.estimators_, self.estimator_weights_):
            if K == 1:  # no other class to vote against: 0, as scikit-learn
                yield np.zeros((len(X), 1))
                continue
            # a learner votes +weight for its class and -weight/(K-1) for each
            # other class
            mine = np.eye(K, dtype=bool)[learner.predict(X)]
            votes += np.where(mine, weight, -weight / (K - 1))
            total += weight
            yield (
                (votes[:, 1] - votes[:, 0]) / total
                if K == 2
                else votes / total
            )

    def decision_function(self, X):
        r"""Normalised votes: shape (n_samples, n_classes), or, for two
        classes, shape (n_samples,) equal to
        :math:`2\sum_t\beta_th_t(x)/\sum_t\beta_t\in[-2,2]` with
        :math:`h_t=\pm1` (positive means ``classes_[1]``), as in scikit-learn.
        With one class, zeros of shape (n_samples, 1) (and probabilities 1).
        """
        *_, last = self.staged_decision_function(X)
        return last

    def staged_predict_proba(self, X):
        """Class probabilities after each round: a generator of arrays of
        shape (n_samples, n_classes) (see :meth:`predict_proba`)."""
        for decision in self.staged_decision_function(X):
            yield self._proba(decision)

    def predict_proba(self, X):
        r"""Class probabilities :math:`\operatorname{softmax}(f(x)/(K-1))` of
        the normalised votes :math:`f` (for two classes
        :math:`\sigma(\pm f/2)` of the binary decision, whose two columns
        are :math:`\mp f/2`), shape (n_samples, n_classes), as in
        scikit-learn."""
        return self._proba(self.decision_function(X))

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba`."""
        return np.log(self.predict_proba(X))

    def _proba(self, decision):
        K = self.n_classes_
        if K == 1:
            return np.ones_like(decision)
        if decision.ndim == 1:  # the binary decision is f_1 - f_0 = 2 f_1
            decision = np.column_stack([-decision, decision]) / 2
        else:
            decision = decision / (K - 1)
        return softmax(decision, axis=1)

    @property
    def feature_importances_(self):
        """Vote-weighted mean of the weak learners' feature importances,
        shape (n_features,)."""
        check_is_fitted(self)
        importances = [
            learner.feature_importances_ for learner in self.estimators_
        ]
        weights = self.estimator_weights_[: len(importances)]
        return weights @ np.array(importances) / self.estimator_weights_.sum()

    def staged_predict(self, X):
        """Predictions after each round: a generator of arrays of shape
        (n_samples,)."""
        for decision in self.staged_decision_function(X):
            yield self._to_class(decision)

    def staged_score(self, X, y, sample_weight=None):
        """The (weighted) accuracy on ``(X, y)`` after each round: a
        generator of floats, as scikit-learn's."""
        for prediction in self.staged_predict(X):
            yield accuracy_score(y, prediction, sample_weight=sample_weight)

    def predict(self, X):
        """The class with the largest total vote, shape (n_samples,)."""
        return self._to_class(self.decision_function(X))

    def _to_class(self, decision):
        if decision.ndim == 1:
            return self.classes_[(decision > 0).astype(int)]
        return self.classes_[np.argmax(decision, axis=1)]
