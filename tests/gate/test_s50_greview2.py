"""Review s50 (s50-greview2) of s50-gfix's entry folders (``gate/entryfolders.py``: the
closure over every move of a plan entry, ``moves.folder_moves``). Each case proves with real
bash, in a scratch copy (a scratch home), that ``cp src/mk <file>`` then the approved entry
run the payload, then asks the printed hook for each call in turn, running the allowed ones;
the hook allowing them all is the finding: these tests fail while the hole is open (``OPEN``
marks them strict xfails)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, needs, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: Makefiles in the call's folder and a few below it, the payload in ``src/mk``.
FILES = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "x/Makefile": MAKEFILE,
         "sub/x/Makefile": MAKEFILE, "sub/d/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD}


def _case(tmp_path: Path, entry: str, target: str, more: dict[str, str] | None = None,
          links: dict[str, str] | None = None, payload: str = MAKE_PAYLOAD,
          extra: dict[str, str] | None = None) -> str | None:
    """Proves that ``cp src/mk <target>`` then ``entry`` run the payload under real bash
    (scratch home; the session's ``extra`` values, ``{P}`` in them the folder bash runs in) in
    a hooked project with ``FILES``, ``more`` and the symbolic ``links`` (name: target), plan
    ``Bash(<entry>)``, ``Bash(cp *)``; the first call the printed hook denies, or None (as
    tests/gate/test_s49_greview3.py's)."""
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                       {**FILES, "src/mk": payload, **(more or {})},
                       [f"cp src/mk {target}", entry], extra, links=links)


# --- A1: an alias of cd ----------------------------------------------------------------------


#: Entries defining ``alias c=cd`` where the shell expands aliases (dash always; bash in
#: POSIX mode), then ``c sub`` on a later line.
ALIASED = {"sh-c": "sh -c 'alias c=cd\nc sub\nmake test'",
           "bash-posix-c": "bash --posix -c 'alias c=cd\nc sub\nmake test'",
           "top-set-posix": "set -o posix\nalias c=cd\nc sub\nmake test",
           "bash-aliases-array": "set -o posix\nBASH_ALIASES[c]=cd\nc sub\nmake test"}


@pytest.mark.parametrize("case", list(ALIASED))
def test_a1_an_alias_of_cd_moves_make(tmp_path: Path, case: str) -> None:
    """dash expands aliases in a script, bash in POSIX mode (``--posix``, ``set -o posix``):
    after ``alias c=cd`` (or ``BASH_ALIASES[c]=cd``), the next line's ``c sub`` is ``cd sub``;
    the word ``c=cd`` is no
    move to the scanner (``alias c='cd sub'`` is read: its quoted code), so the entry's
    folders are the call's only. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "sh", "make")
    denied = _case(tmp_path, ALIASED[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- R2: a move repeated by the shell's history, no loop word ---------------------------------


#: Entries turning on a non-interactive shell's history, then running ``cd sub`` again by
#: ``fc -s`` or ``!!``: make runs in ``sub/sub``.
REPEATED = {"fc-s": "set -o history\ncd sub\nfc -s c\nmake test",
            "bang-bang": "set -o history -H\ncd sub\n!!\nmake test"}


@pytest.mark.parametrize("case", list(REPEATED))
def test_r2_a_move_repeated_by_history(tmp_path: Path, case: str) -> None:
    """``set -o history`` keeps a history in ``bash -c`` too; ``fc -s c`` (and ``!!`` with
    ``-H``) runs the last command starting ``c`` again: ``cd sub`` from ``sub``, so make runs
    in ``sub/sub``. The closure repeats a move only for a loop, a function or a trap word
    (``for d in a b; do cd sub; done`` is refused: held). Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk sub/sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, REPEATED[case], "sub/sub/Makefile",
                   {"sub/sub/Makefile": MAKEFILE})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- L2: a loop right after `if` is not read as a loop ---------------------------------------


#: Each case: an entry whose ``for`` loop (``trap … DEBUG``, which runs before each command;
#: ``fc``; an ``alias``) is ``if``'s or ``while``'s condition, or follows a redirection (no
#: word after which the scanner reads a command's name), and the makefile make then reads.
CONDITION_LOOPS = {"if-for": ("if for d in a b; do cd sub; done; then make test; fi",
                              "sub/sub/Makefile"),
                   "bash-c-if-for": ("bash -c 'if for d in a b; do cd sub; done; "
                                     "then make test; fi'", "sub/sub/Makefile"),
                   "if-trap-debug": ("if trap 'cd sub' DEBUG; then true; make test; fi",
                                     "sub/sub/Makefile"),
                   "if-alias": ("set -o posix\nif alias c=cd; then :; fi\nc sub\nmake test",
                                "sub/Makefile"),
                   "while-alias": ("set -o posix\nwhile alias c=cd; do break; done\nc sub\n"
                                   "make test", "sub/Makefile"),
                   "redirected-alias": ("set -o posix\n>/dev/null alias c=cd\nc sub\nmake test",
                                        "sub/Makefile"),
                   "redirected-trap": (">/dev/null trap 'cd sub' DEBUG; true; make test",
                                       "sub/sub/Makefile")}


@pytest.mark.parametrize("case", list(CONDITION_LOOPS))
def test_l2_a_loop_as_ifs_condition_repeats_its_move(tmp_path: Path, case: str) -> None:
    """``if for d in a b; do cd sub; done; then make test; fi``: the loop is ``if``'s
    condition and moves twice; the scanner counts a loop only where a command's name stands
    (``moves._LEADS``: ``then``, ``do``, ``!``, … but not ``if``; ``movedoubts.marks``' trap,
    ``fc``, ``alias`` too), so the closure is ``""``, ``sub`` (``for d in a b; do cd sub;
    done; make test`` and ``alias c=cd`` at a command's name are refused: held). Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk <makefile>`` is allowed, the entry runs
    the payload."""
    needs("bash", "make")
    entry, target = CONDITION_LOOPS[case]
    denied = _case(tmp_path, entry, target, {"sub/sub/Makefile": MAKEFILE})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- R3: the shell's history turned on under a brace spelling ---------------------------------


#: Entries turning on ``history`` (and ``histexpand``) as ``hist{ory,}``: bash expands the
#: braces (``set -o history hist``: the second word is a positional parameter).
BRACED_HISTORY = {"bang-bang": "set -o hist{ory,}\nset -o hist{expand,}\ncd sub\n!!\nmake test",
                  "if-fc": "set -o hist{ory,}\ncd sub\nif fc -s c; then :; fi\nmake test"}


@pytest.mark.parametrize("case", list(BRACED_HISTORY))
def test_r3_history_turned_on_by_a_braced_word(tmp_path: Path, case: str) -> None:
    """``movedoubts`` refuses ``history``/``histexpand`` in the text, and ``fc``, ``set -H`` at
    a command's name; ``set -o hist{ory,}`` spells neither, ``!!`` is no word it marks, and
    ``fc`` after ``if`` is not at a command's name: ``cd sub`` runs again, make runs in
    ``sub/sub``. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/sub/Makefile`` is
    allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, BRACED_HISTORY[case], "sub/sub/Makefile",
                   {"sub/sub/Makefile": MAKEFILE})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- D1: bare pushd goes to the directory stack's second entry, which the entry sets --------


def test_d1_bare_pushd_goes_to_an_assigned_dirstack_entry(tmp_path: Path) -> None:
    """``pushd .`` puts the call's folder on the stack twice, ``DIRSTACK[1]=sub`` rewrites the
    second (bash(1): "Assigning to members of this array variable may be used to modify
    directories already in the stack"), and a bare ``pushd`` swaps the top two: ``cd sub``.
    The scanner reads a bare ``pushd`` as a bare ``cd`` (the home folder). Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, "pushd . >/dev/null; DIRSTACK[1]=sub; pushd >/dev/null; make test",
                   "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- N1: CDPATH and HOME set under another spelling ------------------------------------------


#: Each case: the entry (setting ``CDPATH`` or ``HOME`` without the word ``CDPATH``,
#: ``CDPATH=…`` or ``HOME``), and the makefile make then reads.
RENAMED = {"cdpath-nameref": ("declare -n p=CDPATH; p=sub; cd x && make test",
                              "sub/x/Makefile"),
           "cdpath-brace-name": ("export {CDPATH,y}=sub; cd x && make test", "sub/x/Makefile"),
           "cdpath-brace-split": ("export {CD,y}PATH=sub; cd x && make test",
                                  "sub/x/Makefile"),
           "home-brace-split": ("export H{OM,y}E=sub; cd && make test", "sub/Makefile"),
           "cdpath-printf-v": ("printf -vCDPATH sub; cd x && make test", "sub/x/Makefile")}


@pytest.mark.parametrize("case", list(RENAMED))
def test_n1_cdpath_or_home_set_under_another_spelling(tmp_path: Path, case: str) -> None:
    """``cd x`` searches ``CDPATH`` (``sub/x`` first), a bare ``cd`` goes to ``HOME``; the
    scanner refuses a ``CDPATH`` word, a ``CDPATH=`` assignment, and ``HOME`` with a bare cd,
    but a nameref (``declare -n p=CDPATH; p=sub``), ``printf -vCDPATH``, or a brace expansion
    (``{CD,y}PATH=sub``, ``H{OM,y}E=sub``: bash expands braces before ``export`` reads its
    words) sets them under another spelling. Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp
    src/mk <makefile>`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    entry, target = RENAMED[case]
    denied = _case(tmp_path, entry, target)
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- I1: an interpreter's inline code moves before it runs make ------------------------------


#: Entries whose perl code changes its folder (``chdir``), then runs make (a child, or itself
#: replaced): make runs in ``sub``.
INLINE = {"perl-system": "perl -e 'chdir \"sub\"; system \"make test\"'",
          "perl-exec": "perl -e 'chdir \"sub\"; exec \"make\", \"test\"'"}


@pytest.mark.parametrize("case", list(INLINE))
def test_i1_an_interpreters_code_moves_make(tmp_path: Path, case: str) -> None:
    """perl's ``chdir "sub"`` moves its process, and the ``make test`` it starts runs
    ``sub/Makefile``; the scanner reads the code's quoted ``make test`` as a command (``awk
    'BEGIN { system("cd sub; make test") }'`` is read: held) but no ``chdir`` as a move. Plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs
    the payload."""
    needs("bash", "perl", "make")
    denied = _case(tmp_path, INLINE[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- O1: a redirection between cd and its folder ---------------------------------------------


#: Entries with a redirection written against ``cd``/``pushd`` before the folder (bash takes
#: a redirection anywhere in a simple command: ``cd>/dev/null sub`` is ``cd sub``).
REDIRECTED = {"cd": "cd>/dev/null sub && make test",
              "pushd": "pushd>/dev/null sub && make test",
              "here-string": "cd<<<x sub && make test",
              "bash-c": "bash -c 'cd>/dev/null sub && make test'"}


@pytest.mark.parametrize("case", list(REDIRECTED))
def test_o1_a_redirection_before_cds_folder(tmp_path: Path, case: str) -> None:
    """The scanner takes the operator after ``cd`` as the end of its words, so
    ``cd>/dev/null sub`` is a bare ``cd`` (the home folder) to it, and the cross-check
    (``entry_words``) splits at blanks only, so ``cd>/dev/null`` is no ``cd`` to it (``cd
    >/dev/null sub`` with a blank is refused: held). Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, REDIRECTED[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- I2: perl's -x switch moves perl before its script runs -----------------------------------


#: Entries running a here-document's perl with ``-xsub``: perl skips to the ``#!perl`` line
#: and "will switch to that directory before running the script" (perlrun, ``-x``).
PERL_X = {"dash": "perl -xsub - <<'E'\n#!perl\nsystem \"make test\"\nE",
          "stdin": "perl -xsub <<'E'\n#!perl\nsystem \"make test\"\nE",
          "string-eval": "perl -e 'eval \"ch\".\"dir q{sub}\"; system \"make test\"'"}


@pytest.mark.parametrize("case", list(PERL_X))
def test_i2_perls_x_switch_moves_its_make(tmp_path: Path, case: str) -> None:
    """``perl -xsub`` changes perl's folder to ``sub``: the script's ``make test`` runs
    ``sub/Makefile``; so does ``eval "ch"."dir q{sub}"`` (a chdir spelled by a string eval).
    Neither the scanner (``-xsub`` is no move) nor ``movedoubts``' chdir (``chdir`` in the
    code: refused, held) reads them. Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "perl", "make")
    denied = _case(tmp_path, PERL_X[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"




# --- D2: DIRSTACK set under a brace spelling ------------------------------------------------


def test_d2_dirstack_set_under_a_brace_spelling(tmp_path: Path) -> None:
    """``movedoubts`` refuses a move back (a bare ``pushd``) where the text names ``DIRSTACK``
    or ``OLDPWD`` (D1: held); ``declare DIR{STACK,X}[1]=sub`` spells neither, and bash expands
    it to ``declare DIRSTACK[1]=sub DIRX[1]=sub``: the bare ``pushd`` then goes to ``sub``.
    (``export OLD{PWD,y}=…`` is denied by the call gate: held.) Plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, "pushd . >/dev/null; declare DIR{STACK,X}[1]=sub; pushd >/dev/null;"
                   " make test", "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


# --- D3: `cd -` after a failed cd goes to the session's OLDPWD --------------------------------


def test_d3_cd_back_after_a_failed_cd_goes_to_the_sessions_oldpwd(tmp_path: Path) -> None:
    """``movedoubts`` takes ``cd -`` after a move as a move back to a folder of the closure;
    when that move fails (``cd nosuch``), ``OLDPWD`` is still the session's (bash keeps an
    inherited one that names a folder): here ``sub``. Plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/mk sub/Makefile`` is allowed, the entry runs the payload."""
    needs("bash", "make")
    denied = _case(tmp_path, "cd nosuch 2>/dev/null; cd - >/dev/null; make test",
                   "sub/Makefile", extra={"OLDPWD": "{P}/sub"})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"




# --- Held: moves the scanner misses, but the call gate denies the entry (or the cp) -----------


#: Each case: the entry, the file the covered ``cp`` writes, the project's extra files and
#: links. Real bash runs the payload for each; the hook denies a call of each (kept green).
HELD = {"variable-C": ("x=-Csub; make $x test", "sub/Makefile", {}, {}),
        "substitution-C": ("make $(printf '%sC sub' -) test", "sub/Makefile", {}, {}),
        "xargs-C": ("printf '%sC sub' - | xargs make test", "sub/Makefile", {}, {}),
        "continued-cd": ("c\\\nd sub && make test", "sub/Makefile", {}, {}),
        "continued-after-cd": ("cd\\\n sub && make test", "sub/Makefile", {}, {}),
        "continued-C": ("make -\\\nC sub test", "sub/Makefile", {}, {}),
        "dot-sourced": (". ./go.sh; make test", "sub/Makefile", {"go.sh": "cd sub\n"}, {}),
        "source-name": ("source go.sh && make test", "sub/Makefile", {"go.sh": "cd sub\n"},
                        {}),
        "logical-dotdot": ("cd x/link/.. && make test", "x/Makefile", {},
                           {"x/link": "../sub/d"})}


@pytest.mark.parametrize("case", list(HELD))
def test_held_moves_the_scanner_misses_are_denied_by_the_call_gate(tmp_path: Path,
                                                                  case: str) -> None:
    """Moves ``folder_moves`` does not read (a ``-C`` from an expansion, a line continuation,
    a sourced file's ``cd``, a logical ``..`` across a link) where the call gate still denies
    the entry or the covered ``cp`` (its own reading: a ``$`` word, a continuation in a
    word, the sourced file, both forms of ``x/link/..``)."""
    needs("bash", "make", "xargs", "printf")
    entry, target, more, links = HELD[case]
    assert _case(tmp_path, entry, target, more, links) is not None
