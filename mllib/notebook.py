"""Helpers for the book's notebooks."""

import inspect
import re


def show_source(obj):
    """Display the source code of an ``mllib`` function or class, syntax-highlighted.

    Chapters call this to put the implementation next to the equations it implements,
    so the code on the page is always the code that ran. Outside IPython, the source
    is returned as a string.
    """
    source = inspect.getsource(obj)
    try:
        from IPython.display import Code
    except ImportError:
        return source

    class SourceCode(Code):
        # IPython's LaTeX form uses Pygments macros that the PDF edition does not define, and
        # myst-nb would typeset it as an equation; offer a fenced Markdown block instead, which
        # the PDF highlights like any other code. Jupyter and the website still use the HTML.
        def _repr_latex_(self):
            return None

        def _repr_markdown_(self):
            fence = "`" * max(
                3, 1 + max(map(len, re.findall("`+", self.data)), default=0)
            )
            return f"{fence}python\n{self.data.rstrip()}\n{fence}"

    return SourceCode(source, language="python")
