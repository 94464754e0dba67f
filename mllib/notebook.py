"""Helpers for the book's notebooks."""

import html
import inspect
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
QUIZ_STYLE = """<style>
#{id} .Quiz {{ font-size: 1rem; line-height: 1.4; }}
#{id} .MCButton {{ color: #1a1a1a; font-size: 0.95rem; }}
#{id} .Input-text {{ color: #1a1a1a; font-size: 1rem; }}
#{id} .InpLabel {{ color: #1a1a1a; background: #fafafa; font-size: 0.95rem;
  padding: 0 0.5em; border-radius: 0.2em; }}
#{id} .Feedback {{ font-size: 0.95rem; text-align: left; margin: 0.4em 0;
  padding: 0.4em 0.7em; background: #fafafa; color: #1a1a1a;
  border-left: 0.4em solid; border-radius: 0.2em; }}
#{id} .Feedback:empty {{ display: none; }}
#{id} .Feedback.correct {{ border-color: var(--jq-correct-color); }}
#{id} .Feedback.incorrect {{ border-color: var(--jq-incorrect-color); }}
#{id} .correctButton, #{id} .incorrectButton {{ color: #fafafa; }}
#{id} input.sr-only {{ position: absolute; opacity: 0; }}
</style>"""
# On the website the page's MathJax loads after the quiz's script; jupyterquiz
# reads MathJax.version once it exists, so its code runs when MathJax is ready
# (at once where there is no page MathJax, as in JupyterLab). jupyterquiz calls
# MathJax.typeset after each answer, which JupyterLab's MathJax object lacks:
# before each answer, a missing typeset is mapped to typesetPromise (the text
# has no maths to typeset, see self_check).
QUIZ_SCRIPT = """<script>
(function () {{
  function run() {{
{script}
  }}
  function mapTypeset() {{
    var mathjax = window.MathJax;
    if (mathjax && typeof mathjax.typeset !== "function")
      mathjax.typeset = function (elements) {{
        if (typeof mathjax.typesetPromise === "function")
          return mathjax.typesetPromise(elements);
      }};
  }}
  var quiz = document.getElementById("{id}");
  ["click", "keydown", "keypress"].forEach(function (event) {{
    quiz.addEventListener(event, mapTypeset, true);
  }});
  function whenMathJaxIsReady() {{
    var mathjax = window.MathJax;
    if (!mathjax) run();
    else if (mathjax.startup && mathjax.startup.promise)
      mathjax.startup.promise.then(run);
    else window.addEventListener("load", function () {{
      var loaded = window.MathJax;
      if (loaded && loaded.startup && loaded.startup.promise)
        loaded.startup.promise.then(run);
      else run();
    }});
  }}
  whenMathJaxIsReady();
}})();
</script>"""


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
        from jupyterquiz.dynamic import renderer
        from jupyterquiz.dynamic.loader import load_questions_script

        div_id = "selfcheck" + uuid.uuid4().hex[:12]
        questions = [_escaped(q) for q in self.questions]
        prefix, static, url = load_questions_script(questions, div_id)
        div = renderer.render_div(
            div_id,
            shuffle_questions=False,
            shuffle_answers=False,
            preserve_responses=False,
            num=len(questions),
            max_width=720,
            border_radius=6,
            question_alignment="left",
        )
        script = renderer.build_script(prefix, static, url, div_id, True)
        return (
            div
            + "</div>"
            + renderer.build_styles(div_id, QUIZ_COLOURS)
            + QUIZ_STYLE.format(id=div_id)
            + QUIZ_SCRIPT.format(script=script, id=div_id)
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
                f"{number}. **{_right_answer(question)}.** {right['feedback']}"
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
