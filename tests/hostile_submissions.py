"""Folders of submissions a careful instructor should be able to grade
unattended: correct, partial, blank, renamed, repeated, crashes and hangs,
every cheat of issues 12 and 22, and files that are corrupt or not files.

``make_batch`` writes the main batch for a built assignment and returns what
each file should get; ``make_identity_batches`` writes two small batches
whose file names try to claim other students (one folder per student, and
Blackboard's names). The hostile notebooks embed the absolute paths of the
grader's files (the CSV, the autograder, the masters, other submissions, a
canary in the grader's home) and try to read, steal, rewrite or delete them;
a sandbox that shows them any of those would hand them full marks.

Each expectation is a dict: ``total`` (points, or None for no score),
``status`` (one or a tuple of accepted ones), and optionally text that the
``error``, ``notes`` (``note``) or ``flags`` (``flag``) column must contain,
text the row and the feedback must not contain (``never``), the ``student``
and ``attempts``, and ``held`` (a memory hog: the bytes it held, reported in
its notes, must stay under the limit).
"""

import copy
import json
import os
import random
import struct
import threading
import time
import zipfile
import zlib
from pathlib import Path
from types import SimpleNamespace

# Issue 22's items, by the file that plays each (the test module checks that
# every item has at least one).
ITEMS = {
    1: ["cheat_reads_the_tests.ipynb"],
    2: [
        "!collude_receiver.ipynb",
        "!collude_sender.ipynb",
        "keyring_a_sender.ipynb",
        "keyring_b_receiver.ipynb",
        "hidden_exit_status.ipynb",
    ],
    3: [
        "evil/x_jsmith_attempt_2099-01-01-00-00-00_hw.ipynb",
        "adoe/gradients-and-duality_2099_01_01T00_00_00_000000.zip",
        "bfuture/b.ipynb",
        "bevil_x_adoe_attempt_2099-12-31-23-59-59_.ipynb",
        "HW1_cfut_attempt_2099-01-01-00-00-00_hw.ipynb",
    ],
    4: ["link_to_solutions.ipynb", "link_to_classmate.ipynb", "link_dir"],
    5: ["zip_garbage_name_deflate.zip", "zip_garbage_name_lzma.zip"],
    6: ["surrogate_error.ipynb", "not_utf8_\udcff\udcfe.ipynb"],
    7: ["x" * 249 + ".ipynb", "long/" + "y" * 249 + ".ipynb"],
    8: ["zip_long_names.zip"],
    9: ["=1+1.ipynb", "+1.ipynb", "-1.ipynb", "@1.ipynb", "fifo.ipynb",
        "dangling.ipynb", "loop_a.ipynb", "loop_b.ipynb"],
    10: ["zip_bomb.zip", "zip_bomb_declared.zip", "zip_bomb_in_name.zip",
         "huge.ipynb"],
    11: ["huge_answers.ipynb"],
    12: ["memory_hidden_in_files.ipynb"],
    13: ["zip_escape_names.zip", "esc_\x1b[2J\x1b]0;owned\x07.ipynb"],
}  # fmt: skip
CONTROL = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))]


def answer_cells(nb):
    """Question name -> indices of its code answer cells (those just before
    its check cell)."""
    owners, pending = {}, []
    for i, cell in enumerate(nb["cells"]):
        source = "".join(cell["source"])
        tags = cell["metadata"].get("tags", [])
        if cell["cell_type"] == "code" and "otter_answer_cell" in tags:
            pending.append(i)
        elif source.startswith('grader.check("'):
            owners[source.split('"')[1]] = pending
            pending = []
    return owners


def answered(student, solutions, questions):
    """The student notebook with the solutions' answers to ``questions``."""
    nb = copy.deepcopy(student)
    for question, cells in answer_cells(student).items():
        if question in questions:
            for i in cells:
                nb["cells"][i]["source"] = solutions["cells"][i]["source"]
    return nb


def with_cell(nb, source, before_question=None):
    """A copy of ``nb`` with a code cell added (before the given question's
    answer cell, else before the check-all cell at the end)."""
    nb = copy.deepcopy(nb)
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "id": f"hostile-{len(nb['cells'])}",
        "metadata": {},
        "outputs": [],
        "source": source,
    }
    if before_question:
        index = answer_cells(nb)[before_question][0]
    else:
        index = next(
            i
            for i, c in enumerate(nb["cells"])
            if "".join(c["source"]).startswith("grader.check_all")
        )
    nb["cells"].insert(index, cell)
    return nb


def replace_in_answers(nb, question, old, new):
    nb = copy.deepcopy(nb)
    for i in answer_cells(nb)[question]:
        source = "".join(nb["cells"][i]["source"])
        nb["cells"][i]["source"] = source.replace(old, new)
    return nb


def export_zip(path, nb, stamp, notebook_name, pickle_payload):
    """An otter export: the notebook, a .OTTER_LOG (a pickle, which the
    grader must never load: this one would write ``pickle_payload``) and
    __zip_filename__ with the export's time."""
    import pickle

    class Trap:
        def __reduce__(self):
            return (Path(pickle_payload).write_text, ("unpickled!",))

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(notebook_name, json.dumps(nb))
        archive.writestr(".OTTER_LOG", pickle.dumps(Trap()))
        archive.writestr(
            "__zip_filename__", f"{Path(notebook_name).stem}_{stamp}.zip"
        )


def raw_zip(path, members):
    """A zip written by hand, so that its members can lie: each member is
    (name, method, data as stored, declared size, crc). Method 8 is
    deflate, 14 lzma, 0 stored."""
    local, central = b"", b""
    for name, method, data, size, crc in members:
        encoded = name.encode("utf-8", "surrogateescape")
        header = struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 63, 0x800, method, 0, 0x21,
            crc, len(data), size, len(encoded), 0,
        )  # fmt: skip
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 63, 63, 0x800, method, 0,
            0x21, crc, len(data), size, len(encoded), 0, 0, 0, 0, 0,
            len(local),
        ) + encoded  # fmt: skip
        local += header + encoded + data
    end = struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members),
        len(central), len(local), 0,
    )  # fmt: skip
    Path(path).write_bytes(local + central + end)


def _deflated(chunks):
    """Raw deflate of the byte strings ``chunks`` yields."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    out = [compressor.compress(chunk) for chunk in chunks]
    return b"".join(out) + compressor.flush()


_bombs = {}
_bombs_lock = threading.Lock()


def zip_bomb(head, gib=2):
    """Raw deflate of ``head`` followed by ``gib`` GiB of spaces (about 2 MB
    a GiB; made once per process: it takes seconds)."""
    with _bombs_lock:
        if (head, gib) not in _bombs:

            def data():
                yield head
                for _ in range(gib * 1024):
                    yield b" " * 2**20

            _bombs[head, gib] = _deflated(data())
        return _bombs[head, gib]


def make_batch(
    built, name, folder, secrets, other_student_notebook, issue_12=True
):
    """Write the main batch into ``folder``; return {file: expectation}.
    Without ``issue_12``: the honest notebooks and issue 22's items only
    (no crashes, hangs, cheats of issue 12 or malformed files).

    ``secrets`` maps labels to absolute paths a cheat will go after:
    ``csv``, ``autograder``, ``masters``, ``solutions``, ``feedback``,
    ``home`` and ``home_canary`` (the grader's home and a file there),
    ``sentinel`` (a file next to the submissions), ``host_tmp`` (a folder on
    the host for things the cheats try to write), ``marker`` (a string the
    detached processes carry in their command line), ``answers`` (the names
    a submission defines), ``memory_mb`` (the batch's --memory) and
    ``shared_file`` (a file every sandbox sees read-only, for the colluding
    pair). The cheats of issue 22 that need a specific test's inputs are
    written for gradients-and-duality.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    student = json.loads((built / "student" / f"{name}.ipynb").read_text())
    solutions = json.loads((built / "solutions" / f"{name}.ipynb").read_text())
    questions = list(answer_cells(student))
    points = {q: 4 for q in questions}  # every autograded question: 4 points
    full = sum(points.values())
    correct = answered(student, solutions, questions)
    last = questions[-1]
    partial = answered(student, solutions, questions[:-1])
    solution_code = "\n\n".join(
        "".join(solutions["cells"][i]["source"])
        for cells in answer_cells(student).values()
        for i in cells
    )
    s = {
        k: v if k in ("answers", "memory_mb") else str(v)
        for k, v in secrets.items()
    }
    s["functions"] = [a for a in s["answers"] if f"def {a}(" in solution_code]
    expected = {}

    def write(filename, nb, **expectation):
        (folder / filename).write_text(json.dumps(nb))
        expected[filename] = expectation

    write("correct.ipynb", correct, total=full, status="graded")
    write("partial.ipynb", partial, total=full - points[last], status="graded")
    write("blank.ipynb", student, total=0, status="graded")
    write(
        f"smith_john_123456_{name}.ipynb",
        correct,
        total=full,
        status="graded",
        student="smith_john_123456",
    )
    write(
        "plots_inline.ipynb",  # honest notebook habits: magics and a plot
        with_cell(
            correct,
            "%matplotlib inline\n"
            "import matplotlib.pyplot as plt\n"
            "plt.plot([0, 1], [1, 0])\n"
            "plt.show()\n",
            before_question=questions[0],
        ),
        total=full,
        status="graded",
    )
    # Two otter exports of one student: the platform's times (the files'
    # modification times) order them, not the times in their names.
    now = time.time()
    for stamp, nb, total, status, age in [
        ("2026_01_10T10_00_00_000000", partial, None, "superseded", 7200),
        ("2026_01_12T09_00_00_000000", correct, full, "graded", 3600),
    ]:
        filename = f"doe_jane_654321_{name}_{stamp}.zip"
        export_zip(
            folder / filename,
            nb,
            stamp,
            f"{name}.ipynb",
            s["host_tmp"] + "/unpickled",
        )
        os.utime(folder / filename, (now - age, now - age))
        expected[filename] = {
            "total": total,
            "status": status,
            "student": "doe_jane_654321",
            "attempts": 2,
        }

    if issue_12:
        _issue_12(
            SimpleNamespace(
                write=write, s=s, student=student, correct=correct,
                full=full, last=last, questions=questions,
                solution_code=solution_code, answers=secrets["answers"],
            )
        )  # fmt: skip

    # Issue 22, item 1: the hidden tests' code, expected values and
    # references are never in the sandbox, so a notebook whose functions do
    # no mathematics, looking for them to answer from, scores nothing.
    write(
        "cheat_reads_the_tests.ipynb",
        with_cell(student, _oracle(s["functions"])),
        total=0, status="graded", flag="introspection",
    )  # fmt: skip

    # Item 2: channels out. A pair graded at the same time (-j 2: these sort
    # first, so the two checkers start them together): the sender hands what
    # it sees during the hidden tests to the receiver through byte-range
    # locks on a file both see read-only; the receiver waits in a cell and
    # raises what it got, which its feedback would show.
    write(
        "!collude_receiver.ipynb",
        with_cell(student, _lock_receiver(s)),
        total=0, status="graded", note="nothing received",
        never="RECEIVED:",
    )  # fmt: skip
    write(
        "!collude_sender.ipynb",
        with_cell(correct, _lock_sender(s)),
        total=full, status="graded",
    )  # fmt: skip
    # The kernel keyring of a user outlives the sandbox: one submission
    # leaves a key, a later one reads it.
    write(
        "keyring_a_sender.ipynb",
        with_cell(correct, _keyring_sender(s)),
        total=full, status="graded", note="no keyring",
    )  # fmt: skip
    write(
        "keyring_b_receiver.ipynb",
        with_cell(student, _keyring_receiver()),
        total=0, status="graded", note="no keyring", never="RECEIVED:",
    )  # fmt: skip
    # The exit status during the hidden tests: 8 bits a submission. (The
    # last hidden test is the first to give project_halfspace new inputs.)
    write(
        "hidden_exit_status.ipynb",
        with_cell(correct, _exit_in_hidden_tests()),
        total=full - points[last] / 3, status="graded",
        note="stopped answering during the hidden tests",
        never="status 77",
    )  # fmt: skip

    # Item 4: symbolic links are never followed.
    solutions_path = Path(s["solutions"])
    (folder / "link_to_solutions.ipynb").symlink_to(solutions_path)
    (folder / "link_to_classmate.ipynb").symlink_to("correct.ipynb")
    (folder / "link_dir").symlink_to(solutions_path.parent)
    (folder / "dangling.ipynb").symlink_to(folder / "no-such-file.ipynb")
    (folder / "loop_a.ipynb").symlink_to("loop_b.ipynb")
    (folder / "loop_b.ipynb").symlink_to("loop_a.ipynb")
    for link in ("link_to_solutions.ipynb", "link_to_classmate.ipynb",
                 "link_dir", "dangling.ipynb", "loop_a.ipynb",
                 "loop_b.ipynb"):  # fmt: skip
        expected[link] = {"total": None, "status": "error",
                          "error": "symbolic link"}  # fmt: skip
    os.mkfifo(folder / "fifo.ipynb")
    expected["fifo.ipynb"] = {"total": None, "status": "error",
                              "error": "a FIFO"}  # fmt: skip

    # Item 5: a member the grader does not need, compressed with garbage.
    notebook = json.dumps(correct).encode()
    for method, label in ((8, "deflate"), (14, "lzma")):
        garbage = random.Random(method).randbytes(300)
        filename = f"zip_garbage_name_{label}.zip"
        raw_zip(
            folder / filename,
            [
                (f"{name}.ipynb", 0, notebook, len(notebook),
                 zlib.crc32(notebook)),
                ("__zip_filename__", method, garbage, 60, 0),
            ],
        )  # fmt: skip
        expected[filename] = {"total": full, "status": "graded"}
    raw_zip(
        folder / "zip_garbage_notebook.zip",
        [(f"{name}.ipynb", 8, random.Random(1).randbytes(500), 5000, 0)],
    )
    expected["zip_garbage_notebook.zip"] = {
        "total": None, "status": "error", "error": "zip file cannot be read",
    }  # fmt: skip

    # Item 6: a lone surrogate in an error message; a name that is not UTF-8.
    write(
        "surrogate_error.ipynb",
        with_cell(correct, 'raise ValueError("\\ud800 and \\udcff")\n'),
        total=full, status="graded", note="ValueError",
    )  # fmt: skip
    (folder / "not_utf8_\udcff\udcfe.ipynb").write_text(json.dumps(correct))
    expected["not_utf8_\udcff\udcfe.ipynb"] = {
        "total": full, "status": "graded",
    }  # fmt: skip

    # Item 7: the longest legal names, at the top and in a folder.
    for filename in ("x" * 249 + ".ipynb", "long/" + "y" * 249 + ".ipynb"):
        (folder / filename).parent.mkdir(exist_ok=True)
        (folder / filename).write_text(json.dumps(student))
        expected[filename] = {"total": 0, "status": "graded"}

    # Item 8: an error message of 180 000 characters.
    with zipfile.ZipFile(folder / "zip_long_names.zip", "w") as archive:
        for i in range(3):
            archive.writestr("n" * 60_000 + f"{i}.ipynb", json.dumps(student))
    expected["zip_long_names.zip"] = {
        "total": None, "status": "error", "error": "3 notebooks",
    }  # fmt: skip

    # Item 9: names a spreadsheet would run as formulas (they must still
    # match when a rerun resumes).
    for filename in ("=1+1.ipynb", "+1.ipynb", "-1.ipynb", "@1.ipynb"):
        write(filename, student, total=0, status="graded")

    # Item 10: a zip bomb (2 GiB of spaces behind a notebook, declared as
    # a few bytes), one in the member the grader does not need, and a 2 GiB
    # file (sparse: it takes no disk).
    bomb = zip_bomb(notebook)
    raw_zip(
        folder / "zip_bomb.zip",
        [(f"{name}.ipynb", 8, bomb, len(notebook), zlib.crc32(notebook))],
    )
    # zipfile reads no more than the declared size: the notebook, whole.
    expected["zip_bomb.zip"] = {"total": full, "status": "graded"}
    raw_zip(
        folder / "zip_bomb_declared.zip",
        [(f"{name}.ipynb", 8, bomb, len(notebook) + 2**31, 0)],
    )
    expected["zip_bomb_declared.zip"] = {"total": None, "status": "error",
                                         "error": "too large"}  # fmt: skip
    raw_zip(
        folder / "zip_bomb_in_name.zip",
        [
            (f"{name}.ipynb", 0, notebook, len(notebook),
             zlib.crc32(notebook)),
            ("__zip_filename__", 8, bomb, 60, 0),
        ],
    )  # fmt: skip
    expected["zip_bomb_in_name.zip"] = {"total": full, "status": "graded"}
    with open(folder / "huge.ipynb", "wb") as f:
        f.truncate(2 * 2**30)
    expected["huge.ipynb"] = {"total": None, "status": "error",
                              "error": "too large"}  # fmt: skip

    # Item 11: answers as large as the channel allows, again and again.
    write(
        "huge_answers.ipynb",
        with_cell(student, _huge_answers(s["answers"])),
        total=(None, 0), status=("graded", "error"),
    )  # fmt: skip

    # Item 12: memory out of the processes' sight: memfds, /dev/shm, /tmp,
    # System V shared memory.
    write(
        "memory_hidden_in_files.ipynb",
        with_cell(correct, _memory_in_files()),
        total=(full, None), status=("graded", "error"),
        held=secrets["memory_mb"] * 2**20,
    )  # fmt: skip

    # Item 13: escape sequences in zip member names and in a file name.
    with zipfile.ZipFile(folder / "zip_escape_names.zip", "w") as archive:
        for label in ("\x1b]0;owned\x07", "\x1b]52;c;b3duZWQ=\x07\x9b2J"):
            archive.writestr(f"{label}.ipynb", json.dumps(student))
    expected["zip_escape_names.zip"] = {
        "total": None, "status": "error", "error": "2 notebooks",
    }  # fmt: skip
    write("esc_\x1b[2J\x1b]0;owned\x07.ipynb", student, total=0,
          status="graded")  # fmt: skip

    if issue_12:
        _malformed(
            folder, expected, name, correct, student, other_student_notebook
        )
    return expected


def _issue_12(kit):
    """Crashes, hangs and the cheats of issue 12 (``kit`` holds what
    make_batch knows: ``write``, the notebooks, the paths ``s``...)."""
    write, s, student, correct = kit.write, kit.s, kit.student, kit.correct
    full, last, questions = kit.full, kit.last, kit.questions
    answers, solution_code = kit.answers, kit.solution_code
    # Crashes and hangs.
    write(
        "syntax_error.ipynb",
        with_cell(correct, "def broken(:\n    pass\n", before_question=last),
        total=full, status="graded", note="SyntaxError",
    )  # fmt: skip
    write(
        "hung_cell.ipynb",
        with_cell(correct, "while True:\n    pass\n", before_question=last),
        total=full, status="graded", note="stopped after",
    )  # fmt: skip
    write(
        "stubborn_hang.ipynb",
        with_cell(
            correct,
            "import signal\n"
            "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
            "while True:\n    pass\n",
        ),
        total=None, status="error", error="timed out after",
        flag="processes",
    )  # fmt: skip
    write(
        "dying_kernel.ipynb",
        with_cell(correct, "import os\nos._exit(3)\n", before_question=last),
        total=None, status="error", error="died (exit status 3) in cell",
    )  # fmt: skip
    write(
        "memory_hog.ipynb",
        with_cell(correct, "hog = bytearray(64 * 2**30)\n"),
        total=full, status="graded", note="MemoryError",
    )  # fmt: skip

    # The cheats of issue 12.
    write(
        "cheat_patches_numpy.ipynb",
        with_cell(
            student,
            "import numpy as np\n"
            "import mllib.optim, mllib.kkt\n"
            "np.allclose = lambda *a, **k: True\n"
            "np.isclose = lambda *a, **k: True\n"
            "np.all = lambda *a, **k: True\n"
            "np.linalg.norm = lambda *a, **k: 0.0\n"
            "mllib.optim.check_gradient = lambda *a, **k: 0.0\n"
            "mllib.kkt.kkt_residuals = lambda *a, **k: np.zeros(1)\n"
            "check_gradient = mllib.optim.check_gradient\n"
            "kkt_residuals = mllib.kkt.kkt_residuals\n"
            "np.random.default_rng = lambda *a, **k: (\n"
            "    np.random.Generator(np.random.PCG64(0))\n"
            ")\n",
            before_question=questions[0],
        ),
        total=0, status="graded", flag="patches libraries",
    )  # fmt: skip
    # Patching builtins may break the harness that shares the process: then
    # the submission is an error row, still with no points.
    write(
        "cheat_patches_builtins.ipynb",
        with_cell(
            student,
            "import builtins\n"
            "builtins.abs = lambda x: 0\n"
            "builtins.isinstance = lambda *a: True\n"
            "builtins.len = lambda x: 0\n",
        ),
        total=(0, None), status=("graded", "error"),
        flag="patches libraries",
    )  # fmt: skip
    write(
        "cheat_otter_internals.ipynb",
        with_cell(
            student,
            "import otter.test_files.ok_test as t\n"
            't.run_doctest = lambda *a, **k: (True, "")\n',
        ),
        total=0, status="graded", flag="otter internals",
    )  # fmt: skip
    always_yes = (
        "class AlwaysYes:\n"
        "    def __eq__(self, other): return True\n"
        "    def __ne__(self, other): return False\n"
        "    def __lt__(self, other): return True\n"
        "    def __le__(self, other): return True\n"
        "    def __gt__(self, other): return True\n"
        "    def __ge__(self, other): return True\n"
        "    def __bool__(self): return True\n"
        "    def __array__(self, *a, **k):\n"
        "        import numpy\n"
        "        return numpy.zeros(1)\n"
        "    def __getattr__(self, name): return self\n"
        "    def __call__(self, *a, **k): return self\n"
        "    def __getitem__(self, key): return self\n"
        "    def __iter__(self): return iter([self, self, self])\n"
        "    def __len__(self): return 3\n"
        "    def __float__(self): return 0.0\n"
        "    def __sub__(self, other): return self\n"
        "    __rsub__ = __add__ = __radd__ = __mul__ = __rmul__ = __sub__\n"
        "    __matmul__ = __rmatmul__ = __truediv__ = __sub__\n"
        "    __pow__ = __abs__ = __sub__\n"
        "    __neg__ = __sub__\n"
        "\n"
        "yes = AlwaysYes()\n"
    )
    defines = "".join(
        f"{answer} = lambda *args, **kwargs: yes\n" for answer in answers
    )
    write(
        "cheat_always_equal.ipynb",
        with_cell(student, always_yes + defines),
        total=0, status="graded", flag="custom comparison",
    )  # fmt: skip
    write(
        "cheat_steals_tests.ipynb",
        with_cell(student, _thief(s, solution_code)),
        total=0, status="graded", flag="files",
    )  # fmt: skip
    write(
        "cheat_detached_process.ipynb",
        with_cell(student, _detached(s)),
        total=0, status="graded", flag="processes",
    )  # fmt: skip
    write(
        "cheat_poisons_autograder.ipynb",
        with_cell(student, _poisoner(s)),
        total=0, status="graded", flag="files",
    )  # fmt: skip
    # Graded after the poisoner (names sort after it): still nothing.
    write("zz_blank_after_poisoner.ipynb", student, total=0, status="graded")
    write(
        "file_system_writer.ipynb",
        with_cell(correct, _writer(s)),
        total=full, status="graded", flag="files",
    )  # fmt: skip


def _malformed(
    folder, expected, name, correct, student, other_student_notebook
):
    """Files that are not notebooks, or not this assignment's."""
    # Malformed files.
    (folder / "not_json.ipynb").write_text("this is not a notebook\n")
    (folder / "empty.ipynb").write_bytes(b"")
    text = json.dumps(correct)
    (folder / "truncated.ipynb").write_text(text[: len(text) // 2])
    (folder / "random_bytes.zip").write_bytes(random.Random(0).randbytes(4096))
    with zipfile.ZipFile(folder / "two_notebooks.zip", "w") as archive:
        archive.writestr("a.ipynb", json.dumps(correct))
        archive.writestr("b.ipynb", json.dumps(student))
    (folder / "other_assignment.ipynb").write_text(
        other_student_notebook.read_text()
    )
    no_metadata = copy.deepcopy(correct)
    del no_metadata["metadata"]["otter"]
    (folder / "no_otter_metadata.ipynb").write_text(json.dumps(no_metadata))
    (folder / "readme.txt").write_text("my notebook is attached\n")
    for filename, error in [
        ("not_json.ipynb", "not JSON"),
        ("empty.ipynb", "empty"),
        ("truncated.ipynb", "truncated"),
        ("random_bytes.zip", "not a valid zip"),
        ("two_notebooks.zip", "2 notebooks"),
        ("other_assignment.ipynb", "not '" + name + "'"),
        ("no_otter_metadata.ipynb", "no otter metadata"),
        ("readme.txt", "not a notebook"),
    ]:
        expected[filename] = {"total": None, "status": "error", "error": error}


def make_identity_batches(built, name, base):
    """Two small batches whose names try to claim other students; return
    {folder: {file: expectation}}.

    One folder per student: evil's file is named like a Blackboard attempt
    of jsmith from the future; adoe's early blank export claims, in its name
    and inside the zip, a time after the batch; a file modified in the
    future. Blackboard: a file whose name puts adoe in the middle, and a
    student's attempt from the future.
    """
    student = json.loads((built / "student" / f"{name}.ipynb").read_text())
    solutions = json.loads((built / "solutions" / f"{name}.ipynb").read_text())
    questions = list(answer_cells(student))
    correct = answered(student, solutions, questions)
    partial = answered(student, solutions, questions[:-1])
    now = time.time()
    batches = {}

    folders = Path(base) / "folder-per-student"
    expected = {}

    def put(path, nb, age, **expectation):
        path = folders / path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(nb))
        os.utime(path, (now - age, now - age))
        expected[path.relative_to(folders).as_posix()] = expectation

    put(
        "jsmith/hw.ipynb",
        correct,
        3 * 3600,
        total=12,
        status="graded",
        student="jsmith",
        attempts=1,
    )
    put(
        "evil/x_jsmith_attempt_2099-01-01-00-00-00_hw.ipynb",
        student,
        600,
        total=0,
        status="graded",
        student="evil",
    )
    stamp = "2099_01_01T00_00_00_000000"
    early = folders / "adoe" / f"{name}_{stamp}.zip"
    early.parent.mkdir(parents=True)
    export_zip(early, student, stamp, f"{name}.ipynb", base / "unpickled")
    os.utime(early, (now - 2 * 3600, now - 2 * 3600))
    expected[f"adoe/{early.name}"] = {
        "total": None, "status": "superseded", "student": "adoe",
        "attempts": 2,
    }  # fmt: skip
    put(
        "adoe/hw.ipynb",
        correct,
        3600,
        total=12,
        status="graded",
        student="adoe",
        attempts=2,
    )
    put(
        "bfuture/a.ipynb",
        correct,
        3600,
        total=12,
        status="graded",
        student="bfuture",
    )
    put(
        "bfuture/b.ipynb",
        student,
        -86400,
        total=None,
        status="superseded",
        student="bfuture",
    )
    batches[folders] = expected

    flat = Path(base) / "blackboard"
    flat.mkdir()
    expected = {}
    for filename, nb, want in [
        ("HW1_adoe_attempt_2026-01-02-10-00-00_hw.ipynb", correct,
         dict(total=12, status="graded", student="adoe", attempts=1)),
        ("bevil_x_adoe_attempt_2099-12-31-23-59-59_.ipynb", student,
         dict(total=0, status="graded")),
        ("HW1_jsmith_attempt_2026-01-02-11-00-00_hw.ipynb", correct,
         dict(total=None, status="superseded", student="jsmith")),
        ("HW1_jsmith_attempt_2026-01-03-09-00-00_hw.ipynb", partial,
         dict(total=8, status="graded", student="jsmith", attempts=2)),
        ("HW1_cfut_attempt_2099-01-01-00-00-00_hw.ipynb", student,
         dict(total=None, status="superseded", student="cfut")),
        ("HW1_cfut_attempt_2026-01-01-00-00-00_hw.ipynb", correct,
         dict(total=12, status="graded", student="cfut", attempts=2)),
    ]:  # fmt: skip
        (flat / filename).write_text(json.dumps(nb))
        os.utime(flat / filename, (now - 600, now - 600))
        expected[filename] = want
    batches[flat] = expected
    return batches


# ------------------------------------------------------------------ cheats --


def _thief(s, solution_code):
    """Look for tests, masters, solutions, other submissions and the
    grader's home, copy them out and rewrite them to `assert True`; if any
    is visible, answer with the solutions. Also catch any test code the
    grader compiles in the sandbox (an audit hook sees it being compiled)
    and try to carry it out: in files, and in the messages of exceptions."""
    loot = [s["host_tmp"] + "/loot", s["submissions"] + "/loot", "/tmp/loot"]
    targets = [
        s["masters"],
        s["solutions"],
        s["autograder"],
        s["submissions"] + "/correct.ipynb",
        s["home_canary"],
    ]
    return f"""
import glob, os, shutil, sys
secrets = {targets!r}
stolen = [path for path in secrets if os.path.exists(path)]
for pattern in ("/*/tests/*.py", "/*/*/tests/*.py", "/*/*/*/tests/*.py",
                "/*/*/*autograder*"):
    stolen += glob.glob(pattern)
for path in stolen:
    for folder in {loot!r}:
        try:
            os.makedirs(folder, exist_ok=True)
            shutil.copy(path, folder)
        except Exception:
            pass
    try:
        with open(path, "w") as f:
            f.write("assert True\\n")
    except Exception:
        pass
if [path for path in stolen if path in secrets]:
    exec({solution_code!r})
else:
    seen = []
    def spy(event, args):
        if event == "compile" and args and isinstance(args[0], (str, bytes)):
            seen.append(str(args[0])[:3000])
    sys.addaudithook(spy)
    def leak(*args, **kwargs):
        text = "\\n".join(seen)
        for folder in {loot!r}:
            try:
                with open(folder + "/stolen-tests.txt", "a") as f:
                    f.write(text)
            except Exception:
                pass
        raise ValueError(text[-5000:])
    for answer in {s["answers"]!r}:
        globals()[answer] = leak
"""


def _detached(s):
    """Leave processes behind: one rewrites the CSV to full marks after the
    batch, one just sleeps with a marker in its command line."""
    return f"""
import os, subprocess, sys, time
subprocess.Popen(["sleep", "300", {s["marker"]!r}], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(3)
        for path in ({s["csv"]!r}, {s["host_tmp"]!r} + "/detached-was-here"):
            try:
                with open(path, "w") as f:
                    f.write("student,total\\ncheat,1000\\n")
            except Exception:
                pass
        os._exit(0)
    os._exit(0)
"""


def _poisoner(s):
    """Find the autograder through the parent's command line (as a cheat
    did with otter) or by its path, and overwrite it."""
    return f"""
import os
paths = [{s["autograder"]!r}]
for pid in os.listdir("/proc"):
    try:
        with open(f"/proc/{{pid}}/cmdline", "rb") as f:
            words = f.read().decode(errors="replace").split("\\0")
    except Exception:
        continue
    paths += [w for w in words if w.endswith((".zip", ".json"))]
for path in paths:
    try:
        with open(path, "w") as f:
            f.write("{{}}")
    except Exception:
        pass
"""


def _writer(s):
    """Delete and write files outside the submission."""
    return f"""
import os
for path in ({s["sentinel"]!r}, {s["submissions"]!r} + "/blank.ipynb"):
    try:
        os.remove(path)
    except Exception:
        pass
for path in ({s["host_tmp"]!r} + "/written",
             {s["feedback"]!r} + "/blank.ipynb.md",
             {s["home"]!r} + "/written",
             os.path.expanduser("~/written")):
    try:
        with open(path, "w") as f:
            f.write("pwned")
    except Exception:
        pass
"""


def _oracle(functions):
    """Issue 22, item 1, as the red team did it: find the grader's test
    runner in the sandbox (through the globals of the SIGALRM handler, or
    any module), wrap it, and for each test read its assertions: evaluate
    the reference side (lstsq, a literal, a shape) with the test's own data
    and have the answer functions return it for those arguments. The
    functions contain no mathematics."""
    return f"""
import ast, signal, sys
import numpy as np

FUNCTIONS = {list(functions)!r}
table, origin = {{}}, {{}}

def key(name, args):
    try:
        return name + repr([np.round(np.asarray(a, float), 6).tolist()
                            for a in args])
    except Exception:
        return name + repr(args)

def answer(name):
    def function(*args, **kwargs):
        return table.get(key(name, args), (np.zeros(1), 0.0))
    return function

for _name in FUNCTIONS:
    globals()[_name] = answer(_name)

def evaluate(node, scope):
    return eval(compile(ast.Expression(node), "<oracle>", "eval"), scope)

def learn(test, scope):
    if isinstance(test, ast.BoolOp):
        for value in test.values:
            learn(value, scope)
        return
    compare = ("allclose", "isclose", "array_equal")
    if (isinstance(test, ast.Call) and len(test.args) >= 2
            and getattr(test.func, "attr", None) in compare):
        target, reference = test.args[0], test.args[1]
    elif (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        target, reference = test.left, test.comparators[0]
    else:
        return
    value = evaluate(reference, scope)
    if isinstance(target, ast.Attribute) and target.attr == "shape":
        target, value = target.value, np.zeros(value)
    index = None
    if isinstance(target, ast.Subscript):
        index, target = evaluate(target.slice, scope), target.value
    if isinstance(target, ast.Name) and target.id in origin:
        slot, index = origin[target.id]
    elif (isinstance(target, ast.Call)
            and getattr(target.func, "id", None) in FUNCTIONS):
        args = [evaluate(a, scope) for a in target.args]
        slot = key(target.func.id, args)
    else:
        return
    if index is None:
        table[slot] = value
    else:
        known = list(table.get(slot, ()))
        known += [np.zeros(1)] * (index + 1 - len(known))
        known[index] = value
        table[slot] = tuple(known)

def rehearse(namespace, code):
    scope = dict(namespace)
    for statement in ast.parse(code).body:
        try:
            if isinstance(statement, ast.Assert):
                learn(statement.test, scope)
                continue
            if (isinstance(statement, ast.Assign)
                    and isinstance(statement.value, ast.Call)
                    and getattr(statement.value.func, "id", None) in FUNCTIONS
                    and isinstance(statement.targets[0], ast.Tuple)):
                call = statement.value
                args = [evaluate(a, scope) for a in call.args]
                slot = key(call.func.id, args)
                for i, element in enumerate(statement.targets[0].elts):
                    if isinstance(element, ast.Name):
                        origin[element.id] = (slot, i)
            exec(compile(ast.Module([statement], []), "<oracle>", "exec"),
                 scope)
        except Exception:
            pass

harness = getattr(signal.getsignal(signal.SIGALRM), "__globals__", {{}})
if "run_test" not in harness:
    harness = next((vars(m) for m in list(sys.modules.values())
                    if "run_test" in getattr(m, "__dict__", {{}})), {{}})
if "run_test" in harness:
    real_run_test = harness["run_test"]
    def run_test(namespace, answers, code, seconds):
        rehearse(namespace, code)
        return real_run_test(namespace, answers, code, seconds)
    harness["run_test"] = run_test
"""


def constant_answers(functions):
    """The same answer functions as _oracle's, without looking for tests:
    what they score is what constant answers are worth."""
    return "import numpy as np\n" + "".join(
        f"def {name}(*args, **kwargs):\n    return np.zeros(1), 0.0\n"
        for name in functions
    )


def _lock_sender(s):
    """During the hidden tests, write what the functions are given (and
    any test code compiled in this process) as byte-range locks on a file
    every sandbox sees: byte i locked = bit i set."""
    return f"""
import fcntl, struct, sys
SHARED = {s["shared_file"]!r}
seen = []
def spy(event, args):
    if event == "compile" and args and isinstance(args[0], (str, bytes)):
        seen.append(str(args[0])[:2000])
sys.addaudithook(spy)
handle = open(SHARED, "rb")
def publish():
    text = ("\\n".join(seen[-3:]) + repr(calls[-3:]))[-1500:]
    data = b"GRADE" + struct.pack("<H", len(text.encode())) + text.encode()
    for i in range(len(data) * 8):
        if data[i // 8] >> (i % 8) & 1:
            try:
                fcntl.lockf(handle, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, i)
            except OSError:
                pass
calls = []
def listening(function):
    def wrapped(*args, **kwargs):
        calls.append([getattr(a, "shape", a) for a in args])
        if len(calls) > 4:
            publish()
        return function(*args, **kwargs)
    return wrapped
for _name in {list(s["functions"])!r}:
    if _name in globals():
        globals()[_name] = listening(globals()[_name])
"""


def _lock_receiver(s):
    """Wait for the sender's locks and raise what they spell."""
    return f"""
import fcntl, os, struct, time
SHARED = {s["shared_file"]!r}
def bit(handle, i):
    # F_GETLK: would a write lock on byte i conflict with someone's lock?
    query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, i, 1, 0)
    answer = fcntl.fcntl(handle, fcntl.F_GETLK, query)
    return struct.unpack("hhqqi", answer)[0] != fcntl.F_UNLCK
def read(handle, start, count):
    out = bytearray()
    for byte in range(count):
        value = 0
        for b in range(8):
            value |= bit(handle, (start + byte) * 8 + b) << b
        out.append(value)
    return bytes(out)
message, problem = "", ""
try:
    with open(SHARED, "rb+" if os.access(SHARED, os.W_OK) else "rb") as h:
        deadline = time.time() + 25
        while time.time() < deadline and not message:
            if read(h, 0, 5) == b"GRADE":
                size = struct.unpack("<H", read(h, 5, 2))[0]
                message = read(h, 7, size).decode(errors="replace")
            time.sleep(0.2)
except OSError as error:
    problem = f" ({{error}})"
raise RuntimeError("RECEIVED:" + message if message
                   else "nothing received" + problem)
"""


def _keyring_sender(s):
    """Leave a key in the user's kernel keyring with what the functions
    are given in the hidden tests."""
    return f"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
SYS_ADD_KEY = {{"x86_64": 248, "aarch64": 217}}[os.uname().machine]
def store(text):
    data = text.encode()[:4000]
    return libc.syscall(SYS_ADD_KEY, b"user", b"grading-loot", data,
                        len(data), -4)  # KEY_SPEC_USER_KEYRING
if store("the sender ran") < 0:
    error = ctypes.get_errno()
    raise OSError(error, f"no keyring (uid {{os.getuid()}}): "
                  + os.strerror(error))
def listening(function):
    def wrapped(*args, **kwargs):
        store(repr([getattr(a, "shape", a) for a in args]))
        return function(*args, **kwargs)
    return wrapped
for _name in {list(s["functions"])!r}:
    globals()[_name] = listening(globals()[_name])
"""


def _keyring_receiver():
    return """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
# KEYCTL_SEARCH (10) in the user keyring (-4)
key = libc.syscall(SYS_KEYCTL, 10, -4, b"user", b"grading-loot", 0)
if key < 0:
    error = ctypes.get_errno()
    raise OSError(error, f"no keyring key (uid {os.getuid()}): "
                  + os.strerror(error))
buffer = ctypes.create_string_buffer(4096)
size = libc.syscall(SYS_KEYCTL, 11, key, buffer, 4096)  # KEYCTL_READ
raise RuntimeError("RECEIVED:" + buffer.raw[:max(size, 0)].decode())
"""


def _exit_in_hidden_tests():
    """Answer the public test's inputs, and end the process with status 77
    on a point never seen before (a hidden test's)."""
    return """
import os
_project_halfspace = project_halfspace
def project_halfspace(a, c, beta):
    if list(np.asarray(c, float)) != [3.0, 3.0]:
        os._exit(77)
    return _project_halfspace(a, c, beta)
"""


def _huge_answers(answers):
    """Every answer 4 million numbers (32 MB), again and again."""
    defines = "".join(
        f"{answer} = lambda *args, **kwargs: big.copy()\n"
        for answer in answers
    )
    return "import numpy as np\nbig = np.ones(4_000_000)\n" + defines


def _memory_in_files():
    """Hold 3 GiB where no process's resident size shows it, and report
    how much was held."""
    return """
import ctypes, mmap, os
held, handles, problems = 0, [], []
GOAL, BLOCK = 3 * 2**30, 64 * 2**20
def fill(write):
    global held
    try:
        while held < GOAL:
            write(b"\\1" * BLOCK)
            held += BLOCK
    except (OSError, MemoryError) as error:
        problems.append(type(error).__name__)
try:
    fd = os.memfd_create("stash")
    handles.append(fd)
    fill(lambda data: os.write(fd, data))
except OSError as error:
    problems.append(f"memfd: {error.errno}")
for folder in ("/dev/shm", "/tmp", os.environ.get("HOME", "/tmp")):
    try:
        f = open(f"{folder}/stash-{len(handles)}", "wb")
        handles.append(f)
        fill(lambda data: (f.write(data), f.flush()))
    except OSError as error:
        problems.append(f"{folder}: {error.errno}")
try:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.restype = ctypes.c_int
    libc.shmat.restype = ctypes.c_void_p
    segment = libc.shmget(0, ctypes.c_size_t(GOAL - held), 0o1600)
    if segment < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    address = libc.shmat(segment, None, 0)
    ctypes.memset(address, 1, GOAL - held)
    libc.shmdt(ctypes.c_void_p(address))
    held = GOAL
except OSError as error:
    problems.append(f"shm: {error.errno}")
raise RuntimeError(f"HELD {held} {problems}")
"""
