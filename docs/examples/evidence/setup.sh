# A skill's runs, observed: the payloads Claude Code sends its PreToolUse hook, given to
# `skillgrant hook --observe` as the runtime would (docs/plans-from-evidence.md).
set -e
printf 'allowed-tools: []\n' > nothing.yaml
call() {
  python -c 'import json, sys; print(json.dumps({"session_id": "run-1", "cwd": "/work/app",
    "hook_event_name": "PreToolUse", "tool_name": sys.argv[1],
    "tool_input": json.loads(sys.argv[2])}))' "$1" "$2" |
    skillgrant hook --plan nothing.yaml --observe --audit-log audit.jsonl 2>/dev/null
}
call Bash '{"command": "git status"}'
call Bash '{"command": "git log --oneline -5"}'
call Bash '{"command": "git log -1 --stat"}'
call Bash '{"command": "npm run test"}'
call Bash '{"command": "npm run test -- --watch=false"}'
call Bash '{"command": "ls -la src"}'
call Read '{"file_path": "/work/app/src/main.py"}'
call Read '{"file_path": "/work/app/src/util.py"}'
call Write '{"file_path": "/work/app/out/report.md", "content": "# Report\n"}'
call WebFetch '{"url": "https://docs.python.org/3/library/json.html", "prompt": "read"}'
call Bash '{"command": "eval \"$FLAGS\""}'
