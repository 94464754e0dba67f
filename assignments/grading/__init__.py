"""Grading student notebooks that may be hostile (issue 12).

The design, in one paragraph: a submission's code runs in a bubblewrap
sandbox (``sandbox``) inside a small harness (``harness``) that executes the
notebook and then calls the student's functions from the tests' code,
reporting only what they returned, as plain data (``codec``). A clean
process that never runs student code (``checker``) runs the same tests with
its own numpy, mllib and references, replaying those recorded values in
place of the student's functions, and decides. ``submissions`` reads and
validates files and names students, ``flags`` reads the code for attempts
on the grading machinery, ``batch`` grades a folder into a CSV and feedback
files, and ``autograder`` turns a master notebook into what all of this
needs. The commands are ``assignments/build.py`` and ``assignments/grade.py``.
"""
