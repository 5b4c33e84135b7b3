"""Flow collections PyYAML rejects and Bun reads (s47-ffix; ``skillfile.flowlenient``), run
with ``--bun``: the frontmatter's own values, as skillgrant reads them (``SkillDoc.metadata``,
which feeds the key checks and the hook-drop test), against the runtime's steps under Bun
(``bun_reader.js``'s ``DDr``), on generated flow values after a line that sends the runtime
to its retry or not. A file skillgrant reads must hold what Bun reads."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
from bun_fixture import bun

from skillgrant.errors import SkillFileError
from skillgrant.skillfile import read_skill

__all__ = ["bun"]

TOKENS = ["a", "b", ", ", ",", ": ", ":", "? ", "[", "]", "{", "}", " ", "- ", "'q'", '"d"',
          "${V}", "@", "`", "PreToolUse: y"]
BEFORE = ["", "argument-hint: [a] [b]\n", "description: use it: now\n"]
_MAIN = """
const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(texts.map((t) => {
  const h = eC(t).match(K0); const Y = DDr(h[1] || "");
  return Y.ok ? Qs(Y.value) : {};
})));
"""


def _texts(count: int) -> list[str]:
    rng = random.Random(47)
    out = []
    for _ in range(count):
        value = rng.choice("[{") + "".join(rng.choice(TOKENS) for _ in range(
            rng.randint(1, 6))) + rng.choice("]}")
        out.append(f"---\nname: p\n{rng.choice(BEFORE)}x: {value}\nallowed-tools: Read\n---\n")
    return out


def test_skillgrant_reads_a_flow_value_as_bun_does(bun: Path, tmp_path: Path) -> None:
    source = bun_runtime.READER.read_text(encoding="utf-8").split("const decoder")[0]
    script = tmp_path / "flow.js"
    script.write_text(source + _MAIN, encoding="utf-8")
    texts = _texts(20_000)
    done = subprocess.run([str(bun), str(script)], input=json.dumps(texts), capture_output=True,
                          text=True, timeout=600, check=True)
    theirs = json.loads(done.stdout)
    read = 0
    failures = []
    for text, frontmatter in zip(texts, theirs, strict=True):
        try:
            doc = read_skill(text)
        except SkillFileError:
            continue
        read += 1
        ours = json.loads(json.dumps(dict(doc.metadata), default=str))
        if ours.get("x") != frontmatter.get("x"):
            failures.append(f"{text!r}: skillgrant {ours.get('x')!r}, Bun "
                            f"{frontmatter.get('x')!r}")
    assert failures == [], f"{len(failures)} of {read} read:\n" + "\n".join(failures[:20])
    assert read > 2_000, read
