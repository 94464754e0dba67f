r"""Sum-product belief propagation on tree-structured pairwise Markov random
fields: exact marginals and log partition function.

Variables :math:`x_1,\dots,x_n`, with :math:`x_i\in\{0,\dots,k_i-1\}`, on the
nodes of a forest with edge set :math:`E` have the distribution

.. math:: p(x)=\frac1Z\exp\Bigl(\sum_i\theta_i(x_i)
          +\sum_{(i,j)\in E}\theta_{ij}(x_i,x_j)\Bigr)

with unary log-potentials :math:`\theta_i` and pairwise log-potentials
:math:`\theta_{ij}`. A message from :math:`i` to a neighbour :math:`j` sums
out everything on :math:`i`'s side of the edge,

.. math:: \log m_{i\to j}(x_j)=\log\sum_{x_i}\exp\Bigl(\theta_i(x_i)
          +\theta_{ij}(x_i,x_j)+\sum_{l\in N(i)\setminus j}
          \log m_{l\to i}(x_i)\Bigr),

which on a tree is well defined once the messages into :math:`i` from its
other neighbours are known: leaves first, up to a root, then back down
(Pearl 1988). Two messages per edge give every marginal,
:math:`p(x_i)\propto e^{\theta_i(x_i)}\prod_{l\in N(i)}m_{l\to i}(x_i)`, in
:math:`O(\sum_{(i,j)\in E}k_ik_j)` operations instead of the
:math:`\prod_ik_i` terms of the brute-force sum. On a chain the messages
are the forward and backward recursions of :mod:`mllib.crf`.

That count needs care at a node of high degree: summing the other
:math:`\deg(i)-1` incoming messages afresh for each of the :math:`\deg(i)`
messages :math:`i` sends would cost :math:`O(\deg(i)^2k_i)` there (a
star with :math:`n` leaves: :math:`O(n^2)`). Each node's sums "all
incoming messages but one" are therefore formed once, from prefix and
suffix sums over its neighbours (:func:`_all_but_one`), in
:math:`O(\deg(i)k_i)`: :math:`O(\sum_ik_i+\sum_{(i,j)\in E}k_ik_j)` in
all. (Subtracting one message from the total would be cheaper still, but a
:math:`-\infty` log-message, an impossible state, would turn it into NaN.)

On a graph with cycles the same updates ("loopy BP") are not exact, and no
exact algorithm is expected to be efficient in general: computing
:math:`Z` (or a marginal) of a pairwise MRF is #P-hard and deciding whether
a marginal is positive is NP-hard (Cooper 1990; Koller & Friedman 2009,
§9.1). Exact inference on a general graph costs time exponential in its
treewidth (junction tree). :func:`sum_product` therefore refuses cycles.
Messages are kept in log space (``logsumexp``), so that large potentials
neither overflow nor underflow.

References: Pearl (1988); Kschischang, Frey & Loeliger (2001); Koller &
Friedman (2009), ch. 10.
"""

from collections import deque

import numpy as np
from scipy.special import logsumexp


def sum_product(unary, edges, pairwise):
    r"""Exact marginals and :math:`\log Z` of a tree-structured pairwise MRF.

    Parameters
    ----------
    unary : sequence of n array-likes, the i-th of shape (k_i,)
        :math:`\theta_i`; a 2-D array of shape (n, k) also works.
    edges : sequence of (i, j) pairs of node indices
        The edges of a forest (no cycles, no repeated edge).
    pairwise : sequence of array-likes, one of shape (k_i, k_j) per edge
        :math:`\theta_{ij}`, rows indexed by the edge's first node.

    Returns
    -------
    node_marginals : list of n arrays, the i-th of shape (k_i,)
    edge_marginals : list of arrays, one of shape (k_i, k_j) per edge
    log_z : float
        :math:`\log Z`, summed over the trees of the forest.
    """
    unary = [np.asarray(t, dtype=float) for t in unary]
    edges, pairwise = _check_tree(unary, edges, pairwise)
    neighbours = [[] for _ in unary]
    for e, (i, j) in enumerate(edges):
        neighbours[i].append((j, e))
        neighbours[j].append((i, e))
    log_msg = {}  # (sender, receiver) -> log message over receiver's states
    # cavity[i, j]: theta_i plus every message into i but j's, the log of
    # what m_{i->j} sums over x_i (eq. of the message) before the potential
    cavity = {}

    def potential(e, sender):
        """theta_ij oriented as [x_sender, x_receiver]."""
        return pairwise[e] if edges[e][0] == sender else pairwise[e].T

    def send(i, j, e):
        log_msg[i, j] = logsumexp(
            cavity[i, j][:, None] + potential(e, i), axis=0
        )

    belief = [None] * len(unary)  # theta_i plus every message into i
    log_z, seen = 0.0, np.zeros(len(unary), dtype=bool)
    for root in range(len(unary)):
        if seen[root]:
            continue
        order, parent = _breadth_first(root, neighbours, seen)
        for i in reversed(order[1:]):  # collect: leaves to the root
            p, e = parent[i]
            children = [log_msg[l, i] for l, _ in neighbours[i] if l != p]
            cavity[i, p] = unary[i] + sum(children, np.zeros_like(unary[i]))
            send(i, p, e)
        for i in order:  # distribute: every message into i is known now
            but_one, belief[i] = _all_but_one(
                unary[i], [log_msg[l, i] for l, _ in neighbours[i]]
            )
            for (l, e), excluded in zip(neighbours[i], but_one):
                cavity[i, l] = excluded
                if i in parent and parent[i][0] == l:
                    continue  # i sent to its parent while collecting
                send(i, l, e)
        log_z += logsumexp(belief[root])
    if log_z == -np.inf:
        raise ValueError(
            "every configuration has probability zero (Z = 0): the -inf "
            "log-potentials rule out all of them."
        )
    node_marginals = [np.exp(b - logsumexp(b)) for b in belief]
    edge_marginals = []
    for e, (i, j) in enumerate(edges):
        joint = cavity[i, j][:, None] + pairwise[e] + cavity[j, i][None, :]
        edge_marginals.append(np.exp(joint - logsumexp(joint)))
    return node_marginals, edge_marginals, float(log_z)


def _all_but_one(own, messages):
    """``own`` plus all of ``messages`` but the a-th, for every a, and
    ``own`` plus all of them: prefix and suffix sums, O(len(messages))
    additions rather than O(len(messages)²)."""
    prefix = [own]
    for message in messages:
        prefix.append(prefix[-1] + message)
    suffix = [np.zeros_like(own)]
    for message in reversed(messages):
        suffix.append(suffix[-1] + message)
    suffix.reverse()
    but_one = [prefix[a] + suffix[a + 1] for a in range(len(messages))]
    return but_one, prefix[-1]


def _breadth_first(root, neighbours, seen):
    """Nodes of root's tree in breadth-first order, and each one's
    (parent, edge) pair."""
    order, parent, queue = [], {}, deque([root])
    seen[root] = True
    while queue:
        i = queue.popleft()
        order.append(i)
        for j, e in neighbours[i]:
            if not seen[j]:
                seen[j] = True
                parent[j] = (i, e)
                queue.append(j)
    return order, parent


def _bad(log_potential):
    return np.any(np.isnan(log_potential) | (log_potential == np.inf))


def _check_tree(unary, edges, pairwise):
    n = len(unary)
    if n == 0 or any(t.ndim != 1 or len(t) == 0 for t in unary):
        raise ValueError(
            "unary must hold one non-empty 1-D array of log-potentials per "
            "node."
        )
    if any(_bad(t) for t in unary):
        raise ValueError(
            "unary log-potentials must be numbers below +inf (-inf marks an "
            "impossible state); found NaN or +inf."
        )
    edges = [tuple(int(v) for v in edge) for edge in edges]
    pairwise = [np.asarray(t, dtype=float) for t in pairwise]
    if len(pairwise) != len(edges):
        raise ValueError(
            f"need one pairwise table per edge; got {len(edges)} edges and "
            f"{len(pairwise)} tables."
        )
    root_of = list(range(n))  # union-find: a cycle joins two linked nodes

    def find(i):
        while root_of[i] != i:
            root_of[i] = root_of[root_of[i]]
            i = root_of[i]
        return i

    for (i, j), table in zip(edges, pairwise):
        if not (0 <= i < n and 0 <= j < n) or i == j:
            raise ValueError(
                f"edge {(i, j)} must join two different nodes in 0..{n - 1}."
            )
        if table.shape != (len(unary[i]), len(unary[j])):
            raise ValueError(
                f"the table of edge {(i, j)} must have shape "
                f"{(len(unary[i]), len(unary[j]))}; got {table.shape}."
            )
        if _bad(table):
            raise ValueError(
                f"the table of edge {(i, j)} has a NaN or +inf entry."
            )
        if find(i) == find(j):
            raise ValueError(
                f"edge {(i, j)} closes a cycle: sum-product is exact only on "
                "trees, and exact inference on graphs with cycles is #P-hard "
                "in general (use a junction tree, or loopy BP as an "
                "approximation)."
            )
        root_of[find(i)] = find(j)
    return edges, pairwise
