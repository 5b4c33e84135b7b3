"""The pinned Claude Code's own bash parser, as a module Bun can import (for the Skill-args
oracle, tests/oracle/skillargs_fill.js).

The runtime's ``tTi`` takes a Skill call's args' words from its bash parser (``mP``: the first
command's words, assignments dropped; a plain ``/\\s+/`` split where it finds none). The parser is
a JavaScript module of the runtime's binary (2.1.332: ``chunk-t0f9hc33.js``, exporting ``Qy``,
whose ``parse`` gives the tree). It is not copied into the project: ``parser_module`` cuts it out
of the pinned binary (``tests/conformance/cc_runtime.py``) at test time, with its two imports
stubbed (``Fc``: a feature gate, given its default; ``le``: a cache helper, the map itself).
Checked under every gate flipped too (session 47: no other split of plain args).
"""

from __future__ import annotations

import mmap
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
from cc_runtime import binary_path

_MARK = b"function Qy(){return Dr}"
_HEAD = b"// @bun @bytecode"
_IMPORT = re.compile(r'import\{(\w+)\}from"/\$bunfs/root/[\w.-]+";')
_STUBS = {"Fc": "const Fc=(n,d)=>d;", "le": "const le=(m,f)=>m;"}


def parser_module(folder: Path) -> Path:
    """Write the runtime's bash parser module into ``folder``; its path. RuntimeError when the
    pinned binary is missing or its parser is not found as expected."""
    binary = binary_path()
    if not binary.is_file():
        raise RuntimeError(f"the pinned Claude Code is not installed at {binary}")
    with binary.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as m:
        at = m.find(_MARK)
        start = m.rfind(_HEAD, 0, at)
        end = m.find(b"};", m.find(b"export{", at)) + 2
        if at < 0 or start < 0 or end < 2 or m.find(_MARK, at + 1) >= 0:
            raise RuntimeError(f"the bash parser's module is not found in {binary}")
        text = m[start:end].decode("utf-8")
    imports = _IMPORT.findall(text)
    if sorted(imports) != sorted(_STUBS):
        raise RuntimeError(f"the bash parser's module imports {imports}, not {sorted(_STUBS)}")
    path = folder / "runtime_bash_parser.mjs"
    path.write_text(_IMPORT.sub(lambda m: _STUBS[m.group(1)], text), encoding="utf-8")
    return path
