"""The paths a session variable names (gate/envpaths.py, review s47 E2–E5): the words of a
value a program may read as a file, and the folders never guarded whole. The reviews' cases
under real bash and real programs are in tests/gate/test_s47_greview.py (E2–E5)."""

from __future__ import annotations

import pytest

from skillgrant.gate import envpaths

#: (a variable's value, the paths it names), as the programs that read each read it.
NAMED = [
    ("--require ./tools/pre.js", ["./tools/pre.js"]),  # node's NODE_OPTIONS
    ("-r./tools/pre.js", ["-r./tools/pre.js", "./tools/pre.js"]),  # an attached value
    ("--import=./t/p.mjs", ["./t/p.mjs"]),
    ('--require "./pre/p.js"', ["./pre/p.js"]),  # node reads the quotes (review s47-greview2)
    ("-javaagent:./a.jar -Xmx1g", ["./a.jar"]),  # JAVA_TOOL_OPTIONS
    ("-javaagent:agent.jar", ["agent.jar"]),  # relative, no slash
    ("-I/opt/inc -I~/inc -I../inc", ["-I/opt/inc", "/opt/inc", "-I~/inc", "~/inc",
                                     "-I../inc", "../inc"]),
    ("/a/b:/c/d", ["/a/b", "/c/d"]),  # a list
    ("common.mk .pythonrc", ["common.mk", ".pythonrc"]),
    ("ssh -F ssh.cfg", ["ssh.cfg"]),  # a command a program runs through a shell
    ("sh $PWD/hook ${PWD}/h2 $UNSET_S47/x", ["./hook", "./h2", "/x"]),
    # bare words are no file names (the rule's residual: `MAKEFILES=common`)
    ("test", []), ("en_US.UTF-8", []), ("1.5", []), ("v1.2.3", []), ("1 -v", []), ("", []),
]


@pytest.mark.parametrize(("value", "paths"), NAMED)
def test_the_words_a_value_names_as_files(value: str, paths: list[str]) -> None:
    """Each path named, and nothing for bare words (a node preload's path also names what
    node's require adds to it: s49-gfix2, s49-greview E2)."""
    found = envpaths.named_paths(value)
    assert set(paths) <= set(found) and (found == [] if not paths else True)
    ends = (".js", ".json", ".node", ".cjs", ".mjs")  # (and a folder's index files: R12)
    assert set(found) - set(paths) <= {p + e for p in paths for e in (
        *ends, "/", *(f"/index{e}" for e in ends))}


def test_the_folders_a_call_runs_in_and_above_are_not_guarded_whole(
        monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """A variable naming the project, its parent or the home guards none of them whole (each
    is guarded by what it holds); one naming a folder below the project is guarded, from the
    project and the call's folder when relative; ``OTHERWISE``'s variables are read by other
    rules."""
    monkeypatch.setattr("os.environ", {
        "A": "/p:/:/p/sub/tool.sh", "B": "/home/u", "C": "./x.js", "PATH": "/p/bin",
        "PYTHONPATH": "/p/src", "TMPDIR": "/tmp/t", "HOME": "/home/u"})
    found = dict(envpaths.session_paths(["/p", "/p/call"], ["/p/call", "/p", "/"]))
    assert set(found) == {"/p/sub/tool.sh", "/p/x.js", "/p/call/x.js"}
