r"""Minimal cost-complexity (weakest-link) pruning.

For a subtree :math:`T` of the grown tree :math:`T_0` with leaves :math:`\tilde
T`, let :math:`R(T) = \sum_{t\in\tilde T} \frac{W_t}{W} I(t)` be its training
impurity (node weight :math:`W_t`, root weight :math:`W`) and

.. math:: R_\alpha(T) = R(T) + \alpha\,|\tilde T| .

Collapsing the branch :math:`T_t` below an internal node :math:`t` into a leaf
changes :math:`R_\alpha` by :math:`R(t) - R(T_t) - \alpha(|\tilde T_t| - 1)`,
which is negative exactly when :math:`\alpha` exceeds the node's *effective
alpha*

.. math:: g(t) = \frac{R(t) - R(T_t)}{|\tilde T_t| - 1} .

Weakest-link pruning collapses the node with the smallest :math:`g(t)`, updates
the ancestors, and repeats until only the root is left. The values of :math:`g`
at which it collapses form the non-decreasing sequence
:math:`0=\alpha_0\le\alpha_1\le\dots`, and for every
:math:`\alpha\in[\alpha_k,\alpha_{k+1})` the subtree after step :math:`k` is
the smallest minimiser of :math:`R_\alpha` (Breiman et al., 1984, §10.2). Ties
collapse one node per step, the first in preorder, so an alpha can repeat. Same
sequence, impurities and pruned trees as scikit-learn's
``cost_complexity_pruning_path`` and ``ccp_alpha``.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PruningPath:
    """Effective alphas of the weakest-link sequence and the total leaf
    impurity :math:`R(T)` after each step.

    ``ccp_alphas[0] = 0`` and ``impurities[0]`` describe the unpruned tree; the
    last entry is the root alone.
    """

    ccp_alphas: np.ndarray
    impurities: np.ndarray


def cost_complexity_pruning_path(tree):
    """The weakest-link sequence of a grown
    :class:`~mllib.tree.structure.Tree`, as a :class:`PruningPath`."""
    steps = list(weakest_link_sequence(tree))
    return PruningPath(
        np.array([alpha for alpha, _, _ in steps]),
        np.array([r for _, r, _ in steps]),
    )


def prune(tree, ccp_alpha):
    """The subtree that minimises :math:`R_\\alpha` for ``ccp_alpha``: prune
    while the weakest link's alpha is at most ``ccp_alpha``."""
    kept = np.ones(tree.node_count, dtype=bool)
    for alpha, _, in_subtree in weakest_link_sequence(tree):
        if alpha > ccp_alpha:
            break
        kept = in_subtree
    return tree.subtree(kept)


def weakest_link_sequence(tree):
    """Yield ``(alpha, R(T), nodes kept)`` for the grown tree (alpha 0), then
    after each collapse.

    ``nodes kept`` is a boolean mask over the grown tree's nodes, for
    :meth:`Tree.subtree`.
    """
    # R(t)
    leaf_cost = (
        tree.weighted_n_node_samples
        * tree.impurity
        / tree.weighted_n_node_samples[0]
    )
    in_subtree = np.ones(tree.node_count, dtype=bool)
    collapsible = ~tree.is_leaf
    # leaves of each branch T_t
    n_leaves = np.zeros(tree.node_count, dtype=np.intp)
    branch_cost = np.zeros(tree.node_count)  # R(T_t)
    for node in np.flatnonzero(tree.is_leaf):
        ancestors = _path_to_root(tree, node)
        n_leaves[ancestors] += 1
        branch_cost[ancestors] += leaf_cost[node]
    yield 0.0, branch_cost[0], in_subtree.copy()
    while collapsible[0]:
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(
                collapsible, (leaf_cost - branch_cost) / (n_leaves - 1), np.inf
            )
        weakest = int(np.argmin(g))  # the first in preorder among equals
        # its descendants are weakest + 1, ..., end - 1
        end = weakest + tree.subtree_size[weakest]
        in_subtree[weakest + 1 : end] = False
        collapsible[weakest:end] = False
        ancestors = _path_to_root(tree, weakest)
        n_leaves[ancestors] -= n_leaves[weakest] - 1
        branch_cost[ancestors] += leaf_cost[weakest] - branch_cost[weakest]
        yield g[weakest], branch_cost[0], in_subtree.copy()


def _path_to_root(tree, node):
    """``node`` and all its ancestors."""
    path = [node]
    while tree.parent[path[-1]] >= 0:
        path.append(tree.parent[path[-1]])
    return np.array(path)
