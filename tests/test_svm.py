"""mllib.svm: SMO against libsvm (scikit-learn's SVC), the dual's optimality conditions, Pegasos."""

import warnings

import numpy as np
import pytest
from sklearn import svm as sk_svm
from sklearn.datasets import load_breast_cancer, load_iris, make_moons

from mllib.exceptions import ConvergenceWarning, NotFittedError
from mllib.kernels import anova_kernel, pairwise_kernels, rbf_kernel
from mllib.svm import SVC, PegasosSVM, hinge_objective, smo
from mllib.svm.kernel_cache import KernelRows


def _standardise(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _moons():
    return make_moons(200, noise=0.3, random_state=0)


def _cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return _standardise(X), y


def _iris_versicolor_virginica():
    X, y = load_iris(return_X_y=True)
    keep = y > 0
    return X[keep], np.where(y[keep] == 1, "versicolor", "virginica")


DATASETS = {
    "moons": _moons,
    "cancer": _cancer,
    "iris": _iris_versicolor_virginica,
}


def _alpha_and_signs(model, n):
    """Full-length alpha and the +-1 labels recovered from a fitted SVC (ours or scikit-learn's)."""
    coef = np.zeros(n)
    coef[model.support_] = model.dual_coef_[0]
    return np.abs(coef), coef


def _dual_objective(alpha_y, K):
    return np.abs(alpha_y).sum() - 0.5 * alpha_y @ K @ alpha_y


def _max_kkt_violation(alpha, signs, K, C):
    """max_{I_up} v - min_{I_low} v with v = y - K(alpha*y), recomputed from scratch."""
    v = signs - K @ (alpha * signs)
    up = np.where(signs > 0, alpha < C, alpha > 0)
    low = np.where(signs < 0, alpha < C, alpha > 0)
    return v[up].max() - v[low].min()


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize(
    "kernel, C",
    [
        ("rbf", 0.1),
        ("rbf", 1.0),
        ("rbf", 10.0),
        ("linear", 1.0),
        ("poly", 1.0),
    ],
)
def test_matches_libsvm_and_is_optimal(dataset, kernel, C):
    X, y = DATASETS[dataset]()
    ours = SVC(C=C, kernel=kernel, tol=1e-8).fit(X, y)
    theirs = sk_svm.SVC(C=C, kernel=kernel, tol=1e-8).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    np.testing.assert_array_equal(
        ours.support_vectors_, theirs.support_vectors_
    )
    # libsvm caches kernel values in single precision, so it agrees only to ~1e-6 relative
    np.testing.assert_allclose(
        ours.dual_coef_, theirs.dual_coef_, rtol=0, atol=1e-4 * max(C, 1)
    )
    np.testing.assert_allclose(
        ours.intercept_, theirs.intercept_, rtol=1e-4, atol=1e-5
    )
    np.testing.assert_allclose(
        ours.decision_function(X),
        theirs.decision_function(X),
        rtol=1e-4,
        atol=1e-4,
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    if kernel == "linear":
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-4)

    # Optimality in exact (double) arithmetic: dual at least libsvm's, KKT conditions, primal = dual
    K = pairwise_kernels(
        X, X, kernel, gamma=1 / (X.shape[1] * X.var()), degree=3, coef0=0.0
    )
    signs = np.where(y == ours.classes_[1], 1.0, -1.0)
    alpha, alpha_y = _alpha_and_signs(ours, len(y))
    dual = _dual_objective(alpha_y, K)
    assert dual >= _dual_objective(
        _alpha_and_signs(theirs, len(y))[1], K
    ) - 1e-10 * abs(dual)
    assert np.all((alpha >= 0) & (alpha <= C)) and abs(
        alpha_y.sum()
    ) < 1e-10 * C * len(y)
    assert _max_kkt_violation(alpha, signs, K, C) < 1e-7
    margins = signs * ours.decision_function(X)
    free = (alpha > 0) & (alpha < C)
    assert np.all(margins[alpha == 0] >= 1 - 1e-6) and np.all(
        margins[alpha == C] <= 1 + 1e-6
    )
    np.testing.assert_allclose(margins[free], 1.0, atol=1e-6)
    primal = 0.5 * alpha_y @ K @ alpha_y + C * np.maximum(0, 1 - margins).sum()
    assert abs(primal - dual) < 1e-6 * max(1.0, abs(dual))


def test_loose_tolerance_stops_where_libsvm_does():
    X, y = _moons()
    ours = SVC(C=1.0).fit(X, y)  # default tol=1e-3, as libsvm's eps
    theirs = sk_svm.SVC(C=1.0).fit(X, y)
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), atol=2e-3
    )
    K = rbf_kernel(X, gamma=1 / (2 * X.var()))
    alpha, _ = _alpha_and_signs(ours, len(y))
    assert _max_kkt_violation(alpha, 2.0 * y - 1, K, 1.0) < 1e-3


def test_callable_kernel_and_precomputed_rows_agree_with_libsvm():
    X, y = _moons()
    ours = SVC(C=2.0, kernel=anova_kernel, tol=1e-8).fit(X, y)
    theirs = sk_svm.SVC(C=2.0, kernel=anova_kernel, tol=1e-8).fit(X, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), atol=1e-4
    )


@pytest.mark.parametrize(
    "kernel, params",
    [
        ("linear", {}),
        ("poly", dict(gamma=0.3, degree=3, coef0=1.0)),
        ("rbf", dict(gamma=0.7)),
    ],
)
def test_kernel_rows_equal_the_gram_matrix(rng, kernel, params):
    X = 1e4 + rng.normal(
        size=(40, 3)
    )  # offset: uncentred rbf rows would lose ~8 digits
    K = pairwise_kernels(X, X, kernel, **params)
    rows = KernelRows(
        X, kernel, cache_size=0.001, **params
    )  # room for 3 rows only
    assert rows.capacity == 3
    for i in [0, 5, 39, 5, 0, 12, 33, 0]:
        np.testing.assert_allclose(rows[i], K[i], rtol=1e-10, atol=1e-10)
    assert list(rows.rows) == [
        12,
        33,
        0,
    ]  # the least recently used rows were evicted
    np.testing.assert_allclose(rows.diagonal(), np.diag(K), rtol=1e-12)


def test_hard_margin_reproduces_the_preliminaries_example():
    X = np.array(
        [
            [2.0, 2.0],
            [3.0, 3.0],
            [3.0, 1.0],
            [0.0, 0.5],
            [1.0, 0.0],
            [0.0, 2.0],
            [-1.0, 1.0],
        ]
    )
    y = np.array([1, 1, 1, -1, -1, -1, -1])
    model = SVC(C=np.inf, kernel="linear", tol=1e-12).fit(X, y)
    np.testing.assert_array_equal(np.sort(model.support_), [0, 4, 5])
    alpha = np.zeros(7)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    np.testing.assert_allclose(
        alpha[[0, 4, 5]], [5 / 8, 1 / 4, 3 / 8], atol=1e-12
    )
    np.testing.assert_allclose(model.coef_, [[1.0, 0.5]], atol=1e-12)
    np.testing.assert_allclose(model.intercept_, [-2.0], atol=1e-12)
    assert np.isclose(
        alpha.sum(), model.coef_[0] @ model.coef_[0]
    )  # sum(alpha) = ||w||^2


def test_hard_margin_equals_large_C_libsvm_on_separable_data():
    X, y = load_iris(return_X_y=True)
    X, y = X[y < 2, :2], y[y < 2]  # setosa vs versicolor: separable
    ours = SVC(C=np.inf, kernel="linear", tol=1e-10).fit(X, y)
    theirs = sk_svm.SVC(C=1e8, kernel="linear", tol=1e-10).fit(X, y)
    np.testing.assert_allclose(
        ours.coef_, theirs.coef_, rtol=1e-4
    )  # w and b are unique; alpha need not be
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-4)
    margins = np.where(y == 1, 1, -1) * ours.decision_function(X)
    assert margins.min() > 1 - 1e-8 and np.isclose(
        margins.min(), 1.0, atol=1e-8
    )


def test_hard_margin_on_non_separable_data_raises():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="not separable in the feature space"):
        SVC(C=np.inf, kernel="linear").fit(X[y > 0, :2], y[y > 0])
    SVC(C=np.inf, kernel="rbf", gamma=10.0).fit(
        X[y > 0, :2] + 1e-3 * np.arange(100)[:, None], y[y > 0]
    )
    # A repeated point with both labels: no kernel separates it
    with pytest.raises(ValueError, match="not separable in the feature space"):
        SVC(C=np.inf, kernel="rbf").fit(
            np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 0.0]]),
            [0, 0, 1, 1],
        )


def test_coef_only_for_the_linear_kernel_even_after_a_refit():
    X, y = _iris_versicolor_virginica()
    model = SVC(kernel="linear", tol=1e-8).fit(X, y)
    np.testing.assert_allclose(
        model.coef_,
        sk_svm.SVC(kernel="linear", tol=1e-8).fit(X, y).coef_,
        rtol=1e-4,
    )
    model.set_params(kernel="rbf").fit(X, y)
    with pytest.raises(AttributeError, match="only for kernel='linear'"):
        model.coef_
    with pytest.raises(NotFittedError):
        SVC(kernel="linear").coef_


def test_smo_history_is_monotone_and_exact():
    X, y = _moons()
    K = rbf_kernel(X, gamma=0.5)
    signs = 2.0 * y - 1
    result = smo(K, signs, 1.0, tol=1e-8)
    assert result.converged and result.n_iter == len(result.history["dual"])
    assert np.all(
        np.diff(result.history["dual"]) >= -1e-12
    )  # each SMO step increases D
    alpha_y = result.alpha * signs
    assert np.isclose(
        result.history["dual"][-1], _dual_objective(alpha_y, K), rtol=1e-10
    )
    assert (
        result.history["violation"][-1]
        < 1e-8
        <= result.history["violation"][0]
    )


@pytest.mark.parametrize("C", [1.0, 10.0])
def test_shrinking_reaches_the_same_optimum(C):
    # more than n steps: multipliers are set aside, and checked at the end
    X, y = make_moons(300, noise=0.3, random_state=1)
    K, signs = rbf_kernel(X, gamma=2.0), 2.0 * y - 1
    shrunk = smo(K, signs, C, tol=1e-6)
    full = smo(K, signs, C, tol=1e-6, shrinking=False)
    assert shrunk.converged and shrunk.n_iter > len(y)
    v = signs - K @ (shrunk.alpha * signs)  # from scratch
    up = np.where(signs > 0, shrunk.alpha < C, shrunk.alpha > 0)
    low = np.where(signs < 0, shrunk.alpha < C, shrunk.alpha > 0)
    assert v[up].max() - v[low].min() < 1e-6  # every multiplier is optimal
    dual = [_dual_objective(r.alpha * signs, K) for r in (shrunk, full)]
    assert dual[0] == pytest.approx(dual[1], rel=1e-8)
    np.testing.assert_array_equal(shrunk.alpha > 0, full.alpha > 0)
    assert shrunk.intercept == pytest.approx(full.intercept, abs=1e-5)


def _platt_step(K, y, C, alpha, i, j):
    """Platt's form of the step on the pair (i, j), written independently of mllib: alpha_j moves to its
    unconstrained optimum and is clipped to [L, H]; alpha_i follows from sum_t y_t alpha_t = const."""
    v = y - K @ (alpha * y)
    if y[i] != y[j]:
        L, H = max(0.0, alpha[j] - alpha[i]), min(C, C + alpha[j] - alpha[i])
    else:
        L, H = max(0.0, alpha[i] + alpha[j] - C), min(C, alpha[i] + alpha[j])
    new = alpha.copy()
    new[j] = np.clip(
        alpha[j] - y[j] * (v[i] - v[j]) / (K[i, i] + K[j, j] - 2 * K[i, j]),
        L,
        H,
    )
    new[i] = alpha[i] + y[i] * y[j] * (alpha[j] - new[j])
    return new, new[j] in (L, H)


def test_each_smo_step_is_a_wss3_pair_and_platts_clipped_step():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(14, 2))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=14) > 0, 1.0, -1.0)
    K, C = rbf_kernel(X, gamma=0.7), 0.4
    previous, equal_labels, clipped = np.zeros(14), 0, 0
    for k in range(1, 40):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            result = smo(
                K, y, C, tol=1e-12, max_iter=k
            )  # deterministic: its first k-1 steps led to previous
        if result.n_iter < k:
            break
        # The state before step k, recomputed from scratch (not from SMO's cached v)
        v = y - K @ (previous * y)
        up = np.where(y > 0, previous < C, previous > 0)
        low = np.where(y < 0, previous < C, previous > 0)
        moved = np.flatnonzero(result.alpha != previous)
        assert len(moved) == 2
        i, j = sorted(
            moved, key=lambda t: -v[t]
        )  # the multiplier moved along +y_t has the larger v
        assert (
            up[i] and v[i] >= v[up].max() - 1e-12
        )  # i: maximal violation (ties broken either way)
        gain = np.where(
            low & (v < v[i]),
            (v[i] - v) ** 2
            / np.maximum(K[i, i] + np.diag(K) - 2 * K[i], 1e-12),
            0,
        )
        assert low[j] and gain[j] >= gain.max() * (
            1 - 1e-9
        )  # j: the second-order (WSS3) choice
        expected, at_bound = _platt_step(K, y, C, previous, i, j)
        np.testing.assert_allclose(result.alpha, expected, rtol=0, atol=1e-12)
        equal_labels += y[i] == y[j]
        clipped += at_bound
        previous = result.alpha
    assert (
        k > 10 and equal_labels > 0 and clipped > 0
    )  # both clipping cases were exercised


def test_max_iter_warns():
    X, y = _moons()
    with pytest.warns(ConvergenceWarning, match="max_iter=5"):
        model = SVC(max_iter=5).fit(X, y)
    assert model.n_iter_[0] == 5


@pytest.mark.parametrize("gamma", ["scale", "auto", 0.3])
def test_gamma_options_match_libsvm(gamma):
    X, y = _iris_versicolor_virginica()
    ours = SVC(gamma=gamma, tol=1e-8).fit(X, y)
    theirs = sk_svm.SVC(gamma=gamma, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), atol=1e-4
    )


def test_bad_input():
    X, y = _moons()
    with pytest.raises(
        ValueError, match="Only binary classification is supported"
    ):
        SVC().fit(X, y + (np.arange(len(y)) % 3 == 0))
    with pytest.raises(ValueError, match="only one class"):
        SVC().fit(X, np.ones(len(y)))
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        SVC().fit(X, y + 0.5)
    not_psd = lambda A, B: np.tanh(A @ B.T - 1.0)  # the "sigmoid kernel"
    with pytest.raises(ValueError, match="not positive semi-definite"):
        SVC(kernel=not_psd).fit(X, y)
    with pytest.raises(ValueError, match="not positive semi-definite"):
        SVC(kernel="poly", coef0=-3.0, degree=3).fit(X, y)
    with pytest.raises(
        ValueError,
        match='kernel must be "linear", "poly", "rbf" or a callable',
    ):
        SVC(kernel="sigmoid").fit(X, y)
    for params, message in [
        (dict(C=0.0), "C must be in"),
        (dict(C=-1.0), "C must be in"),
        (dict(tol=0.0), "tol must be in"),
        (dict(max_iter=0), "max_iter"),
        (dict(gamma="wide"), "gamma must be"),
        (dict(gamma=-1.0), "gamma must be in"),
    ]:
        with pytest.raises(ValueError, match=message):
            SVC(**params).fit(X, y)
    with pytest.raises(NotFittedError):
        SVC().predict(X)
    model = SVC().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :1])
    with pytest.raises(AttributeError):
        model.coef_  # only for the linear kernel


def test_inputs_untouched_and_string_labels():
    X, y = _iris_versicolor_virginica()
    X0, y0 = X.copy(), y.copy()
    model = SVC(kernel="linear").fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert set(model.predict(X)) <= {"versicolor", "virginica"}
    assert model.score(X, y) > 0.9


# --- Pegasos ---------------------------------------------------------------------------------


def _symmetric_blobs(n=200, seed=0):
    """Data closed under (x, y) -> (-x, -y): the optimal SVC intercept is exactly 0."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n // 2, 2)) + [1.0, 0.5]
    return np.vstack([X, -X]), np.r_[np.ones(n // 2), -np.ones(n // 2)]


def test_pegasos_reaches_the_exact_optimum():
    X, y = _symmetric_blobs()
    lam = 0.05
    exact = SVC(kernel="linear", C=1 / (len(y) * lam), tol=1e-10).fit(X, y)
    assert (
        abs(exact.intercept_[0]) < 1e-8
    )  # so no-intercept Pegasos has the same optimum
    optimum = hinge_objective(exact.coef_[0], X, y, lam)
    model = PegasosSVM(
        lam=lam, n_iter=20_000, batch_size=8, random_state=0
    ).fit(X, y)
    gap = hinge_objective(model.coef_[0], X, y, lam) - optimum
    assert 0 <= gap < 2e-3 * optimum
    np.testing.assert_allclose(model.coef_, exact.coef_, rtol=0.05)
    assert model.objective_curve_[-1] == hinge_objective(
        model.coef_[0], X, y, lam
    )
    early = model.objective_curve_[model.objective_steps_ <= 20].min()
    assert early - optimum > 10 * gap  # the suboptimality shrinks with t


def test_pegasos_against_liblinear_without_intercept():
    X, y = _cancer()
    lam = 1e-2
    exact = sk_svm.LinearSVC(
        loss="hinge",
        C=1 / (len(y) * lam),
        fit_intercept=False,
        tol=1e-10,
        max_iter=200_000,
        dual=True,
    ).fit(X, y)
    signs = 2.0 * y - 1
    optimum = hinge_objective(exact.coef_[0], X, signs, lam)
    model = PegasosSVM(
        lam=lam, n_iter=5_000, batch_size=32, random_state=1
    ).fit(X, y)
    assert (
        0
        <= hinge_objective(model.coef_[0], X, signs, lam) - optimum
        < 0.02 * optimum
    )
    assert model.intercept_[0] == 0


def test_pegasos_first_steps_by_hand():
    X, y = (
        np.array([[2.0, 0.0], [-2.0, 0.0]]),
        np.array([1, -1]),
    )  # y x = (2, 0) for both samples
    lam = 0.5
    model = PegasosSVM(lam=lam, n_iter=1, projection=False).fit(X, y)
    np.testing.assert_allclose(
        model.coef_, [[1 / lam * 2.0, 0.0]]
    )  # w_1 = eta_1 y x, eta_1 = 1/lam
    # the margin is now 8 >= 1, so step 2 only shrinks: w_2 = (1 - 1/2) w_1
    np.testing.assert_allclose(
        PegasosSVM(lam=lam, n_iter=2, projection=False).fit(X, y).coef_,
        [[2.0, 0.0]],
    )
    # with the projection, ||w|| <= 1/sqrt(lam) after every step
    projected = PegasosSVM(lam=lam, n_iter=1).fit(X, y)
    np.testing.assert_allclose(
        np.linalg.norm(projected.coef_), 1 / np.sqrt(lam)
    )


def test_pegasos_reproducible_and_bad_input():
    X, y = _moons()
    a = PegasosSVM(lam=0.1, n_iter=300, batch_size=4, random_state=3).fit(X, y)
    b = PegasosSVM(lam=0.1, n_iter=300, batch_size=4, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(
        a.coef_,
        PegasosSVM(lam=0.1, n_iter=300, batch_size=4, random_state=4)
        .fit(X, y)
        .coef_,
    )
    for params, message in [
        (dict(lam=0.0), "lam must be in"),
        (dict(n_iter=0), "n_iter"),
        (dict(batch_size=2.5), "batch_size"),
    ]:
        with pytest.raises(ValueError, match=message):
            PegasosSVM(**params).fit(X, y)
    with pytest.raises(ValueError, match="Only binary classification"):
        PegasosSVM().fit(X, np.arange(len(y)) % 3)
    with pytest.raises(NotFittedError):
        PegasosSVM().decision_function(X)
    X0 = X.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PegasosSVM(n_iter=10).fit(X, y)
    np.testing.assert_array_equal(X, X0)
