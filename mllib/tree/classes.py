r"""Decision-tree estimators (CART): the classifier and the regressor, with
scikit-learn's API."""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
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
        ccp_alpha=0.0,
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.ccp_alpha = ccp_alpha

    def _grow(self, X, y, sample_weight, n_classes):
        """Validate the parameters, grow ``tree_`` on the encoded targets and
        prune it; return self."""
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
        )
        if ccp_alpha > 0:
            self.tree_ = pruning.prune(self.tree_, ccp_alpha)
        return self

    def apply(self, X):
        """Index of the leaf each row of ``X`` reaches, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.tree_.apply(X)

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
        return pruning.cost_complexity_pruning_path(unpruned.tree_)

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
    random_state : None, int or numpy.random.Generator
        Chooses the features searched when ``max_features`` is below the number
        of features.
    ccp_alpha : float, non-negative
        Cost-complexity parameter :math:`\alpha`: the grown tree is pruned to
        the smallest subtree minimising :math:`R(T) + \alpha|\tilde T|`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    tree_ : :class:`~mllib.tree.structure.Tree`
        The node arrays (``value`` holds class proportions).
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
        ccp_alpha=0.0,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            max_features=max_features,
            random_state=random_state,
            ccp_alpha=ccp_alpha,
        )

    def fit(self, X, y, sample_weight=None):
        """Grow (and prune) the tree on ``X`` (n_samples, n_features) and
        labels ``y``; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        # one class is allowed: the tree is then a single leaf, as in
        # scikit-learn (a bootstrap sample of a forest may hold one class)
        self.classes_, y_index = encode_classes(
            y, allow_one_class=True, estimator=self
        )
        self.n_classes_ = len(self.classes_)
        return self._grow(X, y_index, sample_weight, self.n_classes_)

    def predict_proba(self, X):
        """Weighted class proportions of the leaf each row reaches, shape
        (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.tree_.predict(X)[:, 0, :]

    def predict(self, X):
        """The majority class of each row's leaf (ties: the first in
        ``classes_``), shape (n_samples,)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    r"""Regression tree grown greedily (CART), optionally pruned by cost
    complexity.

    Each leaf predicts the weighted mean target of its training samples, which
    minimises the leaf's residual sum of squares; splits maximise the decrease
    of the total RSS. Same parameters, splits and fitted attributes as
    ``sklearn.tree.DecisionTreeRegressor`` with ``criterion="squared_error"``
    (see :class:`DecisionTreeClassifier` for the parameters and the float32
    caveat; here ``tree_.value`` holds the leaf means and ``tree_.impurity``
    the weighted variances).
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
        ccp_alpha=0.0,
    ):
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            min_samples_split=min_samples_split,
            min_samples_leaf=min_samples_leaf,
            max_features=max_features,
            random_state=random_state,
            ccp_alpha=ccp_alpha,
        )

    def fit(self, X, y, sample_weight=None):
        """Grow (and prune) the tree on ``X`` (n_samples, n_features) and real
        targets ``y``; return self."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        return self._grow(X, y, sample_weight, None)

    def predict(self, X):
        """The mean training target of the leaf each row reaches, shape
        (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.tree_.predict(X)[:, 0, 0]


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
