r"""Decision-tree estimators (CART): the classifier and the regressor, with
scikit-learn's API."""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
    encode_classes,
)
from . import pruning
from .builder import grow_tree
from .criteria import CLASSIFICATION, REGRESSION


class BaseDecisionTree(BaseEstimator):
    """Parameters, growth and pruning shared by both trees (see
    :class:`DecisionTreeClassifier`)."""

    def __init__(
        self,
        *,
        criterion,
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        max_features=None,
        random_state=None,
        max_leaf_nodes=None,
        ccp_alpha=0.0,
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.ccp_alpha = ccp_alpha

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def _grow(self, X, y, sample_weight, n_classes, order=None):
        """Validate the parameters, grow ``tree_`` on the encoded targets
        ``y`` (n_samples, n_outputs) and prune it; return self. ``order``:
        as in :func:`~mllib.tree.builder.grow_tree`."""
        allowed = REGRESSION if n_classes is None else tuple(CLASSIFICATION)
        if self.criterion not in allowed:
            raise ValueError(
                f"criterion must be one of {allowed} for "
                f"{type(self).__name__}; got {self.criterion!r}."
            )
        max_depth = (
            np.inf
            if self.max_depth is None
            else check_int(self.max_depth, "max_depth", low=1)
        )
        max_leaf_nodes = (
            None
            if self.max_leaf_nodes is None
            else check_int(self.max_leaf_nodes, "max_leaf_nodes", low=2)
        )
        ccp_alpha = check_scalar(self.ccp_alpha, "ccp_alpha", low=0.0)
        self.max_features_ = _resolve_max_features(
            self.max_features, X.shape[1]
        )
        self.tree_ = grow_tree(
            X,
            y,
            check_sample_weight(sample_weight, len(y)),
            criterion=self.criterion,
            n_classes=n_classes,
            max_depth=max_depth,
            min_samples_split=check_int(
                self.min_samples_split, "min_samples_split", low=2
            ),
            min_samples_leaf=check_int(
                self.min_samples_leaf, "min_samples_leaf", low=1
            ),
            max_features=self.max_features_,
            rng=check_random_state(self.random_state),
            max_leaf_nodes=max_leaf_nodes,
            order=order,
        )
        if ccp_alpha > 0:  # the pruned tree is in preorder, as scikit-learn's
            self.tree_ = pruning.prune(self.tree_.preorder(), ccp_alpha)
        return self

    def apply(self, X):
        """Index of the leaf each row of ``X`` reaches, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.tree_.apply(X)

    def decision_path(self, X):
        """The nodes each row of ``X`` passes through: a sparse indicator
        matrix of shape (n_samples, node_count), entry ``(i, t)`` equal to 1
        exactly when node ``t`` is on the path from the root to row ``i``'s
        leaf (:meth:`~mllib.tree.structure.Tree.decision_path`)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.tree_.decision_path(X)

    def get_depth(self):
        """Depth of the tree (a single leaf has depth 0)."""
        return self._validate_fitted().max_depth

    def get_n_leaves(self):
        return self._validate_fitted().n_leaves

    @property
    def feature_importances_(self):
        """Normalised total weighted impurity decrease of each feature's splits
        ("Gini importance"), shape (n_features,)."""
        return self._validate_fitted().compute_feature_importances(
            self.n_features_in_
        )

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """Weakest-link sequence (``ccp_alphas``, ``impurities``) of the tree
        grown on ``X, y`` with these parameters and no pruning; see
        :mod:`mllib.tree.pruning`."""
        unpruned = type(self)(**{**self.get_params(), "ccp_alpha": 0.0}).fit(
            X, y, sample_weight
        )
        return pruning.cost_complexity_pruning_path(unpruned.tree_.preorder())

    def _validate_fitted(self):
        check_is_fitted(self)
        return self.tree_


class DecisionTreeClassifier(ClassifierMixin, BaseDecisionTree):
    r"""Classification tree grown greedily (CART), optionally pruned by cost
    complexity.

    Each leaf predicts the weighted majority class of its training samples;
    ``predict_proba`` returns their weighted class proportions. Splits maximise
    the weighted impurity decrease :math:`W I(\text{node}) - W_L I(L) - W_R
    I(R)` (:mod:`mllib.tree.criteria`), found by the sorted cumulative-sum
    search of :mod:`mllib.tree.splitting`; growth is described in
    :mod:`mllib.tree.builder` and pruning in :mod:`mllib.tree.pruning`.

    Same parameters, splits and fitted attributes as
    ``sklearn.tree.DecisionTreeClassifier`` (with ``splitter="best"``), plus
    the ``"misclassification"`` criterion, which scikit-learn does not offer.
    scikit-learn stores ``X`` as float32; on data that float32 represents
    exactly, the trees coincide wherever no two splits tie.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss", "misclassification"}
        Node impurity; entropy is in bits and ``"log_loss"`` is the same as
        ``"entropy"``.
    max_depth : int or None
        Largest depth of a leaf; ``None`` grows until the leaves are pure or
        too small to split.
    min_samples_split : int, at least 2
        A node with fewer samples is a leaf.
    min_samples_leaf : int, at least 1
        Every leaf keeps at least this many samples.
    max_features : None, int, float, "sqrt" or "log2"
        Number of features searched at each node (a fraction of them for a
        float, all for None).
    random_state : None, int, numpy.random.Generator or RandomState
        Chooses the features searched when ``max_features`` is below the number
        of features.
    max_leaf_nodes : int (at least 2) or None
        Grow best first (:mod:`mllib.tree.builder`): split the node whose
        split decreases the weighted impurity most, until the tree has this
        many leaves; nodes are then numbered in order of creation, as in
        scikit-learn. None grows depth by depth without a leaf budget.
    ccp_alpha : float, non-negative
        Cost-complexity parameter :math:`\alpha`: the grown tree is pruned to
        the smallest subtree minimising :math:`R(T) + \alpha|\tilde T|`.

    ``y`` may have several columns (outputs): a node's impurity is then the
    mean of the outputs' impurities, and each leaf predicts every output.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,), or a list of them (one per
        output) when ``y`` has several outputs
    n_classes_ : int, or ndarray of shape (n_outputs,)
    n_outputs_ : int
    tree_ : :class:`~mllib.tree.structure.Tree`
        The node arrays (``value`` holds class proportions); ``apply`` and
        ``decision_path`` give the leaf and the root-to-leaf path of a row.
    max_features_ : int
    feature_importances_ : ndarray of shape (n_features,)
    n_features_in_ : int

    References
    ----------
    Breiman, Friedman, Olshen & Stone (1984), *Classification and Regression
    Trees*; Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical
    Learning*, §9.2.
    """

    def __init__(
        self,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        max_features=None,
        random_state=None,
        max_leaf_nodes=None,
        ccp_alpha=0.0,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            max_features=max_features,
            random_state=random_state,
            max_leaf_nodes=max_leaf_nodes,
            ccp_alpha=ccp_alpha,
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a 0/1 indicator y (multilabel) is q outputs of two classes each
        tags.classifier_tags.multi_label = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Grow (and prune) the tree on ``X`` (n_samples, n_features) and
        labels ``y``; return self."""
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight=None, order=None):
        """:meth:`fit`, given the rows sorted by each feature if ``order`` is
        not None (:func:`~mllib.tree.builder.grow_tree`; a forest's)."""
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True)
        if y.ndim == 2:  # so that a message names the type of the whole y
            check_classification_targets(y)  # ("continuous-multioutput")
        columns = y.reshape(len(y), -1).T
        self.n_outputs_ = len(columns)
        # one class is allowed: the tree is then a single leaf, as in
        # scikit-learn (a bootstrap sample of a forest may hold one class)
        classes, y_index = zip(
            *(
                encode_classes(column, allow_one_class=True, estimator=self)
                for column in columns
            )
        )
        n_classes = [len(c) for c in classes]
        if self.n_outputs_ == 1:
            self.classes_, self.n_classes_ = classes[0], n_classes[0]
        else:
            self.classes_, self.n_classes_ = list(classes), np.array(n_classes)
        return self._grow(
            X, np.stack(y_index, axis=1), sample_weight, n_classes, order
        )

    def predict_proba(self, X):
        """Weighted class proportions of the leaf each row reaches, shape
        (n_samples, n_classes); with several outputs, a list of one such
        array per output."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        value = self.tree_.predict(X)
        if self.n_outputs_ == 1:
            return value[:, 0, : self.n_classes_]
        return [value[:, o, :k] for o, k in enumerate(self.n_classes_)]

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba` (``-inf`` for a class absent
        from the leaf)."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            if self.n_outputs_ == 1:
                return np.log(proba)
            return [np.log(p) for p in proba]

    def predict(self, X):
        """The majority class of each row's leaf (ties: the first in
        ``classes_``), shape (n_samples,), or (n_samples, n_outputs)."""
        proba = self.predict_proba(X)
        if self.n_outputs_ == 1:
            return self.classes_[np.argmax(proba, axis=1)]
        return np.stack(
            [c[np.argmax(p, axis=1)] for c, p in zip(self.classes_, proba)],
            axis=1,
        )


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    r"""Regression tree grown greedily (CART), optionally pruned by cost
    complexity.

    Each leaf predicts the weighted mean target of its training samples, which
    minimises the leaf's residual sum of squares; splits maximise the decrease
    of the total RSS. Same parameters, splits and fitted attributes as
    ``sklearn.tree.DecisionTreeRegressor`` with ``criterion="squared_error"``
    (see :class:`DecisionTreeClassifier` for the parameters and the float32
    caveat; here ``tree_.value`` holds the leaf means and ``tree_.impurity``
    the weighted variances). With several outputs (``y`` of shape
    (n_samples, n_outputs)) the criterion is the mean of the outputs'
    squared errors and ``predict`` returns shape (n_samples, n_outputs).
    """

    def __init__(
        self,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        max_features=None,
        random_state=None,
        max_leaf_nodes=None,
        ccp_alpha=0.0,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            max_features=max_features,
            random_state=random_state,
            max_leaf_nodes=max_leaf_nodes,
            ccp_alpha=ccp_alpha,
        )

    def fit(self, X, y, sample_weight=None):
        """Grow (and prune) the tree on ``X`` (n_samples, n_features) and real
        targets ``y``; return self."""
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight=None, order=None):
        """:meth:`fit`, given the rows sorted by each feature if ``order`` is
        not None (:func:`~mllib.tree.builder.grow_tree`; a forest's)."""
        X, y = validate_data(
            self, X, y, dtype=np.float64, y_numeric=True, multi_output=True
        )
        self.n_outputs_ = 1 if y.ndim == 1 else y.shape[1]
        # as scikit-learn's trees: numbers written as strings are numbers
        y = np.asarray(y, dtype=np.float64).reshape(len(y), -1)
        return self._grow(X, y, sample_weight, None, order)

    def predict(self, X):
        """The mean training targets of the leaf each row reaches, shape
        (n_samples,), or (n_samples, n_outputs)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        value = self.tree_.predict(X)[:, :, 0]
        return value[:, 0] if self.n_outputs_ == 1 else value


def _resolve_max_features(max_features, n_features):
    """The number of features searched per node, from scikit-learn's forms of
    ``max_features``."""
    if max_features is None:
        return n_features
    if max_features == "sqrt":
        return max(1, int(np.sqrt(n_features)))
    if max_features == "log2":
        return max(1, int(np.log2(n_features)))
    if isinstance(max_features, numbers.Integral) and not isinstance(
        max_features, bool
    ):
        if 1 <= max_features <= n_features:
            return int(max_features)
    elif isinstance(max_features, numbers.Real) and 0 < max_features <= 1:
        return max(1, int(max_features * n_features))
    raise ValueError(
        'max_features must be None, "sqrt", "log2", an integer in [1, '
        f"n_features={n_features}] "
        f"or a fraction in (0, 1]; got {max_features!r}."
    )
