"""What the build printed: no chapter may show the reader an error or a stderr stream.

A figure that fails to draw (a bad mathtext label, say) is reported by matplotlib's inline
backend after the cell's code has finished, as an ``error`` output: the cell itself succeeded,
so neither nbval nor the build's ``raise_on_error`` notices, and the page shows a traceback
where the figure should be. A warning printed to stderr is just as visible. These tests read
the executed notebooks the build keeps next to the HTML (``_build/jupyter_execute``).
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from sphinx_external_toc.parsing import parse_toc_yaml

ROOT = Path(__file__).resolve().parents[1]

CHAPTERS = [
    page
    for page in parse_toc_yaml(ROOT / "_toc.yml")
    if (ROOT / f"{page}.ipynb").exists()
]


def problems(nb):
    """(cell index, what) for every error output and stderr stream in an executed notebook."""
    found = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                found.append((index, f"{output.ename}: {output.evalue}"))
            elif output.output_type == "stream" and output.name == "stderr":
                found.append((index, "stderr: " + output.text.strip()[:200]))
    return found


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_built_chapter_shows_no_error_or_stderr(site, chapter):
    executed = site.parent / "jupyter_execute" / f"{chapter}.ipynb"
    assert executed.is_file(), f"the build kept no executed copy of {chapter}"
    assert not problems(nbformat.read(executed, as_version=4))


def test_a_figure_that_fails_to_draw_is_found():
    """The control: a cell that succeeds but whose figure cannot be drawn, and a warning."""
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "%matplotlib inline\nimport matplotlib.pyplot as plt\n"
                "plt.plot([0, 1]); plt.xlabel(r'$\\mathcal$')"
            ),
            nbformat.v4.new_code_cell(
                "import warnings\nwarnings.warn('a warning the reader sees')"
            ),
        ]
    )
    NotebookClient(nb, kernel_name="python3", timeout=120).execute()
    found = problems(nb)
    assert {index for index, _ in found} == {0, 1}
    assert any("ValueError" in what for index, what in found if index == 0)
