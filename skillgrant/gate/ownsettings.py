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
#: A program's second words that only read, beside ``_READS`` (review s46, a cost): gcloud's
#: ``config get-value``, ``auth print-access-token``; docker's ``context inspect``, ``buildx
#: build`` (a build, no settings); aws's ``configure export-credentials``.
_PROGRAM_READS: Final = {
    "gcloud": frozenset({"get-value", "print-access-token", "print-identity-token"}),
    "docker": frozenset({"inspect", "build", "bake", "du", "version", "ls", "history"}),
    "aws": frozenset({"export-credentials", "get", "list"}),
}
#: A settings word alone (no word after it) that only prints: ``rustup default``.
_ALONE: Final = frozenset({("rustup", "default"), ("rustup", "show")})


def own_settings(words: list[str], text: str = "") -> str | None:
    """The command (its first words) of ``words`` (of the command ``text``) that writes its
    program's own settings, or None. The subcommand is looked for past the options and the
    words that may be their values (``kubectl -v 0 --request-timeout 5 config``: review s46
    S2), up to the first word that is surely a positional one; ``--help`` right after the
    subcommand's words (as ``text`` holds them) only prints."""
    for at, word in enumerate(words):
        program = word.rsplit("/", 1)[-1]
        first = SETTINGS.get(program)
        if first is None:
            continue
        hit = _subcommand(words, at, first)
        if hit is None:
            continue
        following = [w for w in words[hit + 1:hit + 2] if w[:1] != "-"]  # (a read only as the
        # very next word: after an option, `view` may be its value while `set-credentials`
        # follows, review s46 S5, or the subcommand after a flag taking none, s47 O1)
        reads = _READS | _PROGRAM_READS.get(program, frozenset())
        end = hit + 1 + bool(following)
        said = " ".join(words[at:end])  # (the command's words, each next to the last)
        if (following and following[0] in reads) or (not following and (
                program, words[hit]) in _ALONE and said in text) or (
                words[end:end + 1] == ["--help"] and said + " --help" in text):
            continue  # (`--help` the next word of this one, as the text holds it: s46 S4)
        return " ".join([word, words[hit], *following])
    return None


def _subcommand(words: list[str], at: int, first: frozenset[str]) -> int | None:
    """The place of the settings word of ``first`` the program at ``at`` is given as its
    first or second plain word (``gcloud beta auth``), counting no plain word that follows
    an option (it may be that option's value); None otherwise."""
    positional = 0
    for k in range(at + 1, len(words)):  # (no window: an option repeated, review s46 S3)
        if words[k][:1] == "-":
            continue
        if words[k] in first:
            return k
        if words[k - 1][:1] != "-" or "=" in words[k - 1]:
            positional += 1  # (surely no option's value)
            if positional == 2:
                return None
    return None
