"""Where a test runner finds a file through a link (issue 29, review s52-greview2 R10).

Every runner the gate knows walks the folder it collects in through links, measured on this
machine: node 20's ``--test`` (``test/shared -> ../shared`` runs ``shared/x.js`` as
``test/shared/x.js``; a link named ``test`` makes every script in its target a test), bun
1.4.5's ``test`` (a folder link, and a link named ``x.test.js`` to ``../pkg/b.js``), pytest 9
(a folder link, and ``tests/test_h.py -> ../pkg/h.py`` imports ``pkg/h.py``). So a file is a
collected test by the path the runner meets it at, which ``testfiles.collected`` reads:
``places`` gives each path through the links below the collecting folders (and below what
they lead to, link after link) at which a runner meets a real path, and ``testfiles`` asks
each as it asks the path itself. A link made by the session counts from the next call on (the
link's own name below a test folder is guarded: ``intotests``).

The walk is of every folder below the collecting folders but ``node_modules`` (node's, bun's,
jest's and pytest's own defaults skip it) and ``.git`` (guarded whole: no call makes a link
there), following each link to a folder once. It is made at a call's first question about a
path (a call that writes nothing does not pay for it), kept with the guarded set it was made
for, and bounded: past ``MAX_ENTRIES`` entries the gate cannot say which files a runner
meets, and the question raises ValueError (the call is denied, naming why).
"""

from __future__ import annotations

from . import files as fs
from .linked import entries
from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Entries the walk below the collecting folders looks at, at most (a project of ten
#: thousand files takes some 10 ms; past the bound the question is refused).
MAX_ENTRIES: Final = 200_000
#: The folders the walk does not enter (see the module's text), by their exact names.
SKIPPED: Final = frozenset(("node_modules", ".git"))
#: The paths through links ``places`` gives one path at most (a chain of links is followed
#: that far).
MAX_PLACES: Final = 64
#: Each folded collecting folder's real path (``remember``): the walk reads the folders, the
#: guarded set keeps their folded paths.
_REAL: dict[str, str] = {}
#: The guarded set the last walk was made for (by identity: a hook decides one call; the
#: service makes a new set at any change its view reports), and the walk's links.
_LAST: list[tuple[object, tuple[tuple[str, str], ...]]] = []


def remember(real: str) -> str:
    """The folded ``real`` path of a collecting folder, its real spelling kept for the walk."""
    key = fold(real).rstrip("/")
    _REAL[key] = real
    return key


def places(key: str, guards: object) -> list[str]:
    """The folded paths at which a runner walking the collecting folders of ``guards``
    (``Guarded.collected``) meets the folded real path ``key`` through a link: a link's own
    path for its target, then each path below it, link after link (``MAX_PLACES`` at most).
    None when no link leads to ``key`` or a folder above it. Raises ValueError past
    ``MAX_ENTRIES`` entries walked."""
    links = _links(guards)
    found: list[str] = []
    pending = [key]
    while pending and len(found) < MAX_PLACES:
        path = pending.pop()
        for target, place in links:
            if path == target or path.startswith(target + "/"):
                moved = place + path[len(target):]
                if moved not in found and moved != key:
                    found.append(moved)
                    pending.append(moved)
    return found


def _links(guards: object) -> tuple[tuple[str, str], ...]:
    """Each link below the collecting folders of ``guards`` (and below the folders they lead
    to), as its folded target's real path and its own folded path: walked once for a set."""
    if _LAST and _LAST[0][0] is guards:
        return _LAST[0][1]
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    roots = tuple(sorted(_REAL.get(f, f) for f in folders))
    found = fs.kept(lambda: ("test links", roots), lambda: _walked(roots))
    _LAST[:] = [(guards, found)]
    return found


def _walked(roots: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``_links`` of the real folders ``roots``."""
    pending = [r for r in roots if not any(r.startswith(o + "/") for o in roots if o != r)]
    seen = set(pending)
    links: list[tuple[str, str]] = []
    left = MAX_ENTRIES
    while pending:
        folder = pending.pop()
        listed = entries(folder)
        left -= len(listed)
        if left < 0:
            raise ValueError(
                f"the folders the plan's test runners collect in hold more than {MAX_ENTRIES} "
                "entries, which the gate walks to find the links a runner follows (below "
                f"{roots[0]!r}), so the files they run are not known")
        base = folder.rstrip("/") + "/"
        for name, kind in listed:
            if kind == "file" or name in SKIPPED:
                continue
            path = base + name
            if kind == "dir" and path not in seen:
                seen.add(path)
                pending.append(path)
            elif kind == "link":
                target = fs.realpath(path)
                links.append((fold(target), fold(path)))
                if target not in seen and fs.is_folder(target):
                    seen.add(target)  # (each folder walked once, however reached: loops end)
                    pending.append(target)
    return tuple(links)
