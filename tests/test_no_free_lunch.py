"""mllib.no_free_lunch: exact averages 1 - 1/K over all targets, against an
independent enumeration that refits the learner for every target."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier as SkKNN
from sklearn.tree import DecisionTreeClassifier as SkTree

from mllib.dummy import DummyClassifier
from mllib.no_free_lunch import off_training_set_errors


def one_nearest_neighbour(X_train, y_train, X_test):
    distances = np.abs(X_test[:, None, 0] - X_train[None, :, 0])
    return y_train[np.argmin(distances, axis=1)]


def anti_learner(X_train, y_train, X_test):
    """Predicts the minority training label everywhere."""
    counts = np.bincount(y_train, minlength=2)
    return np.full(len(X_test), np.argmin(counts))


def independent_errors(fit_predict, domain, train, n_classes):
    unseen = [i for i in range(len(domain)) if i not in set(train)]
    errors = []
    for target in itertools.product(range(n_classes), repeat=len(domain)):
        target = np.array(target)
        prediction = fit_predict(domain[train], target[train], domain[unseen])
        errors.append(
            Fraction(int(np.sum(prediction != target[unseen])), len(unseen))
        )
    return errors


DOMAIN = np.arange(8.0)[:, None]
LEARNERS = {
    "1-NN": one_nearest_neighbour,
    "anti": anti_learner,
    "majority": DummyClassifier(strategy="most_frequent"),
    "sklearn-tree": SkTree(random_state=0),
    "sklearn-1nn": SkKNN(n_neighbors=1),
}


@pytest.mark.parametrize("name", list(LEARNERS))
@pytest.mark.parametrize("train", [[0, 3, 5], [1, 1, 6, 2], [7]])
def test_every_learner_averages_to_one_half_exactly(name, train):
    errors = off_training_set_errors(LEARNERS[name], DOMAIN, train)
    assert len(errors) == 2**8
    assert all(isinstance(e, Fraction) for e in errors)
    assert sum(errors) / len(errors) == Fraction(1, 2)


def test_matches_an_independent_enumeration():
    train = [0, 2, 3]
    for learner in (one_nearest_neighbour, anti_learner):
        assert off_training_set_errors(
            learner, DOMAIN, train
        ) == independent_errors(learner, DOMAIN, train, 2)
    # an estimator is refitted from scratch for every target
    tree = SkTree(random_state=0)

    def refit(X, y, X_test):
        return SkTree(random_state=0).fit(X, y).predict(X_test)

    assert off_training_set_errors(tree, DOMAIN, train) == (
        independent_errors(refit, DOMAIN, train, 2)
    )


def test_learners_differ_target_by_target_but_not_on_average():
    train = [0, 3, 5]
    nn = off_training_set_errors(one_nearest_neighbour, DOMAIN, train)
    anti = off_training_set_errors(anti_learner, DOMAIN, train)
    wins = sum(a < b for a, b in zip(nn, anti))
    losses = sum(a > b for a, b in zip(nn, anti))
    assert wins > 0 and losses > 0
    assert sum(a - b for a, b in zip(nn, anti)) == 0
    # on a target the 1-NN rule suits (f = 1[x >= 4]), it beats the anti
    smooth = int("".join("1" if x >= 4 else "0" for x in range(8)), 2)
    assert nn[smooth] < anti[smooth]


@pytest.mark.parametrize("n_classes", [3, 4])
def test_more_labels_average_to_one_minus_one_over_k(n_classes):
    domain = np.arange(5.0)
    errors = off_training_set_errors(
        one_nearest_neighbour, domain, [0, 4], n_classes=n_classes
    )
    assert len(errors) == n_classes**5
    assert sum(errors) / len(errors) == 1 - Fraction(1, n_classes)


def test_training_set_error_is_not_off_training_set_error():
    # the memorising 1-NN is never wrong on the points it saw; the function
    # counts only the unseen points, whatever the training set repeats
    errors = off_training_set_errors(
        one_nearest_neighbour, DOMAIN, [0, 0, 0, 1]
    )
    assert {e.denominator for e in errors} <= {1, 2, 3, 6}
    assert max(errors) == 1 and min(errors) == 0


def test_bad_input():
    with pytest.raises(ValueError, match="whole domain"):
        off_training_set_errors(anti_learner, DOMAIN, list(range(8)))
    with pytest.raises(ValueError, match="train_indices"):
        off_training_set_errors(anti_learner, DOMAIN, [9])
    with pytest.raises(ValueError, match="train_indices"):
        off_training_set_errors(anti_learner, DOMAIN, [])
    with pytest.raises(ValueError, match="n_classes"):
        off_training_set_errors(anti_learner, DOMAIN, [0], n_classes=1)
    with pytest.raises(ValueError, match="too many"):
        off_training_set_errors(anti_learner, np.arange(25.0), [0])
    with pytest.raises(TypeError, match="learner"):
        off_training_set_errors("tree", DOMAIN, [0])
