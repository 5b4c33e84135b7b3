"""The programs that run another command or code given in their arguments (lint rules
SGL103–SGL108): which words they take before that command, and where a pattern's first wildcard
stands among them (``wildcard_place``). Examples for each are in docs/lint-rules.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: A shell variable assignment word (``FOO=1``), which may precede the program.
ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
#: The command an example runs where a pattern lets any command run.
RM: Final = "rm -rf ~"
_CLUSTER = re.compile(r"-[A-Za-z]+")
_VERSION = re.compile(r"(?<=[a-z])[0-9][0-9.]*$")


@dataclass(frozen=True)
class Runner:
    """A program that runs another command or code given in its arguments.

    ``then`` are literal subcommand words (``npm exec``); ``positionals`` the non-option words
    it takes before the command, each with an example value (``timeout 10``); ``values`` the
    options whose next word is their value; ``code_flags``/``code_letters`` the options whose
    value is code (letters also inside clusters such as ``-lc``); ``anywhere`` means every
    wildcard after the program can add such an option. Payloads stand for the first wildcard
    in examples: at the command position, after a code flag, or after other arguments.
    """

    rule_id: str
    programs: frozenset[str]
    then: tuple[str, ...] = ()
    positionals: tuple[str, ...] = ()
    values: frozenset[str] = frozenset()
    code_flags: frozenset[str] = frozenset()
    code_letters: str = ""
    assignments: bool = False
    anywhere: bool = False
    fold: bool = False
    payload: str | None = None
    code_payload: str | None = None
    later_payload: str | None = None

    def _key(self, word: str) -> str:
        return word.lower() if self.fold else word

    def is_code_flag(self, word: str) -> bool:
        if self._key(word) in self.code_flags:
            return True
        return (bool(self.code_letters) and _CLUSTER.fullmatch(word) is not None
                and any(letter in self.code_letters for letter in word[1:]))

    def takes_value(self, word: str) -> bool:
        return self._key(word) in self.values


def _set(*words: str) -> frozenset[str]:
    return frozenset(words)


def program_name(word: str) -> str:
    """``/usr/bin/Python3.12`` → ``python``: quotes, directories, ``.exe`` and versions dropped."""
    name = re.split(r"[/\\]", word.strip("\"'"))[-1].lower()
    name = name.removesuffix(".exe")
    return _VERSION.sub("", name)


_SH_CODE = "'rm -rf ~'"
_PY_CODE = "\"__import__('os').system('rm -rf ~')\""
_JS_CODE = "\"require('child_process').execSync('rm -rf ~')\""
_SYSTEM_CODE = "'system(\"rm -rf ~\")'"
_PS_CODE = "'Remove-Item -Recurse -Force ~'"
_DOCKER = _set("docker", "podman", "nerdctl")
_RUN_VALUES = _set("-v", "--volume", "-e", "--env", "--env-file", "--name", "-p", "--publish",
                   "-w", "--workdir", "-u", "--user", "--network", "--net", "--entrypoint",
                   "--mount", "--platform", "-l", "--label", "-h", "--hostname", "--pull")
_EXEC_VALUES = _set("-u", "--user", "-w", "--workdir", "-e", "--env", "--env-file")
_RUN = "--privileged -v /:/host alpine sh"
_WRAP, _CODE, _PKG = "SGL103", "SGL104", "SGL105"

RUNNERS: Final[tuple[Runner, ...]] = (
    # SGL103: wrappers whose arguments are another command.
    Runner(_WRAP, _set("sudo"), payload=RM, values=_set(
        "-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group",
        "--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from",
        "--command-timeout")),
    Runner(_WRAP, _set("doas"), values=_set("-u", "-C"), payload=RM),
    Runner(_WRAP, _set("env"), values=_set("-u", "--unset", "-C", "--chdir"), assignments=True,
           code_flags=_set("-S", "--split-string"), payload=RM, code_payload=_SH_CODE),
    Runner(_WRAP, _set("xargs"), payload=RM, values=_set(
        "-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--eof",
        "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars",
        "--process-slot-var")),
    Runner(_WRAP, _set("nohup", "setsid", "time", "exec", "watch", "stdbuf", "ionice", "nice"),
           payload=RM, values=_set("-a", "-c", "-e", "-f", "-i", "-n", "-o", "--adjustment",
                                    "--class", "--format", "--interval", "--output")),
    Runner(_WRAP, _set("timeout"), positionals=("10",), payload=RM,
           values=_set("-s", "--signal", "-k", "--kill-after")),
    Runner(_WRAP, _set("chroot"), positionals=("/",), values=_set("--userspec", "--groups"),
           payload=RM),
    Runner(_WRAP, _set("start-process"), fold=True),
    # SGL104: shells and interpreters, whose code flag takes a program as text.
    Runner(_CODE, _set("sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh"),
           values=_set("-o", "+o", "-O", "+O", "--rcfile", "--init-file"), code_letters="c",
           payload=f"-c {_SH_CODE}", code_payload=_SH_CODE),
    Runner(_CODE, _set("su"), positionals=("root",), code_letters="c",
           code_flags=_set("--command", "--session-command"),
           values=_set("-s", "--shell", "-g", "--group", "-G", "--supp-group"),
           payload=f"-c {_SH_CODE}", code_payload=_SH_CODE),
    Runner(_CODE, _set("eval"), anywhere=True, payload=_SH_CODE),
    Runner(_CODE, _set("python", "pypy"), values=_set("-W", "-X"), code_letters="c",
           payload=f"-c {_PY_CODE}", code_payload=_PY_CODE),
    Runner(_CODE, _set("node", "nodejs", "bun"), code_letters="ep",
           code_flags=_set("--eval", "--print"),
           values=_set("-r", "--require", "--import", "--loader", "--experimental-loader"),
           payload=f"-e {_JS_CODE}", code_payload=_JS_CODE),
    Runner(_CODE, _set("deno"), then=("eval",), anywhere=True),
    Runner(_CODE, _set("perl"), code_letters="eE", values=_set("-I", "-M", "-m"),
           payload=f"-e {_SYSTEM_CODE}", code_payload=_SYSTEM_CODE),
    Runner(_CODE, _set("ruby"), code_letters="e", values=_set("-I", "-r"),
           payload=f"-e {_SYSTEM_CODE}", code_payload=_SYSTEM_CODE),
    Runner(_CODE, _set("php"), code_flags=_set("-r", "--run")),
    Runner(_CODE, _set("lua", "luajit"), code_letters="e", values=_set("-l"),
           payload="-e 'os.execute(\"rm -rf ~\")'", code_payload="'os.execute(\"rm -rf ~\")'"),
    Runner(_CODE, _set("rscript"), code_flags=_set("-e"), payload=f"-e {_SYSTEM_CODE}",
           code_payload=_SYSTEM_CODE),
    Runner(_CODE, _set("osascript"), code_flags=_set("-e"),
           payload="-e 'do shell script \"rm -rf ~\"'",
           code_payload="'do shell script \"rm -rf ~\"'"),
    Runner(_CODE, _set("pwsh", "powershell"), fold=True, values=_set("-executionpolicy", "-ep"),
           code_flags=_set("-c", "-command", "-e", "-ec", "-encodedcommand", "-commandwithargs",
                           "-cwa"),
           payload=f"-Command {_PS_CODE}", code_payload=_PS_CODE),
    Runner(_CODE, _set("cmd"), fold=True, code_flags=_set("/c", "/k", "/r"),
           payload='/c "rd /s /q %USERPROFILE%"', code_payload='"rd /s /q %USERPROFILE%"'),
    Runner(_CODE, _set("iex", "invoke-expression"), fold=True, anywhere=True, payload=_PS_CODE),
    # SGL105: package runners: the wildcard names a package to download and run, or a command.
    Runner(_PKG, _set("npx", "pnpx", "bunx"), values=_set("-p", "--package"),
           code_flags=_set("-c", "--call"), payload="--yes shx rm -rf ~",
           code_payload=_SH_CODE),
    Runner(_PKG, _set("npm"), then=("exec",), values=_set("-p", "--package", "-w", "--workspace"),
           code_flags=_set("-c", "--call"), payload="--yes -- shx rm -rf ~",
           code_payload=_SH_CODE),
    Runner(_PKG, _set("npm"), then=("x",), values=_set("-p", "--package", "-w", "--workspace"),
           code_flags=_set("-c", "--call"), payload="--yes -- shx rm -rf ~",
           code_payload=_SH_CODE),
    Runner(_PKG, _set("uvx"), values=_set("--from", "--with", "--python", "-p")),
    Runner(_PKG, _set("pnpm", "yarn"), then=("dlx",), values=_set("-p", "--package"),
           payload="shx rm -rf ~"),
    Runner(_PKG, _set("pnpm", "yarn"), then=("exec",), payload=RM),
    Runner(_PKG, _set("uv"), then=("run",), payload=RM, values=_set(
        "--with", "--python", "-p", "--package", "--project", "--directory", "--env-file")),
    Runner(_PKG, _set("uv"), then=("tool", "run"), values=_set("--from", "--with", "--python")),
    Runner(_PKG, _set("pipx"), then=("run",), values=_set("--spec", "--python")),
    Runner(_PKG, _set("poetry"), then=("run",), payload=RM),
    Runner(_PKG, _set("bundle"), then=("exec",), payload=RM),
    # SGL106: find and fd, whose expression can run a command for every file.
    Runner("SGL106", _set("find", "gfind"), anywhere=True, payload="x -exec rm -rf {} +",
           later_payload="x -exec rm -rf {} +"),
    Runner("SGL106", _set("fd", "fdfind"), anywhere=True, payload="x -x rm -rf",
           later_payload="x -x rm -rf"),
    # SGL107: containers: the wildcard can add images, host mounts and the command.
    Runner("SGL107", _DOCKER, then=("run",), values=_RUN_VALUES, payload=_RUN),
    Runner("SGL107", _DOCKER, then=("container", "run"), values=_RUN_VALUES, payload=_RUN),
    Runner("SGL107", _DOCKER, then=("compose", "run"), values=_RUN_VALUES, payload="app sh"),
    Runner("SGL107", _set("docker-compose"), then=("run",), values=_RUN_VALUES,
           payload="app sh"),
    Runner("SGL107", _DOCKER, then=("exec",), values=_EXEC_VALUES, payload="-u root app sh"),
    Runner("SGL107", _DOCKER, then=("container", "exec"), values=_EXEC_VALUES,
           payload="-u root app sh"),
    # SGL108: ssh runs its trailing words on the remote host; -o can run local commands too.
    Runner("SGL108", _set("ssh"), anywhere=True, positionals=("host",), payload=RM, values=_set(
        "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p",
        "-Q", "-R", "-S", "-W", "-w", "-B")),
)


def wildcard_place(runner: Runner, words: Sequence[str],
                   partial: str) -> tuple[str | None, list[str]]:
    """Where the first wildcard stands for this runner, after ``words`` and the ``partial``
    word it is glued to: "command", "code", "value", "later", or "lead" with the words still
    owed before the command; None when it stands in an ordinary argument."""
    walk = _Walk(runner)
    for word in words:
        stop = walk.step(word.strip("\"'"))
        if stop is not None:
            return stop
    return walk.finish(partial.strip("\"'"))


class _Walk:
    """The runner's arguments read so far: subcommand words and positionals still expected,
    and whether the next word is an option's value."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.then = list(runner.then)
        self.positionals = list(runner.positionals)
        self.pending = False

    def step(self, bare: str) -> tuple[str | None, list[str]] | None:
        """None to read on, else the answer."""
        runner = self.runner
        if self.then:
            if bare.lower() == self.then[0]:
                self.then.pop(0)
            elif not bare.startswith("-"):
                return None, []
        elif self.pending:
            self.pending = False
        elif runner.is_code_flag(bare):
            return "code", []
        elif bare.startswith("-"):
            self.pending = runner.takes_value(bare)
        elif not (runner.assignments and ASSIGNMENT.match(bare)):
            if not self.positionals:
                return self._later()
            self.positionals.pop(0)
        return None

    def finish(self, bare: str) -> tuple[str | None, list[str]]:
        if self.then:
            if bare and not bare.startswith("-") and not self.then[0].startswith(bare.lower()):
                return None, []
            return "lead", [*self.then, *self.positionals]
        if self.pending:
            return "value", []
        if self.positionals:
            return "lead", self.positionals
        if bare and not bare.startswith("-"):
            return self._later()
        return "command", []

    def _later(self) -> tuple[str | None, list[str]]:
        return ("later", []) if self.runner.anywhere else (None, [])
