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
from collections.abc import Iterator
from pathlib import Path

import pytest
from bash_review import LeftOpen, bash, first_denied, home_env, needs
from files_fixture import gated_project

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: A git configuration whose ``core.fsmonitor`` runs the payload at the next ``git status``.
GITCONFIG = '[core]\n\tfsmonitor = "touch zz; false"\n'

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add


def _proves(project: Path, tmp_path: Path, calls: list[str], make_env: bool = True,
            cwd: str = "") -> dict[str, str] | None:
    """Runs ``calls`` (``{home}``: a fresh home's path) under real bash in a copy of
    ``project``; asserts the payload ran; the environment (with another fresh home) for the
    hook's run."""
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = home_env(tmp_path / "proof-home") if make_env else None
    home = proof["HOME"] if proof else ""
    for call in calls:
        bash(call.format(home=home), scratch / cwd, proof)
    assert any(scratch.rglob("zz")), "bash ran no payload: the case proves nothing"
    return home_env(tmp_path / "home") if make_env else None


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
    # gpg with no command guesses one: a literal data packet (`gpg --store`) is written out
    # under its own name less `.gpg`
    "gpg-store": (("npm", "gpg"), ["Bash(cp *)", "Bash(gpg *)", "Bash(npm test)"],
                  ["cp e.rc.gpg .npmrc.gpg", "gpg .npmrc.gpg", "npm test"]),
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
    if shutil.which("gpg"):
        keys = project.parent / "gnupg"
        keys.mkdir(mode=0o700)
        subprocess.run(["gpg", "--batch", "--store", "-o", "e.rc.gpg", "e.rc"], cwd=project,
                       check=True, capture_output=True, env={**os.environ,
                                                             "GNUPGHOME": str(keys)})
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
    assert first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows a decompressor to write a guarded name less a suffix"


# --- Claude Code: a skill file the gate reads otherwise than the runtime -------------------

#: (the skill's SKILL.md, the Skill call's args): each file's ``!`` command takes the args, and
#: the runtime (2.1.332's ``qd``, ``K0``, ``PIe``, ``_vt``) reads it otherwise than
#: ``skillargs`` does, so the gate finds no command the args fill.
SKILL_TEXTS = {
    # ``eC`` drops a byte-order mark before reading the frontmatter: ``arguments`` is read
    "byte-order-mark": ("\ufeff---\nname: other\ndescription: echo things\narguments: [who]\n"
                        "allowed-tools: Bash(echo *)\n---\nResult: !`echo $who`\n",
                        "$(touch zz)"),
    # YAML's block list at the key's own indentation: both names are the runtime's
    "block-list-unindented": ("---\nname: other\ndescription: echo things\narguments:\n"
                              "- who\n- what\nallowed-tools: Bash(echo *)\n---\n"
                              "Hello $who. Result: !`echo $what`\n", "hi 'x; touch zz'"),
    # a plain scalar continued on the next line is one value to YAML: ``who what``
    "folded-scalar": ("---\nname: other\ndescription: echo things\narguments: who\n  what\n"
                      "---\nHello $who. Result: !`echo $what`\n", "hi 'x; touch zz'"),
    # a key given twice: the runtime's YAML takes the last, the gate the first
    "key-twice": ("---\nname: other\ndescription: echo things\narguments: [who]\n"
                  "arguments: [what]\n---\nHello $who. Result: !`echo $what`\n",
                  "'x; touch zz'"),
    # a quoted key is the same key to YAML
    "quoted-key": ("---\nname: other\ndescription: echo things\n\"arguments\": [who]\n"
                   "allowed-tools: Bash(echo *)\n---\nResult: !`echo $who`\n", "$(touch zz)"),
    # ``K0`` (``/^---\s*\n([\s\S]*?)---\s*\n?/``) ends the frontmatter at the first ``---``,
    # in a line too: the lines after it are the body
    "dashes-in-a-value": ("---\nname: other\ndescription: echo things --- fast\n"
                          "Result: !`echo $ARGUMENTS`\n---\nbody\n", "hi; touch zz"),
    # ``----`` opens no frontmatter to ``K0``: the whole file is the body
    "four-dashes": ("----\nResult: !`echo $ARGUMENTS`\n---\nbody\n", "hi; touch zz"),
}


@pytest.mark.parametrize("case", list(SKILL_TEXTS))
def test_k2_the_runtime_reads_a_skill_file_otherwise_than_the_gate(tmp_path: Path,
                                                                   case: str) -> None:
    """K2 (skillargs._frontmatter: the frontmatter opens at ``---`` at the file's start and
    closes at a line of ``---``; ``arguments`` is a key at a line's start, a block list's
    items each indented): Claude Code 2.1.332 drops a byte-order mark first (``eC``), ends
    the frontmatter at the first ``---`` anywhere (``K0``), opens none at ``----``, and reads
    the frontmatter as YAML (a quoted key, a block list at the key's indentation). So the
    gate reads no placeholder where the runtime fills one, judges no filled command, and
    allows ``Skill(other, args=…)``; the runtime runs the command filled from the args. Plan
    ``Skill(other)``; measured with the pinned runtime (only the gate stands in the way, as
    in test_s45_greview's K1)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
    from cc_runtime import binary_path, run_session
    from cc_standin import StandIn

    binary = binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    text, args = SKILL_TEXTS[case]
    work = tmp_path / "work"
    project = work / "project"
    gated_project(project, ["Skill(other)"])
    skill = project / ".claude" / "skills" / "other"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    call = ("Skill", {"skill": "other", "args": args})
    with StandIn() as standin:
        url, session = standin.session([call])
        done, _ = run_session(binary, url, work, None, timeout=120, prompt="hello",
                              extra_args=["--allowedTools", "Skill(other)", "Bash"])
    result = session.results.get(session.call_id(0))
    assert result is not None, done.stderr[-2000:]
    assert not (project / "zz").exists(), \
        f"the gate let the skill's command run the call's arguments: {result}"


# --- a file system that folds case and normalizes names (macOS's APFS) ---------------------


@pytest.fixture
def apfs(tmp_path: Path) -> Iterator[Path]:
    """A folder whose names are looked up as APFS does: case folded (Unicode's folding, so
    ``ſ`` is ``s``) and normalization ignored (``é`` and ``e`` + U+0301 are one name): test_s45
    _greview's FUSE passthrough, its folding widened; skipped without fusepy, libfuse or
    ``/dev/fuse``."""
    import importlib.util
    import sys
    import time

    from test_s45_greview import CASEFS

    if importlib.util.find_spec("fuse") is None or not os.path.exists("/dev/fuse"):
        pytest.skip("no fusepy or /dev/fuse here (a case-insensitive file system's stand-in)")
    needs("fusermount")
    folding = CASEFS.replace("import errno", "import errno\nimport unicodedata").replace(
        "part.casefold()", 'unicodedata.normalize("NFD", part).casefold()').replace(
        "n.casefold()", 'unicodedata.normalize("NFD", n).casefold()')
    assert folding.count("unicodedata.normalize") == 2
    back, mount = tmp_path / "back", tmp_path / "folded"
    back.mkdir()
    mount.mkdir()
    (tmp_path / "apfs.py").write_text(folding)
    server = subprocess.Popen([sys.executable, str(tmp_path / "apfs.py"), str(back),
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


#: (the folder the project is made in, the calls): ``{here}`` is the project's path spelled
#: in NFD (``é`` as ``e`` + U+0301) where it is made in ``café``.
FOLDED = {
    "long-s": ("plain", ["cp evil.json package.j\u017fon", "npm test"]),
    "nfd-path": ("caf\u00e9", ["cp evil.json {here}/package.json", "npm test"]),
    # the ligature ``\ufb01`` folds to ``fi`` (Claude Code's own macOS sandbox spells its
    # denied paths with it for that reason); plan Bash(cp *), Bash(make test)
    "fi-ligature": ("plain", ["cp evil.mk Make\ufb01le", "make test"]),
}


@pytest.mark.parametrize("case", list(FOLDED))
def test_x2_apfs_folds_what_lower_does_not(apfs: Path, case: str) -> None:
    """X2 (guards._touches, named, composed: a path is compared lower-cased, ``str.lower``;
    s45 X1): APFS compares names by Unicode case folding, under which ``ſ`` (U+017F) is
    ``s`` (``"ſ".lower()`` is ``ſ``), and ignores normalization, so a path spelled in NFD
    is the NFC one. ``cp evil.json package.jſon`` replaces the ``package.json`` the plan's
    ``npm test`` runs (guarded for it); so does the project's own path in NFD. Plan
    ``Bash(cp *)``, ``Bash(npm test)``; measured on a FUSE stand-in that folds as APFS does."""
    import unicodedata

    needs("npm", "make")
    folder, calls = FOLDED[case]
    project = apfs / folder / "project"
    gated_project(project, ["Bash(cp *)", "Bash(npm test)", "Bash(make test)"])
    _npm_project(project)
    (project / "Makefile").write_text("test:\n\techo ok\n")
    (project / "evil.mk").write_text("test:\n\ttouch zz\n")
    (project / "evil.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "touch zz"}}))
    scratch = apfs / folder / "scratch"
    shutil.copytree(project, scratch, symlinks=True)

    def spelled(where: Path) -> list[str]:
        here = unicodedata.normalize("NFD", str(where))
        return [c.format(here=here) for c in calls]

    for call in spelled(scratch):
        bash(call, scratch)
    assert (scratch / "zz").exists(), "npm/make ran no payload: the case proves nothing"
    assert first_denied(project, spelled(project)) is not None, \
        "the hook allows a write of package.json (Makefile) spelled as APFS folds it"


# --- a program's own settings, written after two options with values -----------------------

#: (the program needed, the plan, the calls)
OWN_AFTER_OPTIONS = {
    "kubectl": ("kubectl", ["Bash(kubectl *)"],
                ["kubectl -v 0 --request-timeout 5 config set-cluster c "
                 "--server=https://127.0.0.1:1",
                 "kubectl -v 0 --request-timeout 5 config set-credentials u --exec-command=touch "
                 "--exec-arg=zz --exec-api-version=client.authentication.k8s.io/v1beta1",
                 "kubectl -v 0 --request-timeout 5 config set-context x --cluster=c --user=u",
                 "kubectl -v 0 --request-timeout 5 config use-context x",
                 "kubectl get pods"]),
    "aws": ("aws", ["Bash(aws *)"],
            ["aws --region us-east-1 --output json configure set credential_process ./e.sh",
             "aws s3 ls"]),
}


@pytest.mark.parametrize("case", list(OWN_AFTER_OPTIONS))
def test_s2_own_settings_after_two_options_with_values(tmp_path: Path, case: str) -> None:
    """S2 (ownsettings.own_settings: the subcommand is looked for among the first two words
    after the program that do not start with ``-``; an option's value is such a word):
    ``kubectl -v 0 --request-timeout 5 config set-credentials … --exec-command=…`` puts the
    values ``0`` and ``5`` first, so ``config`` is the third plain word and the write of
    ``~/.kube/config`` is not seen; so for ``aws --region R --output json configure set
    credential_process``. The covered ``kubectl get pods`` / ``aws s3 ls`` runs the exec
    credential plugin / the credential process. Plans ``Bash(kubectl *)``, ``Bash(aws *)``
    (neither runs code of the model's choosing; ``kubectl config …`` alone is denied)."""
    program, entries, calls = OWN_AFTER_OPTIONS[case]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, entries)
    _npm_project(project)
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows a program to write its own settings after two valued options"


# --- a program's plugins found by name in the user's data folder ---------------------------


def test_e1_gh_runs_the_extension_of_its_subcommands_name(tmp_path: Path) -> None:
    """E1 (homefiles.HOME_CODE guards ``~/.config/gh`` and ``~/.local/bin``, ``~/.local/lib``,
    not ``~/.local/share``): ``gh NAME`` for a name that is no command of gh's runs the
    extension ``$XDG_DATA_HOME/gh/extensions/gh-NAME/gh-NAME`` (``~/.local/share/gh/…``),
    as a git's ``git-NAME`` on PATH. A plan granting an extension's run (``Bash(gh dash)``,
    ``gh copilot …``, ``gh poi``) beside ``Bash(cp *)``, ``Bash(mkdir *)`` lets the model
    write that program (replace the user's, or plant one) and then run it. Measured with
    gh 2.23."""
    needs("gh")
    project = tmp_path / "project"
    gated_project(project, ["Bash(mkdir *)", "Bash(cp *)", "Bash(gh dash)"])
    _npm_project(project)
    calls = ["mkdir -p {home}/.local/share/gh/extensions/gh-dash",
             "cp e.sh {home}/.local/share/gh/extensions/gh-dash/gh-dash", "gh dash"]
    env = _proves(project, tmp_path, calls)
    assert env is not None
    assert first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows writing the gh extension the plan's gh dash runs"


# --- a type checker's option names the interpreter it runs ---------------------------------


def _mypy_env(tmp_path: Path) -> dict[str, str] | None:
    """The session's environment with a folder holding ``mypy`` first on PATH (/work/venv's
    where the session's has none); None when there is none."""
    import sys

    found = shutil.which("mypy") or shutil.which("mypy", path=str(Path(sys.executable).parent))
    if found is None and Path("/work/venv/bin/mypy").exists():
        found = "/work/venv/bin/mypy"
    if found is None:
        return None
    return {**os.environ, "PATH": f"{Path(found).parent}:{os.environ.get('PATH', '')}"}


def test_m1_mypy_runs_the_python_executable_it_is_given(tmp_path: Path) -> None:
    """M1 (planprograms reads mypy's settings files and ``--config-file``; optables no option
    of mypy's as running a program): ``mypy --python-executable PATH`` runs PATH (``PATH
    pyinfo.py getsearchdirs``) to find the site-packages of another interpreter. Plan
    ``Bash(mypy *)`` (a type checker, which imports no code of the project) runs the
    model's ``./e.sh``. (``dmypy run -- --python-executable …`` likewise.) Measured with
    mypy 2.4.1."""
    env = _mypy_env(tmp_path)
    if env is None:
        pytest.skip("no mypy here")
    project = tmp_path / "project"
    gated_project(project, ["Bash(mypy *)"])
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x = 1\n")
    (project / "e.sh").write_text('#!/bin/sh\ntouch zz\necho "[[], []]"\n')
    (project / "e.sh").chmod(0o755)
    calls = ["mypy --python-executable ./e.sh src"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch, env)
    assert (scratch / "zz").exists(), "mypy ran no payload: the case proves nothing"
    assert first_denied(project, calls, env) is not None, \
        "the hook allows mypy to run the interpreter its option names"


# --- a compressor writes its operand plus the suffix it is given -----------------------------


def test_d2_gzip_writes_its_operand_plus_the_suffix_it_is_given(tmp_path: Path) -> None:
    """D2 (composed.COMPOSES names the programs whose suffix makes a name, cp/mv/install/ln/
    patch/tar/rsync/sed/split: not gzip): ``gzip -S rc .npm`` writes ``.npmrc``. Deflate
    keeps an incompressible input in stored blocks, so a line among random bytes is written
    as it is, and npm's ini reader takes it (``script-shell=./e.sh``), skipping the noise.
    Plan ``Bash(cp *)``, ``Bash(gzip *)``, ``Bash(npm test)`` (``-Src``, ``--suffix=rc``
    too; ``gzip -S ig ~/.gitconf`` writes ``~/.gitconfig``, and ``-S rc ~/.bash`` a
    ``~/.bashrc`` whose noise bash skips)."""
    import random

    needs("npm")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(gzip *)", "Bash(npm test)"])
    _npm_project(project)
    noise = random.Random(46)
    (project / "noise").write_bytes(
        noise.randbytes(3000).replace(b"=", b"x") + b"\nscript-shell=./e.sh\n"
        + noise.randbytes(3000).replace(b"=", b"x"))
    calls = ["cp noise .npm", "gzip -S rc .npm", "npm test"]
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows gzip to write .npmrc as .npm plus a suffix"


# --- a subagent's worktree: git runs the hooks folder its configuration names there ---------

#: A committer for git commit under a fresh environment.
_COMMITTER = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
              "GIT_COMMITTER_EMAIL": "a@b"}


def _worktree_project(project: Path, entries: list[str]) -> Path:
    """A gated project whose git runs the hooks of ``.githooks`` (``core.hooksPath``, a path
    relative to each working tree), with a linked worktree where Claude Code puts an isolated
    subagent's (``.claude/worktrees/w``); the worktree."""
    gated_project(project, entries)
    (project / "src").mkdir()
    (project / "src" / "x.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "src" / "x.sh").chmod(0o755)
    (project / ".githooks").mkdir()
    subprocess.run(["git", "config", "core.hooksPath", ".githooks"], cwd=project, check=True)
    worktree = project / ".claude" / "worktrees" / "w"
    subprocess.run(["git", "worktree", "add", "-q", str(worktree)], cwd=project, check=True,
                   capture_output=True, env={**os.environ, **_COMMITTER})
    return worktree


def test_w1_a_worktrees_relative_hooks_folder_is_written_from_the_main_tree(
        tmp_path: Path) -> None:
    """W1 (placed.in_worktree: a path under ``.claude/worktrees/NAME/`` is writable but for
    ``_IN_TREE``'s names; guards guards the configured hooks folder of the call's and the
    project's repository): a relative ``core.hooksPath`` (``.githooks``; husky's ``.husky/_``)
    is read from the top of each working tree, so a linked worktree's hooks are
    ``.claude/worktrees/w/.githooks``. The main session writes them (``mkdir -p``, ``cp``:
    allowed; ``.githooks/pre-commit`` of the main tree is denied), and the subagent's covered
    ``git commit`` in its worktree runs them. Plan ``Bash(mkdir *)``, ``Bash(cp *)``,
    ``Bash(git commit *)``; the last call is the subagent's (its folder the worktree)."""
    entries = ["Bash(mkdir *)", "Bash(cp *)", "Bash(git commit *)"]
    main = ["mkdir -p .claude/worktrees/w/.githooks",
            "cp src/x.sh .claude/worktrees/w/.githooks/pre-commit"]
    sub = ["git commit --allow-empty -m x"]
    env = {**os.environ, **_COMMITTER}
    proof = tmp_path / "proof"
    worktree = _worktree_project(proof, entries)
    for call in main:
        bash(call, proof, env)
    for call in sub:
        bash(call, worktree, env)
    assert (worktree / "zz").exists(), "git ran no hook: the case proves nothing"
    project = tmp_path / "project"
    worktree = _worktree_project(project, entries)
    denied = first_denied(project, main, env) or first_denied(project, sub, env, worktree)
    assert denied is not None, \
        "the hook allows writing the hooks a subagent's worktree's git commit runs"


# --- the standard library of the plan's Python, not the hook's -----------------------------


def _newer_python() -> Path | None:
    """A folder holding a ``python3`` newer than the hook's whose standard library has
    ``_colorize`` (3.13), or None."""
    import glob
    import sys

    if "_colorize" in sys.stdlib_module_names:
        return None
    for folder in sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[3-9]*/bin"))):
        done = subprocess.run([f"{folder}/python3", "-c", "import sys; print("
                               "'_colorize' in sys.stdlib_module_names)"],
                              capture_output=True, text=True, check=False)
        if done.stdout.strip() == "True":
            return Path(folder)
    return None


def test_v1_a_module_of_the_plans_python_that_the_hooks_does_not_have(tmp_path: Path) -> None:
    """V1 (placed._STANDARD is the hook's interpreter's ``sys.stdlib_module_names``): the
    files that would shadow a standard module in the folder first on a plan's Python's
    ``sys.path`` are guarded by the names of the *hook's* Python (3.11 here). Python 3.13's
    ``traceback`` imports ``_colorize`` (new in 3.13), so under a ``python3`` that is 3.13,
    ``cp evil.py _colorize.py`` (allowed; ``json.py`` is denied) and the covered ``python3
    -m unittest`` run it from the call's folder. Plan ``Bash(cp *)``, ``Bash(python3 -m
    unittest)``; PATH's ``python3`` a pyenv 3.13."""
    folder = _newer_python()
    if folder is None:
        pytest.skip("no Python 3.13+ beside an older hook here")
    env = {**os.environ, "PATH": f"{folder}:{os.environ.get('PATH', '')}"}
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(python3 -m unittest)"])
    (project / "evil.py").write_text('open("zz", "w").close()\n')
    calls = ["cp evil.py _colorize.py", "python3 -m unittest"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch, env)
    assert (scratch / "zz").exists(), "python ran no payload: the case proves nothing"
    assert first_denied(project, calls, env) is not None, \
        "the hook allows shadowing a standard module of the plan's newer Python"


# --- the folders a session's variables name as an interpreter's modules ---------------------

#: (the variable, its folder under the home, the plan, the calls, the payload's file)
MODULE_FOLDERS = {
    # local::lib's usual setting; shasum (and json_pp, cloc, exiftool, parallel) are perl
    "PERL5LIB-shasum": ("PERL5LIB", "perl5/lib/perl5",
                        ["Bash(mkdir *)", "Bash(cp *)", "Bash(shasum *)"],
                        ["mkdir -p {lib}/Getopt", "cp evil.pm {lib}/Getopt/Long.pm",
                         "shasum notes.txt"]),
    "PYTHONPATH-unittest": ("PYTHONPATH", "pylib",
                            ["Bash(mkdir *)", "Bash(cp *)", "Bash(python3 -m unittest)"],
                            ["mkdir -p {lib}", "cp evil.py {lib}/argparse.py",
                             "python3 -m unittest"]),
}


@pytest.mark.parametrize("case", list(MODULE_FOLDERS))
def test_l2_a_variable_names_the_folder_an_interpreter_takes_modules_from_first(
        tmp_path: Path, case: str) -> None:
    """L2 (homefiles.MOVED_CODE guards the folders ``NODE_PATH`` and ``LD_LIBRARY_PATH``
    name, not ``PERL5LIB``/``PERLLIB``, ``PYTHONPATH``, ``RUBYLIB``, ``GEM_PATH``,
    ``CLASSPATH``): perl searches ``PERL5LIB``'s folders before its own library, Python
    ``PYTHONPATH``'s before the standard library. With the session's ``PERL5LIB`` at
    ``~/perl5/lib/perl5`` (local::lib), ``Getopt/Long.pm`` written there runs at the plan's
    ``shasum`` (a perl script); with ``PYTHONPATH`` at ``~/pylib``, ``argparse.py`` runs at
    ``python3 -m unittest``. Plans ``Bash(mkdir *)``, ``Bash(cp *)`` and the program."""
    variable, folder, entries, calls = MODULE_FOLDERS[case]
    needs("shasum" if variable == "PERL5LIB" else "python3")
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / "evil.pm").write_text('system("touch zz"); 1;\n')
    (project / "evil.py").write_text('open("zz", "w").close()\n')
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = home_env(tmp_path / "proof-home")
    lib = f"{proof['HOME']}/{folder}"
    proof[variable] = lib
    for call in calls:
        bash(call.format(lib=lib), scratch, proof)
    assert (scratch / "zz").exists(), "the interpreter ran no payload: the case proves nothing"
    env = home_env(tmp_path / "home")
    lib = env[variable] = f"{env['HOME']}/{folder}"
    assert first_denied(project, [c.format(lib=lib) for c in calls], env) is not None, \
        f"the hook allows writing a module in the folder {variable} names"


# --- cargo's configuration given on its command line -----------------------------------------

#: (the plan, the call): each sets a program cargo runs (``build.rustc-wrapper``, a target's
#: ``linker``) from the command line, or names a configuration file holding one.
CARGO_CONFIG = {
    "config-value": ["cargo build --config 'build.rustc-wrapper=\"./e.sh\"'"],
    # (a relative path in the file is read from the folder above the file's)
    "config-file": ["cargo build --config cfg/evil.toml"],
}


@pytest.mark.parametrize("case", list(CARGO_CONFIG))
def test_c2_cargo_build_runs_the_program_its_config_option_names(tmp_path: Path,
                                                                  case: str) -> None:
    """C2 (planprograms guards ``Cargo.toml``, ``build.rs``, ``.cargo/`` and the target
    folders for a plan running cargo; cargo's ``--config KEY=VALUE`` / ``--config FILE`` are
    read as no program run): ``cargo build --config build.rustc-wrapper=./e.sh`` runs
    ``./e.sh rustc -vV`` before it compiles anything; a configuration file the option names
    (``--config cfg/evil.toml``, with ``[build] rustc-wrapper``) does the same. Plan ``Bash(cargo
    build *)`` (``--release``, features: the project's own build, whose ``build.rs`` the gate
    guards)."""
    needs("cargo")
    calls = CARGO_CONFIG[case]
    project = tmp_path / "project"
    gated_project(project, ["Bash(cargo build *)"])
    manifest = '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n'
    (project / "Cargo.toml").write_text(manifest)
    (project / "src").mkdir()
    (project / "src" / "main.rs").write_text("fn main() {}\n")
    (project / "e.sh").write_text('#!/bin/sh\ntouch zz\nexec "$@"\n')
    (project / "e.sh").chmod(0o755)
    (project / "cfg").mkdir()
    (project / "cfg" / "evil.toml").write_text('[build]\nrustc-wrapper = "./e.sh"\n')
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows cargo build to run the program its --config names"


def _built_into(project: Path, folder: str) -> list[str]:
    """test_s45_greview's ``_built_crate``, built with ``cargo build --target-dir FOLDER``
    (a covered call of the plan ``Bash(cp *)``, ``Bash(cargo build *)``); the calls that
    replace its compiled build script and run it again."""
    gated_project(project, ["Bash(cp *)", "Bash(cargo build *)"])
    (project / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (project / "src").mkdir()
    (project / "src" / "main.rs").write_text("fn main() {}\n")
    (project / "build.rs").write_text(
        'fn main() { println!("cargo:rerun-if-changed=data.txt"); }\n')
    (project / "data.txt").write_text("1\n")
    (project / "two.txt").write_text("2\n")
    (project / "eb").mkdir()
    (project / "eb" / "build-script-build").write_text("#!/bin/sh\ntouch zz\n")
    (project / "eb" / "build-script-build").chmod(0o755)
    build = ["cargo", "build", "-q", "--target-dir", folder]
    subprocess.run(build, cwd=project, check=True, capture_output=True, timeout=600)
    built = next(project.glob(f"{folder}/debug/build/x-*/build-script-build")).parent
    return [f"cp -r eb/. {built.relative_to(project)}/", "cp two.txt data.txt",
            f"cargo build --target-dir {folder}"]


def test_c3_cargo_build_target_dir_moves_what_cargodirs_guards(tmp_path: Path) -> None:
    """C3 (in s46-gfix: cargodirs guards ``target/`` from the call's folder up and the folders
    ``CARGO_TARGET_DIR``, ``CARGO_BUILD_TARGET_DIR`` and ``build.target-dir`` name, not
    cargo's ``--target-dir`` option): a project built with ``cargo build --target-dir out/t``
    keeps its compiled build script in ``out/t/debug/build/PKG-HASH/``; a folder copy over
    it and a change of the file it watches are allowed, and the same covered build runs the
    new build-script-build (review s45 P2's case, the folder moved by the option)."""
    needs("cargo")
    scratch = tmp_path / "scratch" / "project"
    for call in _built_into(scratch, "out/t"):
        bash(call, scratch)
    assert any(scratch.rglob("zz")), "cargo ran no build script: the case proves nothing"
    project = tmp_path / "project"
    calls = _built_into(project, "out/t")
    assert first_denied(project, calls) is not None, \
        "the hook allows replacing the build script cargo keeps in its --target-dir"


#: (the program, the plan, the calls): zstd's other names, each a decompressor writing its
#: operand less ``.zst``.
ZSTD_NAMES = {
    "zstdmt": ["cp e.rc.zst .npmrc.zst", "zstdmt -d .npmrc.zst", "npm test"],
    "pzstd": ["cp e.rc.zst .npmrc.zst", "pzstd -d .npmrc.zst", "npm test"],
}


@pytest.mark.parametrize("case", list(ZSTD_NAMES))
def test_d3_zstds_other_names_decompress_as_it_does(tmp_path: Path, case: str) -> None:
    """D3 (in s46-gfix: composed.SHORTENS names gzip, xz, zstd, lz4, … and their ``un``
    forms, not ``zstdmt`` (zstd's multi-threaded name, a link to it) nor ``pzstd`` (zstd's
    parallel one)): ``zstdmt -d .npmrc.zst`` writes ``.npmrc``, whose ``script-shell`` the
    covered ``npm test`` runs. Plan ``Bash(cp *)``, ``Bash(<program> *)``, ``Bash(npm
    test)``."""
    needs("npm", "zstd", case)
    calls = ZSTD_NAMES[case]
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({case} *)", "Bash(npm test)"])
    _npm_project(project)
    subprocess.run(["zstd", "-q", "e.rc"], cwd=project, check=True, capture_output=True)
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows zstd under another name to write .npmrc"


#: Twelve repeats of a global option with its value: 24 words before the subcommand.
_MANY = " ".join(["-v 0"] * 12)
#: (the program needed, the plan, the calls)
OWN_PAST_THE_WINDOW = {
    "kubectl": ("kubectl", ["Bash(kubectl *)"],
                [f"kubectl {_MANY} config set-cluster c --server=https://127.0.0.1:1",
                 f"kubectl {_MANY} config set-credentials u --exec-command=touch "
                 "--exec-arg=zz --exec-api-version=client.authentication.k8s.io/v1beta1",
                 f"kubectl {_MANY} config set-context x --cluster=c --user=u",
                 f"kubectl {_MANY} config use-context x", "kubectl get pods"]),
    "aws": ("aws", ["Bash(aws *)"],
            [" ".join(["aws", *["--output json"] * 12,
                       "configure set credential_process ./e.sh"]), "aws s3 ls"]),
}


@pytest.mark.parametrize("case", list(OWN_PAST_THE_WINDOW))
def test_s3_own_settings_past_the_subcommand_window(tmp_path: Path, case: str) -> None:
    """S3 (in s46-gfix: ownsettings._subcommand looks for the settings word among the 23 words
    after the program): a global option repeated (``-v 0`` twelve times; kubectl and aws take
    the last) puts ``config``/``configure`` past the window, so S2's writes pass again."""
    program, entries, calls = OWN_PAST_THE_WINDOW[case]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, entries)
    _npm_project(project)
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows a program to write its own settings past the window"


def _with_help(call: str) -> str:
    """``call`` with a comment holding its first three words and ``--help``."""
    return f"{call} # {' '.join(call.split()[:3])} --help"


#: (the program needed, the plan, the calls): each write carries a comment saying it with
#: ``--help``.
OWN_WITH_HELP = {
    "kubectl": ("kubectl", ["Bash(kubectl *)"],
                [*map(_with_help, [
                    "kubectl config set-cluster c --server=https://127.0.0.1:1",
                    "kubectl config set-credentials u --exec-command=touch --exec-arg=zz "
                    "--exec-api-version=client.authentication.k8s.io/v1beta1",
                    "kubectl config set-context x --cluster=c --user=u",
                    "kubectl config use-context x"]), "kubectl get pods"]),
    "aws": ("aws", ["Bash(aws *)"],
            [_with_help("aws configure set credential_process ./e.sh"), "aws s3 ls"]),
}


@pytest.mark.parametrize("case", list(OWN_WITH_HELP))
def test_s4_a_settings_write_beside_its_help_in_the_text(tmp_path: Path, case: str) -> None:
    """S4 (in s46-gfix: ownsettings.own_settings reads a settings command as a read when the
    command's text holds its words followed by `` --help``, anywhere): a comment (``# kubectl
    config set-credentials --help``), or a second command (``…; kubectl config
    set-credentials --help``), holds that text, so the write beside it passes."""
    program, entries, calls = OWN_WITH_HELP[case]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, entries)
    _npm_project(project)
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows a settings write whose text also says it with --help"


def test_l3_sitecustomize_in_a_pythonpath_folder_runs_at_every_start(tmp_path: Path) -> None:
    """L3 (in s46-gfix: a ``PYTHONPATH`` folder is guarded as a module folder, its standard
    modules' names, review s46 L2): Python's ``site`` imports ``sitecustomize`` (and
    ``usercustomize``) from ``sys.path`` at start-up, when ``PYTHONPATH``'s folders are on it
    (the call's folder is not yet); neither is a standard module's name. With the session's
    ``PYTHONPATH`` at ``~/pylib``, ``cp evil.py ~/pylib/sitecustomize.py`` (allowed;
    ``argparse.py`` is denied) runs at the plan's next Python. Plan ``Bash(cp *)``,
    ``Bash(python3 -m unittest)``."""
    needs("python3")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(python3 -m unittest)"])
    (project / "evil.py").write_text('open("zz", "w").close()\n')
    calls = ["cp evil.py {lib}/sitecustomize.py", "python3 -m unittest"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = home_env(tmp_path / "proof-home")
    lib = proof["PYTHONPATH"] = f"{proof['HOME']}/pylib"
    os.mkdir(lib)  # (the user's folder, there before the session)
    for call in calls:
        bash(call.format(lib=lib), scratch, proof)
    assert (scratch / "zz").exists(), "python ran no payload: the case proves nothing"
    env = home_env(tmp_path / "home")
    lib = env["PYTHONPATH"] = f"{env['HOME']}/pylib"
    os.mkdir(lib)
    assert first_denied(project, [c.format(lib=lib) for c in calls], env) is not None, \
        "the hook allows writing sitecustomize.py in a PYTHONPATH folder"


# --- what a git hook runs reads files no plan program does ----------------------------------


def test_h2_a_git_hook_runs_npm_test_on_a_package_json_the_plan_does_not_guard(
        tmp_path: Path) -> None:
    """H2 (guards guards the hooks folder git runs, and planprograms what the *plan's*
    programs read; not what a hook runs): a project whose pre-commit hook runs ``npm test``
    (husky's and lint-staged's usual shape; here ``core.hooksPath=.githooks``). The plan has
    no npm, so ``package.json`` is no guarded file: ``cp evil.json package.json`` is allowed,
    and the covered ``git commit`` runs the hook, which runs the new ``test`` script. Plan
    ``Bash(cp *)``, ``Bash(git commit *)``."""
    needs("npm")
    env = {**os.environ, **_COMMITTER}

    def build(project: Path) -> None:
        gated_project(project, ["Bash(cp *)", "Bash(git commit *)"])
        (project / ".githooks").mkdir()
        (project / ".githooks" / "pre-commit").write_text("#!/bin/sh\nnpm test\n")
        (project / ".githooks" / "pre-commit").chmod(0o755)
        subprocess.run(["git", "config", "core.hooksPath", ".githooks"], cwd=project,
                       check=True)
        (project / "package.json").write_text(json.dumps(
            {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
        (project / "evil.json").write_text(json.dumps(
            {"name": "x", "version": "1.0.0", "scripts": {"test": "touch zz"}}))

    calls = ["cp evil.json package.json", "git commit --allow-empty -m x"]
    scratch = tmp_path / "scratch"
    build(scratch)
    for call in calls:
        bash(call, scratch, env)
    assert (scratch / "zz").exists(), "the hook ran no payload: the case proves nothing"
    project = tmp_path / "project"
    build(project)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows writing the package.json a git hook's npm test runs"


def test_h3_a_make_recipe_runs_npm_test_on_a_package_json_the_plan_does_not_guard(
        tmp_path: Path) -> None:
    """H3 (planprograms.STARTS guards make's makefiles, not what their recipes' programs
    read): ``make test`` whose recipe is ``npm test`` (a common Makefile) runs the ``test``
    script of a ``package.json`` no plan entry names: ``cp evil.json package.json`` is
    allowed, the covered ``make test`` runs it. Plan ``Bash(cp *)``, ``Bash(make test)``."""
    needs("npm", "make")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(make test)"])
    (project / "Makefile").write_text("test:\n\tnpm test\n")
    (project / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
    (project / "evil.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "touch zz"}}))
    calls = ["cp evil.json package.json", "make test"]
    env = _proves(project, tmp_path, calls)
    assert first_denied(project, calls, env) is not None, \
        "the hook allows writing the package.json make test's recipe runs"


# --- npm's global configuration under a user's prefix --------------------------------------


def test_n2_npm_reads_the_global_npmrc_of_the_users_prefix(tmp_path: Path) -> None:
    """N2 (homefiles guards ``~/.npmrc``; npm's global configuration is ``$PREFIX/etc/npmrc``,
    guarded where the prefix is a system folder, ``/usr``, or a version manager's): npm's own
    fix for global installs without root sets ``prefix=~/.npm-global`` in ``~/.npmrc`` and puts
    ``~/.npm-global/bin`` on PATH. npm then reads ``~/.npm-global/etc/npmrc`` as its global
    configuration, whose ``script-shell`` the covered ``npm test`` runs; ``mkdir -p`` and
    ``cp e.rc`` there are allowed. Plan ``Bash(mkdir *)``, ``Bash(cp *)``, ``Bash(npm
    test)``."""
    needs("npm")
    project = tmp_path / "project"
    gated_project(project, ["Bash(mkdir *)", "Bash(cp *)", "Bash(npm test)"])
    _npm_project(project)
    calls = ["mkdir -p {home}/.npm-global/etc", "cp e.rc {home}/.npm-global/etc/npmrc",
             "npm test"]

    def prefixed(home: Path) -> dict[str, str]:
        env = home_env(home)
        (home / ".npm-global" / "bin").mkdir(parents=True)
        (home / ".npmrc").write_text(f"prefix={home}/.npm-global\n")
        env["PATH"] = f"{home}/.npm-global/bin:{env.get('PATH', '')}"
        return env

    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = prefixed(tmp_path / "proof-home")
    for call in calls:
        bash(call.format(home=proof["HOME"]), scratch, proof)
    assert (scratch / "zz").exists(), "npm ran no payload: the case proves nothing"
    env = prefixed(tmp_path / "home")
    assert first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows writing the global npmrc of the user's npm prefix"


