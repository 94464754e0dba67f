"""A chapter and an assignment as a student meets them in JupyterLab.

The student's path: `pip install -r requirements.txt`, `jupyter lab`, open a notebook in
Chromium, Run All. JupyterLab (from requirements.txt, with jupyterlab-myst and the widget
manager as installed, and default settings) serves a copy of the reference chapter and of an
assignment's student notebook, as `python assignments/build.py` generates it, on 127.0.0.1
with this test's token; every request off the machine is aborted. The checks:

* the chapter runs to the end with no error and nothing on stderr;
* its markdown is rendered: no MyST source (``:label:``, ``{prf:``, ``{eq}``, ``{cite}``,
  fences, ``$$``) and no "not found" citation is visible in any cell;
* a theorem and a proof are titled boxes with typeset maths, a correction box is a box;
* every solution is folded (its dropdown closed, its code cells collapsed) and opens on a
  click;
* moving a slider redraws the figure beside it;
* every self-check question of every chapter is drawn after Run All, and again when the
  saved notebook is opened in a new JupyterLab page (all chapters in one server, one after
  another in one tab; each chapter's kernel is shut down once it has run);
* in the assignment, an answered question's check passes and the export cell writes the
  submission without a warning.

Screenshots of what a student sees go to ``_build/test-artifacts/jupyterlab-*.png``
(``BOOK_TEST_ARTIFACTS`` overrides the folder). benchmarks/bench_jupyterlab_run_all.py
times Run All for every chapter in the same way.
"""

import ast
import difflib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
from lab_session import (
    ERROR_OUTPUTS,
    KERNEL,
    KERNEL_IDLE,
    MARKDOWN_CELLS,
    NOTEBOOK,
    SCROLL_ON,
    SCROLLER,
    JupyterLab,
    bounded,
    open_notebook,
    read_markdown,
    run_all,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "assignments"))

from build import build  # noqa: E402

ARTIFACTS = Path(
    os.environ.get("BOOK_TEST_ARTIFACTS", ROOT / "_build" / "test-artifacts")
)
# The reference chapter: theorems, proofs, correction boxes, exercises and a slider demo.
CHAPTER = "chapters/00-preliminaries.ipynb"
ASSIGNMENT = "gradients-and-duality"
TIMEOUT_MS = 300_000  # Run All takes seconds; the CI machine may be busy
# MyST source a reader must never see: it means a directive or role was not rendered.
RAW_MYST = [
    ":label:",
    ":class:",
    "{prf:",
    "{eq}",
    "{cite}",
    "{doc}",
    "```",
    "$$",
]
expect.set_options(
    timeout=TIMEOUT_MS
)  # its default, 5 s, is short on a busy machine


class Reader:
    """A Chromium tab that can reach 127.0.0.1 only."""

    def __init__(self, browser):
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 900}
        )
        self.left_the_machine = []
        self.context.route("**/*", self._only_loopback)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)

    def _only_loopback(self, route):
        if urlsplit(route.request.url).hostname in ("127.0.0.1", None):
            route.continue_()
        else:
            self.left_the_machine.append(route.request.url)
            route.abort("internetdisconnected")

    def cell(self, index):
        cell = self.page.locator(
            f'{CELLS}[data-windowed-list-index="{index}"]'
        )
        cell.scroll_into_view_if_needed()
        return cell

    def close(self):
        self.context.close()


CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell"


def screenshot(target, name):
    """A picture of an element, or of the page as it is in view."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = getattr(target, "page", target)
    if target is not page:
        target.scroll_into_view_if_needed()
    page.mouse.move(0, 0)  # no hover effect in the picture
    target.screenshot(path=str(ARTIFACTS / f"jupyterlab-{name}.png"))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving what a student has: the chapters and the student notebook."""
    home = tmp_path_factory.mktemp("student")
    shutil.copytree(ROOT / "chapters", home / "chapters")
    # as cloned: only the test of opening opens these (others save theirs)
    shutil.copytree(ROOT / "chapters", home / UNOPENED)
    master = ROOT / "assignments" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    built = build(master, tmp_path_factory.mktemp("built"), release=False)
    shutil.copytree(built / "student", home / "assignment")
    lab = JupyterLab(home, tmp_path_factory.mktemp("jupyter"))
    lab.solutions = built / "solutions" / f"{ASSIGNMENT}.ipynb"
    with lab:
        yield lab


@pytest.fixture(scope="module")
def chapter(browser, lab):
    """The chapter opened and Run All done; its markdown read by scrolling through."""
    reader = Reader(browser)
    open_notebook(reader.page, lab, CHAPTER, TIMEOUT_MS)
    run_all(reader.page, TIMEOUT_MS)
    reader.markdown = read_markdown(reader.page)
    yield reader
    reader.close()


def test_run_all_finishes_without_error_output(chapter):
    errors = chapter.page.evaluate(ERROR_OUTPUTS)
    assert not errors, f"{CHAPTER}: error output after Run All: {errors}"
    not_run = chapter.page.evaluate(
        f"() => [...{NOTEBOOK}.content.model.cells]"
        ".filter(c => c.type === 'code' && c.sharedModel.getSource().trim()"
        " && c.executionCount === null).length"
    )
    assert not_run == 0, f"{not_run} code cells did not run"
    assert not chapter.left_the_machine, chapter.left_the_machine


def test_markdown_is_rendered_not_shown_as_source(chapter):
    expected = chapter.page.evaluate(MARKDOWN_CELLS)
    missing = set(expected) - set(chapter.markdown)
    assert expected and not missing, f"markdown cells not rendered: {missing}"
    for index, text in chapter.markdown.items():
        for raw in RAW_MYST:
            assert raw not in text, (
                f"cell {index} shows {raw!r}: {text[max(0, text.find(raw) - 200) :][:400]}"
            )
    not_found = chapter.page.locator('.myst [title="Citation Not Found"]')
    assert not_found.count() == 0, not_found.all_inner_texts()


def boxes(page, kind, title):
    """The rendered boxes of one kind (proof, admonition) whose title matches."""
    return page.locator(f"{CELLS} .myst-{kind}").filter(
        has=page.locator(f".myst-{kind}-header", has_text=re.compile(title))
    )


def test_theorems_and_proofs_are_titled_boxes_with_typeset_maths(chapter):
    theorems = boxes(chapter.page, "proof", r"^Theorem \d+")
    proofs = boxes(chapter.page, "proof", r"^Proof")
    assert theorems.count() >= 1 and proofs.count() >= 1
    for box in (theorems.first, proofs.first):
        assert box.locator(".katex").count() >= 1, box.inner_text()
    screenshot(theorems.first, "theorem")
    screenshot(proofs.first, "proof")


def test_correction_boxes_are_boxes(chapter):
    corrections = boxes(chapter.page, "admonition", r"^Correction$")
    assert corrections.count() >= 1
    screenshot(corrections.first, "correction")


def solution_starts(page):
    """Indices of the cells holding a solution's start (from the notebook's
    model, as JupyterLab holds it)."""
    return page.evaluate(f"""() => [...{NOTEBOOK}.content.model.cells]
      .map((c, i) => c.type === 'markdown'
        && c.sharedModel.getSource().includes('{{solution-start}}') ? i : -1)
      .filter(i => i >= 0)""")


# Where a reader clicks a solution's summary: at its left end, the marker
# (its middle is the link to the exercise, which navigates instead).
AT_THE_MARKER = {"x": 4, "y": 8}


def test_solutions_are_folded_until_asked_for(chapter):
    page = chapter.page
    starts = solution_starts(page)
    code = gated_solution_code(CHAPTER)  # code cell -> its solution's start
    assert len(starts) >= 3 and code, (starts, code)
    for index in starts:
        dropdown = chapter.cell(index).locator("details.myst-exercise").last
        expect(dropdown.locator("summary")).to_contain_text("Solution to")
        expect(dropdown).not_to_have_attribute("open", re.compile(".*"))
        expect(dropdown.locator(".details-body")).to_be_hidden()
    for index in code:  # out of sight with their closed solution
        expect(
            page.locator(f'{CELLS}[data-windowed-list-index="{index}"]')
        ).to_be_hidden()
    index, start = next(iter(code.items()))
    chapter.cell(start).evaluate("cell => cell.scrollIntoView()")
    screenshot(page, "solution-folded")  # the exercise, its folded solution
    # A click opens the solution, as a reader asks for it: its code cell
    # shows, folded to a line, and opens on a click too.
    dropdown = chapter.cell(start).locator("details.myst-exercise").last
    dropdown.locator("summary").click(position=AT_THE_MARKER)
    expect(dropdown.locator(".details-body")).to_be_visible()
    placeholder = chapter.cell(index).locator(".jp-InputPlaceholder")
    expect(placeholder).to_be_visible()
    placeholder.click()
    expect(chapter.cell(index).locator(".jp-InputArea-editor")).to_be_visible()
    screenshot(page, "solution-opened")
    # The markdown cell after the code starts with the solution's end, which
    # jupyterlab-myst draws as an empty box: not shown.
    end = chapter.cell(index + 1).locator(".myst > aside.myst-exercise").first
    expect(end).to_be_attached()
    expect(end.locator(".myst-exercise-body")).to_be_empty()
    expect(end).to_be_hidden()


# the frame an interactive_figure shows: the one image of its Stack in view
SHOWN_FRAME = """demo => Array.from(demo.querySelectorAll("img"))
    .filter(img => img.checkVisibility())
    .map(img => img.getAttribute("src"))"""


def test_moving_a_slider_shows_another_frame(chapter):
    # mllib.plotting.interactive_figure: sliders over frames drawn in
    # advance, swapped by the output's own script, so the figure moves
    # with no kernel
    demo = chapter.page.locator(f"{CELLS} .interactive-figure").first
    demo.scroll_into_view_if_needed()
    before = demo.evaluate(SHOWN_FRAME)
    assert len(before) == 1, f"one frame in view, not {len(before)}"
    slider = demo.locator("input[type=range]").first
    slider.focus()
    for _ in range(5):
        slider.press("ArrowRight")
    chapter.page.wait_for_function(
        f"([demo, before]) => {{ const shown = ({SHOWN_FRAME})(demo);"
        " return shown.length === 1 && shown[0] !== before; }",
        arg=[demo.element_handle(), before[0]],
    )
    screenshot(demo, "slider-moved")


# --------------------------------------------------------------------------- every quiz

CHAPTERS = sorted(
    path.relative_to(ROOT).as_posix()
    for path in (ROOT / "chapters").glob("*.ipynb")
)
# The quizzes (mllib.notebook.self_check) in the notebook in view: each one's
# questions, if jupyterquiz drew them.
QUIZZES = f"""() => [...{NOTEBOOK}.content.node.querySelectorAll('[id^="selfcheck"]')]
  .map(quiz => quiz.querySelectorAll('.Quiz').length)"""
OPEN = bounded(
    """path => window.jupyterapp.commands.execute('docmanager:open', {path})
  .then(() => true)"""
)
# JupyterLab has started (after page.goto): its commands can be run.
STARTED = (
    """() => window.jupyterapp?.commands?.hasCommand('docmanager:open')"""
)
OPENED = f"""path => {NOTEBOOK}?.context?.path === path && {NOTEBOOK}.context.isReady"""
# The tab of the notebook just opened: a click on it, as a reader's, gives it the focus
# that makes it JupyterLab's current widget (opening alone does not, headless).
OPENED_TAB = "#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current"
CLOSE = bounded(
    f"""async save => {{
  const notebook = {NOTEBOOK};
  if (save) await notebook.context.save();
  await notebook.sessionContext.shutdown();
  notebook.dispose();
}}"""
)


def lab_home(lab):
    """JupyterLab with no document open (its /lab/tree/ with no path is a
    "Path Not Found" dialog, which keeps every notebook from the focus)."""
    return f"http://127.0.0.1:{lab.port}/lab?reset&token={lab.token}"


def open_chapter(page, path):
    page.evaluate(OPEN, path)
    page.locator(OPENED_TAB).click()
    page.wait_for_function(OPENED, arg=path)


def self_check_calls(path):
    """The questions of each self_check(...) in a chapter, from its source."""
    cells = json.loads((ROOT / path).read_text())["cells"]
    return [
        len(ast.literal_eval(node.args[0]))
        for cell in cells
        if cell["cell_type"] == "code"
        for node in ast.walk(ast.parse("".join(cell["source"])))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "self_check"
    ]


def drawn(page, expected):
    """The questions drawn per quiz once all are (or after a minute, as many
    as there are: an undrawn quiz never draws by waiting)."""
    try:
        page.wait_for_function(
            f"expected => JSON.stringify(({QUIZZES})()) === JSON.stringify(expected)",
            arg=expected,
            timeout=60_000,
        )
    except PlaywrightTimeout:
        pass
    return page.evaluate(QUIZZES)


def gated_solution_code(path):
    """The code cells of a chapter's solutions, by index, each with the index
    of the markdown cell that opens its solution (sphinx-exercise's
    solution-start ... solution-end around code cells), from its source."""
    cells = json.loads((ROOT / path).read_text())["cells"]
    found, start = {}, None
    for index, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            markers = re.findall(
                r"```\{(solution-start|solution-end)\}", source
            )
            if markers:
                start = index if markers[-1] == "solution-start" else None
        elif start is not None:
            found[index] = start
    return found


# What a reader sees of a solution's code cell: its code and its output (if
# it has one), each shown or folded to a line.
SOLUTION_CODE_SHOWN = f"""index => {{
  const node = {NOTEBOOK}.content.widgets[index].node;
  const shown = selector => [...node.querySelectorAll(selector)]
    .some(e => e.checkVisibility() && e.getBoundingClientRect().height > 0);
  return {{
    code: shown('.jp-InputPlaceholder, .jp-InputArea-editor'),
    // an output (text or figure), or the line it is folded to
    output: shown('.jp-OutputArea-output, .jp-OutputPlaceholder'),
    has_output: {NOTEBOOK}.content.model.cells.get(index).outputs.length > 0,
  }};
}}"""


def shown_once_in_view(page, index):
    """SOLUTION_CODE_SHOWN for a cell scrolled into view, once its code and
    its output (if it has one) show, or after 20 s: the notebook renders a
    cell's contents only near the view."""
    page.evaluate(  # not Playwright's scrolling, which waits for it to show
        f"index => {NOTEBOOK}.content.widgets[index].node"
        ".scrollIntoView({block: 'center'})",
        index,
    )
    try:
        page.wait_for_function(
            f"""index => {{
              const seen = ({SOLUTION_CODE_SHOWN})(index);
              return seen.code && seen.output === seen.has_output;
            }}""",
            arg=index,
            timeout=20_000,
            polling=250,
        )
    except PlaywrightTimeout:
        pass  # what shows then is reported
    return page.evaluate(SOLUTION_CODE_SHOWN, index)


# jupyterlab-myst draws a markdown cell again, as a new element, while the
# notebook's other cells render (for seconds after a notebook opens), and a
# redrawn dropdown is closed. A dropdown counts as settled once the same
# element has stayed for 2 s.
DROPDOWN_SETTLED = f"""start => {{
  const found = {NOTEBOOK}.content.widgets[start].node
    .querySelectorAll('.myst > details.myst-exercise');
  const details = found[found.length - 1];
  if (!details) return false;
  details.dataset.drawnAt = details.dataset.drawnAt || Date.now();
  return Date.now() - details.dataset.drawnAt > 2000;
}}"""


def solutions_seen(page, path):
    """For each solution's code cell: what shows of its code and output
    while its solution is closed, and once the solution is opened (then
    closed again); or why it could not be seen. Once every cell is rendered,
    each solution's dropdown is brought into view, left to settle
    (DROPDOWN_SETTLED) and opened through its ``open`` property (the click
    itself is test_solutions_are_folded_until_asked_for's); if a redraw
    closes it meanwhile, it is opened again, up to three times."""
    by_start = {}
    for index, start in gated_solution_code(path).items():
        by_start.setdefault(start, []).append(index)
    page.wait_for_function(
        f"() => !{NOTEBOOK}.content.widgets.some(w => w.isPlaceholder())",
        timeout=120_000,
        polling=500,
    )
    seen = {}
    for start, indices in by_start.items():
        cell = page.locator(f'{CELLS}[data-windowed-list-index="{start}"]')
        dropdown = cell.locator(".myst > details.myst-exercise").last
        for attempt in range(1, 4):
            try:
                cell.scroll_into_view_if_needed()
                page.wait_for_function(
                    DROPDOWN_SETTLED, arg=start, timeout=60_000, polling=250
                )
            except PlaywrightTimeout:
                found = {"error": f"cell {start} drew no dropdown"}
                break
            was_open = dropdown.evaluate("details => details.open")
            closed = [page.evaluate(SOLUTION_CODE_SHOWN, i) for i in indices]
            dropdown.evaluate("details => { details.open = true; }")
            opened = [shown_once_in_view(page, i) for i in indices]
            redrawn = not dropdown.evaluate("details => details.open")
            dropdown.evaluate("details => { details.open = false; }")
            found = {"open at first": was_open, "attempts": attempt}
            if not redrawn:
                break
        for k, index in enumerate(indices):
            seen[index] = dict(found)
            if "error" not in found:
                seen[index].update(closed=closed[k], opened=opened[k])
    return seen


@pytest.fixture(scope="class")
def quizzes_drawn(request, browser, lab):
    """Every chapter of the class's share run (Run All) and saved, one after
    another in one JupyterLab page, then every one of them opened again in
    a new page: the questions drawn per quiz, and what shows of each
    solution's code, each time, by chapter."""
    chapters = request.cls.CHAPTERS
    found = {}
    reader = Reader(browser)
    try:
        page = reader.page
        page.goto(lab_home(lab))
        page.wait_for_function(STARTED)
        for path in chapters:
            open_chapter(page, path)
            page.wait_for_function(KERNEL_IDLE, polling=250)
            run_all(page, TIMEOUT_MS)
            found[path] = {
                "expected": self_check_calls(path),
                "after Run All": drawn(page, self_check_calls(path)),
                "errors": page.evaluate(ERROR_OUTPUTS),
                "solutions after Run All": solutions_seen(page, path),
            }
            page.evaluate(CLOSE, True)  # saved, and its kernel shut down
        page.goto(lab_home(lab))  # a new JupyterLab page, as the next day
        page.wait_for_function(STARTED)
        for path in chapters:
            open_chapter(page, path)
            found[path]["after reopening"] = drawn(
                page, self_check_calls(path)
            )
            found[path]["solutions after reopening"] = solutions_seen(
                page, path
            )
            page.evaluate(CLOSE, False)
        found["left the machine"] = reader.left_the_machine
    finally:
        reader.close()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    share = request.cls.__name__
    (ARTIFACTS / f"jupyterlab-quizzes-{share}.json").write_text(
        json.dumps(found, indent=1)
    )
    return found


def test_every_chapter_has_quizzes_to_check():
    """Guards the tests below against checking nothing."""
    assert all(self_check_calls(path) for path in CHAPTERS), CHAPTERS
    with_code = [path for path in CHAPTERS if gated_solution_code(path)]
    assert len(with_code) >= 10, with_code


class QuizzesDraw:
    """jupyterquiz drew every question of every quiz: in the page where the
    chapter ran, and when the saved notebook is opened again. (It once
    waited for the window's load event, long past in JupyterLab: after Run
    All most quizzes were an empty strip.) The chapters are shared between
    two classes, so that two test workers run them at once (conftest.py at
    the root makes each class a unit of work)."""

    CHAPTERS = []

    def test_every_quiz_draws_after_run_all_and_after_reopening(
        self, quizzes_drawn, path
    ):
        found = quizzes_drawn[path]
        assert not found["errors"], f"{path}: {found['errors']}"
        for moment in ("after Run All", "after reopening"):
            assert found[moment] == found["expected"], (
                f"{path}, {moment}: questions drawn per quiz "
                f"{found[moment]}, expected {found['expected']}"
            )
        assert not quizzes_drawn["left the machine"], quizzes_drawn[
            "left the machine"
        ]

    def test_solution_code_shows_only_in_an_opened_solution(
        self, quizzes_drawn, path
    ):
        """JupyterLab renders each cell alone: a solution's code cells follow
        its (empty) dropdown, and running a cell unfolds its output whatever
        its metadata says. They must stay out of sight while the solution is
        closed, and show, with their output, once it is opened."""
        found = quizzes_drawn[path]
        for moment in ("after Run All", "after reopening"):
            for index, seen in found[f"solutions {moment}"].items():
                assert "error" not in seen, f"{path}, {moment}: {seen}"
                assert not seen["open at first"], f"{path}, {moment}: {seen}"
                closed, opened = seen["closed"], seen["opened"]
                assert not closed["code"] and not closed["output"], (
                    f"{path}, {moment}: cell {index} of a closed solution "
                    f"shows {seen['closed']}"
                )
                assert opened["code"], seen
                assert opened["output"] == opened["has_output"], (
                    f"{path}, {moment}: cell {index} of an opened solution "
                    f"shows {seen['opened']}"
                )


@pytest.mark.parametrize("path", CHAPTERS[0::2])
class TestQuizzesDrawInEvenChapters(QuizzesDraw):
    CHAPTERS = CHAPTERS[0::2]


@pytest.mark.parametrize("path", CHAPTERS[1::2])
class TestQuizzesDrawInOddChapters(QuizzesDraw):
    CHAPTERS = CHAPTERS[1::2]


# ---------------------------------------------------------------- opening changes nothing

UNOPENED = "as-cloned"  # the lab's copy of chapters/ that no other test saves
# What JupyterLab holds for the notebook in view once its kernel has started:
# whether its tab is marked modified, and the language_info the kernel gave.
OPENED_STATE = bounded(f"""async () => {{
  const notebook = {NOTEBOOK};
  const info = await notebook.sessionContext.session.kernel.info;
  return {{
    dirty: notebook.context.model.dirty,
    tab_marked: document.querySelector('{OPENED_TAB}')
      .classList.contains('jp-mod-dirty'),
    kernel_language_info: info.language_info,
  }};
}}""")
# The kernel's reply to its info request is in.
KERNEL_INFO = bounded(f"async () => {{ await {KERNEL}.info; }}")


OPENED_CHAPTERS = [CHAPTERS[0], CHAPTERS[8], CHAPTERS[-1]]


def read_through(page):
    """Scroll from the top to the end, so that every cell is rendered."""
    page.evaluate(f"() => {{ {SCROLLER}.scrollTop = 0; }}")
    while not page.evaluate(SCROLL_ON):
        page.wait_for_timeout(100)


def test_opening_a_chapter_changes_nothing_but_the_python_version(
    browser, lab
):
    """A reader opens each chapter, reads it through and runs nothing:
    what JupyterLab would save is the committed file, byte for byte, but for
    one line, the version of Python in `language_info`: JupyterLab writes
    the kernel's on every kernel start and marks the tab modified when it
    differs (jupyter/notebook#2123), and no one value serves every reader's
    machine (tests/test_conventions.py keeps the rest of the kernel's
    `language_info`, the `collapsed` mirror of `outputs_hidden` that
    JupyterLab keeps, and nbformat's layout in the committed files). The
    Colab install cell's source is hidden. Three chapters, the first, one
    with typed-number metadata and the last: tests/test_conventions.py
    checks that every chapter is stored in the form this test sees
    JupyterLab save (reading each chapter through in a browser costs about
    20 s of CPU a chapter)."""
    reader = Reader(browser)
    found = {}
    try:
        page = reader.page
        page.goto(lab_home(lab))
        page.wait_for_function(STARTED)
        for chapter in OPENED_CHAPTERS:
            path = f"{UNOPENED}/{Path(chapter).name}"
            open_chapter(page, path)
            page.wait_for_function(KERNEL_IDLE, polling=250)
            page.evaluate(KERNEL_INFO)
            read_through(page)
            page.wait_for_timeout(1000)  # anything JupyterLab does late
            install = reader.cell(0)
            expect(install.locator(".jp-InputPlaceholder")).to_be_visible()
            expect(install.locator(".jp-InputArea-editor")).to_be_hidden()
            state = page.evaluate(OPENED_STATE)
            page.evaluate(CLOSE, True)  # saved as an autosave would
            committed = nbformat.reads(
                (ROOT / chapter).read_text(encoding="utf-8"),
                as_version=nbformat.NO_CONVERT,
            )
            language_info = state["kernel_language_info"]
            differs = committed.metadata.language_info != language_info
            committed.metadata.language_info = language_info
            expected = nbformat.writes(committed) + "\n"
            saved = (lab.root / path).read_text(encoding="utf-8")
            found[chapter] = {
                "saved as committed, with the kernel's language_info": saved
                == expected,
                "tab marked modified": state["tab_marked"],
                "model dirty": state["dirty"],
                "language_info differs": differs,
            }
            assert saved == expected, (
                f"{chapter}: opening it changes more than the Python "
                "version:\n"
                + "".join(
                    list(
                        difflib.unified_diff(
                            expected.splitlines(True),
                            saved.splitlines(True),
                            "committed",
                            "saved by JupyterLab",
                        )
                    )[:60]
                )
            )
            # marked modified, if at all, for the version alone
            assert differs or not state["dirty"], found[chapter]
        assert not reader.left_the_machine, reader.left_the_machine
    finally:
        reader.close()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "jupyterlab-opening.json").write_text(
            json.dumps(found, indent=1)
        )


# --------------------------------------------------------------------------- an assignment


def first_answer(solutions):
    """The solution of the first question: the code cell before `grader.check("q1")`."""
    cells = json.loads(Path(solutions).read_text())["cells"]
    check = next(
        i
        for i, c in enumerate(cells)
        if "".join(c["source"]).startswith('grader.check("q1")')
    )
    solution = "".join(cells[check - 1]["source"])
    # otter's markers are not something a student types
    solution = re.sub(r"\n *# (BEGIN|END) SOLUTION(?=\n)", "", solution)
    return re.sub(r" *# SOLUTION$", "", solution, flags=re.MULTILINE)


def outputs(page, index):
    return page.evaluate(
        f"() => {NOTEBOOK}.content.model.cells.get({index}).outputs.toJSON()"
    )


def run_cell(reader, index):
    """Select a cell with a click and run it with Shift+Enter; wait until it
    has run (its execution count changed: Run All may have run it before)
    and the kernel is idle again, and return the cell's outputs."""
    cell = f"{NOTEBOOK}.content.model.cells.get({index})"
    before = reader.page.evaluate(f"() => {cell}.executionCount")
    reader.cell(index).locator(".jp-InputPrompt").first.click()
    reader.page.keyboard.press("Shift+Enter")
    reader.page.wait_for_function(
        f"before => {cell}.executionCount !== null"
        f" && {cell}.executionCount !== before && ({KERNEL_IDLE})()",
        arg=before,
    )
    return outputs(reader.page, index)


def shown(outputs):
    return "\n".join(
        "".join(o.get("text", "")) + json.dumps(o.get("data", {}))
        for o in outputs
    )


def test_an_answered_question_passes_and_the_submission_exports(browser, lab):
    reader = Reader(browser)
    try:
        page = reader.page
        open_notebook(page, lab, f"assignment/{ASSIGNMENT}.ipynb", TIMEOUT_MS)
        run_all(page, TIMEOUT_MS)  # which also runs the export cell once
        warnings = page.evaluate(ERROR_OUTPUTS)
        assert not warnings, f"Run All shows a warning or an error: {warnings}"
        sources = page.evaluate(
            f"() => [...{NOTEBOOK}.content.model.cells].map(c => c.sharedModel.getSource())"
        )
        check = sources.index('grader.check("q1")')
        export = next(  # the cell that calls it, not a comment naming it
            i
            for i, s in enumerate(sources)
            if re.search(r"^grader\.export\(", s, re.M)
        )
        assert "failed" in shown(outputs(page, check)), "q1 passes unanswered"

        # Answer question 1: type the solution into its cell, as a student would.
        reader.cell(check - 1).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Control+A")
        page.keyboard.insert_text(first_answer(lab.solutions))
        page.keyboard.press("Escape")
        run_cell(reader, check - 1)
        result = shown(run_cell(reader, check))
        assert "passed" in result and "failed" not in result, result
        reader.cell(check - 1).evaluate("cell => cell.scrollIntoView()")
        screenshot(page, "assignment-check-passed")

        page.keyboard.press("Control+S")  # "save before exporting"
        exported = run_cell(reader, export)
        warnings = [
            o for o in exported if o.get("name") == "stderr" or "ename" in o
        ]
        assert not warnings, f"the export cell shows a warning: {warnings}"
        assert ".zip" in shown(exported), shown(exported)
        reader.cell(export).locator(".jp-OutputArea-child").last.evaluate(
            "output => output.scrollIntoView({block: 'end'})"
        )
        screenshot(page, "assignment-exported")
        assert not reader.left_the_machine, reader.left_the_machine
    finally:
        reader.close()


# --- Numbers as on the website (issue 25 item 5) ---------------------------
NUMBERED_CHAPTER = "chapters/06-support-vector-machines.ipynb"
# A numbered block's opening and its options; a display's label.
NUMBERED_BLOCK = re.compile(
    r"^[ \t]*(?:`{3,}|:{3,})\{(?:prf:(\w+)|(exercise))\}[^\n]*\n"
    r"((?:[ \t]*:.*\n)*)",
    re.M,
)
DISPLAY_LABEL = re.compile(r"\$\$\s*\(([\w-]+)\)")
# Per rendered markdown cell: the references in it, by target and text, and
# what it shows for a reference it could not resolve or a numbered proof.
REFERENCES = f"""() => Object.fromEntries(
  [...{NOTEBOOK}.content.node.querySelectorAll('.jp-MarkdownCell')]
  .map(cell => [cell.dataset.windowedListIndex,
                cell.querySelector('.jp-InputArea .myst')])
  .filter(([, rendered]) => rendered)
  .map(([index, rendered]) => [index, {{
    links: [...rendered.querySelectorAll('a')]
      .map(a => [a.getAttribute('href'),
           a.textContent.replace(/\\s+/g, ' ').trim()]),
    missing: [...rendered.querySelectorAll(
      '[title="Cross Reference Not Found"]')].map(e => e.textContent),
    proofs: rendered.textContent.match(/\\bProof\\s\\d+/g) || [],
  }}]))"""


def website_numbers(path):
    """label -> the number the website prints for a reference to it: Sphinx
    numbers each kind of theorem-like block, exercises and labelled displays
    in the order they appear, after the chapter's number ("Lemma 6.1",
    "(6.4)"); unnumbered blocks and unlabelled displays take none."""
    chapter = int(Path(path).name[:2])
    markdown = "\n".join(
        "".join(cell["source"])
        for cell in json.loads((ROOT / path).read_text())["cells"]
        if cell["cell_type"] == "markdown"
    )
    found = [
        (m.start(), m.group(1) or m.group(2), m.group(3))
        for m in NUMBERED_BLOCK.finditer(markdown)
        if m.group(1) != "proof" and ":nonumber:" not in m.group(3)
    ]
    found += [
        (m.start(), "eq", f":label: {m.group(1)}")
        for m in DISPLAY_LABEL.finditer(markdown)
    ]
    counts, numbers = {}, {}
    for _, kind, options in sorted(found):
        counts[kind] = counts.get(kind, 0) + 1
        label = re.search(r":label:\s*(\S+)", options)
        number = f"{chapter}.{counts[kind]}"
        if label:
            numbers[label.group(1)] = (
                f"({number})" if kind == "eq" else f"{kind.title()} {number}"
            )
    return numbers


def test_a_chapter_numbers_and_references_as_the_website(browser, lab):
    """A student in JupyterLab and a classmate on the website say "Lemma 6.1"
    and "(6.4)" and mean the same thing: every reference within the chapter
    gives the website's number, no reference shows as a bare label, no
    proof is titled "Proof 1", and a reference to another chapter reads as
    its typed text (the website build checks that number). One chapter,
    opened and read through, not run."""
    reader = Reader(browser)
    try:
        page = reader.page
        open_notebook(page, lab, NUMBERED_CHAPTER, TIMEOUT_MS)
        cells = {}
        count = page.evaluate(f"() => {NOTEBOOK}.content.model.cells.length")
        for index in range(count):  # JupyterLab renders a cell in view only
            page.evaluate(
                f"async i => {{ await {NOTEBOOK}.content.scrollToItem(i); }}",
                index,
            )
            page.wait_for_timeout(50)
            cells.update(page.evaluate(REFERENCES))
        expected = website_numbers(NUMBERED_CHAPTER)
        shown = [link for cell in cells.values() for link in cell["links"]]
        within = [
            (href[1:], text)
            for href, text in shown
            if href and href.startswith("#") and href[1:] in expected
        ]
        assert len(within) > 50, f"only {len(within)} references read"
        wrong = [
            f"{label}: {text!r}, the website {expected[label]!r}"
            for label, text in within
            if text != expected[label]
        ]
        assert not wrong, "numbers differ from the website's:\n" + "\n".join(
            wrong
        )
        missing = [m for cell in cells.values() for m in cell["missing"]]
        assert not missing, f"references shown as bare labels: {missing}"
        proofs = [p for cell in cells.values() for p in cell["proofs"]]
        assert not proofs, f"numbered proofs: {proofs}"
        elsewhere = [
            text
            for href, text in shown
            if href and re.search(r"\d\d-[\w-]+\.ipynb[^#]*#", href)
        ]
        assert elsewhere and all(re.search(r"\d", t) for t in elsewhere), (
            elsewhere
        )
        assert not reader.left_the_machine, reader.left_the_machine
    finally:
        reader.close()
