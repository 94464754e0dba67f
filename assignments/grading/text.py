"""Text from submissions, made safe to show: the CSV, feedback and the log.

File names, zip member names and error messages come from students. Any of
them may hold bytes that are not UTF-8 (a file name is bytes on Linux), lone
surrogates (``raise ValueError("\\ud800")``), terminal escape sequences (a
window title, cursor moves, an OSC 52 clipboard write), bidirectional
overrides that make a name read backwards, or megabytes of text. ``clean``
turns any of them into one line of valid UTF-8 that shows what was there:
control and format characters become visible escapes (``\\x1b``), bytes that
are not UTF-8 become ``\\xff``, and the text is cut to a length.
"""

import unicodedata

ELLIPSIS = "…"


def clean(value, limit=500):
    """``str(value)`` as one printable line of at most ``limit`` characters
    (a cut line ends with an ellipsis)."""
    text = value if type(value) is str else _str(value)
    if text.isprintable() and text.isascii() and len(text) <= limit:
        return text  # the common case, quickly
    shown, size = [], 0
    for char in text:
        piece = _visible(char)
        shown.append(piece)
        size += len(piece)
        if size > limit:
            break
    line = "".join(shown)
    return line if size <= limit else line[: limit - 1] + ELLIPSIS


def _str(value):
    try:
        return str(value)
    except Exception:  # a hostile __str__ never reaches here (data only)
        return f"<{type(value).__name__}>"


def _visible(char):
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:  # a lone surrogate: not encodable at all
        return f"\\u{code:04x}"
    if char in "\t\n\r":
        return " "
    category = unicodedata.category(char)
    if category in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn"):
        # control (escape sequences), format (bidirectional overrides, zero
        # widths), line and paragraph separators, private use, unassigned
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return char


def file_name(name, limit=200):
    """A file name safe to create from ``name`` (a str, possibly with
    surrogate escapes): printable UTF-8 and at most ``limit`` bytes (Linux
    allows 255), with a short hash of the original when it had to change, so
    that two names never end up as one file."""
    import hashlib

    shown = clean(name, limit=10 * limit).replace("/", "_")
    if shown in ("", ".", ".."):
        shown = "_" + shown
    changed = shown != name
    if len(shown.encode()) > limit:
        shown = shown.encode()[: limit - 12].decode(errors="ignore")
        changed = True
    if changed:
        digest = hashlib.sha256(
            name.encode("utf-8", "surrogatepass")
        ).hexdigest()
        shown = f"{shown}~{digest[:10]}"
    return shown
