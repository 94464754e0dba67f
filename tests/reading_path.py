"""A chapter's reading path: what a student reads, and what is set aside.

    python tests/reading_path.py [chapters/NN-slug.ipynb ...]
    python tests/reading_path.py --fold chapters/NN-slug.ipynb ...

The first prints, for each chapter (all by default), the size of its core path and of
what is set aside, and the core path's reading time, the number the chapter's
"What you will learn" box states (tests/test_conventions.py checks that the
two agree). CONTRIBUTING.md, "A student's path", describes the parts:

- **folded**: verification cells, whose first line is ``# Verification: ...``
  (folded on the website and in JupyterLab, still executed), and the code of
  cells tagged ``hide-input`` (figures whose code only draws: the figure shows,
  its code is folded);
- **deeper**: the "Going deeper" section;
- **slips**: the "Common slips" section;
- **exercises**: the "Exercises" section, with the worked solutions;
- **core**: everything else, the summary and the self-check questions
  included (their questions and answers count as prose; cells and sources
  the reader does not see, tagged ``remove-cell`` or ``remove-input``, do
  not count).

The second folds the chapter's verification cells: for every code cell whose
first line is ``# Verification: <what it establishes>``, it sets the tag
``hide-cell`` and ``mystnb.code_prompt_show`` (the website folds the cell
under that summary), and ``jupyter.source_hidden`` and ``outputs_hidden``
(JupyterLab folds it, showing the first line). It also hides the source of
the self-check cells (``self_check(...)``, which holds the answers): tag
``remove-input`` and ``jupyter.source_hidden``; and it folds the source of
cells tagged ``hide-input`` in JupyterLab too, and gives the notebook the
metadata JupyterLab would write on opening it (see store_as_jupyterlab_saves),
so that a reader who only opens it leaves it unchanged. Run it after writing
or changing such a cell; tests/test_conventions.py checks the metadata.

Sizes are prose words (an inline formula counts as one word, and is also
counted), display equations, inline formulas and lines of code. Two times:

- **read**: a first reading that follows the argument without redoing it,
  ``words / WORDS_PER_MINUTE + EQUATION_MINUTES × displays +
  CODE_LINE_MINUTES × code lines``. The rates were calibrated on the reader of
  issue 15, a strong final-year student, who took 5-6 hours over chapter 06
  read whole with one exercise solved.
- **work through**: the same student with pen and paper, redoing each
  derivation: the prose and the code as above, plus
  ``WORK_EQUATION_MINUTES`` per display equation and ``WORK_INLINE_MINUTES``
  per inline formula. The two rates are a least-squares fit (non-negative) to
  the core-path times measured by the readers of issues 23 and 27 with pen
  and paper: chapter 01 2 h, 12 2.5-3 h, 17 4 h, 19 3-3.5 h, and chapters
  04, 06, 08, 11 and 16 at 1.5-1.9 times their stated reading times (weighted
  half, being ranges); the fit predicts those times within 20 %, except
  chapter 01 (+35 %: its many short code cells are run, not worked).

CONTRIBUTING.md, "A student's path", says how the chapters use them: the box
states both, the core path reads in at most 2 h 15 min and works through in
at most 3 h (tests/test_conventions.py).
"""

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORDS_PER_MINUTE = 40
EQUATION_MINUTES = 1.0
CODE_LINE_MINUTES = 0.15
WORK_EQUATION_MINUTES = 4.0
WORK_INLINE_MINUTES = 0.07

VERIFICATION = "# Verification: "
SET_ASIDE = {
    "going deeper": "deeper",
    "common slips": "slips",
    "exercises": "exercises",
}
PARTS = ["core", "folded", "deeper", "slips", "exercises"]

DISPLAY_MATH = re.compile(r"\$\$.*?\$\$(?:\s*\([\w-]+\))?", re.S)
INLINE_MATH = re.compile(r"\$[^$\n]+\$")
DIRECTIVE_LINE = re.compile(r"^\s*(```|:::|:\w+:).*$", re.M)
MYST_ROLE = re.compile(r"\{[\w:-]+\}`([^`<]*?)(?:\s*<[^>]*>)?`")


@dataclass
class Size:
    words: int = 0
    equations: int = 0
    code_lines: int = 0
    inline_formulas: int = 0

    def minutes(self):
        """Minutes to read."""
        return (
            self.words / WORDS_PER_MINUTE
            + self.equations * EQUATION_MINUTES
            + self.code_lines * CODE_LINE_MINUTES
        )

    def work_minutes(self):
        """Minutes to work through with pen and paper."""
        return (
            self.words / WORDS_PER_MINUTE
            + self.equations * WORK_EQUATION_MINUTES
            + self.inline_formulas * WORK_INLINE_MINUTES
            + self.code_lines * CODE_LINE_MINUTES
        )

    def add(self, other):
        self.words += other.words
        self.equations += other.equations
        self.code_lines += other.code_lines
        self.inline_formulas += other.inline_formulas


def load(path):
    return json.loads(Path(path).read_text())


def source(cell):
    return "".join(cell["source"])


def is_verification(cell):
    return cell["cell_type"] == "code" and source(cell).startswith(
        VERIFICATION
    )


def verification_summary(cell):
    """The one-line summary of a verification cell (its first line)."""
    return source(cell).splitlines()[0][len(VERIFICATION) :].strip()


def markdown_size(text):
    equations = len(DISPLAY_MATH.findall(text))
    text = DISPLAY_MATH.sub(" ", text)
    inline_formulas = len(INLINE_MATH.findall(text))
    text = INLINE_MATH.sub(" formula ", text)
    text = MYST_ROLE.sub(lambda m: m.group(1) or "reference", text)
    text = DIRECTIVE_LINE.sub(" ", text)
    words = re.findall(r"[^\W_](?:[\w'’.-]*\w)?", text)
    return Size(
        words=len(words), equations=equations, inline_formulas=inline_formulas
    )


def code_size(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return Size(code_lines=len(lines))


def sections(nb):
    """Yield (part, cell) for every shown cell, in order."""
    part = "core"
    for cell in nb["cells"]:
        if "remove-cell" in tags(cell):
            continue
        if cell["cell_type"] == "markdown":
            for heading in re.findall(r"^## (.+)$", source(cell), re.M):
                part = SET_ASIDE.get(heading.strip().lower(), "core")
        if part == "core" and (
            is_verification(cell) or "hide-input" in tags(cell)
        ):
            yield "folded", cell
        else:
            yield part, cell


def reading_path(nb):
    """The sizes of each part of a chapter (a dict part -> Size)."""
    parts = {p: Size() for p in PARTS}
    for part, cell in sections(nb):
        text = source(cell)
        if cell["cell_type"] == "markdown":
            parts[part].add(markdown_size(text))
        elif is_self_check(cell):  # its source is hidden: the questions show
            parts[part].add(markdown_size(self_check_text(text)))
        elif cell["cell_type"] == "code" and "remove-input" not in tags(cell):
            parts[part].add(code_size(text))
    return parts


def core_minutes(nb):
    """(minutes to read, minutes to work through) the core path."""
    core = reading_path(nb)["core"]
    return core.minutes(), core.work_minutes()


def format_minutes(minutes):
    """ "about 1 h 35 min", to the nearest 5 minutes, as the box states it."""
    minutes = 5 * round(minutes / 5)
    hours, rest = divmod(minutes, 60)
    return " ".join(
        [f"{hours} h"] * bool(hours)
        + [f"{rest} min"] * bool(rest or not hours)
    )


def tags(cell):
    return cell["metadata"].get("tags", [])


def self_check_text(text):
    """The text a reader sees of a self_check(...) cell: the questions and
    their answers (the feedback shows one answer at a time, so not counted).
    An f-string's replacement field (a computed number) counts as a word."""
    import ast

    (call,) = ast.parse(text).body
    questions = ast.literal_eval(_fields_as_words(call.value.args[0]))
    return "\n".join(
        " ".join([q["question"], *(a.get("answer", "") for a in q["answers"])])
        for q in questions
    )


def _fields_as_words(node):
    """The node with every f-string made a plain string ("{x:.2f}" → "x"),
    and every other computed value a number, so that literal_eval reads it."""
    import ast

    class Plain(ast.NodeTransformer):
        def visit_JoinedStr(self, node):
            parts = [
                value.value if isinstance(value, ast.Constant) else " number "
                for value in node.values
            ]
            return ast.Constant("".join(parts))

        def generic_visit(self, node):
            node = super().generic_visit(node)
            if isinstance(
                node,
                (
                    ast.Name,
                    ast.Call,
                    ast.Attribute,
                    ast.BinOp,
                    ast.Subscript,
                    ast.UnaryOp,
                ),
            ) and not (
                isinstance(node, ast.UnaryOp)
                and isinstance(node.operand, ast.Constant)
            ):
                return ast.Constant(0.0)
            return node

    return ast.fix_missing_locations(Plain().visit(node))


def is_self_check(cell):
    return cell["cell_type"] == "code" and source(cell).startswith(
        "self_check("
    )


def fold_verifications(path):
    """Set the folding metadata of every verification cell of a notebook, and
    hide the source of self-check cells (it holds the answers)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if "hide-input" in cell.metadata.get("tags", []):
            cell.metadata["jupyter"] = {"source_hidden": True}
        if is_self_check(cell):
            tags = cell.metadata.setdefault("tags", [])
            if "remove-input" not in tags:
                tags.append("remove-input")
            cell.metadata["jupyter"] = {"source_hidden": True}
        if not is_verification(cell):
            continue
        tags = cell.metadata.setdefault("tags", [])
        if "hide-cell" not in tags:
            tags.append("hide-cell")
        cell.metadata.setdefault("mystnb", {})["code_prompt_show"] = (
            "Verification: " + verification_summary(cell)
        )
        cell.metadata["jupyter"] = {
            "source_hidden": True,
            "outputs_hidden": True,
        }
    store_as_jupyterlab_saves(nb)
    nbformat.write(nb, path)


def jupyterlab_language_info():
    """The `language_info` the kernel gives JupyterLab, without the version
    of Python, which differs between readers' machines."""
    from ipykernel.ipkernel import IPythonKernel

    info = dict(IPythonKernel.language_info)
    del info["version"]
    return info


def store_as_jupyterlab_saves(nb):
    """Give a notebook the metadata JupyterLab would give it on opening, so
    that opening it changes nothing: the Colab install cell's source hidden,
    `collapsed` mirroring `jupyter.outputs_hidden` (as @jupyter/ydoc keeps
    them), and the kernel's `language_info`. (nbformat.write then writes it
    as jupyter_server does.)"""
    nb.cells[0].metadata.setdefault("jupyter", {})["source_hidden"] = True
    for cell in nb.cells:
        hidden = cell.metadata.get("jupyter", {}).get("outputs_hidden")
        if cell.cell_type != "code":
            continue
        if hidden is None:
            cell.metadata.pop("collapsed", None)
        else:
            cell.metadata["collapsed"] = hidden
    nb.metadata["language_info"] = jupyterlab_language_info()


def main(paths):
    if paths[:1] == ["--fold"]:
        for path in paths[1:]:
            fold_verifications(path)
        return
    paths = paths or sorted((ROOT / "chapters").glob("*.ipynb"))
    header = f"{'chapter':32s}" + "".join(f"{p:>18s}" for p in PARTS)
    print(header + "  core path: read / work through")
    print(" " * 32 + "".join(f"{'words/eqs/code':>18s}" for _ in PARTS))
    for path in paths:
        parts = reading_path(load(path))
        row = "".join(
            f"{f'{s.words}/{s.equations}/{s.code_lines}':>18s}"
            for s in parts.values()
        )
        core = parts["core"]
        print(
            f"{Path(path).stem:32s}{row}  about "
            + format_minutes(core.minutes())
            + " / "
            + format_minutes(core.work_minutes())
        )


if __name__ == "__main__":
    main(sys.argv[1:])
