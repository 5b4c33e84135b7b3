"""Copilot CLI's ``skillDirectories`` (review s45-freview F8): the folders the repository's
``.github/copilot/settings.json`` and ``settings.local.json`` (review s46-freview2 D1) name,
which Copilot CLI 1.0.102 searches for skills wherever they are in the project,
``node_modules``, ``.git`` and ``.hg`` included (measured: a skill there loads and its
``shell(touch)`` runs). The walk (``files.walk``) searches each whole.

Measured: a relative path inside the project loads; an absolute path, a path out of the project,
and the key in ``.copilot/settings.json`` or ``.claude/settings.json`` did not. An absolute path
inside the project is searched too (more is read, never less). A settings file that cannot be
read as JSON, or whose ``skillDirectories`` is not a list of names, is an error for the run: its
folders cannot be known.
"""

from __future__ import annotations

import json
import os

from ..limits import MAX_FILE_BYTES

SETTINGS = "settings.json"
#: The settings files Copilot CLI 1.0.102 reads ``skillDirectories`` from (review s46-freview2
#: D1: ``settings.local.json`` too).
SETTINGS_FILES = (SETTINGS, "settings.local.json")
#: The end of the folder that holds the settings file, as the walk spells folders.
COPILOT_FOLDER = os.sep + os.path.join(".github", "copilot")


def settings_folders(copilot: str, names: list[str]) -> list[str] | OSError:
    """The folders named by each of ``SETTINGS_FILES`` among ``names`` (the files of the
    folder ``copilot``), each once, in order; the first error reading one."""
    found: list[str] = []
    for name in SETTINGS_FILES:
        named = skill_directories(copilot, name) if name in names else []
        if isinstance(named, OSError):
            return named
        found += [folder for folder in named if folder not in found]
    return found


def skill_directories(copilot: str, name: str = SETTINGS) -> list[str] | OSError:
    """The folders (existing, inside the project: ``copilot``'s grandparent) that
    ``copilot/NAME`` (one of ``SETTINGS_FILES``) names in ``skillDirectories``, or the error
    reading it."""
    path = os.path.join(copilot, name)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        value = json.loads(data.decode("utf-8").removeprefix("\ufeff"))
    except (OSError, ValueError) as e:
        return OSError(0, f"cannot read Copilot CLI's settings ({e}), whose skillDirectories "
                       "may name folders of skills it loads", path)
    if len(data) > MAX_FILE_BYTES:
        return OSError(0, f"Copilot CLI's settings are over {MAX_FILE_BYTES} bytes", path)
    named = value.get("skillDirectories") if isinstance(value, dict) else None
    if named is None:
        return []
    if not isinstance(named, list) or not all(isinstance(item, str) for item in named):
        return OSError(0, "Copilot CLI's skillDirectories is not a list of folder names", path)
    project = os.path.dirname(os.path.dirname(copilot))
    real_project = os.path.realpath(project)
    found = []
    for item in named:
        folder = os.path.normpath(os.path.join(project, item))
        real = os.path.realpath(folder)
        inside = real == real_project or real.startswith(real_project.rstrip(os.sep) + os.sep)
        if inside and os.path.isdir(folder):
            found.append(folder)
    return found
