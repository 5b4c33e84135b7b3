"""Session 51 (s51-gfix): the start variables and options the gate did not read (review
s50-greview3 U1–U4, U6, U7, E1, F1), other spellings of each class, each proved by real bash in
a scratch copy first (a scratch home), then asked of the printed hook call by call: the copy is
denied (or, where the gate refuses what it cannot read, the plan: the first call). And what
each rule costs: the plan's own entry is still allowed where it writes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bash_review import first_denied, home_env, hooked_project, needs, proved_case

from skillgrant.gate.entryvars import entry_values
from skillgrant.gate.sitenames import start_imports
from skillgrant.gate.startfiles import bunfig_preloads, env_file
from skillgrant.gate.startflags import make_definitions, perl_folders, python_assignments

PYTHON = "/usr/bin/python3"
VENV_PYTHON = "/work/venv/bin/python"
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
SCRIPT = "touch zz\n"
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
PY_PAYLOAD = "import os; os.system('touch zz')\n"
PERL_PAYLOAD = 'system("touch zz"); 1;\n'


def _case(tmp_path: Path, entry: str, copy: str, files: dict[str, str | bytes],
          extra: dict[str, str] | None = None) -> str | None:
    """The first call the hook denies of ``copy`` then ``entry`` (plan ``Bash(<entry>)``,
    ``Bash(cp *)``), proved to run the payload under real bash first."""
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [copy, entry],
                       extra)


# --- U1: perl's module folders by its own switches, in PERL5OPT and on its command line -----


PERL_SWITCHES = {
    "argv-cluster-I": ("perl -wIinc -e 'use List::Util; 1'", {}),
    "argv-I-apart": ("perl -I inc -e 'use List::Util; 1'", {}),
    "argv-mlib": ("perl -mlib=inc -e 'use List::Util; 1'", {}),
    "argv-mlib-after-e": ("perl -e 'use List::Util; 1' -Mlib=inc", {}),
    "argv-lib-list": ("perl -Mlib=x,inc -e 'use List::Util; 1'", {}),
    "env-perl5opt": ("env PERL5OPT=-Mlib=x,inc perl -e 'use List::Util; 1'", {}),
    "session-mlib-list": ("perl -e 'use List::Util; 1'", {"PERL5OPT": "-Mlib=x,inc"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PERL_SWITCHES))
def test_perls_switches_name_its_module_folders(tmp_path: Path, case: str) -> None:
    """perl's ``-I``/``-Mlib=``/``-mlib=`` (clustered, apart, after ``-e``, a list) put
    ``inc`` first on ``@INC``: ``inc/List/Util.pm`` is guarded whole, the copy denied."""
    needs("bash", "perl")
    entry, extra = PERL_SWITCHES[case]
    copy = "cp -r src/mk inc/List/Util.pm"
    denied = _case(tmp_path, entry, copy, {"inc/List/keep": "", "src/mk": PERL_PAYLOAD}, extra)
    assert denied == copy


# --- U2: python's -X in a cluster of its flags ---------------------------------------------


PYTHON_CLUSTERS = {"apart": f"{PYTHON} -BX pycache_prefix=pc -c pass",
                   "after-flags": f"{PYTHON} -sBXpycache_prefix=pc -c pass",
                   "after-W": f"{PYTHON} -Wd -Xpycache_prefix=pc -c pass"}


def test_pythons_x_option_in_a_cluster() -> None:
    """CPython's getopt: ``-X`` after flags, its value apart or attached; ``-c``'s and
    ``-W``'s values end the cluster (``-cX…`` is code)."""
    assert python_assignments(["-BXpycache_prefix=pc"]) == [
        ("PYTHONPYCACHEPREFIX=pc", "-BXpycache_prefix=pc")]
    assert python_assignments(["-sBX", "pycache_prefix=pc"]) == [
        ("PYTHONPYCACHEPREFIX=pc", "pycache_prefix=pc")]
    assert python_assignments(["-cXpycache_prefix=pc"]) == []
    assert python_assignments(["-WXpycache_prefix=pc"]) == []
    for case, entry in PYTHON_CLUSTERS.items():
        assert "\x06PYTHONPYCACHEPREFIX=pc\x00" in "".join(entry_values(entry, entry)), case


# --- U3: make's command line in MAKEFLAGS ----------------------------------------------------


MAKEFLAGGED = {"flags-then-definitions": "MAKEFLAGS='s -- MAKEFILES=mk' make test",
               "env-gnumakeflags": "env GNUMAKEFLAGS='-- MAKEFILES=mk' make test",
               "declare-x": "declare -x MAKEFLAGS=MAKEFILES=mk; make test"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(MAKEFLAGGED))
def test_makeflags_definitions_are_makes(tmp_path: Path, case: str) -> None:
    """make reads ``MAKEFLAGS``' definitions as its command line's: ``MAKEFILES=mk`` there is
    an entry's own ``MAKEFILES=mk`` (``mk`` guarded whole), the copy denied."""
    needs("bash", "make")
    copy = "cp src/mk mk"
    denied = _case(tmp_path, MAKEFLAGGED[case], copy,
                   {"Makefile": "test:\n\techo ok\n", "src/mk": "$(shell touch zz)\n"})
    assert denied == copy


@pytest.mark.slow
def test_makeflags_include_folder_refuses_the_plan(tmp_path: Path) -> None:
    """``MAKEFLAGS='-I d'`` makes make read ``include inc.mk`` from ``d`` (measured: make 4.3
    honours ``-I`` there, not ``-f``/``-C``): an option the gate does not read in MAKEFLAGS
    refuses the plan (every call denied)."""
    needs("bash", "make")
    entry = "MAKEFLAGS='-I d' make test"
    copy = "cp src/mk d/inc.mk"
    denied = _case(tmp_path, entry, copy, {
        "Makefile": "-include inc.mk\ntest:\n\techo ok\n", "d/keep": "",
        "src/mk": "$(shell touch zz)\n"})
    assert denied == copy


def test_makeflags_words() -> None:
    """make's own forms: a first word of letters, ``--``, numbers and modes are read, a
    blank escaped (make 4.3: ``A=1\\ x`` is ``1 x``, s52-greview2 C1); an include folder,
    ``--eval``, a word make may read as flags, another backslash refuse."""
    assert make_definitions("e", "ks -j4 --no-print-directory -- A=1 MAKEFILES=mk") == [
        "A=1", "MAKEFILES=mk"]
    assert make_definitions("e", "A=1\\ x B=2") == ["A=1 x", "B=2"]
    for value in ("-I d", "-Id", "--include-dir=d", "--eval=x", "-E x", "s override",
                  "A=1\\\\ x", "A=1\\x", "A=1\\\tx"):
        with pytest.raises(ValueError):
            make_definitions("e", value)
    with pytest.raises(ValueError, match="cannot know"):
        entry_values("e", "MAKEFLAGS='X=$(shell id)' make")


# --- U4: a preload's bare name through node_modules ----------------------------------------


PACKAGE = {"src/pkg/package.json": '{"main": "i.js"}', "src/pkg/i.js": JS_PAYLOAD,
           "node_modules/keep": ""}
PRELOAD_NAMES = {"require": ("NODE_OPTIONS='--require pre' node -e 0", {}),
                 "import": ("NODE_OPTIONS='--import pre' node -e 0", {}),
                 "export-r": ("export NODE_OPTIONS='-r pre'; node -e 0", {}),
                 "session-import": ("node -e 0", {"NODE_OPTIONS": "--import pre"})}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PRELOAD_NAMES))
def test_a_preloads_package_by_name(tmp_path: Path, case: str) -> None:
    """node resolves a preload's bare name from ``node_modules``: ``node_modules/pre`` (a
    package folder; ``pre.js`` too) is guarded, the copy denied."""
    needs("bash", "node")
    entry, extra = PRELOAD_NAMES[case]
    copy = "cp -r src/pkg node_modules/pre"
    assert _case(tmp_path, entry, copy, dict(PACKAGE), extra) == copy


# --- E1: an env file's variables ---------------------------------------------------------


ENV_FILES = {
    "node-apart": ("node --env-file .env.dev -e 0",
                   {".env.dev": "NODE_OPTIONS=--require ./pre.js\n"}, {}),
    "node-quoted-export": ("node --env-file=.env -e 0",
                           {".env": 'export NODE_OPTIONS="--require ./pre.js" # x\n'}, {}),
    "bun-local": ("bun x.js", {".env.local": "BASH_ENV=e.sh\n",
                               "x.js": "require('child_process').execSync('bash -c true')\n"},
                  {"PATH": f"{BUN}:{os.environ['PATH']}"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(ENV_FILES))
def test_an_env_files_variables_are_the_entrys(tmp_path: Path, case: str) -> None:
    """The variables an env file sets (node's ``--env-file``, apart; ``export`` and quotes;
    bun's ``.env.local``) are read as the entry's own: the file its ``NODE_OPTIONS`` or
    ``BASH_ENV`` names is guarded, the copy denied."""
    entry, more, extra = ENV_FILES[case]
    needs("bash", "node")
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    target = "e.sh" if "bun" in case else "pre.js"
    copy = f"cp src/mk {target}"
    payload = SCRIPT if "bun" in case else JS_PAYLOAD
    assert _case(tmp_path, entry, copy, {**more, "src/mk": payload}, extra) == copy


def test_an_env_file_as_dotenv_reads_it(tmp_path: Path) -> None:
    """``env_file``: comments, ``export``, quotes (over lines), a value of a name set before
    in the file."""
    (tmp_path / ".env").write_text('# c\nexport A=./a\nB="x\ny" \nC=$A/c # note\nD=${A}/d\n')
    assert env_file(str(tmp_path / ".env")) == [("A", "./a"), ("B", "x\ny"), ("C", "./a/c"),
                                                ("D", "./a/d")]
    assert env_file(str(tmp_path / "none")) == []


# --- F1: what bunfig.toml preloads ----------------------------------------------------------


BUNFIGS = {"string": ("bun x.js", 'preload = "./pre.js"\n', "pre.js"),
           "package-name": ("bun x.js", 'preload = ["pre"]\n', "node_modules/pre.js")}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BUNFIGS))
def test_bunfigs_preloads_are_guarded(tmp_path: Path, case: str) -> None:
    """A ``preload`` of one string (not a list) and a preload by a package's name are
    guarded. (bun 1.4.5 does not read ``[run] preload`` for ``bun x.js``: measured.)"""
    entry, bunfig, target = BUNFIGS[case]
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    copy = f"cp src/pre {target}"
    files: dict[str, str | bytes] = {"x.js": "0\n", "bunfig.toml": bunfig,
                                     "src/pre": JS_PAYLOAD, "node_modules/keep": ""}
    assert _case(tmp_path, entry, copy, files, {"PATH": f"{BUN}:{os.environ['PATH']}"}) == copy


def test_bunfig_preloads_read(tmp_path: Path) -> None:
    """Each ``preload`` (top, ``[test]``, ``[run]``) and ``[serve.static] plugins``; a value
    of another type, or a file that is not TOML, refuses."""
    path = tmp_path / "bunfig.toml"
    path.write_text('preload = "a"\n[test]\npreload = ["b"]\n[run]\npreload = ["c"]\n'
                    '[serve.static]\nplugins = ["d"]\n')
    assert bunfig_preloads(str(path)) == ["a", "b", "c", "d"]
    for text in ("preload = 1\n", "preload = [\n"):
        path.write_text(text)
        with pytest.raises(ValueError):
            bunfig_preloads(str(path))


# --- U6: what a site .pth imports ------------------------------------------------------------


def test_a_site_pth_files_imports_are_read(tmp_path: Path) -> None:
    """The names of a ``.pth`` file's ``import`` lines of a Python the plan names (its
    ``lib/``), strings too; not its path lines."""
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (site / "a.pth").write_text("import zz_hook_a; __import__('zz_hook_b')\nzz_not_module\n")
    found = start_imports((f"{tmp_path}/lib/",), "")
    assert {"zz_hook_a", "zz_hook_b"} <= found and "zz_not_module" not in found


# --- U7: pytest's variables ------------------------------------------------------------------


PYTEST_VARS = {"env-plugins": f"env PYTEST_PLUGINS=plug {VENV_PYTHON} -m pytest",
               "addopts-doctest-glob": f"PYTEST_ADDOPTS='-q --doctest-glob=*.txt' "
                                       f"{VENV_PYTHON} -m pytest"}


@pytest.mark.parametrize("case", list(PYTEST_VARS))
def test_pytests_variables_refuse(case: str) -> None:
    """An entry's ``PYTEST_PLUGINS``, or ``PYTEST_ADDOPTS`` with an option importing other
    files, refuses the plan."""
    entry = PYTEST_VARS[case]
    with pytest.raises(ValueError):
        entry_values(entry, entry)


# --- costs: the entry's own call still allowed --------------------------------------------


OWN = {"perl-mlib": (["perl -Mlib=inc -e 1"], {"inc/keep": ""}, {}),
       "makeflags": (["MAKEFLAGS='-s -- MAKEFILES=mk' make test"],
                     {"Makefile": "test:\n\ttrue\n", "mk": ""}, {}),
       "env-file": (["node --env-file=.env -e 0"], {".env": "NODE_ENV=test\nA=./a.txt\n"}, {}),
       "pythonpath": ([f"PYTHONPATH=lib {PYTHON} -c pass"], {"lib/keep": ""}, {}),
       "python-x-cluster": ([f"{PYTHON} -BX pycache_prefix=pc -c pass"], {}, {}),
       "perl-I-apart": (["perl -I inc -e 1"], {"inc/keep": ""}, {}),
       "node-options-r-name": (["NODE_OPTIONS='-r pre' node -e 0"],
                               {"node_modules/pre.js": ""}, {}),
       "bunfig-preload": (["bun x.js"], {"x.js": "0\n", "pre.js": "0\n",
                                         "bunfig.toml": 'preload = "./pre.js"\n'}, {}),
       "pytest-addopts-q": ([f"PYTEST_ADDOPTS=-q {VENV_PYTHON} -m pytest"], {}, {}),
       "session-addopts-q": ([f"{VENV_PYTHON} -m pytest"], {}, {"PYTEST_ADDOPTS": "-q"})}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(OWN))
def test_the_entrys_own_call_is_allowed(tmp_path: Path, case: str) -> None:
    """The plan's own entry, writing nothing, is allowed under the new rules."""
    entries, files, extra = OWN[case]
    project = hooked_project(tmp_path, [f"Bash({e})" for e in entries])
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), **extra}
    assert first_denied(project, entries, env) is None


def test_perl_folders_read_as_perl_reads_them() -> None:
    """perl's switches: clusters, ``-e``'s code apart, octal digits after ``-l``/``-0``, the
    script ending them; in PERL5OPT every word; ``-Mlib`` with another list refuses."""
    assert perl_folders(["-lne", "print", "-Iz"], True) == ["z"]
    assert perl_folders(["-0777Iq"], True) == ["q"]
    assert perl_folders(["x.pl", "-Ia"], True) == []
    assert perl_folders(["-Mlib=x,y", "-I", "z"], False) == ["x", "y", "z"]
    with pytest.raises(ValueError):
        perl_folders(["-Mlib qw(a)"], True)


# --- s51-greview G1, G2, G3, G6, G7, G10 (their proofs: tests/gate/test_s51_greview.py) -----


def test_greview_classes_are_read(tmp_path: Path) -> None:
    """env's string attached to ``-S`` is code (G1); perl's ``-Mblib`` names ``blib`` of the
    folder and 4 up, ``-Mblib=DIR`` DIR's (G6); node's ``--openssl-config=F`` is
    ``OPENSSL_CONF=F`` (G7)."""
    for entry in ("env -S'BASH_ENV=e.sh bash' -c true", "env -SBASH_ENV=e.sh bash -c true",
                  "env --split-string='BASH_ENV=e.sh bash -c true'"):
        assert any(v.startswith("\x06BASH_ENV=e.sh\x00") for v in entry_values(entry, entry))
    assert perl_folders(["-Mblib"], True) == ["./blib", "./../blib", "./../../blib",
                                              "./../../../blib", "./../../../../blib"]
    assert perl_folders(["-Mblib=bb"], True)[0] == "bb/blib"
    entry = "node --openssl-config=oconf -e 0"
    assert any(v.startswith("\x06OPENSSL_CONF=oconf\x00") for v in entry_values(entry, entry))


def test_greview_values_refuse_or_guard(tmp_path: Path) -> None:
    """An entry's ``PATH`` with an empty element refuses (G2); ``NPM_CONFIG_userconfig`` is
    npm's ``npm_config_userconfig`` (G3, guarded whole); OpenSSL's settings file and the
    engine its ``dynamic_path`` names are guarded (G7)."""
    from skillgrant.gate.startvars import value_items

    folder = str(tmp_path)
    with pytest.raises(ValueError, match="empty element"):
        value_items([("PATH", ":/usr/bin", True)], [folder], set())
    items, _ = value_items([("NPM_CONFIG_userconfig", "rc", True)], [folder], set())
    assert (f"{folder}/rc", True) in items
    (tmp_path / "o.cnf").write_text("[e]\ndynamic_path = ./x.so\n")
    items, _ = value_items([("OPENSSL_CONF", "o.cnf", False)], [folder], set())
    assert (f"{folder}/o.cnf", False) in items and (f"{folder}/x.so", True) in items


# --- s51-greview G9, G11: bun's BUN_OPTIONS, make's text to evaluate (other spellings) ------


#: Each case: the entry, the copy, the project's files, the session's values. bun puts
#: ``BUN_OPTIONS``' words before its command line's; make reads ``--eval``/``-E`` text as a
#: makefile's.
G9_G11 = {
    "bun-preload-equals-bare": ("BUN_OPTIONS=--preload=pre bun x.js",
                                "cp src/mk node_modules/pre.js", {"node_modules/keep": ""}, {}),
    "bun-session-preload": ("bun x.js", "cp src/mk pre.js", {},
                            {"BUN_OPTIONS": "--preload ./pre.js"}),
    "make-eval-export": ("make --eval='-include mk' test", "cp src/mk mk", {}, {}),
    "make-E-cluster": ("make -sE '-include mk' test", "cp src/mk mk", {}, {}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(G9_G11))
def test_buns_options_and_makes_eval(tmp_path: Path, case: str) -> None:
    """Other spellings of s51-greview G9, G11, proved by real bash (bun runs the preload,
    make includes ``mk``): the plan is refused or the copy denied."""
    needs("bash", "make")
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    entry, copy, more, extra = G9_G11[case]
    files: dict[str, str | bytes] = {"x.js": "0\n", "Makefile": "test:\n\techo ok\n",
                                     "src/mk": "$(shell touch zz)\n" if "make" in case else
                                     JS_PAYLOAD, **more}
    extra = {"PATH": f"{BUN}:{os.environ['PATH']}", **extra}
    assert _case(tmp_path, entry, copy, files, extra) is not None


def test_bun_options_read() -> None:
    """``BUN_OPTIONS``' env files are read, its preloads left to ``preloaded``; any other
    option (``--config``, ``--cwd``) or a quote refuses."""
    from skillgrant.gate.startflags import bun_options

    assert bun_options("--smol --env-file=a -r pre") == [("--env-file=a", "--env-file=a")]
    assert bun_options("--env-file b") == [("--env-file=b", "--env-file")]
    for value in ("--config=c.toml", "-c c.toml", "--cwd=x", "'--preload' x"):
        with pytest.raises(ValueError):
            bun_options(value)
    with pytest.raises(ValueError, match="makefile"):
        entry_values("make -E 'x' t", "make -E 'x' t")
