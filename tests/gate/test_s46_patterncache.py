"""The hook's kept patterns (``skillgrant/patterncache.py``) are a file the gate trusts, as it
trusts its bytecode: a call the plan covers must not write, replace or link it. Shown with a
scratch installation (a copy of the package, a virtual environment importing it), its printed
hook asked call by call, and each call it allows run under real bash: the file stays the one
the hooks wrote, each entry what ``re`` compiles (lead's request, session 46)."""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import json
import marshal
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import skillgrant
from skillgrant import patterncache

pytestmark = pytest.mark.skipif(not patterncache.usable() or shutil.which("bash") is None,
                                reason="patterns are not kept here, or no bash")

PLAN = ["Bash(cp *)", "Bash(mv *)", "Bash(ln *)", "Bash(tee *)", "Bash(echo *)", "Bash(cd *)",
        "Bash(install *)", "Bash(rsync *)", "Edit", "Write"]


def _installation(tmp_path: Path) -> tuple[list[str], Path]:
    """A copy of this package imported by an interpreter of its own (``-I`` finds it through
    a ``.pth`` file, as an installation's): the printed hook's words, and the package."""
    package = tmp_path / "inst" / "skillgrant"
    shutil.copytree(Path(skillgrant.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    deps = [p for p in sys.path if p.endswith("site-packages") and "venv" in p]
    (site / "00inst.pth").write_text(f"{package.parent}\n" + "".join(f"{d}\n" for d in deps))
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": PLAN}))
    return [str(venv / "bin" / "python"), "-I", "-m", "skillgrant", "hook", "--plan",
            str(plan)], package


def _asks(hook: list[str], project: Path, tool: str, tool_input: dict[str, str]) -> bool:
    """Whether the hook lets the call through (no denial), its bytecode and patterns kept."""
    body = json.dumps({"session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse",
                       "tool_name": tool, "tool_input": tool_input})
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(hook, input=body.encode(), capture_output=True, env=env, cwd=project,
                          timeout=120, check=False)
    return done.returncode == 0 and b'"deny"' not in done.stdout


def test_a_covered_call_cannot_write_the_kept_patterns(tmp_path: Path) -> None:
    hook, package = _installation(tmp_path)
    project = tmp_path / "project"
    (project / "evil").mkdir(parents=True)
    assert _asks(hook, project, "Bash", {"command": "echo warm"})  # writes the file
    assert _asks(hook, project, "Bash", {"command": "echo warm"})  # reads it
    kept = next((package / "__pycache__").glob("patterns.*.marshal"))
    (project / "evil.marshal").write_bytes(b"\x00" * 64)
    (project / "evil" / kept.name).write_bytes(b"\x00" * 64)
    folder, name = kept.parent, kept.name
    relative = os.path.relpath(kept, project)
    calls = [f"cp evil.marshal {kept}", f"mv evil.marshal {kept}", f"ln -sf evil.marshal {kept}",
             f"ln -sf /dev/null {kept}", f"cp evil.marshal {folder}/", f"cp -r evil/. {folder}",
             f"cp -r evil {package.parent}/skillgrant/__pycache__", f"echo x > {kept}",
             f"echo x | tee {kept}", f"cp evil.marshal {relative}",
             f"cd {folder} && cp {project}/evil.marshal {name}",
             f"install evil.marshal {kept}", f"rsync evil.marshal {kept}",
             f"cp evil.marshal {package}/__pycache__/../__pycache__/{name}"]
    modules = next((package / "__pycache__").glob("modules.*.marshal"))  # (modulecache.py)
    calls += [f"cp evil.marshal {modules}", f"echo x > {modules}",
              f"cd {folder} && mv {project}/evil.marshal {modules.name}"]
    allowed = []
    for call in calls:
        if _asks(hook, project, "Bash", {"command": call}):
            allowed.append(call)
            subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60,
                           check=False)
    for tool, target in (("Edit", kept), ("Write", kept), ("Write", modules)):
        if _asks(hook, project, tool, {"file_path": str(target), "content": "x",
                                       "old_string": "a", "new_string": "b"}):
            allowed.append(tool)
    assert allowed == []
    # the file is still the hooks' own (they add the patterns their denials compiled): each
    # entry the pattern ``re`` compiles
    assert not kept.is_symlink() and kept.is_file()
    form, made, entries = marshal.loads(kept.read_bytes())
    assert (form, made) == (patterncache._FORMAT, patterncache._FOR) and len(entries) >= 20
    for (text, flags), stored in entries.items():
        re.purge()
        assert _sre.compile(text, *patterncache._code(stored)) == re.compile(text, flags)
    # the plan does cover a copy elsewhere: the denials are the guard's
    assert _asks(hook, project, "Bash", {"command": "cp evil.marshal copy.marshal"})
