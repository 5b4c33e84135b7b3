"""The project's files whose values a program takes at its start as it takes its environment
or its options (issue 29, review s50-greview3 E1, F1): an env file (``node --env-file=.env``,
``bun``'s ``.env``, ``.env.local``, ``.env.<NODE_ENV>`` read at every start) sets variables
(``NODE_OPTIONS``, ``BASH_ENV``: ``startvars`` reads each as an entry's own assignment), and
bun's settings (``bunfig.toml``, guarded: ``starttables``) name the modules it loads first
(``preload``, top level, ``[test]``, ``[run]``, ``[serve.static]``'s ``plugins``). Each file is
read as it is now: it is guarded (a call the plan covers does not change it), so what it
names is what the program reads."""

from __future__ import annotations

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Any, Final

#: The most of a settings file read.
_LIMIT: Final = 1 << 20


def settings_text(path: str) -> str | None:
    """The text of ``path``, or None when it is not there; ValueError when it cannot be
    read."""
    try:
        return fs.read(path, _LIMIT).decode()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read for the variables or modules a program "
                         f"takes from it at its start: {e}") from e


def env_file(path: str) -> list[tuple[str, str]]:
    """The variables the env file ``path`` sets, as dotenv parsers (node's, bun's) read it:
    ``NAME=value`` lines (``export`` before one; ``#`` comments; a value in quotes whole, over
    lines too; a bare value both to its first ``#`` and to its first `` #``), each
    ``$NAME``/``${NAME}`` of a name set before in the file replaced by its value (bun expands
    them; the session's are ``envpaths``' to read). None when it is not there."""
    text = settings_text(path)
    if text is None:
        return []
    found: list[tuple[str, str]] = []
    lines = text.replace("\r\n", "\n").split("\n")
    while lines:
        line = lines.pop(0).strip()
        if not line or line[:1] == "#" or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if value[:1] in ("'", '"', "`"):
            while value.count(value[0]) < 2 and lines:
                value += "\n" + lines.pop(0)
            value = value[1:].split(value[0], 1)[0]
        else:  # (node's and bun's end a bare value at `#`, others at ` #`: both read, G17)
            cut = value.split("#", 1)[0].strip()
            value = value.split(" #", 1)[0].strip()
            if cut != value:
                found.append((name.strip(), _expanded(cut, found)))
        found.append((name.strip(), _expanded(value, found)))
    return found


def _expanded(value: str, found: list[tuple[str, str]]) -> str:
    """``value`` with each ``$NAME``/``${NAME}`` of a name ``found`` before replaced."""
    for known, was in sorted(found, key=lambda p: -len(p[0])):
        value = value.replace("${" + known + "}", was).replace("$" + known, was)
    return value


def bunfig_preloads(path: str) -> list[str]:
    """The modules bun's settings file ``path`` makes it load first: each ``preload`` (a
    string or a list of them) at the top, in ``[test]`` and ``[run]``, and ``[serve.static]``'s
    ``plugins``. None when it is not there; ValueError for one that is not TOML, or a value
    that is not a string."""
    text = settings_text(path)
    if text is None:
        return []
    import tomllib  # (only where a bunfig.toml is: a hook's start does not pay for it)

    try:
        table: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path!r} is not TOML the gate reads (what bun preloads from it "
                         f"is not known): {e}") from e
    found: list[str] = []
    for section, key in (((), "preload"), (("test",), "preload"), (("run",), "preload"),
                         (("serve", "static"), "plugins")):
        value: Any = table
        for name in section:
            value = value.get(name, {}) if isinstance(value, dict) else {}
        value = value.get(key, []) if isinstance(value, dict) else []
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ValueError(f"{path!r}'s {'.'.join((*section, key))} is not a string or a "
                             "list of them: what bun preloads is not known")
        found += values
    return found
