r"""Growing a tree: greedy recursive binary splitting, all the nodes of one
depth at a time.

Finding an optimal tree is intractable already in simple versions (Hyafil &
Rivest, 1976: deciding whether a tree of binary tests identifies every point
within a given expected number of tests is NP-complete), so CART grows the tree
greedily: split a node by its best single split (:mod:`mllib.tree.splitting`),
then treat each child the same way, never revisiting a decision. A node becomes
a leaf when it is pure, at ``max_depth``, smaller than ``min_samples_split`` or
than ``2 * min_samples_leaf``, or when no valid split exists. A split is made
even when it does not decrease the impurity: the first split of XOR-like data
decreases nothing, yet its children can then be split perfectly.

Each node's decision depends only on its own samples, so the order in which
nodes are processed does not change the tree. This builder processes all the
open nodes of one depth in one pass of whole-array operations (a Python loop
over nodes costs more than the arithmetic for small nodes). It keeps, for every
feature, the samples of the open nodes node after node and sorted by that
feature within each node; after the splits, a *stable partition* (the samples
of the left children, then those of the right children) keeps every row sorted
within each child, so the data are sorted only once. The nodes are finally
renumbered in depth-first preorder, as scikit-learn's builder numbers them.

With ``max_features < d`` each node searches a random subset of the features
(the random forest's decorrelation): the features are visited in a random order
and the first ``max_features`` are searched, or more if all of those are
constant in the node, until one is not (scikit-learn's rule). With all features
searched, ties between features go to the smallest index (scikit-learn breaks
them at random).
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
    """Grow a tree on ``X`` (n, d) and ``y`` (class indices, or real targets
    when ``n_classes`` is None).

    Samples of weight zero take no part (scikit-learn's rule): they neither
    place a threshold nor count in a node's number of samples.

    Returns
    -------
    Tree
    """
    positive = sample_weight > 0
    X, y, sample_weight = X[positive], y[positive], sample_weight[positive]
    n, d = X.shape
    features = np.ascontiguousarray(X.T)  # row j: feature j of every sample
    if n_classes is None:  # (w_i, w_i r_i), residuals set at each depth
        stat = np.stack([sample_weight, np.zeros(n)])
    else:  # w_i e_{y_i}
        stat = _integral(sample_weight) * np.eye(n_classes, dtype=int)[:, y]
    # row j: the open nodes' samples, node after node, sorted by feature j
    # within each node
    order = np.argsort(features, axis=1)
    starts = np.array([0, n])
    levels, next_id, depth = [], 1, 0
    while len(starts) > 1:
        size, n_open = np.diff(starts), len(starts) - 1
        samples = order[0]  # every row holds the same samples
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
            first, last = starts[:-1][open_], starts[1:][open_] - 1
            rows = np.arange(d)[:, None]  # each row of order: sorted by node
            spread = (
                features[rows, order[:, last]]
                - features[rows, order[:, first]]
            )
            visit, n_searched = _visit_order(spread.T, max_features, rng)
            positions = np.repeat(open_, size)  # those of the open nodes
            if n_searched is None:  # every node: all features
                node_visit = visit[0][:, None]
                searched = order if open_.all() else order[:, positions]
            else:  # row j of a node's positions: its j-th feature in visit
                node_visit = visit.T[
                    :, np.repeat(np.arange(len(visit)), size[open_])
                ]
                searched = order[node_visit, np.flatnonzero(positions)]
            sub_starts = np.concatenate([[0], np.cumsum(size[open_])])
            if n_classes is None:  # residuals from each node's mean
                stat[1, samples] = sample_weight[samples] * (
                    y[samples] - value[node_of[samples], 0]
                )
            row, cut, improvement = split_segments(
                features[node_visit, searched],
                # stat[:, searched]; np.take lays it out C-ordered (K, c, m)
                np.take(stat, searched, axis=1),
                sub_starts,
                criterion,
                n_searched=n_searched,
                min_samples_leaf=min_samples_leaf,
            )
            splits = improvement > -np.inf
            opened = np.flatnonzero(open_)[splits]
            feature[opened] = visit[splits, row[splits]]
            threshold[opened] = cut[splits]
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
            features, order, is_split, feature, threshold, node_of
        )
        depth += 1
    return _preorder_tree(
        {
            field: np.concatenate([level[field] for level in levels])
            for field in levels[0]
        },
        [len(level["value"]) for level in levels],
    )


def _integral(weights):
    """The weights as integers if they are (none given, or a forest's
    bootstrap counts): class counts then add up exactly, and their prefix
    sums run several times faster than in floating point."""
    as_integers = weights.astype(np.int64)
    exact = np.array_equal(as_integers, weights) and weights.sum() < 2**53
    return as_integers if exact else weights


def _summaries(y, sample_weight, node, n_nodes, criterion, n_classes):
    """Value (class proportions or the mean, shape (n_nodes, n_values)),
    impurity and weight of each node."""
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


def _partition(features, order, is_split, feature, threshold, node_of):
    """The next depth's order and node boundaries: the samples of the left
    children, then those of the right children; leaves' samples leave.

    A sample goes to the same side in every row, so each row is sorted by
    the side of its samples (0: left, 1: right, 2: leaf), and a stable sort
    (a radix sort of these one-byte keys) keeps every child's samples in
    their sorted order: a stable partition.
    """
    samples = order[0]
    node = node_of[samples]
    splits = is_split[node]
    samples, node = samples[splits], node[splits]
    left = features[feature[node], samples] <= threshold[node]
    side = np.full(len(node_of), 2, dtype=np.int8)
    side[samples] = np.where(left, 0, 1)
    n_left = np.bincount(node[left], minlength=len(is_split))[is_split]
    n_right = np.bincount(node[~left], minlength=len(is_split))[is_split]
    by_side = np.argsort(side[order], axis=1, kind="stable")
    order = np.take_along_axis(order, by_side[:, : len(samples)], axis=1)
    return order, np.concatenate([[0], np.cumsum(np.r_[n_left, n_right])])


def _preorder_tree(nodes, level_sizes):
    """Renumber nodes from breadth-first (level by level, ``level_sizes``
    nodes each) to depth-first preorder (left subtree first); build the Tree.

    In preorder a left child comes right after its parent, and a right child
    after its parent's whole left subtree. So the subtree sizes are summed
    from the deepest level up, and the new numbers assigned from the root
    down, one level at a time.
    """
    left, right = nodes["children_left"], nodes["children_right"]
    bounds = np.cumsum([0, *level_sizes])
    levels = [np.arange(a, b) for a, b in zip(bounds[:-1], bounds[1:])]
    internal = [level[left[level] != TREE_LEAF] for level in levels]
    size = np.ones(len(left), dtype=np.intp)
    for parents in reversed(internal):
        size[parents] += size[left[parents]] + size[right[parents]]
    new_id = np.zeros(len(left), dtype=np.intp)
    for parents in internal:
        new_id[left[parents]] = new_id[parents] + 1
        new_id[right[parents]] = new_id[parents] + 1 + size[left[parents]]
    order = np.empty_like(new_id)
    order[new_id] = np.arange(len(new_id))
    renumbered = {field: values[order] for field, values in nodes.items()}
    for field in ("children_left", "children_right"):
        child = renumbered[field]
        renumbered[field] = np.where(
            child == TREE_LEAF, TREE_LEAF, new_id[np.maximum(child, 0)]
        )
    renumbered["value"] = renumbered["value"][:, None, :]
    return Tree(**renumbered)
