"""The book's figure style and the plotting helpers chapters share.

Call :func:`set_style` once at the top of a chapter. Figures get an opaque white
background with dark text, so they stay readable on both the light and the dark
website theme (a transparent figure with black text disappears on a dark page),
and a colour-blind-safe palette (Okabe & Ito, 2008) in which every colour also
differs in lightness.
"""

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
    """Apply the book's matplotlib style (an opaque white canvas, the Okabe–Ito cycle).

    In a notebook, every figure is then also attached as a vector PDF, besides the image
    Jupyter and the website show, so that the PDF edition of the book prints it sharp.
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
    """A regular ``n`` × ``n`` grid: returns ``(xx, yy, points)`` with ``points`` of shape (n*n, 2)."""
    xx, yy = np.meshgrid(np.linspace(*xlim, n), np.linspace(*ylim, n))
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def plot_contours(
    f, xlim, ylim, *, ax=None, levels=15, filled=False, n=200, **kwargs
):
    """Contours of a function of two variables.

    Parameters
    ----------
    f : callable
        Vectorised: maps an array of shape (m, 2) of points to an array of shape (m,).
    xlim, ylim : (float, float)
        Plotting window.
    levels : int or sequence of float
        Passed to ``contour`` / ``contourf``.
    filled : bool
        Filled contours instead of lines.
    **kwargs
        Passed to ``contour`` / ``contourf`` (``colors``, ``linestyles``, ``cmap``, ...).

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
    """Shade the regions where a classifier predicts each class, and scatter the data on top.

    Parameters
    ----------
    predict : callable
        Maps an array of shape (m, 2) to m class labels (e.g. ``estimator.predict``).
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    margin : float
        Extra room around the data in each direction.
    """
    ax = ax or plt.gca()
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(
            f"plot_decision_regions needs 2-D points, X of shape (n, 2); got {X.shape}."
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
