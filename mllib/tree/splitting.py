r"""The best axis-aligned split of a node: sort each feature, then sweep cumulative sums.

A split sends the samples with :math:`x_j \le s` to the left child and the rest to the right.
Only the order of the values matters, so for feature :math:`j` with sorted values
:math:`x_{(1)}\le\dots\le x_{(m)}` the candidates are the midpoints
:math:`s = \tfrac12(x_{(p)} + x_{(p+1)})` between consecutive *distinct* values. Moving the
threshold one position to the right moves one sample from the right child to the left, so the
children's statistics (weighted class counts, or weighted sums of the targets) for *all*
:math:`m-1` positions are prefix sums of the sorted statistics: one sort, :math:`O(m\log m)`,
and one cumulative sum, :math:`O(m)`, per feature, instead of recomputing each child from
scratch, :math:`O(m)` per threshold and :math:`O(m^2)` per feature (:func:`best_split_naive`,
kept as the reference the tests and the chapter compare against).

Regression uses the targets centred at the node's weighted mean, :math:`r_i = y_i - \bar y`.
Then the children's sums satisfy :math:`S_L + S_R = 0`, and the decrease of the residual sum of
squares is exactly :math:`S_L^2/W_L + S_R^2/W_R` (no cancellation between large sums of squares,
as in :math:`\sum y^2 - (\sum y)^2/W`).

:func:`split_segments` searches many nodes at once (the tree builder passes all the nodes of one
depth): the rows of its arrays are grouped into contiguous *segments*, one per node, and each
prefix sum restarts at its segment's first row. :func:`best_split` is the one-node case.

Reference: Breiman, Friedman, Olshen & Stone (1984), *Classification and Regression Trees*;
scikit-learn's ``BestSplitter`` (same candidate thresholds, same tie rule within a feature).
"""

from dataclasses import dataclass

import numpy as np

from .criteria import weighted_impurity

#: Values closer than this count as equal, so no threshold is placed between them (scikit-learn's value).
FEATURE_THRESHOLD = 1e-7


@dataclass(frozen=True)
class Split:
    """A split of one node: ``x[:, feature] <= threshold`` goes left.

    ``improvement`` is the weighted impurity decrease :math:`W I - W_L I_L - W_R I_R` and
    ``n_left`` the number of samples sent left.
    """

    feature: int
    threshold: float
    improvement: float
    n_left: int


def split_segments(sorted_x, sorted_w, sorted_stat, starts, criterion, *, n_searched=None, min_samples_leaf=1):
    r"""Best split of every segment (node) at once.

    Parameters
    ----------
    sorted_x, sorted_w : ndarray of shape (m, c)
        Column ``j`` of node ``k``'s rows holds the values of the node's ``j``-th candidate
        feature (and the weights) of its samples, sorted by that feature. Nodes follow each other.
    sorted_stat : ndarray of shape (m, c) or (n_classes, m, c)
        The samples' statistic in the same arrangement: the weighted residual
        :math:`w_i(y_i-\bar y_{\text{node}})` for ``"squared_error"``, or the weighted one-hot
        class vector :math:`w_i e_{y_i}` (classes along the first axis) for a classification criterion.
    starts : ndarray of shape (n_nodes + 1,)
        Node ``k`` occupies rows ``starts[k]:starts[k + 1]`` (at least two of them).
    criterion : {"gini", "entropy", "log_loss", "misclassification", "squared_error"}
    n_searched : ndarray of shape (n_nodes,), optional
        Node ``k`` searches only its first ``n_searched[k]`` columns (default: all).
    min_samples_leaf : int
        Each child must receive at least this many samples (and a positive weight).

    Returns
    -------
    column, threshold, improvement : ndarrays of shape (n_nodes,)
        The best column (ties: the first), its threshold, and the weighted impurity decrease,
        ``-inf`` where a node has no valid split.
    """
    m, c = sorted_x.shape
    n_nodes = len(starts) - 1
    size = np.diff(starts)
    node = np.repeat(np.arange(n_nodes), size)              # the node of each row
    row = np.arange(m)
    n_left = (row - starts[node])[:, None] + 1               # samples left of a cut after this row

    def segmented_prefix_sums(a):   # along the rows (axis -2), restarting at each node's first row
        total = np.cumsum(a, axis=-2)
        before = np.concatenate([np.zeros_like(total[..., :1, :]), total], axis=-2)[..., starts[:-1], :]
        return total - before[..., node, :], total[..., starts[1:] - 1, :] - before   # per row, per node

    left_w, node_w = segmented_prefix_sums(sorted_w)
    right_w = node_w[node] - left_w
    left_stat, node_stat = segmented_prefix_sums(sorted_stat)
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "squared_error":
            decrease = left_stat**2 / left_w + (node_stat[node] - left_stat) ** 2 / right_w
        else:   # W I(node) is the same in every column: compute it once per node
            node_cost = weighted_impurity(node_stat[:, :, 0], criterion, axis=0, total=node_w[:, 0])
            decrease = (node_cost[node][:, None] - weighted_impurity(left_stat, criterion, axis=0, total=left_w)
                        - weighted_impurity(node_stat[:, node] - left_stat, criterion, axis=0, total=right_w))
    last_of_node = np.zeros((m, 1), dtype=bool)
    last_of_node[starts[1:] - 1] = True
    next_x = np.vstack([sorted_x[1:], np.full((1, c), np.inf)])
    valid = ((next_x > sorted_x + FEATURE_THRESHOLD) & ~last_of_node
             & (n_left >= min_samples_leaf) & (size[node][:, None] - n_left >= min_samples_leaf)
             & (left_w > 0) & (right_w > 0))
    decrease = np.where(valid, decrease, -np.inf)

    best = np.maximum.reduceat(decrease, starts[:-1], axis=0)          # (n_nodes, c)
    # the first row reaching its node's best value (scikit-learn keeps a later cut only if strictly better)
    first_row = np.minimum.reduceat(np.where(decrease == best[node], row[:, None], m), starts[:-1], axis=0)
    if n_searched is not None:
        best = np.where(np.arange(c) < n_searched[:, None], best, -np.inf)
    column = np.argmax(best, axis=1)
    nodes = np.arange(n_nodes)
    cut = np.minimum(first_row[nodes, column], m - 2)       # the clip matters only where there is no split
    threshold = sorted_x[cut, column] / 2.0 + sorted_x[cut + 1, column] / 2.0  # halves: no overflow
    return column, threshold, best[nodes, column]


def best_split(X, y, sample_weight, criterion, *, n_classes=None, min_samples_leaf=1):
    """The split of one node ``(X, y)`` with the largest weighted impurity decrease.

    Parameters
    ----------
    X : ndarray of shape (m, d)
    y : ndarray of shape (m,)
        Class indices in ``range(n_classes)``, or real targets for ``"squared_error"``.
    sample_weight : ndarray of shape (m,)
    criterion, min_samples_leaf : as in :func:`split_segments`
    n_classes : int
        Number of classes (classification only).

    Returns
    -------
    Split or None
        ``None`` when no threshold is valid (e.g. every feature is constant). Ties go to the
        smallest threshold of the first feature.
    """
    m, d = X.shape
    if m < 2:
        return None
    order = np.argsort(X, axis=0, kind="stable")
    stat = _statistic(y, sample_weight, criterion, n_classes)
    feature, threshold, improvement = split_segments(
        X[order, np.arange(d)], sample_weight[order], stat[..., order], np.array([0, m]), criterion,
        min_samples_leaf=min_samples_leaf)
    if improvement[0] == -np.inf:
        return None
    n_left = int(np.sum(X[:, feature[0]] <= threshold[0]))
    return Split(int(feature[0]), float(threshold[0]), float(improvement[0]), n_left)


def _statistic(y, sample_weight, criterion, n_classes):
    """Per-sample statistic whose prefix sums describe a child (see :func:`split_segments`), one node."""
    if criterion == "squared_error":
        return sample_weight * (y - sample_weight @ y / sample_weight.sum())
    return sample_weight * np.eye(n_classes)[:, y]   # shape (n_classes, m)


def best_split_naive(X, y, sample_weight, criterion, *, n_classes=None, min_samples_leaf=1):
    """The same search as :func:`best_split` by brute force: every threshold rescans the node.

    :math:`O(d\\,m^2)` work for a node of ``m`` samples and ``d`` features. Same parameters,
    result and tie rule as :func:`best_split`; use it only to check and time the fast search.
    """
    def cost(rows):  # W * I(node) of the samples selected by the boolean mask ``rows``
        w = sample_weight[rows]
        if criterion == "squared_error":
            return float(np.sum(w * (y[rows] - np.average(y[rows], weights=w)) ** 2))
        counts = np.bincount(y[rows], weights=w, minlength=n_classes)
        return float(weighted_impurity(counts, criterion))

    everything = np.ones(len(y), dtype=bool)
    node_cost, best = cost(everything), None
    for feature in range(X.shape[1]):
        values = np.unique(X[:, feature])
        for low, high in zip(values[:-1], values[1:]):
            threshold = low / 2.0 + high / 2.0
            left = X[:, feature] <= threshold
            if (high <= low + FEATURE_THRESHOLD or min(left.sum(), (~left).sum()) < min_samples_leaf
                    or sample_weight[left].sum() <= 0 or sample_weight[~left].sum() <= 0):
                continue
            decrease = node_cost - cost(left) - cost(~left)
            if best is None or decrease > best.improvement:
                best = Split(feature, float(threshold), decrease, int(left.sum()))
    return best
