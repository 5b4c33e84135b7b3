"""What a makefile make reads is remade to, read (issue 29; session 57, review s56-greview B;
split from ``makereads`` in session 58): make reads a makefile again once a rule remakes it,
so the text a copier's sources hold, ``echo``'s and ``printf``'s plain words and a plain
``sed``'s edited text are read as its lines (``makeremakes``); another program's text is
Unbounded, a doubt of every folder."""

from __future__ import annotations

import os

from .makebounds import literal
from .makerecipes import build_text
from .makeremakes import built_in_text, edited, remade_text

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable


class Remaking:
    """``makereads._Reading``'s reading of remade makefiles (its state: its rules, the names
    of the makefiles read, the rules read for them)."""

    folder: str
    read: set[str]
    remakers: set[str]
    found: list[str]
    rules: list[tuple[list[str], list[str], list[str], str]]
    definitions: dict[str, list[str]]

    def file(self, path: str) -> None:
        raise NotImplementedError

    def text(self, path: str, text: str) -> None:
        raise NotImplementedError

    def trusted(self) -> set[str]:
        raise NotImplementedError

    def attempt(self, read: Callable[..., list[str] | None], text: str | None,
                *args: object) -> list[str]:
        raise NotImplementedError

    def _remade_text(self) -> bool:
        """Reads the text a makefile read is remade to (GNU make reads it again, remade),
        once: a copier's sources (``cp $< $@``, ``cat a b > $@``) as makefiles, ``echo``'s
        and ``printf``'s plain words as its lines; Unbounded where its text is another
        program's (``sed``, ``cpp``…: review s56-greview B, a remade include's values).
        Whether a rule was read."""
        before = len(self.remakers)
        rules = literal(self.rules, self.definitions, self.trusted())
        for targets, prerequisites, recipe, where in rules:
            names = {os.path.normpath(t) for t in targets} & self.read
            if not recipe or not names or where in self.remakers:
                continue
            self.remakers.add(where)
            self.attempt(self._remake, "", sorted(names)[0], prerequisites, recipe, where)
        for name in sorted(self.read - self.remakers):
            self.remakers.add(name)
            for source in self.attempt(built_in_text, "", name, self.folder,
                                       f"{self.folder} (make's built-in rules)"):
                self.read.add(os.path.normpath(source))
                self.found.append(os.path.join(self.folder, source))
                self.file(self.found[-1])
        return len(self.remakers) > before

    def _remake(self, name: str, prerequisites: list[str], recipe: list[str], where: str) -> None:
        """Reads what the rule at ``where`` remakes the makefile ``name`` to."""
        sources, text, changed = remade_text(name, prerequisites, recipe, where)
        for source, edits in changed:  # (a plain sed's: its file's text, edited)
            self.found.append(os.path.join(self.folder, os.path.expanduser(source)))
            text += edited(build_text(self.found[-1]), edits) + "\n"
        for source in sources:  # (guarded, read: s57-greview R)
            self.read.add(os.path.normpath(source))
            self.found.append(os.path.join(self.folder, os.path.expanduser(source)))
            self.file(self.found[-1])
        if text:
            self.text(f"{where} (its text)", text)
