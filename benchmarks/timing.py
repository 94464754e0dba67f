"""Shared timing helper for the benchmark scripts: best-of-k wall-clock fit times, in one process."""

import time


def best_time(fit, repeat=5):
    """Best wall-clock time of ``fit()`` over ``repeat`` runs (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fit()
        best = min(best, time.perf_counter() - start)
    return best


def compare(name, ours, theirs, repeat=5, limit=2.0):
    """Time two zero-argument fit functions and print one row: times and the ratio ours/theirs.

    Returns the ratio; ``limit`` only labels the row (timing is reported, never asserted).
    """
    t_ours, t_theirs = best_time(ours, repeat), best_time(theirs, repeat)
    ratio = t_ours / t_theirs
    verdict = "ok" if ratio <= limit else f"SLOWER than {limit:g}x"
    print(f"{name:45s} mllib {1e3 * t_ours:9.2f} ms   scikit-learn {1e3 * t_theirs:9.2f} ms   "
          f"ratio {ratio:5.2f}  {verdict}")
    return ratio
