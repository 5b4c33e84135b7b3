"""The plain plan branch (``plan.light.plain_entries``) against PyYAML, the independent reference.

The branch must never read a text otherwise than PyYAML does: whenever it answers, PyYAML (both
its C and its pure loader) reads the same text as a mapping of the one key ``allowed-tools`` to
exactly those strings; on anything else it declines, and the plan goes through PyYAML as
before. Texts are generated close to the plain shape, with the characters, indentations and
line kinds YAML treats specially, so both answers are met.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from examples import examples
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skillgrant import PlanError
from skillgrant.plan.light import plain_entries, plan_from_text

ROOT = Path(__file__).resolve().parent.parent

#: Characters an entry is built from: letters, the YAML indicators, spaces, quotes, and a few
#: that are not printable ASCII (each must make the branch decline).
_ENTRY_CHARS = st.sampled_from(list("aZbq(*)") + list(":#-?,[]{}&*!|>'\"%@`~=<+.0 \\/")
                               + ["\t", "\r", "\u0085", "\u2028", "\ufeff", "é"])
_WORDS = st.sampled_from(["Read", "Bash(gh *)", "yes", "No", "null", "ON", "y", "Task",
                          "mcp__github", "WebFetch(domain:x.com)", "Bash(npm run test:*)",
                          "Edit(//repo/**)", "Bash(echo a: b)", "Bash(x) #c", "Bash(x#y)",
                          "x:", "on1", "Yes please", "NULL", "2024-01-01", ".inf", "0x1F"])
_ENTRIES = st.one_of(_WORDS, st.text(_ENTRY_CHARS, min_size=0, max_size=12),
                     st.tuples(_WORDS, st.text(_ENTRY_CHARS, max_size=4)).map("".join))
#: Entries of printable ASCII that start with a letter: most are read by the branch.
_LETTERED = st.tuples(st.sampled_from("aRbTnyoN"),
                      st.text(st.sampled_from(list("a(*)/:.-_ ,#'\"!&[]{}|>%@`?~=<+0\\")),
                              max_size=10)).map("".join)


@st.composite
def _plans(draw: st.DrawFn) -> str:
    """A plain plan, and with ``odd`` a few of its lines or characters made of what YAML reads
    otherwise (other headers, dashes, indentations, comments, markers, breaks)."""
    odd = draw(st.booleans())

    def pick(plain: list[str], other: list[str]) -> str:
        return draw(st.sampled_from(plain + other if odd else plain))

    header = pick(["allowed-tools:"], ["allowed-tools: ", "allowedTools:", "'allowed-tools':",
                                       "allowed-tools: Read", "allowed-tools :"])
    indent = draw(st.sampled_from(["", "  ", "    ", " "]))
    lines = [header]
    for _ in range(draw(st.integers(0 if odd else 1, 5))):
        kind = pick(["item"] * 6 + ["comment", "blank"], ["odd"])
        if kind == "item":
            shift = pick([""], [" ", "  "])
            dash = pick(["- "], ["-  ", "-", "-\t", "? "])
            entry = draw(_ENTRIES if odd else st.one_of(_WORDS, _LETTERED))
            lines.append(f"{indent}{shift}{dash}{entry}")
        elif kind == "comment":
            lines.append(pick(["# note", "#", "#: a"], ["  # note", " #x"]))
        elif kind == "blank":
            lines.append(pick([""], [" ", "  ", "\t"]))
        else:
            lines.append(draw(st.sampled_from(["---", "...", "x-note: 1", "allowed-tools:",
                                               "  more text", "%YAML 1.1", "shell-tools: []",
                                               "- Read", "  - [a, b]"])))
    before = draw(st.lists(st.sampled_from(["# The plan", ""] + (["---", "x-a: b"] if odd
                                                                   else [])), max_size=2))
    end = pick(["\n", "", "\n\n"], ["\r\n", "\n\u2028"])
    return "\n".join([*before, *lines]) + end


def _pyyaml(text: str, loader: type[yaml.SafeLoader]) -> object:
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as e:
        return e


_LOADERS = [yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)]


@settings(max_examples=examples(3000), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_plans())
@example("# The plan\nallowed-tools:\n  - Bash(gh *)\n  - Read\n")
@example("allowed-tools:\n- Read\n# c\n- Bash(x#y)\n")
@example("allowed-tools:\n  - Read\n   more\n")
@example("allowed-tools:\n  - Yes\n")
def test_the_plain_branch_reads_as_pyyaml_or_declines(text: str) -> None:
    entries = plain_entries(text, "plan.yaml")
    if entries is None:
        return
    for loader in _LOADERS:
        assert _pyyaml(text, loader) == {"allowed-tools": entries}, loader
    assert all(type(entry) is str for entry in entries)


@pytest.mark.parametrize("text", [
    "allowed-tools:\n  - Read\n\tx\n",          # a tab
    "allowed-tools:\r\n  - Read\r\n",          # CR
    "\ufeffallowed-tools:\n  - Read\n",        # a BOM
    "allowed-tools:\n  - Read\n    - Edit\n",  # another indentation
    "allowed-tools:\n  - Read\n  more\n",      # a continuation line
    "allowed-tools:\n  - Read # note\n",       # a comment after an entry
    "allowed-tools:\n  - true\n",              # a bool
    "allowed-tools:\n  - 'Read'\n",            # quoted
    "allowed-tools:\n  - Read\n---\n",         # a second document
    "allowed-tools:\n",                        # no entries
    "allowed-tools:\n  - Read\nallowed-tools:\n  - Edit\n",  # the key twice
    "x-note: a\nallowed-tools:\n  - Read\n",   # another key
])
def test_the_plain_branch_declines(text: str) -> None:
    assert plain_entries(text, "plan.yaml") is None


def test_a_json_named_plan_is_left_to_the_json_reader() -> None:
    with pytest.raises(PlanError, match="invalid JSON"):
        plan_from_text("allowed-tools:\n  - Read\n", source="plan.json")


def test_a_plain_plan_with_an_invalid_entry_is_reported_as_before() -> None:
    with pytest.raises(PlanError) as caught:
        plan_from_text("allowed-tools:\n  - Read\n  - Bash(\n", source="plan.yaml")
    assert ":3:" in str(caught.value)  # located by the full reader


@pytest.mark.parametrize("sample", sorted((ROOT / "samples").glob("*/plan.yaml")),
                         ids=lambda p: p.parent.name)
def test_every_sample_plan_takes_the_plain_branch(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    assert plain_entries(text, str(sample)) == yaml.safe_load(text)["allowed-tools"]


def test_the_hook_decides_a_plain_yaml_plan_without_pyyaml(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text("# approved\nallowed-tools:\n  - Bash(git *)\n  - Read\n", encoding="utf-8")
    payload = ('{"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse", '
               '"tool_name": "Bash", "tool_input": {"command": "git status"}}')
    script = ("import sys\nfrom skillgrant.gate.hook import main\ncode = main(sys.argv[1:])\n"
              "print(sorted(m for m in ('yaml', 'pydantic', 'dataclasses') if m in sys.modules),"
              " code, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script, "--plan", str(plan)], input=payload,
                          capture_output=True, text=True, check=False)
    assert done.stdout == "" and done.stderr.strip() == "[] 0", done.stderr
