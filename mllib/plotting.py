"""The book's figure style and the plotting helpers chapters share.

Call :func:`set_style` once at the top of a chapter. Figures get an opaque
white background with dark text, so they stay readable on both the light and
the dark website theme (a transparent figure with black text disappears on a
dark page), and a colour-blind-safe palette (Okabe & Ito, 2008) in which every
colour also differs in lightness.
"""

import base64
import html
import io
import itertools
import json

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

#: Okabe–Ito colours, in the order the style cycles through them.
PALETTE = [
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
]

_STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 110,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "savefig.transparent": False,
    "axes.facecolor": "white",
    "axes.edgecolor": "#333333",
    "axes.labelcolor": "#1a1a1a",
    "axes.titlesize": "medium",
    "axes.grid": True,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "xtick.color": "#333333",
    "ytick.color": "#333333",
    "text.color": "#1a1a1a",
    "legend.frameon": True,
    "legend.framealpha": 0.9,
    "legend.edgecolor": "#cccccc",
    "lines.linewidth": 1.8,
    "image.cmap": "viridis",
}


def set_style():
    """Apply the book's matplotlib style (an opaque white canvas, the Okabe–Ito
    cycle).

    In a notebook, every figure is then also attached as a vector PDF, besides
    the image Jupyter and the website show, so that the PDF edition of the book
    prints it sharp.
    """
    mpl.rcParams.update(_STYLE)
    _also_attach_vector_pdf()


def _also_attach_vector_pdf():
    try:
        from IPython import get_ipython
        from matplotlib_inline.config import InlineBackend
    except ImportError:
        return
    if get_ipython() is not None:
        backend = InlineBackend.instance()
        backend.figure_formats = set(backend.figure_formats) | {"pdf"}


def grid_2d(xlim, ylim, n=200):
    """A regular ``n`` × ``n`` grid: returns ``(xx, yy, points)`` with
    ``points`` of shape (n*n, 2)."""
    xx, yy = np.meshgrid(np.linspace(*xlim, n), np.linspace(*ylim, n))
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def plot_contours(
    f, xlim, ylim, *, ax=None, levels=15, filled=False, n=200, **kwargs
):
    """Contours of a function of two variables.

    Parameters
    ----------
    f : callable
        Vectorised: maps an array of shape (m, 2) of points to an array of
        shape (m,).
    xlim, ylim : (float, float)
        Plotting window.
    levels : int or sequence of float
        Passed to ``contour`` / ``contourf``.
    filled : bool
        Filled contours instead of lines.
    **kwargs
        Passed to ``contour`` / ``contourf`` (``colors``, ``linestyles``,
        ``cmap``, ...).

    Returns
    -------
    matplotlib.contour.QuadContourSet
    """
    ax = ax or plt.gca()
    xx, yy, points = grid_2d(xlim, ylim, n)
    zz = np.asarray(f(points), dtype=float).reshape(xx.shape)
    draw = ax.contourf if filled else ax.contour
    return draw(xx, yy, zz, levels=levels, **kwargs)


def plot_decision_regions(
    predict, X, y, *, ax=None, margin=0.5, n=300, alpha=0.2
):
    """Shade the regions where a classifier predicts each class, and scatter
    the data on top.

    Parameters
    ----------
    predict : callable
        Maps an array of shape (m, 2) to m class labels (e.g.
        ``estimator.predict``).
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    margin : float
        Extra room around the data in each direction.
    """
    ax = ax or plt.gca()
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(
            "plot_decision_regions needs 2-D points, X of shape (n, 2); "
            f"got {X.shape}."
        )
    classes = np.unique(y)
    colors = mpl.colors.ListedColormap(PALETTE[: len(classes)])
    xlim = (X[:, 0].min() - margin, X[:, 0].max() + margin)
    ylim = (X[:, 1].min() - margin, X[:, 1].max() + margin)
    xx, yy, points = grid_2d(xlim, ylim, n)
    region = np.searchsorted(classes, np.asarray(predict(points))).reshape(
        xx.shape
    )
    ax.contourf(
        xx,
        yy,
        region,
        levels=np.arange(len(classes) + 1) - 0.5,
        cmap=colors,
        alpha=alpha,
    )
    markers = "os^vDP*"
    for k, label in enumerate(classes):
        ax.scatter(
            *X[y == label].T,
            color=PALETTE[k],
            marker=markers[k % len(markers)],
            edgecolor="white",
            linewidth=0.5,
            label=str(label),
        )
    ax.set(xlim=xlim, ylim=ylim)
    ax.legend(title="class")
    return ax


def plot_loss_curves(
    curves, *, ax=None, log=True, xlabel="iteration", ylabel="objective"
):
    """Plot several convergence curves against the iteration number.

    Parameters
    ----------
    curves : dict of str to array-like
        Label → values per iteration.
    log : bool
        Logarithmic y-axis (the natural scale for convergence rates).
    """
    ax = ax or plt.gca()
    for label, values in curves.items():
        ax.plot(np.arange(len(values)), values, label=label)
    if log:
        ax.set_yscale("log")
    ax.set(xlabel=xlabel, ylabel=ylabel)
    ax.legend()
    return ax


def interactive_figure(draw, /, *, start=None, **parameters):
    """Show a figure with a slider per parameter that moves with no kernel.

    Every frame is drawn now, once for each combination of the parameter
    values, and the sliders only choose which frame to show. The control is
    plain HTML with a few lines of JavaScript, no widget: it moves the same
    in JupyterLab, Colab and on the static website (which serves the frames
    as image files, loaded when the figure scrolls into view), and the PDF
    edition prints the ``start`` frame as a vector figure. Where scripts do
    not run (an untrusted notebook), the start frame shows, still.

    Parameters
    ----------
    draw : callable
        ``draw(**values)`` draws one frame on a new figure and returns that
        ``matplotlib.figure.Figure``; it must not call ``plt.show()``.
    start : dict, optional
        The value of each parameter shown first (and printed in the PDF);
        each must be one of its values. By default, the first value of each.
    **parameters : 1-D sequence
        For each keyword argument of ``draw``, the values its slider steps
        through, in order. A frame is drawn for every combination, so keep
        the product of their lengths small: the 38 frames of chapter 00 take
        about 7 s to draw.
    """
    from IPython.display import display

    display(_InteractiveFigure(draw, start or {}, parameters))


def _slider_label(value):
    return (
        str(value) if isinstance(value, (int, np.integer)) else f"{value:.3g}"
    )


# The figure as HTML: the start frame, a hidden slider per parameter, the
# frames (data URIs, in the row-major order of the sliders' indices) and
# the script that shows the sliders and swaps the frame when one moves.
# The class names and the JSON are what _ext/page_assets.py reads to serve
# the frames as files on the website.
FIGURE_HTML = """<div class="interactive-figure">
<img class="interactive-figure-frame" src="{start}" alt="{alt}"
 width="{width}" height="{height}" style="max-width: 100%; height: auto">
<div class="interactive-figure-sliders" hidden>{sliders}</div>
<script type="application/json" class="interactive-figure-frames">{frames}\
</script>
<script>{script}</script>
</div>"""
# data-lm-suppress-shortcuts: in JupyterLab, the arrow keys pressed on a
# slider move the slider, not the notebook's cursor (JupyterLab binds them
# for any focused element that is not a text field: a range input is not).
SLIDER_HTML = """
<label style="display: flex; align-items: center; gap: 0.5em;
 max-width: 32em">{name}
<input type="range" min="0" max="{last}" step="1" value="{start}"
 aria-valuetext="{label}" data-lm-suppress-shortcuts style="flex: 1">
<output>{label}</output></label>"""
# Frames load on the first touch of a slider, so that moving it is smooth.
FIGURE_SCRIPT = """(function () {
  var root = document.currentScript.parentNode;
  var data = JSON.parse(
    root.querySelector(".interactive-figure-frames").textContent);
  var image = root.querySelector(".interactive-figure-frame");
  var box = root.querySelector(".interactive-figure-sliders");
  var sliders = [].slice.call(box.querySelectorAll("input"));
  var loaded = false;
  function preload() {
    if (loaded) return;
    loaded = true;
    data.frames.forEach(function (src) { new Image().src = src; });
  }
  function show() {
    var index = 0;
    sliders.forEach(function (slider, k) {
      var i = +slider.value, label = data.labels[k][i];
      index = index * data.labels[k].length + i;
      slider.setAttribute("aria-valuetext", label);
      slider.nextElementSibling.textContent = label;
    });
    image.src = data.frames[index];
    image.alt = data.alt[index];
  }
  sliders.forEach(function (slider) {
    slider.addEventListener("input", show);
    ["pointerdown", "focus"].forEach(function (event) {
      slider.addEventListener(event, preload);
    });
  });
  box.hidden = false;
})();"""


class _InteractiveFigure:
    """The frames of :func:`interactive_figure` and how viewers show them.

    A display object with four forms: HTML with the sliders (Jupyter and
    the website), the ``start`` frame as PNG (any viewer without HTML) and
    as PDF (the PDF edition, which prefers it), and a line of text.
    """

    def __init__(self, draw, start, parameters):
        if not parameters:
            raise ValueError(
                "interactive_figure needs at least one parameter, e.g. "
                "interactive_figure(draw, theta=np.linspace(0, 1, 11))."
            )
        unknown = set(start) - set(parameters)
        if unknown:
            raise ValueError(
                f"start names {sorted(unknown)}, which are not parameters; "
                f"the parameters are {list(parameters)}."
            )
        self.names = list(parameters)
        self.values = []
        self.start_index = []
        for name, values in parameters.items():
            values = np.asarray(values)
            if values.ndim != 1 or len(values) == 0:
                raise ValueError(
                    f"{name}: give a non-empty 1-D sequence of values, "
                    f"got an array of shape {values.shape}."
                )
            self.values.append(values)
            first = start.get(name, values[0])
            matches = np.flatnonzero(np.isclose(values, first, rtol=0))
            if len(matches) == 0:
                raise ValueError(
                    f"start value {first!r} of {name} is not one of its "
                    "values; add it to the values or choose one of them."
                )
            self.start_index.append(int(matches[0]))
        self.frames = {}
        for index in itertools.product(*(range(len(v)) for v in self.values)):
            figure = draw(**self._values_at(index))
            if not isinstance(figure, mpl.figure.Figure):
                raise TypeError(
                    "draw must return the matplotlib Figure it drew on "
                    f"(e.g. `return fig`), not {type(figure).__name__}."
                )
            if figure.get_layout_engine() is None:
                # a fixed canvas with the labels inside it: frames of one size
                figure.set_layout_engine("constrained")
            self.frames[index] = _png(figure)
            if index == tuple(self.start_index):
                self.start_pdf = _savefig(figure, "pdf")
            plt.close(figure)
        self.html = self._html()  # once: every display shows the same

    def _values_at(self, index):
        return {
            name: values[i].item()
            for name, values, i in zip(self.names, self.values, index)
        }

    def _labels(self):
        return [[_slider_label(v.item()) for v in vs] for vs in self.values]

    def _description(self, index):
        labels = self._labels()
        shown = ", ".join(
            f"{name} = {labels[k][i]}"
            for k, (name, i) in enumerate(zip(self.names, index))
        )
        return f"Interactive figure, {len(self.frames)} frames: {shown}"

    def _html(self):
        labels = self._labels()
        start = tuple(self.start_index)
        width, height = _png_size(self.frames[start])
        sliders = "".join(
            SLIDER_HTML.format(
                name=html.escape(name),
                last=len(self.values[k]) - 1,
                start=self.start_index[k],
                label=html.escape(labels[k][self.start_index[k]]),
            )
            for k, name in enumerate(self.names)
        )
        frames = json.dumps(
            {
                "labels": labels,
                "alt": [self._description(i) for i in self.frames],
                "frames": [_data_uri(png) for png in self.frames.values()],
            },
            ensure_ascii=False,
        )
        return FIGURE_HTML.format(
            start=_data_uri(self.frames[start]),
            alt=html.escape(self._description(start)),
            width=width,
            height=height,
            sliders=sliders,
            frames=frames.replace("</", "<\\/"),
            script=FIGURE_SCRIPT,
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        start = tuple(self.start_index)
        ranges = ", ".join(
            f"{name} in [{_slider_label(v[0].item())}, "
            f"{_slider_label(v[-1].item())}]"
            for name, v in zip(self.names, self.values)
        )
        return {
            "text/plain": f"Figure with sliders, {len(self.frames)} frames: "
            + ranges,
            "text/html": self.html,
            "image/png": base64.b64encode(self.frames[start]).decode("ascii"),
            "application/pdf": base64.b64encode(self.start_pdf).decode(
                "ascii"
            ),
        }


def _data_uri(png):
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _png_size(png):
    """(width, height) in pixels, from the PNG's header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def _savefig(figure, fmt):
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt)
    return buffer.getvalue()


def _png(figure):
    """The figure as a PNG of at most 256 colours: about a third of the bytes
    of matplotlib's RGBA PNG, with the antialiased edges kept."""
    from PIL import Image

    image = Image.open(io.BytesIO(_savefig(figure, "png"))).convert("RGB")
    buffer = io.BytesIO()
    image.quantize(colors=256).save(buffer, format="png", optimize=True)
    return buffer.getvalue()
