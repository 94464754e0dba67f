r"""The perceptron: Rosenblatt's mistake-driven linear classifier.

Labels are mapped to :math:`y\in\{-1,+1\}` (``classes_[1]`` is :math:`+1`). Starting from
:math:`w=0,\ b=0`, the samples are visited one at a time and the model is corrected only
when it errs:

.. math::

    \text{if } y_i(w^\top x_i + b) \le 0:\qquad w \leftarrow w + y_i x_i,\quad
    b \leftarrow b + y_i .

The test is ``<= 0``: with a strict ``< 0`` the first sample from :math:`w=0` scores exactly
0, is never counted as a mistake, and the weights stay zero for ever. On linearly separable
data with margin :math:`\gamma` and radius :math:`R`, Novikoff's theorem bounds the number of
updates by :math:`(R/\gamma)^2`, so the passes end with one that makes no mistake.
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..validation import check_int, check_random_state, encode_classes


def run_mistake_driven_passes(
    is_mistake, update, n_samples, *, max_iter, shuffle, rng, name
):
    """Visit the samples in passes; ``update(i)`` whenever ``is_mistake(i)``.

    The loop shared by every mistake-driven learner (perceptron, kernel
    perceptron, Winnow). It stops after the first pass without a mistake, or
    after ``max_iter`` passes, then with a ``ConvergenceWarning``. A mistake
    bound holds for *any* sequence of trials, so it also bounds the total
    number of updates over all passes.

    Parameters
    ----------
    is_mistake : callable
        ``is_mistake(i)`` says whether the current model errs on sample ``i``.
    update : callable
        ``update(i)`` corrects the model on sample ``i``.
    n_samples, max_iter : int
    shuffle : bool
        Visit the samples in a fresh random order in every pass (drawn from
        ``rng``).
    rng : numpy.random.Generator
    name : str
        The learner's name, for the warning.

    Returns
    -------
    n_iter : int
        Number of passes made.
    mistakes_per_epoch : ndarray of shape (n_iter,)
    mistake_indices : ndarray of shape (n_updates,)
        The sample updated at each mistake, in order.
    """
    max_iter = check_int(max_iter, "max_iter", low=1)
    mistakes_per_epoch, mistake_indices = [], []
    for _ in range(max_iter):
        order = rng.permutation(n_samples) if shuffle else range(n_samples)
        mistakes = 0
        for i in order:
            if is_mistake(i):
                update(i)
                mistake_indices.append(i)
                mistakes += 1
        mistakes_per_epoch.append(mistakes)
        if mistakes == 0:
            break
    else:
        warnings.warn(
            f"{name} still made {mistakes_per_epoch[-1]} mistake(s) in its "
            f"last pass, after max_iter={max_iter} passes: the training data "
            "are probably not separable (in its feature space), and then it "
            "never stops. Increase max_iter, or use a soft-margin method such "
            "as an SVM.",
            ConvergenceWarning,
        )
    return (
        len(mistakes_per_epoch),
        np.array(mistakes_per_epoch),
        np.array(mistake_indices, dtype=int),
    )


def encode_binary_labels(y, estimator):
    """Return ``(classes, y_signed)``, +1 for ``classes[1]``, -1 for the other.

    More than two classes are refused, in scikit-learn's words.
    """
    classes, y_index = encode_classes(y, binary_only=True, estimator=estimator)
    return classes, 2.0 * y_index - 1.0


class Perceptron(ClassifierMixin, BaseEstimator):
    r"""Binary perceptron (Rosenblatt, 1958), trained by passes until one makes no mistake.

    Each mistake, :math:`y_i(w^\top x_i+b)\le0`, adds :math:`y_ix_i` to :math:`w` (and
    :math:`y_i` to :math:`b`), so :math:`w=\sum_i c_iy_ix_i` where :math:`c_i` counts the
    mistakes made on sample :math:`i`.

    Parameters
    ----------
    fit_intercept : bool
        Learn :math:`b` (the same as appending a constant feature 1 to every sample).
    max_iter : int
        Maximum number of passes over the training data.
    shuffle : bool
        Visit the samples in a new random order in each pass; otherwise in the given order.
    random_state : None, int or numpy.random.Generator
        Seeds the shuffling.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the class predicted when the decision function is positive.
    n_iter_ : int
        Number of passes made (the last one mistake-free unless a warning was raised).
    n_updates_ : int
        Total number of mistakes, i.e. of updates.
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
    mistake_indices_ : ndarray of shape (n_updates_,)
        The training sample corrected at each update, in order: the iterates are the
        running sums of :math:`y_ix_i` over these indices.
    n_features_in_ : int

    Notes
    -----
    ``sklearn.linear_model.Perceptron(penalty=None, alpha=0, eta0=1, tol=None,
    shuffle=False)`` runs the same updates with the same ``<= 0`` test, so with
    ``shuffle=False`` both give identical ``coef_`` and ``intercept_``. With shuffling
    the visiting orders differ (scikit-learn draws them from its own generator), and
    scikit-learn stops on a loss tolerance rather than after a mistake-free pass.

    References
    ----------
    Rosenblatt (1958); Novikoff (1962), "On convergence proofs for perceptrons".
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only
        return tags

    def fit(self, X, y):
        """Run passes over ``(X, y)`` until one is mistake-free."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_signed = encode_binary_labels(y, self)
        rng = check_random_state(self.random_state)
        w, b = np.zeros(X.shape[1]), np.zeros(1)
        step_b = 1.0 if self.fit_intercept else 0.0

        # "<= 0": from w = 0 every margin is 0, and 0 must count as a mistake
        def is_mistake(i):
            return y_signed[i] * (X[i] @ w + b[0]) <= 0

        def update(i):
            w[:] += y_signed[i] * X[i]
            b[0] += step_b * y_signed[i]

        self.n_iter_, self.mistakes_per_epoch_, self.mistake_indices_ = (
            run_mistake_driven_passes(
                is_mistake,
                update,
                len(X),
                max_iter=self.max_iter,
                shuffle=self.shuffle,
                rng=rng,
                name="Perceptron",
            )
        )
        self.n_updates_ = len(self.mistake_indices_)
        self.coef_, self.intercept_ = w[None, :], b
        return self

    def decision_function(self, X):
        r""":math:`w^\top x + b` for each row of ``X``, shape (n_samples,); positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive, else ``classes_[0]``."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
