"""The system's Chromium for the browser tests, driven by Playwright without
`playwright install` (CI installs Debian's `chromium`; CHROMIUM names another)."""

import os
import shutil

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NAMES = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
]


def executable():
    """CHROMIUM if set, else the first Chromium-family browser on PATH, or None."""
    return os.environ.get("CHROMIUM") or next(
        filter(None, map(shutil.which, NAMES)), None
    )
