"""Shared test configuration: hypothesis profiles and the path to the shared real-skill corpus."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Law tests filter on purpose (they need related pairs); filtering is not a failure.
_QUIET = [HealthCheck.too_slow, HealthCheck.filter_too_much]
settings.register_profile("ci", deadline=None, suppress_health_check=_QUIET, derandomize=True)
settings.register_profile("dev", deadline=None, suppress_health_check=_QUIET)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Every service the suite starts keeps its sessions file here, never in the runner's home
# (service/sessionsfile.py: the password database's home otherwise); every hook and service
# the suite starts inherits the variable, and guards that folder (gate/homefiles.py).
if not os.environ.get("SKILLGRANT_STATE_DIR"):
    os.environ["SKILLGRANT_STATE_DIR"] = tempfile.mkdtemp(prefix="sg-state-")
    atexit.register(shutil.rmtree, os.environ["SKILLGRANT_STATE_DIR"], True)

REPO = Path(__file__).resolve().parents[1]
REAL_SKILLS = Path(os.environ.get("SKILLGRANT_REAL_SKILLS",
                                  REPO.parent / "shared" / "corpus" / "real-skills"))


def pytest_addoption(parser: pytest.Parser) -> None:
    # Here, not in tests/conformance/conftest.py: options must be known before collection.
    parser.addoption("--conformance", action="store_true",
                     help="run the runtime conformance suite against the pinned Claude Code")
    parser.addoption("--copilot", action="store_true",
                     help="with --conformance: also run the Copilot CLI suite "
                          "(tests/conformance/test_copilot_*.py), against the pinned Copilot CLI")
    parser.addoption("--conformance-workers", type=int, default=3,
                     help="Claude Code sessions run at once (conformance suite)")
    parser.addoption("--review-rows", type=int, default=None,
                     help="run a fixed, seeded sample of N cases of each parametrized test of "
                          "the reviews' files (test_s<N>_*.py), and every case left open; CI's "
                          "steps 30 and 50 give it; unset, every case")
    parser.addoption("--domain-pairs", type=int, default=120,
                     help="with --conformance: the generated pairs a domain of "
                          "tests/conformance/test_domain_probes.py (a seeded first N; CI's step "
                          "50 gives 10; 200 runs the full counts)")
    parser.addoption("--copilot-cases", type=int, default=None,
                     help="with --copilot: a seeded sample of N of the Copilot suite's generated "
                          "cases (CI's step 60 gives 6); unset, all of them")
    parser.addoption("--copilot-corpus", type=int, default=None,
                     help="with --copilot: a seeded sample of N of the real files (CI's step 60 "
                          "gives 6); unset, all of them")
    parser.addoption("--generated-cases", type=int, default=None,
                     help="with --conformance: judge a fixed, seeded sample of N of the 461 "
                          "generated cases of test_applied_skills_never_allow_more_than_the_plan "
                          "(CI's step 50 gives 120); unset, all of them")
    parser.addoption("--reader-rows", type=int, default=8,
                     help="with --conformance: generated rows a class of "
                          "tests/conformance/test_reader_classes_e2e.py (CI's step 50 gives 4)")
    parser.addoption("--bun", action="store_true",
                     help="run the Bun differential of the SKILL.md reader (tests/oracle)")
    parser.addoption("--bun-cases", type=int, default=50_000,
                     help="generated frontmatters the Bun differential reads")
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow: each installs the package into a "
                          "new environment, or runs an adversarial review's cases under real "
                          "bash (.ci/steps/30-slow.sh runs them)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: an end-to-end installation into a new environment, a review's "
                   "cases judged by real bash and fresh hook processes, or many processes "
                   "of the service at once (seconds each); runs with --slow "
                   "(.ci/steps/30-slow.sh), skipped without it, saying so")
    config.addinivalue_line(
        "markers", "installation: uses the fixture ``installed`` (set on collection): the "
                   "running environment, or with --slow a fresh one (.ci/steps/30-slow.sh)")
    # pytest-xdist's own marker (tests run in one worker), known here also without xdist.
    config.addinivalue_line("markers", "xdist_group(name): pytest-xdist runs the tests of a "
                                       "group in one worker")


#: The tests that start ``skillgrant serve`` on the README's fixed port: one worker runs them
#: under ``--dist loadgroup``. They use the fixture ``installed``, so they run only with
#: ``--slow``, in one process.
FIXED_PORT = pytest.mark.xdist_group("port-8750")
_ORACLES = ("--conformance", "--bun")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The README's test command runs on every core: with pytest-xdist installed (the test
    extra) and no ``-n`` given, ``-n auto --dist loadfile``: each module runs whole in one
    worker, so a module's fixtures (the hostile payloads' run of every case, a served
    service) are made once, not once a worker. (``loadgroup`` made each test a unit of its
    own: its controller's bookkeeping grows with the square of the tests, and under pytest 9
    its workers no longer add a test's ``xdist_group`` to the id pytest reports, so no group
    was kept together.) ``-n 0`` (or ``-p no:xdist``) runs in one process. The oracle
    suites run in one process whatever is given: their sessions, tallies and fresh
    installation are made once, and they size their own concurrency
    (``--conformance-workers``). ``--slow`` runs in one process too unless ``-n`` is given
    (CI's slow step runs the tests that use no installation on its cores so, module by
    module, and those that do in one process). Runs before xdist's own hook (a conftest's
    ``tryfirst`` hook is called before an installed plugin's). The runtime suites take an
    ``-n`` given on the command line (CI's step 50 gives ``-n 2 --dist loadfile``: their
    sessions mostly wait, so two modules at a time take less wall time); each worker then
    hands its tallies to the controller, which prints their sums (``pytest_testnodedown``)."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    oracle = any(config.getoption(flag) for flag in _ORACLES)
    given = config.option.numprocesses is not None
    if (oracle and not (config.getoption("--conformance") and given)) or (
            config.getoption("--slow") and not given):
        config.option.numprocesses = 0
    elif config.option.numprocesses is None:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":
            config.option.dist = "loadfile"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A report's captured output with a lone surrogate (a test logging a hostile entry) in
    its escape: pytest-xdist sends reports between processes as UTF-8, and a surrogate there
    is an internal error of the whole run."""
    report: pytest.TestReport = yield
    report.sections = [(title, _encodable(text)) for title, text in report.sections]
    return report


def _encodable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# --- the runtime conformance suite (tests/conformance) ---------------------------------------
# Its hooks and fixture live here: a second conftest.py would shadow this one's module name.

CONFORMANCE = Path(__file__).resolve().parent / "conformance"
ORACLE = Path(__file__).resolve().parent / "oracle"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--conformance`` the suite is skipped, saying so (it takes minutes and needs
    the pinned runtime); with it, a missing runtime or jail fails, never passes silently.
    The Bun differential (tests/oracle) likewise runs only with ``--bun``, the Copilot CLI
    suite (tests/conformance/test_copilot_*.py) only with ``--conformance --copilot``, and a
    test marked ``slow`` (a fresh installation: tens of seconds of CPU each; a review's cases
    under bash, about two minutes of CPU a file) only with ``--slow``. A test using the
    fixture ``installed`` (the README's and the docs' snippets run as written) is marked
    ``installation`` and, outside the conformance suite, runs only with ``--slow`` too: CI's
    slow step runs each against a fresh installation, the stronger form of the same test, and
    the README's test command leaves them to it (about 13 s of CPU, session 47)."""
    if config.getoption("--conformance") and not config.getoption("--copilot"):
        later = pytest.mark.skip(reason="the Copilot CLI suite runs with --copilot")
        for item in items:
            if Path(str(item.path)).name.startswith("test_copilot_"):
                item.add_marker(later)
    skip = pytest.mark.skip(reason="the runtime conformance suite runs with --conformance")
    skip_bun = pytest.mark.skip(reason="the Bun differential runs with --bun")
    skip_slow = pytest.mark.skip(reason="slow (a fresh installation, a review's cases under bash, "
                                        "or many service processes): runs with --slow "
                                        "(.ci/steps/30-slow.sh)")
    _mark_installations(config, items)
    _sample_review_rows(config, items)
    for item in items:
        if (left_open := _left_open(item)) is not None:  # a review's hole left open
            item.add_marker(pytest.mark.xfail(strict=True, reason=left_open))
        if item.get_closest_marker("slow") is not None and not config.getoption("--slow"):
            item.add_marker(skip_slow)
        parents = Path(str(item.path)).parents
        if CONFORMANCE in parents and not config.getoption("--conformance"):
            item.add_marker(skip)
        if ORACLE in parents and not config.getoption("--bun"):
            item.add_marker(skip_bun)


#: ``--review-rows N``: of each parametrized test of a review's file (test_s<N>_*.py: the
#: slow step's proofs under real bash, the conformance suite's sessions), a fixed, seeded sample
#: of N cases runs (the cases whose hash with the seed is least), and every case left open (a
#: strict xfail: its unexpected pass must be seen); unset, every case. CI's slow and conformance
#: steps give it (their time: .ci/steps/30-slow.sh, 50-claude-code.sh); every case runs before an
#: issue is resolved. An option, not a variable: the runtime's sessions inherit the suite's
#: environment, and the gate guards the values of its own SKILLGRANT_ variables (a `2` made
#: `2>/dev/null` name a guarded file).
_ROWS_SEED = "skillgrant-review-rows-1"
#: What the sample kept and left, for the summary line.
_ROWS_SAMPLED: dict[str, int] = {}


def _left_open(item: pytest.Item) -> str | None:
    """Why ``item`` is a review's hole left open (tests/residual.py, or its module's ``OPEN``
    table), or None."""
    from residual import reason

    table_reason = getattr(getattr(getattr(item, "module", None), "OPEN", None), "reason", None)
    found: str | None = reason(item.nodeid) or (table_reason(item.name) if table_reason else None)
    return found


def _sample_review_rows(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keeps a seeded sample of each review test's cases (``--review-rows``) and every case
    left open; the rest are deselected, and the summary says how many of how many ran."""
    keep = config.getoption("--review-rows")
    if keep is None:
        return
    cases: dict[str, list[pytest.Item]] = {}
    for item in items:
        name = Path(str(item.path)).name
        if name.startswith("test_s") and name[6:7].isdigit() and "[" in item.nodeid:
            cases.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    left: set[int] = set()
    for group in cases.values():
        ranked = sorted((item for item in group if _left_open(item) is None),
                        key=lambda item: hashlib.sha256(
                            f"{_ROWS_SEED}:{item.nodeid}".encode()).hexdigest())
        left.update(id(item) for item in ranked[keep:])
    dropped = [item for item in items if id(item) in left]
    if dropped:
        items[:] = [item for item in items if id(item) not in left]
        config.hook.pytest_deselected(items=dropped)
    _ROWS_SAMPLED.update(kept=sum(len(group) for group in cases.values()) - len(dropped),
                         cases=sum(len(group) for group in cases.values()), per_test=keep)


def _mark_installations(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test using the fixture ``installed`` is marked ``installation``; without ``--slow``,
    outside the conformance suite, it is skipped, saying so."""
    skip = pytest.mark.skip(reason="a README or docs snippet run as written: runs with --slow, "
                                   "against a fresh installation (.ci/steps/30-slow.sh)")
    quick = not config.getoption("--slow")
    for item in items:
        if "installed" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.installation)
            if quick and CONFORMANCE not in Path(str(item.path)).parents:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def judge(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Runs probe sessions against the pinned Claude Code, in the jail, with the stand-in."""
    sys.path.insert(0, str(CONFORMANCE))
    from cc_probe import TALLY, Judge
    from cc_runtime import PINNED_VERSION, binary_path, installed_version, jail_available
    from cc_standin import StandIn

    binary = binary_path()
    if installed_version(binary) != PINNED_VERSION:
        pytest.fail(f"the pinned Claude Code {PINNED_VERSION} is not installed at {binary}: "
                    "run python tests/conformance/cc_runtime.py install")
    why = jail_available()
    if why is not None:
        pytest.fail(f"probe sessions cannot be jailed here: {why}")
    with StandIn() as standin:
        judge = Judge(binary, standin, workers=request.config.getoption("--conformance-workers"))
        yield judge
        TALLY["sessions"] = TALLY.get("sessions", 0) + judge.sessions
        TALLY["probe calls"] = TALLY.get("probe calls", 0) + judge.probes


#: A module every test of which is slow says so in one line of its own (``pytestmark``).
_WHOLE_SLOW = re.compile(r"^pytestmark = \[?pytest\.mark\.slow\]?$", re.MULTILINE)


def _left_out(path: Path, config: pytest.Config) -> str | None:
    """Why the test module at ``path`` is not collected in this run, or None: the runtime
    suites without ``--conformance``, the Bun differential without ``--bun``, a module whose
    every test is slow without ``--slow``. Not importing them keeps the README's test command
    within its time (their assertion rewriting and imports were about 6 s a worker, session
    55); a module named on the command line is still collected, each test then skipped saying
    why (``pytest_collection_modifyitems``)."""
    if not (path.name.startswith("test_") and path.suffix == ".py"):
        return None
    if CONFORMANCE in path.parents and not config.getoption("--conformance"):
        return "--conformance"
    if ORACLE in path.parents and not config.getoption("--bun"):
        return "--bun"
    if not config.getoption("--slow") and _WHOLE_SLOW.search(path.read_text(encoding="utf-8")):
        return "--slow"
    return None


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    return True if _left_out(collection_path.resolve(), config) else None


#: The runtime suites' tallies (``cc_probe.TALLY``, ``cp_probe.TALLY``) summed over the
#: pytest-xdist workers that ran them, and the review rows' sample (each worker samples alike).
_WORKERS_TALLIES: dict[str, dict[str, int]] = {}


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its tallies and sample to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["skillgrant_tallies"] = json.dumps(
            {name: getattr(sys.modules.get(name), "TALLY", None) or {}
             for name in ("cc_probe", "cp_probe")} | {"rows": _ROWS_SAMPLED})


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """The controller sums what each worker counted (a count one module sets is that module's:
    with ``--dist loadfile`` a module runs whole in one worker)."""
    handed = json.loads(getattr(node, "workeroutput", {}).get("skillgrant_tallies", "{}"))
    _ROWS_SAMPLED.update(handed.pop("rows", {}))
    for name, tally in handed.items():
        mine = _WORKERS_TALLIES.setdefault(name, {})
        for key, value in tally.items():
            mine[key] = mine.get(key, 0) + value


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    left: dict[str, int] = {}
    root = Path(__file__).resolve().parent
    whole = any(Path(arg.split("::")[0]).resolve() in (root, root.parent)
                for arg in terminalreporter.config.args)
    for path in root.rglob("test_*.py") if whole else ():
        if (why := _left_out(path, terminalreporter.config)) is not None:
            left[why] = left.get(why, 0) + 1
    if left:
        terminalreporter.write_line("test modules not collected: " + ", ".join(
            f"{count} (they run with {why})" for why, count in sorted(left.items())))
    if _ROWS_SAMPLED:
        terminalreporter.write_line(
            "review rows (--review-rows {per_test}, seeded, and every case left open): "
            "{kept} of {cases} parametrized cases selected".format(**_ROWS_SAMPLED))
    tally = _WORKERS_TALLIES.get("cc_probe") or getattr(sys.modules.get("cc_probe"), "TALLY",
                                                         None)
    copilot = _WORKERS_TALLIES.get("cp_probe") or getattr(sys.modules.get("cp_probe"), "TALLY",
                                                          None)
    if (tally or copilot) and str(CONFORMANCE) not in sys.path:  # a controller of workers
        sys.path.insert(0, str(CONFORMANCE))
    if tally:
        from cc_runtime import PINNED_VERSION

        counts = ", ".join(f"{value} {name}" for name, value in tally.items())
        terminalreporter.write_line(f"conformance against Claude Code {PINNED_VERSION}: {counts}")
    if copilot:
        from cp_runtime import PINNED_VERSION as COPILOT_VERSION

        counts = ", ".join(f"{value} {name}" for name, value in copilot.items())
        terminalreporter.write_line(f"conformance against Copilot CLI {COPILOT_VERSION}: {counts}")


# --- an installation of the checkout (tests/installed.py) -------------------------------------

@pytest.fixture(scope="session")
def installed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """With ``--slow``: a new virtual environment with this checkout installed (not editable),
    never activated, and the serve extra added by the command ``skillgrant serve`` printed for
    it. Without (the conformance suite): the environment running the tests (``running``):
    making one costs about 13 s of CPU. Every test using this fixture is marked
    ``installation``; outside the conformance suite it runs only with ``--slow``, and
    .ci/steps/30-slow.sh runs them all against the fresh installation."""
    from installed import install, running

    if request.config.getoption("--slow"):
        return install(tmp_path_factory.mktemp("installed"))
    return running()


@pytest.fixture
def view() -> Iterator[Any]:
    """The service's view of the filesystem (``service/watched.py``), closed after the test;
    the test is skipped where inotify is not to be had. (Here and not in a ``conftest.py`` of
    ``tests/service``: that one would shadow this module for ``from conftest import …``.)"""
    from skillgrant.service.watched import watched

    found = watched()
    if found is None:
        pytest.skip("inotify is not to be had here")
    yield found
    found.close()
