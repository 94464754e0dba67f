"""The website as a reader meets it: the built book in headless Chromium, with the network cut.

Every page in `_toc.yml` is served from `_build/html` on 127.0.0.1 and opened in Chromium
(driven by Playwright, using the system's browser). A route handler aborts every request that
does not go to 127.0.0.1, so a page that still needs a CDN fails here exactly as it would for
a reader without a network. The checks, per page unless noted:

* it loads with no console error, no failed request and no attempt to leave the machine,
  and weighs at most 3 MB (everything it transfers, read to the end);
* display math is typeset by MathJax, with no raw ``$$`` / ``\\[`` and no MathJax error left;
  every display fits its column beside its number, at 1280 pixels and on a phone (390);
* every image loads and has alt text or a caption;
* outputs need no widget manager: progress bars show their final state, interactive
  figures their sliders and start frame;
* (chapters) exercise solutions start hidden and open on a click; a folded cell keeps its
  summary when opened;
* (chapters) code cells, the mllib source a chapter shows and the outputs it prints fit the
  column;
* (chapters) every interactive figure's sliders move its picture, and every self-check
  question answers right and wrong, in both themes;
* (chapters) the Binder and Colab links open this repository, branch and notebook;
* a book configured with a course's JupyterHub offers nbgitpuller's link to the chapter
  (a one-chapter build);
* (chapters) after the theme switch to dark, figures stay opaque and equations keep their
  contrast with the page, as they do in the light theme;
* the search page finds the chapters whose text uses a given word;
* the execution report lists every chapter with its run time.

Screenshots for review go to ``_build/test-artifacts/`` (``BOOK_TEST_ARTIFACTS`` overrides),
with each page's weight and how its display equations fit a phone (``page-weight/``,
``equations/``).

The site is built from clean once per test run, into ``_build/test-site/``
(the ``site`` fixture in conftest.py; all xdist workers share that build).
Each page is loaded once, in the light theme at 1280 pixels, and shared by all its checks,
which run one page after another (conftest.py orders them): MathJax typesetting a long
chapter is the slow part. The dark theme and the phone width are reached on the same page,
as a reader does, by the theme switch and by resizing the window; a check that changes the
page puts it back as it found it.
"""

import ast
import copy
import functools
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
import yaml
from chapters_to_convert import with_conversion_marks
from sphinx_external_toc.parsing import parse_toc_yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
PAGES = list(parse_toc_yaml(ROOT / "_toc.yml").keys())
CHAPTERS = [page for page in PAGES if (ROOT / f"{page}.ipynb").exists()]
INDEX = PAGES[0]  # the root page; index.html redirects to it
PRELIMINARIES = "chapters/00-preliminaries"
ARTIFACTS = Path(
    os.environ.get("BOOK_TEST_ARTIFACTS", ROOT / "_build" / "test-artifacts")
)

# Words a reader might search for; each is tested once some chapter's prose uses it
# ("representer" arrives with the kernels chapter).
SEARCH_WORDS = ["Lagrangian", "representer"]
MIN_CONTRAST = 4.5  # WCAG AA for body text
TIMEOUT_MS = 120_000  # generous: a long chapter typesets in seconds, but the CI machine may be busy
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
MAX_PAGE_BYTES = 3_000_000  # 3 MB, everything a page transfers (uncompressed: the test server)


def chapter_markdown(page):
    cells = json.loads((ROOT / f"{page}.ipynb").read_text())["cells"]
    return "\n".join(
        "".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
    )


SEARCHES = {
    word: pages
    for word in SEARCH_WORDS
    if (
        pages := [
            page
            for page in CHAPTERS
            if re.search(rf"\b{word}\b", chapter_markdown(page), re.I)
        ]
    )
}


# --------------------------------------------------------------------------- the site


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def server(site):
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class Visit:
    """One page opened offline, with everything that went wrong on the way recorded."""

    def __init__(self, browser, url, theme="light", lands_on=None):
        self.context = browser.new_context(
            viewport=DESKTOP, color_scheme=theme
        )
        self.errors, self.left_the_machine, self.failed = [], [], []
        self.context.route("**/*", self._only_loopback)
        self.page = self.context.new_page()
        self.page.on(
            "console",
            lambda m: (
                m.type == "error" and self.errors.append(f"console: {m.text}")
            ),
        )
        self.page.on(
            "pageerror", lambda e: self.errors.append(f"uncaught: {e}")
        )
        self.page.on(
            "requestfailed",
            lambda r: (
                r.url not in self.left_the_machine
                and self.failed.append(f"{r.url} ({r.failure})")
            ),
        )
        self.page.on(
            "response",
            lambda r: (
                r.status >= 400
                and self.failed.append(f"{r.url} (HTTP {r.status})")
            ),
        )
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.goto(url, wait_until="load")
        if (
            lands_on
        ):  # a redirecting page: wait for the page it sends the reader to
            self.page.wait_for_url(lands_on, wait_until="load")
        self.mathjax = self.page.evaluate(TYPESET)
        self.fitted = self.page.evaluate(FITTED)
        self.page.evaluate(
            "document.fonts.ready.then(() => true)"
        )  # MathJax fetches fonts once typeset
        self.read = False

    def _only_loopback(self, route):
        if urlsplit(route.request.url).hostname in (
            "127.0.0.1",
            None,
        ) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            self.left_the_machine.append(route.request.url)
            route.abort("internetdisconnected")

    def read_through(self):
        """Scroll to the end, as a reader does (a lazy image loads as it
        comes near), once; wait for every image that started loading."""
        if not self.read:
            self.page.evaluate(READ_THROUGH)
            self.read = True

    def resize(self, viewport):
        """Resize the window and wait until the equations fit again."""
        self.page.set_viewport_size(viewport)
        self.fitted = self.page.evaluate(FITTED)

    def close(self):
        self.context.close()


# Waits for MathJax (if the page uses it) and returns its state: "ok", "absent" or an error.
TYPESET = """async () => {
  if (!document.querySelector('.math, mjx-container')) return 'no math';
  for (let i = 0; i < 300 && !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++)
    await new Promise(r => setTimeout(r, 100));
  if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return 'MathJax never loaded';
  try { await MathJax.startup.promise; return 'ok'; } catch (e) { return 'MathJax failed: ' + e; }
}"""
# Waits until _ext/static/book/fit-equations.js has fitted every shown display to its
# column's present width (it notes the width it fitted to) and typesets none again.
FITTED = """async () => {
  if (!document.querySelector('div.math')) return 'no displays';
  const pending = () => [...document.querySelectorAll('div.math')]
    .filter(d => d.offsetParent !== null && d.clientWidth
                 && (d.dataset.fitWidth !== String(d.clientWidth) || d.dataset.fitting));
  let calm = 0;
  for (let i = 0; i < 3000 && calm < 3; i++) {
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 20)));
    calm = pending().length ? 0 : calm + 1;
  }
  return calm >= 3 ? 'fitted' : pending().length + ' displays never fitted';
}"""
READ_THROUGH = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 10)));
  for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight * 0.8) {
    scrollTo(0, y); await frame();
  }
  // an image passed too fast may not have started: bring each one still loading into view
  const loaded = image => Promise.race([
    new Promise(r => { image.addEventListener('load', r, {once: true});
                       image.addEventListener('error', r, {once: true}); }),
    new Promise(r => setTimeout(r, 10000)),
  ]);
  for (const image of [...document.images].filter(i => !i.complete && i.offsetParent)) {
    image.scrollIntoView({block: 'center'});
    if (!image.complete) await loaded(image);
  }
  scrollTo(0, 0); await frame();
}"""


@pytest.fixture(scope="module")
def visit(browser, server):
    """Open a page (light theme, 1280 pixels) and keep it for all its checks;
    opening the next page closes it (conftest.py runs a page's tests together)."""
    opened = {}

    def open_page(page):
        if page not in opened:
            for earlier in opened.values():
                earlier.close()
            opened.clear()
            opened[page] = Visit(browser, f"{server}/{page}.html")
        return opened[page]

    yield open_page
    for opened_page in opened.values():
        opened_page.close()


def screenshot(page, name, **kwargs):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(
        0, page.viewport_size["height"] - 1
    )  # no hover tooltip in the picture
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), **kwargs)


# --------------------------------------------------------------------------- every page


@pytest.mark.parametrize("page", PAGES)
def test_page_loads_offline_without_errors(visit, page):
    seen = visit(page)
    assert not seen.left_the_machine, (
        f"{page} requests files from the network: {seen.left_the_machine}"
    )
    assert not seen.failed, f"{page}: failed requests: {seen.failed}"
    assert not seen.errors, f"{page}: {seen.errors}"


MATH_STATE = """() => {
  const article = document.querySelector('article.bd-article');
  const prose = article.cloneNode(true);
  prose.querySelectorAll('pre, code, .highlight, script, mjx-container, mjx-assistive-mml').forEach(e => e.remove());
  return {
    display: article.querySelectorAll('div.math').length,
    typeset: article.querySelectorAll('div.math mjx-container[display="true"]').length,
    inline: article.querySelectorAll('span.math').length,
    inlineTypeset: article.querySelectorAll('span.math mjx-container').length,
    errors: [...article.querySelectorAll('mjx-merror')].map(e => e.getAttribute('data-mjx-error') || e.textContent),
    raw: (prose.textContent.match(/\\$\\$|\\\\\\[|\\\\\\(|\\\\begin\\{/g) || []).length,
  };
}"""


# What a page transferred, by kind: the page itself and every file it loaded (the test server
# does not compress, so these are the bytes a reader's browser receives uncompressed).
WEIGHT = """() => {
  const kind = e => e.initiatorType === 'navigation' ? 'page'
    : /\\.(png|jpe?g|webp|gif|svg)(\\?|$)/.test(e.name) ? 'images'
    : /\\.(woff2?|ttf|otf)(\\?|$)/.test(e.name) ? 'fonts'
    : /\\.css(\\?|$)/.test(e.name) ? 'styles' : /\\.js(\\?|$)/.test(e.name) ? 'scripts' : 'other';
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .filter(e => !e.name.startsWith('data:'));
  const by = {}; let total = 0;
  for (const e of entries) { by[kind(e)] = (by[kind(e)] || 0) + e.decodedBodySize; total += e.decodedBodySize; }
  const files = entries.sort((a, b) => b.decodedBodySize - a.decodedBodySize)
    .map(e => [e.name.replace(location.origin, ''), e.decodedBodySize]);
  return {total, requests: entries.length, by, largest: files.slice(0, 5), files: files.map(f => f[0])};
}"""


def record(kind, page, data):
    """Keep a figure for review (and for the issue's before-and-after table)."""
    folder = ARTIFACTS / kind
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{page.replace('/', '-')}.json").write_text(
        json.dumps(data, indent=1)
    )


@pytest.mark.parametrize("page", PAGES)
def test_page_weighs_at_most_three_megabytes(visit, page):
    """Everything a reader's browser fetches for the page, read to the end
    (figures load as they come into view), with no slider touched."""
    seen = visit(page)
    seen.read_through()
    weight = seen.page.evaluate(WEIGHT)
    record("page-weight", page, weight)
    assert weight["total"] <= MAX_PAGE_BYTES, (
        f"{page} weighs {weight['total'] / 1e6:.2f} MB: {weight['by']}, "
        f"largest {weight['largest']}"
    )
    # what pages once loaded and need not: Font Awesome's SVG script (the
    # theme's web font draws the icons) and its whole fonts (the book's cut
    # down ones have every icon a page shows: _ext/website.py), a widget
    # manager, the search index
    for needless in (
        "fontawesome.js",
        "vendor/fontawesome/webfonts/",
        "embed-amd.js",
        "require.js",
    ):
        assert not any(needless in f for f in weight["files"]), needless
    if page != "search":
        assert not any("searchindex.js" in f for f in weight["files"])


@pytest.mark.parametrize("page", PAGES)
def test_display_math_is_typeset(visit, page):
    seen = visit(page)
    math = seen.page.evaluate(MATH_STATE)
    if math["display"] or math["inline"]:
        assert seen.mathjax == "ok", f"{page}: {seen.mathjax}"
    assert math["typeset"] == math["display"], (
        f"{page}: {math['typeset']} of {math['display']} display equations typeset"
    )
    assert math["inlineTypeset"] == math["inline"], (
        f"{page}: {math['inlineTypeset']} of {math['inline']} inline formulas typeset"
    )
    assert not math["errors"], (
        f"{page}: MathJax could not render {math['errors']}"
    )
    assert math["raw"] == 0, (
        f"{page}: {math['raw']} raw TeX delimiters left in the text"
    )


# Every display equation as laid out: its overflow, whether its number shows beside or under
# it, in the column, and how _ext/static/book/fit-equations.js fitted it.
EQUATIONS = """() => [...document.querySelectorAll('article.bd-article div.math')].map(d => {
  const c = d.querySelector(':scope > mjx-container'), n = d.querySelector(':scope > .eqno');
  const column = d.getBoundingClientRect(), box = c.getBoundingClientRect();
  const number = n && n.getBoundingClientRect();
  const style = getComputedStyle(c), mask = style.maskImage || style.webkitMaskImage || 'none';
  const inside = (r, outer) => r.left >= outer.left - 0.5 && r.right <= outer.right + 0.5;
  return {
    tex: (d.dataset.tex || c.textContent).trim().slice(0, 50),
    shown: d.offsetParent !== null,
    number: n ? n.firstChild.textContent.trim() : null,
    overflow: c.scrollWidth - c.clientWidth,
    scale: +(c.dataset.scale || 1),
    broken: d.dataset.broken === 'yes',
    scrolls: c.classList.contains('equation-scrolls'),
    faded: mask !== 'none',
    numberShown: !n || (number.width > 0 && inside(number, column)
                        && (number.left >= box.right - 0.5 || number.top >= box.bottom - 0.5)),
    inColumn: inside(box, column) && column.left >= -0.5 && column.right <= innerWidth + 0.5,
  };
})"""
SMALLEST_SCALE = (
    0.7  # fit-equations.js: a display shrinks to 70 % at most, then scrolls
)


def displays_at(seen, viewport):
    seen.resize(viewport)
    assert seen.fitted in ("fitted", "no displays"), seen.fitted
    return seen.page.evaluate(EQUATIONS)


IMAGES = """() => [...document.querySelectorAll('article.bd-article img')].map(img => ({
  src: img.currentSrc.slice(0, 120), width: img.naturalWidth, complete: img.complete,
  alt: (img.getAttribute('alt') || '').trim(),
  caption: (img.closest('figure')?.querySelector('figcaption')?.textContent || '').trim(),
  frame: img.matches('.interactive-figure-frame'),
  waiting: img.loading === 'lazy' && img.offsetParent === null,  // lazy, and in a closed box
}))"""


@pytest.mark.parametrize("page", PAGES)
def test_every_image_loads_and_is_described(visit, page):
    seen = visit(page)
    seen.read_through()
    images = seen.page.evaluate(IMAGES)
    for image in images:
        assert image["waiting"] or (
            image["complete"] and image["width"] > 0
        ), f"{page}: image did not load: {image['src']}"
        assert image["alt"] or image["caption"], (
            f"{page}: image without alt text or caption: {image['src']}"
        )
    if (
        page in CHAPTERS
        and "plt.show()" in (ROOT / f"{page}.ipynb").read_text()
    ):
        assert any(not image["frame"] for image in images), (
            f"{page} draws figures but shows none"
        )


# What the outputs that once needed the ipywidgets manager show without one.
OUTPUTS = """() => ({
  widgetViews: document.querySelectorAll('script[type*="jupyter.widget"]').length,
  bars: [...document.querySelectorAll('.cell_output progress.widget-snapshot-progress')]
    .map(p => ({value: p.value, max: p.max, text: p.closest('.widget-snapshot').textContent.trim()})),
  figures: [...document.querySelectorAll('.cell_output .interactive-figure')].map(f => ({
    sliders: f.querySelectorAll('.interactive-figure-sliders:not([hidden]) input[type=range]').length,
    frame: f.querySelector('img.interactive-figure-frame').naturalWidth,
  })),
})"""


@pytest.mark.parametrize("page", PAGES)
def test_outputs_show_without_a_widget_manager(visit, page):
    """The website loads no widget manager (_ext/page_assets.py): tqdm's
    progress bars show their final state, drawn when the book is built, and
    interactive figures (mllib.plotting.interactive_figure) their sliders
    and start frame."""
    seen = visit(page)
    seen.read_through()
    shown = seen.page.evaluate(OUTPUTS)
    assert shown["widgetViews"] == 0, f"{page}: a widget left for a manager"
    source = (ROOT / f"{page}.ipynb").read_text() if page in CHAPTERS else ""
    # a bar made with leave=False closes itself when done: nothing to show
    if re.search(r"tqdm\((?![^)]*leave=False)", source):
        assert shown["bars"], f"{page}: its progress bars do not show"
        for bar in shown[
            "bars"
        ]:  # every loop of a built chapter ran to its end
            assert bar["max"] > 0 and bar["value"] == bar["max"], bar
            assert re.search(r"\d+/\d+", bar["text"]), bar
    expected = len(calls_in(page, "interactive_figure")) if source else 0
    assert len(shown["figures"]) == expected, shown["figures"]
    for figure in shown["figures"]:
        assert figure["sliders"] >= 1 and figure["frame"] > 0, figure


def test_the_preliminaries_moving_figure_is_checked():
    """Guards the test above against checking nothing: the reference chapter
    has an interactive figure, and chapters show progress bars."""
    assert calls_in(PRELIMINARIES, "interactive_figure")
    assert any("tqdm(" in (ROOT / f"{c}.ipynb").read_text() for c in CHAPTERS)


# --------------------------------------------------------------------------- chapters


# A solution's body counts as shown when a reader can see it: laid out, not hidden, not transparent.
SOLUTIONS = """() => [...document.querySelectorAll('div.solution')].map(s => ({
  id: s.id,
  hidden: s.classList.contains('toggle-hidden'),
  visible: [...s.children].filter(c => {
    if (c.classList.contains('admonition-title')) return false;
    const style = getComputedStyle(c), box = c.getBoundingClientRect();
    return style.visibility !== 'hidden' && style.display !== 'none' && +style.opacity > 0 && box.height > 0;
  }).length,
}))"""


def open_solution(seen, index):
    """Click a solution's "show" button, as a reader does, and wait for its body to appear."""
    solution = seen.page.locator("div.solution").nth(index)
    solution.locator("button.toggle-button").click()
    seen.page.wait_for_function(
        f"() => ({SOLUTIONS})()[{index}].visible > 0 && "
        f"[...document.querySelectorAll('div.solution')][{index}].getAnimations({{subtree: true}}).length === 0"
    )
    return solution


def show_exercise_of(seen, solution):
    """Scroll so that the exercise and the start of its opened solution fill the viewport."""
    seen.page.evaluate(
        "el => (el.previousElementSibling || el).scrollIntoView()",
        solution.element_handle(),
    )


@pytest.mark.parametrize("page", CHAPTERS)
def test_exercise_solutions_start_hidden_and_open_on_click(visit, page):
    seen = visit(page)
    solutions = seen.page.evaluate(SOLUTIONS)
    assert len(solutions) >= 3, (
        f"{page}: {len(solutions)} solutions on the page"
    )
    for before in solutions:
        assert before["hidden"] and before["visible"] == 0, (
            f"{page}: solution {before['id']} is open before a click"
        )
    for index, before in enumerate(solutions):
        open_solution(seen, index)
        after = seen.page.evaluate(SOLUTIONS)
        assert not after[index]["hidden"] and after[index]["visible"] > 0, (
            f"{page}: {before['id']} stays closed after a click"
        )
        assert all(other["hidden"] for other in after[index + 1 :]), (
            f"{page}: a click on {before['id']} opened others"
        )
    assert not seen.errors, f"{page}: {seen.errors}"


def fold_summaries(page):
    """The summaries the chapter's folded cells set (mystnb.code_prompt_show)."""
    cells = json.loads((ROOT / f"{page}.ipynb").read_text())["cells"]
    return [
        c["metadata"]["mystnb"]["code_prompt_show"]
        for c in cells
        if "code_prompt_show" in c["metadata"].get("mystnb", {})
    ]


FOLDED = [page for page in CHAPTERS if fold_summaries(page)]
FOLD_TITLE = """details => [...details.querySelectorAll(':scope > summary .admonition-title')]
  .filter(t => getComputedStyle(t).display !== 'none').map(t => t.textContent.trim()).join(' | ')"""


@pytest.mark.parametrize("page", FOLDED)
def test_a_folded_cell_keeps_its_summary_when_opened(visit, page):
    """ "Verification: ..." stays the summary of an opened fold; it does not
    become "Hide code cell content" (_ext/website.py)."""
    seen = visit(page)
    summary = fold_summaries(page)[0]
    fold = seen.page.locator("details.hide", has_text=summary).first
    assert fold.evaluate(FOLD_TITLE) == summary
    fold.locator(":scope > summary").click()
    try:
        assert fold.evaluate("d => d.open")
        assert fold.evaluate(FOLD_TITLE) == summary
    finally:
        fold.locator(":scope > summary").click()  # closed again
    assert not fold.evaluate("d => d.open")


def open_every_solution(seen):
    """Open, as a reader does, each solution still hidden."""
    hidden = [
        index
        for index, solution in enumerate(seen.page.evaluate(SOLUTIONS))
        if solution["hidden"]
    ]
    for index in hidden:
        open_solution(seen, index)


@pytest.mark.parametrize("page", PAGES)
def test_display_equations_fit_the_column_on_a_desktop_and_a_phone(
    visit, page
):
    """Every display beside (or on a phone, above) its number, never under
    it: at 1280 pixels each fits, shrunk if need be; at 390 each fits,
    shrunk to at least 70 % or broken at its wide spaces, or else scrolls
    with its edge faded. Solutions are opened first (every display counts)."""
    seen = visit(page)
    open_every_solution(seen)
    try:
        desktop = displays_at(seen, DESKTOP)
        assert all(d["shown"] for d in desktop), (
            f"{page}: hidden displays {[d['tex'] for d in desktop if not d['shown']]}"
        )
        for d in desktop:
            assert d["overflow"] <= 0 and d["numberShown"] and d["inColumn"], (
                f"{page} at 1280 pixels: {d}"
            )
        phone = displays_at(seen, PHONE)
        if page == PRELIMINARIES:
            third = seen.page.locator("div.math").nth(2)
            third.evaluate("d => d.scrollIntoView({block: 'center'})")
            screenshot(seen.page, "equations-phone-light")
            switch_theme(seen, "dark")
            screenshot(seen.page, "equations-phone-dark")
            switch_theme(seen, "light")
        for d in phone:
            assert d["numberShown"] and d["inColumn"], (
                f"{page} on a phone: {d}"
            )
            assert d["scale"] >= SMALLEST_SCALE - 1e-3, f"{page}: {d}"
            assert d["overflow"] <= 0 or (d["scrolls"] and d["faded"]), (
                f"{page} on a phone: a display is cut off: {d}"
            )
        record(
            "equations",
            page,
            {
                "displays": len(phone),
                "as written": sum(
                    d["scale"] == 1 and not d["broken"] for d in phone
                ),
                "shrunk": sum(
                    d["scale"] < 1 and not d["scrolls"] for d in phone
                ),
                "broken over lines": sum(d["broken"] for d in phone),
                "scrolling": [d["tex"] for d in phone if d["scrolls"]],
                "shrunk at 1280": [
                    d["tex"] for d in desktop if d["scale"] < 1
                ],
            },
        )
    finally:
        displays_at(seen, DESKTOP)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", [PRELIMINARIES])
def test_screenshot_an_exercise_with_its_solution_open(visit, page, theme):
    seen = visit(page)
    try:
        switch_theme(seen, theme)
        open_every_solution(seen)
        show_exercise_of(seen, seen.page.locator("div.solution").first)
        screenshot(seen.page, f"exercise-solution-open-{theme}")
    finally:
        switch_theme(seen, "light")


def launch_links(page):
    repository = CONFIG["repository"]
    owner_repo = urlsplit(repository["url"]).path.strip("/")
    notebook = (
        f"{repository.get('path_to_book', '').strip('/')}/{page}.ipynb".lstrip(
            "/"
        )
    )
    binder = CONFIG["launch_buttons"]["binderhub_url"].rstrip("/")
    colab = CONFIG["launch_buttons"]["colab_url"].rstrip("/")
    interface = (
        "lab/tree"
        if CONFIG["launch_buttons"].get("notebook_interface") == "jupyterlab"
        else "tree"
    )
    return {
        "Binder": f"{binder}/v2/gh/{owner_repo}/{repository['branch']}?urlpath={interface}/{notebook}",
        "Colab": f"{colab}/github/{owner_repo}/blob/{repository['branch']}/{notebook}",
    }, notebook


def test_binder_builds_from_the_root_requirements():
    """repo2docker ignores requirements.txt when one of these exists (a binder/ folder hides every
    root file; environment.yml and a Dockerfile take precedence), and installs a local package
    only if requirements.txt names it."""
    for overriding in (
        "binder",
        ".binder",
        "environment.yml",
        "environment.yaml",
        "Dockerfile",
        "Pipfile",
    ):
        assert not (ROOT / overriding).exists(), (
            f"{overriding} would change what Binder installs"
        )
    assert re.search(r"^-e \.$", (ROOT / "requirements.txt").read_text(), re.M)


@pytest.mark.parametrize("page", CHAPTERS)
def test_launch_links_open_this_repository_branch_and_notebook(visit, page):
    expected, notebook = launch_links(page)
    assert (ROOT / notebook).is_file()
    assert CONFIG["repository"]["branch"] == "main"
    links = visit(page).page.eval_on_selector_all(
        ".dropdown-launch-buttons a",
        "links => links.map(a => [a.textContent.trim(), a.href])",
    )
    found = dict(links)
    for name, url in expected.items():
        assert found.get(name) == url, (
            f"{page}: {name} link is {found.get(name)}, expected {url}"
        )
    binder_query = parse_qs(urlsplit(found["Binder"]).query)
    assert binder_query["urlpath"][0].endswith(quote(notebook)), found[
        "Binder"
    ]


HUB = "https://hub.example.edu"


def test_a_configured_jupyterhub_gets_an_nbgitpuller_launch(tmp_path):
    """running.md tells an instructor to set launch_buttons.jupyterhub_url. Every chapter
    then offers nbgitpuller's link: the hub's git-pull endpoint, with this repository and
    branch, opening the chapter in JupyterLab inside the folder nbgitpuller clones into
    (the repository's name). A one-chapter book with the book's configuration shows it."""
    config = copy.deepcopy(CONFIG)
    config["launch_buttons"]["jupyterhub_url"] = HUB
    config["execute"]["execute_notebooks"] = "off"
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    shutil.copy(ROOT / "references.bib", tmp_path)
    for support in ("_ext", "_latex"):  # the extensions _config.yml loads
        shutil.copytree(ROOT / support, tmp_path / support)
    (tmp_path / "chapters").mkdir()
    shutil.copy(ROOT / f"{PRELIMINARIES}.ipynb", tmp_path / "chapters")
    (tmp_path / "_toc.yml").write_text(
        f"format: jb-book\nroot: {PRELIMINARIES}\n"
    )
    build = subprocess.run(
        [Path(sys.executable).parent / "jupyter-book", "build", tmp_path],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    page = tmp_path / "_build" / "html" / f"{PRELIMINARIES}.html"
    links = re.findall(
        r'href="([^"]+)"[^>]*title="Launch on JupyterHub"', page.read_text()
    )
    assert len(links) == 1, f"{len(links)} JupyterHub links"
    link = urlsplit(html.unescape(links[0]))
    query = {key: value for key, (value,) in parse_qs(link.query).items()}
    repository = CONFIG["repository"]
    assert f"{link.scheme}://{link.netloc}{link.path}" == (
        f"{HUB}/hub/user-redirect/git-pull"
    )
    assert query == {
        "repo": repository["url"],
        "branch": repository["branch"],
        "urlpath": f"lab/tree/{urlsplit(repository['url']).path.split('/')[-1]}"
        f"/{PRELIMINARIES}.ipynb",
    }


CONTRAST = """() => {
  const canvas = document.createElement('canvas'); canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = c => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c; ctx.fillRect(0, 0, 1, 1);
                      const d = ctx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; };
  const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3]));
  const background = el => {
    const chain = []; for (let e = el; e; e = e.parentElement) chain.unshift(e);
    return chain.reduce((below, e) => over(rgba(getComputedStyle(e).backgroundColor), below), [255, 255, 255]);
  };
  const luminance = rgb => { const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                             return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const equations = [...document.querySelectorAll('article.bd-article mjx-container')].map(m => {
    const bg = background(m);
    return {tex: (m.closest('.math')?.getAttribute('data-tex') || m.textContent).slice(0, 40),
            contrast: contrast(over(rgba(getComputedStyle(m).color), bg), bg)};
  });
  const figures = [...document.querySelectorAll('article.bd-article .cell_output img, article.bd-article figure img')]
    .filter(img => img.naturalWidth > 0).map(img => {
      const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
      const g = c.getContext('2d'); g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let transparent = 0; for (let i = 3; i < d.length; i += 4) if (d[i] < 250) transparent++;
      const style = getComputedStyle(img);
      return {src: img.currentSrc.slice(-60), transparent: transparent / (d.length / 4),
              opacity: +style.opacity, filter: style.filter};
    });
  return {theme: document.documentElement.dataset.theme, page: background(document.querySelector('article.bd-article')),
          equations, figures};
}"""


def switch_theme(seen, theme):
    """Press the theme switch, as a reader does, until the page is in `theme`."""
    for _ in range(3):
        if (
            seen.page.evaluate("document.documentElement.dataset.theme")
            == theme
        ):
            break
        seen.page.locator(".theme-switch-button").first.click()
    assert (
        seen.page.evaluate("document.documentElement.dataset.theme") == theme
    )
    settle(seen)  # colour transitions finish before anything is measured


# Brings the page's finite animations and transitions (a theme's colours, a quiz's answer)
# to their end state at once: what is measured is what a reader sees once they have played.
# (Waiting for them to end cost up to two seconds a call, on every theme switch: an animation
# in a part of the page the browser skips never ends.)
SETTLED = """() => {
  for (const animation of document.getAnimations()) {
    if (!isFinite(animation.effect?.getComputedTiming().endTime)) continue;
    try { animation.finish(); } catch (e) { /* paused at rate 0: nothing to play */ }
  }
  return true;
}"""


def settle(seen):
    seen.page.evaluate(SETTLED)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", CHAPTERS)
def test_theme_switch_keeps_figures_and_equations_readable(visit, page, theme):
    seen = visit(page)
    try:
        switch_theme(seen, theme)
        state = seen.page.evaluate(CONTRAST)
        assert state["equations"], f"{page}: no typeset equations to measure"
        worst = min(state["equations"], key=lambda e: e["contrast"])
        assert worst["contrast"] >= MIN_CONTRAST, (
            f"{page} ({theme}): equation {worst['tex']!r} has contrast {worst['contrast']:.2f}"
        )
        for figure in state["figures"]:
            assert figure["transparent"] == 0, (
                f"{page} ({theme}): figure {figure['src']} is {figure['transparent']:.0%} transparent"
            )
            assert (
                figure["opacity"] == 1 and "invert" not in figure["filter"]
            ), f"{page} ({theme}): figure styled {figure}"
        if page == PRELIMINARIES:
            seen.page.evaluate("window.scrollTo(0, 0)")
            screenshot(seen.page, f"preliminaries-{theme}")
            seen.page.locator("figure").first.scroll_into_view_if_needed()
            screenshot(seen.page, f"preliminaries-figure-{theme}")
            seen.page.locator(
                ".cell_output .interactive-figure"
            ).first.scroll_into_view_if_needed()
            screenshot(seen.page, f"preliminaries-moving-figure-{theme}")
    finally:
        switch_theme(seen, "light")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_index_screenshots(browser, server, theme):
    seen = Visit(
        browser,
        f"{server}/index.html",
        theme="light",
        lands_on=f"{server}/{INDEX}.html",
    )
    try:
        switch_theme(seen, theme)
        screenshot(seen.page, f"index-{theme}")
        assert (
            not seen.errors and not seen.failed and not seen.left_the_machine
        )
        search_fields = seen.page.locator(
            ".search-button-field:visible, .bd-search input:visible"
        ).count()
        assert search_fields == 1, f"{search_fields} search fields on the page"
    finally:
        seen.close()


@pytest.mark.parametrize("page", [INDEX])
def test_the_home_page_links_the_pdf_only_when_the_site_has_it(
    visit, site, page
):
    """A site built by the README's command has no PDF edition, and no link
    to one; a site built after the PDF has both (_ext/website.py)."""
    links = visit(page).page.eval_on_selector_all(
        "article.bd-article a[href$='book.pdf']",
        "links => links.map(a => a.href)",
    )
    if (site / "book.pdf").is_file():
        assert links, (
            "the site has book.pdf but the home page does not link it"
        )
    else:
        assert not links, f"the home page links a PDF the site lacks: {links}"


@pytest.mark.parametrize("page", ["assignments"])
def test_assignments_name_each_chapter_they_build_on_once(visit, page):
    """ "Builds on: Preliminaries: Preliminaries: ..." read the title twice."""
    cells = visit(page).page.eval_on_selector_all(
        "article.bd-article table tbody tr td:nth-child(2)",
        "cells => cells.map(c => c.textContent.trim())",
    )
    assert cells
    for cell in cells:
        assert not re.search(r"(\b[\w ]+:) \1", cell), cell


# --------------------------------------------------------------------------- search


def test_search_words_cover_the_preliminaries():
    """Guards the parametrisation below: it must test something today."""
    assert PRELIMINARIES in SEARCHES["Lagrangian"]


@pytest.mark.parametrize("word", sorted(SEARCHES))
def test_search_finds_the_chapters_using_a_word(browser, server, word):
    seen = Visit(browser, f"{server}/search.html?q={word}")
    try:
        seen.page.wait_for_function(
            "() => document.querySelector('#search-results p.search-summary')?.textContent.includes('Search finished')"
        )
        hits = seen.page.eval_on_selector_all(
            "#search-results ul.search li a", "links => links.map(a => a.href)"
        )
        found = {
            urlsplit(hit).path.lstrip("/").removesuffix(".html")
            for hit in hits
        }
        assert set(SEARCHES[word]) <= found, (
            f"searching {word!r} misses {set(SEARCHES[word]) - found}; found {sorted(found)}"
        )
        assert not seen.errors and not seen.left_the_machine, (
            seen.errors + seen.left_the_machine
        )
    finally:
        seen.close()


# --------------------------------------------------------------------------- execution report


@pytest.mark.parametrize("page", ["execution-report"])
def test_execution_report_lists_every_chapter_with_its_run_time(visit, page):
    rows = visit(page).page.eval_on_selector_all(
        "article.bd-article table tbody tr",
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent.trim()))",
    )
    by_page = {row[0]: row for row in rows}
    for page in CHAPTERS:
        assert page in by_page, (
            f"{page} is missing from the execution report: {sorted(by_page)}"
        )
        document, modified, method, seconds, status = by_page[page]
        assert (
            method in ("cache", "auto", "force")
            and float(seconds) > 0
            and status == "\u2705"
        ), by_page[page]


# --------------------------------------------------------------------------- what the site serves


def test_pages_name_the_configured_repository():
    """running.md tells readers what to clone; it must be the repository _config.yml names."""
    urls = set(
        re.findall(
            r"https://github\.com/[\w.-]+/[\w.-]+",
            (ROOT / "running.md").read_text(),
        )
    )
    assert urls == {CONFIG["repository"]["url"]}


def test_no_widget_manager_is_configured():
    """myst-nb's default loads the ipywidgets manager from a CDN on a page
    with widgets; the book draws their saved state instead
    (_ext/page_assets.py), and the website test above checks the pages."""
    assert CONFIG["sphinx"]["config"]["nb_ipywidgets_js"] == {}
    assert "page_assets" in CONFIG["sphinx"]["local_extensions"]


def test_mathjax_comes_from_the_offline_package():
    import importlib.util

    package = Path(
        importlib.util.find_spec("sphinx-mathjax-offline").origin
    ).parent
    bundle = (package / "static" / "mathjax" / "tex-chtml.js").read_text()
    assert re.search(r'VERSION="3\.\d+\.\d+"', bundle), (
        "MathJax 3 expected (the book uses MathJax 3 configuration)"
    )
    assert (ROOT / "_ext" / "static" / "mathjax" / "LICENSE").is_file()


# --------------------------------------------------------------------------- learning (issue 17)


def calls_in(page, function):
    """The literal first arguments of every call to ``function`` in a
    chapter's code cells, and the keyword arguments (as source text)."""
    found = []
    for cell in json.loads((ROOT / f"{page}.ipynb").read_text())["cells"]:
        if cell["cell_type"] != "code" or f"{function}(" not in "".join(
            cell["source"]
        ):
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == function
            ):
                found.append(node)
    return found


MOVING = [page for page in CHAPTERS if calls_in(page, "interactive_figure")]
QUIZZES = [page for page in CHAPTERS if calls_in(page, "self_check")]

# The frame an interactive figure shows (mllib.plotting.interactive_figure).
SHOWN_FRAME = """figure => {
  const image = figure.querySelector('img.interactive-figure-frame');
  return {src: image.currentSrc, width: image.naturalWidth, complete: image.complete, alt: image.alt};
}"""
NEW_FRAME = """([figure, before]) => {
  const image = figure.querySelector('img.interactive-figure-frame');
  return image.currentSrc !== before && image.complete && image.naturalWidth > 0;
}"""


def test_the_preliminaries_have_a_moving_figure_and_questions():
    """Guards the parametrisations below against testing nothing."""
    assert PRELIMINARIES in MOVING and PRELIMINARIES in QUIZZES


def press(slider, key, times):
    for _ in range(times):
        slider.press(key)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", MOVING)
def test_interactive_figures_move_without_a_kernel(visit, page, theme):
    """Each slider of each interactive figure, pressed as a reader does with
    the keyboard, shows another frame, loaded then; the page is offline,
    with no kernel. The slider is put back where it was."""
    seen = visit(page)
    try:
        switch_theme(seen, theme)
        figures = seen.page.locator(".cell_output .interactive-figure")
        expected = len(calls_in(page, "interactive_figure"))
        assert figures.count() == expected, (
            f"{page}: {figures.count()} of {expected} figures shown"
        )
        for k in range(figures.count()):
            figure = figures.nth(k)
            sliders = figure.locator("input[type=range]")
            assert sliders.count() >= 1
            for s in range(sliders.count()):
                slider = sliders.nth(s)
                figure.scroll_into_view_if_needed()
                before = figure.evaluate(SHOWN_FRAME)
                assert before["complete"] and before["width"] > 0, before
                if page == PRELIMINARIES and k == 0 and s == 0:
                    screenshot(seen.page, f"moving-figure-{theme}-1")
                at_end = slider.evaluate("s => +s.value === +s.max")
                forward, back = (
                    ("ArrowLeft", "ArrowRight")
                    if at_end
                    else ("ArrowRight", "ArrowLeft")
                )
                start = slider.evaluate("s => +s.value")
                slider.focus()
                press(slider, forward, 3)
                seen.page.wait_for_function(
                    NEW_FRAME, arg=[figure.element_handle(), before["src"]]
                )
                # steps taken (fewer than 3 where the slider met its end)
                moved = abs(slider.evaluate("s => +s.value") - start)
                after = figure.evaluate(SHOWN_FRAME)
                assert after["alt"] != before["alt"], after  # says which frame
                if page == PRELIMINARIES and k == 0 and s == 0:
                    screenshot(seen.page, f"moving-figure-{theme}-2")
                press(slider, back, moved)
                assert figure.evaluate(SHOWN_FRAME)["src"] == before["src"]
        assert not seen.errors and not seen.left_the_machine, (
            seen.errors + seen.left_the_machine
        )
    finally:
        switch_theme(seen, "light")


def quiz_questions(page):
    return [
        question
        for call in calls_in(page, "self_check")
        for question in ast.literal_eval(call.args[0])
    ]


# A question's answer button, by its whole text (one answer may contain another: "τ² φᵀφ",
# "φᵀφ"), scrolled to the middle of the view: the point a reader clicks, and whether the
# button is what is under that point (not covered by anything).
ANSWER_BUTTON = """([quiz, text]) => {
  const whole = e => e.textContent.replace(/\\s+/g, ' ').trim();
  const buttons = [...quiz.querySelectorAll('.MCButton')].filter(b => whole(b) === text);
  if (buttons.length !== 1) return {found: buttons.length};
  buttons[0].scrollIntoView({block: 'center', behavior: 'instant'});
  const box = buttons[0].getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  return {found: 1, x, y, hit: buttons[0].contains(document.elementFromPoint(x, y))};
}"""


def answer(seen, quiz, question, right):
    """Give the right or a wrong answer to a question (its `.Quiz`), as a
    reader does (a click, or a number typed and Enter); return its
    feedback: text, whether marked correct, and its contrast with its
    background."""
    if question["type"] == "multiple_choice":
        choice = next(a for a in question["answers"] if a["correct"] == right)
        text = " ".join(choice["answer"].split())
        button = seen.page.evaluate(ANSWER_BUTTON, [quiz, text])
        assert button.get("hit"), f"answer {text!r}: {button}"
        seen.page.mouse.click(button["x"], button["y"])
    else:
        # a listed value, or the middle of a listed range
        given = next(
            (
                a["value"] if "value" in a else sum(a["range"]) / 2
                for a in question["answers"]
                if a.get("correct", False) == right and a["type"] != "default"
            ),
            None,
        )
        if given is None:  # no wrong value listed: any number off the ranges
            given = -987654321
        field = quiz.query_selector(".Input-text")
        field.fill(str(given))
        field.press("Enter")
    # jupyterquiz marks the feedback in the event's own handler
    return seen.page.evaluate(
        FEEDBACK, [quiz, "correct" if right else "incorrect"]
    )


# The contrast of an element's text with the background behind it.
CONTRAST_OF = """el => {
  const canvas = document.createElement('canvas'); canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = c => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c; ctx.fillRect(0, 0, 1, 1);
                      const d = ctx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; };
  const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3]));
  const chain = []; for (let e = el; e; e = e.parentElement) chain.unshift(e);
  const bg = chain.reduce((below, e) => over(rgba(getComputedStyle(e).backgroundColor), below), [255, 255, 255]);
  const fg = over(rgba(getComputedStyle(el).color), bg);
  const lum = rgb => { const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                       return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [x, y] = [lum(fg), lum(bg)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05);
}"""


# A question's feedback once marked `mark` (at once, in the answer's own event handler; a
# second at most): its text, whether marked correct, and its contrast.
FEEDBACK = f"""async ([quiz, mark]) => {{
  const feedback = quiz.querySelector('.Feedback');
  for (let i = 0; i < 100 && !feedback.classList.contains(mark); i++)
    await new Promise(r => setTimeout(r, 10));
  return {{text: feedback.textContent, correct: feedback.classList.contains('correct'),
           marked: feedback.classList.contains(mark), contrast: ({CONTRAST_OF})(feedback)}};
}}"""
# The text of each question, as the page shows it.
QUESTION_TEXTS = """quizzes => quizzes.map(q =>
  q.querySelector('.MultipleChoiceQn, .NumericQn').firstElementChild.textContent.replace(/\\s+/g, ' ').trim())"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", QUIZZES)
def test_self_check_questions_answer_right_and_wrong(visit, page, theme):
    """A wrong answer, then the right one, to every question: each gets its
    own feedback at once, readable in both themes, offline. The quizzes'
    code (jupyterquiz's) loads once for the page, not once per quiz."""
    seen = visit(page)
    try:
        switch_theme(seen, theme)
        questions = quiz_questions(page)
        # each question's .Quiz, in the order of the chapter's source
        quizzes = seen.page.query_selector_all("div.Quiz")
        shown = seen.page.evaluate(QUESTION_TEXTS, quizzes)
        assert shown == [" ".join(q["question"].split()) for q in questions]
        shared = seen.page.evaluate(
            """() => ({inline: document.querySelectorAll('[data-self-check-library]').length,
                      loaded: [...document.scripts].filter(s => s.src.includes('/self-check/')).length})"""
        )
        assert shared == {"inline": 0, "loaded": 1}, shared
        for quiz, question in zip(quizzes, questions):
            wrong = answer(seen, quiz, question, right=False)
            assert wrong["marked"] and not wrong["correct"], wrong
            assert wrong["text"].strip(), wrong
            right = answer(seen, quiz, question, right=True)
            expected = next(a for a in question["answers"] if a["correct"])
            assert right["marked"], f"{page}: {question['question']}: {right}"
            assert right["text"].strip() == expected["feedback"].strip()
            for feedback in (wrong, right):
                assert feedback["contrast"] >= MIN_CONTRAST, (
                    f"{page} ({theme}): feedback {feedback}"
                )
        settle(seen)  # the answers' colour animations
        if page == PRELIMINARIES:
            first = seen.page.locator(".Quiz").first
            first.evaluate("q => q.scrollIntoView({block: 'center'})")
            screenshot(seen.page, f"self-check-feedback-{theme}")
        texts = seen.page.eval_on_selector_all(
            ".Quiz .MultipleChoiceQn, .Quiz .NumericQn, .Quiz .MCButton",
            f"els => els.map({CONTRAST_OF})",
        )
        assert min(texts) >= MIN_CONTRAST, f"{page} ({theme}): {min(texts)}"
        assert not seen.errors and not seen.left_the_machine, (
            seen.errors + seen.left_the_machine
        )
    finally:
        switch_theme(seen, "light")


CODE_WIDTHS = """selector => [...document.querySelectorAll(selector)].map(pre => ({
  overflow: pre.scrollWidth - pre.clientWidth,
  longest: Math.max(...pre.textContent.split('\\n').map(l => l.length)),
  start: pre.textContent.slice(0, 60),
}))"""


@pytest.mark.parametrize(
    "page",
    with_conversion_marks(
        CHAPTERS, stem=lambda p: Path(p).name, ids=None, strict=False
    ),
)
def test_code_cells_fit_the_page_column(visit, page):
    """79 characters, the book's line length, show without scrolling in a
    1280-pixel window, also inside exercises and solutions."""
    widths = visit(page).page.evaluate(
        CODE_WIDTHS, ".cell_input div.highlight pre"
    )
    assert widths
    cut = [w for w in widths if w["overflow"] > 0]
    assert not cut, f"{page}: code cut off at the column's edge: {cut[:3]}"


@pytest.mark.parametrize("page", CHAPTERS, ids=lambda p: Path(p).name)
def test_mllib_source_shown_in_a_chapter_fits_the_page_column(visit, page):
    """show_source displays mllib's code as a highlighted HTML output: at
    79 characters it fits the column like the chapter's own code."""
    widths = visit(page).page.evaluate(
        CODE_WIDTHS, ".cell_output .output.text_html div.highlight pre"
    )
    cells = json.loads((ROOT / f"{page}.ipynb").read_text())["cells"]
    calls = sum(  # each call shows once: as a cell's value or by display()
        len(re.findall(r"\bshow_source\(", "".join(c["source"])))
        for c in cells
        if c["cell_type"] == "code"
    )
    assert len(widths) == calls, f"{page}: {calls} calls, {len(widths)} shown"
    cut = [w for w in widths if w["overflow"] > 0]
    assert not cut, f"{page}: shown source cut off: {cut[:3]}"


# Printed text: what print() wrote, a result's repr, an error. Folded verification cells are
# left out: the text does not discuss their outputs (a reader who opens one may scroll).
PRINTED = (
    ".cell_output .output:is(.stream, .text_plain, .traceback, .error) pre"
    ":not(details.hide pre)"
)


@pytest.mark.parametrize("page", CHAPTERS)
def test_printed_outputs_fit_the_page_column(visit, page):
    """The numbers a chapter prints and discusses show without scrolling
    sideways in a 1280-pixel window, as its code does; solutions too."""
    seen = visit(page)
    open_every_solution(seen)
    widths = seen.page.evaluate(CODE_WIDTHS, PRINTED)
    cut = [w for w in widths if w["overflow"] > 0]
    record("wide-outputs", page, cut)
    assert not cut, (
        f"{page}: {len(cut)} printed outputs wider than the column "
        f"(by {[w['overflow'] for w in cut]} pixels): {cut}"
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", [PRELIMINARIES])
def test_screenshot_the_longest_code_line_of_the_preliminaries(
    visit, page, theme
):
    seen = visit(page)
    try:
        switch_theme(seen, theme)
        longest = seen.page.evaluate_handle(
            """() => [...document.querySelectorAll('.cell_input div.highlight pre')]
                 .reduce((a, b) => Math.max(...b.textContent.split('\\n').map(l => l.length))
                                 > Math.max(...a.textContent.split('\\n').map(l => l.length)) ? b : a)"""
        )
        state = longest.evaluate(
            "pre => ({overflow: pre.scrollWidth - pre.clientWidth, longest: "
            "Math.max(...pre.textContent.split('\\n').map(l => l.length))})"
        )
        longest.evaluate("pre => pre.scrollIntoView({block: 'center'})")
        screenshot(seen.page, f"preliminaries-longest-code-line-{theme}")
        assert state["longest"] <= 79 and state["overflow"] <= 0, state
    finally:
        switch_theme(seen, "light")


# --------------------------------------------------------------------------- references and metadata


def chapter_numbers():
    """Each chapter's number on the website (None: unnumbered), from _toc.yml."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    numbers, count = {}, 0
    for part in toc["parts"]:
        for entry in part["chapters"]:
            if entry["file"].startswith("chapters/"):
                if part.get("numbered"):
                    count += 1
                numbers[entry["file"]] = (
                    count if part.get("numbered") else None
                )
    return numbers


LINKS = """() => [...document.querySelectorAll('article.bd-article a.reference.internal')]
  .filter(a => !a.closest('.toctree-wrapper, nav'))
  .map(a => ({href: a.href, text: a.textContent.trim()}))"""


def short_title(chapter):
    """A chapter's title up to its colon ("Preliminaries")."""
    cells = json.loads((ROOT / f"{chapter}.ipynb").read_text())["cells"]
    heading = next(
        line
        for cell in cells
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("# ")
    )
    return heading[2:].split(":")[0].strip()


@pytest.mark.parametrize("page", CHAPTERS)
def test_links_to_other_chapters_name_the_chapter(visit, page):
    """ "Exercise 5" from chapter 6 must say it is the Preliminaries' exercise
    (_ext/cross_references.py)."""
    numbers = chapter_numbers()
    for link in visit(page).page.evaluate(LINKS):
        target = urlsplit(link["href"]).path.lstrip("/").removesuffix(".html")
        if target == page or target not in numbers:
            continue
        number = numbers[target]
        names = (
            rf"\b{number}\.\d|Chapter {number}\b"
            if number is not None
            else re.escape(short_title(target))
        )
        assert re.search(names, link["text"]), (
            f"{page}: a link to {target} reads {link['text']!r}"
        )


@pytest.mark.parametrize("page", [PRELIMINARIES])
def test_the_site_has_a_favicon_and_describes_its_pages(visit, server, page):
    from urllib.request import urlopen

    with urlopen(f"{server}/favicon.ico") as response:  # for pages naming none
        assert response.status == 200 and response.read(4) == b"\0\0\1\0"
    seen = visit(page)
    icon = seen.page.evaluate(
        "() => document.querySelector('link[rel~=\"icon\"]')?.href"
    )
    assert icon and icon.endswith(".ico")
    meta = seen.page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('meta[property^="og:"], meta[name]')]
                 .map(m => [m.getAttribute('property') || m.getAttribute('name'), m.content]))"""
    )
    assert meta["og:title"].startswith("Preliminaries")
    assert meta["og:site_name"] == CONFIG["title"]
    assert len(meta["description"]) > 50
    assert meta["og:image"].startswith("https://") and meta[
        "og:image"
    ].endswith("social-preview.png")
    assert meta.get("twitter:card") == "summary_large_image"
