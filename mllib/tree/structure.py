r"""A fitted tree as parallel node arrays, in scikit-learn's layout (an
estimator's ``tree_``).

Node ``i`` is internal when ``children_left[i] != TREE_LEAF``: it sends a
sample ``x`` to ``children_left[i]`` if ``x[feature[i]] <= threshold[i]`` and
to ``children_right[i]`` otherwise. A tree grown depth-first is numbered in
depth-first preorder (a node, then its whole left subtree, then its right
subtree), the order scikit-learn's builder produces, so the subtree of node
``i`` is the contiguous block ``i, i + 1, ..., i + subtree_size[i] - 1``;
pruning relies on it (:meth:`Tree.preorder` renumbers a tree grown best first,
whose nodes are numbered as they were created).
"""

import numpy as np
from scipy.sparse import csr_matrix

TREE_LEAF = -1  #: ``children_left`` / ``children_right`` of a leaf
TREE_UNDEFINED = -2  #: ``feature`` / ``threshold`` of a leaf


class Tree:
    """Node arrays of a binary tree with axis-aligned splits.

    Attributes
    ----------
    node_count : int
    children_left, children_right : ndarray of shape (node_count,)
        Child ids, ``TREE_LEAF`` for leaves.
    feature : ndarray of shape (node_count,)
        Feature tested at each internal node (``TREE_UNDEFINED`` at leaves).
    threshold : ndarray of shape (node_count,)
    value : ndarray of shape (node_count, n_outputs, n_values)
        Weighted class proportions (classification; ``n_values`` is the
        largest number of classes of an output, the others padded with
        zeros) or the weighted mean targets (regression, ``n_values = 1``) of
        the training samples reaching the node, one row per output.
    impurity : ndarray of shape (node_count,)
        The mean over the outputs of each output's impurity.
    n_node_samples : ndarray of shape (node_count,)
    weighted_n_node_samples : ndarray of shape (node_count,)
    n_outputs : int
    n_classes : ndarray of shape (n_outputs,)
        The number of classes of each output (ones for regression).
    max_n_classes : int
        ``n_values``. These three are scikit-learn's ``Tree`` attributes, so
        its ``plot_tree`` and ``export_graphviz`` draw these trees too.
    parent, depth, subtree_size : ndarray of shape (node_count,)
        Derived: the parent of each node (``-1`` for the root), its depth, and
        the number of nodes in its subtree (itself included).
    """

    def __init__(
        self,
        children_left,
        children_right,
        feature,
        threshold,
        value,
        impurity,
        n_node_samples,
        weighted_n_node_samples,
        n_classes=None,
    ):
        self.children_left = np.asarray(children_left, dtype=np.intp)
        self.children_right = np.asarray(children_right, dtype=np.intp)
        self.feature = np.asarray(feature, dtype=np.intp)
        self.threshold = np.asarray(threshold, dtype=float)
        self.value = np.asarray(value, dtype=float)
        self.impurity = np.asarray(impurity, dtype=float)
        self.n_node_samples = np.asarray(n_node_samples, dtype=np.intp)
        self.weighted_n_node_samples = np.asarray(
            weighted_n_node_samples, dtype=float
        )
        self.node_count = len(self.children_left)
        _, self.n_outputs, self.max_n_classes = self.value.shape
        self.n_classes = np.asarray(
            np.ones(self.n_outputs) if n_classes is None else n_classes,
            dtype=np.intp,
        )
        internal = np.flatnonzero(self.children_left != TREE_LEAF)
        self.parent = np.full(self.node_count, -1, dtype=np.intp)
        self.parent[self.children_left[internal]] = internal
        self.parent[self.children_right[internal]] = internal
        # depth: count the steps up to the root, all nodes at once
        self.depth = np.zeros(self.node_count, dtype=np.intp)
        ancestor = self.parent.copy()
        while (below := ancestor >= 0).any():
            self.depth += below
            ancestor[below] = self.parent[ancestor[below]]
        # subtree sizes from the deepest internal nodes up
        self.subtree_size = np.ones(self.node_count, dtype=np.intp)
        for parents in reversed(self._internal_by_depth()):
            self.subtree_size[parents] += (
                self.subtree_size[self.children_left[parents]]
                + self.subtree_size[self.children_right[parents]]
            )

    def _internal_by_depth(self):
        """The internal nodes of each depth, from the root down."""
        internal = ~self.is_leaf
        return [
            np.flatnonzero(internal & (self.depth == level))
            for level in range(self.max_depth if self.node_count else 0)
        ]

    def preorder(self):
        """The same tree with its nodes numbered in depth-first preorder.

        In preorder a left child comes right after its parent, and a right
        child after its parent's whole left subtree, so the new numbers are
        assigned from the root down, one depth at a time.
        """
        new_id = np.zeros(self.node_count, dtype=np.intp)
        for parents in self._internal_by_depth():
            left = self.children_left[parents]
            new_id[left] = new_id[parents] + 1
            new_id[self.children_right[parents]] = (
                new_id[parents] + 1 + self.subtree_size[left]
            )
        old_id = np.empty_like(new_id)
        old_id[new_id] = np.arange(self.node_count)

        def child(ids):
            return np.where(ids == TREE_LEAF, TREE_LEAF, new_id[ids])

        return Tree(
            children_left=child(self.children_left[old_id]),
            children_right=child(self.children_right[old_id]),
            **{
                field: getattr(self, field)[old_id]
                for field in (
                    "feature",
                    "threshold",
                    "value",
                    "impurity",
                    "n_node_samples",
                    "weighted_n_node_samples",
                )
            },
            n_classes=self.n_classes,
        )

    @property
    def is_leaf(self):
        return self.children_left == TREE_LEAF

    @property
    def n_leaves(self):
        return int(self.is_leaf.sum())

    @property
    def max_depth(self):
        return int(self.depth.max())

    def apply(self, X):
        """Index of the leaf that each row of ``X`` (shape (n, n_features))
        reaches, shape (n,).

        All rows descend together, one level per step, so the loop runs
        ``max_depth`` times.
        """
        node = np.zeros(len(X), dtype=np.intp)
        active = np.flatnonzero(~self.is_leaf[node])
        while active.size:
            at = node[active]
            go_left = X[active, self.feature[at]] <= self.threshold[at]
            node[active] = np.where(
                go_left, self.children_left[at], self.children_right[at]
            )
            active = active[~self.is_leaf[node[active]]]
        return node

    def predict(self, X):
        """``value`` of the leaf each row reaches, shape (n, n_outputs,
        n_values)."""
        return self.value[self.apply(X)]

    def decision_path(self, X):
        """The nodes each row of ``X`` passes through, as a sparse indicator
        matrix of shape (n, node_count): entry ``(i, t)`` is 1 exactly when
        node ``t`` lies on the path from the root to row ``i``'s leaf.

        The path of a sample is its leaf and the leaf's ancestors, so each
        row of the CSR matrix is filled from its leaf up to the root, all
        rows at once (``max_depth`` steps); its column indices run from the
        root down, as scikit-learn lists them.
        """
        node = self.apply(X)
        indptr = np.concatenate([[0], np.cumsum(self.depth[node] + 1)])
        indices = np.empty(indptr[-1], dtype=np.intp)
        position = indptr[1:] - 1  # each row's last slot: its leaf
        active = np.arange(len(node))
        while active.size:
            indices[position[active]] = node[active]
            node[active] = self.parent[node[active]]
            position[active] -= 1
            active = active[node[active] >= 0]
        return csr_matrix(
            (np.ones(len(indices), dtype=np.intp), indices, indptr),
            shape=(len(node), self.node_count),
        )

    def compute_feature_importances(self, n_features, normalize=True):
        r"""Total weighted impurity decrease :math:`W I - W_L I_L - W_R I_R` of
        the splits on each feature, divided by the root's weight and, with
        ``normalize``, normalised to sum to one (all zeros for a single
        leaf)."""
        internal = np.flatnonzero(~self.is_leaf)
        left, right = (
            self.children_left[internal],
            self.children_right[internal],
        )
        cost = self.weighted_n_node_samples * self.impurity
        decrease = cost[internal] - cost[left] - cost[right]
        importances = np.bincount(
            self.feature[internal], weights=decrease, minlength=n_features
        ).astype(float)
        importances /= self.weighted_n_node_samples[0]
        total = importances.sum()
        if normalize and total > 0:
            return importances / total
        return importances

    def subtree(self, keep):
        """The tree made of the nodes where ``keep`` is true, renumbered in the
        same order.

        ``keep`` must contain the root and be closed under taking parents; a
        kept node whose children are dropped becomes a leaf.
        """
        keep = np.asarray(keep, dtype=bool)
        new_id = np.cumsum(keep) - 1
        left, right = self.children_left[keep], self.children_right[keep]
        becomes_leaf = (left == TREE_LEAF) | ~keep[np.maximum(left, 0)]
        return Tree(
            children_left=np.where(becomes_leaf, TREE_LEAF, new_id[left]),
            children_right=np.where(becomes_leaf, TREE_LEAF, new_id[right]),
            feature=np.where(becomes_leaf, TREE_UNDEFINED, self.feature[keep]),
            threshold=np.where(
                becomes_leaf, TREE_UNDEFINED, self.threshold[keep]
            ),
            value=self.value[keep],
            impurity=self.impurity[keep],
            n_node_samples=self.n_node_samples[keep],
            weighted_n_node_samples=self.weighted_n_node_samples[keep],
            n_classes=self.n_classes,
        )
