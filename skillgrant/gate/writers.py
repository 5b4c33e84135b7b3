"""Programs that write files their words do not name one by one: the whole tree of a folder
they are given, or the working tree (issue 29, reviews W1c, W2).

``guards.guarded_word`` stops a command naming a file the gate guards. A program that writes a
folder names none of its files: ``cp -r evil/. .``, ``rsync -a x/ .``, ``mv dir/* .``,
``rm -rf .claude``, ``tar -xf a.tar``, ``unzip a.zip``, ``git checkout REV``, ``git stash
pop``. Claude Code 2.1.332 reads ``.claude/settings.json`` again in the session (measured:
tests/conformance/test_gate_files_e2e.py), so such a copy can take the gate's hook away. So
when a command holds one of these programs (``writes``), every word that names a folder holding
a guarded file, or a path inside a guarded folder, or a value the gate cannot name (``$``), is
``unknown``; and a program writing the working tree (``WORKTREE``, ``git`` but for the
subcommands in ``GIT_NAMED``/``GIT_KEEPS``) counts as naming the working directory (for ``git``,
its repository's top folder).

The lists are of programs that write files without running code (one that runs code can write
anything: docs/call-gate.md); their options that run code are the judge's (``optables``).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Sequence

from ..lazy import compile_on_use
from . import files
from .gitkept import GIT_KEEPS as GIT_KEEPS  # (readers, linkmakers read it here)
from .gitkept import git_kept
from .programnames import BASH_CLASS as BASH_CLASS  # (named.py reads it here)
from .programnames import program_named
from .wrapped import MOUNTERS, lists_only, long_prefix, new_branch_here

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Programs that write, move, remove or change the files and folders their words name (trees too).
FOLDER_WRITERS: Final = frozenset({
    "cp", "mv", "rm", "rmdir", "ln", "install", "rsync", "ditto", "scp", "rclone", "chmod",
    "chown", "chgrp", "setfacl", "shred", "unlink", "mkdir", "touch", "truncate", "tee", "dd",
    "rename", "prename", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd",
    "lz4", "split", "csplit", "curl", "zip",
    # a file named by an option or operand: sort -o, uniq IN OUT, sed's `w`, xxd -r IN OUT
    "sort", "uniq", "xxd", "iconv", "sponge", "openssl", "pandoc", "ffmpeg", "ssh-keygen", "gpg",
    *(IMAGEMAGICK := frozenset({"magick", "convert", "composite", "compare", "montage", "gm",
                                "mogrify", "conjure", "import", "stream", "display", "animate"})),
    "sqlite3",  # its database operand (review H-13)
    # an output file by an option or a second operand (review s41 W1); coreutils' link (L5)
    "shuf", "ptx", "sdiff", "fallocate", "objcopy", "strip", "cpp", "msgfmt", "link",
    # compressors writing beside the file they are given (review s42 W3's kin)
    "pigz", "unpigz", "lzop", "lzma", "unlzma", "lzip", "plzip", "brotli", "lrzip", "pbzip2",
    "lbzip2", "pixz", "compress", "uncompress",
})
#: Programs that make the path they write of pieces no word holds (``rename.ul -- - /
#: .git-config`` writes ``.git/config``; perl's ``rename`` runs its expression): ``unknown``
#: whenever the gate guards anything (review s42 W4).
COMPOSERS: Final = frozenset({"rename", "prename", "rename.ul", "file-rename", "perl-rename",
                              "mmv", "mcp", "mad", "mln", "zmv", "qmv", "vidir", "csplit"})  # W12
_GH_WRITES: Final = frozenset({"download", "clone", "-O", "--output", "-D", "--dir"})  # gh's
_GH_TREE: Final = ("pr checkout", "pr merge", "repo sync")
#: Programs that write the working directory's tree when no folder is named (and the named
#: folder when one is): unpackers and patchers.
WORKTREE: Final = frozenset({
    "unzip", "7z", "7za", "7zr", "unrar", "cpio", "pax", "ar", "patch", "bsdtar", "wget",
    "bsdcpio", "uudecode", "jar", "unar", "aunpack", "atool", "dtrx", "unsquashfs", "dpkg-deb",
    # review s42 W3: Perl's tar, dpkg's own -x, GnuPG's tar; and their kin
    "ptar", "dpkg", "gpgtar", "7zz", "bsdunzip", "cabextract", "lha", "arj", "unarj", "unace",
    "unalz", "zoo", "rar", "unshar", "busybox", "toybox", "rpm2archive", "innoextract",
    "split-file",  # LLVM's: the files its input names, under the folder given (W3b)
    "gpg-zip",  # GnuPG's older tar wrapper (W3c)
})
#: ``git`` subcommands writing only the paths their words name (``checkout`` with ``--``).
GIT_NAMED: Final = frozenset({"clone", "restore", "mv", "rm", "archive", "format-patch"})
#: git options writing a file or folder they name.
_GIT_OUTPUT: Final = frozenset({"-o", "--output", "--output-directory"})
_GIT_VALUED: Final = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                "--exec-path", "--config-env", "--super-prefix"})  # (s44 W20)
#: Words that move the folder later words are read from (``cd out && cp -r ../evil/. ../../w``)
#: or make a link a later word goes through (``ln -s ../../w p && cp -r evil/. p/``): with a
#: program writing folders, the command is not read (reviews H-20, H-22); so for an option that
#: moves it (``tar -C DIR``, ``--directory``, ``git -C``).
_MOVES: Final = frozenset({"cd", "pushd", "popd"})
#: Pattern and brace characters: a word holding one may become several, or any, paths.
_GLOB: Final = compile_on_use(r"[*?\[{]")
#: The programs ``writes`` looks at.
_LOOKED_AT: Final = FOLDER_WRITERS | WORKTREE | MOUNTERS | {"perl", "find", "tar", "gtar", "git",
                                                            "gh", "sed", "cmake"}
#: Python's modules that unpack an archive (``python3 -m zipfile -e``, ``-m tarfile -e``).
_UNPACKING: Final = frozenset({"zipfile", "tarfile", "-mzipfile", "-mtarfile"})
_MAX_OPTIONS: Final = 64  # words after a program looked at for its options and subcommand


def _name(word: str) -> str:
    """A program's name as the lists hold it: ``llvm-objcopy-14`` is ``objcopy``."""
    name = word.rsplit("/", 1)[-1]
    return _VERSIONED.sub("", name.removeprefix("llvm-")) if "-" in name else name


#: A version after a program's name (``gcc-12``, ``split-file-14``).
_VERSIONED: Final = compile_on_use(r"-[0-9][0-9.]*$")


def writes(words: Sequence[str], directory: str | None = None) -> tuple[bool, str | None]:
    """Whether the command whose words (quotes removed, operators split) are ``words``
    holds a program that writes folders (``FOLDER_WRITERS``, ``sed -i``, ``perl -i``, ``find``
    with an action, ``tar`` extracting, ``git`` but for ``GIT_KEEPS``), and the one writing
    the working tree, if any (``WORKTREE``, ``tar -x``, ``git`` but for ``GIT_KEEPS`` and
    ``GIT_NAMED``)."""
    folder, worktree = False, None
    for i, word in enumerate(words):
        name = _name(word)
        if name[:6] == "python" and not _UNPACKING.isdisjoint(words[i + 1:i + 4]):
            name = "unzip"  # `python3 -m zipfile -e a.zip .` unpacks (review s42 GF3)
        named = (name, []) if name in _LOOKED_AT else program_named(word, _LOOKED_AT, directory)
        if named is None:  # (`/usr/bin/gi[t]`, `git-core/git-checkout`: review s44 W2)
            continue
        writing, tree = _one(named[0], [*named[1], *words[i + 1:i + 1 + _MAX_OPTIONS]])
        folder, worktree = folder or writing, worktree or tree
    return folder, worktree


def _one(name: str, rest: list[str]) -> tuple[bool, str | None]:
    """``writes`` for one program ``name`` followed by the words ``rest``."""
    if name == "sed":  # `w FILE` writes the file it names; `e` is the judge's (optables)
        return True, None
    if name in FOLDER_WRITERS or name in MOUNTERS:  # (a mount's folders: s53-sreview R2)
        return True, None
    if name == "gh":  # release/run download: into the working folder; `pr checkout`, `co`,
        plain = " ".join(w for w in rest[:6] if w[:1] != "-")  # `pr merge`, `repo sync` (s45
        tree = plain[:3] == "co " or any(t in plain for t in _GH_TREE)  # G1): git's writes
        writing = tree or not _GH_WRITES.isdisjoint(rest)
        return writing, "git" if tree else name if writing and "download" in rest else None
    if name in WORKTREE:  # (`unzip -l a.zip` lists: issue 29, a cost)
        return (False, None) if name == "unzip" and lists_only(rest) else (True, name)
    if name == "cmake":  # `cmake -E copy_directory`, `cmake -E tar xf` (review s44 W1)
        return "-E" in rest, name if "tar" in rest else None
    if name in ("sed", "perl", "find"):
        edited = edits(name, rest)  # find with no start folder searches `.` (review G-3)
        return edited, name if edited and name == "find" and _no_start(rest) else None
    if name in ("tar", "gtar"):  # create mode writes named files too (`--index-file`, `-f`,
        extracts = _tar_extracts(rest)  # `-g`) and `--remove-files` removes (H-16, H-17);
        listed = any(w.startswith("--files") or (  # names from a file, `-T` (H-29)
            ((w[:1] != "-" and i == 0) or (w[:1] == "-" and w[1:2] != "-")) and "T" in w[:8])
            for i, w in enumerate(rest))
        return True, name if extracts or listed else None
    sub = git_subcommand(rest)  # git; `log/diff/show --output FILE` write it (G-4)
    if any(long_prefix(w, "pathspec-from-file", "template", "separate-git-dir") for w in rest) \
            or (sub == "config" and not any(w.startswith(("--get", "--list", "-l", "--show"))
                                            for w in rest)):
        return True, "git"  # paths from a file (G-8); git's config, hooks (G-9; any prefix: G1)
    if sub is None or git_kept(rest, sub) in GIT_KEEPS \
            or new_branch_here(rest[rest.index(sub):]):  # (`checkout -b x`: s47 C-git)
        return not _GIT_OUTPUT.isdisjoint(rest), None
    return True, None if sub in GIT_NAMED or (sub == "checkout" and "--" in rest) else "git"


def edits(name: str, rest: list[str]) -> bool:
    """Whether ``sed``/``perl`` edit in place (``-i``), or ``find`` acts on what it finds."""
    if name == "find":
        return any(w in ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fls")
                   or w.startswith("-fprint") for w in rest)
    return any(_cluster(w, "i") or w.startswith("-i") or long_prefix(w, "in-place")
               for w in rest)


def _no_start(rest: list[str]) -> bool:
    """Whether ``find``'s words name no start folder (GNU find then searches ``.``): the
    first word after its leading ``-H -L -P -D X -OL`` options is an expression's."""
    i = 0
    while i < len(rest) and (rest[i] in ("-H", "-L", "-P") or rest[i].startswith("-O")
                             or rest[i] == "-D"):
        i += 2 if rest[i] == "-D" else 1
    return i >= len(rest) or rest[i].startswith(("-", "!", "(", ","))


#: tar's modes that extract nothing, as long options (GNU tar takes any unambiguous prefix).
_TAR_OTHER_LONG: Final = ("create", "append", "list", "update", "catenate", "concatenate",
                          "diff", "compare", "delete", "test-label")


def _tar_extracts(rest: list[str]) -> bool:
    """Whether ``tar`` (with the words ``rest``) may extract: unless a mode that extracts
    nothing is named (``-c -r -t -u -A -d``, their long names or prefixes), and no ``-x``,
    ``--extract`` or ``--get`` (any prefix: GNU tar reads ``--extr``; review G-2)."""
    other = False
    for i, word in enumerate(rest):
        if word.startswith("--"):
            if long_prefix(word, "extract", "get"):
                return True
            other |= len(word) > 4 and any(m.startswith(word[2:]) for m in _TAR_OTHER_LONG)
        elif word.startswith("-") or i == 0:  # a cluster, or the old style's first word
            letters = word.lstrip("-")
            if "x" in letters and letters.isalpha():
                return True
            other |= letters.isalpha() and not set("crtuAd").isdisjoint(letters)
    return not other


def _cluster(word: str, letter: str) -> bool:
    """Whether ``word`` is a cluster of short options (tar's first word too) with ``letter``."""
    letters = word[1:] if word.startswith("-") and not word.startswith("--") else word
    return letters.isalpha() and letter in letters and len(letters) <= 12


def git_subcommand(rest: Sequence[str]) -> str | None:
    skip = False
    for word in rest:
        if skip:
            skip = False
        elif word in _GIT_VALUED:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def top_folder(directory: str) -> str:
    """The top folder (with ``.git``) of the git repository holding ``directory``, or it."""
    folder = directory
    while True:
        if files.exists(os.path.join(folder, ".git")):  # asked of the gate's view
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return directory
        folder = parent


def composer(words: Sequence[str]) -> str | None:
    """A word of the command that is a program of ``COMPOSERS``."""
    return next((w for w in words if _name(w) in COMPOSERS), None)


#: Words after which a URL's last part, ``.git`` removed, is the folder written when no
#: folder is given (``git clone``, ``gh repo clone``, ``git submodule add``, ``hg clone``,
#: ``svn checkout``).
_CLONES: Final = frozenset({"clone", "checkout", "co", "submodule"})


def clone_word(words: Sequence[str], directory: str | None,
               touches: Callable[[str], bool]) -> str | None:
    """A word of a command cloning a repository whose last part (``.git`` removed) names a
    guarded file or folder from ``directory``: ``git clone git://host/.claude`` makes the
    project's ``.claude`` (review s42 W9)."""
    if _CLONES.isdisjoint(words):
        return None
    for word in words:
        last = word.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        last = last[:-4] if last.endswith(".git") else last
        if last and (directory is None or touches(posixpath.join(directory, last))):
            return word
    return None


def tree_word(words: Sequence[str], directory: str | None,
              touches: Callable[[str], bool]) -> str | None:
    """The first word of a command that writes folders (``writes``) naming a path that
    ``touches`` a guarded file or folder (holds one, or lies in one), or a value the gate
    cannot name (an expansion, ``~user``, a relative path with no known directory); for a
    program writing the working tree, that program when the working tree touches one. None
    when the command writes no folder, or none that matters."""
    folder, worktree = writes(words, directory)
    if not folder:
        return None
    moved = next((w for w in words if w in _MOVES or w.startswith("--dir") or (
        w[:1] == "-" and w[1:2] != "-" and "C" in w[1:8])), None)  # `tar -C`, `git -C`
    moved = moved or next((w for i, w in enumerate(words[:-1]) if _name(w) in ("tar", "gtar")
                           and words[i + 1][:1] != "-" and "C" in words[i + 1]), None)
    moved = moved or ("ln" if "ln" in words and sum(_name(w) in _LOOKED_AT for w in words) > 1
                      else None)  # a link, then another writer through it
    if any(w[-5:] in ("mount", "_root") for w in words):  # (umount -a, pivot_root: R2, N1)
        from .mounters import hidden, named_targets
        moved, words = moved or hidden(words, directory), [*words, *named_targets(words, directory)]
    if moved is not None:  # later words are read from another folder, or through a link
        return moved  # made in the same command (reviews H-20, H-22), or a mount's table
    home = os.path.expanduser("~")
    if worktree is not None:
        try:
            if directory is None or touches(top_folder(directory) if worktree == "git"
                                            else directory):
                return worktree
        except (ValueError, OSError):
            return worktree
    formats = not IMAGEMAGICK.isdisjoint(map(_name, words))  # `miff:PATH` (review s43 W14)
    asked: dict[str, bool] = {}  # (each form once: 250 `-rrr…` of 255 letters took 34 s, T7;
    for word in words:  # past MAX_TREE_FORMS forms, a tail is taken as guarded: T7b; a word
        try:  # itself is always asked: s59-hreview K2, `mkdir -p out/d0 … out/d2499`)
            if any(asked[w] if w in asked else (w is not word and len(asked) >= MAX_TREE_FORMS)
                   or asked.setdefault(w, _names_guarded(w, directory, home, touches))
                   for w in _forms(word, formats)):
                return word
        except (ValueError, OSError):  # a NUL or a lone surrogate: no path the gate can name
            return word
    return None


#: The distinct forms past which ``tree_word`` asks ``touches`` of no tail (~0.4 ms each: T7b).
MAX_TREE_FORMS: Final = 2_000


def _forms(word: str, formats: bool) -> list[str]:
    """The word, a short option's attached value (``-t.claude``: G-1), ImageMagick's PATH."""
    tails = [word, *(word[k:] for k in range(2, len(word)))] if word[:1] == "-" and \
        word[1:2] != "-" and len(word) <= 256 else [word]
    if formats:
        from .runsby import formatted  # loaded for ImageMagick only
        tails += formatted(word)
    return tails


def _names_guarded(word: str, directory: str | None, home: str,
                   touches: Callable[[str], bool]) -> bool:
    """Whether ``word`` names a path that ``touches`` a guarded file or folder, or a value the
    gate cannot name. Raises ValueError or OSError for a word that names no path."""
    if "$" in word or "`" in word or word.startswith(":") or (word.startswith("~") and not (
            word == "~" or word.startswith("~/"))):
        return True  # an expansion, git's pathspec magic (`:/` is the top folder), `~+`
    path = home + word[1:] if word.startswith("~") else word
    if _reaches_git(path):
        return True
    glob = _GLOB.search(path)
    if glob is not None:  # what it expands to lies in the folder before the pattern
        head = path[:glob.start()]
        path = head.rsplit("/", 1)[0] if "/" in head else ""
        path = path or ("/" if head.startswith("/") else ".")
    if not path.startswith("/"):
        if directory is None:
            return True
        path = posixpath.join(directory, path)
    if "/.git/" in path + "/":  # a repository's config and hooks at any depth (G-15)
        return True
    return touches(posixpath.normpath(path)) or touches(files.realpath(path))


_BRACES: Final = compile_on_use(r"\{([^{}]*)\}")
_MAX_FORMS: Final = 64  # brace forms of one word looked at; past it braces are a star


def braced(word: str) -> list[str]:
    """What bash's brace expansion may make of ``word`` (`{s,x}ettings.json`: both), a
    brace it does not expand here (nested, or too many forms) read as a star."""
    forms = [word]
    while True:
        found = _BRACES.search(forms[0])
        if found is None or "," not in found.group(1):
            return forms if "{" not in forms[0] else [f.replace("{", "*") for f in forms]
        forms = [f[:m.start()] + part + f[m.end():] for f in forms
                 if (m := _BRACES.search(f)) is not None for part in m.group(1).split(",")]
        if len(forms) > _MAX_FORMS:
            return [_BRACES.sub("*", word)]


def _reaches_git(path: str) -> bool:
    """Whether ``path`` may name a place in a repository's ``.git`` (G-15) once bash has
    expanded it: a part that is ``.git``, or a pattern or braces bash may make ``.git`` of
    (``.gi?``, ``.g*``, ``.{git,x}``, ``{.git,x}``; review s40 V14), before any other reading
    of the word. (A pattern matches a leading dot only with a dot of its own, unless the
    shell's ``dotglob`` is on: ``*`` names no ``.git``.)"""
    import fnmatch

    for part in path.split("/"):
        for form in braced(part) if "{" in part else [part]:
            if form == ".git" or (form.startswith(".") and _GLOB.search(form) is not None and (
                    BASH_CLASS.search(form) or fnmatch.fnmatchcase(".git", form))):
                return True
    return False


def into_git(words: list[str], directory: str | None) -> str | None:
    """A word of a command that may name a path inside a repository's ``.git`` folder once
    bash has expanded it (a part before its last that is, or may be made, ``.git``), or a
    folder the command moves to that may be one (``cd``, ``pushd``, ``-C``, ``--chdir``), or
    the call's folder when it lies in one; None otherwise. Any program may write what its
    words name, not only the folder writers ``tree_word`` knows (review s41 N1:
    ``shuf -o vendor/lib/.git/config``); a ``.git`` as the last part, unless it is a folder
    (which no program writes as a file; reads name it: ``--exclude-dir=.git``)."""
    if directory is not None and "/.git/" in directory + "/":
        return directory
    for at, word in enumerate(words):
        if at and words[at - 1] in _PATTERN_OPTIONS:
            continue  # `find . -not -path './.git/*'`: a pattern matched, not a path
        # an option's value may be attached to it (`shuf -o.git/config`)
        for form in [word] + ([word[k:] for k in range(2, 5)] if word[:1] == "-" else []):
            head, _, last = form.rpartition("/")
            if (head and _reaches_git(head)) or (_reaches_git(last) and (
                    directory is None or files.entry(posixpath.join(directory, form))
                    != "dir")):  # a `.git` file: where a repository is (N1)
                return word
        operand = word[2:] if word.startswith("-C") and len(word) > 2 else next(
            (w for w in words[at + 1:at + 3] if not w.startswith("-")), "") \
            if word in ("cd", "pushd", "-C", "--chdir") else ""
        if operand and _reaches_git(operand):
            return operand
    return None


#: Options whose value is a pattern a program matches paths with, not a path it writes.
_PATTERN_OPTIONS: Final = frozenset({"-path", "-ipath", "-wholename", "-iwholename",
                                     "-regex", "-iregex", "--exclude", "--exclude-dir",
                                     "--include", "--glob", "--iglob"})
