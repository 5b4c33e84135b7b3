"""What the reader keeps of the runtime's frontmatter on its document (``SkillDoc.known``,
s62-bfix) is what the document's properties would work out, and ``removed_tools`` gives the
same with the document as without it."""

from __future__ import annotations

import pytest

from skillgrant.skillfile import read_skill
from skillgrant.skillfile.removed import removed_tools
from skillgrant.skillfile.runtime import runtime_frontmatter

TEXTS = (
    "---\nname: x\nallowed-tools: Read\n---\nbody\n",
    "---\n\nname: x\nallowed-tools: [Read]\n---\n",
    "---\nname: x\ndisallowed-tools: Edit, Bash\nallowed-tools: Read\n---\n",
    '---\nname: x\n"d\\x69sallowed-tools": [Edit]\nallowed-tools: Read\n---\n',
    "---\nname: x\nallowed-tools: Read\n---\ndisallowed-tools: Edit\n",
    "---\nname: x\ndescription: a\\b\nallowed-tools: Read\n---\n",
    "---\nargument-hint: [a] [b]\ndisallowed-tools: Edit\nallowed-tools: Read\n---\n",
)


@pytest.mark.parametrize("text", TEXTS)
def test_the_reader_keeps_what_it_found(text: str) -> None:
    doc = read_skill(text)
    fresh = read_skill(text)
    span = runtime_frontmatter(text)
    assert doc.runtime_span == span
    if doc.retried is None:  # (the reader's own document: it gave them)
        assert {"runtime_span_same", "runtime_span"} <= set(vars(doc))
        assert doc.runtime_span_same == (span is not None and span.end == doc.yaml_end and
                                         not text[doc.yaml_start:span.start].strip())
        assert bool(doc.runtime_nodes) == (span == (doc.yaml_start, doc.yaml_end))
    else:
        assert doc.runtime_nodes == ()
    assert removed_tools(text, doc) == removed_tools(text) == removed_tools(text, fresh)
