"""What a make's reading knows of its variables' values (issue 29; split from ``makereads``
in session 58): each value assigned (``definitions``), which names the makefiles assign
plainly on every path through their conditionals (``sure``: a name assigned in one branch
only holds the environment's value, make's or none: review s58-mreview B1), which otherwise
too (``mixed``: ``+=``, ``?=``, ``!=``, ``undefine``), a target's own (``specific``), the
plan's command line's (``given``) and a sub-make's (``overridden``): ``trusted``, those the
expansion reads exactly (``makeexpand``)."""

from __future__ import annotations

import os
import re

from .makelines import FLAGS, environment_first

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


class Values:
    """The variables' values of one make's reading (see the module's text)."""

    def __init__(self, overridden: frozenset[str], given: dict[str, str]) -> None:
        self.overridden = overridden  # (a sub-make's command line's: any makefile's value)
        self.specific: set[str] = set()  # (a target's or a pattern's own values)
        self.given = given  # (the plan's make's command line's values: `command_line`)
        self.definitions: dict[str, list[str]] = {n: [v] for n, v in given.items()}
        self.assigned: set[str] = set()  # (by the makefiles themselves: `makebounds`)
        self.mixed: set[str] = set()  # (assigned otherwise too: no exact value, `_value`)
        self.sure: set[str] = set()  # (assigned on every path through the conditionals)
        self.frames: list[tuple[list[set[str]], list[bool]]] = []  # (each open conditional's
        # branches' assigned names; whether it has an `else`)
        self.computed = False  # (an `$(eval`, a `$(X) :=`: any variable)

    def _conditional(self, words: list[str]) -> None:
        """Reads a conditional's line ``words``: where a name is assigned on every path."""
        if words[0] == "else" and self.frames:
            self.frames[-1][0].append(set())
            self.frames[-1][1][0] = self.frames[-1][1][0] or not words[1:]
        elif words[0] == "endif" and self.frames:
            branches, (closed,) = self.frames.pop()
            self._assigned(set.intersection(*branches) if closed else set())
        elif words[0] not in ("else", "endif"):
            self.frames.append(([set()], [False]))

    def _assigned(self, names: set[str]) -> None:
        """``names`` assigned where the line read is (every path there)."""
        (self.frames[-1][0][-1] if self.frames else self.sure).update(names)

    def _value(self, name: str, plain: bool) -> None:
        """Before a value of ``name`` is kept: the name one of no exact value where the value
        is not ``plain`` (``+=``, ``?=``, ``!=``, ``undefine``); else assigned here (a name
        not assigned on every path holds the environment's value, make's, or none: of no
        exact value, ``trusted``; review s58-mreview B1)."""
        if not plain:
            self.mixed.add(name)
        else:
            self._assigned({name})

    def trusted(self) -> set[str]:
        """The variables whose values are the makefiles' assignments, as read: none where an
        ``$(eval`` or an assignment to a computed name may set any (review s55-greview B5);
        not a target's or a pattern's own (``t: X := v``) nor a sub-make's command line's
        (review s56-greview B: each gives a recipe another value)."""
        return set() if self.computed or "*" in self.overridden or self.environment_first() else \
            ((self.assigned & self.sure) | set(self.given)) - self.mixed - self.specific - \
            self.overridden  # (an `override X != …` over the plan's `X=v`: mixed)

    def environment_first(self) -> bool:  # (`MAKEFLAGS += -e`: every sub-make's too, M2)
        return environment_first([v for n in FLAGS for v in self.definitions.get(n, [])])

    def cdpath(self) -> bool:  # (a recipe's `cd` may search the makefile's, the session's)
        return "CDPATH" in self.definitions or bool(os.environ.get("CDPATH"))

    def known_now(self, value: str) -> bool:
        """Whether each variable ``value`` refers to is assigned on every path to the line
        read, or make's own (a ``:=`` expands it there: a later assignment is not its)."""
        here = self.sure.union(self.given, *(f[0][-1] for f in self.frames))
        return all(n in here or n in ("MAKE", "CURDIR") or (len(n) <= 2 and n[:1] in "@<^+?*%|")
                   for m in _REFERENCE.finditer(value.replace("$$", ""))
                   for n in [m.group(1) or m.group(2)])


#: A reference to a variable (``$(X)``, ``${X}``, ``$X``), a function's argument's too.
_REFERENCE: Final = re.compile(r"\$(?:[({]([^\s:(){}$=,]+)[)}]|([^({$]))")
