"""unittest.mock's ``patch`` read by the allow-list (issue 29, session 62: s61-greview's K rows
``mock-patch-of-a-project-name``, ``mock-patch-object``): a patch only sets an attribute, so
it is data where what it sets is known: ``patch('pkg.mod.X', …)`` with a literal target each
of whose parts is read through the project's modules (``pathimports``: the object set is a
project module or a value of read code, never a listed module: ``patch('pkg.sys.path', …)``,
``patch('sys.path', …)`` refused), ``patch.object(obj, 'X', …)`` as ``setattr``'s object form.
Any other form (``patch.dict``, ``patch.multiple``, a computed target, a keyword given as
``**``) is not read (``mock.patch`` stays unlisted)."""

from __future__ import annotations

from .pathimports import Imports, Kind
from .pathlists import Refused, value_attribute

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import ast


class Patches:
    """The reading of ``patch`` calls (``pathreader.Reader``'s part)."""

    path: str
    modules: dict[str, str]
    imports: Imports
    patchers: set[str]  # (local names of `unittest.mock.patch`)

    def _visit(self, node: ast.AST, decorating: bool) -> None:
        raise NotImplementedError

    def _target(self, node: ast.expr) -> bool:
        raise NotImplementedError

    def _patched(self, node: ast.Call) -> bool:
        """Whether ``node`` is a call of ``patch`` or ``patch.object`` (its arguments read:
        see the module's text)."""
        import ast

        form = self._form(node.func)
        if form is None:
            return False
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            raise Refused
        given = [*node.args, *(k.value for k in node.keywords if k.arg == "target")]
        named = given[1] if form == "object" and len(given) > 1 else given[0] if given else None
        if not (isinstance(named, ast.Constant) and isinstance(named.value, str)):
            raise Refused
        if form == "object":
            value_attribute(named.value, False, True)
            if not self._target(given[0]):
                self._visit(given[0], False)
        else:
            self._dotted(named.value)
        for other in [*node.args, *(k.value for k in node.keywords)]:
            if other is not named and not (form == "object" and other is given[0]):
                self._visit(other, False)
        return True

    def _form(self, func: ast.expr) -> str | None:
        """``patch`` or ``object`` where ``func`` is ``mock.patch``, ``patch``, or their
        ``.object``; None for another."""
        import ast

        form = "patch"
        if isinstance(func, ast.Attribute) and func.attr == "object":
            form, func = "object", func.value
        if isinstance(func, ast.Name):
            return form if func.id in self.patchers else None
        if isinstance(func, ast.Attribute) and func.attr == "patch" and isinstance(
                func.value, ast.Name):
            return form if self.modules.get(func.value.id) == "unittest.mock" else None
        return None

    def _dotted(self, target: str) -> None:
        """Reads ``patch``'s literal target: each part through the project's modules, the
        object set never a listed module."""
        parts = target.split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts):
            raise Refused
        kind = self.imports.module(self.path, 0, parts[0])
        for at, part in enumerate(parts[1:], 1):
            if kind.modules or kind.names:
                raise Refused  # (a listed module's attribute: `pkg.sys.path`)
            value_attribute(part, False, False)
            if at < len(parts) - 1 and kind.project:
                kind = self.imports.attribute(kind.project, part) | Kind(value=kind.value)
