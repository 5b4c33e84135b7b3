"""The one way a pinned oracle is fetched: ``npm pack`` of its platform package (only a
tarball: nothing is run), unpacked into the shared runtime cache.

Claude Code (``cc_runtime``), Copilot CLI (``cp_runtime``) and Bun (``tests/oracle/bun_runtime``)
each pin their own version and check the binary they get; the fetch and the unpack are here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

#: Where every pinned oracle is kept (``SKILLGRANT_RUNTIME_CACHE`` overrides it).
CACHE = Path(os.environ.get("SKILLGRANT_RUNTIME_CACHE",
                            Path.home() / ".cache" / "skillgrant-runtime"))


def install_pinned(package: str, version: str, target: Path, binary: Path, what: str,
                   reported: Callable[[Path], str | None]) -> Path:
    """``binary``, fetched when it is missing or reports another version than ``version``:
    ``npm pack package@version`` unpacked as ``target`` (replacing it), the binary made
    executable, then ``reported(binary)`` must be ``version``. Raises RuntimeError with one
    plain sentence naming ``what`` when it cannot be installed."""
    if binary.exists() and reported(binary) == version:
        return binary
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError(f"npm is not installed, so the pinned {what} cannot be fetched")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as d:
        packed = subprocess.run([npm, "pack", f"{package}@{version}", "--loglevel=error"],
                                cwd=d, capture_output=True, text=True, timeout=900)
        tarballs = list(Path(d).glob("*.tgz"))
        if packed.returncode != 0 or not tarballs:
            lines = [line for line in packed.stderr.splitlines()
                     if line.strip() and "complete log" not in line]
            reason = lines[0] if lines else "npm made no tarball"
            raise RuntimeError(f"npm could not fetch {package}@{version}: {reason}")
        unpacked = Path(d) / "unpacked"
        with tarfile.open(tarballs[0]) as archive:
            archive.extractall(unpacked, filter="data")
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(unpacked), str(target))
    binary.chmod(0o755)
    got = reported(binary)
    if got != version:
        raise RuntimeError(f"the installed {what} reports version {got!r}, not {version}")
    return binary
