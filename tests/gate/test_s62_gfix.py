"""Session 62, s62-gfix (issue 29): the gate's readings of a project's Python test code
(``pathcode``: a name taken from the project's own module is read through that module).

Each case is read in the hook's own reading (``pathcode.moves_path`` of a temporary project):
whether a conftest, test module or package ``__init__`` there may put a folder first on
``sys.path``. The review rows proving each class with real pytest are
tests/gate/test_s61_greview.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

#: ``src`` beside the tests (the folder a spelling puts first).
SRC = "os.path.join(os.path.dirname(__file__), '..', 'src')"


def _helped(helpers: str, body: str) -> dict[str, str]:
    """A project of ``tests/helpers.py`` (``helpers``) and a test module importing it whose
    test runs ``body``."""
    return {"tests/helpers.py": helpers, "tests/test_a.py": "import helpers\n\n\ndef test_a("
            "monkeypatch):\n    " + body + "\n"}


#: Each case: the project's files, whether ``moves_path`` is True. A name a test module takes
#: from the project's module (s61-greview G10, G11, G14; the lead: a hole) is what that module
#: binds it to, the module read under the same allow-list first.
PROJECT: dict[str, tuple[dict[str, str], bool]] = {
    "relative-import-of-sys": ({"tests/__init__.py": "import sys\n", "tests/test_a.py":
                                "import os\nfrom . import sys\n\n\ndef test_a():\n    sys.path."
                                "insert(0, " + SRC + ")\n"}, True),
    "sys-from-a-project-module": ({"tests/helpers.py": "import sys\n", "tests/test_a.py":
                                   "import os\nfrom helpers import sys\n\n\ndef test_a():\n    "
                                   "sys.path.insert(0, " + SRC + ")\n"}, True),
    "a-project-modules-alias": ({"tests/helpers.py": "import sys as s\n", "tests/test_a.py":
                                 "import os\nimport helpers\n\n\ndef test_a():\n    helpers.s."
                                 "path.insert(0, " + SRC + ")\n"}, True),
    "through-a-packages-submodule": ({"pkg/__init__.py": "from . import sub\n", "pkg/sub.py":
                                      "import sys as s\n", "tests/test_a.py": "import pkg\n\n\n"
                                      "def test_a():\n    pkg.sub.s.path.insert(0, 'src')\n"},
                                     True),
    "getattr-of-a-project-module": (_helped("import sys as s\n", "getattr(helpers, 's').path."
                                            "insert(0, 'src')"), True),
    "a-project-module-as-a-value": (_helped("import sys as s\n", "h = helpers\n    h.s.path."
                                            "insert(0, 'src')"), True),
    "a-function-that-moves-the-path": ({"tests/helpers.py": "from site import addsitedir\n",
                                        "tests/test_a.py": "from helpers import addsitedir\n\n\n"
                                        "def test_a():\n    addsitedir('src')\n"}, True),
    "a-project-module-not-read": ({"tests/helpers.py": "import yaml\nX = 1\n",
                                   "tests/test_a.py": "from helpers import X\n\n\ndef test_a():\n"
                                   "    assert X\n"}, True),
    "setattr-of-a-modules-module": (_helped("import sys as s\n", "monkeypatch.setattr(helpers.s"
                                            ", 'path', ['src'])"), True),
    # (s62-greview G4: a project file named like a listed standard module, first in its stead)
    "a-project-module-named-like-a-standard-one": ({"tests/hashlib.py": "import sys\nmd5 = 1\n",
                                                   "tests/test_a.py": "from hashlib import md5"
                                                   "\n\n\ndef test_a():\n    assert md5\n"},
                                                  True),
    # (s62-greview G7: a plugin module pytest imports at its start, named by a conftest or the
    # settings' -p)
    "a-conftests-plugin-module": ({"conftest.py": "pytest_plugins = ['helpers_plug']\n",
                                   "helpers_plug.py": "import os, sys\nsys.path.insert(0, os."
                                   "path.abspath('src'))\n", "tests/test_a.py": "def test_a():\n"
                                   "    pass\n"}, True),
    "an-ini-plugin-module": ({"pytest.ini": "[pytest]\naddopts = -p helpers_plug\n",
                              "helpers_plug.py": "import os, sys\nsys.path.insert(0, os.path."
                              "abspath('src'))\n", "tests/test_a.py": "def test_a():\n    pass"
                              "\n"}, True),
    "a-plain-plugin-module": ({"conftest.py": "pytest_plugins = ['helpers_plug']\n",
                               "helpers_plug.py": "import pytest\n\n\n@pytest.fixture\ndef "
                               "db():\n    return 1\n", "tests/test_a.py": "def test_a():\n"
                               "    pass\n"}, False),
    # (s61-greview K: unittest.mock's patch of a project's name, read through its modules)
    "patch-of-a-listed-modules-name": ({"tests/test_a.py": "from unittest import mock\n\n\n@mock."
                                        "patch('sys.path', ['src'])\ndef test_a():\n    pass\n"},
                                       True),
    "patch-through-a-project-modules-sys": ({"pkg/__init__.py": "import sys as s\n",
                                             "tests/test_a.py": "from unittest import mock\n\n\n"
                                             "@mock.patch('pkg.s.path', ['src'])\ndef test_a():\n"
                                             "    pass\n"}, True),
    "patch-of-a-project-name": ({"pkg/__init__.py": "", "pkg/flask.py": "X = 1\n",
                                 "tests/test_a.py": "from unittest import mock\n\n\n@mock.patch("
                                 "'pkg.flask.X', 2)\ndef test_a():\n    pass\n"}, False),
    "patch-object": ({"pkg/__init__.py": "X = 1\n", "tests/test_a.py": "from unittest.mock import "
                      "patch\nimport pkg\n\n\ndef test_a():\n    with patch.object(pkg, 'X', 2):"
                      "\n        pass\n"}, False),
    # (everyday: a project's function, a module's constant patched, a fixture or mark a
    # helper module gives, a package importing its own submodules)
    "a-projects-function": ({"pkg/__init__.py": "", "pkg/core.py": "import os\n\n\ndef add(a, b)"
                             ":\n    return a + b\n", "tests/test_a.py": "from pkg.core import "
                             "add\nimport pkg.core\n\n\ndef test_a(monkeypatch):\n    monkeypatch"
                             ".setattr(pkg.core, 'X', 1)\n    assert add(1, 2) == pkg.core.add(1,"
                             " 2)\n"}, False),
    "a-modules-constant-patched": ({"pkg/__init__.py": "X = 1\n", "tests/test_a.py": "import "
                                    "pkg\n\n\ndef test_a(monkeypatch):\n    monkeypatch.setattr("
                                    "pkg, 'X', 2)\n    assert pkg.X == 2\n"}, False),
    "a-helpers-fixture": ({"tests/helpers.py": "from pytest import fixture\n", "tests/test_a.py":
                           "from helpers import fixture\n\n\n@fixture\ndef f():\n    return 1\n"
                           "\n\ndef test_a(f):\n    pass\n"}, False),
    "a-helpers-mark": ({"tests/helpers.py": "import sys\nimport pytest\n\nskipwin = pytest.mark."
                        "skipif(sys.platform == 'win32', reason='w')\n", "tests/test_a.py":
                        "from helpers import skipwin\n\n\n@skipwin\ndef test_a():\n    pass\n"},
                       False),
    "a-package-importing-its-own": ({"pkg/__init__.py": "from .core import add\n", "pkg/core.py":
                                     "from . import util\n\n\ndef add(a, b):\n    return util.f"
                                     "(a) + b\n", "pkg/util.py": "def f(a):\n    return a\n",
                                     "tests/test_a.py": "from pkg import add\n\n\ndef test_a():\n"
                                     "    assert add(1, 2) == 3\n"}, False),
}


@pytest.mark.parametrize("case", list(PROJECT))
def test_a_name_from_a_project_module(case: str, tmp_path: Path) -> None:
    """``moves_path`` of the project holding the case's files."""
    from skillgrant.gate.pathcode import moves_path

    files, moves = PROJECT[case]
    for path, data in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(data)
    assert moves_path(str(tmp_path)) is moves


#: Each case: a pytest setting (key, value), whether pytest may run files ``pathcode`` does not
#: read (s61-greview G16b: an ini's ``--doctest-glob=*.rst`` runs each `.rst` file's ``>>>``
#: lines in pytest's process; ``python_files``: test modules of other names).
SETTINGS = {
    "doctest-glob": (("addopts", "-q --doctest-glob=*.rst"), True),
    "doctest-glob-apart": (("addopts", "--doctest-glob '*.md'"), True),
    "python-files": (("python_files", "check_*.py"), True),
    "python-files-overridden": (("addopts", "-o python_files=check_*.py"), True),
    "plain-options": (("addopts", "-q -ra --strict-markers"), False),
}


def test_settings_collecting_unread_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """``syspathdirs._collects_others`` of each case's setting (a plan with no pytest
    words)."""
    from skillgrant.gate.syspathdirs import _collects_others

    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    assert {c: _collects_others([("/p", *setting)], object()) for c, (setting, _) in
            SETTINGS.items()} == {c: others for c, (_, others) in SETTINGS.items()}


#: Each case: the files below a folder (``../``: beside it, a later folder of the search
#: given), the names its sources' include directives give (s61-greview H5b: a file a name
#: reaches in a later folder of the search, `-Iinclude`, is read wherever it is below the
#: folder; s62-greview G6: or in a search folder outside, `-I../inc`).
INCLUDES: dict[str, tuple[dict[str, str], set[str]]] = {
    "a-later-folder-outside": ({"t.c": "#include <a.tbl>\n", "../inc/a.tbl": "#include <c>\n"},
                               {"a.tbl", "c"}),
    "a-later-folders-file": ({"t.c": "#include <a.tbl>\n", "include/a.tbl": "#include <cfg>\n"},
                             {"a.tbl", "cfg"}),
    "a-named-subfolders-file": ({"t.c": "#include <sub/a.x>\n", "inc/sub/a.x": "#include <c>\n"},
                                {"sub/a.x", "c"}),
    "a-name-reaching-nothing": ({"t.c": "#include <a.tbl>\n", "a.tbl.bak": "#include <c>\n"},
                                {"a.tbl"}),
}


def test_the_names_the_sources_include(tmp_path: Path) -> None:
    """``includes.included`` of each case's folder (the search's other folder: ``inc``)."""
    from skillgrant.gate.includes import included

    found = {}
    for case, (files, _) in INCLUDES.items():
        for path, data in files.items():
            (tmp_path / case / "p" / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / case / "p" / path).write_text(data)
        found[case] = included(str(tmp_path / case / "p"), (str(tmp_path / case / "inc"),))
    assert found == {case: names for case, (_, names) in INCLUDES.items()}


#: Each case: a makefile's line, the session's environment's additions, the makefiles'
#: definitions (all trusted but those of ``UNTRUSTED``), whether it is a doubt of every folder
#: (s59-preview N, s61-greview M: a value the session gives the recipe's pytest).
UNTRUSTED = {"FLAGS"}
SESSION: dict[str, tuple[str, dict[str, str], dict[str, list[str]], bool]] = {
    "a-variable-the-session-sets": ("python3 -m pytest -q $(PYTESTFLAGS)",
                                    {"PYTESTFLAGS": "-phelpers"}, {}, True),
    "braces-and-value": ("python3 -m pytest ${A} $(value B)", {"B": "-phelpers"}, {}, True),
    "a-one-letter-name": ("python3 -m pytest $P", {"P": "-phelpers"}, {}, True),
    "through-a-definition": ("python3 -m pytest $(ARGS)", {"ZZ_S62": "-phelpers"},
                             {"ARGS": ["$(shell echo $$ZZ_S62)"]}, True),
    "a-definition-not-trusted": ("python3 -m pytest $(FLAGS)", {"FLAGS": "-phelpers"},
                                 {"FLAGS": ["-q"]}, True),
    "a-computed-name": ("python3 -m pytest $(A$(B))", {}, {}, True),
    "the-makefiles-own-value": ("python3 -m pytest $(OPTS)", {"OPTS": "-phelpers"},
                                {"OPTS": ["-q"]}, False),
    "a-variable-the-session-does-not-set": ("python3 -m pytest $(ZZ_S62_UNSET)", {}, {}, False),
    "a-toolchain-line": ("$(CC) $(CPPFLAGS) t.c -o t", {"CPPFLAGS": "-I."}, {}, False),
    "another-targets-editor": ("$(EDITOR) notes.txt", {"EDITOR": "vim"}, {}, False),
    "a-program-the-session-names": ("$(PYTHON) -m pytest -q", {"PYTHON": "python3"}, {}, False),
    "a-command-reading-the-environment": ("python3 -m pytest -q $$(printenv A)", {}, {}, True),
    "code-reading-the-environment": ("python3 -c 'import os, pytest; pytest.main(os.environ"
                                     "[\"A\"].split())'", {}, {}, True),
    "the-sessions-path": ("PATH=$$PATH:bin python3 -m pytest -q", {}, {}, False),
    "a-special-variable": ("python3 -m pytest -q", {"VPATH": "tools"}, {}, True),
}


@pytest.mark.parametrize("case", list(SESSION))
def test_a_value_the_session_gives_make(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``makesession.session_doubts`` of the case's line."""
    from skillgrant.gate.makesession import session_doubts

    line, env, definitions, doubted = SESSION[case]
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for name in ("MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS", "VPATH", "ZZ_S62_UNSET"):
        if name not in env:
            monkeypatch.delenv(name, raising=False)
    doubts = session_doubts([("Makefile:2", line)], definitions, set(definitions) - UNTRUSTED)
    assert bool(doubts) is doubted, doubts
