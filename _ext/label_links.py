"""A link to a numbered label reads the same in JupyterLab and on the website,
and its typed number is checked (a Sphinx extension).

jupyterlab-myst renders one notebook at a time: a role that points into
another chapter ({prf:ref}, {eq}, {ref}, {numref}) shows there as its bare
label with a warning icon, and so does every {numref} to a figure, since the
figures are defined in code-cell metadata that only myst-nb reads. What it
does show is a link's text. So the chapters write those references as links
with the number typed in, as the website prints it:

    [Theorem 3 of the Preliminaries](00-preliminaries.ipynb#thm-prelim-kkt)
    [(4.3)](04-regularisation.ipynb#eq-reg-ridge)
    [Fig. 6.1](#fig-svm-hard-margin)

Sphinx alone would resolve such a link only to the page (and warn that the
label is no heading there). This post-transform, which runs before LaTeX's
MathReferenceTransform (priority 5) and the MyST and Sphinx resolvers (9,
10), resolves each link whose target is a numbered object (a theorem-like
block, an equation, a figure or an exercise) as the role would, so the link
points to the object, and **warns when the link text does not contain the
number the role gives** (a stale number fails the `-W` build). The website
keeps the typed text; the PDF gets the role itself, which LaTeX numbers.

It also lets `{prf:proof}` take `:nonumber:`: jupyterlab-myst titles proofs
"Proof 1", "Proof 2" unless told not to, sphinx-proof never numbers them.
"""

import re

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx_proof.directive import ProofDirective

LOGGER = logging.getLogger(__name__)
NUMBER = re.compile(r"\d+(?:\.\d+)*")


def role_for(env, label):
    """(domain, role) that numbers `label`, or None if it is not numbered."""
    if label in getattr(env, "proof_list", {}):  # sphinx-proof's blocks
        return "prf", "ref"
    if label in env.get_domain("math").equations:
        return "math", "eq"
    std = env.get_domain("std")
    if label in std.labels:  # figures and exercises; not sections
        docname, labelid = std.labels[label][:2]
        numbered = env.toc_fignumbers.get(docname, {}).values()
        if any(labelid in ids for ids in numbered):
            return "std", "numref"
    return None


def typed_number_matches(typed, number):
    """Whether `number` ("6.1", "14") stands on its own in `typed`."""
    return bool(re.search(rf"(?<![\d.]){re.escape(number)}(?!\d|\.\d)", typed))


class LabelLinks(SphinxPostTransform):
    default_priority = 4

    def run(self):
        env, builder = self.env, self.app.builder
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst" or not node.get("refexplicit"):
                continue
            if node.get("refdomain") == "doc":  # [text](other.ipynb#label)
                label = node.get("reftargetid")
            else:  # [text](#label)
                label = node.get("reftarget")
            found = role_for(env, label) if label else None
            if found is None:
                continue
            domain, role = found
            contnode = nodes.inline(label, label)
            xref = addnodes.pending_xref(
                "",
                contnode,
                refdomain=domain,
                reftype=role,
                reftarget=label,
                refdoc=env.docname,
                refexplicit=False,
                refwarn=True,
            )
            xref.source, xref.line = node.source, node.line
            if builder.format == "latex":
                node.replace_self(xref)  # LaTeX prints its own number
                continue
            resolved = env.get_domain(domain).resolve_xref(
                env, env.docname, builder, role, label, xref, contnode
            )
            if resolved is None:
                LOGGER.warning(
                    "link to %r: no number found", label, location=node
                )
                continue
            numbers = NUMBER.findall(resolved.astext())
            typed = node.astext()
            if not numbers or not typed_number_matches(typed, numbers[-1]):
                LOGGER.warning(
                    "link text %r does not give the number of %r, which is %r",
                    typed,
                    label,
                    resolved.astext(),
                    location=node,
                    type="label_links",
                    subtype="stale_number",
                )
            resolved.children = []
            text = node.children
            if len(text) == 1 and isinstance(text[0], nodes.inline):
                text = text[0].children
            resolved += list(text)
            node.replace_self(resolved)


def setup(app):
    ProofDirective.option_spec = {
        **ProofDirective.option_spec,
        "nonumber": directives.flag,
    }
    app.add_post_transform(LabelLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
