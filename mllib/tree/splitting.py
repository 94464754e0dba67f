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


def split_segments(
    sorted_x,
    sorted_w,
    sorted_stat,
    starts,
    criterion,
    *,
    n_searched=None,
    min_samples_leaf=1,
):
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
    node = np.repeat(np.arange(n_nodes), size)  # the node of each row
    row = np.arange(m)
    n_left = (row - starts[node])[
        :, None
    ] + 1  # samples left of a cut after this row

    def segmented_prefix_sums(
        a,
    ):  # along the rows (axis -2), restarting at each node's first row
        total = np.cumsum(a, axis=-2)
        before = np.concatenate(
            [np.zeros_like(total[..., :1, :]), total], axis=-2
        )[..., starts[:-1], :]
        return total - before[..., node, :], total[
            ..., starts[1:] - 1, :
        ] - before  # per row, per node

    left_w, node_w = segmented_prefix_sums(sorted_w)
    right_w = node_w[node] - left_w
    left_stat, node_stat = segmented_prefix_sums(sorted_stat)
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "squared_error":
            decrease = (
                left_stat**2 / left_w
                + (node_stat[node] - left_stat) ** 2 / right_w
            )
        else:  # W I(node) is the same in every column: compute it once per node
            node_cost = weighted_impurity(
                node_stat[:, :, 0], criterion, axis=0, total=node_w[:, 0]
            )
            decrease = (
                node_cost[node][:, None]
                - weighted_impurity(left_stat, criterion, axis=0, total=left_w)
                - weighted_impurity(
                    node_stat[:, node] - left_stat,
                    criterion,
                    axis=0,
                    total=right_w,
                )
            )
    last_of_node = np.zeros((m, 1), dtype=bool)
    last_of_node[starts[1:] - 1] = True
    next_x = np.vstack([sorted_x[1:], np.full((1, c), np.inf)])
    valid = (
        (next_x > sorted_x + FEATURE_THRESHOLD)
        & ~last_of_node
        & (n_left >= min_samples_leaf)
        & (size[node][:, None] - n_left >= min_samples_leaf)
        & (left_w > 0)
        & (right_w > 0)
    )
    decrease = np.where(valid, decrease, -np.inf)

    best = np.maximum.reduceat(decrease, starts[:-1], axis=0)  # (n_nodes, c)
    # the first row reaching its node's best value (scikit-learn keeps a later cut only if strictly better)
    first_row = np.minimum.reduceat(
        np.where(decrease == best[node], row[:, None], m), starts[:-1], axis=0
    )
    if n_searched is not None:
        best = np.where(np.arange(c) < n_searched[:, None], best, -np.inf)
    column = np.argmax(best, axis=1)
    nodes = np.arange(n_nodes)
    cut = np.minimum(
        first_row[nodes, column], m - 2
    )  # the clip matters only where there is no split
    threshold = (
        sorted_x[cut, column] / 2.0 + sorted_x[cut + 1, column] / 2.0
    )  # halves: no overflow
    return column, threshold, best[nodes, column]


def best_split(
    X, y, sample_weight, criterion, *, n_classes=None, min_samples_leaf=1
):
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
        X[order, np.arange(d)],
        sample_weight[order],
        stat[..., order],
        np.array([0, m]),
        criterion,
        min_samples_leaf=min_samples_leaf,
    )
    if improvement[0] == -np.inf:
        return None
    n_left = int(np.sum(X[:, feature[0]] <= threshold[0]))
    return Split(
        int(feature[0]), float(threshold[0]), float(improvement[0]), n_left
    )


def _statistic(y, sample_weight, criterion, n_classes):
    """Per-sample statistic whose prefix sums describe a child (see :func:`split_segments`), one node."""
    if criterion == "squared_error":
        return sample_weight * (y - sample_weight @ y / sample_weight.sum())
    return sample_weight * np.eye(n_classes)[:, y]  # shape (n_classes, m)


def best_split_naive(
    X, y, sample_weight, criterion, *, n_classes=None, min_samples_leaf=1
):
    r"""The same search as :func:`best_split` by brute force: every threshold rebuilds its children.

    For each feature, a 0/1 matrix with one row per candidate threshold marks the samples sent
    left, and each child's weighted impurity is recomputed from its samples (for regression,
    :math:`\sum_i w_i(y_i-\bar y_{\text{child}})^2` directly): :math:`O(m)` work per threshold,
    :math:`O(m^2)` per feature, in whole-array operations. Same parameters, result and tie rule
    as :func:`best_split`; use it only to check and time the fast search.
    """
    m, d = X.shape
    onehot = (
        None
        if criterion == "squared_error"
        else sample_weight[:, None] * np.eye(n_classes)[y]
    )

    def cost(
        member,
    ):  # W I(child) for each row of the 0/1 matrix ``member`` (children x samples)
        weight = member @ sample_weight
        if onehot is not None:
            return weighted_impurity(member @ onehot, criterion)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = (member @ (sample_weight * y)) / weight
        return np.sum(
            member
            * sample_weight
            * (y[None, :] - np.nan_to_num(mean)[:, None]) ** 2,
            axis=1,
        )

    node_cost, best = cost(np.ones((1, m)))[0], None
    for feature in range(d):
        values = np.unique(X[:, feature])
        distinct = values[1:] > values[:-1] + FEATURE_THRESHOLD
        thresholds = (values[:-1] / 2.0 + values[1:] / 2.0)[distinct]
        left = (X[None, :, feature] <= thresholds[:, None]).astype(
            float
        )  # (thresholds, m)
        n_left = left.sum(axis=1)
        valid = (
            (n_left >= min_samples_leaf)
            & (m - n_left >= min_samples_leaf)
            & (left @ sample_weight > 0)
            & ((1 - left) @ sample_weight > 0)
        )
        if not valid.any():
            continue
        decrease = np.where(
            valid, node_cost - cost(left) - cost(1 - left), -np.inf
        )
        t = int(np.argmax(decrease))
        if best is None or decrease[t] > best.improvement:
            best = Split(
                feature,
                float(thresholds[t]),
                float(decrease[t]),
                int(n_left[t]),
            )
    return best
