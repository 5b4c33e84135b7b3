"""s58-mfix's pins (issue 29): make's command-line values and assignments read as make reads
them, proved with real bash 5.2 and GNU make 4.3 (recipes under dash) and asked of the printed
hook call by call (``test_s53_greview._session``); and the costs the change keeps allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bash_review import first_denied, home_env, hooked_project, needs
from test_s53_greview import _session
from test_s56_sreview import NODE_PAYLOAD, _case
from test_s57_greview import LIB
from test_s57_sreview import BUILDS, SIBLING

#: Real bash, make and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: A recursive loop over ``DIRS`` into ``$$d/lib`` (``../lib`` where ``DIRS`` holds ``..``).
_LOOP = "test:\n\tfor d in $(DIRS); do $(MAKE) -C $$d/lib test; done\n"

#: Each case: the plan's make call, its makefile's text, the copy (then the plan's make call).
HOLES: dict[str, tuple[str, str, str]] = {
    # `X+=v` (no blank): make appends; the gate read a variable `X+` (its `_ASSIGNMENT`).
    "an-append-without-blanks": ("make test", "DIRS := lib\nDIRS+=..\n" + _LOOP,
                                 "../pay/p ../lib/local.conf"),
    # A value assigned only in a conditional's branch make does not take: empty, not `lib`.
    "a-value-of-a-branch-not-taken": ("make test", "ifdef NOPE\nPRE := lib\nendif\ntest:\n"
                                      "\t$(MAKE) -C $(PRE)../lib test\n",
                                      "../pay/p ../lib/local.conf"),
    # `:=` expands its value where it is: `TOP` is not yet assigned (empty), not `x/`.
    "a-simple-value-before-its-reference": ("make test", "SUB := $(TOP)../lib\nTOP := x/\n"
                                            "test:\n\t$(MAKE) -C $(SUB) test\n",
                                            "../pay/p ../lib/local.conf"),
    # Two branches' values, each read (session 58): `..` among them.
    "one-of-two-branches-climbs": ("make test", "ifeq ($(X),)\nDIRS := ..\nelse\nDIRS := lib"
                                   "\nendif\n" + _LOOP, "../pay/p ../lib/local.conf"),
}


@pytest.mark.parametrize("case", HOLES)
def test_make_reads_its_values_as_make_does(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<its make call>)``, ``Bash(cp *)``: the copy, then the plan's make call
    runs the payload. The hook must deny a call."""
    needs("make", "bash")
    call, makefile, copy = HOLES[case]
    assert _session(tmp_path, [f"Bash({call})", "Bash(cp *)"], {"Makefile": makefile},
                    [f"cp {copy}", call], setup=LIB) is not None


#: Each case: the plan's make call, its makefile's text, the everyday calls.
COSTS: dict[str, tuple[str, str, list[str]]] = {
    # The plan's own value, plain: read as make's (make's folder bounds the loop).
    "a-plain-value-of-the-plans-make": ("make test DIRS=lib", "DIRS := a\n" + _LOOP,
                                        ["mkdir -p ../out", "cp src/a.c ../out/a.c"]),
}


@pytest.mark.parametrize("case", COSTS)
def test_an_everyday_call_beside_a_value_read(case: str, tmp_path: Path) -> None:
    """Each everyday call, harmless, under the plan's make call and ``cp``/``mkdir``, is
    allowed."""
    needs("make")
    call, makefile, calls = COSTS[case]
    project = hooked_project(tmp_path, [f"Bash({call})", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "Makefile").write_text(makefile)
    (project / "src").mkdir(exist_ok=True)
    (project / "src" / "a.c").write_text("int a;\n")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, calls, env) is None


# --- R18: code a package.json script runs that no word names as a file (testroots) ---------

#: Each case: the ``test`` script, the other files, more setup (after ``SIBLING``).
CODE: dict[str, tuple[str, dict[str, str], str]] = {
    "npx-runs-a-local-package": ("npx ./tools/pkg", {
        "tools/pkg/package.json": json.dumps({"name": "tpkg", "version": "1.0.0",
                                              "bin": {"tpkg": "cli.js"}}),
        "tools/pkg/cli.js": "#!/usr/bin/env node\n" + BUILDS}, " && chmod +x tools/pkg/cli.js"),
    "node-evaluates-a-text": ("node -e \"require('./tools/run.js')\"", {"tools/run.js": BUILDS},
                              ""),
    "node-test-preloads-a-name-of-no-ending": ("node --test -r ./tools/pre", {
        "tools/pre.js": "if (!process.env.X) {\n" + BUILDS.replace(
            "{stdio: 'inherit'}", "{stdio: 'inherit', env: {...process.env, X: '1'}}") + "}\n"},
        ""),
}


@pytest.mark.parametrize("case", CODE)
def test_a_scripts_code_no_word_names_as_a_file(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``: a copy into ``../other`` (where ``../ext``'s
    link leads node's test runner), then ``npm test``. The hook must deny a call."""
    needs("npm", "node")
    script, extra, setup = CODE[case]
    files = {"package.json": json.dumps({"name": "p", "scripts": {"test": script}}),
             "src/mk": NODE_PAYLOAD, **extra}
    assert _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                 ["cp src/mk ../other/x.js", "npm test"], setup=SIBLING + setup) is not None


def test_a_rules_target_expanded_before_its_variable(tmp_path: Path) -> None:
    """make expands a rule's target where the rule is: ``$(X)site.conf`` before ``X :=
    other/`` is ``site.conf``, remade from ``../pay/p`` (then read). The copy there, then
    ``make test``: the hook must deny a call (the gate read the target ``other/site.conf``)."""
    needs("make", "bash")
    makefile = ("-include site.conf\n$(X)site.conf: ../pay/p\n\tcp $< $@\nX := other/\n"
                "test:\n\t@echo ok\n")
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                    {"Makefile": makefile, "src/p": "$(shell touch zz)\n"},
                    ["cp src/p ../pay/p", "make test"],
                    setup="mkdir -p ../pay && echo 'A := 1' > ../pay/p") is not None
