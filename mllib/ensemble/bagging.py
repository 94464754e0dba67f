r"""Bagging: fit one model per bootstrap sample and average them; out-of-bag
error for free.

Each of the :math:`B` members is trained on a bootstrap sample, :math:`n` draws
with replacement from the :math:`n` training points (a point drawn :math:`c`
times is fitted with weight :math:`c`, or repeated :math:`c` times if the
member takes no weights), optionally on a random subset of the features, one
per member: drawn without replacement (the *random-subspace* method) or, with
``bootstrap_features=True``, with replacement (a column drawn twice is
repeated). A point is left out of a
given bootstrap sample with probability :math:`(1-1/n)^n\to
e^{-1}\approx0.368`, so every point is *out of bag* for about a third of the
members; averaging those members' predictions for it gives an honest estimate
of the test error without a hold-out set.

Each member's draws come from its own generator, seeded by the
``n_estimators`` seeds the ensemble's ``random_state`` draws first, so member
``b`` is the same however many members there are. That is what ``warm_start``
needs (scikit-learn's semantics): refitting with more members keeps the fitted
ones and adds those a single fit with the larger ``n_estimators`` would have
grown.

**Sample weights** (scikit-learn 1.9's rule) are the probabilities of the
draws: a bootstrap sample draws point :math:`i` with probability
:math:`w_i/\sum_jw_j`, and the member is fitted with the draw counts only. The
draw inverts the cumulative weights at uniform points: for integer weights a
uniform :math:`u` picks row :math:`\lfloor uN\rfloor` of the :math:`N=\sum_i
w_i` repeated rows and exactly the original row it repeats, so integer weights
equal repeated rows (zero weights dropped rows) whenever the number of draws
is the same (an integer ``max_samples``; a float one is a fraction of
:math:`\sum_iw_i`), and unit weights equal no weights. Without bootstrap
(*pasting*) the draws are without replacement, successively proportional to
the weights (an exponential race: the smallest :math:`E_i/w_i`,
:math:`E_i\sim\mathrm{Exp}(1)`), which no longer equals repeated rows; with
``max_samples=None`` every point is drawn once, so the weights change nothing
(and a zero weight leaves too few points to draw: an error), which is why
scikit-learn and mllib warn. Forests differ (see
:mod:`mllib.ensemble.forest`). The out-of-bag score is unweighted, over every
training point that has an out-of-bag prediction (zero weights are never
drawn, so always out of bag), as in scikit-learn.

Classifiers average the members' class probabilities (soft voting; for fully
grown trees, whose leaves are pure, this is the majority vote); regressors
average the predictions, each member evaluated on its own columns
(``estimators_features_``). Same parameters and attributes as scikit-learn's
``BaggingClassifier`` / ``BaggingRegressor``; the random draws differ (numpy's
``Generator``).

Reference: Breiman (1996), *Bagging predictors*; Ho (1998), *The random
subspace method*.
"""

import inspect
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.utils import get_tags
from sklearn.utils.validation import (
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from ..metrics import accuracy_score, r2_score
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    encode_classes,
)


class BaseBagging(BaseEstimator):
    """The bootstrap loop and the out-of-bag bookkeeping shared by all bagged
    ensembles."""

    def __init__(
        self,
        estimator=None,
        n_estimators=10,
        *,
        max_samples=None,
        max_features=1.0,
        bootstrap=True,
        bootstrap_features=False,
        oob_score=False,
        warm_start=False,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.oob_score = oob_score
        self.warm_start = warm_start
        self.random_state = random_state

    def _make_estimator(self, seed):
        """A fresh member; its ``random_state`` (if it has one) is ``seed``."""
        estimator = clone(
            self.estimator
            if self.estimator is not None
            else self._default_estimator()
        )
        if "random_state" in estimator.get_params():
            estimator.set_params(random_state=seed)
        return estimator

    def _n_member_features(self, n_features):
        """Number of features each member sees (the random subspace)."""
        return _count(self.max_features, n_features, "max_features")

    def _draw_features(self, rng, n_features, n_drawn):
        """The columns a member sees, sorted: ``n_drawn`` of the
        ``n_features`` drawn with replacement (``bootstrap_features``) or
        without (the random subspace; all of them, with no draw, when
        ``n_drawn`` is ``n_features``)."""
        if self.bootstrap_features:
            return np.sort(rng.integers(n_features, size=n_drawn))
        if n_drawn == n_features:
            return np.arange(n_features)
        return np.sort(rng.choice(n_features, n_drawn, replace=False))

    def _n_draws(self, n, total_weight):
        """Draws per member: ``n`` for ``max_samples=None``, an integer as
        given (more than ``n`` with replacement), or a fraction in (0, 1]
        of the total weight, at least 1 (scikit-learn's bagging)."""
        return _count_draws(self.max_samples, n, total_weight, largest=1.0)

    def _draw_and_fit_weights(self, sample_weight, n):
        """How the caller's ``sample_weight`` (validated here; None is a
        weight of one for every point) acts: ``(draw, fit)``, the weights
        the draws are proportional to and the factors multiplying each
        point's draw count in its member's fit. In bagging the weights are
        the draws' probabilities and a member sees the counts alone
        (scikit-learn 1.9); without bootstrap that does not weigh points as
        repeated rows would, so it warns, as scikit-learn does."""
        if sample_weight is not None and not self.bootstrap:
            warnings.warn(
                f"When fitting {type(self).__name__} with sample_weight it is "
                "recommended to use bootstrap=True, got False: draws without "
                "replacement do not weigh points as repeated rows would (with "
                "max_samples=None every point of positive weight is drawn "
                "once).",
                UserWarning,
                stacklevel=3,
            )
        return check_sample_weight(sample_weight, n), np.ones(n)

    def _check_params(self, draw_weight, d):
        """Draws per member, features per member and the random generator,
        after checking the parameters (``d`` features; the draws are
        proportional to ``draw_weight``, whose sum a float ``max_samples``
        is a fraction of)."""
        check_int(self.n_estimators, "n_estimators", low=1)
        if self.oob_score and not self.bootstrap:
            raise ValueError(
                "oob_score=True needs bootstrap=True: without resampling no "
                "point is out of bag."
            )
        if self.oob_score and self.warm_start and not self._oob_warm_start:
            raise ValueError(
                f"{type(self).__name__} cannot combine oob_score=True with "
                "warm_start=True (as in scikit-learn): fit from scratch for "
                "an out-of-bag score."
            )
        n_draws = self._n_draws(len(draw_weight), draw_weight.sum())
        n_positive = np.count_nonzero(draw_weight)
        if not self.bootstrap and n_draws > n_positive:
            raise ValueError(
                f"Drawing max_samples={n_draws} points without replacement "
                f"needs as many points of positive weight; there are "
                f"{n_positive}. Use bootstrap=True or a smaller max_samples."
            )
        n_features = self._n_member_features(d)
        return n_draws, n_features, check_random_state(self.random_state)

    #: Whether ``oob_score`` may be combined with ``warm_start`` (forests
    #: recompute the score over all members; scikit-learn's bagging refuses).
    _oob_warm_start = False

    def _fit_members(self, X, y, draw_weight, fit_weight):
        """Fit ``n_estimators`` members on bootstrap samples of ``(X, y)``
        (``y`` encoded) drawn with probabilities proportional to
        ``draw_weight``, each point's count multiplied by ``fit_weight``
        (:meth:`_draw_and_fit_weights`), or with ``warm_start`` only the
        members beyond those already fitted; return self."""
        n, d = X.shape
        n_draws, n_features, rng = self._check_params(draw_weight, d)
        cumulative_weight = np.cumsum(draw_weight)
        # one seed per member, drawn up front: member b's draws do not depend
        # on n_estimators
        seeds = rng.integers(2**32, size=self.n_estimators)
        n_fitted = (
            len(self.estimators_)
            if self.warm_start and hasattr(self, "estimators_")
            else 0
        )
        if n_fitted > self.n_estimators:
            raise ValueError(
                f"n_estimators={self.n_estimators} must be larger or equal "
                f"to len(estimators_)={n_fitted} when warm_start==True."
            )
        if n_fitted and n_fitted == self.n_estimators:
            warnings.warn(
                "Warm-start fitting without increasing n_estimators does "
                "not fit new members.",
                UserWarning,
                stacklevel=3,
            )
        if not n_fitted:
            self.estimators_ = []
            self.estimators_samples_, self.estimators_features_ = [], []
        for seed in seeds[n_fitted:]:
            member_rng = np.random.default_rng(seed)
            drawn = (  # with replacement (bootstrap) or without (pasting)
                _draw_with_replacement(member_rng, cumulative_weight, n_draws)
                if self.bootstrap
                else _draw_without_replacement(
                    member_rng, draw_weight, n_draws
                )
            )
            features = self._draw_features(member_rng, d, n_features)
            member = self._make_estimator(int(member_rng.integers(2**32)))
            # a point drawn c times weighs c (times fit_weight)
            member_weight = np.bincount(drawn, minlength=n) * fit_weight
            if "sample_weight" in inspect.signature(member.fit).parameters:
                in_bag = np.flatnonzero(member_weight)
                self._fit_member(
                    member,
                    X,
                    y,
                    in_bag,
                    features,
                    member_weight[in_bag].astype(float),
                )
            else:
                member.fit(X[np.ix_(drawn, features)], y[drawn])
            self.estimators_.append(member)
            self.estimators_samples_.append(drawn)
            self.estimators_features_.append(features)
        if self.oob_score:
            self._set_oob_score(X, y)
        return self

    def _fit_member(self, member, X, y, rows, features, sample_weight):
        """Fit ``member`` on the ``rows`` and ``features`` of ``X`` and the
        ``rows`` of ``y``, weighted by ``sample_weight``."""
        member.fit(
            X[np.ix_(rows, features)], y[rows], sample_weight=sample_weight
        )

    def _member_outputs(self, X):
        """Each member's prediction on its own features: a generator of
        arrays."""
        for member, features in zip(
            self.estimators_, self.estimators_features_
        ):
            yield self._member_output(member, X[:, features])

    def _set_oob_score(self, X, y):
        """Average, for each training point, the members that never saw it;
        score that prediction."""
        total, n_votes = 0.0, np.zeros(len(X))
        for member, drawn, features in zip(
            self.estimators_,
            self.estimators_samples_,
            self.estimators_features_,
        ):
            out = np.bincount(drawn, minlength=len(X)) == 0
            output = np.zeros((len(X), *self._output_shape()))
            output[out] = self._member_output(member, X[np.ix_(out, features)])
            total, n_votes = total + output, n_votes + out
        seen = n_votes > 0
        if not seen.all():
            warnings.warn(
                f"{np.sum(~seen)} training points were in every bootstrap "
                "sample and have no out-of-bag prediction; the out-of-bag "
                "score uses the others. Use more estimators.",
                UserWarning,
                stacklevel=3,
            )
        with np.errstate(invalid="ignore", divide="ignore"):
            oob = total / n_votes.reshape(
                -1, *([1] * len(self._output_shape()))
            )
        self._store_oob(oob, y, seen)


class BaggingClassifier(ClassifierMixin, BaseBagging):
    """Bagged classifiers: the average of the members' class probabilities.

    Parameters
    ----------
    estimator : classifier, optional
        The member to clone; a fully grown
        :class:`~mllib.tree.DecisionTreeClassifier` by default.
    n_estimators : int
        :math:`B`, the number of members.
    max_samples : None, int or float
        Draws per member: :math:`n` for None, an integer as given (more than
        :math:`n` only with ``bootstrap``), a float in (0, 1] a fraction of
        :math:`n` (of the total weight with ``sample_weight``).
    max_features : int or float
        Features per member, chosen at random once per member (an integer in
        [1, n_features] or a fraction in (0, 1] of them; 1.0: all of them
        unless ``bootstrap_features``).
    bootstrap : bool
        Draw the points with replacement (otherwise without: *pasting*).
    bootstrap_features : bool
        Draw each member's features with replacement (a column drawn twice
        appears twice); otherwise without (the random subspace).
    oob_score : bool
        Estimate the accuracy from the out-of-bag points.
    warm_start : bool
        Keep the members of the previous fit and add members up to
        ``n_estimators`` (the same members a fit from scratch would grow, for
        an integer ``random_state``); cannot be combined with ``oob_score``.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    classes_, n_classes_
    estimators_ : list of fitted members
    estimators_samples_ : list of ndarray
        The indices each member drew (with repetitions).
    estimators_features_ : list of ndarray
        The columns each member sees, sorted (with repetitions if
        ``bootstrap_features``); ``predict`` evaluates member ``b`` on
        ``X[:, estimators_features_[b]]``.
    oob_score_ : float
        Accuracy of the out-of-bag predictions (only with ``oob_score=True``).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Averaged out-of-bag class probabilities (NaN for a point that was never
        out of bag).
    """

    def _default_estimator(self):
        return DecisionTreeClassifier()

    def fit(self, X, y, sample_weight=None):
        """Fit the members on bootstrap samples of ``X`` (n_samples,
        n_features) and labels ``y``, drawn with probabilities proportional
        to ``sample_weight`` (n_samples,) if given; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        weights = self._draw_and_fit_weights(sample_weight, len(y))
        # one class is allowed, as in scikit-learn: every member predicts it
        classes, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        if self.warm_start and hasattr(self, "classes_"):
            if not np.array_equal(classes, self.classes_):
                raise ValueError(
                    f"warm_start=True needs the classes of the previous fit, "
                    f"{self.classes_.tolist()}; y has {classes.tolist()}."
                )
        self.classes_, self.n_classes_ = classes, len(classes)
        return self._fit_members(X, y_index, *weights)

    def _output_shape(self):
        return (self.n_classes_,)

    def _member_output(self, member, X):
        """The member's probabilities for all classes, columns of classes its
        sample lacked set to 0."""
        proba = np.zeros((len(X), self.n_classes_))
        if hasattr(member, "predict_proba"):
            proba[:, member.classes_] = member.predict_proba(X)
        else:
            proba[np.arange(len(X)), member.predict(X)] = 1.0
        return proba

    def _store_oob(self, oob, y, seen):
        self.oob_decision_function_ = oob
        self.oob_score_ = accuracy_score(y[seen], np.argmax(oob[seen], axis=1))

    def predict_proba(self, X):
        """Average of the members' class probabilities, shape (n_samples,
        n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return sum(self._member_outputs(X)) / len(self.estimators_)

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba` (``-inf`` for a class no
        member gives any probability), as scikit-learn's."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The class with the largest average probability, shape
        (n_samples,)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class BaggingRegressor(RegressorMixin, BaseBagging):
    """Bagged regressors: the average of the members' predictions.

    Parameters as :class:`BaggingClassifier` (the default member is a fully
    grown :class:`~mllib.tree.DecisionTreeRegressor`). ``y`` may have several
    outputs, shape (n_samples, n_outputs), if the member accepts them (the
    default tree does); the members' predictions are then averaged output by
    output. ``oob_score_`` is the out-of-bag :math:`R^2` (with several
    outputs, their mean) and ``oob_prediction_`` (shape (n_samples,) or
    (n_samples, n_outputs)) the averaged out-of-bag predictions.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # several outputs if the member takes them
        member_tags = get_tags(self._make_estimator(0)).target_tags
        tags.target_tags.multi_output = member_tags.multi_output
        return tags

    def _default_estimator(self):
        return DecisionTreeRegressor()

    def fit(self, X, y, sample_weight=None):
        """Fit the members on bootstrap samples of ``X`` (n_samples,
        n_features) and targets ``y`` (n_samples,) or (n_samples,
        n_outputs), drawn with probabilities proportional to
        ``sample_weight`` (n_samples,) if given; return self."""
        X, y = validate_data(
            self, X, y, dtype=np.float64, y_numeric=True, multi_output=True
        )
        y = _ravel_column(y)
        self._n_outputs = 1 if y.ndim == 1 else y.shape[1]
        weights = self._draw_and_fit_weights(sample_weight, len(y))
        return self._fit_members(X, y, *weights)

    def _output_shape(self):
        return () if self._n_outputs == 1 else (self._n_outputs,)

    def _member_output(self, member, X):
        return member.predict(X)

    def _store_oob(self, oob, y, seen):
        self.oob_prediction_ = oob
        # several outputs: the mean of their R^2 (scikit-learn's default)
        y, oob = y.reshape(len(y), -1), oob.reshape(len(y), -1)
        self.oob_score_ = float(
            np.mean(
                [r2_score(y[seen, o], oob[seen, o]) for o in range(y.shape[1])]
            )
        )

    def predict(self, X):
        """Average of the members' predictions, shape (n_samples,) or
        (n_samples, n_outputs)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return sum(self._member_outputs(X)) / len(self.estimators_)


def _ravel_column(y):
    """A column ``y`` of shape (n_samples, 1) as 1-D, with scikit-learn's
    DataConversionWarning; other shapes unchanged."""
    if y.ndim == 2 and y.shape[1] == 1:
        return column_or_1d(y, warn=True)
    return y


def _count_draws(max_samples, n, total_weight, largest):
    """Draws per member: ``n`` for None, a positive integer as given, or a
    fraction in (0, ``largest``] of the total weight (of ``n`` without
    weights), at least 1."""
    if max_samples is None:
        return n
    if _is_integer(max_samples):
        if max_samples >= 1:
            return int(max_samples)
    elif isinstance(max_samples, numbers.Real) and (
        0 < max_samples <= largest and np.isfinite(max_samples)
    ):
        return max(1, int(max_samples * total_weight))
    real = "a fraction in (0, 1]" if largest == 1 else "a positive float"
    raise ValueError(
        f"max_samples must be None, an integer of at least 1 or {real} "
        f"(times the {n} samples, or the total sample weight); got "
        f"{max_samples!r}."
    )


def _draw_with_replacement(rng, cumulative_weight, n_draws):
    r"""``n_draws`` indices, ``i`` with probability :math:`w_i/\sum_jw_j`:
    the inverse of the cumulative weights at uniform points (the rule of
    numpy's ``choice``). A point of weight 0 owns an empty interval and is
    never drawn; since :math:`u<1`, :math:`u\sum_jw_j` stays below the last
    cumulative weight, so every index is valid."""
    uniform = rng.random(n_draws) * cumulative_weight[-1]
    return np.searchsorted(cumulative_weight, uniform, side="right")


def _draw_without_replacement(rng, weight, n_draws):
    r"""``n_draws`` distinct indices drawn one after another, each with
    probability proportional to its weight among those left: the
    ``n_draws`` smallest of :math:`E_i/w_i`, :math:`E_i\sim\mathrm{Exp}(1)`
    independent (the first of independent exponential clocks of rates
    :math:`w_i` rings with probability :math:`w_i/\sum_jw_j`, and the rest
    race on, memoryless). Weight 0 never rings; equal weights give a uniform
    random subset. Returned sorted: a set of points has no order."""
    with np.errstate(divide="ignore"):
        keys = rng.standard_exponential(len(weight)) / weight
    return np.sort(np.argsort(keys, kind="stable")[:n_draws])


def _count(value, total, name):
    """An absolute count from an int in [1, total] or a fraction in (0, 1] of
    ``total``."""
    if _is_integer(value):
        if 1 <= value <= total:
            return int(value)
    elif isinstance(value, numbers.Real) and 0 < value <= 1:
        return max(1, int(value * total))
    raise ValueError(
        f"{name} must be an integer in [1, {total}] or a fraction in (0, "
        f"1]; got {value!r}."
    )


def _is_integer(value):
    """An integer that is not a bool (``True`` is not a count)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
