"""How each lint rule decides (SPEC §3, §4, §8; issue 8). The rules themselves (IDs, names,
severities, default hints) are ``review.RULES``; docs/lint-rules.md explains each one.

``review.lint_entries`` screens an entry (syntax, limits, runtime tokenization) and parses it;
``check_grant`` then returns ``Hit`` values, which review turns into Findings.

Command patterns are judged by the words before their first wildcard: which program runs, and
whether the wildcard stands where that program takes another command or code (``RUNNERS``).
Every example invocation a finding quotes is checked to be in the grant's language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .. import vocabulary
from ..domains import command, mcp
from ..domains.base import Budget, Glob
from ..grants import Grant
from ..prover import prove
from ..vocabulary import Domain


@dataclass(frozen=True)
class Hit:
    """A rule firing on one grant; ``hint`` overrides the rule's default when given."""

    rule_id: str
    message: str
    hint: str | None = None
    example: str | None = None
    replacement: str | None = None


_RM = "rm -rf ~"
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_LEGACY_LIST = re.compile(r":\*\s*,")
_UNESCAPED_STAR = re.compile(r"(\\.)|\*", re.DOTALL)
_SHELL_TOOLS: Final = frozenset({"Bash", "Monitor", "PowerShell"})
_REMOVED_HINT: Final[dict[str, str]] = {
    "LS": "List files with `Glob` (or `Bash(ls *)`).",
    "MultiEdit": "`Edit` covers multi-part edits: grant `Edit` (or `Edit(path)`).",
    "NotebookRead": "`Read` reads notebooks: grant `Read` (or `Read(path)`).",
    "TodoRead": "Drop it; `TodoWrite` manages the todo list.",
}


def check_grant(grant: Grant, text: str, shell_tools: frozenset[str]) -> list[Hit]:
    """Every rule that fires on one valid approved entry (``text`` is the entry as written)."""
    hits = _naming(grant, text)
    inert = _inert(grant)
    if inert is not None:
        return [*hits, inert]
    domain = vocabulary.domain_of(grant.key, shell_tools)
    broad: list[Hit] = []
    if domain is Domain.COMMAND:
        shell = grant.key in _SHELL_TOOLS or grant.key in shell_tools
        broad, style = _command(grant, shell, shell_tools)
        hits.extend(style)
    elif domain is Domain.PATH:
        broad = _path(grant)
    elif domain is Domain.WEB:
        broad = _web(grant)
    elif domain is Domain.MCP:
        broad = _mcp(grant)
    if not broad and grant.content is None and not grant.is_mcp and text.endswith(")"):
        hits.append(Hit("SGL308", f"`{text}` grants every use of {grant.tool}, not the uses "
                        "that match a pattern", replacement=grant.tool))
    return sorted([*broad, *hits], key=lambda hit: hit.rule_id)


def _written_name(text: str) -> str:
    return text.split("(", 1)[0]


def _naming(grant: Grant, text: str) -> list[Hit]:
    written = _written_name(text)
    canonical = vocabulary.canonical_name(written)
    if canonical is None or written == canonical:
        return []
    rest = text[len(written):]
    if written in vocabulary.ALIASES:
        return [Hit("SGL302", f"`{written}` is an old name of `{canonical}`; the runtime still "
                    "accepts it", replacement=canonical + rest)]
    return [Hit("SGL301", f"the runtime matches tool names exactly and expects `{canonical}`, "
                f"not `{written}`; written as is, the entry grants nothing",
                hint=f"Write `{canonical}{rest}`.", replacement=canonical + rest)]


def _inert(grant: Grant) -> Hit | None:
    # Mirrors prover._inert_reason, check for check, so each inert kind gets its own rule ID.
    removed = vocabulary.removed_name(grant.key)
    if removed is not None:
        return Hit("SGL201", f"`{removed}` is a removed tool name; the entry grants nothing",
                   hint=_REMOVED_HINT.get(removed))
    if grant.is_mcp:
        if grant.content is not None:
            fix = None if mcp.is_inert(grant.key) else grant.key
            return Hit("SGL204", "MCP tool names take no parentheses; the runtime matches "
                       "nothing", hint=f"Write `{fix}`." if fix else None, replacement=fix)
        if mcp.is_inert(grant.key):
            return Hit("SGL203", f"`{grant.key}` has a wildcard outside the end of the tool "
                       "name; it matches no MCP tool")
        return None
    if "*" in grant.key:
        return Hit("SGL203", f"`{grant.tool}` is a tool-name glob; only MCP tool names may end "
                   "in `*`, so it matches no tool")
    if grant.key in vocabulary.PATH_RULES_IGNORED and grant.content is not None:
        hint = ("Scope listing with `Read(path)`, or grant `Glob`." if grant.key == "Glob" else
                f"Scope writes with `Edit({grant.content})`, or grant `{grant.tool}`.")
        return Hit("SGL202", f"the runtime never consults path rules for {grant.tool}; "
                   f"`{grant}` grants nothing", hint=hint)
    return None


# ------------------------------------------------------------------------------ runner table

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
    Runner(_WRAP, _set("sudo"), payload=_RM, values=_set(
        "-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user", "--group",
        "--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from",
        "--command-timeout")),
    Runner(_WRAP, _set("doas"), values=_set("-u", "-C"), payload=_RM),
    Runner(_WRAP, _set("env"), values=_set("-u", "--unset", "-C", "--chdir"), assignments=True,
           code_flags=_set("-S", "--split-string"), payload=_RM, code_payload=_SH_CODE),
    Runner(_WRAP, _set("xargs"), payload=_RM, values=_set(
        "-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--eof",
        "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars",
        "--process-slot-var")),
    Runner(_WRAP, _set("nohup", "setsid", "time", "exec", "watch", "stdbuf", "ionice", "nice"),
           payload=_RM, values=_set("-a", "-c", "-e", "-f", "-i", "-n", "-o", "--adjustment",
                                    "--class", "--format", "--interval", "--output")),
    Runner(_WRAP, _set("timeout"), positionals=("10",), payload=_RM,
           values=_set("-s", "--signal", "-k", "--kill-after")),
    Runner(_WRAP, _set("chroot"), positionals=("/",), values=_set("--userspec", "--groups"),
           payload=_RM),
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
    Runner(_PKG, _set("pnpm", "yarn"), then=("exec",), payload=_RM),
    Runner(_PKG, _set("uv"), then=("run",), payload=_RM, values=_set(
        "--with", "--python", "-p", "--package", "--project", "--directory", "--env-file")),
    Runner(_PKG, _set("uv"), then=("tool", "run"), values=_set("--from", "--with", "--python")),
    Runner(_PKG, _set("pipx"), then=("run",), values=_set("--spec", "--python")),
    Runner(_PKG, _set("poetry"), then=("run",), payload=_RM),
    Runner(_PKG, _set("bundle"), then=("exec",), payload=_RM),
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
    Runner("SGL108", _set("ssh"), anywhere=True, positionals=("host",), payload=_RM, values=_set(
        "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p",
        "-Q", "-R", "-S", "-W", "-w", "-B")),
)


# ---------------------------------------------------------------------------- command domain


def _command(grant: Grant, shell: bool, shell_tools: frozenset[str]) -> tuple[list[Hit], list[Hit]]:
    """(over-broad hits, non-canonical hits) for a command-domain grant."""
    if command.has_reserved(grant.content):
        return [], []
    pattern = command.compile_pattern(grant.content)
    if pattern.kind is command.Kind.ANY:
        if not shell:
            return [], []
        return [Hit("SGL101", f"`{grant}` approves every command, e.g. `{_RM}`",
                    example=_RM)], []
    content = grant.content or ""
    style: list[Hit] = []
    if _LEGACY_LIST.search(content):
        style.append(_several(grant, content))
    elif pattern.kind is command.Kind.PREFIX:
        style.append(_legacy_prefix(grant, content, shell_tools))
    glob = pattern.globs[-1]
    if not shell or glob.stars == 0:
        return [], style
    broad, shape = _shape(grant, glob, pattern.kind)
    return broad, style or shape  # a list in one entry (SGL307) is rewritten anyway


def _legacy_prefix(grant: Grant, content: str, shell_tools: frozenset[str]) -> Hit:
    prefix = _UNESCAPED_STAR.sub(lambda m: m.group(1) or "\\*", content[:-2])
    candidate = f"{grant.tool}({prefix} *)"
    same = (prove(candidate, [str(grant)], shell_tools=shell_tools).covered
            and prove(str(grant), [candidate], shell_tools=shell_tools).covered)
    if not same:
        return Hit("SGL303", "the trailing `:*` is the legacy prefix form")
    return Hit("SGL303", f"the trailing `:*` is the legacy prefix form; `{candidate}` means the "
               "same", hint=f"Write `{candidate}`.", replacement=candidate)


def _several(grant: Grant, content: str) -> Hit:
    pieces = [piece.strip() for piece in content.split(",")]
    message = (f"`{grant}` is one rule, not {len(pieces)}: the runtime reads `{content}` as a "
               "single command pattern, so it approves none of the commands it lists")
    if not all(pieces):
        return Hit("SGL307", message)
    entries = [f"{grant.tool}({p[:-2]} *)" if p.endswith(":*") else f"{grant.tool}({p})"
               for p in pieces]
    fix = ", ".join(entries)
    return Hit("SGL307", message, hint=f"Write `{fix}`.", replacement=fix)


def _shape(grant: Grant, glob: Glob, kind: command.Kind) -> tuple[list[Hit], list[Hit]]:
    """Judge a shell pattern by the words before its first wildcard."""
    lead = glob.segments[0]
    words = lead.split()
    partial = words.pop() if words and not lead[-1].isspace() else ""
    while words and _ASSIGNMENT.match(words[0]):
        words.pop(0)
    shown = command.render(lead)
    if not words:
        if not partial.strip("\"'") or partial.endswith("/") or _ASSIGNMENT.match(partial):
            payload = "../../../../../../../../bin/rm -rf ~" if partial.endswith("/") else _RM
            spot = f"after `{shown.strip()}`" if shown.strip() else "at the start"
            return [Hit("SGL102", f"the `*` {spot} stands where the program goes, so `{grant}` "
                        "runs any program", example=_example(glob, payload))], []
        if any(program_name(partial) in r.programs for r in RUNNERS):
            words, partial = [partial], ""
            lead += " "  # the wildcard absorbs the space after the program name
        elif "/" not in partial and not set(partial) & set("\"'$"):
            raw = (grant.content or "").strip()
            fix = (f"{grant.tool}({raw[:-1]} *)" if glob.stars == 1 and not glob.segments[1]
                   and not raw.endswith("\\*") else None)
            name = command.render(partial)
            return [], [Hit("SGL306", f"the `*` glued to `{name}` also matches other programs "
                            f"whose name starts with `{name}`",
                            hint=f"Write `{fix}`." if fix else None, replacement=fix)]
        else:
            return [], []
    program = program_name(words[0])
    for runner in RUNNERS:
        if program in runner.programs:
            where, owed = _where(runner, words[1:], partial)
            if where is not None:
                return [_runner_hit(grant, glob, lead, runner, where, owed, partial)], []
    # A whole-word `*` right after the program, with more pattern after it (`git * main`).
    if kind is command.Kind.GLOB and len(words) == 1 and not partial and glob.segments[1][
            :1].isspace() and "".join(glob.segments[1:]).strip():
        said = command.render("<anything>".join(glob.segments))
        return [], [Hit("SGL304", f"the `*` right after `{words[0]}` stands for any subcommand "
                        f"with any options: `{grant}` approves `{said}`")]
    return [], []


def _runner_hit(grant: Grant, glob: Glob, lead: str, runner: Runner, where: str,
                owed: Sequence[str], partial: str) -> Hit:
    payload = {"command": runner.payload, "lead": runner.payload, "code": runner.code_payload,
               "later": runner.later_payload}.get(where)
    if where == "lead" and payload is not None:
        payload = " ".join([*owed, payload])
    example = _example(glob, payload, lead) if payload and not partial else None
    what = {"SGL103": "runs any command", "SGL104": "runs any code",
            "SGL105": "runs any package or command", "SGL106": "can add `-exec` and run any "
            "command", "SGL107": "can start any container with any mounts and command",
            "SGL108": "runs any remote command"}[runner.rule_id]
    said = f", e.g. `{example}`" if example else ""
    return Hit(runner.rule_id, f"`{grant}` {what}{said}", example=example)


def _where(runner: Runner, words: Sequence[str], partial: str) -> tuple[str | None, list[str]]:
    """Where the first wildcard stands for this runner, and the words still owed before the
    command ('lead'): None when it stands in an ordinary argument."""
    then = list(runner.then)
    positionals = list(runner.positionals)
    pending = False
    for word in words:
        bare = word.strip("\"'")
        if then:
            if bare.lower() == then[0]:
                then.pop(0)
            elif not bare.startswith("-"):
                return None, []
            continue
        if pending:
            pending = False
        elif runner.is_code_flag(bare):
            return "code", []
        elif bare.startswith("-"):
            pending = runner.takes_value(bare)
        elif not (runner.assignments and _ASSIGNMENT.match(bare)):
            if not positionals:
                return ("later", []) if runner.anywhere else (None, [])
            positionals.pop(0)
    bare = partial.strip("\"'")
    if then:
        if bare and not bare.startswith("-") and not then[0].startswith(bare.lower()):
            return None, []
        return "lead", [*then, *positionals]
    if pending:
        return "value", []
    if positionals:
        return "lead", positionals
    if bare and not bare.startswith("-"):
        return ("later", []) if runner.anywhere else (None, [])
    return "command", []


def _example(glob: Glob, payload: str, lead: str | None = None) -> str | None:
    """The glob's instance with ``payload`` at the first wildcard (the rest commented out), or
    None when the wildcard sits inside quotes or the text would fall outside the language."""
    head = glob.segments[0] if lead is None else lead
    if head.count('"') % 2 or head.count("'") % 2:
        return None
    rest = "x".join(glob.segments[1:])
    text = head + payload + (" #" + rest if rest.strip() else rest)
    if not glob.matches(text, Budget()):
        return None
    return command.render(text)


# ------------------------------------------------------------------- path, web and MCP domains


def _anchor(content: str) -> tuple[str, str]:
    for anchor in ("//", "~/", "/", "./"):
        if content.startswith(anchor):
            return anchor, content[len(anchor):]
    if content in ("~", "."):
        return content + "/", ""
    return "./", content


def _everything_under(rest: str) -> bool:
    segments = [s for s in rest.split("/") if s]
    return not segments or ("**" in segments and all(s in ("*", "**") for s in segments))


_PLACE = {"//": "on the machine", "~/": "in the home directory", "/": "under the project root",
          "./": "under the working directory"}


def _path(grant: Grant) -> list[Hit]:
    anchor, rest = ("//", "") if grant.content is None else _anchor(grant.content)
    if _everything_under(rest):
        place = _PLACE[anchor]
        if grant.key == "Edit":
            return [Hit("SGL110", f"`{grant}` lets the agent change every file {place}; "
                        "changed hooks, scripts and start-up files run as code")]
        if anchor in ("//", "~/"):
            return [Hit("SGL109", f"`{grant}` lets the agent read every file {place}, "
                        "SSH keys and cloud credentials included")]
        return []
    segments = [s for s in rest.split("/") if s]
    last = segments[-1]
    directory = rest.endswith("/") or ("*" in last and last != "**" and "." not in last)
    if grant.content is None or not directory:
        return []
    base = grant.content.rstrip("/").replace("*", "x")
    return [Hit("SGL113", f"`{grant}` also matches directories; the runtime may then grant "
                f"everything beneath them, such as `{base}/nested/file`",
                example=f"{base}/nested/file")]


def _web(grant: Grant) -> list[Hit]:
    if grant.content is None:
        return [Hit("SGL111", f"`{grant}` fetches from every host")]
    if not grant.content.startswith("domain:"):
        return []
    host = grant.content[len("domain:"):].strip().lower().rstrip(".")
    if host and not host.strip("*."):
        return [Hit("SGL111", f"`{grant}` fetches from every host")]
    tld = host[2:]
    if host.startswith("*.") and tld and "*" not in tld and "." not in tld:
        return [Hit("SGL111", f"`{grant}` fetches from every site under the top-level domain "
                    f"`.{tld}`")]
    return []


def _mcp(grant: Grant) -> list[Hit]:
    server, tool = mcp.split_name(grant.key)
    if tool is not None and tool != "*":
        return []
    return [Hit("SGL112", f"`{grant}` grants every tool of the MCP server `{server}`, including "
                "ones that write or delete and ones it adds later")]
