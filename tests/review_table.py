"""The table of a review's holes left open, shared by the reviews of the call gate
(tests/gate/) and of the reader (tests/, tests/conformance/): a test module's ``OPEN``, read by
tests/conftest.py, which marks each listed case a strict xfail (a fix shows as an unexpected
pass; the fixer then removes the row)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


class LeftOpen(dict[str, str]):
    """A review's holes left open, by test name or ``name[case]``: tests/conftest.py marks
    each case a strict xfail (a fix shows as an unexpected pass) where a test module's ``OPEN``
    is one."""

    def add(self, test: str, reason: str, *cases: str) -> None:
        """Leave ``test`` open (or only its ``cases``), saying why."""
        for case in cases or ("",):
            self[f"{test}[{case}]" if case else test] = reason

    def reason(self, name: str) -> str | None:
        """Why the test item ``name`` is left open, or None."""
        return self.get(name) or self.get(name.split("[", 1)[0])

    def add_rows(self, test: str, rows: Mapping[str, tuple[str, ...]],
                 why: Mapping[str, str], closed: Mapping[str, str]) -> None:
        """Leave open each row of ``rows`` (a class: its spellings) holding a case not in
        ``closed``, with its first open case's reason."""
        for row, cases in rows.items():
            still = [c for c in cases if c not in closed]
            if still:
                self.add(test, why[still[0]], row)

    def rows(self, test: str, table: Mapping[str, object]) -> list[str]:
        """The cases of ``table`` left open for ``test`` (an item each: its payload proved at
        each run) and ``held`` standing for the others (one item asking the hook only for each
        of them: CI's budget of items)."""
        opened = [c for c in table if f"{test}[{c}]" in self]
        return opened + (["held"] if len(opened) < len(table) else [])

    def each(self, test: str, table: Mapping[str, object], case: str,
             folder: Path) -> list[tuple[str, bool, Path]]:
        """The cases the item ``case`` of ``test`` runs (see ``rows``), each with whether its
        payload is proved and its own folder (below ``folder``, the item's)."""
        if case != "held":
            return [(case, True, folder)]
        held = [c for c in table if f"{test}[{c}]" not in self]
        for c in held:
            (folder / c).mkdir()
        return [(c, False, folder / c) for c in held]
