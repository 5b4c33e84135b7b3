"""The levels of generalization ``suggest`` offers, narrowest first (``candidates`` says what
each means). A module of its own so that the command line offers them without loading the
gate."""

from __future__ import annotations

from typing import Final, Literal

Level = Literal["exact", "command", "directory", "tool"]
LEVELS: Final[tuple[Level, ...]] = ("exact", "command", "directory", "tool")
