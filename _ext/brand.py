"""Draw the website's favicon and its social preview image (run by hand).

    python _ext/brand.py

writes ``static/book/favicon.ico`` (16, 32 and 48 pixels; also served at the
site's root, see ``website.py``) and ``static/book/social-preview.png``
(1200 x 630, the picture a shared link shows). They are committed; run this again after a
change of title or colours.
"""

import io
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402
from PIL import Image  # noqa: E402

HERE = Path(__file__).parent
OUT = HERE / "static" / "book"
BLUE, ORANGE, GREEN = "#0072B2", "#D55E00", "#009E73"  # mllib.plotting.PALETTE


def icon(size):
    """A white nabla on the book's blue, in a rounded square."""
    fig = plt.figure(figsize=(1, 1), dpi=size)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.add_patch(
        matplotlib.patches.FancyBboxPatch(
            (0.04, 0.04),
            0.92,
            0.92,
            boxstyle="round,pad=0,rounding_size=0.2",
            color=BLUE,
        )
    )
    ax.text(
        0.5,
        0.45,
        "∇",
        color="white",
        ha="center",
        va="center",
        fontsize=0.62 * 72,
        fontweight="bold",
    )
    ax.set(xlim=(0, 1), ylim=(0, 1))
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", transparent=True)
    plt.close(fig)
    return Image.open(buffer)


def social_preview(title, subtitle):
    fig = plt.figure(figsize=(12, 6.3), dpi=100, facecolor="white")
    band = fig.add_axes((0, 0, 0.56, 1))
    band.set_axis_off()
    band.add_patch(matplotlib.patches.Rectangle((0, 0), 1, 1, color=BLUE))
    band.text(
        0.08,
        0.62,
        title.replace(", ", ",\n"),
        color="white",
        fontsize=33,
        fontweight="bold",
        va="center",
        linespacing=1.15,
    )
    band.text(
        0.08,
        0.28,
        textwrap.fill(subtitle, 28),
        color="white",
        fontsize=21,
        va="center",
    )
    plot = fig.add_axes((0.61, 0.1, 0.36, 0.8))
    c = np.array([2.0, 1.0])
    xx, yy = np.meshgrid(
        np.linspace(-1.8, 2.8, 300), np.linspace(-1.8, 2.2, 300)
    )
    plot.contour(
        xx,
        yy,
        (xx - c[0]) ** 2 + (yy - c[1]) ** 2,
        levels=np.linspace(0.5, 14, 12),
        colors=[BLUE],
        linewidths=1,
    )
    t = np.linspace(0, 2 * np.pi, 400)
    plot.plot(np.cos(t), np.sin(t), color=ORANGE, lw=3)
    x = c / np.linalg.norm(c)
    for vector, colour in ((2 * (x - c), BLUE), (2 * x, ORANGE)):
        u = 0.8 * vector / np.linalg.norm(vector)
        plot.annotate(
            "", x + u, x, arrowprops=dict(arrowstyle="-|>", color=colour, lw=3)
        )
    plot.plot(*x, "o", color="black", ms=8)
    plot.plot(*c, "*", color=GREEN, ms=20)
    plot.set(aspect="equal", xticks=[], yticks=[])
    for spine in plot.spines.values():
        spine.set_visible(False)
    fig.savefig(OUT / "social-preview.png", facecolor="white")
    plt.close(fig)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    config = yaml.safe_load((HERE.parent / "_config.yml").read_text())
    icon(256).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    social_preview(config["title"], config["sphinx"]["config"]["pdf_subtitle"])


if __name__ == "__main__":
    main()
