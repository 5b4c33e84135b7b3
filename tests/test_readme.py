"""The README's Python examples run as written (doctest), and its two newcomer commands name
files that exist."""

from __future__ import annotations

import doctest
import re

from conftest import REPO


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False)
    assert result.attempted >= 3
    assert result.failed == 0


def test_quick_start_names_the_shipped_samples() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install '.[test]' && .venv/bin/python -m pytest -q" in readme
    samples = sorted(p.parent.name for p in (REPO / "samples").glob("*/SKILL.md"))
    assert len(samples) >= 3
    for name in samples:
        assert (REPO / "samples" / name / "plan.yaml").is_file(), name
    assert re.search(r'skillgrant check "\$d"SKILL\.md --plan "\$d"plan\.yaml', readme)


def test_conformance_command_matches_ci() -> None:
    # The README's conformance command and .ci/run install and run the same suite.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for text in (readme, ci):
        assert "tests/conformance/cc_runtime.py install" in text
        assert "pytest -q" in text and "tests/conformance --conformance" in text
    assert (REPO / "tests" / "conformance" / "cc_runtime.py").is_file()
    assert "CONFORMANCE SUITE NOT RUN" in ci
