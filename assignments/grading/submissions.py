"""The files of a batch: what each one holds, whose it is, which attempt.

Every file is assumed corrupt until read: ``read_cells`` returns a notebook's
code cells or raises ``SubmissionError`` saying, for the instructor and the
student, what is wrong with the file. ``collect`` lists a folder, names the
student behind each file and orders each student's attempts.
"""

import hashlib
import json
import re
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

MAX_BYTES = 50 * 2**20  # a notebook (or the notebook inside a zip)
SKIPPED_FOLDERS = {"__MACOSX", ".ipynb_checkpoints"}

# Student identity from the names learning platforms give downloaded files.
# Each pattern is matched against the file's path inside the folder; the
# groups `student` (and `id`) name the student, `time` orders attempts.
PATTERNS = {
    # Assignment_jsmith_attempt_2024-10-01-12-30-45_notebook.ipynb
    "blackboard": r"^.+?_(?P<student>[^_/]+)_attempt_"
    r"(?P<time>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)",
    # John Smith_123456_assignsubmission_file_notebook.ipynb (or a folder)
    "moodle": r"^(?P<student>[^_/]+)_(?P<id>\d+)_assign(submission|feedback)_",
    # smithjohn_123456_7891011_notebook.ipynb, smithjohn_LATE_123456_...
    "canvas": r"^(?P<student>[^\W_]+)_(?:late_)?(?P<id>\d+)_\d+_",
    # smith_john_123456_notebook.ipynb
    "name and number": r"^(?P<student>(?:[^\W\d_]+_)+\d{3,})_",
    # one folder per student: jsmith/notebook.ipynb
    "folder": r"^(?P<student>[^/]+)/",
}
# The timestamp otter's export puts in its zip's name.
OTTER_TIME = re.compile(r"_(\d{4})_(\d\d)_(\d\d)T(\d\d)_(\d\d)_(\d\d)_(\d{6})")
RESUBMISSION = re.compile(r"-(\d+)\.(ipynb|zip)$")  # Canvas: notebook-2.ipynb


class SubmissionError(ValueError):
    """A file that cannot be graded, and why (one sentence for a person)."""


@dataclass
class Submission:
    path: Path
    name: str  # the path inside the batch's folder
    student: str
    when: str  # ISO time of the attempt (from the name, else the file)
    sha256: str
    attempts: int = 1
    latest: bool = True


def collect(folder, pattern=None):
    """Every file under ``folder`` as a Submission (hidden files and the
    folders of macOS and Jupyter's checkpoints are skipped)."""
    folder = Path(folder)
    compiled = (
        [re.compile(pattern)]
        if pattern
        else [re.compile(p, re.IGNORECASE) for p in PATTERNS.values()]
    )
    found = []
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if not path.is_file() or any(
            p.startswith(".") or p in SKIPPED_FOLDERS for p in parts
        ):
            continue
        name = "/".join(parts)
        student, time = identify(name, compiled)
        found.append(
            Submission(
                path=path,
                name=name,
                student=student,
                when=time or _export_time(path) or _mtime(path),
                sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
            )
        )
    by_student = {}
    for submission in found:
        by_student.setdefault(submission.student, []).append(submission)
    for attempts in by_student.values():
        attempts.sort(key=_attempt_order)
        for submission in attempts:
            submission.attempts = len(attempts)
            submission.latest = submission is attempts[-1]
    return found


def identify(name, patterns):
    """(student, attempt time or None) for a file's path in the folder."""
    for pattern in patterns:
        match = pattern.search(name)
        if match and match.groupdict().get("student"):
            groups = match.groupdict()
            student = groups["student"].lower()
            if groups.get("id"):
                student = f"{student}_{groups['id']}"
            time = groups.get("time")
            if time:
                day, clock = time[:10], time[11:].replace("-", ":")
                time = f"{day}T{clock}"
            return student, time or _otter_time(name)
    stem = name.rsplit(".", 1)[0]
    return stem, _otter_time(name)


def _otter_time(text):
    match = OTTER_TIME.search(text)
    if not match:
        return None
    y, mo, d, h, mi, s, us = match.groups()
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}.{us}"


def _export_time(path):
    """The time in an otter export's own name, stored inside the zip."""
    if path.suffix.lower() != ".zip":
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("__zip_filename__")
            if info.file_size > 1000:
                return None
            return _otter_time(archive.read(info).decode(errors="replace"))
    except (zipfile.BadZipFile, KeyError, OSError, RuntimeError, ValueError):
        return None


def _mtime(path):
    return datetime.fromtimestamp(path.stat().st_mtime).isoformat()


def _attempt_order(submission):
    resubmission = RESUBMISSION.search(submission.name)
    return (
        submission.when,
        int(resubmission.group(1)) if resubmission else 0,
        submission.name,
    )


def read_cells(path, assignment):
    """The code cells of a submitted notebook (or otter export zip), as
    [index in the notebook, source] pairs. Raises SubmissionError."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".ipynb":
        if path.stat().st_size > MAX_BYTES:
            raise SubmissionError("the file is too large for a notebook")
        data = path.read_bytes()
    elif suffix == ".zip":
        data = _notebook_in_zip(path)
    else:
        raise SubmissionError(
            f"not a notebook (.ipynb) or an otter export (.zip): {path.name}"
        )
    notebook = _parse(data)
    return _code_cells(notebook, assignment)


def _notebook_in_zip(path):
    try:
        with zipfile.ZipFile(path) as archive:
            notebooks = [
                info
                for info in archive.infolist()
                if info.filename.lower().endswith(".ipynb")
                and not any(
                    part.startswith(".") or part in SKIPPED_FOLDERS
                    for part in info.filename.split("/")
                )
            ]
            if not notebooks:
                raise SubmissionError(
                    "the zip file holds no notebook (.ipynb)"
                )
            if len(notebooks) > 1:
                names = ", ".join(info.filename for info in notebooks[:4])
                raise SubmissionError(
                    f"the zip file holds {len(notebooks)} notebooks "
                    f"({names}): "
                    "cannot tell which one to grade"
                )
            (info,) = notebooks
            if info.file_size > MAX_BYTES:
                raise SubmissionError(
                    "the notebook in the zip file is too large"
                )
            return archive.read(info)
    except SubmissionError:
        raise
    except zipfile.BadZipFile as error:
        raise SubmissionError(f"not a valid zip file ({error})") from error
    except (OSError, RuntimeError, NotImplementedError, ValueError) as error:
        # encrypted members, unknown compression, corrupt data
        raise SubmissionError(
            f"the zip file cannot be read ({error})"
        ) from error


def _parse(data):
    if not data.strip():
        raise SubmissionError("the file is empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SubmissionError(
            "not a notebook: the file is not text (UTF-8); is it a notebook "
            "at all?"
        ) from error
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        if text.lstrip().startswith("{") and not text.rstrip().endswith("}"):
            raise SubmissionError(
                "the notebook is truncated: its JSON ends early (line "
                f"{error.lineno}); was the upload interrupted?"
            ) from error
        raise SubmissionError(
            f"not a notebook: the file is not JSON ({error.msg} at line "
            f"{error.lineno}, column {error.colno})"
        ) from error
    except RecursionError as error:
        raise SubmissionError(
            "not a notebook: the JSON is nested too deeply"
        ) from error
    if type(notebook) is not dict or type(notebook.get("cells")) is not list:
        raise SubmissionError(
            "not a Jupyter notebook: it has no list of cells"
        )
    if notebook.get("nbformat") != 4:
        raise SubmissionError(
            f"a notebook in format {notebook.get('nbformat')!r}, not 4: "
            "open it in "
            "Jupyter and save it again"
        )
    return notebook


def _code_cells(notebook, assignment):
    metadata = notebook.get("metadata")
    otter = metadata.get("otter") if type(metadata) is dict else None
    if type(otter) is not dict:
        raise SubmissionError(
            "the notebook has no otter metadata: it was not made from the "
            f"student notebook of {assignment!r} (a new notebook, or cells "
            "pasted elsewhere?)"
        )
    name = otter.get("assignment_name")
    if name != assignment:
        raise SubmissionError(
            f"this is the notebook of the assignment {str(name)[:80]!r}, "
            f"not {assignment!r}"
        )
    cells = []
    for index, cell in enumerate(notebook["cells"]):
        if type(cell) is not dict or type(cell.get("cell_type")) is not str:
            raise SubmissionError(
                f"cell {index + 1} of the notebook is malformed"
            )
        if cell["cell_type"] != "code":
            continue
        source = cell.get("source")
        if type(source) is list and all(type(s) is str for s in source):
            source = "".join(source)
        if type(source) is not str:
            raise SubmissionError(
                f"cell {index + 1} of the notebook is malformed"
            )
        cells.append([index, source])
    return cells
