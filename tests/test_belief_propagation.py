"""mllib.belief_propagation: sum-product against brute-force enumeration of
every configuration, and against mllib.crf's forward-backward on chains."""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp

from mllib.belief_propagation import sum_product
from mllib.crf import marginals as chain_marginals


def brute_force(unary, edges, pairwise):
    states = [range(len(t)) for t in unary]
    configs = np.array(list(itertools.product(*states)))
    score = sum(t[configs[:, i]] for i, t in enumerate(unary))
    score = score + sum(
        table[configs[:, i], configs[:, j]]
        for (i, j), table in zip(edges, pairwise)
    )
    log_z = logsumexp(score)
    p = np.exp(score - log_z)
    nodes = [
        np.bincount(configs[:, i], weights=p, minlength=len(t))
        for i, t in enumerate(unary)
    ]
    edge_marginals = []
    for (i, j), table in zip(edges, pairwise):
        joint = np.zeros(table.shape)
        np.add.at(joint, (configs[:, i], configs[:, j]), p)
        edge_marginals.append(joint)
    return nodes, edge_marginals, log_z


def random_model(rng, sizes, edges, scale=1.0):
    unary = [scale * rng.normal(size=k) for k in sizes]
    pairwise = [
        scale * rng.normal(size=(sizes[i], sizes[j])) for i, j in edges
    ]
    return unary, edges, pairwise


TREES = {
    "tree": (
        [2, 3, 2, 4, 2, 3, 2],
        [(0, 1), (1, 2), (1, 3), (3, 4), (5, 3), (6, 0)],
    ),
    "star": ([3, 2, 2, 2, 2, 3], [(0, 1), (0, 2), (3, 0), (0, 4), (5, 0)]),
    "forest": ([2, 3, 2, 2, 3], [(0, 1), (3, 2)]),
    "single": ([4], []),
}


@pytest.mark.parametrize("name", list(TREES))
@pytest.mark.parametrize("seed", [0, 1])
def test_equals_brute_force(name, seed):
    model = random_model(np.random.default_rng(seed), *TREES[name])
    nodes, edges, log_z = sum_product(*model)
    ref_nodes, ref_edges, ref_log_z = brute_force(*model)
    assert log_z == pytest.approx(ref_log_z, rel=1e-12)
    for a, b in zip(nodes, ref_nodes):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-14)
    for a, b in zip(edges, ref_edges):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-14)
    # consistency: an edge marginal sums to its nodes' marginals
    for (i, j), joint in zip(model[1], edges):
        np.testing.assert_allclose(joint.sum(axis=1), nodes[i])
        np.testing.assert_allclose(joint.sum(axis=0), nodes[j])


@pytest.mark.parametrize("T", [1, 2, 9])
def test_a_chain_reproduces_forward_backward(T):
    rng = np.random.default_rng(T)
    k = 3
    unary = rng.normal(size=(T, k))
    transitions = (
        rng.normal(size=(T - 1, k, k)) if T > 1 else np.zeros((0, k, k))
    )
    edges = [(t, t + 1) for t in range(T - 1)]
    nodes, edge_marginals, log_z = sum_product(unary, edges, transitions)
    ref_nodes, ref_edges, ref_log_z = chain_marginals(unary, transitions)
    assert log_z == pytest.approx(ref_log_z, rel=1e-12)
    np.testing.assert_allclose(np.array(nodes), ref_nodes, rtol=1e-10)
    if T > 1:
        np.testing.assert_allclose(
            np.array(edge_marginals), ref_edges, rtol=1e-10
        )


def test_large_potentials_do_not_overflow():
    rng = np.random.default_rng(3)
    model = random_model(rng, *TREES["tree"], scale=400.0)
    nodes, _, log_z = sum_product(*model)
    _, _, ref_log_z = brute_force(*model)
    assert np.isfinite(log_z)
    assert log_z == pytest.approx(ref_log_z, rel=1e-12)
    assert all(np.all(np.isfinite(b)) for b in nodes)


def test_hard_constraints():
    # x0 != x1 (an impossible pair has log-potential -inf)
    unary = [np.zeros(2), np.array([0.0, 1.0])]
    table = np.array([[-np.inf, 0.0], [0.0, -np.inf]])
    nodes, edges, log_z = sum_product(unary, [(0, 1)], [table])
    assert log_z == pytest.approx(np.log(1 + np.e))
    np.testing.assert_allclose(nodes[0], np.array([np.e, 1]) / (1 + np.e))
    assert edges[0][0, 0] == 0.0 and edges[0][1, 1] == 0.0
    with pytest.raises(ValueError, match="probability zero"):
        sum_product(unary, [(0, 1)], [np.full((2, 2), -np.inf)])


def test_bad_input():
    unary = [np.zeros(2)] * 3
    with pytest.raises(ValueError, match="cycle"):
        sum_product(unary, [(0, 1), (1, 2), (2, 0)], [np.zeros((2, 2))] * 3)
    with pytest.raises(ValueError, match="cycle"):  # a repeated edge
        sum_product(unary, [(0, 1), (1, 0)], [np.zeros((2, 2))] * 2)
    with pytest.raises(ValueError, match="shape"):
        sum_product(unary, [(0, 1)], [np.zeros((2, 3))])
    with pytest.raises(ValueError, match="one pairwise table per edge"):
        sum_product(unary, [(0, 1)], [])
    with pytest.raises(ValueError, match="different nodes"):
        sum_product(unary, [(0, 3)], [np.zeros((2, 2))])
    with pytest.raises(ValueError, match="NaN"):
        sum_product([np.array([0.0, np.nan])], [], [])
    with pytest.raises(ValueError, match="1-D"):
        sum_product([], [], [])


def test_a_large_star_with_hard_constraints_is_exact():
    # independent sets of a star: the centre 0, or any subset of the leaves
    n_leaves = 300
    no_two_ones = np.array([[0.0, 0.0], [0.0, -np.inf]])
    edges = [(0, leaf) for leaf in range(1, n_leaves + 1)]
    nodes, edge_marginals, log_z = sum_product(
        np.zeros((n_leaves + 1, 2)), edges, [no_two_ones] * n_leaves
    )
    # Z = 1 + 2^n; p(centre = 1) = 1 / Z; p(leaf = 1) = 2^(n-1) / Z
    assert log_z == pytest.approx(np.logaddexp(0.0, n_leaves * np.log(2)))
    assert nodes[0][1] == pytest.approx(np.exp(-log_z))
    assert nodes[1][1] == pytest.approx(
        np.exp((n_leaves - 1) * np.log(2) - log_z)
    )
    assert all(np.all(np.isfinite(b)) for b in nodes)
    assert all(joint[1, 1] == 0.0 for joint in edge_marginals)


def test_each_node_sums_its_incoming_messages_once(monkeypatch):
    # the "all messages but one" sums of a node are formed together, in
    # O(deg) additions, not afresh for each message it sends (O(deg²))
    import mllib.belief_propagation as bp

    calls = []

    def counting(own, messages):
        calls.append(len(messages))
        return all_but_one(own, messages)

    all_but_one = bp._all_but_one
    monkeypatch.setattr(bp, "_all_but_one", counting)
    sizes, edges = TREES["star"]
    sum_product(*random_model(np.random.default_rng(0), sizes, edges))
    degrees = np.bincount(np.ravel(edges), minlength=len(sizes))
    assert sorted(calls) == sorted(degrees)
