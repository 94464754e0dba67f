"""Grading student notebooks that may be hostile (issues 12 and 22).

The design, in one paragraph: a submission's code runs in a bubblewrap
sandbox (``sandbox``) inside a small harness (``harness``) that executes the
notebook and then only answers calls. A clean process that never runs
student code (``checker``) runs every test itself, with its own numpy, mllib
and references; when a test calls one of the student's functions, the
checker sends the function's name and its arguments to the sandbox and gets
back what it returned, as plain data (``codec``), so no test's code,
expected value or reference ever enters the sandbox. ``submissions`` lists
and reads files (never following a link, never reading past a limit) and
names students, ``flags`` reads the code for attempts on the grading
machinery, ``text`` makes students' text safe to show, ``batch`` grades a
folder into a CSV and feedback files, and ``autograder`` turns a master
notebook into what all of this needs. The commands are
``assignments/build.py`` and ``assignments/grade.py``.
"""
