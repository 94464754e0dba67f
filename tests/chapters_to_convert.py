"""The chapters not yet converted to the student's path (issue 15) and the
learning website (issue 17): the one list to edit.

The tests of those conventions (tests/test_conventions.py,
``TestConverted`` and ``TestStudentPath``; tests/test_website.py, the
moving-figure and self-check tests) are expected failures for the chapters
listed here, and ordinary tests for every other chapter. When you convert a
chapter (CONTRIBUTING.md, "A student's path" and "The website as a place to
learn"), delete its line in the same commit: its tests then bite.

The tests of what every converted chapter has and no unconverted one has
(the "What you will learn" box, folded verifications, self-check questions,
code cells of at most 79 characters) are strict: a chapter still listed
that passes them fails the run, a reminder to delete its line. The others
(no forward references, corrections in their place, ...) may already hold
before a chapter is converted, so they are not strict.
"""

import pytest

NOT_CONVERTED = set()


def with_conversion_marks(items, stem, ids=None, strict=True):
    """``items`` as pytest parameters, each not-yet-converted chapter's one an
    expected failure; ``stem(item)`` is the chapter's file stem."""
    return [
        pytest.param(
            item,
            id=ids(item) if ids else None,
            marks=pytest.mark.xfail(
                strict=strict,
                reason=f"{stem(item)} is not converted yet "
                "(tests/chapters_to_convert.py)",
            )
            if stem(item) in NOT_CONVERTED
            else (),
        )
        for item in items
    ]
