r"""The multiclass perceptron, directly and through the multivector (Kesler)
construction.

**Algorithm 7** keeps one weight vector per class, :math:`W=(w_1,\dots,w_K)`,
predicts :math:`\hat y=\arg\max_cw_c^\top x` and, on a mistake
:math:`\hat y\ne y`, moves :math:`w_y\leftarrow w_y+x` and
:math:`w_{\hat y}\leftarrow w_{\hat y}-x`.

**Algorithm 8** is the same update on one vector :math:`w\in\mathbb R^{Kd}`
with the joint feature map :math:`\psi(x,c)=e_c\otimes x` (``x`` in block
:math:`c`, zeros elsewhere): :math:`w^\top\psi(x,c)=w_c^\top x`, and
:math:`w\leftarrow w+\psi(x,y)-\psi(x,\hat y)` changes exactly blocks
:math:`y` and :math:`\hat y`, so the two algorithms have the same iterates.

**Kesler's construction** (Duda, Hart & Stork 2001, §5.12.1): the data are
separated by some :math:`W` (:math:`w_{y_i}^\top x_i>w_c^\top x_i` for
every :math:`c\ne y_i`) exactly when the :math:`n(K-1)` vectors
:math:`z_{ic}=\psi(x_i,y_i)-\psi(x_i,c)` all lie on the positive side of the
hyperplane :math:`\{z:w^\top z=0\}`. Every update adds one of them with
:math:`w^\top z\le0` (as :math:`\hat y` maximises the score), so Novikoff's
proof applies: if a unit :math:`u` has :math:`u^\top z_{ic}\ge\rho>0` for
all :math:`i,c` and :math:`\lVert z_{ic}\rVert\le R` (here
:math:`R=\sqrt2\max_i\lVert x_i\rVert`), at most :math:`(R/\rho)^2`
updates are made, in any order of the samples.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import check_random_state, encode_classes
from .perceptron import run_mistake_driven_passes


def multivector_features(X, n_classes):
    r""":math:`\psi(x_i,c)=e_c\otimes x_i` for every sample and class, an
    array of shape (n_samples, n_classes, n_classes * n_features)."""
    X = check_array(X, dtype=np.float64)
    n, d = X.shape
    features = np.zeros((n, n_classes, n_classes * d))
    for c in range(n_classes):
        features[:, c, c * d : (c + 1) * d] = X
    return features


def kesler_construction(X, y, n_classes):
    r"""The Kesler vectors :math:`\psi(x_i,y_i)-\psi(x_i,c)`, :math:`c\ne
    y_i`, shape (n_samples * (n_classes - 1), n_classes * n_features), for
    integer classes ``y`` in ``0..n_classes-1``."""
    features = multivector_features(X, n_classes)
    y = np.asarray(y)
    differences = features[np.arange(len(y)), y][:, None, :] - features
    return differences[np.arange(n_classes) != y[:, None]]


def kesler_margin(X, y, coef):
    r"""Margin :math:`\rho=\min_{i,c\ne y_i}u^\top z_{ic}` of the unit
    multivector :math:`u=\operatorname{vec}(W)/\lVert W\rVert_F` and radius
    :math:`R=\max\lVert z_{ic}\rVert`; the mistake bound is
    :math:`(R/\rho)^2` when :math:`\rho>0`.

    ``coef`` is :math:`W` of shape (n_classes, n_features); to include
    intercepts, append a column of ones to ``X`` and the intercepts to
    ``coef``.
    """
    coef = np.asarray(coef, dtype=float)
    if not np.any(coef):
        raise ValueError("coef is zero: it defines no direction, no margin.")
    Z = kesler_construction(X, y, len(coef))
    margin = np.min(Z @ coef.ravel()) / np.linalg.norm(coef)
    return float(margin), float(np.linalg.norm(Z, axis=1).max())


def joint_feature_perceptron(features, y, *, max_iter=1000):
    r"""Algorithm 8 on any joint feature map, visiting the samples in order.

    Parameters
    ----------
    features : array-like of shape (n_samples, n_classes, n_dims)
        :math:`\psi(x_i,c)` for every sample and class (e.g. from
        :func:`multivector_features`).
    y : array-like of shape (n_samples,)
        Integer classes in ``0..n_classes-1``.
    max_iter : int
        Maximum number of passes.

    Returns
    -------
    w : ndarray of shape (n_dims,)
    mistake_indices : ndarray of shape (n_updates,)
        The sample behind each update.
    mistake_labels : ndarray of shape (n_updates,)
        The wrong prediction :math:`\hat y` at each update.
    """
    features = np.asarray(features, dtype=float)
    y = np.asarray(y)
    w, wrong = np.zeros(features.shape[2]), []

    def is_mistake(i):
        guess = int(np.argmax(features[i] @ w))
        if guess != y[i]:
            wrong.append(guess)
        return guess != y[i]

    def update(i):
        w[:] += features[i, y[i]] - features[i, wrong[-1]]

    _, _, mistake_indices = run_mistake_driven_passes(
        is_mistake,
        update,
        len(y),
        max_iter=max_iter,
        shuffle=False,
        rng=None,
        name="joint_feature_perceptron",
    )
    return w, mistake_indices, np.array(wrong, dtype=int)


class MulticlassPerceptron(ClassifierMixin, BaseEstimator):
    r"""Algorithm 7: one weight vector per class, trained by passes until
    one makes no mistake.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Learn :math:`b_c` (a constant feature 1 appended to every sample).
    max_iter : int, default=1000
        Maximum number of passes over the training data.
    shuffle : bool, default=True
        Visit the samples in a new random order in each pass.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
    intercept_ : ndarray of shape (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    n_iter_ : int
    n_updates_ : int
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
    mistake_indices_ : ndarray of shape (n_updates_,)
    mistake_labels_ : ndarray of shape (n_updates_,)
        The index of the wrong prediction :math:`\hat y` at each update.
    n_features_in_ : int

    Notes
    -----
    A tie in the argmax goes to the first class, and a tie won by the true
    class is not a mistake (Algorithm 7 as written). With two classes this
    is not quite scikit-learn's ``Perceptron``, which counts a zero score
    as a mistake; scikit-learn has no multiclass perceptron of this kind
    (its ``Perceptron`` is one-vs-rest).
    """

    def __init__(
        self,
        fit_intercept=True,
        max_iter=1000,
        shuffle=True,
        random_state=None,
    ):
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state

    def fit(self, X, y):
        """Run passes over ``(X, y)`` until one makes no mistake; return
        self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(y, estimator=self)
        if self.fit_intercept:
            X = np.hstack([X, np.ones((len(X), 1))])
        W, wrong = np.zeros((len(self.classes_), X.shape[1])), []

        def is_mistake(i):
            guess = int(np.argmax(W @ X[i]))
            if guess != y_index[i]:
                wrong.append(guess)
            return guess != y_index[i]

        def update(i):
            W[y_index[i]] += X[i]
            W[wrong[-1]] -= X[i]

        self.n_iter_, self.mistakes_per_epoch_, self.mistake_indices_ = (
            run_mistake_driven_passes(
                is_mistake,
                update,
                len(X),
                max_iter=self.max_iter,
                shuffle=self.shuffle,
                rng=check_random_state(self.random_state),
                name="MulticlassPerceptron",
            )
        )
        self.n_updates_ = len(self.mistake_indices_)
        self.mistake_labels_ = np.array(wrong, dtype=int)
        d = self.n_features_in_
        self.coef_ = W[:, :d]
        self.intercept_ = W[:, d] if self.fit_intercept else np.zeros(len(W))
        return self

    def decision_function(self, X):
        r"""Scores :math:`w_c^\top x+b_c`, shape (n_samples, n_classes); with
        two classes the difference of the two, shape (n_samples,)."""
        scores = self._scores(X)
        return scores[:, 1] - scores[:, 0] if len(scores[0]) == 2 else scores

    def predict(self, X):
        """The class of largest score (the first one on a tie)."""
        scores = self._scores(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def _scores(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_.T + self.intercept_
