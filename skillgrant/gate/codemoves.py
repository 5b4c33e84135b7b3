"""Whether an interpreter's code in a plan entry may change its folder by a name it builds
(review s50-greview2 I2; session 51).

``movedoubts`` refuses an interpreter's ``chdir`` spelled out (``os.chdir``, ``Dir.chdir``,
``process.chdir()``); ``moves`` reads the interpreters' own folder switches (perl's ``-xDIR``,
ruby's ``-C``, bun's and yarn's ``--cwd``). Code can also reach ``chdir`` by a name it
computes (perl's ``eval "ch"."dir q{sub}"``, python's ``getattr(os, "ch" + "dir")``, node's
``process["ch" + "dir"]``), or start a program in another folder (``cwd=``, ``{cwd: …}``,
PHP's ``proc_open``). No regular reading can name where such code goes, so an entry whose
text runs an interpreter and holds one of these constructs is refused, naming it: the
dynamic ones (string evaluation, reflection, symbol tables, a computed member called, a
foreign function interface) and the folder options of a program start. The constructs are
listed per language below: one not listed is a residual (docs/decisions.md, session 51)."""

from __future__ import annotations

import os

from ..lazy import compile_on_use
from .planpaths import FAMILIES, family
from .starttables import INTERPRETERS

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A program's name among the entry's words (a path's last part).
_NAMES: Final = compile_on_use(r"[\w.+-]+")
#: Constructs by which code reaches a function by a name it computes, or runs code it builds:
#: string evaluation (``eval``, ``exec``, ``compile``, ``Function``, ``new Function``, a
#: string timer, PowerShell's ``Invoke-Expression``), reflection (``getattr``, python's
#: dunders, ``vars``, ``dir``, ``inspect``, ``operator``, ``Reflect``, ``constructor``, ruby's
#: ``send``, ``method``, ``const_get``, ``*_eval``, perl's ``->can``, ``&{…}``, ``*{…}``,
#: ``&$f``, ``->$m``, a symbol table, ``s///ee``), a computed member (``x[k]`` but for a
#: number or one literal string; a call of a call's or an index's result), dynamic
#: loading (``require``/``import()``/``do`` of anything but one literal, ``runpy``,
#: ``importlib``) and foreign functions (``ctypes``, ``cffi``, ``Fiddle``, ``FFI``,
#: ``syscall``, ``DynaLoader``, ``Add-Type``).
_DYNAMIC: Final = compile_on_use(
    r"(?<![\w$@%&/-])(?:eval|inspect|operator|Reflect|constructor|prototype|globalThis|"
    r"const_get|instance_eval|class_eval|module_eval|instance_exec|define_method|"
    r"ObjectSpace|runpy|importlib|ctypes|cffi|Fiddle|FFI|syscall|DynaLoader|XSLoader|"
    r"Invoke-Expression|iex|Invoke-Command|Add-Type|create_function|UNIVERSAL)(?![\w-])"
    r"|(?<![\w$@%&/-])(?:exec|compile|execfile|getattr|setattr|vars|globals|locals|dir|"
    r"Function|send|public_send|method|instance_method|call_user_func\w*)(?=\s*\()"
    r"|\.(?:public_|__)?send\b|binding\.|vm\.|->\s*can\b|(?:setTimeout|setInterval)\s*\("
    r"\s*['\"`]"  # (a string timer)
    r"|__\w+__|(?<!&)&[{$]|\*\{|->\s*[$(]|[$%]::|%main::|\$\w+\s*\("  # (perl's; PHP's `$f()`)
    r"|(?<=[\w)\]'\"])\[(?!\s*(?:-?\d+|'[^'+]*'|\"[^\"+]*\")\s*\])"  # (`x[k]`)
    r"|[)\]]\s*\("  # (a call's or an index's result called)
    r"|(?<![\w$.])(?:require|import|load)\s*\((?!\s*(?:'[^'+]*'|\"[^\"+]*\")\s*\))"
    r"|(?<![\w$])(?:require|do)\s+\$"  # (perl's `require $m`, `do $file`)
    r"|(?<=/)[msixpodualngcr]*e[msixpodualngcr]*e[msixpodualngcr]*(?=[\s;'\")}]|$)")  # (s///ee)
#: A program started in a folder its options name (python's ``cwd=``, node's, Bun's and
#: deno's ``{cwd: …}``, ruby's and perl's ``chdir:``, PHP's ``proc_open``, PowerShell's
#: ``-WorkingDirectory``, .NET's ``CurrentDirectory``), or PowerShell's ``sl`` alias.
_STARTED: Final = compile_on_use(r"(?i)(?<![\w-])(?:cwd|workingdirectory|currentdirectory|"
                                 r"proc_open|sl)(?![\w-])")
#: Where the markers are looked for: in code only (python's ``import os`` is static, a
#: shell loop's ``do`` is not perl's; the entry's own words are bash's, read elsewhere).
_STATIC_IMPORT: Final = compile_on_use(r"(?<![\w$])(?:import|from)\s+[\w.]+")


#: What starts a program from an interpreter's code: perl's, ruby's, PHP's, python's, node's,
#: Bun's, deno's, lua's, R's, tcl's (``system``, ``exec*``, ``spawn*``, ``popen``, backquotes,
#: ``qx``, ``%x``, a pipe ``open``, ``subprocess``, ``child_process``, ``os.execute``, …);
#: PowerShell and tcl run a program by its name as a statement (any code of theirs does).
_RUNS: Final = compile_on_use(
    r"(?<![\w$@%&/-])(?:system2?|exec\w*|spawn\w*|[pP]open\w*|subprocess|child_process|qx|"
    r"Open[23]|IPC|pty|shell_exec|passthru|proc_open|pcntl_exec|execute|execa|shelljs|"
    r"webbrowser|startfile|Command|getline|fork)(?!\w)|`|%x|Bun\.\$|Deno\.run"
    r"|(?<![\w$])open\b[^;]*\||\bprintf?\b[^;}|']*\|\s*\"")
#: A folder change named in any spelling (a call or not: ``movedoubts``' reads calls only).
_CHDIR_WORD: Final = compile_on_use(r"(?i)(?<![\w-])(?:f?chdir|setwd|set-location|"
                                    r"push-location)(?![\w-])")
#: awk's (``system()``, a pipe to or from a command: ``_RUNS``' ``getline``, ``print |``);
#: GNU sed's ``e`` command and ``s///e`` flag, which run the shell (s51-greview3 B1).
_AWKS: Final = frozenset({"awk", "gawk", "mawk", "nawk", "busybox"})
_SED_E: Final = compile_on_use(r"(?:^|[\s;{'\"0-9$])e(?=[\s;}'\"]|$)|"
                               r"/[gpIiMm0-9w]*e[gpIiMm0-9]*(?=[\s;}'\"]|$)")
_RUNS_STATEMENTS: Final = frozenset({"pwsh", "powershell", "tclsh", "wish", "expect"})
#: vim's script language runs the shell (``:!``, ``:exe`` of a string it joins, ``system()``:
#: s51-greview3 B6): vim by any of its names, ``ex``/``vi`` given an option, in the entry's
#: code (``_code``: ``Bash(vim *)`` gives none; each call's is read by the call's reading).
_VIMS: Final = compile_on_use(r"(?<![\w.-])(?:[ngr]?vim|vimdiff|(?:ex|vi)(?=\s+[-+]))"
                              r"(?![\w.-])")


#: An option word that gives an interpreter its code (``-e``, ``-c``, ``-E``, ``-r``, ``-p``,
#: ``--eval``, …; in a cluster too): the code is what follows it.
_CODE_FLAG: Final = compile_on_use(r"(?<!\S)(?:-[A-Za-z]*[ceEpr]|--(?:eval|exec|print|command))")


def _code(text: str) -> str:
    """The part of the entry text ``text`` that may be an interpreter's code: all of it where
    it holds a quote, an escape, an expansion, a here-document, a pipe or another command
    (code may come in any of them), else what follows an option giving code
    (``_CODE_FLAG``), else nothing: the plain words of a command line (``tclsh tools/x``,
    ``npm exec -- node tools/run.js``, ``python3 -m runpy``) name a script, whose code is not
    read here (a residual, docs/decisions.md)."""
    if any(c in text for c in "'\"\\`|<$(;&\n"):
        return text
    flag = _CODE_FLAG.search(text)
    return text[flag.start():] if flag is not None else ""


def code_runs(text: str) -> str | None:
    """What in an interpreter's code in the entry text ``text`` may start a program, or
    None. The gate reads neither the program nor its folder: a string the code builds may
    hold a 'cd' (``system "c"."d sub && make"``), an option object a folder (review
    s51-greview3 B1, B3), so such an entry is refused."""
    names = [os.path.basename(n) for n in _NAMES.findall(text)]
    code = _code(text)
    shell = next((n for n in names if n.rstrip("0123456789.-") in _RUNS_STATEMENTS), None) \
        if code else None
    found = _RUNS.search(code) if any(map(_interpreter, names)) or any(
        n in _AWKS for n in names) else None
    sed = _SED_E.search(text) if "sed" in names or "gsed" in names else None
    return shell or next((f.group() for f in (found, sed, _VIMS.search(code))
                          if f is not None), None)


def code_doubt(text: str) -> str | None:
    """Why an interpreter's code in the entry text ``text`` may run a program in a folder
    the gate cannot name (it starts one, or holds a dynamic construct or a program start's
    folder option), or None where ``text`` runs no interpreter or holds none of them."""
    started = code_runs(text)
    if started is not None:
        return (f"an interpreter's code starts a program ({started.strip()!r}) whose name and "
                "folder the gate does not read (a string it builds may hold a 'cd')")
    if not any(_interpreter(name) for name in _NAMES.findall(text)):
        return None
    spelled = _CHDIR_WORD.search(text)  # (`chdir+"sub"`, `chdir#⏎"sub"`: s51-greview3 B2)
    if spelled is not None:
        return f"an interpreter's code may change its folder ({spelled.group()!r})"
    code = _STATIC_IMPORT.sub(" ", _code(text))
    for pattern, why in ((_DYNAMIC, "a name it computes"),
                         (_STARTED, "a program start's folder option")):
        found = pattern.search(code)
        if found is not None:
            return (f"an interpreter's code may change its folder by {why} "
                    f"({found.group().strip()!r}) before it runs a program")
    return None


def _interpreter(name: str) -> bool:
    """Whether the program ``name`` runs code in a language other than the shell's."""
    name = os.path.basename(name)
    return family(name) in FAMILIES - {"shell"} or name in INTERPRETERS or \
        name.rstrip("0123456789.-") in INTERPRETERS
