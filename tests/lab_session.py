"""A reader's JupyterLab: the server `jupyter lab` starts, and what a reader does in it.

Used by tests/test_jupyterlab.py and benchmarks/bench_jupyterlab_run_all.py. The server
is the JupyterLab that requirements.txt installs, with its extensions as installed, on
127.0.0.1 with a token of its own; its configuration, settings, workspaces and runtime
folders are throwaway ones, so that nothing of the developer's own setup takes part.
"""

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

START_TIMEOUT_S = 120
# The notebook panel in view, and the model and kernel behind it
# (reachable through expose_app_in_browser).
NOTEBOOK = "window.jupyterapp.shell.currentWidget"
KERNEL = (
    "window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel"
)
KERNEL_IDLE = f"() => {KERNEL}?.status === 'idle'"
# Every code cell has run, or one failed (Run All then stops there).
RUN_FINISHED = f"""() => {{
  if ({KERNEL}?.status !== 'idle') return false;
  const code = [...{NOTEBOOK}.content.model.cells]
    .filter(c => c.type === 'code' && c.sharedModel.getSource().trim());  // Run All skips empty cells
  return code.every(c => c.executionCount !== null)
      || code.some(c => c.outputs.toJSON().some(o => o.output_type === 'error'));
}}"""
# Outputs a reader would read as an error: tracebacks and anything on stderr.
ERROR_OUTPUTS = f"""() => [...{NOTEBOOK}.content.model.cells]
  .filter(c => c.type === 'code')
  .flatMap(c => c.outputs.toJSON())
  .filter(o => o.output_type === 'error' || o.name === 'stderr')
  .map(o => o.output_type === 'error'
       ? o.ename + ': ' + o.evalue
       : [].concat(o.text).join(''))"""
# Scroll the notebook by one screen; true once its end is in view. JupyterLab renders
# a markdown cell only once it has been scrolled into view.
SCROLLER = f"{NOTEBOOK}.content.node.querySelector('.jp-WindowedPanel-outer')"
SCROLL_ON = f"""() => {{
  const panel = {SCROLLER};
  const end = panel.scrollTop + panel.clientHeight >= panel.scrollHeight - 2;
  panel.scrollTop += panel.clientHeight * 0.8;
  return end;
}}"""
# The text of the rendered markdown cells in the DOM, by cell index, without KaTeX's hidden
# MathML copy (which holds the TeX source).
RENDERED_MARKDOWN = f"""() => Object.fromEntries(
  [...{NOTEBOOK}.content.node.querySelectorAll('.jp-MarkdownCell')]
  .map(cell => [cell.dataset.windowedListIndex, cell.querySelector('.jp-InputArea .myst')])
  .filter(([, rendered]) => rendered)
  .map(([index, rendered]) => {{
    const copy = rendered.cloneNode(true);
    copy.querySelectorAll('.katex-mathml').forEach(e => e.remove());
    return [index, copy.innerText];
  }}))"""
MARKDOWN_CELLS = f"""() => [...{NOTEBOOK}.content.model.cells]
  .map((c, i) => c.type === 'markdown' ? String(i) : null).filter(i => i !== null)"""


def write_setting(settings, plugin, json_text):
    """A user setting of one of JupyterLab's own plugins, as its Settings
    Editor saves it (``plugin`` is ``"<extension>/<plugin>"``)."""
    extension, name = plugin.split("/")
    folder = Path(settings) / "@jupyterlab" / extension
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.jupyterlab-settings").write_text(json_text)


def bounded(script, seconds=120):
    """``script``, an async page function of one argument, that fails after
    ``seconds`` instead of waiting for ever, naming any JupyterLab dialog
    open by then. Playwright's ``page.evaluate`` has no timeout of its own:
    it waits as long as the promise does, and a promise behind a dialog
    waits for a click."""
    return f"""async argument => {{
  const work = ({script})(argument);
  let timer;
  const late = new Promise((_, reject) => {{
    timer = setTimeout(() => {{
      const dialogs = [...document.querySelectorAll('.jp-Dialog')]
        .map(dialog => dialog.innerText.replace(/\\s+/g, ' ').trim());
      reject(new Error('no answer after {seconds} s; dialogs open: '
                       + (JSON.stringify(dialogs))));
    }}, {seconds * 1000});
  }});
  try {{ return await Promise.race([work, late]); }}
  finally {{ clearTimeout(timer); }}
}}"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class JupyterLab:
    """`jupyter lab` serving `root` on 127.0.0.1, with scratch folders under `scratch`."""

    def __init__(self, root, scratch):
        self.root = Path(root)
        self.scratch = Path(scratch)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.process = None

    def url(self, path):
        """The address that opens `path` alone (reset: no tab of an earlier visit)."""
        return (
            f"http://127.0.0.1:{self.port}/lab/tree/{path}"
            f"?reset&token={self.token}"
        )

    def __enter__(self):
        folders = {
            name: self.scratch / name
            for name in ("config", "data", "runtime", "settings", "workspaces")
        }
        for folder in folders.values():
            folder.mkdir(parents=True, exist_ok=True)
        # The "get Jupyter news?" prompt would sit over the screenshots.
        write_setting(
            folders["settings"],
            "apputils-extension/notification",
            '{"fetchNews": "false", "checkForUpdates": false}',
        )
        # No autosave: the tests save each notebook themselves, and a save
        # that starts while an autosave of the same notebook is in flight
        # finds the file on disk changed under it (another hash than the
        # one the page holds). JupyterLab then asks "File Changed: overwrite
        # or revert?" in a dialog, and the save waits for a click that never
        # comes. (One CI run stalled in the quiz check until its time ran
        # out; this race is the one unbounded wait found on that path.)
        write_setting(
            folders["settings"],
            "docmanager-extension/plugin",
            '{"autosave": false}',
        )
        env = dict(
            os.environ,
            JUPYTER_CONFIG_DIR=str(folders["config"]),
            JUPYTER_DATA_DIR=str(folders["data"]),
            JUPYTER_RUNTIME_DIR=str(folders["runtime"]),
        )
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            f"--LabApp.user_settings_dir={folders['settings']}",
            f"--LabApp.workspaces_dir={folders['workspaces']}",
            "--LabApp.expose_app_in_browser=True",  # for reading cell outputs
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")  # CI runs as root
        self.log = open(self.scratch / "jupyterlab.log", "w")
        self.process = subprocess.Popen(
            command, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        status = f"http://127.0.0.1:{self.port}/api/status?token={self.token}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(status, timeout=5):
                    return self
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.5)
        self.__exit__()
        log = (self.scratch / "jupyterlab.log").read_text()[-3000:]
        raise RuntimeError(f"JupyterLab did not start:\n{log}")

    def __exit__(self, *exc_info):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def open_notebook(page, lab, path, timeout_ms):
    """Open a notebook as a reader does, and wait for its kernel to be ready."""
    page.goto(lab.url(path))
    page.wait_for_function(KERNEL_IDLE, timeout=timeout_ms, polling=250)


def run_all(page, timeout_ms):
    """Run → Run All Cells, as a reader does; return the seconds until the kernel is idle
    with every cell run (or one failed)."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    started = time.monotonic()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    page.wait_for_function(RUN_FINISHED, timeout=timeout_ms, polling=100)
    return time.monotonic() - started


def read_markdown(page):
    """Scroll from the top to the end, as a reader does (JupyterLab renders a markdown cell
    once it comes into view), and return the rendered text of each markdown cell by index;
    a cell that never rendered is missing."""
    page.evaluate(f"() => {{ {SCROLLER}.scrollTop = 0; }}")
    texts = {}
    for _ in range(2000):
        at_end = page.evaluate(SCROLL_ON)
        page.wait_for_timeout(150)
        texts.update(page.evaluate(RENDERED_MARKDOWN))
        if at_end:
            return texts
    raise AssertionError("scrolled 2000 screens without reaching the end")
