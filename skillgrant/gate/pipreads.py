"""Whether ``pip install``'s words name no folder it writes (review s46 COST C-pip): only
options that name none, options whose value is a file it reads, a URL or a name, and
requirements by name (from an index: no path). ``copied`` reads ``install`` as pip's
subcommand then, not coreutils' folder writer."""

from __future__ import annotations

from ..lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: ``pip install``'s options that name no folder it writes (no ``-t``, ``--prefix``, ``-e``,
#: ``--user``: those stay judged), the ones whose value follows (a file it reads, a URL, a
#: name), and a requirement by name (from an index: no path).
_PIP_FLAGS: Final = frozenset({
    "-U", "--upgrade", "-q", "-qq", "-v", "-vv", "--quiet", "--verbose", "--no-deps", "--pre",
    "--require-hashes", "--no-cache-dir", "--disable-pip-version-check", "--no-input",
    "--dry-run", "--force-reinstall", "-I", "--ignore-installed", "--no-build-isolation"})
_PIP_VALUED: Final = frozenset({"-r", "--requirement", "-c", "--constraint", "-i",
                                "--index-url", "--extra-index-url", "--only-binary",
                                "--no-binary", "--upgrade-strategy", "--progress-bar"})
_REQUIREMENT: Final = compile_on_use(r"[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9,._-]*\])?"
                                     r"(?:[<>=!~]=?=?[A-Za-z0-9.*+!_-]*,?)*")


def pip_reads(words: tuple[str, ...]) -> bool:
    """Whether ``pip install``'s ``words`` (past ``install``) are only ``_PIP_FLAGS``,
    ``_PIP_VALUED`` with their values, and requirements by name."""
    valued = False
    for word in words:
        if not valued and word not in _PIP_FLAGS and word not in _PIP_VALUED and not (
                word[:1] != "-" and _REQUIREMENT.fullmatch(word)):
            return False
        valued = not valued and word in _PIP_VALUED
    return not valued
