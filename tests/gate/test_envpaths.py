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
    ("-javaagent:./a.jar -Xmx1g", ["./a.jar"]),  # JAVA_TOOL_OPTIONS
    ("-javaagent:agent.jar", ["agent.jar"]),  # relative, no slash: a file's name
    ("-I/opt/inc -I~/inc -I../inc", ["-I/opt/inc", "/opt/inc", "-I~/inc", "~/inc",
                                     "-I../inc", "../inc"]),
    ("/a/b:/c/d", ["/a/b", "/c/d"]),  # a list
    ("common.mk .pythonrc", ["common.mk", ".pythonrc"]),
    ("en_US.UTF-8", []), ("1.5", []), ("v1.2.3", []), ("true", []), ("", []),
]


@pytest.mark.parametrize(("value", "paths"), NAMED)
def test_the_words_a_value_names_as_files(value: str, paths: list[str]) -> None:
    assert envpaths.named_paths(value) == paths


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
