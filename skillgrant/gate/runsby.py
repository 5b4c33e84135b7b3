"""Programs that run code, or write a file, that their options or their inputs name (issue 29;
reviews s42 R1/R2, s43 R2b, R3–R7, W15): each a named rule, keyed by the program's family.

A program reaches these rules by its *family* (``words.family``), not by its exact name: GCC and
binutils come under target and version names (``x86_64-linux-gnu-gcc-12``, ``gcc-nm-12``,
``x86_64-linux-gnu-ar``), POSIX names its drivers ``c99`` and ``c89`` (review s43 R2b). A long
option these programs read with ``getopt_long`` is matched as getopt_long matches it: any
prefix of its name (``--plu``, ``--pl=``, ``--diff-prog=``, ``--d=``; review s43 R4b/R5b). A
prefix shared by several options is refused by the program itself, so refusing every prefix
refuses nothing the program would run. A pattern where an option may stand may expand to one:
a doubt too.

The class is every program's options; it cannot be closed in general (docs/decisions.md,
"Review s43, the lists (s43-gfix)"). The rules close the forms found, and say why in the
doubt they raise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..lazy import compile_on_use
from .cargoargs import cargo_options
from .wrapped import long_prefix

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Protocol

    class Word(Protocol):
        """A shell word as ``words.Word`` holds it: its value (None for a pattern), and the text
        every value of a pattern starts with."""

        @property
        def value(self) -> str | None: ...

        @property
        def head(self) -> str: ...


def _option_pattern(word: Word) -> bool:
    """A pattern that may expand to an option or a response file (``-…``, ``@…``)."""
    return word.value is None and word.head[:1] in ("", "-", "@")


def runs_by_option(rule: str, program: str, words: Sequence[Word]) -> str | None:
    """Why ``program`` with the words ``words`` (after its name) may run a command, load code
    or write a file its words or inputs name, by the rule ``rule`` (``words._FAMILIES``: a
    family's, or the program's own); None when the rule finds nothing."""
    return _RULES[rule](program, list(words))


def _find(program: str, words: list[Word]) -> str | None:
    if any(w.value is None or w.value in ("-exec", "-execdir", "-ok", "-okdir") for w in words):
        return "'find' may run a command (-exec, -execdir, -ok), which the gate does not analyse"
    return None


def _rg(program: str, words: list[Word]) -> str | None:  # review s42 R1
    if any((w.head[:1] in ("", "-")) if w.value is None else (
            w.value[:5] == "--pre" and w.value[:10] != "--pre-glob") for w in words):
        return "'rg --pre' runs a program the command names, which the gate does not analyse"
    return None


def _plugins(program: str, words: list[Word]) -> str | None:  # reviews s43 R4, R4b
    if any(w.value is None or long_prefix(w.value, "plugin") or w.value[:1] == "@"
           for w in words):
        return (f"{program!r} loads the plugin its --plugin option (or any prefix of it, or "
                "a response file @FILE) names")
    return None


def _diff_program(program: str, words: list[Word]) -> str | None:  # reviews s43 R5, R5b
    if any(w.value is None or long_prefix(w.value, "diff-program") for w in words):
        return f"{program!r} runs the program its --diff-program option (or a prefix) names"
    return None


def _groff(program: str, words: list[Word]) -> str | None:  # review s43 R6
    for word in words:
        if word.value == "--":
            return None
        if _option_pattern(word) or (word.value is not None and word.value[:1] == "-" and
                                     word.value[1:2] != "-" and "U" in word.value):
            return (f"{program!r} in unsafe mode (-U) runs the commands of its document "
                    "('.sy', '.pi')")
    return None


#: man-db's long options (argp reads any prefix) naming a program it runs or a file naming
#: them: its configuration (``DEFINE tbl|nroff|pager|col|… PROGRAM``), the pager, the
#: browser, less's prompt (man puts it among less's options); their short forms.
_MAN_RUNS: Final = ("config-file", "pager", "html", "prompt")
_MAN_SHORT: Final = frozenset("CPHr")


def _man(program: str, words: list[Word]) -> str | None:  # review s44 R1
    for word in words:
        value = word.value
        if value == "--":
            return None
        if _option_pattern(word) or (value is not None and (long_prefix(value, *_MAN_RUNS) or (
                value[:1] == "-" and value[1:2] != "-" and not _MAN_SHORT.isdisjoint(value)))):
            return (f"{program!r} runs the programs its configuration file (-C, or any prefix "
                    "of --config-file) defines, or the pager, browser or prompt its options name")
    return None


def _short_or_long(words: list[Word], letters: str, longs: tuple[str, ...],
                   valued: str = "") -> bool:
    """Whether a word may be one of the short options ``letters`` (alone or in a cluster,
    read as getopt reads one: a letter of ``valued`` takes the rest of the word as its
    value) or a prefix of one of the long options ``longs``, or a pattern standing for one."""
    for word in words:
        value = word.value
        if value == "--":
            return False
        if _option_pattern(word) or (value is not None and long_prefix(value, *longs)):
            return True
        cluster = value[1:] if value and value[:1] == "-" and value[1:2] != "-" else ""
        for letter in cluster:
            if letter in letters:
                return True
            if letter in valued:
                break
    return False


def _less(program: str, words: list[Word]) -> str | None:  # review s44 R2
    if _short_or_long(words, "koO", ("lesskey-file", "lesskey-src", "lesskey-content",
                                     "log-file", "LOG-FILE"), "bDhjpPtTxyz#"):
        return (f"{program!r} reads the key file its -k option names (whose #env section "
                "sets LESSOPEN, a command less runs), or writes the log its -o names")
    return None


def _pygmentize(program: str, words: list[Word]) -> str | None:  # review s44 R5
    if _short_or_long(words, "x", (), "lfFoOPSa"):
        return (f"{program!r} with -x loads the lexer or formatter class from the file its "
                "-l or -f names")
    return None


#: npm's settings naming the program or the code its scripts run with, or a file of
#: settings (any prefix: npm's option parser reads abbreviations).
_NPM_RUNS: Final = ("script-shell", "shell", "node-options", "userconfig", "globalconfig",
                    "call", "node-gyp", "git", "editor", "browser", "viewer", "init-module",
                    "onload-script")


def _npm(program: str, words: list[Word]) -> str | None:  # review s44 R6
    if _short_or_long(words, "c", _NPM_RUNS):
        return (f"{program!r} runs its scripts with the shell, node options or settings file "
                "its options name (--script-shell, --node-options, --userconfig, -c, …)")
    return None


def _llvm(program: str, words: list[Word]) -> str | None:  # review s44 R7
    if any(_option_pattern(w) or (w.value or "").lstrip("-").startswith((
            "load", "pass-plugin", "fpass-plugin")) or (w.value or "")[:1] == "@"
           for w in words):
        return f"{program!r} loads the plugin its -load or -load-pass-plugin option names"
    return None


def _javadoc(program: str, words: list[Word]) -> str | None:  # review s44 R8
    if any(_option_pattern(w) or (w.value or "").startswith((
            "-doclet", "--doclet", "-taglet", "--taglet", "-J", "@", "-processor"))
           for w in words):
        return (f"{program!r} runs the doclet, taglet or JVM agent its options name "
                "(-doclet, -docletpath, -taglet, -J…)")
    return None


def _cmake(program: str, words: list[Word]) -> str | None:  # review s44 R4
    values = [w.value for w in words]
    if any(v == "-E" and values[i + 1:i + 2] in (["env"], ["time"], ["chdir"], [None])
           for i, v in enumerate(values)):
        return f"'{program} -E env|time|chdir' runs the command in its words"
    return None


#: javac's options that run code they name: annotation processors, compiler plugins, the
#: JVM's own options (``-J-javaagent:``), a response file.
_JAVAC_RUNS: Final = ("-processor", "--processor", "-Xplugin", "-J", "@", "--plugin")


def _javac(program: str, words: list[Word]) -> str | None:  # review s43 R6
    values = [w.value for w in words]
    if any(_option_pattern(w) for w in words) or any(
            v is not None and v.startswith(_JAVAC_RUNS) for v in values):
        return (f"{program!r} runs the annotation processors, plugins or JVM agents its "
                "options name")
    if [v for v in values if v is not None and v.startswith("-proc:")] != ["-proc:none"]:
        return (f"{program!r} runs the annotation processors it finds on its class path "
                "(META-INF/services) unless it is given '-proc:none'")
    return None


#: rustc's ``-C`` settings that run or load nothing: any other (``linker=``,
#: ``link-arg=``, ``codegen-backend=``, ``link-self-contained=``, …) is refused.
_RUSTC_SAFE: Final = frozenset({
    "opt-level", "debuginfo", "debug-assertions", "overflow-checks", "panic", "lto",
    "codegen-units", "target-cpu", "target-feature", "strip", "embed-bitcode", "incremental",
    "force-frame-pointers", "relocation-model", "code-model", "prefer-dynamic", "rpath",
    "metadata", "extra-filename", "split-debuginfo", "symbol-mangling-version",
    "instrument-coverage", "soft-float", "no-redzone", "force-unwind-tables"})
#: rustc's options that load code or read what to do from a file: unstable ``-Z`` options,
#: crates by path (a proc-macro crate is a library rustc loads), a target spec file.
_RUSTC_RUNS: Final = ("-Z", "--extern", "-L", "--sysroot", "@")


def _rustc(program: str, words: list[Word]) -> str | None:  # review s43 R6b
    for i, word in enumerate(words):
        value = word.value
        if value is None:
            if _option_pattern(word):
                return f"a pattern may stand for an option of {program!r}"
            continue
        setting = value[2:] if value.startswith("-C") and value != "-C" else (
            value[10:] if value.startswith("--codegen=") else None)
        if value in ("-C", "--codegen"):
            following = words[i + 1].value if i + 1 < len(words) else ""
            setting = following if following is not None else "?"
        if setting is not None and setting.split("=", 1)[0] not in _RUSTC_SAFE:
            return (f"{program!r} is given the setting '-C {setting}', which may name a linker "
                    "or code it loads (the gate reads only settings that run nothing)")
        if value.startswith(_RUSTC_RUNS) or (value.startswith("--target") and (
                "/" in value or ".json" in value or value == "--target")):
            return f"{program!r}'s option {value!r} may load code or read a spec naming a linker"
    return None


#: kubectl's options that name a program it runs: a kubeconfig's ``exec`` credential plugin,
#: kustomize's exec plugins, helm.
_KUBECTL_RUNS: Final = ("--kubeconfig", "--enable-alpha-plugins", "--enable-exec",
                        "--enable-helm", "--helm-command")


def _kubectl(program: str, words: list[Word]) -> str | None:  # review s43 R7
    if any(_option_pattern(w) or (w.value or "").startswith(_KUBECTL_RUNS) for w in words):
        return (f"{program!r} runs the credential plugin of the kubeconfig its --kubeconfig "
                "names (or a kustomize plugin its options enable)")
    return None


#: Compiler drivers' options that run a program or load code they name.
_COMPILER_RUNS: Final = ("-wrapper", "-B", "-fplugin", "-specs", "--specs", "-fuse-ld=/",
                         "-fuse-ld=.", "-iplugindir", "--gcc-toolchain", "-plugin", "--plugin",
                         "-no-integrated", "-ccc-", "--driver-mode", "@",
                         # clang's pass plugins and what it hands cc1 and LLVM unread
                         "-fpass-plugin", "-Xclang", "-load", "-mllvm")
#: What loads code among the options a driver passes on (``-Wl,``, ``-Wp,``, ``-Wa,``): the
#: linker's and the compiler proper's plugins (``-Wl,-Bsymbolic`` is the linker's own ``-B``).
_PASSED_RUNS: Final = ("-plugin", "--plugin", "-fplugin", "-iplugindir", "-specs", "--specs")


def _compiler(program: str, words: list[Word]) -> str | None:  # reviews s42 R2, s43 R2b/R3
    if any(w.head[:1] in ("", "-", "@") if w.value is None else w.value.startswith(
            _COMPILER_RUNS) or any(part.startswith(_PASSED_RUNS) for part in
                                   w.value.split(",")[1:]) for w in words):
        return (f"{program!r} runs a program or loads code its options name (-wrapper, -B, "
                "-fplugin, -specs, -fuse-ld=PATH, @FILE), which the gate does not analyse")
    values = [w.value or "" for w in words]
    if _NO_LINK.isdisjoint(values) and _links_unnamed(values, _gcc_consumes):
        return _UNNAMED.format(program)
    return None


#: A driver's options after which it links nothing.
_NO_LINK: Final = frozenset({"-c", "-E", "-S", "-fsyntax-only", "-M", "-MM"})
_UNNAMED = ("{0!r} may link without an output on its command line: a linker script among its "
            "inputs then names the file written (OUTPUT(FILE)), which the gate does not read")
#: A driver's options whose value is the next word.
_GCC_SEPARATE: Final = frozenset({
    "-x", "-I", "-D", "-U", "-L", "-l", "-o", "-T", "-u", "-z", "-e", "-A", "-G", "-B", "-V",
    "-b", "-include", "-imacros", "-idirafter", "-isystem", "-iquote", "-iprefix",
    "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib", "-MF", "-MT", "-MQ",
    "-aux-info", "-dumpbase", "-dumpdir", "-dumpbase-ext", "-target", "-arch", "-mllvm"})


def _gcc_consumes(option: str) -> bool:
    return option in _GCC_SEPARATE or option.startswith(("--", "-X"))


def _linker(program: str, words: list[Word]) -> str | None:  # review s43 W15
    values = [w.value for w in words]
    if any(_option_pattern(w) for w in words) or any(v is not None and v[:1] in "-@" and (
            v.lstrip("-").startswith("run") or v[:1] == "@" or "plugin".startswith(
                v.lstrip("-").split("=", 1)[0])) for v in values):
        return (f"a word of {program!r} may be an option that loads code or runs a command "
                "(-plugin or a prefix of it, mold's -run, a response file @FILE)")
    if _links_unnamed([v or "" for v in values], _ld_consumes):
        return _UNNAMED.format(program)
    return None


#: ld's options that take no value (before ``-o``: an ``-o`` after any other option may be
#: that option's value).
_LD_FLAGS: Final = frozenset({
    "-r", "-shared", "-static", "-s", "-S", "-pie", "-no-pie", "-x", "-X", "-g", "-nostdlib",
    "-Bstatic", "-Bdynamic", "-Bsymbolic", "--gc-sections", "--as-needed", "--no-as-needed",
    "-relocatable", "--relocatable", "-i", "-E", "--export-dynamic", "-N", "-n", "-q", "-t",
    "-v", "-V", "--strip-all", "--strip-debug", "-M", "--print-map", "--no-undefined"})


def _ld_consumes(option: str) -> bool:
    return option not in _LD_FLAGS


def _links_unnamed(values: list[str], consumes: Callable[[str], bool]) -> bool:
    """Whether a link whose words are ``values`` has inputs (an operand, ``-l``) but no
    output named by ``-o FILE`` or ``--output[=]FILE`` on its command line (which wins over a
    script's ``OUTPUT``); an ``-o`` after an option that may take it as its value is none."""
    if not any(v[:1] != "-" or v.startswith("-l") for v in values):
        return False  # `ld --version`, `gcc -v`: nothing to link
    for i, value in enumerate(values):
        previous = values[i - 1] if i else ""
        after_value = previous[:1] == "-" and consumes(previous)
        if after_value:
            continue
        if (value in ("-o", "--output") and i + 1 < len(values)) or value.startswith(
                "--output="):
            return False
    return True


#: A type checker's or linter's options naming the interpreter it runs (mypy's
#: ``--python-executable``, which it runs to find its search folders) or the code it imports
#: (pylint's ``--load-plugins``, ``--init-hook``, the ``--rcfile`` whose init-hook runs): any
#: prefix argparse reads, past a ``--`` too (``dmypy run -- …``): review s46 M1.
_CHECKERS: Final = {"mypy": ("python-executable",),
                    "pylint": ("load-plugins", "init-hook", "rcfile")}


def _checker(program: str, words: list[Word]) -> str | None:  # review s46 M1
    longs = _CHECKERS["pylint" if program.startswith("pylint") else "mypy"]
    if any(_option_pattern(w) or (w.value is not None and long_prefix(w.value, *longs))
           for w in words):
        return (f"{program!r} runs the interpreter, or imports the code, its option names "
                f"(--{', --'.join(longs)})")
    return None


def _module(program: str, words: list[Word]) -> str | None:  # `python -m mypy`: session 47
    from .interpreters import module_run

    found = module_run([w.value for w in words], _CHECKERS)
    return None if found is None else _checker(found[0], words[found[1]:])


_RULES: Final[dict[str, Callable[[str, list[Word]], str | None]]] = {
    "find": _find, "rg": _rg, "diff3": _diff_program, "sdiff": _diff_program, "groff": _groff,
    "troff": _groff, "nroff": _groff, "javac": _javac, "rustc": _rustc, "kubectl": _kubectl,
    "compiler": _compiler, "plugins": _plugins, "linker": _linker, "man": _man,
    "less": _less, "pygmentize": _pygmentize, "npm": _npm, "llvm": _llvm,
    "javadoc": _javadoc, "cmake": _cmake, "mypy": _checker, "pylint": _checker,
    "cargo": cargo_options, "python": _module}


#: ImageMagick's ``FORMAT:`` before a path (``miff:out``, ``png24:out``), not a URL's.
_FORMAT = compile_on_use(r"([A-Za-z0-9_-]+):(?!//)")
#: Formats whose file is a script naming what to read and write (MSL, MVG).
_SCRIPTED: Final = frozenset({"msl", "mvg"})


def formatted(word: str) -> list[str]:
    """The path an ImageMagick word ``FORMAT:PATH`` names (review s43 W14), as a word the
    gate reads; for a format whose file is a script of what to write (``msl:``, ``mvg:``), a
    word the gate cannot name (``$``); none for any other word."""
    found = _FORMAT.match(word)
    if found is None:
        return []
    return ["$"] if found.group(1).lower() in _SCRIPTED else [word[found.end():]]
