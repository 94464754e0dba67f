r"""Growing a tree: greedy recursive binary splitting, all the nodes of one depth at a time.

Finding an optimal tree is intractable already in simple versions (Hyafil & Rivest, 1976:
deciding whether a tree of binary tests identifies every point within a given expected number
of tests is NP-complete), so CART grows the tree greedily: split a node by its best single split
(:mod:`mllib.tree.splitting`), then treat each child the same way, never revisiting a decision.
A node becomes a leaf when it is pure, at ``max_depth``, smaller than ``min_samples_split`` or
than ``2 * min_samples_leaf``, or when no valid split exists. A split is made even when it does
not decrease the impurity: the first split of XOR-like data decreases nothing, yet its
children can then be split perfectly.

Each node's decision depends only on its own samples, so the order in which nodes are
processed does not change the tree. This builder processes all the open nodes of one depth in
one pass of whole-array operations (a Python loop over nodes costs more than the arithmetic
for small nodes). It keeps, for every feature, the samples of the open nodes node after node
and sorted by that feature within each node; after the splits, a *stable partition* (left
samples, then right ones, inside each node) keeps every column sorted, so the data are sorted
only once. The nodes are finally renumbered in depth-first preorder, as scikit-learn's builder
numbers them.

With ``max_features < d`` each node searches a random subset of the features (the random
forest's decorrelation): the features are visited in a random order and the first
``max_features`` are searched, or more if all of those are constant in the node, until one is
not (scikit-learn's rule). With all features searched, ties between features go to the
smallest index (scikit-learn breaks them at random).
"""

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
):
    """Grow a tree on ``X`` (n, d) and ``y`` (class indices, or real targets when ``n_classes`` is None).

    Returns
    -------
    Tree
    """
    n, d = X.shape
    onehot = (
        None if n_classes is None else sample_weight * np.eye(n_classes)[:, y]
    )  # (n_classes, n)
    columns = np.argsort(
        X, axis=0, kind="stable"
    )  # the open nodes' samples, sorted per feature in each node
    starts = np.array([0, n])
    levels, next_id, depth = [], 1, 0
    while len(starts) > 1:
        size, n_open = np.diff(starts), len(starts) - 1
        samples = columns[:, 0]  # every column holds the same samples
        node_of = np.empty(n, dtype=np.intp)
        node_of[samples] = np.repeat(np.arange(n_open), size)
        value, impurity, weight = _summaries(
            y[samples],
            sample_weight[samples],
            node_of[samples],
            n_open,
            criterion,
            n_classes,
        )
        feature = np.full(n_open, TREE_UNDEFINED)
        threshold = np.full(n_open, float(TREE_UNDEFINED))
        open_ = (
            (depth < max_depth)
            & (size >= max(min_samples_split, 2 * min_samples_leaf))
            & (impurity > PURE)
        )
        if open_.any():
            rows = np.repeat(open_, size)
            sub_starts = np.concatenate([[0], np.cumsum(size[open_])])
            visit, n_searched = _visit_order(
                X, columns[rows], sub_starts, max_features, rng
            )
            if n_searched is None:
                sub, node_visit = columns[rows], visit[:1]
            else:  # column j of a node's rows: its j-th feature in visiting order
                node_visit = visit[
                    np.repeat(np.arange(len(visit)), size[open_])
                ]
                sub = np.take_along_axis(columns[rows], node_visit, axis=1)
            if (
                n_classes is None
            ):  # weighted residuals, centred at each node's mean
                stat = np.zeros(n)
                stat[samples] = sample_weight[samples] * (
                    y[samples] - value[node_of[samples], 0]
                )
            else:
                stat = onehot
            column, cut, improvement = split_segments(
                X[sub, node_visit],
                sample_weight[sub],
                stat[..., sub],
                sub_starts,
                criterion,
                n_searched=n_searched,
                min_samples_leaf=min_samples_leaf,
            )
            splits = improvement > -np.inf
            feature[np.flatnonzero(open_)[splits]] = visit[
                splits, column[splits]
            ]
            threshold[np.flatnonzero(open_)[splits]] = cut[splits]
        is_split = feature != TREE_UNDEFINED
        children = (
            next_id + 2 * np.cumsum(is_split) - 2
        )  # left child id of each splitting node
        levels.append(
            dict(
                value=value,
                impurity=impurity,
                n_node_samples=size,
                weighted_n_node_samples=weight,
                feature=feature,
                threshold=threshold,
                children_left=np.where(is_split, children, TREE_LEAF),
                children_right=np.where(is_split, children + 1, TREE_LEAF),
            )
        )
        next_id += 2 * int(is_split.sum())
        columns, starts = _partition(
            X, columns, starts, is_split, feature, threshold, node_of
        )
        depth += 1
    return _preorder_tree(
        {
            field: np.concatenate([level[field] for level in levels])
            for field in levels[0]
        }
    )


def _summaries(y, sample_weight, node, n_nodes, criterion, n_classes):
    """Value (class proportions or the mean, shape (n_nodes, n_values)), impurity and weight of each node."""
    weight = np.bincount(node, weights=sample_weight, minlength=n_nodes)
    if n_classes is None:
        mean = (
            np.bincount(node, weights=sample_weight * y, minlength=n_nodes)
            / weight
        )
        variance = (
            np.bincount(
                node,
                weights=sample_weight * (y - mean[node]) ** 2,
                minlength=n_nodes,
            )
            / weight
        )
        return mean[:, None], variance, weight
    counts = np.bincount(
        node * n_classes + y,
        weights=sample_weight,
        minlength=n_nodes * n_classes,
    )
    proportions = counts.reshape(n_nodes, n_classes) / weight[:, None]
    return proportions, CLASSIFICATION[criterion](proportions), weight


def _visit_order(X, columns, starts, max_features, rng):
    """Features each node searches, in order, shape (n_nodes, c), and how many of them (or None: all)."""
    n_nodes, d = len(starts) - 1, X.shape[1]
    if max_features >= d:
        return np.broadcast_to(np.arange(d), (n_nodes, d)), None
    order = np.argsort(
        rng.random((n_nodes, d)), axis=1
    )  # a random permutation per node
    lowest = X[
        columns[starts[:-1]], np.arange(d)
    ]  # columns are sorted within each node
    highest = X[columns[starts[1:] - 1], np.arange(d)]
    varies = np.take_along_axis(
        highest - lowest > FEATURE_THRESHOLD, order, axis=1
    )
    n_searched = np.maximum(
        max_features, np.argmax(varies, axis=1) + 1
    )  # go on past constant features
    return order[:, : n_searched.max()], n_searched


def _partition(X, columns, starts, is_split, feature, threshold, node_of):
    """The next depth's columns and node boundaries: the children of the splitting nodes, left then right."""
    size = np.diff(starts)
    columns = columns[np.repeat(is_split, size)]
    size = size[is_split]
    node = np.repeat(np.arange(len(size)), size)
    samples = columns[:, 0]
    goes_left = np.zeros(len(X), dtype=bool)
    goes_left[samples] = (
        X[samples, feature[node_of[samples]]] <= threshold[node_of[samples]]
    )
    left = goes_left[
        columns
    ]  # (rows, d), the same count per node in every column
    first = np.concatenate([[0], np.cumsum(size)])[:-1]
    left_before = (
        np.cumsum(left, axis=0) - left
    )  # left samples earlier in the column...
    left_before -= left_before[first][node]  # ... and in the same node
    n_left = (
        np.add.reduceat(left[:, 0], first)
        if len(first)
        else np.zeros(0, dtype=np.intp)
    )
    child_sizes = np.column_stack([n_left, size - n_left]).ravel()
    new_starts = np.concatenate([[0], np.cumsum(child_sizes)])
    position = np.arange(len(columns))[:, None] - first[node][:, None]
    destination = np.where(
        left,
        new_starts[2 * node][:, None] + left_before,
        new_starts[2 * node + 1][:, None] + position - left_before,
    )
    partitioned = np.empty_like(columns)
    np.put_along_axis(partitioned, destination, columns, axis=0)
    return partitioned, new_starts


def _preorder_tree(nodes):
    """Renumber nodes from breadth-first to depth-first preorder (left subtree first) and build the Tree."""
    left, right = nodes["children_left"], nodes["children_right"]
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        if left[node] != TREE_LEAF:
            stack += [right[node], left[node]]
    order = np.array(order)
    new_id = np.empty_like(order)
    new_id[order] = np.arange(len(order))
    renumbered = {field: values[order] for field, values in nodes.items()}
    for field in ("children_left", "children_right"):
        child = renumbered[field]
        renumbered[field] = np.where(
            child == TREE_LEAF, TREE_LEAF, new_id[np.maximum(child, 0)]
        )
    renumbered["value"] = renumbered["value"][:, None, :]
    return Tree(**renumbered)
