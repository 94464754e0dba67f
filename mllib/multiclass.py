r"""Multiclass classification by reduction to binary problems: one-vs-rest
and one-vs-one.

Error-correcting output codes are in :mod:`mllib.output_code`
(``OutputCodeClassifier`` is importable from here, as in scikit-learn).

Both wrap any binary mllib classifier that has ``decision_function`` or
``predict_proba`` (for example
:class:`mllib.linear_model.LogisticRegression` or :class:`mllib.svm.SVC`)
and reproduce ``sklearn.multiclass.OneVsRestClassifier`` /
``OneVsOneClassifier`` on the same base estimator, ties included.

References
----------
Rifkin & Klautau (2004), *In defense of one-vs-all classification*, JMLR 5.
Allwein, Schapire & Singer (2000), *Reducing multiclass to binary*, JMLR 1.
"""

import itertools
import warnings

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    MetaEstimatorMixin,
    clone,
)
from sklearn.utils import get_tags
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .output_code import (
    OutputCodeClassifier,  # noqa: F401 (sklearn's home)
    _ConstantPredictor,
)
from .validation import available_if, encode_classes


def _binary_score(estimator, X):
    """Confidence that ``X`` belongs to the positive class (label 1) of a
    fitted binary classifier: its decision function if it has one, else the
    probability of the positive class."""
    if hasattr(estimator, "decision_function"):
        return np.ravel(estimator.decision_function(X))
    if hasattr(estimator, "predict_proba"):
        return estimator.predict_proba(X)[:, 1]
    raise ValueError(
        f"{type(estimator).__name__} has neither decision_function nor "
        "predict_proba; a multiclass reduction needs a real-valued score "
        "from each binary classifier."
    )


def ovr_decision_function(predictions, confidences, n_classes):
    r"""Per-class scores from one-vs-one results: votes, ties broken by the
    summed confidences.

    Each pair :math:`(i, j)`, :math:`i<j`, gives a vote to its winner and
    its score :math:`d` (positive towards :math:`j`) to the summed
    confidences: :math:`+d` to class :math:`j`, :math:`-d` to class
    :math:`i`. The sum :math:`\kappa_i` is squashed to
    :math:`\kappa_i/(3(|\kappa_i|+1))\in(-\tfrac13,\tfrac13)` before it is
    added to the votes :math:`v_i`, so it can reorder tied classes but never
    overturn a vote difference of one (scikit-learn's rule, used by
    :class:`OneVsOneClassifier` and :class:`mllib.svm.SVC`).

    Parameters
    ----------
    predictions : ndarray of shape (n_samples, K(K-1)/2)
        1 (or True) where the pair's classifier chose its second class
        :math:`j`, 0 where it chose :math:`i`; pairs in the order (0, 1),
        (0, 2), ..., (K-2, K-1).
    confidences : ndarray of shape (n_samples, K(K-1)/2)
        The pair's score, positive towards :math:`j`.
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, K)
        :math:`v_i + \kappa_i/(3(|\kappa_i|+1))`.
    """
    votes = np.zeros((len(predictions), n_classes))
    confidence = np.zeros_like(votes)
    pairs = itertools.combinations(range(n_classes), 2)
    for p, (i, j) in enumerate(pairs):
        second_wins = predictions[:, p] == 1
        votes[:, i] += ~second_wins
        votes[:, j] += second_wins
        confidence[:, i] -= confidences[:, p]
        confidence[:, j] += confidences[:, p]
    return votes + confidence / (3 * (np.abs(confidence) + 1))


class _Reduction(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """A multiclass classifier built from binary ones (``estimator``)."""

    def __init__(self, estimator):
        self.estimator = estimator

    def __sklearn_tags__(self):
        # multiclass whatever the binary estimator is; its inputs are ours,
        # so X is passed on as it comes, sparse included (as CSR, whose rows
        # are selected cheaply): the binary estimator refuses what it cannot
        # take, with its own error
        tags = super().__sklearn_tags__()
        tags.input_tags = get_tags(self.estimator).input_tags
        return tags

    @property
    def n_classes_(self):
        """The number of classes, ``len(classes_)`` (of labels, when
        multilabel), as scikit-learn's."""
        return len(self.classes_)


def _base_has(method):
    """The check of a method the wrapper offers only when the fitted binary
    classifiers (before ``fit``, the base estimator) have it, as in
    scikit-learn."""

    def check(self):
        fitted = getattr(self, "estimators_", None)
        base = fitted[0] if fitted else self.estimator
        if not hasattr(base, method):
            raise AttributeError(
                f"This {type(self).__name__} has no {method}: "
                f"{type(base).__name__} has none."
            )
        return True

    return check


class OneVsRestClassifier(_Reduction):
    r"""One binary classifier per class, class :math:`c` against all
    others; predict :math:`\hat y(x) = \arg\max_c f_c(x)`, the largest
    score (not a vote).

    With two classes a single classifier is fitted (positive class
    ``classes_[1]``), as in scikit-learn. With one class nothing is fitted:
    as in scikit-learn, a warning, one constant classifier (score 0,
    ``predict_proba`` the two columns ``[1, 0]``) and the class predicted
    everywhere. Cost: :math:`K` fits, each on all :math:`n` samples.

    **Multilabel.** Given a label-indicator matrix :math:`Y\in\{0,1\}^{n
    \times L}` (sample :math:`i` has label :math:`l` iff :math:`Y_{il} =
    1`, any number of labels per sample), the classifier for label
    :math:`l` is fitted on column :math:`l` alone, and a sample gets every
    label whose classifier says yes (score above 0, or probability above
    1/2 for a base without ``decision_function``): :math:`L` independent
    binary problems ("binary relevance"), with no argmax across them. A
    label present in every training sample (or in none) is predicted
    always (never), with a warning, as in scikit-learn.

    Parameters
    ----------
    estimator : classifier
        An unfitted binary classifier with ``decision_function`` or
        ``predict_proba``; it is cloned, never modified.

    Attributes
    ----------
    estimators_ : list of K fitted classifiers (1 if K = 2)
        ``estimators_[c]`` separates ``classes_[c]`` (label 1) from the
        rest (label 0); for a multilabel ``y``, one per column
    classes_ : ndarray of shape (K,)
        The class labels, or ``0, ..., L-1`` (the columns) when multilabel
    multilabel_ : bool
        Whether ``y`` was a label-indicator matrix.
    n_features_in_ : int

    Equivalent to ``sklearn.multiclass.OneVsRestClassifier(estimator)``.
    """

    def fit(self, X, y):
        """Fit the K one-vs-rest classifiers on ``X`` of shape (n_samples,
        n_features) and labels ``y`` of shape (n_samples,), or one per
        label of an indicator matrix ``y`` of shape (n_samples, L); return
        self."""
        if y is not None:  # (None: validate_data says y is required)
            # a sparse indicator matrix is read as the dense one
            y = y.toarray() if hasattr(y, "toarray") else np.asarray(y)
            if y.ndim == 2 and y.shape[1] > 1:
                return self._fit_multilabel(X, y)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        self.multilabel_ = False
        self.classes_, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        if len(self.classes_) == 1:
            # as scikit-learn: one binary problem, "not the class" against
            # the class, with no positive sample: a constant 0 (score 0,
            # predict_proba [1, 0]), and predict gives the class
            warnings.warn(
                f"y contains only one class ({self.classes_[0]!r}): no "
                "binary classifier is fitted, and every prediction is that "
                "class.",
                UserWarning,
                stacklevel=2,
            )
            self.estimators_ = [_ConstantPredictor(0)]
            return self
        positives = (
            [1] if len(self.classes_) == 2 else range(len(self.classes_))
        )
        self.estimators_ = [
            clone(self.estimator).fit(X, (y_index == c).astype(int))
            for c in positives
        ]
        return self

    def _fit_multilabel(self, X, Y):
        X, Y = validate_data(
            self,
            X,
            Y,
            accept_sparse="csr",
            dtype=np.float64,
            multi_output=True,
        )
        if type_of_target(Y) != "multilabel-indicator":
            raise ValueError(
                "A 2-D y must be a label-indicator matrix (0 and 1, one "
                f"column per label) for multilabel classification; got a "
                f"{type_of_target(Y)!r} target. For several multiclass "
                "outputs use sklearn.multioutput.MultiOutputClassifier."
            )
        self.multilabel_ = True
        self.classes_ = np.arange(Y.shape[1])
        self.estimators_ = []
        for label, column in enumerate(Y.T.astype(int)):
            if np.all(column == column[0]):
                # one class only: no binary classifier can be fitted
                absent = "" if column[0] else "not "
                warnings.warn(
                    f"Label {absent}{label} is present in all training "
                    "examples.",
                    UserWarning,
                    stacklevel=3,
                )
                fitted = _ConstantPredictor(column[0])
            else:
                fitted = clone(self.estimator).fit(X, column)
            self.estimators_.append(fitted)
        return self

    @available_if(_base_has("decision_function"))
    def decision_function(self, X):
        """Scores :math:`f_c(x)`, shape (n_samples, K); shape (n_samples,)
        if K = 2 (not multilabel). Only over a base with
        ``decision_function``, as in scikit-learn."""
        scores = self._scores(X)
        return scores.ravel() if len(self.estimators_) == 1 else scores

    @available_if(_base_has("predict_proba"))
    def predict_proba(self, X):
        r"""Each classifier's :math:`P(\text{class } c \mid x)`; rescaled to
        sum to one over classes unless multilabel.

        The K binary models were trained separately, so these numbers are
        not calibrated multiclass probabilities; they only share the argmax
        with the raw scores. Multilabel, they are the marginal
        probabilities of each label, which need not sum to one.
        """
        check_is_fitted(self)
        X = validate_data(
            self, X, accept_sparse="csr", dtype=np.float64, reset=False
        )
        p = np.column_stack(
            [e.predict_proba(X)[:, 1] for e in self.estimators_]
        )
        if len(self.estimators_) == 1:
            return np.column_stack([1 - p[:, 0], p[:, 0]])
        if self.multilabel_:
            return p
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The class with the largest score (the first one on a tie), shape
        (n_samples,); multilabel, the indicator matrix of the labels whose
        classifier says yes, shape (n_samples, L)."""
        scores = self._scores(X)
        if len(self.estimators_) == 1 or self.multilabel_:
            threshold = (
                0.0
                if hasattr(self.estimators_[0], "decision_function")
                else 0.5
            )
            chosen = (scores > threshold).astype(int)
            if self.multilabel_:
                return chosen
            return self.classes_[chosen[:, 0]]
        return self.classes_[np.argmax(scores, axis=1)]

    def _scores(self, X):
        """Each classifier's score, shape (n_samples, number of
        classifiers)."""
        check_is_fitted(self)
        X = validate_data(
            self, X, accept_sparse="csr", dtype=np.float64, reset=False
        )
        return np.column_stack([_binary_score(e, X) for e in self.estimators_])


class OneVsOneClassifier(_Reduction):
    r"""One binary classifier per pair of classes :math:`i<j`, trained only
    on those two classes; predict the class with the most pairwise wins.

    Ties in the vote are broken by the summed confidences
    (:func:`ovr_decision_function`, scikit-learn's rule). Cost:
    :math:`K(K-1)/2` fits, each on about :math:`2n/K` samples.

    Parameters
    ----------
    estimator : classifier
        An unfitted binary classifier with ``decision_function`` or
        ``predict_proba``.

    Attributes
    ----------
    estimators_ : list of K(K-1)/2 fitted classifiers
        In the order (0,1), (0,2), ..., (K-2,K-1); the one for pair (i, j)
        predicts label 1 for ``classes_[j]``.
    pairs_ : list of (i, j) index pairs, in the same order
    classes_ : ndarray of shape (K,)
    n_features_in_ : int

    Equivalent to ``sklearn.multiclass.OneVsOneClassifier(estimator)``.
    """

    def fit(self, X, y):
        """Fit the K(K-1)/2 pairwise classifiers on ``X`` of shape
        (n_samples, n_features); return self."""
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        self.classes_, y_index = encode_classes(y, estimator=self)
        K = len(self.classes_)
        self.pairs_ = [(i, j) for i in range(K) for j in range(i + 1, K)]
        self.estimators_ = []
        for i, j in self.pairs_:
            rows = (y_index == i) | (y_index == j)
            self.estimators_.append(
                clone(self.estimator).fit(
                    X[rows], (y_index[rows] == j).astype(int)
                )
            )
        return self

    def decision_function(self, X):
        """Votes plus squashed summed confidences, shape (n_samples, K);
        shape (n_samples,) if K = 2."""
        scores = self._scores(self._validate_for_predict(X))
        return scores[:, 1] if len(self.classes_) == 2 else scores

    def predict(self, X):
        """The class with the most pairwise wins (ties by summed
        confidence), shape (n_samples,)."""
        scores = self._scores(self._validate_for_predict(X))
        return self.classes_[np.argmax(scores, axis=1)]

    def _validate_for_predict(self, X):
        check_is_fitted(self)
        return validate_data(
            self, X, accept_sparse="csr", dtype=np.float64, reset=False
        )

    def _scores(self, X):
        """Votes v_i plus squashed summed confidences c_i, shape (n, K):
        v_i counts the duels class i wins, c_i sums its signed scores
        (:func:`ovr_decision_function`)."""
        predictions = np.column_stack(
            [estimator.predict(X) == 1 for estimator in self.estimators_]
        )
        confidences = np.column_stack(
            [_binary_score(estimator, X) for estimator in self.estimators_]
        )
        return ovr_decision_function(
            predictions, confidences, len(self.classes_)
        )
