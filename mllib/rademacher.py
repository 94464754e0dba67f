r"""Empirical Rademacher complexity: Monte Carlo estimates, Massart's lemma,
and the generalisation bound it gives.

For a set :math:`A\subset\mathbb R^n` (a class restricted to a sample
:math:`S=(x_1,\dots,x_n)`: one vector :math:`a=(h(x_1),\dots,h(x_n))` per
behaviour of a hypothesis :math:`h`), the empirical Rademacher complexity is

.. math:: \hat{\mathfrak R}_S(A)=\mathbb E_\sigma\Bigl[\sup_{a\in A}
          \frac1n\sum_{i=1}^n\sigma_ia_i\Bigr],\qquad
          \sigma_i\ \text{i.i.d. uniform on}\ \{-1,+1\}:

how well the class can correlate with random signs. A class of
:math:`\pm1` classifiers restricted to :math:`n` points is finite (at most
:math:`2^n` behaviours), so for each draw of :math:`\sigma` the supremum is a
maximum over finitely many vectors, computed exactly here; only the
expectation over :math:`\sigma` is estimated, by averaging ``n_draws``
draws. With the same ``random_state`` every function here uses the same
draws, so estimates for nested classes :math:`A\subseteq B` are ordered
exactly, draw by draw.

References: Bartlett & Mendelson (2002); Massart (2000); Shalev-Shwartz &
Ben-David (2014), ch. 26; Mohri, Rostamizadeh & Talwalkar (2018), ch. 3.
"""

import math
from dataclasses import dataclass

import numpy as np
from sklearn.utils import check_array

from .validation import check_int, check_random_state


@dataclass(frozen=True)
class RademacherEstimate:
    """A Monte Carlo estimate of an expectation over sign vectors.

    ``value`` is the mean of the ``n_draws`` suprema and ``standard_error``
    their standard deviation over :math:`\\sqrt{n_{\\text{draws}}}`.
    """

    value: float
    standard_error: float
    n_draws: int


def _signs(n_points, n_draws, random_state):
    n_draws = check_int(n_draws, "n_draws", low=2)
    rng = check_random_state(random_state)
    return rng.choice(np.array([-1.0, 1.0]), size=(n_draws, n_points))


def _estimate(suprema, n_points):
    values = suprema / n_points
    return RademacherEstimate(
        float(values.mean()),
        float(values.std(ddof=1) / math.sqrt(len(values))),
        len(values),
    )


def _check_vectors(vectors):
    return check_array(vectors, dtype=np.float64, input_name="vectors")


def empirical_rademacher_complexity(
    vectors, *, n_draws=1000, random_state=None
):
    r""":math:`\hat{\mathfrak R}_S(A)` of a finite set of vectors, by Monte
    Carlo over :math:`\sigma` and an exact maximum over :math:`A` per draw.

    Parameters
    ----------
    vectors : array-like of shape (n_vectors, n_points)
        The rows are the elements :math:`a\in A` (e.g. the labellings of the
        sample by the hypotheses, from :func:`threshold_labellings`).
    n_draws : int
    random_state : None, int, numpy.random.Generator or RandomState

    Returns
    -------
    RademacherEstimate
    """
    vectors = _check_vectors(vectors)
    sigma = _signs(vectors.shape[1], n_draws, random_state)
    return _estimate((sigma @ vectors.T).max(axis=1), vectors.shape[1])


def massart_bound(vectors):
    r"""Massart's lemma: :math:`\hat{\mathfrak R}_S(A)\le
    \max_{a\in A}\lVert a\rVert_2\sqrt{2\log|A|}\,/\,n`.

    :math:`|A|` counts the *distinct* rows (repeats do not change the
    supremum). For :math:`\pm1` vectors :math:`\lVert a\rVert_2=\sqrt n`, so
    the bound is :math:`\sqrt{2\log|A|/n}`; with :math:`|A|\le\Pi_{\mathcal
    H}(n)` and Sauer's lemma this is the VC route,
    :math:`\sqrt{2d\log(en/d)/n}` for VC dimension :math:`d` (Massart 2000,
    Shalev-Shwartz & Ben-David 2014, Lemma 26.8; Mohri et al. 2018,
    Thm 3.7 and Cor. 3.8).
    """
    vectors = np.unique(_check_vectors(vectors), axis=0)
    max_norm = np.linalg.norm(vectors, axis=1).max()
    return float(
        max_norm * math.sqrt(2 * math.log(len(vectors))) / vectors.shape[1]
    )


def _grouped_signs(x, sigma):
    """Sign sums per distinct value of ``x`` (ascending): equal points get
    the same label from any threshold or interval."""
    x = check_array(
        x, ensure_2d=False, dtype=np.float64, input_name="x"
    ).ravel()
    if x.shape[0] != sigma.shape[1]:
        raise ValueError("x and the sign draws have different lengths.")
    values, group = np.unique(x, return_inverse=True)
    sums = np.zeros((len(sigma), len(values)))
    np.add.at(sums.T, group, sigma.T)
    return sums


def threshold_labellings(x):
    r"""The distinct labellings of the points ``x`` by the thresholds
    :math:`h_\theta(x)=+1` if :math:`x\ge\theta`, else :math:`-1`.

    Returns an array of shape (u + 1, n) for :math:`u` distinct values: a
    threshold at each distinct value, and one above them all (all
    :math:`-1`). VC dimension 1.
    """
    x = check_array(
        x, ensure_2d=False, dtype=np.float64, input_name="x"
    ).ravel()
    cuts = np.append(np.unique(x), np.inf)
    return np.where(x[None, :] >= cuts[:, None], 1.0, -1.0)


def interval_labellings(x):
    r"""The distinct labellings of the points ``x`` by the intervals
    :math:`h_{a,b}(x)=+1` if :math:`a\le x\le b`, else :math:`-1`.

    Returns an array of shape (u(u+1)/2 + 1, n) for :math:`u` distinct
    values: every run of consecutive distinct values, and the empty
    interval (all :math:`-1`). VC dimension 2.
    """
    x = check_array(
        x, ensure_2d=False, dtype=np.float64, input_name="x"
    ).ravel()
    values = np.unique(x)
    low, high = np.triu_indices(len(values))
    inside = (x >= values[low, None]) & (x <= values[high, None])
    return np.vstack([np.where(inside, 1.0, -1.0), -np.ones(len(x))])


def rademacher_thresholds(x, *, n_draws=1000, random_state=None):
    r""":math:`\hat{\mathfrak R}_S` of the thresholds of
    :func:`threshold_labellings`, in :math:`O(n)` per draw.

    :math:`\sum_i\sigma_ih_\theta(x_i)=2\sum_{x_i\ge\theta}\sigma_i-
    \sum_i\sigma_i`, so the supremum is twice the largest suffix sum of the
    signs in the order of :math:`x` (the empty suffix included), minus their
    total. Same draws, hence the same value, as
    ``empirical_rademacher_complexity(threshold_labellings(x), ...)``.
    """
    x = np.asarray(x)
    sigma = _signs(x.size, n_draws, random_state)
    sums = _grouped_signs(x, sigma)
    suffix = np.cumsum(sums[:, ::-1], axis=1)
    best = np.maximum(suffix.max(axis=1), 0.0)
    return _estimate(2 * best - sums.sum(axis=1), x.size)


def rademacher_intervals(x, *, n_draws=1000, random_state=None):
    r""":math:`\hat{\mathfrak R}_S` of the intervals of
    :func:`interval_labellings`, in :math:`O(n)` per draw.

    As for thresholds, the supremum is twice the largest sum of signs over a
    run of consecutive points (empty run included) minus the total; with
    prefix sums :math:`P_0=0,\ P_j=\sum_{l\le j}s_l` the largest run sum is
    :math:`\max_j\,(P_j-\min_{i\le j}P_i)` (Kadane's maximum subarray).
    """
    x = np.asarray(x)
    sigma = _signs(x.size, n_draws, random_state)
    sums = _grouped_signs(x, sigma)
    prefix = np.hstack([np.zeros((len(sums), 1)), np.cumsum(sums, axis=1)])
    best = (prefix - np.minimum.accumulate(prefix, axis=1)).max(axis=1)
    return _estimate(2 * best - sums.sum(axis=1), x.size)


def rademacher_radius(n, rademacher, delta, *, empirical=True):
    r"""Radius :math:`\varepsilon` of the Rademacher bound for the 0-1 loss.

    With probability at least :math:`1-\delta` over an i.i.d. sample of size
    :math:`n`, every :math:`\pm1` classifier :math:`h\in\mathcal H` has
    :math:`R(h)\le\hat R_n(h)+\varepsilon`, where

    .. math:: \varepsilon=\mathfrak R_n(\mathcal H)+
              \sqrt{\frac{\log(1/\delta)}{2n}}\quad\text{or}\quad
              \varepsilon=\hat{\mathfrak R}_S(\mathcal H)+
              3\sqrt{\frac{\log(2/\delta)}{2n}}

    for the expected (``empirical=False``) or the empirical complexity of
    the class :math:`\mathcal H` itself; the 0-1 loss class has half of it,
    :math:`\ell(h(x),y)=(1-yh(x))/2`, and the bound is
    :math:`2\mathfrak R(\ell\circ\mathcal H)` plus McDiarmid's deviation
    (Mohri et al. 2018, Thm 3.3, Lemma 3.4 and Thm 3.5; Bartlett &
    Mendelson 2002 prove the same with other constants). Pass a Monte Carlo
    estimate of the empirical complexity with its error in mind (add a few
    standard errors).
    """
    n = check_int(n, "n", low=1)
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1); got {delta!r}.")
    if not 0 <= rademacher <= 1:
        raise ValueError(
            "rademacher must be in [0, 1] (the complexity of a class of "
            f"+-1 classifiers); got {rademacher!r}."
        )
    if empirical:
        return rademacher + 3 * math.sqrt(math.log(2 / delta) / (2 * n))
    return rademacher + math.sqrt(math.log(1 / delta) / (2 * n))
