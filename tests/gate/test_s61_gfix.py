"""Session 61, s61-gfix: a conftest or test module read by an allow-list of shapes
(``pathcode``, ``pathlists``), not by a deny-list of names (issue 29).

``pathcode.moves_path`` answered "may put any folder first on ``sys.path``" where a module
spelled one of a list of names (``sys``, ``syspath_prepend``, ``getattr``…): each new spelling
was a hole (a string joined, ``operator.attrgetter``, ``pytest.importorskip`` returning
``sys``, a plugin's ``mocker.patch``). A module is now read as moving nothing only where
everything it does is of a listed shape; the cases below were each allowed by the name list
(``BASE``: moves_path False at the session's start) and are taken now, and the everyday ones
stay read as moving nothing (``conftest-reads-sys-platform``: s60-preview2's cost rows)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import needs, proved_case
from test_s57_greview2 import _session

#: The test's folder put first, as a test module's code spells it.
SRC = "os.path.join(os.path.dirname(__file__), '..', 'src')"
#: Each case: a test module's (or a conftest's: ``conftest``) text, the other files, and
#: whether it may move ``sys.path``. (At the session's start, f716c470, moves_path answered
#: False for each ``True`` case but ``frame-eval``, ``dotted-setattr``, ``os-sys`` and
#: ``builtins-vars``: the holes of the name list; True for ``conftest-reads-sys-platform``,
#: ``everyday`` and ``a-source-packages-init``: its costs.)
CASES: dict[str, tuple[str, dict[str, str], bool]] = {
    "mock-patch-joined": ("from unittest import mock\n\n\ndef test_a():\n    with mock.patch("
                          "'sy' 's.path', ['src']):\n        pass\n", {}, True),
    "attrgetter-joined": (f"import operator, os\n\n\ndef test_a():\n    operator.attrgetter("
                          f"'sy' 's.path')(os).insert(0, {SRC})\n", {}, True),
    "importorskip-joined": (f"import os\nimport pytest\n\n\ndef test_a():\n    pytest."
                            f"importorskip('sy' 's').path.insert(0, {SRC})\n", {}, True),
    "formatter-field": ("import string\nfrom app import x\n\n\ndef test_a():\n    string."
                        "Formatter().get_field('0.y', (x,), {})\n", {"app.py": "x = 1\n"},
                        True),
    "plugins-fixture": ("def test_a(mocker):\n    mocker.patch('sy' 's.path', ['src'])\n", {},
                        True),
    "fixture-by-its-name": ("def test_a(request):\n    request.getfixturevalue('monkey' "
                            "'patch').chdir('src')\n", {}, True),
    "frame-eval": ("import pytest\n\n\ndef test_a():\n    with pytest.raises(ValueError) as e:"
                   "\n        int('x')\n    e.traceback[-1].frame.eval('1')\n", {}, True),
    "dotted-setattr": ("def test_a(monkeypatch):\n    monkeypatch.setattr('sy' 's.path', "
                       "['src'])\n", {}, True),
    "collected-alias": ("def helper(mocker):\n    pass\n\n\ntest_b = helper\n", {}, True),
    "fixture-by-a-call": ("import pytest\n\n\ndef helper(mocker):\n    pass\n\n\nh = pytest."
                          "fixture(helper)\n", {}, True),
    "os-sys": ("import os\n\n\ndef test_a():\n    os.sys.path.insert(0, 'src')\n", {}, True),
    "module-as-a-value": ("import os\nfrom app import run\n\n\ndef test_a():\n    run(os)\n",
                          {"app.py": "def run(m):\n    pass\n"}, True),
    "pyimport": ("def test_a(tmpdir):\n    tmpdir.join('x.py').pyimport()\n", {}, True),
    "private-attribute": ("def test_a(request):\n    request.config._parser\n", {}, True),
    "builtins-vars": ("def test_a():\n    vars()\n", {}, True),
    "site-module": ("import six\n\n\ndef test_a():\n    six.exec_('1')\n", {}, True),
    "not-python": ("def test_a(:\n", {}, True),
    # still: s60-preview2's conftest reading sys.platform, an everyday test module
    "conftest-reads-sys-platform": ("conftest:import sys\n\ncollect_ignore = ['setup.py'] if "
                                    "sys.platform == 'win32' else []\n", {}, False),
    "everyday": ("import os\nimport pytest\nfrom pathlib import Path\n\nfrom app import main\n"
                 "\n\n@pytest.fixture\ndef data(tmp_path):\n    return tmp_path / 'd'\n\n\n"
                 "@pytest.mark.parametrize('x', [1, 2])\ndef test_a(x, data, monkeypatch, "
                 "capsys):\n    monkeypatch.setenv('A', '1')\n    monkeypatch.setattr(main, "
                 "'X', 2)\n    with pytest.raises(ValueError):\n        int('x')\n    assert "
                 "main.run(x) == os.path.join('a', 'b')\n    assert Path('a').name\n",
                 {"app/__init__.py": "", "app/main.py": "X = 1\n\n\ndef run(x):\n    return x\n"},
                 False),
    "main-block": ("import pytest\n\n\ndef test_a():\n    pass\n\n\nif __name__ == '__main__':"
                   "\n    pytest.main()\n", {}, False),
    "a-source-packages-init": ("def test_a():\n    pass\n",
                               {"app/__init__.py": "import importlib\n"}, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_module_read_by_the_allow_list(case: str, tmp_path: Path) -> None:
    """``moves_path`` of the project folder holding the case's module (``tests/test_a.py``,
    or ``tests/conftest.py`` beside a passing test) and files."""
    from skillgrant.gate.pathcode import moves_path

    text, files, moves = CASES[case]
    name = "tests/test_a.py"
    if text.startswith("conftest:"):
        name, text = "tests/conftest.py", text.removeprefix("conftest:")
        files = {**files, "tests/test_a.py": "def test_a():\n    pass\n"}
    for path, data in {**files, name: text}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(data)
    assert moves_path(str(tmp_path)) is moves


#: Each case: a test module whose code puts ``src`` first by a spelling the name list missed,
#: the test then importing ``yaml`` (PyYAML is in the machine's python3's site folder):
#: ``cp src/p src/yaml.py``, ``python3 -m pytest -q`` ran the payload at f716c470.
PROVED = {
    "attrgetter-joined": CASES["attrgetter-joined"][0] + "    import yaml\n",
    "importorskip-joined": CASES["importorskip-joined"][0] + "    import yaml\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PROVED))
def test_s_a_spelling_the_names_missed(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``: ``cp src/p src/yaml.py`` is
    denied (the payload runs where the hook is not asked)."""
    needs("python3", "pytest")
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
                    {"tests/test_a.py": PROVED[case]},
                    ["cp src/p src/yaml.py", "python3 -m pytest -q"]) is not None


# --- the names a folder's own sources include (includes.included) --------------------------------

#: Each case: a source's text, and the names its include directives give (None: not read
#: exactly, every file at the folder's top but a document's guarded).
DIRECTIVES: dict[str, tuple[str, set[str] | None]] = {
    "literal-forms": ('#include <cfg>\n#include "c.inl" // a comment\n', {"cfg", "c.inl"}),
    "a-comment-between": ("# /* a */ include <cfg>\n", {"cfg"}),
    "a-block-comment-joins-lines": ("/* x\n y */ #include <cfg>\n", {"cfg"}),
    "a-continued-line": ("#inc\\\nlude <cfg>\n", {"cfg"}),
    "a-digraph": ("%:include <cfg>\n", {"cfg"}),
    "include-next-import-embed": ("#include_next <a>\n#import <b>\n#embed <c>\n",
                                  {"a", "b", "c"}),
    "a-macro-a-d-option-may-define": ("#define C <cfg>\n#include C\n", None),
    "a-lone-cr-a-bom-a-nul": ("\ufeffint x;\r#\0include <cfg>\r", {"cfg"}),
    "a-splice-after-spaces": ("#inc\\  \nlude <cfg>\n", {"cfg"}),
    "a-raw-string-then-a-joined-directive": ('char *s = R"x(" /* )x";\n#/*\n*/include <cfg>\n',
                                             None),
    "unclosed-comments-read-once": ("/*a" * 45000, set()),
    "a-string-holding-comment-marks": ('char *s = "/*";\n#include <cfg>\nchar *t = "*/";\n',
                                       {"cfg"}),
    "has-include-reads-nothing": ("#if __has_include(<cfg>)\n#endif\n", set()),
    "a-computed-include": ("#define S(x) #x\n#include S(cfg)\n", None),
    "an-undefined-macro": ("#include CONFIG\n", None),
    "a-trigraph": ("??=include <cfg>\n", None),
}


@pytest.mark.parametrize("case", list(DIRECTIVES))
def test_an_include_directive_read(case: str, tmp_path: Path) -> None:
    """``includes.included`` of a folder holding the case's ``t.c``."""
    from skillgrant.gate.includes import included

    text, names = DIRECTIVES[case]
    (tmp_path / "t.c").write_text(text, encoding="utf-8")
    assert included(str(tmp_path)) == names


#: A header the project holds at its top named by no ending (``cfg``), which ``t.c`` includes
#: through a macro that computes the name (``#include S(cfg)``): not read exactly, every file
#: at the top but a document's is guarded (``cp notes.txt`` beside it stays allowed: its
#: ``_not_header`` ending).
COMPUTED = ("#define S(x) #x\n#include S(cfg)\nint main(void) { return 0; }\n")


@pytest.mark.slow
def test_l_a_computed_include_of_its_own_header(tmp_path: Path) -> None:
    """The session's ``CPPFLAGS=-I.``; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/h
    cfg`` is denied, where ``make test`` runs the header's payload."""
    needs("bash", "make", "gcc")
    from test_s56_greview2 import BUILDS, FILES, PLAN

    files = {**FILES, "Makefile": BUILDS, "t.c": COMPUTED, "cfg": "\n"}
    assert proved_case(tmp_path, PLAN, files, ["cp src/hself cfg", "make test"],
                       {"CPPFLAGS": "-I."}) is not None
