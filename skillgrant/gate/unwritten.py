"""The words of a command no program of it writes, by the programs' own readings (the write
guard's question: issue 29, session 56, review s55-greview K1 and K4).

A write guard (``writeguard``) bounds a whole folder, make's: every word of a call, read as a
relative path, lies in it (``-p``, ``check``, ``stash``). So the words it asks about are only
those a program of the call may take for a path it writes. A word is left out here where every
simple command holding it reads it as no such path, by a reading the gate already has:

- an option's name (``-p``, ``--force``, a cluster of flags) of a program ``optables`` reads
  with its whole table (``mkdir``, ``rm``, ``cp``…): its operands and every option's value stay
  asked; for ``sort``, whose operands are its input, only the values of the options that write
  (``-o``, ``-T``);
- pytest's own options (``testfiles.PYTEST_FLAGS``, ``PYTEST_DATA``: ``-q``, ``-p``) and
  python's ``-m`` before it (``python3 -m pytest``);
- ruff's ``check`` (and ``format --check``/``--diff``): the subcommand word, its flags, and its
  operands, the sources it reads, when no option of the call names a file it writes
  (``--output-file``, ``--cache-dir``, ``--config``'s settings) or asks it to edit them
  (``--fix``, ``--add-noqa``). The fixes the project's own settings ask for rewrite a source
  by its own text: nothing of the call's words goes in.

Any other word stays asked (``named.held_word``, then ``readers.writer_of``), and a command the
gate cannot separate (``readers.named_commands``: a feed, an assignment, a pipe into a
program) leaves every word asked."""

from __future__ import annotations

from .optables import TABLES, Doubt, Table, read_options
from .readers import named_commands, program_words
from .testfiles import PYTEST_DATA, PYTEST_FLAGS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The programs whose operands are their input: the options (canonical names) that write.
_INPUT_OPERANDS: Final = {"sort": frozenset({"output", "temporary-directory"})}
#: ruff's subcommands that write no operand given only options of ``_RUFF_READ`` (an
#: allow-list, ruff 0.x's ``check -h``/``format -h``), and the words of ``format`` that make
#: it only report.
_RUFF_READS: Final = frozenset({"check", "format"})
_RUFF_REPORTS: Final = frozenset({"--check", "--diff"})
_RUFF_READ: Final = frozenset((
    "--show-fixes", "--no-show-fixes", "--diff", "--check", "--ignore-noqa", "--preview",
    "--no-preview", "--statistics", "--show-files", "--show-settings", "--help",
    "--respect-gitignore", "--no-respect-gitignore", "--force-exclude", "--no-force-exclude",
    "--no-cache", "--exit-zero", "--exit-non-zero-on-fix", "--exit-non-zero-on-format",
    "--verbose", "--quiet", "--silent", "--isolated", "--no-fix", "--no-unsafe-fixes"))
#: Its options whose value is data (rule codes, a format, a version, patterns of files left
#: out), and its short flags (``-q``, ``-n``: no ``-o``, ``-w``).
_RUFF_DATA: Final = frozenset((
    "--output-format", "--target-version", "--select", "--ignore", "--extend-select",
    "--extend-ignore", "--per-file-ignores", "--extend-per-file-ignores", "--fixable",
    "--unfixable", "--extend-fixable", "--exclude", "--extend-exclude", "--color",
    "--line-length"))
_RUFF_FLAGS: Final = frozenset("nevqsh")
#: The interpreters whose ``-m pytest`` runs pytest.
_PYTHONS: Final = ("python", "python3")


def unwritten(text: str) -> frozenset[str]:
    """The words of the shell command ``text`` that every simple command holding them (a word
    of it containing the word) reads as no path it writes (see the module's text)."""
    commands = named_commands(text)
    if not commands:
        return frozenset()
    kept: set[str] = set()
    held: set[str] = set()
    for command in commands:
        words = program_words(command)
        own = _not_paths(words) if words else frozenset()
        for word in command:
            (kept if word in own else held).add(word)
    return frozenset(w for w in kept if not any(w in h for h in held))


def _not_paths(words: tuple[str, ...]) -> frozenset[str]:
    """The words of one simple command (``words``: its program first) read as no path it
    writes."""
    name, rest = words[0].rsplit("/", 1)[-1], list(words[1:])
    if name in TABLES:
        return _tabled(name, TABLES[name], rest)
    if name in ("pytest", "py.test"):
        return _pytest(rest)
    if name.startswith(_PYTHONS) and rest[:1] == ["-m"] and rest[1:2] == ["pytest"]:
        return frozenset(("-m",)) | _pytest(rest[2:])
    if name == "ruff":
        return _ruff(rest)
    return frozenset()


def _tabled(name: str, table: Table, rest: list[str]) -> frozenset[str]:
    """The option words of ``rest`` holding no value (their value, when they take one, is the
    next word, which stays asked), read with ``name``'s table; for a program of
    ``_INPUT_OPERANDS``, its operands and the values of its options that write nothing.
    Nothing when the words are not read exactly (``optables.Doubt``)."""
    try:
        read = read_options(name, table, rest)
    except Doubt:
        return frozenset()
    if any(option in table.runs for option, _ in read.options):
        return frozenset()
    found = set()
    at = 0
    while at < len(rest) and rest[at] != "--":
        word, at = rest[at], at + 1
        if word[:1] != "-" or word == "-":
            continue
        try:  # (the word alone, then a mark where its value would be the next word)
            own = read_options(name, table, [word, "\x00"]).options
        except Doubt:
            return frozenset()
        if all(value in ("", "\x00") for _, value in own):
            found.add(word)  # (`-p`, `-rf`, `-t` before its folder; not `-olocal.conf`)
        at += any(value == "\x00" for _, value in own)  # (the value: still asked)
    writes = _INPUT_OPERANDS.get(name)
    if writes is not None:
        found |= {w for w in read.operands if w is not None}
        found |= {v for option, v in read.options if option not in writes and v}
        found -= {v for option, v in read.options if option in writes and v}
    return frozenset(found)


def _pytest(rest: list[str]) -> frozenset[str]:
    """pytest's option words of ``rest`` naming an option of its own that takes no path:
    a flag (``-q``) or a data option (``-p``, ``-k``) written whole, before ``--``."""
    found = set()
    for word in rest:
        if word == "--":
            break
        if word in PYTEST_FLAGS or word in PYTEST_DATA:
            found.add(word)
    return frozenset(found)


def _ruff(rest: list[str]) -> frozenset[str]:
    """ruff's words of ``rest`` (see the module's text): all of them for ``check`` (or a
    reporting ``format``) given only options of ``_RUFF_READ`` and ``_RUFF_DATA``, or short
    flags of ``_RUFF_FLAGS``."""
    plain = [w for i, w in enumerate(rest) if w[:1] != "-" and (
        not i or rest[i - 1] not in _RUFF_DATA)]
    if not plain or plain[0] not in _RUFF_READS or not all(
            w in _RUFF_READ or w in _RUFF_DATA or w.partition("=")[0] in _RUFF_DATA or (
                w[1:2] != "-" and set(w[1:]) <= _RUFF_FLAGS)
            for w in rest if w[:1] == "-" and w != "-"):
        return frozenset()
    if plain[0] == "format" and _RUFF_REPORTS.isdisjoint(rest):
        return frozenset()
    return frozenset(rest)
