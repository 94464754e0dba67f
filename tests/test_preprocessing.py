"""StandardScaler and PolynomialFeatures against scikit-learn."""

import numpy as np
import pytest
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
