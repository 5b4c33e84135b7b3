"""The bash parser: tree-sitter with tree-sitter-bash's grammar, built once per process."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from tree_sitter import Parser

_PARSER: list[Parser] = []


def parser() -> Parser:
    """The bash parser, built once. ``tree_sitter_bash``'s package imports importlib.resources
    (for its highlight queries, which the gate never reads), so its compiled grammar is loaded
    directly when it can be found, and through the package otherwise."""
    if not _PARSER:
        from tree_sitter import Language, Parser

        _PARSER.append(Parser(Language(_bash_language())))
    return _PARSER[0]


def _bash_language() -> object:
    try:
        return _bash_binding()
    except Exception:  # an unusual installation: the package's own import finds it
        import tree_sitter_bash

        return tree_sitter_bash.language()


def _bash_binding() -> object:
    """The compiled grammar's ``language()``, loaded from ``tree_sitter_bash/_binding*.so``
    where the import system would find the package."""
    import importlib.machinery
    import os
    import sys

    for folder in sys.path:
        package = os.path.join(folder or ".", "tree_sitter_bash")
        if not os.path.isdir(package):
            continue
        names = sorted(n for n in os.listdir(package)
                       if n.startswith("_binding.") and n.endswith(".so"))
        binary = os.path.join(package, names[0])
        loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", binary)
        spec = importlib.machinery.ModuleSpec("tree_sitter_bash._binding", loader,
                                              origin=binary)
        module = loader.create_module(spec)
        loader.exec_module(module)
        language: object = module.language()
        return language
    raise ImportError("tree_sitter_bash is not installed")
