r"""Growing a tree: greedy recursive binary splitting, all the nodes of one
depth at a time, or, with ``max_leaf_nodes``, the best node first.

Finding an optimal tree is intractable already in simple versions (Hyafil &
Rivest, 1976: deciding whether a tree of binary tests identifies every point
within a given expected number of tests is NP-complete), so CART grows the tree
greedily: split a node by its best single split (:mod:`mllib.tree.splitting`),
then treat each child the same way, never revisiting a decision. A node becomes
a leaf when it is pure, at ``max_depth``, smaller than ``min_samples_split`` or
than ``2 * min_samples_leaf``, or when no valid split exists. A split is made
even when it does not decrease the impurity: the first split of XOR-like data
decreases nothing, yet its children can then be split perfectly.

**Depth by depth** (no ``max_leaf_nodes``). Each node's decision depends only
on its own samples, so the order in which nodes are processed does not change
the tree. This builder processes all the open nodes of one depth in one pass of
whole-array operations (a Python loop over nodes costs more than the arithmetic
for small nodes). It keeps, for every feature, the samples of the open nodes
node after node and sorted by that feature within each node; after the splits,
a *stable partition* (the samples of the left children, then those of the right
children) keeps every row sorted within each child, so the data are sorted only
once. The nodes are finally renumbered in depth-first preorder, as
scikit-learn's builder numbers them.

**Best first** (``max_leaf_nodes`` set). A budget of :math:`L` leaves allows
:math:`L-1` splits, and now the order matters: the builder keeps a *frontier*
of the nodes not yet split, each with its best split already found, and always
splits the frontier node whose split decreases the total weighted impurity
:math:`\sum_{\text{leaves}} W_t I(t)` the most (a max-heap keyed by the
weighted impurity decrease :math:`W I - W_L I_L - W_R I_R`), until the budget
is spent or no frontier node can be split. Each split is the one step that
lowers the training impurity of a tree with one more leaf the most: greedy in
the number of leaves rather than in the depth (Friedman, Hastie & Tibshirani
2000, §"Tree size"; scikit-learn's ``BestFirstTreeBuilder``). Nodes are
numbered as they are created (the root 0, then a split node's left and right
children get the next two numbers), as in scikit-learn; equal decreases go to
the node created first (scikit-learn's heap leaves that order unspecified).

With ``max_features < d`` each node searches a random subset of the features
(the random forest's decorrelation): the features are visited in a random order
and the first ``max_features`` are searched, or more if all of those are
constant in the node, until one is not (scikit-learn's rule). With all features
searched, ties between features go to the smallest index (scikit-learn breaks
them at random).

**Several outputs** (``y`` of shape (n, q)): a node's impurity is the mean of
its :math:`q` per-output impurities, so a split's decrease is the mean of its
per-output decreases (scikit-learn's multi-output criterion); a leaf predicts
every output at once.
"""

import heapq
from itertools import pairwise

import numpy as np

from .criteria import CLASSIFICATION
from .splitting import FEATURE_THRESHOLD, split_segments
from .structure import TREE_LEAF, TREE_UNDEFINED, Tree

#: A node whose impurity is at most this is pure (scikit-learn's test).
PURE = np.finfo(float).eps


def grow_tree(
    X,
    y,
    sample_weight,
    *,
    criterion,
    n_classes,
    max_depth,
    min_samples_split,
    min_samples_leaf,
    max_features,
    rng,
    max_leaf_nodes=None,
    order=None,
):
    """Grow a tree on ``X`` (n, d) and ``y`` (n, q): class indices, or real
    targets when ``n_classes`` is None; ``n_classes`` (q,) counts each
    output's classes.

    Samples of weight zero take no part (scikit-learn's rule): they neither
    place a threshold nor count in a node's number of samples. With
    ``max_leaf_nodes`` the tree grows best first. ``order`` (d, number of
    samples of positive weight), if given, holds those samples sorted by
    each feature, row ``j`` by feature ``j`` (a forest sorts its data once
    for all its trees); they are sorted here otherwise.

    Returns
    -------
    Tree
    """
    positive = sample_weight > 0
    X, y, sample_weight = X[positive], y[positive], sample_weight[positive]
    targets = _Targets(y, sample_weight, criterion, n_classes)
    min_split = max(min_samples_split, 2 * min_samples_leaf)
    # how each node's split is searched (_find_splits)
    search = dict(
        min_samples_leaf=min_samples_leaf, max_features=max_features, rng=rng
    )
    features = np.ascontiguousarray(X.T)  # row j: feature j of every sample
    if order is None:  # row j: the samples sorted by feature j
        order = np.argsort(features, axis=1)
    if max_leaf_nodes is not None:
        return _grow_best_first(
            features,
            order,
            targets,
            max_leaf_nodes=max_leaf_nodes,
            max_depth=max_depth,
            min_split=min_split,
            **search,
        )
    # depth by depth: row j of order holds the open nodes' samples, node
    # after node, sorted by feature j within each node
    n = features.shape[1]
    starts = np.array([0, n])
    levels, next_id, depth = [], 1, 0
    while len(starts) > 1:
        size, n_open = starts[1:] - starts[:-1], len(starts) - 1
        samples = order[0]  # every row holds the same samples
        node = np.repeat(np.arange(n_open), size)  # that of samples[i]
        value, impurity, weight = targets.summaries(samples, node, n_open)
        targets.centre(samples, node, value)
        open_ = (depth < max_depth) & (size >= min_split) & (impurity > PURE)
        feature, threshold, _ = _find_splits(
            features, order, starts, open_, targets, **search
        )
        is_split = feature != TREE_UNDEFINED
        n_splits, rank = int(is_split.sum()), np.cumsum(is_split) - 1
        # the next depth: the left children, then the right children, each
        # in the order of their parents
        levels.append(
            dict(
                value=value,
                impurity=impurity,
                n_node_samples=size,
                weighted_n_node_samples=weight,
                feature=feature,
                threshold=threshold,
                children_left=np.where(is_split, next_id + rank, TREE_LEAF),
                children_right=np.where(
                    is_split, next_id + n_splits + rank, TREE_LEAF
                ),
            )
        )
        next_id += 2 * n_splits
        if depth + 1 >= max_depth:  # no child is split: one row is enough
            order = order[:1]
        order, starts = _partition(
            features, order, is_split, feature, threshold, node
        )
        depth += 1
    return Tree(
        **{
            field: np.concatenate([level[field] for level in levels])
            for field in levels[0]
        },
        n_classes=n_classes,
    ).preorder()


class _Targets:
    """The targets of one fit and the per-sample statistic whose prefix sums
    describe a child (see :func:`~mllib.tree.splitting.split_segments`).

    Classification: the weighted one-hot vectors :math:`w_i e_{y_{io}}` of
    every output ``o``, stacked (``groups`` holds each output's rows).
    Regression: :math:`w_i` and the weighted residuals :math:`w_i(y_{io} -
    \\bar y_{o,\\text{node}})` of every output, set for each node by
    :meth:`centre`.
    """

    def __init__(self, y, sample_weight, criterion, n_classes):
        self.y, self.weight, self.criterion = y, sample_weight, criterion
        self.n_classes = n_classes
        n, n_outputs = y.shape
        if n_classes is None:
            self.stat = np.zeros((1 + n_outputs, n))
            self.stat[0] = sample_weight
            self.groups = None
        else:
            integral = _integral(sample_weight)
            self.stat = np.concatenate(
                [
                    integral * np.eye(k, dtype=int)[:, y[:, o]]
                    for o, k in enumerate(n_classes)
                ]
            )
            bounds = np.cumsum([0, *n_classes])
            self.groups = [slice(a, b) for a, b in pairwise(bounds)]

    def summaries(self, samples, node, n_nodes):
        """Value (n_nodes, q, n_values), impurity (the mean over outputs) and
        weight of each node; ``node[i]`` is the node of ``samples[i]``."""
        y, w = self.y[samples], self.weight[samples]
        weight = np.bincount(node, weights=w, minlength=n_nodes)
        if self.n_classes is None:
            mean = (
                np.stack(
                    [
                        np.bincount(node, weights=w * y_o, minlength=n_nodes)
                        for y_o in y.T
                    ],
                    axis=1,
                )
                / weight[:, None]
            )
            variance = (
                np.stack(
                    [
                        np.bincount(
                            node,
                            weights=w * (y_o - mean[node, o]) ** 2,
                            minlength=n_nodes,
                        )
                        for o, y_o in enumerate(y.T)
                    ],
                    axis=1,
                )
                / weight[:, None]
            )
            return mean[:, :, None], variance.mean(axis=1), weight
        width = max(self.n_classes)
        value = np.zeros((n_nodes, len(self.n_classes), width))
        impurity = np.zeros(n_nodes)
        for o, k in enumerate(self.n_classes):
            counts = np.bincount(
                node * k + y[:, o], weights=w, minlength=n_nodes * k
            )
            value[:, o, :k] = counts.reshape(n_nodes, k) / weight[:, None]
            impurity += CLASSIFICATION[self.criterion](value[:, o, :k])
        return value, impurity / len(self.n_classes), weight

    def centre(self, samples, node, value):
        """Regression: the residuals of ``samples`` from their node's mean."""
        if self.n_classes is None:
            self.stat[1:, samples] = (
                self.weight[samples] * (self.y[samples] - value[node, :, 0]).T
            )


def _find_splits(
    features,
    order,
    starts,
    open_,
    targets,
    *,
    max_features,
    min_samples_leaf,
    rng,
):
    """The best split of each open node: feature, threshold and weighted
    impurity decrease (``TREE_UNDEFINED``, ``-inf`` where there is none).

    ``order`` (d, m) holds, row after row, the nodes' samples node after node
    (node ``k`` at ``starts[k]:starts[k + 1]``), sorted by that row's feature
    within each node.
    """
    d = len(features)
    size, n_nodes = starts[1:] - starts[:-1], len(starts) - 1
    feature = np.full(n_nodes, TREE_UNDEFINED)
    threshold = np.full(n_nodes, float(TREE_UNDEFINED))
    improvement = np.full(n_nodes, -np.inf)
    if not open_.any():
        return feature, threshold, improvement
    first, last = starts[:-1][open_], starts[1:][open_] - 1
    rows = np.arange(d)[:, None]  # each row of order: sorted by node
    spread = _take_2d(features, rows, order[:, last]) - _take_2d(
        features, rows, order[:, first]
    )
    visit, n_searched = _visit_order(spread.T, max_features, rng)
    positions = np.repeat(open_, size)  # those of the open nodes
    if n_searched is None:  # every node: all features
        node_visit = visit[0][:, None]
        searched = order if open_.all() else order[:, positions]
    else:  # row j of a node's positions: its j-th feature in visit
        node_visit = np.repeat(visit.T, size[open_], axis=1)
        searched = _take_2d(order, node_visit, np.flatnonzero(positions))
    row, cut, best = split_segments(
        _take_2d(features, node_visit, searched),
        # stat[:, searched]; np.take lays it out C-ordered (K, c, m)
        np.take(targets.stat, searched, axis=1),
        np.concatenate([[0], np.cumsum(size[open_])]),
        targets.criterion,
        n_searched=n_searched,
        min_samples_leaf=min_samples_leaf,
        groups=targets.groups,
    )
    splits = best > -np.inf
    opened = np.flatnonzero(open_)[splits]
    feature[opened] = visit[splits, row[splits]]
    threshold[opened] = cut[splits]
    improvement[opened] = best[splits]
    return feature, threshold, improvement


def _grow_best_first(
    features,
    order,
    targets,
    *,
    max_leaf_nodes,
    max_depth,
    min_split,
    **search,
):
    """Split the frontier node of largest weighted impurity decrease until
    ``max_leaf_nodes`` leaves (see the module's docstring); nodes numbered in
    order of creation."""
    n = features.shape[1]
    nodes = {
        field: []
        for field in (
            "value",
            "impurity",
            "n_node_samples",
            "weighted_n_node_samples",
        )
    }
    depth, split_of, orders = [], [], []  # per node
    frontier = []  # (-decrease, node id): a max-heap on the decrease

    def add_nodes(order, starts, node_depth):
        """Summarise and search the nodes laid out in ``order``; put those
        with a split on the frontier."""
        size, n_new = starts[1:] - starts[:-1], len(starts) - 1
        samples = order[0]
        node = np.repeat(np.arange(n_new), size)
        value, impurity, weight = targets.summaries(samples, node, n_new)
        targets.centre(samples, node, value)
        open_ = (
            (node_depth < max_depth) & (size >= min_split) & (impurity > PURE)
        )
        found = _find_splits(features, order, starts, open_, targets, **search)
        for k in range(n_new):
            node_id = len(depth)
            for field, values in zip(
                nodes, (value, impurity, size, weight), strict=True
            ):
                nodes[field].append(values[k])
            depth.append(node_depth)
            split_of.append((found[0][k], found[1][k]))
            orders.append(order[:, starts[k] : starts[k + 1]])
            if found[2][k] > -np.inf:
                heapq.heappush(frontier, (-found[2][k], node_id))

    add_nodes(order, np.array([0, n]), 0)
    children = {}
    while frontier and len(children) < max_leaf_nodes - 1:
        _, parent = heapq.heappop(frontier)
        feature, threshold = split_of[parent]
        node_order = orders[parent]
        # a stable partition of every row: each child stays sorted
        left = features[feature, node_order] <= threshold
        n_left = int(left[0].sum())
        by_side = np.argsort(~left, axis=1, kind="stable")
        children[parent] = len(depth)
        add_nodes(
            np.take_along_axis(node_order, by_side, axis=1),
            np.array([0, n_left, node_order.shape[1]]),
            depth[parent] + 1,
        )
    for node_id in range(len(depth)):  # free the samples
        orders[node_id] = None
    is_split = np.zeros(len(depth), dtype=bool)
    is_split[list(children)] = True
    left_child = np.full(len(depth), TREE_LEAF)
    left_child[list(children)] = list(children.values())
    feature, threshold = (np.array(column) for column in zip(*split_of))
    return Tree(
        children_left=left_child,
        children_right=np.where(is_split, left_child + 1, TREE_LEAF),
        feature=np.where(is_split, feature, TREE_UNDEFINED),
        threshold=np.where(is_split, threshold, TREE_UNDEFINED),
        **{field: np.array(values) for field, values in nodes.items()},
        n_classes=targets.n_classes,
    )


def _integral(weights):
    """The weights as integers if they are (none given, or a forest's
    bootstrap counts): class counts then add up exactly, and their prefix
    sums run several times faster than in floating point."""
    as_integers = weights.astype(np.int64)
    exact = np.array_equal(as_integers, weights) and weights.sum() < 2**53
    return as_integers if exact else weights


def _visit_order(spread, max_features, rng):
    """Features each node searches, in order, shape (n_nodes, c), and how
    many of them (or None: all).

    ``spread`` (n_nodes, d) is the range of each feature in each node; a
    feature whose range is at most ``FEATURE_THRESHOLD`` is constant there.
    """
    n_nodes, d = spread.shape
    if max_features >= d:
        return np.broadcast_to(np.arange(d), (n_nodes, d)), None
    # a random permutation per node
    visit = np.argsort(rng.random((n_nodes, d)), axis=1)
    varies = np.take_along_axis(spread > FEATURE_THRESHOLD, visit, axis=1)
    # go on past constant features
    n_searched = np.maximum(max_features, np.argmax(varies, axis=1) + 1)
    return visit[:, : n_searched.max()], n_searched


def _partition(features, order, is_split, feature, threshold, node):
    """The next depth's order and node boundaries: the samples of the left
    children, then those of the right children; leaves' samples leave.
    ``node[i]`` is the node of sample ``order[0, i]``.

    A sample goes to the same side in every row (0: left, 1: right, 2: a
    leaf's), so every row holds as many samples of each side. Selecting by a
    mask keeps the selected samples in their order, row after row: the
    samples going left, then those going right, keep every child's samples
    in their sorted order, a stable partition (faster than a stable sort of
    the rows by side, which this is, and than a gather by its result).
    """
    splits = is_split[node]
    samples, node = order[0][splits], node[splits]
    left = _take_2d(features, feature[node], samples) <= threshold[node]
    side = np.full(features.shape[1], 2, dtype=np.int8)
    side[samples] = np.where(left, 0, 1)
    n_left = np.bincount(node[left], minlength=len(is_split))[is_split]
    n_right = np.bincount(node[~left], minlength=len(is_split))[is_split]
    # row after row in the flattened arrays; np.compress beats a boolean
    # index of the 2-D array
    flat, flat_side = order.ravel(), side[order].ravel()
    order = np.concatenate(
        [
            np.compress(flat_side == s, flat).reshape(len(order), -1)
            for s in (0, 1)
        ],
        axis=1,
    )
    children = np.concatenate([n_left, n_right])  # their sizes
    return order, np.concatenate([[0], np.cumsum(children)])


def _take_2d(a, rows, columns):
    """``a[rows, columns]`` for a 2-D ``a``, as one gather from the
    flattened ``a`` (``a[j, i]`` is ``a.flat[j * a.shape[1] + i]``): about
    twice as fast as numpy's indexing with two integer arrays."""
    return np.take(a, rows * a.shape[1] + columns)
