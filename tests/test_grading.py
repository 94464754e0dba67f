"""Grading a class unattended: isolation, tamper resistance, robust batches,
identity and attempts, feedback, private masters (issue 12).

One module-scoped batch, graded the way an instructor does it (a private
course copy made by `new_course.py`, built by `build.py --masters`, graded by
`grade.py --masters -j 2`), holds correct, partial, blank, renamed and
repeated submissions, crashes and hangs, every cheat of issue 12 and
malformed files (see hostile_submissions.py); the tests below read its CSV,
feedback files and the state of the machine afterwards.
"""

import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import hostile_submissions
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
sys.path.insert(0, str(ASSIGNMENTS))

from build import hidden_lines  # noqa: E402
from grading import autograder as autograders  # noqa: E402
from grading import codec, submissions  # noqa: E402
from grading.sandbox import (  # noqa: E402
    MAX_PROCESSES,
    Limits,
    Sandbox,
    converse,
)

NAME = "gradients-and-duality"
TIMEOUT = 20  # seconds per submission in this batch (the stubborn hang)
CELL_TIMEOUT = 5  # a hung cell is stopped after this; a real one takes < 1 s


def run(*args, **kwargs):
    return subprocess.run(
        [sys.executable, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        **kwargs,
    )


def tree_digest(*paths):
    """sha256 of every file under the paths (missing files included)."""
    digest = {}
    for path in paths:
        path = Path(path)
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file():
                digest[str(file)] = hashlib.sha256(
                    file.read_bytes()
                ).hexdigest()
            elif not file.exists():
                digest[str(file)] = None
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


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A private course with one assignment, built as an instructor does."""
    folder = tmp_path_factory.mktemp("course") / "ml-course"
    made = run(ASSIGNMENTS / "new_course.py", folder, NAME)
    assert made.returncode == 0, made.stderr
    built = run(ASSIGNMENTS / "build.py", "--masters", folder)
    assert built.returncode == 0, built.stdout + built.stderr
    return folder


@pytest.fixture(scope="module")
def batch(course, tmp_path_factory):
    base = tmp_path_factory.mktemp("batch")
    build = course / "_build" / NAME
    auto = build / f"{NAME}-autograder.json"
    host_tmp = base / "host_tmp"
    host_tmp.mkdir()
    sentinel = base / "sentinel.txt"
    sentinel.write_text("keep me")
    canary = Path.home() / f".grading-canary-{uuid.uuid4().hex}"
    secrets = {
        "csv": base / "grades.csv",
        "autograder": auto,
        "masters": course / NAME / f"{NAME}.ipynb",
        "solutions": build / "solutions" / f"{NAME}.ipynb",
        "feedback": base / "grades-feedback",
        "home_canary": canary,
        "home": Path.home(),
        "sentinel": sentinel,
        "host_tmp": host_tmp,
        "marker": f"grading-marker-{uuid.uuid4().hex}",
        "submissions": base / "submissions",
        "answers": autograders.all_answers(autograders.load(auto)),
    }
    other = ASSIGNMENTS / "ridge-and-model-selection" / "student"
    expected = hostile_submissions.make_batch(
        build,
        NAME,
        secrets["submissions"],
        secrets,
        other / "ridge-and-model-selection.ipynb",
    )
    watched = [
        secrets["submissions"],
        sentinel,
        auto,
        course / NAME,
        ROOT / "mllib",
    ]
    before = tree_digest(*watched)
    canary.write_text("the grader's home")
    try:
        graded = run(
            ASSIGNMENTS / "grade.py",
            NAME,
            secrets["submissions"],
            "--masters",
            course,
            "--out",
            secrets["csv"],
            "-j",
            "2",
            "--timeout",
            TIMEOUT,
            "--cell-timeout",
            CELL_TIMEOUT,
        )
        csv_at_exit = secrets["csv"].read_text()
        time.sleep(5)  # what a detached process would do, it has done now
    finally:
        canary.unlink()
    with open(secrets["csv"], newline="") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    feedback = {
        p.name: p.read_text() for p in secrets["feedback"].glob("*.md")
    }
    return {
        "graded": graded,
        "rows": rows,
        "expected": expected,
        "secrets": secrets,
        "feedback": feedback,
        "csv_at_exit": csv_at_exit,
        "unchanged": before == tree_digest(*watched),
        "before": before,
        "after": tree_digest(*watched),
        "course": course,
        "home": canary.parent,
    }


def test_every_file_gets_exactly_one_row(batch):
    assert batch["graded"].returncode == 0, batch["graded"].stderr[-3000:]
    files = sorted(p.name for p in batch["secrets"]["submissions"].iterdir())
    with open(batch["secrets"]["csv"], newline="") as f:
        listed = [row["submission"] for row in csv.DictReader(f)]
    assert sorted(listed) == files


def test_scores_statuses_and_errors(batch):
    wrong = []
    for filename, want in batch["expected"].items():
        row = batch["rows"][filename]
        statuses = (
            want["status"]
            if isinstance(want["status"], tuple)
            else (want["status"],)
        )
        total = float(row["total"]) if row["total"] else None
        if row["status"] not in statuses:
            wrong.append(
                f"{filename}: status {row['status']} ({row['error']})"
            )
        elif row["status"] == "graded" and total != want["total"]:
            wrong.append(
                f"{filename}: total {total}, expected {want['total']}"
            )
        elif row["status"] != "graded" and total not in (None, 0):
            wrong.append(f"{filename}: {row['status']} with {total} points")
        for key, column in (
            ("error", "error"),
            ("note", "notes"),
            ("flag", "flags"),
        ):
            if key in want and want[key] not in row[column]:
                wrong.append(
                    f"{filename}: {column} {row[column]!r} lacks {want[key]!r}"
                )
        for key in ("student", "attempts"):
            if key in want and str(want[key]) != row[key]:
                wrong.append(
                    f"{filename}: {key} {row[key]}, expected {want[key]}"
                )
    assert not wrong, "\n".join(wrong)


def test_the_score_does_not_depend_on_the_file_name(batch):
    rows = batch["rows"]
    renamed = rows[f"smith_john_123456_{NAME}.ipynb"]
    assert renamed["student"] == "smith_john_123456"
    columns = ["q1", "q2", "q3", "total"]
    assert [renamed[c] for c in columns] == [
        rows["correct.ipynb"][c] for c in columns
    ]


def test_only_the_latest_attempt_counts(batch):
    attempts = {
        name: row
        for name, row in batch["rows"].items()
        if row["student"] == "doe_jane_654321"
    }
    assert len(attempts) == 2
    older, newer = sorted(attempts)  # the export time is in the name
    assert (
        attempts[older]["status"] == "superseded"
        and not attempts[older]["total"]
    )
    assert (
        attempts[newer]["status"] == "graded"
        and attempts[newer]["total"] == "12"
    )
    assert {row["attempts"] for row in attempts.values()} == {"2"}


def test_nothing_outside_the_submission_is_touched(batch):
    changed = {
        path
        for path in set(batch["before"]) | set(batch["after"])
        if batch["before"].get(path) != batch["after"].get(path)
    }
    assert not changed, f"changed by grading: {sorted(changed)}"
    assert not list(batch["secrets"]["host_tmp"].iterdir())
    assert not (batch["home"] / "written").exists()
    assert not (batch["secrets"]["submissions"] / "loot").exists()


def test_no_process_outlives_its_submission(batch):
    assert not processes_with(batch["secrets"]["marker"])
    assert batch["secrets"]["csv"].read_text() == batch["csv_at_exit"]


def test_the_next_submission_is_graded_as_before_a_poisoner(batch):
    assert batch["rows"]["zz_blank_after_poisoner.ipynb"]["total"] == "0"


def test_hidden_tests_never_reach_a_student(batch):
    secrets = [
        line
        for line in hidden_lines(batch["secrets"]["masters"])
        if len(line) > 12
    ]
    assert len(secrets) >= 5
    shown = "\n".join(batch["feedback"].values())
    shown += batch["secrets"]["csv"].read_text()
    leaked = [line for line in secrets if line in shown]
    assert not leaked, leaked
    # The thief did see them inside its sandbox (they are compiled there);
    # its feedback says only that the hidden tests failed.
    thief = batch["feedback"]["cheat_steals_tests.ipynb.md"]
    assert "hidden test 1: failed\n" in thief


def test_cheats_are_flagged(batch):
    for filename, want in batch["expected"].items():
        if filename.startswith("cheat_"):
            assert batch["rows"][filename]["flags"], filename
    honest = [
        "correct.ipynb",
        "partial.ipynb",
        "blank.ipynb",
        "hung_cell.ipynb",
    ]
    assert not [f for f in honest if batch["rows"][f]["flags"]]


def test_feedback_per_question_public_messages_hidden_names(batch):
    feedback = batch["feedback"]
    graded = [
        f for f, w in batch["expected"].items() if w["status"] != "superseded"
    ]
    assert sorted(feedback) == sorted(f"{f}.md" for f in graded)
    partial = feedback["partial.ipynb.md"]
    assert "Autograded score: 8 / 12." in partial
    assert "## q3: 0 / 4" in partial and "## q1: 4 / 4" in partial
    assert re.search(r"- public test 1: failed: \S+", partial)
    assert "- hidden test 1: failed\n" in partial  # the name, no message
    assert "q4 (2 points)" in partial  # the written question, by hand
    assert (
        "could not be graded: the file is empty" in feedback["empty.ipynb.md"]
    )


def test_time_per_submission_and_a_summary_are_printed(batch):
    log = batch["graded"].stderr
    assert re.search(r"\] correct\.ipynb: 12/12 in \d+\.\d s", log)
    assert re.search(r"files from \d+ students: \d+ graded, \d+ errors", log)
    assert all(
        float(row["seconds"]) > 0
        for row in batch["rows"].values()
        if row["status"] == "graded"
    )


def test_a_rerun_resumes_where_an_interrupted_run_stopped(batch, tmp_path):
    """Keep the header and five rows, as an interrupted run would have left
    them: the rerun grades only the other files (none of the slow ones)."""
    out = tmp_path / "grades.csv"
    lines = batch["secrets"]["csv"].read_text().splitlines(keepends=True)
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
            (batch["secrets"]["submissions"] / name).read_bytes()
        )
    again = run(
        ASSIGNMENTS / "grade.py", NAME, folder, "--masters", batch["course"],
        "--out", out, "--timeout", TIMEOUT, "--cell-timeout", CELL_TIMEOUT,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    graded_now = re.findall(r"\] (\S+): ", again.stderr)
    assert (
        "stubborn_hang.ipynb" not in graded_now
        and "hung_cell.ipynb" not in graded_now
    )
    with open(out, newline="") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    assert sorted(rows) == sorted(p.name for p in folder.iterdir())
    assert rows["correct.ipynb"]["total"] == "12"


def test_without_bubblewrap_grading_stops_before_running_anything(
    batch, tmp_path
):
    folder = tmp_path / "submissions"
    folder.mkdir()
    marker = tmp_path / "ran"
    student = json.loads(
        (batch["secrets"]["submissions"] / "blank.ipynb").read_text()
    )
    nb = hostile_submissions.with_cell(
        student, f"open({str(marker)!r}, 'w').write('x')\n"
    )
    (folder / "writes.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "grades.csv"
    refused = run(
        ASSIGNMENTS / "grade.py", NAME, folder, "--masters", batch["course"],
        "--out", out, "--bwrap", tmp_path / "no-such-bwrap",
    )  # fmt: skip
    assert refused.returncode == 2
    assert "bubblewrap" in refused.stderr and "--no-sandbox" in refused.stderr
    assert not marker.exists() and not out.exists()


def test_no_sandbox_is_loud_and_still_checks_in_a_clean_process(
    batch, tmp_path
):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ["correct.ipynb", "cheat_patches_numpy.ipynb"]:
        (folder / name).write_bytes(
            (batch["secrets"]["submissions"] / name).read_bytes()
        )
    graded = run(
        ASSIGNMENTS / "grade.py", NAME, folder, "--masters", batch["course"],
        "--out", tmp_path / "grades.csv", "--no-sandbox",
    )  # fmt: skip
    assert graded.returncode == 0, graded.stderr
    assert graded.stderr.count("STUDENT CODE RAN AS YOU") == 2  # start and end
    with open(tmp_path / "grades.csv", newline="") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    assert rows["correct.ipynb"]["total"] == "12"
    assert rows["cheat_patches_numpy.ipynb"]["total"] == "0"


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
    result = run(ASSIGNMENTS / "grade.py", *arguments)
    assert result.returncode == 2 and message in result.stderr, result.stderr


def test_build_rejects_a_bad_masters_folder_and_unknown_names(tmp_path):
    for arguments, message in [
        (["--masters", tmp_path], "holds no master notebook"),
        (["--masters", tmp_path / "missing"], "is not a folder of master"),
        (["no-such-assignment"], "No assignment no-such-assignment"),
    ]:
        result = run(ASSIGNMENTS / "build.py", *arguments)
        assert result.returncode == 2 and message in result.stderr, (
            result.stderr
        )


def test_new_course_refuses_a_folder_in_use(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = run(ASSIGNMENTS / "new_course.py", tmp_path)
    assert result.returncode == 2 and "not an empty folder" in result.stderr


def test_private_masters_build_outside_the_book(course):
    assert (course / ".git").is_dir() and (course / "README.md").exists()
    assert (course / "_build" / NAME / f"{NAME}-autograder.json").exists()
    assert (course / NAME / "student" / f"{NAME}.ipynb").exists()
    assert "_build/" in (course / ".gitignore").read_text()


# ---- the sandbox, property by property, with a notebook that looks around --

PROBE = r"""
import os, resource, socket, subprocess
observed = {}
observed["uid"] = os.getuid()
status = open("/proc/self/status").read()
observed["capabilities"] = status.split("CapEff:")[1].split()[0]
observed["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
observed["hostname"] = socket.gethostname()
try:
    socket.create_connection(("1.1.1.1", 53), timeout=3)
    observed["network"] = "connected"
except OSError as error:
    observed["network"] = type(error).__name__
observed["interfaces"] = sorted(name for _, name in socket.if_nameindex())
def writable(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return True
    except OSError:
        return False
observed["write /usr"] = writable("/usr/grading-probe")
observed["write python"] = writable(os.__file__ + ".probe")
observed["write mllib"] = writable(__import__("mllib").__file__ + ".probe")
observed["write /tmp"] = writable("/tmp/probe")
observed["write cwd"] = writable("probe")
observed["visible"] = [p for p in SECRETS if os.path.exists(p)]
unshare = subprocess.run(["unshare", "-U", "true"])
observed["user namespace"] = unshare.returncode
observed["memory limit"] = resource.getrlimit(resource.RLIMIT_AS)[1]
subprocess.Popen(["sleep", "600", MARKER], start_new_session=True)
"""


@pytest.fixture(scope="module")
def observed(batch):
    secrets = batch["secrets"]
    paths = [
        str(secrets[k])
        for k in (
            "csv",
            "autograder",
            "masters",
            "solutions",
            "submissions",
            "sentinel",
        )
    ]
    paths += [
        str(Path.home()),
        str(ROOT / "assignments" / NAME),
        str(ROOT / "tests"),
    ]
    marker = f"probe-marker-{uuid.uuid4().hex}"
    code = f"SECRETS = {paths!r}\nMARKER = {marker!r}\n" + PROBE
    limits = Limits(timeout=60, cell_timeout=30, memory_mb=2048)
    transcript = converse(Sandbox(), limits, [[0, code]], ["observed"], [], [])
    assert not transcript.error, transcript.error
    assert transcript.cells_done["errors"] == []
    report = transcript.cells_done["answers"]["observed"]["value"]
    return codec.decode(report), marker


def test_sandbox_runs_as_an_unprivileged_user(observed):
    observed, _ = observed
    assert observed["capabilities"] == "0000000000000000"
    if os.geteuid() == 0:
        assert observed["uid"] != 0


def test_sandbox_has_no_network(observed):
    observed, _ = observed
    assert observed["network"] != "connected"
    assert observed["interfaces"] in ([], ["lo"])


def test_sandbox_sees_only_its_own_processes(observed):
    observed, marker = observed
    assert observed["processes"] <= 4 and observed["hostname"] == "sandbox"
    assert not processes_with(marker)  # the detached sleeper died with it


def test_sandbox_system_is_read_only_and_temp_is_private(observed):
    observed, _ = observed
    assert not observed["write /usr"] and not observed["write python"]
    assert not observed["write mllib"]
    assert observed["write /tmp"] and observed["write cwd"]
    assert (
        not Path("/tmp/probe").exists()
        or Path("/tmp/probe").read_text() != "x"
    )


def test_sandbox_hides_grades_masters_submissions_and_home(observed):
    observed, _ = observed
    home = str(Path.home())
    visible = [p for p in observed["visible"] if p != home]
    assert visible == []


def test_sandbox_limits_processes_and_none_survive():
    marker = f"flood-marker-{uuid.uuid4().hex}"
    flood = (
        "import os\n"
        "forked = 0\n"
        "for _ in range(2000):\n"
        "    try:\n"
        "        pid = os.fork()\n"
        "    except OSError:\n"
        "        break\n"
        "    if pid == 0:\n"
        f"        os.execv('/bin/sleep', ['sleep', '600', {marker!r}])\n"
        "    forked += 1\n"
    )
    limits = Limits(timeout=60, cell_timeout=30)
    transcript = converse(Sandbox(), limits, [[0, flood]], ["forked"], [], [])
    assert not transcript.error, transcript.error
    forked = codec.decode(transcript.cells_done["answers"]["forked"]["value"])
    assert 0 < forked < MAX_PROCESSES
    assert not processes_with(marker)


def test_sandbox_limits_the_memory_of_all_its_processes_together():
    """Each child stays under the per-process limit; together they do not."""
    hog = (
        "import os, time\n"
        "import numpy as np\n"
        "for _ in range(6):\n"
        "    if os.fork() == 0:\n"
        "        block = np.ones(40_000_000)  # 320 MB, written\n"
        "        time.sleep(60)\n"
        "time.sleep(60)\n"
    )
    limits = Limits(timeout=60, cell_timeout=50, memory_mb=1024)
    transcript = converse(Sandbox(), limits, [[0, hog]], [], [], [])
    assert transcript.error.startswith("used more than 1024 MB of memory")


def test_sandbox_limits_memory_and_namespaces(observed):
    observed, _ = observed
    assert observed["memory limit"] == 2048 * 2**20
    assert observed["user namespace"] != 0


# ---- the parts, one by one ------------------------------------------------


@pytest.mark.parametrize(
    "filename, student",
    [
        ("smith_john_123456_hw.ipynb", "smith_john_123456"),
        ("smithjohn_123456_7891011_hw.ipynb", "smithjohn_123456"),  # Canvas
        ("smithjohn_LATE_123456_7891012_hw-1.ipynb", "smithjohn_123456"),
        (
            "John Smith_98765_assignsubmission_file_hw.ipynb",
            "john smith_98765",
        ),  # Moodle
        (
            "John Smith_98765_assignsubmission_file_/hw.ipynb",
            "john smith_98765",
        ),
        (
            "HW1_jsmith_attempt_2026-01-02-10-00-00_hw.ipynb",
            "jsmith",
        ),  # Blackboard
        ("jsmith/hw.ipynb", "jsmith"),  # one folder per student
        ("hw.ipynb", "hw"),  # no identity: the file stands alone
    ],
)
def test_students_are_named_from_learning_platform_downloads(
    filename, student
):
    patterns = [
        re.compile(p, re.IGNORECASE) for p in submissions.PATTERNS.values()
    ]
    assert submissions.identify(filename, patterns)[0] == student


def test_attempts_are_ordered_by_the_time_in_their_names(tmp_path):
    for name in [
        "HW1_jsmith_attempt_2026-01-03-09-00-00_hw.ipynb",
        "HW1_jsmith_attempt_2026-01-02-10-00-00_hw.ipynb",
        "x_2026_01_05T00_00_00_000000.zip",
        "x_2026_01_04T00_00_00_000000.zip",
    ]:
        (tmp_path / name).write_text("{}")
    found = {s.name: s for s in submissions.collect(tmp_path, None)}
    assert found["HW1_jsmith_attempt_2026-01-03-09-00-00_hw.ipynb"].latest
    assert not found["HW1_jsmith_attempt_2026-01-02-10-00-00_hw.ipynb"].latest
    custom = {
        s.name: s
        for s in submissions.collect(tmp_path, r"^(?P<student>[a-z]+)_")
    }
    assert custom["x_2026_01_05T00_00_00_000000.zip"].latest
    assert custom["x_2026_01_04T00_00_00_000000.zip"].attempts == 2


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
    ):
        with pytest.raises(codec.Unsupported):
            codec.encode(hostile)
    for forged in (
        {"array": ["|O", [1], "AAAAAAAAAAA="]},  # an object array
        {"array": ["<f8", [3], "AAAAAAAAAAA="]},  # too few bytes
        {"pickle": "gASVAAAAAAAAAAA="},
        {"array": ["<f8", [-1], ""]},
    ):
        with pytest.raises(ValueError):
            codec.decode(forged)
    with pytest.raises(ValueError):
        codec.loads('{"value": NaN}')
