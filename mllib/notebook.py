"""Helpers for the book's notebooks."""

import functools
import html
import inspect
import json
import re
import uuid


def show_source(obj):
    """Display the source code of an ``mllib`` function or class,
    syntax-highlighted.

    Chapters call this to put the implementation next to the equations it
    implements, so the code on the page is always the code that ran. Outside
    IPython, the source is returned as a string.
    """
    source = inspect.getsource(obj)
    try:
        from IPython.display import Code
    except ImportError:
        return source

    class SourceCode(Code):
        # IPython's LaTeX form uses Pygments macros that the PDF edition does
        # not define, and myst-nb would typeset it as an equation; offer a
        # fenced Markdown block instead, which the PDF highlights like any
        # other code. Jupyter and the website still use the HTML.
        def _repr_latex_(self):
            return None

        def _repr_markdown_(self):
            fence = "`" * max(
                3, 1 + max(map(len, re.findall("`+", self.data)), default=0)
            )
            return f"{fence}python\n{self.data.rstrip()}\n{fence}"

    return SourceCode(source, language="python")


# --- Self-check questions
# ------------------------------------------------------------

QUESTION_TYPES = ("multiple_choice", "numeric")

# jupyterquiz's colours: the book's blue for the question, and answer and
# feedback boxes that bring their own background, so that every text keeps
# its contrast on a light or a dark page, in Jupyter and on the website.
QUIZ_COLOURS = {
    "--jq-multiple-choice-bg": "#0063a0",
    "--jq-numeric-bg": "#0063a0",
    "--jq-mc-button-bg": "#fafafa",
    "--jq-mc-button-border": "#b0b0b0",
    "--jq-numeric-input-bg": "#fafafa",
    "--jq-numeric-input-label": "#fafafa",
    "--jq-correct-color": "#006d3a",
    "--jq-incorrect-color": "#b00020",
    "--jq-text-color": "#fafafa",
}
QUIZ_STYLE = """
.self-check .Quiz { font-size: 1rem; line-height: 1.4; }
.self-check .MCButton { color: #1a1a1a; font-size: 0.95rem; }
.self-check .Input-text { color: #1a1a1a; font-size: 1rem; }
.self-check .InpLabel { color: #1a1a1a; background: #fafafa;
  font-size: 0.95rem; padding: 0 0.5em; border-radius: 0.2em; }
.self-check .Feedback { font-size: 0.95rem; text-align: left;
  margin: 0.4em 0; padding: 0.4em 0.7em; background: #fafafa;
  color: #1a1a1a; border-left: 0.4em solid; border-radius: 0.2em; }
.self-check .Feedback:empty { display: none; }
.self-check .Feedback.correct { border-color: var(--jq-correct-color); }
.self-check .Feedback.incorrect {
  border-color: var(--jq-incorrect-color); }
.self-check .correctButton, .self-check .incorrectButton { color: #fafafa; }
.self-check input.sr-only { position: absolute; opacity: 0; }
"""
# JupyterLab (with jupyterlab-myst) renders each cell on its own, so a
# solution written as solution-start ... solution-end around a code cell is
# a dropdown that ends its markdown cell (the book's only dropdowns of
# exercises are solutions), the code cell after it, and an empty box where
# the next markdown cell ends it; and running a cell unfolds its output
# whatever its metadata says, so that after Run All the solution's output
# shows under its closed dropdown. These rules, which every self-check
# output brings, keep the code cells after a closed solution out of sight
# until the reader opens it, and drop the empty box. On the website and in
# the PDF, which join the solution's parts themselves, nothing matches.
CLOSED_SOLUTION = (
    ".jp-MarkdownCell:has(.myst > details.myst-exercise:last-child"
    ":not([open]))"
)
SOLUTION_STYLE = f"""
{CLOSED_SOLUTION} + .jp-CodeCell,
{CLOSED_SOLUTION} + .jp-CodeCell + .jp-CodeCell,
{CLOSED_SOLUTION} + .jp-CodeCell + .jp-CodeCell + .jp-CodeCell {{
  display: none; }}
.jp-MarkdownCell .myst > aside.myst-exercise:has(
  > .myst-exercise-body:empty) {{ display: none; }}
"""
# jupyterquiz's code, defined once per page however many quizzes show it.
# It typesets its text with the page's MathJax after every answer, and where
# that MathJax has no typeset() (JupyterLab's) it loads MathJax from a CDN.
# Self-check text is plain Unicode (see self_check): there is nothing to
# typeset, so the code gets a MathJax of its own, undefined, and never
# touches the page's.
QUIZ_LIBRARY = """window.mllibSelfCheck =
  window.mllibSelfCheck || (function () {{
var MathJax;
{code}
return {{show: show_questions}};
}})();"""
# Draws one quiz as soon as jupyterquiz's code is there: at once where the
# library came in the same output (Jupyter), after the page is parsed where
# the page loads it once for all its quizzes (the website, see _ext/).
# Nothing waits for MathJax or for the window's load event, which in
# JupyterLab fired long before the cell ran.
QUIZ_RUNNER = """(function () {{
  var host = document.currentScript && document.currentScript.parentNode;
  var questions = {questions};
  function show() {{
    var quiz = (host && host.querySelector("#{id}")) ||
      document.getElementById("{id}");
    if (!quiz || quiz.dataset.shown) return;
    quiz.dataset.shown = "yes";
    window.mllibSelfCheck.show(questions, quiz);
  }}
  if (window.mllibSelfCheck) show();
  else document.addEventListener("DOMContentLoaded", show);
}})();"""
# The attribute that marks the code and style every quiz shares: the
# website serves them once per page instead (_ext/page_assets.py).
SHARED = "data-self-check-library"


def self_check(questions):
    """Display self-check questions with instant feedback, as jupyterquiz does.

    ``questions`` is a list in jupyterquiz's format (its documentation has
    the full form), restricted to what every viewer of the book can show:

    - ``{"type": "multiple_choice", "question": ..., "answers": [{"answer":
      ..., "correct": bool, "feedback": ...}, ...]}`` with exactly one
      correct answer and feedback on every answer (why it is right, or
      what the slip behind it is);
    - ``{"type": "numeric", "question": ..., "precision": digits,
      "answers": [{"type": "value", "value": x, "correct": True,
      "feedback": ...}, ..., {"type": "default", "feedback": ...}]}``: the
      right value (compared to ``precision`` significant digits, or a
      ``"range": [low, high]``), optional wrong values or ranges with their
      feedback, and the feedback for anything else.

    Text is plain text, with maths in Unicode (‖w‖², ∇f, λ ≥ 0), not
    ``$...$``: it then reads the same on the website, in JupyterLab, on
    Colab and in the PDF, which typeset ``$...$`` differently or not at all.

    Jupyter and the website show the quiz (HTML and jupyterquiz's script,
    which needs no network); the PDF edition prints the questions where they
    are and their answers in the appendix (the Markdown form).
    """
    from IPython.display import display

    display(_SelfCheck(questions))


def _check_question(number, question):
    where = f"question {number}"
    kind = question.get("type")
    if kind not in QUESTION_TYPES:
        raise ValueError(
            f"{where}: type must be one of {QUESTION_TYPES}, not {kind!r}."
        )
    answers = question.get("answers") or []
    texts = [question.get("question", "")]
    texts += [
        a.get(key, "") for a in answers for key in ("answer", "feedback")
    ]
    if not texts[0].strip():
        raise ValueError(f"{where}: it has no question text.")
    if any("$" in str(text) for text in texts):
        raise ValueError(
            f"{where}: write maths in Unicode (‖w‖², λ ≥ 0), not $...$: "
            "JupyterLab, Colab and the PDF would show the dollars."
        )
    if any(not a.get("feedback", "").strip() for a in answers):
        raise ValueError(
            f"{where}: every answer needs feedback (why it is right, or "
            "the slip behind it)."
        )
    correct = [a for a in answers if a.get("correct")]
    if kind == "multiple_choice":
        if len(answers) < 2 or len(correct) != 1:
            raise ValueError(
                f"{where}: a multiple-choice question needs at least two "
                f"answers, exactly one of them correct; it has "
                f"{len(answers)} answers, {len(correct)} correct."
            )
        if any(not a.get("answer", "").strip() for a in answers):
            raise ValueError(f"{where}: an answer has no text.")
    else:
        if not correct or not all(
            "value" in a or "range" in a for a in correct
        ):
            raise ValueError(
                f"{where}: a numeric question needs a correct "
                '{"type": "value", "value": ...} or "range" answer.'
            )
        if not any(a.get("type") == "default" for a in answers):
            raise ValueError(
                f"{where}: add {{'type': 'default', 'feedback': ...}}, the "
                "feedback for any other number."
            )


def _escaped(question):
    """The question with its text HTML-escaped (jupyterquiz sets innerHTML)."""
    escaped = dict(question, question=html.escape(question["question"]))
    escaped["answers"] = [
        {
            key: html.escape(value) if key in ("answer", "feedback") else value
            for key, value in answer.items()
        }
        for answer in question["answers"]
    ]
    return escaped


@functools.cache
def _quiz_library():
    """jupyterquiz's style sheet and code, as every quiz shares them: the
    style with the book's colours, the code wrapped in QUIZ_LIBRARY."""
    from importlib.resources import files

    package = files("jupyterquiz")
    scripts = sorted(
        (
            f
            for f in package.joinpath("js").iterdir()
            if f.name.endswith(".js")
        ),
        key=lambda f: f.name,
    )
    colours = "".join(f"{k}: {v}; " for k, v in QUIZ_COLOURS.items())
    style = (
        f".self-check {{ {colours}}}\n"
        + package.joinpath("styles.css").read_text()
        + QUIZ_STYLE
        + SOLUTION_STYLE
    )
    code = "\n".join(f.read_text() for f in scripts)
    for text, end in ((style, "</style"), (code, "</script")):
        if end in text.lower():  # it would end the element early
            raise RuntimeError(f"jupyterquiz's files contain {end}>")
    return style, QUIZ_LIBRARY.format(code=code)


def _letter(k):
    return "abcdefghijklmnopqrstuvwxyz"[k]


def _right_answer(question):
    if question["type"] == "multiple_choice":
        (k,) = [
            k for k, a in enumerate(question["answers"]) if a.get("correct")
        ]
        return f"({_letter(k)}) {question['answers'][k]['answer']}"
    right = next(a for a in question["answers"] if a.get("correct"))
    if "value" in right:
        return f"{right['value']:g}"
    low, high = right["range"]
    return f"any number in [{low:g}, {high:g})"


def _sentence(text):
    """``text`` ending in a full stop, unless it ends a sentence already
    ("(a) It diverges." stays as it is, not "diverges..")."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."


class _SelfCheck:
    """Self-check questions: jupyterquiz's quiz for Jupyter and the website,
    Markdown with the answers set apart for the PDF edition."""

    def __init__(self, questions):
        if not isinstance(questions, (list, tuple)) or not questions:
            raise ValueError("self_check needs a non-empty list of questions.")
        for number, question in enumerate(questions, 1):
            _check_question(number, question)
        self.questions = list(questions)

    def _repr_html_(self):
        quiz_id = "selfcheck" + uuid.uuid4().hex[:12]
        questions = json.dumps(
            [_escaped(q) for q in self.questions], ensure_ascii=False
        )
        style, library = _quiz_library()
        # jupyterquiz reads its options from the quiz's data attributes
        quiz = (
            f'<div id="{quiz_id}" class="self-check" '
            'data-shufflequestions="False" data-shuffleanswers="False" '
            'data-preserveresponses="false" '
            f'data-numquestions="{len(self.questions)}" data-maxwidth="720" '
            'style="border-radius: 6px; text-align: left"></div>'
        )
        runner = QUIZ_RUNNER.format(
            questions=questions.replace("</", "<\\/"), id=quiz_id
        )
        return (
            quiz
            + f"<style {SHARED}>{style}</style>"
            + f"<script {SHARED}>{library}</script>"
            + f"<script>{runner}</script>"
        )

    def _repr_markdown_(self):
        lines = ["**Check your understanding.**", ""]
        answers = []
        for number, question in enumerate(self.questions, 1):
            lines += [f"{number}. {question['question']}", ""]
            if question["type"] == "multiple_choice":
                for k, answer in enumerate(question["answers"]):
                    lines.append(f"   ({_letter(k)}) {answer['answer']}")
                    lines.append("")
            else:
                lines.append("   (A number.)")
            lines.append("")
            right = next(a for a in question["answers"] if a.get("correct"))
            answers.append(
                f"{number}. **{_sentence(_right_answer(question))}** "
                f"{right['feedback']}"
            )
        # The PDF edition moves this container to the appendix.
        fence = ":::"
        return "\n".join(
            [
                *lines,
                f"{fence}{{container}} self-check-answers",
                "",
                *answers,
                fence,
                "",
            ]
        )


# --- Computed numbers in the text
# ----------------------------------------------------------

# The prefix myst-nb's glue gives an output that stores a value for the text
# instead of showing it; the website and the PDF read such outputs back.
GLUE_PREFIX = "application/papermill.record/"


class GluedText:
    """A value the text quotes: shows as its text, without quotes."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.text)


class Glued:
    """The values ``glue`` has recorded, as attributes: ``glued.auc``."""

    def __getattr__(self, name):
        raise AttributeError(
            f"nothing is glued under {name!r}: run the cell that calls "
            f"glue({name}=...) first."
        )


glued = Glued()


def glue(**values):
    """Put numbers a cell computes into the chapter's text.

    ``glue(auc=f"{auc:.2f}")`` records the text ``0.86`` under the name
    ``auc``; a Markdown cell (or a figure caption) then writes
    ``{eval}`glued.auc``` where the number belongs. The text is therefore
    what this run computed, on every machine:

    - on the website and in the PDF, the book's Sphinx extension
      (``_ext/glued_numbers.py``) reads the value from this cell's stored
      output, which is myst-nb's glue format (nothing is shown);
    - in JupyterLab, jupyterlab-myst evaluates ``glued.auc`` in the kernel
      once the cells above have run.

    Values are strings, formatted by the caller (``f"{x:.2f}"``), so that the
    number of digits shown is a decision made next to the computation.
    Names are Python identifiers; gluing a name twice in one chapter is an
    error in the book build (the text could quote either value).
    """
    from IPython.display import display

    for name, text in values.items():
        if not isinstance(text, str):
            raise TypeError(
                f"glue({name}=...) takes the text to show, formatted by "
                f"you, e.g. glue({name}=f'{{value:.3g}}'); got "
                f"{type(text).__name__}."
            )
        setattr(glued, name, GluedText(text))
        display(
            {GLUE_PREFIX + "text/plain": text},
            raw=True,
            metadata={"scrapbook": {"name": name, "mime_prefix": GLUE_PREFIX}},
        )
