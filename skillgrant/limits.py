"""Named limits (semantics §1.5, §9). Past one, a submitted entry is ``unknown`` and an approved one
makes the plan invalid; a file or text past one is refused with a SkillFileError or PlanError
naming the limit. Never a crash, never a hang.

``docs/threat-model.md`` says which hostile inputs each limit answers.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
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

#: Work for all the decisions of one ``constrain()`` call (one allowed-tools value), in the same
#: unit. Without it a value of MAX_ENTRIES_PER_VALUE hostile entries could take that many times
#: the per-decision budget; past it, the remaining entries are ``unknown``.
MAX_WORK_PER_VALUE: Final = 4 * MAX_WORK_PER_DECISION

#: Bytes in a SKILL.md or plan file read from disk. Real ones are a few kilobytes; a larger file
#: is refused before it is read whole, so a hostile file cannot exhaust memory. A device such as
#: ``/dev/zero``, a FIFO or a socket is not read at all: only regular files are
#: (skillfile/bounded.py).
MAX_FILE_BYTES: Final = 1_000_000

#: Bytes in a SKILL.md or command file: the most any runtime reads (issue 27). Claude Code
#: 2.1.332 reads a plugin's skill or command file and a ``.claude/commands`` file of up to
#: 1,048,576 bytes and a ``.claude/skills`` SKILL.md of up to 1,000,000 (a larger one is
#: skipped, unloaded); Copilot CLI 1.0.102 reads a skill file of up to 1,048,576 (EFBIG past
#: it). A larger file grants nothing as it is, and is refused rather than passed: cut down, it
#: would grant unchecked. Read as MAX_FILE_BYTES is (skillfile/bounded.py).
MAX_SKILL_BYTES: Final = 1_048_576

#: Characters of YAML between a SKILL.md's fences, for texts handed over in memory
#: (``apply_to_text``). A file within MAX_SKILL_BYTES is always within this.
MAX_FRONTMATTER_CHARS: Final = MAX_SKILL_BYTES

#: Characters in a plan text handed over in memory (``Plan.from_text``). A file within
#: MAX_FILE_BYTES is always within this.
MAX_PLAN_CHARS: Final = MAX_FILE_BYTES

#: YAML aliases (``*name``) accepted in SKILL.md frontmatter or a plan: none. They are refused
#: before anything is composed, so alias chains (the "billion laughs" expansion bomb) never
#: expand. Not tunable: a node reached through an alias has no text span of its own to rewrite.
MAX_YAML_ALIASES: Final = 0

#: Nesting depth of collections in SKILL.md frontmatter or a plan (YAML or JSON). Real
#: frontmatter nests two or three levels; the limit keeps recursive loaders off their stack limit.
MAX_NESTING_DEPTH: Final = 64

#: Characters in one shell command the call gate analyses (``check_call``). Longer commands are
#: ``unknown``: the gate denies them.
MAX_SHELL_COMMAND_CHARS: Final = 65_536

#: Syntax nodes in one analysed shell command. A real command has a few dozen.
MAX_SHELL_NODES: Final = 20_000

#: Bytes of one hook payload read from standard input. Past it the call is denied unread.
MAX_HOOK_PAYLOAD_BYTES: Final = 4_000_000

#: Nesting depth of a hook payload's JSON. Past it the call is denied.
MAX_PAYLOAD_DEPTH: Final = 64

#: Bytes of one request body ``skillgrant serve`` reads (``--max-body-bytes`` changes it). Past
#: it the request is refused unread; a hook request is denied.
MAX_REQUEST_BODY_BYTES: Final = 1_000_000

#: Bytes of one request's line and headers ``skillgrant serve`` reads. Past it the connection
#: is closed unanswered: a runtime's request has a few hundred.
MAX_REQUEST_HEADER_BYTES: Final = 65_536
