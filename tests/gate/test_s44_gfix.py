"""The fixes of review s44 (s44-gfix), checked against the real programs where one is here:
git's parse-options reads any unique prefix of ``--template`` and ``--separate-git-dir`` (G1);
the files a plan's programs read at their start (P1, P3: ``planprograms``); an activated
environment's prefix (P2: ``homefiles.prefixes``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from skillgrant.gate.writers import writes


def test_every_prefix_git_init_reads_as_a_template_or_git_dir_is_a_write_of_git(
        tmp_path: Path) -> None:
    """G1: for each prefix of ``--template`` and ``--separate-git-dir`` (``=DIR`` and apart)
    with which git init copies the template (its file lands in the new ``.git``) or puts the
    repository elsewhere, ``writes`` says the command writes folders, and git the tree."""
    if shutil.which("git") is None:
        pytest.skip("no git")
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "marker").write_text("x\n")
    ran = 0
    for option, made in (("template", "sub/.git/marker"), ("separate-git-dir", "gd/HEAD")):
        for end in range(1, len(option) + 1):
            for form in (f"--{option[:end]}={'tpl' if made[0] == 's' else 'gd'}",
                         f"--{option[:end]} {'tpl' if made[0] == 's' else 'gd'}"):
                for leftover in ("sub", "gd"):
                    shutil.rmtree(tmp_path / leftover, ignore_errors=True)
                words = ["git", "init", "-q", *form.split(" "), "sub"]
                subprocess.run(words, cwd=tmp_path, capture_output=True, timeout=30,
                               check=False)
                if (tmp_path / made).exists():
                    ran += 1
                    assert writes(words) == (True, "git"), form
    assert ran > 10, "git read no prefix: the case proves nothing"


@pytest.mark.parametrize("words", [["git", "init", "sub"], ["git", "log", "--stat"],
                                   ["git", "status", "--short"]])
def test_git_without_those_options_is_read_as_before(words: list[str]) -> None:
    assert writes(words) == (False, None)
