"""The table of a review's holes left open, shared by the reviews of the call gate
(tests/gate/) and of the reader (tests/, tests/conformance/): a test module's ``OPEN``, read by
tests/conftest.py, which marks each listed case a strict xfail (a fix shows as an unexpected
pass; the fixer then removes the row)."""

from __future__ import annotations


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
