"""mllib.structured: the structured perceptron and SVM on linear chains,
against brute-force enumeration of all label sequences, finite differences,
a QP solved with every constraint, Collins' mistake bound and scikit-learn's
Crammer-Singer SVM (the case T = 1)."""

import itertools
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.svm import LinearSVC

from mllib.crf import sequence_score
from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.optim import numerical_gradient
from mllib.structured import (
    StructuredPerceptron,
    StructuredSVM,
    hamming_loss,
    joint_features,
    loss_augmented_viterbi,
    structured_hinge_objective,
)


def all_sequences(T, k):
    return [np.array(y) for y in itertools.product(range(k), repeat=T)]


def flat_features(x, y, k):
    return np.concatenate([b.ravel() for b in joint_features(x, y, k)])


def noisy_sequences(rng, n, k, d, noise, T_range=(2, 5)):
    """Labels from a sticky Markov chain, inputs one-hot plus noise."""
    X, Y = [], []
    for T in rng.integers(*T_range, size=n):
        y = [rng.integers(k)]
        for _ in range(T - 1):
            y.append(y[-1] if rng.uniform() < 0.6 else rng.integers(k))
        X.append(np.eye(k, d)[y] + noise * rng.normal(size=(T, d)))
        Y.append(np.array(y))
    return X, Y


def test_joint_features_give_the_crf_score(rng):
    k, d = 3, 4
    W, A = rng.normal(size=(d, k)), rng.normal(size=(k, k))
    for T in (1, 2, 6):
        x, y = rng.normal(size=(T, d)), rng.integers(k, size=T)
        unary_block, markov_block = joint_features(x, y, k)
        assert unary_block.shape == (d, k) and markov_block.shape == (k, k)
        assert np.sum(W * unary_block) + np.sum(A * markov_block) == (
            pytest.approx(sequence_score(x @ W, A, y))
        )
        assert markov_block.sum() == T - 1


@pytest.mark.parametrize("T", [1, 2, 4, 6])
def test_loss_augmented_viterbi_equals_enumeration(rng, T):
    k = 3
    for _ in range(5):
        unary, pairwise = rng.normal(size=(T, k)), rng.normal(size=(k, k))
        y = rng.integers(k, size=T)
        scores = [
            hamming_loss(y, z) + sequence_score(unary, pairwise, z)
            for z in all_sequences(T, k)
        ]
        best = all_sequences(T, k)[int(np.argmax(scores))]
        path, value = loss_augmented_viterbi(unary, pairwise, y)
        assert value == pytest.approx(max(scores))
        np.testing.assert_array_equal(path, best)


def test_objective_and_subgradient(rng):
    k, d, C = 3, 2, 0.7
    X, Y = noisy_sequences(rng, 5, k, d, 1.0)
    W, A = rng.normal(size=(d, k)), rng.normal(size=(k, k))
    value, grad_W, grad_A = structured_hinge_objective(W, A, X, Y, C)
    # the value, by enumerating every sequence
    losses = [
        max(
            hamming_loss(y, z)
            + sequence_score(x @ W, A, z)
            - sequence_score(x @ W, A, y)
            for z in all_sequences(len(y), k)
        )
        for x, y in zip(X, Y)
    ]
    assert value == pytest.approx(
        0.5 * (np.sum(W**2) + np.sum(A**2)) + C * sum(losses)
    )
    # each loss bounds the Hamming loss of the Viterbi prediction
    for x, y, loss in zip(X, Y, losses):
        scores = [
            sequence_score(x @ W, A, z) for z in all_sequences(len(y), k)
        ]
        prediction = all_sequences(len(y), k)[int(np.argmax(scores))]
        assert loss >= hamming_loss(y, prediction) - 1e-12
    # at a random point the argmaxes are unique: J is differentiable there

    def J(theta):
        return structured_hinge_objective(
            theta[: d * k].reshape(d, k), theta[d * k :].reshape(k, k), X, Y, C
        )[0]

    theta = np.concatenate([W.ravel(), A.ravel()])
    np.testing.assert_allclose(
        numerical_gradient(J, theta, eps=1e-7),
        np.concatenate([grad_W.ravel(), grad_A.ravel()]),
        atol=1e-6,
    )


def solve_qp(X, Y, k, C):
    """The SSVM primal with one constraint per (sequence, label sequence)."""
    d, N = X[0].shape[1], len(X)
    D = d * k + k * k
    rows, losses, owner = [], [], []
    for n, (x, y) in enumerate(zip(X, Y)):
        for z in all_sequences(len(y), k):
            rows.append(flat_features(x, z, k) - flat_features(x, y, k))
            losses.append(hamming_loss(y, z))
            owner.append(n)
    rows, losses, owner = np.array(rows), np.array(losses), np.array(owner)
    slack_of = np.eye(N)[owner]
    result = minimize(
        lambda z: 0.5 * z[:D] @ z[:D] + C * z[D:].sum(),
        np.concatenate([np.zeros(D), np.full(N, 10.0)]),
        jac=lambda z: np.concatenate([z[:D], np.full(N, C)]),
        constraints=[
            {
                "type": "ineq",
                "fun": lambda z: z[D:][owner] - losses - rows @ z[:D],
                "jac": lambda z: np.hstack([-rows, slack_of]),
            }
        ],
        method="SLSQP",
        options={"ftol": 1e-10, "maxiter": 1000},
    )
    assert result.success
    return result.fun


@pytest.mark.parametrize("C", [0.3, 1.0, 3.0])
def test_svm_objective_is_certified_against_the_qp(C):
    rng = np.random.default_rng(int(10 * C))
    X, Y = noisy_sequences(rng, 6, 3, 3, 0.6)
    optimum = solve_qp(X, Y, 3, C)
    svm = StructuredSVM(C=C, max_iter=5000).fit(X, Y)
    best = svm.objective_curve_.min()
    assert svm.dual_curve_.max() <= optimum + 1e-7  # weak duality
    assert optimum <= best + 1e-7
    assert best - svm.dual_curve_.max() <= 1e-2 * best  # the certificate
    assert structured_hinge_objective(svm.coef_, svm.transitions_, X, Y, C)[
        0
    ] == pytest.approx(best)
    assert best < svm.objective_curve_[0]


def test_the_dual_identity(rng):
    # C sum_n Delta(y_n, argmax_n) = J + |w|^2 / 2 - <w, g>
    k, d, C = 3, 2, 1.3
    X, Y = noisy_sequences(rng, 4, k, d, 1.0)
    W, A = rng.normal(size=(d, k)), rng.normal(size=(k, k))
    value, gW, gA = structured_hinge_objective(W, A, X, Y, C)
    hamming = sum(
        hamming_loss(y, loss_augmented_viterbi(x @ W, A, y)[0])
        for x, y in zip(X, Y)
    )
    w2 = np.sum(W**2) + np.sum(A**2)
    assert C * hamming == pytest.approx(
        value + 0.5 * w2 - np.sum(W * gW) - np.sum(A * gA)
    )


def test_one_position_is_the_crammer_singer_svm(rng):
    X = np.vstack(
        [rng.normal(loc=c, size=(10, 2)) for c in ([0, 3], [3, 0], [-2, -2])]
    )
    y = np.repeat([0, 1, 2], 10)
    C = 0.5
    W_sk = (
        LinearSVC(
            multi_class="crammer_singer",
            C=C,
            fit_intercept=False,
            tol=1e-10,
            max_iter=100_000,
            random_state=0,  # liblinear's update order, not the global state
        )
        .fit(X, y)
        .coef_
    )
    scores = X @ W_sk.T
    margins = 1 - np.eye(3)[y] + scores - scores[np.arange(len(y)), y, None]
    sk_objective = 0.5 * np.sum(W_sk**2) + C * margins.max(axis=1).sum()
    svm = StructuredSVM(C=C, max_iter=5000).fit(
        [row[None, :] for row in X], [[label] for label in y]
    )
    best = svm.objective_curve_.min()
    assert svm.dual_curve_.max() <= sk_objective + 1e-6
    assert sk_objective <= best + 1e-6
    assert best <= sk_objective * (1 + 1e-2)
    np.testing.assert_array_equal(svm.transitions_, 0.0)


def planted_problem(rng, n, k=3, d=3, T_range=(2, 6), min_margin=0.5):
    """Sequences labelled by the Viterbi argmax of a planted (W, A), kept
    only if the true sequence wins by min_margin; the brute-force margin
    delta and radius R of the planted unit vector."""
    W, A = rng.normal(size=(d, k)), rng.normal(size=(k, k))
    u = np.concatenate([W.ravel(), A.ravel()])
    u /= np.linalg.norm(u)
    X, Y, delta, R = [], [], np.inf, 0.0
    while len(X) < n:
        x = rng.normal(size=(rng.integers(*T_range), d))
        candidates = all_sequences(len(x), k)
        feats = np.array([flat_features(x, z, k) for z in candidates])
        scores = feats @ u
        order = np.argsort(scores)[::-1]
        if scores[order[0]] - scores[order[1]] < min_margin:
            continue
        X.append(x)
        Y.append(candidates[order[0]])
        diffs = feats[order[0]] - feats[order[1:]]
        delta = min(delta, (diffs @ u).min())
        R = max(R, np.linalg.norm(diffs, axis=1).max())
    return X, Y, delta, R


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_perceptron_mistakes_obey_collins_bound(seed):
    rng = np.random.default_rng(seed)
    X, Y, delta, R = planted_problem(rng, 40)
    model = StructuredPerceptron(shuffle=True, random_state=seed).fit(X, Y)
    assert model.n_updates_ <= (R / delta) ** 2
    assert model.mistakes_per_epoch_[-1] == 0
    for x, y, pred in zip(X, Y, model.predict(X)):
        np.testing.assert_array_equal(pred, y)


@pytest.mark.parametrize("average", [False, True])
def test_perceptron_against_a_brute_force_implementation(rng, average):
    # Collins' algorithm written out with the argmax over every sequence;
    # noisy data, so that all passes run and make mistakes
    k, d, passes = 3, 2, 4
    X, Y = noisy_sequences(rng, 8, k, d, 1.5)
    w, total, visits = np.zeros(d * k + k * k), 0.0, 0
    for _ in range(passes):
        for x, y in zip(X, Y):
            candidates = all_sequences(len(y), k)
            scores = [flat_features(x, z, k) @ w for z in candidates]
            guess = candidates[int(np.argmax(scores))]
            if np.any(guess != y):
                w = w + flat_features(x, y, k) - flat_features(x, guess, k)
            total, visits = total + w, visits + 1
    expected = total / visits if average else w
    with pytest.warns(ConvergenceWarning):
        model = StructuredPerceptron(max_iter=passes, average=average).fit(
            X, Y
        )
    np.testing.assert_allclose(model.coef_, expected[: d * k].reshape(d, k))
    np.testing.assert_allclose(
        model.transitions_, expected[d * k :].reshape(k, k)
    )


def test_both_learners_fit_a_separable_problem(rng):
    X, Y = noisy_sequences(rng, 30, 3, 3, 0.15, T_range=(3, 9))
    labels = np.array(["noun", "verb", "adj"])
    Y_named = [labels[y] for y in Y]
    for model in (
        StructuredPerceptron(),
        StructuredSVM(C=1.0, max_iter=3000),
    ):
        fitted = clone(model).fit(X, Y_named)
        assert set(fitted.classes_) == set(labels)
        for pred, y in zip(fitted.predict(X), Y_named):
            np.testing.assert_array_equal(pred, y)


def test_convergence_warnings(rng):
    X, Y = noisy_sequences(rng, 20, 3, 3, 2.0)
    with pytest.warns(ConvergenceWarning, match="duality gap"):
        StructuredSVM(max_iter=3).fit(X, Y)
    # identical inputs with different labels cannot be separated
    x = rng.normal(size=(3, 2))
    with pytest.warns(ConvergenceWarning, match="not separable"):
        StructuredPerceptron(max_iter=5).fit(
            [x, x], [np.array([0, 1, 0]), np.array([1, 1, 0])]
        )


def test_bad_input(rng):
    X, Y = noisy_sequences(rng, 3, 2, 2, 0.5)
    for model in (StructuredPerceptron(), StructuredSVM()):
        with pytest.raises(NotFittedError):
            model.predict(X)
        with pytest.raises(ValueError, match="one 1-D label sequence"):
            clone(model).fit(X, Y[:2])
        with pytest.raises(ValueError, match="one 1-D label sequence"):
            clone(model).fit(X, [y[:-1] for y in Y])
        with pytest.raises(ValueError, match="list of 2-D arrays"):
            clone(model).fit(np.vstack(X), np.concatenate(Y))
        with pytest.raises(ValueError, match="features per position"):
            clone(model).fit([X[0], X[1][:, :1]], Y[:2])
        with pytest.raises(ValueError, match="NaN"):
            clone(model).fit([np.full((2, 2), np.nan)], [np.array([0, 1])])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fitted = clone(model).fit(X, Y)
        with pytest.raises(ValueError, match="features per position"):
            fitted.predict([rng.normal(size=(3, 5))])
    with pytest.raises(ValueError, match="C must be"):
        StructuredSVM(C=0.0).fit(X, Y)
