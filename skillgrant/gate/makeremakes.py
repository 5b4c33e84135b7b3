"""The files make may remake a makefile it read from (issue 29; session 54, ``makereads``;
split from it in session 55): GNU make's "How Makefiles Are Remade" — an explicit rule's
prerequisites and recipe's words, the built-in rules' sources (``maketables.BUILT_IN``), each
in turn; what the gate cannot name there (a pattern, suffix or ``.DEFAULT`` rule that may
remake one, a computed target or word) raises ``Unread`` (a doubt of the reading)."""

from __future__ import annotations

import os
import re

from .makerecipes import Unbounded, Unread
from .maketables import BUILT_IN, COPIERS, SPECIAL, SUFFIXES

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: How many names one reading follows at most.
_MAX_READ: Final = 256
_SUFFIX_RULE: Final = re.compile(r"(\.[^./%\s]+)(\.[^./%\s]+)?")


def remade(read: set[str], rules: list[tuple[list[str], list[str], list[str], str]],
            folder: str, attempt: Callable[..., list[str]]) -> list[str]:
    """The files make in ``folder`` may remake a makefile it read (``read``) from, and each
    of those in turn: an explicit rule's prerequisites and recipe's words, the built-in
    rules' sources; Unread for a pattern, suffix or ``.DEFAULT`` rule that may remake one,
    or a computed name there."""
    found: list[str] = []
    added = {p for t, ps, _, _ in rules if t == [".SUFFIXES"] for p in ps}
    known = (SUFFIXES | added if not any("$" in p for p in added) else _ANY_SUFFIX,
             frozenset(os.path.normpath(p) for t, ps, _, _ in rules if t == [".PHONY"]
                       for p in ps if "$" not in p))  # (.SUFFIXES: their union, a superset)
    wanted = dict.fromkeys(sorted(read), False)  # (a name, made by a match-anything rule)
    at = 0
    while at < len(wanted):  # (in order, each once; it grows as it goes)
        name, through = list(wanted.items())[at]
        at += 1
        if len(wanted) > _MAX_READ:
            break
        head, base = os.path.split(name)
        for target, sources, text in BUILT_IN if name not in known[1] else ():  # (phony:
            if not _matches(target, base) or (through and target == "%"):  # no implicit rule)
                continue  # (make chains a match-anything rule once: "Chains of Implicit Rules")
            made = [os.path.join(head, s.replace("%", _stem(target, base), 1))
                    for s in sources]
            found += made
            for m in made if text else ():
                wanted.setdefault(m, target == "%")
        for targets, prerequisites, recipe, where in rules:
            remade = attempt(_sources, " ".join([name, *targets, *prerequisites, *recipe]),
                             name, targets, prerequisites, recipe, where, known)
            found += remade
            for m in remade:
                wanted.setdefault(os.path.normpath(m), False)
    return [os.path.join(folder, os.path.expanduser(f)) for f in found]  # (`~/t.mk`: make's
    # and the shell's home, review s56-greview G)


def _sources(name: str, targets: list[str], prerequisites: list[str], recipe: list[str],
             where: str, known: tuple[frozenset[str], frozenset[str]] = (SUFFIXES,
                                                                         frozenset())
             ) -> list[str]:
    """The files the rule at ``where`` remakes the makefile ``name`` from (none when it does
    not make it); Unread where the gate cannot name them. ``known``: the suffixes
    (``.SUFFIXES``) and the phony targets, for which make searches no implicit rule."""
    suffixes, phony = known
    base = os.path.basename(name)
    # A pattern, suffix or .DEFAULT rule without a recipe makes nothing: it cancels a rule
    # (GNU make 4.3: `%.mk : %.in` alone, cmake's generated `% : %,v`) or means nothing
    # (a suffix rule's); checked with make, session 55.
    if recipe and name not in phony and any(
            t == ".DEFAULT" or ("%" in t and (_matches(t, name) or _matches(t, base))) or
            _suffix_rule(t, suffixes) for t in targets):
        raise Unread(f"{where}: a pattern, suffix or .DEFAULT rule may remake a makefile "
                     f"make reads ({name!r}), from files the gate cannot name")
    if recipe and any(_may_be(t, name) for t in targets if "$" in t):
        raise Unread(f"{where}: a rule of computed targets may remake a makefile make reads "
                     f"({name!r})")
    if name not in {os.path.normpath(t) for t in targets}:
        return []
    segments = [s.replace("$<", "$^").replace("$(<", "$(^") for r in recipe
                for s in re.split(r"[;&|()\n]+", r) if s.strip()]  # (`$<`: not a redirection)
    other = next((p for p, s in zip(map(_program, segments), segments, strict=True)
                  if p not in COPIERS and (p != "sed" or sed_edits(s.split()) is None)), None)
    if other is not None:
        raise Unread(f"{where} remakes a makefile make reads ({name!r}) by a program that may "
                     f"read files its words do not name ({other!r})")
    words = [*prerequisites, *(w for segment in segments for w in _operands(segment))]
    found = [f"{d}lib{w[2:]}{e}" for w in prerequisites if w[:2] == "-l" and "$" not in w
             for d in _LIBRARY_FOLDERS for e in (".so", ".a")]  # (make's search of `-lconf`:
    # GNU make's "Directory Search for Link Libraries", .LIBPATTERNS; review s56-greview G)
    for word in (w.lstrip("@+-") for w in words if w and (w[:1] != "-" or "=" in w)):
        for part in dict.fromkeys((word, word.partition("=")[2])):
            if "$" in re.sub(r"\$[@<^+?*]|\$\([@<^*][DF]\)|\$[({]MAKE[)}]", "", part) or any(
                    c in part for c in "*?[%"):
                raise Unread(f"{where} remakes a makefile make reads from files the gate "
                             f"cannot name ({word!r})")
            found += [part] if part and "$" not in part else []
    return found


#: Where make looks for a ``-lNAME`` prerequisite (make's folder, then GNU make 4.3's).
_LIBRARY_FOLDERS: Final = ("", "/lib/", "/usr/lib/", "/usr/local/lib/")
#: The programs whose output a remade makefile's text is, read (``remade_text``), and those
#: that write no text into it.
_COPYING: Final = frozenset(("cp", "cat", "install", "ln"))
_PRINTING: Final = frozenset(("echo", "printf"))
_SILENT: Final = frozenset(("touch", "mkdir", "rm", "true", ":", "test", "[", "chmod"))
#: A remaking recipe's word (quoted parts as they are), or its operator.
_WORD: Final = re.compile(r"(?:[^\s'\";&|<>]+|'[^']*'|\"[^\"]*\")+|[;&|<>]+")


#: A ``sed`` script of one plain substitution (``s/@CC@/cc/``, ``s|x|y|g``): no regular
#: expression's special character, no ``&``, no backslash (the text it writes is computed).
_SUBSTITUTION: Final = re.compile(r"s([/|#,:])([A-Za-z0-9_@ =+-]+)\1([A-Za-z0-9_@ ./=+:-]*)\1(g?)")


def sed_edits(words: list[str]) -> tuple[list[tuple[str, str, bool]], list[str]] | None:
    """A ``sed`` command's ``words`` (its name first) read as plain substitutions (``-e``
    scripts, or its first operand) and the files they edit; None for any other ``sed``
    (another option, command or expression: what it writes is not computed)."""
    edits: list[tuple[str, str, bool]] = []
    files: list[str] = []
    at, scripted = 1, False
    while at < len(words):
        word, at = words[at], at + 1
        if word in (">", ">>"):
            at += 1
            continue
        script = words[at] if word == "-e" and at < len(words) else word
        match = _SUBSTITUTION.fullmatch(script) if word == "-e" or not (scripted or files) \
            else None
        if word[:1] == "-" and word != "-e":
            return None
        if match is None and (word == "-e" or not (scripted or files)):
            return None
        if match is not None:
            edits.append((match.group(2), match.group(3), match.group(4) == "g"))
            at += word == "-e"
            scripted = True
        else:
            files.append(word)
    return (edits, files) if edits else None


def edited(text: str, edits: list[tuple[str, str, bool]]) -> str:
    """``text`` as ``sed`` writes it under the plain substitutions ``edits``, line by line."""
    lines = text.split("\n")
    for old, new, every in edits:
        lines = [line.replace(old, new, -1 if every else 1) for line in lines]
    return "\n".join(lines)


def remade_text(name: str, prerequisites: list[str], recipe: list[str], where: str
                ) -> tuple[list[str], str, list[tuple[str, list[tuple[str, str, bool]]]]]:
    """What make reads as the makefile ``name`` once the rule at ``where`` (of
    ``prerequisites`` and ``recipe``) remakes it: the files copied into it (``cp $< $@``,
    ``cat a b > $@``, ``install``, ``ln``), read as makefiles, and the text ``echo`` and
    ``printf`` write into it, a plain ``sed``'s files and edits (``s/@CC@/cc/``); Unbounded
    where another program writes it (another ``sed``, ``cpp``, ``m4``, a script: the text it
    writes is its own; review s56-greview B) or its words are not plain (a ``$`` but an
    automatic variable, a backslash: ``printf``'s escapes, a backtick)."""
    first = prerequisites[0] if prerequisites else ""
    automatic = {"@": name, "<": first, "^": " ".join(prerequisites),
                 "+": " ".join(prerequisites), "@D": os.path.dirname(name) or ".",
                 "@F": os.path.basename(name), "<D": os.path.dirname(first) or ".",
                 "<F": os.path.basename(first)}
    text = re.sub(r"\$(?:([@<^+])|[({]([@<][DF])[)}])", lambda m: automatic[
        m.group(1) or m.group(2)], "\n".join(r.lstrip("\t").lstrip("@+-") for r in recipe))
    if re.search(r"[`\\${}*?\[]", text):  # (bash's `{src/x,$@}`, a glob: s57-greview R)
        raise Unbounded(f"{where} remakes a makefile make reads ({name!r}) by words the gate "
                        "does not read exactly")
    sources: list[str] = []
    changed: list[tuple[str, list[tuple[str, str, bool]]]] = []  # (a sed's: its files, edits)
    written = ""
    for segment in re.split(r"&&|\|\||[;\n]", text):
        words = [w.replace("'", "").replace('"', "") for w in _WORD.findall(segment)]
        written += _written(words, name, where, sources, changed) if words else ""
    return sources, written, changed


def _written(words: list[str], name: str, where: str, sources: list[str],
             changed: list[tuple[str, list[tuple[str, str, bool]]]]) -> str:
    """The text the simple command ``words`` of a recipe remaking the makefile ``name``
    writes into it (``echo``'s, ``printf``'s), the files it copies into it added to
    ``sources``, a plain ``sed``'s to ``changed`` (``remade_text``)."""
    program, into = _program(words[0]), _redirected(words, name)
    ended = words.index("--") if "--" in words else len(words)  # (`cat -- -site.in`)
    operands = [w for at, w in enumerate(words) if at and (w[:1] != "-" or at > ended) and
                w not in (">", ">>", "<", "--") and words[at - 1] not in (">", ">>")]
    if "|" in words or "$" in "".join(operands) or any(c in "".join(operands) for c in "*?[%"):
        raise Unbounded(f"{where} remakes a makefile make reads ({name!r}) by a pipe or "
                        "words the gate cannot name")
    if program in _COPYING:
        if program != "cat":
            into, operands = operands[-1:] == [name], operands[:-1]
            operands = operands[1:] if program == "install" and "-m" in words else operands
        sources += operands if into else []
    elif program in _PRINTING:
        if program == "printf" and "%" in " ".join(words[1:]):
            raise Unbounded(f"{where} remakes a makefile make reads ({name!r}) by printf's "
                            "format")
        printed = [w for w in words[1:] if w not in (">", ">>", name)]
        printed = printed[1:] if printed[:1] == ["-n"] and program == "echo" else printed
        return (" ".join(printed) + ("\n" if program == "echo" else "")) if into else ""
    elif program == "sed" and (read := sed_edits(words)) is not None:
        changed += [(f, read[0]) for f in read[1]] if into else []
    elif program not in _SILENT:
        raise Unbounded(f"{where} remakes a makefile make reads ({name!r}) by a program whose "
                        f"text the gate does not read ({program!r})")
    return ""


def built_in_text(name: str, folder: str, where: str) -> list[str]:
    """The files make's built-in rules copy into the makefile ``name`` (``%: %.sh``'s
    ``cat``, ``%.out: %``'s ``cp``) where their sources are in ``folder``, to be read as
    makefiles; Unbounded where another built-in rule's program writes it from a source there
    (``%.s: %.S``'s preprocessor reads the headers it includes, RCS's and SCCS's files,
    yacc's: review s56-greview G)."""
    head, base = os.path.split(name)
    found: list[str] = []
    for target, sources, text in BUILT_IN:
        made = [os.path.join(head, s.replace("%", _stem(target, base), 1)) for s in sources]
        if not text or not _matches(target, base) or not all(
                os.path.exists(os.path.join(folder, m)) for m in made):
            continue
        if (target, sources) not in (("%", ("%.sh",)), ("%.out", ("%",))):
            raise Unbounded(f"{where}: make's built-in rule {target}: {' '.join(sources)} may "
                            f"remake a makefile it reads ({name!r}) by a program whose text "
                            "the gate does not read")
        found += made
    return found


def _redirected(words: list[str], name: str) -> bool:
    """Whether the command ``words`` writes its output into the makefile ``name``."""
    return any(w in (">", ">>") and words[at + 1:at + 2] == [name]
               for at, w in enumerate(words))


def _suffix_rule(target: str, suffixes: frozenset[str]) -> bool:
    """Whether ``target`` is a suffix rule's (``.c.o``, ``.el``) of the known ``suffixes``
    (``_ANY_SUFFIX``: a ``.SUFFIXES`` the gate cannot compute, every one)."""
    match = _SUFFIX_RULE.fullmatch(target)
    return match is not None and target not in SPECIAL and (suffixes is _ANY_SUFFIX or all(
        part in suffixes for part in match.groups() if part))


#: The suffixes where a ``.SUFFIXES`` line names them by a variable: any.
_ANY_SUFFIX: Final = frozenset(("*",))


def _may_be(target: str, name: str) -> bool:
    """Whether the computed ``target`` may expand to ``name``: its literal end (after its last
    reference, past a ``%``) ends ``name`` (``$(OBJDIR)/%.o`` is no ``config.mk``)."""
    tail = re.split(r"\$(?:\([^()]*\)|\{[^{}]*\}|.)", target)[-1].rpartition("%")[2]
    return name.endswith(tail)


def _stem(pattern: str, name: str) -> str:
    """The part of ``name`` (matched by ``pattern``) its ``%`` stands for (``local`` of
    ``local.s`` by ``%.s``: make's stem)."""
    head, _, tail = pattern.partition("%")
    return name[len(head):len(name) - len(tail)]


def _matches(pattern: str, name: str) -> bool:
    """Whether make's ``pattern`` (one ``%``) matches the file's ``name``."""
    head, percent, tail = pattern.partition("%")
    if not percent:
        return pattern == name
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


def _program(segment: str) -> str:
    """The name of the program a remaking recipe's simple command ``segment`` runs (past its
    assignments and make's ``@+-``), as written (a path's last part only when it is the
    system's: ``/bin/cp``)."""
    words = [w for w in re.split(r"[\s<>'\"`]+", segment) if w]
    at = 0
    while at < len(words) and _ASSIGNMENT.match(words[at]):
        at += 1
    program = words[at].lstrip("@+-") if at < len(words) else ":"
    return os.path.basename(program) if program.startswith(("/bin/", "/usr/bin/")) else program


def _operands(segment: str) -> list[str]:
    """The words of a remaking recipe's simple command ``segment`` that may name a file it
    reads: all but its program's literal name, found on ``PATH`` (``cp``; review s54-greview
    K5: guarded as a file of make's folder, every ``cp`` call was denied); a name with a
    ``/`` or a ``$`` is read as a file."""
    words = [w for w in re.split(r"[\s<>'\"`]+", segment) if w]
    at = 0
    while at < len(words) and _ASSIGNMENT.match(words[at]):
        at += 1  # (`LC_ALL=C sort …`: the values read as words)
    program = words[at].lstrip("@+-") if at < len(words) else ""
    return words[:at] + words[at + 1:] if program and "/" not in program and \
        "$" not in program else words


_ASSIGNMENT: Final = re.compile(r"[A-Za-z_]\w*=")
