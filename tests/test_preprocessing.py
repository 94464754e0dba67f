"""StandardScaler and PolynomialFeatures against scikit-learn."""

import numpy as np
import pytest
from batches import random_batches
from sample_weights import check_bad_weights_raise
from sklearn import preprocessing as sk
from sklearn.datasets import load_diabetes, load_wine

from mllib.exceptions import NotFittedError
from mllib.preprocessing import PolynomialFeatures, StandardScaler


def datasets():
    rng = np.random.default_rng(3)
    with_constant = rng.normal(loc=5.0, scale=2.0, size=(30, 4))
    with_constant[:, 2] = 7.3  # a constant column must be left unscaled
    return {
        "wine": load_wine(return_X_y=True)[0],
        "diabetes": load_diabetes(return_X_y=True)[0],
        "constant-column": with_constant,
        "offset": 1e6 + rng.normal(size=(20, 3)),  # large mean, small spread
    }


DATASETS = datasets()


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize(
    "with_mean, with_std",
    [(True, True), (True, False), (False, True), (False, False)],
)
def test_standard_scaler_matches_sklearn(name, with_mean, with_std):
    X = DATASETS[name]
    ours = StandardScaler(with_mean=with_mean, with_std=with_std).fit(X)
    ref = sk.StandardScaler(with_mean=with_mean, with_std=with_std).fit(X)
    for attribute in ("mean_", "var_", "scale_"):
        mine, theirs = getattr(ours, attribute), getattr(ref, attribute)
        assert (mine is None) == (theirs is None), attribute
        if mine is not None:
            np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-12)
    assert ours.n_samples_seen_ == ref.n_samples_seen_
    Z = ours.transform(X)
    np.testing.assert_allclose(Z, ref.transform(X), rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(
        ours.inverse_transform(Z), X, rtol=1e-12, atol=1e-9
    )
    np.testing.assert_allclose(ours.fit_transform(X), Z)


def test_standardised_training_data_has_zero_mean_and_unit_variance():
    X = DATASETS["constant-column"]
    Z = StandardScaler().fit_transform(X)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(axis=0), [1, 1, 0, 1], atol=1e-12)
    assert StandardScaler().fit(X).scale_[2] == 1.0


def test_scaler_uses_training_statistics_on_new_data():
    X_train, X_test = DATASETS["wine"][:100], DATASETS["wine"][100:]
    scaler = StandardScaler().fit(X_train)
    np.testing.assert_allclose(
        scaler.transform(X_test), (X_test - X_train.mean(0)) / X_train.std(0)
    )


@pytest.mark.parametrize("degree", [0, 1, 2, 3])
@pytest.mark.parametrize("interaction_only", [False, True])
@pytest.mark.parametrize("include_bias", [False, True])
def test_polynomial_features_match_sklearn(
    degree, interaction_only, include_bias
):
    if degree == 0 and not include_bias:
        pytest.raises(
            ValueError,
            PolynomialFeatures(0, include_bias=False).fit,
            np.ones((2, 2)),
        )
        return
    X = np.random.default_rng(degree).normal(size=(9, 3))
    params = dict(
        degree=degree,
        interaction_only=interaction_only,
        include_bias=include_bias,
    )
    ours, ref = (
        PolynomialFeatures(**params).fit(X),
        sk.PolynomialFeatures(**params).fit(X),
    )
    np.testing.assert_array_equal(ours.powers_, ref.powers_)
    assert ours.n_output_features_ == ref.n_output_features_
    np.testing.assert_allclose(ours.transform(X), ref.transform(X), rtol=1e-13)
    assert list(ours.get_feature_names_out()) == list(
        ref.get_feature_names_out()
    )
    assert list(ours.get_feature_names_out(["a", "b", "c"])) == list(
        ref.get_feature_names_out(["a", "b", "c"])
    )


def test_polynomial_features_of_one_feature_are_the_vandermonde_matrix():
    x = np.linspace(-1, 2, 7)
    Phi = PolynomialFeatures(degree=4).fit_transform(x[:, None])
    np.testing.assert_allclose(
        Phi, np.vander(x, 5, increasing=True), rtol=1e-14
    )


def test_polynomial_features_count_is_a_binomial_coefficient():
    from math import comb

    for d, degree in [(1, 5), (3, 3), (5, 2)]:
        model = PolynomialFeatures(degree).fit(np.ones((1, d)))
        assert model.n_output_features_ == comb(d + degree, d)
        assert np.all(model.powers_.sum(axis=1) <= degree)
        assert len(np.unique(model.powers_, axis=0)) == len(model.powers_)


@pytest.mark.parametrize(
    "transformer", [StandardScaler(), PolynomialFeatures(3)], ids=repr
)
def test_transformers_validate_input_and_never_modify_it(transformer):
    X = np.random.default_rng(0).normal(size=(6, 2))
    before = X.copy()
    with pytest.raises(NotFittedError):
        transformer.transform(X)
    transformer.fit(X).transform(X)
    np.testing.assert_array_equal(X, before)
    with pytest.raises(
        ValueError, match="X has 3 features, but .* expecting 2 features"
    ):
        transformer.transform(np.ones((2, 3)))
    with pytest.raises(ValueError, match="NaN|infinity"):
        transformer.fit(np.array([[1.0, np.nan], [2.0, 3.0]]))
    with pytest.raises(ValueError, match="Expected 2D array"):
        transformer.fit(np.arange(4.0))


@pytest.mark.parametrize("degree", [-1, 2.5, True, "2"])
def test_polynomial_features_reject_bad_degree(degree):
    with pytest.raises(
        ValueError, match="degree must be a non-negative integer"
    ):
        PolynomialFeatures(degree).fit(np.ones((2, 2)))


def test_feature_names_need_fit_and_the_right_count():
    with pytest.raises(NotFittedError):
        PolynomialFeatures().get_feature_names_out()
    with pytest.raises(
        ValueError,
        match="input_features should have length equal to number of features",
    ):
        PolynomialFeatures().fit(np.ones((2, 2))).get_feature_names_out(["a"])


# ---- sample weights and partial_fit ----------------------------------------


def assert_same_statistics(a, b, X):
    """Equal up to rounding: sums in another order err by a few ulps of the
    largest |x| (means, scales) or of |x| times the spread (variances); a
    relative tolerance alone fails on means and variances that are 0 up to
    rounding (centred data, constant columns)."""
    assert a.n_samples_seen_ == pytest.approx(b.n_samples_seen_, rel=1e-12)
    size, spread = np.abs(X).max(), X.std(axis=0).max()
    atol = {"mean_": size, "var_": size * spread, "scale_": size}
    for name in ("mean_", "var_", "scale_"):
        np.testing.assert_allclose(
            getattr(a, name),
            getattr(b, name),
            rtol=1e-12,
            atol=1e-13 * atol[name],
            err_msg=name,
        )


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize("seed", range(4))
def test_scaler_partial_fit_over_any_split_equals_fit(name, seed):
    X = DATASETS[name]
    rng = np.random.default_rng(seed)
    weights = rng.exponential(size=len(X)) * (rng.random(len(X)) > 0.2)
    batches = random_batches(rng, len(X))
    for batch in batches:  # a batch of zero weights only is refused
        weights[batch[0]] += 1.0
    for sample_weight in (None, weights):
        whole = StandardScaler().fit(X, sample_weight=sample_weight)
        batched = StandardScaler()
        for batch in batches:
            batched.partial_fit(
                X[batch],
                sample_weight=None
                if sample_weight is None
                else weights[batch],
            )
        assert_same_statistics(batched, whole, X)
        assert type(batched.n_samples_seen_) is type(whole.n_samples_seen_)


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize(
    "with_mean, with_std", [(True, True), (False, True), (True, False)]
)
def test_scaler_weights_and_partial_fit_match_sklearn(
    name, with_mean, with_std
):
    X = DATASETS[name]
    rng = np.random.default_rng(0)
    weights = rng.uniform(0, 2, len(X))
    options = {"with_mean": with_mean, "with_std": with_std}
    ours, theirs = StandardScaler(**options), sk.StandardScaler(**options)
    for batch in random_batches(rng, len(X)):
        for scaler in (ours, theirs):
            scaler.partial_fit(X[batch], sample_weight=weights[batch])
    fitted = StandardScaler(**options).fit(X, sample_weight=weights)
    fitted_sk = sk.StandardScaler(**options).fit(X, sample_weight=weights)
    for a, b in [(ours, theirs), (fitted, fitted_sk)]:
        for attribute in ("mean_", "var_", "scale_"):
            mine, ref = getattr(a, attribute), getattr(b, attribute)
            assert (mine is None) == (ref is None), attribute
        if with_std:
            assert_same_statistics(a, b, X)
        np.testing.assert_allclose(
            a.transform(X), b.transform(X), rtol=1e-9, atol=1e-9
        )


def test_scaler_integer_weights_repeat_rows_and_zero_weights_drop_them():
    X = DATASETS["wine"]
    counts = np.random.default_rng(1).integers(0, 4, len(X))
    weighted = StandardScaler().fit(X, sample_weight=counts)
    assert_same_statistics(
        weighted, StandardScaler().fit(np.repeat(X, counts, axis=0)), X
    )
    kept = counts > 0
    assert_same_statistics(
        weighted, StandardScaler().fit(X[kept], sample_weight=counts[kept]), X
    )


def test_scaler_fit_forgets_earlier_batches():
    X = DATASETS["wine"]
    scaler = StandardScaler().partial_fit(X[:50]).partial_fit(X[50:])
    assert scaler.n_samples_seen_ == len(X)
    assert_same_statistics(scaler.fit(X[:50]), StandardScaler().fit(X[:50]), X)


def test_scaler_partial_fit_and_weights_reject_bad_input():
    X = DATASETS["wine"]
    scaler = StandardScaler().partial_fit(X)
    with pytest.raises(ValueError, match="features"):
        scaler.partial_fit(X[:, :5])
    check_bad_weights_raise(StandardScaler(), X)
    weights = np.linspace(0, 1, len(X))
    copies = X.copy(), weights.copy()
    StandardScaler().partial_fit(X, sample_weight=weights).transform(X)
    np.testing.assert_array_equal(X, copies[0])
    np.testing.assert_array_equal(weights, copies[1])
