import base64
import json
import re

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


def draw_line(slope, shift=0.0):
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [shift, shift + slope])
    ax.set(ylim=(-3, 3))
    return fig


def test_interactive_figure_draws_one_frame_per_combination_of_values():
    from mllib.plotting import _InteractiveFigure

    shown = _InteractiveFigure(
        draw_line, {"shift": 1.0}, {"slope": [-1, 0, 1], "shift": [0.0, 1.0]}
    )
    assert len(shown.frames) == 6 and shown.start_index == [0, 1]
    assert len(set(shown.frames.values())) == 6, "every frame differs"
    bundle = shown._repr_mimebundle_()
    # Jupyter and the website show the HTML, the PDF edition the start frame
    assert {"text/html", "image/png", "application/pdf"} <= set(bundle)
    assert not any("widget" in mime for mime in bundle), "no widget manager"
    assert base64.b64decode(bundle["application/pdf"]).startswith(b"%PDF")
    assert base64.b64decode(bundle["image/png"]) == shown.frames[(0, 1)]
    assert shown._repr_mimebundle_() == bundle, "the same figure every time"


def frames_of(page):
    """The frames' JSON an interactive figure's HTML carries."""
    found = re.search(
        r'<script type="application/json" '
        r'class="interactive-figure-frames">(.*?)</script>',
        page,
        re.DOTALL,
    )
    return json.loads(found.group(1))


def test_interactive_figure_html_has_a_slider_per_parameter_over_its_frames():
    """A range input per parameter, at its start value; the frames in the
    row-major order of the sliders (the script indexes them so), each
    described for a screen reader; the start frame already in the page."""
    from mllib.plotting import _InteractiveFigure

    shown = _InteractiveFigure(
        draw_line, {"shift": 1.0}, {"slope": [-1, 0, 1], "shift": [0.0, 1.0]}
    )
    page = shown._repr_mimebundle_()["text/html"]
    sliders = re.findall(
        r'<input type="range" min="0" max="(\d+)" step="1" value="(\d+)"',
        page,
    )
    assert sliders == [("2", "0"), ("1", "1")]
    data = frames_of(page)
    assert data["labels"] == [["-1", "0", "1"], ["0", "1"]]
    expected = [
        base64.b64encode(shown.frames[(i, j)]).decode("ascii")
        for i in range(3)
        for j in range(2)
    ]
    assert [
        f.removeprefix("data:image/png;base64,") for f in data["frames"]
    ] == (expected)
    assert data["alt"][1].endswith("slope = -1, shift = 1")
    start = re.search(
        r'<img class="interactive-figure-frame" src="([^"]+)"', page
    )
    assert start.group(1) == data["frames"][1]
    # sliders are hidden until the script runs: no dead controls where
    # scripts do not run
    assert '<div class="interactive-figure-sliders" hidden>' in page


@pytest.mark.parametrize(
    "start, parameters, draw, error, match",
    [
        ({}, {}, draw_line, ValueError, "at least one parameter"),
        ({"slope": 2}, {"slope": [0, 1]}, draw_line, ValueError, "not one of"),
        ({"tilt": 0}, {"slope": [0, 1]}, draw_line, ValueError, "tilt"),
        ({}, {"slope": [[0, 1]]}, draw_line, ValueError, "1-D"),
        ({}, {"slope": [0, 1]}, lambda slope: None, TypeError, "return fig"),
    ],
)
def test_interactive_figure_rejects_bad_input_clearly(
    start, parameters, draw, error, match
):
    from mllib.plotting import _InteractiveFigure

    with pytest.raises(error, match=match):
        _InteractiveFigure(draw, start, parameters)


def test_in_a_notebook_the_interactive_figure_saves_its_frames_with_the_page():
    """What the book build keeps: the figure's HTML with every frame, the
    start frame as PNG and PDF, and no widget state in the notebook."""
    import nbformat
    from nbclient import NotebookClient

    cell = nbformat.v4.new_code_cell(
        "import matplotlib.pyplot as plt\n"
        "from mllib.plotting import interactive_figure, set_style\n"
        "set_style()\n"
        "def draw(slope):\n"
        "    fig, ax = plt.subplots()\n"
        "    ax.plot([0, 1], [0, slope])\n"
        "    return fig\n"
        "interactive_figure(draw, slope=[0, 1, 2], start={'slope': 1})\n"
    )
    notebook = nbformat.v4.new_notebook(cells=[cell])
    NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    (output,) = notebook.cells[0].outputs
    assert {"text/html", "image/png", "application/pdf"} <= set(output["data"])
    assert len(frames_of(output["data"]["text/html"])["frames"]) == 3
    assert "widgets" not in notebook.metadata
