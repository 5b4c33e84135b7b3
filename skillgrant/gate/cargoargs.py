"""cargo's command-line options the gate reads (``runsby``'s rule for cargo: reviews s46 C2,
C3; session 47): configuration given on the command line (``--config KEY=VALUE`` or a file:
``build.rustc-wrapper``, a linker, a runner; ``-Z`` unstable flags) runs a program the gate
does not see, and a build folder elsewhere (``--target-dir``, ``--artifact-dir``,
``--out-dir``) holds compiled build scripts cargo runs where the guard does not look. A
``--target-dir`` of ``target/…`` (``in_target``) lies in ``target/``, which the guard holds
whole under a plan running cargo (``cargodirs``; ``cargodirs.unguarded_target`` reads it
from the folder cargo runs in). Its own words after ``--`` are the program's."""

from __future__ import annotations

from ..lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Protocol

    class Word(Protocol):
        """A shell word as ``words.Word`` holds it (``runsby.Word``)."""

        @property
        def value(self) -> str | None: ...

        @property
        def head(self) -> str: ...


_MOVES: Final = ("--config", "--target-dir", "--artifact-dir", "--out-dir")
#: ``target`` or a literal path below it (``cargo build --target-dir target/cov``).
_TARGET: Final = compile_on_use(r"target(?:/[A-Za-z0-9_.+-]+)*/?")


def in_target(value: str) -> bool:
    """Whether ``value`` (cargo's ``--target-dir``) is ``target`` or a literal path below it,
    climbing nowhere."""
    return _TARGET.fullmatch(value) is not None and ".." not in value.split("/")


def cargo_options(program: str, words: list[Word]) -> str | None:
    """Why cargo given ``words`` (after its name) may run a program or build where the guard
    does not look; None when it may not."""
    for at, word in enumerate(words):
        value = word.value
        if value == "--":
            return None
        given = value[13:] if value and value[:13] == "--target-dir=" else words[at + 1].value \
            if value == "--target-dir" and at + 1 < len(words) else None
        if given is not None and in_target(given):
            continue  # (in cargo's own target folder, guarded)
        if (value is None and word.head[:1] in ("", "-", "@", "+")) or (value is not None and (
                value.split("=", 1)[0] in _MOVES or value[:2] == "-Z" or (
                    at == 0 and value[:1] == "+" and "/" in value))):  # rustup's toolchain
            # by its folder (`cargo +/abs/tc build` runs /abs/tc/bin/cargo: s47-greview2 C1)
            return (f"{program!r} is given configuration on its command line (--config, -Z: "
                    "a program it runs), or a build folder the gate does not guard "
                    "(--target-dir but target/…, --artifact-dir)")
    return None


#: Programs whose first plain word is their subcommand, no path they write (`cargo build`,
#: `docker build`, beside a `build` guarded as `bun run build`'s script: review s47 C-cross).
SUBCOMMANDED: Final = frozenset({"cargo", "docker", "podman"})


def subcommand(rest: list[str], word: str) -> bool:
    """Whether ``word`` is held in ``rest`` only as its first word, after options alone
    (``+toolchain`` and options without a value before it)."""
    first = next((i for i, w in enumerate(rest) if w[:1] not in ("-", "+")), None)
    return first is not None and all(
        i == first and w == word and "=" not in "".join(rest[:i]) and not any(
            p[:2] in ("-H", "-c") or p in ("--host", "--context", "--config", "--log-level",
                                            "--color", "-Z") for p in rest[:i])
        for i, w in enumerate(rest) if word in w)
