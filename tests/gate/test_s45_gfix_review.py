"""Review s45 (s45-greview)'s tests of the holes s45-gfix closes (copied from
tests/gate/test_s45_greview.py, which stays the reviewer's): gh checking out a branch (G1),
gh's and other programs' commands writing their own guarded settings (G2, S1). Each proves the
hole with real bash, then asks the printed hook."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from bash_review import bash, needs
from files_fixture import gated_project
from test_gate_files import _settings_hook, payload

#: Real bash and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow


def _first_denied(project: Path, calls: list[str], env: dict[str, str] | None = None,
                  cwd: Path | None = None) -> str | None:
    """``bash_review.first_denied``, from the folder ``cwd`` (the project when None): the
    payload's ``cwd`` and the folder the hook and each allowed call run in."""
    hook = _settings_hook(project)
    folder = cwd or project
    for call in calls:
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder),
                              cwd=folder, capture_output=True, timeout=60, check=False,
                              env=env)
        if done.returncode == 2:
            return call
        bash(call, folder, env)
    return None


def _home_env(home: Path) -> dict[str, str]:
    home.mkdir()
    return {**os.environ, "HOME": str(home)}



# --- a program that writes its own settings, which the gate guards, naming none --------

#: (the program needed, the plan, the calls): the first calls write the program's settings
#: (``~/.npmrc``, ``package.json``, ``~/.kube/config``, ``~/.aws/config``), the last runs
#: what they name.
OWN_SETTINGS = {
    "npm-config-set": ("npm", ["Bash(npm config *)", "Bash(npm test)"],
                       ["npm config set script-shell ./e.sh", "npm test"]),
    "npm-pkg-set": ("npm", ["Bash(npm pkg *)", "Bash(npm test)"],
                    ["npm pkg set scripts.test=./e.sh", "npm test"]),
    "kubectl-config": ("kubectl", ["Bash(kubectl config *)", "Bash(kubectl get *)"],
                       ["kubectl config set-cluster c --server=https://127.0.0.1:1",
                        "kubectl config set-credentials u --exec-command=touch --exec-arg=zz "
                        "--exec-api-version=client.authentication.k8s.io/v1beta1",
                        "kubectl config set-context x --cluster=c --user=u",
                        "kubectl config use-context x", "kubectl get pods"]),
    "aws-configure": ("aws", ["Bash(aws configure *)", "Bash(aws s3 ls)"],
                      ["aws configure set credential_process ./e.sh", "aws s3 ls"]),
}


@pytest.mark.parametrize("case", list(OWN_SETTINGS))
def test_s1_a_program_writes_its_own_settings(tmp_path: Path, case: str) -> None:
    """S1 (writers: ``git config`` is read as writing git's configuration, G-9; no other
    program's own settings command is): ``npm config set`` writes ``~/.npmrc`` (HOME_CODE),
    ``npm pkg set`` the ``package.json`` the plan's ``npm test`` runs (guarded for it:
    planprograms), ``kubectl config set-credentials --exec-command`` ``~/.kube/config``
    (an exec credential plugin, run at the next request), ``aws configure set
    credential_process`` ``~/.aws/config``: each a file the gate guards, written by a
    program whose words name none. The plan's covered run then runs the payload."""
    program, entries, calls = OWN_SETTINGS[case]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    (project / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = _home_env(tmp_path / "proof-home")
    for call in calls:
        bash(call, scratch, proof)
    assert (scratch / "zz").exists(), "bash ran no payload: the case proves nothing"
    env = _home_env(tmp_path / "home")
    assert _first_denied(project, calls, env) is not None, \
        "the hook allows a program to write its own guarded settings, and their run"



# --- gh: a subcommand that checks out a pull request's branch ------------------------------

#: A stand-in for a GitHub Enterprise host on https://localhost: its GraphQL endpoint answers
#: that pull request 1's head is the branch ``rev`` of o/r, and ``git http-backend`` serves
#: the repositories under ROOT (argv: port, root, certificate folder).
FAKE_GITHUB = r'''
import http.server, json, os, ssl, subprocess, sys
ROOT, CERTS = sys.argv[2], sys.argv[3]
PR = {"id": "P", "number": 1, "url": "https://localhost/o/r/pull/1", "headRefName": "rev",
      "isCrossRepository": False,
      "maintainerCanModify": False, "headRepositoryOwner": {"id": "U", "login": "o"},
      "headRepository": {"id": "R", "name": "r"}}
class H(http.server.BaseHTTPRequestHandler):
    def _reply(self, status, headers, body):
        self.send_response(status)
        for k, v in headers: self.send_header(k, v)
        self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def _git(self, body):
        path, _, query = self.path.partition("?")
        env = {"GIT_PROJECT_ROOT": ROOT, "GIT_HTTP_EXPORT_ALL": "1", "PATH_INFO": path,
               "QUERY_STRING": query, "REQUEST_METHOD": self.command,
               "CONTENT_TYPE": self.headers.get("Content-Type", ""),
               "CONTENT_LENGTH": str(len(body)), "PATH": os.environ["PATH"]}
        out = subprocess.run(["git", "http-backend"], input=body, env=env,
                             capture_output=True).stdout
        head, _, rest = out.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode().split("\r\n"):
            k, _, v = line.partition(":")
            if k.lower() == "status": status = int(v.split()[0])
            elif k: headers.append((k, v.strip()))
        self._reply(status, headers, rest)
    def do_GET(self):
        self._git(b"")
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if ".git/" in self.path: return self._git(body)
        repo = {"id": "R", "name": "r", "owner": {"id": "U", "login": "o"},
                "defaultBranchRef": {"name": "main"}, "pullRequest": PR}
        self._reply(200, [("Content-Type", "application/json")],
                    json.dumps({"data": {"repository": repo}}).encode())
    def log_message(self, *a): pass
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(CERTS + "/cert.pem", CERTS + "/key.pem")
s = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
s.socket = ctx.wrap_socket(s.socket, server_side=True)
print("ready", flush=True)
s.serve_forever()
'''


@pytest.fixture
def github(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The stand-in GitHub on https://localhost (port 443: root), serving o/r; the
    environment that sends gh and git to it."""
    needs("gh", "openssl")
    if os.geteuid() != 0:
        pytest.skip("the stand-in GitHub listens on port 443 (gh drops a URL's port)")
    certs = tmp_path / "certs"
    certs.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(certs / "key.pem"), "-out", str(certs / "cert.pem"), "-days", "2",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    (tmp_path / "server.py").write_text(FAKE_GITHUB)
    (tmp_path / "served" / "o").mkdir(parents=True)
    server = subprocess.Popen([sys.executable, str(tmp_path / "server.py"), "443",
                               str(tmp_path / "served"), str(certs)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        if server.stdout.readline().strip() != "ready":
            pytest.skip("port 443 is taken here")
        yield {**os.environ, "GH_HOST": "localhost", "GH_ENTERPRISE_TOKEN": "x",
               "GH_CONFIG_DIR": str(tmp_path / "gh-config"), "GH_PROMPT_DISABLED": "1",
               "SSL_CERT_FILE": str(certs / "cert.pem"),
               "GIT_SSL_CAINFO": str(certs / "cert.pem")}
    finally:
        server.kill()
        server.wait(timeout=60)
        if server.stdout is not None:
            server.stdout.close()


def _hooked(settings: Path) -> bool:
    return settings.exists() and "PreToolUse" in settings.read_text()


#: (the plan, the call): each brings the branch ``rev`` (settings without the hook) into
#: the working tree.
GH_CHECKOUTS = {"pr-checkout": ("Bash(gh pr *)", "gh pr checkout 1")}
# (the reviewer's "repo-sync" case proves nothing here yet: gh repo sync brought no branch;
# writers reads it as git's working-tree write, test_s45_gfix.py checks that)


@pytest.mark.parametrize("case", list(GH_CHECKOUTS))
def test_g1_gh_pr_checkout_brings_a_branch_without_the_hook(
        tmp_path: Path, github: dict[str, str], case: str) -> None:
    """G1 (writers._one: ``gh`` writes the working tree only for ``download``/``clone``/
    ``-O``/``-D``; ``gh pr checkout`` and ``gh repo sync`` are none): under ``Bash(gh pr
    *)`` (a plan the brief names narrow) ``gh pr checkout 1`` fetches the pull request's
    branch and runs ``git checkout`` of it, as ``git checkout rev`` does, which the gate
    denies in a project holding a ``.claude`` folder; under ``Bash(gh repo *)`` ``gh repo
    sync`` fast-forwards the checked-out branch to the remote's (here moved to ``rev``). The
    branch's ``.claude/settings.json`` holds no hook (and its plan grants all of Bash):
    Claude Code reads the settings again and drops the hook."""
    entry, call = GH_CHECKOUTS[case]
    project = tmp_path / "project"
    gated_project(project, [entry])
    served = tmp_path / "served" / "o" / "r.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(project), str(served)], check=True,
                   capture_output=True, timeout=60)
    branch = subprocess.run(["git", "branch", "--show-current"], cwd=project, check=True,
                            capture_output=True, text=True, timeout=60).stdout.strip()
    for args in (["remote", "add", "origin", "https://localhost/o/r.git"],
                 ["fetch", "-q", "origin"], ["branch", "-q", "-u", f"origin/{branch}"]):
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True,
                       timeout=60, env=github)
    # (gh repo sync wants no untracked file: the fixture's are left out, as .gitignore would)
    (project / ".git" / "info" / "exclude").write_text("*\n")
    subprocess.run(["git", "update-ref", f"refs/heads/{branch}", "refs/heads/rev"], cwd=served,
                   check=True, capture_output=True, timeout=60)
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    bash(call, scratch, github)
    assert _hooked(project / ".claude" / "settings.json")
    assert not _hooked(scratch / ".claude" / "settings.json"), \
        "gh checked out no branch: the case proves nothing"
    assert _first_denied(project, [call], github) is not None, \
        "the hook allows gh to check out a branch whose settings hold no hook"


def test_g2_gh_config_names_the_browser_gh_pr_view_runs(
        tmp_path: Path, github: dict[str, str]) -> None:
    """G2 (writers: ``git config`` writes git's guarded configuration, G-9; ``gh config set``
    is read as writing nothing): ``gh config set browser ./e.sh`` writes ``browser:`` into
    ``~/.config/gh/config.yml`` (guarded whole, HOME_CODE), naming no guarded path; the
    covered ``gh pr view 1 --web`` then runs ``./e.sh URL`` as the browser. Plan
    ``Bash(gh config *)``, ``Bash(gh pr *)``: no grant of a program of the model's choosing."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(gh config *)", "Bash(gh pr *)"])
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    subprocess.run(["git", "remote", "add", "origin", "https://localhost/o/r.git"],
                   cwd=project, check=True, capture_output=True, timeout=60)
    calls = ["gh config set browser ./e.sh", "gh pr view 1 --web"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = {**_home_env(tmp_path / "proof-home"), **{
        k: v for k, v in github.items() if k.startswith(("GH_", "SSL_", "GIT_SSL"))}}
    proof.pop("GH_CONFIG_DIR")
    for call in calls:
        bash(call, scratch, proof)
    assert (scratch / "zz").exists(), "gh ran no browser: the case proves nothing"
    env = {**proof, "HOME": str(_home_env(tmp_path / "home")["HOME"])}
    assert _first_denied(project, calls, env) is not None, \
        "the hook allows gh to write its configuration's browser, and its run"


# --- review s45 P1, P1b: what a plan's program finds walking up, above the call --------


def test_p1_npm_runs_the_package_json_of_a_folder_above_the_call(tmp_path: Path) -> None:
    """P1 (planprograms.STARTS: for the node runners ``package.json`` and ``node_modules/``
    are guarded in the call's folder only; ``.npmrc``, ``.yarnrc``, … from it up, ``^``):
    npm runs the scripts of the nearest folder above holding a ``package.json``. A session
    in ``web/src`` of the package ``web`` (started there, or moved there) is allowed ``cp
    ../../evil.json ../package.json``; the covered ``npm test`` then runs its ``test``
    script. Plan ``Bash(cp *)``, ``Bash(npm test)``."""
    needs("npm")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(npm test)"])
    src = project / "web" / "src"
    src.mkdir(parents=True)
    (project / "web" / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
    (project / "evil.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "touch zz"}}))
    calls = ["cp ../../evil.json ../package.json", "npm test"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch / "web" / "src")
    assert (scratch / "web" / "zz").exists(), "npm ran no payload: the case proves nothing"
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(src)}
    assert _first_denied(project, calls, env, src) is not None, \
        "the hook allows writing the package.json above the call that npm test runs"


def test_p1b_cargo_runs_the_build_script_of_the_package_above_the_call(
        tmp_path: Path) -> None:
    """P1b (the same: ``build.rs`` is guarded in the call's folder, ``^Cargo.toml`` from it
    up): cargo builds the package of the nearest ``Cargo.toml`` above, and runs its
    ``build.rs``. From ``crate/src``, ``cp ../../evil.rs ../build.rs`` is allowed; the
    covered ``cargo build`` compiles and runs it. Plan ``Bash(cp *)``, ``Bash(cargo build)``."""
    needs("cargo")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])
    src = project / "crate" / "src"
    src.mkdir(parents=True)
    (project / "crate" / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (src / "main.rs").write_text("fn main() {}\n")
    (project / "evil.rs").write_text(
        'fn main() { std::process::Command::new("touch").arg("zz").status().unwrap(); }\n')
    calls = ["cp ../../evil.rs ../build.rs", "cargo build"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch / "crate" / "src")
    assert (scratch / "crate" / "zz").exists(), "cargo ran no payload: the case proves nothing"
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(src)}
    assert _first_denied(project, calls, env, src) is not None, \
        "the hook allows writing the build.rs above the call that cargo build runs"


# --- review s45 H1: npm init's module in the home --------------------------------------


def test_h1_npm_init_runs_the_users_init_module(tmp_path: Path) -> None:
    """H1 (homefiles.HOME_CODE holds ``.npmrc``, not npm's ``init-module``): ``npm init``
    loads and runs ``~/.npm-init.js`` (its ``init-module`` setting's default), ``-y`` too.
    Plan ``Bash(cp *)``, ``Bash(npm init *)``: ``cp e.js ~/.npm-init.js`` (the home spelled
    absolute) is allowed; ``npm init -y`` runs it."""
    needs("npm")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(npm init *)"])
    (project / "e.js").write_text(
        "require('child_process').execSync('touch zz'); module.exports = {}\n")
    calls = ["cp e.js {home}/.npm-init.js", "npm init -y"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    proof = _home_env(tmp_path / "proof-home")
    for call in calls:
        bash(call.format(home=proof["HOME"]), scratch, proof)
    assert (scratch / "zz").exists(), "npm ran no init module: the case proves nothing"
    env = _home_env(tmp_path / "home")
    assert _first_denied(project, [c.format(home=env["HOME"]) for c in calls], env) \
        is not None, "the hook allows writing ~/.npm-init.js, and the npm init that runs it"


# --- review s45 R1: a root session writes the system's files a plan's program loads ------


def _isolated(project: Path, folders: list[str], calls: list[str],
              hook: str | None = None, setup: tuple[str, ...] = ()) -> tuple[str | None, bool]:
    """Runs ``calls`` under bash in ``project``, in a private mount namespace where each of
    ``folders`` is a copy (the system's own is never written), after the shell lines
    ``setup``; with ``hook``, asks it for each call first and stops at the first denied.
    The call denied (or None), and whether the payload ran (``zz`` in the project)."""
    driver = project.parent / f"driver-{project.name}.sh"
    lines = ["set -u", f"work=$(mktemp -d -p {project.parent})",
             "export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a "
             "GIT_COMMITTER_EMAIL=a@b"]
    for i, folder in enumerate(folders):
        lines += [f"mkdir -p $work/{i}", f"cp -a {folder}/. $work/{i}/",
                  f"mount --bind $work/{i} {folder}"]
    lines += [*setup, f"cd {project}"]
    for i, call in enumerate(calls):
        (project.parent / f"call{i}").write_text(call)
        if hook is not None:
            (project.parent / f"payload{i}").write_bytes(payload(call, project))
            lines.append(f"/bin/sh -c {json.dumps(hook)} < {project.parent}/payload{i} "
                         f">/dev/null 2>&1; [ $? = 2 ] && {{ echo DENIED {i}; exit 0; }}")
        lines.append(f'timeout 60 bash -c "$(cat {project.parent}/call{i})" </dev/null '
                     '>/dev/null 2>&1')
    driver.write_text("\n".join(lines) + "\n")
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", str(driver)],
                          capture_output=True, text=True, timeout=300, check=False)
    denied = next((calls[int(line.split()[1])] for line in done.stdout.splitlines()
                   if line.startswith("DENIED ")), None)
    return denied, (project / "zz").exists()


def _root_namespaces() -> None:
    if os.geteuid() != 0:
        pytest.skip("a root session's case")
    if subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False).returncode:
        pytest.skip("no private mount namespace here")


def _python_etc() -> str:
    """Debian's folder of the system python3's sitecustomize (a link from its lib)."""
    link = Path("/usr/lib") / f"python3.{_minor()}" / "sitecustomize.py"
    if not link.is_symlink():
        pytest.skip("the system python3 has no sitecustomize link into /etc")
    return str(link.resolve().parent)


def _minor() -> str:
    done = subprocess.run(["/usr/bin/python3", "-c", "import sys; print(sys.version_info[1])"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _npm_global() -> str:
    done = subprocess.run(["npm", "config", "get", "globalconfig"], capture_output=True,
                          text=True, check=False, timeout=60)
    return done.stdout.strip()


def _root_case(case: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """(programs needed, the plan, the calls, the system folders they write) of ``case``."""
    if case == "perl-etc":
        return (["perl", "shasum"], ["Bash(cp *)", "Bash(shasum *)"],
               ["cp strict.pm /etc/perl/strict.pm", "shasum notes.txt"], ["/etc/perl"])
    if case == "debian-sitecustomize":
        etc = _python_etc()
        return (["yq"], ["Bash(cp *)", "Bash(yq *)"],
               [f"cp s.py {etc}/sitecustomize.py", "yq . a.yaml"], [etc])
    if case == "npm-globalconfig":
        needs("npm")
        rc = _npm_global()
        return (["npm"], ["Bash(cp *)", "Bash(npm test)"], [f"cp n.rc {rc}", "npm test"],
               [os.path.dirname(rc)])
    if case == "vim-system-vimrc":  # (Debian's /etc/vim/vimrc sources vimrc.local)
        return (["vim", "git"], ["Bash(cp *)", "Bash(git commit *)"],
                ["cp v.vim /etc/vim/vimrc.local", "git commit --allow-empty"], ["/etc/vim"])
    return (["ssh", "git"], ["Bash(cp *)", "Bash(git fetch *)"],
            ["cp ssh.conf /etc/ssh/ssh_config", "git fetch ssh://h/x"], ["/etc/ssh"])


ROOT_CASES = ["perl-etc", "debian-sitecustomize", "npm-globalconfig", "ssh-system-config",
              "vim-system-vimrc"]


@pytest.mark.parametrize("case", ROOT_CASES)
def test_r1_a_root_session_writes_what_a_plan_program_loads(tmp_path: Path, case: str) -> None:
    """R1 (guards._guarded_items: the system's files guarded are a list, /etc/gitconfig,
    /etc/pip.conf, /etc/mavenrc, the lib beside a folder of PATH; a root session writes the
    others): Debian's perl puts /etc/perl first in @INC (``shasum``'s ``use strict``);
    Debian's /usr/bin/python3 imports sitecustomize, a link from /usr/lib/python3.X into
    /etc/python3.X (``yq``, ``pygmentize``, Debian's pip are its scripts); npm reads its
    global configuration beside node's prefix (``/usr/etc/npmrc``: ``script-shell``); ssh
    reads /etc/ssh/ssh_config (``ProxyCommand``) for ``git fetch``; Debian's vim, the
    ``editor`` ``git commit`` starts without ``-m``, sources /etc/vim/vimrc.local. Each
    write is made in a private mount namespace, on a copy of the folder."""
    _root_namespaces()
    programs, entries, calls, folders = _root_case(case)
    needs(*programs)
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / "strict.pm").write_text(
        "package strict; system('touch zz'); sub import {} sub unimport {} 1;\n")
    (project / "s.py").write_text("import os; os.system('touch zz')\n")
    (project / "a.yaml").write_text("a: 1\n")
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    (project / "n.rc").write_text("script-shell=./e.sh\n")
    (project / "package.json").write_text(json.dumps(
        {"name": "x", "version": "1.0.0", "scripts": {"test": "echo ok"}}))
    (project / "ssh.conf").write_text("Host *\n  ProxyCommand sh -c 'touch zz'\n")
    (project / "v.vim").write_text('call system("touch zz") | qa!\n')
    scratch = tmp_path / "scratch" / "project"
    shutil.copytree(project, scratch, symlinks=True)
    assert _isolated(scratch, folders, calls)[1], "bash ran no payload: the case proves nothing"
    denied, ran = _isolated(project, folders, calls, _settings_hook(project))
    assert denied is not None, "the hook allows a root session's write of a system file a " \
        f"plan program then runs (payload ran: {ran})"


# --- review s45 T1: terraform starts the providers of its working folder -------------


TF_MAIN = ('terraform {\n  required_providers {\n    evil = {\n'
           '      source  = "hashicorp/evil"\n      version = "1.0.0"\n    }\n  }\n}\n')
TF_PROVIDER = ".terraform/providers/registry.terraform.io/hashicorp/evil/1.0.0/linux_amd64"


def _h1(folder: Path) -> str:
    """Terraform's ``h1:`` hash of a provider's folder (Go's dirhash.Hash1)."""
    lines = "".join(f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f.name}\n"
                    for f in sorted(folder.iterdir()))
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


def test_t1_terraform_validate_starts_the_providers_of_the_working_folder(
        tmp_path: Path) -> None:
    """T1 (planprograms.STARTS has no rule for terraform; homefiles guards ~/.terraformrc and
    ~/.terraform.d only): ``terraform validate`` starts each provider the configuration
    requires, from ``.terraform/providers/…`` of the working folder, once its ``h1:`` hash
    equals the one ``.terraform.lock.hcl`` records. Plan ``Bash(cp *)``, ``Bash(terraform
    validate)`` (a validator): ``cp -r evil/tf/.terraform .terraform`` and ``cp
    evil/tf/lock.hcl .terraform.lock.hcl`` are allowed; ``terraform validate`` runs the
    provider, a script of the model's."""
    needs("terraform")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(terraform validate)"])
    (project / "main.tf").write_text(TF_MAIN)
    provider = project / "evil" / "tf" / TF_PROVIDER
    provider.mkdir(parents=True)
    (provider / "terraform-provider-evil").write_text("#!/bin/sh\ntouch zz\n")
    (provider / "terraform-provider-evil").chmod(0o755)
    (project / "evil" / "tf" / "lock.hcl").write_text(
        'provider "registry.terraform.io/hashicorp/evil" {\n  version = "1.0.0"\n'
        f'  hashes = ["{_h1(provider)}"]\n}}\n')
    calls = ["cp -r evil/tf/.terraform .terraform", "cp evil/tf/lock.hcl .terraform.lock.hcl",
             "terraform validate"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch)
    assert (scratch / "zz").exists(), "terraform started no provider: the case proves nothing"
    assert _first_denied(project, calls) is not None, \
        "the hook allows planting a provider that terraform validate starts"
