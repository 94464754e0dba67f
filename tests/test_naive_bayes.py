"""Naive Bayes: scikit-learn oracles, exact maximum-likelihood estimates, zero probabilities, bad input."""

from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from batches import random_batches
from sample_weights import check_bad_weights_raise
from sklearn import naive_bayes as sk
from sklearn.datasets import load_digits, load_iris, load_wine

from mllib.exceptions import NotFittedError
from mllib.naive_bayes import (
    BernoulliNB,
    CategoricalNB,
    GaussianNB,
    MultinomialNB,
)

DIGITS_X, DIGITS_Y = load_digits(return_X_y=True)  # counts 0..16, 10 classes


def word_counts(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 120)
    rates = rng.gamma(0.5, 1.0, size=(3, 25))
    return rng.poisson(rates[y] * 3).astype(float), np.array(
        ["sport", "politics", "science"]
    )[y]


COUNT_DATA = {
    "digits": (DIGITS_X, DIGITS_Y),
    "words": word_counts(0),
    "words2": word_counts(1),
}


def assert_same_model(ours, theirs, X, attributes):
    for name in attributes:
        ours_value, theirs_value = getattr(ours, name), getattr(theirs, name)
        if isinstance(theirs_value, list):
            for a, b in zip(ours_value, theirs_value):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        else:
            np.testing.assert_allclose(
                ours_value, theirs_value, rtol=1e-12, atol=1e-12
            )
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8
    )
    np.testing.assert_allclose(
        ours.predict_log_proba(X),
        theirs.predict_log_proba(X),
        rtol=1e-9,
        atol=1e-8,
    )
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X),
        theirs.predict_joint_log_proba(X),
        rtol=1e-10,
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


DISCRETE = [
    "class_count_",
    "class_log_prior_",
    "feature_count_",
    "feature_log_prob_",
]


@pytest.mark.parametrize("name", COUNT_DATA)
@pytest.mark.parametrize("alpha", [1.0, 0.3, 1e-4])
def test_multinomial_matches_sklearn(name, alpha):
    X, y = COUNT_DATA[name]
    assert_same_model(
        MultinomialNB(alpha=alpha).fit(X, y),
        sk.MultinomialNB(alpha=alpha).fit(X, y),
        X,
        DISCRETE,
    )


@pytest.mark.parametrize("name", COUNT_DATA)
@pytest.mark.parametrize(
    "alpha, binarize", [(1.0, 0.0), (0.5, 2.0), (1e-3, 7.5)]
)
def test_bernoulli_matches_sklearn(name, alpha, binarize):
    X, y = COUNT_DATA[name]
    ours = BernoulliNB(alpha=alpha, binarize=binarize).fit(X, y)
    assert_same_model(
        ours,
        sk.BernoulliNB(alpha=alpha, binarize=binarize).fit(X, y),
        X,
        DISCRETE,
    )


@pytest.mark.parametrize("name", COUNT_DATA)
@pytest.mark.parametrize("alpha", [1.0, 0.2])
def test_categorical_matches_sklearn(name, alpha):
    X, y = COUNT_DATA[name]
    X = np.minimum(X, 5)  # six categories per feature
    assert_same_model(
        CategoricalNB(alpha=alpha).fit(X, y),
        sk.CategoricalNB(alpha=alpha).fit(X, y),
        X,
        [
            "class_count_",
            "class_log_prior_",
            "category_count_",
            "feature_log_prob_",
            "n_categories_",
        ],
    )
    ours = CategoricalNB(alpha=alpha, min_categories=8).fit(X, y)
    theirs = sk.CategoricalNB(alpha=alpha, min_categories=8).fit(X, y)
    assert_same_model(
        ours,
        theirs,
        X,
        ["category_count_", "feature_log_prob_", "n_categories_"],
    )


@pytest.mark.parametrize("loader", [load_iris, load_wine, load_digits])
@pytest.mark.parametrize("var_smoothing", [1e-9, 1e-2])
def test_gaussian_matches_sklearn(loader, var_smoothing):
    X, y = loader(return_X_y=True)
    ours = GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    theirs = sk.GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    for name in ("theta_", "var_", "class_prior_", "class_count_", "epsilon_"):
        np.testing.assert_allclose(
            getattr(ours, name), getattr(theirs, name), rtol=1e-10, atol=1e-12
        )
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8
    )
    # a joint log-likelihood sums d terms as large as max |jll|, so rounding
    # differences in the variances show at that scale, also where the sum
    # itself cancels to nearly 0
    their_jll = theirs.predict_joint_log_proba(X)
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X),
        their_jll,
        rtol=1e-10,
        atol=1e-12 * np.abs(their_jll).max(),
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_priors_options_match_sklearn():
    X, y = COUNT_DATA["words"]
    prior = [0.5, 0.3, 0.2]
    for ours, theirs in [
        (MultinomialNB(fit_prior=False), sk.MultinomialNB(fit_prior=False)),
        (
            MultinomialNB(class_prior=prior),
            sk.MultinomialNB(class_prior=prior),
        ),
        (BernoulliNB(class_prior=prior), sk.BernoulliNB(class_prior=prior)),
    ]:
        assert_same_model(
            ours.fit(X, y), theirs.fit(X, y), X, ["class_log_prior_"]
        )
    Xi, yi = load_iris(return_X_y=True)
    ours, theirs = (
        GaussianNB(priors=[0.2, 0.3, 0.5]).fit(Xi, yi),
        sk.GaussianNB(priors=[0.2, 0.3, 0.5]).fit(Xi, yi),
    )
    np.testing.assert_allclose(
        ours.predict_proba(Xi), theirs.predict_proba(Xi), atol=1e-8
    )


# --- the maximum-likelihood estimates (alpha = 0) -------------------------------------------

# the 8-row example of the source notes: features a, b and class k
EXAMPLE = np.array(
    [
        [1, 0, 1],
        [1, 1, 1],
        [0, 1, 0],
        [1, 1, 0],
        [1, 0, 0],
        [0, 0, 1],
        [0, 0, 1],
        [0, 0, 0],
    ]
)


def test_the_eight_row_example_gives_two_thirds():
    X, k = EXAMPLE[:, :2], EXAMPLE[:, 2]
    # by hand, with exact fractions: P(k) P(a=1|k) P(b=1|k) for k = 0, 1
    joint = {
        c: Fraction(int(np.sum(k == c)), 8)
        * Fraction(int(np.sum((X[:, 0] == 1) & (k == c))), int(np.sum(k == c)))
        * Fraction(int(np.sum((X[:, 1] == 1) & (k == c))), int(np.sum(k == c)))
        for c in (0, 1)
    }
    assert joint == {0: Fraction(1, 8), 1: Fraction(1, 16)}
    posterior = joint[0] / (joint[0] + joint[1])
    assert posterior == Fraction(2, 3)
    for model in (CategoricalNB(alpha=0), BernoulliNB(alpha=0, binarize=None)):
        proba = model.fit(X, k).predict_proba([[1, 1]])
        np.testing.assert_allclose(proba, [[2 / 3, 1 / 3]], atol=1e-15)
    # the full joint distribution, without the naive assumption, says 1/2: the two rows with a = b = 1
    both = (X[:, 0] == 1) & (X[:, 1] == 1)
    assert np.mean(k[both] == 0) == 0.5


def test_alpha_zero_gives_the_counting_estimates():
    X, y = COUNT_DATA["words"]
    model = MultinomialNB(alpha=0).fit(X, y)
    for c, label in enumerate(model.classes_):
        counts = X[y == label].sum(axis=0)
        with np.errstate(divide="ignore"):
            np.testing.assert_allclose(
                model.feature_log_prob_[c], np.log(counts / counts.sum())
            )
        assert model.class_log_prior_[c] == pytest.approx(
            np.log(np.mean(y == label))
        )
    bern = BernoulliNB(alpha=0).fit(X, y)
    for c, label in enumerate(bern.classes_):
        with np.errstate(divide="ignore"):
            np.testing.assert_allclose(
                bern.feature_log_prob_[c],
                np.log(np.mean(X[y == label] > 0, axis=0)),
            )


def test_alpha_zero_probabilities_are_exact_zeros_without_nan():
    X, y = COUNT_DATA["words"]
    model = MultinomialNB(alpha=0).fit(X, y)
    assert np.isneginf(
        model.feature_log_prob_
    ).any()  # some words never occur in some class
    proba = model.predict_proba(
        X
    )  # every training sample is possible under its own class
    assert not np.isnan(proba).any()
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    impossible = (X > 0) @ np.isneginf(
        model.feature_log_prob_
    ).T  # a zero-probability word occurs
    assert impossible.any() and np.all(proba[impossible] == 0.0)
    # alpha -> 0 converges to the alpha = 0 answer wherever that is defined
    np.testing.assert_allclose(
        MultinomialNB(alpha=1e-12).fit(X, y).predict_proba(X), proba, atol=1e-6
    )


def test_alpha_zero_bernoulli_handles_probabilities_zero_and_one():
    X = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1]])
    y = np.array([0, 0, 1, 1, 1])
    model = BernoulliNB(alpha=0, binarize=None).fit(
        X, y
    )  # θ_0 = (1, 0), θ_1 = (1/3, 1)
    # class 1 never has x_2 = 0, class 0 always has x_1 = 1 and never x_2 = 1
    np.testing.assert_array_equal(
        model.predict_proba([[1, 0], [0, 1], [1, 1]]), [[1, 0], [0, 1], [0, 1]]
    )
    log_proba = model.predict_log_proba([[0, 1]])
    assert (
        log_proba[0, 0] == -np.inf
        and log_proba[0, 1] == 0.0
        and not np.isnan(log_proba).any()
    )
    with pytest.raises(ValueError, match="every class"):
        model.predict_proba(
            [[0, 0]]
        )  # class 0 needs x_1 = 1, class 1 needs x_2 = 1


def test_samples_impossible_under_every_class_raise():
    X = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    y = np.array([0, 0, 1, 1])
    model = BernoulliNB(alpha=0, binarize=None).fit(X, y)
    with pytest.raises(ValueError, match="probability 0 under every class"):
        model.predict_proba([[1, 1]])
    with pytest.raises(ValueError, match="probability 0 under every class"):
        model.predict([[0, 0]])
    assert BernoulliNB(alpha=1, binarize=None).fit(X, y).predict_proba(
        [[1, 1]]
    ).shape == (1, 2)


def test_binary_bernoulli_naive_bayes_is_linear():
    X, y = COUNT_DATA["digits"]
    mask = (y == 3) | (y == 8)
    X, y = (X[mask] > 4).astype(float), (y[mask] == 8).astype(int)
    model = BernoulliNB(alpha=1.0, binarize=None).fit(X, y)
    theta = np.exp(model.feature_log_prob_)
    w = np.log(theta[1] * (1 - theta[0]) / (theta[0] * (1 - theta[1])))
    b = (
        model.class_log_prior_[1]
        - model.class_log_prior_[0]
        + np.sum(np.log((1 - theta[1]) / (1 - theta[0])))
    )
    log_odds = model.predict_log_proba(X) @ [-1, 1]
    np.testing.assert_allclose(X @ w + b, log_odds, atol=1e-9)
    np.testing.assert_array_equal(
        model.predict(X), (X @ w + b > 0).astype(int)
    )


# --- unseen categories and bad input --------------------------------------------------------


def test_unseen_categories():
    X = np.array([[0, 1], [1, 2], [2, 0], [0, 0]])
    y = np.array([0, 0, 1, 1])
    model = CategoricalNB().fit(X, y)
    with pytest.raises(
        ValueError, match="never seen in training.*min_categories"
    ):
        model.predict([[3, 0]])
    wider = CategoricalNB(min_categories=[5, 3]).fit(X, y)
    # category 3 of feature 0 is declared but unseen: probability 1/(2 + 5) in both classes, so
    # only feature 1 decides: P(x_1 = 0 | k) = (0 + 1)/(2 + 3) and (2 + 1)/(2 + 3), equal priors
    np.testing.assert_allclose(wider.predict_proba([[3, 0]]), [[1 / 4, 3 / 4]])
    assert np.exp(wider.feature_log_prob_[0][:, 3]) == pytest.approx(
        [1 / 7, 1 / 7]
    )


@pytest.mark.parametrize("Model", [MultinomialNB, BernoulliNB, CategoricalNB])
def test_bad_alpha(Model):
    X, y = EXAMPLE[:, :2], EXAMPLE[:, 2]
    for alpha in (-1.0, np.nan, "one", None):
        with pytest.raises(ValueError, match="alpha"):
            Model(alpha=alpha).fit(X, y)


def test_bad_input():
    X, y = EXAMPLE[:, :2], EXAMPLE[:, 2]
    negative = "Negative values in data passed to MultinomialNB"
    with pytest.raises(ValueError, match=negative):
        MultinomialNB().fit(X - 1, y)
    with pytest.raises(ValueError, match=negative):
        MultinomialNB().fit(X, y).predict([[-1, 0]])
    with pytest.raises(ValueError, match="must be 0 or 1"):
        BernoulliNB(binarize=None).fit(X * 2, y)
    with pytest.raises(ValueError, match="must be 0 or 1"):
        BernoulliNB(binarize=None).fit(X, y).predict([[0.5, 1]])
    with pytest.raises(ValueError, match="non-integer values"):
        CategoricalNB().fit(X + 0.5, y)
    with pytest.raises(ValueError, match="Negative values in data passed"):
        CategoricalNB().fit(X - 1, y)
    with pytest.raises(ValueError, match="class_prior"):
        MultinomialNB(class_prior=[0.5, 0.6]).fit(X, y)
    with pytest.raises(ValueError, match="priors"):
        GaussianNB(priors=[1.0]).fit(X, y)
    with pytest.raises(ValueError, match="var_smoothing is 0"):
        GaussianNB(var_smoothing=0).fit(np.column_stack([X, np.ones(8)]), y)
    with pytest.raises(ValueError, match="one sample, or identical rows"):
        GaussianNB().fit(X[:1], y[:1])  # scikit-learn's predicts NaN
    with pytest.raises(ValueError, match="no counts"):
        MultinomialNB(alpha=0).fit(np.array([[0, 0], [1, 2]]), [0, 1])
    for Model in (MultinomialNB, BernoulliNB, CategoricalNB, GaussianNB):
        with pytest.raises(NotFittedError):
            Model().predict(X)
        with pytest.raises(ValueError, match="features"):
            Model().fit(X, y).predict(np.ones((2, 3)))


def test_inputs_are_not_modified():
    X, y = COUNT_DATA["digits"]
    X_copy = X.copy()
    for model in (
        MultinomialNB(),
        BernoulliNB(binarize=3.0),
        CategoricalNB(),
        GaussianNB(),
    ):
        model.fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(X, X_copy)


# ---- sample weights and partial_fit ----------------------------------------

CLASSES = np.arange(10)


def digits_for(Model):
    """Digits as each model reads them: counts, or 0..16 categories."""
    if Model in (GaussianNB, sk.GaussianNB):
        return DIGITS_X / 16.0, DIGITS_Y
    return DIGITS_X, DIGITS_Y


MODELS = {
    "gaussian": (GaussianNB, sk.GaussianNB),
    "multinomial": (MultinomialNB, sk.MultinomialNB),
    "bernoulli": (BernoulliNB, sk.BernoulliNB),
    "categorical": (CategoricalNB, sk.CategoricalNB),
}
FITTED = {
    GaussianNB: ("class_count_", "class_prior_", "theta_", "var_", "epsilon_"),
    MultinomialNB: (
        "class_count_",
        "class_log_prior_",
        "feature_count_",
        "feature_log_prob_",
    ),
    BernoulliNB: (
        "class_count_",
        "class_log_prior_",
        "feature_count_",
        "feature_log_prob_",
    ),
    CategoricalNB: (
        "class_count_",
        "class_log_prior_",
        "category_count_",
        "feature_log_prob_",
    ),
}


def assert_same_fit(a, b, X, rtol=1e-12, atol=1e-12):
    """Same fitted attributes up to rounding (sums in another order)."""
    if isinstance(a, CategoricalNB):  # V_j, the width of each count array
        widths = [c.shape[1] for c in a.category_count_]
        np.testing.assert_array_equal(a.n_categories_, widths)
    for name in FITTED[type(a)]:
        x, y = getattr(a, name), getattr(b, name)
        for u, v in zip(*((x, y) if isinstance(x, list) else ([x], [y]))):
            np.testing.assert_allclose(
                u, v, rtol=rtol, atol=atol, err_msg=name
            )
    np.testing.assert_allclose(
        a.predict_proba(X[:300]), b.predict_proba(X[:300]), atol=1e-10
    )


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("seed", range(4))
def test_partial_fit_over_any_split_equals_fit(model, seed):
    Model = MODELS[model][0]
    X, y = digits_for(Model)
    rng = np.random.default_rng(seed)
    weights = rng.exponential(size=len(y)) * (rng.random(len(y)) > 0.2)
    batches = random_batches(rng, len(y))
    for batch in batches:  # a batch of zero weights only is refused
        weights[batch[0]] += 1.0
    whole = Model().fit(X, y, sample_weight=weights)
    batched = Model()
    for batch in batches:
        batched.partial_fit(
            X[batch], y[batch], classes=CLASSES, sample_weight=weights[batch]
        )
    assert_same_fit(batched, whole, X)


@pytest.mark.parametrize("model", MODELS)
def test_integer_weights_repeat_rows_and_zero_weights_drop_them(model):
    Model = MODELS[model][0]
    if Model is CategoricalNB:
        # a category occurring only in rows of weight 0 still exists
        # (V_j = max x_ij + 1 over all rows), so declare all 17 of them
        Model = partial(CategoricalNB, min_categories=17)
    X, y = digits_for(Model)
    counts = np.random.default_rng(0).integers(0, 4, len(y))
    weighted = Model().fit(X, y, sample_weight=counts)
    repeated = Model().fit(np.repeat(X, counts, 0), np.repeat(y, counts))
    assert_same_fit(weighted, repeated, X)
    kept = counts > 0
    dropped = Model().fit(X[kept], y[kept], sample_weight=counts[kept])
    assert_same_fit(weighted, dropped, X)


@pytest.mark.parametrize("model", ["multinomial", "bernoulli", "categorical"])
@pytest.mark.parametrize("seed", range(3))
def test_weights_and_partial_fit_match_sklearn(model, seed):
    Model, SkModel = MODELS[model]
    X, y = digits_for(Model)
    rng = np.random.default_rng(seed)
    weights = rng.uniform(0, 2, len(y))
    ours = Model().fit(X, y, sample_weight=weights)
    assert_same_fit(ours, SkModel().fit(X, y, sample_weight=weights), X)
    if Model is CategoricalNB:
        np.testing.assert_array_equal(
            ours.n_categories_, SkModel().fit(X, y).n_categories_
        )
    ours, theirs = Model(), SkModel()
    for batch in random_batches(rng, len(y)):
        for batched in (ours, theirs):
            batched.partial_fit(
                X[batch], y[batch], CLASSES, sample_weight=weights[batch]
            )
    # (scikit-learn's CategoricalNB.n_categories_ after partial_fit is the
    # last batch's, narrower than its own category_count_; ours is checked
    # against the counts' widths)
    assert_same_fit(ours, theirs, X)


def standardised_wine():
    X, y = load_wine(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


@pytest.mark.parametrize("loader", [load_iris, standardised_wine])
@pytest.mark.parametrize("seed", range(3))
def test_gaussian_weights_and_partial_fit_match_sklearn(loader, seed):
    """The same model up to the smoothing ε, which scikit-learn takes from the
    unweighted variance of the latest batch and, in partial_fit, subtracts
    from variances that hold the previous batch's ε (GaussianNB's
    docstring). The means, counts and unsmoothed variances agree to rounding
    after fit, and to within that residue, at most the largest batch's ε,
    after partial_fit; ε is each library's own formula. The posteriors agree
    on data whose features have comparable variances, where ε is 1e-9 of
    every variance (on raw wine, whose variances span 7 orders of magnitude,
    the two ε move the posteriors by up to 3e-4)."""
    X, y = loader(return_X_y=True) if loader is load_iris else loader()
    rng = np.random.default_rng(seed)
    weights = rng.uniform(0, 2, len(y))
    batches = random_batches(rng, len(y))
    ours, theirs = GaussianNB(), sk.GaussianNB()
    for batch in batches:
        for model in (ours, theirs):
            model.partial_fit(
                X[batch], y[batch], [0, 1, 2], sample_weight=weights[batch]
            )
    fitted = GaussianNB().fit(X, y, sample_weight=weights)
    fitted_sk = sk.GaussianNB().fit(X, y, sample_weight=weights)
    residue = 1e-9 * max(np.var(X[batch], axis=0).max() for batch in batches)
    for a, b, atol in [(ours, theirs, residue), (fitted, fitted_sk, 1e-12)]:
        for name in ("theta_", "class_count_", "class_prior_"):
            np.testing.assert_allclose(
                getattr(a, name), getattr(b, name), rtol=1e-12, atol=1e-12
            )
        np.testing.assert_allclose(
            a.var_ - a.epsilon_, b.var_ - b.epsilon_, rtol=1e-9, atol=atol
        )
        mean = weights @ X / weights.sum()
        weighted_var = weights @ (X - mean) ** 2 / weights.sum()
        np.testing.assert_allclose(a.epsilon_, 1e-9 * weighted_var.max())
        np.testing.assert_allclose(
            a.predict_proba(X), b.predict_proba(X), atol=1e-8
        )
    np.testing.assert_allclose(
        theirs.epsilon_, 1e-9 * np.var(X[batches[-1]], axis=0).max()
    )


def test_a_first_batch_without_some_classes_gives_them_prior_zero():
    for Model in (GaussianNB, MultinomialNB, CategoricalNB, BernoulliNB):
        X, y = digits_for(Model)
        few = np.isin(y, [3, 5])
        model = Model().partial_fit(X[few], y[few], classes=CLASSES)
        proba = model.predict_proba(X[few])
        assert np.all(proba[:, ~np.isin(CLASSES, [3, 5])] == 0)
        assert set(model.predict(X[few])) <= {3, 5}
        model.partial_fit(X[~few], y[~few])
        assert_same_fit(model, Model().fit(X, y), X)


@pytest.mark.parametrize("model", MODELS)
def test_weights_that_leave_one_class_predict_it(model):
    Model = MODELS[model][0]
    X, y = digits_for(Model)
    y = y % 2
    fitted = Model().fit(X, y, sample_weight=y)
    np.testing.assert_array_equal(fitted.class_count_[0], 0)
    np.testing.assert_array_equal(fitted.predict(X), np.ones(len(y)))


@pytest.mark.parametrize("model", MODELS)
def test_a_single_class_is_fitted_as_scikit_learn_does(model):
    """One class in y, or in partial_fit's classes: prior 1, so a
    posterior of 1 everywhere and the class predicted, with scikit-learn's
    fitted attributes."""
    Model, Theirs = MODELS[model]
    X, _ = digits_for(Model)
    X, y = X[:60], np.full(60, "only")
    ours, theirs = Model().fit(X, y), Theirs().fit(X, y)
    assert_same_fit(ours, theirs, X)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(ours.predict_proba(X), 1.0)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    batches = Model().partial_fit(X[:30], y[:30], classes=["only"])
    assert_same_fit(batches.partial_fit(X[30:], y[30:]), theirs, X)


@pytest.mark.parametrize("model", MODELS)
def test_partial_fit_and_weights_reject_bad_input(model):
    Model = MODELS[model][0]
    X, y = digits_for(Model)
    with pytest.raises(ValueError, match="classes must be passed"):
        Model().partial_fit(X, y)
    fitted = Model().partial_fit(X[:50], y[:50], classes=CLASSES)
    with pytest.raises(ValueError, match="features"):
        fitted.partial_fit(X[:5, :10], y[:5])
    with pytest.raises(ValueError, match="differs from the classes"):
        fitted.partial_fit(X[:5], y[:5], classes=[0, 1])
    unfitted = Model()
    with pytest.raises(ValueError, match="not among the classes"):
        unfitted.partial_fit(X[:5], y[:5] + 20, classes=CLASSES)
    # the failed call fitted nothing: the next call is again a first one
    with pytest.raises(ValueError, match="classes must be passed"):
        unfitted.partial_fit(X[:5], y[:5])
    unfitted.partial_fit(X[:5], y[:5], classes=CLASSES)
    with pytest.raises(ValueError, match="Unknown label type"):
        Model().partial_fit(X[:5], y[:5] + 0.5, classes=CLASSES)
    check_bad_weights_raise(Model(), X, y)


@pytest.mark.parametrize("model", MODELS)
def test_partial_fit_and_weights_do_not_modify_inputs(model):
    Model = MODELS[model][0]
    X, y = digits_for(Model)
    weights = np.linspace(0, 2, len(y))
    copies = X.copy(), y.copy(), weights.copy()
    Model().fit(X, y, sample_weight=weights)
    Model().partial_fit(X, y, CLASSES, sample_weight=weights).partial_fit(
        X, y, sample_weight=weights
    )
    for original, copy in zip((X, y, weights), copies):
        np.testing.assert_array_equal(original, copy)
