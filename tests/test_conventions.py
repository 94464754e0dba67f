"""The book's conventions (CONTRIBUTING.md), checked on every chapter and on mllib itself."""

import ast
import functools
import json
import re
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pybtex.database
import pybtex_docutils
import pytest
import reading_path
import sphinxcontrib.bibtex.plugin
import yaml
from chapters_to_convert import with_conversion_marks
from sphinxcontrib.bibtex.domain import SphinxReferenceInfo
from sphinxcontrib.bibtex.style.referencing import format_references

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
COLAB_INSTALL_URL = (
    f"{CONFIG['repository']['url']}@{CONFIG['repository']['branch']}"
)
BIBLIOGRAPHY = pybtex.database.parse_file(ROOT / "references.bib")
# A link to "#" followed by bibliography keys: [[Author, Year]](#key1,key2).
LINK_TO_ANCHOR = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(#([^)\s]+)\)")


def toc_files():
    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                yield node["file"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"], *walk(toc.get("parts", toc.get("chapters", [])))]


def load(path):
    return json.loads(path.read_text())


def sources(nb, cell_type):
    return [
        "".join(c["source"])
        for c in nb["cells"]
        if c["cell_type"] == cell_type
    ]


@functools.cache
def citation_text(keys):
    """What the website prints for a citation of `keys` (a tuple): sphinxcontrib-bibtex's
    own author-year formatting, rendered as plain citation nodes instead of links."""
    style = sphinxcontrib.bibtex.plugin.find_plugin(
        "sphinxcontrib.bibtex.style.referencing",
        CONFIG["sphinx"]["config"]["bibtex_reference_style"],
    )()
    info = SphinxReferenceInfo(
        builder=types.SimpleNamespace(name="rinoh"),  # plain nodes, no URI
        fromdocname="",
        todocname="",
        citation_id="",
        title=None,
        pre_text="",
        post_text="",
    )
    references = [(BIBLIOGRAPHY.entries[key], None, info) for key in keys]
    nodes = format_references(style, "p", references).render(
        pybtex_docutils.Backend()
    )
    return "".join(node.astext() for node in nodes)


def citations(markdown):
    """(link text, keys) of every citation link in a chapter's markdown."""
    return [
        (text, tuple(target.split(",")))
        for text, target in LINK_TO_ANCHOR.findall(markdown)
        if set(target.split(",")) & set(BIBLIOGRAPHY.entries)
    ]


def run_first_cell(path, on_colab, installed):
    """Run a chapter's first cell in a fresh interpreter that pretends to be Colab (or not)
    and to lack mllib (or not); return the commands it would have run."""
    program = f"""
import importlib.util, json, subprocess, sys, types
commands = []
subprocess.run = lambda args, **kwargs: commands.append(list(args))
if {on_colab}:
    sys.modules["google.colab"] = types.ModuleType("google.colab")
find_spec = importlib.util.find_spec
importlib.util.find_spec = lambda name, *args: find_spec(name, *args) if {installed} or name != "mllib" else None
exec({"".join(load(path)["cells"][0]["source"])!r})
print(json.dumps(commands))
"""
    result = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_there_are_chapters():
    assert CHAPTERS, "no notebooks found in chapters/"


def test_toc_and_chapters_agree():
    listed = toc_files()
    for entry in listed:
        assert any(
            (ROOT / f"{entry}{ext}").exists() for ext in ("", ".md", ".ipynb")
        ), f"{entry} is in _toc.yml but missing"
    chapter_entries = {e for e in listed if e.startswith("chapters/")}
    on_disk = {f"chapters/{p.stem}" for p in CHAPTERS}
    assert on_disk == chapter_entries, (
        f"not in _toc.yml: {on_disk - chapter_entries}; listed but absent: {chapter_entries - on_disk}"
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
class TestChapter:
    def test_name_is_number_and_slug(self, path):
        assert re.fullmatch(r"\d\d-[a-z0-9]+(-[a-z0-9]+)*\.ipynb", path.name)

    def test_outputs_are_cleared(self, path):
        for cell in load(path)["cells"]:
            if cell["cell_type"] == "code":
                assert (
                    cell["outputs"] == [] and cell["execution_count"] is None
                ), (
                    f"{path.name}: clear outputs with `jupyter nbconvert --clear-output --inplace {path}`"
                )

    def test_first_cell_installs_mllib_on_colab_from_the_configured_repository(
        self, path
    ):
        first = load(path)["cells"][0]
        source = "".join(first["source"])
        assert "remove-cell" in first["metadata"].get("tags", [])
        assert '"google.colab" in sys.modules' in source
        assert 'importlib.util.find_spec("mllib") is None' in source
        assert f'git+{COLAB_INSTALL_URL}"' in source, (
            f"install from {COLAB_INSTALL_URL}, the branch the launch links open"
        )

    @pytest.mark.parametrize(
        "on_colab, installed, expected",
        [
            (
                True,
                False,
                [
                    [
                        sys.executable,
                        "-m",
                        "pip",
                        "install",
                        "--quiet",
                        f"git+{COLAB_INSTALL_URL}",
                    ]
                ],
            ),
            (True, True, []),
            (False, False, []),
        ],
        ids=["colab-without-mllib", "colab-with-mllib", "elsewhere"],
    )
    def test_first_cell_installs_only_on_colab_and_only_when_missing(
        self, path, on_colab, installed, expected
    ):
        assert run_first_cell(path, on_colab, installed) == expected

    def test_imports_mllib_and_uses_the_book_style(self, path):
        code = "\n".join(sources(load(path), "code"))
        assert re.search(r"^\s*(from|import)\s+mllib", code, re.M)
        assert "set_style()" in code

    def test_has_every_part_of_the_anatomy(self, path):
        nb = load(path)
        markdown = "\n".join(sources(nb, "markdown"))
        code = "\n".join(sources(nb, "code"))
        assert re.search(
            r"```\{prf:(theorem|lemma|proposition)\}", markdown
        ), "a stated result"
        assert "```{prf:proof}" in markdown, "a proof"
        assert re.search(r"\$\$ \(eq-[a-z0-9-]+\)", markdown), (
            "a labelled equation"
        )
        assert "show_source(" in code, (
            "the implementation shown next to the derivation"
        )
        for cell in sources(nb, "code"):
            calls = re.findall(r"^show_source\(", cell, re.M)
            # Jupyter displays only a cell's last expression: a second call
            # in the same cell would show nothing
            assert len(calls) <= 1, f"one show_source per cell: {cell[:60]}"
            assert not calls or cell.rstrip().splitlines()[-1].startswith(
                "show_source("
            ), f"show_source must end its cell to be shown: {cell[:60]}"
        assert (
            len(re.findall(r"\bassert\b|np\.testing\.assert", code)) >= 10
        ), "numerical checks"
        assert markdown.count("```{exercise-start}") >= 3, "exercises"
        assert markdown.count("```{solution-start}") == markdown.count(
            "```{exercise-start}"
        ), "a solution per exercise"
        assert markdown.count(":class: dropdown") >= markdown.count(
            "```{solution-start}"
        ), "solutions in dropdowns"
        assert "## Summary" in markdown and citations(markdown), (
            "summary and references"
        )

    def test_every_figure_has_a_caption_name_and_alt_text(self, path):
        for cell in load(path)["cells"]:
            source = "".join(cell["source"])
            if (
                cell["cell_type"] == "code"
                and "plt.show()" in source
                and "def " not in source.split("plt.show()")[0].splitlines()[0]
            ):
                meta = cell["metadata"].get("mystnb", {})
                if "interact(" in source:
                    continue  # interactive demos sit next to a captioned static figure
                assert meta.get("figure", {}).get("caption"), (
                    f"{path.name}: figure without caption:\n{source[:200]}"
                )
                assert meta["figure"].get("name", "").startswith("fig-")
                assert meta.get("image", {}).get("alt"), (
                    f"{path.name}: figure without alt text"
                )

    def test_labels_carry_the_chapter_prefix(self, path):
        text = "\n".join(sources(load(path), "markdown"))
        labels = re.findall(r"\$\$ \((eq-[^)]+)\)|:label: (\S+)", text)
        prefixes = {next(filter(None, pair)).split("-")[1] for pair in labels}
        assert len(prefixes) == 1, (
            f"labels should share one chapter prefix, found {prefixes}"
        )

    def test_second_cell_sends_colab_readers_to_the_website(self, path):
        """Colab renders no MyST: a one-line note, hidden on the website and in the PDF,
        points to the chapter's page on the website (html.baseurl in _config.yml)."""
        note = load(path)["cells"][1]
        page = path.relative_to(ROOT).with_suffix(".html").as_posix()
        url = f"{CONFIG['html']['baseurl'].rstrip('/')}/{page}"
        source = "".join(note["source"])
        source = source.removeprefix(numbering_frontmatter(path) or "")
        assert note["cell_type"] == "markdown" and "\n" not in source
        assert "remove-cell" in note["metadata"].get("tags", [])
        assert f"({url})" in source, f"the note should link to {url}"

    def test_markdown_uses_forms_jupyterlab_renders(self, path):
        """jupyterlab-myst reads no bibliography and resolves no {doc}: cite with a link
        whose text is the website's citation, and link pages as [Title](file)."""
        markdown = "\n".join(sources(load(path), "markdown"))
        for role, instead in [
            ("cite", "[[Author, Year]](#key)"),
            ("doc", "[Title](other-chapter.ipynb)"),
        ]:
            found = re.findall(rf"\{{{role}(?::\w+)?\}}`[^`]*`", markdown)
            assert not found, f"write {found[0]} as {instead}"
        assert not re.search(r"^`{3,}\{only\}", markdown, re.M), (
            "no {only} block in a chapter: JupyterLab shows an unknown directive"
        )
        for text, keys in citations(markdown):
            assert set(keys) <= set(BIBLIOGRAPHY.entries), (
                f"{keys}: not all in references.bib"
            )
            assert text == citation_text(keys), (
                f"citation of {','.join(keys)} reads {text}; "
                f"the website prints {citation_text(keys)}"
            )

    def test_jupyterlab_numbers_as_the_website(self, path):
        """jupyterlab-myst numbers a notebook on its own, from the frontmatter
        of its first Markdown cell (the Colab note, which the website never
        shows): the chapter's website number in the enumerator gives
        "Theorem 6.1" and "(6.4)" there too (none for the unnumbered
        Preliminaries). It titles proofs "Proof 1" unless `:nonumber:` (the
        website never numbers them), and numbers every `$$` display, while the
        website numbers labelled ones only: a display without a label is
        `\\begin{equation*}`, unnumbered in both."""
        nb = load(path)
        note = "".join(nb["cells"][1]["source"])
        front = numbering_frontmatter(path)
        if front:
            assert note.startswith(front), (
                f"{path.name}: cell 1 should begin with {front!r}"
            )
        else:
            assert not note.startswith("```"), (
                f"{path.name} is unnumbered on the website: no numbering"
            )
        markdown = "\n".join(sources(nb, "markdown")[1:])
        for proof in PROOF_OPENING.finditer(markdown):
            assert ":nonumber:" in proof.group("options"), (
                f"{path.name}: give {proof.group(0).splitlines()[0]!r} "
                "the option :nonumber: (JupyterLab says 'Proof 1' otherwise)"
            )
        for display in DISPLAY.finditer(markdown):
            assert display.group("label"), (
                f"{path.name}: label this display or write it "
                "\\begin{equation*}...\\end{equation*}: JupyterLab numbers "
                f"it, the website does not:\n{display.group(0)[:200]}"
            )

    def test_references_are_ones_jupyterlab_resolves(self, path):
        """jupyterlab-myst renders one notebook: a role to another chapter's
        label, or a {numref} to a figure (defined in code-cell metadata), shows
        as a bare label there. Such references are links with the website's
        number typed in, [Theorem 7.2](07-kernel-methods.ipynb#thm-…); the
        website build checks the number (_ext/label_links.py), this checks
        that the text names the chapter."""
        markdown = "\n".join(sources(load(path), "markdown"))
        found = re.search(r"\{numref\}`[^`]*`", markdown)
        assert not found, (
            f"{path.name}: write {found.group(0)} as [Fig. N.k](#label), the "
            "number as the website prints it"
        )
        owners = label_owners()
        for match in FIGURE_OR_EQUATION_REF.finditer(markdown):
            label = match.group(match.lastindex)
            owner = owners.get(label)
            if match.group(0).startswith("{") and owner not in (None, path):
                pytest.fail(
                    f"{path.name}: {match.group(0)} points into {owner.name}; "
                    f"write it [Text with its number]({owner.name}#{label})"
                )
        for text, target, label in LINK_TO_LABEL.findall(markdown):
            owner = owners.get(label)
            if not target or owner is None:
                continue
            assert target == owner.name, (
                f"{path.name}: [{text}]: {label} is in {owner.name}"
            )
            chapter = toc_numbers().get(f"chapters/{owner.stem}")
            names = rf"\b{chapter}\.\d" if chapter else "Preliminaries"
            assert re.search(names, text), (
                f"{path.name}: link text [{text}] should name its chapter "
                f"({names})"
            )

    def test_solution_code_is_folded_in_jupyterlab(self, path):
        """A gated solution's code cells sit outside its dropdown in JupyterLab, which folds
        them only when their metadata says so (the website ignores the key)."""
        inside = False
        for cell in load(path)["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                markers = re.findall(
                    r"```\{(solution-start|solution-end)\}", source
                )
                inside = markers[-1] == "solution-start" if markers else inside
            elif inside:
                assert cell["metadata"].get("jupyter") == {
                    "source_hidden": True,
                    "outputs_hidden": True,
                }, f"{path.name}: fold this solution cell:\n{source[:200]}"

    def test_is_stored_as_jupyterlab_saves_it(self, path):
        """Opening a chapter in JupyterLab must leave it as it is: a reader who
        only reads gets no modified tab and no dirty git tree
        (tests/test_jupyterlab.py opens every chapter to check). JupyterLab
        (through jupyter_server) writes a notebook as nbformat does: keys
        sorted, one space of indent, non-ASCII as is; its cell model mirrors
        `jupyter.outputs_hidden` in the classic `collapsed` key (@jupyter/ydoc's
        setMetadata); and the kernel replaces `language_info` by its own
        (ipykernel's), of which only `version`, the Python the reader runs,
        differs between machines and stays out."""
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        fix = f"python tests/reading_path.py --fold {path.relative_to(ROOT)}"
        assert nbformat.writes(nb) + "\n" == text, (
            f"{path.name} is not in the form JupyterLab saves (sorted keys, "
            f"indent 1): run {fix}"
        )
        for cell in nb.cells:
            hidden = cell.metadata.get("jupyter", {}).get("outputs_hidden")
            if cell.cell_type == "code":
                assert cell.metadata.get("collapsed") == hidden, (
                    f"{path.name}, cell {cell.id}: `collapsed` should be "
                    f"{hidden}, as JupyterLab mirrors outputs_hidden: run {fix}"
                )
        expected = reading_path.jupyterlab_language_info()
        assert expected["name"] == "python" and expected["pygments_lexer"]
        assert nb.metadata.get("language_info") == expected, (
            f"{path.name}: language_info should be ipykernel's, without its "
            f"version: run {fix}"
        )

    def test_install_cell_is_hidden_in_jupyterlab(self, path):
        """The Colab install cell (removed on the website) would otherwise be
        the first thing a JupyterLab reader sees."""
        first = load(path)["cells"][0]
        assert first["metadata"].get("jupyter", {}).get("source_hidden"), (
            f"{path.name}: run python tests/reading_path.py --fold "
            f"{path.relative_to(ROOT)}"
        )

    def test_no_global_random_seed(self, path):
        assert "np.random.seed" not in "\n".join(sources(load(path), "code"))


def test_citation_text_is_the_websites():
    """Guards the check above against comparing nonsense."""
    assert (
        citation_text(("magnus2019matrix",)) == "[Magnus and Neudecker, 2019]"
    )
    assert citation_text(("hastie2009elements",)) == "[Hastie et al., 2009]"


def test_mllib_never_forms_an_explicit_inverse_or_seeds_globally():
    for path in (ROOT / "mllib").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"\binv\(", text), (
            f"{path}: solve a system instead of forming an inverse"
        )
        assert "np.random.seed" not in text, (
            f"{path}: use check_random_state(random_state)"
        )


def test_requirements_keep_jupyter_book_1():
    text = (ROOT / "requirements.in").read_text()
    assert re.search(r"^jupyter-book>=1\.0\.4,<2", text, re.M)
    for name in ("requirements.in", "requirements.txt"):
        assert re.search(r"^-e \.$", (ROOT / name).read_text(), re.M), (
            f"{name} must install mllib itself"
        )


def locked_versions():
    """{name: [(version, marker)]} of requirements.txt, the lock."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        match = re.match(
            r"^([A-Za-z0-9_.\[\]-]+)==([^\s;]+)\s*(?:;(.*))?$", line
        )
        if match:
            name = canonicalize_name(match[1].split("[")[0])
            pins.setdefault(name, []).append((match[2], match[3]))
    return pins


def test_the_lock_pins_everything_requirements_in_asks_for():
    """requirements.txt is compiled from requirements.in: every requirement is
    pinned to one exact version per platform marker, within its range (a range
    changed without recompiling the lock fails here)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = locked_versions()
    for line in (ROOT / "requirements.in").read_text().splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith(("#", "-e")):
            continue
        requirement = Requirement(line)
        versions = pins.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement.name} is not in the lock: recompile it"
        for version, _ in versions:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"the lock pins {requirement.name}=={version}, outside "
                f"{requirement.specifier}: recompile it (CONTRIBUTING.md)"
            )


def test_config_makes_failing_cells_fail_the_build():
    execute = CONFIG["execute"]
    assert (
        execute["raise_on_error"] is True and execute["allow_errors"] is False
    )
    assert CONFIG["only_build_toc_files"] is True
    assert CONFIG["repository"]["branch"] == "main"


# --- A student's path (issue 15) and code that fits (issue 17) --------------------
# Strict expected failures for the chapters listed in chapters_to_convert.py.

CONVERSION_GATE = with_conversion_marks(
    CHAPTERS, stem=lambda p: p.stem, ids=lambda p: p.name
)
STUDENT_PATH_CHAPTERS = with_conversion_marks(
    CHAPTERS, stem=lambda p: p.stem, ids=lambda p: p.name, strict=False
)
MAX_LINE = 79  # characters, as ruff format (pyproject.toml) and the page fit
MAX_CORE_MINUTES = 135  # "about two hours" of reading (issue 15)
MAX_CORE_WORK_MINUTES = 180  # three hours with pen and paper (issue 23)
MAX_INLINE_CORRECTIONS = 3
MAX_CORRECTION_WORDS = 120
LEARN_BOX = re.compile(
    r"```\{admonition\} What you will learn\n(.*?)\n```", re.S
)
DURATION = r"about (?:(\d+) h)? ?(?:(\d+) min)?"
READING_TIME = re.compile(
    rf"\*\*Reading time:\*\* {DURATION} to read the main path,\s+"
    rf"{DURATION} to work\s+through it with pen and paper"
)
CORRECTION_BOX = re.compile(r"```\{admonition\} Correction\n(.*?)\n```", re.S)
# How a correction announces itself in prose: it belongs in a Correction box
# (a trap a student will meet) or in the "Common slips" section.
SLIP_PHRASE = re.compile(
    r"\b(?:some|many|several|other|one set of) (?:lecture |course )?"
    r"(?:notes|textbooks|texts|sources)\b"
    r"|\b(?:is|are) (?:sometimes|often) (?:stated|written|given|described"
    r"|claimed)\b",
    re.I,
)
FIGURE_OR_EQUATION_REF = re.compile(
    r"\{(?:eq|numref|ref|prf:ref)\}`(?:[^`<]*<)?([\w-]+)>?`"
    r"|\]\((?:[\w-]+\.ipynb)?#([\w-]+)\)"  # [Fig. 6.1](#fig-…) and the like
)
EQUATION_LABEL = re.compile(r"\$\$\s*\((eq-[\w-]+)\)")
# A theorem, lemma, definition or exercise (:label: under its directive) and
# a section target, (name)=, are defined where they stand.
DIRECTIVE_LABEL = re.compile(r"^:label:\s*([\w-]+)\s*$", re.M)
SECTION_TARGET = re.compile(r"^\(([\w-]+)\)=\s*$", re.M)
# A reference may look ahead when its sentence says so.
LOOKS_AHEAD = re.compile(r"below|Going deeper", re.I)


def markdown_sections(nb):
    """Yield (cell index, H2 section title or '', markdown source)."""
    section = ""
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        headings = re.findall(r"^## (.+)$", text, re.M)
        yield index, section, text
        if headings:
            section = headings[-1].strip()


def self_check_calls(nb):
    """(cell index, number of questions) for each self_check(...) call."""
    found = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code" or "self_check(" not in "".join(
            cell["source"]
        ):
            continue
        tree = ast.parse("".join(cell["source"]))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "self_check"
            ):
                questions = node.args[0] if node.args else None
                found.append(
                    (index, len(getattr(questions, "elts", []) or []))
                )
    return found


@pytest.mark.parametrize("path", CONVERSION_GATE)
class TestConverted:
    """What every converted chapter has, and no unconverted one."""

    def test_opens_with_what_you_will_learn_and_the_reading_time(self, path):
        nb = load(path)
        opening = ""
        for cell in nb["cells"][1:]:
            text = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and re.search(
                r"^## ", text, re.M
            ):
                opening += text.split("\n## ")[0]
                break
            opening += text
        box = LEARN_BOX.search(opening)
        assert box, (
            "a ```{admonition} What you will learn box before the first "
            "section (CONTRIBUTING.md, 'A student's path')"
        )
        stated = READING_TIME.search(box.group(1))
        assert stated, (
            "the box says '**Reading time:** about 1 h 40 min to read the "
            "main path, about 2 h 50 min to work through it with pen and "
            "paper; ...' (CONTRIBUTING.md, 'A student's path')"
        )
        hours, minutes, work_hours, work_minutes = (
            int(g or 0) for g in stated.groups()
        )
        read, work = reading_path.core_minutes(nb)
        for name, said, computed in [
            ("read", 60 * hours + minutes, read),
            ("work through", 60 * work_hours + work_minutes, work),
        ]:
            assert abs(said - computed) <= max(10, 0.15 * computed), (
                f"the box states {stated.group(0)!r}; the core path takes "
                f"about {reading_path.format_minutes(computed)} to {name} "
                f"(python tests/reading_path.py {path.relative_to(ROOT)})"
            )
        assert read <= MAX_CORE_MINUTES, (
            f"the core path reads in {reading_path.format_minutes(read)}: "
            "fold verifications, move side trips to Going deeper"
        )
        assert work <= MAX_CORE_WORK_MINUTES, (
            f"the core path takes {reading_path.format_minutes(work)} to "
            "work through with pen and paper, over 3 h: move material to "
            "Going deeper (CONTRIBUTING.md, 'A student's path')"
        )

    def test_verification_cells_are_folded_and_summarised(self, path):
        cells = [
            c for c in load(path)["cells"] if reading_path.is_verification(c)
        ]
        assert cells, "no folded verification cell ('# Verification: ...')"
        for cell in cells:
            summary = reading_path.verification_summary(cell)
            meta = cell["metadata"]
            assert summary, "a verification cell says what it establishes"
            assert (
                "hide-cell" in meta.get("tags", [])
                and meta.get("mystnb", {}).get("code_prompt_show")
                == f"Verification: {summary}"
                and meta.get("jupyter", {})
                == {"source_hidden": True, "outputs_hidden": True}
            ), (
                f"fold it: python tests/reading_path.py --fold {path.name} "
                f"({summary!r})"
            )

    def test_main_sections_end_with_self_check_questions(self, path):
        nb = load(path)
        calls = self_check_calls(nb)
        assert sum(n for _, n in calls) >= 5, (
            "at least five self-check questions (mllib.notebook.self_check, "
            "written as a literal list)"
        )
        exercises = next(
            i
            for i, section, text in markdown_sections(nb)
            if re.search(r"^## Exercises", text, re.M)
        )
        assert all(index < exercises for index, _ in calls), (
            "self-check questions close the main sections, before Exercises"
        )
        for index, _ in calls:
            meta = nb["cells"][index]["metadata"]
            assert "remove-input" in meta.get("tags", []) and meta.get(
                "jupyter", {}
            ).get("source_hidden"), (
                "a self-check cell's source holds the answers: hide it "
                f"(python tests/reading_path.py --fold {path.name})"
            )

    def test_code_cells_fit_79_characters(self, path):
        for cell in load(path)["cells"]:
            if cell["cell_type"] != "code":
                continue
            for line in "".join(cell["source"]).splitlines():
                assert len(line) <= MAX_LINE, (
                    f"{len(line)} characters (the page and the PDF show "
                    f"{MAX_LINE}): {line}"
                )


@pytest.mark.parametrize("path", STUDENT_PATH_CHAPTERS)
class TestStudentPath:
    """What a converted chapter keeps to (some chapters already did)."""

    def test_corrections_are_inline_traps_or_common_slips(self, path):
        sections = list(markdown_sections(load(path)))
        inline = [
            box
            for _, section, text in sections
            if section != "Common slips"
            for box in CORRECTION_BOX.findall(text)
        ]
        assert len(inline) <= MAX_INLINE_CORRECTIONS, (
            f"{len(inline)} Correction boxes: keep the traps a student will "
            "meet, move the rest to '## Common slips'"
        )
        for box in inline:
            assert ":class: warning" in box
            words = reading_path.markdown_size(box).words
            assert words <= MAX_CORRECTION_WORDS, (
                f"a Correction box of {words} words: {box[:80]!r}"
            )
        for _, section, text in sections:
            if section == "Common slips":
                continue
            prose = CORRECTION_BOX.sub("", text)
            stray = SLIP_PHRASE.search(prose)
            assert not stray, (
                f"a correction outside a Correction box or Common slips: "
                f"...{prose[max(0, stray.start() - 60) : stray.end() + 40]}..."
            )

    def test_figures_and_equations_appear_before_they_are_referenced(
        self, path
    ):
        """The core path uses nothing it has not introduced: a figure,
        equation, theorem, lemma, definition or section of the chapter is referenced after it appears, unless the sentence says it
        looks ahead ("see below", "in Going deeper")."""
        nb = load(path)
        defined, references = {}, []
        for index, (part, cell) in enumerate(reading_path.sections(nb)):
            text = "".join(cell["source"])
            name = cell["metadata"].get("mystnb", {}).get("figure", {})
            if name.get("name"):
                defined[name["name"]] = (index, 0)
            if cell["cell_type"] != "markdown":
                continue
            for pattern in (EQUATION_LABEL, DIRECTIVE_LABEL, SECTION_TARGET):
                for match in pattern.finditer(text):
                    defined.setdefault(match.group(1), (index, match.start()))
            if part != "core":
                continue
            for match in FIGURE_OR_EQUATION_REF.finditer(text):
                sentence = text[max(0, match.start() - 80) : match.end() + 80]
                if not LOOKS_AHEAD.search(sentence):
                    label = match.group(match.lastindex)
                    references.append((label, (index, match.start())))
        for label, at in references:
            # Exercises come last by design; pointing a reader to one is
            # not using it.
            if label in defined and not label.startswith("ex-"):
                assert defined[label] < at, (
                    f"{label} is referenced on the core path (shown cell "
                    f"{at[0]}) before it appears (shown cell "
                    f"{defined[label][0]}); move it, or say 'see below' or "
                    "'in Going deeper'"
                )

    def test_interactive_demos_move_on_the_website(self, path):
        code = "\n".join(sources(load(path), "code"))
        assert not re.search(r"\binteract(ive)?\(", code), (
            "draw the frames with mllib.plotting.interactive_figure"
        )


# A link to a numbered object of this or another chapter, as JupyterLab shows
# it: [Theorem 7.2](07-kernel-methods.ipynb#thm-kernel-representer).
LINK_TO_LABEL = re.compile(
    r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(((?:[\w-]+\.ipynb)?)#([\w-]+)\)"
)
# A {prf:proof} opening and its options (the lines that start with ":").
PROOF_OPENING = re.compile(
    r"^[ \t]*(?:`{3,}|:{3,})\{prf:proof\}[^\n]*\n(?P<options>(?:[ \t]*:.*\n)*)",
    re.M,
)
# A $$ display and the label that may follow it.
DISPLAY = re.compile(
    r"^\$\$\n.*?\n\$\$(?:[ \t]*\((?P<label>[^)\s]+)\))?", re.M | re.S
)


def toc_numbers():
    """chapters/NN-slug -> its number on the website (numbered parts only)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    numbered = [
        chapter["file"]
        for part in toc["parts"]
        if part.get("numbered")
        for chapter in part["chapters"]
    ]
    return {name: number for number, name in enumerate(numbered, 1)}


def numbering_frontmatter(path):
    """The frontmatter that makes JupyterLab number as the website, or None."""
    number = toc_numbers().get(f"chapters/{path.stem}")
    if number is None:
        return None
    return f'```yaml\nnumbering: {{enumerator: "{number}.%s"}}\n```\n'


@functools.cache
def label_owners():
    """label -> the chapter that defines it (directive, equation, figure)."""
    owners = {}
    for path in CHAPTERS:
        for cell in load(path)["cells"]:
            source = "".join(cell["source"])
            figure = cell["metadata"].get("mystnb", {}).get("figure", {})
            if figure.get("name"):
                owners[figure["name"]] = path
            if cell["cell_type"] == "markdown":
                for pattern in (EQUATION_LABEL, DIRECTIVE_LABEL):
                    for match in pattern.finditer(source):
                        owners[match.group(1)] = path
    return owners


# Letters notation.md reserves, and the uses of them that clash (a rule per
# clash readers have found; notation.md is the book-wide contract).
RESERVED_LETTERS = [
    (
        r"margin\s*\$\\gamma|\$\\gamma\$?[^.$]{0,20}\bmargin",
        "the margin is ρ; γ is the Gaussian kernel's width (notation.md)",
    ),
    (
        r"natural parameters?\s*\$\\eta",
        "η is a step size (notation.md): the natural parameter is another "
        "letter",
    ),
    (
        r"\\ell\(\\theta\)\s*=\s*-",
        "ℓ(θ) is the log-likelihood (notation.md): write the negative "
        "log-likelihood as −ℓ(θ), or give it another letter",
    ),
]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_reserved_letters_keep_their_meaning(path):
    markdown = "\n".join(sources(load(path), "markdown"))
    for pattern, rule in RESERVED_LETTERS:
        found = re.search(pattern, markdown)
        assert not found, f"{found.group(0)!r}: {rule}"


# A reference that renders its own kind ("Exercise 2.3", "Theorem 4") or its
# chapter ("(Preliminaries)", appended by _ext/cross_references.py) reads
# twice when the text says it again: "the exercise Exercise 2.3", "Theorem 4
# (Preliminaries) in Preliminaries: ...".
DOUBLED_REFERENCES = [
    re.compile(
        r"\b(?:exercises?|theorems?|lemmas?|definitions?|propositions?|"
        r"corollar(?:y|ies)|figures?|fig\.|algorithms?|examples?)\s+"
        r"\{(?:prf:ref|ref|numref)\}`(?![^`]*<)[^`]*`",
        re.I,
    ),
    re.compile(
        r"\{(?:prf:ref|ref|numref)\}`[^`<]*prelim[^`]*`\)?\s+(?:in|of|from)"
        r"\s+(?:the\s+)?\[[^\]]*\]\(00-preliminaries",
        re.I,
    ),
    # the same, written as links with their text: "the exercise [Exercise
    # 2.3](…)", "[Theorem 4 (Preliminaries)](…) in [Preliminaries](…)"
    re.compile(
        r"\b(?:exercises?|theorems?|lemmas?|definitions?|propositions?|"
        r"corollar(?:y|ies)|figures?|fig\.|algorithms?|examples?)\s+"
        r"\[(?:Exercise|Theorem|Lemma|Definition|Proposition|Corollary|Fig\."
        r"|Algorithm|Example)\b",
        re.I,
    ),
    re.compile(
        r"\]\(00-preliminaries\.ipynb#[^)]*\)\)?\s+(?:in|of|from)"
        r"\s+(?:the\s+)?\[[^\]]*\]\(00-preliminaries",
        re.I,
    ),
]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_references_do_not_name_their_target_twice(path):
    markdown = "\n".join(sources(load(path), "markdown"))
    for pattern in DOUBLED_REFERENCES:
        found = pattern.search(markdown)
        assert not found, (
            f"{found.group(0)!r} names its target twice once rendered: the "
            "reference prints the kind and the chapter itself"
        )


def test_mllib_source_fits_79_characters():
    """Chapters display mllib's source with show_source: it must fit the page
    and the PDF like any code cell."""
    long = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "mllib").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if len(line) > MAX_LINE
    ]
    assert not long, f"{len(long)} lines longer than {MAX_LINE}: {long[:10]}"
