"""Named limits (SPEC §1.5, §9). Past one, a submitted entry is ``unknown`` and an approved one
makes the plan invalid: never a crash, never a hang."""

from __future__ import annotations

from typing import Final

#: Characters in one entry. Real grants are a few dozen characters; a long one is suspicious.
MAX_ENTRY_LENGTH: Final = 8_192

#: Entries in one allowed-tools value (after splitting). A longer value is rejected whole.
MAX_ENTRIES_PER_VALUE: Final = 512

#: Unescaped wildcards in one pattern.
MAX_WILDCARDS_PER_PATTERN: Final = 256

#: Work for one decision, in characters scanned by the matchers (subject plus pattern length per
#: membership test). The matchers are polynomial; this caps even the polynomial.
MAX_WORK_PER_DECISION: Final = 20_000_000
