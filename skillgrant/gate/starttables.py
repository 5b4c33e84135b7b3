"""What each program a plan's entry runs reads at its start (``planprograms``; issue 29): its
build file, its project's settings and modules, the files its options name, each from the
program's own documented search list (cited by each row; docs/call-gate.md). A name ending in
``/`` is a folder; one starting with ``^`` is read from every folder on the way up too (the
program takes the nearest it finds, or each: a copy nearer is read first), ``guards`` reads
those from every folder from the call's up."""

from __future__ import annotations

from .planpaths import DOTENV, REMADE
from .wrapped import RUNS_OPERAND

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Their options naming the folder whose ``package.json`` and ``node_modules`` they use.
NODE_FOLDERS: Final = frozenset({"--workspace", "-w", "--prefix", "-C", "--dir", "--cwd"})
#: Programs that run a project's ``node_modules/.bin`` or its ``package.json``'s scripts.
NODE_RUNNERS: Final = frozenset({"npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun"})
#: The node runners' options naming the folder whose workspaces they run.
NODE_TOPS: Final = ("--prefix", "-C", "--dir", "--cwd")

_MAKEFILES: Final = ("Makefile", "makefile", "GNUmakefile")
#: The node package managers' lockfiles: an install takes the code they resolve (s47 N3).
_LOCKS: Final = ("^package-lock.json", "^npm-shrinkwrap.json", "^yarn.lock", "^pnpm-lock.yaml",
                 "^bun.lock", "^bun.lockb")
#: What a Python project manager syncs (builds and installs the project into its venv) before
#: it runs a command, searching up for the project (uv's docs, "Project structure": the
#: nearest ``pyproject.toml``, its ``.venv``, ``uv.lock``, ``uv.toml``, ``.python-version``;
#: poetry's ``poetry.toml``/``poetry.lock``, pdm's ``pdm.toml``/``.pdm-python``, hatch's
#: ``hatch.toml``, pipenv's ``Pipfile``): review s48-greview2 U1.
_SYNCED: Final = ("^pyproject.toml", "^.venv/", "^.python-version", "^.python-versions",
                  "setup.py", "setup.cfg", "^uv.toml", "^uv.lock", "^poetry.toml",
                  "^poetry.lock", "^pdm.toml", "^pdm.lock", "^.pdm-python", "^hatch.toml",
                  "^Pipfile", "^Pipfile.lock")
#: The Python project managers syncing the project before they run a command.
SYNCERS: Final = ("uv", "poetry", "pdm", "hatch", "pipenv", "rye")
STARTS: Final = {
    # and what make's built-in rules remake a makefile from (`%: %.sh`, RCS, SCCS: s48 M1)
    **dict.fromkeys(("make", "gmake"), (*_MAKEFILES, *(f"{p}{n}{e}" for n in _MAKEFILES
                                                       for p, e in REMADE))),
    "ninja": ("build.ninja",), **dict.fromkeys(("terraform", "tofu"), (  # its providers (s45
        ".terraform/", ".terraform.lock.hcl", "terraform.d/")),  # T1; its mirror: s48)
    # what it generated in each folder (`cmake --build`: C1), the sources FetchContent put
    # in the build tree (`FETCHCONTENT_BASE_DIR`, `<build>/_deps` by default: s48 C1c)
    "cmake": ("CMakeLists.txt", "CMakePresets.json", "CMakeUserPresets.json", "CMakeCache.txt",
              *_MAKEFILES, "build.ninja", "^CMakeFiles/", "^cmake_install.cmake",
              "^CTestTestfile.cmake", "_deps/"),
    # Maven's launcher hands `.mvn/jvm.config` to the JVM whatever the goal (`mvn -v`), and
    # reads `maven.config`, `extensions.xml`, the wrapper's jar and distribution there
    **dict.fromkeys(("mvn", "mvnw"), ("^.mvn/", "pom.xml")),
    **dict.fromkeys(("gradle", "gradlew"), (
        "^settings.gradle", "^settings.gradle.kts", "^build.gradle", "^build.gradle.kts",
        "^gradle.properties", "^gradle/", "^buildSrc/")),
    "cargo": ("^Cargo.toml", "^build.rs", "^.cargo/", "^target/"),  # (s45 P1b, P2)
    # and the package managers' settings there (`script-shell`, `yarnPath`, bun's
    # `preload`, pnpm's `.pnpmfile.cjs`: review s44 W3; pnpm 10's `pnpm-workspace.yaml`
    # settings, yarn 2's Plug'n'Play loader it preloads into each script: s48-greview2 P1,
    # Y2) (the nearest folder up holding package.json is npm's: review s45 P1)
    **dict.fromkeys(NODE_RUNNERS | {"node"}, ("^node_modules/", "^package.json", "^.npmrc",
                                             "^.yarnrc", "^.yarnrc.yml", "^.yarn/",
                                             "^bunfig.toml", "^.pnpmfile.cjs", *_LOCKS,
                                             "^.corepack.env", "^pnpm-workspace.yaml",
                                             "^.pnp.cjs", "^.pnp.loader.mjs", "^.pnp.js",
                                             *DOTENV)),  # (s48 N1, N2)
    # the runners' own build files (review s47 H6)
    "just": ("^justfile", "^Justfile", "^.justfile"),
    # (and the cached bytecode of a Python start file, which Python runs where its header
    # matches the source: PEP 3147, 552; s49-greview2 B1)
    "nox": ("noxfile.py", ".nox/", "__pycache__/"),
    "task": tuple(f"^{t}askfile{d}.{e}" for t in "Tt" for d in ("", ".dist")
                  for e in ("yml", "yaml")),
    # (its envs: s48 T1; tox 4.21's native `tox.toml` first: s48-greview2 F2)
    # (and its inline plugin `toxfile.py`, imported at every start: s49-greview T1)
    "tox": ("^tox.toml", "^tox.ini", "^pyproject.toml", "^setup.cfg", "^.tox/", "^toxfile.py",
            "^__pycache__/"),
    # cpack's configuration, cmake code it runs (s49-greview C2)
    "cpack": ("CPackConfig.cmake", "CPackSourceConfig.cmake"),
    # ctest's test files and the custom file it reads as cmake code first (s49-greview C1)
    "ctest": ("^CTestTestfile.cmake", "CTestCustom.cmake", "CTestCustom.ctest",
              "DartConfiguration.tcl"),
    # other runners' build files (s48 H2), PEP 517's front end (`python -m build`: P3)
    **dict.fromkeys(("invoke", "inv"), ("^tasks.py", "^invoke.yaml", "^invoke.yml",
                                        "^invoke.json", "^invoke.py", "^__pycache__/")),
    "meson": ("meson.build", "meson.options", "meson_options.txt", "build.ninja",
              "meson-private/"),
    # SCons' `SConstruct` search list (its man page, "-f"): and the `.py` spellings (F2)
    "scons": ("SConstruct", "Sconstruct", "sconstruct", "SConstruct.py", "Sconstruct.py",
              "sconstruct.py", "site_scons/",  # (and its signatures, a pickle: s49 S1)
              ".sconsign.dblite", ".sconsign", ".sconsign.dbm"),
    **dict.fromkeys(("build", "pyproject-build"), ("pyproject.toml", "setup.py", "setup.cfg")),
    "mkdocs": ("mkdocs.yml", "mkdocs.yaml"),
    "pre-commit": (".pre-commit-config.yaml", ".pre-commit-config.yml"),
    **dict.fromkeys(SYNCERS, _SYNCED),
    # R's start (`?Startup`): `.Renviron` and `.Rprofile` of the folder it starts in (the
    # home's: `HOME_CODE`): s48-greview2 I1
    # and the saved workspace it restores, whose `.First` runs (s49-greview2 R2)
    **dict.fromkeys(("R", "Rscript"), (".Renviron", ".Rprofile", ".RData")),
    # valgrind's options file (`--log-file=` writes anywhere: s49-greview D2)
    "valgrind": (".valgrindrc",),
    # the test runners' own settings (prove's `.proverc`, rspec's `.rspec`, …: s48-greview S6)
    # (prove's default `t/`, `-l`'s `lib/`, `-b`'s `blib/`: s49-greview2 PR1)
    "prove": (".proverc",), "pdb": (".pdbrc",),  # (s49-greview D3; its `t/*.t`, `lib/*.pm`:
    # deepnames' rules, wherever a plan's program reads code: s53-greview C2)
    "rspec": (".rspec", ".rspec-local", "spec/spec_helper.rb"),
    "phpunit": ("phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"),
    "mocha": tuple(".mocharc" + e for e in (".js", ".cjs", ".mjs", ".yaml", ".yml", ".json",
                                            ".jsonc")),
    "jest": (*("jest.config" + e for e in (".js", ".ts", ".mjs", ".cjs", ".json")),
             # (babel-jest loads Babel's configuration as code: s53-greview J1)
             ".babelrc", *(n + e for n in ("babel.config", ".babelrc")
                           for e in (".js", ".cjs", ".mjs", ".cts", ".json"))),
    "vitest": tuple(f"{c}.{k}{e}" for c, k in (("vitest", "config"), ("vite", "config"),
                                                ("vitest", "workspace"), ("vitest", "projects"))
                    for e in (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".json")) + tuple(
        "^" + n for n in (".postcssrc", *(f".postcssrc.{e}" for e in (
            "json", "yaml", "yml", "ts", "cts", "js", "cjs", "mjs")), *(
            f"postcss.config.{e}" for e in ("ts", "cts", "js", "cjs", "mjs")))),
    # (vitest 2 loads `vitest.workspace.*`, `vitest.projects.*` from its config's folder as
    # code: s59-mreview S15; and, for a test importing a .css, postcss-load-config's search
    # from its root up, vite 5: s60-mreview M9)
    # pytest's settings (pytest 9 reads `pytest.toml` first) and conftest.py, from the
    # folder of its paths up to the root it picks by them
    "pytest": tuple("^" + n for n in ("conftest.py", "pytest.toml", ".pytest.toml",
                                      "pytest.ini", ".pytest.ini", "pyproject.toml",
                                      "setup.cfg", "tox.ini", "__pycache__/")),
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
    # deno's settings, from its folder up (its `imports` map a test's import to any file:
    # s60-mfix)
    "deno": ("^deno.json", "^deno.jsonc"),
    # the runners a collecting package.json script may run (scriptcode._RUNS: s59): their
    # settings files, code or naming code (tap's `.taprc` `before:`, ava's `require`, xo's
    # eslint settings, nyc's `require`, c8's reporters)
    "tap": ("node_modules/", "package.json", "^.taprc", "^.nycrc", "^.nycrc.json",
            "^.nycrc.yml", "^.nycrc.yaml", "^nyc.config.js", "^nyc.config.cjs",
            "^nyc.config.mjs", "^.babelrc", "^babel.config.js", "^babel.config.cjs",
            "^tsconfig.json"),
    "ava": ("node_modules/", "package.json", "^ava.config.js", "^ava.config.cjs",
            "^ava.config.mjs", "^ava.config.json"),  # (ava 6's checkJsonFile)
    "xo": ("node_modules/", "package.json", "^xo.config.js", "^xo.config.cjs",
           "^xo.config.mjs", "^xo.config.ts", "^.xo-config", "^.xo-config.js",
           "^.xo-config.cjs", "^.xo-config.json", "^.eslintrc.js", "^.eslintrc.cjs",
           "^.eslintrc.json", "^.eslintrc", "^eslint.config.js", "^eslint.config.mjs"),
    **dict.fromkeys(("nyc", "c8"), ("node_modules/", "package.json", "^.nycrc", "^.nycrc.json",
                                    "^.nycrc.yml", "^.nycrc.yaml", "^nyc.config.js",
                                    "^nyc.config.cjs", "^nyc.config.mjs", "^.c8rc",
                                    "^.c8rc.json")),
    # (prettier 3's CONFIG_FILE_NAMES: `package.yaml`'s `prettier` too, s59-mreview S26)
    "prettier": ("node_modules/", "package.json", *("^" + n for n in (
        "package.yaml", ".prettierrc", ".prettierrc.json", ".prettierrc.yaml",
        ".prettierrc.yml", ".prettierrc.json5", ".prettierrc.js", ".prettierrc.mjs",
        ".prettierrc.cjs", ".prettierrc.ts", ".prettierrc.toml", "prettier.config.js",
        "prettier.config.mjs", "prettier.config.cjs", "prettier.config.ts",
        ".prettierrc.mts", ".prettierrc.cts", "prettier.config.mts",
        "prettier.config.cts")))}
#: Of the names read walking up (``^``), the project's manifests and code (s42 P1g's class):
#: not guarded below the call's folder, where editing a member's ``Cargo.toml`` is the work;
#: a program's own settings (``.mvn``, ``.cargo``, ``.npmrc``) are, at any depth (s44 P10),
#: and cargo's ``target`` (the compiled build scripts it runs: a crate below the call's folder
#: builds into its own, review s46-greview2 C4).
MANIFESTS: Final = frozenset({"Cargo.toml", "build.rs", "pyproject.toml",
                              "setup.cfg", "tox.ini", "tox.toml", "conftest.py",
                              "build.gradle", "build.gradle.kts", "settings.gradle",
                              "settings.gradle.kts", "gradle", "buildSrc", "package.json",
                              "justfile", "Justfile", ".justfile", *(n[1:] for n in _LOCKS),
                              "uv.lock", "poetry.lock", "pdm.lock", "Pipfile", "Pipfile.lock",
                              *(f"{t}askfile{d}.{e}" for t in "Tt" for d in ("", ".dist")
                                for e in ("yml", "yaml"))})
#: Programs running commands the project defines (recipes, scripts, hooks), which may start
#: any program: under them what any program reads at its start is guarded (review s46 H2/H3).
RUNS_ANY: Final = frozenset({"make", "gmake", "ninja", "just", "task", "tox", "nox",
                             # a build script, a plugin, a task, configure code (s47 H4)
                             "cargo", "mvn", "mvnw", "gradle", "gradlew", "cmake", "ctest",
                             "cpack",
                             "terraform", "tofu",
                             "pre-commit", "invoke", "inv", "meson", "scons", "build",
                             "pyproject-build",
                             "mkdocs", *NODE_RUNNERS})
#: Checkers importing the plugins their settings name, which run no project code otherwise.
PLUGGED: Final = frozenset({"mypy", "dmypy", "pylint", "flake8", "coverage", "pytest"})
HOOKED: Final = frozenset({"commit", "push", "merge", "rebase", "am", "pull", "checkout",
                           "switch", "cherry-pick", "revert"})  # (git's hooks run)
ALL_STARTS: Final = tuple(dict.fromkeys(n for names in STARTS.values() for n in names))
#: What pip builds a project of the call's folder from (``pip install -e .``).
BUILT: Final = ("pyproject.toml", "setup.py", "setup.cfg")
#: Their options naming the folder they read it in (``make -C DIR``, ``--directory=DIR``,
#: ``-CDIR``, ``npm --prefix DIR``, ``mvn -f DIR/pom.xml``: the folder's and the file's).
FOLDER_OPTIONS: Final = {
    **dict.fromkeys(("make", "gmake"), ("-C", "--directory")), "ninja": ("-C",),
    "cmake": ("-S", "-B", "--build"), **dict.fromkeys(("mvn", "mvnw"), ("-f", "--file")),
    **dict.fromkeys(("gradle", "gradlew"), ("-p", "--project-dir")),
    "cargo": ("--manifest-path",), "pytest": ("--rootdir",), "meson": ("-C",),
    **dict.fromkeys(("terraform", "tofu"), ("-chdir",)),  # (`-chdir=infra`: s47 T3)
    # the runners' own (their `--help`): the folder they run in (s48-greview2 F1, H2b)
    "just": ("-d", "--working-directory"), "task": ("-d", "--dir"),
    "scons": ("-C", "--directory"), "uv": ("--directory", "--project"), "tox": ("--root",),
    "ctest": ("--test-dir",),
    **dict.fromkeys(("invoke", "inv"), ("-r", "--search-root")),
    **dict.fromkeys(NODE_RUNNERS | {"node"}, tuple(NODE_FOLDERS))}
#: Their options naming a file they run (``make -f``, ``awk -f``, ``cmake -P``, …).
FILE_OPTIONS: Final = {
    # (make's include folders: an `include` it does not find beside it is read there)
    **dict.fromkeys(("make", "gmake"), ("-f", "--file", "--makefile", "-I", "--include-dir")),
    "ninja": ("-f",),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk", "busybox"), (
        "-f", "--file", "-i", "--include", "-E", "--exec")),
    "cmake": ("-P", "-C", "--toolchain"), "pytest": ("-c", "--config-file"), "java": ("-jar",),
    # the settings file a linter or type checker is given (P5), the Python mypy runs
    # (s49-greview P2), pip's requirements (P4)
    **dict.fromkeys(("mypy", "dmypy"), ("--config-file", "--python-executable")),
    "flake8": ("--config",), "pylint": ("--rcfile",), "coverage": ("--rcfile",),
    "eslint": ("-c", "--config"), "prettier": ("--config",),
    # (and the folders its `-e`, `--find-links` name: a folder name without a slash too,
    # s49-greview W1, W2)
    **dict.fromkeys(("pip", "pip3"), ("-r", "--requirement", "-c", "--constraint", "-e",
                                      "--editable", "-f", "--find-links")),
    "cpack": ("--config",), "R": ("-f", "--file", "BATCH", "INSTALL"),  # (s49-greview C3)
    # the ssh settings file an entry names (its ProxyCommand, LocalCommand, Match exec run
    # here: s49-greview D4; the user's ~/.ssh/config is guarded as the home's)
    **dict.fromkeys(("ssh", "scp", "sftp"), ("-F",)),
    # the runners' build file named elsewhere, and the files and folders their other
    # options name them to read or run (their `--help`: tox's work folder, nox's envs,
    # SCons' module folders and repositories, meson's machine files, uv's settings, dotenv
    # and requirements; s48-greview2 F1, H2b; session 49)
    "nox": ("-f", "--noxfile", "--envdir"), "tox": ("-c", "--conf", "--workdir"),
    "pre-commit": ("-c", "--config"), "just": ("-f", "--justfile"),
    "task": ("-t", "--taskfile"), "mkdocs": ("-f", "--config-file"),
    "scons": ("-f", "--file", "--makefile", "--sconstruct", "--site-dir", "-I",
              "--include-dir", "-Y", "--repository", "--srcdir"),
    "meson": ("--native-file", "--cross-file"), "ctest": ("-S", "-SP", "--script"),
    "uv": ("--env-file", "--config-file", "--with-requirements", "--with-editable"),
    **dict.fromkeys(("invoke", "inv"), ("-f", "--config", "-c", "--collection")),
    "prove": ("--rc",), "mocha": ("--config",), "jest": ("-c", "--config"),
    "vitest": ("-c", "--config"), "phpunit": ("-c", "--configuration")}
#: The checkers' options naming their settings file (``checkersettings`` reads it).
SETTINGS_OPTIONS: Final = {**dict.fromkeys(("mypy", "dmypy"), ("--config-file",)),
                           "flake8": ("--config",), "pylint": ("--rcfile",),
                           "coverage": ("--rcfile",), "pytest": ("-c", "--config-file")}
#: The runners whose build file named elsewhere moves their top folder there (nox and SCons
#: run in the noxfile's or SConstruct's folder, tox's root is its file's, …): that folder's
#: start files too.
FILE_TOPS: Final = frozenset({"nox", "tox", "scons", "mkdocs", "just", "task"})
#: Their options searching the folders up for their build file (SCons' ``-u``, ``-U``,
#: ``-D``: the first folder up holding an ``SConstruct``): its start files from each folder up.
SEARCH_UP: Final = {"scons": ("-u", "-U", "-D", "--up", "--search-up")}
#: The test runners beside pytest, and their options taking no value (an operand after one
#: is a test their own call reads: s49-greview2 COST).
TEST_RUNNERS: Final = frozenset({"prove", "bats", "rspec", "phpunit", "mocha", "jest",
                                 "vitest"})
TEST_FLAGS: Final = frozenset({"-v", "-l", "-b", "-r", "-s", "-q", "-Q", "-t", "-p", "-T",
                               "--lib", "--blib", "--recurse", "--recursive", "--shuffle",
                               "--verbose", "--quiet", "--timer", "--color", "--nocolor",
                               "--tap", "--pretty", "--timing", "--ci", "--runInBand", "-i",
                               "--testdox", "--colors", "--run", "--bail"})
#: node's flags before a ``--test`` run's operands, taking no value (s51-greview2 K5).
NODE_TEST_FLAGS: Final = frozenset({"--test", "--test-only", "--no-warnings",
                                    "--experimental-test-coverage"})
#: Interpreters that run the script their operand names, beside ``RUNS_OPERAND`` (``java
#: X.java``: its source launcher; its class path, the folder, by default), and the test
#: runners running the test files and folders their operands name (s48-greview S6).
INTERPRETERS: Final = RUNS_OPERAND | {"java", "php", "Rscript", "lua", "luajit", "tclsh",
                                      "pwsh", "groovy", "julia", "raku", "elixir", "jshell",
                                      "lli"} | TEST_RUNNERS  # (LLVM's interpreter: s44 P3b)
#: Bun's and deno's subcommands, which are no script (``bun run x.ts``, ``deno test``: C4);
#: any other word is a file or script of that name to Bun (``bun lint`` runs ``lint.js``:
#: review s48-greview B1, S1: no other interpreter has them).
SUBCOMMANDS: Final = {
    "bun": frozenset({"run", "test", "x", "exec", "install", "i", "add", "a", "remove", "rm",
                      "build", "upgrade", "pm", "init", "create", "link", "unlink", "patch",
                      "outdated", "update", "publish", "audit", "info", "repl", "why"}),
    "deno": frozenset({"run", "test", "x", "eval", "repl", "build", "install", "add",
                       "remove", "fmt", "lint", "check", "task", "serve", "compile", "bench",
                       "info", "doc", "upgrade", "uninstall", "init", "jupyter", "publish",
                       "coverage", "types", "clean", "outdated"}),
    # meson's: its other operands are its build and source folders (s48-greview2 M2)
    "meson": frozenset({"setup", "configure", "compile", "test", "install", "introspect",
                        "dist", "init", "subprojects", "rewrite", "devenv", "wrap", "env2mfile",
                        "format", "fmt"})}
#: Their options naming a file they load first (``node -r ./hook.js``: C1).
LOADED: Final = frozenset({"-r", "--require", "--import", "--loader",
                           "--experimental-loader", "--preload"})


#: Options whose value is a file a program outside the tables runs as code (``sqlite3 -init
#: x.sql``, ``vim -S x.vim``, ``sed -f x.sed``, ``--rcfile``, ``--script``).
SCRIPT_OPTIONS: Final = ("-f", "--file", "-S", "-init", "--init-file", "--rcfile", "--script",
                         "-script")


#: cmake's options whose value is the next word.
CMAKE_VALUED: Final = frozenset(("-S", "-B", "-G", "-T", "-A", "-C", "-D", "-U", "-P", "-E",
                                 "--build", "--preset", "--toolchain", "--install-prefix",
                                 "--target", "-t", "--config", "-j", "--parallel", "--graphviz",
                                 "--log-level", "--trace-redirect", "--profiling-output",
                                 "--profiling-format", "--trace-format", "--debug-find-pkg",
                                 "--debug-find-var", "--trace-source", "--install",
                                 "--component", "--prefix", "--open", "-W", "-L"))
