"""What a chapter page loads, and each thing once (a Sphinx extension; HTML).

A notebook keeps every output whole, as JupyterLab and Colab need it; a web
page that did the same would weigh 5-12 MB. Three kinds of output are served
differently on the website:

1. **Interactive figures** (``mllib.plotting.interactive_figure``) carry
   every frame as a data URI. Here each frame becomes an image file in
   ``_images/``, named by its content; the start frame loads when the figure
   scrolls into view (``loading="lazy"``), the others when the reader first
   touches a slider (the figure's own script).
2. **Self-check questions** (``mllib.notebook.self_check``) carry
   jupyterquiz's code and style in every quiz, marked
   ``data-self-check-library``. Here they are served once, as
   ``_static/self-check/<digest>.js`` and ``.css``, which every page shares
   and the browser caches.
3. **Figures** are PNGs of up to 256 colours (as the frames of interactive
   figures already are): about a third of matplotlib's RGBA bytes, with the
   antialiased edges kept. The notebooks keep matplotlib's own.
4. **Widgets.** The chapters' only widgets are tqdm's progress bars, which
   would need the 3.6 MB ipywidgets manager to draw their final state. Here
   that state, saved with the notebook, is drawn as plain HTML when the book
   is built (the bar and its text), and no widget manager loads. A widget
   of another kind, which a static page could not honestly show (it would
   need a kernel), is a build warning that names it: draw the frames with
   ``interactive_figure`` instead.
"""

import base64
import hashlib
import html
import io
import json
import os
import posixpath
import re
from pathlib import Path

from docutils import nodes
from myst_nb.sphinx_ import NbMetadataCollector
from sphinx.util import logging

logger = logging.getLogger(__name__)

FRAME = re.compile(r"data:image/(png|jpeg|webp);base64,([A-Za-z0-9+/=]+)")
FRAME_IMAGE = '<img class="interactive-figure-frame" '
QUIZ_LIBRARY = re.compile(
    r"<(script|style) data-self-check-library>(.*?)</\1>", re.DOTALL
)
WIDGET_VIEW = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-view\+json">'
    r"(.*?)</script>",
    re.DOTALL,
)
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
SHARED_FILES = "page_assets"  # the doctree attribute naming the page's files


def write_once(path, content):
    """Write ``content`` to ``path`` unless it is there (names are digests)."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(content)
    os.replace(partial, path)


def digest(content):
    return hashlib.sha256(content).hexdigest()[:20]


def relative_uri(app, docname, target):
    page = app.builder.get_target_uri(docname)
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def frames_as_files(app, docname, text):
    """An interactive figure with its frames as lazily loaded files."""

    def to_file(match):
        kind, data = match.groups()
        content = base64.b64decode(data)
        name = f"frame-{digest(content)}.{kind}"
        write_once(Path(app.outdir) / "_images" / name, content)
        return relative_uri(app, docname, f"_images/{name}")

    text = FRAME.sub(to_file, text)
    return text.replace(FRAME_IMAGE, FRAME_IMAGE + 'loading="lazy" ')


def quiz_library_shared(app, text, shared):
    """A quiz without jupyterquiz's code and style, which go to ``shared``."""

    def to_file(match):
        kind, content = match.groups()
        content = content.encode()
        suffix = "js" if kind == "script" else "css"
        name = f"self-check/{digest(content)}.{suffix}"
        write_once(Path(app.outdir) / "_static" / name, content)
        shared.add(name)
        return ""

    return QUIZ_LIBRARY.sub(to_file, text)


class UnsupportedWidget(ValueError):
    pass


BOXES = {"HBoxModel": "hbox", "VBoxModel": "vbox", "BoxModel": "box"}


def widget_snapshot(states, reference):
    """The saved state of a widget as static HTML ("" for a widget that was
    closed before the notebook was saved: a reader sees none either)."""
    model = states.get(reference.removeprefix("IPY_MODEL_"))
    if model is None:
        return ""
    kind, state = model["model_name"], model["state"]
    layout = states.get(
        str(state.get("layout", "")).removeprefix("IPY_MODEL_"), {}
    ).get("state", {})
    if layout.get("display") == "none" or layout.get("visibility") == "hidden":
        return ""
    label = state.get("description") or ""
    if label and not state.get("description_allow_html"):
        label = html.escape(label)
    label = (
        f'<span class="widget-snapshot-label">{label}</span>' if label else ""
    )
    if kind in BOXES:
        children = "".join(
            widget_snapshot(states, c) for c in state["children"]
        )
        return f'<div class="widget-snapshot {BOXES[kind]}">{children}</div>'
    if kind in ("HTMLModel", "HTMLMathModel", "LabelModel"):
        value = str(state["value"])  # HTML the kernel wrote, or text
        if kind == "LabelModel":
            value = html.escape(value)
        return f'{label}<span class="widget-snapshot-html">{value}</span>'
    if kind in ("FloatProgressModel", "IntProgressModel"):
        low, high = state["min"], state["max"]
        done = min(max(state["value"], low), high) - low
        style = state.get("bar_style") or "info"
        return (
            f'{label}<progress class="widget-snapshot-progress {style}" '
            f'max="{high - low}" value="{done}"></progress>'
        )
    raise UnsupportedWidget(kind)


def widgets_as_snapshots(app, docname, text):
    """Widget views replaced by their saved state, drawn as HTML."""
    _, state_script = NbMetadataCollector.get_js_files(app.env, docname).get(
        "ipywidgets_state", (None, {"body": '{"state": {}}'})
    )
    states = json.loads(state_script["body"])["state"]

    def draw(match):
        model = json.loads(match.group(1))["model_id"]
        try:
            return widget_snapshot(states, model)
        except UnsupportedWidget as error:
            logger.warning(
                f"a {error} widget cannot show on the website, which draws a "
                "widget's saved state and runs no kernel: draw the frames "
                "with mllib.plotting.interactive_figure instead",
                location=docname,
            )
            return ""

    return WIDGET_VIEW.sub(draw, text)


def serve_outputs_once(app, doctree, docname):
    if app.builder.format != "html":
        return
    shared = set()
    for raw in list(doctree.findall(nodes.raw)):
        if "html" not in raw.get("format", "").split():
            continue
        text = original = raw.astext()
        if "interactive-figure-frames" in text:
            text = frames_as_files(app, docname, text)
        if "data-self-check-library" in text:
            text = quiz_library_shared(app, text, shared)
        if "application/vnd.jupyter.widget-view+json" in text:
            text = widgets_as_snapshots(app, docname, text)
        if text != original:
            raw.replace_self(nodes.raw("", text, format="html"))
    doctree[SHARED_FILES] = sorted(shared)


def link_shared_files(app, pagename, templatename, context, doctree):
    """The page's shared files, and no widget state (drawn already)."""
    if doctree is None:
        return
    for name in doctree.get(SHARED_FILES, []):
        if name.endswith(".js"):
            app.add_js_file(name, loading_method="defer")
        else:
            app.add_css_file(name)
    if context.get("script_files"):
        context["script_files"] = [
            script
            for script in context["script_files"]
            if getattr(script, "attributes", {}).get("type") != WIDGET_STATE
        ]


def compact_figures(app, exception):
    """Every figure in ``_images/`` as a PNG of at most 256 colours."""
    if exception is not None or app.builder.format != "html":
        return
    from PIL import Image

    for path in (Path(app.outdir) / "_images").glob("*.png"):
        with Image.open(path) as image:
            if image.mode == "P":  # compact already (the frames)
                continue
            if (
                "A" in image.getbands()
                and image.getchannel("A").getextrema()[0] < 255
            ):
                continue  # see-through somewhere: keep its alpha
            compact = image.convert("RGB").quantize(colors=256)
        buffer = io.BytesIO()
        compact.save(buffer, format="png", optimize=True)
        if buffer.tell() < path.stat().st_size:
            path.write_bytes(buffer.getvalue())


def setup(app):
    app.connect("doctree-resolved", serve_outputs_once)
    app.connect("build-finished", compact_figures)
    # after myst-nb has added the page's widget state (default priority 500)
    app.connect("html-page-context", link_shared_files, priority=700)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
