r"""The best axis-aligned split of a node: sort each feature, then sweep
cumulative sums.

A split sends the samples with :math:`x_j \le s` to the left child and the rest
to the right. Only the order of the values matters, so for feature :math:`j`
with sorted values :math:`x_{(1)}\le\dots\le x_{(m)}` the candidates are the
midpoints :math:`s = \tfrac12(x_{(p)} + x_{(p+1)})` between consecutive
*distinct* values. Moving the threshold one position to the right moves one
sample from the right child to the left, so the children's statistics (weighted
class counts, or weighted sums of the targets) for *all* :math:`m-1` positions
are prefix sums of the sorted statistics: one sort, :math:`O(m\log m)`, and one
cumulative sum, :math:`O(m)`, per feature, instead of recomputing each child
from scratch, :math:`O(m)` per threshold and :math:`O(m^2)` per feature
(:func:`best_split_naive`, kept as the reference the tests and the chapter
compare against).

Regression uses the targets centred at the node's weighted mean, :math:`r_i =
y_i - \bar y`. Then the children's sums satisfy :math:`S_L + S_R = 0`, and the
decrease of the residual sum of squares is exactly :math:`S_L^2/W_L +
S_R^2/W_R` (no cancellation between large sums of squares, as in :math:`\sum
y^2 - (\sum y)^2/W`).

:func:`split_segments` searches many nodes at once (the tree builder passes all
the nodes of one depth): along each row of its arrays (one row per feature) the
positions are grouped into contiguous *segments*, one per node, and each prefix
sum restarts at its segment's first position. :func:`best_split` is the
one-node case.

Reference: Breiman, Friedman, Olshen & Stone (1984), *Classification and
Regression Trees*; scikit-learn's ``BestSplitter`` (same candidate thresholds,
same tie rule within a feature).
"""

from dataclasses import dataclass

import numpy as np

from .criteria import weighted_impurity

# : Values closer than this count as equal, so no threshold is placed between
# them (scikit-learn's value).
FEATURE_THRESHOLD = 1e-7


@dataclass(frozen=True)
class Split:
    """A split of one node: ``x[:, feature] <= threshold`` goes left.

    ``improvement`` is the weighted impurity decrease :math:`W I - W_L I_L -
    W_R I_R` and ``n_left`` the number of samples sent left.
    """

    feature: int
    threshold: float
    improvement: float
    n_left: int


def split_segments(
    sorted_x,
    sorted_stat,
    starts,
    criterion,
    *,
    n_searched=None,
    min_samples_leaf=1,
    groups=None,
):
    r"""Best split of every segment (node) at once.

    Parameters
    ----------
    sorted_x : ndarray of shape (c, m)
        Row ``j`` holds, node after node, the values of each node's ``j``-th
        candidate feature, sorted within the node.
    sorted_stat : ndarray of shape (K, c, m)
        The samples' statistic in the same arrangement, whose prefix sums
        describe a left child: the weighted one-hot class vector
        :math:`w_i e_{y_i}` (``K`` classes; a child's weight is the sum over
        the classes) for a classification criterion, or the pair
        :math:`(w_i,\ w_i(y_i-\bar y_{\text{node}}))` (``K = 2``) for
        ``"squared_error"``. With :math:`q` outputs: the one-hot vectors of
        every output stacked (see ``groups``), or :math:`w_i` followed by the
        :math:`q` weighted residuals (``K = 1 + q``).
    starts : ndarray of shape (n_nodes + 1,)
        Node ``k`` occupies positions ``starts[k]:starts[k + 1]`` (at least
        two of them).
    criterion : {"gini", "entropy", "log_loss", "misclassification",
        "squared_error"}
    n_searched : ndarray of shape (n_nodes,), optional
        Node ``k`` searches only its first ``n_searched[k]`` rows (default:
        all).
    min_samples_leaf : int
        Each child must receive at least this many samples (and a positive
        weight).
    groups : list of slices, optional
        Classification with several outputs: the rows of ``sorted_stat``
        holding each output's classes (default: one output). The decrease
        is summed over the outputs (:math:`q` times scikit-learn's mean,
        which orders the splits the same way).

    Returns
    -------
    row, threshold, improvement : ndarrays of shape (n_nodes,)
        The best row (ties: the first), its threshold, and the weighted
        impurity decrease, ``-inf`` where a node has no valid split.
    """
    c, m = sorted_x.shape
    n_nodes = len(starts) - 1
    size = starts[1:] - starts[:-1]

    def each(per_node):  # a node's value at each of its positions
        return np.repeat(per_node, size, axis=-1)

    position = np.arange(m)
    n_left = position - each(starts[:-1]) + 1  # samples left of a cut after it

    # prefix sums that restart at each node's first position
    left = np.cumsum(sorted_stat, axis=-1)
    before = left[..., starts[:-1] - 1]  # what precedes each node ...
    before[..., 0] = 0.0  # ... (nothing, for the first)
    left -= each(before)
    # integer counts (integral weights, summed exactly above) are exact in
    # floating point too, and the float arithmetic below is faster than
    # NumPy's on integers (the divisions cast them): the same numbers
    left = left.astype(float, copy=False)
    total = left[..., starts[1:] - 1]  # each node's statistic
    right = each(total) - left
    if criterion == "squared_error":  # summed over the outputs
        (left_w, *left_sum), (right_w, *right_sum) = left, right
        with np.errstate(divide="ignore", invalid="ignore"):  # empty sides
            decrease = sum(
                s_l**2 / left_w + s_r**2 / right_w
                for s_l, s_r in zip(left_sum, right_sum)
            )
    else:  # W I(node) is the same in every row: once per node
        groups = groups or [slice(None)]
        # every output's classes add up to the child's weight
        left_w, right_w = left[groups[0]].sum(0), right[groups[0]].sum(0)
        decrease = sum(
            each(weighted_impurity(total[g, 0], criterion, axis=0))
            - weighted_impurity(left[g], criterion, axis=0, total=left_w)
            - weighted_impurity(right[g], criterion, axis=0, total=right_w)
            for g in groups
        )
    valid = np.zeros((c, m), dtype=bool)  # a threshold between distinct ...
    valid[:, :-1] = sorted_x[:, 1:] > sorted_x[:, :-1] + FEATURE_THRESHOLD
    valid[:, starts[1:] - 1] = False  # ... values of the same node
    valid &= (n_left >= min_samples_leaf) & (
        each(size) - n_left >= min_samples_leaf
    )
    valid &= (left_w > 0) & (right_w > 0)
    decrease = np.where(valid, decrease, -np.inf)

    best = np.maximum.reduceat(decrease, starts[:-1], axis=1)  # (c, nodes)
    if n_searched is not None:
        best[np.arange(c)[:, None] >= n_searched] = -np.inf
    row = np.argmax(best, axis=0)
    improvement = best[row, np.arange(n_nodes)]
    # the first cut reaching its node's best value in the chosen row
    # (scikit-learn keeps a later cut only if it is strictly better)
    chosen = decrease[each(row), position]
    cut = np.minimum.reduceat(
        np.where(chosen == each(improvement), position, m), starts[:-1]
    )
    cut = np.minimum(cut, m - 2)  # matters only where there is no split
    # halves: no overflow
    threshold = sorted_x[row, cut] / 2.0 + sorted_x[row, cut + 1] / 2.0
    return row, threshold, improvement


def best_split(
    X, y, sample_weight, criterion, *, n_classes=None, min_samples_leaf=1
):
    """The split of one node ``(X, y)`` with the largest weighted impurity
    decrease.

    Samples of weight zero take no part in the search (scikit-learn's rule):
    they neither place a threshold nor count towards ``min_samples_leaf``.

    Parameters
    ----------
    X : ndarray of shape (m, d)
    y : ndarray of shape (m,)
        Class indices in ``range(n_classes)``, or real targets for
        ``"squared_error"``.
    sample_weight : ndarray of shape (m,)
    criterion, min_samples_leaf : as in :func:`split_segments`
    n_classes : int
        Number of classes (classification only).

    Returns
    -------
    Split or None
        ``None`` when no threshold is valid (e.g. every feature is
        constant). Ties go to the smallest threshold of the first feature.
    """
    positive = sample_weight > 0
    X, y, sample_weight = X[positive], y[positive], sample_weight[positive]
    m, d = X.shape
    if m < 2:
        return None
    order = np.argsort(X.T, axis=1)  # row j: the samples sorted by feature j
    stat = _statistic(y, sample_weight, criterion, n_classes)
    feature, threshold, improvement = split_segments(
        np.take_along_axis(X.T, order, axis=1),
        np.take(stat, order, axis=1),
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
    """Per-sample statistic whose prefix sums describe a child (see
    :func:`split_segments`), one node; shape (K, m)."""
    if criterion == "squared_error":
        residual = y - sample_weight @ y / sample_weight.sum()
        return np.stack([sample_weight, sample_weight * residual])
    return sample_weight * np.eye(n_classes)[:, y]


def best_split_naive(
    X, y, sample_weight, criterion, *, n_classes=None, min_samples_leaf=1
):
    r"""The same search as :func:`best_split` by brute force: every threshold
    rebuilds its children.

    For each feature, a 0/1 matrix with one row per candidate threshold marks
    the samples sent left, and each child's weighted impurity is recomputed
    from its samples (for regression, :math:`\sum_i w_i(y_i-\bar
    y_{\text{child}})^2` directly): :math:`O(m)` work per threshold,
    :math:`O(m^2)` per feature, in whole-array operations. Same parameters,
    result and tie rule as :func:`best_split`; use it only to check and time
    the fast search.
    """
    positive = sample_weight > 0
    X, y, sample_weight = X[positive], y[positive], sample_weight[positive]
    m, d = X.shape
    onehot = (
        None
        if criterion == "squared_error"
        else sample_weight[:, None] * np.eye(n_classes)[y]
    )

    # W I(child) for each row of the 0/1 matrix ``member`` (children x samples)
    def cost(
        member,
    ):
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
        # (thresholds, m)
        left = (X[None, :, feature] <= thresholds[:, None]).astype(float)
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
