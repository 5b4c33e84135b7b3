"""Session 53 (s53-gfix2): the files a test runner meets through a link (s52-greview2 R10's
class, ``gate/testlinks.py``), and the session's compiler variables (R6d). Each hole is proved
by real bash and the real runner (node 20, bun 1.4.5, pytest 9, GNU make and gcc) in a scratch
copy first (``bash_review.proved_case``), then the printed hook is asked call by call: a call
denied is the fix; each cost by the hook allowing the everyday call."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

from skillgrant.gate import testfiles, testlinks
from skillgrant.gate.nested import Guarded
from skillgrant.gate.placed import fold

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
PY_PAYLOAD = "import os\nos.system('touch zz')\n"
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
PYTEST = "/root/.pyenv/versions/3.11.7/bin/python3"


# --- R10's class: a file a runner meets through a link --------------------------------------


#: Each case: the plan's entry, the project's links (name: target, ``$T`` the folder beside
#: the project), its files, the calls (the last runs the runner). The runner follows each
#: link and runs (imports) the written file as a test: the proof runs it.
LINKED = {
    # node --test: a chain of links (test/a -> ../one, one/b -> ../two): two/x.js is
    # test/a/b/x.js
    "node-chain": ("node --test test/", {"test/a": "../one", "one/b": "../two"},
                   {"test/keep.js": "0\n", "one/keep": "", "two/keep": ""},
                   ["cp src/mk two/x.js", "node --test test/"]),
    # a folder outside the project, linked into the test folder
    "node-outside": ("node --test test/", {"test/ext": "../../ext"}, {"test/keep.js": "0\n"},
                     ["cp src/mk ../ext/x.js", "node --test test/"]),
    # a file link named as a test, to a script of any name
    "node-file-link": ("node --test", {"a.test.js": "lib/a.js"}, {"lib/a.js": "0\n"},
                       ["cp src/mk lib/a.js", "node --test"]),
    # the session makes the link (`ln -s` of an empty folder into test/), then fills it
    "held-node-session-link": ("node --test test/", {}, {"test/keep.js": "0\n", "shared/keep": ""},
                          ["ln -s ../shared test/shared", "cp src/mk shared/x.js",
                           "node --test test/"]),
    # bun test: a folder link to a folder outside, holding a test's name
    "held-bun-folder-link": ("bun test", {"lnk": "../ext"}, {"a.test.js": "0\n"},
                        ["cp src/mk ../ext/y.test.js", "bun test"]),
    # bun test: a file link named as a test, to a script of any name
    "bun-file-link": ("bun test", {"x.test.js": "pkg/b.js"}, {"pkg/b.js": "0\n"},
                      ["cp src/mk pkg/b.js", "bun test"]),
    # the session links a folder beside the project holding a test folder, after writing
    # there (s53-greview2 T1: `ln -s`'s target read from the link's folder)
    "node-link-made-after-the-write": ("node --test", {}, {"lib/keep": ""},
                                       ["cp src/mk ../ext/test/x.js", "ln -s ../../ext lib/pkg",
                                        "node --test"]),
    # pytest imports a test file link's target (any name)
    "pytest-file-link": (f"{PYTEST} -m pytest -q tests", {"tests/test_h.py": "../pkg/h.py"},
                         {"tests/test_a.py": "def test_a():\n    pass\n", "pkg/h.py": "0\n"},
                         ["cp src/py pkg/h.py", f"{PYTEST} -m pytest -q tests"]),
    # pytest collects a test below a folder link leading out of the project
    "held-pytest-folder-outside": (f"{PYTEST} -m pytest -q tests", {"tests/ext": "../../ext"},
                              {"tests/test_a.py": "def test_a():\n    pass\n"},
                              ["cp src/py ../ext/test_e.py", f"{PYTEST} -m pytest -q tests"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(LINKED))
def test_a_file_a_runner_meets_through_a_link(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(ln *)``: a call before the runner's
    writing what it runs through a link is denied."""
    needs("bash", "node", PYTEST)
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    entry, links, files, calls = LINKED[case]
    setup = 'mkdir -p "$T/ext/test" && touch "$T/ext/keep"\n'
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(ln *)"],
                         {**files, "src/mk": JS_PAYLOAD, "src/py": PY_PAYLOAD}, calls,
                         {"PATH": f"{BUN}:{os.environ['PATH']}"}, setup=setup, links=links)
    assert denied is not None, "the hook allows every call, and the runner runs the payload"


#: Each case: the plan's entry, the project's links, the everyday call the hook allows (data
#: in a linked folder, a script in a folder a link leads to under no test's path).
LINKED_KEPT = {
    "script-behind-a-plain-link": ("node --test test/", {"docs/img": "../assets"},
                                   "cp src/mk assets/x.js"),
    # (data-in-a-linked-test-folder, pytest-helper-behind-a-folder-link: denied since
    # s54-gfix2, as the same write by the link's path is: a cost pinned in test_s54_gfix2)
    # the session links a folder holding no test's name and no link (s53-greview2 T1's rule)
    "link-to-a-data-folder": ("node --test", {}, "ln -s ../assets lib/assets"),
    # a folder the runner walks already, and a link to nothing yet (read when it comes)
    "link-to-a-walked-folder": ("node --test", {}, "ln -s test lib/t2"),
    "link-to-nothing-yet": ("node --test", {}, "ln -s build/cc.json cc.json"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(LINKED_KEPT))
def test_a_write_no_runner_runs_through_a_link_is_allowed(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the call is allowed."""
    needs("bash")
    entry, links, call = LINKED_KEPT[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(ln *)"])
    for folder in ("test", "tests", "shared", "docs", "assets", "ext", "src", "lib"):
        (project / folder).mkdir(exist_ok=True)
    (project / "src" / "mk").write_text(JS_PAYLOAD)
    (project / "assets" / "d.json").write_text("{}")
    for name, target in links.items():
        os.symlink(target, project / name)
    env = home_env(tmp_path / "home")
    assert first_denied(project, [call], env) is None, "the hook denies the call"


def test_the_walk_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MAX_ENTRIES`` entries below the collecting folders, a question about a path
    raises ValueError, naming the bound (the call is denied)."""
    for k in range(5):
        (tmp_path / f"d{k}").mkdir()
    monkeypatch.setattr(testlinks, "MAX_ENTRIES", 3)
    monkeypatch.setattr(testlinks, "MAX_HOOK_ENTRIES", 3)  # (a hook's: s55-sfix walkcache)
    guards = Guarded((), always=(), tops=frozenset(),
                     collected=testfiles.test_folders([str(tmp_path)]))
    with pytest.raises(ValueError, match="more than 3 entries"):
        testfiles.collected(fold(str(tmp_path / "x.js")), guards)


def test_the_walk_is_bounded_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MAX_WALK_SECONDS`` the question raises ValueError (the call is denied), not left
    to the runtime's hook timeout, past which the call runs (a session in ``/``: s60-sreview,
    236 s); a hook's process refuses the same walk again at once."""
    for k in range(5):
        (tmp_path / f"d{k}").mkdir()
    monkeypatch.setattr(testlinks, "MAX_WALK_SECONDS", 0.0)
    monkeypatch.setattr(testlinks, "_SLOW", [])
    guards = Guarded((), always=(), tops=frozenset(),
                     collected=testfiles.test_folders([str(tmp_path)]))
    with pytest.raises(ValueError, match="took more than 0 seconds"):
        testfiles.collected(fold(str(tmp_path / "x.js")), guards)


def test_the_walk_reads_links_once_and_ends_at_loops(tmp_path: Path) -> None:
    """A link to a folder above it (``test/up -> ..``) and a link back (``a/b -> ../a``)
    end the walk (each folder walked once); the places a file is met at are the paths through
    each link, and none is the file's own path."""
    (tmp_path / "test").mkdir()
    (tmp_path / "a").mkdir()
    os.symlink("..", tmp_path / "test" / "up")
    os.symlink("../a", tmp_path / "a" / "b")
    guards = Guarded((), always=(), tops=frozenset(),
                     collected=testfiles.test_folders([str(tmp_path)]))
    key = fold(str(tmp_path / "a" / "x.js"))
    found = testlinks.places(key, guards)
    assert fold(str(tmp_path / "test" / "up" / "a" / "x.js")) in found
    assert key not in found and len(found) <= testlinks.MAX_PLACES
    assert testfiles.collected(key, guards)  # (test/up/a/x.js: below a test folder)


# --- R6d: the session's compiler variables, as make and gcc read them ------------------------


#: Each case: the session's variables, the Makefile, the file the payload goes to, its text.
#: make takes each from the environment; gcc reads ``@opts`` as its options (``-wrapper``
#: runs a program), ``-Bv/`` as where its assembler is (``v/as``; cp keeps ``src/x``
#: executable). The proof runs each.
COMPILE = "test: t.c\n\t$(CC) $(CFLAGS) $(CPPFLAGS) -c t.c -o t.o\n"
SESSION_FLAGS = {
    "cflags-response-file": ({"CFLAGS": "@opts"}, COMPILE, "opts",
                             "-wrapper sh,-c,touch\\ zz\n"),
    "cc-with-a-prefix": ({"CC": "gcc -Bv/"}, COMPILE, "v/as", "#!/bin/sh\ntouch zz\n"),
    "ldflags-prefix": ({"LDFLAGS": "-Bv/"}, "test: t.c\n\t$(CC) $(LDFLAGS) t.c -o t.o -c\n",
                       "v/as", "#!/bin/sh\ntouch zz\n"),
    # a variable of the project's own naming: an option's attached folder is read in any
    "own-variable-prefix": ({"MYFLAGS": "-Bv/"}, "test: t.c\n\t$(CC) $(MYFLAGS) -c t.c\n",
                            "v/as", "#!/bin/sh\ntouch zz\n"),
    "held-separate-prefix": ({"CFLAGS": "-B v/"}, COMPILE, "v/as", "#!/bin/sh\ntouch zz\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SESSION_FLAGS))
def test_the_sessions_compiler_variables(tmp_path: Path, case: str) -> None:
    """The session's variables; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/x <file>``
    is denied."""
    needs("bash", "make", "gcc")
    session, makefile, target, text = SESSION_FLAGS[case]
    calls = [f"cp src/x {target}", "make test"]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": makefile, "t.c": "int x;\n", "v/keep": "", "src/x": text},
                         calls, session, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make runs the payload"


@pytest.mark.slow
def test_a_sessions_prefix_naming_no_folder_is_refused(tmp_path: Path) -> None:
    """COST: the session's ``CFLAGS=-Bv`` (gcc runs ``vas``, ``vcc1``, … in the folder it runs
    in where there is no folder ``v``: measured) names no path to guard: every call is denied,
    saying how to fix it."""
    needs("bash", "make")
    project = hooked_project(tmp_path, ["Bash(make test)"])
    (project / "Makefile").write_text("test:\n\techo ok\n")
    env = {**home_env(tmp_path / "home"), "CFLAGS": "-Bv"}
    assert first_denied(project, ["make test"], env) == "make test"


def test_a_compiler_variables_words_are_paths() -> None:
    """``flag_words`` reads each word and each option's attached value as a path (``@opts``:
    ``opts``; ``-Iinc``: ``inc``), keeps ld's ``-Wl,-Bstatic``, and refuses a prefix of gcc's
    not ending in ``/`` (``-B``, ``--prefix`` and its abbreviations, ``-iprefix``,
    ``--include-prefix``, ``GCC_EXEC_PREFIX``); none for make's own variables;
    ``named_paths`` reads an option's attached folder and a response file in any variable."""
    from skillgrant.gate.envpaths import named_paths
    from skillgrant.gate.flagpaths import flag_words, toolchain

    found = flag_words("CFLAGS", "", ["-O2 @opts -Iinc -Wl,-Bstatic -Bv/ -B w/ --prefix=x/"])
    assert {"opts", "inc", "v/", "w/", "x/"} <= set(found) and "." not in found
    assert "v/" in named_paths("-Bv/") and "inc/x" in named_paths("-Iinc/x")
    assert "opts" in named_paths("@opts")
    assert flag_words("MAKEFLAGS", "-B", ["-B"]) == []
    assert "v/" in flag_words("GCC_EXEC_PREFIX", "v/", ["v/"])
    for value in ("-Bv", "-B v", "-O2 -Bprefix", "-B", "--prefix=pre", "--pref pre",
                  "-iprefix pre", "--include-prefix=pre"):
        with pytest.raises(ValueError, match="prefix"):
            flag_words("EXTRA_CFLAGS", value, [value])
    with pytest.raises(ValueError, match="prefix"):
        flag_words("GCC_EXEC_PREFIX", "pre", ["pre"])
    with pytest.raises(ValueError, match="make expands"):
        flag_words("CFLAGS", "-B$Dx/", ["-B/"])
    assert toolchain("HOSTCC") and toolchain("CC_FOR_BUILD") and toolchain("CFLAGS_MODULE")
    assert not toolchain("GOFLAGS") and not toolchain("RUSTFLAGS")
