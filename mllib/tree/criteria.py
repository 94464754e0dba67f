r"""Node impurities: how mixed the targets in one region of a tree are.

A classification node holds weighted class proportions :math:`p_k` (they sum to
one):

.. math::
    \text{misclassification}(p) = 1 - \max_k p_k, \qquad
    \text{gini}(p) = \sum_k p_k(1-p_k) = 1 - \sum_k p_k^2, \qquad
    \text{entropy}(p) = -\sum_k p_k \log_2 p_k ,

all zero exactly on pure nodes and largest on the uniform distribution. Entropy
is in bits, with :math:`0\log_2 0 = 0`, as in scikit-learn (where
``"log_loss"`` is another name for it). Gini and entropy are strictly concave;
the misclassification rate is only piecewise linear, so a split can leave it
unchanged while making one child purer, which is why trees are grown with Gini
or entropy.

A regression node's impurity is the weighted variance of its targets (its
residual sum of squares divided by its weight). scikit-learn calls this
criterion ``"squared_error"``.

The split search scores a split of a node of weight :math:`W` into children of
weights :math:`W_L + W_R = W` by the **weighted impurity decrease**
:math:`W\,I(\text{node}) - W_L\,I(L) - W_R\,I(R)`, computed for all candidate
splits at once from class counts, hence :func:`weighted_impurity`.
"""

import numpy as np
from scipy.special import entr, xlogy


def gini(p, axis=-1):
    r"""Gini index :math:`1-\sum_k p_k^2` of class proportions ``p`` (classes
    along ``axis``)."""
    return 1.0 - np.sum(np.square(p), axis=axis)


def entropy(p, axis=-1):
    r"""Entropy in bits, :math:`-\sum_k p_k\log_2 p_k`, of class proportions
    ``p`` (classes along ``axis``)."""
    # entr(p) = -p ln p, and entr(0) = 0
    return np.sum(entr(p), axis=axis) / np.log(2.0)


def misclassification(p, axis=-1):
    r"""Misclassification rate :math:`1-\max_k p_k` of the majority vote, for
    proportions ``p`` (classes along ``axis``)."""
    return 1.0 - np.max(p, axis=axis)


CLASSIFICATION = {
    "gini": gini,
    "entropy": entropy,
    "log_loss": entropy,
    "misclassification": misclassification,
}
REGRESSION = ("squared_error",)


def weighted_impurity(counts, criterion, axis=-1, total=None):
    r""":math:`W\,I(c/W)` for weighted class counts :math:`c` (classes along
    ``axis``), :math:`W=\sum_k c_k`.

    Written in the counts, which needs no division per class and is 0 where
    :math:`W=0`: :math:`W - \sum_k c_k^2/W` (Gini), :math:`\bigl(W\log W -
    \sum_k c_k\log c_k\bigr)/\log 2` (entropy) and :math:`W - \max_k c_k`
    (misclassification). Pass ``total`` if :math:`W` is known.
    """
    total = np.sum(counts, axis=axis) if total is None else total
    if criterion == "gini":
        squares = np.sum(np.square(counts), axis=axis)
        return total - np.divide(
            squares, total, out=np.zeros(np.shape(total)), where=total > 0
        )
    if criterion in ("entropy", "log_loss"):
        return (
            xlogy(total, total) - np.sum(xlogy(counts, counts), axis=axis)
        ) / np.log(2.0)
    return total - np.max(counts, axis=axis)
