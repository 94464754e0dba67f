"""Helpers for the book's notebooks."""

import inspect


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
    return Code(source, language="python")
