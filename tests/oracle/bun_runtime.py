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
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# The shared fetch lives beside the other pinned oracles (tests/conformance/npm_pinned.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
from npm_pinned import CACHE, install_pinned

#: The one place Bun's version is pinned.
BUN_VERSION = "1.4.5"
PACKAGE = "@oven/bun-linux-x64"
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
    return install_pinned(PACKAGE, version, CACHE / f"bun-{version}", bun_path(version), "Bun",
                          installed_version)


@dataclass(frozen=True)
class Reading:
    """The runtime's reading of one text: how its frontmatter was parsed ("none", "direct",
    "retry", "failed"), the ``allowed-tools`` entries it keeps, whether it has hooks, and
    the tools its ``disallowed-tools`` (or ``disallowedTools``) removes."""

    how: str
    entries: tuple[str, ...]
    hooks: bool
    removed: tuple[str, ...] = ()


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
        out.append(Reading(got["how"], tuple(got["entries"]), got["hooks"],
                           tuple(got["removed"])))
    return out


def assert_reads_as_bun(binary: Path, text: str) -> None:
    """skillgrant reads ``text``'s allowed-tools as the runtime's steps under Bun do (nothing
    where they fail or find none), or refuses it (the contract holds either way)."""
    from skillgrant.errors import SkillFileError
    from skillgrant.skillfile import read_skill

    (reading,) = read_batch(binary, [text])
    try:
        ours = read_skill(text).runtime_entries
    except SkillFileError:
        return  # refused: the contract holds
    theirs = reading.entries if reading.how not in ("failed", "none") else ()
    assert ours == theirs, (f"skillgrant reads {list(ours)!r}; Claude Code's steps "
                            f"({reading.how}) read {list(theirs)!r}")


def readings_apart(binary: Path, texts: Sequence[str],
                   hooks_excuse: bool = False) -> tuple[int, list[str]]:
    """How many of ``texts`` skillgrant reads (does not refuse), and a line for each whose
    ``allowed-tools`` it reads otherwise than the runtime's steps under Bun (nothing where they
    fail or find none; with ``hooks_excuse``, a text Bun reads with hooks is not counted)."""
    from skillgrant.errors import SkillFileError
    from skillgrant.skillfile import read_skill

    read, apart = 0, []
    for text, theirs in zip(texts, read_batch(binary, texts), strict=True):
        try:
            ours = read_skill(text).runtime_entries
        except SkillFileError:
            continue
        read += 1
        entries = theirs.entries if theirs.how not in ("failed", "none") else ()
        if ours != entries and not (hooks_excuse and theirs.hooks):
            apart.append(f"{text!r}: skillgrant {list(ours)!r}, Claude Code {list(entries)!r} "
                         f"({theirs.how})")
    return read, apart


if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        sys.exit("usage: bun_runtime.py install")
    try:
        path = install()
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"the pinned Bun {BUN_VERSION} could not be installed: {e}")
        sys.exit(1)
    print(f"Bun {BUN_VERSION} at {path}")
