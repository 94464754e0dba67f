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

**Robust regression losses** (Friedman 2001, Algorithms 2-4), with the
residual :math:`d = y - F` and the leaf step the minimiser of the leaf's
loss along :math:`F_{m-1} + c`:

* ``squared_error``, :math:`\tfrac12d^2`: pseudo-residual :math:`d`, leaf
  step the mean of the leaf's :math:`d` (the tree's own leaf value);
* ``absolute_error``, :math:`|d|`: pseudo-residual :math:`\pm1`, leaf step
  the weighted median of the leaf's :math:`d`;
* ``huber``, :math:`\tfrac12d^2` for :math:`|d|\le\delta` and
  :math:`\delta(|d|-\delta/2)` beyond: pseudo-residual
  :math:`\operatorname{clip}(d,-\delta,\delta)`, leaf step below;
* ``quantile`` (pinball), :math:`\rho_\alpha(d)=\max(\alpha d,
  (\alpha-1)d)`: pseudo-residual :math:`\alpha` where :math:`d\ge0`, else
  :math:`\alpha-1`; leaf step the weighted :math:`\alpha`-quantile of the
  leaf's :math:`d`.

The pinball loss has the derivative :math:`-\alpha` per point above
:math:`c` and :math:`1-\alpha` per point below, so
:math:`\sum_iw_i\rho_\alpha(y_i-c)` is convex and piecewise linear in
:math:`c` with slope :math:`W_{<c}(1-\alpha) - W_{>c}\alpha`, which changes
sign where the weight below :math:`c` reaches :math:`\alpha` of the total:
at a weighted :math:`\alpha`-quantile (the median for the absolute loss,
:math:`\alpha=\tfrac12`). The quantile taken is the smallest value whose
cumulative weight reaches :math:`\alpha\sum_iw_i` (scikit-learn's
``_weighted_percentile``). Huber's :math:`\delta` is, at each stage, the
weighted :math:`\alpha`-quantile of :math:`|y_i-F_{m-1}(x_i)|` over all the
training points, and its leaf step is one step of Friedman's Algorithm 4:
the median :math:`\tilde d` of the leaf's residuals plus the mean of
:math:`\operatorname{sign}(d_i-\tilde d)\min(\delta, |d_i-\tilde d|)`.
:math:`F_0` is the mean, the median (absolute, Huber) or the
:math:`\alpha`-quantile of :math:`y`; as in scikit-learn, numpy's
interpolated percentile without ``sample_weight`` and the weighted quantile
above with it.

**Exponential loss** (classifier, two classes, :math:`y\in\{0,1\}`):
:math:`\ell = e^{-(2y-1)F}`, AdaBoost's loss, with :math:`P(y=1\mid x) =
\sigma(2F)` and :math:`F_0=\frac12\log\frac{\pi_1}{1-\pi_1}`. The
pseudo-residual is :math:`r=(2y-1)e^{-(2y-1)F}`, the second derivative
:math:`|r|`, and each leaf takes the Newton step
:math:`\sum w_ir_i/\sum w_i|r_i|`.

With ``subsample < 1`` each stage is fitted on a random fraction of the
points drawn without replacement (stochastic gradient boosting), and the
points left out give ``oob_scores_[m - 1]``, the loss of :math:`F_m` on
the points not drawn for stage :math:`m` (stages :math:`m=1,\dots,M`), and
``oob_improvement_[m - 1]``, its decrease from the previous stage (from
:math:`F_0`, on stage 1's left-out points, for the first), as in
scikit-learn 1.3 and later (consecutive scores are measured on different
left-out sets). For the Huber loss the score of :math:`F_0` uses stage 1's
:math:`\delta`; scikit-learn's uses the default :math:`\delta=0.5` of its
loss object, which no stage has set yet, so ``oob_improvement_[0]``
differs.

With ``max_features`` each split searches a random subset of the features
(:class:`~mllib.tree.DecisionTreeRegressor`), drawn from the same generator
as the subsamples.

Same parameters (a subset), losses, objective, trees, ``train_score_``,
out-of-bag attributes and ``feature_importances_`` as scikit-learn's
``GradientBoostingRegressor`` and ``GradientBoostingClassifier``.
``train_score_`` is the (weighted) mean squared error, absolute error, Huber
or pinball loss; for the classifier, the binomial deviance :math:`2\times`
the mean log-loss for two classes, the mean multinomial deviance
:math:`\ell` for more, and the mean exponential loss, as in scikit-learn
(which scales the squared and log-losses so). With ``subsample < 1``
scikit-learn keeps the left-out points in the tree with weight zero (they
can shift thresholds); here the tree sees only the drawn points, which are
drawn from a different generator anyway.

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
from ..dummy import DummyClassifier, DummyRegressor, weighted_quantile
from ..tree import DecisionTreeRegressor
from ..tree.classes import _resolve_max_features
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)

_OOB_ATTRIBUTES = ("oob_improvement_", "oob_scores_", "oob_score_")


def _pinball(d, alpha):
    r""":math:`\rho_\alpha(d)`, elementwise."""
    return np.where(d >= 0, alpha * d, (alpha - 1) * d)


def _huber(d, delta):
    r""":math:`\tfrac12d^2` for :math:`|d|\le\delta`, else
    :math:`\delta(|d|-\delta/2)`, elementwise (any :math:`\delta\ge0`)."""
    a = np.abs(d)
    return np.where(a <= delta, 0.5 * a**2, delta * (a - 0.5 * delta))


def _mean(per_sample, sample_weight):
    """The weighted mean, NaN for no weight (an empty out-of-bag set)."""
    total = sample_weight.sum()
    if total == 0:
        return np.nan
    return float(sample_weight @ per_sample / total)


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
        max_features=None,
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
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.ccp_alpha = ccp_alpha

    def _check_params(self, n_features):
        """The learning rate, the subsample fraction and the random
        generator, after checking the parameters; sets ``max_features_``."""
        check_int(self.n_estimators, "n_estimators", low=1)
        learning_rate = check_scalar(
            self.learning_rate, "learning_rate", low=0.0, low_inclusive=False
        )
        subsample = check_scalar(
            self.subsample, "subsample", low=0.0, high=1.0, low_inclusive=False
        )
        self.max_features_ = _resolve_max_features(
            self.max_features, n_features
        )
        return learning_rate, subsample, check_random_state(self.random_state)

    def _boost(self, X, Y, sample_weight):
        """Fit ``init_`` and ``n_estimators`` stages of ``K`` trees to ``X``
        and the target matrix ``Y`` of shape (n_samples, K); with
        ``subsample < 1``, record the loss on the points each stage leaves
        out."""
        learning_rate, subsample, rng = self._check_params(X.shape[1])
        n, K = Y.shape
        n_drawn = max(1, int(subsample * n))
        raw = np.tile(
            self._initial_raw_prediction(X, Y, sample_weight), (n, 1)
        )
        self.estimators_ = np.empty((self.n_estimators, K), dtype=object)
        self.train_score_ = np.empty(self.n_estimators)
        for name in _OOB_ATTRIBUTES:  # from an earlier fit
            self.__dict__.pop(name, None)
        out_of_bag = subsample < 1
        if out_of_bag:
            self.oob_scores_ = np.empty(self.n_estimators)
        for m in range(self.n_estimators):
            left_out = np.zeros(n, dtype=bool)
            if out_of_bag:
                left_out[rng.permutation(n)[n_drawn:]] = True
            drawn = np.flatnonzero(~left_out)
            X_m, Y_m, w_m = X[drawn], Y[drawn], sample_weight[drawn]
            self._start_stage(Y, raw, sample_weight)
            if out_of_bag and m == 0:  # F_0, on stage 1's left-out points
                initial_oob_score = self._loss(
                    Y[left_out], raw[left_out], sample_weight[left_out]
                )
            # r_im: once per stage, before any of its K trees moves F
            residual = self._negative_gradient(Y_m, raw[drawn])
            for k in range(K):
                tree = DecisionTreeRegressor(
                    max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf,
                    max_features=self.max_features_,
                    # one stream for the subsamples and the features, as
                    # scikit-learn's one RandomState
                    random_state=rng,
                    max_leaf_nodes=self.max_leaf_nodes,
                    ccp_alpha=self.ccp_alpha,
                ).fit(X_m, residual[:, k], sample_weight=w_m)
                self._update_leaves(
                    tree, X_m, Y_m[:, k], raw[drawn, k], residual[:, k], w_m
                )
                # F_m = F_{m-1} + nu h_m
                raw[:, k] += learning_rate * tree.predict(X)
                self.estimators_[m, k] = tree
            self.train_score_[m] = self._loss(Y_m, raw[drawn], w_m)
            if out_of_bag:
                self.oob_scores_[m] = self._loss(
                    Y[left_out], raw[left_out], sample_weight[left_out]
                )
        if out_of_bag:
            previous = np.r_[initial_oob_score, self.oob_scores_[:-1]]
            self.oob_improvement_ = previous - self.oob_scores_
            self.oob_score_ = float(self.oob_scores_[-1])
        self.n_estimators_ = self.n_estimators
        return self

    def _start_stage(self, Y, raw, sample_weight):
        """Whatever the loss needs from all the points before a stage
        (Huber's delta); nothing by default."""

    def _update_leaves(self, tree, X, y, raw, residual, sample_weight):
        """Replace the leaf means by the loss's best steps, from the drawn
        points' targets ``y``, scores ``raw`` before the stage and
        pseudo-residuals (nothing to do for the squared loss)."""

    def _set_leaf_steps(self, tree, X, step):
        """Set each leaf's value to ``step(here)``, a function of the
        boolean mask of the points in the leaf."""
        leaf = tree.apply(X)
        for node in np.unique(leaf):
            tree.tree_.value[node, 0, 0] = step(leaf == node)

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

    def apply(self, X):
        """The leaf each row of ``X`` reaches in each tree: the node index
        (:meth:`~mllib.tree.DecisionTreeRegressor.apply`) of tree
        ``estimators_[m, k]`` at ``[:, m, k]``, shape (n_samples,
        n_estimators, n_trees_per_iteration_), as floats like
        scikit-learn's."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        leaves = np.zeros((len(X),) + self.estimators_.shape)
        for (m, k), tree in np.ndenumerate(self.estimators_):
            leaves[:, m, k] = tree.apply(X)
        return leaves

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


_PARAMETERS_DOC = """\
    learning_rate : float
        Shrinkage :math:`\\nu` of every tree.
    n_estimators : int
        Number of boosting stages.
    subsample : float in (0, 1]
        Fraction of the points each stage is fitted on; below 1 the
        out-of-bag attributes are recorded.
    min_samples_split, min_samples_leaf, max_depth, max_leaf_nodes, \
ccp_alpha :
        Passed to every :class:`~mllib.tree.DecisionTreeRegressor` (with
        ``max_leaf_nodes`` each tree grows best first, within ``max_depth``
        as well, as in scikit-learn; the leaf values are then set by the
        loss's step).
    max_features : None, int, float, "sqrt" or "log2"
        Number of features each split searches (a fraction for a float),
        drawn at random per node as in the trees; None searches all.
    random_state : None, int, numpy.random.Generator or RandomState
        Draws the subsamples and the features searched."""

_OOB_DOC = """\
    oob_scores_ : ndarray of shape (n_estimators,)
        Only with ``subsample < 1``: entry :math:`m-1` is the loss (as
        ``train_score_``) of the model after stage :math:`m` on the points
        stage :math:`m` left out.
    oob_improvement_ : ndarray of shape (n_estimators,)
        Only with ``subsample < 1``: ``oob_scores_[m - 1] - oob_scores_[m]``,
        and for the first stage the decrease from :math:`F_0` on its
        left-out points. scikit-learn offers its cumulative sum for
        choosing ``n_estimators``; the sum telescopes to a loss on points
        that earlier stages drew, so it can go on rising after the test
        loss has turned (chapter 13, Going deeper).
    oob_score_ : float
        Only with ``subsample < 1``: ``oob_scores_[-1]``."""


class GradientBoostingRegressor(RegressorMixin, BaseGradientBoosting):
    __doc__ = f"""Gradient boosting of regression trees for the squared,
    absolute, Huber or quantile loss (module docstring).

    Parameters
    ----------
    loss : {{"squared_error", "absolute_error", "huber", "quantile"}}
{_PARAMETERS_DOC}
    alpha : float in (0, 1)
        The quantile of ``loss="quantile"``, and for ``loss="huber"`` the
        quantile of the absolute residuals that sets :math:`\\delta` at each
        stage.

    Attributes
    ----------
    n_trees_per_iteration_ : int
        1: one tree per stage.
    init_ : :class:`~mllib.dummy.DummyRegressor`
        The initial constant :math:`F_0`, as scikit-learn's:
        ``DummyRegressor(strategy="mean")`` for the squared error, else
        ``strategy="quantile"`` with ``quantile`` 0.5 (absolute and Huber
        losses) or ``alpha`` (quantile loss), fitted to ``y``.
    estimators_ : ndarray of DecisionTreeRegressor, shape (n_estimators, 1)
    train_score_ : ndarray of shape (n_estimators,)
        (Weighted) mean loss on the (drawn) training points after each
        stage: the squared error (twice the half squared loss), the absolute
        error, the Huber loss with the stage's :math:`\\delta`, or the
        pinball loss.
{_OOB_DOC}
    max_features_ : int
    feature_importances_ : ndarray of shape (n_features,)
    n_estimators_ : int
    n_features_in_ : int
    """

    _LOSSES = ("squared_error", "absolute_error", "huber", "quantile")

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
        max_features=None,
        alpha=0.9,
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
            max_features=max_features,
            max_leaf_nodes=max_leaf_nodes,
            ccp_alpha=ccp_alpha,
        )
        self.alpha = alpha

    def fit(self, X, y, sample_weight=None):
        """Boost on ``X`` (n_samples, n_features) and real targets ``y``,
        each sample's loss weighted by ``sample_weight``; return self."""
        if self.loss not in self._LOSSES:
            raise ValueError(
                f"loss must be one of {self._LOSSES}; got {self.loss!r}."
            )
        check_scalar(
            self.alpha,
            "alpha",
            low=0.0,
            high=1.0,
            low_inclusive=False,
            high_inclusive=False,
        )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self._weighted = sample_weight is not None
        sample_weight = check_sample_weight(sample_weight, len(y))
        self.n_trees_per_iteration_ = 1
        return self._boost(X, y[:, None], sample_weight)

    def _quantile_level(self):
        """The quantile that F_0 and the leaf steps take: the median for
        the absolute and Huber losses, alpha for the quantile loss."""
        return self.alpha if self.loss == "quantile" else 0.5

    def _initial_raw_prediction(self, X, Y, sample_weight):
        # scikit-learn's init_: the mean, or the quantile of the loss,
        # which DummyRegressor takes as numpy's interpolated percentile
        # without weights and the weighted quantile with them
        if self.loss == "squared_error":
            self.init_ = DummyRegressor(strategy="mean")
        else:
            self.init_ = DummyRegressor(
                strategy="quantile", quantile=self._quantile_level()
            )
        self.init_.fit(X, Y[:, 0], sample_weight if self._weighted else None)
        return self._initial_raw_prediction_value()

    def _initial_raw_prediction_value(self):
        return self.init_.constant_[0]

    def _start_stage(self, Y, raw, sample_weight):
        if self.loss == "huber":
            # delta_m: the alpha-quantile of |y - F_{m-1}| over all points
            self._delta = weighted_quantile(
                np.abs(Y - raw)[:, 0], sample_weight, self.alpha
            )

    def _negative_gradient(self, Y, raw):
        d = Y - raw
        if self.loss == "squared_error":  # of the half squared loss
            return d
        if self.loss == "absolute_error":  # +1 at d = 0, as scikit-learn
            return np.where(d >= 0, 1.0, -1.0)
        if self.loss == "huber":
            return np.clip(d, -self._delta, self._delta)
        return np.where(d >= 0, self.alpha, self.alpha - 1.0)

    def _update_leaves(self, tree, X, y, raw, residual, sample_weight):
        if self.loss == "squared_error":  # the leaf means are the steps
            return
        d = y - raw
        q = self._quantile_level()

        def step(here):
            w = sample_weight[here]
            if w.sum() == 0:  # no weight, no data: no step
                return 0.0
            median = weighted_quantile(d[here], w, q)
            if self.loss != "huber":
                return median
            # Friedman (2001), Algorithm 4: the median plus the mean of
            # the deviations from it, clipped at delta
            deviation = d[here] - median
            clipped = np.sign(deviation) * np.minimum(
                self._delta, np.abs(deviation)
            )
            return median + np.average(clipped, weights=w)

        self._set_leaf_steps(tree, X, step)

    def _loss(self, Y, raw, sample_weight):
        d = (Y - raw)[:, 0]
        if self.loss == "squared_error":
            per_sample = losses.squared(d)
        elif self.loss == "absolute_error":
            per_sample = np.abs(d)
        elif self.loss == "huber":
            per_sample = _huber(d, self._delta)
        else:
            per_sample = _pinball(d, self.alpha)
        return _mean(per_sample, sample_weight)

    def staged_predict(self, X):
        """Predictions after each stage: a generator of arrays of shape
        (n_samples,)."""
        for raw in self._raw_predict_stages(X):
            yield raw[:, 0]

    def apply(self, X):
        """The leaf each row of ``X`` reaches in each tree, shape
        (n_samples, n_estimators), as floats like scikit-learn's."""
        return super().apply(X)[:, :, 0]

    def predict(self, X):
        """:math:`F_0 + \\nu\\sum_m h_m(x)`, shape (n_samples,)."""
        *_, last = self.staged_predict(X)
        return last


class GradientBoostingClassifier(ClassifierMixin, BaseGradientBoosting):
    __doc__ = f"""Gradient boosting of regression trees for classification
    with the log-loss (binomial deviance for two classes, multinomial for
    more) or, for two classes, the exponential loss.

    Two classes: one tree per stage and the model is a score :math:`F(x)`,
    positive for ``classes_[1]``: the log-odds
    :math:`\\log\\frac{{P(y=1\\mid x)}}{{P(y=0\\mid x)}}` for the log-loss,
    half of them for the exponential loss. :math:`K>2` classes (log-loss
    only): :math:`K` trees per stage, one score :math:`F_k` per class,
    probabilities by the softmax (module docstring).

    Parameters
    ----------
    loss : {{"log_loss", "exponential"}}
{_PARAMETERS_DOC}

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
        classes, mean multinomial deviance for more, mean exponential loss.
{_OOB_DOC}
    max_features_ : int
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
        max_features=None,
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
            max_features=max_features,
            max_leaf_nodes=max_leaf_nodes,
            ccp_alpha=ccp_alpha,
        )

    def fit(self, X, y, sample_weight=None):
        """Boost on ``X`` (n_samples, n_features) and labels ``y``, each
        sample's loss weighted by ``sample_weight``; return self."""
        if self.loss not in ("log_loss", "exponential"):
            raise ValueError(
                f'loss must be "log_loss" or "exponential"; got {self.loss!r}.'
            )
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
        if self.loss == "exponential" and not binary:
            raise ValueError(
                "loss='exponential' is only suitable for a binary "
                f"classification problem, you have n_classes={self.n_classes_}"
                ". Please use loss='log_loss' instead."
            )
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
        """:math:`F_0`: the log-odds of the class frequency (two classes;
        half of them for the exponential loss, its minimiser), or their
        symmetric logit :math:`\\log\\pi_k - \\frac1K\\sum_j\\log\\pi_j`
        (more); shape (K,)."""
        eps = np.finfo(float).eps
        prior = np.clip(self.init_.class_prior_, eps, 1 - eps)
        if len(prior) == 2:
            log_odds = np.log(prior[1:] / (1 - prior[1:]))
            return 0.5 * log_odds if self.loss == "exponential" else log_odds
        log_prior = np.log(prior)
        return log_prior - log_prior.mean()

    def _negative_gradient(self, Y, raw):
        # y - sigma(F) = -d/dF log(1 + exp(-(2y-1) F)) for two classes (one
        # column, or a 1-D array), y_k - p_k = -d/dF_k (log sum_j exp(F_j) -
        # F_y) for more; (2y-1) exp(-(2y-1) F) for the exponential loss
        raw = np.asarray(raw)
        if self.loss == "exponential":
            sign = 2 * Y - 1
            return sign * np.exp(-sign * raw)
        if raw.ndim == 1 or raw.shape[1] == 1:
            return Y - expit(raw)
        return Y - softmax(raw, axis=1)

    def _update_leaves(self, tree, X, y, raw, residual, sample_weight):
        # one Newton step per leaf: sum of gradients over sum of Hessians
        # p(1 - p), with p = y - r (Friedman 2001, Algorithms 5 and 6);
        # scaled by (K - 1)/K for K > 2 classes. For the log-loss p(1 - p)
        # with p = y - r is |r|(1 - |r|) for y in {0, 1}: p = -r where
        # y = 0, and 1 - p = r where y = 1; for the exponential loss the
        # second derivative exp(-(2y-1) F) is |r|
        leaf = tree.apply(X)
        hessian = (
            np.abs(residual)
            if self.loss == "exponential"
            else np.abs(residual) * (1.0 - np.abs(residual))
        )
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
        if self.loss == "exponential":
            per_sample = np.exp(-(2 * Y[:, 0] - 1) * raw[:, 0])
        elif Y.shape[1] == 1:  # binomial deviance: twice the log-loss
            margin = (2 * Y[:, 0] - 1) * raw[:, 0]
            per_sample = 2.0 * losses.logistic(margin)
        else:  # log sum_j exp(F_j) - F_y
            per_sample = logsumexp(raw, axis=1) - np.sum(Y * raw, axis=1)
        return _mean(per_sample, sample_weight)

    def _scores(self, raw):
        return raw[:, 0] if raw.shape[1] == 1 else raw

    def staged_decision_function(self, X):
        """The scores after each stage: a generator of arrays of shape
        (n_samples,) (two classes) or (n_samples, n_classes)."""
        for raw in self._raw_predict_stages(X):
            yield self._scores(raw)

    def decision_function(self, X):
        """The score :math:`F(x)`, shape (n_samples,), positive means
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
            # the exponential loss's population minimiser is half the
            # log-odds, so P(y = 1 | x) = sigma(2F)
            scale = 2.0 if self.loss == "exponential" else 1.0
            p = expit(scale * raw[:, 0])
            return np.column_stack([1 - p, p])
        return softmax(raw, axis=1)

    def predict_proba(self, X):
        """:math:`[1-\\sigma(F(x)),\\ \\sigma(F(x))]` (two classes, log-loss;
        :math:`\\sigma(2F(x))` for the exponential loss) or the softmax of
        the scores, shape (n_samples, n_classes)."""
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
        """``classes_[1]`` where the score is at least 0 (two classes), the
        class of largest score (more); shape (n_samples,)."""
        *_, last = self.staged_predict(X)
        return last
