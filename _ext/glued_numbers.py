"""Numbers a chapter computes, in its text: ``{eval}`glued.<name>```.

A code cell calls ``mllib.notebook.glue(name=text)``, which stores the text in
its output in myst-nb's glue format; a Markdown cell or a figure caption
writes ``{eval}`glued.name``` where the number belongs. jupyterlab-myst
evaluates that expression in the reader's kernel; this extension replaces
myst-nb's ``eval`` role (which needs a live kernel, and the book executes
through a cache) by a look-up of the stored value, so the website and the PDF
print the number the build computed. A name nothing glued is a build warning,
which ``-W`` makes an error.
"""

import re

from docutils import nodes
from myst_nb.core.variables import RetrievalError
from myst_nb.ext.glue.utils import glue_warning, retrieve_glue_data
from myst_nb.ext.utils import RoleBase

GLUED = re.compile(r"glued\.([A-Za-z_]\w*)")


class GluedNumber(RoleBase):
    def run(self):
        match = GLUED.fullmatch(self.text.strip())
        if match is None:
            message = (
                f"{{eval}}`{self.text}`: the book's text quotes computed "
                "values only as {eval}`glued.<name>` (mllib.notebook.glue)"
            )
            return [], [glue_warning(message, self.document, self.line)]
        try:
            data = retrieve_glue_data(self.document, match[1])
        except RetrievalError as error:
            return [], [glue_warning(str(error), self.document, self.line)]
        text = data.data.get("text/plain", "")
        return [nodes.inline(text, text, classes=["glued"])], []


def setup(app):
    # After myst-nb (local extensions load last): this `eval` replaces its.
    app.add_role("eval", GluedNumber(), override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
