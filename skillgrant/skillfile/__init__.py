"""The SKILL.md stage (semantics §6): read a file into spans, decide its ``allowed-tools``, splice
the new value in and write it back, changing nothing else.

The pipeline, one module a step::

    bounded    bytes from a path, never more than MAX_FILE_BYTES, regular files only
    yamlspan   YAML composed into nodes with positions; one string rendered as a scalar
    runtime    the frontmatter as Claude Code reads it (a different reading is refused)
    spans      text → SkillDoc: the frontmatter, the value's span, its form
    splice     a new value in the file's own form, spliced into its span
    builder    apply_to_text / apply_to_file: the public entry points

Names load on first use, so reading a plan's SKILL.md does not load the builder.
"""

from __future__ import annotations

from ..lazy import exports

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from .builder import ApplyResult as ApplyResult
    from .builder import apply_to_file as apply_to_file
    from .builder import apply_to_text as apply_to_text
    from .builder import decode_skill as decode_skill
    from .builder import read_limited as read_limited
    from .builder import splice_allowed_tools as splice_allowed_tools
    from .builder import write_atomic as write_atomic
    from .spans import read_skill as read_skill

_HOME = {"read_skill": "spans", **dict.fromkeys(
    ("ApplyResult", "apply_to_file", "apply_to_text", "decode_skill", "read_limited",
     "splice_allowed_tools", "write_atomic"), "builder")}
__all__ = sorted(_HOME)
__getattr__ = exports(__name__, _HOME)
