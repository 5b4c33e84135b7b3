"""``python -m skillgrant ARGS`` for tests that run it many times: ``run`` forks each command from
one server interpreter that has imported the console script's entry point, the hook's modules
and the typer app already, instead of starting a new interpreter (about a fifth of a second
of CPU each).

The child is a process of its own: its standard input, output and error are files, its
working folder and environment are the ones asked for, it runs ``skillgrant.cli.entry.main``
(what ``python -m skillgrant`` and the console script run) and its exit status is the
command's; SIGALRM ends it after ``timeout`` seconds. What differs from a new interpreter: the
modules the server imported are not imported again, and ``sys.argv[0]`` names this file (a
usage text would name it). So the tests that check start-up, help texts, imports or
concurrency run real processes; tests that check what a command writes may use this. One
server a test process (a pytest-xdist worker has its own), asked one command at a time.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import locale
import os
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from typing import Any

_SERVER: subprocess.Popen[str] | None = None
_LOCK = threading.Lock()


def run(args: list[str], *, input: bytes | str | None = None, cwd: Path | str | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``python -m skillgrant *args`` forked by the server: its status, stdout and stderr as
    bytes (``input``: standard input; ``env``: the whole environment, else this one's)."""
    global _SERVER
    data = input.encode("utf-8") if isinstance(input, str) else (input or b"")
    request = {"args": args, "stdin": data.hex(), "cwd": str(cwd or os.getcwd()),
               "env": dict(os.environ if env is None else env), "timeout": int(timeout) + 1}
    with _LOCK:
        if _SERVER is None or _SERVER.poll() is not None:
            _SERVER = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)
            atexit.register(_stop, _SERVER)
        assert _SERVER.stdin is not None and _SERVER.stdout is not None
        _SERVER.stdin.write(json.dumps(request) + "\n")
        _SERVER.stdin.flush()
        answer = json.loads(_SERVER.stdout.readline())
    return subprocess.CompletedProcess(["skillgrant", *args], answer["status"],
                                       bytes.fromhex(answer["stdout"]),
                                       bytes.fromhex(answer["stderr"]))


def run_text(args: list[str], *, input: str | None = None, cwd: Path | str | None = None,
             env: dict[str, str] | None = None,
             timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``run`` read as ``subprocess.run(..., capture_output=True, text=True)`` reads a new
    process's: its input encoded and its output decoded in the locale's encoding, the output's
    line ends read as universal newlines."""
    encoding = locale.getpreferredencoding(False)
    done = run(args, input=None if input is None else input.encode(encoding), cwd=cwd, env=env,
               timeout=timeout)
    text = [io.TextIOWrapper(io.BytesIO(data), encoding=encoding).read()
            for data in (done.stdout, done.stderr)]
    return subprocess.CompletedProcess(done.args, done.returncode, *text)


def _stop(server: subprocess.Popen[str]) -> None:
    """End the server (it stops at the end of its input) and wait for it."""
    if server.stdin is not None:
        server.stdin.close()
    server.wait(timeout=60)


def _child(request: dict[str, Any], paths: list[str]) -> None:
    """Run one command with its streams on these files; never returns."""
    from skillgrant.cli import entry

    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for fd, path, flags in zip((0, 1, 2), paths, (os.O_RDONLY, os.O_WRONLY, os.O_WRONLY),
                               strict=True):
        opened = os.open(path, flags)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115  (the server's was the null device)
    signal.alarm(request["timeout"])
    code = 1
    try:
        entry.main(request["args"])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # as the interpreter would: the traceback, then status 1
        traceback.print_exc()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


#: The modules the suite's commands import on first use (the plan's model and pydantic, the
#: SKILL.md reader and PyYAML, the reports, the gate's readers of a plan's programs), imported
#: once by the server: each child imported them again, about half its CPU (session 62: the
#: modules its children loaded, listed over tests/gate/test_hook*.py and test_report_schemas).
#: A warm-up only: a name no longer there is passed over; every folder they load from is one a
#: child already imports from (the interpreter's and the package's).
_WARM = {
    "skillgrant": ("combined", "frozen", "prover", "reports", "review", "rules", "runtimes"),
    "skillgrant.cli": ("batch", "discovery", "evidence", "review"),
    "skillgrant.domains": ("agent", "mcp", "path", "pathlang", "pathpattern", "plainnames",
                           "skill", "web"),
    "skillgrant.evidence": ("candidates", "chain", "groups", "levels", "read", "replay", "suggest"),
    "skillgrant.gate": ("bashparser", "composed", "config", "crosscheck", "following",
                        "interpreters", "intotests", "lexical", "members", "planprograms",
                        "pytestini", "reprint", "shell", "shellnodes", "shellwords", "sitenames"),
    "skillgrant.plan": ("model", "source"),
    "skillgrant.reports": ("check", "ci", "diff", "escape", "jsondoc", "lint", "markdown",
                           "results", "review", "spool"),
    "skillgrant.review": ("checks", "lint", "runners", "selection", "sources"),
    "skillgrant.runtimes": ("claude_code", "copilot_cli", "profile"),
    "skillgrant.skillfile": ("agentscan", "blockcolumn", "blockread", "builder", "dashtab", "doc",
                             "entryspans", "flatyaml", "flowlenient", "flowreject", "fmread",
                             "judged", "keptlines", "keyread", "keys", "nesting", "plugin",
                             "pluginparts", "pluginruns", "propwalk", "removed", "reread",
                             "retry", "runtime", "spans", "splice", "staged", "tagged",
                             "valuememo", "yamlapart", "yamlspan"),
}


def _serve() -> None:
    # Imported once, here: what the fork saves (the hook's modules, typer's app).
    import importlib

    import skillgrant.cli.app
    import skillgrant.cli.entry
    import skillgrant.gate.audit
    import skillgrant.gate.call
    import skillgrant.gate.hook
    import skillgrant.gate.planfile
    import skillgrant.gate.verdict  # noqa: F401

    for package, names in _WARM.items():
        for name in names:
            with contextlib.suppress(ImportError):
                importlib.import_module(f"{package}.{name}")

    requests, answers = sys.stdin, sys.stdout
    sys.stdin = open(os.devnull)  # noqa: SIM115  (each child opens its own)
    with tempfile.TemporaryDirectory() as folder:
        paths = [os.path.join(folder, name) for name in ("in", "out", "err")]
        for line in requests:
            request = json.loads(line)
            with open(paths[0], "wb") as f:
                f.write(bytes.fromhex(request["stdin"]))
            for path in paths[1:]:
                open(path, "wb").close()
            answers.flush()
            pid = os.fork()
            if pid == 0:
                _child(request, paths)
            _, status = os.waitpid(pid, 0)
            with open(paths[1], "rb") as out, open(paths[2], "rb") as err:
                answer = {"status": os.waitstatus_to_exitcode(status),
                          "stdout": out.read().hex(), "stderr": err.read().hex()}
            answers.write(json.dumps(answer) + "\n")
            answers.flush()


if __name__ == "__main__":
    _serve()
