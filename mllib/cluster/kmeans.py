r"""k-means clustering by Lloyd's algorithm, with k-means++ or random seeding
and restarts."""

import warnings

import numpy as np
from scipy.sparse import csc_matrix
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    ClusterMixin,
    TransformerMixin,
)
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConvergenceWarning
from ..kernels import squared_euclidean_distances
from ..validation import (
    check_int,
    check_random_state,
    check_sample_weight,
    check_scalar,
)
from .kmeans_plusplus import kmeans_plusplus, sampling_probabilities

#: Scores per block of samples in the assignment step (512 kB of float64):
#: a block stays in the processor's cache while its argmin is taken, and
#: memory stays bounded however many samples and centres.
SCORES_PER_BLOCK = 2**16

#: Up to this many centres the assignment takes its argmin one centre at a
#: time; beyond, one sample at a time (``np.argmin`` along each row).
FEW_CENTRES = 16


def assign_labels(X, centers):
    r"""Assignment step: send each sample to its nearest centre,
    :math:`c_i=\arg\min_k\lVert x_i-\mu_k\rVert^2`.

    Returns the labels, shape (n_samples,). Ties between the computed
    scores go to the lowest centre index; a tie in exact arithmetic (two
    equal centres) may be rounded apart by the matrix product, differently
    on another CPU or block, and go to either.

    The argmin uses the expansion
    :math:`\lVert x-\mu\rVert^2=\lVert x\rVert^2-2x^\top\mu+\lVert\mu\rVert^2`
    without the :math:`\lVert x\rVert^2` term, which is the same for every
    centre: one matrix product for all the pairs of a block of samples
    (scikit-learn's Lloyd step does the same). The product reads ``X.T``,
    contiguous when ``X`` is in Fortran order, as :func:`lloyd` passes it.
    """
    n_clusters = len(centers)
    minus_two_centers = -2.0 * centers
    sq_norms = np.sum(centers**2, axis=1)
    labels = np.empty(len(X), dtype=np.intp)
    block = max(1, SCORES_PER_BLOCK // n_clusters)
    for start in range(0, len(X), block):
        rows = slice(start, start + block)
        if n_clusters > FEW_CENTRES:
            # one row per sample, -2 x_i^T mu_k + ||mu_k||^2, and np.argmin
            # along it (the first index among ties)
            scores = X[rows] @ minus_two_centers.T
            scores += sq_norms
            labels[rows] = np.argmin(scores, axis=1)
            continue
        # few centres: one row per centre, and the argmin over the k rows,
        # each a whole row at a time (np.argmin along so short a row costs
        # more in its call than in its work): the smallest score of each
        # sample, then the first centre reaching it
        scores = minus_two_centers @ X[rows].T  # row k: -2 mu_k^T x_i ...
        scores += sq_norms[:, None]  # ... + ||mu_k||^2
        smallest = np.min(scores, axis=0)
        block_labels = labels[rows]  # a view: filled in place
        block_labels.fill(n_clusters - 1)
        for k in range(n_clusters - 2, -1, -1):
            np.putmask(block_labels, scores[k] == smallest, k)
    return labels


def update_centers(X, labels, centers, sample_weight=None):
    r"""Update step: move each centre to the (weighted) mean of its samples,
    :math:`\mu_k=\sum_{c_i=k}s_ix_i\big/\sum_{c_i=k}s_i`.

    The sums are :math:`R^\top X`, with :math:`R` the (n_samples, n_clusters)
    matrix of weighted hard responsibilities :math:`r_{ik}=s_i\mathbb
    1[c_i=k]`; it has one non-zero entry per row, so it is stored sparse, and
    the product costs :math:`O(nd)` rather than :math:`O(nkd)`. Without
    ``sample_weight`` (shape (n_samples,)) every :math:`s_i = 1`.

    An empty cluster (no weight: possible after an unlucky assignment) takes
    the sample farthest from its own centre, which leaves its old cluster:
    scikit-learn's rule, which never raises the objective.
    """
    n, n_clusters = len(X), len(centers)
    weights = np.ones(n) if sample_weight is None else sample_weight
    # R^T, shape (n_clusters, n): column i holds s_i, in row c_i
    responsibilities_t = csc_matrix(
        (weights, labels, np.arange(n + 1)), shape=(n_clusters, n)
    )
    sums = responsibilities_t @ X
    cluster_weights = np.bincount(labels, weights, minlength=n_clusters)
    empty = np.flatnonzero(cluster_weights == 0)
    if len(empty):
        squared_distances = np.sum((X - centers[labels]) ** 2, axis=1)
        if squared_distances.max() > 0:
            farthest = np.argsort(squared_distances)[::-1][: len(empty)]
            for k, i in zip(empty, farthest):
                sums[labels[i]] -= weights[i] * X[i]
                cluster_weights[labels[i]] -= weights[i]
                sums[k], cluster_weights[k] = weights[i] * X[i], weights[i]
    new_centers = centers.copy()  # a cluster that stays empty keeps its centre
    filled = cluster_weights > 0
    new_centers[filled] = sums[filled] / cluster_weights[filled, None]
    return new_centers


def inertia(X, centers, labels, sample_weight=None):
    r"""The objective :math:`J=\sum_is_i\lVert x_i-\mu_{c_i}\rVert^2`
    (every :math:`s_i=1` without ``sample_weight``).

    Computed from the differences, which the expansion used by
    :func:`assign_labels` would round badly for samples close to their
    centres.
    """
    differences = centers[labels]
    differences -= X  # mu_{c_i} - x_i, in place: one (n, d) array, not two
    if sample_weight is None:
        return float(np.einsum("ij,ij->", differences, differences))
    return float(
        np.einsum("ij,ij,i->", differences, differences, sample_weight)
    )


def lloyd(X, centers, *, max_iter=300, tol=0.0, sample_weight=None):
    r"""Lloyd's algorithm from the given centres: alternate the two steps
    until a fixed point.

    Stops when an assignment step changes no label, or when the centres move
    by at most ``tol`` in total squared distance
    :math:`\sum_k\lVert\mu_k^{new}-\mu_k\rVert^2` (scikit-learn's rules).
    Each step can only lower the objective, so the loop ends at a local
    minimum. ``sample_weight`` (n_samples,) weights each sample in the
    objective and so in the centres' means.

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
    labels : ndarray of shape (n_samples,)
    inertia : float
        :math:`\sum_is_i\lVert x_i-\mu_{c_i}\rVert^2` for the returned labels
        and centres.
    n_iter : int
    converged : bool
    """
    # the assignment's matrix product reads X.T, the update's sparse product
    # X: each runs fastest on its own layout (Fortran and C order)
    X_fortran = np.asfortranarray(X)
    previous_labels, converged, n_iter = None, False, 0
    for n_iter in range(1, max_iter + 1):
        labels = assign_labels(X_fortran, centers)
        new_centers = update_centers(X, labels, centers, sample_weight)
        shift = np.sum((new_centers - centers) ** 2)
        centers = new_centers
        if previous_labels is not None and np.array_equal(
            labels, previous_labels
        ):
            converged = True  # the update step reproduced the same centres
            break
        if shift <= tol:
            converged = True
            labels = assign_labels(X_fortran, centers)  # final centres' labels
            break
        previous_labels = labels
    else:
        labels = assign_labels(X_fortran, centers)
    J = inertia(X, centers, labels, sample_weight)
    return centers, labels, J, n_iter, converged


class KMeans(
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    ClusterMixin,
    BaseEstimator,
):
    r"""k-means clustering: minimise the within-cluster sum of squares (the
    *inertia*)

    .. math:: J(c,\mu)=\sum_{i=1}^n s_i\lVert x_i-\mu_{c_i}\rVert^2

    by Lloyd's algorithm, from ``n_init`` seedings, keeping the run with the
    smallest :math:`J`. The sample weights :math:`s_i\ge0` (``fit``'s
    ``sample_weight``, default 1) make each centre a weighted mean and the
    seedings draw samples in proportion to them, as in scikit-learn; an
    integer weight acts as that many copies of the sample.

    Parameters
    ----------
    n_clusters : int, default 8
    init : {"k-means++", "random"} or array-like, default "k-means++"
        ``"k-means++"``: :func:`kmeans_plusplus` (greedy, scikit-learn's
        default); ``"random"``: ``n_clusters`` distinct samples chosen
        uniformly; an array of shape (n_clusters, n_features): these centres.
    n_init : int or "auto"
        Number of seedings; ``"auto"`` means 1 for ``"k-means++"`` or an array,
        10 for ``"random"``.
    max_iter : int, default 300
    tol : float, default 1e-4
        Stop when the centres move by at most ``tol`` times the mean feature
        variance of ``X`` (total squared distance), or when no label changes.
    random_state : None, int, numpy.random.Generator or RandomState

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
    labels_ : ndarray of shape (n_samples,)
    inertia_ : float
        :math:`J` at the returned labels and centres.
    n_iter_ : int
        Iterations of the best run.
    n_features_in_ : int

    Notes
    -----
    Equivalent to ``sklearn.cluster.KMeans(algorithm="lloyd")``: the same
    objective, stopping rules and empty-cluster rule, so from the same initial
    centres (``init=array, n_init=1``) both return the same clustering. Unlike
    scikit-learn, a ``ConvergenceWarning`` is raised when the best run stops at
    ``max_iter``.

    References
    ----------
    Lloyd, *Least squares quantization in PCM*, IEEE Trans. Inf. Theory 28
    (1982); Hastie, Tibshirani & Friedman, *The Elements of Statistical
    Learning*, §14.3.6.
    """

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        n_init="auto",
        max_iter=300,
        tol=1e-4,
        random_state=None,
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def fit(self, X, y=None, sample_weight=None):
        """Cluster ``X`` of shape (n_samples, n_features), each sample
        weighted by ``sample_weight`` (n_samples,) if given; ``y`` is
        ignored. Returns self."""
        X = validate_data(self, X, dtype=np.float64)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, len(X))
        n_clusters = check_int(self.n_clusters, "n_clusters", low=1)
        if n_clusters > len(X):
            raise ValueError(
                f"n_clusters={n_clusters} is larger than the number of "
                f"samples ({len(X)})."
            )
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        tol = check_scalar(self.tol, "tol", low=0)
        if tol > 0:  # relative to the mean feature variance (a pass over X)
            tol *= float(np.mean(np.var(X, axis=0)))
        init, n_init = self._check_init(X, n_clusters)
        if (
            isinstance(init, str)
            and init == "random"
            and sample_weight is not None
        ):
            weighted = np.count_nonzero(sample_weight)
            if weighted < n_clusters:
                raise ValueError(
                    f'init="random" draws n_clusters={n_clusters} distinct '
                    f"samples in proportion to their weights, but only "
                    f"{weighted} have a positive weight; use "
                    'init="k-means++" or fewer clusters.'
                )
        rng = check_random_state(self.random_state)

        best = None
        for _ in range(n_init):
            if isinstance(init, np.ndarray):
                centers = init.copy()
            elif init == "k-means++":
                centers = kmeans_plusplus(
                    X,
                    n_clusters,
                    sample_weight=sample_weight,
                    random_state=rng,
                )[0]
            else:  # distinct samples, drawn in proportion to their weights
                centers = X[
                    rng.choice(
                        len(X),
                        n_clusters,
                        replace=False,
                        p=sampling_probabilities(sample_weight),
                    )
                ]
            run = lloyd(
                X,
                centers,
                max_iter=max_iter,
                tol=tol,
                sample_weight=sample_weight,
            )
            if best is None or run[2] < best[2]:
                best = run
        (
            self.cluster_centers_,
            self.labels_,
            self.inertia_,
            self.n_iter_,
            converged,
        ) = best
        if not converged:
            warnings.warn(
                f"k-means stopped at max_iter={max_iter} before its "
                "centres settled; "
                "increase max_iter or tol.",
                ConvergenceWarning,
            )
        found = np.count_nonzero(np.bincount(self.labels_))
        if found < n_clusters:
            warnings.warn(
                f"Only {found} distinct clusters were found for "
                f"n_clusters={n_clusters}; "
                "X probably has fewer distinct points than that.",
                ConvergenceWarning,
            )
        return self

    def _check_init(self, X, n_clusters):
        if self.n_init != "auto":
            check_int(self.n_init, "n_init", low=1)
        if isinstance(self.init, str):
            if self.init not in ("k-means++", "random"):
                raise ValueError(
                    'init must be "k-means++", "random" or an array of '
                    f"centres; got {self.init!r}."
                )
            return self.init, (
                10 if self.init == "random" else 1
            ) if self.n_init == "auto" else self.n_init
        init = check_array(self.init, dtype=np.float64, input_name="init")
        if init.shape != (n_clusters, X.shape[1]):
            raise ValueError(
                f"init has shape {init.shape}, but "
                f"n_clusters={n_clusters} centres with "
                f"{X.shape[1]} features need shape {(n_clusters, X.shape[1])}."
            )
        if self.n_init not in ("auto", 1):
            warnings.warn(
                "init is an array, so every run starts from the same "
                "centres; doing one run "
                f"instead of n_init={self.n_init}.",
                RuntimeWarning,
            )
        return init, 1

    def predict(self, X):
        """Index of the nearest centre for each row of ``X``, shape
        (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return assign_labels(X, self.cluster_centers_)

    @property
    def _n_features_out(self):
        # output width, for get_feature_names_out (scikit-learn's mixin)
        return len(self.cluster_centers_)

    def transform(self, X):
        """Euclidean distances from each row of ``X`` to each centre, shape
        (n_samples, n_clusters)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.sqrt(squared_euclidean_distances(X, self.cluster_centers_))

    def score(self, X, y=None, sample_weight=None):
        """Minus the (weighted) inertia of ``X`` with respect to the fitted
        centres (larger is better)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, len(X))
        centers = self.cluster_centers_
        return -inertia(X, centers, assign_labels(X, centers), sample_weight)
