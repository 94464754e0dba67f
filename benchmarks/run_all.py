"""Every benchmark in one process: ratios, growth slopes and the verdict
against the limits, printed and written as Markdown.

Run from the repository root::

    python benchmarks/run_all.py               # everything (a few minutes)
    python benchmarks/run_all.py trees growth  # only some scripts
    python benchmarks/run_all.py --wait-load 1.5  # each script when quiet

The full run writes ``benchmarks/RESULTS.md`` and copies the tables into the
benchmark section of ``README.md`` (between its two ``benchmarks`` markers),
with the machine they ran on. Both libraries run single-threaded
(``threadpool_limits(1)``); each time is the best of several runs, mllib's
and scikit-learn's alternating. The machine's load average is recorded at
the start of each script: on a busy machine the ratios are noisier, so run
it when the machine is quiet (``--wait-load`` waits for that).
"""

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy
import scipy
import sklearn
from threadpoolctl import threadpool_info, threadpool_limits

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: Name on the command line -> module; the order of the tables.
SCRIPTS = {
    "linear": "bench_linear_models",
    "logistic": "bench_logistic",
    "svm": "bench_svm_kernels",
    "gp": "bench_gaussian_process",
    "unsupervised": "bench_unsupervised",
    "trees": "bench_trees_ensembles",
    "perceptron": "bench_perceptron",
    "sgd": "bench_sgd_classifier",
    "growth": "bench_growth",
}
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"


def machine():
    """One line: CPU, cores, BLAS, versions, date, commit."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(
                line.split(":", 1)[1].strip()
                for line in info
                if line.startswith("model name")
            )
    except (OSError, StopIteration):
        pass
    blas = next(
        (
            f"{pool['internal_api']} {pool['version']}"
            for pool in threadpool_info()
            if pool["user_api"] == "blas"
        ),
        "unknown BLAS",
    )
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"],
        cwd=HERE,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (
        f"{cpu}, {os.cpu_count()} cores, {blas}, Python "
        f"{platform.python_version()}, numpy {numpy.__version__}, scipy "
        f"{scipy.__version__}, scikit-learn {sklearn.__version__}; "
        f"{datetime.date.today()}, commit {commit or 'unknown'}"
    )


def ratio_table(rows):
    lines = [
        "| benchmark | mllib (ms) | scikit-learn (ms) | ratio | median "
        "ratio (CPU) | limit | |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        limit = "-" if row["limit"] is None else f"{row['limit']:g}"
        if row["limit"] is None:
            verdict = "no target"
        else:
            verdict = "ok" if row["ok"] else "**above**"
        name = f"**{row['name']}**" if row["targeted"] else row["name"]
        lines.append(
            f"| {name} | {1e3 * row['ours']:.1f} | "
            f"{1e3 * row['theirs']:.1f} | {row['ratio']:.2f} | "
            f"{row['median_ratio']:.2f} ({row['median_cpu_ratio']:.2f}) | "
            f"{limit} | {verdict} |"
        )
    return lines


def growth_table(rows):
    lines = [
        "| estimator | n | mllib (ms) | scikit-learn (ms) | slope mllib | "
        "slope scikit-learn | |",
        "|---|---|---|---|---:|---:|---|",
    ]
    for row in rows:
        times = [
            " / ".join(f"{1e3 * t:.0f}" for t in row[key])
            for key in ("ours", "theirs")
        ]
        sizes = " / ".join(f"{n // 1000}k" for n in row["sizes"])
        verdict = "ok" if row["ok"] else f"**above +{row['tolerance']:g}**"
        lines.append(
            f"| {row['name']} | {sizes} | {times[0]} | {times[1]} | "
            f"{row['slope']:.2f} | {row['reference_slope']:.2f} | "
            f"{verdict} |"
        )
    return lines


def verdict(ratios, growths):
    targeted = [row for row in ratios if row["targeted"]]
    above = [row["name"] for row in targeted if not row["ok"]]
    steeper = [row["name"] for row in growths if not row["ok"]]
    others = [
        row["name"] for row in ratios if not row["targeted"] and not row["ok"]
    ]
    if above:
        text = "Above their limit: " + "; ".join(above) + "."
    else:
        text = f"All {len(targeted)} targeted ratios are within their limits."
    if steeper:
        text += " Growing faster than allowed: " + "; ".join(steeper) + "."
    else:
        text += f" All {len(growths)} slopes are within 0.2 of scikit-learn's."
    if others:
        text += " Not targeted, above 2: " + "; ".join(others) + "."
    return text


def markdown(ratios, growths, loads):
    load = ", ".join(f"{a:.2f}" for a in loads)
    about = textwrap.fill(
        "Fit (or query) time of mllib divided by scikit-learn's, both "
        "single-threaded (`threadpool_limits(1)`), best of 3-15 alternating "
        "runs in one process, and the ratio of the medians of those runs "
        "(wall clock, and CPU time in brackets), which shows how much the "
        "load of a shared machine moved it. Limits (issue 18): 1.5 for the "
        "trees and AdaBoost, 2 for the rest; the rows of issue 18's table "
        "(in bold) are its targets, the perceptrons have none. Issue 24's "
        "rows (in bold, the gallery's workloads) have the limit 1.5. Growth: slope of "
        "log(time) against log(n); mllib's may exceed scikit-learn's by at "
        "most 0.2.",
        width=79,
    )
    return "\n".join(
        [
            about,
            "",
            f"Machine: {machine()}.",
            "One-minute load average at the start of each script and at "
            f"the end: {load}.",
            "",
            f"**{verdict(ratios, growths)}**",
            "",
            *ratio_table(ratios),
            "",
            *(growth_table(growths) + [""] if growths else []),
        ]
    )


def wait_for_quiet(threshold):
    """Sleep until the one-minute load average is below ``threshold``."""
    while os.getloadavg()[0] >= threshold:
        time.sleep(10)


def main(names, wait_load=None):
    unknown = set(names) - set(SCRIPTS)
    if unknown:
        sys.exit(
            f"unknown benchmark(s) {sorted(unknown)}; choose from "
            f"{list(SCRIPTS)}"
        )
    selected = [key for key in SCRIPTS if not names or key in names]
    loads, rows = [], []
    with threadpool_limits(limits=1):
        for key in selected:
            if wait_load is not None:
                wait_for_quiet(wait_load)
            loads.append(os.getloadavg()[0])
            print(f"\n== {SCRIPTS[key]} (load {loads[-1]:.2f})", flush=True)
            rows += __import__(SCRIPTS[key]).rows()
    loads.append(os.getloadavg()[0])
    ratios = [row for row in rows if "ratio" in row]
    growths = [row for row in rows if "slope" in row]
    text = markdown(ratios, growths, loads)
    print("\n" + text)
    if names:
        return  # a partial run updates no file
    (HERE / "RESULTS.md").write_text("# Benchmark results\n\n" + text)
    readme = HERE.parent / "README.md"
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    readme.write_text(
        pattern.sub(
            lambda _: f"{START}\n{text}{END}", readme.read_text(), count=1
        )
    )
    print("wrote benchmarks/RESULTS.md and the table in README.md")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "scripts", nargs="*", help=f"some of {list(SCRIPTS)} (default: all)"
    )
    parser.add_argument(
        "--wait-load",
        type=float,
        metavar="L",
        help="before each script, wait until the one-minute load average "
        "is below L (on a shared machine)",
    )
    arguments = parser.parse_args()
    main(arguments.scripts, arguments.wait_load)
