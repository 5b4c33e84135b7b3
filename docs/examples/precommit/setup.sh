# A repository with one skill whose plan lies above it: what pre-commit try-repo runs on.
set -e
git init -q
git add -A
