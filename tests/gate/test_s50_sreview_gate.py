"""Session-50 review (s50-sreview): npm's global settings file moved by variables
``homefiles.npm_global`` does not read (held: the command hook guards the folder any variable
names, gate/envpaths.py; the service does not: tests/service/test_s50_sreview.py). npm
(@npmcli/config) takes its global prefix from ``PREFIX`` when no ``npm_config_prefix`` is set,
and puts ``DESTDIR`` in front of the default one; its ``globalconfig`` is
``<prefix>/etc/npmrc`` (measured, npm 11.19.1: ``PREFIX=/p npm config get globalconfig`` ->
``/p/etc/npmrc``; ``DESTDIR=/d`` -> ``/d/usr/etc/npmrc``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved

#: Real bash, real npm and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

OPEN = LeftOpen()  # (none left open: every case held)

PACKAGE = '{"name": "a", "version": "1.0.0", "scripts": {"test": "node t.js"}}\n'
JS_PAYLOAD = "require('fs').writeFileSync('zz', '')\n"
#: ``node-options`` in an npmrc: npm hands it to the script's node, which preloads pre.js.
PRELOAD = "node-options=--require ./pre.js\n"

#: The session's variable, and where npm's global npmrc then is ({d}: a folder of the project).
MOVED = {
    "control-npm_config_prefix": ("npm_config_prefix", "{d}", "{d}/etc/npmrc"),
    "PREFIX": ("PREFIX", "{d}", "{d}/etc/npmrc"),
    "DESTDIR": ("DESTDIR", "{d}", "{d}/usr/etc/npmrc"),
}


@pytest.mark.parametrize("case", list(MOVED))
def test_a_variable_npm_reads_moves_its_global_npmrc(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``; the session's environment names a folder for
    npm's prefix; ``cp src/npmrc <global npmrc>`` then ``npm test`` runs pre.js (real npm)."""
    needs("npm", "node")
    name, value, target = MOVED[case]
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(npm test)", "Bash(cp *)"])
        outside = project / "tools"  # (a folder the plan's cp may write)
        where = target.format(d=outside)
        Path(where).parent.mkdir(parents=True)
        for file, text in {"package.json": PACKAGE, "t.js": "\n", "pre.js": JS_PAYLOAD,
                           "src/npmrc": PRELOAD}.items():
            (project / file).parent.mkdir(parents=True, exist_ok=True)
            (project / file).write_text(text)
        env = {**home_env(tmp_path / side / "home"), name: value.format(d=outside)}
        calls = [f"cp src/npmrc {where}", "npm test"]
        if side == "proof":
            check = subprocess.run(["npm", "config", "get", "globalconfig"], cwd=project,
                                   env=env, capture_output=True, text=True, timeout=120)
            assert check.stdout.strip() == where, check.stdout
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows writing the global npmrc npm reads"
