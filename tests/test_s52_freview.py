"""Review s52-freview of s52-batchspeed's speed steps in the reader and ``check``'s path (issue
27): the read-back of a rewrite (``reread``'s branches), the first reading (``yamlapart``'s
flow sign, ``flatyaml.plain_tag``) and the batch (``check_chunk``) against ``check_file``.
Each is judged by what it stands for: the whole reader (``read_skill`` on the rewritten text),
a file checked alone, and Bun 1.4.5 running the runtime's own frontmatter steps
(tests/oracle/bun_reader.js). The texts are the 40 shared real skills with their
``allowed-tools`` lines rewritten in this module's forms (plain, flow, block list, quoted,
folded, comments, anchors, tabs, CRLF, BOM, the YAML 1.1 line breaks). Holes left open are
strict xfails through ``OPEN``; the report is /work/wt/reports/s52-freview.md."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REAL_SKILLS
from reader_review import BUN, needs_bun
from review_table import LeftOpen

from skillgrant.errors import PlanError, SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile.builder import _decide, _spliced, apply_to_text
from skillgrant.skillfile.doc import SkillDoc
from skillgrant.skillfile.reread import reread
from skillgrant.skillfile.spans import read_skill

sys.path.insert(0, str(Path(__file__).resolve().parent / "oracle"))
import bun_runtime

#: The 40 shared real skills (tests/conftest.py's, or the shared checkout's beside a worktree).
_CORPUS = next((p for p in (Path(REAL_SKILLS), Path("/work/shared/corpus/real-skills"))
                if p.is_dir()), Path(REAL_SKILLS))
needs_corpus = pytest.mark.skipif(not _CORPUS.is_dir(), reason="the real skills are not here")

#: Each hole's test (or case), and why it fails today (tests/conftest.py reads ``OPEN``).
OPEN = LeftOpen()

KEY = "allowed-tools"
#: Entries a mutation may write besides the file's own: each changes how a value reads.
_ODD = ("Read", "Bash(git *)", "Bash(a: b)", "Bash(x #y)", "*", "Bash(a, b)", "Write", "é",
        "Bash(git:*)", "true", "null", "1e3", "0x1F", "~", "yes", ".inf", "-", "?x", "x?",
        "Bash(&a)", "!t", "a!", "*a", "Bash(*)", "[x]", "{x}", "Bash(a\tb)")
#: Entries a plan may hold besides the file's: restored into the rewrite as the plan spells them.
_PLANNED = ("Bash(a\u00a0b)", "Bash(x\u3000y)", "Bash(\u2000z)", "Bash(é *)", "Bash(a\\b)",
            "Bash(echo 'q')", 'Bash(echo "q")', "Bash(a, b)", "Bash(x #y)", "Bash(a: b)",
            "Bash(git:*)", "WebFetch(domain:x.y)", "Bash(a-b)", "Bash(~/x *)", "Bash(%x)",
            "Bash(@x)", "Bash(`x`)", "Bash(|x)", "Bash(x\u2028y)", "Bash(\ufeffx)",
            "Bash(a\u1680b)", "Bash(a\u00adb)", "mcp__s__t", "Bash(a---b)", "Bash(x\u200bb)")
#: What a mutation puts between the entries of a string value.
_SEPS = (", ", " ", ",", ",  ", " , ", ",\t", "\t", ", \t")
#: Line breaks a text may carry besides ``\n``: only ``\n`` ends a line for Claude Code.
_BREAKS = ("\u2028", "\u2029", "\x85", "\r")


def _value_lines(r: random.Random, entries: list[str]) -> list[str]:
    """``allowed-tools`` written in one of its forms over one line or several."""
    e = entries or ["Read"]
    k = r.choice((KEY, KEY, KEY, f"{KEY} ", f'"{KEY}"', f"'{KEY}'"))
    sep = r.choice(_SEPS)
    ind = r.choice(("  ", " ", "    ", "\t", ""))
    dash = r.choice(("- ", "-  ", "-\t", "- &a ", "- !!str "))
    q = r.choice(("'", '"'))
    flow_sep = r.choice((", ", ",", " ,", ",\n  "))
    return r.choice((
        [f"{k}: " + sep.join(e)],
        [f"{k}: " + sep.join(e) + r.choice((" # c", "  #c", " #", "\t# c", " ", "\t"))],
        [f"{k}:" + r.choice(("\t", "  ", " ")) + sep.join(e)],
        [f"{k}: " + e[0]] + [ind + x for x in e[1:]],
        [f"{k}:", ind + sep.join(e)],
        [f"{k}: " + e[0] + ","] + [ind + x + "," for x in e[1:-1]] + [ind + e[-1]] * (len(e) > 1),
        [f"{k}: [" + flow_sep.join(e) + "]"],
        [f"{k}: [" + flow_sep.join(q + x + q for x in e) + r.choice(("]", ",]", " ] # c"))],
        [f"{k}: ["] + [ind + x + "," for x in e] + ["]"],
        [f"{k}:"] + [ind + dash + x for x in e],
        [f"{k}:"] + [ind + "- " + x + r.choice(("", " # c", "  #", "")) for x in e],
        [f"{k}: # c"] + ["- " + x for x in e],
        [f"{k}:"] + [r.choice(("", "# c", "  # c")) for _ in range(1)] + ["  - " + x for x in e],
        [f"{k}:"] + ["  - " + q + x + q for x in e],
        [f"{k}: {q}" + sep.join(e) + q],
        [f"{k}: {q}" + e[0]] + [ind + x for x in e[1:]] + [ind + q] * (len(e) > 1),
        [f"{k}: " + r.choice(("|", ">", "|-", ">-", "|+", ">+", "|2", "> # c"))]
        + ["  " + x for x in e],
        [f"{k}: &t " + sep.join(e)],
        [f"{k}: !!str " + sep.join(e)],
        [f"{k}: &t [" + ", ".join(e) + "]"],
        [f"{k}: " + sep.join(e) + r.choice(_BREAKS) + "x"],
        [f"{k}: " + r.choice(_BREAKS).join(e)],
        [f"{k}:"] + ["  - " + x + r.choice(_BREAKS) for x in e],
        [f"{k}: " + sep.join(e), f"{k}: Read"],
    ))


def _frontmatter(text: str) -> tuple[str, list[str], str] | None:
    """The text before the frontmatter's lines, its lines, and the text from its closing
    fence on."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---", 4)
    if end < 0:
        return None
    return "---\n", text[4:end].split("\n"), text[end + 1:]


def _key_span(lines: list[str]) -> tuple[int, int]:
    """The lines of the ``allowed-tools`` key (its key line, and every continuation: an
    indented, blank, comment or dash line); (n, n) at the end when there is none."""
    for i, line in enumerate(lines):
        if line.startswith(KEY):
            j = i + 1
            while j < len(lines) and (lines[j][:1] in (" ", "\t", "-", "#", "")):
                j += 1
            return i, j
    return len(lines), len(lines)


def _own_entries(lines: list[str], i: int, j: int) -> list[str]:
    text = " ".join(lines[i:j])[len(KEY) + 1:]
    for c in "[]'\"-":
        text = text.replace(c, " ")
    words = [w.strip(",") for w in text.replace(",", " ").split()]
    return [w for w in words if w and "(" not in w and "#" not in w][:4]


def mutated(text: str, r: random.Random) -> str:
    """A real skill with its ``allowed-tools`` lines rewritten in one of this module's forms,
    the other lines kept; sometimes the whole text in CRLF, with a BOM, or the key moved."""
    parts = _frontmatter(text.replace("\r\n", "\n"))
    if parts is None:
        return text
    head, lines, tail = parts
    i, j = _key_span(lines)
    own = _own_entries(lines, i, j)
    entries = r.sample(own, min(len(own), r.randint(0, 3))) + r.sample(_ODD, r.randint(0, 2))
    r.shuffle(entries)
    new = _value_lines(r, entries)
    rest = lines[:i] + lines[j:]
    at = i if r.random() < 0.6 else r.choice([0, len(rest)])
    at = min(at, len(rest))
    lines = rest[:at] + new + rest[at:]
    if r.random() < 0.15:
        lines.insert(at + len(new), r.choice(("", "# after", "  ", "...", "x: 1", "- y")))
    out = head + "\n".join(lines) + "\n" + tail
    if r.random() < 0.15:
        out = out.replace("\n", "\r\n")
    if r.random() < 0.1:
        out = "\ufeff" + out
    return out


def corpus_texts(seed: int, count: int) -> Iterator[tuple[str, str]]:
    """``count`` mutated real skills: (the real skill's name, the text)."""
    r = random.Random(seed)
    files = sorted(p for p in _CORPUS.glob("*.md"))
    for n in range(count):
        path = files[n % len(files)]
        yield path.name, mutated(path.read_text(encoding="utf-8"), r)


def plans(doc_entries: list[str], r: random.Random) -> list[Plan]:
    """The plans a file is checked against: a subset of its entries, none, every tool, and
    its entries with one more."""
    out = []
    for entries in ([e for e in doc_entries if r.random() < 0.6], [], ["*"],
                    [*doc_entries, "Read"], doc_entries[:1],
                    doc_entries + r.sample(_PLANNED, 2)):
        try:
            out.append(Plan.from_entries(entries))
        except PlanError:
            continue
    return out


def _outcome(read: object, *args: object, **kwargs: object) -> object:
    try:
        return read(*args, **kwargs)  # type: ignore[operator]
    except SkillFileError as e:
        return ("error", str(e))


def rewrites(text: str, r: random.Random) -> Iterator[tuple[str, object, list[str]]]:
    """Each plan's rewrite of ``text`` (``check``'s splice, before its read-back), the file
    as first read, and the entries kept."""
    try:
        doc = read_skill(text, "SKILL.md")
    except SkillFileError:
        return
    written = [] if doc.allowed_tools is None else list(doc.allowed_tools.entries)
    for plan in plans(written, r):
        try:
            decision = _decide(doc, plan, "SKILL.md", None)
        except SkillFileError:
            continue
        new = _spliced(doc, decision.allowed)
        if new is not None:
            yield new, doc, list(decision.allowed)


def readback_disagreements(texts: list[str], seed: int) -> tuple[int, list[str]]:
    """(rewrites compared, where ``reread`` reads a rewrite other than the whole reader)."""
    r = random.Random(seed)
    count, failures = 0, []
    for text in texts:
        for new, doc, _ in rewrites(text, r):
            count += 1
            fast = _outcome(reread, doc, new)
            whole = _outcome(read_skill, new, "SKILL.md")
            if fast != whole:
                failures.append(f"{text!r} -> {new!r}: {fast!r} / {whole!r}")
    return count, failures


@needs_corpus
@pytest.mark.parametrize("seed", [1, 2])
def test_read_backs_of_mutated_real_skills_read_as_the_whole_reader(seed: int) -> None:
    texts = [text for _, text in corpus_texts(seed, 400)]
    count, failures = readback_disagreements(texts, seed)
    assert count > 200
    assert failures == []


def bun_disagreements(texts: list[str], seed: int) -> tuple[int, int, list[str]]:
    """(texts read, rewrites read, where skillgrant reads, or ``apply`` keeps, other entries
    than the runtime's steps under Bun read) on ``texts`` and on each plan's rewrite."""
    r = random.Random(seed)
    theirs_all = bun_runtime.read_batch(BUN, texts)
    failures, pending = [], []
    read = 0
    for text, theirs in zip(texts, theirs_all, strict=True):
        try:
            ours = read_skill(text, "SKILL.md").runtime_entries
        except SkillFileError:
            continue
        read += 1
        if ours != theirs.entries and not theirs.hooks:
            failures.append(f"read {text!r}: {ours} / Bun {theirs.entries}")
            continue
        for new, _, kept in rewrites(text, r):
            pending.append((text, new, kept))
    after = bun_runtime.read_batch(BUN, [new for _, new, _ in pending])
    for (text, new, kept), theirs in zip(pending, after, strict=True):
        done = _outcome(reread, read_skill(text, "SKILL.md"), new)
        if not isinstance(done, SkillDoc):
            continue  # check refuses the rewrite: nothing is written
        expected = () if done.runtime_note else ("*",) if "*" in kept else tuple(kept)
        if theirs.entries != expected and not theirs.hooks:
            failures.append(f"apply {text!r} -> {new!r}: kept {kept} / Bun {theirs.entries}")
    return read, len(pending), failures


@needs_bun
@needs_corpus
@pytest.mark.slow
def test_mutated_real_skills_and_their_rewrites_read_as_bun_reads_them() -> None:
    texts = [text for _, text in corpus_texts(3, 600)]
    read, rewritten, failures = bun_disagreements(texts, 3)
    assert read > 200 and rewritten > 200
    assert failures == []


def batch_disagreements(root: Path, texts: list[str]) -> tuple[int, list[str]]:
    """(outcomes compared, where ``check_chunk``'s outcome for a file differs from
    ``check_file``'s, as JSON and as the text report) over ``texts`` written under ``root``,
    each path given again after the batch, in reverse (the same path twice, a file whose text
    was read before)."""
    from skillgrant.cli.batch import check_chunk, check_file, file_done
    from skillgrant.reports.check import TextStyle

    paths = []
    for i, text in enumerate(texts):
        path = root / f"s{i}" / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8", newline="")
        paths.append(path)
    order = paths + paths[::-1]
    count, failures = 0, []

    def shown(outcome: object) -> object:
        if isinstance(outcome, BaseException):
            return repr(outcome)
        return (file_done(outcome, json_dry_run=True)[1:],  # type: ignore[arg-type]
                file_done(outcome, text=TextStyle("check", False, False, False))[1:])  # type: ignore[arg-type]

    for entries in (["Read", "Grep", "Glob", "Bash(git *)", "Write"], [], ["*"],
                    ["Bash(git:*)", "Bash(a: b)", "mcp__x__y", "Bash(a\u00a0b)"]):
        plan = Plan.from_entries(entries)
        pending, batch = iter(order), []
        while chunk := check_chunk(pending, plan, root, dry_run=True):
            batch.extend(chunk)
        for path, got in zip(order, batch, strict=True):
            count += 1
            alone = check_file(path, plan, root, write=False, dry_run=True)
            if shown(got) != shown(alone):
                failures.append(f"{entries} {path.read_text()!r}: {shown(got)} / {shown(alone)}")
    return count, failures


@needs_corpus
def test_a_batch_checks_each_mutated_real_skill_as_it_is_checked_alone(tmp_path: Path) -> None:
    texts = [text for _, text in corpus_texts(7, 160)]
    count, failures = batch_disagreements(tmp_path, texts)
    assert count == 4 * 2 * 160
    assert failures == []


def test_the_flow_sign_is_the_regexs_over_every_blank_and_line_break() -> None:
    """``yamlapart._flow_sign`` (a196eac) against the regex it stands for, on text of the
    characters either reads, the blanks YAML does not count (\\v, \\f, NEL, U+2028, NBSP)
    among them: held on 300,000 texts in the review."""
    from skillgrant.skillfile import yamlapart

    r = random.Random(52)
    alphabet = "[]{},:?!&*- \t\r\n\v\f\x85\u2028\u00a0ab#'\""
    for _ in range(20_000):
        text = "".join(r.choice(alphabet) for _ in range(r.randint(0, 12)))
        assert yamlapart._flow_sign(text) == (yamlapart._FLOW_SIGN.search(text) is not None)


def test_a_plain_scalars_tag_is_the_resolvers_whatever_its_first_character() -> None:
    """``flatyaml.plain_tag`` (aaae5eb) against PyYAML's resolver for every first character
    up to U+2FFF, alone and before a digit, and a resolver-keyed word."""
    import yaml
    from yaml.nodes import ScalarNode

    from skillgrant.skillfile.flatyaml import plain_tag

    resolver = yaml.resolver.Resolver()
    for code in range(0x3000):
        for plain in (chr(code), chr(code) + "1", chr(code) + "ull", chr(code) + "rue"):
            tag = resolver.resolve(ScalarNode, plain, (True, False))  # type: ignore[no-untyped-call]
            assert plain_tag(plain) == tag


#: (plan, the file's allowed-tools) for applying twice: R1's rows (the restore's canonical
#: spelling of a tool-wide content, which the next apply drops) and controls.
_TWICE = {"bash-star-kept": (["Bash(*)", "Read"], "Bash(*)"),
          "bash-star": (["Bash(*)", "Read"], "Grep"), "bash-empty": (["Bash()", "Read"], "Grep"),
          "write-empty": (["Write()", "Read"], "Grep"), "gh": (["Bash(gh *)", "Read"], "Grep"),
          "kept": (["Bash(git:*)", "Read"], "Read, Bash(git:*), Write")}
# (test_applying_twice_writes_what_applying_once_wrote: every case held since the fix, s51 merge)


@pytest.mark.parametrize("row", sorted(_TWICE))
def test_applying_twice_writes_what_applying_once_wrote(row: str) -> None:
    """``apply_to_text``'s promise (applying twice gives the text of applying once): what a
    rewrite keeps or restores is kept by the same plan again."""
    entries, value = _TWICE[row]
    plan = Plan.from_entries(entries)
    once = apply_to_text(f"---\nname: x\ndescription: d\nallowed-tools: {value}\n---\nb\n",
                         plan)[0]
    assert apply_to_text(once, plan)[0] == once
