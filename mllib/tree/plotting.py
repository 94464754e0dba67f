"""Drawing a fitted tree as a diagram: scikit-learn's
``sklearn.tree.plot_tree``, with the same options and the same text in every
node, in the book's style."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgb
from sklearn.utils.validation import check_is_fitted

from ..plotting import PALETTE
from ..validation import check_int
from .structure import TREE_LEAF

_LABELS = ("all", "root", "none")
#: the text of a node below ``max_depth``, where the drawing stops
_ELIDED = "\n  (...)  \n"


def plot_tree(
    decision_tree,
    *,
    max_depth=None,
    feature_names=None,
    class_names=None,
    label="all",
    filled=False,
    impurity=True,
    node_ids=False,
    proportion=False,
    rounded=False,
    precision=3,
    ax=None,
    fontsize=None,
):
    """Draw a fitted decision tree, each node in a box with scikit-learn's
    text: its test (internal nodes), impurity, number of samples, value and
    majority class.

    The text of a node is, line by line, as scikit-learn's ``plot_tree``
    writes it: ``node #k`` (with ``node_ids``); the test ``x[j] <= t`` of
    an internal node, the left ("yes") branch taking the samples that pass
    it; ``<criterion> = <impurity>`` (with ``impurity``, ``squared_error``
    for a regressor); ``samples = <n>``; ``value = ...``, a classifier's
    weighted class counts (its class proportions with ``proportion``) or a
    regressor's mean, one row per output for several outputs; and ``class
    = <name>``, the majority class of a classifier with one output (with
    ``class_names``). Numbers are rounded to ``precision`` decimals. Leaves
    are spread evenly from left to right in depth-first order, and every
    internal node sits above the middle of its leaves.

    Parameters
    ----------
    decision_tree : a fitted ``DecisionTreeClassifier`` or
        ``DecisionTreeRegressor``
    max_depth : int, optional
        Draw the nodes down to this depth (the root's is 0); their children
        are drawn as grey boxes ``(...)``, and nothing below. All, if None.
    feature_names : list of str, optional
        The features' names in the tests; ``x[j]`` for feature ``j`` if
        None.
    class_names : list of str or True, optional
        The classes' names, in the order of ``classes_``, for the ``class``
        line of a classifier with one output; ``True`` writes ``y[k]`` for
        class ``k``; None, no ``class`` line.
    label : {"all", "root", "none"}
        Which nodes name their numbers (``samples = 40``): every node, the
        root only, or none (``40``).
    filled : bool
        Colour every node, as scikit-learn does: a classifier's node by its
        majority class (the book's palette), the more intense the purer
        (blended with white in proportion to :math:`(p_{(1)} -
        p_{(2)})/(1 - p_{(2)})`, the margin of the largest class proportion
        over the second); a regressor's node by its value, from white at the
        smallest to the palette's first colour at the largest; a node of a
        tree with several outputs by its impurity (the mean over the
        outputs), from white at the largest to the palette's first colour
        at the smallest. Otherwise every box is white.
    impurity : bool
        Show each node's impurity.
    node_ids : bool
        Show each node's id, its index in ``tree_``.
    proportion : bool
        Show ``samples`` as the percentage of the training samples (one
        decimal) and a classifier's ``value`` as class proportions.
    rounded : bool
        Boxes with rounded corners.
    precision : int
        Decimals of thresholds, impurities and values.
    ax : matplotlib Axes, optional
        Cleared, then drawn on; the current Axes if None.
    fontsize : float, optional
        If None, the largest at which the boxes of one level take at most
        nine tenths of the room between their centres (and the Axes'
        edges), and the tallest box three quarters of the distance between
        two levels (room for the branches' labels): scikit-learn's aim,
        boxes that fill the Axes without overlapping.

    Returns
    -------
    list of matplotlib Annotation
        The boxes, in depth-first order, then the branches' labels.

    References
    ----------
    scikit-learn's ``sklearn.tree.plot_tree`` and ``export_graphviz``,
    whose node text this is.
    """
    check_is_fitted(decision_tree, "tree_")
    if max_depth is not None:
        max_depth = check_int(max_depth, "max_depth", low=0)
    precision = check_int(precision, "precision", low=0)
    if label not in _LABELS:
        raise ValueError(f"label must be one of {_LABELS}; got {label!r}.")
    t = decision_tree.tree_
    ax = ax or plt.gca()
    ax.clear()
    ax.set_axis_off()
    order = _visible_preorder(t, max_depth)
    elided = [max_depth is not None and t.depth[i] > max_depth for i in order]
    has_children = [
        t.children_left[i] != TREE_LEAF and not gone
        for i, gone in zip(order, elided)
    ]
    position = _layout(t, order, has_children)
    fill = _fill_colours(decision_tree) if filled else None
    start = plt.rcParams["font.size"] if fontsize is None else fontsize
    boxes, branch_labels = [], []
    for node, gone in zip(order, elided):
        x, y = position[node]
        if gone:
            text, colour = _ELIDED, "0.8"
        else:
            text = _node_text(
                decision_tree, node, feature_names, class_names, label,
                impurity, node_ids, proportion, precision,
            )  # fmt: skip
            colour = "white" if fill is None else fill[node]
        red, green, blue = to_rgb(colour)
        # relative luminance, roughly
        dark_box = 0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.5
        boxes.append(
            ax.annotate(
                text,
                (x, y),
                ha="center",
                va="center",
                fontsize=start,
                zorder=2,
                color="white" if dark_box else "#1a1a1a",
                bbox={
                    "boxstyle": ("round" if rounded else "square")
                    + ",pad=0.3",
                    "facecolor": colour,
                    "edgecolor": "0.4",
                },
            )
        )
        parent = t.parent[node]
        if parent < 0:
            continue
        px, py = position[parent]
        ax.plot([px, x], [py, y], color="0.6", lw=1, zorder=1)
        yes = t.children_left[parent] == node
        branch_labels.append(
            ax.annotate(
                "yes" if yes else "no",
                ((px + x) / 2, (py + y) / 2),
                fontsize=start - 1,
                color="0.35",
                ha="center",
                va="center",
            )
        )
    n_columns = 1 + max(x for x, _ in position.values())
    depth = max(-y for _, y in position.values())
    ax.set(xlim=(-0.5, n_columns - 0.5), ylim=(-depth - 0.5, 0.5))
    if fontsize is None:
        _fit_fontsize(ax, boxes, branch_labels)
    return boxes + branch_labels


def _node_text(
    model, node, feature_names, class_names, label, impurity, node_ids,
    proportion, precision,
):  # fmt: skip
    """The text scikit-learn's ``plot_tree`` writes in node ``node`` of
    ``model.tree_``, for the options of :func:`plot_tree`."""
    t = model.tree_
    named = label == "all" or (label == "root" and node == 0)
    regression = t.n_classes[0] == 1

    def field(name, text):
        return (f"{name} = " if named else "") + text

    lines = []
    if node_ids:
        lines.append(("node " if named else "") + f"#{node}")
    if t.children_left[node] != TREE_LEAF:
        j = t.feature[node]
        feature = f"x[{j}]" if feature_names is None else feature_names[j]
        lines.append(f"{feature} <= {round(t.threshold[node], precision)}")
    if impurity:
        # the criterion's own name, as scikit-learn prints it
        lines.append(
            field(model.criterion, str(round(t.impurity[node], precision)))
        )
    if proportion:
        share = 100.0 * t.n_node_samples[node] / t.n_node_samples[0]
        lines.append(field("samples", f"{round(share, 1)}%"))
    else:
        lines.append(field("samples", str(t.n_node_samples[node])))
    value = t.value[node, 0] if t.n_outputs == 1 else t.value[node]
    if not regression and not proportion:
        # the stored class proportions times the node's weight: counts
        value = value * t.weighted_n_node_samples[node]
    if not regression and not proportion and np.all(value % 1 == 0):
        shown = value.astype(int)
    else:
        shown = np.around(value, precision)
    # numpy's text of each entry (as bytes), in its array layout (one row
    # per output), with commas; a regressor's single value without brackets
    text = str(shown.astype("S32")).replace("b'", "'")
    text = text.replace("' '", ", ").replace("'", "")
    if regression and t.n_outputs == 1:
        text = text.replace("[", "").replace("]", "")
    lines.append(field("value", text.replace("\n ", "\n")))
    if class_names is not None and not regression and t.n_outputs == 1:
        k = int(np.argmax(value))
        name = f"y[{k}]" if class_names is True else str(class_names[k])
        lines.append(field("class", name))
    return "\n".join(lines)


def _visible_preorder(t, max_depth):
    """The ids of the nodes drawn, in depth-first preorder (left child
    first): down to depth ``max_depth + 1``, whose nodes stand for what is
    cut off."""
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        if t.children_left[node] != TREE_LEAF and (
            max_depth is None or t.depth[node] <= max_depth
        ):
            stack += [t.children_right[node], t.children_left[node]]
    return order


def _layout(t, order, has_children):
    """{node: (x, y)}: the drawn leaves at x = 0, 1, ... in preorder (left
    to right), an internal node midway between its children, y = -depth."""
    x = {}
    leaves = (node for node, inner in zip(order, has_children) if not inner)
    for column, node in enumerate(leaves):
        x[node] = float(column)
    for node, inner in zip(reversed(order), reversed(has_children)):
        if inner:  # children before parents
            x[node] = (
                x[t.children_left[node]] + x[t.children_right[node]]
            ) / 2
    return {node: (x[node], -float(t.depth[node])) for node in order}


def _fit_fontsize(ax, boxes, branch_labels):
    """Scale every text by the largest factor that leaves a tenth of the
    room free between two boxes of one level (and between a box and the
    edge of the Axes), and makes the tallest box three quarters of the
    distance between two levels (1 in data units)."""
    renderer = ax.figure.canvas.get_renderer()
    for box in boxes:
        box.update_bbox_position_size(renderer)
    extents = [box.get_bbox_patch().get_window_extent() for box in boxes]
    centres = ax.transData.transform([box.xy for box in boxes])
    left, right = ax.transData.transform(
        [[ax.get_xlim()[0], 0], [ax.get_xlim()[1], 0]]
    )[:, 0]
    level_step = np.abs(
        np.diff(ax.transData.transform([[0, 0], [0, 1]])[:, 1])
    )
    scales = [0.75 * level_step[0] / max(e.height for e in extents)]
    for level in np.unique(centres[:, 1]):
        row = np.flatnonzero(centres[:, 1] == level)
        row = row[np.argsort(centres[row, 0])]
        half = np.array([extents[i].width / 2 for i in row])
        # gaps between the boxes' centres, and from the outer ones to the
        # edges, each to be filled to 0.9 by the half-widths next to it
        gaps = np.diff(np.r_[left, centres[row, 0], right])
        need = np.r_[half[0], half[:-1] + half[1:], half[-1]]
        scales.append(0.9 * np.min(gaps / need))
    scale = min(scales)
    for text in boxes + branch_labels:
        text.set_fontsize(text.get_fontsize() * scale)


def _fill_colours(model):
    """Each node's colour for ``filled=True`` (see :func:`plot_tree`), by
    node id."""
    t = model.tree_
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
