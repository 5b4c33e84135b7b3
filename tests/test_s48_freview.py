"""Review s48-freview of the SKILL.md reader (session 47's late fixes first: tagged.comment_end,
flowlenient, runtime._BUN_READS, keyread/removed, the size limit, pluginparts, staged): files
``check`` passes or ``apply`` keeps (or writes, under ``--enforce``) that a runtime reads with
more grants than the plan, or that run something the plan does not carry. Each test in
``HOLES`` fails today and is a strict xfail, so a fix shows as an unexpected pass (then drop
its row).

The runtimes' readings written here were measured: Bun 1.4.5 running the runtime's frontmatter
steps (``test_*_bun_reads_*`` pin them, skipped without Bun).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.gate.subagents import ForkedSkillError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text, read_skill
from skillgrant.skillfile.plugin import judge_plugin
from skillgrant.skillfile.removed import removed_tools

#: Each hole's test, and why it fails today.
HOLES: dict[str, str] = {}  # (H1-H11, C1: closed by s48-ffix)


def _hole(name: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=HOLES[name])


def _rows(hole: str, rows: dict[str, str]) -> list[object]:
    return [pytest.param(row, marks=[_hole(hole)] if hole in HOLES else [], id=row)
            for row in sorted(rows)]


ENFORCE = "/usr/bin/skillgrant hook --plan /p/plan.json"
SKILL_PATH = "/nonexistent/.claude/skills/probe/SKILL.md"
BUN = Path.home() / ".cache" / "skillgrant-runtime" / "bun-1.4.5" / "package" / "bin" / "bun"
needs_bun = pytest.mark.skipif(not BUN.exists(), reason="Bun 1.4.5 is not installed (tests/oracle)")


def _skill(value: str, extra: str = "") -> str:
    extra = f"{extra}\n" if extra else ""
    return f"---\nname: probe\ndescription: d\nallowed-tools: {value}\n{extra}---\nbody\n"


def _bun_parse(texts: list[str]) -> list[object]:
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>Bun.YAML.parse(s))))')
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    out: list[object] = json.loads(done.stdout)
    return out


def _enforced(extra: str) -> None:
    """``apply --enforce`` (plan ``Bash(echo *)``) of a skill with ``extra`` lines: it must
    refuse, since the runtime drops (or forks past) the hook it writes (ForkedSkillError:
    the skill reads as forked, ``context: fork``, and apply refuses it so; s48-ffix)."""
    with pytest.raises((SkillFileError, ValueError, ForkedSkillError)):
        apply_to_text(_skill("Bash(echo *)", extra), Plan.from_entries(["Bash(echo *)"]),
                      enforce=ENFORCE, path=SKILL_PATH)


# H1: R3's mechanism (PyYAML rejects, Bun reads as written, skillgrant reads the retry) with a
# tag. libyaml's tag scanner takes URI characters only and stops at any other ("did not find
# expected whitespace or line break (while scanning a tag)"); Bun 1.4.5 ends the tag there and
# reads the rest as the value (``x: !a,b`` is ``",b"``, ``x: !a^b`` ``"^b"``). The tag makes
# the runtime's retry re-quote the line, so the retry composes, and skillgrant reads
# ``y: {PreToolUse: y}`` (the runtime drops the skill's hooks) and ``context: &c fork`` (the
# skill runs forked, its own hook never sees the calls) as strings: ``apply --enforce`` writes
# its hook. Measured by a sweep of every ASCII character and some others after ``!a``: `,` `#`
# `<` `\` `^`, U+00A0, U+00E9, U+3000, U+FEFF (also after ``!!`` and after an anchor).
H1 = {
    "comma-mapping": "x: !a,b\ny: {PreToolUse: y}",
    "caret-fork": "x: !a^b\ncontext: &c fork",
    "hash-anchored-mapping": "argument-hint: !a#b\ny: &a {PreToolUse: y}",
    "backslash-permission-request": "x: !a\\b\nz: {PermissionRequest: y}",
    "less-than-after-anchor": "x: &z !a<b c\ny: {PreToolUse: y}",
    "secondary-hash": "x: !!#b\ny: {PreToolUse: y}",
    "non-ascii": "when_to_use: !aé now\ny: {PreToolUse: y}",
}


@pytest.mark.parametrize("row", _rows("h1", H1))
def test_h1_enforce_writes_a_hook_beside_a_tag_libyaml_stops_in(row: str) -> None:
    _enforced(H1[row])


@pytest.mark.parametrize("row", _rows("h1", {"command-file": "", "plugin-skill": ""}))
def test_h1_enforce_writes_a_hook_into_a_command_or_plugin_skill(row: str) -> None:
    """The same through a slash command file and a plugin's skill (``apply --enforce`` writes
    its hook into both)."""
    path = {"command-file": "/nonexistent/.claude/commands/probe.md",
            "plugin-skill": "/nonexistent/plug/skills/probe/SKILL.md"}[row]
    with pytest.raises((SkillFileError, ValueError)):
        apply_to_text(_skill("Bash(echo *)", H1["comma-mapping"]),
                      Plan.from_entries(["Bash(echo *)"]), enforce=ENFORCE, path=path)


@needs_bun
def test_h1_bun_reads_a_tag_libyaml_stops_in_as_written() -> None:
    assert _bun_parse([H1["comma-mapping"], H1["caret-fork"], H1["hash-anchored-mapping"],
                       H1["non-ascii"]]) == [
        {"x": ",b", "y": {"PreToolUse": "y"}}, {"x": "^b", "context": "fork"},
        {"argument-hint": None, "y": {"PreToolUse": "y"}},
        {"when_to_use": "é now", "y": {"PreToolUse": "y"}}]


# H2: s47-ffix's R7 fix (``_BUN_READS``' ``tab`` group, ``^[ \t]*\t[ \t]*(?:#|$)``) finds a
# tab-only line by ``$``, which Python's ``re`` matches before an LF only: a tab-only line that
# ends in CRLF (``\t\r\n``) is not found. PyYAML rejects the tab, Bun 1.4.5 reads a blank
# line; the runtime's retry turns the tab into spaces, so it composes, and skillgrant reads the
# retry, where the LF-ended lines it re-quotes are strings (``y: {PreToolUse: y}``,
# ``context: &c fork``). A CRLF file with one line ending in LF is enough (the runtime's _u
# re-quotes no CR-ended line).
H2 = {
    "mapping-after": "x: 1\n\t\r\ny: {PreToolUse: y}",
    "fork-before": "context: &c fork\n\t\r",
    "spaces-around": "context: &c fork\n\t \r",
}


@pytest.mark.parametrize("row", _rows("h2", H2))
def test_h2_enforce_writes_a_hook_beside_a_tab_only_line_ending_in_crlf(row: str) -> None:
    _enforced(H2[row])


def test_h2_enforce_refuses_a_crlf_file_with_a_tab_only_line() -> None:
    """The same in a CRLF file whose one re-quoted line ends in LF."""
    text = ("---\r\nname: probe\r\ndescription: d\r\nallowed-tools: Bash(echo *)\r\n\t\r\n"
            "context: &c fork\n---\r\nbody\r\n")
    with pytest.raises((SkillFileError, ValueError)):
        apply_to_text(text, Plan.from_entries(["Bash(echo *)"]), enforce=ENFORCE,
                      path=SKILL_PATH)


@needs_bun
def test_h2_bun_reads_a_tab_only_line_ending_in_crlf_as_blank() -> None:
    assert _bun_parse([H2["mapping-after"], H2["fork-before"]]) == [
        {"x": 1, "y": {"PreToolUse": "y"}}, {"context": "fork"}]


# H3: R3's mechanism with a block scalar's header: Bun 1.4.5 takes blanks between ``|``/``>``
# and its indentation or chomping indicator (``x: | -`` is ``""``), libyaml stops ("expected
# a comment or a line break"). The ``|`` makes the runtime's retry re-quote the line, so the
# retry composes and skillgrant reads it: ``y: {PreToolUse: y}`` and ``context: &c fork`` are
# strings there. Measured on ``|``, ``>``, ``|-``, ``>+``, ``|2`` with a space, two or a tab
# before ``-``, ``+``, ``2``, ``-2``, ``2-``, ``+1`` (all read by Bun, all retried here).
H3 = {
    "literal-strip-mapping": "x: | -\ny: {PreToolUse: y}",
    "folded-indent-fork": "x: > 2\ncontext: &c fork",
    "tab-keep": "argument-hint: |2\t+\ny: {PreToolUse: y}",
    "comment-after": "x: >  - #c\nz: {PermissionRequest: y}",
}


@pytest.mark.parametrize("row", _rows("h3", H3))
def test_h3_enforce_writes_a_hook_beside_a_block_header_with_a_blank(row: str) -> None:
    _enforced(H3[row])


@needs_bun
def test_h3_bun_reads_a_block_header_with_a_blank() -> None:
    assert _bun_parse([H3["literal-strip-mapping"], H3["folded-indent-fork"],
                       H3["tab-keep"]]) == [
        {"x": "", "y": {"PreToolUse": "y"}}, {"x": "", "context": "fork"},
        {"argument-hint": "", "y": {"PreToolUse": "y"}}]


# H4: s43-freview F4's complex keys (``? |#``, ``? >#``, ``? ''#c``: Bun rejects the line,
# libyaml reads it) are refused where a ``?`` is first on a line after an LF; after a lone CR
# (a YAML line break for both parsers) the ``?`` is not found. libyaml reads the text (a key
# '' or None), Bun 1.4.5 rejects it and the runtime's retry (which keeps the CR line), so the
# runtime's frontmatter is ``{}``: no ``allowed-tools`` (check reports entries the runtime
# never grants) and no ``hooks`` (apply --enforce writes a hook that never loads; measured:
# bun_reader reads the written file "failed").
H4 = {
    "literal-glued-comment": "x: 1\r? |#",
    "quoted-glued-comment": "a: b\r? ''#c",
    "folded-with-value": "argument-hint: h\r? >#: x",
    "two-crs": "x: 1\r\r? >#\r\n: y",
}


@pytest.mark.parametrize("row", _rows("h4", H4))
def test_h4_enforce_writes_a_hook_beside_a_complex_key_after_a_cr(row: str) -> None:
    _enforced(H4[row])


@pytest.mark.parametrize("row", _rows("h4", H4))
def test_h4_check_reports_entries_beside_a_complex_key_after_a_cr(row: str) -> None:
    try:
        doc = read_skill(_skill("Bash(echo *)", H4[row]))
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == ()


@needs_bun
def test_h4_bun_rejects_a_complex_key_after_a_cr() -> None:
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>{try{Bun.YAML.parse(s);return true}'
              'catch{return false}})))')
    texts = [H4[row] for row in sorted(H4)]
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [False] * len(texts)


# H5: the other way round: a text libyaml reads and Bun 1.4.5 reads as written, which
# skillgrant predicts Bun rejects. ``_misplaced_line`` takes a tab first on a flow
# collection's continuation line for Bun's rejection, unless the line is blank or a comment;
# Bun also reads a tab before the closing bracket (``[a,`` ⏎ ``\t]``). libyaml reads it after a
# CR, a CRLF, or where the collection starts on its own line (``x:`` ⏎ ``  [a,`` ⏎ ``\t]``), so
# skillgrant reads the runtime's retry, where ``y: {PreToolUse: y}`` and ``context: &c fork``
# are strings.
H5 = {
    "cr": "x: [a,\r\t]\ny: {PreToolUse: y}",
    "crlf": "x: [a,\r\n\t]\ncontext: &c fork",
    "own-line": "x:\n  [a,\n\t]\ny: {PreToolUse: y}",
    "mapping-own-line": "x:\n  {a: b,\n\t}\ncontext: &c fork",
    "nested": "x:\n  k: [a,\n\t\t]\nz: {PermissionRequest: y}",
    "quoted-key": '"x": [a,\n\t]\ny: {PreToolUse: y}',
    "comma-own-line": "x:\n  ['q'\n\t,b]\ny: {PreToolUse: y}",
    "comma-after-comment": "x:\n  ['q'\n\t# c\n\t,[x]]\ncontext: &c fork",
}


@pytest.mark.parametrize("row", _rows("h5", H5))
def test_h5_enforce_writes_a_hook_beside_a_tab_before_a_closing_bracket(row: str) -> None:
    _enforced(H5[row])


@pytest.mark.parametrize("row", _rows("h5", {"list-comment-after": "", "two-items": ""}))
# (and spaces before the tab: ``x:`` ⏎ ``  y:  {`` ⏎ ``  \t}`` is "nothing" to skillgrant,
# SG009 "grants nothing", where Bun reads the text as written: test_h5_check_says_*)
def test_h5_check_reports_the_entries_the_runtime_reads(row: str) -> None:
    """(low) allowed-tools beside H5's text: Bun reads the flow list as written (``Bash``,
    every command), skillgrant the retry's string (``[Bash]``, ``#c``: nothing it knows); apply
    rewrites it soundly, but check reports entries the runtime does not read."""
    value, entries = {"list-comment-after": ("[Bash] #c", ("Bash",)),
                      "two-items": ("[Read, Bash] #c", ("Read", "Bash"))}[row]
    try:
        doc = read_skill(f"---\nname: p\ndescription: d\nallowed-tools: {value}\n"
                         f"{H5['cr'].split(chr(10))[0]}\n---\nb\n")
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == entries


@pytest.mark.parametrize("row", _rows("h5", {"spaces-then-tab": "", "comment-line": ""}))
def test_h5_check_says_the_entries_the_runtime_reads(row: str) -> None:
    """(low) a tab after spaces before the bracket, in a nested value: skillgrant predicts Bun
    rejects the text and its retry ("nothing": SG009 says the value grants nothing); Bun reads
    it as written and grants ``Bash(touch *)``."""
    lines = {"spaces-then-tab": "x:\n  y:  {\n  \t}",
             "comment-line": "x:\n  y:  {\n\t# c\n  \t}"}[row]
    try:
        doc = read_skill(f"---\nname: p\ndescription: d\n{lines}\n"
                         "allowed-tools: Bash(touch *)\n---\nb\n")
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == ("Bash(touch *)",)


@needs_bun
def test_h5_bun_reads_a_tab_before_a_closing_bracket() -> None:
    assert _bun_parse([H5["cr"], H5["crlf"], H5["own-line"], H5["mapping-own-line"]]) == [
        {"x": ["a"], "y": {"PreToolUse": "y"}}, {"x": ["a"], "context": "fork"},
        {"x": ["a"], "y": {"PreToolUse": "y"}}, {"x": {"a": "b"}, "context": "fork"}]


# H6: s43-freview's rule "a comment glued to a block scalar's indicator" (``|#``: libyaml reads
# it, Bun rejects) reads the header on the line where the node starts; a node's properties on
# their own line (``x: &a`` ⏎ ``  |#``, s47-ffix's F2 placement) move the indicator to the
# next line, and the glued comment is not seen. Bun 1.4.5 rejects the text, and its retry (the
# ``&a`` line re-quoted, the ``|#`` line under it); the runtime's frontmatter is ``{}``: check
# reports entries the runtime never grants, and ``apply --enforce`` writes a hook that never
# loads (bun_reader reads the written file "failed").
H6 = {
    "anchor": "x: &a\n  |#",
    "tag-folded-text": "argument-hint: !!str\n  >#\n  h",
    "properties-own-line": "x:\n  &a\n  |#",
    "comment-line-between": "x: &a\n  # c\n !!str |#",
    "cr": "x: &a\r  |#",
}


@pytest.mark.parametrize("row", _rows("h6", H6))
def test_h6_enforce_writes_a_hook_beside_a_glued_comment_after_properties(row: str) -> None:
    _enforced(H6[row])


@pytest.mark.parametrize("row", _rows("h6", H6))
def test_h6_check_reports_entries_beside_a_glued_comment_after_properties(row: str) -> None:
    try:
        doc = read_skill(_skill("Bash(echo *)", H6[row]))
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == ()


# H7: the tab rule of ``_misplaced_line`` (a tab first on a continuation line: Bun rejects,
# but a blank or comment line) takes the line to the next LF; a lone CR ends it for Bun.
# ``x: 'a`` ⏎ ``\t`` CR ``  b'`` holds a tab-only line, which Bun 1.4.5 reads as blank (``a\nb``,
# as written); skillgrant predicts a rejection and reads the retry, where ``y`` and
# ``context`` are strings.
H7 = {
    "single-quoted": "x: 'a\n\t\r  b'\ny: {PreToolUse: y}",
    "cr-only": "x: 'a\r\t\r  b'\ncontext: &c fork",
    "double-quoted": 'x: "a\n\t\r  b"\ny: {PreToolUse: y}',
    "seen-in-the-generator": "x:\t'\\t\r    \r\n\t\t\r  '\t#c\ny: {PreToolUse: y}",
}


@pytest.mark.parametrize("row", _rows("h7", H7))
def test_h7_enforce_writes_a_hook_beside_a_tab_only_line_ended_by_a_cr(row: str) -> None:
    _enforced(H7[row])


@needs_bun
def test_h6_h7_bun_readings() -> None:
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>{try{return Bun.YAML.parse(s)}'
              'catch{return null}})))')
    texts = [H6["anchor"], H6["tag-folded-text"], H7["single-quoted"], H7["cr-only"]]
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [None, None, {"x": "a\nb", "y": {"PreToolUse": "y"}},
                                       {"x": "a\nb", "context": "fork"}]


# H8: a ``,`` first on a continuation line of a flow collection, at column 0 of a top-level
# value, is excused by ``_misplaced_line`` (with ``]``, ``}`` and ``#``); Bun 1.4.5 reads one
# after a plain or quoted item (``[a`` ⏎ ``,b]``) but rejects one after a nested collection
# (``[[x]`` ⏎ ``,b]``, ``[{k: v}`` ⏎ ``,b]``), and the runtime's retry too (the frontmatter is
# ``{}``): check reports entries the runtime never grants, ``apply --enforce`` writes a hook that
# never loads (bun_reader on the written file: "failed").
H8 = {
    "nested-list": "x: [[x]\n,b]",
    "nested-mapping": "x: [{k: v}\n,b]",
    "comment-line-between": "x: [[x]\n# c\n,b]",
    "blank-after-bracket": "x: [[x] \n,b]",
    "crlf": "x: [[x]\r\n,b]",
}


@pytest.mark.parametrize("row", _rows("h8", H8))
def test_h8_enforce_writes_a_hook_beside_a_comma_line_after_a_nested_collection(
        row: str) -> None:
    _enforced(H8[row])


@pytest.mark.parametrize("row", _rows("h8", H8))
def test_h8_check_reports_entries_beside_a_comma_line_after_a_nested_collection(
        row: str) -> None:
    try:
        doc = read_skill(_skill("Bash(echo *)", H8[row]))
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == ()


@needs_bun
def test_h8_bun_rejects_a_comma_line_after_a_nested_collection() -> None:
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>{try{return Bun.YAML.parse(s)}'
              'catch{return null}})))')
    texts = [H8["nested-list"], H8["nested-mapping"], "x: [a\n,b]", "x: [[x]\n ,b]"]
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [None, None, {"x": ["a", "b"]}, {"x": [["x"], "b"]}]


# H9 (low: reported, the verdict stands): a block scalar whose header ends at a lone CR
# (``x: >`` CR ``  a`` ⏎ ``    `` ⏎ ``  b``). ``wide_blank_line`` starts after the next LF, so it
# skips the first line ``  a`` and takes the 4-space blank line for a leading one wider than
# the first text line: Bun's rejection is predicted, and with a line the retry re-quotes, that
# Bun reads nothing ("nothing": SG009 says the value grants nothing). Bun 1.4.5 reads the
# text as written, ``allowed-tools`` included (bun_reader: direct, ``Bash(touch *)``).
H9 = {
    "folded": ("x: >\r  a\n    \n  b\nallowed-tools: Bash(touch *)", ("Bash(touch *)",)),
    "literal": ("x: |\r  a\n   \n  b\nallowed-tools: Bash(touch *)", ("Bash(touch *)",)),
}


@pytest.mark.parametrize("row", _rows("h9", {row: "" for row in H9}))
def test_h9_check_reports_the_entries_beside_a_block_header_ended_by_a_cr(row: str) -> None:
    text, entries = H9[row]
    try:
        doc = read_skill(f"---\nname: p\ndescription: d\n{text}\n---\nb\n")
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == entries


# H10: s43-freview F11's cut anchor (``&a:``: libyaml ends the name at ``:``, Bun 1.4.5 reads
# ``a:`` as the name) is refused where it starts a node after an LF, a ``: `` or a flow
# indicator; after a lone CR (a YAML line break) it is not found. A mapping key so written
# (``x: 1`` CR ``&a: b``) makes Bun reject the text and its retry (the frontmatter is
# ``{}``: ``apply --enforce`` writes a hook that never loads); a list item (``x:`` CR ``- &a:
# b``) is ``["b"]`` to Bun and ``[{None: "b"}]`` to skillgrant, so ``disallowed-tools`` so
# written is shown removing nothing (Bun's ``removed``: ``Read``).
H10 = {
    "mapping-key": "x: 1\r&a: b",
    "mapping-key-block": "x: 1\r&a:\n  z: w",
}


@pytest.mark.parametrize("row", _rows("h10", H10))
def test_h10_enforce_writes_a_hook_beside_a_cut_anchor_after_a_cr(row: str) -> None:
    _enforced(H10[row])


@pytest.mark.parametrize("row", _rows("h10", {"item": "", "second-item": ""}))
def test_h10_disallowed_tools_after_a_cr_shown_as_the_runtime_reads_them(row: str) -> None:
    value = {"item": "\r- &a: Read", "second-item": "\r- Write\r- &a: Read"}[row]
    try:
        found = removed_tools(f"---\nname: p\ndescription: d\ndisallowed-tools:{value}\n"
                              "---\nb\n")
    except SkillFileError:
        return
    assert found is None or "Read" in found.entries


@needs_bun
def test_h10_bun_reads_a_cut_anchor_after_a_cr() -> None:
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>{try{return Bun.YAML.parse(s)}'
              'catch{return null}})))')
    texts = [H10["mapping-key"], "x:\r- &a: b", "disallowed-tools:\r- Write\r- &a: Read"]
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [None, {"x": ["b"]},
                                       {"disallowed-tools": ["Write", "Read"]}]


# H11: s47-ffix's F2 rule (a node's content on the line after its properties must be indented
# past its block: ``_value_under_its_key``) is asked of a block mapping's values only. A list
# item written so (``- &a`` ⏎ ``|``, the ``|`` at the dash's column) is read by libyaml; Bun
# 1.4.5 rejects the text, and its retry (the ``- &a`` line is no ``key: value`` line): the
# frontmatter is ``{}``, ``apply --enforce`` writes a hook that never loads and check reports
# entries the runtime never grants. Found by a nested block generator (90,000 texts: one
# unknown misprediction, this one).
H11 = {
    "literal-keep": "x:\n  - &a\n  |+",
    "column-zero": "x:\n- &a\n|",
    "tag-folded-text": "x:\n  - !!str\n  >\n   t",
}


@pytest.mark.parametrize("row", _rows("h11", H11))
def test_h11_enforce_writes_a_hook_beside_a_list_item_under_its_properties(row: str) -> None:
    _enforced(H11[row])


@pytest.mark.parametrize("row", _rows("h11", H11))
def test_h11_check_reports_entries_beside_a_list_item_under_its_properties(row: str) -> None:
    try:
        doc = read_skill(_skill("Bash(echo *)", H11[row]))
    except SkillFileError:
        return  # refused: sound
    assert doc.runtime_entries == ()


@needs_bun
def test_h11_bun_rejects_a_list_item_under_its_properties() -> None:
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>{try{return Bun.YAML.parse(s)}'
              'catch{return null}})))')
    texts = [H11[row] for row in sorted(H11)] + ["x:\n  - &a\n    |\n     t"]
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [None, None, None, {"x": ["t\n"]}]


# C1 (Copilot CLI): s47-pfix's P4 fix refuses a plugin's agent file that may declare
# ``mcp-servers`` (its text holds ``mcp`` or a backslash). Copilot CLI 1.0.102's custom agent
# reader also takes a ``hooks`` frontmatter (``customAgentsParseMarkdown``: ``hooksJson``,
# events ``sessionStart``, ``userPromptSubmitted``, ``preToolUse``, ``agentStop``, ...; Claude
# Code's names too: ``Stop`` is ``agentStop``), and runs its commands when a task runs the
# agent: measured through a session (tests/conformance/test_copilot_s48_freview.py: the
# ``userPromptSubmitted`` and ``agentStop`` hooks ran ``touch``, no question asked, and
# ``check --plan Read .`` passed).
_AGENT_HOOKS = ("---\nname: ev\ndescription: probe agent\nhooks:\n  userPromptSubmitted:\n"
                "    - type: command\n      bash: touch ran\n---\nDo it.\n")
C1 = {
    "plugin-manifest": ".plugin/plugin.json",
    "github-manifest": ".github/plugin/plugin.json",
    "root-manifest": "plugin.json",
    "claude-manifest": ".claude-plugin/plugin.json",
}


@pytest.mark.parametrize("row", _rows("c1", C1))
def test_c1_check_refuses_a_plugin_whose_agent_declares_hooks(tmp_path: Path, row: str) -> None:
    plugin = tmp_path / "cplug"
    for rel, data in ((C1[row], '{"name": "cplug"}'), ("agents/ev.agent.md", _AGENT_HOOKS),
                      ("skills/probe/SKILL.md", _skill("Read"))):
        (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
        (plugin / rel).write_text(data)
    with pytest.raises(SkillFileError):
        judge_plugin(str(plugin / "skills" / "probe" / "SKILL.md"))


def test_c1_check_refuses_a_plugin_whose_listed_agent_declares_hooks(tmp_path: Path) -> None:
    """The same agent named by the manifest's ``agents`` key (``./team/ev.agent.md``)."""
    plugin = tmp_path / "cplug"
    manifest = '{"name": "cplug", "agents": ["./team/ev.agent.md"]}'
    for rel, data in ((".plugin/plugin.json", manifest), ("team/ev.agent.md", _AGENT_HOOKS),
                      ("skills/probe/SKILL.md", _skill("Read"))):
        (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
        (plugin / rel).write_text(data)
    with pytest.raises(SkillFileError):
        judge_plugin(str(plugin / "skills" / "probe" / "SKILL.md"))


_ADDON = (Path.home() / ".cache" / "skillgrant-runtime" / "copilot-1.0.102" / "pkg-cache"
          / "pkg" / "linux-x64" / "1.0.102" / "prebuilds" / "linux-x64" / "runtime.node")


@pytest.mark.skipif(shutil.which("node") is None or not _ADDON.is_file(),
                    reason="Copilot CLI 1.0.102's runtime.node is not installed")
def test_c1_copilot_reads_an_agents_hooks() -> None:
    script = ("const S=require(process.argv[1]);const t=require('fs').readFileSync(0,'utf8');"
              "const r=S.customAgentsParseMarkdown(t);"
              "process.stdout.write(JSON.stringify([r.kind,JSON.parse(r.agent.hooksJson)]))")
    done = subprocess.run(["node", "-e", script, str(_ADDON)], input=_AGENT_HOOKS,
                          capture_output=True, text=True, timeout=120, check=True)
    kind, hooks = json.loads(done.stdout)
    assert kind == "success" and hooks["userPromptSubmitted"][0]["bash"] == "touch ran"
