"""The folders of the shared libraries this process has loaded (moved from ``guards``)."""

from __future__ import annotations

import os

from . import files as fs


def loaded_libraries() -> list[str]:
    """The folders of the shared libraries this process has loaded (``/proc/self/maps``), as
    their real paths: a hook process loads the same at its start (whole: listing a system's
    library folder for links costs milliseconds). None where the system does not say."""
    try:  # (a service's list, kept with the set, holds a hook process's and more)
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            named = {line.split(None, 5)[-1].strip() for line in maps  # (a library's
                     if ".so" in line and "/" in line}  # name holds `.so`: others left)
    except OSError:
        return []
    folders = {os.path.dirname(p) for p in named
               if p.startswith("/") and ".so" in os.path.basename(p)}
    return sorted(folders | {fs.realpath(f) for f in folders})
