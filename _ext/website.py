"""What the website needs beyond Jupyter Book's defaults (a Sphinx extension, see _config.yml).

1. **One search field.** pydata-sphinx-theme 0.16+ adds a header bar holding a second search
   field above the book theme's own (sidebar) one; an empty ``navbar_persistent`` removes it.
2. **Drop duplicated inline scripts.** With Sphinx 7.4, the inline configuration scripts of
   sphinx-togglebutton and sphinx-thebe reach every page twice; the second
   ``const THEBE_JS_URL = ...`` is a SyntaxError in the reader's console.
3. **The book's style sheet**, ``static/book/book.css``: a code column that holds 79
   characters, quiet summaries for folded verification cells, and the display equations'
   fit (below).
4. **A favicon and what a shared link shows.** ``static/book/favicon.ico`` is the pages'
   icon and is also copied to the site's root, where browsers look for it on pages that
   name none (Jupyter Book's ``index.html`` redirect). sphinxext-opengraph writes each
   page's title, description and the book's preview picture (``static/book/
   social-preview.png``; both drawn by ``brand.py``) as Open Graph metadata, with
   absolute addresses under ``html.baseurl`` from ``_config.yml`` or, without one, the
   repository's GitHub Pages address.
5. **Icons from the theme's web font, not its 1.5 MB script.** pydata-sphinx-theme loads
   Font Awesome's SVG script on every page, although its style sheet already draws the
   same icons with Font Awesome's web fonts. ``templates/static/webpack-macros.html`` is
   the theme's own asset list without the script, and the fonts are cut down to the icons
   the site uses (found in its pages and scripts; 280 KB become a few): ``book.css``
   declares them after the theme's, so they are the ones fetched. Nor does a page load Sphinx's search index (300 KB with its tools), which only
   the search page uses: the book does not search as you type (``templates/layout.html``).
6. **A folded cell keeps its summary when opened.** A verification cell folded under
   "Verification: ..." (``mystnb.code_prompt_show``) would relabel itself "Hide code cell
   content" once opened; it keeps its summary unless it sets ``code_prompt_hide``.
7. **Display equations that fit the column.** MathJax 3 cannot break a long display
   over lines. ``static/book/fit-equations.js`` scales a display that is wider than its
   column down to fit, beside its equation number, on a phone as on a desktop; one that
   would need to shrink below 60 % keeps that size and scrolls, with a shade at the edge
   that has more.
8. **The PDF edition, when there is one.** The home page links ``book.pdf`` only when the
   site has it: when ``_build/latex/book.pdf`` exists next to the site being built (``jupyter-book
   build . --builder pdflatex`` made it), this copies it into the site and sets the
   ``pdf_edition`` tag that ``intro.md``'s link needs. A site built without it links none.

``page_assets.py`` serves what outputs share (figure frames, the self-check code) once per
page, and draws the widgets' saved state, so that no widget manager loads.
"""

import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

STATIC = Path(__file__).parent / "static"
TEMPLATES = Path(__file__).parent / "templates"
FAVICON = STATIC / "book" / "favicon.ico"
PDF_EDITION = "book.pdf"


def configure(app, config):
    config.html_static_path.append(str(STATIC))
    config.templates_path.append(str(TEMPLATES))
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


def pdf_edition(app):
    """``_build/latex/book.pdf`` beside the site being built, or None."""
    built = Path(app.outdir).parent / "latex" / PDF_EDITION
    return built if built.is_file() else None


def tag_the_pdf_edition(app):
    if app.builder.format == "html" and pdf_edition(app):
        app.tags.add("pdf_edition")


def favicon_and_pdf_at_the_root(app, exception):
    if exception is None and app.builder.format == "html":
        shutil.copy(FAVICON, Path(app.outdir) / "favicon.ico")
        if built := pdf_edition(app):
            shutil.copy(built, Path(app.outdir) / PDF_EDITION)


ICON_FONTS = {  # Font Awesome's fonts as the theme ships them -> ours, cut down
    "fa-solid-900.ttf": "fa-solid-900.woff",
    "fa-regular-400.ttf": "fa-regular-400.woff",
    "fa-brands-400.ttf": "fa-brands-400.woff",
}
ICON_NAME = re.compile(r"\bfa-([a-z0-9-]+)")
ICON_GLYPHS = re.compile(r'([^{}]+)\{content:"\\([0-9a-f]{4,5})"\}')
# An icon a style sheet draws itself (the theme's admonition icons, a dropdown's
# chevron): a character of Font Awesome's range, written out or as a CSS escape.
DRAWN_ICON = re.compile(r"[\ue000-\uf8ff]|\\([ef][0-9a-f]{3})(?![0-9a-f])")


def icons_in_use(out):
    """The code points of the Font Awesome icons the site's pages and
    scripts name (a class such as ``fa-github``), from the theme's CSS, and
    of those its style sheets draw themselves (without them, a chapter page
    fetched the theme's whole 156 KB solid font for its admonitions)."""
    css = (out / "_static" / "styles" / "pydata-sphinx-theme.css").read_text()
    glyphs = {
        name: int(code, 16)
        for selectors, code in ICON_GLYPHS.findall(css)
        for name in re.findall(r"\.fa-([a-z0-9-]+):+before", selectors)
    }
    texts = [path.read_text() for path in out.rglob("*.html")]
    texts += [
        path.read_text()
        for path in (out / "_static").rglob("*.js")
        if path.name != "fontawesome.js"  # every icon, and not loaded
    ]
    named = {
        glyphs[name]
        for text in texts
        for name in ICON_NAME.findall(text)
        if name in glyphs
    }
    # without the theme's one rule per icon, which names them all
    sheets = [
        ICON_GLYPHS.sub("", path.read_text())
        for path in (out / "_static").rglob("*.css")
        if "fontawesome" not in path.parts
    ]
    drawn = {
        int(match[1], 16) if match[1] else ord(match[0])
        for sheet in sheets
        for match in DRAWN_ICON.finditer(sheet)
    }
    return named | drawn


def cut_down_icon_fonts(app, exception):
    """Font Awesome's fonts with only the icons the site uses, as WOFF
    (zlib: fontTools writes WOFF 2 only with the brotli package)."""
    if exception is not None or app.builder.format != "html":
        return
    from fontTools import subset

    out = Path(app.outdir)
    fonts = out / "_static" / "vendor" / "fontawesome" / "webfonts"
    ours = out / "_static" / "book" / "icons"
    ours.mkdir(parents=True, exist_ok=True)
    options = subset.Options(flavor="woff", layout_features=["*"])
    codes = icons_in_use(out)
    for theirs, cut in ICON_FONTS.items():
        font = subset.load_font(str(fonts / theirs), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=codes)
        subsetter.subset(font)
        subset.save_font(font, str(ours / cut), options)


class FoldKeepsItsSummary(SphinxPostTransform):
    """A folded cell with a summary of its own (``code_prompt_show``) shows
    it open too, unless it sets ``code_prompt_hide``. Runs before myst-nb
    wraps the cell (its HideInputCells, priority 199)."""

    default_priority = 190
    formats = ("html",)

    def run(self, **kwargs):
        for cell in self.document.findall(nodes.container):
            if cell.get("nb_element") != "cell_code" or not cell.get(
                "hide_mode"
            ):
                continue
            prompts = cell.get("cell_metadata", {}).get("mystnb", {})
            if (
                "code_prompt_show" in prompts
                and "code_prompt_hide" not in prompts
            ):
                cell["prompt_hide"] = cell["prompt_show"]


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
    app.connect("builder-inited", tag_the_pdf_edition)
    app.add_css_file("book/book.css")
    app.add_js_file("book/fit-equations.js", loading_method="defer")
    app.add_post_transform(FoldKeepsItsSummary)
    app.connect("build-finished", favicon_and_pdf_at_the_root)
    app.connect("build-finished", cut_down_icon_fonts)
    # after the extensions have added their scripts for the page (default priority 500)
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
