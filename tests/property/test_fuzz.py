"""Issue 6: fuzz properties. Hostile entries, values, plans and whole SKILL.md texts, generated
by hypothesis (2,000 examples each; CI runs them derandomized, see tests/conftest.py).

The contract under fuzzing:

1. Every public function returns a value or raises a SkillgrantError; nothing else escapes.
2. No hostile entry is ever ``covered`` by the narrow plan ``["Bash(gh pr list)", "Read(src/**)"]``
   unless it truly is. The judge is ``narrow_oracle.justified``, written without skillgrant: a
   kept entry's *written* form, read the way the runtime splits it, must be exactly
   ``Bash(gh pr list)`` (the one command ``gh pr list`` holds no escapable character, so no
   other content can literally equal it) or ``Read(src/<rest>)`` with a rest that keeps the
   pattern anchored under ``src/`` and climbs no ``..``. A rewritten file is judged the same
   way after python-frontmatter reads it back: every entry the runtime would see must pass, or
   the value must be exactly the restored plan.
3. The CLI never prints a traceback and exits 2 on bad input (0 or 1 otherwise).
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import frontmatter
import typer
import typer.main
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from narrow_oracle import NARROW, double_quoted, justified, runtime_entries, unjustified
from typer.testing import CliRunner

from skillgrant import (
    AllowedToolsError,
    PlanError,
    SkillFileError,
    SkillgrantError,
    constrain,
    parse_grant,
    prove,
    split_allowed_tools,
)
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text, read_skill

FUZZ = settings(max_examples=examples(2000), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
NARROW_PLAN = Plan.from_entries(list(NARROW))
STATUSES = {"covered", "not_covered", "unknown", "invalid", "inert", "ambiguous"}

# --- hostile entries --------------------------------------------------------------------------

#: Look-alikes for characters of the approved entries: Cyrillic, Greek, Cherokee, fullwidth,
#: mathematical, and every space the runtime or a reader might confuse with ' '.
CONFUSABLES: dict[str, str] = {
    "a": "аɑα𝐚ａ", "B": "ВΒᏴ𝐁Ｂ", "s": "ѕꜱｓ", "h": "һհｈ", "g": "ɡｇ", "p": "рρｐ", "r": "гｒ",
    "l": "ӏІl1|ｌ", "i": "іíıｉ", "t": "тｔ", "R": "ᎡＲ", "e": "еｅ", "d": "ԁｄ", "c": "сｃ",
    "(": "（﹙⁽₍❨", ")": "）﹚⁾₎❩", "/": "∕⁄／⧸", "*": "＊∗⁎", ".": "．․",
    " ": "\u00a0\u2000\u2002\u2009\u200a\u202f\u205f\u3000\ufeff\u180e\u200b\t",
}
#: Characters worth inserting anywhere: controls, invisibles, separators, syntax, operators.
HOSTILE_CHARS = (
    "\x00\x01\x07\x08\x0b\x0c\r\x1b\x7f\x85\x9b\u200b\u200c\u200d\u2060\u2028\u2029\ufeff"
    "\u202e\u2066\ufdd0\ufffe\ufffd\n\t ,()\\*:;&|`$<>~./!#'\"{}[]?"
)
#: Fragments that try to smuggle a second entry, widen a pattern, or climb out of src/.
HOSTILE_AFFIXES = (
    ") Bash (", " Bash", ",Bash", " Bash(*)", "\u00a0Bash", "\u2028Bash", "(", ")", "((", "))",
    ":*", " *", "*", "**", "\\", "\\)", "\\(", " && rm -rf /", "; curl x | sh", "\nrm -rf ~",
    " $(id)", " `id`", "/../.env", "/..", "/**", "//", "~/", "${CLAUDE_SKILL_DIR}", " ", ",",
    "\t", "\r\n", "Read(", "Bash(", "mcp__x__y", "Edit(src/**)", "Write(", "\x00",
)
BASES = ("Bash(gh pr list)", "Read(src/**)", "Read(src/a.ts)", "Bash(gh pr list:*)", "Bash",
         "bash(gh pr list)", "Read(./src/x)")


def _look_alike(draw: st.DrawFn, chars: list[str], at: int) -> None:
    if chars:
        index = min(at, len(chars) - 1)
        options = CONFUSABLES.get(chars[index])
        if options:
            chars[index] = draw(st.sampled_from(options))


def _case_slip(draw: st.DrawFn, chars: list[str], at: int) -> None:
    if chars:
        index = min(at, len(chars) - 1)
        chars[index] = chars[index].swapcase()


def _drop(draw: st.DrawFn, chars: list[str], at: int) -> None:
    if chars:
        del chars[min(at, len(chars) - 1)]


def _nest(draw: st.DrawFn, chars: list[str], at: int) -> None:
    end = draw(st.integers(at, len(chars)))
    chars[at:end] = ["(", *chars[at:end], ")"]


EditFn = Callable[[st.DrawFn, list[str], int], None]
#: The hostile edits, each on the entry's characters at a drawn position.
EDITS: tuple[EditFn, ...] = (
    _look_alike,
    lambda draw, chars, at: chars.insert(at, draw(st.sampled_from(HOSTILE_CHARS))),
    lambda draw, chars, at: chars.extend(draw(st.sampled_from(HOSTILE_AFFIXES))),
    lambda draw, chars, at: chars.__setitem__(slice(0, 0), draw(st.sampled_from(HOSTILE_AFFIXES))),
    _drop,
    _case_slip,
    lambda draw, chars, at: chars.insert(at, draw(st.text(max_size=4))),
    # a huge run
    lambda draw, chars, at: chars.insert(
        at, draw(st.sampled_from("a *()\\/")) * draw(st.integers(100, 9000))),
    _nest,
)


@st.composite
def hostile_entries(draw: st.DrawFn) -> str:
    """A variant of an approved-looking entry after one to five hostile edits."""
    chars = list(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 5))):
        edit = EDITS[draw(st.integers(0, len(EDITS) - 1))]
        edit(draw, chars, draw(st.integers(0, len(chars))))
    return "".join(chars)


def _check_verdict(verdict: object, approved: list[str] | tuple[str, ...]) -> None:
    from skillgrant import Verdict

    assert isinstance(verdict, Verdict)
    assert verdict.status in STATUSES and verdict.reason
    if verdict.covered:
        assert verdict.covered_by in approved and verdict.written is not None
    else:
        assert verdict.covered_by is None and verdict.written is None
    if verdict.status == "not_covered":
        assert verdict.witness is not None


@FUZZ
@given(hostile_entries())
def test_no_hostile_entry_is_covered_by_the_narrow_plan_unless_it_truly_is(entry: str) -> None:
    verdict = prove(entry, list(NARROW))
    _check_verdict(verdict, NARROW)
    if verdict.covered:
        assert verdict.written is not None
        assert justified(verdict.written), verdict
        # The written entry is the submitted one respelled, never something else.
        assert verdict.written.split("(", 1)[-1] in entry


@FUZZ
@given(st.lists(hostile_entries(), min_size=1, max_size=6),
       st.sampled_from([", ", " ", ",", "\n", "\u00a0", None]))
def test_hostile_values_keep_only_justified_entries(entries: list[str], joiner: str | None,
                                                    ) -> None:
    value: str | list[str] = entries if joiner is None else joiner.join(entries)
    try:
        decision = constrain(value, list(NARROW))
    except AllowedToolsError:
        # Refused only where Copilot CLI cuts a string at every comma: its parentheses, counted
        # without escapes, do not close in order (review s45-freview F1); it joins a list's
        # items with ", " first. A list's item is also a string of its own to Claude Code, read
        # alone (found at the full count: the items `B(x）`, `B(,x))` close in order joined).
        texts = [value] if isinstance(value, str) else [", ".join(value), *value]
        assert any("," in text and not _closes_in_order(text) for text in texts)
        return
    for verdict in decision.verdicts:
        _check_verdict(verdict, NARROW)
    if decision.restored:
        assert decision.allowed == list(NARROW)
    else:
        assert unjustified(decision.allowed) == [], decision.allowed
    assert len(decision.allowed) == len(set(decision.allowed))


def _closes_in_order(text: str) -> bool:
    opened = 0
    for char in text:
        opened += {"(": 1, ")": -1}.get(char, 0)
        if opened < 0:
            return False
    return opened == 0


@FUZZ
@given(st.one_of(hostile_entries(), st.text(), st.text(alphabet=HOSTILE_CHARS + "Bash(gh)")))
def test_split_and_parse_raise_only_skillgrant_errors(text: str) -> None:
    try:
        entries = split_allowed_tools(text)
    except SkillgrantError:
        return
    for entry in entries:
        try:
            grant = parse_grant(entry)
        except SkillgrantError:
            continue
        assert parse_grant(str(grant)) == grant


@FUZZ
@given(st.lists(st.one_of(hostile_entries(), st.sampled_from(["Bash(gh *)", "Read", "Bash"])),
                max_size=5),
       st.sampled_from(["Bash(gh pr list)", "Bash(rm -rf /)", "Read(src/a.ts)", "Read(.env)",
                        "mcp__gh__x", "WebFetch(domain:x.com)"]))
def test_hostile_approved_entries_are_a_plan_error_or_a_sound_plan(approved: list[str],
                                                                   entry: str) -> None:
    try:
        plan = Plan.from_entries(approved)
    except PlanError:
        return
    verdict = prove(entry, plan.allowed_tools)
    _check_verdict(verdict, plan.allowed_tools)
    if verdict.covered and entry == "Bash(rm -rf /)":
        # Only a grant that allows every command, or that command, can cover it.
        assert verdict.covered_by is not None
        assert str(parse_grant(verdict.covered_by)) in ("Bash", "Bash(rm -rf /)") or "*" in (
            verdict.covered_by)


# --- hostile SKILL.md texts -------------------------------------------------------------------



@st.composite
def allowed_tools_lines(draw: st.DrawFn) -> list[str]:
    """An ``allowed-tools`` key and value in one of YAML's forms, holding hostile entries."""
    entries = draw(st.lists(st.one_of(hostile_entries(), st.sampled_from(NARROW)),
                            min_size=0, max_size=4))
    form = draw(st.integers(0, 7))
    key = draw(st.sampled_from(["allowed-tools", "allowed-tools", "'allowed-tools'",
                                "\"allowed-tools\"", "? allowed-tools\n", "allowed-tools ",
                                "&k allowed-tools", "!!str allowed-tools"]))
    colon = ":"  # after "? allowed-tools\n" this starts the explicit key's value line
    if form == 0:  # plain, raw: may well not be YAML
        return [f"{key}{colon} {', '.join(entries)}"]
    if form == 1:
        return [f"{key}{colon} {double_quoted(' '.join(entries))}"]
    if form == 2:
        return [f"{key}{colon} '" + ", ".join(e.replace("'", "''") for e in entries) + "'"]
    if form == 3:
        return [f"{key}{colon} [" + ", ".join(double_quoted(e) for e in entries) + "]"]
    if form == 4:
        return [f"{key}{colon} [" + ", ".join(entries) + "]"]
    if form == 5:
        dash = draw(st.sampled_from(["  - ", "- ", "    -   ", "\t- "]))
        quote = draw(st.booleans())
        return [f"{key}{colon}"] + [dash + (double_quoted(e) if quote else e) for e in entries]
    if form == 6:
        return [f"{key}{colon} {draw(st.sampled_from(['|', '>', '|-', '>+']))}"] + [
            "  " + e for e in entries]
    other = draw(st.sampled_from(["5", "~", "", "true", "[1]", "{a: b}", "*a", "&a Read",
                                  "!!str Read", "2024-01-01"]))
    return [f"{key}{colon} {other}"]


OTHER_LINES = (
    "name: pr-helper", "description: Review pull requests.", "description: >\n  folded\n  text",
    "# a comment", "", "x: &a [a, b]", "y: *a", "<<: {allowed-tools: Bash}", "name: dup",
    "name: dup", "x:\n\t- tab", "x: \x00", "x: '\x1b[2J'",
    "x: !!python/object/apply:os.system [id]",
    "x: 2024-13-45", "%YAML 1.1", "...", "----", "--- ", "x: [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]",
    "metadata:\n  nested:\n    allowed-tools: Bash", "x: \"\\ud800\"", "allowedTools: Bash",
    "\ufeffname: x", "x: |\n  ---\n  allowed-tools: Bash", "? [a]\n: b", "x: " + "9" * 4400,
)


@st.composite
def skill_texts(draw: st.DrawFn) -> str:
    """A SKILL.md: a fence (or not), frontmatter lines in any order (allowed-tools any number of
    times, in any form), a closing fence (or a look-alike), a body; any line endings."""
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        lines.extend(draw(st.sampled_from(OTHER_LINES)).split("\n"))
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 1, 2]))):
        at = draw(st.integers(0, len(lines)))
        lines[at:at] = draw(allowed_tools_lines())
    if draw(st.integers(0, 9)) == 0:
        depth = draw(st.integers(60, 300))
        lines.append("deep: " + "[" * depth + "]" * depth)
    if draw(st.integers(0, 9)) == 0:
        lines.append("huge: " + "a" * draw(st.integers(10_000, 200_000)))
    # Mostly well-fenced, so that most texts reach the rewrite; the rest probe the fences.
    opening = draw(st.sampled_from(["---"] * 8 + ["--- ", "----", "", "\ufeff---"]))
    closing = draw(st.sampled_from(["---"] * 8 + ["...", "--- ", "----", "", "---x"]))
    body = draw(st.sampled_from(["", "# Body\n", "body\n---\nallowed-tools: Bash\n---\n",
                                 "no final newline", "\x00\x1b\r\n"]))
    newline = draw(st.sampled_from(["\n"] * 6 + ["\r\n"] * 3 + ["\r", "mixed"]))
    parts = [opening, *lines, closing]
    if newline == "mixed":
        text = "".join(p + draw(st.sampled_from(["\n", "\r\n", "\r"])) for p in parts)
    else:
        text = newline.join(parts) + newline
    return text + body


def _assert_rewrite_is_sound(text: str, new_text: str, decision: object) -> None:
    from skillgrant import Decision

    assert isinstance(decision, Decision)
    old_doc, new_doc = read_skill(text), read_skill(new_text)
    assert new_text[new_doc.body_start:] == text[old_doc.body_start:]
    assert new_text[:new_doc.yaml_start] == text[:old_doc.yaml_start]
    assert apply_to_text(new_text, NARROW_PLAN)[0] == new_text
    if new_doc.retried:  # PyYAML cannot read what Claude Code reads re-quoted: tests/oracle
        return           # reads such rewrites with Bun, the runtime's own parser
    # Read back by another reader: what the runtime would be handed.
    fm_text = new_text.lstrip("\ufeff")
    if new_text[new_doc.yaml_end:new_doc.yaml_end + 3] == "...":
        cut = new_doc.yaml_end - (len(new_text) - len(fm_text))
        fm_text = fm_text[:cut] + "---" + fm_text[cut + 3:]
    value = frontmatter.loads(fm_text).metadata.get("allowed-tools")
    assert value is None or isinstance(value, (str, list))
    items: list[str] = [] if value is None else [value] if isinstance(value, str) else value
    assert all(isinstance(i, str) for i in items)
    seen = [e for i in items for e in runtime_entries(i)]
    if decision.restored:
        assert seen == list(NARROW)
    else:
        assert unjustified(seen) == [], seen
    assert split_allowed_tools(items) == decision.allowed


@FUZZ
@given(skill_texts())
def test_hostile_skill_texts_are_refused_or_rewritten_soundly(text: str) -> None:
    try:
        new_text, decision = apply_to_text(text, NARROW_PLAN, path="SKILL.md")
    except (SkillFileError, PlanError):
        return
    _assert_rewrite_is_sound(text, new_text, decision)


# --- hostile plans ----------------------------------------------------------------------------

PLAN_PIECES = (
    "allowed-tools: [Read]", "allowed-tools:", "allowedTools: Bash", "allowed-tools: 5",
    "shell-tools: {run: {}}", "shell-tools: [Bash]", "shell-tools: 5", "base-dirs: {cwd: /x}",
    "base-dirs: {cwd: x}", "x-a: &a [a]", "x-b: *a", "<<: {allowed-tools: [Bash]}", "source: x",
    "x-c: " + "[" * 80 + "]" * 80, "\tallowed-tools: [Read]", "x-d: \x00", "---", "...",
    "x-e: !!python/name:os.system", "permissions: {allow: [Read]}", "permissions: [Read]",
)


@st.composite
def plan_texts(draw: st.DrawFn) -> tuple[str, str | None]:
    """A plan file's text and name: YAML lines, or JSON, with hostile keys and values."""
    if draw(st.booleans()):
        lines = draw(st.lists(st.sampled_from(PLAN_PIECES), max_size=5))
        if draw(st.booleans()):
            entries = draw(st.lists(hostile_entries(), max_size=3))
            lines.append("allowed-tools:")
            lines.extend("  - " + double_quoted(e) for e in entries)
        return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines), "plan.yaml"
    entries = draw(st.lists(hostile_entries(), max_size=3))
    key = draw(st.sampled_from(["allowed-tools", "allowedTools", "permissions", "x"]))
    items = ", ".join('"' + e.replace("\\", "\\\\").replace('"', '\\"') + '"' for e in entries)
    body = f'{{"allow": [{items}]}}' if key == "permissions" else f"[{items}]"
    depth = draw(st.sampled_from([0, 0, 0, 70, 5000]))
    text = "{" + f'"{key}": {body}' + (', "x-a": ' + "[" * depth + "]" * depth if depth else "")
    text += draw(st.sampled_from(["}", "}", "", ", }", '}, "allowed-tools": []}']))
    return text, draw(st.sampled_from(["plan.json", "settings.json", None]))


@FUZZ
@given(plan_texts(), st.sampled_from(["auto", "auto", "plan", "skill", "settings"]))
def test_hostile_plans_are_a_plan_error_or_a_valid_plan(plan: tuple[str, str | None],
                                                        kind: str) -> None:
    text, source = plan
    try:
        loaded = Plan.from_text(text, source=source, kind=kind)  # type: ignore[arg-type]
    except PlanError:
        return
    assert all(isinstance(e, str) for e in loaded.allowed_tools)
    verdict = prove("Bash(rm -rf /)", loaded.allowed_tools, **loaded.constrain_kwargs())
    _check_verdict(verdict, loaded.allowed_tools)


# --- the CLI ----------------------------------------------------------------------------------

_CLI_DIR = Path(tempfile.mkdtemp(prefix="skillgrant-cli-fuzz-"))
atexit.register(shutil.rmtree, _CLI_DIR, ignore_errors=True)
_CLI_PLAN = _CLI_DIR / "plan.json"
_CLI_PLAN.write_text('{"allowed-tools": ["Bash(gh pr list)", "Read(src/**)"]}', encoding="utf-8")


@functools.cache
def _cli() -> tuple[typer.Typer, Any]:
    """The app, and its click command built once (CliRunner rebuilds it on every call)."""
    from skillgrant.cli.app import app

    return app, typer.main.get_command(app)


@FUZZ
@given(skill_texts())
def test_cli_exits_2_on_bad_input_and_never_prints_a_traceback(text: str) -> None:
    try:
        apply_to_text(text, NARROW_PLAN, path="SKILL.md")
    except (SkillFileError, PlanError):
        bad = True
    else:
        bad = False
    skill = _CLI_DIR / "SKILL.md"
    skill.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    app, command = _cli()
    with mock.patch("typer.testing._get_command", lambda _app: command):
        result = CliRunner().invoke(app, ["check", str(skill), "--plan", str(_CLI_PLAN)])
    assert "Traceback" not in result.output
    assert "internal error" not in result.output, result.output
    if bad:
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("skillgrant: error: ")
    else:
        assert result.exit_code in (0, 1), result.output
