r"""Error-correcting output codes: multiclass classification by :math:`L`
binary problems, one per column of a code matrix.

A code book :math:`M\in\{-1,+1\}^{K\times L}` gives class :math:`k` the code
word :math:`M_{k\cdot}`; classifier :math:`j` learns to predict bit
:math:`M_{y,j}` of an example of class :math:`y` (the classes with
:math:`M_{kj}=+1` against the rest). A new :math:`x` gets the scores
:math:`f(x)=(f_1(x),\dots,f_L(x))` and the class whose code word is
nearest (Dietterich & Bakiri 1995):

* Hamming decoding: :math:`\arg\min_k\#\{j:\operatorname{sign}f_j(x)\ne
  M_{kj}\}`. If the rows are at least :math:`d` apart, a ball of radius
  :math:`t=\lfloor(d-1)/2\rfloor` around a code word meets no other ball,
  so up to :math:`t` wrong bits are corrected.
* Loss-based decoding: :math:`\arg\min_k\sum_j L(M_{kj}f_j(x))` for a margin
  loss :math:`L` (hinge, logistic, exponential), which lets confident bits
  outvote unsure ones (Allwein, Schapire & Singer 2000).
* Euclidean decoding, scikit-learn's: :math:`\arg\min_k\lVert
  f(x)-M_{k\cdot}\rVert^2`. For :math:`\pm1` code words
  :math:`\lVert f-M_{k\cdot}\rVert^2=\lVert f\rVert^2-2M_{k\cdot}f+L`, so
  this is loss-based decoding with the linear loss :math:`L(m)=-m`.

One-vs-rest is the code :math:`2I-\mathbf 1\mathbf 1^\top` (:math:`d=2`,
corrects nothing); the exhaustive code (:func:`exhaustive_code`) has
:math:`d=2^{K-2}`.
"""

import itertools
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from .losses import exponential, hinge, logistic
from .validation import check_random_state, check_scalar, encode_classes

MARGIN_LOSSES = {
    "hinge": hinge,
    "logistic": logistic,
    "exponential": exponential,
}
DECODINGS = ("euclidean", "hamming", *MARGIN_LOSSES)


def code_distance(code_book):
    """Minimum Hamming distance :math:`d` between two rows of a code book of
    shape (n_classes, code_length)."""
    code_book = np.asarray(code_book)
    differ = code_book[:, None, :] != code_book[None, :, :]
    distances = differ.sum(axis=2)
    return int(distances[np.triu_indices(len(code_book), k=1)].min())


def correctable_errors(code_book):
    r"""Number of wrong bits Hamming decoding always corrects,
    :math:`\lfloor(d-1)/2\rfloor` (0 when two rows coincide)."""
    return max(code_distance(code_book) - 1, 0) // 2


def exhaustive_code(n_classes):
    r"""Dietterich & Bakiri's exhaustive code: every split of the classes
    into two non-empty groups, once. Shape (K, 2^(K-1) - 1), entries
    :math:`\pm1`, every two rows exactly :math:`2^{K-2}` apart."""
    if not 2 <= n_classes <= 12:
        raise ValueError(
            f"n_classes must be between 2 and 12 (the code has 2**(K-1) - 1 "
            f"columns); got {n_classes!r}."
        )
    # the columns of Dietterich & Bakiri's table: class 0 always 1, the other
    # classes every bit pattern but all ones, in binary counting order
    splits = list(itertools.product([0, 1], repeat=n_classes - 1))[:-1]
    code = np.vstack([np.ones(len(splits)), np.array(splits).T])
    return 2.0 * code - 1.0


def decode(scores, code_book, decoding="hamming"):
    r"""Index of the nearest code word for each row of ``scores``.

    Parameters
    ----------
    scores : array-like of shape (n_samples, code_length)
        Decision values (margins, threshold 0) for a :math:`\pm1` code book,
        or probabilities of bit 1 (threshold 1/2) for a 0/1 code book.
    code_book : array-like of shape (n_classes, code_length)
    decoding : {"hamming", "euclidean", "hinge", "logistic", "exponential"}
        The distance; the last three are loss-based and need margins and a
        :math:`\pm1` code book. Ties go to the first class.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    scores, code_book = np.asarray(scores, float), np.asarray(code_book)
    low = code_book.min()
    if decoding == "hamming":
        bits = np.where(scores > (low + 1) / 2, 1, low)
        distance = (bits[:, None, :] != code_book[None, :, :]).sum(axis=2)
    elif decoding == "euclidean":
        distance = ((scores[:, None, :] - code_book[None, :, :]) ** 2).sum(2)
    elif decoding in MARGIN_LOSSES:
        if low != -1:
            raise ValueError(
                f"{decoding!r} decoding needs margins (decision_function) and "
                "a +-1 code book; use 'hamming' or 'euclidean' for "
                "probabilities."
            )
        margins = (scores[:, None, :] * code_book[None, :, :]).ravel()
        loss = MARGIN_LOSSES[decoding](margins)
        distance = loss.reshape(len(scores), *code_book.shape).sum(axis=2)
    else:
        raise ValueError(
            f"decoding must be one of {DECODINGS}; got {decoding!r}."
        )
    return np.argmin(distance, axis=1)


class _ConstantPredictor:
    """The classifier of a label present in all training samples (``value``
    1) or in none (``value`` 0): it predicts ``value`` everywhere, with
    ``value`` as its score and probability, as scikit-learn's does."""

    def __init__(self, value):
        self.value = int(value)

    def decision_function(self, X):
        return np.full(len(X), float(self.value))

    def predict_proba(self, X):
        return np.tile([1.0 - self.value, float(self.value)], (len(X), 1))


class OutputCodeClassifier(ClassifierMixin, BaseEstimator):
    r"""Error-correcting output-code multiclass strategy.

    Parameters
    ----------
    estimator : classifier
        An unfitted binary classifier with ``decision_function`` or
        ``predict_proba``; it is cloned, never modified.
    code_size : float, default=1.5
        The code has ``int(n_classes * code_size)`` columns.
    random_state : None, int, numpy.random.Generator or RandomState
        Draws the random code book.
    code_book : array-like of shape (n_classes, code_length), optional
        A code book to use instead of a random one (e.g.
        :func:`exhaustive_code`), rows in the order of ``classes_``, entries
        :math:`\pm1` (or 0/1). Not in scikit-learn.
    decoding : {"euclidean", "hamming", "hinge", "logistic", "exponential"}
        How :meth:`predict` finds the nearest code word (:func:`decode`);
        ``"euclidean"`` is scikit-learn's. Not in scikit-learn.

    Attributes
    ----------
    code_book_ : ndarray of shape (n_classes, code_length)
        Entries :math:`\pm1` if the estimator has ``decision_function``,
        else 0/1 (bit 1 is the positive class), as in scikit-learn.
    estimators_ : list of code_length fitted binary classifiers
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int

    Notes
    -----
    ``sklearn.multiclass.OutputCodeClassifier`` draws each entry uniformly
    from its own ``RandomState``; this one draws from a numpy
    ``Generator``, so the same seed gives a different code book, and it
    redraws any constant column (a binary problem with one class, which
    scikit-learn fits with a constant predictor). Given the same code book
    (``code_book=sk.code_book_``) and base estimators that agree, the two
    predict the same with ``decoding="euclidean"``. Identical rows (likely
    for small ``code_size``) make two classes indistinguishable, in both;
    here they raise a warning. A single class is fitted as in
    scikit-learn: every column of its one-row code book (here all low
    bits) is constant, each fitted by a constant classifier, and every
    prediction is the class.
    """

    def __init__(
        self,
        estimator,
        *,
        code_size=1.5,
        random_state=None,
        code_book=None,
        decoding="euclidean",
    ):
        self.estimator = estimator
        self.code_size = code_size
        self.random_state = random_state
        self.code_book = code_book
        self.decoding = decoding

    def fit(self, X, y):
        """Fit one binary classifier per column of the code book; return
        self."""
        if self.decoding not in DECODINGS:
            raise ValueError(
                f"decoding must be one of {DECODINGS}; got {self.decoding!r}."
            )
        X, y = validate_data(self, X, y, dtype=np.float64)
        # one class is allowed, as in scikit-learn: every column of its
        # one-row code book is constant, and predict gives the class
        self.classes_, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        low = -1.0 if hasattr(self.estimator, "decision_function") else 0.0
        if self.code_book is None:
            code = self._random_code(len(self.classes_))
        else:
            code = self._check_code_book(len(self.classes_))
        self.code_book_ = np.where(code > 0, 1.0, low)
        if len(code) > 1 and code_distance(code) == 0:
            warnings.warn(
                "two classes have the same code word and cannot be told "
                "apart; increase code_size or pass a code_book.",
                UserWarning,
            )
        self.estimators_ = [
            self._fit_bit(X, self.code_book_[y_index, j])
            for j in range(code.shape[1])
        ]
        return self

    def _fit_bit(self, X, bits):
        """The binary classifier of one column; a constant one if the
        column gives every sample the same bit (only with one class)."""
        if np.ptp(bits) == 0:
            return _ConstantPredictor(bits[0] > 0)
        return clone(self.estimator).fit(X, bits)

    def predict(self, X):
        """The class of the nearest code word, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        scores = np.column_stack([_score(e, X) for e in self.estimators_])
        return self.classes_[decode(scores, self.code_book_, self.decoding)]

    def _random_code(self, n_classes):
        size = check_scalar(self.code_size, "code_size", low=0)
        length = int(n_classes * size)
        if length < 1:
            raise ValueError(
                f"code_size={self.code_size!r} gives {length} columns for "
                f"{n_classes} classes; it must give at least one."
            )
        if n_classes == 1:  # no column separates one class from none:
            # every bit is the low one, so that decode reads the code
            # book's kind (+-1 or 0/1) from it as for several classes
            return -np.ones((1, length))
        rng = check_random_state(self.random_state)
        code = np.where(rng.random((n_classes, length)) > 0.5, 1.0, -1.0)
        constant = np.ptp(code, axis=0) == 0
        while constant.any():  # a column with one class teaches nothing
            code[:, constant] = np.where(
                rng.random((n_classes, constant.sum())) > 0.5, 1.0, -1.0
            )
            constant = np.ptp(code, axis=0) == 0
        return code

    def _check_code_book(self, n_classes):
        code = np.asarray(self.code_book, dtype=float)
        if code.ndim != 2 or code.shape[0] != n_classes:
            raise ValueError(
                f"code_book must have one row per class ({n_classes}); got "
                f"shape {code.shape}."
            )
        if not (np.isin(code, (-1, 1)).all() or np.isin(code, (0, 1)).all()):
            raise ValueError("code_book entries must be all +-1 or all 0/1.")
        code = np.where(code > 0, 1.0, -1.0)
        if n_classes > 1 and np.any(np.ptp(code, axis=0) == 0):
            raise ValueError(
                "code_book has a constant column (every class on one side): "
                "its binary problem has one class; drop that column."
            )
        return code


def _score(estimator, X):
    """Margin (decision function) or probability of bit 1."""
    if hasattr(estimator, "decision_function"):
        return np.ravel(estimator.decision_function(X))
    return estimator.predict_proba(X)[:, 1]
