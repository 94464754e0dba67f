"""Citations written as Markdown links read as sphinxcontrib-bibtex citations.

The chapters cite with a link to the entry's key, ``[[Boyd and Vandenberghe, 2004]](#boyd2004convex)``
(several keys: ``#key1,key2``), not with ``{cite}`boyd2004convex```: in JupyterLab,
jupyterlab-myst cannot read ``references.bib`` and would show a role as its bare key, while
it shows a link's text. For Sphinx, this transform turns every such link (each of its keys
in the bibliography) into the cross-reference the ``{cite}`` role makes, and records the
citation as the role does. The website, the PDF and the bibliography page (which lists the
works cited) then treat it exactly as ``{cite}`key```; the link's own text is not used.
"""

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinxcontrib.bibtex.citation_target import parse_citation_targets
from sphinxcontrib.bibtex.roles import CitationRef


class CitationLinks(SphinxTransform):
    # After myst-parser's ResolveAnchorIds (879), which leaves a link to "#target" that
    # matches no label or heading as a pending cross-reference of type "myst".
    default_priority = 880

    def apply(self):
        domain = self.env.get_domain("cite")
        entries = domain.bibdata.data.entries
        for link in list(self.document.findall(addnodes.pending_xref)):
            target = link.get("reftarget", "")
            if link.get("reftype") != "myst" or not all(
                key in entries for key in target.split(",")
            ):
                continue
            citation = addnodes.pending_xref(
                target,
                nodes.inline(target, target),
                refdomain="cite",
                reftype="p",
                reftarget=target,
                refdoc=self.env.docname,
                refexplicit=False,
                refwarn=True,
            )
            citation.source, citation.line = link.source, link.line
            self.document.note_explicit_target(citation, citation)  # backrefs
            link.replace_self(citation)
            domain.citation_refs.append(
                CitationRef(
                    citation_ref_id=citation["ids"][0],
                    docname=self.env.docname,
                    line=link.line or 0,
                    targets=list(parse_citation_targets(target)),
                )
            )


def setup(app):
    app.setup_extension("sphinxcontrib.bibtex")
    app.add_transform(CitationLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
