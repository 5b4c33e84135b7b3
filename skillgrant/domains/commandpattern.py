"""The language of a command pattern (semantics §4.1): how a specifier of ``Bash``, ``Monitor``,
``PowerShell``, ``Skill`` or a declared shell alias is read (``compile_pattern``), how its
content compares (``case_fold``), and which patterns are decided by identity only
(``identity_reason``). domains/command.py decides with it.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from ..grants import JS_WHITESPACE
from ..lazy import compile_on_use
from ..records import NamedTuple
from .base import EVERY_TEXT, RESERVED, Fold, Glob, parse_star_glob, unescape
from .loose import BACKSLASH_REASON, has_backslash

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

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

OPERATOR = compile_on_use(r"&&|\|\||\|&|[;|&\n\r`]|\$\(|<\(|>\(")
SPLIT = compile_on_use(r"&&|\|\||\|&|[;|&\n\r]")
UNSPLITTABLE = compile_on_use(r"['\"\\()$`]")
#: A word of a plain command: ASCII letters, digits and ``_ . , : / = + -`` (no quoting,
#: escape, expansion, glob, brace, tilde, comment, redirection or operator).
_PLAIN_WORD = compile_on_use(r"[A-Za-z0-9_.,:/=+-]+")
#: A plain command's first word: a name, or a path (it may start with a placeholder's symbol)
#: whose last part is a name; the runtime looks a path up by its last part.
_PLAIN_PROGRAM = compile_on_use(
    r"(?:[\uFDD0-\uFDD3]?[A-Za-z0-9_.+/-]*/)?([A-Za-z0-9_][A-Za-z0-9_.+-]*)")
#: The shell's own words (GNU bash 5.2's builtins and keywords, zsh's precommand modifiers):
#: never a plain command's program nor one of its words (the runtime's text checks look for
#: `eval`, `trap`, `source`, `.`, `printf -v`, `read`, `declare` … anywhere in a command).
SHELL_WORDS: Final = frozenset("""
    ! . : [ [[ ]] alias bg bind break builtin caller case cd command compgen complete compopt
    continue coproc declare dirs disown do done echo elif else enable esac eval exec exit export
    false fc fg fi for function getopts hash help history if in jobs kill let local logout
    mapfile popd printf pushd pwd read readarray readonly return select set shift shopt source
    suspend test then time times trap true type typeset ulimit umask unalias unset until wait
    while { } noglob nocorrect chdir
""".split())  # noqa: SIM905


#: Words of the shell that run, or change how the shell runs, other commands (or define what
#: later ones mean): Claude Code 2.1.332's analysis of a rule's command refuses them on its own
#: (conformance: `Bash(exec:*)`'s witness `exec` was denied under the entry alone), so a witness
#: starting with one is not certain, and a rule's verdict with such a witness is ``unknown``
#: (``command.decide``); the compiled fast path leaves such rules to it (``whole_shape``).
SHELL_RUNNERS: Final = frozenset({
    "exec", "eval", "source", ".", "builtin", "command", "enable", "trap", "coproc", "time",
    "nocorrect", "noglob", "typeset", "declare", "local", "readonly", "export", "alias",
    "unalias", "hash", "set", "shopt", "unset", "read", "mapfile", "readarray", "let", "fc",
    "bind", "complete", "compgen", "disown", "kill", "wait", "ulimit", "umask", "exit", "return",
    "shift", "getopts", "break", "continue"})


def plain_command(literal: str, *, by_name: bool = True) -> bool:
    """Whether an exact rule's command is one Claude Code's analysis of a glob rule's command
    treats as any plain command: its words are plain (``_PLAIN_WORD``), single spaces apart,
    none a word of the shell (``SHELL_WORDS``), and its program is named nowhere in the
    runtime's Bash analysis (``plainnames.ANALYZED``, read from the pinned binary). Only then
    is the exact rule no wider than a glob rule matching the same string: the runtime approves
    an exact rule whose string is the command before that analysis runs, so any other one may
    be approved whole, skipping the checks the glob's command gets (issue 28, review
    F28-2/F28-2b). A pipe or ``&`` may join plain parts (each part is checked on its own);
    ``&&``, ``||``, ``;`` and line breaks may not. ``by_name=False`` checks the shape alone
    (a prefix rule's: ``whole_shape``)."""
    for part in re.split(r" ?(?<![|&])[|&](?![|&]) ?", literal):
        words = part.split(" ")
        first = _PLAIN_PROGRAM.fullmatch(words[0])
        if first is None or not all(_PLAIN_WORD.fullmatch(w) for w in words[1:]):
            return False
        if not by_name:
            continue
        # The name and each stem before a digit or a `-` (`python3.11-dbg`, `git-lfs`):
        # the runtime may compare a name loosely (a version stripped, a prefix matched).
        name = first.group(1).lower()
        stems = {name[:i] for i, c in enumerate(name) if i and c in "-0123456789"}
        bare = name.removesuffix(".exe")
        from .plainnames import ANALYZED  # (2,553 names: loaded when an exact rule is read)

        if ({name, bare, bare.rstrip("0123456789.")} | stems) & (ANALYZED | SHELL_WORDS):
            return False
        if SHELL_WORDS.intersection(words):
            return False
    return True


def whole_shape(content: str) -> bool:
    """Whether a plain content (``PLAIN_CONTENT``) is an exact or prefix rule the runtime may
    approve whole (``CommandPattern.whole``), or one whose program is a word of the shell
    (whose witness ``command.decide`` weighs): the general path decides either."""
    if content.split(" ", 1)[0].removesuffix(":*") in SHELL_RUNNERS:
        return True
    if content.endswith(":*"):
        return not plain_command(content[:-2], by_name=False)
    return "*" not in content and not plain_command(content)


WHOLE_REASON: Final = (
    "the runtime approves an exact rule whose string is the command as one whole string, "
    "before the analysis a glob rule's command gets, and this command is not plain to that "
    "analysis (a program it checks by name, a shell word, quoting, expansion, a redirection, "
    "an assignment, '&&', ';' …), so only an identical rule or a tool-wide grant covers it")


#: A plain content, as a regular expression: printable ASCII words (no backslash, parenthesis,
#: brace, ``$``, backquote, ``&``, ``;`` or ``|``: no escape, placeholder or control operator)
#: separated by single spaces. Its patterns are read as written (``read_literal`` changes
#: nothing) and decided by their language; ``command.decide_plain`` decides them. Its runs are
#: possessive: a word ends at a space, and the content at a character outside the class.
PLAIN_CONTENT: Final = r"[!-#%'*-:<-\[\]-_a-z~]++(?: [!-#%'*-:<-\[\]-_a-z~]++)*+"


class Kind(Enum):
    """How a compiled specifier matches: any command, a literal prefix, globs, or exactly."""

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
        """An EXACT/PREFIX literal the runtime may approve as one whole string: an exact rule
        that is not a plain command (``plain_command``), or a prefix rule whose prefix is not
        of a plain command's shape. A prefix rule is never its command's own string (the
        runtime's whole approval needs the rule to be the command), so the program it names
        does not matter: measured, `Bash(eval:*)`, `Bash(find:*)`, `Bash(exec:*)`,
        `Bash(typeset:*)` allow what the same glob allows."""
        if self.kind is Kind.EXACT:
            return not plain_command(self.literal)
        return self.kind is Kind.PREFIX and not plain_command(self.literal, by_name=False)


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


