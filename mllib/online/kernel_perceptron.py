r"""The kernel perceptron: the perceptron run on inner products only.

Every update adds :math:`y_i\phi(x_i)` to the weights, so after training
:math:`w=\sum_i c_i y_i\phi(x_i)` with :math:`c_i` the number of mistakes made
on sample :math:`i`, and the decision function needs only kernel values:

.. math::

    f(x) = w^\top\phi(x) + b = \sum_i c_i y_i\, k(x_i, x) + b .
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels import checked_gram, pairwise_kernels
from ..linear_model.perceptron import (
    encode_binary_labels,
    run_mistake_driven_passes,
)
from ..validation import check_random_state


class KernelPerceptron(ClassifierMixin, BaseEstimator):
    r"""Binary perceptron in the feature space of a kernel, trained by passes
    until one makes no mistake.

    With ``kernel="linear"`` it makes exactly the mistakes of
    :class:`mllib.linear_model.Perceptron` (same ``shuffle`` and
    ``random_state``) and predicts the same labels.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "anova", "min"} or callable
        A name from :data:`mllib.kernels.KERNELS`, or a callable ``kernel(X,
        Y)`` returning the (len(X), len(Y)) Gram matrix, like the functions of
        :mod:`mllib.kernels`. A callable (or a polynomial kernel that is not
        PSD by construction) must give a positive semi-definite training Gram
        matrix, or ``fit`` raises a ``ValueError``.
    degree, gamma, coef0 : float
        Parameters of the named kernels, with scikit-learn's meanings
        (``gamma=None`` means 1 / n_features); ignored by kernels that do not
        take them.
    fit_intercept : bool
        Learn :math:`b` (updated by :math:`y_i` on each mistake, like the
        perceptron's).
    max_iter : int
        Maximum number of passes over the training data.
    shuffle : bool
        Visit the samples in a new random order in each pass.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    support_ : ndarray of shape (n_support,)
        Indices of the training samples with at least one mistake.
    support_vectors_ : ndarray of shape (n_support, n_features)
    dual_coef_ : ndarray of shape (1, n_support)
        :math:`c_iy_i` for the support samples.
    intercept_ : ndarray of shape (1,)
    classes_ : ndarray of shape (2,)
    n_iter_, n_updates_ : int
        Passes made, and mistakes (updates) in total.
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
    mistake_indices_ : ndarray of shape (n_updates_,)
    n_features_in_ : int

    Notes
    -----
    The training Gram matrix is computed once, and the decision values of all
    training samples are kept up to date: a mistake on sample :math:`i` adds
    :math:`y_i\,(K_{:,i} + 1_{b})` to them, :math:`O(n)` work, so checking a
    sample costs :math:`O(1)`. scikit-learn has no kernel perceptron.
    """

    def __init__(
        self,
        kernel="linear",
        degree=3,
        gamma=None,
        coef0=1,
        fit_intercept=True,
        max_iter=1000,
        shuffle=True,
        random_state=None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state

    def _gram(self, X, Y):
        params = (
            {}
            if callable(self.kernel)
            else dict(degree=self.degree, gamma=self.gamma, coef0=self.coef0)
        )
        return pairwise_kernels(X, Y, metric=self.kernel, **params)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only
        return tags

    def fit(self, X, y):
        """Run passes over ``(X, y)`` until one is mistake-free."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_signed = encode_binary_labels(y, self)
        K = checked_gram(
            self._gram(X, X), self.kernel, self.degree, self.coef0
        )
        rng = check_random_state(self.random_state)
        counts, decision = np.zeros(len(X)), np.zeros(len(X))
        step_b = 1.0 if self.fit_intercept else 0.0

        def is_mistake(i):  # "<= 0", as for the primal perceptron
            return y_signed[i] * decision[i] <= 0

        # c_i += 1 adds y_i (k(x_i, x_j) + 1_b) to every decision value f(x_j)
        def update(i):
            counts[i] += 1
            decision[:] += y_signed[i] * (K[:, i] + step_b)

        self.n_iter_, self.mistakes_per_epoch_, self.mistake_indices_ = (
            run_mistake_driven_passes(
                is_mistake,
                update,
                len(X),
                max_iter=self.max_iter,
                shuffle=self.shuffle,
                rng=rng,
                name="KernelPerceptron",
            )
        )
        self.n_updates_ = len(self.mistake_indices_)
        self.support_ = np.flatnonzero(counts)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = (counts * y_signed)[self.support_][None, :]
        self.intercept_ = np.array([step_b * self.dual_coef_.sum()])
        return self

    def decision_function(self, X):
        r""":math:`\sum_i c_iy_i\,k(x_i,x)+b` for each row of ``X``, shape
        (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return (
            self._gram(X, self.support_vectors_) @ self.dual_coef_[0]
            + self.intercept_[0]
        )

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive, else
        ``classes_[0]``."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
