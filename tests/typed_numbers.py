"""Numbers typed by hand into a chapter's text, which a cell may compute.

    python tests/typed_numbers.py [chapters/NN-slug.ipynb ...]

prints, for each chapter (all by default), the numbers in its text that are
neither glued from the computation nor found in its code, with where they
stand; tests/test_typed_numbers.py fails on any. A number typed into the text
drifts the day the code or the machine changes, so every number a cell
computes reaches the text through ``mllib.notebook.glue`` and
``{eval}`glued.<name>``` (CONTRIBUTING.md, "Numbers in the text").

What is read: Markdown cells, figure captions and alt texts (cell metadata),
and the comments and string literals of code cells (quiz questions and
feedback, titles, labels; an f-string's replacement fields are computed, not
typed). What counts as a number (the heuristic is strict on purpose):

- every decimal (``0.86``, ``86.4``, ``.5``), in prose and in maths alike,
  with a power of ten if it has one (``5.9e-8``, ``3.46 × 10⁻⁴``, ``2×10³``);
- every percentage (``96%``);
- an integer that the text gives as approximate (``about 30``, ``≈ 12``,
  ``roughly 200``): integers are otherwise counts, indices and orders, which
  the text defines rather than measures.

A number passes when

1. it is glued: written ``{eval}`glued.<name>```, not typed at all;
2. its value is a numeric literal of the chapter's code: a parameter the code
   sets (``delta = 0.05``), or the value an assertion checks the
   computation against (``assert abs(auc - 0.86) < 0.01``);
3. it names something rather than measures it: a reference ("Theorem 7.2",
   "Section 3.1", "Algorithm 2.1", a link ``[(2.13)](…#eq-…)``, whose number
   the website build checks), a version ("Python 3.11"), a label;
4. the chapter lists it, with the reason, in its notebook metadata:
   ``metadata["mllib"]["typed_numbers"] = {"0.632": "1 − 1/e, ...", ...}``
   (for constants of mathematics and exact hand computations the text
   derives; a listed number that no longer occurs is itself a failure).

The heuristic cannot see a result that happens to equal a literal of the
code, nor integers stated without "about"; the readers' checks remain.
"""

import io
import json
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
NUMBER = re.compile(
    r"""
    (?<![\w.\\/#-])                          # not inside a word, path or label
    (?P<mantissa>\d+\.\d+|\.\d+|\d+)
    (?:
        (?P<e>[eE][-+−]?\d+)                                  # 5.9e-8
      | \s*(?:[×x]|\\times)\s*10(?:\^\{?(?P<caret>[-−]?\d+)\}?            # 2 × 10^{3}
                     |(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))            # 3.46 × 10⁻⁴
    )?
    (?P<percent>\s?%|\\%)?
    (?![\w.]*\d)                             # not the head of a longer token
    """,
    re.VERBOSE,
)
APPROXIMATE = re.compile(
    r"(?:about|around|roughly|nearly|approximately|almost|close\s+to|"
    r"some|≈|\\approx|~|∼)\s*\$?\s*$",
    re.IGNORECASE,
)
# Words after which a number names something: a reference or a version.
NAMING = re.compile(
    r"(?:section|sections|§|chapter|chapters|theorem|thm\.?|lemma|"
    r"corollary|proposition|definition|figure|figures|fig\.?|table|"
    r"equation|equations|eq\.?|eqs\.?|exercise|exercises|algorithm|alg\.?|"
    r"example|remark|step|part|problem|appendix|version|python|numpy|"
    r"scipy|scikit-learn|matplotlib|jupyterlab|jupyter\s+book|mathjax|"
    r"myst-nb|otter|cor\.?|corollary|v)\s*\(?$",
    re.IGNORECASE,
)
GLUED = re.compile(r"\{eval\}`[^`]*`")
LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
# What holds no prose: role targets and labels, link targets, HTML tags,
# directive options.
NOT_PROSE = [
    re.compile(r"\{[\w:-]+\}`[^`]*`"),  # roles: {eq}`eq-x`, {cite}`key`
    # an equation number typed into a link to its label, [(2.13)](…#eq-x):
    # a reference, which the website build checks (_ext/label_links.py)
    re.compile(r"\[\(\d+(?:\.\d+)*\)[^\]]*\]\([\w.-]*#eq-[\w-]+\)"),
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"<[^>\n]+>"),  # HTML tags
    re.compile(
        r"^\s*:[\w-]+:.*$", re.MULTILINE
    ),  # directive options (:label: ...)
    re.compile(r"^\s*\(\w[\w-]*\)=\s*$", re.MULTILINE),  # (target)=
    re.compile(r"\$\$\s*\([\w-]+\)"),  # the label after a display
    re.compile(r"\\(?:label|ref|eqref|tag)\{[^}]*\}"),
]


def load(path):
    return json.loads(Path(path).read_text())


def source(cell):
    return "".join(cell["source"])


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def value(match):
    """The number a match stands for, or None if it is not one."""
    try:
        number = float(match["mantissa"])
    except ValueError:
        return None
    if match["e"]:
        number *= 10.0 ** int(match["e"][1:].replace("−", "-"))
    elif match["caret"]:
        number *= 10.0 ** int(match["caret"].replace("−", "-"))
    elif match["sup"]:
        number *= 10.0 ** int(match["sup"].translate(SUPERSCRIPT))
    return number


def numbers_in(text):
    """Yield (typed text, value, context) for every number the text types."""
    text = GLUED.sub(" ", text)
    # A LaTeX command is not a word a number can belong to (\approx0.5).
    text = LATEX_COMMAND.sub(lambda m: m[0] + " ", text)
    for pattern in NOT_PROSE:
        text = pattern.sub(" ", text)
    for match in NUMBER.finditer(text):
        before = text[max(0, match.start() - 40) : match.start()]
        decimal = "." in match["mantissa"]
        scaled = match["e"] or match["caret"] or match["sup"]
        if NAMING.search(before.rstrip()):
            continue
        if not (
            decimal or scaled or match["percent"] or APPROXIMATE.search(before)
        ):
            continue
        number = value(match)
        if number is None:
            continue
        context = text[max(0, match.start() - 30) : match.end() + 30]
        yield match[0].strip(), number, " ".join(context.split())


def code_parts(code):
    """(numeric literals, typed text) of a code cell: the values of its
    NUMBER tokens, and its comments and string literals (f-strings without
    their replacement fields)."""
    literals, texts = set(), []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return literals, [code]
    for token in tokens:
        if token.type == tokenize.NUMBER:
            try:
                literals.add(abs(float(token.string.replace("_", ""))))
            except ValueError:
                pass  # complex or other literal forms
        elif token.type == tokenize.COMMENT:
            texts.append(token.string)
        elif token.type == tokenize.STRING:
            texts.append(string_text(token.string))
        elif token.type == getattr(tokenize, "FSTRING_MIDDLE", None):
            texts.append(token.string)
    return literals, texts


def string_text(literal):
    """A string literal's typed text: f-strings lose their fields."""
    prefix = re.match(r"[a-zA-Z]*", literal)[0].lower()
    body = literal[len(prefix) :]
    if "f" in prefix:
        body = re.sub(r"\{\{|\}\}", "", body)
        body = re.sub(r"\{[^{}]*\}", " ", body)
    return body


def matches_literal(number, literals):
    """The value, or the value of a percentage as a fraction, is a literal."""
    return any(
        abs(number - literal) <= 1e-12 * max(1.0, abs(literal))
        for literal in literals
    )


def typed_numbers(nb):
    """The numbers the chapter types that no rule lets pass, as
    (number, where, context), and the listed exceptions no text uses."""
    listed = nb.get("metadata", {}).get("mllib", {}).get("typed_numbers", {})
    literals, places = set(), []
    for index, cell in enumerate(nb["cells"]):
        if "remove-cell" in tags(cell):
            continue
        text = source(cell)
        if cell["cell_type"] == "markdown":
            places.append((f"cell {index}", text))
            continue
        if cell["cell_type"] != "code":
            continue
        cell_literals, cell_texts = code_parts(text)
        literals |= cell_literals
        places += [(f"cell {index} (code text)", t) for t in cell_texts]
        mystnb = cell.get("metadata", {}).get("mystnb", {})
        caption = mystnb.get("figure", {}).get("caption")
        alt = mystnb.get("image", {}).get("alt")
        if caption:
            places.append((f"cell {index} (caption)", caption))
        if alt:
            places.append((f"cell {index} (alt text)", alt))
    unexplained, used = [], set()
    for where, text in places:
        for typed, number, context in numbers_in(text):
            bare = typed.rstrip("%\\ ").strip()
            if typed in listed or bare in listed:
                used.add(typed if typed in listed else bare)
                continue
            candidates = [number]
            if "%" in typed:
                candidates.append(number / 100)
            if any(matches_literal(c, literals) for c in candidates):
                continue
            unexplained.append((typed, where, context))
    unused = sorted(set(listed) - used)
    return unexplained, unused


def main(paths):
    paths = paths or sorted(ROOT.glob("chapters/*.ipynb"))
    total = 0
    for path in paths:
        unexplained, unused = typed_numbers(load(path))
        total += len(unexplained) + len(unused)
        print(f"{Path(path).name}: {len(unexplained)} typed numbers")
        for typed, where, context in unexplained:
            print(f"  {typed!r:>12}  {where}: …{context}…")
        for number in unused:
            print(f"  listed in metadata but not in the text: {number!r}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
