r"""Random forests: bagged trees that also draw a random subset of features at
every split.

The average of :math:`B` identically distributed predictors with variance
:math:`\sigma^2` and pairwise correlation :math:`\rho` has variance
:math:`\rho\sigma^2 + (1-\rho)\sigma^2/B`: more trees remove only the second
term. Bagged trees grown on the same data are strongly correlated (they tend to
split on the same strong features), so a forest searches only ``max_features``
randomly chosen features at each node, which lowers :math:`\rho` at a small
cost in bias. This is not the random-subspace method
(:class:`~mllib.ensemble.BaggingClassifier` with ``max_features < 1``), which
draws one subset per *tree*.

Same parameters, defaults and attributes as scikit-learn's
``RandomForestClassifier`` / ``RandomForestRegressor`` (a subset); the random
draws differ. ``warm_start`` adds trees to a fitted forest and keeps the others
(:mod:`mllib.ensemble.bagging`: tree ``b`` is the same however many trees are
grown), and ``oob_score`` may be combined with it (the score is recomputed over
all the trees), as in scikit-learn.

``fit(X, y, sample_weight)`` follows scikit-learn 1.9: with bootstrap the
weights are the probabilities of the draws and each tree is fitted with the
draw counts alone (:mod:`mllib.ensemble.bagging`: integer weights equal
repeated rows for an integer ``max_samples``); without bootstrap every tree is
fitted on every point with the weights themselves, so integer weights equal
repeated rows and zero weights dropped rows exactly (the trees' rule), and
``max_samples`` is refused. As in scikit-learn, ``max_samples`` may exceed
:math:`n` (an integer, or a float above 1).

``y`` may have several outputs, shape (n_samples, n_outputs), as in
scikit-learn: the trees take them (:mod:`mllib.tree`) and the forest averages
each output's predictions (a classifier its class probabilities, output by
output); ``n_outputs_`` counts them.

``apply`` and ``decision_path`` give each point's leaf, and its root-to-leaf
path, in every tree: the path indicator stacks the trees' indicators side by
side, tree :math:`b` in the columns ``n_nodes_ptr[b]:n_nodes_ptr[b + 1]``.

Reference: Breiman (2001), *Random forests*; Hastie, Tibshirani & Friedman
(2009), chapter 15.
"""

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import (
    check_classification_targets,
    type_of_target,
)
from sklearn.utils.validation import check_is_fitted, validate_data

from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ..validation import check_sample_weight, encode_classes
from .bagging import (
    BaggingClassifier,
    BaggingRegressor,
    _count_draws,
    _ravel_column,
)


class _Forest:
    """Members are trees with the forest's parameters; every tree sees every
    feature."""

    _oob_warm_start = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    @property
    def n_outputs_(self):
        """Number of outputs: 1 for a 1-D ``y`` (or a column), else the
        columns of ``y``."""
        check_is_fitted(self)
        return self._n_outputs

    def _make_estimator(self, seed):
        tree = (
            DecisionTreeClassifier
            if isinstance(self, BaggingClassifier)
            else DecisionTreeRegressor
        )
        return tree(
            criterion=self.criterion,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            max_features=self.max_features,
            max_leaf_nodes=self.max_leaf_nodes,
            ccp_alpha=self.ccp_alpha,
            random_state=seed,
        )

    def _n_member_features(self, n_features):
        return n_features

    def _draw_features(self, rng, n_features, n_drawn):
        """Every column, in order: a forest draws features per split."""
        return np.arange(n_features)

    def _n_draws(self, n, total_weight):
        """As bagging's, except that ``max_samples`` needs bootstrap and a
        float may exceed 1 (scikit-learn's forests)."""
        if self.max_samples is not None and not self.bootstrap:
            raise ValueError(
                f"max_samples={self.max_samples!r} cannot be set if "
                "bootstrap=False: every tree is then fitted on all the "
                "points. Either switch to bootstrap=True or set "
                "max_samples=None."
            )
        return _count_draws(self.max_samples, n, total_weight, largest=np.inf)

    def _fit_members(self, X, y, draw_weight, fit_weight):
        # Each tree starts by sorting its rows by every feature
        # (mllib.tree.builder), in O(d n log n). A classification tree
        # weighted by whole numbers (bootstrap counts) adds its class counts
        # exactly, so the order of tied values changes nothing in it: one
        # sort of X, restricted to each tree's rows, serves all the trees
        # (_fit_member), in O(d n) each. (A regression tree's sums would
        # round differently.)
        whole = np.array_equal(fit_weight, np.floor(fit_weight))
        self._rows_by_feature = (
            np.argsort(X.T, axis=1)
            if isinstance(self, BaggingClassifier) and whole
            else None
        )
        try:
            return super()._fit_members(X, y, draw_weight, fit_weight)
        finally:
            del self._rows_by_feature

    def _fit_member(self, member, X, y, rows, features, sample_weight):
        """Fit a tree on ``X[rows]`` (a forest's trees see every feature),
        given its rows sorted by each feature if X's are: those restricted
        to ``rows`` and renumbered."""
        order = None
        if self._rows_by_feature is not None:
            position = np.full(len(X), -1)
            position[rows] = np.arange(len(rows))
            order = position[self._rows_by_feature].ravel()
            order = np.compress(order >= 0, order).reshape(len(features), -1)
        member._fit(X[rows], y[rows], sample_weight, order=order)

    def _draw_and_fit_weights(self, sample_weight, n):
        """With bootstrap, bagging's rule (the weights are the draws'
        probabilities); without, every tree draws every point once and is
        fitted with the weights themselves, as scikit-learn's forests."""
        if self.bootstrap:
            return super()._draw_and_fit_weights(sample_weight, n)
        return np.ones(n), check_sample_weight(sample_weight, n)

    def apply(self, X):
        """The leaf each row of ``X`` reaches in each tree, shape
        (n_samples, n_estimators)."""
        X = self._validate_for_trees(X)
        return np.column_stack([tree.apply(X) for tree in self.estimators_])

    def decision_path(self, X):
        """The nodes each row of ``X`` passes through in every tree.

        Returns ``(indicator, n_nodes_ptr)``: ``indicator`` is a sparse CSR
        matrix of shape (n_samples, total number of nodes), the trees'
        :meth:`~mllib.tree.DecisionTreeClassifier.decision_path` side by
        side, and ``n_nodes_ptr`` (n_estimators + 1,) the cumulative node
        counts, so tree ``b``'s nodes are the columns
        ``n_nodes_ptr[b]:n_nodes_ptr[b + 1]``.
        """
        X = self._validate_for_trees(X)
        paths = [tree.decision_path(X) for tree in self.estimators_]
        n_nodes_ptr = np.cumsum([0] + [path.shape[1] for path in paths])
        return sparse.hstack(paths, format="csr"), n_nodes_ptr

    def _validate_for_trees(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    @property
    def feature_importances_(self):
        """Mean over the trees of their normalised impurity decreases, shape
        (n_features,)."""
        mean = np.mean(
            [tree.feature_importances_ for tree in self.estimators_], axis=0
        )
        return mean / mean.sum() if mean.sum() > 0 else mean


class RandomForestClassifier(_Forest, BaggingClassifier):
    """A forest of classification trees; predicts the class with the largest
    average probability.

    Parameters
    ----------
    n_estimators : int
        Number of trees.
    criterion, max_depth, min_samples_split, min_samples_leaf, \
max_leaf_nodes, ccp_alpha :
        Passed to every :class:`~mllib.tree.DecisionTreeClassifier`.
    max_features : "sqrt", "log2", int, float or None
        Features searched at each split (None: all, which is bagging of trees).
    bootstrap, oob_score, warm_start, random_state :
        As in :class:`~mllib.ensemble.BaggingClassifier` (``oob_score`` may
        be combined with ``warm_start`` here).
    max_samples : None, int or float
        Draws per tree with bootstrap (None: :math:`n`; an integer as given;
        a float times :math:`n`, or times the total weight with
        ``sample_weight``); must be None without bootstrap.

    Attributes
    ----------
    estimators_, estimators_samples_, feature_importances_
    n_outputs_ : int
        Number of outputs (columns of ``y``; 1 for a 1-D ``y``).
    classes_, n_classes_ :
        The labels of ``y`` and their number; with several outputs, lists of
        one entry per output (then ``predict_proba`` is a list of
        (n_samples, n_classes_[o]) arrays and ``predict`` has shape
        (n_samples, n_outputs)).
    oob_score_, oob_decision_function_ :
        As :class:`~mllib.ensemble.BaggingClassifier`'s; with several outputs
        (each of at most two classes, as in scikit-learn) the fraction of
        points with every output right, and shape (n_samples,
        max(n_classes_), n_outputs).

    Methods ``apply`` and ``decision_path`` give the leaves and the paths of
    rows in every tree.
    """

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        max_features="sqrt",
        max_leaf_nodes=None,
        bootstrap=True,
        oob_score=False,
        random_state=None,
        warm_start=False,
        ccp_alpha=0.0,
        max_samples=None,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.warm_start = warm_start
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a 0/1 indicator y (multilabel) is q outputs of two classes each
        tags.classifier_tags.multi_label = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit the trees on bootstrap samples of ``X`` (n_samples,
        n_features) and labels ``y`` (n_samples,) or (n_samples, n_outputs),
        drawn with probabilities proportional to ``sample_weight``
        (n_samples,) if given; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True)
        y = _ravel_column(y)
        if y.ndim == 2:  # so that a message names the type of the whole y
            check_classification_targets(y)  # ("continuous-multioutput")
        weights = self._draw_and_fit_weights(sample_weight, len(y))
        columns = y.reshape(len(y), -1).T
        # one class is allowed, as in scikit-learn: every tree predicts it
        classes, y_index = zip(
            *(
                encode_classes(c, allow_one_class=True, estimator=self)
                for c in columns
            )
        )
        y_index = np.stack(y_index, axis=1) if y.ndim == 2 else y_index[0]
        if (
            self.oob_score
            and type_of_target(y_index) == "multiclass-multioutput"
        ):
            raise ValueError(
                "The out-of-bag accuracy of several outputs needs at most "
                "two classes in each (it is then the fraction of points with "
                "every output right, as in scikit-learn); y is "
                "multiclass-multioutput. Set oob_score=False."
            )
        if self.warm_start and hasattr(self, "classes_"):
            previous = (
                self.classes_ if self.n_outputs_ > 1 else [self.classes_]
            )
            if len(previous) != len(classes) or not all(
                map(np.array_equal, previous, classes)
            ):
                raise ValueError(
                    "warm_start=True needs the classes of the previous fit, "
                    f"{[c.tolist() for c in previous]}; y has "
                    f"{[c.tolist() for c in classes]}."
                )
        self._n_outputs = len(classes)
        if self._n_outputs == 1:
            self.classes_, self.n_classes_ = classes[0], len(classes[0])
        else:  # lists, as scikit-learn's forests
            self.classes_ = list(classes)
            self.n_classes_ = [len(c) for c in classes]
        return self._fit_members(X, y_index, *weights)

    def _output_shape(self):
        """(n_classes,), or with several outputs (most classes, n_outputs):
        output ``o``'s probabilities in the first ``n_classes_[o]`` rows."""
        if self.n_outputs_ == 1:
            return super()._output_shape()
        return max(self.n_classes_), self.n_outputs_

    def _member_output(self, member, X):
        if self.n_outputs_ == 1:
            return super()._member_output(member, X)
        proba = np.zeros((len(X), *self._output_shape()))
        for o, (classes, p) in enumerate(
            zip(member.classes_, member.predict_proba(X))
        ):
            proba[:, classes, o] = p
        return proba

    def _store_oob(self, oob, y, seen):
        if self.n_outputs_ == 1:
            return super()._store_oob(oob, y, seen)
        self.oob_decision_function_ = oob
        right = y[seen] == np.argmax(oob[seen], axis=1)
        self.oob_score_ = float(np.mean(np.all(right, axis=1)))

    def predict_proba(self, X):
        """Average of the trees' class probabilities, shape (n_samples,
        n_classes); with several outputs, a list of one such array per
        output."""
        proba = super().predict_proba(X)
        if self.n_outputs_ == 1:
            return proba
        return [proba[:, :k, o] for o, k in enumerate(self.n_classes_)]

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba` (a list with several
        outputs)."""
        if self.n_outputs_ == 1:
            return super().predict_log_proba(X)
        with np.errstate(divide="ignore"):
            return [np.log(p) for p in self.predict_proba(X)]

    def predict(self, X):
        """The class with the largest average probability, shape
        (n_samples,), or (n_samples, n_outputs)."""
        if self.n_outputs_ == 1:
            return super().predict(X)
        return np.stack(
            [
                c[np.argmax(p, axis=1)]
                for c, p in zip(self.classes_, self.predict_proba(X))
            ],
            axis=1,
        )


class RandomForestRegressor(_Forest, BaggingRegressor):
    """A forest of regression trees; predicts the average of the trees.

    Parameters and attributes as :class:`RandomForestClassifier`, with
    ``criterion="squared_error"`` and ``max_features=1.0`` (all features:
    scikit-learn's default for regression) by default; ``oob_score_`` is the
    out-of-bag :math:`R^2` (the mean over the outputs) and
    ``oob_prediction_`` the out-of-bag predictions, shape (n_samples,) or
    (n_samples, n_outputs) as ``predict``.
    """

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        max_features=1.0,
        max_leaf_nodes=None,
        bootstrap=True,
        oob_score=False,
        random_state=None,
        warm_start=False,
        ccp_alpha=0.0,
        max_samples=None,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.warm_start = warm_start
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
