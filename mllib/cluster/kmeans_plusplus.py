r"""k-means++ seeding: spread the initial centres out by sampling
proportionally to :math:`D(x)^2`."""

import numpy as np
from sklearn.utils import check_array

from ..kernels import squared_euclidean_distances
from ..validation import check_int, check_random_state, check_sample_weight


def sampling_probabilities(sample_weight):
    """Probabilities proportional to ``sample_weight``, for ``rng.choice``;
    ``None`` for no weights or equal ones.

    ``None`` makes ``rng.choice`` draw uniformly from its own random stream,
    so equal weights reproduce the unweighted draw for the same seed, as
    they reproduce the unweighted objective.
    """
    if sample_weight is None or np.all(sample_weight == sample_weight[0]):
        return None
    return sample_weight / sample_weight.sum()


def kmeans_plusplus(
    X,
    n_clusters,
    *,
    sample_weight=None,
    random_state=None,
    n_local_trials=None,
):
    r"""Choose ``n_clusters`` samples of ``X`` as initial k-means centres by
    :math:`D^2` sampling.

    The first centre is a uniformly random sample. Each next centre is sample
    :math:`x` with probability

    .. math:: P(x) = \frac{D(x)^2}{\sum_{x'} D(x')^2},

    where :math:`D(x)` is the distance from :math:`x` to the nearest centre
    chosen so far. With one trial per centre this is the algorithm of Arthur &
    Vassilvitskii (2007), whose expected k-means objective is at most
    :math:`8(\ln k + 2)` times the optimum. With ``n_local_trials``
    :math:`=t>1` ("greedy k-means++"), :math:`t` candidates are drawn that way
    and the one that lowers :math:`\sum_x D(x)^2` most is kept.

    With sample weights :math:`s(x)`, as in scikit-learn, the first centre is
    drawn with probability :math:`\propto s(x)`, the next ones
    :math:`\propto s(x)D(x)^2`, and :math:`\sum_x s(x)D(x)^2` is the sum the
    greedy variant lowers: an integer weight acts as that many copies of
    :math:`x`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    n_clusters : int
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; ``None`` weighs every sample 1.
    random_state : None, int, numpy.random.Generator or RandomState
    n_local_trials : int, optional
        Candidates per centre; ``None`` means :math:`2+\lfloor\ln k\rfloor`,
        scikit-learn's default. Use 1 for the original algorithm (the one with
        the guarantee).

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
    indices : ndarray of shape (n_clusters,)
        ``X[indices] == centers``.

    References
    ----------
    Arthur & Vassilvitskii, *k-means++: the advantages of careful seeding*,
    SODA 2007. Same algorithm as ``sklearn.cluster.kmeans_plusplus`` (which
    draws from a different random stream, so the chosen samples differ).
    """
    X, n_clusters, trials, rng = _check_seeding_params(
        X, n_clusters, n_local_trials, random_state
    )
    weights = np.ones(len(X))
    if sample_weight is not None:
        weights = check_sample_weight(sample_weight, len(X))
    indices = np.empty(n_clusters, dtype=int)
    # the first centre: P(x) proportional to s(x)
    indices[0] = rng.choice(len(X), p=sampling_probabilities(weights))
    closest = squared_euclidean_distances(X[indices[:1]], X)[0]  # D(x)^2
    for c in range(1, n_clusters):
        # draw candidates with P(x) = s(x)D(x)^2 / sum sD^2 by inverse-CDF
        # sampling; side="right" never picks a sample with s(x)D(x)^2 = 0
        cumulative = np.cumsum(weights * closest)
        candidates = np.searchsorted(
            cumulative, rng.random(trials) * cumulative[-1], side="right"
        )
        candidates = np.minimum(candidates, len(X) - 1)  # rounding at the top
        # keep the candidate that lowers sum_x s(x)D(x)^2 most
        closest_if_added = np.minimum(
            closest, squared_euclidean_distances(X[candidates], X)
        )
        best = np.argmin(np.sum(closest_if_added * weights, axis=1))
        indices[c], closest = candidates[best], closest_if_added[best]
    return X[indices].copy(), indices


def _check_seeding_params(X, n_clusters, n_local_trials, random_state):
    """``X`` as floats, the checked ``n_clusters``, the number of candidates
    per centre and the random generator."""
    X = check_array(X, dtype=np.float64)
    n_clusters = check_int(n_clusters, "n_clusters", low=1)
    if n_clusters > len(X):
        raise ValueError(
            f"n_clusters={n_clusters} is larger than the number of samples "
            f"({len(X)})."
        )
    trials = (
        2 + int(np.log(n_clusters))
        if n_local_trials is None
        else check_int(n_local_trials, "n_local_trials", low=1)
    )
    return X, n_clusters, trials, check_random_state(random_state)
