"""Session 55 (s55-sfix): the folders beside the run folders a collecting plan's runner reads
tests from (``gate/testroots.py``; review s53-greview2 T6, T11, T12), and what each costs.

The reviewer's rows (tests/gate/test_s53_greview2.py) prove a file met through a link in
such a folder; here a file written there directly (no link), proved by real pytest, and the
writes that stay allowed: a folder the settings name inside the project, a write beside
such a folder that no link there leads to.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from bash_review import first_denied, home_env, hooked_project, needs, proved_case

from skillgrant.gate import files, testlinks, walkcache

#: pytest's module running the payload (``touch zz``).
PY_PAYLOAD = "import os\nos.system('touch zz')\n"

#: Each case: pytest's settings file and its text naming ``../ext`` (pytest 9 reads the first
#: of them that holds its section).
SETTINGS = {
    "pytest-ini": ("pytest.ini", "[pytest]\ntestpaths = ../ext\n"),
    "pyproject": ("pyproject.toml", '[tool.pytest.ini_options]\ntestpaths = ["../ext"]\n'),
    "tox-ini": ("tox.ini", "[pytest]\ntestpaths = tests ../ext\n"),
    "setup-cfg": ("setup.cfg", "[tool:pytest]\ntestpaths = ../e*\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SETTINGS))
def test_a_module_written_where_testpaths_lead_beside(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(python3 -m pytest)``, ``Bash(cp *)``, ``../ext/test_h.py`` importing
    ``helper``: ``cp src/py ../ext/helper.py`` is denied (pytest collects ``../ext``, puts it
    first on ``sys.path`` and the test imports the file; allowed before: no name of it is
    guarded)."""
    needs("bash", "python3")
    name, text = SETTINGS[case]
    denied = proved_case(tmp_path, ["Bash(python3 -m pytest)", "Bash(cp *)"],
                         {name: text, "tests/test_a.py": "def test_a():\n    pass\n",
                          "src/py": PY_PAYLOAD},
                         ["cp src/py ../ext/helper.py", "python3 -m pytest"],
                         setup="mkdir -p ../ext && printf 'import helper\\ndef test_h():\\n"
                         "    pass\\n' > ../ext/test_h.py", in_place=True)
    assert denied == "cp src/py ../ext/helper.py"


#: Writes a collecting plan keeps: its settings name folders inside the project only, or the
#: write lands beside a folder they name that holds no link to it.
KEPT = {
    "testpaths-inside": ("Bash(python3 -m pytest)", {"pytest.ini": "[pytest]\ntestpaths = t\n"},
                         "cp notes.txt ../other/helper.py"),
    "beside-the-operand-folder": ("Bash(node --test ../ext/)", {},
                                  "cp notes.txt ../other/x.js"),
    "bunfig-root-inside": ("Bash(bun test)", {"bunfig.toml": '[test]\nroot = "src"\n'},
                           "cp notes.txt ../other/b.js"),
    "script-naming-a-file": ("Bash(npm test)",
                             {"package.json": '{"scripts": {"test": "node /usr/bin/true"}}'},
                             "cp notes.txt ../other/x.js"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(KEPT))
def test_a_write_beside_keeps(tmp_path: Path, case: str) -> None:
    needs("bash")
    entry, files, call = KEPT[case]
    project = hooked_project(tmp_path, [entry, "Bash(cp *)"])
    for name, text in files.items():
        (project / name).write_text(text)
    for folder in ("ext/test", "other"):
        (tmp_path / folder).mkdir(parents=True)
    assert first_denied(project, [call], home_env(tmp_path / "home")) is None, "denied"


@pytest.mark.slow
def test_cost_any_write_below_a_folder_beside(tmp_path: Path) -> None:
    """The rule's cost: under ``testpaths = ../ext`` any write below ``../ext`` is denied, a
    file no runner collects too (``README.md``): the runner imports any module there (a
    ``conftest.py``, a helper a test imports), which names alone do not bound."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest)", "Bash(cp *)"])
    (project / "pytest.ini").write_text("[pytest]\ntestpaths = ../ext\n")
    (tmp_path / "ext").mkdir()
    call = "cp notes.txt ../ext/README.md"
    assert first_denied(project, [call], home_env(tmp_path / "home")) == call


#: s53-greview2 T7's calls (test_t_a_runner_moved_out_of_the_project), the folders beside the
#: project made first: node's runner moved by ``cd`` out of the project.
MOVED = {
    "written-in-a-test-folder-beside": ["cp src/out ../ext/test/y.js",
                                        "cd ../ext && node --test"],
    "moved-first": ["node --test"],  # (asked from ../ext: the session's folder after a cd)
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(MOVED))
def test_a_runner_moved_out_where_the_project_is_known(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cd *)``, ``Bash(cp *)``, the session's project folder
    given to the hook (``CLAUDE_PROJECT_DIR``, as Claude Code gives it): the runner started
    out of the project is denied (``runfolders.outside``: the plan's programs run in its run
    folders only). The review's row stays open where no project folder is known."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(node --test)", "Bash(cd *)", "Bash(cp *)"])
    (tmp_path / "ext" / "test").mkdir(parents=True)
    (project / "src").mkdir(exist_ok=True)
    (project / "src" / "out").write_text("0\n")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    folder = tmp_path / "ext" if case == "moved-first" else project
    assert first_denied(project, MOVED[case], env, cwd=folder) == MOVED[case][-1]


# --- the walk's listings kept across a hook's calls (walkcache; s53-greview2 K4) -------------

@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A project ``{T}/p`` (``test/a.test.js``, ``shared/``, ``src/m/s/``), the state folder
    ``{T}/state``, and the folders the walk lists (not takes kept) as it goes."""
    for folder in ("p/test", "p/shared", "p/src/m/s", "state"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "p/test/a.test.js").write_text("0\n")
    monkeypatch.setenv("SKILLGRANT_STATE_DIR", str(tmp_path / "state"))
    listed: list[str] = []
    lister = testlinks._listing

    def listing(folder: str) -> list[tuple[str, str]]:
        listed.append(folder)
        return lister(folder)

    monkeypatch.setattr(testlinks, "_listing", listing)
    return listed


def _walk(tmp_path: Path) -> list[tuple[str, str]]:
    return [(t, p) for t, p, _ in testlinks._walked((str(tmp_path / "p"),))]


def test_an_unchanged_tree_is_not_listed_again(tmp_path: Path, counted: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walkcache, "_RACY", 0.0)
    _walk(tmp_path)
    assert len(counted) == 6
    counted.clear()
    assert _walk(tmp_path) == []
    assert counted == []
    assert (tmp_path / "state" / "walks").is_dir()


def test_a_link_made_in_a_kept_folder_is_met(tmp_path: Path, counted: list[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A link made below a folder whose listing is kept: the folder's times changed, it is
    listed again, the link met (``src/m/s/t -> ../../../shared``); a ``chmod`` (its ctime) too."""
    monkeypatch.setattr(walkcache, "_RACY", 0.0)
    _walk(tmp_path)
    os.symlink("../../../shared", tmp_path / "p/src/m/s/t")
    counted.clear()
    found = _walk(tmp_path)
    assert counted == [str(tmp_path / "p/src/m/s")]  # (shared/: walked from p/, kept)
    assert [p.rpartition("/")[2] for _, p in found] == ["t"]
    counted.clear()
    (tmp_path / "p/src/m").chmod(0o700)
    _walk(tmp_path)
    assert counted == [str(tmp_path / "p/src/m")]


def test_a_folder_changed_in_the_racy_window_is_listed_again(tmp_path: Path,
                                                             counted: list[str]) -> None:
    """Every folder was made just now (within ``_RACY``): none is kept, each is listed at the
    next walk (a change in the same tick of a coarse clock keeps a folder's times)."""
    _walk(tmp_path)
    first = list(counted)
    counted.clear()
    _walk(tmp_path)
    assert counted == first


def test_a_kept_file_of_other_roots_or_format_keeps_nothing(tmp_path: Path, counted: list[str],
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setattr(walkcache, "_RACY", 0.0)
    _walk(tmp_path)
    [kept] = (tmp_path / "state" / "walks").iterdir()
    data = json.loads(kept.read_text())
    for changed in ({**data, "roots": ["/elsewhere"]}, {**data, "format": 0}, [1, 2]):
        kept.write_text(json.dumps(changed))
        counted.clear()
        _walk(tmp_path)
        assert len(counted) == 6, changed


def test_a_services_view_keeps_no_file(tmp_path: Path, counted: list[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A service's view keeps its own walks and watches what they listed: nothing is kept on
    disk (a kept listing would skip the view's watch of the folder)."""
    monkeypatch.setattr(walkcache, "_RACY", 0.0)
    monkeypatch.setattr(files, "asks_the_system", lambda: False)
    _walk(tmp_path)
    _walk(tmp_path)
    assert len(counted) == 12
    assert not (tmp_path / "state" / "walks").exists()
