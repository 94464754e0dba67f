r"""Scores for clusterings: agreement with reference labels (ARI) and internal
quality (silhouette).

Cluster labels are arbitrary names: renaming the clusters of a clustering gives
the same clustering, so both scores are invariant under any permutation of the
labels.
"""

import numpy as np
from scipy.special import comb
from sklearn.utils import check_array

from ..kernels import squared_euclidean_distances


def adjusted_rand_score(labels_true, labels_pred):
    r"""The Rand index of two clusterings, adjusted for chance (Hubert &
    Arabie, 1985).

    With the contingency table :math:`n_{uv}` (samples in cluster :math:`u` of
    the first and :math:`v` of the second clustering), row sums :math:`a_u` and
    column sums :math:`b_v`,

    .. math::
        \mathrm{ARI}=\frac{\sum_{uv}\binom{n_{uv}}2-E}
            {\frac12\Bigl[\sum_u\binom{a_u}2+\sum_v\binom{b_v}2\Bigr]-E},
        \qquad E=\frac{\sum_u\binom{a_u}2\sum_v\binom{b_v}2}{\binom n2},

    which is 1 for identical clusterings (up to renaming), about 0 for
    independent random ones, and can be negative. Same as
    ``sklearn.metrics.adjusted_rand_score``.
    """
    labels_true, labels_pred = (
        np.asarray(labels_true).ravel(),
        np.asarray(labels_pred).ravel(),
    )
    if len(labels_true) != len(labels_pred):
        raise ValueError(
            "The two labelings have different lengths "
            f"({len(labels_true)} and {len(labels_pred)})."
        )
    _, u = np.unique(labels_true, return_inverse=True)
    _, v = np.unique(labels_pred, return_inverse=True)
    table = np.zeros((u.max() + 1, v.max() + 1))
    np.add.at(table, (u, v), 1)
    pairs = comb(table, 2).sum()
    rows, cols = (
        comb(table.sum(axis=1), 2).sum(),
        comb(table.sum(axis=0), 2).sum(),
    )
    expected = rows * cols / comb(len(u), 2)
    maximum = (rows + cols) / 2
    # both all in one cluster, or both all singletons: identical
    if maximum == expected:
        return 1.0
    return float((pairs - expected) / (maximum - expected))


def silhouette_samples(X, labels, *, chunk_bytes=2**25):
    r"""The silhouette :math:`s_i=\frac{b_i-a_i}{\max(a_i,b_i)}` of every
    sample (Rousseeuw, 1987).

    :math:`a_i` is the mean Euclidean distance from :math:`x_i` to the other
    members of its cluster, :math:`b_i` the smallest mean distance to the
    members of another cluster; :math:`s_i=0` for a sample alone in its
    cluster. Distances are computed a block of rows at a time. Same as
    ``sklearn.metrics.silhouette_samples`` (Euclidean metric).

    Returns
    -------
    ndarray of shape (n_samples,), values in [-1, 1]
    """
    X = check_array(X, dtype=np.float64)
    classes, labels = np.unique(
        np.asarray(labels).ravel(), return_inverse=True
    )
    if len(labels) != len(X):
        raise ValueError(
            f"labels has {len(labels)} entries for {len(X)} samples."
        )
    if not 2 <= len(classes) <= len(X) - 1:
        raise ValueError(
            "The silhouette needs 2 <= number of clusters <= n_samples "
            f"- 1; got {len(classes)}."
        )
    one_hot = np.eye(len(classes))[labels]
    sizes = one_hot.sum(axis=0)
    scores = np.empty(len(X))
    chunk = max(1, chunk_bytes // (8 * len(X)))
    for start in range(0, len(X), chunk):
        rows = slice(start, start + chunk)
        distances = np.sqrt(squared_euclidean_distances(X[rows], X))
        own = labels[rows]
        index = np.arange(len(own))
        distances[index, start + index] = 0.0  # exactly, whatever the rounding
        totals = distances @ one_hot  # summed distance to each cluster
        own_size = sizes[own] - 1
        a = totals[index, own] / np.maximum(own_size, 1)
        means = totals / sizes
        means[index, own] = np.inf
        b = means.min(axis=1)
        with np.errstate(invalid="ignore"):
            scores[rows] = np.where(
                own_size > 0, (b - a) / np.maximum(a, b), 0.0
            )
    return np.nan_to_num(scores)  # a = b = 0 (duplicate points) gives 0


def silhouette_score(X, labels):
    """Mean silhouette over all samples: near 1 for compact, well-separated
    clusters."""
    return float(np.mean(silhouette_samples(X, labels)))
