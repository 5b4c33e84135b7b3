"""How the call gate judges a shell command: every simple command it may run a member of an
approved command grant, every file it writes covered as an ``Edit``.

A literal command is matched against the approved command patterns as the prover compiles
them. A command holding pattern words (expansions, globs) becomes star-only globs, one for each
way its unquoted expansions may vanish, decided against the same patterns with the prover's
inclusion test (``union_cover``): covered only when every value it stands for is approved.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from itertools import product

from ..domains import command as command_domain
from ..domains.base import RESERVED, Budget, Fold, Glob, NoFreeFiller, OverBudget
from ..domains.command import case_fold, compile_pattern, identity_reason, member
from ..domains.cover import approved_filler, union_cover
from ..grants import parse_grant
from ..limits import MAX_WORK_PER_DECISION
from ..records import NamedTuple
from .environment import environment_doubt
from .gitreach import findings
from .judge import (
    Judged,
    Part,
    absolute_path,
    all_covered,
    inside,
    joined,
    outside,
    path_part,
)
from .plainshell import joined_words, plain_texts
from .plainshell import rendered as render
from .programs import climbs, folder_star, inert, leaves, program_open
from .reading import Analysis, Redirect, Simple
from .tools import Spec, arguments, command_text
from .verdict import CallPlan
from .words import Word
from .writeguard import write_held

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

_MAX_VANISHING = 4  # (unquoted expansions tried both ways; past it, joined to the word before)


def shell(spec: Spec, tool_input: Mapping[str, object], plan: CallPlan, cwd: str | None) -> Judged:
    command, workdir_value = None, None  # ``_given``'s answer for one string, at once:
    if len(spec.subject) == 1 and not spec.directory:
        command = tool_input.get(spec.subject[0])
    if type(command) is not str:
        found = _given(spec, tool_input)
        if isinstance(found, Judged):
            return found
        command, workdir_value = found
    doubt = environment_doubt()
    if doubt is not None:
        return outside("unknown", doubt, None)
    # The working directory first: a command the plan names whole still runs where it is told.
    parts: list[Part] = []
    workdir = cwd if not workdir_value else absolute_path(workdir_value, cwd)
    if workdir_value:
        found = _workdir(workdir, workdir_value, plan, cwd)
        if isinstance(found, Judged):
            return found
        parts.append(found)
    judged = _command(spec, command, parts, workdir, plan, cwd)
    if judged.status != "covered":
        return judged
    guarded, foreign = findings(command, workdir)  # only a covered command is narrowed by them
    if guarded is not None:
        return outside("unknown", f"the command names {guarded!r}: a file the gate itself reads "
                       "or runs (its plan, its hooks, its audit log or its installation), or a "
                       "folder holding one, may be written by it", command)
    if foreign is not None:  # git in a repository not guarded (issue 29, review s40 V3, V9, V10)
        return outside("unknown", foreign, command)
    held = write_held(command, workdir, judged.parts)  # (make's doubts: session 55)
    return judged if held is None else outside("unknown", held, command)


def _given(spec: Spec, tool_input: Mapping[str, object]) -> tuple[str, str | None] | Judged:
    """The call's command and working directory (None: not given), or why not read."""
    given = [command_text(v) for v in arguments(tool_input, spec.subject, flatten=False)]
    if not given or None in given:
        return outside("invalid", f"the call has no command ({' or '.join(spec.subject)} "
                        "holding a string)", None)
    directories = arguments(tool_input, spec.directory) if spec.directory else []
    if directories and not all(isinstance(d, str) for d in directories):
        return outside("invalid", "the working directory is not a string", None)
    if (len(given) > 1 and len(set(given)) > 1) or (
            len(directories) > 1 and len(set(directories)) > 1):
        return outside("unknown", "the call names its command or its directory twice, "
                        "differently; which one runs is the runtime's to say", None)
    return given[0] or "", str(directories[0]) if directories else None


def _command(spec: Spec, command: str, parts: list[Part], workdir: str | None,
             plan: CallPlan, cwd: str | None) -> Judged:
    """The command against the plan's command grants, before the guard (``guards``)."""
    grants = _CommandGrants.of(spec.tool, plan, cwd)
    whole = command_domain.whole_command(grants.side, command)
    if whole is not None:
        return all_covered([*parts, Part(command, grants.entries[whole][0])], "part")
    if not grants.entries:
        return outside("not_covered", f"the plan approves no {spec.tool} command", command)
    if spec.tool == "PowerShell":
        return outside("unknown", "a PowerShell command is covered only by a tool-wide grant or "
                        "an approved entry naming it exactly", command)
    texts = plain_texts(command)
    if texts is not None:  # simple commands only, each its own text: no analysis to do
        return _members(texts, parts, grants)
    return _analysed(spec.tool, command, parts, workdir, plan, cwd, grants)


def _members(texts: list[str], parts: list[Part], grants: _CommandGrants) -> Judged:
    """Each literal simple command, as ``shlex.join`` writes it, a member of an approved
    command grant."""
    for text in texts:
        found = _member(text, grants, text.split(" ", 1)[0])  # a plain text's program
        if isinstance(found, Judged):
            return found
        parts.append(found)
    return all_covered(parts, "part")


def _member(command: str, grants: _CommandGrants, program: str | None) -> Part | Judged:
    """A literal simple command led by ``program``, covered by the first approved grant whose
    language holds it; by a grant with an open program only when ``program`` is inert, and by
    a grant with a star only when no word climbs out of a folder (``programs``)."""
    try:
        index = grants.ascii_member(command) if command.isascii() else member(grants.side, command)
        if index is not None and index in grants.open and not inert(program):
            index = grants.named_member(command)
            if index is None:
                return outside("unknown", f"the program {program!r} is approved only by a "
                               "grant whose program is a star, which covers only programs "
                               "known to run no command given in their words; name it in a "
                               "grant", command)
    except OverBudget as e:
        return outside("unknown", f"the command {command!r} was not decided: {e}", command)
    if index is None:
        return outside("not_covered", f"no approved entry allows the command {command!r}",
                       command)
    if index in grants.starred and "/.." in command and climbs(command):
        return outside("unknown", f"a word of {command!r} climbs with '..' out of a folder it "
                       "names, where a grant's star would reach", command)
    reach = grants.confined.get(index)
    if reach is not None and leaves(command, *reach):
        return outside("unknown", f"a word of {command!r} lies outside {reach[1]!r}, the folder "
                       "the grant's star follows (a star spans words)", command)
    return _new_part(Part, (command, grants.entries[index][0]))


#: ``Part(text, entry)`` without the named tuple's Python-level constructor: the hot path.
_new_part: Final = tuple.__new__


class _CommandGrants(NamedTuple):
    """The approved entries of a command tool's group, each with its content (None:
    tool-wide), and the command domain's compiled side of them (the plan keeps it); the
    indexes of those whose program is open (``programs.program_open``) and of those with a
    star, and the compiled side of the grants naming their program, with their indexes."""

    entries: list[tuple[str, str | None]]
    side: object
    open: frozenset[int]
    starred: frozenset[int]
    named: tuple[object, tuple[int, ...]] | None
    #: ``filled``'s answers, by whether the program is inert.
    fillers: dict[bool, tuple[Languages, list[tuple[int, tuple[Glob, ...]]], str]]
    confined: dict[int, tuple[int, str]]
    ascii_member: Callable[[str], int | None]  # (``member`` for an ASCII command, one call)

    @classmethod
    def of(cls, tool: str, plan: CallPlan, cwd: str | None) -> _CommandGrants:
        return plan.kept(("commands", tool, cwd), lambda: cls._made(tool, plan, cwd))

    @classmethod
    def _made(cls, tool: str, plan: CallPlan, cwd: str | None) -> _CommandGrants:
        prepared = plan.prepared(cwd)
        grant = parse_grant(tool)
        approved = prepared.grants(grant)
        side = command_domain.compiled_side(approved, prepared.context(), grant.key)
        entries = [(a.entry, a.grant.content) for a in prepared.candidates(grant)]
        globs = [compile_pattern(c).globs if c is not None and identity_reason(c) is None
                 else () for _, c in entries]
        opened = frozenset(i for i, g in enumerate(globs) if program_open(g))
        starred = frozenset(i for i, g in enumerate(globs) if any(x.stars for x in g))
        named = None
        if opened:
            kept = tuple(i for i in range(len(entries)) if i not in opened)
            chosen = [approved[i] for i in kept]
            named = (command_domain.compiled_side(chosen, prepared.context(), grant.key), kept)
        confined = {i: found for i, g in enumerate(globs) if (found := folder_star(g))}
        return cls(entries, side, opened, starred, named, {}, confined,
                   command_domain.ascii_member(side))

    def named_member(self, command: str) -> int | None:
        """The first grant naming its program whose language holds ``command``."""
        if self.named is None or not self.named[1]:
            return None
        found = command_domain.member(self.named[0], command)
        return None if found is None else self.named[1][found]

    def filled(self, inert_program: bool, fold: Fold | None
               ) -> tuple[Languages, list[tuple[int, tuple[Glob, ...]]], str]:
        """Each approved command pattern with its globs (the prover's compilation), those with
        an open program only for an inert program; indexed; and the filler of their generic
        instances (``approved_filler``): made once per plan. Patterns decided by identity only
        (backslashes, runs of spaces) are left out: they cover no concrete command here. No
        grant is tool-wide by now (``whole_command`` took it). Raises NoFreeFiller as
        ``approved_filler`` does (then nothing is kept)."""
        found = self.fillers.get(inert_program)
        if found is None:
            languages = [(entry, compile_pattern(content).globs)
                         for i, (entry, content) in enumerate(self.entries)
                         if content is not None and identity_reason(content) is None
                         and (i not in self.open or inert_program)]
            indexed = [(i, globs) for i, (_, globs) in enumerate(languages)]
            filler = approved_filler(indexed, Budget(limit=MAX_WORK_PER_DECISION), fold)
            found = self.fillers[inert_program] = (languages, indexed, filler)
        return found


#: The analyses kept, by command text (an agent runs the same commands again and again; the
#: service decides many calls): what the files and the plan say is judged afresh each time.
_KEPT_ANALYSES: Final = 256
_ANALYSED: dict[str, Analysis] = {}


#: Builtins that change the directory a relative program path is found from.
_MOVES: Final = frozenset({"cd", "pushd", "popd"})


def _analysis(command: str) -> Analysis:
    """``shell.analyse(command)``, kept by the command's text (a function of it alone)."""
    analysis = _ANALYSED.get(command)
    if analysis is None:
        from .shell import analyse  # the parse: a plain command (the fast path) never needs it

        analysis = analyse(command)
        if len(_ANALYSED) >= _KEPT_ANALYSES:
            _ANALYSED.clear()
        _ANALYSED[command] = analysis
    return analysis


def _moved_relative(analysis: Analysis) -> bool:
    """Whether a command that changes directory also runs a program by a relative path (review
    T1b: `cd ../evil && ./bin/build` runs another `./bin/build` than `Bash(./bin/*)` names)."""
    programs = [s.program or "" for s in analysis.commands]
    return not _MOVES.isdisjoint(programs) and any(
        "/" in p and not p.startswith("/") for p in programs)


def forget_analyses() -> None:
    """Drop the analyses kept (benchmarks of first decisions, tests)."""
    _ANALYSED.clear()


def _analysed(tool: str, command: str, parts: list[Part], workdir: str | None, plan: CallPlan,
              cwd: str | None, grants: _CommandGrants) -> Judged:
    """Every simple command ``command`` may run, and every file it writes or reads, covered."""
    analysis = _analysis(command)
    if analysis.doubt is not None:
        return outside("unknown", f"{analysis.doubt}; only a tool-wide grant or an approved "
                        "entry naming the whole command exactly covers it", command)
    if _moved_relative(analysis):
        return outside("unknown", "the command changes directory and runs a program by a "
                       "relative path, which then names another file than the grant's folder "
                       "holds", command)
    for simple in analysis.commands:
        judged = _simple(tool, simple, grants)
        if isinstance(judged, Judged):
            return judged
        parts.append(judged)
    for redirect in analysis.redirects:
        found = _redirect(redirect, workdir, plan, cwd)
        if isinstance(found, Judged):
            return found
        parts.append(found)
    if analysis.reprinted is not None:  # the last step: it starts bash
        from .crosscheck import disagreement  # subprocess: imported only when bash is asked

        disagrees = disagreement(command, analysis.reprinted)
        if disagrees is not None:
            return outside("unknown", f"{disagrees}; only a tool-wide grant or an approved "
                            "entry naming the whole command exactly covers it", command)
    return all_covered(parts, "part")


def _redirect(redirect: Redirect, workdir: str | None, plan: CallPlan,
              cwd: str | None) -> Part | Judged:
    """A file a redirection writes, judged as an Edit of it (one it reads, as a Read)."""
    target = redirect.target.value
    if redirect.raced:
        return outside("unknown", f"the redirection {redirect.text!r} opens its file after a "
                        "program of the same command may have run, and put a symbolic link "
                        "there", redirect.text)
    if target is None or (redirect.after_cd and not target.startswith("/")):
        return outside("unknown", f"the redirection {redirect.text!r} names a file the gate "
                        "cannot name", redirect.text)
    path = absolute_path(target, workdir)
    if path is None:
        return outside("unknown", f"the redirection {redirect.text!r} names a relative path "
                        "and the working directory is not known", redirect.text)
    return path_part("Read" if redirect.reads else "Edit", path, plan, cwd,
                     f"the redirection {redirect.text!r}", given=joined(target, workdir))


#: The approved command patterns a concrete command is judged against, each with its globs.
Languages = list[tuple[str, tuple[Glob, ...]]]


def _workdir(workdir: str | None, given: str, plan: CallPlan, cwd: str | None) -> Part | Judged:
    """The working directory, read as a leading ``cd``: inside the session's directory, or
    covered by a path grant for everything beneath it."""
    if workdir is None:
        return outside("unknown", f"the working directory {given!r} is relative and the "
                        "session's directory is not known", given)
    if cwd is not None and inside(workdir, cwd):
        return Part(f"cd {shlex.quote(workdir)}", "the session's working directory")
    return path_part("Read", workdir, plan, cwd, "the working directory", tree=True)


def _simple(tool: str, simple: Simple, grants: _CommandGrants) -> Part | Judged:
    words = simple.words
    values = [w.value for w in words]
    # A prefix assignment (`PATH=./evil ls`, `LD_PRELOAD=…`, `CDPATH=… cd`) changes what the
    # program runs or where: no allow-listed program stays inert under it (review N1c).
    program = simple.program if not words or values[0] == simple.program else None
    if None not in values:
        return _member(joined_words(values), grants, program)  # type: ignore[arg-type]
    shown = " ".join(render(w.value) if w.value is not None else "…" for w in words)
    if "/.." in shown and climbs(shown):
        return outside("unknown", f"a word of {shown!r} climbs with '..' out of a folder it "
                       "names, where a grant's star would reach", shown)
    fold = case_fold(tool)
    budget = Budget(limit=MAX_WORK_PER_DECISION)
    try:
        languages, indexed, filler = grants.filled(inert(program), fold)
        globs = _patterns(words)
        if any(not RESERVED.isdisjoint(s) for g in globs for s in g.segments):
            raise NoFreeFiller("the command holds reserved noncharacters")
        covering, witness = union_cover(globs, indexed, budget, fold, filler)
    except (OverBudget, NoFreeFiller) as e:
        return outside("unknown", f"the command {shown!r} holds an expansion, and its values "
                        f"were not decided: {e}", shown)
    if witness is not None:
        return outside("not_covered", f"the command {shown!r} holds an expansion that may "
                        f"take a value no approved entry allows, e.g. {witness!r}", witness)
    entry = languages[covering[0]][0]
    for index, reach in grants.confined.items():  # review T2b, as ``_member``
        if grants.entries[index][0] == entry and leaves(shown, *reach):
            return outside("unknown", f"a word of {shown!r} lies outside {reach[1]!r}, the "
                           "folder the grant's star follows (a star spans words)", shown)
    return Part(shown, entry)


def _patterns(words: tuple[Word, ...]) -> list[Glob]:
    """Star-only globs that together hold every command ``words`` may become: literal words as
    ``shlex.quote`` writes them, each pattern word a star; each unquoted expansion present, or
    vanished with its space."""
    rendered = [render(w.value) if w.value is not None else None for w in words]
    vanishing = [i for i, w in enumerate(words) if w.vanishes and i > 0]
    if len(vanishing) > _MAX_VANISHING:  # each joined to the word before it: a wider glob
        pieces = [rendered[0]]
        for i in range(1, len(words)):
            pieces += [None] if i in vanishing else [" ", rendered[i]]
        return [_glob(pieces)]
    globs = []
    for present in product((True, False), repeat=len(vanishing)):
        kept = dict(zip(vanishing, present, strict=True))
        globs.append(_glob(_spaced([r for i, r in enumerate(rendered) if kept.get(i, True)])))
    return list(dict.fromkeys(globs))


def _spaced(words: list[str | None]) -> list[str | None]:
    """Words joined with single spaces: literal text and None for each star."""
    pieces: list[str | None] = []
    for i, word in enumerate(words):
        if i:
            pieces.append(" ")
        pieces.append(word)
    return pieces


def _glob(pieces: list[str | None]) -> Glob:
    """The glob of literal pieces and stars (None)."""
    segments = [""]
    for piece in pieces:
        if piece is None:
            segments.append("")
        else:
            segments[-1] += piece
    return Glob(tuple(segments))
