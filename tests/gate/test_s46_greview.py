"""Review s46 (s46-greview) of the call gate: sequences of calls the printed hook allows, each
under a narrow plan (no tool-wide ``Bash``, no grant of code of the model's choosing), after
which real bash runs a payload (``touch zz``) or writes a file the gate guards. Each case proves
the hole with real bash in a scratch copy (the case proves something), then asks the printed
hook for each call in turn, running the allowed ones; the hook allowing them all is the
finding: these tests fail while the hole is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import bash, needs
from files_fixture import gated_project
from test_gate_files import _settings_hook, payload

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: A git configuration whose ``core.fsmonitor`` runs the payload at the next ``git status``.
GITCONFIG = '[core]\n\tfsmonitor = "touch zz; false"\n'

#: The holes left open by this review, by test name (and case): the lead merges them into
#: tests/residual.py.
OPEN: dict[str, str] = {}


def _open(test: str, reason: str, *cases: str) -> None:
    for case in cases or ("",):
        OPEN[f"{test}[{case}]" if case else test] = reason


@pytest.fixture(autouse=True)
def _left_open(request: pytest.FixtureRequest) -> None:
    """A case of ``OPEN`` is a strict xfail: a fix shows as an unexpected pass."""
    name = request.node.name
    reason = OPEN.get(name) or OPEN.get(name.split("[", 1)[0])
    if reason is not None:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=reason))


def _first_denied(project: Path, calls: list[str], env: dict[str, str] | None = None,
                  cwd: Path | None = None) -> str | None:
    """The first of ``calls`` the printed hook denies from the folder ``cwd`` (the project when
    None), in the environment ``env``, running each allowed one there; None when it allows
    them all."""
    hook = _settings_hook(project)
    folder = cwd or project
    for call in calls:
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder),
                              cwd=folder, capture_output=True, timeout=60, check=False,
                              env=env)
        if done.returncode == 2:
            return call
        bash(call, folder, env)
    return None


def _home_env(home: Path) -> dict[str, str]:
    """The session's environment with ``home`` (made here) as its home; rustup's and cargo's
    folders kept where they are."""
    home.mkdir()
    real = Path.home()
    kept = {name: str(real / folder) for name, folder in (("RUSTUP_HOME", ".rustup"),
                                                           ("CARGO_HOME", ".cargo"))
            if (real / folder).is_dir() and name not in os.environ}
    return {**os.environ, **kept, "HOME": str(home)}


def _proves(project: Path, tmp_path: Path, calls: list[str], make_env: bool = True,
            cwd: str = "") -> dict[str, str] | None:
    """Runs ``calls`` (``{home}``: a fresh home's path) under real bash in a copy of
    ``project``; asserts the payload ran; the environment (with another fresh home) for the
    hook's run."""
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = _home_env(tmp_path / "proof-home") if make_env else None
    home = proof["HOME"] if proof else ""
    for call in calls:
        bash(call.format(home=home), scratch / cwd, proof)
    assert any(scratch.rglob("zz")), "bash ran no payload: the case proves nothing"
    return _home_env(tmp_path / "home") if make_env else None


def _npm_project(project: Path) -> None:
    """A package whose ``test`` script is harmless, and ``e.sh``, the payload, and ``e.rc``,
    an ``.npmrc`` whose ``script-shell`` runs it."""
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    (project / "e.rc").write_text("script-shell=./e.sh\n")
    (project / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))


# --- a decompressor writes its operand's name less a suffix --------------------------------


#: (programs needed, the plan, the calls): ``{home}`` is the session's home folder.
DECOMPRESSED = {
    "gunzip-home": ((), ["Bash(cp *)", "Bash(gunzip *)", "Bash(git status)"],
                    ["cp cfg.gz {home}/.gitconfig.gz", "gunzip {home}/.gitconfig.gz",
                     "git status"]),
    "gunzip-suffix": ((), ["Bash(cp *)", "Bash(gunzip *)", "Bash(git status)"],
                      ["cp cfg.gz {home}/.gitconfigig", "gunzip -S ig {home}/.gitconfigig",
                       "git status"]),
    "gzip-d-npmrc": (("npm",), ["Bash(cp *)", "Bash(gzip *)", "Bash(npm test)"],
                     ["cp e.rc.gz .npmrc.gz", "gzip -d .npmrc.gz", "npm test"]),
    "unxz-npmrc": (("npm", "xz"), ["Bash(cp *)", "Bash(unxz *)", "Bash(npm test)"],
                   ["cp e.rc.xz .npmrc.xz", "unxz .npmrc.xz", "npm test"]),
    "bunzip2-npmrc": (("npm", "bzip2"), ["Bash(cp *)", "Bash(bunzip2 *)", "Bash(npm test)"],
                      ["cp e.rc.bz2 .npmrc.bz2", "bunzip2 .npmrc.bz2", "npm test"]),
    "unzstd-npmrc": (("npm", "zstd"), ["Bash(cp *)", "Bash(unzstd *)", "Bash(npm test)"],
                     ["cp e.rc.zst .npmrc.zst", "unzstd .npmrc.zst", "npm test"]),
    # gzip keeps the name it compressed in its header; gunzip -N writes under that name
    "gunzip-N-header": (("npm",), ["Bash(gunzip *)", "Bash(npm test)"],
                        ["gunzip -N named.gz", "npm test"]),
}


def _compressed(project: Path) -> None:
    (project / "cfg.gz").write_bytes(gzip.compress(GITCONFIG.encode()))
    for program, ending in (("gzip", ".gz"), ("xz", ".xz"), ("bzip2", ".bz2"),
                            ("zstd", ".zst")):
        if shutil.which(program):
            subprocess.run([program, "-k", "-q", "e.rc"], cwd=project, check=True,
                           capture_output=True)
            assert (project / f"e.rc{ending}").exists()
    named = project / "named"  # (a header naming `.npmrc`)
    named.mkdir()
    (named / ".npmrc").write_text("script-shell=./e.sh\n")
    subprocess.run(["gzip", "-N", ".npmrc"], cwd=named, check=True)
    (named / ".npmrc.gz").rename(project / "named.gz")
    shutil.rmtree(named)


@pytest.mark.parametrize("case", list(DECOMPRESSED))
def test_d1_a_decompressor_writes_its_operand_less_the_suffix(tmp_path: Path,
                                                              case: str) -> None:
    """D1 (writers.FOLDER_WRITERS: gzip, gunzip, unxz, bunzip2, unzstd… write "the files their
    words name"; guards compare each word with the guarded names): a decompressor writes
    its operand's name *less* its suffix (``.gz``, ``-S SUF``), and ``gunzip -N`` the name
    the archive's header holds. ``gunzip ~/.gitconfig.gz`` writes ``~/.gitconfig`` (its
    ``core.fsmonitor`` runs at the covered ``git status``); ``gzip -d .npmrc.gz`` the
    project's ``.npmrc`` (guarded for ``npm test``, whose ``script-shell`` it runs)."""
    programs, entries, calls = DECOMPRESSED[case]
    needs(*programs)
    project = tmp_path / "project"
    gated_project(project, entries)
    _npm_project(project)
    _compressed(project)
    env = _proves(project, tmp_path, calls)
    assert env is not None
    assert _first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows a decompressor to write a guarded name less a suffix"


_open("test_d1_a_decompressor_writes_its_operand_less_the_suffix",
      "review s46 D1: open (s46-gfix)")
