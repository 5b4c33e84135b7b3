"""What in the user's home a program the gate covers reads as what to do or run (issue 29):
a call writing one is ``unknown``, as for git's configuration (``guards``); the home itself,
and the system's folders of programs."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Files and folders in the user's home that a program the gate covers reads as what to do or
#: run: ssh's configuration (``ProxyCommand``, ``LocalCommand``; ``git fetch``/``push``,
#: ``scp``), sqlite3's start-up file (run before ``-safe`` takes effect: measured with
#: ``-init``), curl's and wget's (an output file, a command), and the shell's start-up files
#: (the Bash tool's next session). A call writing one is ``unknown``, as for git's. (A file's
#: name is a guarded name, which any word holding it is denied for (``guards._names``): a
#: folder is guarded whole where its files' names are common, as ``.cargo``'s ``config``.)
HOME_CODE: Final = ((".ssh", True), (".copilot", True), (".codex", True), (".sqliterc", False),
                    (os.path.join(".config", "sqlite3"), True),
                    (".curlrc", False), (os.path.join(".config", "curlrc"), False),
                    (".wgetrc", False), (".bashrc", False), (".bash_profile", False),
                    (".bash_login", False), (".profile", False), (".bash_logout", False),
                    (".zshrc", False), (".zshenv", False), (".zprofile", False),
                    # review s41: what an editor git starts runs (E1: `git commit` without
                    # `-m` starts vi), kubectl's exec credentials (K1), Python's user
                    # site-packages, whose `.pth` lines run at start (V7f), and other
                    # programs' settings that name a command to run
                    (".vimrc", False), (".vim", True), (".exrc", False), (".gvimrc", False),
                    (os.path.join(".config", "nvim"), True), (".emacs", False),
                    (".emacs.d", True), (".kube", True), (".aws", True), (".docker", True),
                    (".npmrc", False), (".yarnrc", False), (".yarnrc.yml", False),
                    (".npm-init.js", False),  # npm init's `init-module` (review s45 H1)
                    (".cargo", True), (".gradle", True),
                    (".irbrc", False), (".pryrc", False), (".Rprofile", False),
                    (".psqlrc", False), (os.path.join(".config", "gh"), True),
                    (os.path.join(".local", "lib"), True),
                    # review s42: gpg's agent and dirmngr programs (`git log
                    # --show-signature` starts them: H1), less's `#env` section (LESSOPEN runs
                    # at each `less FILE`: H2), ImageMagick's delegates (a command run to read
                    # a format: H3), terraform's provider overrides (H4), the aliases a
                    # `.bashrc` sources into the Bash tool's next snapshot (H5), ripgrep's
                    # settings (`--pre`: R1)
                    (".gnupg", True), (".lesskey", False), (".less", False),
                    (os.path.join(".config", "lesskey"), False),
                    (os.path.join(".config", "ImageMagick"), True), (".magick", True),
                    (".terraformrc", False), ("terraform.rc", False), (".terraform.d", True),
                    (".bash_aliases", False), (".ripgreprc", False), (".gemini", True),
                    (".bashrc.d", True),  # (Fedora's .bashrc sources each file: s62-mreview R9)
                    # review s43: lesspipe's user filter (H11), node's modules in the home
                    # (H13), the toolchains and interpreters version managers run for a name
                    # on PATH (rustup's proxies, pyenv's shims and kin: H14, H15)
                    (os.path.join(".config", "lessfilter"), False), (".lessfilter", False),
                    (".node_modules", True), (".node_libraries", True), (".rustup", True),
                    (".pyenv", True), (".nvm", True), (".rbenv", True), (".asdf", True),
                    (".volta", True), (os.path.join(".local", "share", "mise"), True),
                    (os.path.join(".config", "mise"), True),
                    # review s44: man-db's user configuration (its DEFINE lines name the
                    # programs man runs: R1); Maven's launcher script and its settings and
                    # plugin repository (H1); the folders a login profile puts first on PATH
                    # once they exist (H3); pip's settings (its index: H4); mypy's and
                    # pylint's (the plugins they import: P5)
                    (".manpath", False), (".mavenrc", False), (".m2", True), ("bin", True),
                    (os.path.join(".local", "bin"), True), (".pip", True),
                    (os.path.join(".config", "pip"), True), (".mypy.ini", False),
                    (os.path.join(".config", "mypy"), True), (".pylintrc", False),
                    (os.path.join(".config", "pylintrc"), False),
                    # husky's init.sh, which its hooks source before each (H5)
                    (os.path.join(".config", "husky"), True),
                    # review s46 E1: gh's extensions (`gh NAME` runs gh-NAME there), helm's
                    # plugins (`helm NAME`)
                    (os.path.join(".local", "share", "gh"), True),
                    (os.path.join(".local", "share", "helm"), True),
                    # session 48: cmake's user package registry (find_package: review s47 M2),
                    # pre-commit's hook repositories, corepack's package managers (s48 H1, N1)
                    (".cmake", True), (os.path.join(".cache", "pre-commit"), True),
                    (os.path.join(".cache", "node", "corepack"), True),
                    # terraform's and tofu's implicit provider mirrors (s48-greview2 T1)
                    (os.path.join(".local", "share", "terraform"), True),
                    (os.path.join(".local", "share", "opentofu"), True),
                    # invoke's user settings (a `.py` one runs), scons' site folder (s48)
                    (".invoke.py", False), (".invoke.yaml", False), (".invoke.yml", False),
                    (".invoke.json", False), (".scons", True),
                    # session 49: R's user environment (`R_PROFILE_USER`) and its package
                    # builds' `Makevars` (s48-greview2 I1), prove's and rspec's options, uv's
                    # and tox's user settings (U1)
                    (".Renviron", False), (".R", True), (".proverc", False), (".rspec", False),
                    (".valgrindrc", False), (".pdbrc", False),
                    (os.path.join(".local", "share", "meson"), True),  # (machine files)
                    (os.path.join(".config", "uv"), True),
                    (os.path.join(".config", "tox"), True))
#: Where every skillgrant service keeps its state below a home (``service/sessionsfile.py``:
#: its sessions files), the home of the password database (issue 29, review s52-sreview S2;
#: s53-sreview R1): every gate guards it whole, whatever its own ``HOME``, so that no session
#: of any gate writes another service's registry.
STATE: Final = os.path.join(".local", "state", "skillgrant")
#: The variable naming the state folder in ``STATE``'s stead (a test suite's, or an operator's
#: who sets it for the service and every runtime alike: a gate without it guards the usual one).
STATE_VARIABLE: Final = "SKILLGRANT_STATE_DIR"


#: The state folder the hook's command names (``--state-dir``, which ``hook --print-config``
#: carries from ``SKILLGRANT_STATE_DIR``: s53-sreview R3), guarded beside the variable's; set
#: by the hook's process for its one call (``gate/hook.py``), never by a service.
NAMED_STATE: list[str] = []


def usual_state_folder() -> str:
    """``STATE`` in this user's home of the password database: where a service keeps its
    state without ``SKILLGRANT_STATE_DIR`` (``service/sessionsfile.py``); "" when the
    database names no home for this user."""
    import pwd

    try:
        return os.path.join(pwd.getpwuid(os.geteuid()).pw_dir, STATE)
    except (KeyError, OSError):  # (a user the database does not name)
        return ""


def state_folders() -> list[str]:
    """``usual_state_folder()`` (none when the database names no home), ``STATE`` in
    ``HOME`` (a runtime run with ``--user UID`` in a container whose database names another
    home or none, and a service beside it: s53-sreview R5), the folder
    ``SKILLGRANT_STATE_DIR`` names and the hook's ``--state-dir`` (``NAMED_STATE``; absolute
    paths only)."""
    usual = usual_state_folder()
    home = os.environ.get("HOME") or ""
    given = os.environ.get(STATE_VARIABLE) or ""
    return [f for f in dict.fromkeys((usual, home and os.path.join(home, STATE), given,
                                      *NAMED_STATE)) if f[:1] == "/"]


#: The system's files that a program the gate covers reads as what to run (review s44):
#: man-db's configuration (R1), Maven's launcher scripts (H1), pip's settings (H4).
SYSTEM_CODE: Final = (("/etc/manpath.config", False), ("/etc/man_db.conf", False),
                      ("/etc/mavenrc", False), ("/usr/local/etc/mavenrc", False),
                      ("/etc/pip.conf", False), ("/etc/xdg/pip", True))
#: Variables naming a file or folder in HOME_CODE's stead (the programs read it instead).
MOVED_CODE: Final = ("GNUPGHOME", "LESSKEYIN", "LESSKEY", "MAGICK_CONFIGURE_PATH",
                     "TF_CLI_CONFIG_FILE", "RIPGREP_CONFIG_PATH", "COPILOT_HOME",
                     # the libraries every program loads first (H12b), node's module folders,
                     # the version managers' own folders (H13-H15)
                     "LD_LIBRARY_PATH", "NODE_PATH", "RUSTUP_HOME", "PYENV_ROOT", "NVM_DIR",
                     "RBENV_ROOT", "ASDF_DATA_DIR", "VOLTA_HOME", "MISE_DATA_DIR",
                     "GH_DATA_DIR", "HELM_PLUGINS", "HELM_DATA_HOME",  # (s46 E1)
                     "PRE_COMMIT_HOME", "COREPACK_HOME",  # (s48 H1, N1)
                     # the folders an interpreter takes modules from before its own (L2)
                     "PERL5LIB", "PERLLIB", "RUBYLIB", "GEM_PATH", "GEM_HOME", "CLASSPATH",
                     "R_LIBS", "R_LIBS_USER", "R_LIBS_SITE", "GOPATH", "JULIA_LOAD_PATH")
#: Files in a folder (the call's, the project's, each above) that pick the interpreter or
#: toolchain a version manager's shim runs (review s43 H15), by the manager's folder in the
#: home (or its variable): guarded where the manager is there to read them.
VERSION_FILES: Final = {
    ".pyenv": ("PYENV_ROOT", (".python-version",)),
    ".nvm": ("NVM_DIR", (".nvmrc", ".node-version")),
    ".rbenv": ("RBENV_ROOT", (".ruby-version",)),
    ".asdf": ("ASDF_DATA_DIR", (".tool-versions",)),
    os.path.join(".local", "share", "mise"): ("MISE_DATA_DIR", ("mise.toml", ".mise.toml",
                                                                 ".tool-versions")),
    ".rustup": ("RUSTUP_HOME", ("rust-toolchain", "rust-toolchain.toml")),
    ".volta": ("VOLTA_HOME", ())}


def version_files() -> list[str]:
    """The names of ``VERSION_FILES`` whose manager is installed (its folder in the home, or
    its variable set)."""
    home = os.path.expanduser("~")
    return [name for folder, (variable, names) in VERSION_FILES.items()
            if os.environ.get(variable) or fs.is_folder(os.path.join(home, folder))
            for name in names]


#: Folders of the system's programs (``PATH``), not read for links.
SYSTEM_BINS: Final = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/", "/snap/", "/nix/",
               "/etc/")


def home_named() -> None:
    """Raises ValueError when ``HOME`` is empty: Claude Code's runtime then reads the password
    database's home, where ``os.path.expanduser`` says ``/`` (review s41 F5). Unset, the home
    folder is the password database's, which the view does not watch."""
    home = os.environ.get("HOME")
    if home == "":
        raise ValueError("the session's HOME is empty, so the user's settings may be read "
                         "from a folder the gate cannot name; set HOME")
    if not home:
        fs.unkept()


def system_code(bins: list[str]) -> list[tuple[str, bool]]:
    """``SYSTEM_CODE``, the ``prefixes`` of the folders of programs ``bins``, and each of the
    system's folders this process may write (``SYSTEM_TREES``), whole."""
    return [*SYSTEM_CODE, *prefixes(bins),
            *((folder, True) for folder in SYSTEM_TREES if os.access(folder, os.W_OK))]


#: The system's folders of programs, their libraries and settings: a root session (or a user
#: owning ``/usr/local``, ``/opt/homebrew``) writes what a plan's program loads from them
#: (``/etc/perl/strict.pm``, ``/etc/python3.11/sitecustomize.py``, ``/usr/etc/npmrc``,
#: ``/etc/ssh/ssh_config``: review s45 R1); a list of their files cannot be complete. Reading
#: them stays allowed (``readers``).
SYSTEM_TREES: Final = ("/etc", "/usr", "/opt", "/lib", "/lib32", "/lib64", "/libx32", "/bin",
                       "/sbin", "/var/lib", "/snap", "/nix", "/Library", "/System",
                       "/private/etc", "/opt/homebrew", "/usr/local")  # (not /srv's data)


def prefixes(bins: list[str]) -> list[tuple[str, bool]]:
    """What an interpreter found in the folders of programs ``bins`` (``PATH``'s, as real
    paths) reads at its start beside them (review s44 P2): a virtual environment's or conda's
    prefix, the folder holding ``bin`` and ``pyvenv.cfg`` or ``conda-meta`` (its
    site-packages' ``.pth`` lines run, its ``pyvenv.cfg`` names the standard library), whole;
    the ``lib`` beside a system folder of programs (``/usr/local/lib``'s dist-packages, whose
    ``.pth`` lines Debian's ``python3`` runs), whole; a ``node_modules`` holding one (L1)."""
    found: list[tuple[str, bool]] = []
    for prefix in dict.fromkeys(os.path.dirname(folder) for folder in bins):
        lib = os.path.join(prefix, "lib")
        if (lib + "/").startswith(SYSTEM_BINS):  # (`/bin`'s too: `/lib`)
            found.append((lib, True))
        if fs.exists(os.path.join(prefix, "pyvenv.cfg")) or fs.is_folder(
                os.path.join(prefix, "conda-meta")):
            found += [(prefix, True), *_base(prefix)]
    return found + packages([folder + "/" for folder in bins])


def packages(targets: list[str]) -> list[tuple[str, bool]]:
    """The node packages the targets of ``PATH``'s links run (review s45 L1: a tool installed
    under a user's prefix, ``bin/npm -> ../lib/node_modules/npm/bin/npm-cli.js``): the
    ``node_modules`` folder holding the target, whole (node resolves its modules from each
    ``node_modules`` above it). A script outside one (``npm link``'s, a user's own) is their
    code: its file alone is guarded (s41 S5), not the project it may sit in."""
    return [(target[:at + len("/node_modules")], True) for target in targets
            if (at := target.find("/node_modules/")) >= 0]


def _base(prefix: str) -> list[tuple[str, bool]]:
    """The ``lib`` of the interpreter a virtual environment's ``pyvenv.cfg`` names (its
    ``home``: the standard library it loads; review s44 P2d), whole; the environment's folder
    itself when the file cannot be read."""
    try:
        text = fs.read(os.path.join(prefix, "pyvenv.cfg"), 1 << 16).decode()
    except FileNotFoundError:
        return []  # (conda's)
    except (OSError, ValueError):
        return [(prefix, True)]
    homes = [line.split("=", 1)[1].strip() for line in text.splitlines()
             if line.split("=", 1)[0].strip() == "home" and "=" in line]
    return [(os.path.join(os.path.dirname(home.rstrip("/")), "lib"), True) for home in homes]


#: The variables ``npm_global`` reads (npm reads them in any case; these two spellings).
NPM_ENVIRONMENT: Final = ("npm_config_prefix", "NPM_CONFIG_PREFIX", "npm_config_globalconfig",
                          "NPM_CONFIG_GLOBALCONFIG", "npm_config_userconfig",
                          "NPM_CONFIG_USERCONFIG")


def npm_global(home: str) -> list[tuple[str, bool]]:
    """npm's configuration files where its user settings or the environment move them (review
    s46 N2): the user's file a variable names (``npm_config_userconfig``, any case), and the
    global one of the prefix it or the user's file names (``<prefix>/etc/npmrc``: the folder
    whole) or its ``globalconfig`` (``prefix=~/.npm-global``, npm's own advice for global
    installs without root). A file not read as text moves nothing the gate can name: its
    folder's ``etc`` is guarded in its stead."""
    given = {k.lower(): v for k, v in os.environ.items() if k.lower().startswith("npm_config_")}
    user = os.path.expanduser(given.get("npm_config_userconfig") or os.path.join(home, ".npmrc"))
    settings: dict[str, str] = {}
    try:
        for line in fs.read(user, 1 << 20).decode().splitlines():
            key, eq, value = line.partition("=")
            if eq:
                settings[key.strip().lower()] = os.path.expandvars(value.strip().strip("\"'"))
    except FileNotFoundError:
        pass
    except (OSError, ValueError):
        settings["prefix"] = os.path.dirname(user)
    prefix = given.get("npm_config_prefix") or settings.get("prefix")
    config = given.get("npm_config_globalconfig") or settings.get("globalconfig")
    return [(user, False), *([(os.path.join(os.path.expanduser(prefix), "etc"), True)]
                             if prefix else []),
            *([(os.path.expanduser(config), False)] if config else [])]
