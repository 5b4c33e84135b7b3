"""The reviewed table of command groups ``suggest --generalize command`` may write.

A group ``Bash(prog sub *)`` approves every argument after ``prog sub``, so it is only as narrow
as those arguments are harmless. This module is an allow-list: a command is grouped only when
its first words are a key of ``GROUPS``, a program (and subcommands) whose arguments after
the key cannot name code to run, now or later:

- no option or argument runs a program, a script, an expression, a plugin or a command (so
  never an interpreter, a shell, a pager, an editor, a build or test runner, a package
  manager, ``find``, ``awk``, ``sed``, ``rg --pre``, ``sort --compress-program``);
- none writes chosen content to a chosen file (so never ``cp``, ``tee``, ``sort -o``,
  ``tree -o``, nor ``git log``/``show``/``diff``, whose ``--output=FILE`` with a
  ``--format`` writes any text to any file, such as ``~/.bashrc``);
- none loads a configuration or credentials file that names a program (so never
  ``kubectl`` with ``--kubeconfig``, ``aws`` with ``credential_process``).

And the words are plain (``grouped``): the key's words stand first, exactly as the table spells
them (no path before the program, no quotes or escapes, no expansion, no wrapper such as
``timeout``, no assignment, no flag before a subcommand: ``gh pr -R o/r list`` is not ``gh pr
list``), and no word of the command holds an expansion or a glob, which the runtime refuses
under a glob rule. Everything else is written exact, one entry per distinct command.

The table says why per entry; docs/plans-from-evidence.md lists it, and a test checks that the
two agree and that ``lint`` finds none of the groups over-broad.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..gate.reading import Simple

_READS = "reads the files it names and prints them; no option runs a program or writes a file"
_PRINTS = "prints what it is asked; no option runs a program or writes a file"
_GH = ("reads from the GitHub API and prints; --jq and --template are filters that run no "
       "program, --web opens the browser the environment names, not one in the arguments; "
       "-R and a URL may name another GitHub host (network reach, no code)")


def _each(keys: str, why: str) -> dict[tuple[str, ...], str]:
    """``why`` for each of ``keys`` (separated by commas, each its words: ``"gh pr list"``)."""
    return {tuple(key.split()): why for key in keys.split(",")}


#: Key words (program, then subcommands) → why no argument after them can name code to run.
GROUPS: Final[Mapping[tuple[str, ...], str]] = {
    **_each("ls", "lists names and attributes; no option runs a program or writes a file"),
    **_each("cat, head, cut, nl, tac, comm, stat, du, sha256sum, sha1sum, md5sum", _READS),
    **_each("tail", _READS + " (-f only keeps reading)"),
    **_each("wc", _READS + " (--files0-from reads names)"),
    **_each("grep", _READS + " (GNU grep: -f reads patterns; no preprocessor option)"),
    **_each("jq", _READS + " (a jq program has no system call; -f reads one)"),
    **_each("df, basename, dirname, realpath, readlink, pwd, whoami, id, uname, which, seq",
            _PRINTS),
    **_each("echo", _PRINTS + " (a redirection is judged as a file of its own)"),
    **_each("date", _PRINTS + " (setting the clock needs root and runs nothing)"),
    **_each("sleep", "waits; runs nothing"),
    **_each("true, false", "runs nothing"),
    **_each("mkdir", "makes empty directories; no option runs a program or writes content"),
    **_each("touch", "makes empty files or sets their times; writes no content, runs nothing"),
    **_each("git status", "prints the work tree's state; no option after the subcommand runs a "
            "program or writes a chosen file (git -c before it is not this key); the "
            "repository's config it loads may name one (core.fsmonitor), so no directory entry "
            "suggest writes reaches into .git"),
    **_each("git rev-parse", "prints names and paths git resolves; runs nothing"),
    **_each("git ls-files", "lists files git tracks; --exclude-from reads a file; runs nothing"),
    **_each("gh pr list, gh pr view, gh pr status, gh pr checks, gh issue list, gh issue view, "
            "gh issue status, gh run list", _GH),
}
# Every git key: --help shows the manual, through the pager or browser the environment and
# the config name (never one in the arguments).
_LONGEST: Final = max(len(key) for key in GROUPS)

#: Tools judged by their name alone that ``suggest`` writes bare below ``--generalize tool``:
#: they take no command, path or host, run no code and write no file (plan mode, the task
#: list, questions to the user, tool search, MCP resources, web search). Any other such name
#: (``write_bash``, which types into a running shell; ``str_replace_editor``; ``EnterWorktree``,
#: which runs git) would be a tool-wide grant, so it is not suggestible below ``tool``. MCP
#: tools are named one by one (``mcp__server__tool``), as the issue asks.
NAMED_ALONE: Final = frozenset({
    "AskUserQuestion", "EnterPlanMode", "ExitPlanMode", "TodoWrite", "ToolSearch",
    "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskOutput", "TaskStop",
    "ListMcpResourcesTool", "ReadMcpResourceTool", "WebSearch", "update_plan", "report_intent",
})


def grouped(tool: str, simple: Simple) -> str | None:
    """``Tool(key *)`` for a simple command whose first words are a key of ``GROUPS``, written
    plainly, with no word an expansion or a glob; else None (the command is written exact).

    >>> from skillgrant.gate.shell import analyse
    >>> [grouped("Bash", s) for s in analyse("gh pr list -L 5; gh pr -R o/r list").commands]
    ['Bash(gh pr list *)', None]
    """
    values = [w.value for w in simple.words if w.value is not None]
    if len(values) != len(simple.words) or simple.stripped:
        return None
    written = simple.text.split(maxsplit=_LONGEST)
    for size in range(min(_LONGEST, len(values)), 0, -1):
        key = tuple(values[:size])
        if key in GROUPS and tuple(written[:size]) == key:
            return f"{tool}({' '.join(key)} *)"
    return None
