"""A folder of submissions a careful instructor should be able to grade
unattended: correct, partial, blank, renamed, two attempts, crashes, hangs,
every cheat issue 12 lists, and malformed files.

``make_batch`` writes them for a built assignment and returns what each file
should get. The hostile notebooks embed the absolute paths of the grader's
files (the CSV, the autograder, the masters, other submissions, a canary in
the grader's home) and try to read, steal, rewrite or delete them; a
sandbox that shows them any of those would hand them full marks.
"""

import copy
import json
import random
import zipfile
from pathlib import Path


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


def make_batch(built, name, folder, secrets, other_student_notebook):
    """Write the batch into ``folder``; return {file: expectation}.

    ``secrets`` maps labels to absolute paths a cheat will go after:
    ``csv``, ``autograder``, ``masters``, ``solutions``, ``feedback``,
    ``home`` and ``home_canary`` (the grader's home and a file there),
    ``sentinel`` (a file next to the submissions),
    ``host_tmp`` (a folder on the host for things the cheats try to write),
    ``marker`` (a string the detached processes carry in their command
    line), and ``answers``, the names a submission defines.
    An expectation is {"total": points or None, "status": ...,
    "flag": text expected in the flags column, "error": text in the error}.
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
    s = {k: v if k == "answers" else str(v) for k, v in secrets.items()}
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
    for stamp, nb, total, status in [
        ("2026_01_10T10_00_00_000000", partial, None, "superseded"),
        ("2026_01_12T09_00_00_000000", correct, full, "graded"),
    ]:
        filename = f"doe_jane_654321_{name}_{stamp}.zip"
        export_zip(
            folder / filename,
            nb,
            stamp,
            f"{name}.ipynb",
            s["host_tmp"] + "/unpickled",
        )
        expected[filename] = {
            "total": total,
            "status": status,
            "student": "doe_jane_654321",
            "attempts": 2,
        }

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
        total=0, status=("graded", "error"), flag="patches libraries",
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
        f"{answer} = lambda *args, **kwargs: yes\n"
        for answer in secrets["answers"]
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
    return expected


def _thief(s, solution_code):
    """Look for tests, masters, solutions, other submissions and the
    grader's home, copy them out and rewrite them to `assert True`; if any
    is visible, answer with the solutions. Also catch the tests' code as the
    grader runs it (an audit hook sees it being compiled) and try to carry
    it out: in files, and in the messages of exceptions."""
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
