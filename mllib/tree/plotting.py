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
    filled=False,
    ax=None,
    precision=3,
    fontsize=8,
):
    """Draw a fitted decision tree: each internal node shows its test, each
    leaf its prediction.

    Leaves are spread evenly from left to right in depth-first order, and every
    internal node sits above the middle of its leaves; the left branch of a
    test is the "yes" branch.

    Parameters
    ----------
    model : a fitted ``DecisionTreeClassifier`` or ``DecisionTreeRegressor``
        A leaf of a tree with several outputs shows its prediction for each,
        in parentheses.
    feature_names, class_names : list of str, optional
        ``class_names`` names the classes of a tree with one output.
    filled : bool
        Colour every node, as scikit-learn does: a classifier's node by its
        majority class (the book's palette), the more intense the purer
        (blended with white in proportion to :math:`(p_{(1)} -
        p_{(2)})/(1 - p_{(2)})`, the margin of the largest class proportion
        over the second); a regressor's node by its value, from white at the
        smallest to the palette's first colour at the largest; a node of a
        tree with several outputs by its impurity (the mean over the
        outputs), from white at the largest to the palette's first colour
        at the smallest. Otherwise every box is white (scikit-learn's
        default).
    ax : matplotlib Axes, optional
    precision : int
        Decimals of thresholds and values (scikit-learn's default, 3).

    Returns
    -------
    matplotlib Axes
    """
    ax = ax or plt.gca()
    t = model.tree_.preorder()  # a best-first tree numbers nodes otherwise
    fill = _fill_colours(model) if filled else ["white"] * t.node_count
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
        color = fill[node]
        if t.is_leaf[node]:
            text = (
                _leaf_prediction(model, t.value[node], class_names, precision)
                + f"\nn = {t.n_node_samples[node]}"
            )
        else:
            text = (
                f"{feature_names[t.feature[node]]} ≤ "
                f"{t.threshold[node]:.{precision}f}"
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


def _fill_colours(model):
    """Each node's colour for ``filled=True`` (see :func:`plot_tree`), in
    preorder."""
    t = model.tree_.preorder()
    value = t.value[:, 0, :]
    if t.value.shape[1] > 1:  # several outputs: by impurity, as scikit-learn
        low, high = t.impurity.min(), t.impurity.max()
        strength = (
            (high - t.impurity) / (high - low)
            if high > low
            else np.ones(t.node_count)
        )
        base = np.tile(to_rgb(PALETTE[0]), (t.node_count, 1))
    elif hasattr(model, "classes_"):
        majority = np.argmax(value, axis=1)
        top = -np.sort(-value, axis=1)
        second = top[:, 1] if value.shape[1] > 1 else np.zeros(len(value))
        with np.errstate(invalid="ignore", divide="ignore"):
            strength = np.where(
                second < 1, (top[:, 0] - second) / (1 - second), 1.0
            )
        base = np.array([to_rgb(PALETTE[k % len(PALETTE)]) for k in majority])
    else:
        low, high = value[:, 0].min(), value[:, 0].max()
        strength = (
            (value[:, 0] - low) / (high - low)
            if high > low
            else np.ones(len(value))
        )
        base = np.tile(to_rgb(PALETTE[0]), (len(value), 1))
    # blend with white: strength 0 is white, 1 the full colour
    return [tuple(c) for c in 1 - strength[:, None] * (1 - base)]


def _leaf_prediction(model, value, class_names, precision):
    """What a leaf with ``value`` (n_outputs, n_values) predicts, as text:
    its majority class or mean, one per output in parentheses when there
    are several."""
    if not hasattr(model, "classes_"):
        predictions = [f"{v:.{precision}f}" for v in value[:, 0]]
    elif len(value) == 1:
        k = int(np.argmax(value[0]))
        names = model.classes_ if class_names is None else class_names
        predictions = [str(names[k])]
    else:
        predictions = [
            str(classes[np.argmax(v[: len(classes)])])
            for v, classes in zip(value, model.classes_)
        ]
    if len(predictions) == 1:
        return predictions[0]
    return "(" + ", ".join(predictions) + ")"
