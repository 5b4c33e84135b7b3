# Cold start (issues 27 and 29): the hook as --print-config prints it (`python -I -m skillgrant
# hook`, a plain YAML plan, pinned) decides one call, and what it imported is printed: how many
# modules, and whether PyYAML, pydantic, dataclasses, Lark or typer were among them (none may
# be: the plain plan branch and the lazy package keep them off the hook's path). Its figures
# against `python -c pass` are `benchmarks/run.py startup gate`'s (timings are never asserted).
# Sourced by .ci/run with $venv set (under `set -euo pipefail`: a grep that finds nothing must
# not end CI, hence the `|| true`); about a second.
cold_dir=$(mktemp -d)
printf 'allowed-tools:\n  - Bash(git *)\n  - Read\n' > "$cold_dir/plan.yaml"
cold_cmd=$("$venv/bin/python" -c "import sys; from skillgrant.gate.config import command; print(command('claude-code', sys.argv[1]))" "$cold_dir/plan.yaml")
cold_out=$(printf '%s' '{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}' \
  | sh -c "${cold_cmd/ -m skillgrant / -X importtime -m skillgrant }" 2>&1 >/dev/null; echo "rc=$?")
cold_mods=$(printf '%s\n' "$cold_out" | grep -c '^import time: ' || true)
# at any depth (importtime indents a module by who imported it), a submodule too (yaml.reader)
cold_heavy=$(printf '%s\n' "$cold_out" | grep -oE '\| +(yaml|pydantic|dataclasses|lark|typer)(\.[A-Za-z0-9_.]+)?$' \
  | sed -E 's/^\| +//; s/\..*//' | sort -u | tr '\n' ' ' || true)
echo "cold start: the printed hook decided 'git status' ($(printf '%s\n' "$cold_out" | tail -1)), ${cold_mods} modules imported; heavy ones: ${cold_heavy:-none}"
case "$cold_out" in *rc=0) ;; *) status=1 ;; esac
[ -z "$cold_heavy" ] || status=1
rm -rf "$cold_dir"
