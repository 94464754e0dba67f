"""mllib.online: mistake bounds as property tests on many seeded streams, reference loops, bad input."""

import numpy as np
import pytest
from sklearn.base import clone

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.kernels import anova_kernel
from mllib.linear_model import Perceptron
from mllib.online import (
    Halving,
    KernelPerceptron,
    WeightedMajority,
    Winnow,
    make_expert_advice,
    make_monotone_disjunction,
    make_separable,
)

SEEDS = range(60)


# ----------------------------------------------------------------------------- generators


@pytest.mark.parametrize("seed", range(5))
def test_make_separable_has_the_promised_radius_and_margin(seed):
    X, y, u = make_separable(500, 2 + seed, 0.2, random_state=seed)
    assert X.shape == (500, 2 + seed) and set(np.unique(y)) == {-1.0, 1.0}
    assert np.isclose(np.linalg.norm(u), 1.0)
    assert np.linalg.norm(X, axis=1).max() <= 1 + 1e-12
    assert np.min(y * (X @ u)) >= 0.2
    X2, y2, u2 = make_separable(500, 2 + seed, 0.2, random_state=seed)
    np.testing.assert_array_equal(X, X2)


@pytest.mark.parametrize("seed", range(5))
def test_make_expert_advice_plants_an_expert_with_the_given_mistakes(seed):
    X, y = make_expert_advice(
        200, 12, planted_mistakes=seed, random_state=seed
    )
    assert X.shape == (200, 12) and y.shape == (200,)
    assert set(np.unique(X)) <= {0, 1} and set(np.unique(y)) <= {0, 1}
    mistakes = (X != y[:, None]).sum(axis=0)
    assert seed in mistakes and mistakes.min() <= seed


@pytest.mark.parametrize("k", [1, 2, 5])
def test_make_monotone_disjunction_labels_by_the_disjunction(k):
    X, y, relevant = make_monotone_disjunction(4000, 30, k, random_state=k)
    assert len(relevant) == k and np.all(np.diff(relevant) > 0)
    np.testing.assert_array_equal(y, X[:, relevant].any(axis=1).astype(int))
    assert 0.45 < y.mean() < 0.55  # p = 1 - 2^(-1/k) balances the labels


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: make_separable(10, 2, 1.0), "margin"),
        (lambda: make_separable(10, 1, 0.1), "n_features"),
        (lambda: make_separable(0, 2, 0.1), "n_samples"),
        (lambda: make_expert_advice(5, 3, planted_mistakes=6), "exceeds"),
        (lambda: make_expert_advice(5, 2.5), "n_experts"),
        (lambda: make_monotone_disjunction(10, 3, 4), "do not fit"),
    ],
)
def test_generators_reject_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ experts: reference loops


def reference_halving(X, y):
    alive, predictions = np.ones(X.shape[1], bool), []
    for advice, label in zip(X, y):
        votes = advice[alive]
        predictions.append(int(2 * votes.sum() >= len(votes)))
        alive &= advice == label
    return np.array(predictions)


def reference_weighted_majority(X, y, beta):
    """Plain loop, weights kept as logarithms so that long streams cannot underflow."""
    log_w, predictions = np.zeros(X.shape[1]), []
    with np.errstate(divide="ignore"):
        log_beta = np.log(beta)
    for advice, label in zip(X, y):
        weights = np.exp(log_w - log_w.max())  # the log-sum-exp shift
        predictions.append(
            int(weights[advice == 1].sum() >= weights[advice == 0].sum())
        )
        log_w = np.where(advice != label, log_w + log_beta, log_w)
    return np.array(predictions)


@pytest.mark.parametrize("seed", SEEDS)
def test_halving_mistake_bound_and_reference(seed):
    rng = np.random.default_rng(seed)
    n_experts = int(rng.integers(2, 200))
    X, y = make_expert_advice(
        int(rng.integers(10, 300)), n_experts, random_state=seed
    )
    model = Halving().fit(X, y)
    assert model.n_mistakes_ <= np.log2(n_experts)
    np.testing.assert_array_equal(model.predictions_, reference_halving(X, y))
    np.testing.assert_array_equal(model.alive_, (X == y[:, None]).all(axis=0))
    np.testing.assert_array_equal(
        model.predictions_, WeightedMajority(beta=0.0).fit(X, y).predictions_
    )


@pytest.mark.parametrize("j", range(1, 11))
def test_halving_bound_is_attained_by_an_adversary(j):
    # n = 2^j experts, expert i predicts the bits of i; the adversary labels each trial against
    # the (tied, hence 1) prediction, and some expert stays consistent throughout
    experts = (np.arange(2**j)[None, :] >> np.arange(j)[:, None]) & 1
    model = Halving().fit(experts, np.zeros(j, dtype=int))
    assert model.n_mistakes_ == j == np.log2(2**j)
    assert model.alive_.sum() == 1


@pytest.mark.parametrize("beta", [0.05, 0.3, 0.5, 0.8, 0.95])
def test_weighted_majority_bound_holds_for_every_expert(beta):
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        n_experts = int(rng.integers(2, 100))
        X, y = make_expert_advice(
            300,
            n_experts,
            planted_mistakes=int(rng.integers(0, 40)),
            random_state=seed,
        )
        model = WeightedMajority(beta=beta).fit(X, y)
        expert_mistakes = np.sum(
            X != y[:, None], axis=0
        )  # M_i, counted independently of the model
        np.testing.assert_array_equal(model.expert_mistakes_, expert_mistakes)
        bound = (
            np.log(1 / beta) * expert_mistakes + np.log(n_experts)
        ) / np.log(2 / (1 + beta))
        assert np.all(model.n_mistakes_ <= bound), (
            seed,
            model.n_mistakes_,
            bound.min(),
        )


@pytest.mark.parametrize("beta", [0.2, 0.5, 0.9])
def test_weighted_majority_matches_a_plain_loop(beta):
    for seed in range(10):
        X, y = make_expert_advice(
            150, 20, planted_mistakes=10, random_state=seed
        )
        model = WeightedMajority(beta=beta).fit(X, y)
        np.testing.assert_array_equal(
            model.predictions_, reference_weighted_majority(X, y, beta)
        )
        np.testing.assert_array_equal(model.mistakes_, model.predictions_ != y)
        assert model.n_mistakes_ == model.mistakes_.sum()


def test_weighted_majority_survives_underflow_on_long_streams():
    # beta^m underflows to 0 for every expert after a few hundred mistakes; the vote must not
    X, y = make_expert_advice(6000, 8, planted_mistakes=2000, random_state=0)
    model = WeightedMajority(beta=0.01).fit(X, y)
    assert (
        0.01 ** model.expert_mistakes_.min() == 0.0
    )  # naive weights would all be zero
    np.testing.assert_array_equal(
        model.predictions_, reference_weighted_majority(X, y, 0.01)
    )
    assert model.weights_.max() == 1.0


def test_weighted_majority_prediction_ties_go_to_one_and_predict_uses_final_weights():
    X, y = np.array([[1, 0], [1, 0]]), np.array([0, 0])
    model = WeightedMajority(beta=0.5).fit(X, y)
    np.testing.assert_array_equal(model.predictions_, [1, 0])
    np.testing.assert_array_equal(model.weights_, [0.25, 1.0])
    np.testing.assert_array_equal(model.predict([[1, 0], [0, 1]]), [0, 1])


def test_beta_zero_without_a_perfect_expert_follows_the_fewest_mistakes():
    X, y = make_expert_advice(150, 20, planted_mistakes=10, random_state=0)
    model = WeightedMajority(beta=0.0).fit(X, y)
    before = np.cumsum(X != y[:, None], axis=0) - (X != y[:, None])
    leaders = before == before.min(axis=1, keepdims=True)
    expected = (2 * (X * leaders).sum(axis=1) >= leaders.sum(axis=1)).astype(
        int
    )
    np.testing.assert_array_equal(model.predictions_, expected)


def test_halving_needs_a_perfect_expert():
    X, y = make_expert_advice(100, 10, planted_mistakes=3, random_state=0)
    if (X == y[:, None]).all(axis=0).any():
        pytest.fail("the stream should have no perfect expert")
    with pytest.raises(ValueError, match="No expert is right on every trial"):
        Halving().fit(X, y)


@pytest.mark.parametrize("model", [Halving(), WeightedMajority()])
def test_experts_bad_input_and_not_fitted(model):
    with pytest.raises(NotFittedError):
        clone(model).predict([[0, 1]])
    with pytest.raises(ValueError, match="only 0 and 1"):
        clone(model).fit([[0, 2], [1, 1]], [0, 1])
    with pytest.raises(ValueError, match="only 0 and 1"):
        clone(model).fit([[0, 1], [1, 1]], [-1, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        clone(model).fit([[0, 1], [1, 1]], [1])


@pytest.mark.parametrize("beta", [1.0, -0.1, 2, "half"])
def test_weighted_majority_rejects_bad_beta(beta):
    with pytest.raises(ValueError, match="beta"):
        WeightedMajority(beta=beta).fit([[0, 1]], [1])


def test_experts_leave_inputs_untouched():
    X, y = make_expert_advice(50, 6, random_state=1)
    X_copy, y_copy = X.copy(), y.copy()
    Halving().fit(X, y)
    WeightedMajority().fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)


# ---------------------------------------------------------------------------------- Winnow


@pytest.mark.parametrize("seed", SEEDS)
def test_winnow_mistake_bound_on_monotone_disjunctions(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(8, 300)), int(rng.integers(1, 6))
    X, y, relevant = make_monotone_disjunction(
        int(rng.integers(50, 600)), n, k, random_state=seed
    )
    model = Winnow(random_state=seed).fit(X, y)
    assert model.n_updates_ <= 2 + 3 * k * (np.log2(n) + 1)
    assert model.n_promotions_ <= k * (np.log2(n) + 1)
    assert model.n_demotions_ < 2 + 2 * model.n_promotions_
    assert model.score(X, y) == 1.0 and model.mistakes_per_epoch_[-1] == 0
    assert np.all(
        model.coef_[relevant] >= 1
    )  # relevant weights are never demoted
    assert np.all(
        model.coef_[relevant] < 2 * n
    )  # and promoted only while below n


@pytest.mark.parametrize(
    "threshold, promotion", [(4.0, 2.0), (50.0, 1.5), (10.0, 3.0), (1.0, 2.0)]
)
def test_winnow_general_bound(threshold, promotion):
    for seed in range(30):
        X, y, _ = make_monotone_disjunction(300, 40, 3, random_state=seed)
        model = Winnow(
            threshold=threshold, promotion=promotion, random_state=seed
        ).fit(X, y)
        a, n, k = promotion, 40, 3
        bound = a * n / ((a - 1) * threshold) + (a + 1) * k * (
            np.log(threshold) / np.log(a) + 1
        )
        assert model.n_updates_ <= bound


def test_winnow_single_pass_matches_a_plain_loop():
    X, y, _ = make_monotone_disjunction(200, 64, 3, random_state=0)
    w, mistakes = np.ones(64), []
    for x, label in zip(X, y):
        prediction = int(x @ w >= 64)
        mistakes.append(prediction != label)
        if prediction != label:
            w[x == 1] *= 2.0 ** (label - prediction)
    with pytest.warns(ConvergenceWarning):
        model = Winnow(max_iter=1, shuffle=False).fit(X, y)
    np.testing.assert_array_equal(
        model.mistake_indices_, np.flatnonzero(mistakes)
    )
    np.testing.assert_array_equal(model.coef_, w)
    np.testing.assert_array_equal(model.predict(X), (X @ w >= 64).astype(int))


def test_winnow_bad_input_and_not_fitted():
    with pytest.raises(NotFittedError):
        Winnow().predict([[0, 1]])
    with pytest.raises(ValueError, match="only 0 and 1"):
        Winnow().fit([[0, 0.5], [1, 1]], [0, 1])
    with pytest.raises(ValueError, match="only 0 and 1"):
        Winnow().fit([[0, 1], [1, 1]], [-1, 1])
    with pytest.raises(ValueError, match="promotion"):
        Winnow(promotion=1.0).fit([[0, 1], [1, 1]], [0, 1])
    with pytest.raises(ValueError, match="threshold"):
        Winnow(threshold=0).fit([[0, 1], [1, 1]], [0, 1])
    model = Winnow().fit([[0, 1], [1, 1]], [0, 1])
    with pytest.raises(ValueError, match="only 0 and 1"):
        model.predict([[3, 1]])


# ---------------------------------------------------------------------- kernel perceptron


def kernel_perceptron_datasets(shift=1.0):
    """Separable sets; shifted off the origin (separable only with an intercept) when ``shift``."""
    X1, y1, _ = make_separable(80, 3, 0.05, random_state=0)
    X2, y2, _ = make_separable(150, 8, 0.02, random_state=1)
    return [(X1 + shift, y1), (X2, np.where(y2 > 0, "b", "a"))]


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("shuffle", [True, False])
def test_linear_kernel_perceptron_is_the_primal_perceptron(
    fit_intercept, shuffle
):
    for X, y in kernel_perceptron_datasets(
        shift=1.0 if fit_intercept else 0.0
    ):
        for seed in range(3):
            params = dict(
                fit_intercept=fit_intercept, shuffle=shuffle, random_state=seed
            )
            # tol=None: epochs until one is mistake-free, as the kernel
            # perceptron (scikit-learn's tol rule may stop before)
            primal = Perceptron(tol=None, **params).fit(X, y)
            dual = KernelPerceptron(kernel="linear", **params).fit(X, y)
            np.testing.assert_array_equal(
                dual.mistake_indices_, primal.mistake_indices_
            )
            # the same passes; the perceptron then adds the mistake-free
            # epochs of scikit-learn's stopping rule (tol, n_iter_no_change)
            n_passes = len(dual.mistakes_per_epoch_)
            np.testing.assert_array_equal(
                dual.mistakes_per_epoch_,
                primal.mistakes_per_epoch_[:n_passes],
            )
            assert not np.any(primal.mistakes_per_epoch_[n_passes:])
            np.testing.assert_allclose(
                dual.dual_coef_ @ dual.support_vectors_,
                primal.coef_,
                atol=1e-10,
            )
            np.testing.assert_allclose(
                dual.intercept_, primal.intercept_, atol=1e-12
            )
            X_test = np.random.default_rng(seed).normal(size=(50, X.shape[1]))
            X_test[0] = (
                0.0  # without an intercept its score is exactly 0: a tie, for classes_[0]
            )
            np.testing.assert_allclose(
                dual.decision_function(X_test),
                primal.decision_function(X_test),
                atol=1e-9,
            )
            np.testing.assert_array_equal(
                dual.predict(X_test), primal.predict(X_test)
            )


def test_callable_kernel_equals_the_named_kernel():
    X, y = kernel_perceptron_datasets()[0]
    named = KernelPerceptron(
        kernel="poly", degree=2, gamma=0.5, coef0=1.0, random_state=0
    ).fit(X, y)
    by_hand = KernelPerceptron(
        kernel=lambda A, B: (0.5 * A @ B.T + 1.0) ** 2, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(
        named.mistake_indices_, by_hand.mistake_indices_
    )
    np.testing.assert_allclose(
        named.decision_function(X), by_hand.decision_function(X)
    )


def quadratic_features(X, gamma, coef0):
    """Explicit feature map of the 2-D kernel (gamma x^T t + coef0)^2, with its sqrt(2) factors."""
    x1, x2 = X[:, 0], X[:, 1]
    linear = np.sqrt(2 * gamma * coef0)
    return np.c_[
        np.full(len(X), coef0),
        linear * x1,
        linear * x2,
        gamma * x1**2,
        gamma * x2**2,
        np.sqrt(2) * gamma * x1 * x2,
    ]


def concentric_circles(seed=0):
    rng = np.random.default_rng(seed)
    angle, radius = (
        rng.uniform(0, 2 * np.pi, 200),
        np.r_[np.full(100, 1.0), np.full(100, 2.0)],
    )
    X = np.c_[
        radius * np.cos(angle), radius * np.sin(angle)
    ] + 0.05 * rng.normal(size=(200, 2))
    return X, (radius > 1.5).astype(int)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_poly_kernel_perceptron_is_the_perceptron_on_the_explicit_feature_map(
    fit_intercept,
):
    # an independent route: the primal perceptron on phi(X) must make the same mistakes
    X, y = concentric_circles()
    Phi = quadratic_features(X, gamma=0.5, coef0=1.0)
    np.testing.assert_allclose(
        Phi @ Phi.T, (0.5 * X @ X.T + 1.0) ** 2, rtol=1e-12, atol=1e-12
    )
    for seed in range(3):
        params = dict(fit_intercept=fit_intercept, random_state=seed)
        dual = KernelPerceptron(
            kernel="poly", degree=2, gamma=0.5, coef0=1.0, **params
        ).fit(X, y)
        primal = Perceptron(tol=None, **params).fit(Phi, y)
        assert dual.score(X, y) == 1.0
        np.testing.assert_array_equal(
            dual.mistake_indices_, primal.mistake_indices_
        )
        X_test = np.random.default_rng(seed).uniform(-3, 3, size=(100, 2))
        np.testing.assert_allclose(
            dual.decision_function(X_test),
            primal.decision_function(quadratic_features(X_test, 0.5, 1.0)),
            atol=1e-9,
        )


def test_kernel_perceptron_rejects_a_kernel_that_is_not_psd():
    X, y = kernel_perceptron_datasets()[0]
    with pytest.raises(ValueError, match="not positive semi-definite"):
        KernelPerceptron(kernel=lambda A, B: -(A @ B.T)).fit(X, y)
    with pytest.raises(ValueError, match="not symmetric"):
        KernelPerceptron(kernel=lambda A, B: A @ (B + 1.0).T).fit(X, y)


def dnf_data(n, n_samples, seed):
    """The source notes' target x1 x2 x3 or (not x1)(not x3) or x2 x3, padded with irrelevant bits."""
    X = np.random.default_rng(seed).integers(0, 2, size=(n_samples, n))
    y = (
        (X[:, 0] & X[:, 1] & X[:, 2])
        | ((1 - X[:, 0]) & (1 - X[:, 2]))
        | (X[:, 1] & X[:, 2])
    )
    return X, y


@pytest.mark.parametrize("seed", range(10))
def test_conjunction_kernel_learns_a_dnf_within_the_perceptron_bound(seed):
    n = 6
    X, y = dnf_data(n, 200, seed)
    literals = np.c_[
        X, 1 - X
    ]  # k on [x, 1-x] counts conjunctions of literals: 2^(#agreements)
    np.testing.assert_array_equal(
        anova_kernel(literals), 2.0 ** (X[:, None, :] == X[None, :, :]).sum(-1)
    )
    model = KernelPerceptron(
        kernel="anova", fit_intercept=False, random_state=seed
    ).fit(literals, y)
    assert model.score(literals, y) == 1.0
    # terms get weight 2, the empty conjunction (a constant feature) -1: margin 1, ||u||^2 = 4*3 + 1
    assert model.n_updates_ <= (4 * 3 + 1) * 2**n


def test_the_same_dnf_is_not_linearly_separable():
    X, y = dnf_data(6, 200, 0)
    with pytest.warns(ConvergenceWarning):
        KernelPerceptron(kernel="linear", max_iter=30, random_state=0).fit(
            X, y
        )


def test_rbf_kernel_perceptron_separates_concentric_circles():
    X, y = concentric_circles()
    model = KernelPerceptron(kernel="rbf", gamma=1.0, random_state=0).fit(X, y)
    assert model.score(X, y) == 1.0
    with pytest.warns(ConvergenceWarning):
        KernelPerceptron(kernel="linear", max_iter=20, random_state=0).fit(
            X, y
        )


def test_kernel_perceptron_bad_input_and_untouched_inputs():
    X, y = kernel_perceptron_datasets()[0]
    with pytest.raises(NotFittedError):
        KernelPerceptron().predict(X)
    with pytest.raises(ValueError, match="Only binary classification"):
        KernelPerceptron().fit(X[:3], [0, 1, 2])
    with pytest.raises(ValueError, match="Unknown kernel"):
        KernelPerceptron(kernel="cosine").fit(X, y)
    with pytest.raises(ValueError, match="Gram matrix"):
        KernelPerceptron(kernel=lambda A, B: A @ B.T[:, :1]).fit(X, y)
    X_copy, y_copy = X.copy(), y.copy()
    KernelPerceptron(kernel="rbf", random_state=0).fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)
