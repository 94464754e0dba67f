"""mllib.tree: impurities, the split search against brute force, trees and pruning against scikit-learn.

scikit-learn stores X as float32 and breaks ties between features at random. The data below
are rounded to float32, so thresholds compare exactly, and the structural comparisons use trees
whose nodes are large enough (or data with one feature) that no two splits tie.
"""

import warnings
from itertools import pairwise

import numpy as np
import pytest
from sklearn import tree as sk_tree
from sklearn.base import clone
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_iris,
    load_wine,
    make_classification,
)

from mllib.exceptions import NotFittedError
from mllib.tree import (
    TREE_LEAF,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    best_split,
    best_split_naive,
    cost_complexity_pruning_path,
    prune,
)
from mllib.tree.criteria import (
    entropy,
    gini,
    misclassification,
    weighted_impurity,
)


def _float32(X):
    return np.asarray(X, dtype=np.float32).astype(float)


def _one_feature(n, seed, classes=2):
    rng = np.random.default_rng(seed)
    X = _float32(rng.normal(size=(n, 1)))
    signal = np.sin(3 * X[:, 0]) + 0.5 * rng.normal(size=n)
    labels = np.digitize(
        signal, np.quantile(signal, np.linspace(0, 1, classes + 1)[1:-1])
    )
    return X, labels, signal


def _assert_same_tree(ours, theirs, *, atol=1e-12):
    a, b = ours.tree_, theirs.tree_
    assert a.node_count == b.node_count
    np.testing.assert_array_equal(a.children_left, b.children_left)
    np.testing.assert_array_equal(a.children_right, b.children_right)
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_array_equal(a.threshold, b.threshold)
    np.testing.assert_array_equal(a.n_node_samples, b.n_node_samples)
    np.testing.assert_allclose(
        a.weighted_n_node_samples, b.weighted_n_node_samples, rtol=1e-12
    )
    np.testing.assert_allclose(a.impurity, b.impurity, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(a.value, b.value, rtol=1e-9, atol=atol)


def _assert_same_tree_up_to_ties(
    ours, theirs, X, y, sample_weight=None, criterion="squared_error"
):
    """Walk both trees together. Where they split a node differently, both splits must decrease the
    impurity equally (a tie, broken differently); below such a node the trees may differ. Returns
    the number of ties."""
    a, b = ours.tree_, theirs.tree_
    w = np.ones(len(y)) if sample_weight is None else sample_weight

    def decrease(rows, feature, threshold):
        return _split_decrease(X, y, w, criterion, rows, feature, threshold)

    ties, stack = 0, [(0, 0, np.ones(len(y), dtype=bool))]
    while stack:
        i, j, rows = stack.pop()
        assert a.n_node_samples[i] == b.n_node_samples[j] == rows.sum()
        np.testing.assert_allclose(
            a.impurity[i], b.impurity[j], rtol=1e-9, atol=1e-10
        )
        np.testing.assert_allclose(
            a.value[i], b.value[j], rtol=1e-9, atol=1e-10
        )
        assert (a.children_left[i] == TREE_LEAF) == (
            b.children_left[j] == TREE_LEAF
        )
        if a.children_left[i] == TREE_LEAF:
            continue
        if (a.feature[i], a.threshold[i]) != (b.feature[j], b.threshold[j]):
            assert decrease(
                rows, a.feature[i], a.threshold[i]
            ) == pytest.approx(
                decrease(rows, b.feature[j], b.threshold[j]),
                rel=1e-9,
                abs=1e-9,
            )
            ties += 1
            continue
        left = rows & (X[:, a.feature[i]] <= a.threshold[i])
        stack += [
            (a.children_left[i], b.children_left[j], left),
            (a.children_right[i], b.children_right[j], rows & ~left),
        ]
    return ties


def _split_decrease(X, y, w, criterion, rows, feature, threshold):
    """W I - W_L I_L - W_R I_R of the split of the samples ``rows`` (a
    mask) at ``X[:, feature] <= threshold``, from the samples."""
    left = rows & (X[:, feature] <= threshold)
    return sum(
        sign * _node_cost(y[part], w[part], criterion)
        for sign, part in ((1, rows), (-1, left), (-1, rows & ~left))
    )


def _node_cost(y, w, criterion):
    """W I(node) from the samples; with several outputs (y of shape (n, q)),
    the mean over the outputs (scikit-learn's multi-output criterion)."""
    if y.ndim == 2:
        return np.mean([_node_cost(y_o, w, criterion) for y_o in y.T])
    if criterion == "squared_error":
        return np.sum(w * (y - np.average(y, weights=w)) ** 2)
    return weighted_impurity(
        np.bincount(y, weights=w, minlength=y.max() + 1 if len(y) else 1),
        criterion,
    )


# --------------------------------------------------------------------------- impurities


def test_impurities_at_known_points():
    p = np.array([[1.0, 0.0], [0.5, 0.5], [0.25, 0.75]])
    np.testing.assert_allclose(gini(p), [0.0, 0.5, 0.375])
    np.testing.assert_allclose(
        entropy(p), [0.0, 1.0, -(0.25 * np.log2(0.25) + 0.75 * np.log2(0.75))]
    )
    np.testing.assert_allclose(misclassification(p), [0.0, 0.5, 0.25])
    uniform = np.full(4, 0.25)
    assert gini(uniform) == pytest.approx(1 - 1 / 4) and entropy(
        uniform
    ) == pytest.approx(2.0)  # log2 K bits


def test_gini_is_the_sum_of_p_times_one_minus_p(rng):
    p = rng.dirichlet(np.ones(5), size=100)
    np.testing.assert_allclose(
        gini(p), np.sum(p * (1 - p), axis=1), rtol=1e-14
    )


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification"])
def test_weighted_impurity_in_counts_equals_weight_times_impurity(
    criterion, rng
):
    counts = rng.uniform(0, 5, size=(200, 4)) * (rng.random((200, 4)) > 0.3)
    counts[0] = 0.0  # an empty child costs nothing
    total = counts.sum(axis=1)
    impurity = {
        "gini": gini,
        "entropy": entropy,
        "misclassification": misclassification,
    }[criterion]
    expected = np.where(
        total > 0,
        total * impurity(counts / np.where(total > 0, total, 1)[:, None]),
        0.0,
    )
    np.testing.assert_allclose(
        weighted_impurity(counts, criterion), expected, rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(
        weighted_impurity(counts.T, criterion, axis=0),
        expected,
        rtol=1e-12,
        atol=1e-12,
    )


def test_gini_and_entropy_are_strictly_concave_but_misclassification_is_not(
    rng,
):
    p, q = (
        rng.dirichlet(np.ones(3), size=500),
        rng.dirichlet(np.ones(3), size=500),
    )
    for impurity in (gini, entropy):
        assert np.all(impurity((p + q) / 2) > (impurity(p) + impurity(q)) / 2)
    # both majority classes the same: misclassification is linear between them
    p, q = np.array([0.6, 0.3, 0.1]), np.array([0.8, 0.1, 0.1])
    assert misclassification((p + q) / 2) == pytest.approx(
        (misclassification(p) + misclassification(q)) / 2
    )


def test_split_that_misclassification_cannot_rank():
    # parent (400, 400): split A = (300,100)/(100,300), split B = (200,400)/(200,0) (ESL 9.2.3)
    split_a, split_b = (
        np.array([[300, 100], [100, 300]]),
        np.array([[200, 400], [200, 0]]),
    )
    cost = {
        c: [weighted_impurity(s, c).sum() / 800 for s in (split_a, split_b)]
        for c in ("misclassification", "gini", "entropy")
    }
    assert (
        cost["misclassification"][0]
        == pytest.approx(cost["misclassification"][1])
        == pytest.approx(0.25)
    )
    assert (
        cost["gini"][1] < cost["gini"][0]
        and cost["entropy"][1] < cost["entropy"][0]
    )


# --------------------------------------------------------------------------- the split search


@pytest.mark.parametrize(
    "criterion", ["gini", "entropy", "misclassification", "squared_error"]
)
@pytest.mark.parametrize("min_samples_leaf", [1, 4])
@pytest.mark.parametrize("seed", range(6))
def test_fast_split_equals_brute_force(criterion, min_samples_leaf, seed):
    rng = np.random.default_rng(seed)
    m, d = rng.integers(8, 60), rng.integers(1, 5)
    X = rng.normal(size=(m, d))
    if seed % 2:
        X = np.round(X, 1)  # repeated values: fewer distinct thresholds
    if seed == 5:
        X[:, 0] = 3.0  # a constant feature is never split
    w = rng.uniform(0.1, 3.0, size=m) if seed % 3 else np.ones(m)
    if criterion == "squared_error":
        y, n_classes = (
            rng.normal(size=m) + 100.0,
            None,
        )  # a large offset: the centred sums stay accurate
    else:
        y, n_classes = rng.integers(0, 3, size=m), 3
    fast = best_split(
        X,
        y,
        w,
        criterion,
        n_classes=n_classes,
        min_samples_leaf=min_samples_leaf,
    )
    slow = best_split_naive(
        X,
        y,
        w,
        criterion,
        n_classes=n_classes,
        min_samples_leaf=min_samples_leaf,
    )
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert fast.improvement == pytest.approx(
            slow.improvement, rel=1e-9, abs=1e-9
        )
        assert (
            fast.n_left >= min_samples_leaf
            and m - fast.n_left >= min_samples_leaf
        )
        left = X[:, fast.feature] <= fast.threshold
        assert left.sum() == fast.n_left
        if criterion == "misclassification":
            return  # many splits tie for this criterion; the decrease is what is defined
        assert (fast.feature, fast.threshold) == (slow.feature, slow.threshold)


def test_split_of_a_node_with_nothing_to_split():
    X = np.ones((5, 2))
    assert (
        best_split(
            X, np.array([0, 1, 0, 1, 0]), np.ones(5), "gini", n_classes=2
        )
        is None
    )
    assert (
        best_split(np.zeros((1, 1)), np.zeros(1), np.ones(1), "squared_error")
        is None
    )


# --------------------------------------------------------------------------- trees against scikit-learn


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("classes", [2, 4])
def test_one_feature_classification_tree_equals_scikit_learn(
    criterion, classes
):
    X, y, _ = _one_feature(400, classes, classes)
    w = (
        np.random.default_rng(classes)
        .integers(1, 4, size=len(y))
        .astype(float)
    )  # exact sums in both libraries
    tie_counts = []
    for params, weights in [
        ({}, None),
        ({"min_samples_leaf": 3, "max_depth": 6}, w),
        ({"min_samples_split": 10}, w),
    ]:
        ours = DecisionTreeClassifier(criterion=criterion, **params).fit(
            X, y, sample_weight=weights
        )
        theirs = sk_tree.DecisionTreeClassifier(
            criterion=criterion, **params
        ).fit(X, y, sample_weight=weights)
        ties = _assert_same_tree_up_to_ties(
            ours, theirs, X, y, weights, criterion
        )
        if ties == 0:
            _assert_same_tree(ours, theirs)
            grid = np.linspace(-4, 4, 301)[:, None]
            np.testing.assert_allclose(
                ours.predict_proba(grid),
                theirs.predict_proba(grid),
                rtol=1e-12,
            )
            np.testing.assert_array_equal(
                ours.predict(grid), theirs.predict(grid)
            )
        tie_counts.append(ties)
    assert (
        classes == 4 or sum(tie_counts) == 0
    )  # with two classes these data have no ties


def test_one_feature_regression_tree_equals_scikit_learn():
    X, _, y = _one_feature(400, 7)
    for params in [
        {},
        {"min_samples_leaf": 5},
        {"max_depth": 4, "min_samples_split": 20},
    ]:
        ours, theirs = (
            DecisionTreeRegressor(**params).fit(X, y),
            sk_tree.DecisionTreeRegressor(**params).fit(X, y),
        )
        _assert_same_tree(ours, theirs, atol=1e-10)
        np.testing.assert_allclose(
            ours.predict(X), theirs.predict(X), rtol=1e-12
        )
        assert (
            ours.get_depth() == theirs.get_depth()
            and ours.get_n_leaves() == theirs.get_n_leaves()
        )


def _cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return _float32(X), y


def _diabetes():
    X, y = load_diabetes(return_X_y=True)
    return _float32(X), y


def _synthetic():
    X, y = make_classification(
        600, n_features=8, n_informative=4, random_state=0
    )
    return _float32(X), y


@pytest.mark.parametrize(
    "data", [_cancer, _synthetic], ids=["cancer", "synthetic"]
)
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_shallow_classification_trees_equal_scikit_learn(data, criterion):
    X, y = data()
    params = dict(criterion=criterion, max_depth=3, min_samples_leaf=15)
    ours, theirs = (
        DecisionTreeClassifier(**params).fit(X, y),
        sk_tree.DecisionTreeClassifier(**params).fit(X, y),
    )
    if (
        _assert_same_tree_up_to_ties(ours, theirs, X, y, criterion=criterion)
        == 0
    ):
        _assert_same_tree(ours, theirs)
        np.testing.assert_allclose(
            ours.feature_importances_,
            theirs.feature_importances_,
            rtol=1e-9,
            atol=1e-12,
        )
        np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))


@pytest.mark.parametrize(
    "data", [_cancer, _synthetic], ids=["cancer", "synthetic"]
)
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_full_classification_trees_equal_scikit_learn_up_to_ties(
    data, criterion
):
    X, y = data()
    ours = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(
        criterion=criterion, random_state=0
    ).fit(X, y)
    _assert_same_tree_up_to_ties(ours, theirs, X, y, criterion=criterion)


def test_full_regression_tree_equals_scikit_learn_up_to_ties():
    X, y = _diabetes()
    ours, theirs = (
        DecisionTreeRegressor().fit(X, y),
        sk_tree.DecisionTreeRegressor(random_state=0).fit(X, y),
    )
    _assert_same_tree_up_to_ties(
        ours, theirs, X, y
    )  # many two-sample nodes: any separating feature ties


def test_shallow_regression_tree_equals_scikit_learn():
    X, y = _diabetes()
    params = dict(max_depth=4, min_samples_leaf=10)
    ours, theirs = (
        DecisionTreeRegressor(**params).fit(X, y),
        sk_tree.DecisionTreeRegressor(**params).fit(X, y),
    )
    _assert_same_tree(ours, theirs, atol=1e-6)
    np.testing.assert_allclose(
        ours.feature_importances_, theirs.feature_importances_, rtol=1e-9
    )
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


@pytest.mark.parametrize("loader", [load_iris, load_wine])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_root_impurity_decrease_equals_scikit_learn_even_with_ties(
    loader, criterion
):
    """Iris has two features that separate setosa equally well, so only the decrease is defined."""
    X, y = loader(return_X_y=True)
    X = _float32(X)
    decrease = []
    for model in (
        DecisionTreeClassifier(criterion=criterion, max_depth=1),
        sk_tree.DecisionTreeClassifier(
            criterion=criterion, max_depth=1, random_state=0
        ),
    ):
        t = model.fit(X, y).tree_
        w, imp = t.weighted_n_node_samples, t.impurity
        decrease.append(w[0] * imp[0] - w[1] * imp[1] - w[2] * imp[2])
    assert decrease[0] == pytest.approx(decrease[1], rel=1e-12)


def test_full_trees_agree_with_scikit_learn_on_the_training_data():
    X, y = _synthetic()
    ours, theirs = (
        DecisionTreeClassifier().fit(X, y),
        sk_tree.DecisionTreeClassifier(random_state=0).fit(X, y),
    )
    np.testing.assert_array_equal(
        ours.predict(X), y
    )  # pure leaves: training accuracy 1
    np.testing.assert_array_equal(theirs.predict(X), y)
    assert ours.tree_.impurity[0] == pytest.approx(theirs.tree_.impurity[0])


# --------------------------------------------------------------------------- pruning


def test_pruning_path_and_pruned_trees_equal_scikit_learn():
    X, _, y = _one_feature(300, 11)
    params = dict(min_samples_leaf=3)
    ours, theirs = (
        DecisionTreeRegressor(**params),
        sk_tree.DecisionTreeRegressor(**params),
    )
    path, sk_path = (
        ours.cost_complexity_pruning_path(X, y),
        theirs.cost_complexity_pruning_path(X, y),
    )
    np.testing.assert_allclose(
        path.ccp_alphas, sk_path.ccp_alphas, rtol=1e-9, atol=1e-15
    )
    np.testing.assert_allclose(path.impurities, sk_path.impurities, rtol=1e-9)
    between = (
        sk_path.ccp_alphas[:-1] + sk_path.ccp_alphas[1:]
    ) / 2  # away from the ties at the path's alphas
    for alpha in between[::7]:
        _assert_same_tree(
            DecisionTreeRegressor(ccp_alpha=alpha, **params).fit(X, y),
            sk_tree.DecisionTreeRegressor(ccp_alpha=alpha, **params).fit(X, y),
            atol=1e-10,
        )


def test_classification_pruning_path_equals_scikit_learn():
    X, y = _cancer()
    params = dict(max_depth=4, min_samples_leaf=10)
    path = DecisionTreeClassifier(**params).cost_complexity_pruning_path(X, y)
    sk_path = sk_tree.DecisionTreeClassifier(
        **params
    ).cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(
        path.ccp_alphas, sk_path.ccp_alphas, rtol=1e-9, atol=1e-15
    )
    np.testing.assert_allclose(path.impurities, sk_path.impurities, rtol=1e-9)


def _best_cost_complexity(tree, alpha):
    """min over pruned subtrees of R(T) + alpha |leaves| by dynamic programming over the nodes."""
    r = (
        tree.weighted_n_node_samples
        * tree.impurity
        / tree.weighted_n_node_samples[0]
    )

    def best(node):
        as_leaf = r[node] + alpha
        if tree.children_left[node] == TREE_LEAF:
            return as_leaf
        return min(
            as_leaf,
            best(tree.children_left[node]) + best(tree.children_right[node]),
        )

    return best(0)


def test_weakest_link_subtrees_minimise_the_cost_complexity():
    X, y = _synthetic()
    grown = (
        DecisionTreeClassifier(max_depth=5, min_samples_leaf=5).fit(X, y).tree_
    )
    path = cost_complexity_pruning_path(grown)
    assert np.all(np.diff(path.ccp_alphas) >= 0) and np.all(
        np.diff(path.impurities) >= -1e-15
    )
    for alpha in np.concatenate(
        [path.ccp_alphas, (path.ccp_alphas[:-1] + path.ccp_alphas[1:]) / 2]
    ):
        pruned = prune(grown, alpha)
        leaves = pruned.children_left == TREE_LEAF
        r = (
            pruned.weighted_n_node_samples
            * pruned.impurity
            / pruned.weighted_n_node_samples[0]
        )
        assert r[leaves].sum() + alpha * leaves.sum() == pytest.approx(
            _best_cost_complexity(grown, alpha), abs=1e-12
        )
    assert (
        prune(grown, path.ccp_alphas[-1]).node_count == 1
    )  # the last alpha leaves the root


def test_pruned_tree_is_a_subtree_that_predicts_like_its_leaves():
    X, y = _synthetic()
    full = DecisionTreeClassifier(random_state=0).fit(X, y)
    alpha = full.cost_complexity_pruning_path(X, y).ccp_alphas[-5]
    pruned = DecisionTreeClassifier(ccp_alpha=alpha).fit(X, y)
    assert pruned.tree_.node_count < full.tree_.node_count
    leaf = pruned.apply(X)
    assert np.all(pruned.tree_.children_left[leaf] == TREE_LEAF)
    for node in np.unique(
        leaf
    ):  # a leaf's value is the class mix of its samples
        np.testing.assert_allclose(
            pruned.tree_.value[node, 0],
            np.bincount(y[leaf == node], minlength=2) / np.sum(leaf == node),
        )


# --------------------------------------------------------------------------- behaviour


def test_xor_needs_a_split_that_decreases_nothing():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 5)
    y = np.array([0, 1, 1, 0] * 5)
    model = DecisionTreeClassifier(max_depth=2).fit(X, y)
    t = model.tree_
    root_children = (t.children_left[0], t.children_right[0])
    assert t.impurity[0] == 0.5 and all(
        t.impurity[c] == 0.5 for c in root_children
    )  # no decrease at all
    assert model.score(X, y) == 1.0 and model.get_n_leaves() == 4


def test_max_features_searches_a_random_subset_and_skips_constant_features():
    rng = np.random.default_rng(3)
    X = np.column_stack(
        [
            np.zeros(200),
            rng.normal(size=200),
            np.ones(200),
            rng.normal(size=200),
        ]
    )
    y = (X[:, 1] + X[:, 3] > 0).astype(int)
    a = DecisionTreeClassifier(max_features=1, random_state=1).fit(X, y)
    assert a.max_features_ == 1 and set(
        a.tree_.feature[a.tree_.feature >= 0]
    ) <= {1, 3}
    assert a.score(X, y) == 1.0  # constant features never stop the growth
    b = DecisionTreeClassifier(max_features=1, random_state=1).fit(X, y)
    np.testing.assert_array_equal(
        a.tree_.feature, b.tree_.feature
    )  # the seed fixes the draws
    others = [
        DecisionTreeClassifier(max_features=1, random_state=s)
        .fit(X, y)
        .tree_.node_count
        for s in range(8)
    ]
    assert len(set(others)) > 1
    assert (
        DecisionTreeClassifier(max_features="sqrt").fit(X, y).max_features_
        == 2
    )
    assert (
        DecisionTreeClassifier(max_features="log2").fit(X, y).max_features_
        == 2
    )
    assert (
        DecisionTreeClassifier(max_features=0.5).fit(X, y).max_features_ == 2
    )


def test_growth_limits_are_respected():
    X, y = _synthetic()
    model = DecisionTreeClassifier(
        max_depth=4, min_samples_leaf=7, min_samples_split=30
    ).fit(X, y)
    t = model.tree_
    leaves = t.children_left == TREE_LEAF
    assert model.get_depth() <= 4 and t.n_node_samples[leaves].min() >= 7
    assert t.n_node_samples[~leaves].min() >= 30
    assert t.n_node_samples[0] == len(y)
    internal = np.flatnonzero(~leaves)
    np.testing.assert_array_equal(
        t.n_node_samples[internal],
        t.n_node_samples[t.children_left[internal]]
        + t.n_node_samples[t.children_right[internal]],
    )


def test_derived_node_arrays_equal_a_recursive_walk():
    X, y = _synthetic()
    grown = DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    for tree in (grown, prune(grown, 0.01)):
        depth, size, parent = {}, {}, {0: -1}

        def walk(node, level):  # preorder: returns the subtree's size
            depth[node] = level
            size[node] = 1
            if tree.children_left[node] != TREE_LEAF:
                for child in (
                    tree.children_left[node],
                    tree.children_right[node],
                ):
                    assert child == node + size[node]  # preorder numbering
                    parent[child] = node
                    size[node] += walk(child, level + 1)
            return size[node]

        assert walk(0, 0) == tree.node_count
        nodes = range(tree.node_count)
        assert list(tree.depth) == [depth[i] for i in nodes]
        assert list(tree.subtree_size) == [size[i] for i in nodes]
        assert list(tree.parent) == [parent[i] for i in nodes]


def test_zero_weight_samples_do_not_move_thresholds():
    # scikit-learn leaves samples of weight zero out of the growth: the
    # threshold is the midpoint between 1 and 3, not between 1 and 2
    X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    weights = np.array([1.0, 1.0, 0.0, 1.0])
    ours = DecisionTreeClassifier().fit(X, y, sample_weight=weights)
    theirs = sk_tree.DecisionTreeClassifier().fit(X, y, sample_weight=weights)
    assert ours.tree_.threshold[0] == theirs.tree_.threshold[0] == 2.0
    _assert_same_tree(ours, theirs)
    split = best_split(X, y, weights, "gini", n_classes=2)
    assert split.threshold == 2.0 and split.n_left == 2
    assert best_split_naive(X, y, weights, "gini", n_classes=2) == split


@pytest.mark.parametrize(
    "tree", [DecisionTreeClassifier, DecisionTreeRegressor]
)
def test_zero_weights_give_the_tree_without_those_samples(tree):
    X, y = _synthetic()
    if tree is DecisionTreeRegressor:
        y = X[:, 0] + np.sin(3 * X[:, 1])
    weights = np.random.default_rng(1).integers(0, 3, size=len(y)) / 2.0
    keep = weights > 0
    zero = tree(max_depth=6).fit(X, y, sample_weight=weights)
    dropped = tree(max_depth=6).fit(
        X[keep], y[keep], sample_weight=weights[keep]
    )
    for field in ("feature", "threshold", "n_node_samples", "value"):
        np.testing.assert_array_equal(
            getattr(zero.tree_, field), getattr(dropped.tree_, field)
        )


def test_weights_equal_to_counts_give_the_tree_of_the_repeated_rows():
    X, y = _synthetic()
    counts = np.random.default_rng(0).integers(0, 3, size=len(y))
    keep = counts > 0
    weighted = DecisionTreeClassifier().fit(
        X[keep], y[keep], sample_weight=counts[keep].astype(float)
    )
    repeated = DecisionTreeClassifier().fit(
        np.repeat(X, counts, axis=0), np.repeat(y, counts)
    )
    np.testing.assert_array_equal(
        weighted.tree_.feature, repeated.tree_.feature
    )
    np.testing.assert_array_equal(
        weighted.tree_.threshold, repeated.tree_.threshold
    )
    np.testing.assert_allclose(
        weighted.tree_.weighted_n_node_samples,
        repeated.tree_.weighted_n_node_samples,
    )


def test_string_labels_and_feature_importances():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = DecisionTreeClassifier(max_depth=3).fit(X, names)
    assert set(model.predict(X)) <= set(names) and model.predict_proba(
        X
    ).shape == (150, 3)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
    assert model.feature_importances_.sum() == pytest.approx(1.0) and np.all(
        model.feature_importances_ >= 0
    )


def test_inputs_are_not_modified():
    X, y = _synthetic()
    w = np.ones(len(y))
    copies = X.copy(), y.copy(), w.copy()
    DecisionTreeClassifier(ccp_alpha=0.01, max_features=3, random_state=0).fit(
        X, y, sample_weight=w
    ).predict(X)
    DecisionTreeRegressor().fit(X, y.astype(float)).predict(X)
    for original, copy in zip((X, y, w), copies):
        np.testing.assert_array_equal(original, copy)


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(criterion="mse"), "criterion"),
        (dict(max_depth=0), "max_depth"),
        (dict(min_samples_split=1), "min_samples_split"),
        (dict(min_samples_leaf=0), "min_samples_leaf"),
        (dict(max_features=0), "max_features"),
        (dict(max_features=1.5), "max_features"),
        (dict(max_features="auto"), "max_features"),
        (dict(ccp_alpha=-1.0), "ccp_alpha"),
    ],
)
def test_bad_parameters_are_rejected(params, message):
    X, y = _synthetic()
    with pytest.raises(ValueError, match=message):
        DecisionTreeClassifier(**params).fit(X, y)


def test_bad_inputs_are_rejected():
    X, y = _synthetic()
    with pytest.raises(NotFittedError):
        DecisionTreeClassifier().predict(X)
    with pytest.raises(NotFittedError):
        DecisionTreeRegressor().get_depth()
    with pytest.raises(ValueError, match="sample_weight"):
        DecisionTreeClassifier().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="sample_weight"):
        DecisionTreeClassifier().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="criterion"):
        DecisionTreeRegressor(criterion="gini").fit(X, y)
    with pytest.raises(ValueError, match="continuous"):
        DecisionTreeClassifier().fit(X, y + 0.5)
    with pytest.raises(ValueError, match="features"):
        DecisionTreeClassifier().fit(X, y).predict(X[:, :3])
    with pytest.raises(ValueError, match="NaN"):
        DecisionTreeRegressor().fit(np.where(X > 2, np.nan, X), y)


def test_a_pure_training_set_is_a_single_leaf():
    model = DecisionTreeRegressor().fit(
        np.arange(10.0)[:, None], np.full(10, 3.0)
    )
    assert model.tree_.node_count == 1 and model.get_depth() == 0
    np.testing.assert_array_equal(model.predict([[100.0]]), [3.0])
    np.testing.assert_array_equal(model.feature_importances_, [0.0])


def test_one_class_gives_a_one_leaf_classifier_as_in_scikit_learn():
    X = np.arange(10.0)[:, None]
    ours = DecisionTreeClassifier().fit(X, ["spam"] * 10)
    theirs = sk_tree.DecisionTreeClassifier().fit(X, ["spam"] * 10)
    assert ours.get_n_leaves() == theirs.get_n_leaves() == 1
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_array_equal(ours.predict_proba(X), np.ones((10, 1)))


def test_a_sample_of_weight_zero_does_not_move_the_split():
    X, y = np.arange(4.0)[:, None], np.array([0, 0, 1, 1])
    weights = np.array([1.0, 1.0, 0.0, 1.0])
    weighted = DecisionTreeClassifier().fit(X, y, sample_weight=weights)
    removed = DecisionTreeClassifier().fit(X[[0, 1, 3]], y[[0, 1, 3]])
    assert weighted.tree_.threshold[0] == removed.tree_.threshold[0] == 2.0


# --- best-first growth, decision_path, several outputs (issue 24 item 4) ---
#
# The data have one feature (no two features can tie) and float32 values, so
# scikit-learn's splits are determined; min_samples_leaf=3 on noisy targets
# keeps equal decreases between frontier nodes away (a tie would go to the
# older node here and unspecified there).


def _one_feature_outputs(seed, n_outputs):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 200))
    X = _float32(rng.normal(size=(n, 1)))
    noise = rng.normal(size=(n, n_outputs))
    labels = (np.sin(3 * X) + noise > 0).astype(int) + (noise > 1)
    return X, labels, np.sin(3 * X) + noise


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("n_outputs", [1, 3])
def test_best_first_and_several_outputs_equal_scikit_learn(seed, n_outputs):
    X, labels, targets = _one_feature_outputs(seed, n_outputs)
    if n_outputs == 1:
        labels, targets = labels[:, 0], targets[:, 0]
    leaves = 2 + seed % 9
    for ours, theirs, y in [
        (
            DecisionTreeClassifier(max_leaf_nodes=leaves, min_samples_leaf=3),
            sk_tree.DecisionTreeClassifier(
                max_leaf_nodes=leaves, min_samples_leaf=3
            ),
            labels,
        ),
        (
            DecisionTreeClassifier(criterion="entropy", max_depth=3),
            sk_tree.DecisionTreeClassifier(criterion="entropy", max_depth=3),
            labels,
        ),
        (
            DecisionTreeRegressor(max_leaf_nodes=leaves, min_samples_leaf=3),
            sk_tree.DecisionTreeRegressor(
                max_leaf_nodes=leaves, min_samples_leaf=3
            ),
            targets,
        ),
        (
            DecisionTreeRegressor(max_depth=3, min_samples_leaf=3),
            sk_tree.DecisionTreeRegressor(max_depth=3, min_samples_leaf=3),
            targets,
        ),
    ]:
        ours.fit(X, y)
        theirs.fit(X, y)
        _assert_same_tree(ours, theirs)
        assert ours.n_outputs_ == theirs.n_outputs_ == n_outputs
        assert ours.get_n_leaves() <= (ours.max_leaf_nodes or np.inf)
        np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
        path, their_path = ours.decision_path(X), theirs.decision_path(X)
        np.testing.assert_array_equal(path.indptr, their_path.indptr)
        np.testing.assert_array_equal(path.indices, their_path.indices)
        np.testing.assert_allclose(
            ours.feature_importances_, theirs.feature_importances_, atol=1e-12
        )
        if isinstance(ours, DecisionTreeClassifier):
            np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
            proba, their_proba = ours.predict_proba(X), theirs.predict_proba(X)
            if n_outputs == 1:
                proba, their_proba = [proba], [their_proba]
                np.testing.assert_array_equal(ours.classes_, theirs.classes_)
            for p, q, c, d in zip(
                proba, their_proba, ours.classes_, theirs.classes_
            ):
                np.testing.assert_allclose(p, q, rtol=1e-12)
                if n_outputs > 1:
                    np.testing.assert_array_equal(c, d)
        else:
            np.testing.assert_allclose(
                ours.predict(X), theirs.predict(X), rtol=1e-12, atol=1e-12
            )


def test_best_first_splits_the_largest_decrease_first():
    """Each split made is the frontier's largest weighted impurity decrease:
    replay the growth from the fitted tree (nodes are numbered as created)
    and check every split against the unsplit nodes' best splits."""
    X, y = load_diabetes(return_X_y=True)
    model = DecisionTreeRegressor(max_leaf_nodes=12, min_samples_leaf=5)
    t = model.fit(_float32(X), y).tree_
    cost = t.weighted_n_node_samples * t.impurity
    internal = np.flatnonzero(~t.is_leaf)
    decrease = (
        cost[internal]
        - cost[t.children_left[internal]]
        - cost[t.children_right[internal]]
    )
    # the parents in order of splitting are those of nodes 1, 3, 5, ...
    split_order = t.parent[1::2]
    np.testing.assert_array_equal(np.sort(split_order), internal)
    by_node = dict(zip(internal, decrease))
    leaf = np.flatnonzero(t.is_leaf)
    rows = model.apply(_float32(X))
    for step, parent in enumerate(split_order):
        created = 1 + 2 * step  # nodes existing before this split
        frontier = [v for v in range(created) if v not in split_order[:step]]
        assert parent in frontier
        for other in frontier:
            if other in by_node:
                assert by_node[other] <= by_node[parent] * (1 + 1e-12)
            elif other in leaf:  # never split: its best split is no better
                members = rows == other
                split = best_split(
                    _float32(X)[members],
                    y[members],
                    np.ones(members.sum()),
                    "squared_error",
                    min_samples_leaf=5,
                )
                if split is not None:
                    assert split.improvement <= by_node[parent] * (1 + 1e-9)
    assert t.n_leaves == 12


def test_max_leaf_nodes_is_checked_and_pruning_still_applies():
    X, y = load_iris(return_X_y=True)
    for bad in (1, 0, 2.5, "3"):
        with pytest.raises((ValueError, TypeError)):
            DecisionTreeClassifier(max_leaf_nodes=bad).fit(X, y)
    X = _float32(X[:, 2:3])
    ours = DecisionTreeClassifier(max_leaf_nodes=6, ccp_alpha=0.01).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(
        max_leaf_nodes=6, ccp_alpha=0.01
    ).fit(X, y)
    _assert_same_tree(ours, theirs)
    path = ours.cost_complexity_pruning_path(X, y)
    their_path = theirs.cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path.ccp_alphas, their_path.ccp_alphas)


def test_decision_path_is_the_root_to_leaf_path():
    """Row i of the indicator has exactly depth(leaf) + 1 ones: the leaf and
    its ancestors, each the parent of the next."""
    X, y = load_wine(return_X_y=True)
    for model in (
        DecisionTreeClassifier(random_state=0),
        DecisionTreeClassifier(max_leaf_nodes=7, random_state=0),
    ):
        t = model.fit(X, y).tree_
        path = model.decision_path(X)
        assert path.shape == (len(X), t.node_count)
        leaf = model.apply(X)
        np.testing.assert_array_equal(
            np.asarray(path.sum(axis=1)).ravel(), t.depth[leaf] + 1
        )
        for i in range(0, len(X), 7):
            nodes = path.indices[path.indptr[i] : path.indptr[i + 1]]
            assert nodes[0] == 0 and nodes[-1] == leaf[i]
            np.testing.assert_array_equal(t.parent[nodes[1:]], nodes[:-1])
        # the samples through each node: its n_node_samples
        np.testing.assert_array_equal(
            np.asarray(path.sum(axis=0)).ravel(), t.n_node_samples
        )


def test_preorder_renumbering_keeps_the_tree():
    X, y = load_diabetes(return_X_y=True)
    model = DecisionTreeRegressor(max_leaf_nodes=15).fit(X, y)
    best_first, preorder = model.tree_, model.tree_.preorder()
    np.testing.assert_array_equal(
        best_first.value[best_first.apply(X)],
        preorder.value[preorder.apply(X)],
    )
    # preorder: the subtree of node i is the block i .. i + size - 1
    for node in range(preorder.node_count):
        block = np.arange(node, node + preorder.subtree_size[node])
        ancestors = {node}
        for v in block[1:]:
            assert preorder.parent[v] in ancestors
            ancestors.add(v)
    np.testing.assert_array_equal(
        np.sort(best_first.subtree_size), np.sort(preorder.subtree_size)
    )


def test_several_outputs_shapes_and_bad_input():
    X, y = load_iris(return_X_y=True)
    names = np.array(["a", "b", "c"])[y]
    Y = np.column_stack([y, names, (y == 0).astype(int)]).astype(object)
    model = DecisionTreeClassifier(max_depth=2).fit(X, Y)
    assert model.n_outputs_ == 3
    assert isinstance(model.classes_, list) and len(model.classes_) == 3
    np.testing.assert_array_equal(model.n_classes_, [3, 3, 2])
    proba = model.predict_proba(X)
    assert [p.shape for p in proba] == [(150, 3), (150, 3), (150, 2)]
    for p in proba:
        np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert model.predict(X).shape == (150, 3)
    column = DecisionTreeClassifier().fit(X, y[:, None])
    assert column.n_outputs_ == 1 and column.predict(X).shape == (150,)
    regressor = DecisionTreeRegressor().fit(X, np.column_stack([X[:, 0], y]))
    assert regressor.predict(X).shape == (150, 2)
    with pytest.raises(ValueError):
        DecisionTreeRegressor().fit(X, np.c_[names, names])
    with pytest.raises(ValueError):
        DecisionTreeClassifier().fit(X, np.c_[y, X[:, 0]])


@pytest.mark.parametrize("seed", range(30))
def test_degenerate_problems_grow_valid_trees(seed):
    """Ties, duplicated rows, one class, constant features: no crash, every
    leaf within the budget, and a leaf's value is its samples' mean."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(1, 25)), int(rng.integers(1, 4))
    X = rng.integers(0, 3, size=(n, d)).astype(float)
    X[:, rng.random(d) < 0.3] = 1.0  # constant features
    X = np.repeat(X, rng.integers(1, 3), axis=0)  # duplicated rows
    n = len(X)
    y = rng.integers(0, 1 + seed % 3, size=n)  # one class when seed % 3 == 0
    w = rng.choice([0.0, 1.0, 2.5], size=n) if seed % 2 else None
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    leaves = int(rng.integers(2, 6))
    for model in (
        DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=seed),
        DecisionTreeClassifier(max_features=1, random_state=seed),
        DecisionTreeRegressor(max_leaf_nodes=leaves, min_samples_leaf=2),
    ):
        model.fit(X, y, sample_weight=w)
        t = model.tree_
        assert t.n_leaves <= (model.max_leaf_nodes or n)
        weight = np.ones(n) if w is None else w
        leaf = model.apply(X)
        for node in np.unique(leaf[weight > 0]):
            rows = (leaf == node) & (weight > 0)
            if isinstance(model, DecisionTreeRegressor):
                expected = np.average(y[rows], weights=weight[rows])
                assert t.value[node, 0, 0] == pytest.approx(expected)
            else:
                counts = np.bincount(
                    np.searchsorted(model.classes_, y[rows]),
                    weights=weight[rows],
                    minlength=model.n_classes_,
                )
                np.testing.assert_allclose(
                    t.value[node, 0], counts / counts.sum()
                )
        path = model.decision_path(X)
        np.testing.assert_array_equal(
            np.asarray(path.sum(axis=1)).ravel(), t.depth[leaf] + 1
        )


def test_plot_tree_filled_colours_by_class_and_purity():
    """filled=False (scikit-learn's default) leaves every box white;
    filled=True colours a node by its majority class, fully for a pure node
    and white for a tie, in the same boxes for a best-first tree."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb

    from mllib.plotting import PALETTE
    from mllib.tree import plot_tree

    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 1, 0])
    model = DecisionTreeClassifier(max_leaf_nodes=3).fit(X, y)
    t = model.tree_.preorder()
    for filled in (False, True):
        fig, ax = plt.subplots()
        plot_tree(model, filled=filled, ax=ax)
        colours = [
            to_rgb(text.get_bbox_patch().get_facecolor())
            for text in ax.texts
            if text.get_bbox_patch() is not None
        ]
        plt.close(fig)
        assert len(colours) == t.node_count
        for node, colour in enumerate(colours):
            p = np.sort(t.value[node, 0])[::-1]
            k = int(np.argmax(t.value[node, 0]))
            strength = (p[0] - p[1]) / (1 - p[1]) if filled else 0.0
            expected = 1 - strength * (1 - np.array(to_rgb(PALETTE[k])))
            np.testing.assert_allclose(colour, expected, atol=1e-12)


def test_plot_tree_of_several_outputs_as_scikit_learn():
    """A tree with several outputs is drawn, each leaf showing its prediction
    for every output; filled=True colours a node by its impurity (the mean
    over the outputs), full at the smallest and white at the largest, as
    scikit-learn's plot_tree."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb

    from mllib.plotting import PALETTE
    from mllib.tree import plot_tree

    X = np.arange(8.0)[:, None]
    Y = np.c_[[0, 0, 1, 1, 1, 0, 0, 1], list("aabbbbaa")]
    for model in (
        DecisionTreeClassifier(max_depth=2).fit(X, Y),
        DecisionTreeRegressor(max_depth=2).fit(X, np.c_[X[:, 0], -X[:, 0]]),
    ):
        t = model.tree_.preorder()
        fig, ax = plt.subplots()
        plot_tree(model, filled=True, ax=ax)
        boxes = [text for text in ax.texts if text.get_bbox_patch()]
        plt.close(fig)
        assert len(boxes) == t.node_count
        strength = (t.impurity.max() - t.impurity) / np.ptp(t.impurity)
        for node, box in enumerate(boxes):
            colour = to_rgb(box.get_bbox_patch().get_facecolor())
            expected = 1 - strength[node] * (1 - np.array(to_rgb(PALETTE[0])))
            np.testing.assert_allclose(colour, expected, atol=1e-12)


def test_plot_tree_has_scikit_learns_signature():
    """The same parameters, in the same order, with the same defaults."""
    import inspect

    from mllib.tree import plot_tree

    def parameters(function):
        return [
            (p.name, p.kind, p.default)
            for p in inspect.signature(function).parameters.values()
        ]

    assert parameters(plot_tree) == parameters(sk_tree.plot_tree)


PLOT_TREE_OPTIONS = [
    {},
    {"proportion": True},
    {"label": "root", "node_ids": True, "class_names": True, "max_depth": 1},
    {
        "label": "none",
        "impurity": False,
        "precision": 1,
        "feature_names": ["height"],
        "class_names": ["low", "high", "top"],
    },
    {"filled": True, "rounded": True, "precision": 5, "max_depth": 0},
]


def _box_texts(annotations):
    """The texts of the boxes (the annotations with a box), in order."""
    return [a.get_text() for a in annotations if a.get_bbox_patch()]


def _graphviz_texts(model, **options):
    """The node texts scikit-learn's export_graphviz writes for ``model``
    (any fitted tree: it reads only tree_), in depth-first order, with its
    escaped line breaks made line breaks: the same text as its plot_tree's
    (both call one node_to_str), but for the nodes cut off by max_depth,
    which plot_tree pads."""
    import re

    options.pop("rounded", None)  # DOT's rounded also changes the font
    options.pop("filled", None)
    dot = sk_tree.export_graphviz(model, **options)
    labels = re.findall(r'^\d+ \[label="(.*?)"[,\]]', dot, flags=re.MULTILINE)
    return [
        "\n  (...)  \n" if label == "(...)" else label.replace("\\n", "\n")
        for label in labels
    ]


@pytest.mark.parametrize("options", PLOT_TREE_OPTIONS)
@pytest.mark.parametrize("n_outputs", [1, 3])
def test_plot_tree_writes_scikit_learns_node_texts(options, n_outputs):
    """plot_tree writes in every node the text scikit-learn writes (test,
    impurity, samples, value, class; label, node_ids, proportion,
    precision, max_depth as scikit-learn reads them): for the trees of one
    feature that equal scikit-learn's (test_best_first_and_several_outputs_
    equal_scikit_learn), the boxes of the two libraries' plot_tree carry
    the same texts in the same (depth-first) order; and for any mllib tree,
    weighted samples included, the texts scikit-learn's export_graphviz
    writes for that very tree, which prints the same numbers exactly."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mllib.tree import plot_tree

    X, labels, targets = _one_feature_outputs(3, n_outputs)
    if n_outputs == 1:
        labels, targets = labels[:, 0], targets[:, 0]
    weights = np.random.default_rng(0).uniform(0.5, 2.0, len(X))
    cases = [
        (DecisionTreeClassifier, {"max_depth": 3}, labels),
        (DecisionTreeClassifier, {"criterion": "entropy", "max_depth": 2},
         labels),
        (DecisionTreeRegressor, {"max_leaf_nodes": 5}, targets),
    ]  # fmt: skip
    for Ours, params, y in cases:
        Theirs = getattr(sk_tree, Ours.__name__)
        ours, theirs = Ours(**params).fit(X, y), Theirs(**params).fit(X, y)
        _assert_same_tree(ours, theirs)
        texts = []
        for tree, draw in ((ours, plot_tree), (theirs, sk_tree.plot_tree)):
            fig, ax = plt.subplots(figsize=(8, 5))
            texts.append(_box_texts(draw(tree, ax=ax, **options)))
            plt.close(fig)
        assert texts[0] == texts[1]
        weighted = Ours(**params).fit(X, y, sample_weight=weights)
        fig, ax = plt.subplots(figsize=(8, 5))
        drawn = _box_texts(plot_tree(weighted, ax=ax, **options))
        plt.close(fig)
        assert drawn == _graphviz_texts(weighted, **options)


def test_plot_tree_layout_font_and_bad_options():
    """The leaves sit one apart from left to right in depth-first order and
    every internal node midway above its children; with fontsize=None the
    widest box is nine tenths of that distance wide (to the renderer's
    rounding of text extents); bad options raise a ValueError, an unfitted
    tree a NotFittedError."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mllib.tree import plot_tree

    X = np.arange(10.0)[:, None]
    y = np.array([0, 0, 1, 1, 1, 0, 0, 1, 1, 0])
    model = DecisionTreeClassifier(max_leaf_nodes=4).fit(X, y)
    t = model.tree_
    fig, ax = plt.subplots(figsize=(6, 4))
    boxes = plot_tree(model, ax=ax)[: t.node_count]

    def depth_first(node):
        if t.children_left[node] == TREE_LEAF:
            return [node]
        left, right = t.children_left[node], t.children_right[node]
        return [node] + depth_first(left) + depth_first(right)

    order = depth_first(0)
    x = {node: box.xy[0] for node, box in zip(order, boxes)}
    leaves = [node for node in order if t.children_left[node] == TREE_LEAF]
    np.testing.assert_array_equal([x[v] for v in leaves], range(len(leaves)))
    for node in order:
        assert boxes[order.index(node)].xy[1] == -t.depth[node]
        if t.children_left[node] != TREE_LEAF:
            left, right = t.children_left[node], t.children_right[node]
            assert x[node] == (x[left] + x[right]) / 2
    renderer = fig.canvas.get_renderer()
    widths = [
        b.get_bbox_patch().get_window_extent(renderer).width for b in boxes
    ]
    unit = np.diff(ax.transData.transform([[0, 0], [1, 0]])[:, 0])[0]
    assert max(widths) == pytest.approx(0.9 * unit, rel=0.05)
    plt.close(fig)
    for bad in ({"label": "leaves"}, {"max_depth": -1}, {"precision": 1.5}):
        with pytest.raises(ValueError):
            plot_tree(model, **bad)
    with pytest.raises(NotFittedError):
        plot_tree(DecisionTreeClassifier())


# --- several outputs against scikit-learn and independent routes ---------
#
# Features with distinct float32 values and two to four of them: equally
# good splits on different features (a tie scikit-learn breaks at random)
# occur in small nodes, so full trees are compared up to ties, each tie
# checked by recomputing both decreases from the samples; with one feature
# (_one_feature_outputs) the trees coincide.


def _several_outputs(seed, n_outputs=3):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(30, 90)), int(rng.integers(2, 5))
    X = _float32(rng.normal(size=(n, d)))
    signal = np.sin(2 * X[:, :1] + X[:, 1:2])
    targets = signal + rng.normal(size=(n, n_outputs))
    labels = (targets > 0).astype(int) + (targets > 1)
    weight = _float32(rng.uniform(0.5, 2.0, size=n))
    return X, labels, targets, weight


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("criterion", ["gini", "entropy", "squared_error"])
def test_several_outputs_equal_scikit_learn_up_to_ties(seed, criterion):
    """Node by node the same samples, values and impurities (the mean of the
    outputs' impurities); where the split differs, both splits decrease the
    mean impurity equally; the leaves are pure, as scikit-learn's."""
    X, labels, targets, weight = _several_outputs(seed)
    w = weight if seed % 2 else None
    if criterion == "squared_error":
        ours, theirs, y = (
            DecisionTreeRegressor(),
            sk_tree.DecisionTreeRegressor(),
            targets,
        )
    else:
        ours = DecisionTreeClassifier(criterion=criterion)
        theirs = sk_tree.DecisionTreeClassifier(criterion=criterion)
        y = labels
    ours.fit(X, y, sample_weight=w)
    theirs.fit(X, y, sample_weight=w)
    assert ours.n_outputs_ == theirs.n_outputs_ == 3
    _assert_same_tree_up_to_ties(ours, theirs, X, y, w, criterion)
    # distinct rows: every leaf is pure in every output
    t = ours.tree_
    leaf_cost = (t.weighted_n_node_samples * t.impurity)[t.is_leaf]
    root_cost = t.weighted_n_node_samples[0] * t.impurity[0]
    assert leaf_cost.sum() <= 1e-12 * root_cost
    np.testing.assert_allclose(ours.predict(X), y, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_several_outputs_with_weights_and_pruning_equal_scikit_learn(seed):
    """One feature, so no two features tie: with sample weights the grown
    and the pruned trees, their predictions, the total weighted leaf
    impurity and (regression) the pruning path equal scikit-learn's."""
    X, labels, targets = _one_feature_outputs(seed, 3)
    w = _float32(np.random.default_rng(seed).uniform(0.5, 2.0, len(X)))
    for ours, theirs, y in [
        (
            DecisionTreeClassifier(criterion="entropy", min_samples_leaf=3),
            sk_tree.DecisionTreeClassifier(
                criterion="entropy", min_samples_leaf=3
            ),
            labels,
        ),
        (
            DecisionTreeClassifier(max_depth=4),
            sk_tree.DecisionTreeClassifier(max_depth=4),
            labels,
        ),
        (
            DecisionTreeRegressor(min_samples_leaf=2),
            sk_tree.DecisionTreeRegressor(min_samples_leaf=2),
            targets,
        ),
    ]:
        path = theirs.cost_complexity_pruning_path(X, y, sample_weight=w)
        # between two distinct alphas in the middle of the path: no alpha
        # is near, so rounding cannot decide which node is collapsed
        alphas = np.unique(path.ccp_alphas)
        middle = len(alphas) // 2
        for ccp_alpha in (0.0, alphas[middle - 1 : middle + 1].mean()):
            ours.set_params(ccp_alpha=ccp_alpha).fit(X, y, sample_weight=w)
            theirs.set_params(ccp_alpha=ccp_alpha).fit(X, y, sample_weight=w)
            _assert_same_tree(ours, theirs)
            a, b = ours.tree_, theirs.tree_
            total = (a.weighted_n_node_samples * a.impurity)[a.is_leaf].sum()
            their_total = (b.weighted_n_node_samples * b.impurity)[
                b.children_left == TREE_LEAF
            ].sum()
            assert total == pytest.approx(their_total, rel=1e-12, abs=1e-12)
            prediction, theirs_ = ours.predict(X), theirs.predict(X)
            if isinstance(ours, DecisionTreeRegressor):
                np.testing.assert_allclose(prediction, theirs_, rtol=1e-12)
            else:
                np.testing.assert_array_equal(prediction, theirs_)
                for p, q in zip(
                    ours.predict_proba(X), theirs.predict_proba(X)
                ):
                    np.testing.assert_allclose(p, q, rtol=1e-12, atol=1e-15)
        if isinstance(ours, DecisionTreeRegressor):
            ours_path = ours.cost_complexity_pruning_path(
                X, y, sample_weight=w
            )
            np.testing.assert_allclose(
                ours_path.ccp_alphas, path.ccp_alphas, rtol=1e-9, atol=1e-12
            )
            np.testing.assert_allclose(
                ours_path.impurities, path.impurities, rtol=1e-9, atol=1e-12
            )


@pytest.mark.parametrize("criterion", ["gini", "entropy", "squared_error"])
@pytest.mark.parametrize("seed", range(3))
def test_each_split_maximises_the_mean_of_the_outputs_decreases(
    criterion, seed
):
    """Brute force, from the samples: every split of a tree with several
    outputs has the largest decrease of the mean over the outputs of
    W I(node) among all thresholds of all features, and that decrease is
    W I - W_L I_L - W_R I_R of the tree's own node arrays."""
    X, labels, targets, weight = _several_outputs(seed)
    X, labels, targets, weight = X[:40], labels[:40], targets[:40], weight[:40]
    if criterion == "squared_error":
        model, y = DecisionTreeRegressor(max_depth=3), targets
    else:
        model, y = (
            DecisionTreeClassifier(criterion=criterion, max_depth=3),
            labels,
        )
    t = model.fit(X, y, sample_weight=weight).tree_
    cost = t.weighted_n_node_samples * t.impurity
    path = model.decision_path(X).toarray().astype(bool)
    for node in np.flatnonzero(~t.is_leaf):
        rows = path[:, node]
        best = max(
            _split_decrease(X, y, weight, criterion, rows, j, (a + b) / 2)
            for j in range(X.shape[1])
            for a, b in pairwise(np.unique(X[rows, j]))
        )
        chosen = _split_decrease(
            X, y, weight, criterion, rows, t.feature[node], t.threshold[node]
        )
        assert chosen == pytest.approx(best, rel=1e-9, abs=1e-12)
        left, right = t.children_left[node], t.children_right[node]
        assert cost[node] - cost[left] - cost[right] == pytest.approx(
            chosen, rel=1e-9, abs=1e-12
        )


@pytest.mark.parametrize(
    "model",
    [
        DecisionTreeClassifier(criterion="gini"),
        DecisionTreeClassifier(criterion="entropy", max_leaf_nodes=7),
        DecisionTreeClassifier(criterion="misclassification", max_depth=4),
        DecisionTreeRegressor(),
        DecisionTreeRegressor(max_leaf_nodes=7, ccp_alpha=0.01),
    ],
    ids=repr,
)
def test_a_column_or_two_copies_of_y_give_the_single_output_tree(model):
    """y of shape (n, 1) is one output, as in scikit-learn (1-D predictions,
    no warning); two equal outputs have the same mean impurity as one, so the
    tree is the single-output tree, predicting that output twice."""
    X, labels, targets, weight = _several_outputs(0, n_outputs=1)
    y = (targets if isinstance(model, DecisionTreeRegressor) else labels)[:, 0]
    single = clone(model).fit(X, y, sample_weight=weight)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scikit-learn's trees do not warn
        column = clone(model).fit(X, y[:, None], sample_weight=weight)
    twice = clone(model).fit(X, np.c_[y, y], sample_weight=weight)
    assert single.n_outputs_ == column.n_outputs_ == 1
    assert twice.n_outputs_ == 2
    for other in (column, twice):
        a, b = single.tree_, other.tree_
        for field in ("children_left", "feature", "threshold", "impurity"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        for o in range(other.n_outputs_):
            np.testing.assert_array_equal(b.value[:, o], a.value[:, 0])
    prediction = single.predict(X)
    assert prediction.shape == column.predict(X).shape == (len(X),)
    np.testing.assert_array_equal(column.predict(X), prediction)
    np.testing.assert_array_equal(
        twice.predict(X), np.c_[prediction, prediction]
    )
    if isinstance(model, DecisionTreeClassifier):
        np.testing.assert_array_equal(column.classes_, single.classes_)
        assert isinstance(twice.classes_, list)
        np.testing.assert_array_equal(
            twice.n_classes_, [single.n_classes_] * 2
        )
        for proba in twice.predict_proba(X):
            np.testing.assert_array_equal(proba, single.predict_proba(X))


def test_several_outputs_bad_input_as_scikit_learn():
    X, labels, targets, weight = _several_outputs(1)
    for ours, theirs in [
        (DecisionTreeClassifier(), sk_tree.DecisionTreeClassifier()),
        (DecisionTreeRegressor(), sk_tree.DecisionTreeRegressor()),
    ]:
        for y in (labels[:, :, None], labels[:, :0]):  # 3-D, no output
            for model in (ours, theirs):
                with pytest.raises(ValueError):
                    model.fit(X, y)
        with pytest.raises(ValueError, match="inconsistent numbers"):
            ours.fit(X, labels[:-1])
        with pytest.raises(ValueError, match="sample_weight"):
            ours.fit(X, labels, sample_weight=weight[:-1])
    for model in (DecisionTreeClassifier(), sk_tree.DecisionTreeClassifier()):
        with pytest.raises(ValueError, match="continuous-multioutput"):
            model.fit(X, targets)
    # a 0/1 indicator matrix (multilabel): two classes per output
    indicator = (targets > 0).astype(int)
    ours = DecisionTreeClassifier(max_depth=2).fit(X, indicator)
    theirs = sk_tree.DecisionTreeClassifier(max_depth=2).fit(X, indicator)
    np.testing.assert_array_equal(ours.n_classes_, theirs.n_classes_)
    assert ours.predict(X).shape == theirs.predict(X).shape == indicator.shape


@pytest.mark.parametrize("n_outputs", [1, 2])
def test_scikit_learn_export_graphviz_draws_these_trees(n_outputs):
    """tree_ has scikit-learn's n_outputs, n_classes and max_n_classes, so
    sklearn.tree.export_graphviz (which takes any fitted tree) writes the
    same text, colours included, for mllib's tree as for scikit-learn's."""
    X, labels, targets = _one_feature_outputs(3, n_outputs)
    if n_outputs == 1:
        labels, targets = labels[:, 0], targets[:, 0]
    for ours, theirs, y in [
        (
            DecisionTreeClassifier(max_depth=3),
            sk_tree.DecisionTreeClassifier(max_depth=3),
            labels,
        ),
        (
            DecisionTreeRegressor(max_leaf_nodes=5, ccp_alpha=0.01),
            sk_tree.DecisionTreeRegressor(max_leaf_nodes=5, ccp_alpha=0.01),
            targets,
        ),
    ]:
        a, b = ours.fit(X, y).tree_, theirs.fit(X, y).tree_
        assert a.n_outputs == b.n_outputs == n_outputs
        assert a.max_n_classes == b.max_n_classes
        np.testing.assert_array_equal(a.n_classes, b.n_classes)
        assert sk_tree.export_graphviz(
            ours, filled=True
        ) == sk_tree.export_graphviz(theirs, filled=True)
