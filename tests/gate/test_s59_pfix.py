"""Session 59 (s59-pfix): module code read by an allow-list of shapes (``exactcode``) in place
of deny-lists of spellings. A conftest's ``pytest_plugins`` is read only where every statement
run at import has a shape whose effect is known; anything else makes every module a plugin's
(s58-preview P-DYNAMIC6: each spelling a review found, and the everyday shapes of real
conftests kept read)."""

from __future__ import annotations

import pytest

from skillgrant.gate.conftestplugins import _names

#: Conftests the allow-list does not read (each sets ``pytest_plugins`` to ``['helpers']`` when
#: run, or may): None.
UNREAD = {
    # s58-preview P-DYNAMIC6
    "decorated-def": "@lambda function: ['helpers']\ndef pytest_plugins():\n    pass\n",
    "match-capture": "match ['helpers']:\n    case [*pytest_plugins]:\n        pass\n",
    "metaclass": ("class _Meta(type):\n    pass\n\n\nclass pytest_plugins(metaclass=_Meta):\n"
                  "    pass\n"),
    "builtins-self": ("import sys\n\nprint.__self__.setattr(sys.modules[__name__], "
                      "'pytest_' + 'plugins', ['helpers'])\n"),
    "getattr-of-a-variable": ("import sys\n\nm = sys.modules[__name__]\ngetattr(m, '__di' + "
                              "'ct__').update({'pytest_' + 'plugins': ['helpers']})\n"),
    # the module's own function called at import, given to a call, a subclass hook
    "own-function-called": "def f():\n    globals()['pytest_plugins'] = ['helpers']\n\n\nf()\n",
    "own-function-given": ("import atexit\n\n\ndef f():\n    pass\n\n\nsorted([1], key=f)\n"),
    "init-subclass": ("class A:\n    def __init_subclass__(cls):\n        pass\n\n\n"
                      "class B(A):\n    pass\n"),
    # a library's function not listed (code from data), a module by another name
    "timeit-string": "import timeit\ntimeit.timeit('import sys', number=1)\n",
    "runpy": "import runpy\nrunpy.run_path('x.py')\n",
    "modules-aliased": "from sys import modules\nmodules['conftest'] = 1\n",
    "global-statement": "global pytest_plugins\n",
    "computed-getattr": "import ssl\nX = getattr(ssl, 'PROTO' + 'COL')\n",
    "dunder-attribute": "import os\nX = os.__dict__\n",
    "unlisted-decorator": "import functools\n\n\n@functools.singledispatch\ndef f(x):\n    pass\n",
}
#: Everyday conftests the allow-list reads (the shapes of this machine's real ones).
READ = {
    "fixtures-and-hooks": ("import pytest\n\n\n@pytest.fixture(scope='session', autouse=True)\n"
                           "def db(request: pytest.FixtureRequest) -> None:\n"
                           "    return getattr(request, request.param)\n\n\n"
                           "def pytest_configure(config):\n"
                           "    config.addinivalue_line('m', 'x')\n"),
    "optional-imports": ("try:\n    import numpy as np\n    HAS = True\nexcept ImportError:\n"
                         "    HAS = False\ncollect_ignore = []\nif not HAS:\n"
                         "    collect_ignore += ['a.py']\n"),
    "hypothesis-profiles": ("import os\nfrom hypothesis import HealthCheck, settings\n"
                            "settings.register_profile('ci', suppress_health_check=["
                            "HealthCheck.too_slow])\nsettings.load_profile('ci' if os.environ"
                            ".get('CI') else 'dev')\n"),
    "paths-and-env": ("import os\nimport sys\nfrom pathlib import Path\nHERE = Path(__file__)"
                      ".resolve().parents[1]\nos.environ['X'] = '1'\nsys.path.insert(0, str("
                      "HERE / 'src'))\nsys._running = True\n"),
    "a-named-tuple-class": ("import typing\n\n\nclass C(typing.NamedTuple):\n    a: str\n\n"
                            "    @property\n    def b(self) -> 'C':\n        return self\n"),
    "annotation-names-own-class": ("import pytest\n\n\nclass S:\n    pass\n\n\n@pytest.fixture"
                                   "\ndef s() -> S:\n    return S()\n"),
    "literal-plugins": "pytest_plugins = ['helpers']\n",
}


@pytest.mark.parametrize("case", UNREAD)
def test_a_conftest_outside_the_allow_list_is_not_read(case: str) -> None:
    assert _names(UNREAD[case].encode()) is None


@pytest.mark.parametrize("case", READ)
def test_an_everyday_conftest_is_read(case: str) -> None:
    assert _names(READ[case].encode()) == (["helpers"] if case == "literal-plugins" else [])
