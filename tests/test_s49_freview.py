"""Review s49-freview of the SKILL.md reader (session 48's code first: the re-quoted-line rule,
flowreject, flowlenient, yamlapart's lone-dash bound, pluginparts' agent rule, ``--jobs``):
files ``check`` passes or ``apply`` keeps (or writes, under ``--enforce``) that a runtime reads
with more grants than the plan, and readers that take so long on a file that a hook's timeout
lets the call run. Each hole's test is listed in ``OPEN``: it fails today and is a strict
xfail, so a fix shows as an unexpected pass (then drop its row).

The runtimes' readings written here were measured with Bun 1.4.5's ``Bun.YAML.parse`` (the
runtime's own steps, tests/oracle/bun_reader.js) and Copilot CLI 1.0.102's runtime.node.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from reader_review import bun_parse, needs_bun
from review_table import LeftOpen

#: Each hole's test (or case), and why it fails today (tests/conftest.py reads ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

# B1 (every reader: check, apply, the gate's hook): yamlapart's ``_found`` searches each rule's
# "needs" first, to skip the rule's own pattern at C speed, over the whole frontmatter text.
# Two needs are themselves quadratic on a run of one character:
# - ``_CUT_TAG_NEEDS`` ``![^\s,\[\]{}]*[,\[\]{}]``: at each '!' of a run of '!' (no blank,
#   no flow indicator after it) ``[^\s,...]*`` runs to the run's end, then fails: n^2/2 steps.
#   Measured (read_skill, one core): 20,000 '!' 2.2 s, 40,000 8.6 s, 80,000 34 s; the gate's
#   Skill call (``check_call``, which reads the file twice) 40,000 '!' 20.8 s.
# - ``_LONE_DASH_NEEDS`` ``-(?>(?:\s|(?<=\s)#[^\r\n]*+)*)[\]},]``: at each '-' of a line of
#   ``- #`` runs the comment takes the rest of the line, then fails (s48-ffix's OPEN said the
#   lone-dash *pattern* was quadratic there and bounded it to 16,384 characters; its need is
#   searched unbounded first): 80,000 characters 4.1 s, a 1 MB file ~11 minutes.
# The run may stand anywhere in the frontmatter (a comment, a quoted or block scalar, a
# description); a skill file of up to 1,048,576 bytes is read. check and apply hang; the gate's
# answer to a Skill call with args (which reads the file) takes past the hook's 30 s. Where
# that was measured it fails closed: Claude Code 2.1.332 denies the call of a hook with
# ``onFailure: block`` that times out (the printed hooks have it). Copilot CLI 1.0.102 runs
# the call of a timed-out hook, but its ``skill`` call carries no args, and the gate reads
# the file only for args: no bypass is shown here.
_BANGS = "!" * 60_000
_DASH_COMMENTS = "- #" * 50_000
B1 = {
    "bangs-in-a-comment": f"---\nname: p\ndescription: d\nx: a # {_BANGS}\n---\n",
    "bangs-in-a-quoted-description": f"---\nname: p\ndescription: 'a {_BANGS}'\n---\n",
    "bangs-in-a-block-scalar": f"---\nname: p\ndescription: |\n  {_BANGS}\n---\n",
    "dash-comments-in-a-comment": f"---\nname: p\ndescription: d\nx: a # {_DASH_COMMENTS}\n---\n",
}
# (B1: closed by s49-ffix, skillfile.propwalk: linear walks, linear needs)


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B1))
def test_b1_a_run_of_one_character_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B1[row])


def _read_in_time(tmp_path: Path, row: str, text: str) -> None:
    """read_skill of ``text`` (a file's) in a process of its own, within 6 s."""
    (tmp_path / "SKILL.md").write_bytes(text.encode())
    try:
        subprocess.run([sys.executable, "-c", "import sys\n"
                        "from skillgrant.errors import SkillFileError\n"
                        "from skillgrant.skillfile import read_skill\n"
                        "try:\n    read_skill(open(sys.argv[1], newline='').read())\n"
                        "except SkillFileError:\n    pass",
                        str(tmp_path / "SKILL.md")], check=True, timeout=6,
                       capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{row}: not read within 6 s")


# B2 (the same readers): yamlapart's rule patterns themselves, once their need matched, walk a
# run from every start the run holds: ``_CUT_TAG``'s ``(?:&[^\s]*[ \t\r]+)*`` over a line of
# ``, &a`` (each ',' a start; a ``x!a,`` after it matches the need, not the rule), and
# ``_CUT_ANCHOR``'s ``(?:![^\s]*[ \t\r]+)*`` over a line of ``: !`` (each ':' a start; a
# ``x&a:`` after it matches the need). Measured (read_skill): 32,000 characters 2.0 s / 1.7 s,
# quadratic (16,000: 0.55 / 0.43 s); both files are read (not refused).
B2 = {
    "anchors-then-a-tag": "---\nname: p\ndescription: d\ny: c # " + ", &a" * 25_000
                          + " x!a,\n---\n",
    "tags-then-an-anchor": "---\nname: p\ndescription: d\ny: c # " + ": !" * 33_000
                           + " x&a:\n---\n",
}
# (B2: closed by s49-ffix, skillfile.propwalk: each run walked once)


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B2))
def test_b2_a_run_of_node_properties_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B2[row])

# B3 (the same readers; a regression of s48-ffix e1618b3, review s48-freview H4/H10's fix):
# ``_CUT_ANCHOR`` and ``_CUT_TAG`` start a node at ``(?:^|[\n\r])[ \t\r]*``: every lone CR of
# a run of them is a start, and ``[ \t\r]*`` walks the rest of the run from each (before
# e1618b3, ``(?:^|\n)``, an LF alone started one: 16,000 CRs 0.00 s; now 7.1 s). A run of CRs
# is a run of blank lines to both parsers; a ``x&a:`` or ``x!a,`` in a comment after it
# satisfies the rule's need. Measured (read_skill): 8,000 CRs 1.65 s, 16,000 6.6 s, 32,000
# 26.5 s (a ' ' before each CR: 64,000 characters 49 s); the file is read, not refused.
B3 = {
    "crs-then-an-anchor": "---\nname: p\ndescription: d\ny: c" + "\r" * 40_000
                          + "z: d # x&a:\n---\n",
    "crs-then-a-tag": "---\nname: p\ndescription: d\ny: c" + "\r" * 40_000
                      + "z: d # x!a,\n---\n",
    "blank-crs-then-a-tag": "---\nname: p\ndescription: d\ny: c" + " \r" * 40_000
                            + "z: d # x!a,\n---\n",
}
# (B3: closed by s49-ffix, skillfile.propwalk: a run of blanks with CRs is one start's)


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B3))
def test_b3_a_run_of_carriage_returns_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B3[row])

# B4 (the same readers): runtime._BUN_READS' ``tab`` group, ``^[ \t]*\t[ \t]*(?:#|\r?$)``
# (s47-ffix R7, s48-ffix H2), backtracks over a line of blanks holding tabs: the first
# ``[ \t]*`` gives back one character at a time, and at each tab the second runs to the line's
# end and fails. It is searched (``leftmost``) wherever PyYAML rejects the text, which a tab
# where the indentation is makes it do. Measured (read_skill): a line of 5,000 tabs then ``x``
# 0.27 s, 10,000 1.07 s, 20,000 4.21 s; ``\t `` x 20,000 then ``x`` 8.4 s (read, not refused).
B4 = {
    "a-line-of-tabs": "---\nname: p\ndescription: d\ny: c\n" + "\t" * 60_000 + "x\n---\n",
    "a-line-of-tabs-and-blanks": "---\nname: p\ndescription: d\ny: c\n" + "\t " * 40_000
                                 + "x\n---\n",
}
# (B4: closed by s49-ffix, runtime._BUN_READS' tab group takes the blanks whole)


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B4))
def test_b4_a_line_of_tabs_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B4[row])

# B5 (the same readers): runtime._BUN_READS' ``comma`` group, ``:[ \t]+(?:[&!]\S*[ \t]+)*,``
# (a plain value starting with ',', behind properties: s47-freview2), walks a run of ``: !``
# (or ``: &``) from each ':' of it: ``\S*`` takes the next ':' into the property, so every
# start reads on to the run's end. Searched wherever PyYAML rejects the text (here ``y: c: d``).
# Measured (read_skill): 18,000 characters 1.17 s, 36,000 4.7 s, 72,000 19.0 s; read.
B5 = {
    "in-a-comment": "---\nname: p\ndescription: d\ny: c: d\n# " + ": !" * 40_000
                    + "\n---\n",
    "in-a-quoted-value": "---\nname: p\ndescription: d\ny: c: d\nz: 'q # " + ": &" * 40_000
                         + "'\n---\n",
}
# (B5: closed by s49-ffix, the comma group's properties do not end with ':')


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B5))
def test_b5_a_run_of_colons_and_properties_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B5[row])

# B6 (the same readers; flowreject._glued_comment, s44-freview's glued-comment rule, moved
# into flowreject.py by s48-ffix): for each ``[#``/``,#``/``{#`` in a flow collection's span it
# asks ``any(start <= at < end)`` over every quoted item of the collection: a list of n quoted
# items each holding ``,#`` is n^2/2 tests. Measured (read_skill): 2,000 items 0.12 s, 4,000
# 0.47 s, 8,000 (56 KB) 1.88 s; a flow mapping of quoted values alike; the file is read.
B6 = {
    "a-list-of-quoted-items": "---\nname: p\ndescription: d\nx: ["
                              + ", ".join(["'a,#'"] * 40_000) + "]\n---\n",
    "a-mapping-of-quoted-values": "---\nname: p\ndescription: d\nx: {"
                                  + ", ".join(f'k{i}: "[#"' for i in range(30_000)) + "}\n---\n",
}
# (B6: closed by s49-ffix, quoted items found by their starts, bisected)


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B6))
def test_b6_a_flow_collection_of_quoted_items_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B6[row])

# B7 (the same readers; flowreject._after_a_collection, s48-ffix's H8/M1/N1/Q1 rule): each line
# of a flow collection that starts with ',' builds the list of every child of the collection
# (and filters it by offset) to find the item before the ','; n such lines cost n^2. Measured
# (read_skill): ``x: [a`` then 2,000 lines ``, b`` 0.48 s, 4,000 1.97 s, 8,000 (32 KB) 8.55 s;
# a flow mapping's ``, kN: v`` lines 8,000 11.6 s; read, not refused.
B7 = {
    "a-list-of-comma-lines": "---\nname: p\ndescription: d\nx: [a" + "\n, b" * 30_000
                             + "]\n---\n",
    "a-mapping-of-comma-lines": "---\nname: p\ndescription: d\nx: {a: 1"
                                + "".join(f"\n, k{i}: v" for i in range(20_000)) + "}\n---\n",
}
# (B7: closed by s49-ffix, each collection's items listed once, bisected)


@pytest.mark.slow  # (each open row burns 6 s of CPU; runs with --slow)
@pytest.mark.parametrize("row", sorted(B7))
def test_b7_a_flow_collection_of_comma_lines_is_read_in_time(tmp_path: Path, row: str) -> None:
    _read_in_time(tmp_path, row, B7[row])

_GATE = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from reader_review import skill_call
got = skill_call(Path(sys.argv[1]), open(sys.argv[1] + "/text.md").read(), "hi; touch zz")
assert got.status != "covered", got
"""
# (B1: closed by s49-ffix)


@pytest.mark.slow
def test_b1_the_gates_skill_call_answers_in_time(tmp_path: Path) -> None:
    """The gate's answer to ``Skill(other, args="hi; touch zz")`` (``check_call``, as the hook
    asks it; the body's ``!`echo $ARGUMENTS``` fills ``echo hi; touch zz``, outside the plan
    ``Bash(echo *)``: s46-freview2 G3's case) whose file has 60,000 '!' in a comment: not
    allowed, within the hook's 30 s (measured: 20.8 s at 40,000 '!', 171 s at 60,000 at load
    ~15; the verdict itself is right)."""
    (tmp_path / "text.md").write_text(
        f"---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\nx: a # {_BANGS}\n"
        "---\nResult: !`echo $ARGUMENTS`\n")
    try:
        subprocess.run([sys.executable, "-c", _GATE, str(tmp_path),
                        str(Path(__file__).resolve().parent)], check=True, timeout=30,
                       capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail("the gate did not answer within the hook's 30 s")


# D1 (low: shown wrongly, SG011 / `disallowed_tools`): keyread.bun_string models Bun's reading
# of a quoted scalar over CRLF lines as "PyYAML's reading with the first break of each run
# doubled" (measured on 2,156 scalars). A run that mixes an LF and a CRLF (``\n\r\n``,
# ``\n  \r\n``: a blank line ended by CRLF after an LF-ended line) is one break fewer to Bun:
# ``'Write\n\r\n  Read'`` is ``Write\nRead`` to Bun 1.4.5, ``Write\n\nRead`` to skillgrant.
# A random differential of quoted scalars mixing LF/CRLF/CR/blanks: 1,940 of 9,288 strings
# apart, each in the number of line breaks inside one entry only (none in how the entries
# split at ' ' or ','), so no tool is shown removed that the runtime keeps, or kept that it
# removes.
D1 = {
    "lf-then-crlf": "'Write\n\r\n  Read'",
    "lf-blank-crlf": "\"Write\n \r\n    Read\"",
    "lf-blanks-crlf-beside-allowed": "'Write\n  \r\n  Read'\nallowed-tools: Read",
}
# (D1: closed by s49-ffix, a run's first break doubled only where it is a CRLF)


@pytest.mark.parametrize("row", sorted(D1))
def test_d1_disallowed_tools_are_shown_as_the_runtime_reads_them(row: str) -> None:
    from skillgrant.skillfile import read_skill
    from skillgrant.skillfile.removed import removed_tools

    text = f"---\nname: probe\ndescription: d\ndisallowed-tools: {D1[row]}\n---\nbody\n"
    read_skill(text)  # (the file is read)
    shown = removed_tools(text)
    assert shown is not None and shown.entries == ("Write\nRead",)


@needs_bun
def test_d1_bun_reads_one_break() -> None:
    assert bun_parse([f"k: {value}\n" for value in D1.values()]) == [
        {"k": "Write\nRead"}, {"k": "Write\nRead"}, {"k": "Write\nRead", "allowed-tools": "Read"}]
