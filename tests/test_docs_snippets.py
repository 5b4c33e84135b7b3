"""Every shell snippet of the README and the docs runs as written.

A ```sh block runs in bash and must exit 0. A ```console block is a session: each ``$ command``
line runs in bash, and what it prints (standard output and error, in order) must be the lines
shown after it, exactly; ``$ echo $?`` prints the status of the command before it.

A snippet runs in a fresh folder holding a copy of ``samples/`` (and a ``.git``, as a
repository would) and a ``.venv``: the fresh installation of tests/installed.py (not editable,
never activated: a ``.venv/bin/skillgrant`` snippet runs it as written, and what it prints names
it). A bare ``skillgrant`` is that installation's console script on ``PATH``, as an installed
tool would be, and ``/path/to/skillgrant`` stands for this checkout. A comment on the line before
the fence changes that:

- ``<!-- snippet: in docs/examples/NAME -->`` runs it in a copy of that folder instead (its
  files are the ones the snippet reads), after the folder's ``setup.sh`` when there is one
  (run once a session, in a copy each snippet then copies);
- ``<!-- snippet: not run: REASON -->`` leaves it out, and says why (a snippet that installs
  a fresh environment, or runs for minutes, is run elsewhere: the reason names where);
- ``<!-- snippet: slow, in docs/examples/NAME -->`` runs it as above, but
  only with ``--slow`` (.ci/steps/30-slow.sh): a snippet that builds an environment of its own
  (``pre-commit try-repo`` installs the package into one) costs tens of seconds of CPU.

``SKILLGRANT_SNIPPETS=update`` writes what each console session printed into its document
instead of comparing (then read the diff before committing it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import FIXED_PORT, REPO
from installed import Installed

DOCUMENTS = ["README.md", *sorted(p.relative_to(REPO).as_posix()
                                  for p in (REPO / "docs").glob("*.md")), "fuzz/README.md"]
_FENCE = re.compile(r"^```(sh|console)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
_MARKER = re.compile(r"<!-- snippet: (?P<slow>slow, )?(in (?P<cwd>\S+)|not run: (?P<reason>.+?))"
                     r" -->\n*\Z")
TIMEOUT = 300


class Snippet(NamedTuple):
    document: str
    line: int
    kind: str
    text: str
    cwd: str | None
    skip: str | None
    slow: bool = False

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line}"


def _snippets() -> list[Snippet]:
    found = []
    for document in DOCUMENTS:
        path = REPO / document
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            before = text[:match.start()]
            marker = _MARKER.search(before[-400:])
            found.append(Snippet(document, before.count("\n") + 1, match.group(1),
                                 match.group(2), marker and marker.group("cwd"),
                                 marker and marker.group("reason"),
                                 bool(marker and marker.group("slow"))))
    return found


SNIPPETS = _snippets()
RUN = [pytest.param(s, id=s.id, marks=[*([pytest.mark.slow] if s.slow else []),
                                        *([FIXED_PORT] if "127.0.0.1:8750" in s.text else [])])
       for s in SNIPPETS if s.skip is None]


@pytest.fixture(scope="session")
def prepared(tmp_path_factory: pytest.TempPathFactory,
             installed: Installed) -> Callable[[str], Path]:
    """``docs/examples/NAME`` copied and its ``setup.sh`` run, once a session for each NAME (a
    setup runs a dozen hook processes, or git): each snippet gets a copy of that folder."""
    made: dict[str, Path] = {}

    def folder(name: str) -> Path:
        if name not in made:
            where = tmp_path_factory.mktemp("example")
            work = where / "work"
            shutil.copytree(REPO / name, work, ignore=shutil.ignore_patterns("setup.sh"))
            setup = REPO / name / "setup.sh"
            if setup.exists():
                subprocess.run(["bash", str(setup)], cwd=work, check=True, capture_output=True,
                               timeout=TIMEOUT, env=_env(where, installed))
            made[name] = work
        return made[name]

    return folder


def _sandbox(tmp_path: Path, snippet: Snippet, installed: Installed,
             prepared: Callable[[str], Path]) -> Path:
    work = tmp_path / "work"
    if snippet.cwd is None:
        work.mkdir()
        shutil.copytree(REPO / "samples", work / "samples")
        (work / ".git").mkdir()
    else:
        shutil.copytree(prepared(snippet.cwd), work, symlinks=True)
    if not (work / ".venv").exists():
        (work / ".venv").symlink_to(installed.venv, target_is_directory=True)
    return work


def _env(tmp_path: Path, installed: Installed) -> dict[str, str]:
    """The fresh installation's ``skillgrant`` first on PATH (not its environment's folder:
    it is never activated); then the tests' environment, for tools such as pre-commit."""
    shim = tmp_path / "bin"
    if not shim.exists():
        shim.mkdir()
        (shim / "skillgrant").symlink_to(installed.skillgrant)
        (shim / "python").symlink_to(sys.executable)
    path = f"{shim}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLGRANT_")}
    env.update(PATH=path, NO_COLOR="1", COLUMNS="100", GIT_AUTHOR_NAME="docs",
               GIT_AUTHOR_EMAIL="docs@example.com", GIT_COMMITTER_NAME="docs",
               GIT_COMMITTER_EMAIL="docs@example.com")
    return env


def _bash(command: str, work: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = command.replace("/path/to/skillgrant", str(REPO))
    return subprocess.run(["bash", "-c", command], cwd=work, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)


def _session(text: str) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    for _, shown in steps:  # a blank line between two commands is not output
        while shown and not shown[-1]:
            shown.pop()
    return steps


@pytest.mark.parametrize("snippet", RUN)
def test_the_snippet_runs_as_written(snippet: Snippet, tmp_path: Path, installed: Installed,
                                    prepared: Callable[[str], Path]) -> None:
    env = _env(tmp_path, installed)
    work = _sandbox(tmp_path, snippet, installed, prepared)
    if snippet.kind == "sh":
        done = _bash(snippet.text, work, env)
        assert done.returncode == 0, f"{snippet.id}: exit {done.returncode}\n{done.stdout}"
        return
    status = 0
    session: list[str] = []
    for command, shown in _session(snippet.text):
        if command.strip() == "echo $?":
            printed = [str(status)]
        else:
            done = _bash(command, work, env)
            status = done.returncode
            printed = done.stdout.splitlines()
        session += [f"$ {command}", *printed]
        if os.environ.get("SKILLGRANT_SNIPPETS") != "update":
            assert printed == shown, f"{snippet.id}: $ {command}\n" + "\n".join(printed)
    if os.environ.get("SKILLGRANT_SNIPPETS") == "update":
        _rewrite(snippet, "\n".join(session) + "\n")


def _rewrite(snippet: Snippet, text: str) -> None:
    """Put ``text`` in place of the snippet's body (found by its text: an earlier rewrite may
    have moved its line)."""
    path = REPO / snippet.document
    document = path.read_text(encoding="utf-8")
    old = f"```console\n{snippet.text}```"
    assert old in document, snippet.id
    path.write_text(document.replace(old, f"```console\n{text}```", 1), encoding="utf-8")
