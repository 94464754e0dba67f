r"""Pegasos: stochastic sub-gradient descent on the primal hinge-loss objective
of the linear SVM."""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..losses import hinge
from ..validation import check_random_state, check_scalar, encode_classes


def hinge_objective(w, X, y, lam, b=0.0):
    r"""The averaged SVM objective :math:`\frac\lambda2\lVert w\rVert^2 +
    \frac1n\sum_i\max(0, 1 - y_i(w^\top x_i + b))`.

    ``y`` in :math:`\{-1, +1\}`. It equals the ``SVC`` objective divided by
    :math:`nC`, for :math:`C = 1/(n\lambda)`.
    """
    return 0.5 * lam * (w @ w) + hinge(y * (X @ w + b)).mean()


class PegasosSVM(ClassifierMixin, BaseEstimator):
    r"""Linear SVM without intercept, trained by Pegasos (Shalev-Shwartz et
    al., 2011).

    Minimises :func:`hinge_objective` with :math:`b=0`,

    .. math::

        J(w) = \frac\lambda2\lVert w\rVert^2
            + \frac1n\sum_{i=1}^n\max(0,\ 1 - y_iw^\top x_i),

    which is :math:`\lambda`-strongly convex. Step :math:`t` draws a mini-batch
    :math:`A_t` of ``batch_size`` samples uniformly with replacement and moves
    along a sub-gradient of the mini-batch objective, :math:`\lambda w -
    \frac1{|A_t|}\sum_{i\in A_t,\ y_iw^\top x_i<1}y_ix_i`, with step
    :math:`\eta_t = 1/(\lambda t)`, so that

    .. math::

        w \leftarrow \Bigl(1 - \frac1t\Bigr)w
            + \frac{\eta_t}{|A_t|}\sum_{i\in A_t,\ y_iw^\top x_i<1}y_ix_i ;

    then, with ``projection=True``, :math:`w` is projected onto the ball
    :math:`\lVert w\rVert\le1/\sqrt\lambda`, which contains the minimiser.

    **Intercept.** There is none: the hyperplane passes through the origin, as
    in the paper. To fit one, append a constant feature; its weight is then
    penalised like the others, so the result differs from ``SVC``, whose
    :math:`b` is not penalised.

    scikit-learn's closest equivalent is ``SGDClassifier(loss="hinge",
    alpha=lam, fit_intercept=False)`` (same objective, a different step-size
    schedule); the exact minimiser is that of
    ``sklearn.svm.LinearSVC(loss="hinge", C=1/(n*lam), fit_intercept=False)``.

    Parameters
    ----------
    lam : float
        Regularisation strength :math:`\lambda > 0`.
    n_iter : int
        Number of steps :math:`T`.
    batch_size : int
        Mini-batch size :math:`|A_t|`.
    projection : bool
        Project onto the ball of radius :math:`1/\sqrt\lambda` after each step.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` plays the role of :math:`y=+1`.
    coef_ : ndarray of shape (1, n_features)
        The final iterate :math:`w_T`.
    intercept_ : ndarray of shape (1,)
        Always 0.
    objective_steps_, objective_curve_ : ndarray of shape (n_checkpoints,)
        :math:`J(w_t)` on the training set at about 60 logarithmically spaced
        steps :math:`t`.
    n_features_in_ : int

    References
    ----------
    Shalev-Shwartz, Singer, Srebro & Cotter (2011), *Pegasos: primal estimated
    sub-gradient solver for SVM*, Mathematical Programming 127.
    """

    def __init__(
        self,
        lam=1e-3,
        n_iter=1000,
        batch_size=1,
        projection=True,
        random_state=None,
    ):
        self.lam = lam
        self.n_iter = n_iter
        self.batch_size = batch_size
        self.projection = projection
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only
        return tags

    def fit(self, X, y):
        """Fit on ``X`` of shape (n_samples, n_features) and two-class labels
        ``y``; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        lam = check_scalar(self.lam, "lam", low=0, low_inclusive=False)
        for name in ("n_iter", "batch_size"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(
                    f"{name} must be a positive integer; got {value!r}."
                )
        self.classes_, index = encode_classes(
            y, binary_only=True, estimator=self
        )
        signs = 2.0 * index - 1.0
        rng = check_random_state(self.random_state)
        batches = rng.integers(0, len(X), size=(self.n_iter, self.batch_size))
        checkpoints = set(
            np.unique(np.geomspace(1, self.n_iter, 60).astype(int)).tolist()
        )
        steps, curve = [], []
        w = np.zeros(X.shape[1])
        radius = 1.0 / np.sqrt(lam)
        for t, batch in enumerate(batches, start=1):
            Xb, yb = X[batch], signs[batch]
            # the hinge's sub-gradient is -y x there
            violated = yb * (Xb @ w) < 1.0
            w *= 1.0 - 1.0 / t  # (1 - eta_t lam) with eta_t = 1/(lam t)
            w += (yb[violated] @ Xb[violated]) / (lam * t * self.batch_size)
            norm = np.sqrt(w @ w)
            if self.projection and norm > radius:
                w *= radius / norm
            if t in checkpoints:
                steps.append(t)
                curve.append(hinge_objective(w, X, signs, lam))
        self.coef_ = w[None, :]
        self.intercept_ = np.zeros(1)
        self.objective_steps_, self.objective_curve_ = (
            np.array(steps),
            np.array(curve),
        )
        return self

    def decision_function(self, X):
        r""":math:`w^\top x`, shape (n_samples,); positive means
        ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_[0]

    def predict(self, X):
        """The class on the side of the hyperplane where each row of ``X``
        falls, shape (n_samples,)."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]
