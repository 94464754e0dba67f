"""Seeded data generators for the online-learning chapter: margins, expert
advice, disjunctions."""

import numbers

import numpy as np

from ..validation import check_random_state, check_scalar


def _check_count(value, name, low=1):
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or value < low
    ):
        raise ValueError(f"{name} must be an integer >= {low}; got {value!r}.")
    return int(value)


def make_separable(n_samples=100, n_features=2, margin=0.1, random_state=None):
    r"""Points in the unit ball just outside a margin ``margin`` around a
    random hyperplane through 0.

    A unit normal :math:`u` is drawn at random; each point is :math:`x = s\,u +
    r\,v` with a random sign and a distance :math:`|s|` to the hyperplane
    uniform on ``[margin, min(2 * margin, 1)]``, a random unit :math:`v\perp
    u`, and :math:`r` uniform in the disc that keeps :math:`\lVert
    x\rVert\le1`. Hence :math:`R=\max_i\lVert x_i\rVert\le1` and
    :math:`y_i\,u^\top x_i\ge` ``margin`` with
    :math:`y_i=\operatorname{sign}(u^\top x_i)`. Every point lies in a thin
    slab next to the margin, so the margin is nearly attained by many points:
    hard instances for the perceptron.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), entries in {-1, +1}
    u : ndarray of shape (n_features,)
        The unit normal of the labelling hyperplane.
    """
    n_samples = _check_count(n_samples, "n_samples")
    n_features = _check_count(n_features, "n_features", low=2)
    margin = check_scalar(
        margin,
        "margin",
        low=0.0,
        high=1.0,
        low_inclusive=False,
        high_inclusive=False,
    )
    rng = check_random_state(random_state)
    u = rng.normal(size=n_features)
    u /= np.linalg.norm(u)
    y = rng.choice([-1.0, 1.0], size=n_samples)
    distance = rng.uniform(margin, min(2.0 * margin, 1.0), size=n_samples)
    v = rng.normal(size=(n_samples, n_features))
    v -= np.outer(v @ u, u)  # project onto the hyperplane u^T x = 0
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    # uniform radius in the (d-1)-ball of radius sqrt(1 - s^2) left inside the
    # unit ball
    r = np.sqrt(1.0 - distance**2) * rng.uniform(size=n_samples) ** (
        1.0 / (n_features - 1)
    )
    X = (y * distance)[:, None] * u + r[:, None] * v
    return X, y, u


def make_expert_advice(
    n_trials=100, n_experts=16, planted_mistakes=0, random_state=None
):
    """A stream of Boolean labels and the advice of ``n_experts`` experts, one
    of them planted.

    The labels are fair coin flips. Each expert ``i`` errs on every trial
    independently with its own probability ``p_i`` drawn uniformly from [0, 1],
    except one expert (at a random index), which errs on exactly
    ``planted_mistakes`` trials chosen at random. So the best expert makes at
    most ``planted_mistakes`` mistakes; with ``planted_mistakes=0`` there is a
    perfect expert, as the halving algorithm requires.

    Returns
    -------
    X : ndarray of shape (n_trials, n_experts), entries in {0, 1}
        ``X[t, i]`` is expert i's advice in trial t.
    y : ndarray of shape (n_trials,), entries in {0, 1}
    """
    n_trials = _check_count(n_trials, "n_trials")
    n_experts = _check_count(n_experts, "n_experts")
    planted_mistakes = _check_count(
        planted_mistakes, "planted_mistakes", low=0
    )
    if planted_mistakes > n_trials:
        raise ValueError(
            f"planted_mistakes={planted_mistakes} exceeds n_trials={n_trials}."
        )
    rng = check_random_state(random_state)
    y = rng.integers(0, 2, size=n_trials)
    wrong = rng.uniform(size=(n_trials, n_experts)) < rng.uniform(
        size=n_experts
    )
    planted = rng.integers(n_experts)
    wrong[:, planted] = False
    wrong[
        rng.choice(n_trials, size=planted_mistakes, replace=False), planted
    ] = True
    return np.where(wrong, 1 - y[:, None], y[:, None]), y


def make_monotone_disjunction(
    n_samples=100, n_features=20, k=2, random_state=None
):
    r"""Boolean vectors labelled by a monotone disjunction :math:`y =
    x_{j_1}\vee\dots\vee x_{j_k}`.

    The ``k`` relevant variables are drawn at random. Every bit is 1
    independently with probability :math:`p = 1-2^{-1/k}`, so that
    :math:`P(y=0)=(1-p)^k=\tfrac12` and the two labels are balanced.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), entries in {0, 1}
    y : ndarray of shape (n_samples,), entries in {0, 1}
    relevant : ndarray of shape (k,)
        The sorted indices of the relevant variables.
    """
    n_samples = _check_count(n_samples, "n_samples")
    n_features = _check_count(n_features, "n_features")
    k = _check_count(k, "k")
    if k > n_features:
        raise ValueError(
            f"k={k} relevant variables do not fit in n_features={n_features}."
        )
    rng = check_random_state(random_state)
    relevant = np.sort(rng.choice(n_features, size=k, replace=False))
    X = (
        rng.uniform(size=(n_samples, n_features)) < 1.0 - 2.0 ** (-1.0 / k)
    ).astype(int)
    y = X[:, relevant].max(axis=1)
    return X, y, relevant
