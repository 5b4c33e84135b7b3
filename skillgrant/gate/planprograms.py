"""The paths a plan's shell entries run (reviews s42 P1, s43 P2, s44 P1/P3): a covered ``cp``
must not replace the program, script, module or test an approved entry runs, nor what a
program reads first (``STARTS``: ``node_modules``, ``package.json``, a ``Makefile``,
``build.ninja``, Maven's ``.mvn``, pytest's settings and ``conftest.py``), nor a file its
options name it runs (``make -f``, ``awk -f``, ``cmake -P``). The guard
(``guards.guarded_items``) guards them whole, read from the call's folder and the project's;
a path marked ``^`` from every folder from the call's up."""

from __future__ import annotations

import functools
import itertools
import os

from ..lazy import compile_on_use
from .planpaths import (
    DOTENV,
    FAMILIES,
    INPUT,
    JS,
    MODULES,
    NODE_JS,
    REMADE,
    SAFE_PATH,
    SETTINGS,
    VALUED,
    WORKSPACES,
    family,
    in_folders,
    literal,
    local_package,
    module_files,
    option_values,
    takes_code,
)
from .wrapped import PACKAGE_RUNNERS, RUNNERS, RUNS_OPERAND, WRAPPERS, long_prefix

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Their options naming the folder whose ``package.json`` and ``node_modules`` they use.
_NODE_FOLDERS: Final = frozenset({"--workspace", "-w", "--prefix", "-C", "--dir", "--cwd"})
#: Programs that run a project's ``node_modules/.bin`` or its ``package.json``'s scripts.
_NODE_RUNNERS: Final = frozenset({"npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun"})


def plan_programs(entries: tuple[str, ...]) -> tuple[str, ...]:
    """``_plan_programs``, with the placeholders the runtime substitutes (review s44 P9) as
    the hook's environment gives them."""
    return _plan_programs(entries, tuple(os.environ.get(n) or "" for n in _PLACEHOLDERS))


#: The runtime's placeholders an entry may name its program by (``${CLAUDE_SKILL_DIR}``'s
#: folder is guarded whole, G-13), and the call's folder (``$PWD``, ``$(pwd)``: s44 P7).
_PLACEHOLDERS: Final = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
_PWD: Final = compile_on_use(r"(?:\$PWD|\$\{PWD\}|\$\(pwd\))/")
_PWD_ALONE: Final = compile_on_use(r"(?:\$PWD|\$\{PWD\}|\$\(pwd\))(?![\w/])")


@functools.lru_cache(maxsize=16)
def _plan_programs(entries: tuple[str, ...], values: tuple[str, ...]) -> tuple[str, ...]:
    """The paths the plan's shell entries name as the program run (``Bash(./tools/run.sh)``,
    ``Bash(./tools/*)``: the folder before a pattern), the scripts, modules and tests an
    interpreter or pytest runs (``Bash(python3 tools/run.py *)``: its folder too, Python's
    ``sys.path[0]``, the call's folder for ``-m``), and what each program reads at its start
    (``STARTS``; review s42 P1: a covered ``cp`` replaces the approved program, and the
    covered run runs the copy). A path ending in ``/`` is a folder; one starting with ``^``
    is read from every folder from the call's up (``guards``)."""
    found: list[str] = []
    home = os.path.expanduser("~")
    for entry in entries:
        tool, _, rest = entry.partition("(")
        rest = _HOME.sub(lambda _: home + "/", rest)  # `~/bin/x.sh`, `$HOME/…` (s43 P2d)
        rest = _PWD.sub("./", rest)
        for name, value in zip(_PLACEHOLDERS, values, strict=True):
            if value[:1] == "/":
                rest = rest.replace("${" + name + "}", value).replace("$" + name, value)
        if tool.strip() not in ("Bash", "Shell", "PowerShell"):
            continue
        folder = ""  # `cd tools && ./run.sh` runs tools/run.sh (review s42 P1j)
        text = _QUOTES.sub("", rest.rstrip(")").removesuffix(":*"))  # `bash -c "./x.sh"` (P2)
        text = _PWD_ALONE.sub(".", text)  # (`cd "$PWD" && make`: s48-greview P2)
        for part in _PARTS.split(text.replace("(", " ").replace(")", " ")):
            moved, words = _entry_words(part)
            if moved is not None and "$" in moved:
                break  # (a folder the gate cannot name: the rest runs there, unread)
            folder = os.path.join(folder, moved) if moved else folder
            if words and "$" in words[0] and "CLAUDE_" not in words[0]:
                found += in_folders([folder], (*_ALL_STARTS, *_RECIPE_PYTHON))  # (a program
            elif words and "$" not in words[0]:  # of a `$` name: any; `${CLAUDE_SKILL_DIR}
                found += in_folders([folder], _entry_programs(  # /x.sh`: the skill's folder
                    [w for w in words if "$" not in w]))  # is guarded, G-13)
            if words and (family(words[0]) in FAMILIES or words[0] in _INTERPRETERS):
                found += in_folders([folder], [p for t in INPUT.findall(part) for p in (
                    *literal(t), (os.path.dirname(t) or ".") + "/")])  # (`bash < x.sh`: S3)
    # (the call's folder itself, a script's there: not guarded whole, docs/call-gate.md)
    return tuple(dict.fromkeys(p for p in found if p != "./"))


def _entry_words(part: str) -> tuple[str | None, list[str]]:
    """The folder a command of an entry moves to (``cd -P DIR``, ``env -C DIR``: s43 P2c),
    and the words of the program it runs, past ``env``, wrappers, assignments, redirections."""
    split = part.split()  # a redirection with its target apart, a reserved word (s43 P2f)
    given = [w for at, w in enumerate(split) if not _ASSIGNED.match(w) and not (
        _REDIRECTION.match(w) or (at and _OPERATOR.fullmatch(split[at - 1])))]
    words = list(itertools.dropwhile(_RESERVED.__contains__, given))
    moved: str | None = None
    if words and (words[0] in WRAPPERS or words[0] in ("env", "unshare", "gdb") or
                  family(words[0]) == "shell"):  # (`env --chdir=sub make`, `bash -c --
        from .runneropts import entry_run  # 'cd sub && make'`: s48-greview2 R1, S4b)

        moved, words = entry_run(words)
    if words[:1] in (["cd"], ["pushd"]):
        operands = [w for w in words[1:] if w[:1] != "-"]
        return (os.path.join(moved or "", operands[0]) if operands else moved), []
    return moved, words


#: What separates the commands of an entry's text; the quotes a shell's ``-c`` text is in.
_PARTS: Final = compile_on_use(r"&&|\|\||[;|\n]|(?<![<>])&(?![>])")  # (not `2>&1`: P2f)
_QUOTES: Final = compile_on_use(r"['\"]")
_PATTERN: Final = compile_on_use(r"[*?\[]")
_HOME: Final = compile_on_use(r"(?:(?<=[\s(])|^)(?:~|\$HOME|\$\{HOME\})/")
_REDIRECTION: Final = compile_on_use(r"[0-9]*[<>]")
_OPERATOR: Final = compile_on_use(r"[0-9]*(?:>>?|<|&>>?|>&|>\|)")  # (its target follows)
_ASSIGNED: Final = compile_on_use(r"[A-Za-z_][A-Za-z0-9_]*=")
_RESERVED: Final = frozenset({"!", "if", "then", "else", "elif", "do", "while", "until", "{"})


def _entry_programs(words: list[str]) -> list[str]:
    """``plan_programs`` of one entry's words."""
    program, found = words[0], []
    name = os.path.basename(program)
    if "/" in program:  # a virtual environment's Python runs its `lib`'s .pth (P1b)
        found += literal(program)
        if name.startswith("python"):
            venv = os.path.dirname(os.path.dirname(program))  # (and its pyvenv.cfg: `home`
            found += [os.path.join(venv, "lib") + "/", os.path.join(venv, "pyvenv.cfg")]  # V2)
    if name in _NODE_RUNNERS and any(  # (a pattern: the call may give one, review s47 W1)
            _PATTERN.search(w) or w in ("-w", "-ws", "-r", "-F", "workspace", "workspaces") or
            w.startswith("-w") or
            long_prefix(w, "workspace", "workspaces", "recursive", "filter") for w in words):
        found += [WORKSPACES + f for f in ["", *option_values(words, _NODE_TOPS)]]  # (s44 P3)
    if name in RUNNERS and name not in RUNS_OPERAND:  # `setsid ./x.sh`, `taskset -c 0 ./x.sh`
        found += [p for w in words[1:] if "/" in w for p in literal(w)]  # (s43 P2b), and
        found += [p for at, w in enumerate(words[1:], 1) if w[:1] != "-"  # what each later
                  for p in _entry_programs(words[at:])]  # word may start (s48-greview R1)
    if name in PACKAGE_RUNNERS:  # `npx node tools/run.js`, `uv run python x.py` (s43 P2e)
        inner = next((i for i, w in enumerate(words[1:], 1) if os.path.basename(w) in
                      RUNS_OPERAND or os.path.basename(w).startswith(("python", "pytest"))),
                     None)
        found += _entry_programs(words[inner:]) if inner is not None else []
    return found + _started(name, words) + _script_words(name, words)


#: What a program reads at its start as code or as what to run (reviews s42 P1c, s43 P2, s44
#: P1, P3), by its name: its build file, its project's settings and modules, in the folder
#: it works in (the call's, or one its options name). A name ending in ``/`` is a folder; one
#: starting with ``^`` is read from every folder on the way up too (the program takes the
#: nearest it finds, or each: a copy nearer is read first), ``guards`` reads those from
#: every folder from the call's up.
_MAKEFILES: Final = ("Makefile", "makefile", "GNUmakefile")
#: The node package managers' lockfiles: an install takes the code they resolve (s47 N3).
_LOCKS: Final = ("^package-lock.json", "^npm-shrinkwrap.json", "^yarn.lock", "^pnpm-lock.yaml",
                 "^bun.lock", "^bun.lockb")
STARTS: Final = {
    # and what make's built-in rules remake a makefile from (`%: %.sh`, RCS, SCCS: s48 M1)
    **dict.fromkeys(("make", "gmake"), (*_MAKEFILES, *(f"{p}{n}{e}" for n in _MAKEFILES
                                                       for p, e in REMADE))),
    "ninja": ("build.ninja",), **dict.fromkeys(("terraform", "tofu"), (  # its providers (s45
        ".terraform/", ".terraform.lock.hcl", "terraform.d/")),  # T1; its mirror: s48)
    "cmake": ("CMakeLists.txt", "CMakePresets.json", "CMakeUserPresets.json", "CMakeCache.txt",
              *_MAKEFILES, "build.ninja", "^CMakeFiles/", "^cmake_install.cmake",  # (what
              "^CTestTestfile.cmake"),  # it generated in each folder, `cmake --build`: C1)
    # Maven's launcher hands `.mvn/jvm.config` to the JVM whatever the goal (`mvn -v`), and
    # reads `maven.config`, `extensions.xml`, the wrapper's jar and distribution there
    **dict.fromkeys(("mvn", "mvnw"), ("^.mvn/", "pom.xml")),
    **dict.fromkeys(("gradle", "gradlew"), (
        "^settings.gradle", "^settings.gradle.kts", "^build.gradle", "^build.gradle.kts",
        "^gradle.properties", "^gradle/", "^buildSrc/")),
    "cargo": ("^Cargo.toml", "^build.rs", "^.cargo/", "^target/"),  # (s45 P1b, P2)
    # and the package managers' settings there (`script-shell`, `yarnPath`, bun's
    # `preload`, pnpm's `.pnpmfile.cjs`: review s44 W3)
    # (the nearest folder up holding package.json is npm's: review s45 P1)
    **dict.fromkeys(_NODE_RUNNERS | {"node"}, ("^node_modules/", "^package.json", "^.npmrc",
                                              "^.yarnrc", "^.yarnrc.yml", "^.yarn/",
                                              "^bunfig.toml", "^.pnpmfile.cjs", *_LOCKS,
                                              "^.corepack.env", *DOTENV)),  # (s48 N1, N2)
    # the runners' own build files (review s47 H6)
    "just": ("^justfile", "^Justfile", "^.justfile"), "nox": ("noxfile.py", ".nox/"),
    "task": tuple(f"^{t}askfile{d}.{e}" for t in "Tt" for d in ("", ".dist")
                  for e in ("yml", "yaml")),
    "tox": ("^tox.ini", "^pyproject.toml", "^setup.cfg", "^.tox/"),  # (its envs: s48 T1)
    # other runners' build files (s48 H2), PEP 517's front end (`python -m build`: P3)
    **dict.fromkeys(("invoke", "inv"), ("^tasks.py", "^tasks/", "^invoke.yaml", "^invoke.yml",
                                        "^invoke.json", "^invoke.py")),
    "meson": ("meson.build", "meson.options", "meson_options.txt", "build.ninja",
              "meson-private/"), "scons": ("SConstruct", "Sconstruct", "sconstruct",
                                  "site_scons/"),
    **dict.fromkeys(("build", "pyproject-build"), ("pyproject.toml", "setup.py", "setup.cfg")),
    "mkdocs": ("mkdocs.yml",),
    "pre-commit": (".pre-commit-config.yaml", ".pre-commit-config.yml"),
    # pytest's settings (pytest 9 reads `pytest.toml` first) and conftest.py, from the
    # folder of its paths up to the root it picks by them
    "pytest": tuple("^" + n for n in ("conftest.py", "pytest.toml", ".pytest.toml",
                                      "pytest.ini", ".pytest.ini", "pyproject.toml",
                                      "setup.cfg", "tox.ini")),
    # the settings linters and type checkers import the plugins of (review s44 P5)
    **dict.fromkeys(("mypy", "dmypy"), tuple("^" + n for n in (
        "mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"))),
    "pylint": tuple("^" + n for n in ("pylintrc", ".pylintrc", "pylintrc.toml",
                                      ".pylintrc.toml", "pyproject.toml", "setup.cfg",
                                      "tox.ini")),
    "flake8": ("^setup.cfg", "^tox.ini", "^.flake8"),
    "coverage": ("^.coveragerc", "^setup.cfg", "^tox.ini", "^pyproject.toml"),
    "eslint": ("node_modules/", "package.json", *("^" + n for n in (
        "eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts",
        "eslint.config.mts", "eslint.config.cts", ".eslintrc.js", ".eslintrc.cjs",
        ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc"))),
    "prettier": ("node_modules/", "package.json", *("^" + n for n in (
        ".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml",
        ".prettierrc.json5", ".prettierrc.js", ".prettierrc.mjs", ".prettierrc.cjs",
        ".prettierrc.ts", ".prettierrc.toml", "prettier.config.js", "prettier.config.mjs",
        "prettier.config.cjs", "prettier.config.ts")))}
#: Of the names read walking up (``^``), the project's manifests and code (s42 P1g's class):
#: not guarded below the call's folder, where editing a member's ``Cargo.toml`` is the work;
#: a program's own settings (``.mvn``, ``.cargo``, ``.npmrc``) are, at any depth (s44 P10),
#: and cargo's ``target`` (the compiled build scripts it runs: a crate below the call's folder
#: builds into its own, review s46-greview2 C4).
MANIFESTS: Final = frozenset({"Cargo.toml", "build.rs", "pyproject.toml",
                              "setup.cfg", "tox.ini", "conftest.py", "build.gradle",
                              "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
                              "gradle", "buildSrc", "package.json", "justfile", "Justfile",
                              ".justfile", *(n[1:] for n in _LOCKS),
                              *(f"{t}askfile{d}.{e}" for t in "Tt" for d in ("", ".dist")
                                for e in ("yml", "yaml"))})
#: Programs running commands the project defines (recipes, scripts, hooks), which may start
#: any program: under them what any program reads at its start is guarded (review s46 H2/H3).
_RUNS_ANY: Final = frozenset({"make", "gmake", "ninja", "just", "task", "tox", "nox",
                              # a build script, a plugin, a task, configure code (s47 H4)
                              "cargo", "mvn", "mvnw", "gradle", "gradlew", "cmake", "ctest",
                              "terraform", "tofu",
                              "pre-commit", "invoke", "inv", "meson", "scons", "build",
                              "pyproject-build",
                              "mkdocs", *_NODE_RUNNERS})
#: Checkers importing the plugins their settings name, which run no project code otherwise.
_PLUGGED: Final = frozenset({"mypy", "dmypy", "pylint", "flake8", "coverage", "pytest"})
_HOOKED: Final = frozenset({"commit", "push", "merge", "rebase", "am", "pull", "checkout",
                            "switch", "cherry-pick", "revert"})  # (git's hooks run)
_ALL_STARTS: Final = tuple(dict.fromkeys(n for names in STARTS.values() for n in names))
#: What pip builds a project of the call's folder from (``pip install -e .``).
_BUILT: Final = ("pyproject.toml", "setup.py", "setup.cfg")
#: Their options naming the folder they read it in (``make -C DIR``, ``--directory=DIR``,
#: ``-CDIR``, ``npm --prefix DIR``, ``mvn -f DIR/pom.xml``: the folder's and the file's).
_FOLDER_OPTIONS: Final = {
    **dict.fromkeys(("make", "gmake"), ("-C", "--directory")), "ninja": ("-C",),
    "cmake": ("-S", "-B", "--build"), **dict.fromkeys(("mvn", "mvnw"), ("-f", "--file")),
    **dict.fromkeys(("gradle", "gradlew"), ("-p", "--project-dir")),
    "cargo": ("--manifest-path",), "pytest": ("--rootdir",), "meson": ("-C",),
    **dict.fromkeys(("terraform", "tofu"), ("-chdir",)),  # (`-chdir=infra`: s47 T3)
    **dict.fromkeys(_NODE_RUNNERS | {"node"}, tuple(_NODE_FOLDERS))}
#: Their options naming a file they run (``make -f``, ``awk -f``, ``cmake -P``, …).
_FILE_OPTIONS: Final = {
    **dict.fromkeys(("make", "gmake"), ("-f", "--file", "--makefile")), "ninja": ("-f",),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk", "busybox"), (
        "-f", "--file", "-i", "--include", "-E", "--exec")),
    "cmake": ("-P", "-C", "--toolchain"), "pytest": ("-c", "--config-file"), "java": ("-jar",),
    # the settings file a linter or type checker is given (P5), pip's requirements (P4)
    **dict.fromkeys(("mypy", "dmypy", "flake8"), ("--config-file", "--config")),
    "pylint": ("--rcfile",), "eslint": ("-c", "--config"), "prettier": ("--config",),
    **dict.fromkeys(("pip", "pip3"), ("-r", "--requirement", "-c", "--constraint"))}


def _started(name: str, words: list[str]) -> list[str]:
    """What ``name`` with the words ``words`` reads at its start (``STARTS``), in its folders
    (and a pytest path's folder), and the files its options name it runs."""
    module = words[words.index("-m") + 1] if "-m" in words[1:-1] else ""
    kind = "pytest" if "pytest" in (name, *words[1:3]) or name == "py.test" else (
        module if name.startswith("python") and module else name)  # `python3 -m mypy`
    folders = [""] + [f for v in option_values(words, _FOLDER_OPTIONS.get(kind, ()))
                      for f in (v, os.path.dirname(v))]
    if kind in ("build", "pyproject-build"):  # (the source folder it builds: s48-greview2 B1)
        folders += [w for w in words[1:] if w[:1] != "-" and w not in ("-m", "build")]
    if kind == "pytest":  # its root is read from its paths' folders up (and conftest.py)
        folders += [os.path.dirname(w) for w in words[1:] if "/" in w and w[:1] != "-"]
    anything = kind in _RUNS_ANY or (kind == "git" and not _HOOKED.isdisjoint(words[1:4]))
    found = in_folders(folders, _ALL_STARTS if anything else STARTS.get(kind, ()))
    if anything:  # a recipe's Python: the call's folder first on its sys.path, a venv's
        found += in_folders(folders, _RECIPE_PYTHON)  # start files (review s47 H5)
    if kind in _PLUGGED or anything:  # the plugins its settings name (session 48)
        found.append(SETTINGS + (kind if kind in _PLUGGED else "*"))
    if kind in ("pip", "pip3"):  # what it builds from a path (`pip install ./pkg`, `-e .`,
        found += [p for w in words[2:] if w[:1] != "-" and ("/" in w or w == ".")  # or a
                  for p in (literal(w) if w != "." else _BUILT)]  # requirements file's `.`:
        found += in_folders(folders, _BUILT) if option_values(words, _FILE_OPTIONS[kind]) else []
    if kind in _NODE_RUNNERS:  # a folder or tarball it installs or packs (review s47 N4)
        found += [p for w in words[1:] if w[:1] != "-" for p in local_package(w)]
    named = [os.path.join(f, v) for f in folders
             for v in option_values(words, _FILE_OPTIONS.get(kind, ()))]
    if kind in ("npm", "npx"):  # the npmrc it is given, and its values (s48-greview2 C5)
        from .wrapped import NPMRC, NPMRC_OPTIONS
        found += [p for v in option_values(words, NPMRC_OPTIONS) for f in folders
                  for p in (*literal(os.path.join(f, v)), NPMRC + os.path.join(f, v))]
    if kind in ("make", "gmake"):  # (and what its rules remake `-f x.mk` from: s48 M1)
        named += [os.path.join(os.path.dirname(n), f"{p}{os.path.basename(n)}{e}")
                  for n in list(named) for p, e in REMADE]
    return found + [p for n in named for p in literal(n)]


def runs_named_file(name: str, rest: list[str], word: str) -> bool:
    """Whether ``word`` of the command ``name`` ``rest`` is the file an option of
    ``_FILE_OPTIONS`` names it to run, apart or attached (``awk -f tools/x.awk``,
    ``-ftools/x.awk``, ``--file=tools/x.awk``, ``cmake -Ptools/x.cmake``), and no other word
    holds it: for the readers rule, which takes it as the script an interpreter runs (review
    s44 C7; ``guards`` guards that file for a plan naming it)."""
    values = option_values([name, *rest], _FILE_OPTIONS.get(os.path.basename(name), ()))
    return any(word == v or (word[:1] == "-" and word.endswith(v)) for v in values) and \
        sum(word in w for w in rest) == 1


#: The node runners' options naming the folder whose workspaces they run.
_NODE_TOPS: Final = ("--prefix", "-C", "--dir", "--cwd")
#: Interpreters that run the script their operand names, beside ``RUNS_OPERAND`` (``java
#: X.java``: its source launcher; its class path, the folder, by default).
_INTERPRETERS: Final = RUNS_OPERAND | {"java", "php", "Rscript", "lua", "luajit", "tclsh",
                                       "pwsh", "groovy", "julia", "raku", "elixir", "jshell",
                                       "lli"}  # (LLVM's interpreter: s44 P3b)
#: Bun's and deno's subcommands, which are no script (``bun run x.ts``, ``deno test``: C4);
#: any other word is a file or script of that name to Bun (``bun lint`` runs ``lint.js``:
#: review s48-greview B1, S1: no other interpreter has them).
_SUBCOMMANDS: Final = {
    "bun": frozenset({"run", "test", "x", "exec", "install", "i", "add", "a", "remove", "rm",
                      "build", "upgrade", "pm", "init", "create", "link", "unlink", "patch",
                      "outdated", "update", "publish", "audit", "info", "repl", "why"}),
    "deno": frozenset({"run", "test", "x", "eval", "repl", "build", "install", "add",
                       "remove", "fmt", "lint", "check", "task", "serve", "compile", "bench",
                       "info", "doc", "upgrade", "uninstall", "init", "jupyter", "publish",
                       "coverage", "types", "clean", "outdated"})}


#: What a recipe's or a script's Python reads from the folder it runs in: the call's folder as
#: a module folder (a standard module's name there: ``named.Index``), a venv's ``lib/`` and
#: ``pyvenv.cfg`` (review s47 H5, V2).
_RECIPE_PYTHON: Final = (MODULES + ".", *(f"{v}/{n}" for v in (".venv", "venv", "env")
                                          for n in ("lib/", "pyvenv.cfg")))
#: Their options naming a file they load first (``node -r ./hook.js``: C1).
_LOADED: Final = frozenset({"-r", "--require", "--import", "--loader",
                            "--experimental-loader", "--preload"})


def _script_words(name: str, words: list[str]) -> list[str]:
    """``_entry_programs`` of an interpreter's or pytest's words: its scripts and modules."""
    found: list[str] = []
    python = name[:6] == "python"  # (`-c`, `-`, no script: the call's folder first, as
    if name in _INTERPRETERS or name.rstrip("0123456789.-") in _INTERPRETERS or \
            name.startswith(("python", "pytest", "py.test")):  # -m: V4; `lua5.4`: s48)
        for at, word in enumerate(words[1:], 1):
            module = word if words[at - 1] == "-m" else word[2:] if word[:2] == "-m" else ""
            safe = any(SAFE_PATH.fullmatch(w) for w in words[1:at])
            if takes_code(name, words[at - 1]) or (python and word == "-"):
                return found + _inline(name, words, at, safe)  # (or a script on stdin)
            if module:  # `python3 -m pkg.mod` (`-mpkg.mod`) runs pkg/mod from the folder,
                # which is first on sys.path (unless -I/-P: then not the call's folder)
                found += [*module_files(module), *([] if safe else ["./", MODULES + "."])]
            elif words[at - 1] in VALUED.get(family(name), ()) or (
                    at == 1 and word in _SUBCOMMANDS.get(name, ())):
                continue  # `python3 -X dev x.py`: an option's value; `bun run`
            elif words[at - 1] in _LOADED:
                found += literal(word) if "/" in word else []
            elif "/" in word or (word[:1] != "-" and not _PATTERN.search(word)):
                # its script, whatever it ends in (`build.pl`: review s43 P2); a bare
                # pattern (`python3 *`) is any script, which the plan grants
                found += [*literal(word), (os.path.dirname(word) or "."
                                            ) + "/", *_named_too(name, words[1:at], word)]
                if python and not os.path.dirname(word) and not safe:
                    found.append(MODULES + ".")  # (its folder, the call's, first: P3)
    if python and not found and not any(SAFE_PATH.fullmatch(w) for w in words[1:]):
        found.append(MODULES + ".")  # no script: standard input's, or a prompt's (V4)
    return found


def _inline(name: str, words: list[str], at: int, safe: bool) -> list[str]:
    """What the code at ``words[at]`` (``-c CODE``, ``-e CODE``, ``python3 -``) names: a
    shell's command's programs; Python's call's folder, first on its ``sys.path`` as for
    ``-m`` (review s47 V4), unless ``safe`` (``-I``, ``-P`` before it)."""
    if family(name) == "shell":
        return _entry_programs(words[at:])
    return [MODULES + "."] if name[:6] == "python" and not safe else []


def _named_too(name: str, before: list[str], word: str) -> list[str]:
    """What else a script word ``word`` (after the words ``before``) names (review
    s47-greview2): a module ``-m unittest test_x`` imports; the files ``bun run lint`` runs
    where the package has no such script (``lint.js``, ``lint.ts``, …)."""
    found = module_files(word) if "-m" in before and "/" not in word else []
    if family(name) == "node":  # (a dotted name too: `bun run build.prod`; node's
        found += [f for ext in (JS if name[:4] != "node" else NODE_JS)  # CommonJS, s48
                  for f in literal(word + ext)]  # B1)
    return found
