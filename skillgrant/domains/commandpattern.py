"""The language of a command pattern (semantics §4.1): how a specifier of ``Bash``, ``Monitor``,
``PowerShell``, ``Skill`` or a declared shell alias is read (``compile_pattern``), how its
content compares (``case_fold``), and which patterns are decided by identity only
(``identity_reason``). domains/command.py decides with it.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache
from typing import Final, NamedTuple

from ..grants import JS_WHITESPACE
from .base import EVERY_TEXT, RESERVED, Fold, Glob, parse_star_glob, unescape
from .loose import BACKSLASH_REASON, has_backslash

PLACEHOLDERS = (
    "${CLAUDE_SKILL_DIR}",
    "${CLAUDE_PROJECT_DIR}",
    "${CLAUDE_PLUGIN_ROOT}",
    "${CLAUDE_PLUGIN_DATA}",
)
# Each placeholder becomes one reserved character: a star may absorb it, a literal may not match
# inside it.
_SYMBOL = {text: chr(0xFDD0 + i) for i, text in enumerate(PLACEHOLDERS)}
_TEXT = {symbol: text for text, symbol in _SYMBOL.items()}

OPERATOR = re.compile(r"&&|\|\||\|&|[;|&\n\r`]|\$\(|<\(|>\(")
SPLIT = re.compile(r"&&|\|\||\|&|[;|&\n\r]")
UNSPLITTABLE = re.compile(r"['\"\\()$`]")
#: What makes Claude Code approve an exact (or prefix) rule's command whole, skipping the
#: checks a glob rule's approval of each part gets (measured on 2.1.332): an operator that
#: chains commands (``&&``, ``||``, ``;``, a line break), or shell expansion its static analysis
#: refuses under a glob rule (``$VAR``, ``${VAR}``, ``$'…'``, braces). A glob character
#: (``touch a?``) is still checked under an exact rule, so it is no such thing.
WHOLE = re.compile(r"&&|\|\||[;\n\r$`{}]")
#: The first words of an exact rule the runtime approves whole too (review F28-2, measured on
#: 2.1.332: `eval`, `exec`, `source`, `builtin`, `coproc`, `trap`, `setsid`, `watch`, `flock`,
#: `env -S`, `alias`, `declare`, `unset`, `shopt`, `enable`, `let`, `read`, `mapfile`, `hash`,
#: `function`, `select`, `readonly`, `typeset`, `local`, `getopts`, `complete`, `bind`,
#: `printf -v` escalate): a glob rule refuses what runs through them, or what they change in
#: the shell, and an exact rule approves the string. Every other bash builtin and keyword, and
#: every program that runs another command, is read the same way, to be safe: the list the
#: runtime applies is not known, only measured in part. The output-only builtins stay out.
WHOLE_PROGRAMS: Final = frozenset({
    ".", ":", "[[", "]]", "alias", "bg", "bind", "break", "builtin", "case", "cd", "command",
    "complete", "compopt", "continue", "coproc", "declare", "disown", "do", "done", "elif",
    "else", "enable", "esac", "eval", "exec", "exit", "export", "fc", "fg", "fi", "for",
    "function", "getopts", "hash", "history", "if", "in", "kill", "let", "local", "logout",
    "mapfile", "popd", "printf", "pushd", "read", "readarray", "readonly", "return", "select",
    "set", "shift", "shopt", "source", "suspend", "then", "time", "trap", "ulimit", "umask",
    "unalias", "unset", "until", "wait", "while", "{", "}", "!",
    "env", "sudo", "su", "doas", "runuser", "pkexec", "nohup", "setsid", "watch", "flock",
    "timeout", "nice", "ionice", "stdbuf", "xargs", "parallel", "chroot", "unshare", "nsenter",
    "strace", "ltrace", "script", "expect", "busybox", "chrt", "taskset", "numactl",
    "systemd-run", "entr", "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh",
    # Review F28-2b (measured on 2.1.332): `typeset`, `nocorrect`, and `find`, whose actions
    # (-delete, -fprint, -fls, -exec … +) an exact rule approves without the path checks.
    "typeset", "nocorrect", "find",
})
#: What in a first word may hide a builtin or a wrapper from a look-up by name (review F28-2b,
#: measured on 2.1.332): quoting (`'exec'`, `ex''ec`, `"eval"`) and an array assignment
#: (`A[0]=1`, `A+=1`). A path is looked up by its last part (`/usr/bin/ionice`).
_HIDDEN_PROGRAM = re.compile(r"['\"\\\[=]")


def _whole_program(word: str) -> bool:
    """Whether an exact rule whose first word is ``word`` is approved whole by the runtime."""
    word = word.removesuffix(":*")
    return (word.rsplit("/", 1)[-1] in WHOLE_PROGRAMS
            or _HIDDEN_PROGRAM.search(word) is not None)

#: What else makes an exact rule approved whole: a redirection, an assignment before the
#: command (`FOO=1 cmd`).
_WHOLE_SHAPE = re.compile(r"[<>]|^\s*[A-Za-z_][A-Za-z0-9_]*=")
def whole_shape(content: str) -> bool:
    """Whether a plain content (no ``$``, brace, operator: ``PLAIN_CONTENT``) is an exact or
    prefix rule the runtime approves whole (``CommandPattern.whole``)."""
    if "*" in content and not content.endswith(":*"):
        return False
    words = content.split(None, 1)
    return _WHOLE_SHAPE.search(content) is not None or (
        bool(words) and _whole_program(words[0]))


WHOLE_REASON: Final = (
    "the runtime approves an exact rule holding '&&', '||', ';', a line break, '$', a brace, "
    "a backquote or a redirection, or one run through a shell builtin or a wrapper (eval, "
    "exec, env, sudo, ...), as one whole string, skipping the checks it applies to "
    "each part under a glob rule, so only an identical rule or a tool-wide grant covers it")


#: A plain content, as a regular expression: printable ASCII words (no backslash, parenthesis,
#: brace, ``$``, backquote, ``&``, ``;`` or ``|``: no escape, placeholder or control operator)
#: separated by single spaces. Its patterns are read as written (``read_literal`` changes
#: nothing) and decided by their language; ``command.decide_plain`` decides them. Its runs are
#: possessive: a word ends at a space, and the content at a character outside the class.
PLAIN_CONTENT: Final = r"[!-#%'*-:<-\[\]-_a-z~]++(?: [!-#%'*-:<-\[\]-_a-z~]++)*+"


class Kind(Enum):
    ANY = "any"
    PREFIX = "prefix"
    GLOB = "glob"
    EXACT = "exact"


class CommandPattern(NamedTuple):
    """A compiled command-domain specifier: its kind, its literal (EXACT/PREFIX) and its globs."""

    kind: Kind
    literal: str
    globs: tuple[Glob, ...]

    @property
    def compound(self) -> bool:
        """An EXACT/PREFIX literal holding a control operator: approved whole by the runtime."""
        return self.kind in (Kind.EXACT, Kind.PREFIX) and OPERATOR.search(self.literal) is not None

    @property
    def whole(self) -> bool:
        """An EXACT/PREFIX literal the runtime approves as one whole string (``WHOLE``)."""
        if self.kind not in (Kind.EXACT, Kind.PREFIX):
            return False
        words = self.literal.split()
        return (WHOLE.search(self.literal) is not None or _WHOLE_SHAPE.search(self.literal)
                is not None or (bool(words) and _whole_program(words[0])))


#: The top: every command (a tool-wide grant: ``Bash``, ``Bash()``, ``Bash(*)``).
ANY_COMMAND: Final = CommandPattern(Kind.ANY, "", (EVERY_TEXT,))
#: A glob rule of stars only (``Bash(**)``): every command by its language, yet a glob rule.
EVERY_COMMAND_GLOB: Final = CommandPattern(Kind.GLOB, "", (EVERY_TEXT,))


def read_literal(text: str) -> str:
    """Pattern text as the matcher compares it: escapes resolved (``base.unescape``) and each
    placeholder encoded as its opaque symbol."""
    text = unescape(text)
    if "${" not in text:
        return text
    for placeholder, symbol in _SYMBOL.items():
        text = text.replace(placeholder, symbol)
    return text


def render(text: str) -> str:
    """The printable form of a command built from pattern pieces (placeholders written back)."""
    for symbol, placeholder in _TEXT.items():
        text = text.replace(symbol, placeholder)
    return text


@lru_cache(maxsize=4096)
def compile_pattern(content: str | None) -> CommandPattern:
    """Classify and compile a specifier (semantics §4.1); None (the bare grant) is ``ANY_COMMAND``.
    Content with reserved characters is refused by the caller before this runs."""
    if content is None:
        return ANY_COMMAND
    if content.endswith(":*"):
        prefix = read_literal(content[:-2])  # a star inside P is a literal star
        return CommandPattern(Kind.PREFIX, prefix, (Glob((prefix,)), Glob((prefix + " ", ""))))
    glob = parse_star_glob(content.strip(JS_WHITESPACE), read_literal)
    if glob.stars == 0:
        literal = read_literal(content)
        return CommandPattern(Kind.EXACT, literal, (Glob((literal,)),))
    if glob.is_everything:
        # `Bash(**)`, `Bash( * )`: a glob rule whose stars match every command. The runtime
        # reads only `Bash`, `Bash()` and `Bash(*)` as tool-wide; this one is still a glob rule
        # (its static checks refuse subshells, `${VAR}`, paths outside the project, and it
        # approves no exact compound whole), so it is no tool-wide grant.
        return EVERY_COMMAND_GLOB
    if glob.stars == 1 and glob.segments[1] == "" and glob.segments[0].endswith(" "):
        bare = glob.segments[0][:-1]
        return CommandPattern(Kind.GLOB, "", (Glob((bare,)), glob))
    return CommandPattern(Kind.GLOB, "", (glob,))


def ascii_fold(text: str) -> str:
    """ASCII-only lower-casing: never Unicode folding, where ``ß``→``ss`` would widen."""
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def has_reserved(content: str | None) -> bool:
    return content is not None and not RESERVED.isdisjoint(content)


def case_fold(key: str) -> Fold | None:
    """How a tool's content compares: ``PowerShell`` ASCII-case-insensitively (semantics §4.1),
    every other command tool exactly."""
    return ascii_fold if key == "PowerShell" else None


#: What the runtime's wildcard matcher collapses to one space, in the rule and in the command
#: (seen in 2.1.332: ``Bash(touch  *)`` with two spaces allows ``touch zz``).
SPACE_RUN: Final = re.compile(r"[ \t]{2,}|\t")
SPACING_REASON: Final = (
    "its content holds a run of spaces or a tab, which the runtime's matcher collapses to one "
    "space in the rule and in the command, so such a pattern is covered only by an identical "
    "approved entry or a tool-wide grant")


def identity_reason(content: str | None) -> str | None:
    """Why a command pattern is decided by identity only, or None when it is decided by its
    language: a backslash (read twice by the runtime) or a run of spaces (collapsed by it)."""
    if has_backslash(content):
        return BACKSLASH_REASON
    if content is not None and SPACE_RUN.search(content):
        return SPACING_REASON
    return None


