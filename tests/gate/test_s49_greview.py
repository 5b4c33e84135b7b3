"""Review s49 (s49-greview) of the call gate, session 48's new code first (envpaths' reading of
a session value, startpaths' plugins and ``.npmrc`` values, the here-string reading, the new
hook form): sequences of calls the printed hook allows under a narrow plan, after which real
bash (or the real program) runs a payload (``touch zz``). Each case proves the hole with real
bash in a scratch copy first (a scratch home), then asks the printed hook for each call in
turn, running the allowed ones; the hook allowing them all is the finding: these tests fail
while the hole is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          extra: dict[str, str] | None = None, setup: str = "",
          in_place: bool = False) -> str | None:
    """``bash_review.proved_case``."""
    return proved_case(tmp_path, entries, files, calls, extra, setup, in_place)


# --- E: a session value whose shell reading differs from envpaths' ---------------------------


#: An ssh remote: git runs ``GIT_SSH_COMMAND`` through ``sh -c`` (dash here) for a fetch.
SSH_REMOTE = "git remote add origin ssh://h.invalid/r"

#: (the session's ``GIT_SSH_COMMAND``, its other variables, the file the shell runs): values
#: naming ``tools/…`` through a form ``envpaths._expanded`` reads as a guess rather than as the
#: shell reads it. ``${NAME:-WORD}`` (and ``:+``, ``:=``) is read as "VALUE WORD", a space
#: between them, so a path the expansion sits inside of is cut in two (``tools/ssh-`` and
#: ``dev.sh``, neither the file); a glob is read literally. (Quotes and backslashes inside a
#: word: s48-greview2 E1's row; here the quoted cases are denied.)
SPLIT = {
    "control-plain": ("sh tools/ssh.sh", {}, "tools/ssh.sh"),
    "default-inside-a-word": ("sh tools/ssh-${MODE:-dev}.sh", {}, "tools/ssh-dev.sh"),
    "default-set-inside-a-word": ("sh tools/${WRAP:-ssh}.sh", {"WRAP": "my"},
                                  "tools/my.sh"),
    "alternative-inside-a-word": ("sh tools/ssh${CI:+-ci}.sh", {"CI": "1"}, "tools/ssh-ci.sh"),
    "quotes-inside-a-word": ('sh tools/"ssh".sh', {}, "tools/ssh.sh"),
    "quoted-space": ("sh 'tools/my ssh.sh'", {}, "tools/my ssh.sh"),
    "glob": ("sh tools/ss?.sh", {}, "tools/ssh.sh"),
}


@pytest.mark.parametrize("case", list(SPLIT))
def test_e1_a_session_value_the_shell_reads_otherwise(tmp_path: Path, case: str) -> None:
    """Session env ``GIT_SSH_COMMAND`` (see ``SPLIT``), an ssh remote, plan ``Bash(git
    fetch)``, ``Bash(cp *)``: ``cp src/x.sh <the file>`` is allowed (envpaths guards other
    paths) and ``git fetch`` runs it through the shell git starts."""
    value, more, target = SPLIT[case]
    needs("git")
    denied = _case(tmp_path, ["Bash(git fetch)", "Bash(cp *)"], {"tools/.keep": ""},
                   [f"cp src/x.sh '{target}'", "git fetch"],
                   {"GIT_SSH_COMMAND": value, **more}, SSH_REMOTE)
    assert denied is not None, "the hook allows a write to the program the value runs"




# --- P: the plugins a checker's settings name, in places startpaths does not read ------------


#: Python code running the payload (an ``init-hook`` execs it, a checker imports it).
PY_PAYLOAD = "import os\nos.system('touch zz')\n"
#: pylint's code setting ``init-hook`` runs: the file ``tools/h.py`` a covered copy writes.
INIT_HOOK = 'init-hook=exec(open("tools/h.py").read())\n'
#: A flake8 plugin class (its ``extension`` entry ``XYZ = fplug:P``).
FLAKE8_PLUGIN = ("class P:\n    name = 'x'\n    version = '1'\n\n    def __init__(self, tree):\n"
                 "        pass\n\n    def run(self):\n        return iter(())\n")

#: A mypy plugin module, a coverage plugin module (their entry points).
MYPY_PLUGIN = "from mypy.plugin import Plugin\n\n\ndef plugin(version):\n    return Plugin\n"
COVERAGE_PLUGIN = "def coverage_init(reg, options):\n    pass\n"


def _tools(tmp_path: Path) -> dict[str, str]:
    """``PATH`` with the review tools' folder first (``SKILLGRANT_REVIEW_TOOLS``: pylint,
    flake8, coverage; s48-gfix's /tmp/s48g/tvbin), this interpreter's folder last (mypy)."""
    import os
    import sys

    tools = os.environ.get("SKILLGRANT_REVIEW_TOOLS", "/tmp/s48g/tvbin")
    own = tmp_path / "bin"  # (mypy: this interpreter's module, the folder off sys.path: -P)
    own.mkdir(exist_ok=True)
    (own / "mypy").write_text(f'#!/bin/sh\nexec "{sys.executable}" -P -m mypy "$@"\n')
    (own / "mypy").chmod(0o755)
    return {"PATH": f"{tools}:{own}:{os.environ['PATH']}"}


#: (the checker, the plan's entry, the settings files, the file the copy writes, the
#: environment's additions): settings naming code the checker runs where startpaths reads no
#: plugin setting. pylint reads every section of a ``pylintrc`` (``[BASIC]``: options are
#: flat), every ``[pylint.*]`` section of ``setup.cfg``/``tox.ini`` and every
#: ``[tool.pylint.*]`` table of ``pyproject.toml``; startpaths reads ``main``/``master``
#: only. flake8's ``paths = tools`` (no slash: a folder all the same) is read as a module's
#: name (``tools.py``), not the folder its plugin module is imported from.
CHECKER_PLACES = {
    "control-pylintrc-main": ("pylint", "Bash(pylint src)", {".pylintrc": "[MAIN]\n" + INIT_HOOK},
                              "tools/h.py", {}),
    "pylintrc-basic": ("pylint", "Bash(pylint src)", {".pylintrc": "[BASIC]\n" + INIT_HOOK},
                       "tools/h.py", {}),
    "pylint-setup-cfg": ("pylint", "Bash(pylint src)",
                         {"setup.cfg": "[pylint.basic]\n" + INIT_HOOK}, "tools/h.py", {}),
    "pylint-tox-ini": ("pylint", "Bash(pylint src)",
                       {"tox.ini": "[pylint.messages control]\n" + INIT_HOOK}, "tools/h.py", {}),
    "pylint-pyproject": ("pylint", "Bash(pylint src)",
                         {"pyproject.toml": "[tool.pylint.basic]\ninit-hook = '"
                          'exec(open("tools/h.py").read())' "'\n"}, "tools/h.py", {}),
    "flake8-paths-word": ("flake8", "Bash(flake8 src)",
                          {"setup.cfg": "[flake8:local-plugins]\nextension =\n    XYZ = fplug:P"
                           "\npaths = tools\n", "tools/fplug.py": FLAKE8_PLUGIN},
                          "tools/fplug.py", {}),
    # a settings file named elsewhere than by its usual name: the session's PYLINTRC /
    # COVERAGE_RCFILE (envpaths guards the file, no one reads the code it names), the plan's
    # own `--rcfile`, `--config-file`, `--config` (planprograms guards the file only)
    "pylintrc-variable": ("pylint", "Bash(pylint src)", {"ci/pylintrc": "[MAIN]\n" + INIT_HOOK},
                          "tools/h.py", {"PYLINTRC": "ci/pylintrc"}),
    "pylint-rcfile-option": ("pylint", "Bash(pylint --rcfile=ci/pylintrc src)",
                             {"ci/pylintrc": "[MAIN]\n" + INIT_HOOK}, "tools/h.py", {}),
    "mypy-config-file-option": ("mypy", "Bash(mypy --config-file ci/mypy.ini src)",
                                {"ci/mypy.ini": "[mypy]\nplugins = p.py\n", "ci/p.py": MYPY_PLUGIN},
                                "ci/p.py", {}),
    "flake8-config-option": ("flake8", "Bash(flake8 --config ci/flake8.cfg src)",
                             {"ci/flake8.cfg": "[flake8]\n[flake8:local-plugins]\nextension =\n"
                              "    XYZ = fplug:P\npaths = ./tools\n",
                              "ci/tools/fplug.py": FLAKE8_PLUGIN}, "ci/tools/fplug.py", {}),
    "coverage-rcfile-variable": ("coverage", "Bash(coverage report)",
                                 {"ci/coveragerc": "[run]\nplugins = cplug\n",
                                  "cplug.py": COVERAGE_PLUGIN}, "cplug.py",
                                 {"COVERAGE_RCFILE": "ci/coveragerc"}),
}


@pytest.mark.parametrize("case", list(CHECKER_PLACES))
def test_p1_a_checkers_setting_startpaths_does_not_read(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<checker> src)``, ``Bash(cp *)``, the project's settings (see
    ``CHECKER_PLACES``; guarded, not written here): ``cp e/p.py <file>`` is allowed and the
    plan's checker runs it (real pylint 4 / flake8 7)."""
    checker, entry, files, target, more = CHECKER_PLACES[case]
    extra = {**_tools(tmp_path), **more}
    import shutil

    if checker == "mypy":
        pytest.importorskip("mypy")
    if shutil.which(checker, path=extra["PATH"]) is None:
        pytest.skip(f"not installed: {checker} (SKILLGRANT_REVIEW_TOOLS)")
    code = PY_PAYLOAD + {"flake8": FLAKE8_PLUGIN, "mypy": MYPY_PLUGIN,
                         "coverage": COVERAGE_PLUGIN}.get(checker, "")
    denied = _case(tmp_path, [entry, "Bash(cp *)"],
                   {**files, "src/a.py": "x = 1\n", "tools/.keep": "", "e/p.py": code},
                   [f"cp e/p.py {target}", entry[5:-1]], extra)
    assert denied is not None, "the hook allows a write to the code the checker's settings name"




# --- N: the files a node runner's settings name, read from a folder npm does not start in ----


#: A node script writing the payload (``zz`` in its folder).
JS_PAYLOAD = "require('fs').writeFileSync('zz', '')\n"
#: The same as an ES module.
ESM_PAYLOAD = "import fs from 'fs';\nfs.writeFileSync('zz', '');\n"
#: A package whose ``test`` script runs node.
PACKAGE = '{"name": "a", "version": "1.0.0", "scripts": {"test": "node t.js"}}\n'
#: ``node-options`` in an ``.npmrc``: npm hands it to each script's node as NODE_OPTIONS, node
#: reads ``./pre.js`` from the script's folder (the package's).
PRELOAD = "node-options=--require ./pre.js\n"

#: (the plan's entry, the files, the file the copy writes): [prefix] ``npm --prefix sub``
#: reads ``sub/.npmrc`` as the project's settings (startpaths reads the call's folders' and
#: the home's only) and runs the script in ``sub``; [workspace] the root's ``.npmrc`` is
#: read, but ``./pre.js`` is read from each of the call's folders, while node runs the
#: workspace's script in ``packages/a``; [userconfig] the root's ``.npmrc`` names another
#: settings file (``userconfig``), guarded whole, whose own values no one reads;
#: [inline-comment-url] npm's ini reader ends a value at `;`/`#`, startpaths skips the whole
#: line where it holds ``://`` (a URL: no path), here only in the comment.
NPMRC_PLACES = {
    "control-root": ("npm test", {"package.json": PACKAGE, "t.js": "\n", ".npmrc": PRELOAD},
                     "pre.js"),
    "prefix": ("npm --prefix sub test", {"sub/package.json": PACKAGE, "sub/t.js": "\n",
                                         "sub/.npmrc": PRELOAD}, "sub/pre.js"),
    "workspace": ("npm test -w packages/a",
                  {"package.json": '{"name": "r", "workspaces": ["packages/a"]}\n',
                   "packages/a/package.json": PACKAGE, "packages/a/t.js": "\n",
                   ".npmrc": PRELOAD}, "packages/a/pre.js"),
    "inline-comment-url": ("npm test", {"package.json": PACKAGE, "t.js": "\n", ".npmrc":
                                        "node-options=--require ./pre.js ; see "
                                        "https://example.com/docs\n"}, "pre.js"),
    "userconfig": ("npm test", {"package.json": PACKAGE, "t.js": "\n",
                                ".npmrc": "userconfig=ci/npmrc\n", "ci/npmrc": PRELOAD},
                   "pre.js"),
}


@pytest.mark.parametrize("case", list(NPMRC_PLACES))
def test_n1_an_npmrc_value_read_from_another_folder(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, the project's own ``.npmrc`` files (not
    written here; see ``NPMRC_PLACES``): ``cp src/p.js <file>`` is allowed and the plan's
    npm script preloads it (real npm)."""
    entry, files, target = NPMRC_PLACES[case]
    needs("npm", "node")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**files, "src/p.js": JS_PAYLOAD},
                   [f"cp src/p.js {target}", entry])
    assert denied is not None, "the hook allows a write to the module npm's settings preload"


# --- H: the session's home spelled otherwise than its real path --------------------------------


#: A git setting running the payload at a fetch over ssh.
SSH_PAYLOAD = "[core]\n\tsshCommand = touch zz;\n"
#: How the session's ``HOME`` names the same folder (the scratch home; ``{home}``: its path).
HOMES = {
    "control-plain": "{home}",
    "two-slashes": "/{home}",
    "dot-folder": "{home_dot}",
    "trailing-slash": "{home}/",
    "inner-two-slashes": "{home_dd}",
    "dot-dot": "{home}/../home",
}


@pytest.mark.parametrize("named", ["as-spelled", "real"])
@pytest.mark.parametrize("case", list(HOMES))
def test_h1_a_home_spelled_otherwise(tmp_path: Path, case: str, named: str) -> None:
    """Session ``HOME`` spelled as ``HOMES`` says (the same folder), plan ``Bash(git fetch)``,
    ``Bash(cp *)``, an ssh remote: ``cp src/gc <home>/.gitconfig`` (``core.sshCommand``; the
    home named as ``HOME`` spells it, or by its real path: ``~`` would be an expansion, which
    the gate refuses in a writer's words) then ``git fetch`` runs the payload."""
    needs("git")
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(git fetch)", "Bash(cp *)"])
        (project / "src" / "gc").write_text(SSH_PAYLOAD)
        env = home_env(tmp_path / side / "home")
        home = env["HOME"]
        env["HOME"] = HOMES[case].format(home=home, home_dot=home.replace("/tmp/", "/tmp/./", 1),
                                         home_dd=home.replace("/tmp/", "/tmp//", 1))
        subprocess.run(["bash", "-c", f"git init -q && {SSH_REMOTE}"], cwd=project, check=True,
                       timeout=60, env=env, capture_output=True)
        target = (env["HOME"] if named == "as-spelled" else home).rstrip("/") + "/.gitconfig"
        calls = [f"cp src/gc {target}", "git fetch"]
        if side == "proof":
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a write to the home's git settings"


# --- S: the file a plan's script entry runs, named otherwise than by its word ------------------


#: (the plan's entry, the files, the file the copy writes): what node runs for the entry's
#: words beyond the word itself.
SCRIPT_WORDS = {
    "control-node-script": ("node app.js", {"app.js": "\n"}, "app.js"),
    "node-dot-main": ("node .", {"package.json": '{"name": "a", "main": "server.js"}\n'},
                      "server.js"),
    "node-folder-main": ("node tools", {"tools/package.json": '{"main": "run.js"}\n'},
                         "tools/run.js"),
    "node-folder-index": ("node tools", {"tools/.keep": ""}, "tools/index.js"),
    "node-preload-no-extension": ("node -r ./pre app.js", {"app.js": "\n"}, "pre.js"),
    "node-preload-attached": ("node --require=./pre.js app.js", {"app.js": "\n"}, "pre.js"),
    "node-script-no-extension-after-preload": ("node -r ./pre.js server", {"pre.js": "\n"},
                                               "server.js"),
    "node-import-equals": ("node --import=./pre.mjs app.mjs", {"app.mjs": "\n"}, "pre.mjs"),
    "node-loader": ("node --experimental-loader ./l.mjs app.mjs", {"app.mjs": "\n"},
                    "l.mjs"),
    "node-preload-folder": ("node -r ./boot app.js", {"app.js": "\n", "boot/.keep": ""},
                            "boot/index.js"),
    "node-preload-folder-main": ("node -r ./boot app.js", {"app.js": "\n", "boot/package.json":
                                                            '{"main": "b.js"}\n'},
                                 "boot/b.js"),
}


@pytest.mark.parametrize("case", list(SCRIPT_WORDS))
def test_s1_a_file_node_runs_for_the_entrys_words(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)`` (see ``SCRIPT_WORDS``): ``cp src/p.js <file>``
    is allowed and the plan's entry runs it (real node)."""
    entry, files, target = SCRIPT_WORDS[case]
    needs("node")
    code = ESM_PAYLOAD if target.endswith(".mjs") else JS_PAYLOAD
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**files, "src/p.js": code},
                   [f"cp src/p.js {target}", entry])
    assert denied is not None, "the hook allows a write to the file the entry runs"


#: (the session's variables, the files, the file the copy writes): a preload named without
#: its extension (node's ``require`` adds ``.js``, ``.json``, ``.node``), in the session's
#: NODE_OPTIONS or an ``.npmrc``'s ``node-options``; envpaths guards the word as written
#: (``./pre``), no file of that name.
PRELOAD_WORDS = {
    "control-node-options": ({"NODE_OPTIONS": "--require ./pre.js"}, {}, "pre.js"),
    "node-options": ({"NODE_OPTIONS": "--require ./pre"}, {}, "pre.js"),
    "node-options-attached": ({"NODE_OPTIONS": "-r./tools/pre"}, {"tools/.keep": ""},
                              "tools/pre.js"),
    "npmrc": ({}, {".npmrc": "node-options=--require ./pre\n"}, "pre.js"),
}


@pytest.mark.parametrize("case", list(PRELOAD_WORDS))
def test_e2_a_preload_named_without_its_extension(tmp_path: Path, case: str) -> None:
    """Session ``NODE_OPTIONS`` or the project's ``.npmrc`` (see ``PRELOAD_WORDS``), plan
    ``Bash(npm test)``, ``Bash(cp *)``, a package whose test script runs node: ``cp src/p.js
    <file>`` is allowed and node preloads it (real npm, node)."""
    variables, files, target = PRELOAD_WORDS[case]
    needs("npm", "node")
    denied = _case(tmp_path, ["Bash(npm test)", "Bash(cp *)"],
                   {**files, "package.json": PACKAGE, "t.js": "\n", "src/p.js": JS_PAYLOAD},
                   [f"cp src/p.js {target}", "npm test"], variables)
    assert denied is not None, "the hook allows a write to the module node preloads"


_open("test_e2_a_preload_named_without_its_extension",
      "not a hole (s49-gfix2): node refuses `-r./tools/pre` in NODE_OPTIONS ('is not allowed "
      "in NODE_OPTIONS', node 20): the proof fails; the gate guards tools/pre.js anyway",
      "node-options-attached")


# --- V: under `skillgrant serve`, a compared value naming a variable the service lacks ---------


def test_v1_a_compared_value_reads_a_variable_the_service_does_not_compare(
        tmp_path: Path) -> None:
    """The session and the service hold the same ``GIT_SSH_COMMAND='sh tools/$WRAP.sh'`` (a
    compared variable: equal), the session also ``WRAP=my`` (not compared). The hook process
    reads ``tools/my.sh`` and denies ``cp src/x.sh tools/my.sh``; the service expands
    ``$WRAP`` from its own environment (unset: ``tools/.sh``) and allows it, then the
    session's ``git fetch`` runs ``tools/my.sh`` (proved with real bash). Plan ``Bash(git
    fetch)``, ``Bash(cp *)``, an ssh remote."""
    import json

    from serving import session_headers, start, transcript
    from test_gate_files import payload

    needs("git")
    calls = ["cp src/x.sh tools/my.sh", "git fetch"]
    project = hooked_project(tmp_path / "run", ["Bash(git fetch)", "Bash(cp *)"])
    (project / "tools").mkdir()
    service = {**home_env(tmp_path / "home"), "GIT_SSH_COMMAND": "sh tools/$WRAP.sh"}
    service.pop("WRAP", None)
    session = {**service, "WRAP": "my"}
    subprocess.run(["bash", "-c", SSH_REMOTE], cwd=project, check=True, env=session,
                   capture_output=True)
    assert proved(project, tmp_path / "run", calls, session), "bash ran no payload"
    assert first_denied(project, calls, session) == calls[0]  # (the hook process: denied)
    said = []
    with start([f"plan={project / 'plan.json'}"], env=service) as served:
        for call in ("cp src/x.sh .claude/hooks/x.sh", calls[0]):  # (a control first)
            body = {**json.loads(payload(call, project)),
                    "transcript_path": transcript(session, str(project))}
            reply = served.post("/v1/hook/plan", body, session=False,
                                headers={"Content-Type": "application/json",
                                         **session_headers(session, str(project))})
            said.append(json.loads(reply.body)["hookSpecificOutput"]["permissionDecision"]
                        if reply.body else "allow")
    assert said[0] == "deny", "the service does not decide this session's calls"
    assert said[1] == "deny", "the service allows the write the hook process denies"


# --- P2: the program a checker's settings name it to run ---------------------------------------


#: (the plan's entry, the settings files, the file the copy writes): mypy runs its
#: ``python_executable`` (to ask it for its search folders: ``pyinfo getsearchdirs``); the
#: project's settings naming its own venv's interpreter (the common case) make that file
#: what ``mypy src`` runs. startpaths reads mypy's ``plugins`` key only.
RUN_BY_SETTINGS = {
    "mypy-ini": ("mypy src", {"mypy.ini": "[mypy]\npython_executable = .venv/bin/python\n"},
                 ".venv/bin/python"),
    "mypy-pyproject": ("mypy src", {"pyproject.toml": '[tool.mypy]\npython_executable = '
                                                      '"tools/py"\n'}, "tools/py"),
    "mypy-option": ("mypy --python-executable tools/py src", {}, "tools/py"),
}


@pytest.mark.parametrize("case", list(RUN_BY_SETTINGS))
def test_p2_a_checker_runs_the_program_its_settings_name(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``, the project's settings (not
    written; see ``RUN_BY_SETTINGS``): ``mkdir -p`` its folder and ``cp src/py <file>`` (an
    executable script) are allowed, and mypy runs it (real mypy 1.x)."""
    pytest.importorskip("mypy")
    entry, files, target = RUN_BY_SETTINGS[case]
    folder = target.rsplit("/", 1)[0]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"],
                   {**files, "src/a.py": "x = 1\n", "src/py": "#!/bin/sh\ntouch zz\n"},
                   [f"mkdir -p {folder}", f"cp src/py {target}", entry], _tools(tmp_path),
                   "chmod +x src/py")
    assert denied is not None, "the hook allows a write to the program mypy's settings name"



# --- T: what tox reads at its start beside the files STARTS names --------------------------------


#: A tox.toml whose ``lint`` environment runs nothing of the project's; and the payload's.
TOX_TOML = '[env.lint]\nskip_install = true\ncommands = [["python", "-c", "pass"]]\n'
TOX_TOML_PAYLOAD = ('[env.lint]\nskip_install = true\ncommands = [["touch", "zz"]]\n'
                    'allowlist_externals = ["touch"]\n')
#: The same in tox.ini.
TOX_INI = ("[tox]\nskipsdist = true\n[testenv:lint]\nskip_install = true\n"
           "commands = python -c pass\n")
#: tox's user settings: every option of its command line, ``override`` among them.
TOX_USER = ("[tox]\noverride = testenv:lint.commands=touch zz\n"
            "    testenv:lint.allowlist_externals=touch\n")

#: (the project's files, the file the copy writes, its text, the folder made first): tox 4
#: reads ``tox.toml`` (a project's only settings: STARTS["tox"] lists tox.ini, pyproject.toml
#: and setup.cfg), imports ``toxfile.py`` beside its settings at every start (an inline
#: plugin), and reads the user's ``~/.config/tox/config.ini`` (``override`` sets any
#: environment's commands).
TOX_READS = {
    "toxfile": ({"tox.ini": TOX_INI}, "toxfile.py", PY_PAYLOAD, ""),
    "user-config": ({"tox.ini": TOX_INI}, "~/.config/tox/config.ini", TOX_USER,
                    "~/.config/tox"),
}


@pytest.mark.parametrize("case", list(TOX_READS))
def test_t1_tox_reads_a_file_at_its_start(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(tox -e lint)``, ``Bash(cp *)``, ``Bash(mkdir *)`` (see ``TOX_READS``):
    ``cp src/t <file>`` is allowed and ``tox -e lint`` runs the payload (real tox 4)."""
    tox = _review_tool("tox")
    files, target, text, folder = TOX_READS[case]
    calls = [f"mkdir -p {folder}"] if folder else []
    calls += [f"cp src/t {target}", "tox -e lint"]
    denied = _case(tmp_path, ["Bash(tox -e lint)", "Bash(cp *)", "Bash(mkdir *)"],
                   {**files, "src/t": text}, calls, {"PATH": f"{tox}:{_tools(tmp_path)['PATH']}"})
    assert denied is not None, "the hook allows a write to what tox reads at its start"


def _review_tool(name: str) -> str:
    """The folder holding ``name`` (``SKILLGRANT_REVIEW_TOOLS``, s48-greview's tools venv
    /tmp/s48gr/tv/bin, or ``PATH``'s); skips without one."""
    import os
    import shutil

    for folder in (os.environ.get("SKILLGRANT_REVIEW_TOOLS"), "/tmp/s48gr/tv/bin"):
        if folder and (Path(folder) / name).exists():
            return folder
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"not installed: {name} (SKILLGRANT_REVIEW_TOOLS)")
    return os.path.dirname(found)



# --- G: a hook command that follows a skill, spelled so that PYTHONPATH reaches it ------------


def test_g1_a_following_hook_with_p_imports_skillgrant_from_pythonpath(tmp_path: Path) -> None:
    """``subagents.follow_hook`` takes a settings file whose PreToolUse hook is ``python -P -c
    HOOK_CODE hook --for-skill s …`` as the hook that follows the skill (``_follows``: ``-I``
    or ``-P``). ``-P`` keeps the project off ``sys.path`` (review R3) but reads
    ``PYTHONPATH``, ahead of the interpreter's site-packages, where ``-I`` does not; the gate
    guards only the standard modules' names in PYTHONPATH's folders (review s46 L2: the
    printed hook ignores it). Session ``PYTHONPATH=<lib>``, plan ``Bash(cp *)``,
    ``Bash(mkdir *)``: ``mkdir -p <lib>/skillgrant``, ``cp src/init.py
    <lib>/skillgrant/__init__.py`` are allowed, and the next run of that hook imports it
    (the payload ran: the gate is the model's from then on)."""
    import shlex

    from test_gate_files import payload

    from skillgrant.gate.config import claude_hooks, command
    from skillgrant.gate.subagents import follow_hook

    project = hooked_project(tmp_path / "run", ["Bash(cp *)", "Bash(mkdir *)"])
    (project / "src" / "init.py").write_text(PY_PAYLOAD)
    lib = tmp_path / "lib"
    lib.mkdir()
    env = {**home_env(tmp_path / "home"), "PYTHONPATH": str(lib)}
    words = shlex.split(command("claude-code", str(project / "plan.json")))
    assert words[1] == "-I"
    run = shlex.join([words[0], "-P", *words[2:], "--for-skill", "s"])
    settings = tmp_path / "settings.json"
    import json

    settings.write_text(json.dumps({"hooks": claude_hooks(run)}))
    skill = project / ".claude" / "skills" / "s" / "SKILL.md"
    found, _ = follow_hook("s", str(skill), str(project / "plan.json"), "auto", [settings])
    if found is None:
        return  # (not taken as the hook that follows the skill: no hole)
    calls = [f"mkdir -p {lib}/skillgrant", f"cp src/init.py {lib}/skillgrant/__init__.py"]
    denied = first_denied(project, calls, env)
    subprocess.run(["/bin/sh", "-c", run], input=payload("ls", project), cwd=project, env=env,
                   capture_output=True, timeout=60, check=False)
    assert (project / "zz").exists(), "the hook imported no payload"
    assert denied is not None, "the hook allows a write to the skillgrant a following hook runs"



# --- R: a version manager's file in the folder the plan's program moves to --------------------


def test_r1_rustup_reads_the_toolchain_file_of_the_folder_make_moves_to(tmp_path: Path) -> None:
    """rustup's proxies (``cargo``, ``rustc``) pick the toolchain from ``rust-toolchain.toml``
    in the folder they run in and each above; ``[toolchain] path = DIR`` runs ``DIR/bin/cargo``.
    The gate guards the version files of the call's folder and each above (homefiles
    ``VERSION_FILES``), not of the folder ``make -C sub`` runs its recipes in (the project's
    ``sub/Makefile`` runs ``cargo --version``). Plan ``Bash(make -C sub)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: ``mkdir -p ../tc/bin``, ``cp src/cargo ../tc/bin/cargo`` (executable
    script), ``cp src/tc sub/rust-toolchain.toml`` are allowed and the recipe's ``cargo`` runs
    the payload (real rustup 1.29, make)."""
    needs("make", "rustup", "cargo")
    files = {"sub/Makefile": "all:\n\tcargo --version\n", "src/cargo": "#!/bin/sh\ntouch zz\n"}
    setup = ('chmod +x src/cargo && printf \'[toolchain]\\npath = "%s/tc"\\n\' '
             '"$(dirname "$PWD")" >src/tc')  # (beside the project: a copy of it runs too)
    denied = _case(tmp_path, ["Bash(make -C sub)", "Bash(cp *)", "Bash(mkdir *)"], files,
                   ["mkdir -p ../tc/bin", "cp src/cargo ../tc/bin/cargo",
                    "cp src/tc sub/rust-toolchain.toml", "make -C sub"], None, setup)
    assert denied is not None, "the hook allows a toolchain file where make's recipes run"


# --- C: what ctest reads at its start beside CTestTestfile.cmake ---------------------------------


@pytest.mark.parametrize("entry", ["ctest --test-dir build", "ctest"])
def test_c1_ctest_runs_the_custom_file_of_its_build_folder(tmp_path: Path, entry: str) -> None:
    """ctest reads ``CTestCustom.cmake`` (or ``CTestCustom.ctest``) of the build folder it
    tests before its tests, as cmake code (``execute_process``). STARTS names what cmake
    generates (``^CTestTestfile.cmake``: guarded), not that file, which no generator writes
    (a project puts it there, or leaves it out). Plan ``Bash(<entry>)`` (``--test-dir
    build``, or from the folder: the call's), ``Bash(cp *)``: ``cp src/c
    build/CTestCustom.cmake`` is allowed and ctest runs the payload (real ctest 3.25)."""
    needs("ctest")
    files = {"build/CTestTestfile.cmake": "add_test(a true)\n",
             "src/c": "execute_process(COMMAND touch zz)\n"}
    folder = "build/" if entry == "ctest --test-dir build" else ""
    calls = [f"cp src/c {folder}CTestCustom.cmake", entry]
    if not folder:  # (the session's folder is the build folder: the call's)
        files = {"CTestTestfile.cmake": files["build/CTestTestfile.cmake"], "src/c": files["src/c"]}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, calls)
    assert denied is not None, "the hook allows a write to the file ctest runs at its start"


@pytest.mark.parametrize("entry", ["cpack", "cpack -G TGZ"])
def test_c2_cpack_runs_its_configuration_file(tmp_path: Path, entry: str) -> None:
    """cpack reads ``CPackConfig.cmake`` of the folder it runs in (cmake generates it in the
    build folder) as cmake code. cpack has no STARTS entry and is no runner (``_RUNS_ANY``
    holds cmake and ctest), so nothing is guarded for it. Plan ``Bash(<entry>)``, ``Bash(cp
    *)`` (the session in the build folder): ``cp src/c CPackConfig.cmake`` is allowed and
    cpack runs the payload (real cpack 3.25)."""
    needs("cpack")
    files = {"src/c": "execute_process(COMMAND touch zz)\nset(CPACK_GENERATOR TGZ)\n"
                      "set(CPACK_PACKAGE_NAME a)\n"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   ["cp src/c CPackConfig.cmake", entry])
    assert denied is not None, "the hook allows a write to the file cpack runs"


#: (the plan's entry, the script it names, the script's text): a script a cmake-family
#: option names (``ctest -S``: a dashboard script, cmake code; ``cpack --config``), or R's
#: (``R -f``, ``R CMD BATCH``: R is no interpreter of ``_INTERPRETERS``, which holds
#: ``Rscript``); a name without ``/`` is not guarded (nor, for ctest, one with it).
NAMED_SCRIPTS = {
    "ctest-S": ("ctest -S ci.cmake", "ci.cmake", "execute_process(COMMAND touch zz)\n"),
    "ctest-S-folder": ("ctest -S tools/ci.cmake", "tools/ci.cmake",
                       "execute_process(COMMAND touch zz)\n"),
    "cpack-config": ("cpack --config pk.cmake", "pk.cmake",
                     "execute_process(COMMAND touch zz)\nset(CPACK_GENERATOR TGZ)\n"
                     "set(CPACK_PACKAGE_NAME a)\n"),
    "R-f": ("R -f y.R", "y.R", 'system("touch zz")\n'),
    "R-CMD-BATCH": ("R CMD BATCH y.R", "y.R", 'system("touch zz")\n'),
}


@pytest.mark.parametrize("case", list(NAMED_SCRIPTS))
def test_c3_a_script_the_entrys_option_names(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)`` (see ``NAMED_SCRIPTS``), the project's own
    script: ``cp src/s <script>`` is allowed and the entry runs it (real ctest/cpack 3.25,
    R 4.2)."""
    entry, script, text = NAMED_SCRIPTS[case]
    needs(entry.split()[0])
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {script: "\n", "src/s": text}, [f"cp src/s {script}", entry])
    assert denied is not None, "the hook allows a write to the script the entry runs"


#: (the plan's entry, the cmake file its ``-D`` cache setting names): cmake includes a
#: toolchain file, a project-include file and a rules-override file as cmake code while it
#: configures; ``-DNAME=VALUE`` is one word starting ``-``, whose value no rule reads
#: (``_FILE_OPTIONS`` holds ``--toolchain``, not ``-DCMAKE_TOOLCHAIN_FILE=``).
CACHE_FILES = {
    "toolchain": ("cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=tc.cmake", "tc.cmake"),
    "project-include": ("cmake -B build -DCMAKE_PROJECT_INCLUDE=cmake/inc.cmake",
                        "cmake/inc.cmake"),
    "rules-override": ("cmake -B build -D CMAKE_USER_MAKE_RULES_OVERRIDE=ov.cmake",
                       "ov.cmake"),
}


@pytest.mark.parametrize("case", list(CACHE_FILES))
def test_c4_a_cmake_file_a_cache_setting_of_the_entry_names(tmp_path: Path,
                                                             case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)`` (see ``CACHE_FILES``), the project's own file:
    ``cp src/c <file>`` is allowed and cmake runs it at configure (real cmake 3.25). (The
    attached ``-DNAME=FILE`` entries deny their own call: "names 'cmake'", a COST, so they
    hold for now.)"""
    entry, script = CACHE_FILES[case]
    needs("cmake", "cc")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\nproject(a C)\n",
                    script: "\n", "src/c": "execute_process(COMMAND touch zz)\n"},
                   [f"cp src/c {script}", entry])
    assert denied is not None, "the hook allows a write to the cmake file the entry names"




# --- M: what meson's build folder holds that its regeneration loads ------------------------------


#: A pickle running the payload when loaded (meson keeps its build folder's state in
#: ``meson-private/coredata.dat``, a pickle, and loads it to regenerate or reconfigure).
PICKLE = ("python3 -c \"import os, pickle\nclass P:\n    def __reduce__(self):\n"
          "        return (os.system, ('touch zz',))\n"
          "open('src/pk', 'wb').write(pickle.dumps(P()))\"")
#: A meson project with one C program.
MESON = {"meson.build": "project('a', 'c')\nexecutable('a', 'a.c')\n",
         "a.c": "int main(void) { return 0; }\n"}
#: (the plan's entry, the calls before it, the setup beyond the pickle): [ninja-C] the
#: project built once (``meson setup build``, ``ninja -C build``); ``build.ninja`` lists
#: ``meson-private/coredata.dat`` among its own inputs, so a newer copy makes ninja
#: regenerate, which loads it: ``_FOLDER_OPTIONS`` reads ``ninja -C build``, STARTS["ninja"]
#: holds ``build.ninja`` only (held: ``meson-private/`` is among the runners' start files).
#: (``meson setup --reconfigure build`` loads it too, the build folder a word, not ``-C``:
#: s48-greview2 M2's root cause, left to that row.) [native-file] ``--native-file
#: native.ini`` names the compiler meson runs to check it; no option table holds it
#: (``_FILE_OPTIONS``).
MESON_CASES = {
    "ninja-C": ("ninja -C build", ["cp src/pk build/meson-private/coredata.dat"],
                "meson setup build && ninja -C build && sleep 1"),
    "native-file": ("meson setup build --native-file native.ini", ["cp src/n native.ini"],
                    "printf '[binaries]\\nc = []\\n' >native.ini"),
}


@pytest.mark.parametrize("case", list(MESON_CASES))
def test_m1_meson_loads_state_its_build_folder_or_option_names(tmp_path: Path,
                                                                 case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)`` (see ``MESON_CASES``; the pickle and the native
    file written to ``src/`` beforehand, as the Write tool may): the copy is allowed and the
    entry runs the payload (real meson 1.12, ninja 1.11)."""
    tools = _review_tool("meson")
    needs("ninja", "cc")
    entry, before, setup = MESON_CASES[case]
    native = "[binaries]\nc = ['sh', '-c', 'touch zz; exec cc \"$@\"', 'x']\n"
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {**MESON, "src/n": native},
                   [*before, entry], {"PATH": f"{tools}:{_tools(tmp_path)['PATH']}"},
                   f"{PICKLE} && {setup}", in_place=True)
    assert denied is not None, "the hook allows a write to what meson loads or runs"





# --- D: a debugger's or checker's settings a covered copy plants -------------------------------


def test_d1_gdb_runs_the_users_gdbinit(tmp_path: Path) -> None:
    """gdb reads ``~/.gdbinit`` (and ``~/.config/gdb/gdbinit``) at every start, whatever its
    safe-path (that one is the user's), and runs its ``shell`` commands. Plan ``Bash(gdb
    -batch -ex bt -p *)`` (a backtrace of a running process; an entry naming the project's
    program is denied itself: COST), ``Bash(cp *)``: ``cp src/g <home>/.gdbinit`` is
    allowed and gdb runs the payload before it attaches (real gdb 13). Held: the gate reads
    gdb as a program running its words' commands (only a tool-wide grant covers it)."""
    needs("gdb")
    entry = "gdb -batch -ex bt -p 1"
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(gdb -batch -ex bt -p *)", "Bash(cp *)"])
        (project / "src" / "g").write_text("shell touch zz\n")
        (project / "build").mkdir()
        shutil.copy("/bin/true", project / "build" / "prog")
        env = home_env(tmp_path / side / "home")
        calls = [f"cp src/g {env['HOME']}/.gdbinit", entry]
        if side == "proof":
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a write to the gdbinit gdb runs"


@pytest.mark.parametrize("where", ["folder", "home"])
def test_d2_valgrind_writes_its_log_where_the_folders_valgrindrc_says(tmp_path: Path,
                                                                      where: str) -> None:
    """valgrind reads ``./.valgrindrc`` (and ``~/.valgrindrc``, ``VALGRIND_OPTS``) as options
    before its command line's: ``--log-file=.claude/settings.json`` makes it write its log
    over the gate's own settings (Claude Code then drops the file, and the hook with it).
    Plan ``Bash(valgrind true)`` (a system program: an entry naming the project's program is
    denied itself, COST), ``Bash(cp *)``: ``cp src/rc .valgrindrc`` is allowed and the plan's
    call rewrites the settings (real valgrind 3.19)."""
    needs("valgrind")
    entry = "valgrind true"
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({entry})", "Bash(cp *)"])
        (project / "src" / "rc").write_text("--log-file=.claude/settings.json\n")
        (project / "build").mkdir()
        shutil.copy("/bin/true", project / "build" / "prog")
        env = home_env(tmp_path / side / "home")
        target = ".valgrindrc" if where == "folder" else f"{env['HOME']}/.valgrindrc"
        calls = [f"cp src/rc {target}", entry]
        if side == "proof":
            settings = (project / ".claude" / "settings.json").read_text()
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, env=env, check=False,
                               capture_output=True, timeout=120)
            now = (project / ".claude" / "settings.json").read_text()  # (valgrind: in place)
            assert now != settings and "Memcheck" in now, "valgrind wrote no log there"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows valgrind to write the gate's settings"




# --- U: a program the user's own settings name, in a home folder nothing guards -----------------


#: (the user's settings file in the home, its text; ``{home}``: the home's path): each names
#: ``~/scripts/proxy.sh`` as what ssh (or git) runs for a fetch over ssh.
USER_NAMED = {
    "gitconfig-sshcommand": (".gitconfig", "[core]\n\tsshCommand = sh {home}/scripts/proxy.sh\n"),
}


@pytest.mark.parametrize("case", list(USER_NAMED))
def test_u1_a_program_the_users_settings_name(tmp_path: Path, case: str) -> None:
    """The user's own settings (see ``USER_NAMED``: not written by the session) name a script
    in the home; plan ``Bash(git fetch)``, ``Bash(cp *)``, ``Bash(mkdir *)``, an ssh remote:
    ``mkdir -p <home>/scripts``, ``cp src/x.sh <home>/scripts/proxy.sh`` are allowed and
    ``git fetch`` runs it (real git). Held: gitvalues reads the value. (ssh reads the
    passwd entry's home, not ``HOME``: its ``ProxyCommand`` is not tested here.)"""
    needs("git", "ssh")
    name, text = USER_NAMED[case]
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(git fetch)", "Bash(cp *)",
                                                   "Bash(mkdir *)"])
        env = home_env(tmp_path / side / "home")
        home = Path(env["HOME"])
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text.format(home=home))
        subprocess.run(["bash", "-c", SSH_REMOTE], cwd=project, check=True, env=env,
                       capture_output=True)
        calls = [f"mkdir -p {home}/scripts", f"cp src/x.sh {home}/scripts/proxy.sh", "git fetch"]
        if side == "proof":
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a write to the program the user's settings run"


# --- W: a local package folder a pip option names without a slash --------------------------------


#: Python writing ``src/mylib-9.0-py3-none-any.whl``: a wheel holding ``mylib.pth`` (Python
#: runs a ``.pth`` line starting ``import`` at every start of that environment).
WHEEL = """python3 - <<'PY'
import zipfile
with zipfile.ZipFile('src/mylib-9.0-py3-none-any.whl', 'w') as w:
    w.writestr('mylib/__init__.py', '')
    w.writestr('mylib.pth', "import os; os.system('touch zz')\\n")
    info = 'mylib-9.0.dist-info/'
    w.writestr(info + 'METADATA', 'Metadata-Version: 2.1\\nName: mylib\\nVersion: 9.0\\n')
    w.writestr(info + 'WHEEL', 'Wheel-Version: 1.0\\nGenerator: x\\nRoot-Is-Purelib: true\\n'
               'Tag: py3-none-any\\n')
    w.writestr(info + 'RECORD', '')
PY"""


@pytest.mark.parametrize("option", ["-f ./wheels", "-f wheels", "--find-links wheels",
                                    "--find-links=wheels"])
def test_w1_pip_installs_from_a_folder_named_without_a_slash(tmp_path: Path,
                                                             option: str) -> None:
    """Plan ``Bash(pip install --no-index <option> mylib)`` (the project's vendored wheels),
    ``Bash(cp *)``: ``cp src/mylib-9.0-py3-none-any.whl wheels/`` is allowed (planprograms
    guards a pip word holding ``/`` or ``.``: ``./wheels``, not ``wheels``, nor an option's
    value), pip installs the newer version, and its ``.pth`` runs at pip's next start (the
    plan's call again: real pip in a fresh venv, no network)."""
    venv = tmp_path / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, timeout=300,
                   capture_output=True)
    entry = f"pip install --no-index {option} mylib"
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {"wheels/.keep": ""},
                   ["cp src/mylib-9.0-py3-none-any.whl wheels/", entry, entry],
                   {"PATH": f"{venv}/bin:{os.environ['PATH']}"}, WHEEL)
    assert denied is not None, "the hook allows a write to the wheels pip installs"


@pytest.fixture(scope="module")
def built_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (pip, setuptools) that W2 and W3 build their projects into: their
    ``setup.py`` runs at build, and what they install runs nothing at a later start."""
    venv = tmp_path_factory.mktemp("w") / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, timeout=300,
                   capture_output=True)
    return venv


def test_w2_pip_builds_an_editable_folder_named_without_a_slash(tmp_path: Path,
                                                               built_venv: Path) -> None:
    """Plan ``Bash(pip install --no-index --no-build-isolation -e backend)`` (a monorepo's
    package by its folder's name; the two options keep pip off the network here), ``Bash(cp
    *)``: ``cp src/setup.py backend/setup.py`` is allowed and pip runs it to build the
    package (real pip 23.2 in a fresh venv). ``-e ./backend`` is denied."""
    venv = built_venv
    entry = "pip install --no-index --no-build-isolation -e backend"
    setup = ("import os\nos.system('touch zz')\nfrom setuptools import setup\n"
             "setup(name='b', version='1')\n")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"backend/setup.py": "from setuptools import setup\nsetup(name='b')\n",
                    "src/setup.py": setup}, ["cp src/setup.py backend/setup.py", entry],
                   {"PATH": f"{venv}/bin:{os.environ['PATH']}"})
    assert denied is not None, "the hook allows a write to the setup.py pip builds"


@pytest.mark.parametrize("entry", ["pip install -e .", "pip install -e .[dev]",
                                   "pip install .[test]", "pip install -e '.[dev,test]'"])
def test_w3_pip_builds_the_folder_with_extras(tmp_path: Path, entry: str,
                                              built_venv: Path) -> None:
    """Plan ``Bash(<entry>)`` (the usual install of a project with its development extras),
    ``Bash(cp *)``: ``cp src/setup.py setup.py`` is allowed (planprograms guards ``_BUILT``
    for the word ``.`` exactly: ``.[dev]`` is neither ``.`` nor holds a ``/``) and pip runs it
    to build (real pip 23.2 in a fresh venv; the session's ``PIP_NO_BUILD_ISOLATION=0``,
    ``PIP_NO_INDEX=1`` keep it offline). ``pip install -e .`` is denied (control). Holds
    today only because the entries with extras deny their own call ("names '.[dev]'": a
    COST); a fix of that cost must guard ``_BUILT`` for them."""
    venv = built_venv
    setup = ("import os\nos.system('touch zz')\nfrom setuptools import setup\n"
             "setup(name='b', version='1', extras_require={'dev': [], 'test': []})\n")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"setup.py": "from setuptools import setup\nsetup(name='b')\n",
                    "src/setup.py": setup}, ["cp src/setup.py setup.py", entry],
                   {"PATH": f"{venv}/bin:{os.environ['PATH']}", "PIP_NO_BUILD_ISOLATION": "0",
                    "PIP_NO_INDEX": "1"})
    assert denied is not None, "the hook allows a write to the setup.py pip builds"






@pytest.mark.parametrize("where", ["folder", "home"])
def test_d3_pdb_runs_the_pdbrc_of_its_folder_and_home(tmp_path: Path, where: str) -> None:
    """pdb reads ``~/.pdbrc`` and ``./.pdbrc`` at its start and runs each line as a debugger
    command: a Python statement runs. Plan ``Bash(python3 -m pdb -c continue tools/x.py)``
    (the project's script, guarded as the plan's), ``Bash(cp *)``: ``cp src/rc .pdbrc`` (or
    ``<home>/.pdbrc``) is allowed and pdb runs the payload (real Python 3.11's pdb)."""
    entry = "python3 -m pdb -c continue tools/x.py"
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({entry})", "Bash(cp *)"])
        (project / "tools").mkdir()
        (project / "tools" / "x.py").write_text("print(1)\n")
        (project / "src" / "rc").write_text("import os; os.system('touch zz')\n")
        env = home_env(tmp_path / side / "home")
        target = ".pdbrc" if where == "folder" else f"{env['HOME']}/.pdbrc"
        calls = [f"cp src/rc {target}", f"{entry} </dev/null"]
        if side == "proof":
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, [calls[0], entry], env))
    assert found[0] is not None, "the hook allows a write to the pdbrc pdb runs"




#: (the plan's entry, the settings file it names): ssh reads the file ``-F`` names instead of
#: ``~/.ssh/config``, and runs its ``ProxyCommand`` (here, before it connects).
SSH_FILES = {
    "bare": ("ssh -F sshcfg build true", "sshcfg"),
    "folder": ("ssh -F ci/ssh_config build true", "ci/ssh_config"),
    "attached": ("ssh -Fci/ssh_config build true", "ci/ssh_config"),
}


@pytest.mark.parametrize("case", list(SSH_FILES))
def test_d4_ssh_runs_the_proxy_command_of_the_file_its_entry_names(tmp_path: Path,
                                                                  case: str) -> None:
    """Plan ``Bash(<entry>)`` (a command on the project's build host through the project's
    own ssh settings), ``Bash(cp *)``: ``cp src/c <file>`` (``ProxyCommand sh -c 'touch
    zz'``) is allowed and ssh runs the proxy command here (real OpenSSH; the host need not
    exist)."""
    entry, target = SSH_FILES[case]
    needs("ssh")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {target: "Host build\n  HostName h.invalid\n",
                    "src/c": "Host *\n  ProxyCommand sh -c 'touch zz'\n"},
                   [f"cp src/c {target}", entry])
    assert denied is not None, "the hook allows a write to the ssh settings the entry names"




# --- X: a writer whose operands are in a file its wrapper reads --------------------------------


#: (the plan's entry, the list's file): xargs reads the operands of the command it runs from
#: a file (``-a FILE``, ``--arg-file=FILE``, or its input); a list naming the gate's own
#: settings makes the plan's ``rm -f`` remove them (Claude Code then runs no hook).
ARG_FILES = {
    "arg-file": ("xargs -a files.txt rm -f", "files.txt"),
    "arg-file-long": ("xargs --arg-file=files.txt rm -f", "files.txt"),
    "input": ("xargs rm -f < files.txt", "files.txt"),
}


@pytest.mark.parametrize("case", list(ARG_FILES))
def test_x1_xargs_reads_the_operands_of_a_writer_from_a_file(tmp_path: Path,
                                                             case: str) -> None:
    """Plan ``Bash(<entry>)`` (a clean-up of the files a list names), ``Bash(cp *)``: ``cp
    src/list files.txt`` (``.claude/settings.json``) is allowed and the plan's call removes
    the gate's settings (real xargs, rm)."""
    entry, listed = ARG_FILES[case]
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({entry})", "Bash(cp *)"])
        (project / listed).write_text("out/a.o\n")
        (project / "src" / "list").write_text(".claude/settings.json\n")
        calls = [f"cp src/list {listed}", entry]
        if side == "proof":
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, check=False, timeout=60,
                               capture_output=True)
            assert not (project / ".claude" / "settings.json").exists(), "rm removed nothing"
        else:
            found.append(first_denied(project, calls))
    assert found[0] is not None, "the hook allows a list that makes rm remove the settings"


# --- I: a module folder an interpreter's attached option names --------------------------------


@pytest.mark.parametrize("entry", ["perl -I vendor tools/x.pl", "perl -Ivendor tools/x.pl"])
def test_i1_perl_loads_a_module_from_the_folder_its_attached_i_names(tmp_path: Path,
                                                                     entry: str) -> None:
    """Plan ``Bash(<entry>)`` (the project's script with its vendored modules), ``Bash(cp
    *)``: ``cp src/Foo.pm vendor/Foo.pm`` is denied with ``-I vendor`` (control) and allowed
    with ``-Ivendor``; the script's ``use Foo`` loads it (real perl). Holds today only because
    both entries deny their own call (an option before perl's script: a COST); a fix of that
    cost must guard ``-IDIR`` attached as it does ``-I DIR``."""
    needs("perl")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"tools/x.pl": "use Foo;\nprint \"ok\\n\";\n", "vendor/Foo.pm":
                    "package Foo;\n1;\n", "src/Foo.pm": "package Foo;\nsystem('touch zz');\n1;\n"},
                   ["cp src/Foo.pm vendor/Foo.pm", entry])
    assert denied is not None, "the hook allows a write to the module perl loads"
