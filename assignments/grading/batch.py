"""Grade a folder: one CSV row per file, written as soon as it is graded.

A run that is interrupted keeps its rows; running the same command again
grades only the files that have no row yet (or changed since). Each student's
latest attempt is graded; earlier attempts get a row that says so. Every
file that is not an earlier attempt also gets a feedback file for the
student. Whatever goes wrong with one file (it is a link, a FIFO, a zip
bomb, its name is not UTF-8, its grading killed the checker) is that file's
error row, never the batch's.
"""

import csv
import multiprocessing
import os
import sys
import time
from datetime import datetime
from multiprocessing.connection import wait
from pathlib import Path

from grading import autograder as autograders
from grading.sandbox import Limits
from grading.text import clean, file_name

FIRST = ["student", "submission", "attempts", "status"]
LAST = ["total", "possible", "flags", "error", "notes", "seconds", "sha256"]
# Characters per CSV cell (a spreadsheet's limit is 32 767; csv's own, when
# reading back, 131 072).
WIDTH = {"submission": 1000, "error": 500, "notes": 2000, "flags": 1000}
WORKER_MEMORY = 3 * 2**30  # address space of one checker process


class BatchError(ValueError):
    """A batch that cannot start (a grades file of another assignment...)."""


def columns(autograder):
    return FIRST + [q["name"] for q in autograder["questions"]] + LAST


# ----------------------------------------------------------------- workers --
# Each worker is a clean process: it runs the master's code once, starts one
# sandbox per submission and runs the tests against it. It never runs
# student code itself.


class Worker:
    def __init__(self, autograder, limits, sandboxed, bwrap):
        from grading.checker import Checker, reference_namespace
        from grading.sandbox import Sandbox

        self.autograder, self.limits = autograder, limits
        self.checker = Checker(
            autograder, reference_namespace(autograder), limits.cell_timeout
        )
        self.given = [
            source
            for source in autograder["reference_cells"]
            if not autograders.solution_lines(source)
        ]
        self.sandbox = Sandbox(enabled=sandboxed, bwrap=bwrap)

    def grade(self, path):
        """The outcome of one file: status, error (the student may read it),
        flags, notes (the notebook's cell errors, shown to the student),
        hidden_note (for the CSV only), results per test, seconds."""
        import tempfile

        from grading import flags, submissions
        from grading.checker import HIDDEN_STOPPED
        from grading.sandbox import Session, SessionEnded

        start = time.monotonic()
        outcome = {
            "status": "graded",
            "error": "",
            "flags": [],
            "notes": [],
            "hidden_note": "",
            "results": None,
        }
        try:
            cells = submissions.read_cells(path, self.autograder["assignment"])
        except submissions.SubmissionError as error:
            outcome.update(status="error", error=str(error))
            return dict(outcome, seconds=time.monotonic() - start)
        outcome["flags"] = flags.scan([s for _, s in cells], self.given)
        answers = autograders.all_answers(self.autograder)
        with tempfile.TemporaryDirectory() as workdir:  # without a sandbox
            with Session(self.sandbox, self.limits, workdir) as session:
                reports, public, ended = [], [], None
                try:
                    done = session.run_cells(cells, answers)
                except SessionEnded as stopped:
                    done, ended = None, stopped
                done = done if type(done) is dict else {}
                reports.append(done)
                outcome["notes"] = _notes(done.get("errors"))
                if ended is None:
                    public, ended = self.checker.run(
                        session, done.get("answers"), hidden=False
                    )
                if ended is None:
                    try:
                        reports.append(session.report())
                    except SessionEnded as stopped:
                        ended = stopped
                outcome["flags"] += _runtime_flags(reports)
                if ended is not None:
                    # Before the hidden tests: the student may know why.
                    if session.malformed:
                        outcome["flags"].append(
                            "tampered with the grader's channel"
                        )
                    outcome.update(status="error", error=ended.reason)
                    return dict(outcome, seconds=time.monotonic() - start)
                hidden, stopped = self.checker.run(
                    session, done.get("answers"), hidden=True
                )
        order = {t["id"]: i for i, t in enumerate(self.checker.tests)}
        outcome["results"] = sorted(
            public + hidden, key=lambda r: order[r["id"]]
        )
        if stopped is not None:
            # After the hidden tests began, nothing the notebook did reaches
            # anyone beyond pass or fail: a fixed note for the instructor.
            outcome["hidden_note"] = HIDDEN_STOPPED
        return dict(outcome, seconds=time.monotonic() - start)


def _notes(errors):
    errors = errors if type(errors) is list else []
    return [
        f"cell {e[0] + 1}: {clean(e[1], 200)}"
        for e in errors[:10]
        if type(e) is list and len(e) == 2 and type(e[0]) is int
    ]


def _runtime_flags(reports):
    """What the sandbox reported seeing (untrusted: hints only), grouped:
    "at run time: replaced numpy.allclose; listed /, /work, /root, ..."."""
    seen = {}
    for report in reports:
        if type(report) is not dict:
            continue
        patched = report.get("patched")
        for name in patched if type(patched) is list else []:
            seen.setdefault("replaced", []).append(clean(name, 80))
        events = report.get("events")
        for event in events if type(events) is list else []:
            if type(event) is list and len(event) == 2:
                seen.setdefault(clean(event[0], 40), []).append(
                    clean(event[1], 80)
                )
    parts = []
    for action, details in list(seen.items())[:8]:
        details = [d for d in dict.fromkeys(details) if d]
        shown = ", ".join(details[:3]) + (", ..." if len(details) > 3 else "")
        parts.append(f"{action} {shown}".strip())
    return [f"at run time: {'; '.join(parts)}"] if parts else []


def _peak_mb():
    """This process's peak resident memory (MB)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _worker_main(connection, autograder, limits, sandboxed, bwrap):
    """A checker process: grades the paths it is sent, one at a time."""
    import resource

    try:
        worker = Worker(autograder, limits, sandboxed, bwrap)
    except BaseException as error:  # noqa: BLE001  (reported, then gone)
        connection.send(("failed", f"{type(error).__name__}: {error}"))
        return
    # Its own memory is bounded too: a submission that sends the most data
    # the channel allows makes a MemoryError here (that file's error row),
    # never a machine out of memory. The soft limit only: the sandboxes it
    # starts set their own.
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, hard))
    connection.send(("ready", None))
    while True:
        try:
            path = connection.recv()
        except EOFError:
            return
        if path is None:
            return
        try:
            outcome = worker.grade(path)
        except MemoryError:
            outcome = _failed("the grader ran out of memory checking it")
        except Exception as error:  # a bug of ours must not stop the batch
            outcome = _failed(f"internal error: {error!r}")
        outcome["peak_mb"] = _peak_mb()
        connection.send(("done", outcome))


def _failed(error):
    return {
        "status": "error",
        "error": error,
        "flags": [],
        "notes": [],
        "hidden_note": "",
        "results": None,
        "seconds": 0.0,
    }


class _Pool:
    """``jobs`` checker processes. A checker that dies (killed for memory,
    say) costs only the file it was grading, which gets an error row; a new
    one takes its place."""

    def __init__(self, jobs, arguments, target=None):
        self.context = multiprocessing.get_context("spawn")
        self.arguments, self.jobs = arguments, jobs
        self.target = target or _worker_main
        self.workers = []  # [process, connection, task or None]

    def _start(self):
        mine, theirs = self.context.Pipe()
        process = self.context.Process(
            target=self.target, args=(theirs, *self.arguments), daemon=True
        )
        process.start()
        theirs.close()
        try:
            kind, detail = mine.recv()
        except EOFError:
            kind, detail = "failed", "the checker process died on start"
        if kind != "ready":
            process.join(5)
            raise BatchError(f"the checker cannot start: {detail}")
        return [process, mine, None]

    def run(self, tasks):
        """Yield (task, outcome) for each (task, path) as they finish."""
        todo = list(tasks)
        try:
            while todo or any(w[2] is not None for w in self.workers):
                while todo and (
                    len(self.workers) < self.jobs
                    or any(w[2] is None for w in self.workers)
                ):
                    idle = [w for w in self.workers if w[2] is None]
                    worker = idle[0] if idle else None
                    if worker is None:
                        worker = self._start()
                        self.workers.append(worker)
                    task, path = todo.pop(0)
                    worker[1].send(path)
                    worker[2] = task
                busy = [w for w in self.workers if w[2] is not None]
                ready = wait(
                    [w[1] for w in busy] + [w[0].sentinel for w in busy]
                )
                for worker in busy:
                    process, connection, task = worker
                    if (
                        connection not in ready
                        and process.sentinel not in ready
                    ):
                        continue
                    message = None
                    if connection in ready:
                        try:
                            message = connection.recv()
                        except (EOFError, OSError):
                            message = None
                    if message is not None and message[0] == "done":
                        worker[2] = None
                        yield task, message[1]
                    else:
                        self._bury(worker)
                        yield (
                            task,
                            _failed(
                                "the grader's checker process died while "
                                "grading this file (out of memory?)"
                            ),
                        )
        finally:
            self.close()

    def _bury(self, worker):
        process, connection, _ = worker
        connection.close()
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()
        self.workers.remove(worker)

    def close(self):
        for _, connection, _ in list(self.workers):
            try:
                connection.send(None)
            except (OSError, ValueError):
                pass
        for process, connection, _ in list(self.workers):
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()
            connection.close()
        self.workers = []


# -------------------------------------------------------------------- rows --


def _row(autograder, submission, outcome):
    notes = list(outcome.get("notes", []))
    if outcome.get("hidden_note"):
        notes.append(outcome["hidden_note"])
    row = {
        "student": submission.student,
        "submission": submission.name,
        "attempts": submission.attempts,
        "status": outcome["status"],
        "flags": "; ".join(outcome.get("flags", [])),
        "error": outcome.get("error", ""),
        "notes": "; ".join(notes),
        "seconds": f"{outcome.get('seconds', 0.0):.1f}",
        "sha256": submission.sha256,
        "possible": _number(sum(q["points"] for q in autograder["questions"])),
    }
    results = outcome.get("results")
    if results is not None:
        scores = {q["name"]: 0.0 for q in autograder["questions"]}
        for result in results:
            if result["passed"]:
                scores[result["question"]] += result["points"]
        row.update({name: _number(score) for name, score in scores.items()})
        row["total"] = _number(sum(scores.values()))
    return {key: _cell(key, value) for key, value in row.items()}


def _number(value):
    return f"{round(value, 6):g}"


def _cell(column, value):
    """A CSV cell: one line of valid UTF-8 without control characters, cut
    to its column's width, and quoted with ' when it starts with = + - @
    (spreadsheets would run it as a formula). The same function makes the
    key a rerun looks rows up by, so quoted names match."""
    text = clean(value, WIDTH.get(column, 200))
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _write_rows(path, fields, rows):
    temporary = Path(f"{path}.tmp")
    with open(temporary, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _append_row(path, fields, row):
    with open(path, "a", newline="", encoding="utf-8") as f:
        csv.DictWriter(f, fieldnames=fields, extrasaction="ignore").writerow(
            row
        )
        f.flush()
        os.fsync(f.fileno())


def _previous_rows(path, fields):
    """Rows of an earlier run of the same assignment, by (file, sha256)."""
    if not Path(path).exists():
        return {}
    csv.field_size_limit(2**24)  # rows written before widths were capped
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != fields:
                raise BatchError(
                    f"{path} holds grades with other columns (another "
                    "assignment?): choose another --out, or delete it"
                )
            rows = {}
            for row in reader:
                complete = all(row.get(k) is not None for k in fields)
                if (
                    complete
                    and row["status"] in ("graded", "error")
                    and len(row["sha256"]) == 64
                ):
                    rows[(row["submission"], row["sha256"])] = row
            return rows
    except csv.Error as error:
        raise BatchError(
            f"{path} cannot be read as a CSV ({error}): choose another "
            "--out, or delete it to grade everything again"
        ) from error


def _progress(count, total, row):
    """One line per graded file, with its time."""
    score = (
        f"{row['total']}/{row['possible']}" if row.get("total") else "no score"
    )
    text = f"[{count}/{total}] {row['submission']}: {score}"
    text += f" in {row['seconds']} s"
    if row["error"]:
        text += f" — error: {row['error'][:300]}"
    if row["flags"]:
        text += f" — flags: {row['flags'][:150]}"
    return text


# ---------------------------------------------------------------- feedback --


def feedback_text(autograder, submission, outcome):
    name = autograder["assignment"]
    lines = [f"# Feedback: {name}", "", f"Submission: `{submission.shown}`"]
    if submission.attempts > 1:
        lines[-1] += f" (your latest of {submission.attempts} attempts)"
    results = outcome.get("results")
    if results is None:
        lines += [
            "",
            "Your submission could not be graded: "
            f"{clean(outcome['error'], 500)}.",
        ]
        return "\n".join(lines) + "\n"
    earned = sum(r["points"] for r in results if r["passed"])
    possible = sum(q["points"] for q in autograder["questions"])
    lines += [
        "",
        f"Autograded score: {_number(earned)} / {_number(possible)}.",
    ]
    if autograder["manual"]:
        written = ", ".join(
            f"{q['name']} ({q['points']} points)" for q in autograder["manual"]
        )
        lines[-1] += f" Written questions are graded by hand: {written}."
    for question in autograder["questions"]:
        mine = [r for r in results if r["question"] == question["name"]]
        score = sum(r["points"] for r in mine if r["passed"])
        lines += [
            "",
            f"## {question['name']}: {_number(score)} / "
            f"{_number(question['points'])}",
            "",
        ]
        for result in mine:
            label = result["id"].removeprefix(f"{question['name']} ")
            verdict = "passed" if result["passed"] else "failed"
            if (
                not result["passed"]
                and not result["hidden"]
                and result["message"]
            ):
                verdict += f": {clean(result['message'], 500)}"
            lines.append(f"- {label}: {verdict}")
    if outcome.get("notes"):
        lines += ["", "## Errors in your notebook", ""]
        lines += [f"- {clean(note, 300)}" for note in outcome["notes"]]
    return "\n".join(lines) + "\n"


def feedback_path(folder, submission):
    """The feedback file of a submission: its path in the batch, each part
    made a safe file name, plus ``.md``."""
    parts = submission.name.split("/")
    safe = [file_name(part) for part in parts[:-1]]
    safe.append(file_name(parts[-1]) + ".md")
    return Path(folder).joinpath(*safe)


def _write_feedback(folder, submission, text):
    path = feedback_path(folder, submission)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# ------------------------------------------------------------------- batch --


def grade_folder(
    autograder_path,
    folder,
    out,
    feedback=None,
    jobs=1,
    limits=None,
    sandboxed=True,
    bwrap=None,
    student_pattern=None,
    layout=None,
    log=None,
):
    """Grade every file in ``folder`` into the CSV ``out``; return a summary
    dict (graded, errors, superseded, flagged, seconds, rows)."""
    from grading import submissions
    from grading.sandbox import Sandbox

    log = log or (lambda text: print(text, file=sys.stderr, flush=True))
    started = datetime.now()
    limits = limits or Limits()
    try:
        autograder = autograders.load(autograder_path)
    except (OSError, ValueError, KeyError) as error:
        raise BatchError(
            f"cannot read the autograder {autograder_path}: {error}"
        ) from error
    fields = columns(autograder)
    out = Path(out)
    feedback = Path(feedback or out.with_name(f"{out.stem}-feedback"))
    sandbox = Sandbox(enabled=sandboxed, bwrap=bwrap)
    sandbox.ensure_private([autograder_path, folder, out, feedback])
    sandbox.check()
    if not sandboxed:
        log(NO_SANDBOX_WARNING)
    log(f"sandbox: {sandbox.describe()}")

    try:
        batch = submissions.collect(
            folder, student_pattern, layout, started=started
        )
    except (OSError, ValueError) as error:
        raise BatchError(f"cannot list {folder}: {error}") from error
    for line in batch.log:
        log(clean(line, 2000))
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = _previous_rows(out, fields)
    rows, pending, finished = [], [], []
    for submission in batch.submissions:
        if submission.problem:
            outcome = _failed(submission.problem)
            row = _row(autograder, submission, outcome)
            finished.append((submission, outcome))
        elif not submission.latest:
            row = _row(autograder, submission, {"status": "superseded"})
            row["notes"] = _cell(
                "notes",
                f"superseded by a later attempt of {submission.student}",
            )
            row["seconds"] = ""
        else:
            key = (_cell("submission", submission.name), submission.sha256)
            if key in previous:
                row = previous[key]
            else:
                pending.append(submission)
                continue
        rows.append(row)
    _write_rows(out, fields, rows)
    feedback.mkdir(parents=True, exist_ok=True)
    for submission, outcome in finished:
        _record_feedback(feedback, autograder, submission, outcome, log)
    resumed = (
        len(rows)
        - sum(r["status"] == "superseded" for r in rows)
        - len(finished)
    )
    if resumed:
        log(f"resuming: {resumed} files already have a row in {out}")

    start = time.monotonic()
    os.environ.update(
        OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1"
    )
    graded_seconds, peaks = [], [0]
    pool = _Pool(max(1, min(jobs, len(pending) or 1)),
                 (autograder, limits, sandboxed, bwrap))  # fmt: skip
    tasks = [(submission, submission.path) for submission in pending]
    ungraded = len(pending)
    for count, (submission, outcome) in enumerate(pool.run(tasks), 1):
        ungraded -= 1
        peaks.append(outcome.pop("peak_mb", 0))
        graded_seconds.append(outcome.get("seconds", 0.0))
        row = _record(out, fields, feedback, autograder, submission, outcome,
                      log)  # fmt: skip
        rows.append(row)
        log(_progress(count, len(pending), row))
    rows.sort(key=lambda r: (r["student"], r["submission"]))
    _write_rows(out, fields, rows)
    elapsed = time.monotonic() - start
    summary = {
        "files": len(batch.submissions),
        "ungraded": ungraded,
        "graded": sum(r["status"] == "graded" for r in rows),
        "errors": sum(r["status"] == "error" for r in rows),
        "superseded": sum(r["status"] == "superseded" for r in rows),
        "flagged": sum(bool(r["flags"]) for r in rows),
        "students": len({r["student"] for r in rows}),
        "seconds": elapsed,
        "per_submission": sum(graded_seconds) / len(graded_seconds)
        if graded_seconds
        else 0.0,
        "checker_peak_mb": max(peaks),
        "rows": rows,
    }
    log(
        f"{autograder['assignment']}: {summary['files']} files from "
        f"{summary['students']} students: {summary['graded']} graded, "
        f"{summary['errors']} errors, {summary['superseded']} earlier "
        f"attempts, {summary['flagged']} flagged; {len(graded_seconds)} "
        "graded now "
        f"in {elapsed:.0f} s ({summary['per_submission']:.1f} s each, "
        f"{max(1, jobs)} at a time; checkers' peak memory "
        f"{summary['checker_peak_mb']} MB, this process's {_peak_mb()} MB). "
        f"Grades: {out}; feedback: {feedback}/"
    )
    if not sandboxed:
        log(NO_SANDBOX_WARNING)
    return summary


def _record(out, fields, feedback, autograder, submission, outcome, log):
    """Write a graded file's feedback and row; a failure there becomes the
    row's error, never the batch's."""
    try:
        problem = _record_feedback(
            feedback, autograder, submission, outcome, log
        )
        if problem:
            outcome = dict(outcome, error=(outcome.get("error") or problem))
        row = _row(autograder, submission, outcome)
    except Exception as error:  # a bug of ours: this file's row says so
        row = _row(
            autograder,
            submission,
            _failed(f"internal error recording this file: {error!r}"),
        )
    _append_row(out, fields, row)
    return row


def _record_feedback(folder, autograder, submission, outcome, log):
    try:
        _write_feedback(
            folder, submission, feedback_text(autograder, submission, outcome)
        )
    except OSError as error:
        problem = f"its feedback file could not be written ({error.strerror})"
        log(f"{submission.shown}: {problem}")
        return problem
    return ""


NO_SANDBOX_WARNING = """
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!! --no-sandbox: STUDENT CODE RAN AS YOU, with your files, your processes  !!
!! and your network. Scores still come from the clean checker, but a       !!
!! hostile notebook could have read or changed anything you can. Use this  !!
!! only on a machine you are prepared to throw away.                       !!
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
"""
