"""Issue 17's read-back shortcuts against the code they stand in for: the runtime's re-quoted
reading of a flat frontmatter made from its ``allowed-tools`` line alone (``runtime``'s
``_flat_readings``) against the whole text's, and a rewrite read back from its one line
(``readback.line_reads_back``) against reading it back whole (``builder``'s ``_verify``), on
tables and generated texts, broken rewrites included."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.grants import split_allowed_tools
from skillgrant.plan import Plan
from skillgrant.skillfile import builder, readback, runtime
from skillgrant.skillfile.builder import apply_to_text
from skillgrant.skillfile.doc import SkillDoc
from skillgrant.skillfile.flatyaml import compose_flat, read_line
from skillgrant.skillfile.spans import KEY, read_skill
from skillgrant.skillfile.splice import splice
from skillgrant.skillfile.yamlspan import STR_TAG

# Characters a generated value is made of: the ones requoting, flat reading, splitting and
# the runtime's fence react to, JavaScript's blank space that is not ours, and plain text.
_CHARS = ("ab", "Read", "Bash(", ")", "gh *", " ", ",", "*", "#", ":", ": ", " #", '"', "\\",
          "'", "\xa0", "\u3000", "\ufeff", "-", "---", "[", "]", "{", "}", "@", "`", "|", ">",
          "!", "&", "%", "é", "1", ".", "\t", "(x)")
_KEYS = ("name", "description", "version", "on", "x-a", "k1", "allowed-tools")
_ENTRIES = ("Read", "Grep", "Bash(gh pr list)", "Bash(gh *)", "Bash(echo ---)", "Bash(a: b)",
            "Bash(x #y)", 'Bash(say "hi")', "Bash(a\\,b)", "Bash(é)", "Bash(gh pr view 12)",
            "mcp__s__t", "Bash(ls *)", "Bash(a, b)", "Bash(\xa0x)", "Bash(`x`)", "Bash(x -- y)")


def _value(rng: random.Random) -> str:
    raw = "".join(rng.choice(_CHARS) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.25:
        return '"' + raw.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return raw


def _frontmatter(rng: random.Random) -> str:
    keys = rng.sample(_KEYS[:-1], rng.randint(0, 4))
    keys.insert(rng.randint(0, len(keys)), KEY)
    return "".join(f"{key}:{' ' * rng.randint(1, 2)}{_value(rng)}\n" for key in keys)


_BODY = "---\n# Body\n"


def _flat_texts(count: int, seed: int) -> list[str]:
    """Generated SKILL.md texts whose frontmatter is flat (about half the draws are)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        yaml_text = _frontmatter(rng)
        if compose_flat(yaml_text) is not None:
            found.append("---\n" + yaml_text + _BODY)
    return found


def _outcome(call: Callable[[], object]) -> object:
    try:
        return ("ok", call())
    except runtime.Divergence as e:
        return ("divergence", e.message, e.offset)
    except SkillFileError as e:
        return ("error", e.message, e.line, e.column)


# --- the runtime's re-quoted reading, from the allowed-tools line ------------------------------

@pytest.mark.parametrize("text", _flat_texts(3000, seed=17))
def test_the_flat_reading_is_the_whole_texts(text: str) -> None:
    yaml_start, yaml_end = 4, len(text) - len(_BODY)
    yaml_text = text[yaml_start:yaml_end]
    root = compose_flat(yaml_text)
    assert root is not None
    # A flat text re-quoted is flat: its re-quoted reading always composes.
    assert compose_flat(runtime.requoted(yaml_text)) is not None
    for (key, value), written in zip(root.value, yaml_text.splitlines(), strict=True):
        assert read_line(written) == (key.tag, key.value, value.tag, value.value)
    key, value = next(pair for pair in root.value if pair[0].value == KEY)
    if value.tag != STR_TAG:  # spans refuses it before the runtime's reading
        return
    entries = tuple(split_allowed_tools(value.value))
    line = (yaml_start + key.start_mark.index, yaml_start + value.end_mark.index)
    assert "\n" not in text[line[0]:line[1]]
    # The re-quoted line reads as the line does in the whole re-quoted text.
    retry = runtime.requoted(text[line[0]:line[1]])
    assert runtime._entries_in(retry + "\n") == runtime._entries_in(runtime.requoted(yaml_text))
    whole = _outcome(lambda: runtime.check(text, yaml_start, yaml_end, entries))
    flat = _outcome(lambda: runtime.check(text, yaml_start, yaml_end, entries, flat=True))
    assert flat == whole


@pytest.mark.parametrize("line", [
    "allowed-tools: Bash(gh *), Read",
    "allowed-tools: Read, Grep",
    'allowed-tools: "Bash(gh *)"',
    "allowed-tools:  \xa0Bash(gh *)",
    "allowed-tools: \u3000Read @x",
    "allowed-tools: Bash(a\xa0*)\xa0",
    'allowed-tools: Read "x" *',
    "allowed-tools: \xa0[Read, Grep]",
    "allowed-tools: \xa0'Read *'",
    "allowed-tools: \\Read *",
])
def test_a_flat_value_reads_alike_requoted(line: str) -> None:
    text = f"---\nname: x\n{line}\nk1: y*\n---\n"
    doc = read_skill(text)
    assert doc.flat and doc.allowed_tools is not None
    entries = doc.allowed_tools.entries
    yaml_text = text[doc.yaml_start:doc.yaml_end]
    assert runtime._entries_in(runtime.requoted(yaml_text)) == entries
    assert runtime.check(text, doc.yaml_start, doc.yaml_end, entries) is None


def test_the_flat_shortcut_needs_the_runtimes_own_frontmatter() -> None:
    # '---' inside a value ends the runtime's frontmatter there: not the flat case any more.
    text = "---\nallowed-tools: Bash(echo ---), Read\n---\n"
    yaml_end = text.rindex("---\n")
    for flat in (False, True):
        with pytest.raises(runtime.Divergence, match="ends the frontmatter at the first"):
            runtime.check(text, 4, yaml_end, ("Bash(echo ---)", "Read"), flat=flat)


def test_a_frontmatter_that_is_not_flat_is_read_whole() -> None:
    for text in ("---\nname: x\nallowed-tools:\n  - Read\n---\n",
                 "---\nname: x # c\nallowed-tools: Read\n---\n",
                 "---\r\nallowed-tools: Read\r\n---\r\n"):
        assert not read_skill(text).flat


# --- a rewrite read back from its one line ---------------------------------------------

def _full(doc: SkillDoc, new_text: str, entries: list[str]) -> object:
    return _outcome(lambda: builder._verify(doc, new_text, entries))


def _generated_rewrites(count: int, seed: int) -> list[tuple[SkillDoc, list[str]]]:
    rng = random.Random(seed)
    found: list[tuple[SkillDoc, list[str]]] = []
    for text in _flat_texts(count * 3, seed):
        try:
            doc = read_skill(text)
        except SkillFileError:
            continue
        entries = rng.sample(_ENTRIES, rng.randint(0, 4))
        found.append((doc, entries))
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize(("doc", "entries"), _generated_rewrites(1500, seed=7))
def test_a_line_read_back_agrees_with_the_whole_read_back(doc: SkillDoc,
                                                          entries: list[str]) -> None:
    new_text = splice(doc, entries)
    if readback.line_reads_back(doc, new_text, entries):
        assert _full(doc, new_text, entries) == ("ok", None)


def test_the_line_read_back_is_taken_for_most_generated_rewrites() -> None:
    cases = _generated_rewrites(400, seed=8)
    taken = sum(readback.line_reads_back(doc, splice(doc, entries), entries)
                for doc, entries in cases if entries)
    assert taken > len(cases) // 3


_SKILL = "---\nname: x\ndescription: d\nallowed-tools: Read, Grep, Bash(rm -rf /)\n---\n# Body\n"


def _broken(new_text: str, old: str, new: str) -> str:
    assert old in new_text
    return new_text.replace(old, new, 1)


@pytest.mark.parametrize(("how", "expected"), [
    (lambda t: t, ("ok", None)),
    (lambda t: _broken(t, "Read, Grep", "Read"), "read back as"),
    (lambda t: _broken(t, "name: x", "name: y"), "another frontmatter key would change"),
    (lambda t: _broken(t, "description: d\n", ""), "another frontmatter key would change"),
    (lambda t: _broken(t, "# Body", "# body"), "the body would change"),
    (lambda t: _broken(t, "Read, Grep", "Read, Grep\nname: z"), "another frontmatter key"),
    (lambda t: _broken(t, "Read, Grep", "Read, Grep # c"), "does not read back"),
    (lambda t: _broken(t, "Read, Grep", "[Read, Grep"), "does not read back"),
    (lambda t: _broken(t, "Read, Grep", "Read, Grep, Bash(x ---)"), "does not read back"),
    (lambda t: _broken(t, "allowed-tools:", "allowed-tool:"), "read back as None"),
    (lambda t: _broken(t, "Read, Grep", '"Read, Grep"'), ("ok", None)),
    (lambda t: _broken(t, "Read, Grep", "Read  Grep"), ("ok", None)),
])
def test_a_broken_rewrite_is_caught_by_the_line_read_back(
        how: Callable[[str], str], expected: object) -> None:
    doc = read_skill(_SKILL)
    assert doc.flat
    entries = ["Read", "Grep"]
    new_text = how(splice(doc, entries))
    taken = readback.line_reads_back(doc, new_text, entries)
    full = _full(doc, new_text, entries)
    assert taken == (full == ("ok", None))
    if isinstance(expected, str):
        assert expected in str(full)
    else:
        assert full == expected


def test_a_changed_fence_is_left_to_the_whole_read_back() -> None:
    # The whole read-back compares keys and body, not the fences; the line path compares
    # every byte outside the line, so it leaves this one to the whole read-back.
    doc = read_skill(_SKILL)
    new_text = splice(doc, ["Read", "Grep"]).replace("---\n#", "...\n#")
    assert not readback.line_reads_back(doc, new_text, ["Read", "Grep"])
    assert _full(doc, new_text, ["Read", "Grep"]) == ("ok", None)


def test_a_rewrite_the_runtime_reads_differently_is_refused_with_the_line_path() -> None:
    # The restored entry holds '---': the runtime would end the frontmatter inside it.
    text = "---\nname: x\nallowed-tools: Bash(rm -rf /)\n---\n"
    with pytest.raises(SkillFileError, match="does not read back"):
        apply_to_text(text, Plan.from_entries(["Bash(echo ---)"]))


@pytest.mark.parametrize(("doc", "entries"), _generated_rewrites(300, seed=9))
def test_apply_is_the_same_with_and_without_the_line_read_back(
        doc: SkillDoc, entries: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    plan = Plan.from_entries(entries) if entries else Plan.from_entries([])
    fast = _outcome(lambda: apply_to_text(doc.text, plan)[0])
    monkeypatch.setattr(builder, "line_reads_back", lambda *args: False)
    assert _outcome(lambda: apply_to_text(doc.text, plan)[0]) == fast
