r"""ID3 and C4.5 decision trees: multiway splits on categorical features.

A node holding samples :math:`D` with class proportions :math:`p_k` tests one
categorical feature :math:`A` and has one child per value :math:`v` it takes
in :math:`D`, holding :math:`D_v`. ID3 (Quinlan 1986) picks the feature of
largest **information gain**, the drop in entropy (in bits),

.. math:: \mathrm{Gain}(D,A)=H(D)-\sum_v\frac{|D_v|}{|D|}H(D_v),\qquad
          H(D)=-\sum_kp_k\log_2p_k .

Gain favours features with many values: splitting into many small groups
makes them purer by chance, and a feature with a distinct value per sample
(an identifier) has the largest possible gain, :math:`H(D)`, while
predicting nothing. C4.5 (Quinlan 1993, §2.2) divides by the **split
information**, the entropy of the partition itself,

.. math:: \mathrm{SplitInfo}(D,A)=-\sum_v\frac{|D_v|}{|D|}
          \log_2\frac{|D_v|}{|D|}\ (\le\log_2\#\text{values}),\qquad
          \mathrm{GainRatio}=\frac{\mathrm{Gain}}{\mathrm{SplitInfo}},

and, because the ratio also rewards features whose split information is
tiny, maximises it only over the features whose gain is at least the
average gain of the candidates. A feature used on the path to a node takes
one value there, so it is never tested twice on a path. Growth stops at a
pure node, when no feature takes two values, or at ``max_depth`` /
``min_samples_split``; a split is made even when its gain is 0 (no greedy
impurity sees the value of the first split of an XOR). Pruning is in
:mod:`mllib.tree.id3_pruning`. Not implemented from C4.5: thresholds on
continuous features, missing values, pessimistic-error pruning.
"""

from dataclasses import dataclass, field

import numpy as np
from scipy.special import entr
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import Bunch, check_array
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import check_int, check_scalar, encode_classes
from .id3_pruning import (
    cost_complexity_path,
    prune_cost_complexity,
    prune_reduced_error,
)


def _entropy_of_counts(counts):
    p = counts / counts.sum()
    return float(np.sum(entr(p)) / np.log(2.0))  # entr(p) = -p ln p


def _groups(x, y):
    """Class counts of ``y`` within each value of ``x``, shape
    (n_values, n_classes)."""
    _, value = np.unique(x, return_inverse=True)
    _, label = np.unique(y, return_inverse=True)
    counts = np.zeros((value.max() + 1, label.max() + 1))
    np.add.at(counts, (value, label), 1)
    return counts


def information_gain(x, y):
    r""":math:`\mathrm{Gain}(D,A)` in bits, for a categorical column ``x``
    and labels ``y``, both of shape (n_samples,)."""
    counts = _groups(np.asarray(x), np.asarray(y))
    sizes = counts.sum(axis=1)
    after = sum(
        n / sizes.sum() * _entropy_of_counts(c) for n, c in zip(sizes, counts)
    )
    return _entropy_of_counts(counts.sum(axis=0)) - after


def split_information(x):
    r""":math:`\mathrm{SplitInfo}(D,A)`, the entropy in bits of the values
    of ``x``."""
    return _entropy_of_counts(np.unique(np.asarray(x), return_counts=True)[1])


def gain_ratio(x, y):
    r""":math:`\mathrm{Gain}/\mathrm{SplitInfo}`; ``x`` must take at least
    two values (else the split information is 0)."""
    info = split_information(x)
    if info == 0:
        raise ValueError("x takes a single value: the gain ratio is 0 / 0.")
    return information_gain(x, y) / info


@dataclass
class Node:
    """A node of a multiway tree: its training class counts, and the tested
    feature with one child per value (none at a leaf)."""

    counts: np.ndarray
    feature: int | None = None
    children: dict = field(default_factory=dict)

    @property
    def is_leaf(self):
        return self.feature is None

    @property
    def prediction(self):
        """Majority class index of the training samples (first on ties)."""
        return int(np.argmax(self.counts))

    @property
    def training_errors(self):
        return int(self.counts.sum() - self.counts.max())

    @property
    def n_leaves(self):
        if self.is_leaf:
            return 1
        return sum(child.n_leaves for child in self.children.values())

    @property
    def depth(self):
        if self.is_leaf:
            return 0
        return 1 + max(child.depth for child in self.children.values())

    def as_leaf(self):
        return Node(self.counts)

    def with_children(self, children):
        return Node(self.counts, self.feature, children)

    def leaf_for(self, x):
        """The node where sample ``x`` stops: a leaf, or the first node
        with no child for ``x``'s value of the tested feature."""
        node = self
        while not node.is_leaf and x[node.feature] in node.children:
            node = node.children[x[node.feature]]
        return node


class ID3Classifier(ClassifierMixin, BaseEstimator):
    r"""A multiway decision tree on categorical features (ID3, or C4.5's
    gain ratio).

    Parameters
    ----------
    criterion : {"gain", "gain_ratio"}, default="gain"
        ID3's information gain or C4.5's gain ratio (with its
        average-gain condition).
    max_depth : int or None, default=None
    min_samples_split : int, default=2
        A node with fewer samples is a leaf.
    ccp_alpha : float, default=0.0
        Cost-complexity pruning after growth (none if 0), on the training
        misclassification rate.

    Attributes
    ----------
    tree_ : Node
        The root; ``tree_.children`` maps each value of ``tree_.feature`` to
        a subtree.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int

    Every column is categorical: each distinct number is a category (encode
    strings first, e.g. with ``np.unique(column, return_inverse=True)``).
    A sample with a category its node never saw in training stops there and
    gets the node's majority class. No scikit-learn equivalent (its trees
    are CART: binary splits on thresholds).
    """

    def __init__(
        self,
        criterion="gain",
        max_depth=None,
        min_samples_split=2,
        ccp_alpha=0.0,
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.ccp_alpha = ccp_alpha

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        return tags

    def fit(self, X, y):
        """Grow (and prune, if ``ccp_alpha > 0``) the tree; return self."""
        max_depth, min_samples_split, ccp_alpha = self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_classes(y, estimator=self)
        self.tree_ = self._grow(
            X,
            y_index,
            rows=np.arange(len(X)),
            features=list(range(X.shape[1])),
            depth=0,
            limits=(max_depth, min_samples_split),
        )
        if ccp_alpha > 0:
            self.tree_, _ = prune_cost_complexity(
                self.tree_, ccp_alpha, len(X)
            )
        return self

    def _check_params(self):
        """``max_depth`` (inf for None), ``min_samples_split`` and
        ``ccp_alpha``, checked."""
        if self.criterion not in ("gain", "gain_ratio"):
            raise ValueError(
                'criterion must be "gain" (ID3) or "gain_ratio" (C4.5); got '
                f"{self.criterion!r}."
            )
        max_depth = (
            np.inf
            if self.max_depth is None
            else check_int(self.max_depth, "max_depth", low=1)
        )
        min_samples_split = check_int(
            self.min_samples_split, "min_samples_split", low=2
        )
        ccp_alpha = check_scalar(self.ccp_alpha, "ccp_alpha", low=0)
        return max_depth, min_samples_split, ccp_alpha

    def _grow(self, X, y, rows, features, depth, limits):
        """The subtree of the samples ``rows`` (class indices ``y``), which
        may still split on ``features``."""
        max_depth, min_samples_split = limits
        node = Node(np.bincount(y[rows], minlength=len(self.classes_)))
        candidates = [f for f in features if np.ptp(X[rows, f]) > 0]
        if (
            node.training_errors == 0  # pure
            or not candidates  # no feature takes two values here
            or depth >= max_depth
            or len(rows) < min_samples_split
        ):
            return node  # a leaf
        node.feature = self._choose(X[rows], y[rows], candidates)
        rest = [f for f in features if f != node.feature]
        for value in np.unique(X[rows, node.feature]):  # one child per value
            node.children[value] = self._grow(
                X,
                y,
                rows[X[rows, node.feature] == value],
                rest,
                depth + 1,
                limits,
            )
        return node

    def _choose(self, X, y, candidates):
        """The feature to split on: the largest information gain (ID3), or
        the largest gain ratio among the features of at least average gain
        (C4.5)."""
        gains = np.array([information_gain(X[:, f], y) for f in candidates])
        if self.criterion == "gain":
            return candidates[int(np.argmax(gains))]
        ratios = np.array(
            [
                gain / split_information(X[:, f])
                for gain, f in zip(gains, candidates)
            ]
        )
        # only features of at least average gain compete on the ratio (the
        # tolerance keeps a feature whose gain equals the average)
        ratios[gains < gains.mean() - 1e-12] = -np.inf
        return candidates[int(np.argmax(ratios))]

    def predict_proba(self, X):
        """Class proportions of the training samples where each sample
        stops, shape (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        counts = np.array([self.tree_.leaf_for(x).counts for x in X])
        return counts / counts.sum(axis=1, keepdims=True)

    def predict(self, X):
        """Majority class where each sample stops, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.classes_[[self.tree_.leaf_for(x).prediction for x in X]]

    def get_n_leaves(self):
        check_is_fitted(self)
        return self.tree_.n_leaves

    def get_depth(self):
        check_is_fitted(self)
        return self.tree_.depth

    def cost_complexity_pruning_path(self, X, y):
        """Grow an unpruned tree on ``(X, y)``; return a ``Bunch`` with
        ``ccp_alphas`` and ``impurities`` (the training misclassification
        rate of each pruned tree), as scikit-learn's trees do."""
        unpruned = type(self)(**{**self.get_params(), "ccp_alpha": 0.0})
        unpruned.fit(X, y)
        alphas, rates = cost_complexity_path(
            unpruned.tree_, len(np.asarray(y))
        )
        return Bunch(ccp_alphas=alphas, impurities=rates)


def reduced_error_prune(model, X_prune, y_prune):
    """A copy of the fitted ``ID3Classifier`` ``model`` pruned by
    reduced-error pruning on ``(X_prune, y_prune)``; ``model`` is not
    modified."""
    check_is_fitted(model)
    X_prune = check_array(X_prune, dtype=np.float64, input_name="X_prune")
    y_prune = np.asarray(y_prune)
    unknown = ~np.isin(y_prune, model.classes_)
    if unknown.any() or X_prune.shape != (len(y_prune), model.n_features_in_):
        raise ValueError(
            "the pruning set must have one label from the training classes "
            f"per row and {model.n_features_in_} columns."
        )
    pruned = type(model)(**model.get_params())
    pruned.__dict__.update(model.__dict__)
    pruned.tree_, _ = prune_reduced_error(
        model.tree_, X_prune, np.searchsorted(model.classes_, y_prune)
    )
    return pruned
