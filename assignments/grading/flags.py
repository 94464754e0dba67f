"""The ``flags`` column: does a notebook reach for the grading machinery?

Flags are hints for the instructor, never a score: the checker does not
depend on them (see grading.checker). They come from two places:

* a static reading of the notebook's code (this module), which no code in
  the notebook can alter: patching libraries, otter's internals, custom
  comparison methods, introspection, processes, files, the network;
* what the sandbox saw at run time (``grading.harness``): library functions
  replaced, processes started, files outside its folder looked at. The
  student's code could silence those reports; it cannot silence this scan.
"""

import ast
import re

LIBRARIES = {"numpy", "scipy", "mllib", "sklearn", "builtins", "math", "otter"}
COMPARISONS = {
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__",
    "__array__", "__array_ufunc__", "__array_function__", "__float__",
    "__index__", "__instancecheck__",
}  # fmt: skip
GRADER_METHODS = {"check", "check_all", "export"}
INTROSPECTION = {
    "__globals__", "__code__", "__closure__", "f_back", "f_globals",
    "f_locals", "gi_frame", "tb_frame",
}  # fmt: skip
RULES = [  # (flag, modules whose import or use raises it)
    ("introspection", {"gc", "inspect", "ctypes", "traceback", "dis"}),
    (
        "processes",
        {"subprocess", "multiprocessing", "pty", "signal", "threading"},
    ),
    ("files", {"shutil", "glob", "tempfile", "pathlib"}),
    ("network", {"socket", "urllib", "requests", "http", "ftplib", "smtplib"}),
]
CALLS = {  # suspicious attribute calls on os and sys
    "os": {
        "system": "processes", "fork": "processes", "popen": "processes",
        "kill": "processes", "killpg": "processes", "setsid": "processes",
        "remove": "files", "unlink": "files", "rename": "files",
        "replace": "files", "rmdir": "files", "listdir": "files",
        "scandir": "files", "walk": "files", "chmod": "files",
        "spawnv": "processes", "execv": "processes",
        "posix_spawn": "processes",
    },
    "sys": {
        "_getframe": "introspection", "settrace": "introspection",
        "setprofile": "introspection", "addaudithook": "introspection",
    },
}  # fmt: skip
TEXT_RULES = [  # for cells that do not parse
    ("otter internals", r"\botter\.(?!Notebook\b)\w+|from\s+otter"),
    ("patches libraries", r"\b(np|numpy|scipy|mllib|builtins)\.\w+\s*=[^=]"),
    ("files", r"/proc\b|\bopen\s*\("),
    ("introspection", r"__globals__|__code__|\bf_back\b|\bf_globals\b"),
    ("processes", r"\bsubprocess\b|\bos\.(fork|system|kill)"),
]


def scan(sources, given=()):
    """Flags raised by a notebook's code cells (a list of source strings).

    Cells identical to one of the ``given`` cells (those handed out with the
    assignment, such as the Colab set-up cell) are read for their imports
    only."""
    found = {}
    aliases = {}  # local name -> library it stands for
    given = {source.strip() for source in given}
    for source in sources:
        if source.strip() in given:
            try:
                _imports(ast.parse(source), aliases, {})
            except SyntaxError:
                pass
            continue
        try:
            tree = ast.parse(_without_magics(source))
        except SyntaxError:
            for flag, pattern in TEXT_RULES:
                if re.search(pattern, source):
                    found.setdefault(flag, set())
            continue
        _imports(tree, aliases, found)
        for node in ast.walk(tree):
            _inspect(node, aliases, found)
    return [
        f"{flag} ({', '.join(sorted(details)[:4])})" if details else flag
        for flag, details in sorted(found.items())
    ]


def _without_magics(source):
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line
        for line in source.splitlines()
    )


def _add(found, flag, detail=None):
    details = found.setdefault(flag, set())
    if detail:
        details.add(detail)


def _imports(tree, aliases, found):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                aliases[alias.asname or top] = top
                _module_flag(alias.name, found)
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            for alias in node.names:
                aliases[alias.asname or alias.name] = top
                if top == "otter" and alias.name != "Notebook":
                    _add(
                        found, "otter internals", f"{node.module}.{alias.name}"
                    )
            _module_flag(node.module, found)


def _module_flag(module, found):
    top = module.split(".")[0]
    if top == "otter" and module != "otter":
        _add(found, "otter internals", module)
    if top == "builtins":
        _add(found, "patches libraries", "builtins")
    for flag, modules in RULES:
        if top in modules:
            _add(found, flag, top)


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _inspect(node, aliases, found):
    if isinstance(
        node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)
    ):
        targets = getattr(node, "targets", None) or [node.target]
        for target in targets:
            root = _root(target)
            if (
                isinstance(target, ast.Attribute)
                and aliases.get(root) in LIBRARIES
            ):
                _add(found, "patches libraries", _dotted(target))
            if _dotted(getattr(target, "value", target)) == "sys.modules":
                _add(found, "sys.modules")
    elif isinstance(node, ast.Call):
        function = node.func
        if (
            isinstance(function, ast.Name)
            and function.id in ("setattr", "delattr")
            and node.args
            and aliases.get(_root(node.args[0])) in LIBRARIES
        ):
            _add(
                found,
                "patches libraries",
                f"{function.id}({_dotted(node.args[0])})",
            )
        if isinstance(function, ast.Name) and function.id == "open":
            _add(found, "files", "open")
    elif isinstance(node, ast.Attribute):
        root = _root(node)
        library = aliases.get(root)
        if library == "otter" and node.attr != "Notebook":
            _add(found, "otter internals", _dotted(node))
        if root == "grader" and node.attr not in GRADER_METHODS:
            _add(found, "otter internals", _dotted(node))
        if library in CALLS and node.attr in CALLS[library]:
            _add(found, CALLS[library][node.attr], _dotted(node))
        for flag, modules in RULES:
            if library in modules:
                _add(found, flag, library)
        if node.attr in INTROSPECTION:
            _add(found, "introspection", node.attr)
    elif isinstance(node, ast.ClassDef):
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name in COMPARISONS:
                _add(found, "custom comparison", f"{node.name}.{item.name}")
    elif isinstance(node, ast.Name) and node.id == "__builtins__":
        _add(found, "patches libraries", "__builtins__")
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        if re.search(r"(^|/)proc/", node.value):
            _add(found, "files", "/proc")
        if node.value in INTROSPECTION:  # getattr(f, "__globals__")
            _add(found, "introspection", node.value)
