"""Hostile evidence for ``suggest`` (issue 32): unknown and disguised programs, interpreters,
wrappers, flags before subcommands, expansions, paths at the root and in homes, odd hosts.
Each draw is suggested at ``command`` and ``directory``, then probed with calls that were
never observed, judged by the gate (``check_call``), not by suggest's code:

- every observed call is covered or listed as not suggestible;
- a probe command (an observed command's first words, then arguments that run code or write
  a chosen file) is covered only when its first words, written plainly, are a key of the
  reviewed table (``groups.GROUPS``), or it was observed itself;
- no probe of a file in a home (in any spelling), under ``/root``, ``/proc`` or ``/dev`` or
  at the top of the machine is covered, nor an Edit of ``.git``, ``.claude`` or a Makefile
  in the project, nor a host beyond the observed ones (a subdomain, a longer name).

``python tests/evidence_hostile.py [DRAWS] [SEED]`` prints its counts and exits 1 on any
violation (the CI step .ci/steps/61-suggest-hostile.sh); tests/test_suggest_findings.py runs a
few draws.
"""

from __future__ import annotations

import random
import shlex
import sys
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from skillgrant.evidence.groups import GROUPS
from skillgrant.evidence.read import Evidence, Observed
from skillgrant.evidence.suggest import suggest
from skillgrant.gate.call import check_call

CWD = "/w/proj"
_TABLE_PROGRAMS = sorted({key[0] for key in GROUPS})
_INTERPRETERS = ["python", "python3.12", "node", "bash", "sh", "ash", "dash", "zsh-5.9",
                 "vim.tiny", "awk", "gawk5", "perl", "ruby", "sqlite3", "tclsh8.6", "lua5.4",
                 "php8.2", "deno", "bun", "npx", "env", "xargs", "find", "sed", "tar", "make",
                 "rg", "sort", "tee", "cp", "git", "npm", "pytest", "cargo", "go", "docker"]
_TWO_LEVEL = [("git", ["status", "log", "rev-parse", "ls-files", "config", "fetch"]),
              ("gh", ["pr list", "pr view", "pr merge", "issue list", "run list", "api",
                      "extension exec"]),
              ("npm", ["run", "run test", "test", "ls", "exec"]),
              ("aws", ["s3 ls", "s3 rm"]), ("kubectl", ["get pods", "exec"])]
_ARGS = ["-la", "x", "src/a.py", "-n 5", "--json a", "-L 5", "README.md", "-q", "1"]
#: Arguments that run code or write a chosen file, appended to observed first words.
_TAILS = ["-c id", "-e 'system(1)'", "--exec=sh", "run /tmp/e", "--output=/home/u/.bashrc",
          "--pre /tmp/x", "-p plugin", "exec sh", "--script-shell=/tmp/e", "!id"]
_PATHS = ["/", "/etc/", "/home/u", "/home/u/.bashrc", "/root/.profile", "/Users/x/notes",
          "~/.bashrc", "~", "/tmp/x.txt", "/w/proj/src/a.py", "/w/proj/sub/", "/w/proj/.",
          "/w/proj/a/..", "/top.txt", "/var/home/u/x", "src/b.py", "../../etc/x",
          "/users/u/.zshrc", "/mnt/c/Users/u/x", "/proc/self/cwd/a", "/dev/fd/3", "/dev/sda",
          "/w/proj/.git/config", "/w/proj/sub/.git/x", "/w/proj/.claude/settings.json",
          "/w/proj/README.md", "/proc/1/cwd/x"]
_HOSTS = ["http://com/", "https://Docs.Python.org/3/", "http://127.0.0.1:8080/x",
          "https://user@example.com/", "http://[::1]/", "https://example.com./",
          "https://a.b.example.org/p", "ftp://example.com/", "https://exa\\mple.com/"]
_SENSITIVE = ["/home/u/.ssh/authorized_keys", "/root/.ssh/authorized_keys", "/home/.x",
              "/Users/x/.zshrc", "/var/home/u/.bashrc", "/.profile", "/users/u/.ssh/x",
              "/mnt/c/Users/u/.ssh/x", "/dev/sdb", "/proc/self/environ"]
#: Files of the project no observed call names, which run code when written: no Edit of one
#: is covered (a search of the project may read them).
_PROJECT_SENSITIVE = ["/w/proj/.git/hooks/pre-commit", "/w/proj/.git/info/x",
                      "/w/proj/sub/.git/hooks/x", "/w/proj/.claude/hooks.json",
                      "/w/proj/Makefile"]


def hostile_calls(count: int, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """``count`` hostile calls (tool, input)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.6:
            calls.append(("Bash", {"command": _command(rng)}))
        elif roll < 0.8:
            tool = rng.choice(["Read", "Write", "Edit", "Grep", "Glob"])
            key = "path" if tool in ("Grep", "Glob") else "file_path"
            path = rng.choice(_PATHS)
            calls.append((tool, {key: path, "pattern": "x"} if key == "path"
                          else {key: path}))
        elif roll < 0.9:
            calls.append(("Bash", {"command": f"{_command(rng)} > {rng.choice(_PATHS)}"}))
        else:
            calls.append(("WebFetch", {"url": rng.choice(_HOSTS), "prompt": "p"}))
    return calls


def _command(rng: random.Random) -> str:
    kind = rng.randrange(7)
    args = " ".join(rng.sample(_ARGS, rng.randrange(3)))
    if kind == 0:  # a table program, disguised
        name = rng.choice(_TABLE_PROGRAMS)
        name = rng.choice([name, name.upper(), f"{name}5", f"{name}.exe", f"/bin/{name}",
                           f"./{name}", f"'{name}'", f"\\{name}", f"{name}-2", name])
        return f"{name} {args}".strip()
    if kind == 1:
        return f"{rng.choice(_INTERPRETERS)} {args}".strip()
    if kind == 2:  # an unknown program
        letters = "abcdefghijklmnopqrstuvwxyz"
        name = "".join(rng.choice(letters) for _ in range(rng.randrange(2, 7)))
        return f"{name}{rng.choice(['', '.tiny', '3', '-x', '.exe'])} {args}".strip()
    program, subs = rng.choice(_TWO_LEVEL)
    sub = rng.choice(subs)
    if kind == 3:  # a flag before (or between) the subcommands
        first, _, rest = sub.partition(" ")
        flag = rng.choice(["-C d", "-R o/r", "--region eu", "-q", "--no-pager"])
        return " ".join(w for w in (program, flag, first, rest, args) if w)
    if kind == 4:  # a wrapper or an assignment first
        prefix = rng.choice(["timeout 5", "nice", "FOO=1", "command", "env"])
        return f"{prefix} {rng.choice(_TABLE_PROGRAMS)} {args}".strip()
    if kind == 5:  # an expansion or a glob among the words
        word = rng.choice(["$X", "$(id)", "{a,b}", "*", "`id`", "${X:-y}", "~"])
        return f"{rng.choice(_TABLE_PROGRAMS)} {word}"
    return f"{program} {sub} {args}".strip()


def check(draws: int, seed: int, calls_per_draw: int = 40) -> tuple[Counter[str], list[str]]:
    """Suggest and probe ``draws`` hostile draws; the counts, and each violation found."""
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    violations: list[str] = []
    for _ in range(draws):
        calls = hostile_calls(calls_per_draw, rng)
        evidence = Evidence([Observed("h", i + 1, tool, tool_input, CWD)
                             for i, (tool, tool_input) in enumerate(calls)])
        for level in ("command", "directory"):
            found = suggest(evidence, level)
            counts["suggestions"] += 1
            counts["calls"] += len(calls)
            counts["entries"] += len(found.entries)
            counts["grouped entries"] += sum(e.endswith(" *)") for e in found.entries)
            counts["not suggestible"] += len(found.not_suggestible)
            violations += _probe(found.entries, calls, found.not_suggestible, counts)
    return counts, violations


def _probe(entries: list[str], calls: list[tuple[str, dict[str, Any]]],
           listed: list[Any], counts: Counter[str]) -> list[str]:
    def covered(tool: str, tool_input: dict[str, Any]) -> bool:
        counts["probes judged"] += 1
        try:
            return check_call(tool, tool_input, entries, cwd=CWD).covered
        except OSError:  # /proc/1/cwd: the gate raises, the hook denies
            return False

    shown = str([e for e in entries if e.startswith("Bash(")])[:300]
    bad = []
    not_listed = {_key(t, i) for t, i in calls} - {_key(d.call.tool, d.call.tool_input)
                                                   for d in listed}
    for tool, tool_input in calls:
        if _key(tool, tool_input) in not_listed and not covered(tool, tool_input):
            bad.append(f"observed and not listed, yet not covered: {tool} {tool_input}")
    observed = {i["command"] for t, i in calls if t == "Bash"}
    for probe, command in _command_probes(observed):
        if covered("Bash", {"command": probe}):
            counts["probes covered"] += 1
            if not _vouched(probe):
                bad.append(f"{probe!r} covered (observed {command!r}) by {shown}")
    bad += [f"{tool} {path} covered by {str(entries)[:300]}" for path in _SENSITIVE
            for tool in ("Read", "Edit") if covered(tool, {"file_path": path})]
    bad += [f"Edit {path} covered by {str(entries)[:300]}" for path in _PROJECT_SENSITIVE
            if covered("Edit", {"file_path": path})]
    urls = {i["url"] for t, i in calls if t == "WebFetch"}
    probes = ["https://evil.example/", *(f"https://{p}/" for h in map(_host, urls) if h
                                         for p in (f"sub.{h}", f"{h}.evil", f"x{h}"))]
    bad += [f"WebFetch {url} covered by {str(entries)[:300]}" for url in probes
            if url not in urls and covered("WebFetch", {"url": url, "prompt": "p"})]
    return bad


def _key(tool: str, tool_input: Any) -> tuple[str, str]:
    return tool, repr(sorted(dict(tool_input).items()))


def _command_probes(observed: set[str]) -> list[tuple[str, str]]:
    """(probe, the observed command it grew from): an observed command's first one to three
    words, then an argument that runs code or writes a chosen file; never an observed one."""
    probes = []
    for command in sorted(observed):
        words = command.split()
        for size in range(1, min(3, len(words)) + 1):
            probes += [(p, command) for p in (" ".join([*words[:size], t]) for t in _TAILS)
                       if p not in observed]
    return probes


def _host(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _vouched(command: str) -> bool:
    """The command's first words, as a POSIX shell splits them (quotes removed), are a key of
    the table: the program it runs is one the table vouches for (``'cat' -c id`` runs cat;
    so does ``timeout 5 cat -c id``, which Claude Code approves under ``Bash(cat *)``: the
    reference note measures ``timeout 5 touch zz`` under ``Bash(touch *)``)."""
    try:
        words = tuple(shlex.split(command))
    except ValueError:
        return False
    while words[:1] in (("nice",), ("nohup",)) or (words[:1] == ("timeout",)
                                                   and words[1:2] == ("5",)):
        words = words[2:] if words[0] == "timeout" else words[1:]  # the runtime reads past
    return any(words[:len(key)] == key for key in GROUPS)


def main(draws: int = 200, seed: int = 32) -> int:
    counts, violations = check(draws, seed)
    print(f"suggest hostile evidence: {draws} draws, seed {seed}: "
          + ", ".join(f"{counts[k]} {k}" for k in ("suggestions", "calls", "entries",
                                                    "grouped entries", "not suggestible",
                                                    "probes judged", "probes covered")))
    for line in violations[:20]:
        print("VIOLATION", line)
    print(f"{len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(*map(int, sys.argv[1:3])))
