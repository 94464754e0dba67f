"""Grading a class unattended, against a determined student (issues 12, 22).

The hostile batch of hostile_submissions.py is graded the way an instructor
grades (a private course copy made by `new_course.py`, built by `build.py
--masters`, graded by `grade.py --masters`), in four configurations: as root
and as an unprivileged user, each with `-j 1` and `-j 2`, all four at once.
Each configuration also grades two small batches whose names try to claim
other students, and runs the main batch a second time (which must resume,
grading nothing). The tests read the CSVs, the feedback files, the logs and
the state of the machine afterwards, per configuration, and keep the logs
and CSVs in _build/test-artifacts/grading-*/. Root with `-j 2` also grades
the crashes, hangs, cheats and malformed files of issue 12.

When the tests run as root, the unprivileged runs use a system user made
for them (tests/unprivileged.py); as a normal user, the tests grade as that
user only, and say so by failing nothing about root. An unprivileged run
that cannot be arranged fails the tests loudly; nothing is skipped.
"""

import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import assignment_builds
import hostile_submissions
import numpy as np
import pytest
import unprivileged

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
# Each configuration's logs and CSVs, kept for review (and for the figures
# the README's "Measured" paragraph quotes).
ARTIFACTS = Path(
    os.environ.get("BOOK_TEST_ARTIFACTS", ROOT / "_build" / "test-artifacts")
)
sys.path.insert(0, str(ASSIGNMENTS))

from build import hidden_lines  # noqa: E402
from grading import autograder as autograders  # noqa: E402
from grading import codec, sandbox, submissions  # noqa: E402
from grading.batch import _cell, feedback_path  # noqa: E402
from grading.sandbox import MAX_PROCESSES  # noqa: E402
from grading.text import clean, file_name  # noqa: E402

NAME = "gradients-and-duality"
TIMEOUT = 90  # seconds per submission (the stubborn hang)
CELL_TIMEOUT = 30  # a hung cell is stopped after this; a real one takes ~1 s
MEMORY_MB = 1536
AS_ROOT = os.geteuid() == 0
CONFIGS = (
    ["root -j 1", "root -j 2", "user -j 1", "user -j 2"]
    if AS_ROOT
    else ["user -j 1", "user -j 2"]
)
FULL = CONFIGS[1]  # the configuration that also grades issue 12's files


def tree_digest(*paths):
    """sha256 of every file under the paths (missing files included);
    links are recorded, never followed."""
    digest = {}
    for path in map(Path, paths):
        if path.is_symlink():
            digest[str(path)] = "link to " + os.readlink(path)
            continue
        if not path.exists():
            digest[str(path)] = None
            continue
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if "__pycache__" in file.parts:  # Python's own, as it imports
                continue
            if file.is_symlink():
                digest[str(file)] = "link to " + os.readlink(file)
            elif file.is_file() and file.stat().st_size < 2**30:
                digest[str(file)] = hashlib.sha256(
                    file.read_bytes()
                ).hexdigest()
            elif file.is_file():
                digest[str(file)] = f"{file.stat().st_size} bytes"
    return digest


def processes_with(marker):
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in command:
                found.append(pid)
    return found


def listed(folder):
    """Every entry grading must give a row: files, links and special files
    under ``folder`` (hidden ones aside), found without following links."""
    names = []
    for root, folders, files in os.walk(folder):
        inside = os.path.relpath(root, folder)
        for entry in sorted(folders + files):
            path = os.path.join(root, entry)
            if entry.startswith("."):
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                continue
            names.append(entry if inside == "." else f"{inside}/{entry}")
        folders[:] = [f for f in folders if not f.startswith(".")]
    return sorted(names)


def read_rows(path):
    csv.field_size_limit(2**24)
    with open(path, newline="", encoding="utf-8") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


def shown(name):
    """How the CSV shows a file's name."""
    return _cell("submission", name)


# ------------------------------------------------------------ the gradings --


class Configuration:
    """One way of grading: as root or as the unprivileged user, -j 1 or 2."""

    def __init__(self, label, course):
        self.label = label
        self.user = label.startswith("user")
        self.jobs = int(label.rsplit(" ", 1)[1])
        self.base = Path(tempfile.mkdtemp(prefix="grading-test-"))
        self.base.chmod(0o755)
        self.course = self.base / "course"
        shutil.copytree(course, self.course, symlinks=True)
        # the grader's home: the test user's own, or yours
        self.home = (
            self.base / "home" if self.user and AS_ROOT else Path.home()
        )
        self.marker = f"grading-marker-{uuid.uuid4().hex}"

    def environment(self):
        if not self.user or not AS_ROOT:
            return dict(os.environ)
        environment = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "MPLCONFIGDIR": str(self.home / ".matplotlib"),
        }
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
            environment[name] = "1"
        return environment

    def grade(self, folder, out, *extra):
        argv = [
            sys.executable, ASSIGNMENTS / "grade.py", NAME, folder,
            "--masters", self.course, "--out", out, "-j", self.jobs,
            "--timeout", TIMEOUT, "--cell-timeout", CELL_TIMEOUT,
            "--memory", MEMORY_MB, *extra,
        ]  # fmt: skip
        argv = [str(a) for a in argv]
        if self.user and AS_ROOT:
            needed = [sys.prefix, sys.base_prefix, sys.executable, ROOT,
                      self.base]  # fmt: skip
            argv = unprivileged.command(argv, needed, self.environment())
        return subprocess.run(
            argv,
            capture_output=True,
            cwd=self.base,
            env=None if self.user and AS_ROOT else self.environment(),
            timeout=1800,
        )


def prepare(configuration):
    """Write the batches and the secrets the cheats go after."""
    c = configuration
    build = c.course / "_build" / NAME
    autograder = build / f"{NAME}-autograder.json"
    host_tmp = c.base / "host_tmp"
    host_tmp.mkdir()
    sentinel = c.base / "sentinel.txt"
    sentinel.write_text("keep me")
    if c.user and AS_ROOT:
        (c.home / ".matplotlib").mkdir(parents=True)
        cache = Path(sandbox._font_cache() or "")
        if cache.is_file():
            shutil.copy(cache, c.home / ".matplotlib")
    out = c.base / "out" / "grades.csv"  # in a folder that does not exist
    c.secrets = {
        "csv": out,
        "autograder": autograder,
        "masters": c.course / NAME / f"{NAME}.ipynb",
        "solutions": build / "solutions" / f"{NAME}.ipynb",
        "feedback": out.with_name("grades-feedback"),
        "home_canary": c.home / f".grading-canary-{uuid.uuid4().hex}",
        "home": c.home,
        "sentinel": sentinel,
        "host_tmp": host_tmp,
        "marker": c.marker,
        "submissions": c.base / "submissions",
        "answers": autograders.all_answers(autograders.load(autograder)),
        "memory_mb": MEMORY_MB,
        "shared_file": os.path.realpath(os.__file__),
    }
    other = ASSIGNMENTS / "ridge-and-model-selection" / "student"
    c.expected = {
        c.secrets["submissions"]: hostile_submissions.make_batch(
            build,
            NAME,
            c.secrets["submissions"],
            c.secrets,
            other / "ridge-and-model-selection.ipynb",
            issue_12=c.label == FULL,
        )
    }
    c.expected.update(
        hostile_submissions.make_identity_batches(
            build, NAME, c.base / "identity"
        )
    )
    if c.user and AS_ROOT:
        unprivileged.give(c.base)
    c.watched = [
        c.secrets["submissions"],
        sentinel,
        autograder,
        c.course / NAME,
        c.base / "identity",
        ROOT / "mllib",
        ROOT / "assignments",
    ]


def run(configuration):
    c = configuration
    c.before = tree_digest(*c.watched)
    canary = c.secrets["home_canary"]
    canary.write_text("the grader's home")
    if c.user and AS_ROOT:
        unprivileged.give(canary)
    c.runs = {}
    try:
        for folder in c.expected:
            out = (
                c.secrets["csv"]
                if folder == c.secrets["submissions"]
                else c.base / "out" / f"{folder.name}.csv"
            )
            c.runs[folder] = (out, c.grade(folder, out))
        c.csv_at_exit = c.secrets["csv"].read_bytes()
        c.rerun = c.grade(c.secrets["submissions"], c.secrets["csv"])
    finally:
        canary.unlink()
    c.after = tree_digest(*c.watched)
    keep = ARTIFACTS / f"grading-{c.label.replace(' ', '')}"
    keep.mkdir(parents=True, exist_ok=True)
    for folder, (out, done) in c.runs.items():
        (keep / f"{folder.name}.log").write_bytes(done.stderr)
        if out.is_file():
            shutil.copy(out, keep / f"{folder.name}.csv")


@pytest.fixture(scope="module")
def course(request):
    return assignment_builds.build(NAME, request)


@pytest.fixture(scope="module")
def graded(course):
    """Every configuration, graded at the same time (threads waiting on
    grade.py processes); then five seconds for any detached process to do
    what it would."""
    if AS_ROOT:  # fail loudly, before anything, if no user can grade here
        unprivileged.check(
            [sys.prefix, sys.base_prefix, sys.executable, ROOT],
            {"PATH": "/usr/bin:/bin", "HOME": "/", "LANG": "C.UTF-8"},
        )
    configurations = {label: Configuration(label, course) for label in CONFIGS}
    errors = []

    def work(configuration):
        try:
            prepare(configuration)
            run(configuration)
        except BaseException as error:  # reported below, with its config
            errors.append((configuration.label, error))
            raise

    threads = [
        threading.Thread(target=work, args=(c,))
        for c in configurations.values()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(5)  # what a detached process would do, it has done now
    if errors:
        label, error = errors[0]
        raise RuntimeError(f"grading as {label} failed: {error!r}") from error
    yield configurations
    for configuration in configurations.values():
        shutil.rmtree(configuration.base, ignore_errors=True)


@pytest.fixture(params=CONFIGS)
def config(request, graded):
    return graded[request.param]


def outcome(config, folder):
    out, done = config.runs[folder]
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    return read_rows(out), done.stderr.decode("utf-8")


# ---------------------------------------------------------------- the tests --


def test_every_file_gets_exactly_one_row(config):
    for folder in config.expected:
        rows, _ = outcome(config, folder)
        assert sorted(rows) == sorted(shown(n) for n in listed(folder))


def test_every_item_of_issue_22_is_in_the_batches(config):
    names = {n for expected in config.expected.values() for n in expected}
    names.update(listed(config.secrets["submissions"]))
    missing = [
        (item, name)
        for item, files in hostile_submissions.ITEMS.items()
        for name in files
        if name not in names
    ]
    assert not missing


def test_scores_statuses_errors_and_identities(config):
    wrong = []
    for folder, expected in config.expected.items():
        rows, _ = outcome(config, folder)
        for filename, want in expected.items():
            row = rows[shown(filename)]
            statuses = want["status"]
            statuses = statuses if isinstance(statuses, tuple) else (statuses,)
            totals = want["total"]
            totals = totals if isinstance(totals, tuple) else (totals,)
            total = float(row["total"]) if row["total"] else None
            label = f"{folder.name}/{filename}"
            if row["status"] not in statuses:
                wrong.append(
                    f"{label}: status {row['status']} ({row['error']})"
                )
            elif row["status"] == "superseded" and total is not None:
                wrong.append(f"{label}: superseded with {total} points")
            elif not any(
                total == t or (total is not None and t is not None
                               and abs(total - t) < 1e-3)
                for t in totals
            ):  # fmt: skip
                wrong.append(
                    f"{label}: total {total}, expected {totals} "
                    f"({row['error']}; {row['notes']})"
                )
            for key, column in (
                ("error", "error"),
                ("note", "notes"),
                ("flag", "flags"),
            ):
                if key in want and want[key] not in row[column]:
                    wrong.append(
                        f"{label}: {column} {row[column]!r} lacks "
                        f"{want[key]!r}"
                    )
            for key in ("student", "attempts"):
                if key in want and str(want[key]) != row[key]:
                    wrong.append(
                        f"{label}: {key} {row[key]}, expected {want[key]}"
                    )
    assert not wrong, "\n".join(wrong)


def _feedback(config):
    folder = config.secrets["feedback"]
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in folder.rglob("*.md")
    }


def test_no_hidden_test_and_no_hidden_phase_detail_reaches_anyone(config):
    """No line of a hidden test in any feedback, CSV or log; what a notebook
    did during the hidden tests (an exit status, data it received from
    another submission) nowhere either."""
    secrets = [
        line
        for line in hidden_lines(config.secrets["masters"])
        if len(line) > 12
    ]
    assert len(secrets) >= 5
    rows, log = outcome(config, config.secrets["submissions"])
    shown_text = "\n".join(_feedback(config).values())
    shown_text += config.secrets["csv"].read_text(encoding="utf-8") + log
    leaked = [line for line in secrets if line in shown_text]
    assert not leaked, leaked
    expected = config.expected[config.secrets["submissions"]]
    for filename, want in expected.items():
        if "never" in want:
            row = rows[shown(filename)]
            texts = [row["error"], row["notes"], row["flags"]]
            feedback = feedback_path(
                config.secrets["feedback"],
                submissions.Submission(path="", name=filename),
            )
            texts.append(feedback.read_text(encoding="utf-8"))
            assert not [t for t in texts if want["never"] in t], filename


def test_the_hidden_phase_shows_only_pass_or_fail(config):
    feedback = _feedback(config)["hidden_exit_status.ipynb.md"]
    assert "## q3: 2.66667 / 4" in feedback
    assert "- hidden test 2: failed\n" in feedback
    assert "stopped" not in feedback and "died" not in feedback


def test_no_two_sandboxes_share_a_user_id(config):
    """As root, the keyring pair (graded one after the other with -j 1, by
    two checkers with -j 2) ran as two users of their own: the kernel's
    per-user state (keyrings, process counts) is never shared. A user's
    sandboxes are each in a user namespace of their own instead."""
    rows, _ = outcome(config, config.secrets["submissions"])
    uids = [
        int(re.search(r"uid (\d+)", rows[name]["notes"]).group(1))
        for name in ("keyring_a_sender.ipynb", "keyring_b_receiver.ipynb")
    ]
    if not config.user:
        assert uids[0] != uids[1] and min(uids) >= sandbox.UID_BASE, uids


def test_the_right_students_latest_attempt_is_graded(config):
    """Covered row by row in test_scores_statuses_errors_and_identities;
    here, the log shows the instructor every reassignment and every time
    it did not trust."""
    for folder in config.expected:
        if folder == config.secrets["submissions"]:
            continue
        _, log = outcome(config, folder)
        if folder.name == "folder-per-student":
            assert (
                "its name names jsmith, but the folder layout makes it "
                "evil's" in log
            )
            assert "bfuture/b.ipynb: modified after the batch started" in log
            assert re.search(r"adoe: 2 files; graded adoe/hw\.ipynb", log)
        else:
            assert (
                "HW1_cfut_attempt_2099-01-01-00-00-00_hw.ipynb: its time "
                "(2099-01-01T00:00:00) is after the batch started" in log
            )
            assert "do not match the blackboard layout" in log
            assert "bevil_x_adoe_attempt_2099-12-31-23-59-59_.ipynb" in log


def test_nothing_outside_the_submission_is_touched(config):
    changed = {
        path
        for path in set(config.before) | set(config.after)
        if config.before.get(path) != config.after.get(path)
    }
    assert not changed, f"changed by grading: {sorted(changed)}"
    assert not list(config.secrets["host_tmp"].iterdir())
    assert not (config.home / "written").exists()
    assert not (config.secrets["submissions"] / "loot").exists()


def test_no_process_outlives_its_submission(config):
    assert not processes_with(config.marker)
    assert config.secrets["csv"].read_bytes() == config.csv_at_exit


def test_a_rerun_resumes_and_grades_nothing_again(config):
    """Names a spreadsheet would run (=, +, -, @), names that are not UTF-8
    or hold escapes, 180 000-character errors: every row is found again."""
    assert config.rerun.returncode == 0, config.rerun.stderr[-3000:]
    log = config.rerun.stderr.decode("utf-8")
    assert re.search(r"; 0 graded now", log), log[-2000:]
    assert config.secrets["csv"].read_bytes() == config.csv_at_exit


def test_text_written_is_valid_one_line_utf8_without_controls(config):
    """The CSV, the feedback files and the log: valid UTF-8 (a lone
    surrogate, a name that is not UTF-8), no control characters but line
    ends (escape sequences in names), no cell longer than its width."""
    texts = {"log": config.runs[config.secrets["submissions"]][1].stderr}
    texts["csv"] = config.secrets["csv"].read_bytes()
    for path in config.secrets["feedback"].rglob("*.md"):
        texts[str(path)] = path.read_bytes()
    for label, data in texts.items():
        text = data.decode("utf-8")  # raises if not UTF-8
        text = text.replace("\r\n", "\n")  # the CSV's own line ends
        bad = {
            c for c in text if c in hostile_submissions.CONTROL and c != "\n"
        }
        assert not bad, (label, bad)
    for row in read_rows(config.secrets["csv"]).values():
        assert all(len(value) <= 2001 for value in row.values())


def test_the_graders_own_memory_stays_bounded(config):
    """A zip bomb, a 2 GiB file and answers as large as the channel allows
    (items 10 and 11): the grader's processes stay small."""
    _, log = outcome(config, config.secrets["submissions"])
    found = re.search(
        r"checkers' peak memory (\d+) MB, this process's (\d+) MB", log
    )
    assert found, log[-1000:]
    checker, main = map(int, found.groups())
    assert checker < 1200 and main < 400, (checker, main)


def test_memory_held_in_files_counts_against_the_limit(config):
    rows, _ = outcome(config, config.secrets["submissions"])
    row = rows["memory_hidden_in_files.ipynb"]
    if row["status"] == "error":
        assert row["error"].startswith(f"used more than {MEMORY_MB} MB")
    else:
        held = int(re.search(r"HELD (\d+)", row["notes"]).group(1))
        assert held < MEMORY_MB * 2**20 // 2, row["notes"]


def test_honest_notebooks_are_not_flagged(config):
    """As root and as a user with a Debian venv alike: what the environment
    does by itself (importing ctypes.wintypes, reading /proc/stat) is not
    the student's doing."""
    rows, _ = outcome(config, config.secrets["submissions"])
    honest = [
        "correct.ipynb",
        "partial.ipynb",
        "blank.ipynb",
        "plots_inline.ipynb",
        f"smith_john_123456_{NAME}.ipynb",
    ]
    assert {f: rows[f]["flags"] for f in honest} == dict.fromkeys(honest, "")


def test_time_per_submission_and_a_summary_are_printed(config):
    _, log = outcome(config, config.secrets["submissions"])
    assert re.search(r"\] correct\.ipynb: 12/12 in \d+\.\d s", log)
    assert re.search(r"files from \d+ students: \d+ graded, \d+ errors", log)
    assert "sandbox: bubblewrap" in log


# -------------------------------------------- issue 12's files (root -j 2) --


@pytest.fixture
def full(graded):
    return graded[FULL]


def test_cheats_are_flagged(full):
    rows, _ = outcome(full, full.secrets["submissions"])
    expected = full.expected[full.secrets["submissions"]]
    unflagged = [
        f for f in expected if f.startswith("cheat_") and not rows[f]["flags"]
    ]
    assert not unflagged


def test_the_score_does_not_depend_on_the_file_name(full):
    rows, _ = outcome(full, full.secrets["submissions"])
    renamed = rows[f"smith_john_123456_{NAME}.ipynb"]
    assert renamed["student"] == "smith_john_123456"
    columns = ["q1", "q2", "q3", "total"]
    assert [renamed[c] for c in columns] == [
        rows["correct.ipynb"][c] for c in columns
    ]


def test_feedback_per_question_public_messages_hidden_names(full):
    feedback = _feedback(full)
    partial = feedback["partial.ipynb.md"]
    assert "Autograded score: 8 / 12." in partial
    assert "## q3: 0 / 4" in partial and "## q1: 4 / 4" in partial
    assert re.search(r"- public test 1: failed: \S+", partial)
    assert "- hidden test 1: failed\n" in partial  # the name, no message
    assert "q4 (2 points)" in partial  # the written question, by hand
    assert (
        "could not be graded: the file is empty" in feedback["empty.ipynb.md"]
    )
    # the longest names get a feedback file of their own
    assert feedback_path(
        full.secrets["feedback"],
        submissions.Submission(path="", name="long/" + "y" * 249 + ".ipynb"),
    ).is_file()
    expected = full.expected[full.secrets["submissions"]]
    graded = [f for f, w in expected.items() if w["status"] != "superseded"]
    assert len(feedback) == len(graded)


def test_a_rerun_resumes_where_an_interrupted_run_stopped(full, tmp_path):
    """Keep the header and a few rows, as an interrupted run would have left
    them: the rerun grades only the other files (none of the slow ones)."""
    out = tmp_path / "grades.csv"
    lines = full.csv_at_exit.decode().splitlines(keepends=True)
    kept = [
        line
        for line in lines[1:]
        if "stubborn_hang" in line or "hung_cell" in line
    ]
    kept += [line for line in lines[1:] if line not in kept][:3]
    out.write_text(lines[0] + "".join(kept) + "broken,partial,row")
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in [
        "stubborn_hang.ipynb",
        "hung_cell.ipynb",
        "blank.ipynb",
        "correct.ipynb",
    ]:
        (folder / name).write_bytes(
            (full.secrets["submissions"] / name).read_bytes()
        )
    again = subprocess.run(
        [str(a) for a in (
            sys.executable, ASSIGNMENTS / "grade.py", NAME, folder,
            "--masters", full.course, "--out", out, "--timeout", TIMEOUT,
            "--cell-timeout", CELL_TIMEOUT,
        )],
        capture_output=True, text=True,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    graded_now = re.findall(r"\] (\S+): ", again.stderr)
    assert "stubborn_hang.ipynb" not in graded_now
    assert "hung_cell.ipynb" not in graded_now
    rows = read_rows(out)
    assert sorted(rows) == sorted(p.name for p in folder.iterdir())
    assert rows["correct.ipynb"]["total"] == "12"


def test_without_bubblewrap_grading_stops_before_running_anything(
    full, tmp_path
):
    folder = tmp_path / "submissions"
    folder.mkdir()
    marker = tmp_path / "ran"
    student = json.loads(
        (full.secrets["submissions"] / "blank.ipynb").read_text()
    )
    nb = hostile_submissions.with_cell(
        student, f"open({str(marker)!r}, 'w').write('x')\n"
    )
    (folder / "writes.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "grades.csv"
    refused = subprocess.run(
        [sys.executable, ASSIGNMENTS / "grade.py", NAME, folder,
         "--masters", full.course, "--out", out,
         "--bwrap", tmp_path / "no-such-bwrap"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "bubblewrap" in refused.stderr and "--no-sandbox" in refused.stderr
    assert not marker.exists() and not out.exists()


def test_no_sandbox_is_loud_and_still_checks_in_a_clean_process(
    full, tmp_path
):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ["correct.ipynb", "cheat_patches_numpy.ipynb",
                 "cheat_reads_the_tests.ipynb"]:  # fmt: skip
        (folder / name).write_bytes(
            (full.secrets["submissions"] / name).read_bytes()
        )
    graded = subprocess.run(
        [sys.executable, ASSIGNMENTS / "grade.py", NAME, folder,
         "--masters", full.course, "--out", tmp_path / "grades.csv",
         "--no-sandbox"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert graded.returncode == 0, graded.stderr
    assert graded.stderr.count("STUDENT CODE RAN AS YOU") == 2  # start and end
    rows = read_rows(tmp_path / "grades.csv")
    assert rows["correct.ipynb"]["total"] == "12"
    assert rows["cheat_patches_numpy.ipynb"]["total"] == "0"
    assert rows["cheat_reads_the_tests.ipynb"]["total"] == "0"


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["no-such-assignment", "."], "No assignment no-such-assignment"),
        (
            [NAME, ".", "--masters", "/no/such/folder"],
            "is not a folder of master",
        ),
        ([NAME, "/no/such/folder"], "is not a folder"),
    ],
)
def test_bad_command_lines_exit_with_status_2(arguments, message):
    result = subprocess.run(
        [sys.executable, ASSIGNMENTS / "grade.py", *arguments],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 2 and message in result.stderr, result.stderr


def test_build_rejects_a_bad_masters_folder_and_unknown_names(tmp_path):
    for arguments, message in [
        (["--masters", tmp_path], "holds no master notebook"),
        (["--masters", tmp_path / "missing"], "is not a folder of master"),
        (["no-such-assignment"], "No assignment no-such-assignment"),
    ]:
        result = subprocess.run(
            [sys.executable, ASSIGNMENTS / "build.py", *map(str, arguments)],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        assert result.returncode == 2 and message in result.stderr, (
            result.stderr
        )


def test_new_course_refuses_a_folder_in_use(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = subprocess.run(
        [sys.executable, ASSIGNMENTS / "new_course.py", tmp_path],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 2 and "not an empty folder" in result.stderr


def test_private_masters_build_outside_the_book(course):
    assert (course / "README.md").exists() and (course / ".gitignore").exists()
    assert (course / "_build" / NAME / f"{NAME}-autograder.json").exists()
    assert (course / NAME / "student" / f"{NAME}.ipynb").exists()
    assert "_build/" in (course / ".gitignore").read_text()


# ---- the sandbox, property by property, as root and as a user --------------


def _probe(who, *arguments):
    argv = [sys.executable, ROOT / "tests" / "sandbox_probe.py", *arguments]
    argv = [str(a) for a in argv]
    if who == "user" and AS_ROOT:
        home = Path(tempfile.mkdtemp(prefix="grading-probe-"))
        try:
            home.chmod(0o755)
            unprivileged.give(home)
            environment = {"PATH": "/usr/bin:/bin", "HOME": str(home),
                           "LANG": "C.UTF-8"}  # fmt: skip
            argv = unprivileged.command(
                argv, [sys.prefix, sys.base_prefix, sys.executable, ROOT],
                environment,
            )  # fmt: skip
            done = subprocess.run(argv, capture_output=True, text=True)
        finally:
            shutil.rmtree(home, ignore_errors=True)
    else:
        done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


WHO = ["root", "user"] if AS_ROOT else ["user"]


@pytest.fixture(scope="module", params=WHO)
def observed(request, graded):
    config = graded[f"{request.param} -j 1"]
    secrets = [
        str(config.secrets[k])
        for k in ("csv", "autograder", "masters", "solutions", "submissions",
                  "sentinel", "home_canary")
    ]  # fmt: skip
    secrets += [str(ROOT / "assignments" / NAME), str(ROOT / "tests")]
    marker = f"probe-marker-{uuid.uuid4().hex}"
    report = _probe(request.param, "look", json.dumps(secrets), marker)
    assert report.get("errors") == [], report
    return request.param, report["observed"], marker


def test_sandbox_runs_as_an_unprivileged_user_of_its_own(observed):
    who, observed, _ = observed
    assert observed["capabilities"] == "0000000000000000"
    if who == "root":
        assert observed["uid"] >= sandbox.UID_BASE


def test_sandbox_has_no_network(observed):
    _, observed, _ = observed
    assert observed["network"] != "connected"
    assert observed["interfaces"] in ([], ["lo"])


def test_sandbox_sees_only_its_own_processes(observed):
    _, observed, marker = observed
    assert observed["processes"] <= 4 and observed["hostname"] == "sandbox"
    assert not processes_with(marker)  # the detached sleeper died with it


def test_sandbox_writes_only_its_small_private_tmpfs(observed):
    """Not /usr, the Python installation, mllib, its root or /dev: only its
    /dev/shm, its /tmp and its folder there."""
    _, observed, _ = observed
    assert list(observed["writable"].values()) == [False] * 5 + [True] * 3
    assert observed["tmpfs bytes"] == {
        "/tmp": sandbox.Limits(memory_mb=2048).tmp_bytes(),
        "/dev/shm": sandbox.SHM_BYTES,
    }


def test_sandbox_hides_grades_masters_submissions_and_home(observed):
    _, observed, _ = observed
    assert observed["visible"] == []


def test_sandbox_refuses_what_could_carry_data_or_hide_memory(observed):
    """Keyrings, locks and leases on shared files, file notifications, page
    cache queries, memfds, System V and POSIX IPC, io_uring, and the rest of
    REFUSED: each would let two submissions talk or hold memory unseen."""
    _, observed, _ = observed
    assert {k: v for k, v in observed["refused"].items()
            if v not in ("EPERM", "ENOLCK")} == {}  # fmt: skip
    assert observed["user namespace"] != 0
    assert observed["memory limit"] == 2048 * 2**20


@pytest.mark.parametrize("who", WHO)
def test_sandbox_limits_processes_and_none_survive(who):
    marker = f"flood-marker-{uuid.uuid4().hex}"
    report = _probe(who, "flood", marker)
    assert 0 < report["forked"] < MAX_PROCESSES, report
    assert not processes_with(marker)


@pytest.mark.parametrize("who", WHO)
def test_sandbox_limits_the_memory_of_all_its_processes_together(who):
    """Each child stays under the per-process limit; together they do not."""
    report = _probe(who, "hog")
    assert report.get("ended", "").startswith("used more than 1024 MB"), report


# ---- the parts, one by one ------------------------------------------------


@pytest.mark.parametrize(
    "names, layout, students",
    [
        (["smith_john_123456_hw.ipynb", "doe_jane_654321_hw.ipynb"],
         "name and number", ["smith_john_123456", "doe_jane_654321"]),
        (["smithjohn_123456_7891011_hw.ipynb",
          "smithjohn_LATE_123456_7891012_hw-1.ipynb"],
         "canvas", ["smithjohn_123456", "smithjohn_123456"]),
        (["John Smith_98765_assignsubmission_file_hw.ipynb",
          "Ann Doe_98766_assignsubmission_file_/hw.ipynb"],
         "moodle", ["john smith_98765", "ann doe_98766"]),
        (["HW1_jsmith_attempt_2026-01-02-10-00-00_hw.ipynb",
          "HW1_jsmith_attempt_2026-01-02-10-00-00.txt"],
         "blackboard", ["jsmith", "jsmith"]),
        (["jsmith/hw.ipynb", "jsmith/more/x_adoe_attempt_2026-01-02-10-00-00_"
          "hw.ipynb"], "folder", ["jsmith", "jsmith"]),
        (["hw.ipynb", "other.zip"], "none", ["hw", "other"]),
    ],
)  # fmt: skip
def test_one_layout_names_every_student_of_a_batch(
    tmp_path, names, layout, students
):
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    batch = submissions.collect(tmp_path)
    assert batch.layout == layout
    found = {s.name: s.student for s in batch.submissions}
    assert [found[n] for n in names] == students


def test_patterns_are_anchored_and_times_from_the_future_not_trusted(tmp_path):
    names = {
        "HW1_adoe_attempt_2026-01-02-10-00-00_hw.ipynb": "adoe",
        "HW1_adoe_attempt_2026-01-03-10-00-00_hw.ipynb": "adoe",
        "HW1_adoe_attempt_2099-01-03-10-00-00_hw.ipynb": "adoe",
        "HW1_bevil_attempt_2026-01-01-00-00-00_HW1_adoe_attempt_2099-12-31-"
        "23-59-59_.ipynb": "bevil",
        "bevil_x_adoe_attempt_2099-12-31-23-59-59_.ipynb": None,
    }
    for name in names:
        (tmp_path / name).write_text("{}")
    batch = submissions.collect(tmp_path)
    found = {s.name: s for s in batch.submissions}
    for name, student in names.items():
        assert found[name].student == (student or name.rsplit(".", 1)[0])
    latest = [s.name for s in batch.submissions if s.latest and
              s.student == "adoe"]  # fmt: skip
    assert latest == ["HW1_adoe_attempt_2026-01-03-10-00-00_hw.ipynb"]
    assert any("2099-01-03T10:00:00) is after the batch started" in line
               for line in batch.log)  # fmt: skip


def test_attempts_are_ordered_by_the_platform_not_the_student(tmp_path):
    """Canvas's upload numbers and the files' modification times order
    attempts; the time an otter export puts in its own name does not."""
    now = time.time()
    for name, age in [
        ("x_2026_01_05T00_00_00_000000.zip", 100),
        ("x_2026_01_04T00_00_00_000000.zip", 50),
    ]:
        (tmp_path / name).write_text("{}")
        os.utime(tmp_path / name, (now - age, now - age))
    custom = {
        s.name: s
        for s in submissions.collect(
            tmp_path, r"(?P<student>[a-z]+)_"
        ).submissions
    }
    assert custom["x_2026_01_04T00_00_00_000000.zip"].latest
    assert custom["x_2026_01_05T00_00_00_000000.zip"].attempts == 2
    canvas = tmp_path / "canvas"
    canvas.mkdir()
    for name, age in [("ann_12_900_hw.ipynb", 10), ("ann_12_800_hw.ipynb", 1)]:
        (canvas / name).write_text("{}")
        os.utime(canvas / name, (now - age, now - age))
    found = {s.name: s for s in submissions.collect(canvas).submissions}
    assert found["ann_12_900_hw.ipynb"].latest  # uploaded after 800


def test_links_and_special_files_get_rows_and_are_never_followed(tmp_path):
    outside = tmp_path / "outside.ipynb"
    outside.write_text("{}")
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "to_outside.ipynb").symlink_to(outside)
    (batch / "folder_link").symlink_to(tmp_path)
    (batch / "loop.ipynb").symlink_to("loop.ipynb")
    os.mkfifo(batch / "fifo.ipynb")
    found = {s.name: s for s in submissions.collect(batch).submissions}
    assert sorted(found) == ["fifo.ipynb", "folder_link", "loop.ipynb",
                             "to_outside.ipynb"]  # fmt: skip
    assert all(s.problem for s in found.values())
    with pytest.raises(submissions.SubmissionError, match="symbolic link"):
        submissions.read_cells(batch / "to_outside.ipynb", NAME)


def test_zip_members_are_read_in_bounded_chunks(tmp_path):
    """A member that inflates to 1 GiB is refused after MAX_BYTES, whatever
    its declared size, and the reader never holds more than that."""
    import resource

    def zeros():
        for _ in range(1024):
            yield b"\0" * 2**20

    hostile_submissions.raw_zip(
        tmp_path / "bomb.zip",
        [("a.ipynb", 8, hostile_submissions._deflated(zeros()), 2**20 + 5, 0)],
    )
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(submissions.SubmissionError, match="too large|CRC"):
        submissions.read_cells(tmp_path / "bomb.zip", NAME)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown * 1024 < 2 * submissions.MAX_BYTES


@pytest.mark.parametrize(
    "text, shown_as",
    [
        ("plain.ipynb", "plain.ipynb"),
        ("\x1b]0;title\x07x", "\\x1b]0;title\\x07x"),
        ("a\ud800b", "a\\ud800b"),
        ("not_utf8_\udcff.ipynb", "not_utf8_\\xff.ipynb"),
        ("rtl\u202eexe.ipynb", "rtl\\u202eexe.ipynb"),
        ("two\nlines\tand\rmore", "two lines and more"),
        ("\x9b2J", "\\x9b2J"),
    ],
)
def test_text_from_students_is_made_safe(text, shown_as):
    assert clean(text) == shown_as
    assert len(clean("x" * 10_000, 100)) == 100
    assert _cell("submission", "=1+1") == "'=1+1"
    assert _cell("submission", "-rf") == "'-rf"


def test_file_names_fit_the_file_system():
    long = "y" * 255
    made = file_name(long)
    assert len(made.encode()) <= 200 and made != file_name("y" * 254)
    assert file_name("plain.ipynb") == "plain.ipynb"
    assert "/" not in file_name("a/b") and file_name("..") != ".."


def test_codec_carries_plain_data_only():
    value = (
        np.arange(6.0).reshape(2, 3),
        np.float32(2.5),
        [1, "a", None],
        {"k": 1j},
    )
    back = codec.decode(codec.loads(codec.dumps(codec.encode(value))))
    assert np.array_equal(back[0], value[0]) and back[0].dtype == np.float64
    assert back[1] == np.float32(2.5) and back[2] == [1, "a", None]
    assert back[3] == {"k": 1j}
    for hostile in (
        object(),
        np.array([object()]),
        np.zeros(2).view([("a", "f4"), ("b", "f4")]),
        lambda: 0,
        np.zeros(codec.MAX_ITEMS + 1, dtype=np.int8),
    ):
        with pytest.raises(codec.Unsupported):
            codec.encode(hostile)
    for forged in (
        {"array": ["|O", [1], "AAAAAAAAAAA="]},  # an object array
        {"array": ["<f8", [3], "AAAAAAAAAAA="]},  # too few bytes
        {"array": ["<f8", [10**9], "AAAAAAAAAAA="]},  # too large
        {"pickle": "gASVAAAAAAAAAAA="},
        {"array": ["<f8", [-1], ""]},
        {"global": "svc"},  # the checker never accepts a reference
    ):
        with pytest.raises(ValueError):
            codec.decode(forged)
    with pytest.raises(ValueError):
        codec.loads('{"value": NaN}')
    estimator = object()
    sent = codec.encode([estimator], names={id(estimator): "svc"})
    assert codec.decode(sent, globals_allowed=True)[0].name == "svc"


def test_assertions_never_stop_a_test_early():
    """The calls a hidden test makes do not depend on whether an assertion
    held: a failed one is recorded and the test goes on."""
    from grading.checker import compile_test

    calls, failures = [], []
    scope = {
        "f": lambda x: calls.append(x) or x,
        "__failed__": lambda message, line: failures.append(line),
    }
    exec(
        compile_test("assert f(1) == 2, 'no'\nassert f(3) == 3\nf(4)\n"), scope
    )
    assert calls == [1, 3, 4] and failures == [1]


def test_seccomp_program_is_well_formed():
    for machine in sandbox._SYSCALLS:
        program = sandbox.seccomp_program(machine)
        assert len(program) < 4096
        for position, (code, jt, jf, _) in enumerate(program):
            if code in (0x15, 0x35, 0x45):  # jumps stay inside the program
                assert position + 1 + max(jt, jf) < len(program)
        assert program[-1] == (0x06, 0, 0, 0x7FFF0000)  # allow the rest


def _dies_on(connection):
    """A stand-in checker process: answers every path but "die", on which
    it dies as a checker killed for memory would."""
    connection.send(("ready", None))
    while (path := connection.recv()) is not None:
        if path == "die":
            os._exit(9)
        connection.send(("done", {"path": path}))


def test_a_checker_that_dies_costs_only_its_file():
    from grading.batch import _Pool

    tasks = list(enumerate(["a", "die", "b", "c"]))
    got = dict(_Pool(2, (), target=_dies_on).run(tasks))
    assert got[1]["status"] == "error" and "died" in got[1]["error"]
    assert [got[i]["path"] for i in (0, 2, 3)] == ["a", "b", "c"]
