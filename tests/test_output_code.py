"""mllib.output_code: OutputCodeClassifier against scikit-learn's with the
same code book, the error-correcting property by exhaustive bit flips, the
decodings against their definitions, and the code constructions."""

import itertools
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.multiclass import OutputCodeClassifier as SkOutputCode
from sklearn.naive_bayes import GaussianNB as SkGaussianNB
from sklearn.preprocessing import StandardScaler

from mllib.exceptions import NotFittedError
from mllib.linear_model import LogisticRegression
from mllib.multiclass import OutputCodeClassifier
from mllib.naive_bayes import GaussianNB
from mllib.output_code import (
    code_distance,
    correctable_errors,
    decode,
    exhaustive_code,
)


def data_sets():
    iris = load_iris(return_X_y=True)
    wine = load_wine(return_X_y=True)
    X, y = make_classification(
        300, 6, n_informative=5, n_redundant=0, n_classes=5, random_state=0
    )
    return {
        "iris": (StandardScaler().fit_transform(iris[0]), iris[1]),
        "wine": (StandardScaler().fit_transform(wine[0]), wine[1]),
        "five-classes": (X, y),
    }


def sklearn_code_book(estimator, X, y, seed):
    """scikit-learn's fitted model for the first seed from `seed` whose
    random code has no constant column (which mllib refuses)."""
    for s in itertools.count(seed):
        sk = SkOutputCode(estimator, code_size=2.0, random_state=s).fit(X, y)
        if np.all(np.ptp(sk.code_book_, axis=0) > 0):
            return sk


@pytest.mark.parametrize("name", ["iris", "wine", "five-classes"])
def test_matches_sklearn_given_its_code_book(name):
    X, y = data_sets()[name]
    sk = sklearn_code_book(SkLogisticRegression(C=1.0, tol=1e-10), X, y, 0)
    ours = OutputCodeClassifier(
        LogisticRegression(C=1.0, tol=1e-10), code_book=sk.code_book_
    ).fit(X, y)
    np.testing.assert_array_equal(ours.code_book_, sk.code_book_)
    for mine, theirs in zip(ours.estimators_, sk.estimators_):
        np.testing.assert_allclose(
            mine.decision_function(X),
            theirs.decision_function(X),
            rtol=1e-5,
            atol=1e-6,
        )
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


def test_matches_sklearn_with_probabilities(rng):
    X, y = data_sets()["five-classes"]
    sk = sklearn_code_book(SkGaussianNB(), X, y, 3)
    assert set(np.unique(sk.code_book_)) == {0.0, 1.0}
    ours = OutputCodeClassifier(GaussianNB(), code_book=sk.code_book_).fit(
        X, y
    )
    np.testing.assert_array_equal(ours.code_book_, sk.code_book_)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


def test_random_code_book(rng):
    X, y = data_sets()["five-classes"]
    model = OutputCodeClassifier(
        LogisticRegression(), code_size=3.0, random_state=0
    ).fit(X, y)
    assert model.code_book_.shape == (5, 15)
    assert set(np.unique(model.code_book_)) == {-1.0, 1.0}
    assert np.all(np.ptp(model.code_book_, axis=0) > 0)  # no constant column
    again = OutputCodeClassifier(
        LogisticRegression(), code_size=3.0, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(model.code_book_, again.code_book_)
    assert model.score(X, y) > 0.4  # chance is 0.2
    with pytest.warns(UserWarning, match="same code word"):
        OutputCodeClassifier(
            LogisticRegression(), code_size=0.4, random_state=0
        ).fit(X, y)


def brute_force_distance(code):
    return min(int(np.sum(a != b)) for a, b in itertools.combinations(code, 2))


@pytest.mark.parametrize("K", [3, 4, 5, 6])
def test_exhaustive_code(K):
    code = exhaustive_code(K)
    assert code.shape == (K, 2 ** (K - 1) - 1)
    distances = [
        int(np.sum(a != b)) for a, b in itertools.combinations(code, 2)
    ]
    assert set(distances) == {2 ** (K - 2)}
    assert code_distance(code) == 2 ** (K - 2)
    assert correctable_errors(code) == (2 ** (K - 2) - 1) // 2
    # every split of the classes appears once: no column or its negation
    # twice, and no constant column
    columns = {tuple(c) for c in code.T} | {tuple(-c) for c in code.T}
    assert len(columns) == 2 * code.shape[1]
    assert np.all(np.ptp(code, axis=0) > 0)


def test_code_distance_against_brute_force(rng):
    for _ in range(20):
        code = rng.choice([-1.0, 1.0], size=(rng.integers(2, 7), 9))
        assert code_distance(code) == brute_force_distance(code)
    one_vs_rest = 2 * np.eye(4) - 1
    assert code_distance(one_vs_rest) == 2
    assert correctable_errors(one_vs_rest) == 0


@pytest.mark.parametrize(
    "code",
    [exhaustive_code(5), exhaustive_code(4), 2 * np.eye(4) - 1],
    ids=["exhaustive-5", "exhaustive-4", "one-vs-rest"],
)
def test_hamming_decoding_corrects_up_to_t_errors(code):
    t = correctable_errors(code)
    K, L = code.shape
    flipped_words, truth = [], []
    for k in range(K):
        for n_flips in range(t + 1):
            for positions in itertools.combinations(range(L), n_flips):
                word = code[k].copy()
                word[list(positions)] *= -1
                flipped_words.append(word)
                truth.append(k)
    np.testing.assert_array_equal(
        decode(np.array(flipped_words), code, "hamming"), truth
    )
    # t + 1 flips towards the nearest other word leave it at least as near
    # as the true one, so decoding can fail (it does in one direction at
    # least: ties go to the first class)
    d = code_distance(code)
    a, b = next(
        (a, b)
        for a, b in itertools.combinations(range(K), 2)
        if np.sum(code[a] != code[b]) == d
    )
    wrong = 0
    for source, target in ((a, b), (b, a)):
        word = code[source].copy()
        word[np.flatnonzero(code[source] != code[target])[: t + 1]] *= -1
        distances = np.sum(word != code, axis=1)
        assert distances[target] <= distances[source]
        wrong += decode(word[None, :], code, "hamming")[0] != source
    assert wrong >= 1


def test_decodings_against_their_definitions(rng):
    code = exhaustive_code(5)
    scores = rng.normal(scale=2.0, size=(200, code.shape[1]))
    # Euclidean decoding is linear-loss decoding for a +-1 code
    np.testing.assert_array_equal(
        decode(scores, code, "euclidean"), np.argmax(scores @ code.T, axis=1)
    )
    margins = scores[:, None, :] * code[None, :, :]
    for name, loss in [
        ("hinge", np.maximum(0, 1 - margins)),
        ("logistic", np.log1p(np.exp(-margins))),
        ("exponential", np.exp(-margins)),
    ]:
        np.testing.assert_array_equal(
            decode(scores, code, name), np.argmin(loss.sum(axis=2), axis=1)
        )
    # on exact +-1 scores the hinge loss is twice the Hamming distance
    signs = np.sign(scores)
    np.testing.assert_array_equal(
        decode(signs, code, "hinge"), decode(signs, code, "hamming")
    )
    # 0/1 codes and probabilities: threshold 1/2
    code01 = (code > 0).astype(float)
    probabilities = rng.uniform(size=scores.shape)
    np.testing.assert_array_equal(
        decode(probabilities, code01, "hamming"),
        decode(2 * probabilities - 1, code, "hamming"),
    )
    with pytest.raises(ValueError, match="needs margins"):
        decode(probabilities, code01, "hinge")
    with pytest.raises(ValueError, match="decoding must be"):
        decode(scores, code, "manhattan")


def test_loss_based_decoding_uses_confidence():
    # two classes' code words differ in two bits; one bit is confidently
    # for class 1 and one weakly for class 0: Hamming ties (class 0 wins
    # the tie), the hinge loss follows the confident bit
    code = np.array([[1.0, 1.0, -1.0], [1.0, -1.0, 1.0]])
    scores = np.array([[1.0, 0.1, 3.0]])
    assert decode(scores, code, "hamming")[0] == 0
    assert decode(scores, code, "hinge")[0] == 1


def test_classifier_decodings_and_exhaustive_code():
    X, y = data_sets()["five-classes"]
    accuracies = {}
    for decoding in ("euclidean", "hamming", "hinge", "logistic"):
        model = OutputCodeClassifier(
            LogisticRegression(),
            code_book=exhaustive_code(5),
            decoding=decoding,
        ).fit(X, y)
        scores = np.column_stack(
            [e.decision_function(X) for e in model.estimators_]
        )
        np.testing.assert_array_equal(
            model.predict(X),
            model.classes_[decode(scores, model.code_book_, decoding)],
        )
        accuracies[decoding] = model.score(X, y)
    assert min(accuracies.values()) > 0.4  # chance is 0.2


@pytest.mark.parametrize("code_book", [None, [[1, -1, 1]]])
def test_one_class_predicts_it_as_scikit_learn(code_book):
    """Every column of a one-row code book is constant: constant
    classifiers, whatever the base estimator (mllib's LogisticRegression
    refuses one class), and every decoding gives the class."""
    X, _ = data_sets()["iris"]
    y = np.full(len(X), "only")
    theirs = SkOutputCode(SkLogisticRegression(), random_state=0).fit(X, y)
    for decoding in ("euclidean", "hamming", "hinge"):
        ours = OutputCodeClassifier(
            LogisticRegression(), code_book=code_book, decoding=decoding
        ).fit(X, y)
        np.testing.assert_array_equal(ours.classes_, theirs.classes_)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_bad_input():
    X, y = data_sets()["iris"]
    with pytest.raises(NotFittedError):
        OutputCodeClassifier(LogisticRegression()).predict(X)
    with pytest.raises(ValueError, match="one row per class"):
        OutputCodeClassifier(
            LogisticRegression(), code_book=exhaustive_code(4)
        ).fit(X, y)
    with pytest.raises(ValueError, match="constant column"):
        OutputCodeClassifier(
            LogisticRegression(), code_book=[[1, 1], [1, -1], [1, 1]]
        ).fit(X, y)
    with pytest.raises(ValueError, match="entries"):
        OutputCodeClassifier(
            LogisticRegression(), code_book=[[2, 1], [1, -1], [1, 1]]
        ).fit(X, y)
    with pytest.raises(ValueError, match="at least one"):
        OutputCodeClassifier(LogisticRegression(), code_size=0.1).fit(X, y)
    with pytest.raises(ValueError, match="decoding must be"):
        OutputCodeClassifier(LogisticRegression(), decoding="l1").fit(X, y)
    with pytest.raises(ValueError, match="needs margins"):
        OutputCodeClassifier(GaussianNB(), decoding="hinge").fit(X, y).predict(
            X
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        OutputCodeClassifier(
            LogisticRegression(), code_book=exhaustive_code(3)
        ).fit(X, y)
