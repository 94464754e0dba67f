import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mllib.dummy import DummyClassifier  # noqa: E402
from mllib.plotting import (  # noqa: E402
    PALETTE,
    grid_2d,
    plot_contours,
    plot_decision_regions,
    plot_loss_curves,
    set_style,
)


def test_style_gives_an_opaque_canvas_readable_on_dark_pages():
    set_style()
    fig = plt.figure()
    assert matplotlib.colors.to_rgba(fig.get_facecolor())[3] == 1.0
    assert not matplotlib.rcParams["savefig.transparent"]
    plt.close(fig)


def test_grid_2d_shapes():
    xx, yy, points = grid_2d((0, 1), (-1, 1), n=7)
    assert xx.shape == yy.shape == (7, 7) and points.shape == (49, 2)
    assert points[:, 0].min() == 0 and points[:, 1].max() == 1


def test_contour_levels_pass_through_the_function_values():
    """The unit circle is the level set ‖x‖ = 1: every vertex of the drawn curve is on it."""
    fig, ax = plt.subplots()
    cs = plot_contours(
        lambda p: np.linalg.norm(p, axis=1),
        (-2, 2),
        (-2, 2),
        levels=[1.0],
        ax=ax,
        n=400,
    )
    vertices = np.concatenate(cs.allsegs[0])
    np.testing.assert_allclose(
        np.linalg.norm(vertices, axis=1), 1.0, atol=2e-3
    )
    plt.close(fig)


def test_decision_regions_colour_by_prediction(rng):
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, "right", "left")
    fig, ax = plt.subplots()
    plot_decision_regions(
        lambda P: np.where(P[:, 0] > 0, "right", "left"), X, y, ax=ax
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "left",
        "right",
    ]
    plt.close(fig)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        plot_decision_regions(
            DummyClassifier().fit(X, y).predict, np.ones((3, 3)), y[:3]
        )


def test_loss_curves_plot_every_curve():
    fig, ax = plt.subplots()
    plot_loss_curves({"a": [1, 0.5, 0.25], "b": [1, 0.1]}, ax=ax)
    assert len(ax.lines) == 2 and ax.get_yscale() == "log"
    np.testing.assert_array_equal(ax.lines[1].get_xdata(), [0, 1])
    plt.close(fig)
    assert len(PALETTE) == len(set(PALETTE))


def test_in_a_notebook_figures_are_also_attached_as_vector_pdf():
    """The website shows the PNG; the PDF edition prints the vector PDF (myst-nb prefers it for LaTeX)."""
    import base64

    import nbformat
    from nbclient import NotebookClient

    cell = nbformat.v4.new_code_cell(
        "import matplotlib.pyplot as plt\nfrom mllib.plotting import set_style\n"
        "set_style()\nplt.plot([0, 1], [1, 0])\nplt.show()"
    )
    notebook = nbformat.v4.new_notebook(cells=[cell])
    NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    data = notebook.cells[0].outputs[0]["data"]
    assert {"image/png", "application/pdf"} <= set(data)
    assert base64.b64decode(data["application/pdf"]).startswith(b"%PDF")
