"""The files of a batch: what each one holds, whose it is, which attempt.

Every file is assumed corrupt or hostile until read. ``collect`` lists a
folder without following a single symbolic link, names the student behind
each file and orders each student's attempts; anything that is not a regular
file (a link, a FIFO, a socket, a device, a folder it cannot read) is
listed too, with the ``problem`` that gives it an error row. ``read_cells``
returns a notebook's code cells or raises ``SubmissionError`` saying, for
the instructor and the student, what is wrong with the file. Reads are
streamed and bounded: no file, zip member or zip directory is ever read
whole into memory past the limits below.

Whose file is it? One *layout* per batch: the one a learning platform wrote
(detected, or given with ``--layout``), matched from the start of each
file's path, so text later in a name cannot claim a student. With one
folder per student, the folder decides, whatever the file inside is called.
Attempts are ordered by what the platform wrote (Blackboard's attempt time,
Canvas's upload number), then by the file's modification time; a time after
the batch started is not trusted. The log says which file counted for each
student with several, and every file whose name claims someone else.
"""

import hashlib
import json
import os
import re
import stat
import struct
import zipfile
from dataclasses import dataclass
from datetime import datetime

from grading.text import clean

MAX_BYTES = 50 * 2**20  # a notebook (or the notebook inside a zip)
MAX_ZIP_BYTES = 100 * 2**20  # a zip file
MAX_ZIP_MEMBERS = 1000
MAX_ZIP_DIRECTORY = 2**20  # bytes of a zip's central directory
SKIPPED_FOLDERS = {"__MACOSX", ".ipynb_checkpoints"}
CHUNK = 2**20

# What learning platforms write. Each layout's pattern is matched at the
# start of a file's path in the folder; `student` (and `id`) name the
# student; `time` or `upload` (numbers that grow with each upload) order
# attempts, `prefix` is what Blackboard puts first (the assignment's name:
# the same for every file of a batch).
LAYOUTS = {
    # HW1_jsmith_attempt_2024-10-01-12-30-45_notebook.ipynb (and a .txt)
    "blackboard": r"(?P<prefix>[^/]+?)_(?P<student>[^_/]+)_attempt_"
    r"(?P<time>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_|\.txt$)",
    # John Smith_123456_assignsubmission_file_notebook.ipynb (or a folder)
    "moodle": r"(?P<student>[^_/]+)_(?P<id>\d+)_"
    r"assign(?:submission|feedback)_",
    # smithjohn_123456_7891011_notebook.ipynb, smithjohn_LATE_123456_...
    "canvas": r"(?P<student>[^\W_]+)_(?:late_)?(?P<id>\d+)_(?P<upload>\d+)_",
    # smith_john_123456_notebook.ipynb
    "name and number": r"(?P<student>(?:[^\W\d_]+_)+\d{3,})_",
    # one folder per student: jsmith/notebook.ipynb
    "folder": r"(?P<student>[^/]+)/",
}
RESUBMISSION = re.compile(r"-(\d+)\.(ipynb|zip)$")  # Canvas: notebook-2.ipynb


class SubmissionError(ValueError):
    """A file that cannot be graded, and why (one sentence for a person)."""


@dataclass
class Submission:
    path: str  # absolute, as the file system spells it (surrogate escapes)
    name: str  # the path inside the batch's folder, as the file system has it
    student: str = ""
    when: str = ""  # ISO time of the attempt, where one is trusted
    sha256: str = ""
    problem: str = ""  # why this is not a file to grade (an error row)
    attempts: int = 1
    latest: bool = True
    mtime: float | None = None
    platform: tuple | None = None  # (time, upload, resubmission) as written

    @property
    def shown(self):
        """The name as the CSV, the feedback and the log show it."""
        return clean(self.name, limit=1000)


@dataclass
class Batch:
    submissions: list
    layout: str
    log: list  # lines for the instructor: who counts, what was reassigned


def collect(folder, pattern=None, layout=None, started=None):
    """Every entry under ``folder`` as a Submission, with one layout for the
    whole batch (detected unless ``layout`` or a custom ``pattern`` is
    given). Hidden entries and the folders of macOS and Jupyter's
    checkpoints are skipped; nothing else is."""
    started = started or datetime.now()
    found = list(_walk(os.fspath(folder), ""))
    if pattern:
        patterns, chosen = {"custom": re.compile(pattern)}, "custom"
    else:
        patterns = {
            name: re.compile(text, re.IGNORECASE)
            for name, text in LAYOUTS.items()
        }
        chosen = layout
    log = []
    if chosen is None:
        chosen, count = _detect(found, patterns)
        log.append(
            f"students: the {chosen!r} layout ({count} of {len(found)} "
            "files match it)"
            if chosen
            else "students: no layout matches these files: each file is "
            "its own student"
        )
    elif chosen not in patterns:
        raise ValueError(
            f"unknown layout {chosen!r} (known: {', '.join(LAYOUTS)})"
        )
    prefix = _blackboard_prefix(found, patterns) if chosen else None
    stray = []
    for submission in found:
        _identify(submission, patterns.get(chosen), chosen, prefix)
        if chosen and submission.platform is None:
            stray.append(submission.shown)
        claimed = _claims_other(submission, patterns, chosen)
        if claimed:
            log.append(
                f"{submission.shown}: its name names {clean(claimed, 80)}, "
                f"but the {chosen} layout makes it "
                f"{clean(submission.student, 80)}'s: counted as theirs"
            )
    if stray:
        log.append(
            f"{len(stray)} files do not match the {chosen} layout, each is "
            f"its own student: {', '.join(stray[:10])}"
            + (", ..." if len(stray) > 10 else "")
        )
    _order_attempts(found, started, log)
    return Batch(found, chosen or "none", log)


def _walk(folder, inside):
    """Entries of ``folder``, depth first, links never followed."""
    try:
        entries = sorted(os.scandir(os.path.join(folder, inside)),
                         key=lambda e: e.name)  # fmt: skip
    except OSError as error:
        if inside:
            yield Submission(
                path=os.path.join(folder, inside),
                name=inside,
                problem=f"a folder that cannot be read ({error.strerror})",
            )
            return
        raise
    for entry in entries:
        if entry.name.startswith(".") or entry.name in SKIPPED_FOLDERS:
            continue
        name = f"{inside}/{entry.name}" if inside else entry.name
        path = os.path.join(folder, name)
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError as error:
            yield Submission(path, name, problem=_unreadable(error))
            continue
        if stat.S_ISDIR(info.st_mode):
            yield from _walk(folder, name)
        elif stat.S_ISLNK(info.st_mode):
            yield Submission(path, name, problem=_link(path))
        elif not stat.S_ISREG(info.st_mode):
            yield Submission(path, name, problem=_special(info.st_mode))
        elif info.st_size > max(MAX_BYTES, MAX_ZIP_BYTES):
            yield Submission(
                path,
                name,
                mtime=info.st_mtime,
                problem=f"the file is too large ({info.st_size / 2**20:.0f} "
                "MB) for a notebook or an otter export",
            )
        else:
            submission = Submission(path, name, mtime=info.st_mtime)
            try:
                submission.sha256 = _sha256(path)
            except (OSError, SubmissionError) as error:
                submission.problem = (
                    str(error)
                    if isinstance(error, SubmissionError)
                    else _unreadable(error)
                )
            yield submission


def _link(path):
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return (
        f"a symbolic link (to {clean(target, 200)}): links are never "
        "followed; hand in the file itself"
    )


def _special(mode):
    kind = (
        "a FIFO"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
        if stat.S_ISBLK(mode) or stat.S_ISCHR(mode)
        else "not a regular file"
    )
    return f"{kind}, not a file: nothing to grade"


def _unreadable(error):
    return f"the file cannot be read ({error.strerror or error})"


def open_regular(path):
    """A binary file object for ``path``, only if it is a regular file and
    not a symbolic link (opened without following one, and without blocking
    on a FIFO swapped in meanwhile)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno == 40:  # ELOOP: a symbolic link
            raise SubmissionError(_link(path)) from None
        raise SubmissionError(_unreadable(error)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise SubmissionError(_special(info.st_mode))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _sha256(path):
    digest = hashlib.sha256()
    with open_regular(path) as f:
        while chunk := f.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


# ----------------------------------------------------------------- identity --


def _detect(found, patterns):
    """The layout that names the most files (ties: the order of LAYOUTS)."""
    best, count = None, 0
    for name, pattern in patterns.items():
        matched = sum(bool(pattern.match(s.name)) for s in found)
        if matched > count:
            best, count = name, matched
    return best, count


def _blackboard_prefix(found, patterns):
    """Blackboard starts every name with the assignment's name: the most
    common first field is the batch's; a name with another one is not
    Blackboard's."""
    pattern = patterns.get("blackboard")
    if pattern is None:
        return None
    counts = {}
    for submission in found:
        match = pattern.match(submission.name)
        if match:
            counts[match["prefix"]] = counts.get(match["prefix"], 0) + 1
    return max(counts, key=counts.get) if counts else None


def _identify(submission, pattern, layout, prefix):
    match = pattern.match(submission.name) if pattern else None
    if match and layout == "blackboard" and match["prefix"] != prefix:
        match = None
    if not match or not match.groupdict().get("student"):
        submission.student = submission.name.rsplit(".", 1)[0]
        return
    groups = match.groupdict()
    student = groups["student"].lower()
    if groups.get("id"):
        student = f"{student}_{groups['id']}"
    submission.student = student
    when = ""
    if groups.get("time"):
        day, clock = groups["time"][:10], groups["time"][11:]
        when = f"{day}T{clock.replace('-', ':')}"
    resubmission = RESUBMISSION.search(submission.name)
    submission.platform = (
        when,
        int(groups["upload"]) if groups.get("upload") else 0,
        int(resubmission.group(1)) if resubmission else 0,
    )


def _claims_other(submission, patterns, chosen):
    """The student that another layout reads at the start of this file's
    own name (its last path component), when that is someone else."""
    if submission.platform is None:
        return None
    own = submission.name.rsplit("/", 1)[-1]
    for name, pattern in patterns.items():
        if name in ("folder", chosen):
            continue
        match = pattern.match(own)
        if match and match.groupdict().get("student"):
            claimed = match["student"].lower()
            if not submission.student.startswith(claimed):
                return claimed
    return None


def _order_attempts(found, started, log):
    """Mark each student's latest attempt and log who counted and why.
    Attempts are ordered by the platform's time, then its upload numbers,
    then the modification time; times after ``started`` are not trusted."""
    limit = started.isoformat()
    files = [s for s in found if not s.problem]  # links and such: no attempt
    by_student = {}
    for submission in files:
        by_student.setdefault(submission.student, []).append(submission)
    keys = {}
    for submission in files:
        when, upload, resubmission = submission.platform or ("", 0, 0)
        if when > limit:
            log.append(
                f"{submission.shown}: its time ({when}) is after the batch "
                "started: not trusted"
            )
            when = ""
        modified = ""
        if submission.mtime is not None:
            modified = datetime.fromtimestamp(submission.mtime).isoformat()
            if modified > limit:
                log.append(
                    f"{submission.shown}: modified after the batch started "
                    f"({modified[:19]}): its time is not trusted"
                )
                modified = ""
        submission.when = when or modified
        keys[id(submission)] = (when, upload, resubmission, modified)
    for student, attempts in sorted(by_student.items()):
        attempts.sort(key=lambda s: (keys[id(s)], s.name))
        for submission in attempts:
            submission.attempts = len(attempts)
            submission.latest = submission is attempts[-1]
        if len(attempts) > 1:
            latest = attempts[-1]
            earlier = ", ".join(s.shown for s in attempts[-2::-1][:5])
            log.append(
                f"{clean(student, 80)}: {len(attempts)} files; graded "
                f"{latest.shown} ({latest.when[:19] or 'no trusted time'}); "
                f"earlier: {earlier}" + (", ..." if len(attempts) > 6 else "")
            )


# ------------------------------------------------------------------ reading --


def read_cells(path, assignment):
    """The code cells of a submitted notebook (or otter export zip), as
    [index in the notebook, source] pairs. Raises SubmissionError."""
    lower = os.fspath(path).lower()
    if lower.endswith(".ipynb"):
        with open_regular(path) as f:
            data = _bounded(f, "the file is too large for a notebook")
    elif lower.endswith(".zip"):
        data = _notebook_in_zip(path)
    else:
        raise SubmissionError(
            "not a notebook (.ipynb) or an otter export (.zip): "
            f"{clean(os.path.basename(path), 200)}"
        )
    notebook = _parse(data)
    return _code_cells(notebook, assignment)


def _bounded(stream, too_large, limit=MAX_BYTES):
    """At most ``limit`` bytes of ``stream``, read in chunks; more is an
    error (the declared size of a zip member can lie)."""
    chunks, size = [], 0
    while chunk := stream.read(CHUNK):
        size += len(chunk)
        if size > limit:
            raise SubmissionError(too_large)
        chunks.append(chunk)
    return b"".join(chunks)


def _zip_directory_size(f):
    """(entries, bytes) of a zip's central directory, from its end record,
    before zipfile reads the directory into memory."""
    f.seek(0, os.SEEK_END)
    size = f.tell()
    tail = min(size, 65557)
    f.seek(size - tail)
    data = f.read(tail)
    at = data.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(data):
        raise SubmissionError("not a valid zip file (no end record)")
    entries, directory = struct.unpack("<HI", data[at + 10 : at + 16])
    if entries == 0xFFFF or directory == 0xFFFFFFFF:
        raise SubmissionError("a zip64 archive: not an otter export")
    return entries, directory


def _notebook_in_zip(path):
    try:
        with open_regular(path) as f:
            if os.fstat(f.fileno()).st_size > MAX_ZIP_BYTES:
                raise SubmissionError("the zip file is too large")
            entries, directory = _zip_directory_size(f)
            if entries > MAX_ZIP_MEMBERS or directory > MAX_ZIP_DIRECTORY:
                raise SubmissionError(
                    f"the zip file holds {entries} files: not an otter export"
                )
            f.seek(0)
            with zipfile.ZipFile(f) as archive:
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
                    names = ", ".join(
                        clean(info.filename, 80) for info in notebooks[:4]
                    )
                    raise SubmissionError(
                        f"the zip file holds {len(notebooks)} notebooks "
                        f"({names}): cannot tell which one to grade"
                    )
                (info,) = notebooks
                too_large = "the notebook in the zip file is too large"
                if info.file_size > MAX_BYTES:
                    raise SubmissionError(too_large)
                with archive.open(info) as member:
                    return _bounded(member, too_large)
    except SubmissionError:
        raise
    except zipfile.BadZipFile as error:
        raise SubmissionError(
            f"not a valid zip file ({clean(error, 200)})"
        ) from error
    except (OSError, EOFError, RuntimeError, ValueError) as error:
        # encrypted members, unknown compression, corrupt data
        raise SubmissionError(
            f"the zip file cannot be read ({clean(error, 200)})"
        ) from error
    except Exception as error:  # zlib.error, lzma.LZMAError, bz2's ...
        raise SubmissionError(
            "the zip file cannot be read (its data are corrupt: "
            f"{type(error).__module__}.{type(error).__name__})"
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
            f"a notebook in format {clean(notebook.get('nbformat'), 40)}, "
            "not 4: open it in Jupyter and save it again"
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
            f"this is the notebook of the assignment {clean(name, 80)!r}, "
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
