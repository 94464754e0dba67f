"""The autograder of an assignment: everything grading needs from a master.

``build.py`` writes it as ``<name>-autograder.json`` next to the student
notebook; ``grade.py`` reads it. It holds the solutions and the hidden tests,
so it is as secret as the master. Its fields:

* ``assignment``: the name (the student notebook's otter metadata carries it);
* ``reference_cells``: the master's code cells other than tests, solutions
  included, whose run gives the checker its names (data, imports, helpers);
* ``questions``: per autograded question its ``name``, ``points``, the names
  of its ``answers`` (what the solution lines bind: the student's functions
  and variables) and its ``tests`` (``id``, ``hidden``, ``points``, ``code``);
* ``manual``: the written questions, graded by hand.
"""

import ast
import json
from pathlib import Path

import yaml

FORMAT = 1


class MasterError(ValueError):
    """A master notebook that cannot be turned into an autograder."""


def from_master(master):
    """Parse a master notebook (otter format, see assignments/README.md)."""
    cells = json.loads(Path(master).read_text())["cells"]
    config = None
    reference, questions, manual = [], [], []
    question = block = None
    for cell in cells:
        source = "".join(cell["source"])
        first = source.strip().splitlines()[0] if source.strip() else ""
        if cell["cell_type"] == "raw":
            if first == "# ASSIGNMENT CONFIG":
                config = yaml.safe_load(
                    source.removeprefix("# ASSIGNMENT CONFIG")
                )
            elif first == "# BEGIN QUESTION":
                question = yaml.safe_load(
                    source.removeprefix("# BEGIN QUESTION")
                )
                question.update(answers=[], tests=[])
            elif first == "# END QUESTION":
                (manual if question.get("manual") else questions).append(
                    question
                )
                question = None
            elif first in ("# BEGIN SOLUTION", "# BEGIN TESTS"):
                block = first.split()[-1].lower()
            elif first in ("# END SOLUTION", "# END TESTS"):
                block = None
            continue
        if cell["cell_type"] != "code":
            continue
        if block == "tests":
            if "BEGIN TEST CONFIG" in source:
                raise MasterError(
                    "test configuration blocks are not supported: mark a "
                    "hidden test with a first line `# HIDDEN`"
                )
            hidden = first.startswith("#") and "hidden" in first.lower()
            question["tests"].append({"hidden": hidden, "code": source})
            continue
        reference.append(source)
        if block == "solution" and question is not None:
            question["answers"] += [
                n for n in answer_names(source) if n not in question["answers"]
            ]
    if config is None:
        raise MasterError("no `# ASSIGNMENT CONFIG` cell")
    for q in questions:
        if not q["tests"]:
            raise MasterError(f"question {q['name']} has no tests")
        if not q["answers"]:
            raise MasterError(f"question {q['name']} has no solution lines")
        public = hidden = 0
        for test in q["tests"]:
            if test["hidden"]:
                hidden += 1
                test["id"] = f"{q['name']} hidden test {hidden}"
            else:
                public += 1
                test["id"] = f"{q['name']} public test {public}"
            # otter's rule: a question's points are shared equally by its tests
            test["points"] = q["points"] / len(q["tests"])
    return {
        "format": FORMAT,
        "assignment": config["name"],
        "reference_cells": reference,
        "questions": [
            {k: q[k] for k in ("name", "points", "answers", "tests")}
            for q in questions
        ],
        "manual": [{"name": q["name"], "points": q["points"]} for q in manual],
    }


def solution_lines(source):
    """Line numbers (1-based) a student writes: otter's solution markers."""
    lines, inside = set(), False
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if stripped == "# BEGIN SOLUTION":
            inside = True
        elif stripped == "# END SOLUTION":
            inside = False
        elif inside or stripped.endswith("# SOLUTION"):
            lines.add(number)
    return lines


def answer_names(source):
    """Names bound by the top-level statements that contain solution lines:
    the functions and variables a student's notebook must define."""
    marked = solution_lines(source)
    names = []
    for statement in ast.parse(source).body:
        span = range(statement.lineno, statement.end_lineno + 1)
        if not marked.intersection(span):
            continue
        if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            names.append(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = (
                statement.targets
                if isinstance(statement, ast.Assign)
                else [statement.target]
            )
            for target in targets:
                names += [
                    n.id for n in ast.walk(target) if isinstance(n, ast.Name)
                ]
    return names


def all_answers(autograder):
    names = []
    for question in autograder["questions"]:
        names += [n for n in question["answers"] if n not in names]
    return names


def save(autograder, path):
    Path(path).write_text(
        json.dumps(autograder, indent=1, ensure_ascii=False) + "\n"
    )


def load(path):
    autograder = json.loads(Path(path).read_text())
    if autograder.get("format") != FORMAT:
        raise ValueError(
            f"{path} was written by another version of build.py: rebuild it"
        )
    return autograder
