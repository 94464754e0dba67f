"""The website as a reader meets it: the built book in headless Chromium, with the network cut.

Every page in `_toc.yml` is served from `_build/html` on 127.0.0.1 and opened in Chromium
(driven by Playwright, using the system's browser). A route handler aborts every request that
does not go to 127.0.0.1, so a page that still needs a CDN fails here exactly as it would for
a reader without a network. The checks, per page unless noted:

* it loads with no console error, no failed request and no attempt to leave the machine;
* display math is typeset by MathJax, with no raw ``$$`` / ``\\[`` and no MathJax error left;
* every image loads and has alt text or a caption;
* widget demos render their initial view (a chapter with a widget must show it);
* (chapters) exercise solutions start hidden and open on a click;
* (chapters) the Binder and Colab links open this repository, branch and notebook;
* a book configured with a course's JupyterHub offers nbgitpuller's link to the chapter
  (a one-chapter build);
* (chapters) after the theme switch to dark, figures stay opaque and equations keep their
  contrast with the page, as they do in the light theme;
* the search page finds the chapters whose text uses a given word;
* the execution report lists every chapter with its run time.

Screenshots for review go to ``_build/test-artifacts/`` (``BOOK_TEST_ARTIFACTS`` overrides).

The site is built from clean once per test run, into ``_build/test-site/``
(the ``site`` fixture in conftest.py; all xdist workers share that build).
Each page is loaded once and shared by the checks (MathJax typesetting a long chapter is the
slow part); the checks that click (solutions, theme switch) put the page back as they found it
or run last on it.
"""

import ast
import copy
import functools
import hashlib
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
            viewport={"width": 1280, "height": 900}, color_scheme=theme
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
        self.page.evaluate(
            "document.fonts.ready.then(() => true)"
        )  # MathJax fetches fonts once typeset

    def _only_loopback(self, route):
        if urlsplit(route.request.url).hostname in (
            "127.0.0.1",
            None,
        ) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            self.left_the_machine.append(route.request.url)
            route.abort("internetdisconnected")

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


@pytest.fixture(scope="module")
def visit(browser, server):
    """Open a page once per theme and keep it for all the checks that only read it."""
    opened = {}

    def open_page(page, theme="light"):
        if (page, theme) not in opened:
            opened[(page, theme)] = Visit(
                browser, f"{server}/{page}.html", theme
            )
        return opened[(page, theme)]

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


IMAGES = """() => [...document.querySelectorAll('article.bd-article img')].map(img => ({
  src: img.currentSrc.slice(0, 120), width: img.naturalWidth, complete: img.complete,
  alt: (img.getAttribute('alt') || '').trim(),
  caption: (img.closest('figure')?.querySelector('figcaption')?.textContent || '').trim(),
  widget: !!img.closest('.jupyter-widgets, .widget-output'),
}))"""


@pytest.mark.parametrize("page", PAGES)
def test_every_image_loads_and_is_described(visit, page):
    images = visit(page).page.evaluate(IMAGES)
    for image in images:
        assert image["complete"] and image["width"] > 0, (
            f"{page}: image did not load: {image['src']}"
        )
        # A widget's live output has no caption of its own: CONTRIBUTING.md puts a captioned
        # static figure of the same thing next to every widget demo.
        if not image["widget"]:
            assert image["alt"] or image["caption"], (
                f"{page}: image without alt text or caption: {image['src']}"
            )
    if (
        page in CHAPTERS
        and "plt.show()" in (ROOT / f"{page}.ipynb").read_text()
    ):
        assert any(not image["widget"] for image in images), (
            f"{page} draws figures but shows none"
        )


WIDGETS = """async () => {
  const views = () => document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  const rendered = () => [...views()].filter(s => s.previousElementSibling?.matches('.jupyter-widgets, .widget-container, .lm-Widget') ||
                                            s.parentElement.querySelector('.jupyter-widgets'));
  for (let i = 0; i < 600 && rendered().length < views().length; i++) await new Promise(r => setTimeout(r, 100));
  return {
    views: views().length,
    rendered: rendered().length,
    placeholders: [...document.querySelectorAll('.cell_output')].filter(o => views().length && o.querySelector('script[type*="widget-view"]')
      && o.textContent.includes('Loading widget')).length,
    controls: document.querySelectorAll('.cell_output .widget-slider, .cell_output .widget-dropdown, .cell_output .widget-toggle-buttons, .cell_output .widget-checkbox').length,
    outputImages: [...document.querySelectorAll('.cell_output .jupyter-widgets-output-area img, .cell_output .widget-output img, .cell_output img.widget-image')]
      .filter(i => i.offsetParent !== null).map(i => i.naturalWidth),
  };
}"""


@pytest.mark.parametrize("page", PAGES)
def test_widget_demos_render_their_initial_view(visit, page):
    state = visit(page).page.evaluate(WIDGETS)
    assert state["rendered"] == state["views"], (
        f"{page}: {state['rendered']} of {state['views']} widget views rendered"
    )
    assert state["placeholders"] == 0, (
        f"{page}: a widget shows its 'Loading widget...' placeholder"
    )
    assert all(width > 0 for width in state["outputImages"]), (
        f"{page}: a widget's figure did not load"
    )
    source = (ROOT / f"{page}.ipynb").read_text() if page in CHAPTERS else ""
    if (
        "interact(" in source or "interactive_figure(" in source
    ):  # a demo: its control and its initial figure must show
        assert state["controls"] >= 1 and len(state["outputImages"]) >= 1, (
            f"{page}: interact demo not rendered: {state}"
        )


def test_the_preliminaries_widget_demo_is_checked():
    """Guards the test above against checking nothing: the reference chapter has a demo
    (an interactive figure, whose sliders and start frame the test above sees)."""
    assert (
        "interactive_figure(" in (ROOT / f"{PRELIMINARIES}.ipynb").read_text()
    )


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


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_an_exercise_with_its_solution_open(browser, server, theme):
    seen = Visit(browser, f"{server}/{PRELIMINARIES}.html", theme="light")
    try:
        switch_theme(seen, theme)
        show_exercise_of(seen, open_solution(seen, 0))
        screenshot(seen.page, f"exercise-solution-open-{theme}")
    finally:
        seen.close()


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
    seen.page.wait_for_timeout(
        300
    )  # let colour transitions finish before measuring


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
                ".cell_output .widget-slider"
            ).first.scroll_into_view_if_needed()
            screenshot(seen.page, f"preliminaries-widget-{theme}")
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


def test_execution_report_lists_every_chapter_with_its_run_time(visit):
    rows = visit("execution-report").page.eval_on_selector_all(
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


def test_vendored_widget_scripts_are_the_published_files():
    """_ext/static/widgets/ holds npm files verbatim (see _ext/README.md); SHA256SUMS pins them."""
    folder = ROOT / "_ext" / "static" / "widgets"
    listed = dict(
        reversed(line.split(maxsplit=1))
        for line in (folder / "SHA256SUMS").read_text().splitlines()
    )
    on_disk = {
        f"./{p.relative_to(folder).as_posix()}"
        for p in folder.rglob("*")
        if p.suffix in (".js", ".woff2")
    }
    assert set(listed) == on_disk
    for name, digest in listed.items():
        assert (
            hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
        ), f"{name} differs from the published file"
    for name in {os.path.dirname(name) for name in listed}:
        assert (folder / name / "LICENSE").is_file(), f"{name} has no licence"


def test_config_points_the_widget_loader_at_the_vendored_files():
    loaders = CONFIG["sphinx"]["config"]["nb_ipywidgets_js"]
    assert loaders and all("://" not in path for path in loaders)
    for path in loaders:
        assert (ROOT / "_ext" / "static" / path).is_file(), path
    assert [Path(path).name for path in loaders] == [
        "require.js",
        "embed-amd.js",
    ], "require.js must load first"


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

# The frame a slider shows: the only laid-out image of its figure's stack
# (ipywidgets' Stack lays out its selected child only).
SHOWN_FRAME = """figure => {
  const shown = [...figure.querySelectorAll('img')].filter(i => i.offsetParent !== null);
  return shown.map(i => ({src: i.src, width: i.naturalWidth, complete: i.complete}));
}"""


def test_the_preliminaries_have_a_moving_figure_and_questions():
    """Guards the parametrisations below against testing nothing."""
    assert PRELIMINARIES in MOVING and PRELIMINARIES in QUIZZES


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", MOVING)
def test_interactive_figures_move_without_a_kernel(
    browser, server, page, theme
):
    """Each slider of each interactive figure, pressed as a reader does with
    the keyboard, shows another frame; the page is offline, with no kernel."""
    seen = Visit(browser, f"{server}/{page}.html", theme=theme)
    try:
        seen.page.wait_for_function(
            "() => document.querySelectorAll('.cell_output .widget-vbox .widget-image').length > 0"
        )
        figures = seen.page.locator(
            ".cell_output .widget-vbox:has(.widget-image)"
        )
        expected = len(calls_in(page, "interactive_figure"))
        assert figures.count() == expected, (
            f"{page}: {figures.count()} of {expected} figures rendered"
        )
        for k in range(figures.count()):
            figure = figures.nth(k)
            sliders = figure.locator(".widget-slider .noUi-handle")
            assert sliders.count() >= 1
            for s in range(sliders.count()):
                before = figure.evaluate(SHOWN_FRAME)
                assert len(before) == 1 and before[0]["width"] > 0, before
                if page == PRELIMINARIES and k == 0 and s == 0:
                    sliders.nth(s).scroll_into_view_if_needed()
                    screenshot(seen.page, f"moving-figure-{theme}-1")
                sliders.nth(s).focus()
                for _ in range(3):
                    seen.page.keyboard.press("ArrowRight")
                seen.page.wait_for_timeout(300)
                after = figure.evaluate(SHOWN_FRAME)
                if after == before:  # at the right end: move the other way
                    for _ in range(6):
                        seen.page.keyboard.press("ArrowLeft")
                    seen.page.wait_for_timeout(300)
                    after = figure.evaluate(SHOWN_FRAME)
                assert len(after) == 1 and after[0]["width"] > 0
                assert after[0]["src"] != before[0]["src"], (
                    f"{page}: slider {s} of figure {k} moved, the frame did not"
                )
                if page == PRELIMINARIES and k == 0 and s == 0:
                    screenshot(seen.page, f"moving-figure-{theme}-2")
        assert not seen.errors and not seen.left_the_machine, (
            seen.errors + seen.left_the_machine
        )
    finally:
        seen.close()


def quiz_questions(page):
    return [
        question
        for call in calls_in(page, "self_check")
        for question in ast.literal_eval(call.args[0])
    ]


def answer(seen, question, right):
    """Give the right or a wrong answer to a question; return its feedback
    (text, whether marked correct, and its contrast with its background)."""
    box = seen.page.locator(
        ".Quiz", has=seen.page.get_by_text(question["question"], exact=True)
    ).first
    box.scroll_into_view_if_needed()
    if question["type"] == "multiple_choice":
        choice = next(a for a in question["answers"] if a["correct"] == right)
        # the whole text: one answer may contain another ("τ² φᵀφ", "φᵀφ")
        whole = re.compile(rf"^\s*{re.escape(choice['answer'])}\s*$")
        box.locator(".MCButton").filter(has_text=whole).first.click()
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
        field = box.locator(".Input-text")
        field.fill(str(given))
        field.press("Enter")
    feedback = box.locator(".Feedback")
    feedback.wait_for(state="visible")
    seen.page.wait_for_timeout(900)  # the answer's colour animation
    return feedback.evaluate(
        f"""f => ({{text: f.textContent, correct: f.classList.contains('correct'),
                   contrast: ({CONTRAST_OF})(f)}})"""
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


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("page", QUIZZES)
def test_self_check_questions_answer_right_and_wrong(
    browser, server, page, theme
):
    """A wrong answer, then the right one, to every question: each gets its
    own feedback at once, readable in both themes, offline."""
    seen = Visit(browser, f"{server}/{page}.html", theme=theme)
    try:
        seen.page.wait_for_function(
            "() => document.querySelectorAll('.Quiz').length > 0"
        )
        questions = quiz_questions(page)
        assert seen.page.locator(".Quiz").count() == len(questions)
        for question in questions:
            wrong = answer(seen, question, right=False)
            assert not wrong["correct"] and wrong["text"].strip(), wrong
            right = answer(seen, question, right=True)
            expected = next(a for a in question["answers"] if a["correct"])
            assert right["correct"], f"{page}: {question['question']}: {right}"
            assert right["text"].strip() == expected["feedback"].strip()
            for feedback in (wrong, right):
                assert feedback["contrast"] >= MIN_CONTRAST, (
                    f"{page} ({theme}): feedback {feedback}"
                )
            if page == PRELIMINARIES and question is questions[0]:
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
        seen.close()


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
    79 characters it fits the column like the chapter's own code. (Printed
    text, the stream outputs, may be wider and scroll.)"""
    widths = visit(page).page.evaluate(
        CODE_WIDTHS, ".cell_output .output.text_html div.highlight pre"
    )
    cells = json.loads((ROOT / f"{page}.ipynb").read_text())["cells"]
    calls = sum(
        len(re.findall(r"^show_source\(", "".join(c["source"]), re.M))
        for c in cells
        if c["cell_type"] == "code"
    )
    assert len(widths) == calls, f"{page}: {calls} calls, {len(widths)} shown"
    cut = [w for w in widths if w["overflow"] > 0]
    assert not cut, f"{page}: shown source cut off: {cut[:3]}"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_the_longest_code_line_of_the_preliminaries(
    browser, server, theme
):
    seen = Visit(browser, f"{server}/{PRELIMINARIES}.html", theme=theme)
    try:
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
        seen.close()


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


def test_the_site_has_a_favicon_and_describes_its_pages(visit, server):
    from urllib.request import urlopen

    with urlopen(f"{server}/favicon.ico") as response:  # for pages naming none
        assert response.status == 200 and response.read(4) == b"\0\0\1\0"
    seen = visit(PRELIMINARIES)
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
