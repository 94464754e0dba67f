r"""Gradient boosting: functional gradient descent with regression trees as the
steps.

To minimise :math:`\sum_i \ell(y_i, F(x_i))` over additive models :math:`F =
F_0 + \nu\sum_m h_m`, start from the best constant :math:`F_0` and at stage
:math:`m`

1. compute the pseudo-residuals :math:`r_i = -\partial \ell(y_i, F)/\partial
   F\,|_{F=F_{m-1}(x_i)}`, the negative gradient of the loss at the current fit
   (one number per training point);
2. fit a regression tree :math:`h_m` to them by least squares (the projection
   of the gradient step onto the trees);
3. replace each leaf value by the best step for the loss in that leaf (for the
   log-loss, one Newton step :math:`\sum_{\text{leaf}} r_i / \sum_{\text{leaf}}
   p_i(1-p_i)`);
4. update :math:`F_m = F_{m-1} + \nu h_m` with the learning rate (shrinkage)
   :math:`\nu`.

For the squared loss :math:`\tfrac12(y-F)^2` the pseudo-residuals are the
ordinary residuals :math:`y-F`, and the leaf means are already the best steps.
For binary classification with the log-loss (labels :math:`y\in\{0,1\}`,
:math:`p=\sigma(F)`) they are :math:`y-p`. With ``subsample < 1`` each tree is
fitted on a random fraction of the points drawn without replacement (stochastic
gradient boosting).

Same parameters (a subset), objective, trees and ``train_score_`` as
scikit-learn's ``GradientBoostingRegressor`` (``loss="squared_error"``) and
``GradientBoostingClassifier`` (``loss="log_loss"``, two classes).
``train_score_`` is the mean squared error, and for the classifier the binomial
deviance :math:`2\times` the mean log-loss, as in scikit-learn. With
``subsample < 1`` scikit-learn keeps the left-out points in the tree with
weight zero (they can shift thresholds); here the tree sees only the drawn
points.

References: Friedman (2001), *Greedy function approximation: a gradient
boosting machine*; Friedman (2002), *Stochastic gradient boosting*; Mason,
Baxter, Bartlett & Frean (2000).
"""

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import losses
from ..dummy import DummyClassifier, DummyRegressor
from ..tree import DecisionTreeRegressor
from ..validation import (
    check_int,
    check_random_state,
    check_scalar,
    encode_classes,
)


class BaseGradientBoosting(BaseEstimator):
    """The boosting loop; subclasses supply the loss, its negative gradient and
    the leaf update."""

    def __init__(
        self,
        *,
        loss,
        learning_rate=0.1,
        n_estimators=100,
        subsample=1.0,
        min_samples_split=2,
        min_samples_leaf=1,
        max_depth=3,
        random_state=None,
    ):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.random_state = random_state

    def _check_params(self):
        """The learning rate, the subsample fraction and the random
        generator, after checking the parameters."""
        check_int(self.n_estimators, "n_estimators", low=1)
        learning_rate = check_scalar(
            self.learning_rate, "learning_rate", low=0.0, low_inclusive=False
        )
        subsample = check_scalar(
            self.subsample, "subsample", low=0.0, high=1.0, low_inclusive=False
        )
        return learning_rate, subsample, check_random_state(self.random_state)

    def _boost(self, X, y):
        """Fit ``init_`` and ``n_estimators`` trees to ``(X, y)`` (``y`` real,
        or 0/1 for the classifier)."""
        learning_rate, subsample, rng = self._check_params()
        n = len(y)
        n_drawn = max(1, int(subsample * n))
        raw = np.full(n, self._initial_raw_prediction(X, y))  # F_0
        self.estimators_, self.train_score_ = [], np.empty(self.n_estimators)
        for m in range(self.n_estimators):
            drawn = (
                np.arange(n)
                if n_drawn == n
                else np.sort(rng.permutation(n)[:n_drawn])
            )
            residual = self._negative_gradient(y[drawn], raw[drawn])  # r_im
            tree = DecisionTreeRegressor(
                max_depth=self.max_depth,
                min_samples_split=self.min_samples_split,
                min_samples_leaf=self.min_samples_leaf,
            ).fit(X[drawn], residual)
            self._update_leaves(tree, X[drawn], residual, raw[drawn])
            raw += learning_rate * tree.predict(X)  # F_m = F_{m-1} + nu h_m
            self.estimators_.append(tree)
            self.train_score_[m] = self._loss(y[drawn], raw[drawn])
        return self

    def _update_leaves(self, tree, X, residual, raw):
        """Replace the leaf means by the loss's best steps (nothing to do for
        the squared loss)."""

    def _raw_predict_stages(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        raw = np.full(len(X), self._initial_raw_prediction_value())
        for tree in self.estimators_:
            raw = raw + self.learning_rate * tree.predict(X)
            yield raw


class GradientBoostingRegressor(RegressorMixin, BaseGradientBoosting):
    """Gradient boosting of regression trees for the squared loss.

    Parameters
    ----------
    loss : {"squared_error"}
    learning_rate : float
        Shrinkage :math:`\\nu` of every tree.
    n_estimators : int
        Number of boosting stages (trees).
    subsample : float in (0, 1]
        Fraction of the points each tree is fitted on.
    min_samples_split, min_samples_leaf, max_depth :
        Passed to every :class:`~mllib.tree.DecisionTreeRegressor`.
    random_state : None, int or numpy.random.Generator
        Draws the subsamples.

    Attributes
    ----------
    init_ : :class:`~mllib.dummy.DummyRegressor`
        The initial constant, the mean of ``y``.
    estimators_ : list of :class:`~mllib.tree.DecisionTreeRegressor`
    train_score_ : ndarray of shape (n_estimators,)
        Mean squared error on the (drawn) training points after each stage.
    """

    def __init__(
        self,
        *,
        loss="squared_error",
        learning_rate=0.1,
        n_estimators=100,
        subsample=1.0,
        min_samples_split=2,
        min_samples_leaf=1,
        max_depth=3,
        random_state=None,
    ):
        super().__init__(
            loss=loss,
            learning_rate=learning_rate,
            n_estimators=n_estimators,
            subsample=subsample,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            max_depth=max_depth,
            random_state=random_state,
        )

    def fit(self, X, y):
        """Boost on ``X`` (n_samples, n_features) and real targets ``y``;
        return self."""
        if self.loss != "squared_error":
            raise ValueError(
                f'loss must be "squared_error"; got {self.loss!r}.'
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        return self._boost(X, y)

    def _initial_raw_prediction(self, X, y):
        self.init_ = DummyRegressor().fit(X, y)
        return self._initial_raw_prediction_value()

    def _initial_raw_prediction_value(self):
        return self.init_.constant_

    def _negative_gradient(self, y, raw):
        return y - raw  # of the half squared loss (y - F)^2 / 2

    def _loss(self, y, raw):
        return float(np.mean(losses.squared(y - raw)))

    def staged_predict(self, X):
        """Predictions after each stage: a generator of arrays of shape
        (n_samples,)."""
        yield from self._raw_predict_stages(X)

    def predict(self, X):
        """:math:`F_0 + \\nu\\sum_m h_m(x)`, shape (n_samples,)."""
        *_, last = self._raw_predict_stages(X)
        return last


class GradientBoostingClassifier(ClassifierMixin, BaseGradientBoosting):
    """Gradient boosting of regression trees for binary classification with the
    log-loss.

    The model is the log-odds :math:`F(x)=\\log\\frac{P(y=1\\mid x)}{P(y=0\\mid
    x)}`, where class 1 is ``classes_[1]``. Parameters as
    :class:`GradientBoostingRegressor`, with ``loss="log_loss"``.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    init_ : :class:`~mllib.dummy.DummyClassifier`
        The class frequencies; :math:`F_0 = \\log\\frac{p_1}{1-p_1}`.
    estimators_ : list of :class:`~mllib.tree.DecisionTreeRegressor`
    train_score_ : ndarray of shape (n_estimators,)
        Binomial deviance (twice the mean log-loss) after each stage.
    """

    def __init__(
        self,
        *,
        loss="log_loss",
        learning_rate=0.1,
        n_estimators=100,
        subsample=1.0,
        min_samples_split=2,
        min_samples_leaf=1,
        max_depth=3,
        random_state=None,
    ):
        super().__init__(
            loss=loss,
            learning_rate=learning_rate,
            n_estimators=n_estimators,
            subsample=subsample,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            max_depth=max_depth,
            random_state=random_state,
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only
        return tags

    def fit(self, X, y):
        """Boost on ``X`` (n_samples, n_features) and two-class labels ``y``;
        return self."""
        if self.loss != "log_loss":
            raise ValueError(f'loss must be "log_loss"; got {self.loss!r}.')
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(
            y, binary_only=True, estimator=self
        )
        return self._boost(X, y_index.astype(float))

    def _initial_raw_prediction(self, X, y):
        self.init_ = DummyClassifier(strategy="prior").fit(X, y)
        return self._initial_raw_prediction_value()

    def _initial_raw_prediction_value(self):
        eps = np.finfo(float).eps
        p = np.clip(self.init_.class_prior_[1], eps, 1 - eps)
        return np.log(p / (1 - p))

    def _negative_gradient(self, y, raw):
        return y - expit(raw)  # = -d/dF log(1 + exp(-(2y-1) F))

    def _update_leaves(self, tree, X, residual, raw):
        # one Newton step per leaf: sum of gradients over sum of Hessians p(1 -
        # p) (Friedman 2001, Alg. 5)
        leaf = tree.apply(X)
        p = expit(raw)
        gradient_sum = np.bincount(
            leaf, weights=residual, minlength=tree.tree_.node_count
        )
        hessian_sum = np.bincount(
            leaf, weights=p * (1 - p), minlength=tree.tree_.node_count
        )
        leaves = np.unique(leaf)
        # a leaf where every p is 0 or 1 cannot improve the loss: step 0 (as
        # scikit-learn does)
        tree.tree_.value[leaves, 0, 0] = np.divide(
            gradient_sum[leaves],
            hessian_sum[leaves],
            out=np.zeros(len(leaves)),
            where=hessian_sum[leaves] >= 1e-150,
        )

    def _loss(self, y, raw):
        return 2.0 * float(np.mean(losses.logistic((2 * y - 1) * raw)))

    def staged_decision_function(self, X):
        """The log-odds after each stage: a generator of arrays of shape
        (n_samples,)."""
        yield from self._raw_predict_stages(X)

    def decision_function(self, X):
        """The log-odds :math:`F(x)`, shape (n_samples,); positive means
        ``classes_[1]``."""
        *_, last = self._raw_predict_stages(X)
        return last

    def predict_proba(self, X):
        """:math:`[1-\\sigma(F(x)),\\ \\sigma(F(x))]`, shape (n_samples, 2)."""
        p = expit(self.decision_function(X))
        return np.column_stack([1 - p, p])

    def staged_predict(self, X):
        """Predictions after each stage: a generator of arrays of shape
        (n_samples,)."""
        for raw in self._raw_predict_stages(X):
            yield self.classes_[(raw > 0).astype(int)]

    def predict(self, X):
        """``classes_[1]`` where the log-odds are positive, shape
        (n_samples,)."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]
