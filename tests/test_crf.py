"""Linear-chain CRF inference against brute-force enumeration of all k^T label sequences,
and the training gradient against finite differences."""

import itertools

import numpy as np
import pytest
from scipy.special import logsumexp

from mllib.crf import (
    LinearChainCRF,
    backward,
    forward,
    log_partition,
    logsumexp as crf_logsumexp,
    marginals,
    negative_log_likelihood_and_gradient,
    sequence_score,
    viterbi,
)
from mllib.exceptions import NotFittedError
from mllib.optim import check_gradient


def all_sequences(T, k):
    return np.array(list(itertools.product(range(k), repeat=T)))


def brute_force(unary, pairwise):
    """log Z, node and edge marginals, and the best sequence by listing every sequence."""
    T, k = unary.shape
    ys = all_sequences(T, k)
    scores = np.array([sequence_score(unary, pairwise, y) for y in ys])
    p = np.exp(scores - logsumexp(scores))
    node = np.stack(
        [np.bincount(ys[:, t], weights=p, minlength=k) for t in range(T)]
    )
    edge = np.zeros((T - 1, k, k))
    for y, weight in zip(ys, p):
        edge[np.arange(T - 1), y[:-1], y[1:]] += weight
    return logsumexp(scores), node, edge, ys[np.argmax(scores)], scores.max()


SHAPES = [(1, 3), (2, 2), (4, 3), (5, 2), (3, 4), (6, 3)]


@pytest.mark.parametrize("T, k", SHAPES)
@pytest.mark.parametrize("position_dependent", [False, True])
def test_inference_equals_brute_force(T, k, position_dependent):
    rng = np.random.default_rng(10 * T + k)
    unary = rng.normal(scale=2.0, size=(T, k))
    pairwise = rng.normal(
        scale=2.0, size=(T - 1, k, k) if position_dependent else (k, k)
    )
    log_z, node, edge, best, best_score = brute_force(unary, pairwise)
    np.testing.assert_allclose(
        log_partition(unary, pairwise), log_z, rtol=1e-12
    )
    ours_node, ours_edge, ours_log_z = marginals(unary, pairwise)
    np.testing.assert_allclose(ours_log_z, log_z, rtol=1e-12)
    np.testing.assert_allclose(ours_node, node, atol=1e-12)
    np.testing.assert_allclose(ours_edge, edge, atol=1e-12)
    path, score = viterbi(unary, pairwise)
    np.testing.assert_array_equal(path, best)
    np.testing.assert_allclose(score, best_score)
    np.testing.assert_allclose(score, sequence_score(unary, pairwise, path))


def test_forward_and_backward_give_the_same_partition_function_at_every_position():
    rng = np.random.default_rng(1)
    unary, pairwise = rng.normal(size=(7, 4)), rng.normal(size=(4, 4))
    totals = logsumexp(
        forward(unary, pairwise) + backward(unary, pairwise), axis=1
    )
    np.testing.assert_allclose(totals, log_partition(unary, pairwise))


def test_long_sequences_with_large_scores_stay_finite():
    rng = np.random.default_rng(2)
    unary, pairwise = (
        300 * rng.normal(size=(500, 5)),
        300 * rng.normal(size=(5, 5)),
    )
    node, edge, log_z = marginals(unary, pairwise)
    assert (
        np.isfinite(log_z)
        and np.all(np.isfinite(node))
        and np.all(np.isfinite(edge))
    )
    np.testing.assert_allclose(node.sum(axis=1), 1.0)
    np.testing.assert_allclose(edge.sum(axis=2), node[:-1], atol=1e-10)
    # with huge scores the distribution is nearly a point mass on the Viterbi path
    path, score = viterbi(unary, pairwise)
    assert log_z >= score
    np.testing.assert_array_equal(np.argmax(node, axis=1), path)


def test_logsumexp_matches_scipy_on_infinite_and_huge_entries():
    a = np.array(
        [
            [-np.inf, -np.inf, -np.inf],
            [0.0, 1.0, -np.inf],
            [1e308, 1e308, 0.0],
            [np.inf, 0.0, 1.0],
            [-1e308, -1e308, -np.inf],
        ]
    )
    for axis in (1, None):
        np.testing.assert_array_equal(
            crf_logsumexp(a, axis=axis), logsumexp(a, axis=axis)
        )
    np.testing.assert_array_equal(
        crf_logsumexp(a.T, axis=0), logsumexp(a, axis=1)
    )


def test_forbidden_transitions_scored_minus_infinity_equal_brute_force():
    # tag 2 can never follow a tag (a column of -inf), and 0 -> 1 is forbidden: every
    # recursion step meets an all -inf slice, which must give -inf, not NaN
    rng = np.random.default_rng(3)
    unary, pairwise = rng.normal(size=(5, 3)), rng.normal(size=(3, 3))
    pairwise[:, 2] = -np.inf
    pairwise[0, 1] = -np.inf
    log_z, node, edge, best, best_score = brute_force(unary, pairwise)
    np.testing.assert_allclose(log_partition(unary, pairwise), log_z)
    got_node, got_edge, got_log_z = marginals(unary, pairwise)
    np.testing.assert_allclose(got_node, node, atol=1e-12)
    np.testing.assert_allclose(got_edge, edge, atol=1e-12)
    assert np.all(got_node[1:, 2] == 0)
    path, score = viterbi(unary, pairwise)
    np.testing.assert_array_equal(path, best)
    assert np.isclose(score, best_score)


def make_problem(seed, n_sequences=4, d=3, k=3):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 6, size=n_sequences)
    sequences = [rng.normal(size=(T, d)) for T in lengths]
    labels = [rng.integers(k, size=T) for T in lengths]
    return sequences, labels, rng.normal(size=(d, k)), rng.normal(size=(k, k))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("alpha", [0.0, 0.3])
def test_gradient_equals_finite_differences(seed, alpha):
    sequences, labels, W, A = make_problem(seed)
    d, k = W.shape

    def fun(theta):
        return negative_log_likelihood_and_gradient(
            theta[: d * k].reshape(d, k),
            theta[d * k :].reshape(k, k),
            sequences,
            labels,
            alpha,
        )[0]

    def grad(theta):
        _, gw, ga = negative_log_likelihood_and_gradient(
            theta[: d * k].reshape(d, k),
            theta[d * k :].reshape(k, k),
            sequences,
            labels,
            alpha,
        )
        return np.concatenate([gw.ravel(), ga.ravel()])

    assert (
        check_gradient(fun, grad, np.concatenate([W.ravel(), A.ravel()]))
        < 1e-6
    )


def test_negative_log_likelihood_equals_brute_force():
    sequences, labels, W, A = make_problem(5)
    nll = negative_log_likelihood_and_gradient(W, A, sequences, labels)[0]
    expected = np.mean(
        [
            brute_force(x @ W, A)[0] - sequence_score(x @ W, A, y)
            for x, y in zip(sequences, labels)
        ]
    )
    np.testing.assert_allclose(nll, expected)


def test_training_recovers_the_labels_of_a_sequence_generator():
    # labels follow a sticky Markov chain; inputs are noisy one-hot codes of the labels
    rng = np.random.default_rng(0)
    k, stay = 3, 0.8
    transition = np.full((k, k), (1 - stay) / (k - 1)) + (
        stay - (1 - stay) / (k - 1)
    ) * np.eye(k)

    def sample(n):
        labels = []
        for T in rng.integers(5, 15, size=n):
            y = [rng.integers(k)]
            for _ in range(T - 1):
                y.append(rng.choice(k, p=transition[y[-1]]))
            labels.append(np.array(y))
        return [
            np.eye(k)[y] + rng.normal(scale=0.9, size=(len(y), k))
            for y in labels
        ], labels

    X_train, y_train = sample(80)
    X_test, y_test = sample(80)
    crf = LinearChainCRF(alpha=1e-3).fit(X_train, y_train)
    assert np.all(np.diff(crf.loss_curve_) <= 1e-12)
    _, gw, ga = negative_log_likelihood_and_gradient(
        crf.coef_, crf.transitions_, X_train, y_train, 1e-3
    )
    assert max(np.abs(gw).max(), np.abs(ga).max()) < 1e-5
    assert np.all(
        np.diag(crf.transitions_) > crf.transitions_.max(axis=1) - 1e-12
    )  # sticky learned
    crf_accuracy = np.mean(
        np.concatenate(crf.predict(X_test)) == np.concatenate(y_test)
    )
    independent = np.mean(
        np.concatenate([np.argmax(x @ crf.coef_, axis=1) for x in X_test])
        == np.concatenate(y_test)
    )
    assert crf_accuracy > independent + 0.03


def test_bad_input():
    with pytest.raises(ValueError, match="pairwise must have shape"):
        log_partition(np.zeros((4, 3)), np.zeros((3, 2)))
    sequences, labels, W, A = make_problem(0)
    labels[0] = labels[0] + 5
    with pytest.raises(ValueError, match="entries"):
        negative_log_likelihood_and_gradient(W, A, sequences, labels)
    sequences, labels, _, _ = make_problem(1)
    with pytest.raises(ValueError, match="same number of features"):
        LinearChainCRF().fit(
            sequences[:-1] + [np.zeros((3, 5))],
            labels[:-1] + [np.zeros(3, dtype=int)],
        )
    crf = LinearChainCRF().fit(sequences, labels)
    with pytest.raises(ValueError, match="features, as in fit"):
        crf.predict([np.zeros((4, 2))])
    with pytest.raises(ValueError, match="one label sequence per input"):
        LinearChainCRF().fit(sequences, labels[:-1])
    with pytest.raises(NotFittedError):
        LinearChainCRF().predict(sequences)
