import inspect
import json
import re

import pytest
from IPython.core.formatters import DisplayFormatter

from mllib.notebook import SHARED, _SelfCheck, show_source
from mllib.optim import check_gradient


def test_show_source_shows_the_source_highlighted_in_html_and_as_code_in_the_pdf():
    source = inspect.getsource(check_gradient)
    data, _ = DisplayFormatter().format(show_source(check_gradient))
    assert data["text/plain"] == source.rstrip()
    assert (
        "check_gradient" in data["text/html"] and "<span" in data["text/html"]
    )
    # The PDF edition typesets the Markdown form, a fenced Python block: IPython's LaTeX form
    # needs Pygments macros the book does not define and would be set as an equation.
    assert "text/latex" not in data
    assert data["text/markdown"] == "```python\n" + source.rstrip() + "\n```"


def test_the_fence_is_longer_than_any_run_of_backticks_in_the_source():
    def documented():
        """Quote code with ```python fences```."""

    markdown = show_source(documented)._repr_markdown_()
    assert markdown.startswith("````python\n") and markdown.endswith("\n````")


# --- Self-check questions --------------------------------------------------------

CHOICE = {
    "type": "multiple_choice",
    "question": "Which sign does λ have at an active constraint g ≤ 0?",
    "answers": [
        {"answer": "λ ≥ 0", "correct": True, "feedback": "Yes: ..."},
        {"answer": "λ ≤ 0", "correct": False, "feedback": "That is ..."},
    ],
}
NUMBER = {
    "type": "numeric",
    "question": "What is ‖(3, 4)‖₂?",
    "precision": 3,
    "answers": [
        {"type": "value", "value": 5, "correct": True, "feedback": "√25."},
        {"type": "value", "value": 7, "correct": False, "feedback": "‖·‖₁."},
        {"type": "default", "feedback": "Take the square root of 9 + 16."},
    ],
}


def embedded_questions(page):
    """The questions as jupyterquiz's script receives them."""
    found = re.search(r"var questions = (.*?);\n", page)
    return json.loads(found.group(1))


def with_(original, **changes):
    return {**original, **changes}


def test_self_check_html_holds_the_questions_and_jupyterquiz_script():
    quiz = _SelfCheck([CHOICE, NUMBER])
    page = quiz._repr_html_()
    shown = embedded_questions(page)
    assert shown[0]["answers"][0]["answer"] == "λ ≥ 0"
    assert shown[1]["question"] == "What is ‖(3, 4)‖₂?"
    assert "function show_questions" in page, "jupyterquiz's own script"
    assert "<script src" not in page and "<link" not in page, "self-contained"


def test_every_quiz_shares_the_same_library_which_the_website_serves_once():
    """jupyterquiz's code and style are in elements of their own, the same
    for every quiz, so that the website can serve them once per page; only
    the questions and the element that draws them differ."""
    first, second = (_SelfCheck([q])._repr_html_() for q in (CHOICE, NUMBER))
    shared = re.compile(rf"<(script|style) {SHARED}>.*?</\1>", re.DOTALL)
    assert [m.group(1) for m in shared.finditer(first)] == ["style", "script"]
    assert shared.findall(first) and [
        m.group(0) for m in shared.finditer(first)
    ] == [m.group(0) for m in shared.finditer(second)]
    rest = shared.sub("", first)
    assert len(rest) < 3000, "a quiz's own part is small"
    assert "show_questions" not in rest


def test_jupyterquiz_never_sees_the_pages_mathjax():
    """Self-check text has no maths. jupyterquiz typesets with the page's
    MathJax, and where that has no typeset() (JupyterLab's) loads another
    from a CDN: the library runs with a MathJax of its own, undefined."""
    page = _SelfCheck([CHOICE])._repr_html_()
    library = re.search(rf"<script {SHARED}>(.*?)</script>", page, re.DOTALL)
    assert "(function () {\nvar MathJax;\n" in library.group(1)
    assert "cdn.jsdelivr.net" in library.group(1), "jupyterquiz's own code"


def test_self_check_text_is_escaped_for_html():
    quiz = _SelfCheck(
        [with_(CHOICE, question="Is x < y & y > z <b>bold</b>?")]
    )
    (shown,) = embedded_questions(quiz._repr_html_())
    assert (
        shown["question"]
        == "Is x &lt; y &amp; y &gt; z &lt;b&gt;bold&lt;/b&gt;?"
    )


def test_self_check_markdown_for_the_pdf_sets_the_answers_apart():
    markdown = _SelfCheck([CHOICE, NUMBER])._repr_markdown_()
    questions, answers = markdown.split(":::{container} self-check-answers")
    assert "1. Which sign" in questions and "(a) λ ≥ 0" in questions
    assert "(b) λ ≤ 0" in questions and "2. What is" in questions
    assert "Yes: ..." not in questions and "√25" not in questions
    assert "1. **(a) λ ≥ 0.** Yes: ..." in answers
    assert "2. **5.** √25." in answers


def test_an_answer_ending_a_sentence_gets_no_second_full_stop():
    """The PDF's answer key ends each answer with a full stop, once."""
    ends = with_(
        CHOICE,
        answers=[
            {**CHOICE["answers"][0], "answer": "It diverges."},
            *CHOICE["answers"][1:],
        ],
    )
    answers = (
        _SelfCheck([ends, NUMBER])
        ._repr_markdown_()
        .split(":::{container} self-check-answers")[1]
    )
    assert "1. **(a) It diverges.** Yes: ..." in answers
    assert ".." not in answers.replace("...", "")
    assert "2. **5.** √25." in answers


@pytest.mark.parametrize(
    "question, match",
    [
        (with_(CHOICE, type="string"), "type must be"),
        (with_(CHOICE, question=" "), "no question text"),
        (with_(CHOICE, question="Is $x$ > 0?"), "Unicode"),
        (
            with_(
                CHOICE,
                answers=[{**a, "correct": True} for a in CHOICE["answers"]],
            ),
            "exactly one of them correct",
        ),
        (with_(CHOICE, answers=CHOICE["answers"][:1]), "at least two"),
        (
            with_(
                CHOICE,
                answers=[{**a, "feedback": ""} for a in CHOICE["answers"]],
            ),
            "needs feedback",
        ),
        (with_(NUMBER, answers=NUMBER["answers"][1:]), "correct"),
        (with_(NUMBER, answers=NUMBER["answers"][:2]), "default"),
    ],
)
def test_self_check_rejects_questions_some_viewer_could_not_show(
    question, match
):
    with pytest.raises(ValueError, match=match):
        _SelfCheck([question])


def test_self_check_needs_questions():
    with pytest.raises(ValueError, match="non-empty list"):
        _SelfCheck([])
