r"""Generalisation bounds for classifiers with the 0-1 loss, and a dichotomy
counter for small classes.

Each bound function returns the *radius* :math:`\varepsilon` of a statement
"with probability at least :math:`1-\delta` over an i.i.d. sample of size
:math:`n`, :math:`R(h)\le\hat R_n(h)+\varepsilon`" (or
:math:`R(h)\le\varepsilon` for a consistent :math:`h` in the realisable
case), with the constants of the theorem it implements. Each statement holds
with probability at least :math:`1-\delta` on its own; two statements whose
failure events are unrelated hold together with probability at least
:math:`1-2\delta` (pass ``delta / 2`` to each to have both with probability
:math:`1-\delta`), but nested ones share their :math:`\delta`, as the two forms
of the Occam bound do (:func:`occam_radius`). The learning-theory chapter
proves or cites each one and checks it against simulation. Logarithms are
natural except in the realisable VC bound, whose proof counts halvings and
so comes out in base 2.
"""

import math

import numpy as np


def hoeffding_radius(n, delta):
    r"""The test-set bound: :math:`\varepsilon=\sqrt{\log(1/\delta)/(2n)}`.

    For a classifier chosen *before* seeing an i.i.d. sample of size
    :math:`n`, Hoeffding's inequality
    :math:`P(R-\hat R_n\ge\varepsilon)\le e^{-2n\varepsilon^2}` (losses in
    [0, 1]) gives :math:`R\le\hat R_n+\varepsilon` with probability at least
    :math:`1-\delta` (Hoeffding 1963). For the two-sided statement
    :math:`|R-\hat R_n|\le\varepsilon` pass ``delta / 2``.
    """
    _check_sample_size_and_confidence(n, delta)
    return math.sqrt(math.log(1 / delta) / (2 * n))


def occam_radius(n, prior, delta, *, realizable=False):
    r"""Radius of the Occam bound for a hypothesis of prior weight :math:`q`
    (weights with :math:`\sum_h q_h\le1`).

    Two statements hold together with probability at least
    :math:`1-\delta` (union bound with failure probability
    :math:`q_h\delta` for each :math:`h`):

    (i) every :math:`h` satisfies
    :math:`R(h)\le\hat R_n(h)+\sqrt{\log(1/(q_h\delta))/(2n)}` (the
    default);

    (ii) every :math:`h` with :math:`\hat R_n(h)=0` satisfies
    :math:`R(h)\le\log(1/(q_h\delta))/n` (``realizable=True``, from
    :math:`(1-\varepsilon)^n\le e^{-\varepsilon n}`).

    No split of :math:`\delta` is needed: for each :math:`h`, if
    :math:`R(h)` exceeds the radius of (i), a sample with
    :math:`\hat R_n(h)=0` makes (i) fail, so (ii)'s failure is one of (i)'s;
    otherwise (i) cannot fail, and only (ii) can, with probability below
    :math:`q_h\delta`. A finite class with uniform weights,
    :math:`q_h=1/|\mathcal H|`, gives the finite-class bounds
    (Shalev-Shwartz & Ben-David 2014, Cor. 2.3 and §7.3).
    """
    _check_sample_size_and_confidence(n, delta)
    if not 0 < prior <= 1:
        raise ValueError(
            "prior must be in (0, 1] (a weight of a distribution over "
            f"hypotheses); got {prior!r}."
        )
    log_term = math.log(1 / prior) + math.log(1 / delta)
    return log_term / n if realizable else math.sqrt(log_term / (2 * n))


def sample_complexity(epsilon, delta, n_hypotheses, *, realizable=False):
    r"""Sample size that makes ERM over a finite class
    :math:`\varepsilon`-accurate with probability at least :math:`1-\delta`.

    Realisable: :math:`\lceil\log(|\mathcal H|/\delta)/\varepsilon\rceil`
    (every consistent hypothesis has risk at most :math:`\varepsilon`).
    Agnostic: :math:`\lceil 2\log(2|\mathcal H|/\delta)/\varepsilon^2\rceil`
    (uniform convergence to within :math:`\varepsilon/2`, so the ERM is
    within :math:`\varepsilon` of the best in the class) (Shalev-Shwartz &
    Ben-David 2014, Cor. 2.3 and 4.6).
    """
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must be in (0, 1); got {epsilon!r}.")
    _check_confidence(delta)
    if not n_hypotheses >= 1:
        raise ValueError(
            "n_hypotheses must be >= 1 (the size of a non-empty class); got "
            f"{n_hypotheses!r}."
        )
    if realizable:
        return math.ceil(math.log(n_hypotheses / delta) / epsilon)
    return math.ceil(2 * math.log(2 * n_hypotheses / delta) / epsilon**2)


def sauer_bound(n, d):
    r"""Sauer's lemma: a class of VC dimension :math:`d` has growth function
    :math:`\Pi(n)\le\sum_{i=0}^{d}\binom ni` (an exact integer; :math:`2^n`
    when :math:`n\le d`)."""
    if n < 0 or d < 0:
        raise ValueError(
            f"n and d must be non-negative integers; got n={n!r}, d={d!r}."
        )
    return sum(math.comb(n, i) for i in range(min(n, d) + 1))


def count_dichotomies(labels):
    r"""Number of distinct labellings in ``labels``, an array of shape
    (n_hypotheses, n_points) of 0/1 (or any two) values:
    :math:`|\mathcal H_S|`, the size of the class restricted to the points.

    The points are shattered when this equals :math:`2^{n}`; the growth
    function :math:`\Pi(n)` is its maximum over sets of :math:`n` points.
    """
    labels = np.asarray(labels)
    if labels.ndim != 2:
        raise ValueError(
            "labels must be 2-D, one row per hypothesis and one column per "
            f"point; got shape {labels.shape}."
        )
    return len(np.unique(labels, axis=0))


def vc_bound(n, growth_2n, delta):
    r"""The VC inequality: with probability at least :math:`1-\delta`, for
    every :math:`h\in\mathcal H`,

    .. math:: R(h)\le\hat R_n(h)+2\sqrt{\frac{2\left(\log\Pi_{\mathcal
              H}(2n)+\log(2/\delta)\right)}{n}},

    with :math:`\Pi_{\mathcal H}(2n)` = ``growth_2n`` (exact, or Sauer's
    bound) (Vapnik & Chervonenkis 1971; constants of Bousquet, Boucheron &
    Lugosi 2004).
    """
    _check_sample_size_and_confidence(n, delta)
    _check_growth(growth_2n)
    return 2 * math.sqrt(2 * (math.log(growth_2n) + math.log(2 / delta)) / n)


def vc_bound_realizable(n, growth_2n, delta):
    r"""The double-sample bound for consistent hypotheses: with probability
    at least :math:`1-\delta`, every :math:`h` with :math:`\hat R_n(h)=0` has

    .. math:: R(h)\le\frac2n\log_2\frac{2\,\Pi_{\mathcal H}(2n)}{\delta},

    from :math:`P(\exists h:\hat R_n(h)=0,\ R(h)>\varepsilon)\le
    2\,\Pi_{\mathcal H}(2n)\,2^{-\varepsilon n/2}`, valid when
    :math:`n\varepsilon\ge8`, which holds here exactly when
    :math:`\Pi_{\mathcal H}(2n)/\delta\ge8` (Blumer et al. 1989).
    """
    _check_sample_size_and_confidence(n, delta)
    _check_growth(growth_2n)
    if growth_2n / delta < 8:
        raise ValueError(
            "the bound needs growth_2n / delta >= 8 (so that n * epsilon >= "
            f"8); got {growth_2n / delta:.3g}. Use a smaller delta."
        )
    return 2 / n * math.log2(2 * growth_2n / delta)


# --- input validation ---------------------------------------------------


def _check_sample_size_and_confidence(n, delta):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(
            f"n must be a positive integer (a sample size); got {n!r}."
        )
    _check_confidence(delta)


def _check_growth(growth_2n):
    # a growth function counts labellings, so it is at least 1; a smaller
    # value would shrink the bound
    if not growth_2n >= 1:
        raise ValueError(
            "growth_2n must be >= 1 (a number of labellings); got "
            f"{growth_2n!r}."
        )


def _check_confidence(delta):
    if not 0 < delta < 1:
        raise ValueError(
            "delta must be in (0, 1) (the allowed failure probability); got "
            f"{delta!r}."
        )
