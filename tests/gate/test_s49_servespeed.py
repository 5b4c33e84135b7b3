"""Session 49 (s49-servespeed): what a served decision keeps between calls gives the answers
made anew each time."""

from __future__ import annotations

import json

from skillgrant.gate import dialects
from skillgrant.gate.dialects import render


def test_a_rendered_answer_is_the_one_made_anew_and_a_long_reason_is_not_kept() -> None:
    for dialect in ("claude-code", "copilot-cli", "gemini-cli"):
        for reason in ("skillgrant: outside", "lone \ud800 surrogate", "x" * 3000):
            dialects._RENDERED.clear()
            first = render(dialect, "deny", reason)
            assert render(dialect, "deny", reason) == first
            assert first == dialects._render(dialect, "deny", dialects.printable(reason))
            assert json.loads(first)  # one JSON object, ASCII
            assert first.isascii() and first.endswith("\n")
            assert (len(dialects._RENDERED) == 0) == (len(reason) > 2048)


def test_the_kept_answers_are_bounded() -> None:
    dialects._RENDERED.clear()
    for i in range(600):
        render("claude-code", "deny", f"reason {i}")
    assert len(dialects._RENDERED) <= 256
