"""What a plugin runs when it loads, read from its JSON files (review s45-freview F7, review
s46-freview P1), and where in those files it is written.

Claude Code 2.1.332's schemas (read from the JavaScript in its binary) name the fields of a
plugin that hold a command: an MCP server's ``command`` (stdio) and ``headersHelper`` (sse,
http, ws: a shell command run for the request headers; the managed-settings check lists the
same four, ``["command","args","env","headersHelper"]``, as "a program to run"), an LSP server's
``command`` (``.lsp.json`` at the plugin's root, or the manifest's ``lspServers``), a monitor's
``command`` (``monitors/monitors.json``, or the manifest's ``monitors`` or
``experimental.monitors``: "background watch scripts ... unsandboxed, same trust tier as
hooks"), and the plugin's settings (``settings.json`` at its root, or the manifest's
``settings``), of which the runtime applies ``agent`` (the agent the session runs as) and
``subagentStatusLine`` (a command). A plugin holding any of them is refused; a remote MCP
server (a ``url``, no ``command``, no ``headersHelper``) runs nothing here, and its tools still
need a grant.
"""

from __future__ import annotations

import json
import os
import re
from json.decoder import scanstring as _scanstring  # type: ignore[attr-defined]
from typing import Final

from .yamlspan import line_column

MCP_FILE: Final = ".mcp.json"
LSP_FILE: Final = ".lsp.json"
MONITORS_FILE: Final = os.path.join("monitors", "monitors.json")
SETTINGS_FILE: Final = "settings.json"
#: The plugin settings the runtime applies (``Usa``); every other key is dropped.
_SETTINGS: Final = {"agent": "the agent the session runs as",
                     "subagentStatusLine": "a command the runtime runs"}
_SPACE = re.compile(r"[ \t\n\r]*")


def said(text: str, offset: int | None, why: str) -> str:
    """``LINE:COLUMN: why`` and the refusal's reason, at ``offset`` of the JSON ``text``."""
    line, column = line_column(text, offset or 0)
    return (f"{line}:{column}: {why}; skillgrant does not judge a plugin's manifest, hooks or MCP "
            "servers, so it refuses the plugin's command and skill files")


def dotted(keys: tuple[str | int, ...]) -> str:
    return ".".join(str(key) for key in keys)


def mcp_runs(text: str, keys: tuple[str | int, ...], servers: object) -> str | None:
    """``said`` for the first MCP server in ``servers`` (at ``keys`` of the JSON ``text``)
    that runs a command when the plugin loads: any that is not a remote one (a ``url``, no
    ``command``, no ``headersHelper``), and any ``servers`` that is not a mapping of them (a
    file's name: its servers are not read here). None when every server is remote."""
    if not isinstance(servers, dict):
        return said(text, member(text, keys), f"the plugin's {dotted(keys)!r} names MCP "
                    "server files, whose servers may run commands when the plugin loads")
    for server, spec in servers.items():
        if isinstance(spec, dict) and "command" not in spec and "headersHelper" not in spec \
                and isinstance(spec.get("url"), str):
            continue
        helper = spec.get("headersHelper") if isinstance(spec, dict) else None
        command = spec.get("command") if isinstance(spec, dict) else None
        runs = (f"the command {command!r}" if isinstance(command, str) else
                f"its headersHelper {helper!r}" if isinstance(helper, str) else "a command")
        return said(text, member(text, (*keys, server)), f"the plugin's MCP server "
                    f"{server!r} runs {runs} when the plugin loads, whatever the plan")
    return None


def parts_run(text: str, prefix: tuple[str | int, ...], entry: dict[str, object]) -> str | None:
    """``said`` for a manifest's (or a marketplace entry's, at ``prefix``) LSP servers,
    monitors, or settings the runtime applies; None when it has none."""
    experimental = entry.get("experimental")
    found = [((*prefix, "lspServers"), entry.get("lspServers"), "starts LSP servers, each "
              "running its command"),
             ((*prefix, "monitors"), entry.get("monitors"), "arms monitors, each running its "
              "command for the whole session"),
             ((*prefix, "experimental", "monitors"), experimental.get("monitors")
              if isinstance(experimental, dict) else None, "arms monitors, each running its "
              "command for the whole session")]
    for keys, value, why in found:
        if value not in (None, [], {}):
            return said(text, member(text, keys), f"the plugin's {dotted(keys)!r} {why}")
    settings = entry.get("settings")
    return settings_run(text, (*prefix, "settings"), settings) if isinstance(
        settings, dict) else None


def settings_run(text: str, keys: tuple[str | int, ...], settings: dict[str, object]
                 ) -> str | None:
    """``said`` for plugin settings (at ``keys``) the runtime applies: an ``agent`` the
    session runs as, a ``subagentStatusLine`` command."""
    for key, what in _SETTINGS.items():
        if settings.get(key) is not None:
            return said(text, member(text, (*keys, key)),
                        f"the plugin's settings {dotted((*keys, key))!r} name {what}")
    return None


def file_runs(text: str, name: str, value: object) -> str | None:
    """``said`` for a plugin's ``.lsp.json``, ``monitors/monitors.json`` or ``settings.json``
    (``name``, read as ``value``) when the runtime runs something it holds."""
    if name == SETTINGS_FILE:
        return settings_run(text, (), value) if isinstance(value, dict) else None
    if value in ([], {}):
        return None
    why = ("the plugin's LSP servers file: each server runs its command" if name == LSP_FILE
           else "the plugin's monitors file: each monitor runs its command for the whole "
           "session")
    return said(text, 0, why)


def member(text: str, keys: tuple[str | int, ...]) -> int | None:
    """The offset in the JSON document ``text`` of the member named
    by ``keys`` (object keys and list indices): where its key (or list item) starts, of the
    last of equal keys, as JSON.parse keeps that one. None when there is no such member."""
    decoder = json.JSONDecoder()
    at = _skip(text, 0)
    for depth, key in enumerate(keys):
        last = depth == len(keys) - 1
        found = None
        if isinstance(key, int):
            if not text.startswith("[", at):
                return None
            at = _skip(text, at + 1)
            for _ in range(key):
                at = _skip(text, _skip(text, decoder.raw_decode(text, at)[1]) + 1)
            found = at
        elif text.startswith("{", at):
            at = _skip(text, at + 1)
            while text.startswith('"', at):
                name, end = _scanstring(text, at + 1)
                value_at = _skip(text, _skip(text, end) + 1)
                if name == key:
                    found = at if last else value_at
                at = _skip(text, decoder.raw_decode(text, value_at)[1])
                if not text.startswith(",", at):
                    break
                at = _skip(text, at + 1)
        if found is None:
            return None
        at = found
    return at


def _skip(text: str, at: int) -> int:
    """The offset of the first character at or after ``at`` that is not JSON whitespace."""
    match = _SPACE.match(text, at)
    return at if match is None else match.end()
