import inspect

from IPython.core.formatters import DisplayFormatter

from mllib.notebook import show_source
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
