r"""Pruning a multiway (ID3/C4.5) tree: reduced-error and cost-complexity.

Both collapse an internal node :math:`t` into a leaf (predicting the
majority class of its *training* samples) when that costs no more than the
best pruning of the branch below it. Working from the leaves up, each
decision sees its children already pruned optimally, and costs add over the
children, so the result is the *smallest* pruning of minimum cost (ties are
collapsed):

* **Reduced-error pruning** (Quinlan 1987): the cost is the number of
  mistakes on a separate pruning set. A branch that no pruning sample
  reaches costs 0 either way and is collapsed, a known bias of the method
  towards small trees (Esposito, Malerba & Semeraro 1997).
* **Cost-complexity pruning** (Breiman et al. 1984, §3.3): the cost is
  :math:`R_\alpha(T)=R(T)+\alpha|\tilde T|`, with :math:`R(T)` the training
  misclassification rate of the leaves :math:`\tilde T`; the weakest-link
  values :math:`g(t)=(R(t)-R(T_t))/(|\tilde T_t|-1)` at which branches
  collapse form :func:`cost_complexity_path`.

Cost-complexity pruning chooses among a nested sequence of trees by a single
number (chosen by cross-validation); reduced-error pruning uses held-out
data directly and needs no parameter, but spends data on pruning.
"""

import numpy as np


def prune_reduced_error(node, X, y):
    """The smallest pruning of ``node`` with the fewest mistakes on the
    pruning set ``(X, y)`` (class indices); returns ``(tree, mistakes)``."""
    as_leaf = int(np.count_nonzero(y != node.prediction))
    if node.is_leaf:
        return node.as_leaf(), as_leaf
    children, mistakes = {}, 0
    routed = np.zeros(len(y), dtype=bool)
    for value, child in node.children.items():
        rows = X[:, node.feature] == value
        routed |= rows
        children[value], child_mistakes = prune_reduced_error(
            child, X[rows], y[rows]
        )
        mistakes += child_mistakes
    # an unseen category stops at this node and gets its majority class
    mistakes += int(np.count_nonzero(y[~routed] != node.prediction))
    if as_leaf <= mistakes:
        return node.as_leaf(), as_leaf
    return node.with_children(children), mistakes


def prune_cost_complexity(node, alpha, n_samples):
    r"""The smallest pruning minimising :math:`R(T)+\alpha|\tilde T|`;
    returns ``(tree, cost)``."""
    as_leaf = node.training_errors / n_samples + alpha
    if node.is_leaf:
        return node.as_leaf(), as_leaf
    children, cost = {}, 0.0
    for value, child in node.children.items():
        children[value], child_cost = prune_cost_complexity(
            child, alpha, n_samples
        )
        cost += child_cost
    if as_leaf <= cost * (1 + 1e-12):  # rounding must not split a tie
        return node.as_leaf(), as_leaf
    return node.with_children(children), cost


def cost_complexity_path(node, n_samples):
    r"""Effective alphas :math:`0=\alpha_0<\alpha_1<\dots` at which the
    pruned tree changes, and the training misclassification rate
    :math:`R(T)` of the tree for each (down to the root alone)."""
    alphas, rates = [0.0], [_leaf_errors(node) / n_samples]
    while not node.is_leaf:
        alpha = min(_weakest_links(node, n_samples))
        node, _ = prune_cost_complexity(node, alpha, n_samples)
        if alpha > alphas[-1]:
            alphas.append(alpha)
            rates.append(_leaf_errors(node) / n_samples)
        else:  # branches that never reduce the error go at alpha = 0
            rates[-1] = _leaf_errors(node) / n_samples
    return np.array(alphas), np.array(rates)


def _leaf_errors(node):
    if node.is_leaf:
        return node.training_errors
    return sum(_leaf_errors(child) for child in node.children.values())


def _weakest_links(node, n_samples):
    """g(t) for every internal node of the tree."""
    if node.is_leaf:
        return []
    n_leaves = node.n_leaves
    g = (node.training_errors - _leaf_errors(node)) / (
        n_samples * (n_leaves - 1)
    )
    return [g] + [
        link
        for child in node.children.values()
        for link in _weakest_links(child, n_samples)
    ]
