"""Shared timing helper for the benchmark scripts: best-of-k fit times, in one process."""

import time


def best_time(fit, repeat=5, clock=time.perf_counter):
    """Best time of ``fit()`` over ``repeat`` runs (the least disturbed by other load).

    ``clock`` is the wall clock by default; ``time.process_time`` gives the CPU time of the
    process instead (all its threads), which other processes on a loaded machine disturb less.
    """
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        fit()
        best = min(best, clock() - start)
    return best


def compare(name, ours, theirs, repeat=5, limit=2.0):
    """Time two zero-argument fit functions and print one row: times and the ratios ours/theirs.

    The two are run alternately, ``repeat`` times each, so that a change in the load of the
    machine affects both; each keeps its best wall-clock and its best CPU time. Returns the
    wall-clock ratio; ``limit`` only labels the row (timing is reported, never asserted).
    """
    best = {"ours": [float("inf")] * 2, "theirs": [float("inf")] * 2}
    for _ in range(repeat):
        for key, fit in (("ours", ours), ("theirs", theirs)):
            wall, cpu = time.perf_counter(), time.process_time()
            fit()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best[key] = [min(best[key][0], wall), min(best[key][1], cpu)]
    (t_ours, c_ours), (t_theirs, c_theirs) = best["ours"], best["theirs"]
    ratio = t_ours / t_theirs
    verdict = "ok" if ratio <= limit else f"SLOWER than {limit:g}x"
    print(
        f"{name:45s} mllib {1e3 * t_ours:9.2f} ms   scikit-learn {1e3 * t_theirs:9.2f} ms   "
        f"ratio {ratio:5.2f} (CPU time {c_ours / c_theirs:5.2f})  {verdict}"
    )
    return ratio
