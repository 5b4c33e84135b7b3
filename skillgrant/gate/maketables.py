"""GNU make 4.3's own tables (``make -p -f /dev/null``), read by ``makereads``: its built-in
rules (a target pattern, its sources, and whether the target is text made of its source's),
its special targets, its default ``.SUFFIXES`` (session 54)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: GNU make 4.3's built-in rules (``make -p -f /dev/null``): a target pattern, its sources.
_BUILT_IN_RULES: Final = (
    "%:%.o", "%:%.c", "%.ln:%.c", "%.o:%.c", "%:%.cc", "%.o:%.cc", "%:%.C", "%.o:%.C", "%:%.cpp",
    "%.o:%.cpp", "%:%.p", "%.o:%.p", "%:%.f", "%.o:%.f", "%:%.F", "%.o:%.F", "%.f:%.F", "%:%.m",
    "%.o:%.m", "%:%.r", "%.o:%.r", "%.f:%.r", "%.ln:%.y", "%.c:%.y", "%.ln:%.l", "%.c:%.l",
    "%.r:%.l", "%.m:%.ym", "%:%.s", "%.o:%.s", "%:%.S", "%.o:%.S", "%.s:%.S", "%:%.mod",
    "%.o:%.mod", "%.sym:%.def", "%.dvi:%.tex", "%.info:%.texinfo", "%.dvi:%.texinfo",
    "%.info:%.texi", "%.dvi:%.texi", "%.info:%.txinfo", "%.dvi:%.txinfo", "%.c:%.w %.ch",
    "%.tex:%.w %.ch", "%.p:%.web", "%.tex:%.web", "%:%.sh", "%.out:%", "%:%,v", "%:RCS/%,v",
    "%:RCS/%", "%:s.%", "%:SCCS/s.%",
)
#: GNU make 4.3's built-in rules whose target is text made of their source's (``cat``, ``cp``,
#: a preprocessor, yacc, lex, the web tools, RCS, SCCS): a file one remakes may be remade in
#: turn (review s54-greview M11's chain); the others' targets are objects and programs.
_TEXT_RULES: Final = frozenset(("%:%.sh", "%.out:%", "%:%,v", "%:RCS/%,v", "%:RCS/%", "%:s.%",
                                "%:SCCS/s.%", "%.c:%.y", "%.c:%.l", "%.r:%.l", "%.m:%.ym",
                                "%.f:%.F", "%.f:%.r", "%.s:%.S", "%.c:%.w %.ch",
                                "%.tex:%.w %.ch", "%.p:%.web", "%.tex:%.web"))
BUILT_IN: Final = tuple((t, tuple(p.split()), r in _TEXT_RULES) for t, p, r in (
    (*r.split(":", 1), r) for r in _BUILT_IN_RULES))
#: A rule's target that is one of make's special targets (no file remade), and a suffix
#: rule's (``.el:``, ``.in.conf:``: remakes any file of a suffix from another).
SPECIAL: Final = frozenset((".PHONY", ".SUFFIXES", ".PRECIOUS", ".INTERMEDIATE",
                             ".SECONDARY", ".SECONDEXPANSION", ".DELETE_ON_ERROR", ".IGNORE",
                             ".LOW_RESOLUTION_TIME", ".SILENT", ".EXPORT_ALL_VARIABLES",
                             ".NOTPARALLEL", ".ONESHELL", ".POSIX", ".NOTINTERMEDIATE",
                             ".EXTRA_PREREQS"))
#: GNU make 4.3's default ``.SUFFIXES`` (``make -p -f /dev/null``): a target ``.a.b``/``.a``
#: is a suffix rule only when its suffixes are known (``.venv:``, ``.FORCE:`` are plain ones).
SUFFIXES: Final = frozenset((".out", ".a", ".ln", ".o", ".c", ".cc", ".C", ".cpp", ".p", ".f",
                              ".F", ".m", ".r", ".y", ".l", ".ym", ".yl", ".s", ".S", ".mod",
                              ".sym", ".def", ".h", ".info", ".dvi", ".tex", ".texinfo",
                              ".texi", ".txinfo", ".w", ".ch", ".web", ".sh", ".elc", ".el"))
#: Programs a remaking recipe may run that read no file but those their words name (or
#: standard input), run no code and take no script: the makefile they remake holds only what
#: the named files do (review s55-greview R1: ``cpp`` reads the headers its input includes,
#: ``sed``'s ``r`` a file its script names, ``m4`` its includes, a script anything).
COPIERS: Final = frozenset(("cp", "cat", "echo", "printf", "touch", "true", "false", ":",
                            "install", "mv", "ln", "tee", "head", "tail", "tr", "cut", "rm",
                            "mkdir", "chmod", "test", "["))
