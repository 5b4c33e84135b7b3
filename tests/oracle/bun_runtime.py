"""Bun, the YAML oracle of the SKILL.md reader: where it is cached, how it is installed, and how
a batch of texts is read by the runtime's frontmatter steps (``bun_reader.js``) under it.

The version is pinned here and nowhere else. ``python tests/oracle/bun_runtime.py install``
fetches ``@oven/bun-linux-x64`` with ``npm pack`` (a tarball, nothing is run) into the cache the
pinned Claude Code lives in (``tests/conformance/cc_runtime.py``), unpacks it and checks that
the binary reports the pinned version. Claude Code 2.1.332 is a Bun 1.4.6 executable; 1.4.5 is
the nearest Bun on npm (docs/runtime-conformance.md, "The Bun oracle").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: The one place Bun's version is pinned.
BUN_VERSION = "1.4.5"
PACKAGE = "@oven/bun-linux-x64"
CACHE = Path(os.environ.get("SKILLGRANT_RUNTIME_CACHE",
                            Path.home() / ".cache" / "skillgrant-runtime"))
READER = Path(__file__).resolve().parent / "bun_reader.js"


def bun_path(version: str = BUN_VERSION) -> Path:
    return CACHE / f"bun-{version}" / "package" / "bin" / "bun"


def installed_version(binary: Path) -> str | None:
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def install(version: str = BUN_VERSION) -> Path:
    """Install the pinned Bun into the cache (a no-op when it is there); returns the binary.
    Raises RuntimeError with one plain sentence when it cannot be installed."""
    binary = bun_path(version)
    if binary.exists() and installed_version(binary) == version:
        return binary
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed, so the pinned Bun cannot be fetched")
    target = CACHE / f"bun-{version}"
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as d:
        packed = subprocess.run([npm, "pack", f"{PACKAGE}@{version}", "--loglevel=error"],
                                cwd=d, capture_output=True, text=True, timeout=900)
        tarballs = list(Path(d).glob("*.tgz"))
        if packed.returncode != 0 or not tarballs:
            lines = [line for line in packed.stderr.splitlines() if line.strip()]
            raise RuntimeError(f"npm could not fetch {PACKAGE}@{version}: "
                               f"{lines[0] if lines else 'npm made no tarball'}")
        unpacked = Path(d) / "unpacked"
        with tarfile.open(tarballs[0]) as archive:
            archive.extractall(unpacked, filter="data")
        if target.exists():
            shutil.rmtree(target)
        shutil.move(str(unpacked), str(target))
    binary.chmod(0o755)
    got = installed_version(binary)
    if got != version:
        raise RuntimeError(f"the installed Bun reports version {got!r}, not {version}")
    return binary


@dataclass(frozen=True)
class Reading:
    """The runtime's reading of one text: how its frontmatter was parsed ("none", "direct",
    "retry", "failed"), the ``allowed-tools`` entries it keeps, and whether it has hooks."""

    how: str
    entries: tuple[str, ...]
    hooks: bool


def read_batch(binary: Path, texts: Sequence[str]) -> list[Reading]:
    """Each text as the runtime's frontmatter steps read it, in one Bun process."""
    payload = "".join(json.dumps(text) + "\n" for text in texts)
    done = subprocess.run([str(binary), str(READER)], input=payload.encode("utf-8",
                          "surrogatepass"), capture_output=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"the Bun oracle failed: {done.stderr.decode(errors='replace')}")
    lines = done.stdout.decode("utf-8").split("\n")[:-1]
    if len(lines) != len(texts):
        raise RuntimeError(f"the Bun oracle answered {len(lines)} of {len(texts)} texts")
    out = []
    for line in lines:
        got = json.loads(line)
        out.append(Reading(got["how"], tuple(got["entries"]), got["hooks"]))
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        sys.exit("usage: bun_runtime.py install")
    try:
        path = install()
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"the pinned Bun {BUN_VERSION} could not be installed: {e}")
        sys.exit(1)
    print(f"Bun {BUN_VERSION} at {path}")
