"""Check the PDF edition after `jupyter-book build . --builder pdflatex`, and preview its pages.

    python .ci/check_pdf.py [BUILD_DIR] [--pages OUT_DIR]

BUILD_DIR (default ``_build/latex``) holds ``book.tex``, ``book.log`` and ``book.pdf``. The
check fails (exit status 1) on what a reader would see as a broken book:

- a LaTeX error (a line starting with "!" in the log);
- a glyph missing from the fonts ("Missing character"), which XeTeX drops silently;
- an undefined reference or citation (printed as "??" or as nothing);
- display maths printed as text between dollar signs, with its label ("$$" not parsed);
- display maths more than 10 pt wider than the text, whose right end the PDF cuts off (an
  "Overfull \\hbox ... detected at line" in the log, at the line that ends the display):
  break it over lines with ``aligned``. Narrower overhangs are counted and reported;
- a cell output printed as a text repr instead of its figure or widget, e.g.
  ``<Figure size 640x480 with 1 Axes>`` for a figure with no PDF or PNG form, or
  ``interactive(children=...)`` for a widget;
- a blank page (no text between the running head and the foot);
- a line of code of at most 79 characters (the book's line length) wrapped onto a second
  line, which Sphinx marks with a continuation arrow: the code column is too narrow.
  Longer lines, which the convention tests reject in converted chapters, and wrapped
  cell outputs are counted and reported, not failed.

With ``--pages``, it also renders the pages a reader would look at first (title, contents,
a theorem with its proof, an exercise, a solution, a figure, the bibliography) as PNG files
in OUT_DIR, plus a contact sheet of every page, for a human to look at (CI keeps them).
Needs poppler-utils (pdftotext, pdftoppm, pdfinfo) for the page checks and previews.
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

# --- The log ----------------------------------------------------------------------------------

UNDEFINED = re.compile(
    r"(?:LaTeX|Package \w+) Warning: (?:Hyper reference|Reference|Citation) `([^']*)' "
    r"on page \S+ undefined"
)


def unwrap_log(log):
    """Undo TeX's wrapping of log lines at 79 characters."""
    return re.sub(r"^(.{79})\n", r"\1", log, flags=re.MULTILINE)


def log_problems(log):
    """LaTeX errors, missing glyphs and undefined references in a (final-pass) LaTeX log."""
    log = unwrap_log(log)
    lines = log.splitlines()
    problems = []
    for number, line in enumerate(lines):
        if line.startswith("! "):
            context = " ".join(
                part.strip() for part in lines[number + 1 : number + 3]
            )
            problems.append(f"LaTeX error: {line[2:]} {context}".strip())
        elif line.startswith("Missing character:"):
            problems.append(f"dropped glyph: {line}")
    for label in sorted(set(UNDEFINED.findall(log))):
        problems.append(f"undefined reference or citation: {label}")
    if not any(p.startswith("undefined") for p in problems) and (
        "There were undefined references" in log
        or "There were undefined citations" in log
    ):
        problems.append("undefined references (see the LaTeX log)")
    return problems


def page_count(log):
    match = re.search(r"Output written on \S+ \((\d+) pages?", unwrap_log(log))
    return int(match.group(1)) if match else None


# --- Cell outputs in the LaTeX source ------------------------------------------------------------

# Sphinx's escapes inside highlighted verbatim: \PYGZlt{} is "<", and so on.
_PYG_ESCAPES = {
    "bs": "\\",
    "ob": "{",
    "cb": "}",
    "lt": "<",
    "gt": ">",
    "us": "_",
    "sq": "'",
    "dq": '"',
    "hy": "-",
    "pc": "%",
    "sh": "#",
    "dl": "$",
    "am": "&",
    "ti": "~",
    "ca": "^",
    "at": "@",
    "lb": "[",
    "rb": "]",
}

TEXT_REPRS = [
    (
        "a figure printed as its text repr (it has no PDF or PNG form)",
        re.compile(r"<Figure size [\d.]+x[\d.]+ with \d+ Axes>"),
    ),
    (
        "a widget printed as its text repr",
        re.compile(
            r"\b(?:interactive|HBox|VBox|GridBox|Box|Tab|Accordion|Output)\(children=\("
        ),
    ),
    (
        "a widget printed as its text repr",
        re.compile(
            r"\b\w+(?:Slider|Progress|Dropdown|Checkbox|Button)\((?:value|description)="
        ),
    ),
    (
        "a matplotlib object printed as its text repr (end the cell with plt.show())",
        re.compile(
            r"<matplotlib\.[\w.]+ (?:object )?at 0x[0-9a-fA-F]+>|<Axes: [^>]*>"
        ),
    ),
    (
        "an IPython display object printed as its text repr",
        re.compile(r"<IPython\.(?:core|lib)\.display\.\w+ object>"),
    ),
]


def unescape_verbatim(tex):
    """The text of a highlighted verbatim block, without Sphinx's \\PYG markup."""
    token = re.compile(
        r"\\PYG\{[^{}]*\}\{((?:[^{}]|\{\})*)\}"
    )  # \PYG{k}{def}, \PYG{s}{\PYGZdq{}}
    while token.search(tex):
        tex = token.sub(r"\1", tex)
    return re.sub(
        r"\\PYGZ(\w\w)\{\}",
        lambda m: _PYG_ESCAPES.get(m.group(1), m.group(0)),
        tex,
    )


def output_blocks(tex):
    """The text of every cell output block (sphinxVerbatimOutput) of the LaTeX source."""
    blocks = re.findall(
        r"\\begin\{sphinxVerbatimOutput\}(.*?)\\end\{sphinxVerbatimOutput\}",
        tex,
        re.S,
    )
    return [unescape_verbatim(block) for block in blocks]


# "$$ ... $$ (label)" that MyST did not read as display maths (in a list item, the $$ needs a
# blank line before it): Sphinx writes inline maths between literal dollar signs.
UNPARSED_DISPLAY_MATH = re.compile(
    r"\\\$\\\((.*?)\\\)\\\$(?:\s*\(([^)\n]*)\))?", re.S
)


def tex_problems(tex):
    problems = []
    for maths, label in UNPARSED_DISPLAY_MATH.findall(tex):
        where = (
            label.replace(r"\sphinxhyphen{}", "-")
            or " ".join(maths.split())[:60]
        )
        problems.append(
            f"display maths printed as text between $ signs ($$ not parsed): {where}"
        )
    for block in output_blocks(tex):
        for what, pattern in TEXT_REPRS:
            for match in pattern.finditer(block):
                problems.append(f"{what}: {match.group(0)}")
    return problems


# A display that does not fit the line: TeX reports it at the line of book.tex that ends it.
OVERFULL_DISPLAY = re.compile(
    r"Overfull \\hbox \(([\d.]+)pt too wide\) detected at line (\d+)"
)
DISPLAY_BEGIN = re.compile(
    r"\\begin\{(?:equation|align|gather|multline|displaymath)\*?\}|\\\["
)
DISPLAY_END = re.compile(
    r"\\end\{(?:equation|align|gather|multline|displaymath)\*?\}|\\\]"
)
MAX_DISPLAY_OVERHANG = 10  # pt; a few points fall in the margin unnoticed


def display_ending_at(tex_lines, number):
    """(label, maths) of the display maths that ends at 1-based line `number` of book.tex,
    or None if no display ends there."""
    if not 0 < number <= len(tex_lines) or not DISPLAY_END.search(
        tex_lines[number - 1]
    ):
        return None
    for start in range(number - 1, -1, -1):
        begins = list(DISPLAY_BEGIN.finditer(tex_lines[start]))
        if begins:
            text = "\n".join(tex_lines[start:number])[begins[-1].start() :]
            break
    else:
        return None
    text = DISPLAY_END.split(text)[0]
    label = re.search(r"\\label\{(?:equation:)?([^}]*)\}", text)
    maths = re.sub(
        r"\\label\{[^}]*\}|\\(?:begin|end)\{(?:split|aligned)\}",
        " ",
        DISPLAY_BEGIN.sub(" ", text, count=1),
    )
    return (label.group(1) if label else "", " ".join(maths.split()))


def wide_displays(log, tex):
    """(wide, narrow): the display equations more than MAX_DISPLAY_OVERHANG pt wider than
    the text, as problems, and the number of those that overhang by less."""
    tex_lines = tex.splitlines()
    wide, narrow = [], 0
    for points, number in OVERFULL_DISPLAY.findall(unwrap_log(log)):
        display = display_ending_at(tex_lines, int(number))
        if display is None:
            continue
        if float(points) <= MAX_DISPLAY_OVERHANG:
            narrow += 1
            continue
        label, maths = display
        where = f"book.tex line {number}" + (f", {label}" if label else "")
        wide.append(
            f"display maths {float(points):.0f} pt wider than the text "
            f"({where}), break it over lines: {maths[:60]}"
        )
    return wide, narrow


# --- Pages of the PDF ------------------------------------------------------------------------------


def _run(*command):
    return subprocess.run(
        command, check=True, capture_output=True, text=True
    ).stdout


def page_texts(pdf, body_only=False):
    """The text of each page; with body_only, without the running head and foot."""
    command = ["pdftotext", "-layout"]
    if body_only:
        width, height = (
            float(v)
            for v in re.search(
                r"Page size:\s+([\d.]+) x ([\d.]+)", _run("pdfinfo", str(pdf))
            ).groups()
        )
        # The text area of _latex/pdfedition.sty's geometry (vmargin 2.4 cm top, 2.6 cm bottom),
        # widened by 2 mm: the running head sits above it and the foot below.
        top, bottom = (cm * 72 / 2.54 for cm in (2.4 - 0.2, 2.6 - 0.2))
        command += [
            "-r",
            "72",
            "-x",
            "0",
            "-y",
            str(int(top)),
            "-W",
            str(int(width)),
            "-H",
            str(int(height - top - bottom)),
        ]
    pages = _run(*command, str(pdf), "-").split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def blank_pages(body_texts):
    """1-based numbers of the pages with no text in their body."""
    return [
        number for number, text in enumerate(body_texts, 1) if not text.strip()
    ]


PREVIEWS = {
    "title": lambda text: True,
    "contents": lambda text: "CONTENTS" in text,
    "theorem-and-proof": lambda text: (
        re.search(r"Theorem \d", text) and "Proof" in text
    ),
    "exercise": lambda text: (
        re.search(r"Exercise \d+\.\d+", text) and "Solution on page" in text
    ),
    "solution": lambda text: "Solution to Exercise" in text,
    "figure": lambda text: re.search(r"Fig\. \d+\.\d+:", text),
    "bibliography": lambda text: "BIBLIOGRAPHY" in text,
}


def preview_pages(texts):
    """The first page (1-based) that shows each thing a reader looks at first."""
    found = {}
    for name, shows in PREVIEWS.items():
        page = next(
            (number for number, text in enumerate(texts, 1) if shows(text)),
            None,
        )
        if page is not None:
            found[name] = page
    return found


def render_previews(pdf, texts, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.png"):
        old.unlink()
    for k, (name, page) in enumerate(preview_pages(texts).items(), 1):
        stem = out_dir / f"{k:02d}-{name}-p{page}"
        _run(
            "pdftoppm",
            "-r",
            "110",
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            "-png",
            str(pdf),
            str(stem),
        )
    thumbnails = out_dir / "thumbnails"
    thumbnails.mkdir(exist_ok=True)
    _run("pdftoppm", "-r", "24", "-png", str(pdf), str(thumbnails / "page"))
    try:
        from PIL import Image
    except ImportError:
        return
    images = [
        Image.open(path) for path in sorted(thumbnails.glob("page-*.png"))
    ]
    columns = 10
    width, height = max(i.width for i in images), max(i.height for i in images)
    sheet = Image.new(
        "RGB",
        (columns * (width + 4), -(-len(images) // columns) * (height + 4)),
        "gray",
    )
    for k, image in enumerate(images):
        sheet.paste(
            image, ((k % columns) * (width + 4), (k // columns) * (height + 4))
        )
    sheet.save(out_dir / "00-all-pages.png")
    shutil.rmtree(thumbnails)


# --- Wrapped code -------------------------------------------------------------------------------

CONTINUATION = (
    "\u21aa"  # the arrow Sphinx sets at the start of a wrapped verbatim line
)
MAX_CODE_LINE = 79


def code_lines(tex):
    """Every line of code in the LaTeX source: cell inputs (sphinxVerbatimInput) and code
    blocks (sphinxVerbatim, e.g. the mllib source chapters show)."""
    lines = []
    for env in ("sphinxVerbatimInput", "sphinxVerbatim"):
        pattern = r"\\begin\{%s\}(?:\[[^]]*\])?(.*?)\\end\{%s\}" % (env, env)
        for block in re.findall(pattern, tex, re.S):
            lines += unescape_verbatim(block).splitlines()
    return lines


def _squeezed(text):
    return re.sub(r"[\s\u2423]", "", text)  # no spaces, no visible-space marks


def wrapped_code(page_texts_, tex):
    """(short, long, other): the wrapped lines of code of at most MAX_CODE_LINE characters,
    the wrapped longer ones, and the other wrapped lines (outputs), as (page, text).

    A wrapped line is the line before a continuation arrow plus the text after it; it is
    found among the source's code lines with all spaces removed (pdftotext lays out
    spaces its own way)."""
    code = {}
    for line in code_lines(tex):
        code.setdefault(_squeezed(line), []).append(line)
    short, long, other = [], [], []
    for page, text in enumerate(page_texts_, 1):
        lines = text.splitlines()
        for number, line in enumerate(lines):
            if not line.strip().startswith(CONTINUATION) or number == 0:
                continue
            whole = _squeezed(lines[number - 1]) + _squeezed(line.strip()[1:])
            sources = code.get(whole, [])
            shown = (page, lines[number - 1].strip() + " " + line.strip())
            if any(len(c.rstrip()) <= MAX_CODE_LINE for c in sources):
                short.append(shown)
            elif sources:
                long.append(shown)
            else:
                other.append(shown)
    return short, long, other


# --- Main -------------------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "build_dir", nargs="?", default="_build/latex", type=Path
    )
    parser.add_argument(
        "--pages",
        type=Path,
        help="render preview pages as PNG into this folder",
    )
    args = parser.parse_args(argv)
    tex, log, pdf = (
        args.build_dir / f"book.{ext}" for ext in ("tex", "log", "pdf")
    )
    for path in (tex, log, pdf):
        if not path.is_file():
            print(
                f"{path} is missing: build the PDF first (jupyter-book build . --builder pdflatex)"
            )
            return 1
    log_text = log.read_text(encoding="utf-8", errors="replace")
    problems = log_problems(log_text) + tex_problems(
        tex.read_text(encoding="utf-8")
    )
    wide, narrow = wide_displays(log_text, tex.read_text(encoding="utf-8"))
    problems += wide
    if narrow:
        print(
            f"{narrow} display(s) at most {MAX_DISPLAY_OVERHANG} pt wider than the text"
        )
    if shutil.which("pdftotext"):
        problems += [
            f"blank page: {page}"
            for page in blank_pages(page_texts(pdf, body_only=True))
        ]
        short, long, other = wrapped_code(
            page_texts(pdf), tex.read_text(encoding="utf-8")
        )
        problems += [
            f"a code line of at most {MAX_CODE_LINE} characters wrapped "
            f"(page {page}): {text}"
            for page, text in short
        ]
        if long or other:
            print(
                f"wrapped lines: {len(long)} of code longer than {MAX_CODE_LINE} "
                f"characters, {len(other)} of cell outputs"
            )
    else:
        problems.append(
            "pdftotext not found (install poppler-utils): pages not checked"
        )
    tex_source = tex.read_text(encoding="utf-8")
    kinds = re.findall(
        r"\\sphinxincludegraphics(?:\[[^]]*\])?\{\{?[^}]*\}?\.(\w+)\}",
        tex_source,
    )
    vector, raster = kinds.count("pdf"), len(kinds) - kinds.count("pdf")
    print(
        f"{pdf}: {page_count(log_text)} pages, {vector} vector and {raster} raster figures"
    )
    if args.pages and shutil.which("pdftoppm"):
        render_previews(pdf, page_texts(pdf), args.pages)
        print(f"page previews in {args.pages}/")
    problems = list(
        dict.fromkeys(problems)
    )  # the same glyph or repr in input and output
    for problem in problems:
        print("PROBLEM:", problem)
    print(
        f"{len(problems)} problem(s) found"
        if problems
        else "PDF checks passed"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
