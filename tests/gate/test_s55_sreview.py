"""Session 55 review (s55-sreview) of s55-sfix: mounts (``gate/mounters.py``), the link walk's
roots and its cache (``gate/testlinks.py``).

Each hole is a sequence of calls, each allowed by the printed ``skillgrant hook``, after which
real bash (or a program it runs) runs a payload (``touch zz``) the plan does not allow. A mount
is proved only in a scratch mount namespace (``unshare -m``; ``unshare -Urm`` where the
filesystem is one a user namespace has of its own, binfmt_misc on Linux 6.7 and later), never
on the machine's own mounts: the hook is asked, and bash runs, inside that namespace
(``_contained``), so that each call is decided on what the last one mounted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bash_review import LeftOpen, needs, proved_case

pytestmark = pytest.mark.slow

OPEN = LeftOpen()

#: What runs inside the namespace: a hooked project (``bash_review.hooked_project``) of the
#: plan's entries in a folder of its own for each side, the setup's bash text run there; the
#: proof side runs every call under bash, the other asks the printed hook for each call and
#: runs the allowed ones; each side then runs the guarded hook script (as the runtime runs a
#: command hook: executed where it is executable) and says whether the payload ran.
_DRIVER = r"""
import json, os, subprocess, sys, time
from pathlib import Path
sys.path[:0] = [os.path.join(sys.argv[1], "tests", "gate"), os.path.join(sys.argv[1], "tests")]
from bash_review import _settings_hook, hooked_project
from test_gate_files import payload
given = json.loads(sys.argv[2])
result = {}
for side in given["sides"]:
    project = hooked_project(Path(given["tmp"]) / side, given["entries"])
    subprocess.run(["bash", "-c", given["setup"]], cwd=project, check=True, timeout=60,
                   capture_output=True)
    hook, denied = _settings_hook(project), None
    for call in given["calls"]:
        call = call.replace("{P}", str(project)).replace("{T}", str(project.parent)).replace(
            "{S}", side)
        if side == "run":
            said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project),
                                  cwd=project, capture_output=True, timeout=60)
            if said.returncode == 2:
                denied = call
                result["why"] = said.stdout.decode(errors="replace")[-600:]
                break
        subprocess.run(["timeout", "60", "bash", "-c", call], cwd=project,
                       capture_output=True, timeout=90)
    try:  # (sh, not timeout: a call may have changed the root, sh and touch copied there)
        subprocess.run(["sh", "-c", "if [ -x .claude/hooks/x.sh ]; then ./.claude/hooks/x.sh;"
                        " else sh .claude/hooks/x.sh; fi"], cwd=project, capture_output=True,
                       timeout=90)
    except (OSError, subprocess.SubprocessError):
        pass
    for _ in range(30):  # (a program the kernel starts runs a moment later)
        ran = [p for p in ("zz", "src/zz", ".claude/hooks/zz") if (project / p).exists()]
        if ran:
            break
        time.sleep(0.1)
    if given["after"]:
        subprocess.run(["bash", "-c", given["after"]], cwd=project, capture_output=True,
                       timeout=60)
    result[side] = {"denied": denied, "ran": ran}
print(json.dumps(result))
"""


def _contained(tmp_path: Path, entries: list[str], setup: str, calls: list[str],
               user: bool = False, after: str = "") -> str | None:
    """The case in a private mount namespace (``{P}`` in a call: the project, ``{T}`` the
    folder above it) (and a user namespace of its own with ``user``):
    asserts that bash, running ``calls``, runs the payload (``{S}``: the side, ``proof`` or
    ``run``); returns the first call the printed hook denies, or None (the hole). ``after``
    runs at the end of each side (a cleanup)."""
    needs("unshare", "bash")
    if os.geteuid() != 0:
        pytest.skip("needs root (a scratch mount namespace)")
    root = str(Path(__file__).resolve().parents[2])
    namespace = ["unshare", "-Urm" if user else "-m", "--propagation", "private"]
    result: dict[str, Any] = {}
    for side in ("proof", "run"):  # (each in a namespace of its own: a call may change /)
        given = json.dumps({"tmp": str(tmp_path), "entries": entries, "setup": setup,
                            "calls": calls, "after": after, "sides": [side]})
        done = subprocess.run(["timeout", "300", *namespace, sys.executable, "-c", _DRIVER,
                               root, given], capture_output=True, text=True, timeout=330,
                              check=False)
        assert done.returncode == 0, done.stderr[-3000:]
        result.update(json.loads(done.stdout.strip().splitlines()[-1]))
    assert result["proof"]["ran"], f"bash ran no payload: {result}"
    print(result.get("why"))
    return str(result["run"]["denied"]) if result["run"]["denied"] is not None else None


# --- B: a fresh filesystem that runs a program (mounters' _FRESH) --------------------------------

#: The setup: a fresh folder ``y``, an interpreter ``src/run`` (the payload) and a binfmt_misc
#: rule naming it for files ending ``.sh``; the guarded hook script made executable (a command
#: hook the runtime executes).
BINFMT_SETUP = ("mkdir y && printf '#!/bin/sh\\ntouch \"$(dirname \"$0\")/zz\"\\n' > src/run && "
                "chmod +x src/run .claude/hooks/x.sh && "
                "printf \":s55:E::sh::$PWD/src/run:\" > src/rule")
BINFMT = {
    "binfmt-misc": ["mount -t binfmt_misc none y", "cp src/rule y/register"],
    "binfmt-misc-attached": ["mount -tbinfmt_misc binfmt_misc y", "cp src/rule y/register"],
}


@pytest.mark.parametrize("case", list(BINFMT))
def test_b_a_fresh_filesystem_that_runs_a_program(tmp_path: Path, case: str) -> None:
    """A root session (root of a user namespace of its own: Linux 6.7 gives it a binfmt_misc
    of its own), plan ``Bash(mount *)``, ``Bash(cp *)``: it mounts binfmt_misc at a fresh
    folder (a filesystem the gate reads as reaching no file that was there before) and
    registers an interpreter for ``*.sh``; the kernel then runs the interpreter (the payload)
    for every script of that name executed, the guarded hook script among them, its text
    unchanged."""
    release = tuple(int(p) for p in os.uname().release.split("-")[0].split(".")[:2])
    if release < (6, 7):
        pytest.skip("binfmt_misc of a user namespace needs Linux 6.7")
    denied = _contained(tmp_path, ["Bash(mount *)", "Bash(cp *)"], BINFMT_SETUP, BINFMT[case],
                        user=True)
    assert denied is not None, "the hook allows every call, and the kernel runs the payload"


#: The setup: an interpreter ``src/run`` (the payload), the values a cgroup v1 hierarchy's
#: files take (the release agent's path; 1; 0, the writing process).
RELEASE_SETUP = ("mkdir y && printf '#!/bin/sh\\ntouch \"$(dirname \"$0\")/zz\"\\n' > src/run && "
                 "chmod +x src/run && printf %s \"$PWD/src/run\" > src/agent && "
                 "printf 1 > src/one && printf 0 > src/zero")


def test_b_a_cgroup_hierarchy_runs_its_release_agent(tmp_path: Path) -> None:
    """A root session, plan ``Bash(mount *)``, ``Bash(cp *)``, ``Bash(mkdir *)``: it mounts a
    named cgroup v1 hierarchy (no controller) at a fresh folder, names ``src/run`` its release
    agent, and cp moves itself into a child cgroup (``0``: the writer) and leaves it: the
    kernel runs the agent (the payload) as root of the first namespaces, outside the
    session's. Every path written is a fresh folder's."""
    name = f"s55sr{os.getpid()}{{S}}"
    calls = [f"mount -t cgroup -o none,name={name} none y", "cp src/agent y/release_agent",
             "cp src/one y/notify_on_release", "mkdir y/c", "cp src/zero y/c/cgroup.procs"]
    denied = _contained(tmp_path, ["Bash(mount *)", "Bash(cp *)", "Bash(mkdir *)"],
                        RELEASE_SETUP, calls, after="rmdir y/c; umount y")
    assert denied is not None, "the hook allows every call, and the kernel runs the payload"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)
# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)


# --- F: a one-operand mount that /etc/fstab completes -------------------------------------------

#: The setup: a folder beside the project holding a ``.claude/hooks/x.sh`` of its own (the
#: payload), and an /etc/fstab (bound over the machine's inside the scratch namespace only) of
#: one entry binding it over the project (an administrator's entry, as ``/dev/sdb1 /home``).
FSTAB_SETUP = ("mkdir -p ../evil/.claude/hooks && printf 'touch zz\\n' > ../evil/.claude/hooks/x.sh"
               " && printf '%s %s none bind 0 0\\n' \"$(cd .. && pwd)/evil\" \"$PWD\" > ../fstab"
               " && mount --bind ../fstab /etc/fstab")
#: The one operand, spelled otherwise than the table's source: mount canonicalizes it before
#: it looks the table up (``mount -fv`` of 2.38 says ``bound on PROJECT`` for each).
FSTAB_SPELLINGS = {
    "relative-source": "mount ../evil",
    "doubled-slash": "mount {T}//evil",
    "trailing-slash": "mount {T}/evil/",
    "dot-in-the-path": "mount {T}/./evil",
}


@pytest.mark.parametrize("case", list(FSTAB_SPELLINGS))
def test_f_a_table_entry_found_by_another_spelling(tmp_path: Path, case: str) -> None:
    """A root session, plan ``Bash(mount *)``, /etc/fstab holding an entry whose target is
    the project: ``mount SOURCE`` spelled otherwise than the entry mounts it over the project
    (the runtime then reads another ``.claude``: the hook script there runs the payload). The
    gate looks the one operand up in the table word for word."""
    denied = _contained(tmp_path, ["Bash(mount *)"], FSTAB_SETUP, [FSTAB_SPELLINGS[case]])
    assert denied is not None, "the hook allows the mount, and the project is another folder"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)


# --- P: mount's options past the words the gate reads as its own ---------------------------------

#: The setup: a folder beside the project holding a ``.claude/hooks/x.sh`` of its own (the
#: payload), a table of one entry binding it over the project, a fresh folder ``y``.
TABLE_SETUP = ("mkdir -p ../evil/.claude/hooks && printf 'touch zz\\n' > ../evil/.claude/hooks/x.sh"
               " && printf '%s %s none bind 0 0\\n' \"$(cd .. && pwd)/evil\" \"$PWD\" > ../fst"
               " && mkdir y")
#: mount takes ``-v`` any number of times; the option after them names the table.
PADDED = {
    "table-after-64-words": "mount " + "-v " * 64 + "-T ../fst ../evil",
    "table-after-70-words": "mount " + "-v " * 70 + "--fstab ../fst ../evil",
    # proc at a fresh folder: ``y/self/cwd/`` is the project for cp (the hook script's
    # second path is guarded by no name)
    "proc-after-64-words": "mount " + "-v " * 64 + "-t proc proc y && "
                           "cp src/x.sh y/self/cwd/.claude/hooks/x.sh",
}


@pytest.mark.parametrize("case", list(PADDED))
def test_p_a_table_named_past_the_words_read(tmp_path: Path, case: str) -> None:
    """A root session, plan ``Bash(mount *)``, ``Bash(cp *)``: ``mount -v -v … -T TABLE
    SOURCE`` (sixty-four ``-v`` first) mounts what the table binds over the project (the
    runtime then reads another ``.claude``), or proc at a fresh folder. mounters reads 64
    words after ``mount`` as its own (``_SPAN``): ``-T`` past them is not seen (nor ``-t
    proc``, ``-N``, ``--target-prefix``)."""
    denied = _contained(tmp_path, ["Bash(mount *)", "Bash(cp *)"], TABLE_SETUP, [PADDED[case]])
    assert denied is not None, "the hook allows the mount, and the project is another folder"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)


# --- E: a `--` the gate's words make of a word holding `=` ---------------------------------------

#: Each case: mount's words hold ``x=--``, one word (an operand, or ``-O``'s value) to mount;
#: the gate's words are cut at ``=`` (``textwords``; and at a quoted blank, ``;``, ``(``, ``<``),
#: so mounters reads a ``--`` there and every later word as an operand (``-t proc``, ``-T
#: TABLE`` not read).
EQUALS = {
    "proc-behind-a-cut-word": "mount x=-- y -t proc && "
                              "cp src/x.sh y/self/cwd/.claude/hooks/x.sh",
    "table-behind-a-cut-value": "mount -O x=-- ../evil -T ../fst",
    "fstab-behind-a-cut-value": "mount -O x=-- ../evil --fstab ../fst",
    # the same with a quoted blank, `;`, `(`, an escaped `<` (each cuts the gate's words)
    "table-behind-a-quoted-blank": "mount -O 'x --' ../evil -T ../fst",
    "proc-behind-a-quoted-semicolon": "mount 'x;--' y -t proc && "
                                      "cp src/x.sh y/self/cwd/.claude/hooks/x.sh",
    "proc-behind-a-quoted-parenthesis": "mount 'x(--' y -t proc && "
                                        "cp src/x.sh y/self/cwd/.claude/hooks/x.sh",
    "proc-behind-an-escaped-less-than": "mount x\\<-- y -t proc && "
                                        "cp src/x.sh y/self/cwd/.claude/hooks/x.sh",
}


@pytest.mark.parametrize("case", list(EQUALS))
def test_e_options_behind_a_word_cut_at_its_equals(tmp_path: Path, case: str) -> None:
    """A root session, plan ``Bash(mount *)``, ``Bash(cp *)``: mount 2.38 reads ``x=--`` as
    one word (a source proc ignores; ``-O``'s value, unused without ``-a``) and the options
    after it: proc at a fresh folder, the hook script written through ``y/self/cwd/``, or a
    table binding a folder over the project."""
    denied = _contained(tmp_path, ["Bash(mount *)", "Bash(cp *)"], TABLE_SETUP, [EQUALS[case]])
    assert denied is not None, "the hook allows the call, and bash runs the payload"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)


# --- R: the folders a runner of the plan reads tests from (testroots) ---------------------------

#: A test file's payload: node's test runner runs it; it touches ``zz`` in the folder npm was
#: started in (``INIT_CWD``: the project, wherever the script moved).
NODE_PAYLOAD = "require('child_process').execSync('touch ' + process.env.INIT_CWD + '/zz')\n"
#: Each case: the ``test`` script of the project's package.json, running node's test runner
#: on ``../ext/`` spelled otherwise than a word starting ``../`` or ``/``; ``../ext/test/o``
#: is a link to ``../other`` (a folder the plan's runner meets through it).
SCRIPT_ROOTS = {
    "dot-slash-first": "node --test ./../ext/",
    "cd-before-the-runner": "cd .. && node --test ext/",
    "a-folder-then-up-twice": "node --test sub/../../ext/",
    "npm-s-start-folder": "node --test $INIT_CWD/../ext/",
    "home-relative": "node --test ~/ext/",
    "a-script-file": "sh run.sh",
    # (open at 600dea1: closed before were the six above)
    "pwd-variable": "node --test $PWD/../ext/",
    "npm-s-prefix-variable": "node --test \"$npm_config_local_prefix/../ext/\"",
    "escaped-slash": "node --test ..\\/ext/",
    "cd-from-home": "cd $HOME/../ext || true; node --test .",
    "command-substitution": "node --test `dirname $PWD`/ext/",
    # (open at a99b6d1: npm's variable of the package's own config, a parameter expansion)
    "package-config-variable": "node --test $npm_package_config_dir",
    "parameter-expansion": "node --test ${PWD%/*}/ext/",
}


@pytest.mark.parametrize("case", list(SCRIPT_ROOTS))
def test_r_a_scripts_runner_folder_spelled_otherwise(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; package.json's ``test`` script runs ``node
    --test`` on a folder beside the project: ``cp src/mk ../other/x.js`` (written where a link
    in that folder leads) is allowed, and ``npm test`` runs it. (``run.sh``, the project's own
    file, holds ``node --test ../ext/``.)"""
    needs("bash", "node", "npm")
    import json as _json

    setup = ("mkdir -p ../ext/test ../other sub && ln -s ../../other ../ext/test/o && "
             "mkdir -p ~/ext/test && ln -sfn \"$T/other\" ~/ext/test/o")
    files = {"package.json": _json.dumps({"name": "p", "config": {"dir": "../ext/"},
                                          "scripts": {"test": SCRIPT_ROOTS[case]}}),
             "run.sh": "node --test ../ext/\n", "src/mk": NODE_PAYLOAD}
    denied = proved_case(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                         ["cp src/mk ../other/x.js", "npm test"], setup=setup)
    assert denied is not None, "the hook allows every call, and node's test runner runs it"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)
# (open at 600dea1: closed by s55-sfix 30ca1b9 / a99b6d1)
# (open at a99b6d1: closed by s56-sfix 0c7025b, a script word holding an expansion the gate
# does not spell refuses the collecting plan's writes)


#: Each case: the plan's pytest entry, the settings file (its name, text; ``../pytest.ini``:
#: the folder above the project's) naming a folder beside the project otherwise than the
#: run folder's ``testpaths``: pytest 9 reads ``addopts``' words as its command line's (a
#: folder operand is collected), and looks upward for settings where the project has none (a
#: monorepo's); ``../ext/test_h.py`` is a link to ``../other/h.py``.
PYTEST_ROOTS = {
    "addopts-operand": ("python3 -m pytest", "pytest.ini", "[pytest]\naddopts = ../ext\n"),
    "addopts-operand-after-an-option": ("python3 -m pytest", "pytest.ini",
                                        "[pytest]\naddopts = -q ../ext\n"),
    "addopts-in-settings-above": ("python3 -m pytest", "../pytest.ini",
                                  "[pytest]\naddopts = ../ext\n"),
}


@pytest.mark.parametrize("case", list(PYTEST_ROOTS))
def test_r_pytests_settings_name_a_folder_otherwise(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/py ../other/h.py`` is allowed, and
    pytest collects ``../ext/test_h.py`` (importing the payload)."""
    needs("bash", "python3")
    entry, name, text = PYTEST_ROOTS[case]
    files = {"tests/test_a.py": "def test_a():\n    pass\n",
             "src/py": "import os\nos.system('touch zz')\n"}
    setup = "mkdir -p ../ext ../other && ln -s ../other/h.py ../ext/test_h.py"
    if name.startswith("../"):
        setup += f" && printf %b {json.dumps(text)} > {name}"
    else:
        files[name] = text
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                         ["cp src/py ../other/h.py", entry], setup=setup)
    assert denied is not None, "the hook allows every call, and pytest imports the payload"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)


# --- I: a filesystem image mounted in the project: a tree the gate cannot read ------------------

#: Each case: the plan's runner, the image's file (a test the runner collects where it lies),
#: its text. The image (``data.img``, ext4, ``mkfs.ext4 -d`` of a folder beside the project) is
#: a file of the project (a data set a skill ships).
IMAGES = {
    "pytest-test-module": ("python3 -m pytest", "test_x.py",
                           "import os\nos.system('touch zz')\n"),
    "node-test-folder": ("node --test", "test/x.js",
                         "require('child_process').execSync('touch zz')\n"),
}


@pytest.mark.parametrize("case", list(IMAGES))
def test_i_an_image_mounted_in_the_project_holds_a_test(tmp_path: Path, case: str) -> None:
    """A root session, plan ``Bash(<runner>)``, ``Bash(mount *)``: ``mount -o loop data.img
    y`` lays the image's tree at a fresh folder of the project (a write of a test file the
    runner collects, which ``cp -r`` of the same tree is denied as), and the runner runs it."""
    needs("mkfs.ext4")
    entry, name, text = IMAGES[case]
    folder = Path(name).parent.as_posix()
    setup = (f"mkdir -p y tests test ../imgsrc/{folder} && "
             "printf 'def test_a():\\n    pass\\n' > tests/test_a.py && "
             "printf '0\\n' > test/a.test.js && "
             f"printf %b {json.dumps(text)} > ../imgsrc/{name} && "
             "mkfs.ext4 -q -d ../imgsrc data.img 4M")
    denied = _contained(tmp_path, [f"Bash({entry})", "Bash(mount *)"], setup,
                        ["mount -o loop data.img y", entry], after="umount y")
    assert denied is not None, "the hook allows every call, and the runner runs the payload"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)

#: Each case: the plan's runner, the link in the project to a folder beside it (a data or
#: fixtures folder), the image's file at its top (a test the runner collects there), its
#: text, the mount's target. The image lies beside the project too (``../data.img``).
LINKED_IMAGES = {
    "pytest-through-a-data-link": ("python3 -m pytest", "data", "../outside", "test_x.py",
                                   "import os\nos.system('touch zz')\n", "data"),
    "pytest-target-spelled-beside": ("python3 -m pytest", "data", "../outside", "test_x.py",
                                     "import os\nos.system('touch zz')\n", "../outside"),
    "node-through-a-fixtures-link": ("node --test", "test/data", "../../outside", "x.js",
                                     "require('child_process').execSync('touch zz')\n",
                                     "../outside"),
}


@pytest.mark.parametrize("case", list(LINKED_IMAGES))
def test_i_an_image_mounted_where_a_projects_link_leads(tmp_path: Path, case: str) -> None:
    """A root session, plan ``Bash(<runner>)``, ``Bash(mount *)``; the project holds a link
    to ``../outside`` (present before the session): ``mount -o loop ../data.img TARGET`` (the
    link, or the folder it leads to) lays the image's tree where the runner walks through the
    link, and it runs the image's test. mounters asks the target's real path, beside the run
    folders (I1's fix: ``_in_run_folders``)."""
    needs("mkfs.ext4")
    entry, link, to, name, text, target = LINKED_IMAGES[case]
    setup = (f"mkdir -p tests test ../outside ../imgsrc && ln -s {to} {link} && "
             "printf 'def test_a():\\n    pass\\n' > tests/test_a.py && "
             "printf '0\\n' > test/a.test.js && "
             f"printf %b {json.dumps(text)} > ../imgsrc/{name} && "
             "mkfs.ext4 -q -d ../imgsrc ../data.img 4M")
    denied = _contained(tmp_path, [f"Bash({entry})", "Bash(mount *)"], setup,
                        [f"mount -o loop ../data.img {target}", entry], after=f"umount {target}")
    assert denied is not None, "the hook allows every call, and the runner runs the payload"


# (open at 600dea1: closed by s55-sfix 30ca1b9 / a99b6d1)

# --- N: a new root for every process of the namespace --------------------------------------------

#: A static program standing for the new root's shell: it makes ``zz`` in its folder (the
#: payload) and exits 0 (a hook command run through it allows the call).
FAKE_SHELL = ("#include <fcntl.h>\n#include <unistd.h>\n"
              "int main(void) { return close(open(\"zz\", O_CREAT | O_WRONLY, 0644)) < 0; }\n")


def test_n_pivot_root_gives_every_path_another_file(tmp_path: Path) -> None:
    """A root session, plan ``Bash(mount *)``, ``Bash(cp *)``, ``Bash(mkdir *)``,
    ``Bash(pivot_root *)``: it builds a tree at a fresh folder ``y`` (a ``/bin/sh`` of its
    own: ``src/sh``, which a skill may ship), makes ``y`` a mount point and pivots the
    namespace's root to it: every absolute path (the project's settings, its hook script,
    ``/bin/sh`` the runtime runs hook commands with) now names the new tree's file; the
    runtime's next command runs the new shell (the payload). The gate reads pivot_root's
    words as folders written: ``y`` and ``y/old`` guard nothing."""
    needs("pivot_root", "gcc")
    setup = (f"mkdir y && printf %b {json.dumps(FAKE_SHELL)} > src/sh.c && "
             "gcc -static -o src/sh src/sh.c")
    calls = ["mkdir -p y/old y/bin y{P}/.claude/hooks", "cp src/sh y/bin/sh",
             "cp src/x.sh y{P}/.claude/hooks/x.sh", "mount --bind y y", "pivot_root y y/old"]
    denied = _contained(tmp_path, ["Bash(mount *)", "Bash(cp *)", "Bash(mkdir *)",
                                   "Bash(pivot_root *)"], setup, calls)
    assert denied is not None, "the hook allows every call, and the new root's shell runs"


# (open at 600dea1: closed by s55-sfix 30ca1b9 / a99b6d1)

# --- C: costs --------------------------------------------------------------------------------

#: Each case: a package.json script beside ``test`` (not one the plan runs) holding a word
#: that starts with ``/`` and names a big folder: vite's and parcel's public base ``/``.
BIG_SCRIPT_WORDS = {
    "vite-base": "vite --base /",
    "parcel-public-url": "parcel build src/index.html --public-url /",
}


@pytest.mark.parametrize("case", list(BIG_SCRIPT_WORDS))
def test_c_a_script_naming_the_top_folder_keeps_writes(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; package.json's ``test`` is ``node --test``, its
    ``dev`` script a bundler's base URL ``/``: ``cp notes.txt notes2.txt`` is allowed (the
    base URL is no folder any runner collects in)."""
    from bash_review import first_denied, home_env, hooked_project

    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    (project / "test").mkdir()
    (project / "test" / "a.test.js").write_text("0\n")
    (project / "package.json").write_text(json.dumps(
        {"name": "p", "scripts": {"test": "node --test", "dev": BIG_SCRIPT_WORDS[case]}}))
    denied = first_denied(project, ["cp notes.txt notes2.txt"], home_env(tmp_path / "home"))
    assert denied is None, "denied"


# (open at 34ef535: closed by s55-sfix 4faba36 / d2837bc)

#: Each case: a script beside ``test`` (not one the plan runs, and no runner: a linter's
#: operand, a compiler's output folder) naming a sibling folder, and the write there.
SIBLING_SCRIPT_WORDS = {
    "linter-operand": ("eslint src ../shared", "cp notes.txt ../shared/notes.txt"),
    "compiler-output": ("tsc --outDir ../dist", "cp notes.txt ../dist/notes.txt"),
}


@pytest.mark.parametrize("case", list(SIBLING_SCRIPT_WORDS))
def test_c_a_script_naming_a_sibling_keeps_writes_there(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; package.json's ``test`` is ``node --test``
    (which collects in the project only), another script a monorepo's sibling folder: the
    write there is allowed (no runner of the plan reads it)."""
    from bash_review import first_denied, home_env, hooked_project

    script, write = SIBLING_SCRIPT_WORDS[case]
    project = hooked_project(tmp_path, ["Bash(npm test)", "Bash(cp *)"])
    (project / "test").mkdir()
    (project / "test" / "a.test.js").write_text("0\n")
    for folder in ("shared", "dist"):
        (tmp_path / folder).mkdir()
    (project / "package.json").write_text(json.dumps(
        {"name": "p", "scripts": {"test": "node --test", "other": script}}))
    assert first_denied(project, [write], home_env(tmp_path / "home")) is None, "denied"


# (cost at a52e750: eased by s56-sfix, testroots reads the scripts the plan runs where
# planscripts names them all)

# --- H: what the change holds (pins) ------------------------------------------------------------

#: Each case: a mount of proc (or of a folder of it) at a fresh folder spelled as mount 2.38
#: reads it, then the hook script written through it (one call).
THROUGH = " && cp src/x.sh y/self/cwd/.claude/hooks/x.sh"
HELD_PROC = {
    "attached-type": "mount -tproc proc y" + THROUGH,
    "type-in-a-cluster": "mount -vtproc proc y" + THROUGH,
    "long-type-abbreviated": "mount --ty proc proc y" + THROUGH,
    "long-type-attached": "mount --types=proc proc y" + THROUGH,
    "type-in-a-list": "mount -t proc,tmpfs none y" + THROUGH,
    "type-after-the-operands": "mount proc y -t proc" + THROUGH,
    "proc-bound": "mount --bind /proc y" + THROUGH,
    "proc-bound-recursively": "mount --rbi /proc y" + THROUGH,
    "bound-by-option": "mount -o bind /proc y" + THROUGH,
}


@pytest.mark.parametrize("case", list(HELD_PROC))
def test_h_proc_spelled_otherwise_is_denied(tmp_path: Path, case: str) -> None:
    """A root session, plan ``Bash(mount *)``, ``Bash(cp *)``: the call is denied (bash runs
    the payload: the hook script written through ``y/self/cwd/``)."""
    denied = _contained(tmp_path, ["Bash(mount *)", "Bash(cp *)"], TABLE_SETUP,
                        [HELD_PROC[case]])
    assert denied is not None, "the hook allows the call, and bash runs the payload"
