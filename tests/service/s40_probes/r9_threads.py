"""Review s40 R9 with real threads: each round a new guarded set (a new index); thread A's
lookup builds the index's identities while thread B looks up a hard link to the plan.
`S40_QUIET=/some/folder PYTHONPATH=<tree> python r9_threads.py` (main 6adeb20: 72 of 3 000
rounds missed the hard link)."""

from __future__ import annotations

import os
import tempfile
import threading

from skillgrant.gate import named
from skillgrant.gate.guardedset import GUARDED


def main(rounds: int = 3000) -> None:
    base = tempfile.mkdtemp(dir=os.environ.get("S40_QUIET"))
    items = []
    for i in range(40):
        path = os.path.join(base, f"f{i}")
        with open(path, "w") as f:
            f.write("x")
        items.append((path, False))
    plan, link, other = (os.path.join(base, n) for n in ("plan.json", "link", "other"))
    for path in (plan, other):
        with open(path, "w") as f:
            f.write("{}")
    items.append((plan, False))
    os.link(plan, link)
    missed = 0
    for r in range(rounds):
        guarded = (*items, (os.path.join(base, f"n{r}"), True))  # a new set: a new index
        start = threading.Barrier(2)
        seen: list[str | None] = []

        def first(guarded: tuple[tuple[str, bool], ...] = guarded,
                  start: threading.Barrier = start) -> None:
            GUARDED.set(guarded)
            start.wait()
            named.guarded_path(other)

        def second(guarded: tuple[tuple[str, bool], ...] = guarded,
                   start: threading.Barrier = start, seen: list[str | None] = seen) -> None:
            GUARDED.set(guarded)
            start.wait()
            seen.append(named.guarded_path(link))

        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        missed += seen[0] != plan
    print("rounds", rounds, "hard link to the plan missed", missed)


if __name__ == "__main__":
    main()
