"""Review s46's second round (s46-greview2) of the call gate, against s46-gfix's new rules:
sequences of calls the printed hook allows under a narrow plan (no tool-wide ``Bash``, no grant
of code of the model's choosing), after which real bash runs a payload (``touch zz``) or
writes a file the gate guards. Each case proves the hole with real bash in a scratch copy
first, then asks the printed hook for each call in turn, running the allowed ones; the hook
allowing them all is the finding: these tests fail while the hole is open (``OPEN`` marks
them strict xfails)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from bash_review import LeftOpen, bash, first_denied, needs
from files_fixture import gated_project

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add


def _proves(project: Path, tmp_path: Path, calls: list[str],
            env: dict[str, str] | None = None) -> None:
    """Runs ``calls`` under real bash in a copy of ``project`` (links kept: a link to a
    folder outside the project still points at the original, so the callers keep what a
    link points at per copy); asserts the payload ran."""
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch, env)
    assert any(scratch.rglob("zz")), "bash ran no payload: the case proves nothing"


# --- cp into a folder writes through a link of the source's name already there ------------


def _program(folder: Path) -> Path:
    """A program outside the project (an interpreter a venv's link points at, a tool a PATH
    link points at), harmless until replaced."""
    (folder / "bin").mkdir(parents=True)
    program = folder / "bin" / "python3.12"
    program.write_text("#!/bin/sh\necho ran\n")
    program.chmod(0o755)
    return program


def _linked_project(root: Path, entries: list[str], link: str, *, in_path: bool) -> tuple[
        Path, dict[str, str]]:
    """A gated project under ``root`` whose ``link`` (``.venv/bin/python3``, or a PATH folder's
    ``tool``) is a link to a program outside it, and ``pay/<link's name>``, the payload; the
    environment (PATH holding the link's folder when ``in_path``)."""
    program = _program(root / "pyhome")
    project = root / "project"
    gated_project(project, entries)
    env = dict(os.environ)
    if in_path:
        folder = root / "tools"
        folder.mkdir()
        (folder / link).symlink_to(program)
        env["PATH"] = f"{folder}:{env['PATH']}"
    else:
        (project / link).parent.mkdir(parents=True)
        (project / link).symlink_to(program)
        (project / ".venv" / "pyvenv.cfg").write_text(f"home = {program.parent}\n")
    (project / "pay").mkdir()
    (project / "pay" / Path(link).name).write_text("#!/bin/sh\ntouch zz\n")
    (project / "pay" / Path(link).name).chmod(0o755)
    return project, env


#: (the plan, the link, whether its folder is on PATH, the calls): ``{tools}`` is the PATH
#: folder holding the link.
THROUGH = {
    # a venv's interpreter is an absolute link (python -m venv, uv, pyenv's); a copy of the
    # link (-P) in out/, then a cp into out/ of a file of the same name writes the target
    "venv-link-into-folder": (
        ["Bash(cp *)", "Bash(.venv/bin/python3 -m unittest)"], ".venv/bin/python3", False,
        ["cp -P .venv/bin/python3 out/", "cp pay/python3 out/",
         ".venv/bin/python3 -m unittest"]),
    "venv-link-tree-copy": (
        ["Bash(cp *)", "Bash(.venv/bin/python3 -m unittest)"], ".venv/bin/python3", False,
        ["cp -P .venv/bin/python3 out/", "cp -r pay/. out/",
         ".venv/bin/python3 -m unittest"]),
    "venv-link-target-directory": (
        ["Bash(cp *)", "Bash(.venv/bin/python3 -m unittest)"], ".venv/bin/python3", False,
        ["cp -a .venv/bin/python3 out/", "cp -t out pay/python3",
         ".venv/bin/python3 -m unittest"]),
    # a PATH folder's link (a version manager's shim, ~/.local/bin/claude, …)
    "path-link-into-folder": (
        ["Bash(cp *)", "Bash(tool)"], "tool", True,
        ["cp -P {tools}/tool out/", "cp pay/tool out/", "tool"]),
}


@pytest.mark.parametrize("case", list(THROUGH))
def test_t1_cp_into_a_folder_writes_through_a_link_of_the_same_name(tmp_path: Path,
                                                                    case: str) -> None:
    """T1 (guards judge ``cp SRC DIR/``'s destination word ``DIR/``, and the words naming a
    link by their real path, but not ``DIR/<SRC's name>``, the file cp opens, which follows a
    link): ``cp -P LINK out/`` (a link is a read: copied.read_sources, or no guarded word on
    main) puts a link to the program the plan runs in ``out/``; ``cp pay/NAME out/``
    (``-t out``, ``-r pay/. out/``) opens ``out/NAME`` and writes the program through it; the
    covered entry then runs the payload. ``cp pay/NAME out/NAME`` is denied (the word's real
    path is the program)."""
    entries, link, in_path, calls = THROUGH[case]
    proof_project, proof_env = _linked_project(tmp_path / "proof", entries, link,
                                               in_path=in_path)
    tools = str(tmp_path / "proof" / "tools")
    _proves(proof_project, tmp_path, [c.format(tools=tools) for c in calls], proof_env)
    project, env = _linked_project(tmp_path / "run", entries, link, in_path=in_path)
    tools = str(tmp_path / "run" / "tools")
    assert first_denied(project, [c.format(tools=tools) for c in calls], env) is not None, \
        "the hook allows a cp into a folder holding a link to the program the plan runs"


# --- a program's own settings: a read word as an option's value before the write ----------


#: (the program needed, the plan, the calls): each settings write is given an option whose
#: value is a word ``ownsettings._READS`` holds (``view``, ``get``), right after the
#: settings word: the gate reads it as the subcommand.
OWN_READ_VALUE = {
    "kubectl": ("kubectl", ["Bash(kubectl *)"],
                ["kubectl config --user view set-cluster c --server=https://127.0.0.1:1",
                 "kubectl config --cluster view set-credentials u --exec-command=touch "
                 "--exec-arg=zz --exec-api-version=client.authentication.k8s.io/v1beta1",
                 "kubectl config --namespace view set-context x --cluster=c --user=u",
                 "kubectl config --cluster view use-context x",
                 "kubectl get pods"]),
    "aws": ("aws", ["Bash(aws *)"],
            ["aws configure --region get set credential_process ./e.sh", "aws s3 ls"]),
    "npm-config": ("npm", ["Bash(npm config *)", "Bash(npm test)"],
                   ["npm config --tag get set script-shell ./e.sh", "npm test"]),
    "npm-pkg": ("npm", ["Bash(npm pkg *)", "Bash(npm test)"],
                ["npm pkg --tag get set scripts.test='touch zz'", "npm test"]),
}


@pytest.mark.parametrize("case", list(OWN_READ_VALUE))
def test_s5_own_settings_behind_an_option_valued_with_a_read_word(tmp_path: Path,
                                                                   case: str) -> None:
    """S5 (in s46-gfix; ownsettings.own_settings: ``following``, the first word after the
    settings word not starting with ``-``, in ``_READS``/``_PROGRAM_READS`` makes the command
    a read): that word may be an option's value (``--cluster view``, ``--region get``,
    ``--tag get``), the real subcommand (``set-credentials``, ``set``) coming after it; cobra,
    awscli and npm's nopt take global options anywhere. The covered ``kubectl get pods`` /
    ``aws s3 ls`` / ``npm test`` then runs the payload. (``kubectl config set-credentials
    …`` alone is denied.)"""
    from test_s46_greview import _npm_project
    from test_s46_greview import _proves as _proves_home

    program, entries, calls = OWN_READ_VALUE[case]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, entries)
    _npm_project(project)
    env = _proves_home(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows a settings write behind an option whose value is a read word"


# --- cargo's target folder of a crate below the call's folder -------------------------------


def _crate_below(project: Path) -> list[str]:
    """A gated project (plan ``Bash(cp *)``, ``Bash(cd *)``, ``Bash(cargo build)``) holding a
    crate in ``sub/``, built there; the calls that replace its compiled build script and run
    it again."""
    gated_project(project, ["Bash(cp *)", "Bash(cd *)", "Bash(cargo build)"])
    sub = project / "sub"
    (sub / "src").mkdir(parents=True)
    (sub / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (sub / "src" / "main.rs").write_text("fn main() {}\n")
    (sub / "build.rs").write_text(
        'fn main() { println!("cargo:rerun-if-changed=data.txt"); }\n')
    (sub / "data.txt").write_text("1\n")
    (project / "two.txt").write_text("2\n")
    (project / "eb").mkdir()
    (project / "eb" / "build-script-build").write_text("#!/bin/sh\ntouch zz\n")
    (project / "eb" / "build-script-build").chmod(0o755)
    subprocess.run(["cargo", "build", "-q"], cwd=sub, check=True, capture_output=True,
                   timeout=600)
    built = next(sub.glob("target/debug/build/x-*/build-script-build")).parent
    return [f"cp -r eb/. {built.relative_to(project)}/", "cp two.txt sub/data.txt",
            "cd sub && cargo build"]


def test_c4_a_crate_below_the_calls_folder_has_its_own_target(tmp_path: Path) -> None:
    """C4 (in s46-gfix; cargodirs guards ``target/`` of the call's folder and above, and the
    folders the environment and ``.cargo/config.toml`` name): a crate in ``sub/`` builds into
    ``sub/target`` (cargo's target folder is its workspace root's). From the project's
    folder, ``cp -r eb/. sub/target/debug/build/x-HASH/`` and ``cp two.txt sub/data.txt``
    (the file its build script watches) are allowed; the covered ``cargo build`` from
    ``sub/`` (the session's folder moved there: ``cd sub && cargo build``) runs the new
    compiled build script. Plan ``Bash(cp *)``, ``Bash(cd *)``, ``Bash(cargo build)``."""
    needs("cargo")
    scratch = tmp_path / "scratch" / "project"
    for call in _crate_below(scratch):
        bash(call, scratch)
    assert any(scratch.rglob("zz")), "cargo ran no build script: the case proves nothing"
    project = tmp_path / "project"
    calls = _crate_below(project)
    assert first_denied(project, calls) is not None, \
        "the hook allows replacing the build script of a crate below the call's folder"




# --- a file system that ignores some code points in names (macOS's HFS+) ------------------

#: The code points HFS+ ignores when it compares names (Apple TN1150's case-folding table maps
#: them to 0; git's ``is_hfs_dotgit`` skips the same ones since CVE-2014-9390).
HFS_IGNORED = "".join(map(chr, [*range(0x200C, 0x2010), *range(0x202A, 0x202F),
                                *range(0x206A, 0x2070), 0xFEFF]))


@pytest.fixture
def hfs(tmp_path: Path) -> Iterator[Path]:
    """A folder whose names are looked up as HFS+ does: case folded, normalization ignored and
    ``HFS_IGNORED``'s code points dropped: test_s46_greview's APFS stand-in, its folding
    widened; skipped without fusepy, libfuse or ``/dev/fuse``."""
    import importlib.util
    import sys
    import time

    from test_s45_greview import CASEFS

    if importlib.util.find_spec("fuse") is None or not os.path.exists("/dev/fuse"):
        pytest.skip("no fusepy or /dev/fuse here (a case-insensitive file system's stand-in)")
    needs("fusermount")
    folding = CASEFS.replace("import errno", "import errno\nimport unicodedata\n"
                             f"_IGNORED = {HFS_IGNORED!r}\n"
                             "def _hfs(name):\n"
                             "    kept = ''.join(c for c in name if c not in _IGNORED)\n"
                             "    return unicodedata.normalize('NFD', kept).casefold()\n",
                             1).replace("part.casefold()", "_hfs(part)").replace(
        "n.casefold()", "_hfs(n)")
    assert folding.count("_hfs(") == 3
    back, mount = tmp_path / "back", tmp_path / "folded"
    back.mkdir()
    mount.mkdir()
    (tmp_path / "hfs.py").write_text(folding)
    server = subprocess.Popen([sys.executable, str(tmp_path / "hfs.py"), str(back),
                               str(mount)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.ismount(mount):
                break
            time.sleep(0.1)
        else:
            pytest.skip("the FUSE stand-in did not mount")
        yield mount
    finally:
        subprocess.run(["fusermount", "-u", str(mount)], capture_output=True, check=False,
                       timeout=60)
        server.kill()
        server.wait(timeout=60)


#: The calls: ``package.json`` spelled with a code point HFS+ ignores.
IGNORED = {
    "zero-width-non-joiner": ["cp evil.json package.js\u200con", "npm test"],
    "zero-width-joiner": ["cp evil.json pack\u200dage.json", "npm test"],
    "byte-order-mark": ["cp evil.json \ufeffpackage.json", "npm test"],
}


@pytest.mark.parametrize("case", list(IGNORED))
def test_x3_hfs_ignores_code_points_fold_keeps(hfs: Path, case: str) -> None:
    """X3 (in s46-gfix; placed.fold: NFD and case folding, "as much as such a system or
    more"): HFS+ (macOS's file system before APFS, still on external and Time Machine disks)
    also ignores the zero-width and direction code points (U+200C–U+200F, U+202A–U+202E,
    U+206A–U+206F, U+FEFF) in names, so ``package.js\\u200con`` is ``package.json`` there.
    ``cp evil.json package.js\\u200con`` replaces the ``package.json`` the plan's ``npm
    test`` runs. Plan ``Bash(cp *)``, ``Bash(npm test)``; measured on a FUSE stand-in that
    folds as HFS+ does (``fold`` keeps these code points)."""
    needs("npm")
    from test_s46_greview import _npm_project

    calls = IGNORED[case]
    project = hfs / "project"
    gated_project(project, ["Bash(cp *)", "Bash(npm test)"])
    _npm_project(project)
    (project / "evil.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "touch zz"}}))
    scratch = hfs / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch)
    assert (scratch / "zz").exists(), "npm ran no payload: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows a write of package.json spelled with a code point HFS+ ignores"


# --- cp's options read as GNU's getopt_long reads them, where cp is BSD's (macOS) ----------

#: The calls: GNU cp reads ``-t out`` (anywhere) as the folder it copies into, every operand
#: a source; BSD cp (macOS's ``/bin/cp``) reads options only before the first operand, as
#: GNU cp under ``POSIXLY_CORRECT`` does: ``.claude/hooks``, the last operand, is the folder.
BSD_ORDER = {
    "short": "cp src/x.sh -t out .claude/hooks",
    "long": "cp src/x.sh --target-directory=out .claude/hooks",
}


@pytest.mark.parametrize("case", list(BSD_ORDER))
def test_t2_bsd_cp_reads_an_option_after_an_operand_as_an_operand(tmp_path: Path,
                                                                    case: str) -> None:
    """T2 (in s46-gfix; copied.read_sources reads cp with getopt_long's permutation, and
    refuses only where the hook's own environment holds ``POSIXLY_CORRECT``): on macOS,
    ``/bin/cp`` is BSD's, whose getopt stops at the first operand (and which has no ``-t``):
    ``cp src/x.sh -t out .claude/hooks`` copies ``src/x.sh`` into ``.claude/hooks`` (the
    other operands fail, cp goes on). The gate reads ``.claude/hooks`` as a source (a read:
    a folder holding nothing guarded below it) and allows the call. Measured with GNU cp
    under ``POSIXLY_CORRECT=1`` as BSD's stand-in (the same operand order); the hook is asked
    without it, as a macOS session's environment is. Plan ``Bash(cp *)``."""
    from bash_review import hooked_project

    command = BSD_ORDER[case]
    project = hooked_project(tmp_path, ["Bash(cp *)"])
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    bash(command, scratch, {**os.environ, "POSIXLY_CORRECT": "1"})
    hook = scratch / ".claude" / "hooks" / "x.sh"
    assert hook.read_text() == "touch zz\n", "cp wrote no hook: the case proves nothing"
    assert first_denied(project, [command]) is not None, \
        "the hook allows a cp that BSD's cp reads as writing into a guarded folder"


