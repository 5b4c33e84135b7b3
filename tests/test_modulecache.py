"""modulecache.py: the package's modules a hook imported, kept compiled in one file and served
to the next hook's imports only while each module's source is as it was kept. Each case runs
a copy of the package in processes of its own (the interpreter as a hook runs it, bytecode
written), so what is judged is what a hook's process imports."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from skillgrant import patterncache

#: Slow (CI's slow step, .ci/steps/30-slow.sh): each case starts two to five new interpreters
#: (``-I``) over a copy of the package with no bytecode, about 0.55 s of CPU a case, 9 s the
#: module (session 62: the README's command's costliest module).
pytestmark = [pytest.mark.slow]
pytestmark.append(pytest.mark.skipif(not patterncache.usable(), reason="re not checked here"))

SOURCE = Path(__file__).resolve().parent.parent / "skillgrant"
#: The calls each process decides, and what it prints: how many modules were served kept,
#: the loader of the gate's call module, and the decisions (compared with a process that
#: imports every module from its file).
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from skillgrant import modulecache, patterncache
served = modulecache.load() if sys.argv[2] == "kept" else 0
from skillgrant.gate import call
plan = ["Bash(git *)", "Bash(npm test)", "Read(//repo/**)"]
calls = [("Bash", {"command": "git status && npm test"}), ("Bash", {"command": "rm -rf /"}),
         ("Read", {"file_path": "/repo/a"}), ("Bash", {"command": "git log | tail -n 2"})]
decided = [call.check_call(tool, given, plan, cwd="/repo").status for tool, given in calls]
kept = modulecache.keep() if sys.argv[2] == "kept" else 0
loader = call.__spec__.loader
named = getattr(loader, "__name__", type(loader).__name__)
print(json.dumps([served, named, call.__file__, decided, kept]))
"""


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the package, with no bytecode, in a folder of its own."""
    root = tmp_path / "copy"
    shutil.copytree(SOURCE, root / "skillgrant", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _probe(root: Path, mode: str = "kept", *flags: str) -> list[object]:
    done = subprocess.run([sys.executable, "-I", *flags, "-c", PROBE, str(root), mode],
                          capture_output=True, text=True, timeout=120, cwd="/")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def _kept_file(root: Path) -> Path:
    name = Path(patterncache.path("modules")).name
    return root / "skillgrant" / "__pycache__" / name


def test_the_next_process_imports_the_kept_modules_and_decides_the_same(package: Path) -> None:
    served, loader, _, decided, kept = _probe(package)
    assert isinstance(kept, int)
    assert (served, loader) == (0, "SourceFileLoader") and kept > 20  # (the first: keeps)
    served, loader, origin, again, kept = _probe(package)
    assert isinstance(served, int) and served > 20 and loader == "_Finder" and kept == 0
    assert origin == str(package / "skillgrant" / "gate" / "call.py")
    assert again == decided == _probe(package, "files")[3]


#: A process importing a few of the kept modules only (the gate's call module among them,
#: not its decision's), then keeping; it prints the loader of the call module.
FEW = """
import json, sys
sys.path.insert(0, sys.argv[1])
from skillgrant import modulecache
modulecache.load()
from skillgrant.gate import call
modulecache.keep()
print(json.dumps(type(call.__spec__.loader).__name__ if not isinstance(call.__spec__.loader,
                 type) else call.__spec__.loader.__name__))
"""


def _groups(root: Path) -> list[int]:
    """How many modules each group of the kept file holds."""
    import marshal

    _form, _made, held = marshal.loads(_kept_file(root).read_bytes())
    places: dict[object, int] = {}
    for *_, place, _listed in held.values():
        places[place] = places.get(place, 0) + 1
    return sorted(places.values())


def test_a_group_a_process_used_in_part_is_kept_as_two(package: Path) -> None:
    """The modules one process imported are one group; a process that imported only some of
    a group's modules writes it again as two (its own, and the rest), once; every module is
    still served, and decides the same."""
    decided = _probe(package)[3]  # (keeps them: one group)
    whole = _groups(package)
    assert len(whole) == 1
    few = subprocess.run([sys.executable, "-I", "-c", FEW, str(package)], capture_output=True,
                         text=True, timeout=120, cwd="/")
    assert few.returncode == 0 and json.loads(few.stdout) == "_Finder", few.stderr
    split = _groups(package)
    assert len(split) == 2 and sum(split) == whole[0]
    _served, loader, _, again, kept = _probe(package)
    assert loader == "_Finder" and kept == 0 and again == decided
    assert _groups(package) == split  # (both used whole: nothing written)


#: Each of the package's modules with what the import system made of it: its file, its
#: ``__cached__``, its package, and its spec's.
ATTRIBUTES = PROBE.replace("print(json.dumps([served, named, call.__file__, decided, kept]))", """
print(json.dumps(sorted([name, m.__file__, getattr(m, "__cached__", "-"), m.__package__,
                         m.__spec__.cached, m.__spec__.has_location, m.__spec__.parent]
                        for name, m in sys.modules.items() if name.startswith("skillgrant"))))
""")


@pytest.mark.parametrize("flags", [[], ["-X", "pycache_prefix=/nonexistent-prefix"], ["-O"]])
def test_a_kept_module_has_the_attributes_its_file_gives(package: Path, flags: list[str]) -> None:
    """``__cached__`` (worked out by modulecache where the import system's answer is plain:
    no bytecode prefix, no ``-O``) and the rest are as a module imported from its file has
    them."""
    def run(mode: str) -> list[list[object]]:
        done = subprocess.run([sys.executable, "-I", *flags, "-c", ATTRIBUTES, str(package),
                               mode], capture_output=True, text=True, timeout=120, cwd="/")
        assert done.returncode == 0, done.stderr
        return list(json.loads(done.stdout))

    _probe(package)  # (keeps them)
    if flags:  # (a bytecode prefix, -O: none kept by these; the plain process's served)
        assert _probe(package, "kept")[1] == "_Finder"
    served = run("kept")
    assert any(name == "skillgrant.gate.call" for name, *_ in served)
    assert served == run("files")


def test_a_changed_source_is_imported_from_its_file(package: Path) -> None:
    _probe(package)
    source = package / "skillgrant" / "gate" / "call.py"
    text = source.read_text()
    source.write_text(text + "\nCHANGED = True\n")  # (another size)
    assert _probe(package)[1] == "SourceFileLoader"
    assert _probe(package)[1] == "_Finder"  # (kept anew by the process before)
    source.write_text(text.replace("def check_call", "def check_calx").replace(
        "check_calx", "check_call"))  # (the same text: only the time changes)
    os.utime(source, ns=(1, 1))
    assert _probe(package)[1] == "SourceFileLoader"


@pytest.mark.parametrize("doubt", ["others may write it", "its folder others may write",
                                   "outside the package", "a link"])
def test_a_file_in_doubt_is_not_used(package: Path, doubt: str, tmp_path: Path) -> None:
    _probe(package)
    kept = _kept_file(package)
    if doubt == "others may write it":
        kept.chmod(0o666)
    elif doubt == "its folder others may write":
        kept.parent.chmod(0o777)
    elif doubt == "outside the package":
        import marshal

        form, made, held = marshal.loads(kept.read_bytes())
        elsewhere = tmp_path / "evil.py"
        elsewhere.write_text("X = 1\n")
        name, (_origin, *rest) = next(iter(held.items()))
        held[name] = (str(elsewhere), *rest)
        kept.write_bytes(marshal.dumps((form, made, held)) + _codes(kept, held))
    else:
        moved = tmp_path / "moved.marshal"
        kept.rename(moved)
        kept.symlink_to(moved)
    served, loader, *_ = _probe(package)
    assert (served, loader) == (0, "SourceFileLoader")


def test_nothing_is_kept_where_python_writes_no_bytecode(package: Path) -> None:
    assert _probe(package, "kept", "-B")[4] == 0  # (-I: PYTHONDONTWRITEBYTECODE is not read)
    assert not _kept_file(package).exists()


#: A process deciding a call, then printing what its ``re`` and ``fnmatch`` are: the loader's
#: name, the file, whether it is a module standing in for the standard one (``SHADOW``).
STANDARD = """
import sys
sys.path.insert(0, sys.argv[1])
from skillgrant import modulecache
modulecache.load()
from skillgrant.gate import call
call.check_call("Bash", {"command": "git status"}, ["Bash(git *)"], cwd="/repo")
modulecache.keep()
import fnmatch, json, re
print(json.dumps([[getattr(m.__spec__.loader, "__name__", type(m.__spec__.loader).__name__),
                   m.__file__, hasattr(m, "SHADOW")] for m in (re, fnmatch)]))
"""


def _standard(root: Path) -> list[list[object]]:
    done = subprocess.run([sys.executable, "-I", "-c", STANDARD, str(root)],
                          capture_output=True, text=True, timeout=120, cwd="/")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def test_the_standard_modules_a_hook_imports_are_kept_too(package: Path) -> None:
    """``re``'s and ``fnmatch``'s modules are served kept from the second process on, from
    the standard library's files."""
    first = _standard(package)
    assert [loader for loader, *_ in first] == ["SourceFileLoader"] * 2
    again = _standard(package)
    assert [loader for loader, *_ in again] == ["_Finder"] * 2
    assert [file for _, file, _ in again] == [file for _, file, _ in first]
    assert isinstance(again[0][1], str)
    assert str(Path(again[0][1]).parent.parent) == os.path.dirname(os.__file__)


def test_a_standard_module_a_folder_before_the_library_holds_is_its_own(package: Path) -> None:
    """A module of a standard module's name in a folder ``sys.path`` names before the
    standard library's (the process's first entry: the copy's folder) is the one imported,
    as the path finder imports it, though the standard one was kept."""
    _standard(package)
    _standard(package)  # (kept)
    source = Path(os.path.dirname(os.__file__)) / "fnmatch.py"
    (package / "fnmatch.py").write_text(source.read_text() + "\nSHADOW = True\n")
    served = _standard(package)
    assert served[1][0] == "SourceFileLoader" and served[1][2] is True
    assert served[1][1] == str(package / "fnmatch.py")
    assert served[0][0] == "_Finder"  # (re's are still served)


def test_a_standard_module_whose_folder_changed_is_imported_from_its_file(
        package: Path) -> None:
    """A standard module is served only while the folder the path finder lists for it has
    the modification time it had when it was kept (an entry came or went there)."""
    import marshal

    _standard(package)
    kept = _kept_file(package)
    form, made, held = marshal.loads(kept.read_bytes())
    origin, mtime, size, package_, code, listed = held["fnmatch"]
    assert listed == os.stat(os.path.dirname(origin)).st_mtime_ns
    held["fnmatch"] = (origin, mtime, size, package_, code, listed - 1)
    kept.write_bytes(marshal.dumps((form, made, held)) + _codes(kept, held))
    assert [loader for loader, *_ in _standard(package)] == ["_Finder", "SourceFileLoader"]


def _codes(kept: Path, held: dict[str, tuple[object, ...]]) -> bytes:
    """The kept modules' code, as the file ``kept`` holds it after their list ``held``."""
    data = kept.read_bytes()
    return data[len(data) - max(int(place[0]) for *_, place, _ in held.values()):]  # type: ignore[index]


def test_a_kept_module_whose_code_does_not_read_is_imported_from_its_file(
        package: Path) -> None:
    """Each group of modules' code is read from the kept file as one of them is imported
    (after the list of them): the modules of a group that does not read whole are imported
    from their sources, and decide the same."""
    import marshal

    _probe(package)
    kept = _kept_file(package)
    data = kept.read_bytes()
    _form, _made, held = marshal.loads(data)
    back, length = held["skillgrant.gate.call"][4]
    start = len(data) - back
    kept.write_bytes(data[:start] + b"\0" * length + data[start + length:])
    served, loader, _, decided, _ = _probe(package)
    assert isinstance(served, int) and served > 20 and loader == "SourceFileLoader"
    assert decided == _probe(package, "files")[3]



#: A process serving the kept modules by ``modulecache._find_and_load`` ("fast") or by the
#: import system's own steps ("steps"), printing each of the package's modules as the import
#: made it, in ``sys.modules``' order (its namespace's names in order, the values the import
#: system sets, its spec's state after it), the decisions, and what a kept module whose code
#: raises leaves (the error; no module of the names, none set on its package).
IMPORTED = """
import json, sys
sys.path.insert(0, sys.argv[1])
import _frozen_importlib
from skillgrant import modulecache
modulecache.load()
if sys.argv[2] == "steps":
    _frozen_importlib._find_and_load = modulecache._FIND_AND_LOAD[0]
fast = _frozen_importlib._find_and_load is modulecache._find_and_load
exec_module = modulecache._Finder.exec_module
def raising(module):
    if module.__name__ == "skillgrant.gate.words":
        raise OSError("raised")
    exec_module(module)
modulecache._Finder.exec_module = staticmethod(raising)
try:
    from skillgrant.gate import plainshell
    raised = None
except OSError as error:
    raised = str(error)
gate = sys.modules["skillgrant.gate"]
left = [[name, name in sys.modules, hasattr(gate, name.rpartition(".")[2])]
        for name in ("skillgrant.gate.words", "skillgrant.gate.plainshell")]
modulecache._Finder.exec_module = staticmethod(exec_module)
from skillgrant.gate import call
plan = ["Bash(git *)", "Bash(npm test)", "Read(//repo/**)"]
decided = [call.check_call("Bash", {"command": c}, plan, cwd="/repo").status
           for c in ("git status && npm test", "rm -rf /", "git log | tail -n 2")]
rows = [[name, list(vars(m)), [repr(vars(m).get(k)) for k in (
    "__name__", "__package__", "__path__", "__file__", "__cached__")],
         getattr(m.__loader__, "__name__", type(m.__loader__).__name__),
         m.__spec__._initializing, m.__spec__._uninitialized_submodules]
        for name, m in sys.modules.items() if name.startswith("skillgrant")]
print(json.dumps([fast, raised, left, decided, rows]))
"""


def test_a_kept_module_is_imported_as_the_import_system_imports_it(package: Path) -> None:
    """``modulecache._find_and_load`` (the import system's steps for a module it serves, in
    one function) makes each module as those steps do: the same names in its namespace, in
    the same order, the modules in the same order, a module whose code raises left out."""
    def run(mode: str) -> list[Any]:
        done = subprocess.run([sys.executable, "-I", "-c", IMPORTED, str(package), mode],
                              capture_output=True, text=True, timeout=120, cwd="/")
        assert done.returncode == 0, done.stderr
        return list(json.loads(done.stdout))

    _probe(package)  # (keeps them)
    fast, steps = run("fast"), run("steps")
    assert fast[0] is True and steps[0] is False
    assert fast[1] == "raised" and fast[2] == [["skillgrant.gate.words", False, False],
                                               ["skillgrant.gate.plainshell", False, False]]
    assert sum(row[3] == "_Finder" for row in fast[4]) > 20
    assert fast[1:] == steps[1:]
