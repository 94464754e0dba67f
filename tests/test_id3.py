"""mllib.tree.ID3Classifier: information gain and gain ratio by hand on the
play-tennis table (entered here, Mitchell 1997, Table 3.2), the C4.5
selection rule, growth invariants, and reduced-error and cost-complexity
pruning against brute-force enumeration of every pruning."""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import entropy

from mllib.exceptions import NotFittedError
from mllib.tree import ID3Classifier, reduced_error_prune
from mllib.tree.id3 import gain_ratio, information_gain, split_information

PLAY_TENNIS = """\
sunny hot high weak no
sunny hot high strong no
overcast hot high weak yes
rain mild high weak yes
rain cool normal weak yes
rain cool normal strong no
overcast cool normal strong yes
sunny mild high weak no
sunny cool normal weak yes
rain mild normal weak yes
sunny mild normal strong yes
overcast mild high strong yes
overcast hot normal weak yes
rain mild high strong no"""
FEATURES = ["outlook", "temperature", "humidity", "wind"]


def play_tennis():
    table = np.array([row.split() for row in PLAY_TENNIS.splitlines()])
    categories, codes = [], []
    for column in table[:, :4].T:
        names, code = np.unique(column, return_inverse=True)
        categories.append(list(names))
        codes.append(code)
    return np.column_stack(codes).astype(float), table[:, 4], categories


def H(*counts):
    """Entropy in bits of class counts, written out."""
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def test_gains_by_hand_on_play_tennis():
    X, y, _ = play_tennis()
    # 9 yes, 5 no; outlook sunny 2/3, overcast 4/0, rain 3/2, and so on
    H_S = H(9, 5)
    by_hand = {
        "outlook": H_S - (5 * H(2, 3) + 4 * H(4, 0) + 5 * H(3, 2)) / 14,
        "temperature": H_S - (4 * H(2, 2) + 6 * H(4, 2) + 4 * H(3, 1)) / 14,
        "humidity": H_S - (7 * H(3, 4) + 7 * H(6, 1)) / 14,
        "wind": H_S - (8 * H(6, 2) + 6 * H(3, 3)) / 14,
    }
    split_by_hand = {
        "outlook": H(5, 4, 5),
        "temperature": H(4, 6, 4),
        "humidity": H(7, 7),
        "wind": H(8, 6),
    }
    mitchell = {  # the values printed in Mitchell (1997), §3.4.1.2
        "outlook": 0.246,
        "temperature": 0.029,
        "humidity": 0.151,
        "wind": 0.048,
    }
    for j, name in enumerate(FEATURES):
        gain = information_gain(X[:, j], y)
        assert gain == pytest.approx(by_hand[name], abs=1e-12)
        assert gain == pytest.approx(mitchell[name], abs=1e-3)
        assert split_information(X[:, j]) == pytest.approx(split_by_hand[name])
        assert gain_ratio(X[:, j], y) == pytest.approx(
            by_hand[name] / split_by_hand[name]
        )


@pytest.mark.parametrize("criterion", ["gain", "gain_ratio"])
def test_play_tennis_tree_is_mitchells(criterion):
    X, y, categories = play_tennis()
    model = ID3Classifier(criterion=criterion).fit(X, y)
    code = {
        name: {value: float(i) for i, value in enumerate(values)}
        for name, values in zip(FEATURES, categories)
    }
    root = model.tree_
    assert FEATURES[root.feature] == "outlook"
    overcast = root.children[code["outlook"]["overcast"]]
    sunny = root.children[code["outlook"]["sunny"]]
    rain = root.children[code["outlook"]["rain"]]
    assert overcast.is_leaf and model.classes_[overcast.prediction] == "yes"
    assert FEATURES[sunny.feature] == "humidity"
    assert FEATURES[rain.feature] == "wind"
    for child, value, label in [
        (sunny, code["humidity"]["high"], "no"),
        (sunny, code["humidity"]["normal"], "yes"),
        (rain, code["wind"]["strong"], "no"),
        (rain, code["wind"]["weak"], "yes"),
    ]:
        leaf = child.children[value]
        assert leaf.is_leaf and model.classes_[leaf.prediction] == label
    assert model.get_n_leaves() == 5 and model.get_depth() == 2
    np.testing.assert_array_equal(model.predict(X), y)


def test_an_identifier_has_the_largest_gain():
    X, y, _ = play_tennis()
    day = np.arange(14.0)
    assert information_gain(day, y) == pytest.approx(H(9, 5))
    assert split_information(day) == pytest.approx(math.log2(14))
    model = ID3Classifier().fit(np.column_stack([X, day]), y)
    assert model.tree_.feature == 4 and model.get_n_leaves() == 14
    # fourteen samples are too few for C4.5's correction: the day's ratio,
    # 0.940 / 3.807 = 0.247, still beats outlook's 0.156
    c45 = ID3Classifier(criterion="gain_ratio").fit(
        np.column_stack([X, day]), y
    )
    assert c45.tree_.feature == 4


def test_gain_ratio_only_among_features_of_average_gain():
    """A feature that isolates two samples has a tiny split information: it
    beats a weak informative feature on the ratio alone, but its gain is
    below the average, so C4.5 does not consider it."""
    y = np.repeat([0, 1], 10)
    weak = y.copy()
    weak[[0, 1, 2, 10, 11, 12]] ^= 1  # agrees with y on 14 of 20
    lopsided = np.zeros(20, dtype=int)
    lopsided[[18, 19]] = 1  # two samples of class 1 on their own
    X = np.column_stack([weak, lopsided]).astype(float)
    gains = [information_gain(x, y) for x in X.T]
    ratios = [gain_ratio(x, y) for x in X.T]
    assert gains[1] < np.mean(gains) <= gains[0] and ratios[1] > ratios[0]
    c45 = ID3Classifier(criterion="gain_ratio", max_depth=1).fit(X, y)
    assert c45.tree_.feature == 0


def many_valued_noise(seed, n=200):
    """One informative binary feature (the label flipped with probability
    0.2: gain about 0.28 bits), four nearly useless ones (flipped with
    probability 0.45) and a 150-valued feature independent of the label,
    whose gain is about 149 / (2 n ln 2) = 0.54 bits by chance alone."""
    rng = np.random.default_rng(seed)
    y = rng.integers(2, size=n)
    binary = [
        np.where(rng.uniform(size=n) < flip, 1 - y, y)
        for flip in (0.2, 0.45, 0.45, 0.45, 0.45)
    ]
    noise = rng.integers(150, size=n)
    return np.column_stack([*binary, noise]).astype(float), y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gain_ratio_resists_a_many_valued_feature(seed):
    X, y = many_valued_noise(seed)

    def gain(column):  # from the definition, with scipy's entropy
        values = np.unique(column)
        weights = np.array([np.mean(column == v) for v in values])
        conditional = [
            entropy(np.bincount(y[column == v], minlength=2), base=2)
            for v in values
        ]
        return entropy(np.bincount(y), base=2) - weights @ conditional

    gains = np.array([gain(X[:, j]) for j in range(6)])
    np.testing.assert_allclose(
        gains, [information_gain(X[:, j], y) for j in range(6)]
    )
    # the premise: pure noise out-gains every informative feature, and the
    # best informative one has at least the average gain
    assert gains[5] > gains[:5].max() and gains[:5].max() >= gains.mean()
    assert ID3Classifier(max_depth=1).fit(X, y).tree_.feature == 5
    c45 = ID3Classifier(criterion="gain_ratio", max_depth=1).fit(X, y)
    assert c45.tree_.feature == 0


def test_growth_invariants(rng):
    X = rng.integers(0, 3, size=(80, 5)).astype(float)
    y = (X[:, 0] + X[:, 1] * X[:, 2]) % 3  # a function of X: consistent
    model = ID3Classifier().fit(X, y)
    np.testing.assert_array_equal(model.predict(X), y)

    def paths(node, used):
        if node.is_leaf:
            return
        assert node.feature not in used  # never tested twice on a path
        assert len(node.children) >= 2
        for child in node.children.values():
            paths(child, used | {node.feature})

    paths(model.tree_, set())
    assert ID3Classifier(max_depth=2).fit(X, y).get_depth() <= 2
    big = ID3Classifier(min_samples_split=30).fit(X, y)
    assert big.get_n_leaves() < model.get_n_leaves()
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_xor_is_split_despite_zero_gain(rng):
    X = rng.integers(0, 2, size=(200, 3)).astype(float)
    y = np.logical_xor(X[:, 0], X[:, 1]).astype(int)
    assert information_gain(X[:, 0], y) < 0.02
    model = ID3Classifier().fit(X, y)
    np.testing.assert_array_equal(model.predict(X), y)


def test_an_unseen_category_gets_the_node_majority():
    X, y, _ = play_tennis()
    model = ID3Classifier().fit(X, y)
    # outlook code 7 never occurs: the root's majority, "yes" (9 of 14)
    assert model.predict([[7.0, 0.0, 0.0, 0.0]])[0] == "yes"
    np.testing.assert_allclose(
        model.predict_proba([[7.0, 0.0, 0.0, 0.0]]), [[5 / 14, 9 / 14]]
    )


def all_prunings(node):
    if node.is_leaf:
        return [node]
    options = [all_prunings(child) for child in node.children.values()]
    keys = list(node.children)
    return [node.as_leaf()] + [
        node.with_children(dict(zip(keys, combo)))
        for combo in itertools.product(*options)
    ]


def errors(tree, X, y):
    return sum(tree.leaf_for(x).prediction != label for x, label in zip(X, y))


def signature(node):
    if node.is_leaf:
        return None
    return (
        node.feature,
        tuple(sorted((k, signature(c)) for k, c in node.children.items())),
    )


def noisy_categorical(seed, n):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 3)).astype(float)
    y = ((X[:, 0] == 1) | (X[:, 1] == 2)).astype(int)
    return X, np.where(rng.uniform(size=n) < 0.2, 1 - y, y)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reduced_error_pruning_is_the_smallest_best_pruning(seed):
    X, y = noisy_categorical(seed, 60)
    X_val, y_val = noisy_categorical(seed + 100, 40)
    model = ID3Classifier(max_depth=3).fit(X, y)
    candidates = all_prunings(model.tree_)
    assert len(candidates) > 50
    best = min(errors(t, X_val, y_val) for t in candidates)
    smallest = min(
        t.n_leaves for t in candidates if errors(t, X_val, y_val) == best
    )
    pruned = reduced_error_prune(model, X_val, y_val)
    assert errors(pruned.tree_, X_val, y_val) == best
    assert pruned.get_n_leaves() == smallest
    np.testing.assert_array_equal(
        pruned.predict(X_val),
        [pruned.classes_[pruned.tree_.leaf_for(x).prediction] for x in X_val],
    )
    assert model.get_n_leaves() >= smallest  # the model is not modified
    assert signature(model.tree_) == signature(
        ID3Classifier(max_depth=3).fit(X, y).tree_
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_cost_complexity_pruning_against_brute_force(seed):
    X, y = noisy_categorical(seed, 60)
    model = ID3Classifier(max_depth=3).fit(X, y)
    candidates = all_prunings(model.tree_)
    assert len(candidates) > 50
    path = model.cost_complexity_pruning_path(X, y)
    alphas = path.ccp_alphas
    assert alphas[0] == 0 and np.all(np.diff(alphas) > 0)
    assert np.all(np.diff(path.impurities) >= 0)
    assert path.impurities[-1] == pytest.approx(
        (len(y) - np.bincount(y).max()) / len(y)
    )
    grid = np.concatenate(
        [alphas[1:], (alphas[1:] + alphas[:-1]) / 2, [alphas[-1] * 2]]
    )
    for alpha in grid:
        costs = [
            sum(leaf_errors(t)) / len(y) + alpha * t.n_leaves
            for t in candidates
        ]
        best = min(costs)
        smallest = min(
            t.n_leaves for t, c in zip(candidates, costs) if c <= best + 1e-12
        )
        pruned = ID3Classifier(max_depth=3, ccp_alpha=alpha).fit(X, y)
        assert sum(leaf_errors(pruned.tree_)) / len(
            y
        ) + alpha * pruned.get_n_leaves() == (pytest.approx(best))
        assert pruned.get_n_leaves() == smallest
    # between two path alphas the pruned tree does not change
    for low, high in itertools.pairwise(alphas[1:]):
        a = ID3Classifier(max_depth=3, ccp_alpha=low).fit(X, y)
        b = ID3Classifier(max_depth=3, ccp_alpha=(low + high) / 2).fit(X, y)
        assert signature(a.tree_) == signature(b.tree_)


def leaf_errors(node):
    if node.is_leaf:
        return [node.training_errors]
    return [e for child in node.children.values() for e in leaf_errors(child)]


def test_bad_input():
    X, y, _ = play_tennis()
    with pytest.raises(NotFittedError):
        ID3Classifier().predict(X)
    with pytest.raises(ValueError, match="criterion"):
        ID3Classifier(criterion="gini").fit(X, y)
    with pytest.raises(ValueError, match="max_depth"):
        ID3Classifier(max_depth=0).fit(X, y)
    with pytest.raises(ValueError, match="could not convert|numbers"):
        ID3Classifier().fit(np.array([["a"], ["b"]]), ["x", "y"])
    model = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="pruning set"):
        reduced_error_prune(model, X, np.full(14, "maybe"))
    with pytest.raises(ValueError, match="pruning set"):
        reduced_error_prune(model, X[:, :2], y)
    with pytest.raises(ValueError, match="single value"):
        gain_ratio(np.ones(5), np.arange(5))
