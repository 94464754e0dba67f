"""Run All of every chapter in JupyterLab, timed as a reader meets it.

    python benchmarks/bench_jupyterlab_run_all.py [chapters/NN-slug.ipynb ...]

JupyterLab (as requirements.txt installs it) serves a copy of the chapters on 127.0.0.1;
Chromium opens each chapter in turn, waits for its kernel, and clicks Run -> Run All Cells.
The time runs from the click until the kernel is idle with every cell run. One row per
chapter: seconds, code cells, and any output a reader would take for an error. The kernel
is shut down before the next chapter. Timing only: tests/test_jupyterlab.py checks what a
reader sees, on one chapter.
"""

import json
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import chromium  # noqa: E402
from lab_session import (  # noqa: E402
    ERROR_OUTPUTS,
    NOTEBOOK,
    JupyterLab,
    open_notebook,
    run_all,
)

TIMEOUT_MS = 600_000


def shut_down_kernels(lab):
    base = f"http://127.0.0.1:{lab.port}/api/sessions"
    with urllib.request.urlopen(f"{base}?token={lab.token}") as response:
        sessions = json.load(response)
    for session in sessions:
        request = urllib.request.Request(
            f"{base}/{session['id']}?token={lab.token}", method="DELETE"
        )
        urllib.request.urlopen(request).close()


def main(chapters):
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "home"
        shutil.copytree(ROOT / "chapters", home / "chapters")
        with (
            JupyterLab(home, Path(scratch) / "jupyter") as lab,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(
                executable_path=chromium.executable(), args=chromium.FLAGS
            )
            print(f"{'chapter':<45} {'Run All (s)':>11} {'cells':>6}  errors")
            for chapter in chapters:
                page = browser.new_page(
                    viewport={"width": 1280, "height": 900}
                )
                open_notebook(page, lab, chapter, TIMEOUT_MS)
                seconds = run_all(page, TIMEOUT_MS)
                cells = page.evaluate(
                    f"() => [...{NOTEBOOK}.content.model.cells]"
                    ".filter(c => c.type === 'code').length"
                )
                errors = page.evaluate(ERROR_OUTPUTS)
                print(
                    f"{chapter:<45} {seconds:11.1f} {cells:6d}  "
                    f"{errors[0][:60] if errors else 'none'}",
                    flush=True,
                )
                page.close()
                shut_down_kernels(lab)
            browser.close()


if __name__ == "__main__":
    main(
        sys.argv[1:]
        or [
            p.relative_to(ROOT).as_posix()
            for p in sorted(ROOT.glob("chapters/*.ipynb"))
        ]
    )
