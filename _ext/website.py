"""What the website needs beyond Jupyter Book's defaults (a Sphinx extension, see _config.yml).

1. **Serve the widget JavaScript from the site.** ``static/`` holds require.js and the
   ipywidgets HTML manager (vendored with their licences; provenance in ``README.md``), which
   ``nb_ipywidgets_js`` in ``_config.yml`` points at, so widget demos render with no network.
   The folder is added to ``html_static_path`` here, after Jupyter Book has read its
   configuration, because Jupyter Book links *every* ``.js`` file under a static path into
   *every* page: a 3.6 MB widget bundle would then load on pages without widgets. (MathJax comes
   from the ``sphinx-mathjax-offline`` package, listed in ``_config.yml``.)
2. **Tell require.js where the widget bundle lives.** ``embed-amd.js`` locates its fonts from
   the module path ``@jupyter-widgets/html-manager/dist``, which require.js resolves relative to
   the page (a 404 for every font); a ``require`` configuration object defined before
   require.js loads maps that path to the bundle's folder.
3. **Let widget labels use MathJax 3.** The HTML manager typesets widget descriptions with
   MathJax 2's ``MathJax.Hub.Queue``, which MathJax 3 (the book's) lacks: a TypeError on every
   page with a widget. A small adapter maps it to MathJax 3's ``typesetPromise``.
4. **One search field.** pydata-sphinx-theme 0.16+ adds a header bar holding a second search
   field above the book theme's own (sidebar) one; an empty ``navbar_persistent`` removes it.
5. **Drop duplicated inline scripts.** With Sphinx 7.4, the inline configuration scripts of
   sphinx-togglebutton and sphinx-thebe reach every page twice; the second
   ``const THEBE_JS_URL = ...`` is a SyntaxError in the reader's console.
6. **The book's style sheet**, ``static/book/book.css``: a code column that holds 79
   characters, and quiet summaries for folded verification cells.
7. **A favicon and what a shared link shows.** ``static/book/favicon.ico`` is the pages'
   icon and is also copied to the site's root, where browsers look for it on pages that
   name none (Jupyter Book's ``index.html`` redirect). sphinxext-opengraph writes each
   page's title, description and the book's preview picture (``static/book/
   social-preview.png``; both drawn by ``brand.py``) as Open Graph metadata, with
   absolute addresses under ``html.baseurl`` from ``_config.yml`` or, without one, the
   repository's GitHub Pages address.
"""

import json
import posixpath
import shutil
from pathlib import Path
from urllib.parse import urlsplit

STATIC = Path(__file__).parent / "static"
FAVICON = STATIC / "book" / "favicon.ico"
REQUIRE_PRIORITY = 500  # MyST-NB adds require.js and embed-amd.js at Sphinx's default priority


def configure(app, config):
    config.html_static_path.append(str(STATIC))
    config.html_theme_options.setdefault("navbar_persistent", [])
    config.html_favicon = str(FAVICON)
    config.ogp_site_name = config.ogp_site_name or config.html_title
    if not config.ogp_site_url:
        config.ogp_site_url = config.html_baseurl or github_pages_url(
            config.html_theme_options.get("repository_url", "")
        )


def github_pages_url(repository):
    """https://github.com/owner/name -> https://owner.github.io/name/"""
    owner, _, name = urlsplit(repository).path.strip("/").partition("/")
    return f"https://{owner}.github.io/{name}/" if owner and name else ""


def favicon_at_the_root(app, exception):
    if exception is None and app.builder.format == "html":
        shutil.copy(FAVICON, Path(app.outdir) / "favicon.ico")


# Widgets render on the window's load event, after MathJax (deferred) has started.
MATHJAX2_ADAPTER = """window.addEventListener("DOMContentLoaded", () => {
  if (window.MathJax && MathJax.startup && !MathJax.Hub) {
    MathJax.Hub = {Queue: ([, , element]) => MathJax.startup.promise.then(() => MathJax.typesetPromise([element]))};
  }
});"""


def configure_widgets(app, pagename, templatename, context, doctree):
    bundle = next(
        (
            getattr(s, "filename", s)
            for s in context.get("script_files", [])
            if str(getattr(s, "filename", s) or "").endswith("/embed-amd.js")
        ),
        None,
    )
    if bundle:
        folder = context["pathto"](posixpath.dirname(bundle), resource=True)
        paths = json.dumps({"@jupyter-widgets/html-manager/dist": folder})
        app.add_js_file(
            None,
            body=f"var require = {{paths: {paths}}};",
            priority=REQUIRE_PRIORITY - 1,
        )
        app.add_js_file(
            None, body=MATHJAX2_ADAPTER, priority=REQUIRE_PRIORITY - 1
        )


def drop_duplicate_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        key = (
            getattr(script, "filename", script) or "",
            tuple(sorted(getattr(script, "attributes", {}).items())),
        )
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.connect("config-inited", configure)
    app.add_css_file("book/book.css")
    app.connect("build-finished", favicon_at_the_root)
    # both run after the extensions have added their scripts for the page (default priority 500)
    app.connect("html-page-context", configure_widgets, priority=800)
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
