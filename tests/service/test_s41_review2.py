"""Session-41 review 2 of eb28856 and e5efe6a (the hook path's per-request work cut) and of the
guarded set's new parts (gate/linked.py, gate/nested.py) as the service's view keeps them.
Each test is a sequence of requests or filesystem changes after which the service must answer
as a fresh ``skillgrant hook`` process does (or, in process, as ``guards.guarded_items`` asked
of the system does). A test that fails here is a finding
(report: /work/wt/reports/s41-review2-report.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from serving import start

from skillgrant.gate import files, guards, named
from skillgrant.gate.placed import fold
from skillgrant.service.watched import Watched

#: About two minutes of CPU (real bash and fresh hook processes): CI's slow step runs them
#: (.ci/steps/30-slow.sh), as `pytest --slow -m slow` does here.
pytestmark = [pytest.mark.skipif(shutil.which("git") is None, reason="no git here"),
              pytest.mark.slow]




@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM",
                 "GIT_COMMON_DIR", "GIT_CONFIG", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
                 "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH", "BASH_ENV", "ENV", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return home


def _git(*args: str | Path, cwd: Path | None = None) -> None:
    subprocess.run(["git", *map(str, args)], check=True, capture_output=True, cwd=cwd)


def _outcome(view: Watched | None, plan: Path, cwd: str, project: str) -> object:
    """``guards.guarded_items`` through ``view`` (None: the system), or the ValueError's
    kind (the hook then denies: what the call must not write is not known)."""
    files.use(view)
    try:
        return guards.guarded_items(str(plan), None, None, cwd, project)
    except ValueError as e:
        return ("ValueError", str(e).split("'")[1] if "'" in str(e) else str(e))
    finally:
        files.use(None)


def _differential(view: Watched, plan: Path, cwd: str, project: str,
                  change: Callable[[], object]) -> None:
    view.refresh()
    for _ in range(2):
        assert _outcome(view, plan, cwd, project) == _outcome(None, plan, cwd, project)
    print("KEPT" if view._composites else "UNKEPT", "before the change")
    change()
    view.refresh()
    fresh = _outcome(None, plan, cwd, project)
    kept = _outcome(view, plan, cwd, project)
    assert kept == fresh, (kept, fresh)


# --- the guarded set's new parts (gate/linked.py, gate/nested.py), kept by the view -----

Scenario = Callable[[Path], tuple[Path, Callable[[], object]]]


def _repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    _git("init", "-q", repo)
    return repo


def _s_deep_hook_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".claude" / "hooks" / "a" / "b").mkdir(parents=True)
    (tmp / "tools").mkdir()
    return repo, lambda: (repo / ".claude" / "hooks" / "a" / "b" / "run.sh").symlink_to(
        tmp / "tools")


def _s_deep_hook_hard_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".claude" / "skills" / "s" / "bin").mkdir(parents=True)
    script = repo / ".claude" / "skills" / "s" / "bin" / "x.sh"
    script.write_text("echo\n")
    return repo, lambda: os.link(script, tmp / "second-name")


def _s_skills_folder_to_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".claude" / "skills").mkdir(parents=True)
    (tmp / "elsewhere").mkdir()

    def change() -> None:
        (repo / ".claude" / "skills").rmdir()
        (repo / ".claude" / "skills").symlink_to(tmp / "elsewhere")
    return repo, change


def _s_git_hook_link_retargeted(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (tmp / "a.sh").write_text("a")
    (tmp / "b.sh").write_text("b")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.symlink_to(tmp / "a.sh")

    def change() -> None:
        hook.unlink()
        hook.symlink_to(tmp / "b.sh")
    return repo, change


def _s_git_hook_target_hard_linked(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\n")
    return repo, lambda: os.link(repo / ".git" / "hooks" / "pre-commit", tmp / "pc2")


def _s_info_attributes_hard_linked(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("* text\n")
    return repo, lambda: os.link(repo / ".git" / "info" / "attributes", tmp / "attrs")


def _s_info_folder_replaced(tmp: Path) -> tuple[Path, Callable[[], object]]:
    """`.git/info` replaced by a folder whose `attributes` has a second name."""
    repo = _repo(tmp)
    shutil.rmtree(repo / ".git" / "info", ignore_errors=True)
    (tmp / "info2").mkdir()
    (tmp / "info2" / "attributes").write_text("* text\n")
    os.link(tmp / "info2" / "attributes", tmp / "attrs")
    return repo, lambda: (tmp / "info2").rename(repo / ".git" / "info")


def _s_worktree_config_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    _git("-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x", "--no-gpg-sign")
    _git("-C", repo, "worktree", "add", "-q", tmp / "wt")
    own = next((repo / ".git" / "worktrees").iterdir())
    (tmp / "cfg").write_text("[core]\n")
    return repo, lambda: (own / "config.worktree").symlink_to(tmp / "cfg")


def _s_worktree_added(tmp: Path) -> tuple[Path, Callable[[], object]]:
    """A linked worktree made later: its git folder's `gitdir` file, hard linked."""
    repo = _repo(tmp)
    _git("-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x", "--no-gpg-sign")

    def change() -> None:
        _git("-C", repo, "worktree", "add", "-q", tmp / "wt")
        own = next((repo / ".git" / "worktrees").iterdir())
        os.link(own / "gitdir", tmp / "gd2")
    return repo, change


def _s_github_hooks_deep_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".github" / "hooks" / "x" / "y").mkdir(parents=True)
    (tmp / "t").mkdir()
    return repo, lambda: (repo / ".github" / "hooks" / "x" / "y" / "z").symlink_to(tmp / "t")


def _s_codex_hard_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_text("x=1\n")
    return repo, lambda: os.link(repo / ".codex" / "config.toml", tmp / "c2")


def _s_too_many_entries(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    many = repo / ".claude" / "hooks"
    many.mkdir(parents=True)
    for i in range(4090):
        (many / f"f{i}").mkdir()

    def change() -> None:
        for i in range(4090, 4100):
            (many / f"f{i}").mkdir()
    return repo, change


def _s_submodule_hook_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    """A populated submodule's own hook becomes a link."""
    inner = tmp / "inner"
    _git("init", "-q", inner)
    _git("-C", inner, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x", "--no-gpg-sign")
    repo = _repo(tmp)
    _git("-C", repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q",
         str(inner), "sub")
    (tmp / "t.sh").write_text("x")
    hooks = repo / ".git" / "modules" / "sub" / "hooks"
    return repo, lambda: (hooks / "post-checkout").symlink_to(tmp / "t.sh")


def _s_main_checkout_claude_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    """From a linked worktree: the main checkout's `.claude/agents` gets a link."""
    repo = _repo(tmp)
    _git("-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x", "--no-gpg-sign")
    _git("-C", repo, "worktree", "add", "-q", tmp / "wt")
    (repo / ".claude" / "agents").mkdir(parents=True)
    (tmp / "t").mkdir()
    return tmp / "wt", lambda: (repo / ".claude" / "agents" / "a.md").symlink_to(tmp / "t")


def _s_home_claude_hook_hard_link(tmp: Path) -> tuple[Path, Callable[[], object]]:
    repo = _repo(tmp)
    home = Path(os.environ["HOME"])
    (home / ".claude" / "hooks").mkdir(parents=True)
    (home / ".claude" / "hooks" / "h.sh").write_text("x")
    return repo, lambda: os.link(home / ".claude" / "hooks" / "h.sh", tmp / "h2")


LINKED: dict[str, Scenario] = {
    "deep-hook-link": _s_deep_hook_link,
    "deep-hook-hard-link": _s_deep_hook_hard_link,
    "skills-folder-to-link": _s_skills_folder_to_link,
    "git-hook-link-retargeted": _s_git_hook_link_retargeted,
    "git-hook-target-hard-linked": _s_git_hook_target_hard_linked,
    "info-attributes-hard-linked": _s_info_attributes_hard_linked,
    "info-folder-replaced": _s_info_folder_replaced,
    "worktree-config-link": _s_worktree_config_link,
    "worktree-added": _s_worktree_added,
    "github-hooks-deep-link": _s_github_hooks_deep_link,
    "codex-hard-link": _s_codex_hard_link,
    "too-many-entries": _s_too_many_entries,
    "submodule-hook-link": _s_submodule_hook_link,
    "main-checkout-claude-link": _s_main_checkout_claude_link,
    "home-claude-hook-hard-link": _s_home_claude_hook_hard_link,
}


@pytest.mark.parametrize("name", list(LINKED))
def test_linked_part_changed_between_two_requests(view: Watched, tmp_path: Path,
                                                  clean_env: Path, name: str) -> None:
    cwd, change = LINKED[name](tmp_path)
    _differential(view, tmp_path / "plan.json", str(cwd), str(cwd), change)


# --- end to end: a real service and a real hook process ------------------------------------

def _hook(plan: Path, payload: dict[str, object], env: dict[str, str], cwd: Path) -> str:
    """A fresh ``skillgrant hook`` process's answer, run as Claude Code runs a command hook:
    in the call's folder, in the session's environment."""
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "hook", "--plan", str(plan)],
                          input=json.dumps(payload), capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)
    return done.stdout + done.stderr


def _edit(work: Path, target: Path) -> dict[str, object]:
    return {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
            "tool_name": "Edit", "tool_input": {"file_path": str(target), "old_string": "#",
                                                "new_string": "#"}}


@pytest.mark.parametrize(("name", "value", "written"), [
    ("PATH", "bin:/usr/bin:/bin", "bin/git"), ("PATH", "./bin:/usr/bin:/bin", "bin/git"),
    ("PATH", "tools/../bin:/usr/bin:/bin", "bin/git"),
    ("BASH_ENV", "env.sh", "env.sh"), ("GIT_CONFIG_GLOBAL", "cfg/gitconfig", "cfg/gitconfig"),
    ("XDG_CONFIG_HOME", "xdg", "xdg/git/config"),
])
def test_f1_a_relative_variable_is_read_from_the_services_folder(
        tmp_path: Path, clean_env: Path, name: str, value: str, written: str) -> None:
    """The session's environment holds a relative path (the same in the service's, so the
    session is the service's). A fresh hook, run in the call's folder as Claude Code runs
    it, reads it from there: it guards ``<cwd>/bin`` (a folder a program's name is found in:
    review H-12), ``<cwd>/env.sh`` (bash's start-up file: F6), git's configuration, and
    denies an Edit of it; the service reads the path from its own folder, and must deny too."""
    work = tmp_path / "work"
    (work / "tools").mkdir(parents=True)
    target = work / written
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("#\n")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{work}/**)"]}))
    env = {**os.environ, name: value}
    payload = _edit(work, target)
    fresh = _hook(plan, payload, env, work)
    assert '"deny"' in fresh, fresh
    with start([f"p={plan}"], env=env, cwd=tmp_path) as served:
        answer = served.post("/v1/hook/p", payload).body
    assert b'"deny"' in answer, (answer, fresh)


def _sent_in_two(served: object, first: bytes, second: bytes) -> bytes:
    """``first``, a pause, then ``second`` on one connection; what comes back until the
    service closes it."""
    import socket
    import time

    host, port = served.host, served.port  # type: ignore[attr-defined]
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(first)
        time.sleep(0.5)  # the service reads the first part as a chunk of its own
        try:
            sock.sendall(second)
        except (BrokenPipeError, ConnectionResetError):
            return b""
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return got


@pytest.mark.parametrize("where", ["both", "before", "after"])
def test_f2_a_head_over_the_limit_in_blanks_is_handed_to_the_application(
        tmp_path: Path, where: str) -> None:
    """docs/service.md: a head over MAX_REQUEST_HEADER_BYTES is never handed to the
    application ("counted after each chunk read and when the head is whole"). The protocol
    counts the bytes of chunks that leave the head unfinished, and the parser's pieces (a
    header's name and value, handed over without the blanks around the value): a head sent
    as 60,000 bytes then 40,000 that end it, its headers padded with blanks, is over the
    limit and is answered."""
    from skillgrant.limits import MAX_REQUEST_HEADER_BYTES

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Read"]}))
    pad = b" " * 1000
    before, after = (pad, pad) if where == "both" else (pad, b"") if where == "before" \
        else (b"", pad)
    with start([f"p={plan}"]) as served:
        head = (f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                "Connection: close\r\n").encode()
        while len(head) < 100_000:
            head += b"X-Pad-%d:" % len(head) + before + b"v" + after + b"\r\n"
        head += b"\r\n"
        assert len(head) > MAX_REQUEST_HEADER_BYTES
        got = _sent_in_two(served, head[:60_000], head[60_000:])
    assert got == b"", got[:120]


@pytest.mark.parametrize("setting", ["hooksPath", "fsmonitor"])
def test_f3_git_config_nosystem_in_the_services_environment_is_not_compared(
        tmp_path: Path, clean_env: Path, setting: str) -> None:
    """git reads GIT_CONFIG_NOSYSTEM, which no header carries: a service started with it
    (CI, Nix, a test harness) asks its git without the system's configuration, where the
    session's git reads it. The system's configuration (here GIT_CONFIG_SYSTEM, the same in
    both environments, standing for /etc/gitconfig) names a hooks folder or an fsmonitor
    program: a fresh hook in the session's environment denies an Edit of the hook or the
    program, and the service must too (or refuse the session)."""
    work = tmp_path / "work"
    _git("init", "-q", work)
    tools = tmp_path / "tools"
    tools.mkdir()
    target = tools / ("pre-commit" if setting == "hooksPath" else "fsmonitor.sh")
    target.write_text("#!/bin/sh\n")
    system = tmp_path / "system.cfg"
    system.write_text(f"[core]\n\thooksPath = {tools}\n" if setting == "hooksPath" else
                      f"[core]\n\tfsmonitor = {target}\n")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)"]}))
    session = {**os.environ, "GIT_CONFIG_SYSTEM": str(system)}
    session.pop("GIT_CONFIG_NOSYSTEM", None)
    payload = _edit(work, target)
    fresh = _hook(plan, payload, session, work)
    assert '"deny"' in fresh, fresh
    with start([f"p={plan}"], env={**session, "GIT_CONFIG_NOSYSTEM": "1"},
               cwd=work) as served:
        served.env = session  # the headers the session sends (without GIT_CONFIG_NOSYSTEM)
        answer = served.post("/v1/hook/p", payload).body
    assert b'"deny"' in answer, (answer, fresh)


# --- the kept sessions (service/sessions.py): a sequence of requests from many sessions ----

def _served_answer(service: object, headers: list[tuple[bytes, bytes]], body: bytes) -> str:
    import asyncio

    from skillgrant.service.app import create_app, front

    scope = {"type": "http", "method": "POST", "path": "/v1/hook/p", "query_string": b"",
             "headers": headers}
    app = front(service, create_app(service))  # type: ignore[arg-type]
    sent: list[bytes] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.body":
            body = message["body"]
            assert isinstance(body, (bytes, bytearray))
            sent.append(bytes(body))

    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return b"".join(sent).decode()


def _reference(plan: object, headers: list[tuple[bytes, bytes]], body: bytes) -> str:
    """The answer read afresh: each header's last value, ``session_problem`` and
    ``project_folder`` asked again, then ``decide`` on the bytes (the path before eb288562)."""
    from skillgrant.gate.environment import NAMES, project_folder, session_problem
    from skillgrant.gate.hook import Options, decide, failure
    from skillgrant.gate.options import PROJECT_OPTION

    table: dict[str, str] = {}
    sent: dict[str, set[str]] = {}
    for name, value in headers:
        table[name.decode("latin-1").lower()] = value.decode("latin-1")
        sent.setdefault(name.decode("latin-1").lower(), set()).add(value.decode("latin-1"))
    session = {header: table[header] for _, header in NAMES if header in table}
    clash = sorted(header for header in session if len(sent[header]) > 1)
    if clash:  # (session 48: a session header sent twice with other values is denied)
        return " ".join(("CLASH", *clash))
    problem = session_problem(session)
    if problem is not None:
        return failure("claude-code", problem).stdout
    options = Options()
    options.values["--plan"] = plan.spec.path  # type: ignore[attr-defined]
    project, unknown = project_folder(session, body)
    if project is not None:
        options.values[PROJECT_OPTION] = project
    answer = decide(options, body, plan.loaded)  # type: ignore[attr-defined]
    if unknown is not None and answer.status != 2:
        return failure("claude-code", unknown).stdout
    return answer.stdout


def test_kept_sessions_answer_a_random_sequence_as_read_afresh(tmp_path: Path,
                                                              clean_env: Path) -> None:
    """300 requests drawn from sessions that differ in their PWD, a header sent twice (the
    first value another: denied, naming the header, since session 48), a compared variable,
    a transcript of another folder or none, a call inside or outside the plan: each answered
    by the service (its sessions kept) as by the path that read every header and the payload
    afresh."""
    import random

    from serving import session_headers, transcript

    from skillgrant.service.app import Service
    from skillgrant.service.plans import Plans, PlanSpec

    folders = ["/srv/a", "/srv/a-b", "/srv/a/b", "/srv/c", "/" + "d" * 250, "/" + "d" * 251,
               "relative", ""]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Read(//srv/**)", "Read(//d*/**)"]}))
    service = Service(Plans([PlanSpec("p", str(plan))], lambda *a, **k: None), audit=None,
                      handler_timeout=10.0)
    served = service.plans.get("p")
    assert served is not None
    rng = random.Random(41)
    kinds: set[str] = set()
    try:
        for _ in range(300):
            folder, other = rng.choice(folders), rng.choice(folders)
            env = dict(os.environ)
            if rng.random() < 0.1:
                env["HOME"] = "/elsewhere"
            headers = [(k.lower().encode(), v.encode("latin-1"))
                       for k, v in session_headers(env, folder).items()]
            if rng.random() < 0.2:  # a header sent twice: the last counts
                at = rng.randrange(len(headers))
                name = headers[at][0]
                headers.insert(at, (name, b"<" + rng.choice(folders).encode() + b">"))
            kind = rng.random()
            path = transcript(os.environ, other if kind < 0.3 else folder)
            call: dict[str, object] = {
                "session_id": "s", "cwd": folder or "/", "hook_event_name": "PreToolUse",
                "tool_name": "Read", "tool_input": {"file_path": rng.choice(
                    ["/srv/a/x", "/etc/shadow", "/" + "d" * 250 + "/x"])}}
            if kind < 0.9:
                call["transcript_path"] = path if kind < 0.8 else rng.choice([7, None, ""])
            body = json.dumps(call).encode()
            expected = _reference(served, headers, body)
            answer = _served_answer(service, headers, body)
            if expected.startswith("CLASH "):  # denied, naming the header: never one value
                decision = json.loads(answer)["hookSpecificOutput"]
                assert decision["permissionDecision"] == "deny", answer
                assert all(h in decision["permissionDecisionReason"]
                           for h in expected.split()[1:]), answer
                kinds.add("clash")
                continue
            assert answer == expected
            kinds.add("allowed" if not expected else "no-session" if "differs" in expected
                      or "does not carry" in expected else "no-project" if
                      "project folder is not known" in expected else "denied")
        assert kinds == {"allowed", "no-session", "no-project", "denied", "clash"}, kinds
    finally:
        for pool in service.pools:
            pool.shutdown(wait=False)


# --- the guarded files' names found by one search; a word's path by one concatenation ------

_ALPHABET = "ab.-_*?[]()|\\^$+{}\n\x00 é\udcff/"


def _holds(word: str, names: set[str]) -> bool:
    """``Index.named``'s rule asked name by name (review s44 C14): a word with a slash, one of
    whose parts ends with a name holding a dot, or is a name without one."""
    parts = word.split("/") if "/" in word else []
    return any(part.endswith(name) if "." in name else part == name
               for part in parts for name in names)


def test_the_names_search_finds_exactly_what_each_name_in_the_word_finds() -> None:
    """``Index.named`` (one regular expression for the dotted names, a set for the others)
    against its rule asked name by name (``_holds``), on names and words of regular
    expressions' own characters, a NUL, a line break, a surrogate."""
    import random

    rng = random.Random(4141)
    for _ in range(3000):
        names = {"".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 4)))
                 for _ in range(rng.randint(0, 6))}
        named.GUARDED.set(tuple(("/g/" + name, False) for name in names))
        index = named._indexed()
        for _ in range(5):
            word = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 8)))
            if rng.random() < 0.3 and index.names:
                name = rng.choice(sorted(index.names))
                word = word[:2] + rng.choice(["", "/"]) + name + word[2:]
            # (the index holds names folded as the guard compares them: review s46 X2)
            assert index.named(word) == _holds(fold(word), index.names), (
                sorted(index.names), word)


def test_a_word_naming_a_guarded_file_by_another_name_is_found(tmp_path: Path) -> None:
    """``_named_file`` (its path now one concatenation, its real path asked only when it
    differs) against the system: a word, read from a folder spelled in many ways, names
    the guarded file whenever ``os.path.samefile`` says so (through a link, a hard link,
    `..`, `//`). Asked of a writer's word (``cp``): a reader's is a read (review s44 C13)."""
    import itertools

    folder = tmp_path / "g"
    folder.mkdir()
    guarded = folder / "plan.json"
    guarded.write_text("{}")
    os.link(guarded, folder / "hl")
    (folder / "ln").symlink_to("plan.json")
    (folder / "other").write_text("x")
    (tmp_path / "up").symlink_to(folder)
    base = str(tmp_path)
    directories = [f"{base}/g", f"{base}/g/", f"{base}//g", f"{base}/up", f"{base}/up/",
                   f"{base}/x/..", base, f"{base}/", "", "relative"]
    words = ["hl", "ln", "other", "./hl", "../g/ln", "g/hl", "up/ln", "up/../g/hl",
             f"{base}/g/hl", f"{base}/up/other", "up//hl", "g/./ln", "nothing"]
    token = named.GUARDED.set(((str(guarded), False),))
    try:
        for directory, word in itertools.product(directories, words):
            full = os.path.join(directory, word)
            names = full.startswith("/") and os.path.exists(full) and \
                os.path.samefile(full, guarded)
            found = named.named_word([word], directory or None, f"cp notes {word}")
            # (a word read through a folder missing, `x/..`, is denied: more, never less)
            assert found is not None or not names, (directory, word)
    finally:
        named.GUARDED.reset(token)


@pytest.mark.parametrize("change", ["retarget", "folder-link", "replace-by-hard-link"])
def test_a_word_whose_file_changes_between_two_requests(view: Watched, tmp_path: Path,
                                                        change: str) -> None:
    """``_named_file`` through the service's view, asked, then asked again after the word's
    file becomes the guarded one (a link retargeted, a folder on its way made a link, the
    file replaced by a hard link to it): found as the system finds it."""
    folder = tmp_path / "g"
    folder.mkdir()
    guarded = folder / "plan.json"
    guarded.write_text("{}")
    (folder / "other").write_text("x")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "w").write_text("x")
    word, directory = ("ln", str(folder)) if change == "retarget" else ("d/w", str(tmp_path))
    if change == "retarget":
        (folder / "ln").symlink_to("other")
    token = named.GUARDED.set(((str(guarded), False),))
    files.use(view)
    try:
        view.refresh()
        for _ in range(2):
            assert named.named_word([word], directory, f"cp notes {word}") is None
        if change == "retarget":
            (folder / "ln").unlink()
            (folder / "ln").symlink_to("plan.json")
        elif change == "folder-link":
            (tmp_path / "d").rename(tmp_path / "d-old")
            (folder / "w").unlink(missing_ok=True)
            os.link(guarded, folder / "w")
            (tmp_path / "d").symlink_to(folder)
        else:
            (tmp_path / "d" / "w").unlink()
            os.link(guarded, tmp_path / "d" / "w")
        view.refresh()
        files.use(None)
        fresh = named.named_word([word], directory, f"cp notes {word}")
        files.use(view)
        assert fresh is not None
        assert named.named_word([word], directory, f"cp notes {word}") == fresh
    finally:
        files.use(None)
        named.GUARDED.reset(token)


def test_f4_a_stale_pwd_sharing_a_long_projects_first_200_characters_passes(
        tmp_path: Path, clean_env: Path) -> None:
    """review F5's area (docs/service.md, "Still open", names folders that differ only in
    characters other than letters and digits). Claude Code names the project folder of a
    path whose mangled name is over 200 characters by its first 200 and a hash; the service
    takes any name that starts with the first 200: a stale PWD (another project beside the
    real one, under the same long folder) passes. The session's project is ``b``; a call
    made from another folder edits ``b/.claude/settings.json``: the hook (its
    ``CLAUDE_PROJECT_DIR`` is ``b``) denies it; the service, taking ``a`` for the project,
    allows it."""
    import re

    long = tmp_path / ("x" * 100) / ("y" * 110)
    a, b, other = long / "proj-a", long / "proj-b", tmp_path / "other"
    for folder in (a, b / ".claude", other):
        folder.mkdir(parents=True)
    target = b / ".claude" / "settings.json"
    target.write_text("{}")
    mangled = re.sub(r"[^a-zA-Z0-9]", "-", str(b))
    assert len(mangled) > 200 and re.sub(r"[^a-zA-Z0-9]", "-", str(a))[:200] == mangled[:200]
    transcript = clean_env / ".claude" / "projects" / (mangled[:200] + "-1a2b3c") / "t.jsonl"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)"]}))
    payload = {**_edit(other, target), "transcript_path": str(transcript)}
    fresh = _hook(plan, payload, {**os.environ, "CLAUDE_PROJECT_DIR": str(b)}, other)
    assert '"deny"' in fresh, fresh
    from serving import session_headers

    with start([f"p={plan}"], cwd=other) as served:
        right = session_headers(served.env, str(b))
        assert b'"deny"' in served.post("/v1/hook/p", payload, headers=right,
                                        session=False).body  # the PWD the project's
        stale = session_headers(served.env, str(a))  # the session's PWD: the other project
        answer = served.post("/v1/hook/p", payload, headers=stale, session=False).body
    assert b'"deny"' in answer, (answer, fresh)


@pytest.fixture
def quiet(tmp_path: Path) -> Iterator[Path]:
    """``tmp_path``, or a folder under ``$S41_QUIET``: the service forgets its kept set at any
    entry made in any folder above the call's (`/tmp` on a busy machine), so an end-to-end
    test may pass by luck there."""
    import tempfile

    base = os.environ.get("S41_QUIET")
    if not base:
        yield tmp_path
        return
    found = Path(tempfile.mkdtemp(prefix="s41q-", dir=base))
    yield found
    shutil.rmtree(found, ignore_errors=True)


def _linked_link(work: Path, tools: Path) -> tuple[Path, Callable[[], object]]:
    (work / ".claude" / "hooks" / "fmt").mkdir(parents=True)
    return tools / "fmt.sh", lambda: (work / ".claude" / "hooks" / "fmt" / "run.sh"
                                      ).symlink_to(tools / "fmt.sh")


def _linked_hard(work: Path, tools: Path) -> tuple[Path, Callable[[], object]]:
    (work / ".claude" / "skills" / "s").mkdir(parents=True)
    script = work / ".claude" / "skills" / "s" / "x.sh"
    script.write_text("#\n")

    def relinked() -> None:
        (tools / "fmt.sh").unlink()
        os.link(script, tools / "fmt.sh")

    return tools / "fmt.sh", relinked


def _git_hook_link(work: Path, tools: Path) -> tuple[Path, Callable[[], object]]:
    return tools / "fmt.sh", lambda: (work / ".git" / "hooks" / "pre-commit").symlink_to(
        tools / "fmt.sh")


def _worktree_config_link(work: Path, tools: Path) -> tuple[Path, Callable[[], object]]:
    _git("-C", work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x", "--no-gpg-sign")
    _git("-C", work, "worktree", "add", "-q", work.parent / "wt")
    own = next((work / ".git" / "worktrees").iterdir())
    return tools / "fmt.sh", lambda: (own / "config.worktree").symlink_to(tools / "fmt.sh")


@pytest.mark.parametrize("setup", [_linked_link, _linked_hard, _git_hook_link,
                                   _worktree_config_link], ids=lambda f: f.__name__)
def test_a_linked_part_made_between_two_requests_end_to_end(
        quiet: Path, clean_env: Path, setup: Callable[[Path, Path],
                                                      tuple[Path, Callable[[], object]]]
) -> None:
    """A real service, asked three times (its guarded set kept), then a link or a second name
    made in a place gate/linked.py reads: an Edit of what it reaches is denied by a fresh hook
    process, and must be by the service."""
    work, tools = quiet / "work", quiet / "tools"
    _git("init", "-q", work)
    tools.mkdir()
    (tools / "fmt.sh").write_text("#\n")
    target, change = setup(work, tools)
    plan = quiet / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{quiet}/**)"]}))
    payload = _edit(work, target)
    env = dict(os.environ)
    with start([f"p={plan}"], env=env, cwd=work) as served:
        for _ in range(3):
            assert served.post("/v1/hook/p", payload).body == b""
        assert '"deny"' not in _hook(plan, payload, env, work)
        change()
        fresh = _hook(plan, payload, env, work)
        assert '"deny"' in fresh, fresh
        answer = served.post("/v1/hook/p", payload).body
    assert b'"deny"' in answer, (answer, fresh)


def _bun() -> str | None:
    found = Path.home() / ".cache" / "skillgrant-runtime" / "bun-1.4.5" / "package" / "bin" / "bun"
    return str(found) if found.is_file() else None


def test_f5_an_empty_home_guards_the_root_folder_not_the_users_home(tmp_path: Path) -> None:
    """Not the service's (the gate's own, in every hook process): with ``HOME`` set but
    empty, Claude Code's runtime (Bun 1.4.5, measured here) takes the home folder from the
    password database, and its user settings from ``<that>/.claude`` (CLAUDE_CONFIG_DIR
    unset: ``process.env.CLAUDE_CONFIG_DIR||join(homedir(),".claude")`` in the 2.1.332
    binary). Python's ``os.path.expanduser("~")`` gives ``/`` for an empty HOME (it asks
    the password database only when HOME is unset), so the gate guards ``/.claude``, and
    an Edit of the user's real settings (``disableAllHooks``) is allowed. Unset, it is
    denied."""
    import pwd

    bun = _bun()
    if bun is None:
        pytest.skip("no Bun 1.4.5 cached (tests/oracle/bun_runtime.py install)")
    measured = subprocess.run([bun, "-e", "console.log(require('os').homedir())"],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "HOME": ""}).stdout.strip()
    assert measured == pwd.getpwuid(os.getuid()).pw_dir
    target = Path(measured) / ".claude" / "settings.json"  # judged only: nothing is written
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{target.parent}/**)"]}))
    work = tmp_path / "work"
    work.mkdir()
    payload = _edit(work, target)
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "CLAUDE_CONFIG_DIR")}
    assert '"deny"' in _hook(plan, payload, env, work)  # HOME unset: the database's
    empty = _hook(plan, payload, {**env, "HOME": ""}, work)
    assert '"deny"' in empty, empty


def test_f6_a_decision_waiting_on_git_holds_up_every_other_request(tmp_path: Path,
                                                                   clean_env: Path) -> None:
    """A decision made on the event loop (``Service._inline``: within ``INLINE_WORK`` and
    needing no bash) may still ask git (``worktree.run_git``, up to 30 s), which the
    handler timeout does not bound there: a repository whose configuration includes a FIFO
    makes git wait on it, and while it waits every other request — another session's hook
    call, ``/v1/health`` — waits too."""
    import threading
    import time

    work = tmp_path / "work"
    _git("init", "-q", work)
    fifo = tmp_path / "include.fifo"
    os.mkfifo(fifo)
    _append_text(work / ".git" / "config", f"[include]\n\tpath = {fifo}\n")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Read"]}))
    payload = {"session_id": "s", "cwd": str(work), "hook_event_name": "PreToolUse",
               "tool_name": "Read", "tool_input": {"file_path": str(work / "x")}}
    with start([f"p={plan}"], "--handler-timeout", "5", cwd=tmp_path) as served:
        stuck = threading.Thread(target=served.post, args=("/v1/hook/p", payload),
                                 kwargs={"timeout": 120})
        stuck.start()
        time.sleep(1)  # the decision is waiting on git
        began = time.monotonic()
        health = served.request("GET", "/v1/health", timeout=120)
        took = time.monotonic() - began
        stuck.join()
    assert health.status == 200
    assert took < 5, f"/v1/health waited {took:.1f} s behind a decision waiting on git"


def _append_text(path: Path, text: str) -> None:
    with open(path, "a") as f:
        f.write(text)


@pytest.mark.parametrize(("name", "file"), [("CURL_HOME", ".curlrc"), ("WGETRC", ""),
                                           ("XDG_CONFIG_HOME", ".curlrc")])
def test_f7_curls_and_wgets_configuration_named_by_the_environment_is_not_guarded(
        tmp_path: Path, clean_env: Path, name: str, file: str) -> None:
    """The gate guards ``~/.curlrc`` and ``~/.wgetrc`` (a curl or wget the plan allows reads
    them as what to do: an output file, a command). curl reads ``$CURL_HOME/.curlrc`` first,
    then ``$XDG_CONFIG_HOME/.curlrc`` (with its dot: the ``~/.config/curlrc`` the gate
    guards is no file curl 7.88 reads), and wget the file ``$WGETRC`` names (measured here
    with the system's curl and wget: the named file's settings took effect). In a session
    that sets one, a fresh hook process must deny an Edit of that file as it denies one of
    ``~/.curlrc``; the service, which does not compare the variable, too."""
    curl = name != "WGETRC"
    if shutil.which("curl" if curl else "wget") is None:
        pytest.skip("no curl or wget here")
    place = tmp_path / "conf"
    place.mkdir()
    target = place / file if file else place / "wgetrc"
    data = tmp_path / "data.txt"
    data.write_text("from the configuration\n")
    if curl:  # measured: curl with no argument fetches the file's url
        target.write_text(f'url = "file://{data}"\n')
        done = subprocess.run(["curl", "-s"], capture_output=True, text=True, timeout=30,
                              env={**os.environ, name: str(place)}, cwd=tmp_path)
        assert done.stdout == "from the configuration\n"
    else:  # measured: wget writes where the file's output_document says
        target.write_text(f"output_document = {tmp_path / 'written'}\n")
        subprocess.run(["wget", "-q", f"file://{data}"], capture_output=True, timeout=30,
                       env={**os.environ, name: str(target)}, cwd=tmp_path)
        assert (tmp_path / "written").exists()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [f"Edit(/{tmp_path}/**)",
                                                  f"Edit(/{clean_env}/**)"]}))
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, name: str(place if curl else target)}
    own = clean_env / (".curlrc" if curl else ".wgetrc")
    own.write_text("#\n")
    assert '"deny"' in _hook(plan, _edit(work, own), env, work)  # the home's: guarded
    fresh = _hook(plan, _edit(work, target), env, work)
    assert '"deny"' in fresh, fresh
