"""The site fixture's mechanism: one book build per test run, however many
processes ask at once, and no process sees another delete its folder."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from book_build import BookBuildError, build_once

TESTS = Path(__file__).resolve().parent

# A stand-in for the book build, run in a separate process as an xdist
# worker would: it counts itself, takes a while, then writes a page. The
# process prints what it found afterwards, so a build deleted under it shows.
WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from book_build import build_once

    out, run_id, counter, succeed = sys.argv[1:]

    def build(folder):
        with open(counter, "a") as tally:
            tally.write("built\\n")
        time.sleep(1.0)
        folder.mkdir(parents=True)
        (folder / "index.html").write_text(run_id)
        return succeed == "yes", "the log of a stand-in build"

    try:
        site = build_once(Path(out), run_id, build)
    except Exception as error:
        print(type(error).__name__)
    else:
        print((site / "index.html").read_text())
    """
)


def ask_for_the_site(out, run_id, counter, workers, succeed="yes"):
    """Start ``workers`` processes at once; return what each one printed."""
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER,
                str(out),
                run_id,
                str(counter),
                succeed,
            ],
            cwd=TESTS,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(workers)
    ]
    results = [process.communicate(timeout=60) for process in processes]
    for process, (_, stderr) in zip(processes, results):
        assert process.returncode == 0, stderr
    return [stdout.strip() for stdout, _ in results]


def builds(counter):
    return counter.read_text().count("built") if counter.exists() else 0


def test_workers_of_one_run_share_one_build(tmp_path):
    out, counter = tmp_path / "site", tmp_path / "builds.txt"
    seen = ask_for_the_site(out, "run-1", counter, workers=3)
    assert builds(counter) == 1
    assert seen == ["run-1"] * 3  # each read the page, none lost it


def test_a_new_run_builds_again_from_clean(tmp_path):
    out, counter = tmp_path / "site", tmp_path / "builds.txt"
    ask_for_the_site(out, "run-1", counter, workers=2)
    (out / "stale.txt").write_text("left over from run 1")
    seen = ask_for_the_site(out, "run-2", counter, workers=2)
    assert builds(counter) == 2
    assert seen == ["run-2"] * 2
    assert not (out / "stale.txt").exists()


def test_a_failed_build_fails_every_worker_without_rebuilding(tmp_path):
    out, counter = tmp_path / "site", tmp_path / "builds.txt"
    seen = ask_for_the_site(out, "run-1", counter, workers=2, succeed="no")
    assert builds(counter) == 1
    assert seen == ["BookBuildError"] * 2


def test_the_failure_carries_the_build_log(tmp_path):
    def failing(folder):
        return False, "WARNING: undefined label: 'eq-missing'"

    with pytest.raises(BookBuildError, match="eq-missing"):
        build_once(tmp_path / "site", "run-1", failing)
    outcome = json.loads(
        (tmp_path / "site.test-build-outcome.json").read_text()
    )
    assert outcome == {
        "run": "run-1",
        "ok": False,
        "log": "WARNING: undefined label: 'eq-missing'",
    }
