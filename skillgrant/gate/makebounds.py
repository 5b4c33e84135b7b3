"""Where a doubt of make's reading may read from (issue 29; session 55, the write guard;
session 57, an allow-list): a makefile's text the gate cannot compute exactly (``makereads``'
doubts) still reads only below the folder make runs in when the text, expanded exactly as
make expands it, is plain: each variable it refers to is one the makefiles assign themselves
(``=``, ``:=``, ``define``, everywhere alike: not ``?=``, ``+=``, ``!=``, a target's own value,
a sub-make's command line: ``makereads``' ``trusted``), read as each of its values; each
function one the gate computes (``_FUNCTIONS``: not ``shell``, ``file``, ``let``); an automatic
variable a name (``PLACE``); a shell ``for`` loop's variable each of its literal words, where
the loop's text binds it once. The expanded text is then made only of ``_PLAIN`` characters
(no quote but as removed, no backslash, ``$``, backtick, brace, glob character or ``~``), and
no word of it climbs (a ``..`` part), starts at the root (but ``/dev/null``) or moves by
``cd`` anywhere but a plain folder (``cd``, ``cd -``, ``popd``; any ``cd`` where ``CDPATH`` is
set). Such a doubt write-guards make's folder; any other, every folder (``EVERYWHERE``): an
allow-list of what the gate reads exactly, not a list of known tricks (session 57: the
quotes, braces, ``$$*``, twice-used loop names and functions' values beside a dot
s56-greview found)."""

from __future__ import annotations

import re

from .makeexpand import CURDIR, MAX_TEXTS, PLACE, expanded

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The bound of a doubt whose text may name any folder.
EVERYWHERE: Final = "/"
#: The characters of a plain expanded text (a quote is removed first: `.''./` is `../`).
_NOT_PLAIN: Final = re.compile(r"[^A-Za-z0-9_./+=:,@%#^!\-\s;&|<>()\x01\x02]")
#: A shell's word or operator, in a plain text.
_TOKEN: Final = re.compile(r"[;&|<>()]+|[^\s;&|<>()]+")
#: The shells whose recipes the bound reads (a makefile's ``SHELL``: ``makereads``).
SHELLS: Final = frozenset(("/bin/sh", "/bin/bash", "/usr/bin/bash", "/bin/dash",
                           "/usr/bin/dash", "/usr/bin/sh", "sh", "bash", "dash"))
#: ``.SHELLFLAGS`` the bound reads (options, ``-o pipefail``, then ``-c``).
SHELLFLAGS: Final = re.compile(r"(?:-[a-zA-Z]+(?:\s+pipefail)?\s+)*-[a-zA-Z]*c")


def bound(text: str, folder: str, definitions: dict[str, list[str]],
          assigned: frozenset[str] | set[str], cdpath: bool = False) -> str:
    """``folder`` when the makefile text ``text`` (of a doubt of make in ``folder``) reads
    only below it, by the variables' ``definitions`` (of them ``assigned``: those the makefiles
    assign themselves, read exactly), ``cdpath`` whether a ``cd`` may search ``CDPATH``; else
    ``EVERYWHERE`` (see the module's text)."""
    texts = expanded(text, definitions, assigned)
    return folder if texts is not None and all(_plain(t, cdpath) for t in texts) else EVERYWHERE


def expansions(text: str, definitions: dict[str, list[str]],
               assigned: frozenset[str] | set[str]) -> list[str]:
    """Each text ``text`` stands for, make's references and the shell's ``for`` loops read
    (``bound``'s reading); none where one is not read exactly."""
    texts = expanded(text, definitions, assigned)
    if texts is None:
        return []
    found = [t for one in texts for t in (_loops(one) or [one])]
    return [] if any(c in t for t in found for c in ("$", PLACE, CURDIR)) else found


def _plain(text: str, cdpath: bool) -> bool:
    """Whether the expanded ``text`` names only folders below make's (see the module's)."""
    texts = _loops(text)
    if texts is None:
        return False
    for one in texts:
        one = one.replace("\\\n", "").replace("'", "").replace('"', "")  # (the shell's)
        if _NOT_PLAIN.search(one):
            return False
        tokens = _TOKEN.findall(one)
        for at, token in enumerate(tokens):
            if token in ("shopt", "enable"):  # (bash's `cdable_vars`, its builtins)
                return False
            if token in ("cd", "pushd", "popd", "chdir"):
                following = tokens[at + 1] if at + 1 < len(tokens) else ";"
                if token == "popd" or cdpath or following[:1] in ";&|<>()-":
                    return False
            if any(_leaves(word) for word in re.split(r"[=:,]", token)):
                return False
    return True


def _leaves(word: str) -> bool:
    """Whether the expanded ``word`` may name a file outside make's folder: from the root (but
    ``/dev/null``), a ``..`` part, ``$(CURDIR)`` but as its first part, a name's piece beside
    dots (``$(@D).``); or, an option (``-C..``, ``-I/x``), a value attached after any letter
    of it, read so in turn. Each ending of the word is read once, from the last (``-a-a-a…``
    was an exponential walk); a word past ``_MAX_WORD`` characters is not read: it may."""
    if len(word) > _MAX_WORD:
        return True
    ends: dict[int, bool] = {}
    for start in range(len(word) - 1, -1, -1):
        if start and not word[start - 1].isalpha():
            continue  # (no option's attached value starts here)
        rest = word[start:]
        ends[start] = (rest[:1] == "-" and rest[1:2] != "-" and any(
            ends[start + at] for at in range(2, len(rest)) if rest[at - 1].isalpha())
        ) or _leaves_itself(rest)
    return ends.get(0, False) if word else _leaves_itself(word)


#: The longest word ``_leaves`` reads.
_MAX_WORD: Final = 4096


def _leaves_itself(word: str) -> bool:
    """``_leaves`` of ``word`` read as no option."""
    if word[:1] == "/" and word != "/dev/null":
        return True
    parts = word.split("/")
    if CURDIR in word and (CURDIR in word[1:] or parts[0] != CURDIR):
        return True
    return any(p == ".." or (len(p) > 1 and PLACE in p and not p.strip(PLACE + "."))
               for p in parts)


#: A shell variable's reference in an expanded text (``$d``, ``${d}``).
_SHELL_VARIABLE: Final = re.compile(r"\$(?:\{(\w+)\}|(\w+)|(.))")


def _loops(text: str) -> list[str] | None:
    """The texts ``text`` stands for with each shell ``for`` loop's variable as each of its
    words (``for d in a b; do … $d …; done``); None where a shell variable is any other or
    the loop is not read exactly (its words not plain, its name bound or used elsewhere)."""
    names = {m.group(1) or m.group(2) or m.group(3) for m in _SHELL_VARIABLE.finditer(text)}
    if "$" in text and not names:
        return None
    texts = [text]
    for name in names:
        if not name or not re.fullmatch(r"[A-Za-z_]\w*", name):
            return None  # (`$*`, `$@`, `$1`, `$$`: the shell's own)
        header = re.compile(rf"\bfor\s+{name}\s+in\s+([^;\n$]*?)\s*[;\n]\s*do\b")
        found = header.findall(text)
        if len(found) != 1 or len(re.findall(rf"\b{name}\b", _SHELL_VARIABLE.sub(" ", text))
                                  ) != 1:
            return None  # (its name only in its header and as `$name`: bound once)
        words = found[0].split() or [""]  # (no word: its body not run, read with none)
        if any(_NOT_PLAIN.search(w) or "'" in w or '"' in w for w in words):
            return None
        start = header.search(text)
        assert start is not None
        body_end = _done(text, start.end())
        if body_end is None or any(not start.end() <= m.start() < body_end for m in
                                   _SHELL_VARIABLE.finditer(text)
                                   if (m.group(1) or m.group(2)) == name):
            return None
        texts = [re.sub(rf"\$(?:\{{{name}\}}|{name}\b)", w, t) for t in texts for w in words]
        if len(texts) > MAX_TEXTS:
            return None
    return texts


def _done(text: str, after: int) -> int | None:
    """Where the ``done`` closing the loop body starting at ``after`` is."""
    depth = 1
    for match in re.finditer(r"(?<![\w$-])(do|done)(?![\w-])", text[after:]):
        depth += 1 if match.group(1) == "do" else -1
        if depth == 0:
            return after + match.start()
    return None


def literal(rules: list[tuple[list[str], list[str], list[str], str]],
            definitions: dict[str, list[str]], assigned: frozenset[str] | set[str]
            ) -> list[tuple[list[str], list[str], list[str], str]]:
    """``rules`` with each target's references to a variable the makefiles assign once, to
    a literal text (or to such variables' references), read (``MAIN := app`` + ``$(MAIN):
    $(OBJS)`` makes ``app``, no makefile read: what make expands a rule's targets to)."""
    known = {n: v[0] for n, v in ((n, [w.strip() for w in v if w.strip()]) for n, v in
                                  definitions.items()) if n in assigned and len(v) == 1}
    for _ in range(8):  # (a value of references to such variables, read as make expands it)
        known = {n: _expanded(v, known) for n, v in known.items()}
    known = {n: v for n, v in known.items() if "$" not in v}
    if not known:
        return rules
    return [([w for t in targets for w in _expanded(t, known).split()], prerequisites, recipe,
             where) for targets, prerequisites, recipe, where in rules]


def _expanded(text: str, known: dict[str, str]) -> str:
    """``text`` with each reference to a ``known`` variable replaced by its value."""
    return _REFERENCED.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), text)


_REFERENCED: Final = re.compile(r"\$(?:\(([\w.-]+)\)|\{([\w.-]+)\})")
