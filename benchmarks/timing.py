"""Shared timing helpers for the benchmark scripts: best-of-k fit times and
growth slopes, mllib and scikit-learn in one process.

Every function prints its rows as it goes and returns them as dictionaries,
which ``run_all.py`` collects into one table.
"""

import time

import numpy as np

#: Issue 24's target for its rows (the gallery's workloads): mllib at most
#: 1.5 times scikit-learn's time.
ISSUE_24_LIMIT = 1.5


def best_time(fit, repeat=5, clock=time.perf_counter):
    """Best time of ``fit()`` over ``repeat`` runs (the least disturbed by
    other load).

    ``clock`` is the wall clock by default; ``time.process_time`` gives the
    CPU time of the process instead (all its threads), which other processes
    on a loaded machine disturb less.
    """
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        fit()
        best = min(best, clock() - start)
    return best


def _alternating(ours, theirs, repeat):
    """Wall-clock and CPU times of two functions run alternately: for each,
    the best and the median of ``repeat`` runs, as ``(best_wall, best_cpu,
    median_wall, median_cpu)``."""
    times = {"ours": [], "theirs": []}
    for _ in range(repeat):
        for key, fit in (("ours", ours), ("theirs", theirs)):
            wall, cpu = time.perf_counter(), time.process_time()
            fit()
            wall = time.perf_counter() - wall
            cpu = time.process_time() - cpu
            times[key].append((wall, cpu))
    return tuple(
        (*np.min(times[key], axis=0), *np.median(times[key], axis=0))
        for key in ("ours", "theirs")
    )


def compare(name, ours, theirs, repeat=5, limit=2.0, targeted=False):
    """Time two zero-argument fit functions and print one row: times and
    the ratio ours/theirs.

    The two are run alternately, ``repeat`` times each, so that a change in
    the load of the machine affects both; each keeps its best and its median
    wall-clock and CPU times. The ratio of the best wall-clock times is the
    one judged against ``limit`` (``None``: reported only); the medians show
    how much the load moved it. ``targeted`` marks the rows of issue 18's
    table. Timing is reported, never asserted. Returns the row as a dict.
    """
    (
        (t_ours, c_ours, m_ours, mc_ours),
        (t_theirs, c_theirs, m_theirs, mc_theirs),
    ) = _alternating(ours, theirs, repeat)
    ratio = t_ours / t_theirs
    if limit is None:
        verdict = "no target"
    else:
        verdict = "ok" if ratio <= limit else f"ABOVE {limit:g}x"
    print(
        f"{name:50s} mllib {1e3 * t_ours:9.2f} ms   scikit-learn "
        f"{1e3 * t_theirs:9.2f} ms   ratio {ratio:5.2f} "
        f"(CPU time {c_ours / c_theirs:5.2f}; medians {m_ours / m_theirs:5.2f}, "
        f"CPU {mc_ours / mc_theirs:5.2f})  {verdict}",
        flush=True,
    )
    return dict(
        name=name,
        ours=t_ours,
        theirs=t_theirs,
        ratio=ratio,
        cpu_ratio=c_ours / c_theirs,
        median_ratio=m_ours / m_theirs,
        median_cpu_ratio=mc_ours / mc_theirs,
        limit=limit,
        targeted=targeted,
        ok=limit is None or ratio <= limit,
    )


def loglog_slope(sizes, times):
    """Least-squares slope of log(time) against log(n): the exponent a in
    time ~ n^a over the sizes measured."""
    return float(np.polyfit(np.log(sizes), np.log(times), 1)[0])


def growth(name, sizes, make_case, repeat=5, tolerance=0.2):
    """Time mllib and scikit-learn at each size and compare the growth.

    ``make_case(n)`` returns the two zero-argument functions to time at size
    ``n`` (it may check there that they agree). At each size the two run
    alternately, best of ``repeat`` (and the median CPU time, whose slopes
    are printed too). The slopes of log(best time) against log(n) are
    compared: mllib's may exceed scikit-learn's by at most ``tolerance``.
    Returns the row as a dict.
    """
    ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
    for n in sizes:
        (t_ours, _, _, c_ours), (t_theirs, _, _, c_theirs) = _alternating(
            *make_case(n), repeat
        )
        ours.append(t_ours)
        theirs.append(t_theirs)
        ours_cpu.append(c_ours)
        theirs_cpu.append(c_theirs)
        print(
            f"{name:50s} n={n:6d}   mllib {1e3 * t_ours:9.2f} ms   "
            f"scikit-learn {1e3 * t_theirs:9.2f} ms   "
            f"ratio {t_ours / t_theirs:5.2f} (median CPU "
            f"{c_ours / c_theirs:5.2f})",
            flush=True,
        )
    slope, reference = loglog_slope(sizes, ours), loglog_slope(sizes, theirs)
    cpu_slope = loglog_slope(sizes, ours_cpu)
    cpu_reference = loglog_slope(sizes, theirs_cpu)
    ok = slope <= reference + tolerance
    print(
        f"{name:50s} log-log slope: mllib {slope:.2f}, scikit-learn "
        f"{reference:.2f} (median CPU times: {cpu_slope:.2f}, "
        f"{cpu_reference:.2f})  {'ok' if ok else f'ABOVE +{tolerance:g}'}",
        flush=True,
    )
    return dict(
        name=name,
        sizes=list(sizes),
        ours=ours,
        theirs=theirs,
        slope=slope,
        reference_slope=reference,
        cpu_slope=cpu_slope,
        cpu_reference_slope=cpu_reference,
        tolerance=tolerance,
        ok=ok,
    )
