"""OneVsRestClassifier and OneVsOneClassifier against scikit-learn's wrappers of the same base estimator."""

import numpy as np
import pytest
from sklearn import linear_model as sk_linear
from sklearn import multiclass as sk_multiclass
from sklearn import naive_bayes as sk_naive_bayes
from sklearn import svm as sk_svm
from sklearn.datasets import load_iris, load_wine, make_blobs
from sklearn.preprocessing import StandardScaler

from mllib.exceptions import NotFittedError
from mllib.linear_model import LogisticRegression, Perceptron
from mllib.multiclass import OneVsOneClassifier, OneVsRestClassifier
from mllib.naive_bayes import GaussianNB
from mllib.svm import SVC


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


DATA = {
    "iris": standardised(load_iris),
    "wine": standardised(load_wine),
    "blobs5": make_blobs(150, 2, centers=5, cluster_std=1.5, random_state=1),
}

# (mllib base, scikit-learn base, tolerance on the scores): equal objectives,
# solved to high accuracy. Both logistic fits use Newton's method, which ends
# at rounding (scikit-learn's default L-BFGS stops on a relative decrease of
# 64 eps, at a point that depends on the machine's rounding). Both SMO runs
# stop at a KKT violation of 1e-6, so SVM scores agree to about 1e-4.
BASES = {
    "logistic": (
        LogisticRegression(C=0.5, tol=1e-10),
        sk_linear.LogisticRegression(
            C=0.5, solver="newton-cholesky", tol=1e-12
        ),
        1e-6,
    ),
    "linear_svc": (
        SVC(C=0.1, kernel="linear", tol=1e-6),
        sk_svm.SVC(C=0.1, kernel="linear", tol=1e-6),
        1e-3,
    ),
    "rbf_svc": (
        SVC(C=2.0, gamma=0.5, tol=1e-6),
        sk_svm.SVC(C=2.0, gamma=0.5, tol=1e-6),
        1e-3,
    ),
    "gaussian_nb": (
        GaussianNB(),
        sk_naive_bayes.GaussianNB(),
        1e-9,
    ),  # predict_proba only
}


@pytest.mark.parametrize("data", DATA, ids=str)
@pytest.mark.parametrize("base", BASES, ids=str)
@pytest.mark.parametrize(
    "wrapper", ["OneVsRestClassifier", "OneVsOneClassifier"]
)
def test_matches_scikit_learn_on_the_same_base_estimator(data, base, wrapper):
    X, y = DATA[data]
    ours = getattr(
        __import__("mllib.multiclass", fromlist=[wrapper]), wrapper
    )(BASES[base][0]).fit(X, y)
    theirs = getattr(sk_multiclass, wrapper)(BASES[base][1]).fit(X, y)
    rng = np.random.default_rng(0)
    X_test = np.vstack(
        [
            X,
            X[rng.integers(len(X), size=100)]
            + 0.5 * rng.normal(size=(100, X.shape[1])),
        ]
    )
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert len(ours.estimators_) == len(theirs.estimators_)
    decided = np.ones(len(X_test), dtype=bool)
    if hasattr(
        theirs, "decision_function"
    ):  # scikit-learn's OvR has none over predict_proba-only bases
        scores = theirs.decision_function(X_test)
        np.testing.assert_allclose(
            ours.decision_function(X_test), scores, atol=BASES[base][2]
        )
        top_two = np.sort(scores, axis=1)[:, -2:]
        decided = (
            top_two[:, 1] - top_two[:, 0] > 2 * BASES[base][2]
        )  # not a near-tie within the tolerance
    assert decided.mean() > 0.95
    np.testing.assert_array_equal(
        ours.predict(X_test)[decided], theirs.predict(X_test)[decided]
    )
    if wrapper == "OneVsRestClassifier" and base in (
        "logistic",
        "gaussian_nb",
    ):
        np.testing.assert_allclose(
            ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6
        )


def test_one_vs_one_breaks_vote_ties_by_summed_confidence_like_scikit_learn():
    # unequal spreads, sizes and a strong penalty: the three pairwise boundaries do not meet in
    # one point, and the small triangle between them has cyclic votes a > b > c > a (1-1-1)
    rng = np.random.default_rng(3)
    X = np.vstack(
        [
            rng.normal(c, s, size=(m, 2))
            for c, s, m in [
                ((0, 0), 0.5, 60),
                ((3, 0), 2.0, 10),
                ((1, 2.5), 1.0, 30),
            ]
        ]
    )
    y = np.repeat(["a", "b", "c"], [60, 10, 30])
    ours = OneVsOneClassifier(LogisticRegression(C=0.05, tol=1e-10)).fit(X, y)
    theirs = sk_multiclass.OneVsOneClassifier(
        sk_linear.LogisticRegression(C=0.05, tol=1e-10)
    ).fit(X, y)
    grid = rng.uniform(-6, 8, size=(20000, 2))
    votes = np.floor(
        ours.decision_function(grid) + 0.5
    )  # the confidence term is in (-1/3, 1/3)
    assert np.sum(np.all(votes == 1, axis=1)) >= 5, (
        "the grid should contain three-way vote ties"
    )
    np.testing.assert_allclose(
        ours.decision_function(grid), theirs.decision_function(grid), atol=1e-6
    )
    np.testing.assert_array_equal(ours.predict(grid), theirs.predict(grid))


def test_one_vs_one_trains_each_pair_on_its_two_classes_only():
    X, y = DATA["iris"]
    ovo = OneVsOneClassifier(LogisticRegression()).fit(X, y)
    assert ovo.pairs_ == [(0, 1), (0, 2), (1, 2)]
    for (i, j), estimator in zip(ovo.pairs_, ovo.estimators_):
        direct = LogisticRegression().fit(
            X[(y == i) | (y == j)], (y[(y == i) | (y == j)] == j).astype(int)
        )
        np.testing.assert_allclose(estimator.coef_, direct.coef_)


@pytest.mark.parametrize("wrapper", [OneVsRestClassifier, OneVsOneClassifier])
def test_two_classes_and_string_labels(wrapper):
    X, y = DATA["iris"]
    keep = y > 0
    labels = np.array(["versicolor", "virginica"])[y[keep] - 1]
    ours = wrapper(LogisticRegression(tol=1e-10)).fit(X[keep], labels)
    theirs = getattr(sk_multiclass, wrapper.__name__)(
        sk_linear.LogisticRegression(tol=1e-10)
    ).fit(X[keep], labels)
    assert ours.decision_function(X).shape == (len(X),)
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), atol=1e-5
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_one_vs_rest_uses_probabilities_when_there_is_no_decision_function():
    X, y = DATA["wine"]
    ours = OneVsRestClassifier(GaussianNB()).fit(X, y)
    assert not hasattr(ours.estimators_[0], "decision_function")
    proba = np.column_stack(
        [e.predict_proba(X)[:, 1] for e in ours.estimators_]
    )
    np.testing.assert_array_equal(
        ours.predict(X), ours.classes_[np.argmax(proba, axis=1)]
    )
    np.testing.assert_allclose(ours.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize("wrapper", [OneVsRestClassifier, OneVsOneClassifier])
def test_base_estimator_is_cloned_and_inputs_untouched(wrapper):
    X, y = DATA["wine"]
    X0, y0 = X.copy(), y.copy()
    base = LogisticRegression()
    model = wrapper(base).fit(X, y)
    assert not hasattr(base, "coef_") and all(
        e is not base for e in model.estimators_
    )
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert model.get_params()["estimator__C"] == 1.0


@pytest.mark.parametrize("wrapper", [OneVsRestClassifier, OneVsOneClassifier])
def test_bad_input(wrapper):
    X, y = DATA["iris"]
    with pytest.raises(NotFittedError):
        wrapper(LogisticRegression()).predict(X)
    with pytest.raises(ValueError, match="features"):
        wrapper(LogisticRegression()).fit(X, y).predict(X[:, :2])


def test_one_class_as_scikit_learn():
    """scikit-learn's one-vs-one refuses a single class; its one-vs-rest
    warns and fits one constant classifier ("not the class", never
    positive): decision 0, predict_proba [1, 0], the class predicted."""
    X, _ = DATA["iris"]
    y = np.full(len(X), "only")
    with pytest.raises(ValueError, match="only one class"):
        OneVsOneClassifier(LogisticRegression()).fit(X, y)
    with pytest.raises(ValueError, match="one class"):
        sk_multiclass.OneVsOneClassifier(sk_linear.LogisticRegression()).fit(
            X, y
        )
    with pytest.warns(UserWarning, match="only one class"):
        ours = OneVsRestClassifier(LogisticRegression()).fit(X, y)
    with pytest.warns(UserWarning, match="present in all"):
        theirs = sk_multiclass.OneVsRestClassifier(
            sk_linear.LogisticRegression()
        ).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    for method in ("predict", "predict_proba", "decision_function"):
        np.testing.assert_array_equal(
            getattr(ours, method)(X), getattr(theirs, method)(X)
        )
    np.testing.assert_array_equal(ours.predict_proba(X[:1]), [[1.0, 0.0]])


# --- multilabel one-vs-rest ---------------------------------------------------


def multilabel_data():
    from sklearn.datasets import make_multilabel_classification

    X, Y = make_multilabel_classification(
        120, 6, n_classes=4, n_labels=2, random_state=0
    )
    return StandardScaler().fit_transform(X), Y


@pytest.mark.parametrize("base", ["logistic", "naive_bayes"])
def test_multilabel_indicator_matches_scikit_learn(base):
    X, Y = multilabel_data()
    if base == "logistic":  # both Newton to 1e-10: scores to 1e-6
        ours_base = LogisticRegression(C=0.5, tol=1e-10)
        ref_base = sk_linear.LogisticRegression(
            C=0.5, solver="newton-cholesky", tol=1e-10
        )
    else:  # closed form: to rounding
        ours_base, ref_base = GaussianNB(), sk_naive_bayes.GaussianNB()
    ours = OneVsRestClassifier(ours_base).fit(X, Y)
    ref = sk_multiclass.OneVsRestClassifier(ref_base).fit(X, Y)
    assert ours.multilabel_ and ref.multilabel_
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    assert len(ours.estimators_) == Y.shape[1]
    predicted = ours.predict(X)
    assert predicted.shape == Y.shape
    np.testing.assert_array_equal(predicted, ref.predict(X))
    # marginal probabilities, not renormalised: rows need not sum to one
    proba = ours.predict_proba(X)
    np.testing.assert_allclose(proba, ref.predict_proba(X), atol=1e-6)
    assert not np.allclose(proba.sum(axis=1), 1)
    if base == "logistic":
        np.testing.assert_allclose(
            ours.decision_function(X), ref.decision_function(X), atol=1e-6
        )
        # column l is the binary problem of label l alone
        single = LogisticRegression(C=0.5, tol=1e-10).fit(X, Y[:, 2])
        np.testing.assert_array_equal(ours.estimators_[2].coef_, single.coef_)
    # a sample may get several labels, or none
    assert np.any(predicted.sum(axis=1) > 1)


def test_multilabel_with_a_label_always_or_never_present():
    X, Y = multilabel_data()
    Y = Y.copy()
    Y[:, 1], Y[:, 3] = 1, 0
    ours_base = LogisticRegression(C=0.5, tol=1e-10)
    ref_base = sk_linear.LogisticRegression(C=0.5, tol=1e-10)
    with pytest.warns(UserWarning, match="Label 1 is present in all"):
        with pytest.warns(UserWarning, match="Label not 3 is present"):
            ours = OneVsRestClassifier(ours_base).fit(X, Y)
    with pytest.warns(UserWarning):
        ref = sk_multiclass.OneVsRestClassifier(ref_base).fit(X, Y)
    np.testing.assert_array_equal(ours.predict(X)[:, [1, 3]], [[1, 0]] * 120)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(
        ours.predict_proba(X), ref.predict_proba(X), atol=1e-6
    )


def test_multilabel_bad_targets_and_column_vectors():
    X, Y = multilabel_data()
    with pytest.raises(ValueError, match="label-indicator"):
        # three values in the columns: several multiclass outputs
        OneVsRestClassifier(LogisticRegression()).fit(X, Y + Y[:, ::-1])
    # a single column is an ordinary binary y, not a multilabel one
    from sklearn.exceptions import DataConversionWarning

    with pytest.warns(DataConversionWarning, match="column-vector"):
        ours = OneVsRestClassifier(LogisticRegression()).fit(X, Y[:, :1])
    assert not ours.multilabel_ and ours.predict(X).shape == (len(X),)
    # a sparse indicator matrix is read as the dense one
    from scipy.sparse import csr_matrix

    sparse = OneVsRestClassifier(LogisticRegression()).fit(X, csr_matrix(Y))
    dense = OneVsRestClassifier(LogisticRegression()).fit(X, Y)
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(X))


@pytest.mark.parametrize(
    "base, has_decision, has_proba",
    [
        (LogisticRegression(), True, True),
        (GaussianNB(), False, True),
        (Perceptron(), True, False),
    ],
)
def test_one_vs_rest_offers_the_methods_its_base_has(
    base, has_decision, has_proba
):
    """As scikit-learn's wrapper: no decision_function over a base without
    one (mllib used to return probabilities), no predict_proba over a base
    without it, before and after fit."""
    X, y = DATA["wine"]
    model = OneVsRestClassifier(base)
    theirs = sk_multiclass.OneVsRestClassifier(base)
    for fitted in (False, True):
        if fitted:
            model.fit(X, y)
            theirs.fit(X, y)
        assert hasattr(model, "decision_function") == has_decision
        assert hasattr(theirs, "decision_function") == has_decision
        assert hasattr(model, "predict_proba") == has_proba
        assert hasattr(theirs, "predict_proba") == has_proba
