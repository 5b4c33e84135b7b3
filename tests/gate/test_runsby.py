"""The rules of gate/runsby.py: programs that run code, or write a file, their options or inputs
name (review s43 R2b, R4b, R5b, R6, R6b, R7, W14, W15). The abbreviation cases are checked
against the real programs: every prefix the program itself reads as the option that runs code
must be a doubt."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from skillgrant.gate.runsby import formatted
from skillgrant.gate.words import Doubt, Word, check_runnable, family


def _doubted(command: str) -> bool:
    try:
        check_runnable([Word(w) for w in shlex.split(command)])
    except Doubt:
        return True
    return False


@pytest.mark.parametrize(("name", "tool"), [
    ("x86_64-linux-gnu-gcc-12", "gcc"), ("x86_64-linux-gnu-gcc", "gcc"), ("c99", "c99"),
    ("gcc-nm-12", "nm"), ("x86_64-linux-gnu-gcc-nm-12", "nm"), ("x86_64-linux-gnu-ar", "ar"),
    ("gcc-ranlib-12", "ranlib"), ("clang++-15", "clang++"), ("x86_64-linux-gnu-ld.bfd", "ld.bfd"),
    ("x86_64-w64-mingw32-gcc-10-posix", "gcc"), ("clang-cpp", "cpp"),
    ("git-lfs", "git-lfs"), ("ld.so", "ld.so"), ("tar", "tar")])
def test_a_program_is_read_by_its_family(name: str, tool: str) -> None:
    assert family(name) == tool


@pytest.mark.parametrize("command", [
    "x86_64-linux-gnu-gcc-12 -wrapper ./e.sh -c a.c", "c89 -wrapper ./e.sh -c a.c",
    "gcc @opts -c a.c", "gcc-nm-12 --plugin ./p.so a.o", "nm --pl=./p.so a.o",
    "x86_64-linux-gnu-ar --plu ./p.so rc b.a a.o", "diff3 --d=./e.sh a b c",
    "sdiff --diff=./e.sh a b", "groff -U -Tascii d.ms", "nroff -tU d.ms", "troff -U d.ms",
    "perf stat -e task-clock touch zz", "ccache ./e.sh a.c", "javac A.java",
    "javac -processorpath . -processor P A.java", "javac -proc:none -J-javaagent:a.jar A.java",
    "rustc -C linker=./e.sh m.rs", "rustc -Clinker=./e.sh m.rs", "rustc --codegen=link-arg=-B.",
    "rustc -C link-self-contained=y m.rs", "rustc --extern m=./libm.so m.rs",
    "rustc --target ./t.json m.rs", "kubectl get pods --kubeconfig=./k.yaml",
    "kubectl --kubeconfig k.yaml get pods", "kubectl kustomize --enable-exec d",
    "ld -T o.ld e.o", "ld o.ld e.o", "ld -Map -o e.o", "x86_64-linux-gnu-ld.bfd e.o",
    "gcc -nostdlib -Wl,-T,o.ld e.c", "gcc e.o o.ld", "gcc -I -o a.c", "mold -run make",
    "clang -fpass-plugin=./p.so -c a.c", "clang-15 -Xclang -load -Xclang ./p.so -c a.c",
    "ld -plugin ./p.so -o out e.o", "ld --plu=./p.so -o out e.o", "ld @opts -o out e.o",
    # review s44 R1: man-db's configuration (DEFINE tbl PROGRAM), pager, browser, prompt
    "man -C m.conf -p t ls", "man -aCm.conf ls", "man --conf=m.conf ls", "man ls --pag=./e",
    "man -P ./e ls", "man -H./e ls", "man --html ls", "man -r x ls", "catman -C m.conf",
    "man -m x -C m.conf ls",
    # review s44 R2, R4–R8: less's key file and log, pygmentize -x, npm's shell and node
    # options, LLVM's plugins, javadoc's doclets, cmake -E's runners
    "less -k k notes.txt", "less -kk notes.txt", "less -Nk k n", "less --lesskey-f=k n",
    "less -o log n", "less --log=log n", "pygmentize -x -l lex.py:L n",
    "pygmentize -l lex.py:L -x n", "pygmentize -sx n",
    "npm run build --script-shell=./e.sh", "npm run build --script-shell ./e.sh",
    "npm run build --node-options=--import=x", "npm test --userconfig ./r", "npx -c 'touch z'",
    "pnpm run build --script-sh=./e.sh", "opt -load ./p.so -S a.ll", "opt-14 -load ./p.so a.ll",
    "opt -load-pass-plugin=./p.so a.ll", "llc --load=./p.so a.ll", "opt @args a.ll",
    "javadoc -docletpath . -doclet Evil A.java", "javadoc -taglet T A.java",
    "javadoc -J-javaagent:a.jar A.java", "cmake -E env touch zz", "cmake -E time touch zz",
    "cmake -E chdir out touch ../zz", "pydoc3 evil", "pydoc3.11 json",
])
def test_a_command_that_runs_or_writes_what_it_names_is_a_doubt(command: str) -> None:
    assert _doubted(command)


@pytest.mark.parametrize("command", [
    "gcc -c a.c", "gcc -O2 -o prog a.c b.c", "x86_64-linux-gnu-gcc-12 -E -P a.c",
    "gcc --version", "nm -C a.o", "nm --print-size a.o", "diff3 a b c", "sdiff -o m a b",
    "groff -Tascii -ms d.ms", "javac -proc:none -d out A.java", "rustc -C opt-level=2 m.rs",
    "rustc --edition 2021 -o m m.rs", "kubectl get pods -n x", "ld -o out e.o",
    "ld -r -o out.o a.o b.o", "ld --version", "man ls", "man -k printf", "man 3 printf",
    "man -w -a ls", "man -Tutf8 -p t ls", "man ls -- -C",
    "less -R notes.txt", "less -N +G notes.txt", "less -xk n", "less -- -k",
    "pygmentize -l python -f html a.py", "pygmentize -lxml a.xml", "npm run build",
    "npm test -- --shell", "npm install --save-dev x", "opt -S -O2 a.ll -o b.ll",
    "llc -O2 a.ll -o a.s", "javadoc -d out A.java", "cmake -E copy a b",
    "cmake -S . -B build",
])
def test_a_command_that_names_nothing_it_runs_is_read(command: str) -> None:
    assert not _doubted(command)


@pytest.mark.parametrize(("word", "paths"), [
    ("miff:.claude/hooks/x.sh", [".claude/hooks/x.sh"]), ("PNG24:out.png", ["out.png"]),
    ("msl:s.msl", ["$"]), ("https://host/a.png", []), ("a.png", [])])
def test_an_imagemagick_format_prefix_names_its_path(word: str, paths: list[str]) -> None:
    assert formatted(word) == paths


PLUGIN_C = ('#include <stdio.h>\n__attribute__((constructor)) static void f(void) '
            '{ fclose(fopen("zz", "w")); }\n')


def _runs(folder: Path, command: str) -> bool:
    marker = folder / "zz"
    marker.unlink(missing_ok=True)
    subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, timeout=30,
                   check=False)
    return marker.exists()


@pytest.mark.parametrize(("program", "option", "operands"), [
    ("nm", "plugin", "./p.so a.o"), ("diff3", "diff-program", "./e.sh a b c"),
    ("sdiff", "diff-program", "./e.sh a b")])
def test_every_prefix_the_program_reads_as_the_option_is_a_doubt(
        tmp_path: Path, program: str, option: str, operands: str) -> None:
    """Against the real program: each ``--PREFIX=`` and ``--PREFIX VALUE`` it runs code with
    is a doubt (getopt_long reads any unambiguous prefix)."""
    if shutil.which(program) is None or shutil.which("gcc") is None:
        pytest.skip(f"no {program} or gcc here")
    (tmp_path / "p.c").write_text(PLUGIN_C)
    (tmp_path / "a.c").write_text("int main(void) { return 0; }\n")
    subprocess.run("gcc -shared -fPIC -o p.so p.c && gcc -c a.c -o a.o", shell=True,
                   cwd=tmp_path, check=True, timeout=60)
    (tmp_path / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (tmp_path / "e.sh").chmod(0o755)
    for name in "abc":
        (tmp_path / name).write_text(f"{name}\n")
    first, rest = operands.split(" ", 1)
    ran = 0
    for end in range(1, len(option) + 1):
        for form in (f"--{option[:end]}={first} {rest}", f"--{option[:end]} {first} {rest}"):
            command = f"{program} {form}"
            if _runs(tmp_path, command):
                ran += 1
                assert _doubted(command), shlex.quote(command)
    assert ran > 2, "the program ran no abbreviation: the case proves nothing"


def test_every_form_man_reads_its_configuration_file_in_is_a_doubt() -> None:
    """Against man-db (review s44 R1): each prefix of ``--config-file`` (``=FILE`` and apart)
    and ``-C`` (apart, attached, in a cluster) whose file's ``DEFINE tbl`` man runs is a
    doubt. (Run as root, man-db runs its pipeline as the ``man`` user: the folder is open.)"""
    if shutil.which("man") is None or subprocess.run(
            ["man", "-w", "ls"], capture_output=True, check=False).returncode:
        pytest.skip("no man, or no page for ls")
    folder = Path(tempfile.mkdtemp(prefix="s44-man-"))
    try:
        folder.chmod(0o777)
        (folder / "m.conf").write_text(f"DEFINE tbl touch {folder}/zz\n")
        forms = [f"--{'config-file'[:end]}{sep}m.conf" for end in range(1, 12)
                 for sep in ("=", " ")] + ["-C m.conf", "-Cm.conf", "-aC m.conf"]
        ran = 0
        for form in forms:
            command = f"man {form} -p t ls"
            if _runs(folder, command):
                ran += 1
                assert _doubted(command), shlex.quote(command)
        assert ran > 10, "man ran no configuration's program: the case proves nothing"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize(("call", "found"), [
    ("git checkout evil -- out/l && gcc -E -P -x c src/x.sh -o out/l/x.sh", "git"),
    ("git restore --source evil out/l && gcc -o out/l/x.sh a.c", "git"),
    ("for i in 1 2; do gcc -o l/x.sh a.c; git checkout e -- l; done", "git"),
    ('"g"it checkout e -- l && gcc -o l/x a.c', "git"),
    ("tar -xf a.tar; gcc -o l/x a.c", "tar"), ("cp -r a b && gcc -o b/x a.c", "cp"),
    ("unzip a.zip | cat", "unzip"), ("mv evil/l l; tee l/x < a", "mv"),
    ("git add -A && git commit -m x && git push", None), ("cp a b && pytest -q", None),
    ("mkdir -p out && gcc -o out/x a.c", None), ("tar -xf a.tar", None),
    ("git checkout evil -- out/l", None), ("git --version && ls", None)])
def test_a_link_maker_in_a_call_of_several_commands(call: str, found: str | None) -> None:
    """Review s43 L1: a program that may make a link the words do not spell, in a call of more
    than one command, is refused whatever the order (guards.guarded_word asks it)."""
    from skillgrant.gate.linkmakers import link_then_more

    assert link_then_more(call) == found
