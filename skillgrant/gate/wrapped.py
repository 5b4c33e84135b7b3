"""The program names the gate treats as runners, wrappers and interpreters, and how their long
options are read (``long_prefix``): light enough for the hook's start (``planprograms`` reads
every plan entry with them; ``words.run_words`` takes a command past its wrappers)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

#: Programs that lay a filesystem over a folder, take one away, or run a program in a view
#: where a path names another file: util-linux's and FUSE's mounters and their helpers, the
#: root changers and sandboxes that bind folders, FUSE filesystems that mount themselves:
#: folder writers of all their words (``gate/mounters.py``, ``writers``; s53-sreview R2).
MOUNTERS: Final = frozenset({
    "mount", "umount", "fusermount", "fusermount3", "mount.fuse", "mount.fuse3", "mount.nfs",
    "mount.nfs4", "mount.cifs", "mount.smb3", "mount.ntfs", "mount.ntfs-3g", "mount.exfat",
    "mount.overlay", "umount.nfs", "umount.nfs4", "udisksctl", "systemd-mount",
    "systemd-umount",
    "chroot", "pivot_root", "switch_root", "bwrap", "unshare", "proot", "systemd-nspawn",
    "firejail", "nsjail", "schroot",
    "sshfs", "bindfs", "squashfuse", "fuse-overlayfs", "archivemount", "encfs", "gocryptfs",
    "mergerfs", "s3fs", "curlftpfs", "unionfs", "unionfs-fuse", "fuse2fs", "fuseiso",
    "guestmount", "ntfs-3g", "rclone", "sshfs-fuse", "httpfs2", "ratarmount"})
#: Programs and builtins that run a command, code or file given in their words, or change how
#: later words are read. A command led by one of them is not understood (a doubt). The
#: wrappers ``strip_wrappers`` removes are here too: written in a form it does not read, they
#: are runners.
RUNNERS: Final = frozenset({
    "eval", "source", ".", "exec", "command", "builtin", "trap", "alias", "unalias", "enable",
    "hash", "shopt", "set", "coproc", "fc", "env", "sudo", "doas", "su", "xargs", "parallel",
    "setsid", "watch", "ionice", "chroot", "unshare", "nsenter", "flock", "chrt", "taskset",
    "script", "expect", "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh",
    "busybox", "nohup", "time", "timeout", "nice", "stdbuf",
    # programs that run the command in their words (the adversarial review of issue 29 found
    # each covered under `Bash(* --help)`); a plan whose program is a star still approves any
    # other program, interpreters included (docs/call-gate.md)
    "setarch", "linux32", "linux64", "i386", "x86_64", "prlimit", "setpriv", "strace", "ltrace",
    "fakeroot", "runuser", "sg", "newgrp", "systemd-run", "tmux", "screen", "start-stop-daemon",
    "gdb", "valgrind", "pkexec", "firejail", "bwrap", "proot", "unbuffer", "rlwrap", "catchsegv",
    "xvfb-run", "dbus-run-session", "ssh-agent", "flatpak-spawn", "chpst", "numactl",
    "cgexec", "ld.so", "ld-linux.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
    # the second review (N1b): reached by a folder grant (`Bash(/usr/*)`), which `programs`
    # does not hold to its allow-list
    "faketime", "chronic", "uname26", "i686", "nsjail", "schroot", "lxc-attach",
    # builtins that evaluate their words arithmetically or as code: `let 'a[$(id)]'` runs id,
    # and so does `[ "$x" -eq 1 ]` when x holds `a[$(id)]`
    "let", "test", "[", "compgen", "complete", "bind", "mapfile", "readarray",
    # job control runs a command given in its words (`jobs -x cmd`)
    "jobs", "fg", "bg", "history",
    # editors that run the commands of their words or input, a shell's among them (`ed`'s
    # and `ex`'s `!cmd`, `vim -es -c '!cmd'`; review G-17)
    "ed", "red", "ex", "vi", "vim", "nvim", "view", "vimdiff", "rvim", "rview", "gvim",
    "emacs", "emacsclient",
    # programs that run their operand command (review s43 R6), and compiler caches that run
    # the compiler their operand names
    "perf", "ccache", "sccache", "distcc", "icecc",
    # pydoc imports the module it documents, the call's folder first on sys.path (s44 R5)
    "pydoc", "pydoc3", *(f"pydoc3.{minor}" for minor in range(6, 20)),
})

#: Programs that run the file their first operand names (with code found beside it: Python's
#: ``sys.path[0]``, pytest's ``conftest.py``; ``python…`` is each of them too).
RUNS_OPERAND: Final = frozenset({"bash", "sh", "dash", "zsh", "node", "ruby", "perl", "deno",
                                 "bun"})
#: Programs that run another program their words name (a package's environment around it).
PACKAGE_RUNNERS: Final = frozenset({"npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun", "uv",
                                    "uvx", "poetry", "pipenv", "pdm", "hatch", "rye", "bundle",
                                    "pixi", "conda", "mamba"})
#: The wrappers ``words.strip_wrappers`` reads.
WRAPPERS: Final = frozenset({"timeout", "nice", "nohup", "time", "stdbuf"})


def long_prefix(value: str, *names: str) -> bool:
    """Whether ``value`` is a long option ``getopt_long`` (and git's parse-options) may read as
    one of ``names``: ``--`` and a non-empty prefix of the name, with or without ``=VALUE``.
    (A prefix shared by several options is refused by the program: refusing it refuses
    nothing the program would run.)"""
    given = value[2:].split("=", 1)[0]
    return value[:2] == "--" and given != "" and any(n.startswith(given) for n in names)


#: The letters of unzip's options that ask a listing, a test or the archive's comment
#: (``-l``, ``-v``, ``-t``, ``-z``; ``-q`` quiets them), and zipinfo's (``unzip -Z``):
#: modes that write no file (unzip 6.0's manual).
_LISTS: Final = frozenset("lvtz")
_ZIPINFO: Final = frozenset("12smlvhMtTz")
#: The environment's options for unzip and zipinfo, which the gate does not read.
_UNZIP_ENVIRONMENT: Final = ("UNZIP", "UNZIPOPT", "ZIPINFO", "ZIPINFOOPT")


def lists_only(args: Sequence[str | None]) -> bool:
    """Whether ``unzip``'s words ``args`` (None: a pattern) only list or test the archive
    (``unzip -l a.zip``, ``-tq``, ``-Z -1``): its options all before the archive, each a
    cluster of such letters, none from the environment (issue 29, a cost: ``unzip`` with any
    option was a writer)."""
    import os

    at = next((i for i, w in enumerate(args) if w is None or w[:1] != "-"), len(args))
    options, rest = args[:at], args[at:]
    if not options or not rest or any(os.environ.get(n) for n in _UNZIP_ENVIRONMENT) or any(
            w is None or w[:1] in "-*?[" for w in rest):
        return False
    letters = set("".join(o[1:] for o in options[1:] if o)) if options[0] == "-Z" else None
    if letters is not None:
        return letters <= _ZIPINFO
    letters = set("".join(o[1:] for o in options if o))
    return letters <= _LISTS | {"q"} and not _LISTS.isdisjoint(letters)


def new_branch_here(words: list[str]) -> bool:
    """Whether git's ``words`` (from its subcommand) make a branch at ``HEAD`` and switch to
    it, the working tree and the index kept: ``checkout -b NAME``, ``switch -c NAME`` (and
    ``-B``, ``-C``), no start point, nothing else (review s47-greview C-git: a cost)."""
    return len(words) == 3 and words[2][:1] not in ("-", "") and (
        (words[0] == "checkout" and words[1] in ("-b", "-B")) or
        (words[0] == "switch" and words[1] in ("-c", "-C", "--create", "--force-create")))


#: What ``plan_programs`` writes before a folder (from the call's) a plan's program runs in
#: (``make -C sub``, ``git -C sub``, ``npm --prefix sub``, a workspace's): ``startpaths``
#: reads the session's relative values and the ``.npmrc`` there (s49-greview N1, E3).
RUNS_IN: Final = ">"
#: What ``plan_programs`` writes before the settings file an entry's ``npm --userconfig
#: FILE`` (``--globalconfig``) names: ``npmrc_paths`` reads it as the folders' (s48-greview2 C5).
NPMRC: Final = "!"
#: npm's options naming the settings file it reads in the place of the user's, the global one.
NPMRC_OPTIONS: Final = ("--userconfig", "--globalconfig")
#: npm's subcommands (and their aliases) that write no settings file (``config``, ``set``,
#: ``login``, ``logout``, ``adduser`` do): npm 11's.
_NPM_READS: Final = frozenset({
    "test", "t", "tst", "run", "run-script", "rum", "urn", "start", "stop", "restart", "exec",
    "x", "ci", "clean-install", "ic", "install", "i", "add", "in", "install-test", "it",
    "install-ci-test", "cit", "ls", "list", "audit", "outdated", "pack", "rebuild", "rb",
    "explain", "why", "view", "info", "show", "v", "query"})


def npm_reads_settings(rest: list[str], word: str) -> bool:
    """Whether npm's words ``rest`` hold ``word`` only as the settings file an option of
    ``NPMRC_OPTIONS`` names, under a subcommand of ``_NPM_READS`` (the plan's own entry, the
    file guarded: s48-greview2 C5's cost); npm's other options before it: no."""
    valued = [(i > 0 and rest[i - 1] in NPMRC_OPTIONS) or w.partition("=")[0] in NPMRC_OPTIONS
              for i, w in enumerate(rest)]
    command = next((w for i, w in enumerate(rest) if w[:1] != "-" and not valued[i]), "")
    return command in _NPM_READS and all(
        valued[i] and w.partition("=")[2] in ("", word) for i, w in enumerate(rest)
        if word in w) and word != ""


def npm_reads(name: str, rest: list[str], word: str) -> bool:
    """Whether npm's (npx's: ``name``) words ``rest`` hold ``word`` only as a settings file
    read (``npm_reads_settings``) or npm's as the script run (``npm_script_name``)."""
    return (name in ("npm", "npx") and npm_reads_settings(rest, word)) or (
        name == "npm" and npm_script_name(rest, word))


def npm_script_name(rest: list[str], word: str) -> bool:
    """Whether npm's words ``rest`` hold ``word`` only as the name of the script they run,
    and nothing else: ``npm test`` (npm's own commands running the script of their name),
    ``npm run NAME`` (its aliases too: ``planscripts.NPM_OWN``, ``NPM_RUN``). npm looks a
    script's name up in ``package.json``, never as a path: the word ``test`` of the plan's
    own ``npm test`` names no guarded ``test/`` folder (s61-mreview K1). An option or a word
    passed on to the script (``npm test -- test/a.js``): no."""
    from .planscripts import NPM_OWN, NPM_RUN

    return word != "" and ((rest == [word] and word in NPM_OWN) or (
        len(rest) == 2 and rest[0] in NPM_RUN and rest[1] == word))


#: Programs that write no file their words name, whatever the words (no output option, no
#: in-place edit, no command run from their words). Not here: ``less`` (``-o`` logs),
#: ``file`` (``-C`` writes a compiled magic file), ``tree`` (``-o``), ``sort``/``uniq``
#: (outputs), ``awk``/``sed``/``perl`` (programs that write), ``yq`` (``-i``), wrappers
#: (``env``, ``xargs``, ``command``, ``sudo``), which run their words (``timeout N``, ``nice``,
#: ``nohup``, ``time``, ``stdbuf`` in the forms ``words.strip_wrappers`` reads are stripped
#: before the program is looked at); ``rg`` (``--pre`` runs a program: review s42 R1).
READERS: Final = frozenset({
    "cat", "tac", "head", "tail", "nl", "od", "hexdump", "strings", "wc", "cut", "paste",
    "join", "comm", "fold", "fmt", "expand", "unexpand", "column", "rev", "base64", "base32",
    "grep", "egrep", "fgrep", "ls", "stat", "du", "lsattr", "getfacl", "readlink",
    "realpath", "basename", "dirname", "diff", "cmp", "md5sum", "sha1sum", "sha224sum",
    "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "test", "[", "echo",
    "printf", "true", "false", "pwd", "cd", "pushd", "jq",
})
