"""A stdio MCP server of the suite's own: it lists the tools named on its command line and
answers every call with ``ok``. Claude Code starts one per server of ``--mcp-config``, so a probe
can call ``mcp__<server>__<tool>`` and the runtime's permission check is what decides.

Newline-delimited JSON-RPC 2.0 (the MCP stdio transport): ``initialize``, ``tools/list`` and
``tools/call`` are answered; notifications are read and ignored.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    tools = [t for t in (sys.argv[1] if len(sys.argv) > 1 else "").split(",") if t]
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("id") is None:
            continue
        method = message.get("method")
        if method == "initialize":
            params = message.get("params") or {}
            result: object = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "skillgrant-probe", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [{"name": t, "description": "a probe tool",
                                 "inputSchema": {"type": "object", "properties": {}}}
                                for t in tools]}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": "ok"}]}
        else:
            result = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result})
                         + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
