"""A pattern, suffix or ``.DEFAULT`` rule without a recipe remakes nothing (GNU make 4.3: it
cancels a rule or means nothing), so it is no doubt of make's reading; with a recipe, make
remakes an included makefile by it and the reading keeps a doubt. Real make is the judge."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from skillgrant.gate.makereads import makefile_reads

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make here")

#: Each rule that could remake ``x.mk`` from ``x.in``, as its lines before the recipe.
RULES = {
    "pattern": "%.mk : %.in\n",
    "default": ".DEFAULT:\n",
    "suffix": ".SUFFIXES: .in .mk\n.in.mk:\n",
}


@pytest.mark.parametrize("recipe", [False, True], ids=["without-a-recipe", "with-a-recipe"])
@pytest.mark.parametrize("rule", list(RULES))
def test_a_rule_is_a_doubt_exactly_when_make_remakes_by_it(
        tmp_path: Path, rule: str, recipe: bool) -> None:
    (tmp_path / "x.in").write_text("all:\n\t@echo made\n")
    (tmp_path / "Makefile").write_text(
        "include x.mk\n" + RULES[rule] + ("\tcp x.in x.mk\n" if recipe else ""))
    subprocess.run(["make", "-s"], cwd=tmp_path, capture_output=True, timeout=60, check=False)
    remade = (tmp_path / "x.mk").exists()
    (tmp_path / "x.mk").unlink(missing_ok=True)
    held: list[tuple[str, str]] = []
    makefile_reads(str(tmp_path / "Makefile"), str(tmp_path), held)
    assert remade == recipe
    assert bool(held) == remade, held
