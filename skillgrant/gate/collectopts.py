"""A test runner's own options in a plan's entry that make it import files ``testfiles`` does
not guard by name (s50-greview3 C1, K3): read, and the plan refused (ValueError) only where
what they import is not named.

- pytest's ``-p NAME`` imports the module ``NAME`` from its ``sys.path`` (``python -m``'s
  folder first): ``planprograms`` guards that module's files in the call's folder, as it does
  for each word of a pytest entry (``NAME.py``, ``NAME/__init__.py``, its bytecode and
  extension files): read. A ``NAME`` the gate cannot name (a pattern, a ``$``, a path)
  refuses, and so does any under a ``PYTHONPATH`` (the entry's or the session's: its folders
  come before site-packages, and only standard modules' names are guarded there).
- ``--doctest-modules`` imports every module below each path it is given: each path operand
  of a pytest entry is guarded whole already (``planprograms``: its scripts); with no path
  operand, or only the call's folder or one above (``.``, ``./``, ``..``: not guarded whole;
  s51-greview2 X2), it imports every module below the folder it runs in: refused.
- ``--doctest-glob``, ``-o``/``--override-ini`` of ``python_files`` (other names collected):
  refused; so is a warning filter ``-W ACTION::mod.Category`` (pytest imports ``mod`` from
  its ``sys.path`` to find the category: s51-greview G5).
- unittest's ``-p``/``--pattern`` (and ``discover``'s second operand): a pattern whose every
  match is a name ``testfiles`` guards (``test*.py``, ``*_test.py``) is read; another refuses.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: What makes a word one the gate cannot name a module (a path operand: ``_PATTERNED``) by.
_UNNAMED: Final = frozenset("*?[{$`/\\")
_PATTERNED: Final = frozenset("*?[{$`")
#: pytest's options whose value is the next word when given apart (its own, 9.x; and its
#: best-known plugins': xdist's ``-n``, ``--dist``; pytest-timeout's ``--timeout``): a word
#: after one is no path operand.
VALUED: Final = frozenset((
    "-k", "-m", "-p", "-c", "-o", "-W", "-r", "--basetemp", "--rootdir", "--confcutdir",
    "--config-file", "--override-ini", "--pythonwarnings", "--junitxml", "--junit-xml",
    "--maxfail", "--tb", "--durations", "--durations-min", "--capture", "--import-mode",
    "--deselect", "--ignore", "--ignore-glob", "--log-level", "--log-file", "--log-cli-level",
    "--log-format", "--log-date-format", "--log-file-level", "--doctest-glob",
    "--doctest-report", "--color", "--code-highlight", "--pastebin", "--debug",
    "--junit-prefix", "--rootdir", "-n", "--numprocesses", "--maxprocesses", "--dist",
    "--timeout", "--timeout-method", "--cov", "--cov-report", "--cov-config", *(
        "--benchmark-" + n for n in ("columns", "sort", "group-by", "name", "time-unit",
                                     "min-time", "max-time", "min-rounds",
                                     "calibration-precision", "warmup-iterations")),
    "--allow-hosts", "--max-runs", "--min-passes", "--asyncio-mode", "--reruns-delay",
    "--only-rerun"))


#: pytest's options (9.x, and xdist's, pytest-timeout's, pytest-cov's but its settings file,
#: rerunfailures') that make it import, read or collect nothing the plan's own reading of an
#: entry does not: output, reports, selection among what is collected anyway, order,
#: process count (``--basetemp``: ``guards``' own rule). ``-W`` is read by ``collectopts``.
_SAFE: Final = frozenset((
    "-q", "--quiet", "-v", "--verbose", "-x", "--exitfirst", "-s", "-l", "--showlocals",
    "-r", "-k", "-m", "-W", "--pythonwarnings", "--tb", "--lf", "--last-failed", "--ff",
    "--failed-first", "--nf", "--new-first", "--sw", "--stepwise", "--sw-skip",
    "--stepwise-skip", "--maxfail", "--durations", "--durations-min", "--co",
    "--collect-only", "--collectonly", "--no-header", "--no-summary", "--color",
    "--code-highlight", "--strict-markers", "--strict-config", "--strict", "--capture",
    "--disable-warnings", "--disable-pytest-warnings", "--runxfail", "--deselect",
    "--ignore", "--ignore-glob", "--setup-show", "--setup-only", "--setup-plan",
    "--fixtures", "--fixtures-per-test", "--markers", "--version", "-V", "-h", "--help",
    "--cache-show", "--cache-clear", "--lfnf", "--last-failed-no-failures", "-n",
    "--numprocesses", "--maxprocesses", "--dist", "--timeout", "--timeout-method", "--cov",
    "--no-cov", "--cov-report", "--cov-branch", "--cov-append", "--cov-fail-under",
    "--junitxml", "--junit-xml", "--junit-prefix", "--basetemp", "--reruns", "--forked",
    "--full-trace", "--show-capture", "-ra", "-rA", "--log-level", "--log-cli-level",
    "--import-mode",
    # known plugins' options whose value (or none) names no module, file or code, as their
    # argparse declarations read (pytest parses without abbreviations): pytest-benchmark's
    # (not --benchmark-timer, -histogram, -storage, -compare, -cprofile, -json, -warmup),
    # pytest-socket's, flaky's, pytest-asyncio's, rerunfailures', pytest-randomly's
    # (s59-preview K-ADDOPTS; O-PLUGIN-FLAG: a flag may import, so only these)
    *(f"--benchmark-{n}" for n in ("disable", "enable", "skip", "only", "disable-gc",
                                    "columns", "sort", "group-by", "name", "time-unit",
                                    "min-time", "max-time", "min-rounds",
                                    "calibration-precision", "warmup-iterations")),
    "--disable-socket", "--allow-unix-socket", "--force-enable-socket",
    "--force-disable-socket", "--allow-hosts", "--no-flaky-report", "--no-success-flaky-report",
    "--force-flaky", "--max-runs", "--min-passes", "--asyncio-mode", "--reruns-delay",
    "--only-rerun", "--randomly-dont-reorganize", "--randomly-dont-reset-seed",
    "--doctest-continue-on-failure"))
#: The settings a call's ``-o KEY=VALUE`` may give (output, strictness, timeouts; a
#: ``filterwarnings`` category is read by ``collectopts``): others (``addopts``,
#: ``pythonpath``, ``python_files``, ``testpaths``, ``norecursedirs``…) change what pytest
#: imports.
_SETTINGS_READ: Final = frozenset(("log_cli", "log_cli_level", "log_level", "log_format",
                                   "log_date_format", "console_output_style", "junit_family",
                                   "junit_suite_name", "xfail_strict", "timeout",
                                   "asyncio_mode", "filterwarnings", "verbosity_assertions",
                                   "truncation_limit_lines", "truncation_limit_chars"))
#: The words after which ``pytest`` is the program run (``python3 -m pytest``, ``uv run
#: pytest``, ``env X=1 pytest``, ``… -- pytest``); elsewhere a word (``grep pytest``).
_BEFORE: Final = frozenset(("-m", "run", "exec", "env", "--", "timeout", "nice", "time"))
#: The short flags pytest takes clustered (``-qx``, ``-vvs``).
FLAGS: Final = frozenset("qvxslhV")

def pytest_start(words: list[str], anywhere: bool = False) -> int | None:
    """The index of the word ending pytest's name in a command's ``words`` (``pytest``,
    ``py.test``, an interpreter's ``-m pytest`` however its options are spelled: ``-Im
    pytest``, ``-mpytest``, ``-m pytest.__main__``: one reader for each of pytest's words,
    s60-preview O), or None where the command runs none (``grep pytest x``); ``anywhere``:
    wherever the word is (a plan's entry: ``xvfb-run pytest``, ``timeout 600 python3
    -mpytest``, ``nohup …``)."""
    from .interpreters import module_run

    names = [os.path.basename(w) for w in words]
    for k, name in enumerate(names):
        if not (anywhere or k == 0 or words[k - 1] in _BEFORE or (
                "=" in words[k - 1] and words[k - 1][:1] != "-")):
            continue
        if name in ("pytest", "py.test"):
            return k
        run = module_run(list(words[k + 1:])) if _python(name) else None
        if run is not None and run[0].split(".")[0] in ("pytest", "_pytest", "py"):
            return k + run[1]  # (the word after it: pytest's own words)
        if run is not None:  # (a module running another: `-m cProfile -m pytest.__main__`,
            found = next((j for j in range(k + run[1] + 1, len(words)) if (  # `-m trace`…;
                words[j][2:] if words[j][:2] == "-m" else words[j]).split(".")[0] in (
                "pytest", "_pytest")), None)  # s60-preview2 O)
            if found is not None:
                return found
    return None


def code_runs_pytest(words: list[str]) -> bool:
    """Whether an interpreter among a command's ``words`` runs code it is given that names
    ``pytest`` (NFKC-normalized, as Python reads identifiers): ``-c`` code (``python3 -c
    "import pytest; pytest.main()"``), stdin's (``python3 - <<< '…'``, no operand), a script
    in pytest's package (``…/pytest/__main__.py``): pytest run with words the gate does not
    read (s60-preview O, s60-preview2 O); not a module run (``-m pip install pytest-x``) or a
    project script's operands."""
    import unicodedata

    for k, word in enumerate(words):
        if not _python(word):
            continue
        rest = [unicodedata.normalize("NFKC", w) if not w.isascii() else w
                for w in words[k + 1:]]
        script = next((w for w in rest if w[:1] != "-" or w == "-"), None)
        if any(w[:2] == "-m" for w in rest[:rest.index(script) if script else len(rest)]):
            continue  # (a module run: `pytest_start` reads it)
        code = any(w[:1] == "-" and w[1:2] != "-" and "c" in w[1:] for w in rest) or \
            script is None or script == "-" or script[:1] == "<"
        if (code and any("pytest" in w for w in rest)) or (script and any(
                f"/{p}/" in script for p in ("pytest", "_pytest"))):
            return True
    return False


def _python(word: str) -> bool:
    """Whether ``word`` names a Python interpreter (IPython's too: it takes ``-c``, ``-m``
    as python does; s60-preview2 O)."""
    from .programnames import is_interpreter

    name = os.path.basename(word)
    return is_interpreter(name) or name.startswith("ipython")


def collecting(entry: str, words: list[str]) -> None:
    """Refuses the plan (ValueError) whose test runner's own options (in ``words``, one
    command's) make it import files the gate does not name (see the module's text)."""
    names = [os.path.basename(w) for w in words]
    at = pytest_start(words, True)
    if at is not None:
        _pytest(entry, words[at + 1:])
    elif "unittest" in names:
        _unittest(entry, words[names.index("unittest") + 1:])


def addopts(entry: str, value: str) -> None:
    """``collecting`` of ``PYTEST_ADDOPTS``' ``value`` (the session's or ``entry``'s: pytest
    reads it before its command line; s50-greview3 U7), where a ``-p`` plugin refuses too: no
    rule guards the module a variable names (its command line's ``-p`` is ``planprograms``');
    so does an ``addopts`` it overrides (``-o addopts=-pplug``: options inside an option,
    s51-greview G15)."""
    import shlex

    try:
        words = unclustered(shlex.split(value))  # (pytest's reading: quotes, clusters;
    except ValueError:  # s59-preview O-ADDOPTS-WORDS)
        words = value.split()
        _refuse(entry, value)
    if any(w[:2] == "-p" or "addopts" in w for w in words):
        _refuse(entry, next(w for w in words if w[:2] == "-p" or "addopts" in w))
    valued = False
    for k, word in enumerate(words):  # (an option outside the allow-list: `--pdbcls=…`)
        read = valued or word[:1] != "-" or option_read(word, words[k + 1] if k + 1 < len(
            words) else "") is not None
        if not read:
            _refuse(entry, word)
        valued = not valued and word[:1] == "-" and bool(option_read(
            word, words[k + 1] if k + 1 < len(words) else ""))
    collecting(entry, ["pytest", *words])


def _pytest(entry: str, rest: list[str]) -> None:
    """``collecting`` of pytest's words ``rest``."""
    operands = False
    for k, word in enumerate(rest):
        after = rest[k + 1] if k + 1 < len(rest) else ""
        plugin = _given(word, after, "-p")
        if plugin is not None and not plugin.startswith("no:") and (
                not plugin or not _UNNAMED.isdisjoint(plugin) or "PYTHONPATH" in entry or
                os.environ.get("PYTHONPATH")):  # (its folders: only standard names guarded)
            _refuse(entry, f"{word} {after}" if word == "-p" else word)
        override = _given(word, after, "-o", "--override-ini") or ""
        warning = _given(word, after, "-W", "--pythonwarnings") or \
            override.partition("filterwarnings=")[2]  # (the ini's: G5)
        category = [*warning.split(":"), "", ""][2].strip()  # (ACTION:MESSAGE:CATEGORY:…)
        if category.rpartition(".")[0] not in ("", "builtins", "warnings"):  # (its module is
            _refuse(entry, f"{word} {after}" if warning == after else word)  # imported: G5)
        if "python_files" in word or "python_files" in override or \
                word.startswith("--doctest-glob") or "pythonpath" in word or \
                "pythonpath" in override:  # (a folder first on sys.path: s56-greview3 O1)
            _refuse(entry, word)
        before = rest[k - 1] if k else ""
        operands = operands or (word[:1] != "-" and _PATTERNED.isdisjoint(word) and (
            before not in VALUED or "=" in before) and os.path.normpath(word)[:1] != ".")
    if any(w.startswith("--doctest-modules") for w in rest) and not operands:
        _refuse(entry, "--doctest-modules")


def plugin_words(name: str, words: list[str]) -> list[str]:
    """The words of a program ``name`` given ``words``, with pytest's plugin option given
    attached set apart (``-phelper``, ``-qpx``: argparse's short options clustered, flags
    before ``p``): ``-p``, its value."""
    if "pytest" not in words and not name.startswith(("pytest", "py.test")) and \
            pytest_start(words, True) is None:  # (`python3 -mpytest`: s60-preview O)
        return words
    found = []
    for word in words:
        at = word.find("p")
        if word[:1] == "-" and word[1:2] != "-" and 0 < at < len(word) - 1 and set(
                word[1:at]) <= set("qvsxl"):
            found += [*([word[:at]] if at > 1 else []), "-p", word[at + 1:]]
        else:
            found.append(word)
    return found


def operands(words: list[str]) -> list[str]:
    """The path operands (no pattern) pytest is given among a command's ``words`` (each
    word after ``pytest``/``py.test`` neither an option nor an option's value)."""
    at = pytest_start(words, True)
    rest = [] if at is None else words[at + 1:]
    return [w for k, w in enumerate(rest) if w[:1] != "-" and _PATTERNED.isdisjoint(w) and (
        not k or rest[k - 1] not in VALUED or "=" in rest[k - 1])]


def _given(word: str, after: str, short: str, long: str = "") -> str | None:
    """The value ``word`` gives pytest's option ``short`` (``-X``) or ``long``: the next word
    ``after`` when apart, the rest of ``word`` when attached (``-Xv``, ``--long=v``); None
    when ``word`` is another."""
    if word == short or (long and word == long):
        return after
    if word[:2] == short:
        return word[2:]
    return word.partition("=")[2] if long and word.startswith(long + "=") else None


def _unittest(entry: str, rest: list[str]) -> None:
    """``collecting`` of unittest's words ``rest``: each pattern it is given."""
    patterns: list[tuple[str, str]] = []
    for k, word in enumerate(rest):
        after = rest[k + 1] if k + 1 < len(rest) else ""
        if word in ("-p", "--pattern"):
            patterns.append((word, after))
        elif word.startswith("--pattern="):
            patterns.append((word, word[10:]))
        elif word[:2] == "-p":
            patterns.append((word, word[2:]))
    if rest[:1] == ["discover"]:  # (`discover START PATTERN TOP`: its operands in order)
        plain = [w for k, w in enumerate(rest[1:], 1) if w[:1] != "-" and rest[k - 1] not in (
            "-s", "--start-directory", "-p", "--pattern", "-t", "--top-level-directory")]
        patterns += [("discover", w) for w in plain[1:2]]
    for word, pattern in patterns:
        if not _tests_only(pattern.lower()):
            _refuse(entry, f"{word} {pattern}" if pattern not in word else word)


def _tests_only(pattern: str) -> bool:
    """Whether every ``.py`` name the folded ``fnmatch`` pattern ``pattern`` matches is a test
    file's ``testfiles`` guards: it starts with ``test`` or ends in ``_test.py``, spelled."""
    return pattern[:4] == "test" or (pattern.endswith("_test.py") and not any(
        c in pattern[-8:] for c in "*?[]"))


def _refuse(entry: str, word: str) -> None:
    raise ValueError(f"the plan's entry {entry!r} gives its test runner an option ({word!r}) "
                     "that makes it import files the gate does not name")


def option_read(word: str, after: str) -> bool | None:
    """Whether pytest's option ``word`` (``after`` the next word) takes that word as its
    value; None where it is not read here (not ``_SAFE``)."""
    name = word.partition("=")[0]
    if name == "-p":
        return True if after.startswith("no:") else None
    if name[:2] == "-p":
        return False if word[2:].startswith("no:") else None
    given = _setting(word, after)
    if given is not None:
        return word in ("-o", "--override-ini") if given.partition("=")[0].strip() in \
            _SETTINGS_READ else None
    short = name[:1] == "-" and name[1:2] != "-"
    if short and len(name) > 2 and set(name[1:]) <= FLAGS:
        return False  # (clustered flags)
    if name not in _SAFE and not (short and name[:2] in _SAFE):
        return None
    return name in VALUED and "=" not in word and not (short and len(name) > 2)


def _setting(word: str, after: str) -> str | None:
    """The ``KEY=VALUE`` pytest's ``-o``/``--override-ini`` ``word`` gives (``after`` when
    apart); None for another word."""
    if word in ("-o", "--override-ini"):
        return after
    if word.startswith("--override-ini="):
        return word[15:]
    return word[2:].lstrip("=") if word[:2] == "-o" and word[2:3] != "-" else None


def unclustered(words: list[str]) -> list[str]:
    """pytest's ``words`` with each short-option cluster set apart as argparse reads it:
    flags (``FLAGS``) until a letter taking a value, which takes the rest (``-xWerror::m.W``:
    ``-x -W error::m.W``; s58-preview C-CLUSTER-W)."""
    found: list[str] = []
    for word in words:
        if word[:1] != "-" or word[1:2] in ("-", "") or len(word) < 3:
            found.append(word)
            continue
        flags = len(word) - len(word[1:].lstrip("".join(FLAGS)))
        found += [f"-{c}" for c in word[1:flags]]
        if flags < len(word):
            found += [f"-{word[flags]}", *([word[flags + 1:]] if word[flags + 1:] else [])]
    return found
