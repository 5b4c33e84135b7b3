"""How to install one of skillgrant's extras (``serve``) into the environment that runs it, from
where this installation came from.

skillgrant is not on an index yet, so ``pip install 'skillgrant[serve]'`` fails for most users.
pip records where a package was installed from (PEP 610, ``direct_url.json``): a checkout (a
folder, perhaps editable), a wheel or other archive, or a version-control URL. An installation
without that record came from an index. The hint names this interpreter's pip, so the extra
lands in the environment that needs it, activated or not.
"""

from __future__ import annotations

import json
import shlex
import sys
from urllib.parse import unquote, urlparse


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` into this environment, as a shell runs it."""
    pip = [sys.executable, "-m", "pip", "install"]
    return shlex.join([*pip, *requirement(extra, _direct_url())])


def requirement(extra: str, direct: dict[str, object] | None) -> list[str]:
    """pip's arguments for the package with ``extra``, installed the way ``direct`` (the
    parsed ``direct_url.json``, or None: from an index) says it was."""
    url = direct.get("url") if direct is not None else None
    if direct is None or not isinstance(url, str):
        return [f"skillgrant[{extra}]"]
    parsed = urlparse(url)
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        at = f"@{commit}" if isinstance(commit, str) else ""
        return [f"skillgrant[{extra}] @ {vcs.get('vcs', 'git')}+{url}{at}"]
    if parsed.scheme != "file":  # an archive by URL
        return [f"skillgrant[{extra}] @ {url}"]
    path = unquote(parsed.path)
    info = direct.get("dir_info")
    if isinstance(info, dict) and info.get("editable"):
        return ["-e", f"{path}[{extra}]"]
    return [f"{path}[{extra}]"]  # a folder, or a wheel or sdist file


def _direct_url() -> dict[str, object] | None:
    """This installation's ``direct_url.json`` (for a checkout never installed, as if it had
    been installed from its folder), or None: from an index."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        text = distribution("skillgrant").read_text("direct_url.json")
    except PackageNotFoundError:  # run from a checkout that was never installed
        from pathlib import Path

        checkout = Path(__file__).resolve().parents[2]
        if not (checkout / "pyproject.toml").is_file():
            return None
        return {"url": checkout.as_uri(), "dir_info": {}}
    if text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
