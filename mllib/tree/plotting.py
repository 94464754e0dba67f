"""Drawing a fitted tree as a diagram (scikit-learn's
``sklearn.tree.plot_tree``, simplified)."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgb

from ..plotting import PALETTE
from .structure import TREE_LEAF


def plot_tree(
    model,
    *,
    feature_names=None,
    class_names=None,
    ax=None,
    precision=2,
    fontsize=8,
):
    """Draw a fitted decision tree: each internal node shows its test, each
    leaf its prediction.

    Leaves are spread evenly from left to right in depth-first order, and every
    internal node sits above the middle of its leaves; the left branch of a
    test is the "yes" branch. A classifier's leaves are coloured by their
    majority class (the book's palette).

    Parameters
    ----------
    model : a fitted ``DecisionTreeClassifier`` or ``DecisionTreeRegressor``
    feature_names, class_names : list of str, optional
    ax : matplotlib Axes, optional
    precision : int
        Decimals of thresholds and values.

    Returns
    -------
    matplotlib Axes
    """
    ax = ax or plt.gca()
    t = model.tree_
    classes = getattr(model, "classes_", None)
    feature_names = feature_names or [
        f"x{j + 1}" for j in range(model.n_features_in_)
    ]
    x = np.zeros(t.node_count)
    # preorder visits the leaves left to right
    x[t.is_leaf] = np.arange(t.n_leaves)
    for node in range(t.node_count - 1, -1, -1):  # children before parents
        if not t.is_leaf[node]:
            x[node] = (
                x[t.children_left[node]] + x[t.children_right[node]]
            ) / 2
    for node in range(t.node_count):
        for child, label in (
            (t.children_left[node], "yes"),
            (t.children_right[node], "no"),
        ):
            if child != TREE_LEAF:
                ax.plot(
                    [x[node], x[child]],
                    [-t.depth[node], -t.depth[child]],
                    color="0.6",
                    lw=1,
                    zorder=1,
                )
                ax.annotate(
                    label,
                    (
                        (x[node] + x[child]) / 2,
                        -(t.depth[node] + t.depth[child]) / 2,
                    ),
                    fontsize=fontsize - 1,
                    color="0.35",
                    ha="center",
                    va="center",
                )
        if t.is_leaf[node] and classes is not None:
            k = int(np.argmax(t.value[node, 0]))
            name = (
                class_names[k] if class_names is not None else str(classes[k])
            )
            text, color = (
                f"{name}\nn = {t.n_node_samples[node]}",
                PALETTE[k % len(PALETTE)],
            )
        elif t.is_leaf[node]:
            text, color = (
                f"{t.value[node, 0, 0]:.{precision}f}\nn = "
                f"{t.n_node_samples[node]}",
                "#dddddd",
            )
        else:
            text, color = (
                f"{feature_names[t.feature[node]]} ≤ "
                f"{t.threshold[node]:.{precision}f}",
                "white",
            )
        red, green, blue = to_rgb(color)
        # relative luminance, roughly
        dark_box = 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.5
        ax.text(
            x[node],
            -t.depth[node],
            text,
            ha="center",
            va="center",
            fontsize=fontsize,
            zorder=2,
            color="white" if dark_box else "#1a1a1a",
            bbox=dict(
                boxstyle="round,pad=0.3", facecolor=color, edgecolor="0.4"
            ),
        )
    ax.set(
        xlim=(-0.7, max(t.n_leaves, 1) - 0.3), ylim=(-t.max_depth - 0.6, 0.6)
    )
    ax.axis("off")
    return ax
