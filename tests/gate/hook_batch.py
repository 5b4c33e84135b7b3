"""Many ``skillgrant hook`` processes from one interpreter: ``python hook_batch.py CASES RESULTS``.

CASES is a JSON list of ``{"id", "args", "data"}`` (``data`` in hex: the payload's bytes,
``args`` the hook's command line after ``hook``). For each case this process forks a child
that runs the console script's entry point (``skillgrant.cli.entry.main(["hook", *args])``,
what ``python -m skillgrant hook`` runs) with the payload as its standard input and files as
its standard output and error, and dies by SIGALRM after TIMEOUT seconds. The child starts
from an interpreter that imported only the entry module, so the hook's own imports happen in
it, as in a new process; what the fork saves is the interpreter's start. RESULTS gets a JSON
list of ``{"id", "status", "stdout", "stderr", "seconds"}`` (output in hex; a status below 0
is the signal that ended the child). tests/gate/test_hook_payloads.py runs it, with a few of
its cases also run as real processes.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
import traceback

from skillgrant.cli import entry

TIMEOUT = 20


def _child(args: list[str], stdin: str, stdout: str, stderr: str) -> None:
    """Run the hook with its standard streams on these files; never returns."""
    for fd, path, flags in ((0, stdin, os.O_RDONLY), (1, stdout, os.O_WRONLY),
                            (2, stderr, os.O_WRONLY)):
        opened = os.open(path, flags)
        os.dup2(opened, fd)
        os.close(opened)
    signal.alarm(TIMEOUT)
    code = 1
    try:
        entry.main(["hook", *args])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # as the interpreter would: the traceback, then status 1
        traceback.print_exc()
        sys.stderr.flush()
    os._exit(code)


def run(case: dict[str, object], folder: str) -> dict[str, object]:
    """One case in a forked child: its status, output and time."""
    paths = [os.path.join(folder, name) for name in ("in", "out", "err")]
    with open(paths[0], "wb") as f:
        f.write(bytes.fromhex(str(case["data"])))
    for path in paths[1:]:
        open(path, "wb").close()
    args = [str(a) for a in case["args"]]  # type: ignore[attr-defined]
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(args, *paths)
    _, status = os.waitpid(pid, 0)
    seconds = time.monotonic() - start
    with open(paths[1], "rb") as out_file, open(paths[2], "rb") as err_file:
        out, err = out_file.read(), err_file.read()
    return {"id": case["id"], "status": os.waitstatus_to_exitcode(status),
            "stdout": out.hex(), "stderr": err.hex(), "seconds": seconds}


def main() -> None:
    cases_file, results_file = sys.argv[1:]
    with open(cases_file, encoding="utf-8") as f:
        cases = json.load(f)
    with tempfile.TemporaryDirectory() as folder:
        results = [run(case, folder) for case in cases]
    with open(results_file, "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
