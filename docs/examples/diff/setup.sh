# The repository the diff examples run in: the plan as committed (HEAD), then the change.
set -e
git init -q
mv .claude/skills/plan.yaml plan.new.yaml
printf 'allowed-tools:\n  - Bash(gh *)\n  - Read(src/**)\n  - WebFetch(domain:api.github.com)\n' > .claude/skills/plan.yaml
git add .claude/skills/plan.yaml
git commit -q -m "the approved plan"
mv plan.new.yaml .claude/skills/plan.yaml
