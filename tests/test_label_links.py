"""A link whose typed number is stale must fail the strict book build.

The chapters write references to other chapters and to figures as links with
the website's number typed in (JupyterLab can show nothing else);
_ext/label_links.py resolves them on the website and warns when the typed
number is not the one the object has. Each test builds a two-page Sphinx
project in a temporary folder with the book's extensions for these objects
(a few seconds), once with the right numbers (the control) and once with a
stale one.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT / "_ext")!r})
extensions = ["myst_parser", "sphinx_proof", "label_links", "cross_references"]
myst_enable_extensions = ["amsmath", "dollarmath", "colon_fence"]
numfig = True
math_numfig = True
math_eqref_format = "({{number}})"
exclude_patterns = ["_build"]
"""

INDEX = """# Book

```{toctree}
:numbered:
chapters/06-first
chapters/07-second
```
"""

FIRST = """# First

```{prf:theorem} A theorem
:label: thm-first

It holds.
```

```{prf:proof}
:nonumber:
Because.
```

$$
a = b
$$ (eq-first)

```{figure} picture.png
:name: fig-first

A picture.
```

See [Fig. 1.1](#fig-first).
"""

SECOND = """# Second

By [Theorem {theorem}](06-first.md#thm-first) and
[({equation})](06-first.md#eq-first), as [Fig. 1.1](06-first.md#fig-first)
shows.
"""

PNG = b""  # the figure's image: Sphinx only copies it


def build(folder, theorem, equation):
    (folder / "conf.py").write_text(CONF)
    (folder / "index.md").write_text(INDEX)
    chapters = folder / "chapters"
    chapters.mkdir()
    (chapters / "06-first.md").write_text(FIRST)
    (chapters / "picture.png").write_bytes(PNG)
    (chapters / "07-second.md").write_text(
        SECOND.format(theorem=theorem, equation=equation)
    )
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html"]
        + [str(folder), str(folder / "_build")],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    return result.returncode, log


def test_links_with_the_right_numbers_point_to_the_objects(tmp_path):
    status, log = build(tmp_path, "1.1", "1.1")
    assert status == 0, log
    page = (tmp_path / "_build" / "chapters" / "07-second.html").read_text()
    for href, text in [
        ("06-first.html#thm-first", "Theorem 1.1"),
        ("06-first.html#equation-eq-first", "(1.1)"),
        ("06-first.html#fig-first", "Fig. 1.1"),
    ]:
        assert re.search(
            rf'href="{re.escape(href)}"[^>]*>(<[^>]+>)*{re.escape(text)}<',
            page,
        ), f"no link {text} to {href}"
    first = (tmp_path / "_build" / "chapters" / "06-first.html").read_text()
    assert 'href="#fig-first"' in first


@pytest.mark.parametrize(
    "theorem, equation, stale",
    [("2.1", "1.1", "Theorem 2.1"), ("1.1", "1.2", "(1.2)")],
    ids=["theorem", "equation"],
)
def test_a_stale_typed_number_fails_the_strict_build(
    tmp_path, theorem, equation, stale
):
    status, log = build(tmp_path, theorem, equation)
    assert status != 0, log
    assert f"link text '{stale}' does not give the number" in log, log
