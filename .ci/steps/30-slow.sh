# The tests marked slow (tests/conftest.py, --slow): each installs the package into a new
# environment of its own, as a user does, so the README's test command leaves them out. Today:
# the README's GitHub Actions steps (`pip install ./.skillgrant` into a fresh venv, then its
# `run:` lines; tests/test_ci_snippets.py) and its `pre-commit try-repo` snippet (pre-commit
# builds an environment for the hook; tests/test_docs_snippets.py). Sourced by .ci/run with
# $venv set; pytest prints how many ran.
SKILLGRANT_EXAMPLES=full "$venv/bin/python" -m pytest -q -p no:cacheprovider --slow -m slow \
  || status=1
