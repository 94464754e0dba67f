"""mllib.decomposition.PCA against scikit-learn, the eigen-decomposition of the covariance, and its own
optimality properties (maximal variance, minimal reconstruction error)."""

import functools

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_digits, load_iris, load_wine
from sklearn.decomposition import PCA as SkPCA

from mllib.decomposition import PCA
from mllib.exceptions import NotFittedError


@functools.lru_cache
def _data(name):
    """A read-only data set (loaded once per session; read-only, so no test can alter it)."""
    if name == "wide":  # more features than samples: rank n - 1
        X = np.random.default_rng(1).normal(size=(30, 40)) @ np.diag(
            np.linspace(3, 0.5, 40)
        )
    elif name == "digits":  # 64 pixels, several of them constant
        X = load_digits().data[:600]
    else:
        X = {"iris": load_iris, "wine": load_wine, "diabetes": load_diabetes}[
            name
        ]().data
    X.flags.writeable = False
    return X


DATA = ["iris", "wine", "diabetes", "digits", "wide"]


def _well_separated(variances, rtol=1e-3):
    """How many leading components have non-zero variances, each distinct from its neighbours by a
    relative gap of at least rtol (so that their axes are determined up to sign)."""
    v = np.asarray(variances)
    count = 0
    for j in range(len(v)):
        neighbours = v[max(j - 1, 0) : j + 2]
        gaps = np.abs(neighbours - v[j])
        if (
            v[j] <= 1e-10 * v[0]
            or np.any(gaps[gaps != 0] < rtol * v[j])
            or np.sum(gaps == 0) > 1
        ):
            break
        count += 1
    return count


def _axis_tolerance(variances):
    """Perturbation theory for symmetric eigenproblems: an axis is accurate to about
    eps * lambda_1 / (gap to the nearest other eigenvalue) (Golub & Van Loan, Thm 8.1.12)."""
    v = np.asarray(variances)
    gaps = np.array(
        [np.min(np.abs(np.delete(v, j) - v[j])) for j in range(len(v))]
    )
    with np.errstate(divide="ignore"):  # a repeated eigenvalue: any tolerance
        return 1e4 * np.finfo(float).eps * v[0] / gaps + 1e-12


def _same_up_to_sign(A, B, atol):
    signs = np.sign(np.sum(A * B, axis=1))
    assert np.all(np.abs(A - signs[:, None] * B) <= np.reshape(atol, (-1, 1)))


@pytest.mark.parametrize("solver", ["full", "covariance_eigh"])
@pytest.mark.parametrize("name", DATA)
def test_matches_sklearn(name, solver):
    X = _data(name)
    theirs = SkPCA(svd_solver="full").fit(X)
    k = _well_separated(theirs.explained_variance_)
    assert k >= 4
    ours = PCA(n_components=k, svd_solver=solver).fit(X)
    scale = theirs.explained_variance_[0]
    np.testing.assert_allclose(
        ours.explained_variance_,
        theirs.explained_variance_[:k],
        rtol=1e-9,
        atol=1e-12 * scale,
    )
    np.testing.assert_allclose(
        ours.explained_variance_ratio_,
        theirs.explained_variance_ratio_[:k],
        rtol=1e-9,
        atol=1e-14,
    )
    np.testing.assert_allclose(
        ours.singular_values_,
        theirs.singular_values_[:k],
        rtol=1e-9,
        atol=1e-7 * theirs.singular_values_[0],
    )
    np.testing.assert_allclose(
        ours.mean_, theirs.mean_, rtol=1e-12, atol=1e-12
    )
    _same_up_to_sign(
        ours.components_,
        theirs.components_[:k],
        _axis_tolerance(theirs.explained_variance_)[:k],
    )
    assert (
        ours.n_components_ == k
        and ours.n_samples_ == len(X)
        and ours.n_features_in_ == X.shape[1]
    )


@pytest.mark.parametrize("whiten", [False, True])
@pytest.mark.parametrize("name", DATA)
def test_transform_and_inverse_transform_match_sklearn(name, whiten):
    X = _data(name)
    k = min(4, _well_separated(SkPCA().fit(X).explained_variance_))
    ours, theirs = (
        PCA(k, whiten=whiten).fit(X),
        SkPCA(k, whiten=whiten, svd_solver="full").fit(X),
    )
    signs = np.sign(np.sum(ours.components_ * theirs.components_, axis=1))
    X_new = X[::7] + 0.5
    Z = ours.transform(X_new)
    np.testing.assert_allclose(
        Z,
        theirs.transform(X_new) * signs,
        rtol=1e-7,
        atol=1e-8 * np.abs(Z).max(),
    )
    np.testing.assert_allclose(
        ours.fit_transform(X),
        theirs.fit_transform(X) * signs,
        rtol=1e-7,
        atol=1e-8 * np.abs(Z).max(),
    )
    np.testing.assert_allclose(  # called by keyword: X, as scikit-learn
        ours.inverse_transform(X=Z),
        theirs.inverse_transform(X=Z * signs),
        rtol=1e-9,
        atol=1e-9 * np.abs(X).max(),
    )


def test_sign_convention_is_deterministic_and_shared_by_both_solvers():
    X = load_wine().data
    full = PCA(svd_solver="full").fit(X).components_
    eig = PCA(svd_solver="covariance_eigh").fit(X).components_
    largest = full[np.arange(len(full)), np.argmax(np.abs(full), axis=1)]
    assert np.all(largest > 0)
    np.testing.assert_allclose(
        eig, full, atol=1e-6
    )  # same signs, not just up to sign
    shuffled = X[np.random.default_rng(0).permutation(len(X))]
    np.testing.assert_allclose(
        PCA(svd_solver="full").fit(shuffled).components_, full, atol=1e-9
    )
    np.testing.assert_allclose(
        PCA(svd_solver="full").fit(-X).components_, full, atol=1e-9
    )


@pytest.mark.parametrize("name", ["iris", "wine", "diabetes"])
def test_signs_equal_sklearn(name):
    X = _data(name)
    variances = SkPCA(svd_solver="full").fit(X).explained_variance_
    k = _well_separated(variances)
    theirs = SkPCA(k, svd_solver="full").fit(X)
    for solver in ("full", "covariance_eigh"):
        ours = PCA(k, svd_solver=solver).fit(X)
        difference = np.abs(
            ours.components_ - theirs.components_
        )  # the same signs, not up to sign
        assert np.all(difference <= _axis_tolerance(variances)[:k, None])


def test_worked_example_of_the_source_notes_recomputed():
    # Five samples of two features (the notes store them as columns); the notes divide by N = 5.
    X = np.array([[-1, -1, 0, 2, 0], [-2, 0, 0, 1, 1]], dtype=float).T
    pca = PCA().fit(X)
    np.testing.assert_allclose(
        pca.components_[0], np.array([1, 1]) / np.sqrt(2), atol=1e-12
    )
    # The second axis has two entries of equal magnitude: the sign convention ties and rounding
    # picks the sign, so only the axis up to sign is determined.
    second = pca.components_[1]
    np.testing.assert_allclose(
        second * np.sign(second[1]), np.array([-1, 1]) / np.sqrt(2), atol=1e-12
    )
    np.testing.assert_allclose(
        pca.explained_variance_ * 4 / 5, [2.0, 0.4], rtol=1e-12
    )  # 1/N as in the notes
    np.testing.assert_allclose(
        pca.explained_variance_, [2.5, 0.5], rtol=1e-12
    )  # 1/(N-1)
    np.testing.assert_allclose(
        pca.explained_variance_ratio_, [5 / 6, 1 / 6], rtol=1e-12
    )
    np.testing.assert_allclose(
        pca.transform(X)[:, 0],
        np.array([-3, -1, 0, 3, 1]) / np.sqrt(2),
        atol=1e-12,
    )
    one = PCA(n_components=1).fit(X)
    np.testing.assert_allclose(
        one.inverse_transform(one.transform(X)).T,
        [[-1.5, -0.5, 0, 1.5, 0.5]] * 2,
        atol=1e-12,
    )


@pytest.mark.parametrize("name", ["iris", "wine", "wide"])
def test_maximal_variance_and_minimal_reconstruction_error(name):
    X = _data(name)
    n, d = X.shape
    rng = np.random.default_rng(0)
    pca = PCA().fit(X)
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc / (n - 1)
    for j, (u, lam) in enumerate(
        zip(pca.components_[:3], pca.explained_variance_[:3])
    ):
        np.testing.assert_allclose(
            S @ u, lam * u, atol=1e-8 * pca.explained_variance_[0]
        )  # S u = λ u
        np.testing.assert_allclose(
            np.var(Xc @ u, ddof=1), lam, rtol=1e-9
        )  # variance λ
        # No unit vector orthogonal to the previous axes has a larger variance.
        V = rng.normal(size=(500, d))
        V -= (V @ pca.components_[:j].T) @ pca.components_[:j]
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        assert np.all(np.var(Xc @ V.T, axis=0, ddof=1) <= lam * (1 + 1e-9))
    for k in (1, 2, 3):
        model = PCA(n_components=k).fit(X)
        error = np.mean(
            np.sum(
                (X - model.inverse_transform(model.transform(X))) ** 2, axis=1
            )
        )
        discarded = pca.explained_variance_[k:].sum() * (n - 1) / n
        np.testing.assert_allclose(error, discarded, rtol=1e-8)
        # Any other k-dimensional subspace (through the mean) reconstructs worse.
        for _ in range(20):
            Q = np.linalg.qr(rng.normal(size=(d, k)))[0]
            assert np.mean(
                np.sum((Xc - Xc @ Q @ Q.T) ** 2, axis=1)
            ) >= error * (1 - 1e-12)


def test_whitened_training_data_have_identity_covariance():
    X = load_wine().data
    white, plain = (
        PCA(n_components=5, whiten=True).fit(X),
        PCA(n_components=5).fit(X),
    )
    Z = white.transform(X)
    # As scikit-learn: the axes are unchanged, only the scores are divided by sqrt(explained_variance_).
    np.testing.assert_allclose(
        white.components_, plain.components_, rtol=0, atol=0
    )
    np.testing.assert_allclose(
        Z, plain.transform(X) / np.sqrt(plain.explained_variance_), rtol=1e-12
    )
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(5), atol=1e-10)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-12)


@pytest.mark.parametrize("fraction", [0.3, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
@pytest.mark.parametrize("name", ["wine", "digits", "diabetes"])
def test_fraction_of_variance_chooses_k_as_sklearn(name, fraction):
    X = _data(name)
    ours, theirs = (
        PCA(n_components=fraction).fit(X),
        SkPCA(n_components=fraction, svd_solver="full").fit(X),
    )
    assert ours.n_components_ == theirs.n_components_
    assert ours.explained_variance_ratio_.sum() > fraction
    assert ours.explained_variance_ratio_[:-1].sum() <= fraction


def test_fraction_must_be_exceeded_not_just_reached():
    # Two orthogonal directions of equal variance: the ratios are exactly 1/2, so n_components=0.5
    # needs both components ("exceeds", scikit-learn's rule), not one.
    X = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    assert SkPCA(n_components=0.5, svd_solver="full").fit(X).n_components_ == 2
    for solver in ("full", "covariance_eigh"):
        pca = PCA(n_components=0.5, svd_solver=solver).fit(X)
        np.testing.assert_array_equal(
            PCA(svd_solver=solver).fit(X).explained_variance_ratio_, [0.5, 0.5]
        )
        assert pca.n_components_ == 2


def test_auto_dispatches_on_the_shape():
    rng = np.random.default_rng(0)
    tall, wide = rng.normal(size=(200, 5)), rng.normal(size=(40, 10))
    for X, solver in [(tall, "covariance_eigh"), (wide, "full")]:
        auto = PCA(svd_solver="auto").fit(X)
        chosen = PCA(svd_solver=solver).fit(X)
        np.testing.assert_array_equal(auto.components_, chosen.components_)
        np.testing.assert_array_equal(
            auto.explained_variance_, chosen.explained_variance_
        )


def test_covariance_solver_centres_first_so_a_large_offset_costs_no_accuracy():
    X = np.random.default_rng(0).normal(size=(500, 4)) * [3.0, 2.0, 1.0, 0.5]
    reference = PCA(svd_solver="full").fit(X)
    shifted = PCA(svd_solver="covariance_eigh").fit(X + 1e7)
    np.testing.assert_allclose(
        shifted.explained_variance_, reference.explained_variance_, rtol=1e-8
    )
    np.testing.assert_allclose(
        shifted.components_, reference.components_, atol=1e-7
    )


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(20, 3))
    for k in (0, 4, -1):
        with pytest.raises(ValueError, match="between 1 and min"):
            PCA(n_components=k).fit(X)
    for k in (1.5, 1.0, 0.0, "mle", True):
        with pytest.raises(ValueError, match="n_components must be None"):
            PCA(n_components=k).fit(X)
    with pytest.raises(ValueError, match="svd_solver must be one of"):
        PCA(svd_solver="randomized").fit(X)
    with pytest.raises(ValueError, match="at least 2 samples"):
        PCA().fit(X[:1])
    with pytest.raises(ValueError, match="zero variance"):
        PCA().fit(np.ones((5, 3)))
    with pytest.raises(ValueError, match="NaN"):
        PCA().fit(np.where(X > 1, np.nan, X))
    rank_two = X[:, :2] @ np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    with pytest.raises(
        ValueError, match="numerical rank 2, but n_components=3"
    ):
        PCA(whiten=True).fit(rank_two)
    PCA(n_components=2, whiten=True).fit(
        rank_two
    )  # the non-degenerate part is fine
    for method in ("transform", "inverse_transform"):
        with pytest.raises(NotFittedError):
            getattr(PCA(), method)(X)
    model = PCA(n_components=2).fit(X)
    with pytest.raises(ValueError, match="features"):
        model.transform(X[:, :2])
    with pytest.raises(ValueError, match="X has 3 columns"):
        model.inverse_transform(X)


def test_inputs_untouched():
    X = load_iris().data.copy()
    X0 = X.copy()
    for solver in ("full", "covariance_eigh"):
        model = PCA(n_components=2, whiten=True, svd_solver=solver).fit(X)
        Z = model.transform(X)
        Z0 = Z.copy()
        model.inverse_transform(Z)
        np.testing.assert_array_equal(Z, Z0)
    np.testing.assert_array_equal(X, X0)


# Probabilistic PCA (Tipping & Bishop 1999): x ~ N(mean_, C), C = WWᵀ + σ²I.

EPS = np.finfo(float).eps


def _random_data(seed, n, d):
    """Correlated Gaussian data with a non-zero mean and distinct spreads."""
    rng = np.random.default_rng(seed)
    mixing = rng.normal(size=(d, d)) * np.geomspace(3, 0.3, d)
    return rng.normal(size=(n, d)) @ mixing.T + rng.normal(size=d) * 5


def _ppca_cases():
    """(data name, n_components) pairs whose fitted Gaussian is not
    degenerate: k below the rank of the centred data (or k = d)."""
    cases = [("iris", 1), ("iris", 2), ("iris", 4), ("wine", 3)]
    cases += [("diabetes", 1), ("diabetes", 5), ("diabetes", 10)]
    cases += [("digits", 5), ("digits", 20), ("wide", 3), ("wide", 20)]
    for seed, (n, d) in enumerate([(50, 6), (200, 3), (40, 12)]):
        ks = sorted({1, d // 2, d})
        cases += [(f"random-{seed}-{n}-{d}", k) for k in ks]
    return cases


def _ppca_data(name):
    if name.startswith("random"):
        _, seed, n, d = name.split("-")
        return _random_data(int(seed), int(n), int(d))
    return _data(name)


def _ppca_tolerance(model):
    """Backward-stable eigenvalues are accurate to about eps * λ_1 (Golub &
    Van Loan, Thm 8.1.12, with a generous constant); the precision and the
    quadratic forms then carry the condition number λ_1 / (smallest
    eigenvalue of C)."""
    variances, noise = model.explained_variance_, model.noise_variance_
    smallest = noise if noise > 0 else variances[-1]
    condition = variances[0] / smallest
    return 1e4 * EPS * variances[0], 1e4 * EPS * condition


@pytest.mark.parametrize("whiten", [False, True])
@pytest.mark.parametrize("name,k", _ppca_cases())
def test_probabilistic_pca_matches_sklearn(name, k, whiten):
    X = _ppca_data(name)
    model = PCA(n_components=k, whiten=whiten, svd_solver="full").fit(X)
    # whiten changes only transform, not the model of x: compare with
    # scikit-learn's whiten=False (its whiten=True covariance is another
    # matrix; see test_whitening_does_not_change_the_model)
    reference = SkPCA(n_components=k, svd_solver="full").fit(X)
    atol, rtol = _ppca_tolerance(model)
    assert model.noise_variance_ == pytest.approx(
        reference.noise_variance_, abs=atol
    )
    np.testing.assert_allclose(
        model.get_covariance(), reference.get_covariance(), rtol=0, atol=atol
    )
    precision = reference.get_precision()
    np.testing.assert_allclose(
        model.get_precision(),
        precision,
        rtol=0,
        atol=rtol * np.abs(precision).max(),
    )
    scores = reference.score_samples(X)
    np.testing.assert_allclose(
        model.score_samples(X),
        scores,
        rtol=0,
        atol=rtol * (np.abs(scores).max() + X.shape[1]),
    )
    assert model.score(X) == pytest.approx(
        np.mean(model.score_samples(X)), rel=1e-12
    )


@pytest.mark.parametrize("name,k", _ppca_cases())
def test_noise_variance_is_the_mean_of_the_discarded_eigenvalues(name, k):
    X = _ppca_data(name)
    n, d = X.shape
    model = PCA(n_components=k).fit(X)
    eigenvalues = np.linalg.eigvalsh(np.cov(X.T))[::-1][: min(n, d)]
    expected = eigenvalues[k:].mean() if k < min(n, d) else 0.0
    assert model.noise_variance_ == pytest.approx(
        expected, abs=1e4 * EPS * eigenvalues[0]
    )


@pytest.mark.parametrize("name,k", _ppca_cases())
def test_precision_inverts_covariance_and_scores_are_gaussian_logpdf(name, k):
    from scipy.stats import multivariate_normal

    X = _ppca_data(name)
    model = PCA(n_components=k).fit(X)
    covariance = model.get_covariance()
    _, rtol = _ppca_tolerance(model)
    inverse = np.linalg.solve(covariance, np.eye(len(covariance)))
    np.testing.assert_allclose(
        model.get_precision(),
        inverse,
        rtol=0,
        atol=rtol * np.abs(inverse).max(),
    )
    logpdf = multivariate_normal(model.mean_, covariance).logpdf(X[:100])
    np.testing.assert_allclose(
        model.score_samples(X[:100]),
        logpdf,
        rtol=0,
        atol=rtol * (np.abs(logpdf).max() + X.shape[1]),
    )


def test_whitening_does_not_change_the_model():
    X = _random_data(3, 300, 5)
    plain = PCA(n_components=2).fit(X)
    white = PCA(n_components=2, whiten=True).fit(X)
    for method in ("get_covariance", "get_precision"):
        np.testing.assert_allclose(
            getattr(white, method)(), getattr(plain, method)(), atol=1e-12
        )
    np.testing.assert_allclose(
        white.score_samples(X), plain.score_samples(X), rtol=1e-12
    )
    # With n > d the model covariance keeps the data's total variance,
    # tr C = Σ_{j≤k} λ_j + (d - k)σ²; scikit-learn's whiten=True covariance
    # (its issue #13898) scales the kept part by λ_j and fits worse.
    assert np.trace(white.get_covariance()) == pytest.approx(
        np.trace(np.cov(X.T)), rel=1e-12
    )
    sk_white = SkPCA(n_components=2, whiten=True).fit(X)
    assert white.score(X) > sk_white.score(X)


def _mean_log_likelihood(X, mean, W, noise):
    from scipy.stats import multivariate_normal

    covariance = W @ W.T + noise * np.eye(len(W))
    return multivariate_normal(mean, covariance).logpdf(X).mean()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 4])
def test_maximum_likelihood_solution_maximises_the_likelihood(seed, k):
    """Tipping & Bishop's W = U_k(Λ_k - σ²I)^{1/2}R, σ² = mean of the
    discarded eigenvalues maximise the likelihood when S has divisor n (the
    maximum-likelihood covariance); mllib, as scikit-learn, reports S with
    divisor n - 1, so its parameters are scaled by (n - 1)/n first."""
    X = _random_data(seed, 120, 6)
    n, d = X.shape
    model = PCA(n_components=k).fit(X)
    shrink = (n - 1) / n
    noise = shrink * model.noise_variance_
    W = model.components_.T * np.sqrt(
        shrink * model.explained_variance_ - noise
    )
    best = _mean_log_likelihood(X, model.mean_, W, noise)
    # closed form at the optimum: tr(C⁻¹S) = d
    log_det = np.sum(np.log(shrink * model.explained_variance_))
    log_det += (d - k) * np.log(noise)
    closed_form = -0.5 * (d * np.log(2 * np.pi) + log_det + d)
    assert best == pytest.approx(closed_form, abs=1e-10 * abs(closed_form))
    # the fitted model (divisor n - 1) is the same up to that scaling
    assert model.score(X) <= best
    rng = np.random.default_rng(seed)
    rotation, _ = np.linalg.qr(rng.normal(size=(k, k)))
    assert _mean_log_likelihood(
        X, model.mean_, W @ rotation, noise
    ) == pytest.approx(best, abs=1e-10 * abs(best))
    # every perturbation of σ², W or the mean lowers the likelihood (a
    # maximum: second-order decrease, far above rounding at this size)
    step = 1e-2
    for factor in (1 - step, 1 + step):
        assert _mean_log_likelihood(X, model.mean_, W, noise * factor) < best
    for _ in range(5):
        direction = rng.normal(size=W.shape)
        direction *= step * np.linalg.norm(W) / np.linalg.norm(direction)
        for sign in (-1, 1):
            assert (
                _mean_log_likelihood(
                    X, model.mean_, W + sign * direction, noise
                )
                < best
            )
    shifted = model.mean_ + step * rng.normal(size=d)
    assert _mean_log_likelihood(X, shifted, W, noise) < best


def test_probabilistic_pca_bad_input():
    X = _random_data(0, 30, 4)
    for method in ("get_covariance", "get_precision"):
        with pytest.raises(NotFittedError):
            getattr(PCA(), method)()
    for method in ("score", "score_samples"):
        with pytest.raises(NotFittedError):
            getattr(PCA(), method)(X)
    with pytest.raises(ValueError, match="features"):
        PCA(n_components=2).fit(X).score(X[:, :3])
    # n < d with every component kept: the centred data have rank n - 1, so
    # C is singular and has no density
    wide = _data("wide")
    for k in (None, len(wide) - 1):
        model = PCA(n_components=k).fit(wide)
        for method in ("get_precision", "score_samples", "score"):
            args = () if method == "get_precision" else (wide,)
            with pytest.raises(ValueError, match="degenerate"):
                getattr(model, method)(*args)
        model.get_covariance()  # the covariance exists, singular


def test_model_selection_by_likelihood_as_in_sklearns_gallery():
    """scikit-learn's "Model selection with Probabilistic PCA and Factor
    Analysis" example, with mllib's PCA: cross-validated scores (PCA.score)
    and GridSearchCV's choice of n_components (in a Pipeline after
    StandardScaler) agree with scikit-learn's, and the cross-validated
    likelihood recovers the rank of the low-rank-plus-noise data."""
    from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(42)
    n, d, rank = 300, 20, 5
    U, _, _ = np.linalg.svd(rng.normal(size=(d, d)))
    X = rng.normal(size=(n, rank)) @ U[:, :rank].T * 3
    X += rng.normal(size=(n, d))  # homoscedastic noise
    folds = KFold(5, shuffle=True, random_state=0)
    ks = list(range(1, 15))
    ours = [cross_val_score(PCA(k), X, cv=folds).mean() for k in ks]
    theirs = [cross_val_score(SkPCA(k), X, cv=folds).mean() for k in ks]
    np.testing.assert_allclose(ours, theirs, rtol=1e-9)
    assert ks[int(np.argmax(ours))] == rank
    grid = {"pca__n_components": ks}
    searches = [
        GridSearchCV(make_pipeline(StandardScaler(), model), grid, cv=folds)
        for model in (PCA(), SkPCA())
    ]
    for search in searches:
        search.fit(X)
    # standardising makes the noise heteroscedastic, so no rank claim here:
    # the two searches must simply agree
    assert searches[0].best_params_ == searches[1].best_params_
    assert searches[0].best_score_ == pytest.approx(
        searches[1].best_score_, rel=1e-9
    )
