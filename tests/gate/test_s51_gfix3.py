"""Session 51's fix (s51-gfix3) of the folders a plan entry's programs run in (issue 29;
review s50-greview2 I2, D3): an interpreter's own folder switches (perl's ``-xDIR``, bun's
``--cwd``), its code reaching ``chdir`` by a name it computes or starting a program in a
folder it names (``gate/codemoves.py``), the programs its code starts, and ``cd -`` to the
session's ``OLDPWD``. The real-bash cases prove the payload runs without the fix (``cp
src/mk <file>`` then the entry) and that the printed hook now denies a call of each."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import needs, proved_case

from skillgrant.gate.codemoves import code_doubt, code_runs
from skillgrant.gate.entryfolders import entry_folders
from skillgrant.gate.moves import folder_moves
from skillgrant.gate.planprograms import plan_programs

MAKEFILE = "test:\n\techo ok\n"
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
FILES = {"Makefile": MAKEFILE, "sub/Makefile": MAKEFILE, "src/mk": MAKE_PAYLOAD}


def _case(tmp_path: Path, entry: str, target: str,
          extra: dict[str, str] | None = None) -> str | None:
    """``bash_review.proved_case`` of plan ``Bash(<entry>)``, ``Bash(cp *)`` and the calls
    ``cp src/mk <target>``, ``entry``: the first call the printed hook denies, or None."""
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], FILES,
                       [f"cp src/mk {target}", entry], extra)


#: Entries whose interpreter runs ``make test`` in ``sub`` (or the call's folder: ``.``),
#: each proved by real bash; the file the covered ``cp`` writes.
MOVED = {
    "perl-clustered-x": ("perl -wxsub - <<'E'\n#!perl\nsystem \"make test\"\nE", "sub"),
    "perl-system": ("perl -e 'system \"make test\"'", "."),
    "python-cwd": ("python3 -c \"import subprocess; subprocess.run(['make', 'test'], "
                   "cwd='sub')\"", "sub"),
    "python-getattr": ("python3 -c 'import os; getattr(os, \"ch\" + \"dir\")(\"sub\"); "
                       "os.system(\"make test\")'", "sub"),
    "python-dict": ("python3 -c 'import os; os.__dict__[\"ch\" + \"dir\"](\"sub\"); "
                    "os.system(\"make test\")'", "sub"),
    "node-member": ("node -e 'process[\"ch\" + \"dir\"](\"sub\"); require(\"child_process\")"
                    ".execSync(\"make test\")'", "sub"),
    "node-cwd": ("node -e 'require(\"child_process\").execSync(\"make test\", {cwd: \"sub\"})'",
                 "sub"),
    "perl-glob": ("perl -e '&{\"CORE::GLOBAL::ch\".\"dir\"} if 0; my $f = \"ch\".\"dir\"; "
                  "eval \"$f q{sub}\"; system \"make test\"'", "sub"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(MOVED))
def test_an_interpreters_moved_program_is_guarded_or_refused(tmp_path: Path,
                                                             case: str) -> None:
    entry, folder = MOVED[case]
    needs("bash", "make", entry.split()[0])
    denied = _case(tmp_path, entry, f"{folder}/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


#: ``cd -`` (or ``~-``) after a move that failed: bash's inherited ``OLDPWD`` (``sub``).
OLDPWD_BACK = {"tilde": "cd nosuch 2>/dev/null; cd ~- >/dev/null; make test",
               "or": "true || cd sub && cd - >/dev/null; make test",
               "subshell": "(cd sub) && cd - >/dev/null; make test"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(OLDPWD_BACK))
def test_cd_back_to_the_sessions_oldpwd_is_refused(tmp_path: Path, case: str) -> None:
    needs("bash", "make")
    denied = _case(tmp_path, OLDPWD_BACK[case], "sub/Makefile", extra={"OLDPWD": "{P}/sub"})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


@pytest.mark.parametrize(("entry", "moves"), [
    ("perl -xsub script.pl", ("sub",)), ("perl -wxsub", ("sub",)), ("perl -x script", ()),
    ("bun --cwd sub run test", ("sub",)), ("bun --cwd=sub test", ("sub",)),
    ("yarn --cwd sub build", ("sub",)), ("cd sub && make && cd - && make", ("sub",)),
    ("cd sub && cd ~- && make", ("sub",)), ("cd sub; make; cd - >/dev/null", ("sub",))])
def test_an_interpreters_folder_switch_is_a_move(entry: str, moves: tuple[str, ...]) -> None:
    """perlrun: ``-x`` "will switch to that directory before running the script"; bun's
    ``--cwd`` "changes the process' cwd" (its ``--help``); ``cd -`` run only after a ``cd``
    succeeded (by ``&&``), or last, goes to a folder of the closure."""
    assert folder_moves(entry) == moves


@pytest.mark.parametrize("entry", [
    "cd nosuch; cd -; make", "x || cd sub && cd -; make", "(cd sub) && cd -; make",
    "! cd sub && cd -; make", "cd sub | cat && cd -; make", "{ cd sub; } && cd -; make",
    "trap make EXIT; cd nosuch; cd -", "eval 'cd nosuch; cd -'; make"])
def test_a_move_to_oldpwd_that_may_follow_a_failed_cd_is_refused(entry: str) -> None:
    assert "OLDPWD" in str(folder_moves(entry))


@pytest.mark.parametrize("entry", [
    "perl -e 'eval q{chdir} . q{ sub}; system q{make}'",
    "python3 -c 'import os; vars(os)[\"ch\"+\"dir\"](\"sub\")'",
    "python3 -c 'import importlib; importlib.import_module(\"os\")'",
    "node -e 'const f = process[k]; f(\"sub\")'", "node -e 'new Function(s)()'",
    "ruby -e 'Dir.send(:ch\"dir\", \"sub\")'", "perl -e '$f->(q{sub})'",
    "php -r 'proc_open(\"make\", [], $p, \"sub\");'", "perl -e 's/x/$c/ee'"])
def test_an_interpreters_dynamic_code_refuses_the_plan(entry: str) -> None:
    assert code_doubt(entry) is not None
    with pytest.raises(ValueError, match="interpreter's code"):
        entry_folders(f"Bash({entry})")


@pytest.mark.parametrize("entry", [
    "node -e \"console.log(require('./package.json').version)\"",
    "python3 -c \"import json,sys; print(json.load(sys.stdin)['version'])\"",
    "perl -pi -e 's/a/b/g' x.txt", "python3 -m pytest -q", "make test && git apply x.patch",
    "python3 -c 'import sys; print(sys.argv[1])' x", "pnpm --dir sub test"])
def test_an_interpreters_plain_code_is_no_doubt(entry: str) -> None:
    """The costs kept low: a literal ``require``, a literal subscript, a static import."""
    assert code_doubt(entry) is None
    assert isinstance(plan_programs((f"Bash({entry})",)), tuple)


@pytest.mark.parametrize("entry", [
    "perl -e 'system \"make test\"'", "perl -e 'system \"c\".\"d sub && make test\"'",
    "node -e 'require(\"child_process\").execSync(\"c\" + \"d sub && make\")'",
    "python3 -c 'import subprocess; subprocess.run(\"make\")'", "pwsh -c 'make'",
    "perl -e 'chdir+\"sub\"; do \"./x.pl\"'", "perl -e 'chdir#\n\"sub\"; require q{./x.pl}'"])
def test_an_interpreters_code_starting_a_program_or_spelling_chdir_refuses_the_plan(
        entry: str) -> None:
    """The program and the folder it starts in are not read (s51-greview3 B1, B3: a string
    the code builds may hold ``cd``; B2: ``chdir`` spelled past ``movedoubts``' call)."""
    assert code_runs(entry) is not None or "chdir" in entry
    with pytest.raises(ValueError, match="interpreter's code"):
        entry_folders(f"Bash({entry})")
    assert code_runs("python3 -c 'print(1)'") is None and code_runs("make test") is None


#: The costs reduced (each was a refused plan): a ``cd`` in a subshell a loop opens (not made
#: again from where it went: the subshell ends each time), and a ``cd`` run only after
#: another succeeded by ``&&`` (read from that one's folders alone). Each case: the entry and
#: a folder make runs in, where the hook must still deny the covered ``cp``.
REDUCED = {
    "loop-subshell": ("for t in 1 2; do (cd sub && make test); done", "sub"),
    "chained": ("cd sub && make test && cd ../x && make test", "x"),
    "chained-five": ("cd a && make test && cd ../b && make test && cd ../c && make test && "
                     "cd ../d && make test && cd ../x && make test", "x"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(REDUCED))
def test_a_reduced_closure_still_holds_where_make_runs(tmp_path: Path, case: str) -> None:
    entry, folder = REDUCED[case]
    needs("bash", "make")
    more = {f"{d}/Makefile": MAKEFILE for d in ("a", "b", "c", "d", "x")}
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**FILES, **more},
                         [f"cp src/mk {folder}/Makefile", entry])
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


@pytest.mark.parametrize(("entry", "folders"), [
    ("for t in 1 2; do (cd sub && make $t); done", ("", "sub")),
    ("cd a && make && cd ../b && make && cd ../c && make && cd ../d && make && cd ../e",
     ("", "a", "a/../b", "a/../b/../c", "a/../b/../c/../d", "a/../b/../c/../d/../e")),
    ("cd a; cd ../b", ("", "a", "../b", "a/../b")),  # (`;`: cd a may have failed)
    ("x | cd a && cd ../b", ("", "a", "../b", "a/../b")),  # (a pipe's cd moves a subshell)
    ("cd a && eval x && cd ../b", ("", "a", "../b", "a/../b")),
    ("cd a && make -C x && cd ../b",
     ("", "a", "x", "a/x", "../b", "a/../b", "x/../b", "a/x/../b")),
])
def test_a_cd_after_a_cd_by_and_is_read_from_its_folders(entry: str,
                                                          folders: tuple[str, ...]) -> None:
    assert entry_folders(f"Bash({entry})") == folders


@pytest.mark.parametrize("entry", [
    "for t in 1 2; do cd sub && make; done", "for t in 1 2; do (cd sub) && cd x; make; done",
    "cd a && env -S-C../b make"])
def test_a_repeated_or_unread_move_is_still_refused(entry: str) -> None:
    with pytest.raises(ValueError, match="entry"):
        entry_folders(f"Bash({entry})")


#: s51-greview3 B1 (a shell command text built by sed's ``e`` or awk's ``system``) and B4
#: (bash's autocd, set by ``-O``): each runs ``make test`` in ``sub`` under real bash.
BUILT = {"sed-e-flag": "echo 'Xd sub && make test' | sed s/X/c/e",
         "awk-concat": "awk 'BEGIN{system(\"c\" \"d sub; make test\")}'",
         "autocd": "bash -i -O autocd -c 'sub\nmake test' 2>/dev/null"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BUILT))
def test_a_built_or_autocd_move_refuses_the_plan(tmp_path: Path, case: str) -> None:
    needs("bash", "make", "sed", "awk")
    denied = _case(tmp_path, BUILT[case], "sub/Makefile")
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


@pytest.mark.parametrize("entry", [*BUILT.values(), "sed '1e date' x", "shopt -s auto{cd,x}; sub",
                                   "shopt -s $O; sub; make"])
def test_a_built_or_autocd_move_is_named(entry: str) -> None:
    with pytest.raises(ValueError, match="entry"):
        entry_folders(f"Bash({entry})")


@pytest.mark.parametrize("entry", ["sed -i 's/a/b/g' x", "awk '{print $1}' x | sort",
                                   "sed -n '/^e/p' x", "git commit -m auto"])
def test_a_plain_sed_or_awk_is_no_doubt(entry: str) -> None:
    assert isinstance(entry_folders(f"Bash({entry})"), tuple)


#: s51-greview3 E1 (a quoted ``(`` read as a subshell's start: the loop's ``cd`` made once)
#: and E2 (``cd -P ..`` after a ``cd`` into a link: the link target's parent), each proved by
#: real bash: make runs the makefile the ``cp`` writes.
LINKED = {
    "quoted-paren": ('for d in a b; do echo "(" >/dev/null; cd sub; done; make test',
                     "sub/sub/Makefile", {"sub/sub/Makefile": MAKEFILE}, None),
    "physical-dotdot": ("cd x/link && cd -P .. && make test", "sub/Makefile",
                        {"sub/d/Makefile": MAKEFILE, "x/.keep": ""}, {"x/link": "../sub/d"}),
    "make-C-dotdot": ("cd x/link && make -C .. test", "sub/Makefile",
                      {"sub/d/Makefile": MAKEFILE, "x/.keep": ""}, {"x/link": "../sub/d"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(LINKED))
def test_a_quoted_paren_or_a_physical_dotdot_is_not_misread(tmp_path: Path, case: str) -> None:
    entry, target, more, links = LINKED[case]
    needs("bash", "make")
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**FILES, **more},
                         [f"cp src/mk {target}", entry], links=links)
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


@pytest.mark.parametrize(("entry", "moves"), [
    ("cd a && cd ..", ("a", "\0&..")), ("cd sub/..", ("sub/..",)), ("make -C ..", ("..",)),
    ("cd sub && make test; cd ..", ("sub", ".."))])
def test_a_logical_or_first_dotdot_is_read(entry: str, moves: tuple[str, ...]) -> None:
    assert folder_moves(entry) == moves


@pytest.mark.parametrize("entry", ["cd x/link && cd -P .. && make", "set -P; cd a && cd ..",
                                   "cd sub && make -C .. test", "make -C sub/../x"])
def test_a_physical_dotdot_past_a_folder_is_refused(entry: str) -> None:
    assert "physical" in str(folder_moves(entry))


#: s51-greview3 D3b and E3: ``pushd -n`` adds to the stack and moves nothing (bash 5.2), so a
#: ``cd -`` after it goes to the session's ``OLDPWD`` and a ``cd`` after it runs from the
#: call's folder; each runs ``sub/Makefile`` under real bash.
PUSHD_N = {"back": "pushd -n x && cd - && make test",
           "first": "pushd -n d && cd sub && make test",
           "after-cd": "cd x && pushd -n d && cd ../sub && make test"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PUSHD_N))
def test_a_pushd_n_is_no_move_of_the_shell(tmp_path: Path, case: str) -> None:
    needs("bash", "make")
    denied = proved_case(tmp_path, [f"Bash({PUSHD_N[case]})", "Bash(cp *)"],
                         {**FILES, "x/Makefile": MAKEFILE}, ["cp src/mk sub/Makefile",
                                                             PUSHD_N[case]],
                         {"OLDPWD": "{P}/sub"})
    assert denied is not None, "the hook allows the makefile of the folder make runs in"


@pytest.mark.parametrize(("entry", "moves"), [
    ("pushd -n d && cd sub", ("d", "sub")), ("pushd x && cd - && make", ("x",)),
    ("pushd x && cd ../y", ("x", "\0&../y"))])
def test_a_pushd_n_chains_nothing(entry: str, moves: tuple[str, ...]) -> None:
    assert folder_moves(entry) == moves
    assert "OLDPWD" in str(folder_moves("pushd -n x && cd - && make"))
