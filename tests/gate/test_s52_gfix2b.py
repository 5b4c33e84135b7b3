"""Session 52 fixer s52-gfix2b: what s52-greview2 left open, the rules' edges (the holes'
proofs by real bash, node, bun and make are the rows of ``test_s52_greview2``)."""

from __future__ import annotations

import pytest

from skillgrant.gate import startvars
from skillgrant.gate.envpaths import preloaded
from skillgrant.gate.noderesolve import _as_url
from skillgrant.gate.planpaths import required


def test_require_reads_only_node_as_a_scheme() -> None:
    """``-r data:x`` names a package (CommonJS's require: only ``node:`` is a scheme); an
    import's ``data:``, ``node:`` and require's ``node:fs`` name none (R1g)."""
    assert {"data:x", "https:y", "file:z"} <= set(
        preloaded("-r data:x --require https:y --preload file:z"))
    assert preloaded("-r node:fs --import data:text/javascript,0 --import https:x") == []


def test_an_export_target_as_its_url() -> None:
    """A target as written and as its URL's path (R1f)."""
    assert _as_url("./lib/x.js?q") == ["./lib/x.js?q", "./lib/x.js"]
    assert _as_url("./lib/x.js#f?q") == ["./lib/x.js#f?q", "./lib/x.js"]
    assert _as_url("./lib/x%2ejs") == ["./lib/x%2ejs", "./lib/x.js"]
    assert _as_url("./lib/x.js") == ["./lib/x.js"]


def test_a_path_preloads_index_files() -> None:
    """A folder's index files apart: a link among them is guarded as its target (R12)."""
    assert {"./lib/pre/index.js", "./lib/pre/index.cjs", "./lib/pre/"} <= set(
        required("./lib/pre"))


def test_compiler_words() -> None:
    """An option's attached folder (``-Bv/``) guarded; gcc's ``-B`` prefix of names refused,
    ld's ``-Wl,-Bstatic`` read (R6c)."""
    assert "v/" in startvars._words([("CFLAGS", "-O2 -Bv/", False)])
    assert "static" in startvars._words([("LDFLAGS", "-Wl,-Bstatic", False)])
    with pytest.raises(ValueError, match="prefix"):
        startvars._words([("CFLAGS", "-Bv", False)])
