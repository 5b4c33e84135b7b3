"""Session 46's second review of the SKILL.md reader (s46-freview2): files ``check`` passes or
``apply`` keeps (or writes) that a runtime reads with more grants than the plan. Each test fails
today; ``OPEN`` marks it a strict xfail, so a fix shows as an unexpected pass (then drop its
row).

The runtimes' readings written here were measured: Copilot CLI 1.0.102's own skill parser (its
native addon ``runtime.node``: ``skillsParseSkillFile`` then
``configLoaderParseAllowedToolsItems``, in process under node) and Bun 1.4.5 running the
runtime's frontmatter steps (tests/oracle/bun_reader.js). ``test_*_copilot_reads_*`` pin the
readings under the pinned Copilot CLI (skipped without it).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from reader_review import BUN, check, copilot_rules, lay_out, needs_bun, needs_copilot, skill_call
from review_table import LeftOpen

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()  # (C1, D1: fixed by s46-ffix; G3, G4, G5, G7 by s46-gfix)


#: Lines before which Claude Code's K0 (``^---\\s*\\n([\\s\\S]*?)---\\s*\\n?``) ends the
#: frontmatter, while Copilot CLI reads on to the closing '---' line.
C1_BEFORE = {
    "dashes-in-value": "description: a---b\n",
    "dashes-in-block-scalar": "x: |\n  a---\n",
    "dashes-in-comment": "# ---\n",
    "dashes-in-key": "x---: y\n",
}
#: Spellings of the key Copilot CLI reads as ``allowed-tools`` (tag ignored) and PyYAML as a
#: bytes key.
C1_KEYS = {
    "binary": "!!binary allowed-tools: Bash",
    "binary-verbatim": "!<tag:yaml.org,2002:binary> allowed-tools: Bash",
    "binary-complex-key": "? !!binary allowed-tools\n: Bash",
    "binary-flow-list": "!!binary allowed-tools: [Read, Bash]",
    "binary-quoted-key": '!!binary "allowed-tools": Bash',
    "binary-anchored-key": "&x !!binary allowed-tools: Bash",
}


def _c1_text(before: str, key: str) -> str:
    return f"---\nname: probe\n{C1_BEFORE[before]}{C1_KEYS[key]}\n---\nbody\n"


@pytest.mark.parametrize("key", sorted(C1_KEYS))
@pytest.mark.parametrize("before", sorted(C1_BEFORE))
def test_c1_apply_keeps_a_tagged_allowed_tools_key_copilot_reads(before: str, key: str) -> None:
    """Plan: nothing. ``apply`` (and ``check``, exit 0 "unchanged") keeps the file as it is;
    Copilot CLI reads ``allowed-tools: Bash`` (rule {shell, argument null}: every command).
    Inside Claude Code's span the same key is refused ("a key written with a YAML tag")."""
    with pytest.raises(SkillFileError):
        apply_to_text(_c1_text(before, key), Plan.from_entries([]))


@needs_copilot
def test_c1_copilot_reads_the_tagged_key() -> None:
    """The reading C1 rests on: Copilot CLI 1.0.102 reads every C1 text as granting the whole
    shell, and the same text with the key untagged the same way."""
    texts = [_c1_text(b, k) for b in sorted(C1_BEFORE) for k in sorted(C1_KEYS)]
    for rules in copilot_rules(texts):
        assert {"kind": "shell", "argument": None} in rules, rules


#: Folders Copilot CLI 1.0.102 loads a skill from when ``.github/copilot/settings.local.json``
#: names them in ``skillDirectories`` (measured: the skill loads and its ``shell(touch)`` runs
#: ``touch zz`` unasked; tests/conformance/test_copilot_s46_freview2.py, D1).
D1_FOLDERS = {"node-modules": "node_modules/pkg/skills", "git": ".git/sk"}


@pytest.mark.parametrize("row", sorted(D1_FOLDERS))
def test_d1_check_passes_a_project_whose_settings_local_names_skill_directories(
        tmp_path: Path, row: str) -> None:
    """``check --plan Read .`` must not pass a project whose Copilot CLI settings load a skill
    granting ``shell(touch)``: it either reads that skill (and drops the entry) or fails."""
    folder = D1_FOLDERS[row]
    files = {".github/copilot/settings.local.json": json.dumps({"skillDirectories": [folder]}),
             f"{folder}/probe/SKILL.md": "---\nname: probe\ndescription: d\n"
                                         "allowed-tools: shell(touch)\n---\nRun it.\n",
             ".github/skills/good/SKILL.md": "---\nname: good\ndescription: d\n"
                                             "allowed-tools: Read\n---\nbody\n",
             "plan.yaml": "allowed-tools: Read\n"}
    lay_out(tmp_path, files)
    done = check(tmp_path, "plan.yaml", ".")
    assert done.returncode != 0, done.stdout


#: Skill bodies whose ``!`echo $ARGUMENTS``` the runtime's ``Nxr`` finds (JavaScript's ``\s``
#: holds U+FEFF; measured under Bun: ``"a:\ufeff!`x`"`` matches) and the gate's ``_INLINE``
#: does not (Python's ``\s`` lacks U+FEFF).
G3_BODIES = {"after-colon": "Result:\ufeff!`echo $ARGUMENTS`\n",
             "line-start": "Result.\n\ufeff!`echo $ARGUMENTS`\n"}


@pytest.mark.parametrize("row", sorted(G3_BODIES))
def test_g3_the_gate_misses_an_inline_command_after_a_byte_order_mark(tmp_path: Path,
                                                                      row: str) -> None:
    """``Skill(other, args="hi; touch zz")`` fills ``echo hi; touch zz``; the plan holds
    ``Bash(echo *)``: the gate must not allow the call (the control, a space before ``!``,
    is not_covered)."""
    got = skill_call(tmp_path, "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
                     "---\n" + G3_BODIES[row], "hi; touch zz")
    assert got.status != "covered", got


@needs_bun
def test_g3_bun_finds_the_inline_command() -> None:
    """The runtime's ``Nxr``, copied from the 2.1.332 binary, under Bun."""
    script = ('const r=/(?<=^|\\s)!`([^`]+)`/gm;const t=JSON.parse(require("fs")'
              '.readFileSync(0,"utf8"));console.log(JSON.stringify(t.map((s)=>[...s.matchAll(r)]'
              '.map((m)=>m[1]))))')
    texts = [G3_BODIES[row] for row in sorted(G3_BODIES)]
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [["echo $ARGUMENTS"]] * len(texts)


_G4_HEAD = "---\nname: other\ndescription: d\nallowed-tools: Bash(echo *)\n"
_MANY = ", ".join(["x" * 65] + [f"a{i}" for i in range(63)] + ["who"])
#: (skill file, args). Measured through Claude Code 2.1.332 (tests/conformance/
#: test_s46_freview2_e2e.py, G4): each makes the runtime run ``touch zz`` (or ``echo x;
#: touch zz``) as the skill loads; the gate fills nothing there, or ``echo zz``.
G4 = {"space-in-item": (_G4_HEAD + 'arguments: [" who"]\n---\nResult: !`echo $ who`\n',
                        "'x; touch zz'"),
      "arabic-digit-name": (_G4_HEAD + 'arguments: ["\u0663", who]\n---\nResult: !`$who zz`\n',
                            "echo touch"),
      "superscript-digit-name": (_G4_HEAD + 'arguments: ["\u00b2", who]\n---\n'
                                 "Result: !`$who zz`\n", "echo touch"),
      # a name the gate's [\\w.-]+ refuses: every $word is then a placeholder to it, but
      # not `$+x` / `$(w)`, which the runtime fills (`\\$\\+x(?![\\[\\w])`)
      "plus-name": (_G4_HEAD + 'arguments: ["+x"]\n---\nResult: !`echo $+x`\n', "'x; touch zz'"),
      "paren-name": (_G4_HEAD + 'arguments: ["(w)"]\n---\nResult: !`echo $(w)`\n',
                     "'x; touch zz'"),
      "long-name-first": (_G4_HEAD + f"arguments: [{_MANY}]\n---\nResult: !`$who zz`\n",
                          " ".join(["echo"] * 64 + ["touch"]))}


@pytest.mark.parametrize("row", sorted(G4))
def test_g4_the_gate_reads_named_arguments_otherwise_than_the_runtime(tmp_path: Path,
                                                                     row: str) -> None:
    """The runtime's ``PIe`` (names: strings, not blank, not ``/^\\d+$/``, kept as written)
    and ``_vt`` (names of at most 64 characters, then the first 64): ``$who`` (``$ who``) is
    filled with the word that runs ``touch zz``. The gate must not allow the call."""
    got = skill_call(tmp_path, *G4[row])
    assert got.status != "covered", got



def test_g5_the_gate_fills_a_name_called_arguments_with_the_whole_args(tmp_path: Path) -> None:
    """``arguments: [ARGUMENTS]`` + ``!`echo $ARGUMENTS```, args ``'x; touch zz'``: the
    runtime fills word 0 (``echo x; touch zz``, measured through Claude Code 2.1.332: zz
    created, tests/conformance/test_s46_freview2_e2e.py G5); the gate judges ``echo 'x; touch
    zz'`` (covered). It must not allow the call."""
    got = skill_call(tmp_path, _G4_HEAD + "arguments: [ARGUMENTS]\n---\nResult: !`echo "
                     "$ARGUMENTS`\n", "'x; touch zz'")
    assert got.status != "covered", got



def test_g7_args_with_backticks_make_an_inert_command_live(tmp_path: Path) -> None:
    """``Result `!`echo $ARGUMENTS[0]` !`touch zz``` (no command as written: the runtime's
    Bit blanks both code spans), args ``\\!`x```: filled, the backticks pair otherwise and
    the runtime runs ``touch zz`` (measured through Claude Code 2.1.332: zz created,
    tests/conformance/test_s46_freview2_e2e.py G7). The gate must not allow the call."""
    got = skill_call(tmp_path, _G4_HEAD + "arguments: [who]\n---\nResult `!`echo "
                     "$ARGUMENTS[0]` !`touch zz`\n", "\\!`x`")
    assert got.status != "covered", got
