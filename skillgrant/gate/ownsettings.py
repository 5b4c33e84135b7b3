"""Programs' commands that write the program's own settings (reviews s45 G2, S1): ``gh config
set browser ./e.sh`` writes ``~/.config/gh/config.yml``, ``npm config set script-shell`` the
``~/.npmrc``, ``kubectl config set-credentials --exec-command`` the ``~/.kube/config``, ``aws
configure set credential_process`` the ``~/.aws/config``, ``npm pkg set scripts.test=…`` the
``package.json`` a plan's ``npm test`` runs. Each is a file the gate guards (or one that names
what a program runs), written by a command whose words name none, as ``git config`` writes
git's (G-9). Read by subcommand: a command here is a write of guarded settings."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The subcommands that only read a program's settings (``gh config get``); any other of
#: those ``SETTINGS`` names writes them (``npm set`` too).
_READS: Final = frozenset({"get", "list", "ls", "view", "status", "token", "help", "browse",
                           "search", "current-context", "get-contexts", "get-clusters",
                           "get-users", "list-profiles", "show", "debug", "--help", "-h"})
#: Program → the first words after it whose command writes its settings (but for a second
#: word in ``_READS``).
SETTINGS: Final = {
    "gh": frozenset({"config", "alias", "auth", "extension", "extensions", "ext"}),
    "npm": frozenset({"config", "c", "set", "pkg"}),
    "pnpm": frozenset({"config", "c", "set", "pkg"}),
    "yarn": frozenset({"config", "set"}),
    "kubectl": frozenset({"config"}), "oc": frozenset({"config"}),
    "aws": frozenset({"configure"}), "gcloud": frozenset({"config", "auth"}),
    "az": frozenset({"config", "configure", "login", "extension"}),
    "docker": frozenset({"login", "context", "buildx", "plugin"}),
    "podman": frozenset({"login", "system"}),
    "pip": frozenset({"config"}), "pip3": frozenset({"config"}),
    "conda": frozenset({"config", "init"}),
    "rustup": frozenset({
        "default", "override", "set", "toolchain", "component", "target", "self"}),
    "helm": frozenset({"repo", "plugin", "registry"}),
    "cargo": frozenset({"install", "login", "owner"}),
}
#: Every program name of ``SETTINGS``, as text a command holding one holds.
PROGRAMS: Final = tuple(SETTINGS)


def own_settings(words: list[str]) -> str | None:
    """The command (its first words) of ``words`` that writes its program's own settings,
    or None."""
    for at, word in enumerate(words):
        first = SETTINGS.get(word.rsplit("/", 1)[-1])
        if first is None:
            continue
        # (its first words but options: an option's value may come first, `--prefix x`)
        plain = [w for w in words[at + 1:at + 8] if w[:1] != "-"][:3]
        hit = next((k for k, w in enumerate(plain[:2]) if w in first), None)
        if hit is not None and plain[hit + 1:hit + 2] != [] and plain[hit + 1] in _READS:
            continue
        if hit is not None:
            return " ".join([word, *plain[hit:hit + 2]])
    return None
