r"""Gradient boosting: functional gradient descent with regression trees as the
steps.

To minimise :math:`\sum_i w_i\,\ell(y_i, F(x_i))` over additive models
:math:`F = F_0 + \nu\sum_m h_m`, start from the best constant :math:`F_0` and
at stage :math:`m`

1. compute the pseudo-residuals :math:`r_i = -\partial \ell(y_i, F)/\partial
   F\,|_{F=F_{m-1}(x_i)}`, the negative gradient of the loss at the current fit
   (one number per training point);
2. fit a regression tree :math:`h_m` to them by weighted least squares (the
   projection of the gradient step onto the trees);
3. replace each leaf value by the best step for the loss in that leaf (for the
   log-loss, one Newton step :math:`\sum_{\text{leaf}} w_ir_i /
   \sum_{\text{leaf}} w_ip_i(1-p_i)`);
4. update :math:`F_m = F_{m-1} + \nu h_m` with the learning rate (shrinkage)
   :math:`\nu`.

For the squared loss :math:`\tfrac12(y-F)^2` the pseudo-residuals are the
ordinary residuals :math:`y-F`, and the leaf means are already the best steps.
For binary classification with the log-loss (labels :math:`y\in\{0,1\}`,
:math:`p=\sigma(F)`) they are :math:`y-p`.

**K classes** (the multinomial deviance, scikit-learn's ``log_loss`` for
:math:`K>2`): the model is a vector of scores :math:`F_1,\dots,F_K`, with
:math:`p_k = e^{F_k}/\sum_je^{F_j}` (the softmax) and the loss
:math:`\ell = -\sum_k y_k\log p_k = \log\sum_je^{F_j} - F_{y}`
(:math:`y_k` the one-hot label). Each stage fits :math:`K` trees, tree
:math:`k` to the pseudo-residuals :math:`r_{ik} = y_{ik} - p_{ik}` computed
once at the start of the stage, and gives each leaf the step (Friedman 2001,
Algorithm 6)

.. math::

    \gamma = \frac{K-1}{K}\,
    \frac{\sum_{\text{leaf}} w_ir_{ik}}
         {\sum_{\text{leaf}} w_i|r_{ik}|(1-|r_{ik}|)},

a Newton step with the diagonal of the Hessian, :math:`p_k(1-p_k)`, scaled
by :math:`(K-1)/K` (the scores are only defined up to a common shift, and the
factor accounts for it; scikit-learn keeps it). :math:`F_0` is the symmetric
logit of the (weighted) class frequencies, :math:`F_{0k} = \log\pi_k -
\frac1K\sum_j\log\pi_j`.

With ``subsample < 1`` each stage is fitted on a random fraction of the
points drawn without replacement (stochastic gradient boosting).

Same parameters (a subset), objective, trees, ``train_score_`` and
``feature_importances_`` as scikit-learn's ``GradientBoostingRegressor``
(``loss="squared_error"``) and ``GradientBoostingClassifier``
(``loss="log_loss"``). ``train_score_`` is the (weighted) mean squared error;
for the classifier, the binomial deviance :math:`2\times` the mean log-loss
for two classes and the mean multinomial deviance :math:`\ell` for more, as
in scikit-learn. With ``subsample < 1`` scikit-learn keeps the left-out points
in the tree with weight zero (they can shift thresholds); here the tree sees
only the drawn points, which are drawn from a different generator anyway.

References: Friedman (2001), *Greedy function approximation: a gradient
boosting machine*, Annals of Statistics 29; Friedman (2002), *Stochastic
gradient boosting*; Friedman, Hastie & Tibshirani (2000), *Additive logistic
regression*; Mason, Baxter, Bartlett & Frean (2000).
"""

import numpy as np
from scipy.special import expit, logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import losses
from ..dummy import DummyClassifier, DummyRegressor
from ..tree import DecisionTreeRegressor
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)


class BaseGradientBoosting(BaseEstimator):
    """The boosting loop; subclasses supply the loss, its negative gradient and
    the leaf update.

    Targets are held as a matrix ``Y`` of shape (n_samples, K) with ``K``
    trees per stage: the real targets (K = 1), the 0/1 labels of two classes
    (K = 1) or the one-hot labels of K > 2 classes.
    """

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
        max_leaf_nodes=None,
        ccp_alpha=0.0,
    ):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.ccp_alpha = ccp_alpha

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

    def _boost(self, X, Y, sample_weight):
        """Fit ``init_`` and ``n_estimators`` stages of ``K`` trees to ``X``
        and the target matrix ``Y`` of shape (n_samples, K)."""
        learning_rate, subsample, rng = self._check_params()
        n, K = Y.shape
        n_drawn = max(1, int(subsample * n))
        raw = np.tile(
            self._initial_raw_prediction(X, Y, sample_weight), (n, 1)
        )
        self.estimators_ = np.empty((self.n_estimators, K), dtype=object)
        self.train_score_ = np.empty(self.n_estimators)
        for m in range(self.n_estimators):
            drawn = (
                np.arange(n)
                if n_drawn == n
                else np.sort(rng.permutation(n)[:n_drawn])
            )
            X_m, Y_m, w_m = X[drawn], Y[drawn], sample_weight[drawn]
            # r_im: once per stage, before any of its K trees moves F
            residual = self._negative_gradient(Y_m, raw[drawn])
            for k in range(K):
                tree = DecisionTreeRegressor(
                    max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf,
                    max_leaf_nodes=self.max_leaf_nodes,
                    ccp_alpha=self.ccp_alpha,
                ).fit(X_m, residual[:, k], sample_weight=w_m)
                self._update_leaves(tree, X_m, residual[:, k], w_m)
                # F_m = F_{m-1} + nu h_m
                raw[:, k] += learning_rate * tree.predict(X)
                self.estimators_[m, k] = tree
            self.train_score_[m] = self._loss(Y_m, raw[drawn], w_m)
        self.n_estimators_ = self.n_estimators
        return self

    def _update_leaves(self, tree, X, residual, sample_weight):
        """Replace the leaf means by the loss's best steps (nothing to do for
        the squared loss)."""

    def _raw_predict_stages(self, X):
        """:math:`F_m(x)` after each stage, arrays of shape (n_samples, K)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        raw = np.tile(self._initial_raw_prediction_value(), (len(X), 1))
        for stage in self.estimators_:
            raw = raw + self.learning_rate * np.column_stack(
                [tree.predict(X) for tree in stage]
            )
            yield raw

    @property
    def feature_importances_(self):
        """Impurity-based importances, shape (n_features,): the total
        weighted decrease of squared error brought by each feature's splits,
        divided by the root weight, averaged over the trees that split at
        all, normalised to sum to one (all zeros if no tree splits), as in
        scikit-learn."""
        check_is_fitted(self)
        splitting = [
            tree.tree_.compute_feature_importances(
                self.n_features_in_, normalize=False
            )
            for tree in self.estimators_.ravel()
            if tree.tree_.node_count > 1
        ]
        if not splitting:
            return np.zeros(self.n_features_in_)
        mean = np.mean(splitting, axis=0)
        return mean / mean.sum()


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
    min_samples_split, min_samples_leaf, max_depth, max_leaf_nodes, \
ccp_alpha :
        Passed to every :class:`~mllib.tree.DecisionTreeRegressor` (with
        ``max_leaf_nodes`` each tree grows best first, within ``max_depth``
        as well, as in scikit-learn; the leaf values are then set by the
        loss's step).
    random_state : None, int, numpy.random.Generator or RandomState
        Draws the subsamples.

    Attributes
    ----------
    init_ : :class:`~mllib.dummy.DummyRegressor`
        The initial constant, the (weighted) mean of ``y``.
    estimators_ : ndarray of DecisionTreeRegressor, shape (n_estimators, 1)
    train_score_ : ndarray of shape (n_estimators,)
        (Weighted) mean squared error on the (drawn) training points after
        each stage.
    feature_importances_ : ndarray of shape (n_features,)
    n_estimators_ : int
    n_features_in_ : int
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
        max_leaf_nodes=None,
        ccp_alpha=0.0,
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
            max_leaf_nodes=max_leaf_nodes,
            ccp_alpha=ccp_alpha,
        )

    def fit(self, X, y, sample_weight=None):
        """Boost on ``X`` (n_samples, n_features) and real targets ``y``,
        each sample's loss weighted by ``sample_weight``; return self."""
        if self.loss != "squared_error":
            raise ValueError(
                f'loss must be "squared_error"; got {self.loss!r}.'
            )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        sample_weight = check_sample_weight(sample_weight, len(y))
        return self._boost(X, y[:, None], sample_weight)

    def _initial_raw_prediction(self, X, Y, sample_weight):
        self.init_ = DummyRegressor().fit(X, Y[:, 0], sample_weight)
        return self._initial_raw_prediction_value()

    def _initial_raw_prediction_value(self):
        return np.array([self.init_.constant_])

    def _negative_gradient(self, Y, raw):
        return Y - raw  # of the half squared loss (y - F)^2 / 2

    def _loss(self, Y, raw, sample_weight):
        return float(
            np.average(losses.squared(Y - raw)[:, 0], weights=sample_weight)
        )

    def staged_predict(self, X):
        """Predictions after each stage: a generator of arrays of shape
        (n_samples,)."""
        for raw in self._raw_predict_stages(X):
            yield raw[:, 0]

    def predict(self, X):
        """:math:`F_0 + \\nu\\sum_m h_m(x)`, shape (n_samples,)."""
        *_, last = self.staged_predict(X)
        return last


class GradientBoostingClassifier(ClassifierMixin, BaseGradientBoosting):
    """Gradient boosting of regression trees for classification with the
    log-loss (binomial deviance for two classes, multinomial for more).

    Two classes: one tree per stage and the model is the log-odds
    :math:`F(x)=\\log\\frac{P(y=1\\mid x)}{P(y=0\\mid x)}`, where class 1 is
    ``classes_[1]``. :math:`K>2` classes: :math:`K` trees per stage, one
    score :math:`F_k` per class, probabilities by the softmax (module
    docstring). Parameters as :class:`GradientBoostingRegressor`, with
    ``loss="log_loss"``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_trees_per_iteration_ : int
        1 for two classes, ``n_classes_`` for more.
    init_ : :class:`~mllib.dummy.DummyClassifier`
        The (weighted) class frequencies :math:`\\pi_k`.
    estimators_ : ndarray of DecisionTreeRegressor, shape (n_estimators, \
n_trees_per_iteration_)
    train_score_ : ndarray of shape (n_estimators,)
        Binomial deviance (twice the mean log-loss) after each stage for two
        classes, mean multinomial deviance for more.
    feature_importances_ : ndarray of shape (n_features,)
    n_estimators_ : int
    n_features_in_ : int
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
        max_leaf_nodes=None,
        ccp_alpha=0.0,
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
            max_leaf_nodes=max_leaf_nodes,
            ccp_alpha=ccp_alpha,
        )

    def fit(self, X, y, sample_weight=None):
        """Boost on ``X`` (n_samples, n_features) and labels ``y``, each
        sample's loss weighted by ``sample_weight``; return self."""
        if self.loss != "log_loss":
            raise ValueError(f'loss must be "log_loss"; got {self.loss!r}.')
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(y, estimator=self)
        sample_weight = check_sample_weight(sample_weight, len(y))
        weighted_classes = np.count_nonzero(
            np.bincount(y_index, weights=sample_weight)
        )
        if weighted_classes < 2:
            raise ValueError(
                f"y contains {weighted_classes} class with a positive total "
                "sample_weight; at least 2 classes are needed."
            )
        self.n_classes_ = len(self.classes_)
        binary = self.n_classes_ == 2
        self.n_trees_per_iteration_ = 1 if binary else self.n_classes_
        Y = (
            y_index[:, None].astype(float)
            if binary
            else np.eye(self.n_classes_)[y_index]
        )
        return self._boost(X, Y, sample_weight)

    def _initial_raw_prediction(self, X, Y, sample_weight):
        labels = Y[:, 0] if Y.shape[1] == 1 else Y.argmax(axis=1)
        self.init_ = DummyClassifier(strategy="prior").fit(
            X, labels, sample_weight
        )
        return self._initial_raw_prediction_value()

    def _initial_raw_prediction_value(self):
        """:math:`F_0`: the log-odds of the class frequency (two classes),
        or their symmetric logit :math:`\\log\\pi_k - \\frac1K\\sum_j
        \\log\\pi_j` (more); shape (K,)."""
        eps = np.finfo(float).eps
        prior = np.clip(self.init_.class_prior_, eps, 1 - eps)
        if len(prior) == 2:
            return np.log(prior[1:] / (1 - prior[1:]))
        log_prior = np.log(prior)
        return log_prior - log_prior.mean()

    def _negative_gradient(self, Y, raw):
        # y - sigma(F) = -d/dF log(1 + exp(-(2y-1) F)) for two classes (one
        # column, or a 1-D array), y_k - p_k = -d/dF_k (log sum_j exp(F_j) -
        # F_y) for more
        raw = np.asarray(raw)
        if raw.ndim == 1 or raw.shape[1] == 1:
            return Y - expit(raw)
        return Y - softmax(raw, axis=1)

    def _update_leaves(self, tree, X, residual, sample_weight):
        # one Newton step per leaf: sum of gradients over sum of Hessians
        # p(1 - p), with p = y - r (Friedman 2001, Algorithms 5 and 6);
        # scaled by (K - 1)/K for K > 2 classes
        leaf = tree.apply(X)
        # p(1 - p) with p = y - r is |r|(1 - |r|) for y in {0, 1}: p = -r
        # where y = 0, and 1 - p = r where y = 1
        hessian = np.abs(residual) * (1.0 - np.abs(residual))
        count = tree.tree_.node_count
        gradient_sum = np.bincount(
            leaf, weights=sample_weight * residual, minlength=count
        )
        hessian_sum = np.bincount(
            leaf, weights=sample_weight * hessian, minlength=count
        )
        leaves = np.unique(leaf)
        K = self.n_trees_per_iteration_
        scale = 1.0 if K == 1 else (K - 1) / K
        # a leaf where every p is 0 or 1 cannot improve the loss: step 0 (as
        # scikit-learn does)
        tree.tree_.value[leaves, 0, 0] = scale * np.divide(
            gradient_sum[leaves],
            hessian_sum[leaves],
            out=np.zeros(len(leaves)),
            where=hessian_sum[leaves] >= 1e-150,
        )

    def _loss(self, Y, raw, sample_weight):
        if Y.shape[1] == 1:  # binomial deviance: twice the log-loss
            margin = (2 * Y[:, 0] - 1) * raw[:, 0]
            per_sample = 2.0 * losses.logistic(margin)
        else:  # log sum_j exp(F_j) - F_y
            per_sample = logsumexp(raw, axis=1) - np.sum(Y * raw, axis=1)
        return float(np.average(per_sample, weights=sample_weight))

    def _scores(self, raw):
        return raw[:, 0] if raw.shape[1] == 1 else raw

    def staged_decision_function(self, X):
        """The scores after each stage: a generator of arrays of shape
        (n_samples,) (two classes) or (n_samples, n_classes)."""
        for raw in self._raw_predict_stages(X):
            yield self._scores(raw)

    def decision_function(self, X):
        """The log-odds :math:`F(x)`, shape (n_samples,), positive means
        ``classes_[1]`` (two classes); the class scores :math:`F_k(x)`,
        shape (n_samples, n_classes) (more)."""
        *_, last = self.staged_decision_function(X)
        return last

    def staged_predict_proba(self, X):
        """Class probabilities after each stage: a generator of arrays of
        shape (n_samples, n_classes)."""
        for raw in self._raw_predict_stages(X):
            yield self._proba(raw)

    def _proba(self, raw):
        if raw.shape[1] == 1:
            p = expit(raw[:, 0])
            return np.column_stack([1 - p, p])
        return softmax(raw, axis=1)

    def predict_proba(self, X):
        """:math:`[1-\\sigma(F(x)),\\ \\sigma(F(x))]` (two classes) or the
        softmax of the scores, shape (n_samples, n_classes)."""
        *_, last = self.staged_predict_proba(X)
        return last

    def predict_log_proba(self, X):
        """The logarithm of ``predict_proba``."""
        return np.log(self.predict_proba(X))

    def _classes_of(self, raw):
        # scikit-learn's rule: F >= 0 is classes_[1] (two classes), else the
        # largest score, the first of equal ones
        if raw.shape[1] == 1:
            return self.classes_[(raw[:, 0] >= 0).astype(int)]
        return self.classes_[np.argmax(raw, axis=1)]

    def staged_predict(self, X):
        """Predictions after each stage: a generator of arrays of shape
        (n_samples,)."""
        for raw in self._raw_predict_stages(X):
            yield self._classes_of(raw)

    def predict(self, X):
        """``classes_[1]`` where the log-odds are at least 0 (two classes),
        the class of largest score (more); shape (n_samples,)."""
        *_, last = self.staged_predict(X)
        return last
