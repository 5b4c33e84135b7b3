"""The option tables ``optables`` reads commands with (data): per program, every option its
own ``--help`` (for git's subcommands, ``git X -h``) lists, at GNU coreutils 9.1, sed 4.9,
tar 1.34, gzip 1.12, git 2.39 and SQLite 3.40; the writers with no table (any option of
theirs is unknown); and git's subcommands none of whose options runs a program."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Per program: its options, each ``x`` (a short one), ``name`` (a long one) or ``x/name``
#: (both), then ``=`` (takes a value), ``=?`` (an optional value, attached only) and ``!``
#: (runs a program, or reads a script or options from a file: a doubt).
SPECS: Final = {
    "cp": "a/archive attributes-only backup=? b copy-contents d f/force i/interactive H "
          "l/link L/dereference n/no-clobber P/no-dereference p preserve=? no-preserve= "
          "parents R/recursive r/recursive reflink=? remove-destination sparse= "
          "strip-trailing-slashes s/symbolic-link S/suffix= t/target-directory= "
          "T/no-target-directory u/update=? v/verbose x/one-file-system Z context=? help "
          "version",
    "mv": "backup=? b f/force i/interactive n/no-clobber strip-trailing-slashes S/suffix= "
          "t/target-directory= T/no-target-directory u/update=? v/verbose Z/context help version",
    "rm": "f/force i I interactive=? one-file-system no-preserve-root preserve-root=? "
          "r/recursive R/recursive d/dir v/verbose help version",
    "rmdir": "ignore-fail-on-non-empty p/parents v/verbose help version",
    "ln": "backup=? b d/directory F/directory f/force i/interactive L/logical "
          "n/no-dereference P/physical r/relative s/symbolic S/suffix= t/target-directory= "
          "T/no-target-directory v/verbose help version",
    "install": "backup=? b c C/compare d/directory D g/group= m/mode= o/owner= "
               "p/preserve-timestamps s/strip strip-program=! S/suffix= t/target-directory= "
               "T/no-target-directory v/verbose preserve-context Z context=? help version",
    # `-x`, `-rw` are modes, not options, for GNU chmod (review R-1)
    "chmod": "c/changes f/silent quiet v/verbose no-preserve-root preserve-root reference= "
             "R/recursive help version r w x X s t u g o a 0 1 2 3 4 5 6 7",
    "chown": "c/changes f/silent quiet v/verbose dereference h/no-dereference from= "
             "no-preserve-root preserve-root reference= R/recursive H L P help version",
    "shred": "f/force n/iterations= random-source= s/size= u remove=? v/verbose x/exact "
             "z/zero help version",
    "unlink": "help version",
    "mkdir": "m/mode= p/parents v/verbose Z context=? help version",
    "touch": "a c/no-create d/date= f h/no-dereference m r/reference= t= time= help version",
    "truncate": "c/no-create o/io-blocks r/reference= s/size= help version",
    "tee": "a/append i/ignore-interrupts p output-error=? help version",
    "split": "a/suffix-length= additional-suffix= b/bytes= C/line-bytes= d "
             "numeric-suffixes=? x hex-suffixes=? e/elide-empty-files filter=! l/lines= "
             "n/number= t/separator= u/unbuffered verbose help version",
    "csplit": "b/suffix-format= f/prefix= k/keep-files suppress-matched n/digits= s/quiet "
              "silent z/elide-empty-files help version",
    "sort": "b/ignore-leading-blanks d/dictionary-order f/ignore-case "
            "g/general-numeric-sort i/ignore-nonprinting M/month-sort h/human-numeric-sort "
            "n/numeric-sort R/random-sort random-source= r/reverse sort= V/version-sort "
            "batch-size= c check=? C compress-program=! debug files0-from= k/key= m/merge "
            "o/output= s/stable S/buffer-size= t/field-separator= T/temporary-directory= "
            "parallel= u/unique z/zero-terminated help version",
    "uniq": "c/count d/repeated D all-repeated=? f/skip-fields= group=? i/ignore-case "
            "s/skip-chars= u/unique z/zero-terminated w/check-chars= help version",
    "sed": "n/quiet silent debug e/expression= f/file=! follow-symlinks i/in-place=? "
           "l/line-length= posix E/regexp-extended r s/separate sandbox u/unbuffered "
           "z/null-data help version",
    "tar": "A/catenate concatenate c/create delete d/diff compare r/append test-label t/list "
           "u/update x/extract get check-device g/listed-incremental= G/incremental "
           "hole-detection= ignore-failed-read level= no-check-device no-seek n/seek "
           "occurrence=? sparse-version= S/sparse add-file= C/directory= exclude= "
           "exclude-backups exclude-caches exclude-caches-all exclude-caches-under "
           "exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= "
           "exclude-tag-under= exclude-vcs exclude-vcs-ignores no-null no-recursion "
           "no-unquote no-verbatim-files-from null recursion T/files-from= unquote "
           "verbatim-files-from X/exclude-from= anchored ignore-case no-anchored "
           "no-ignore-case no-wildcards no-wildcards-match-slash wildcards "
           "wildcards-match-slash keep-directory-symlink keep-newer-files k/keep-old-files "
           "no-overwrite-dir one-top-level=? overwrite overwrite-dir recursive-unlink "
           "remove-files skip-old-files U/unlink-first W/verify ignore-command-error "
           "no-ignore-command-error O/to-stdout to-command=! atime-preserve=? clamp-mtime "
           "delay-directory-restore group= group-map= mode= mtime= m/touch "
           "no-delay-directory-restore no-same-owner no-same-permissions numeric-owner "
           "owner= owner-map= p/preserve-permissions same-permissions same-owner sort= "
           "s/preserve-order same-order acls no-acls no-selinux no-xattrs selinux xattrs "
           "xattrs-exclude= xattrs-include= force-local f/file= F/info-script=! "
           "new-volume-script=! L/tape-length= M/multi-volume rmt-command=! rsh-command=! "
           "volno-file= b/blocking-factor= B/read-full-records i/ignore-zeros record-size= "
           "H/format= old-archive portability pax-option= posix V/label= a/auto-compress "
           "I/use-compress-program=! j/bzip2 J/xz lzip lzma lzop no-auto-compress zstd "
           "z/gzip gunzip ungzip Z/compress uncompress backup=? hard-dereference "
           "h/dereference K/starting-file= newer-mtime= N/newer= after-date= "
           "one-file-system P/absolute-names suffix= strip-components= transform= xform= "
           "checkpoint=? checkpoint-action=! full-time index-file= l/check-links "
           "no-quote-chars= quote-chars= quoting-style= R/block-number show-defaults "
           "show-omitted-dirs show-snapshot-field-ranges show-transformed-names "
           "show-stored-names totals=? utc v/verbose warning= w/interactive confirmation o "
           "help restrict usage version",
    "gzip": "c/stdout d/decompress f/force h/help k/keep l/list L/license n/no-name N/name "
            "q/quiet r/recursive rsyncable S/suffix= synchronous t/test v/verbose V/version "
            "1/fast 2 3 4 5 6 7 8 9/best",
    # `-O`/`--open-files-in-pager` runs a pager the command names (review G-5)
    "git grep": "cached no-index untracked exclude-standard recurse-submodules v/invert-match "
                "i/ignore-case w/word-regexp a/text I textconv r/recursive max-depth= "
                "E/extended-regexp G/basic-regexp F/fixed-strings P/perl-regexp n/line-number "
                "column h H full-name l/files-with-matches name-only L/files-without-match "
                "z/null o/only-matching c/count color=? break heading C/context= "
                "B/before-context= A/after-context= threads= p/show-function "
                "W/function-context f= e= and or not q/quiet all-match "
                "O/open-files-in-pager=?! ext-grep m/max-count= 0 1 2 3 4 5 6 7 8 9",
    # read with `-safe` first (sqlite3 runs `-cmd` before a later `-safe`; review G-17)
    "sqlite3": "ascii bail batch box column csv echo header noheader html json line list "
               "markdown quote readonly safe table tabs nofollow separator= newline= "
               "nullvalue= version help",
    # git's subcommands whose options may run a program (`git X -h`, git 2.39); the others
    # are in GIT_SAFE (none of their options runs one) or not read at all
    "git fetch": "v/verbose q/quiet all set-upstream a/append atomic upload-pack=! f/force "
                 "m/multiple t/tags n j/jobs= prefetch p/prune P/prune-tags "
                 "recurse-submodules=? dry-run write-fetch-head k/keep u/update-head-ok "
                 "progress depth= shallow-since= shallow-exclude= deepen= unshallow refetch "
                 "update-shallow refmap= o/server-option= 4/ipv4 6/ipv6 negotiation-tip= "
                 "negotiate-only filter= auto-maintenance auto-gc show-forced-updates "
                 "write-commit-graph stdin",
    "git pull": "v/verbose q/quiet progress recurse-submodules=? r/rebase=? n stat log=? "
                "signoff=? squash commit edit cleanup= ff ff-only verify verify-signatures "
                "autostash s/strategy= X/strategy-option= S/gpg-sign=? "
                "allow-unrelated-histories all a/append upload-pack=! f/force t/tags p/prune "
                "j/jobs=? dry-run k/keep depth= shallow-since= shallow-exclude= deepen= "
                "unshallow update-shallow refmap= o/server-option= 4/ipv4 6/ipv6 "
                "negotiation-tip= show-forced-updates set-upstream",
    "git push": "v/verbose q/quiet repo= all mirror d/delete tags n/dry-run porcelain f/force "
                "force-with-lease=? force-if-includes recurse-submodules= thin receive-pack=! "
                "exec=! u/set-upstream progress prune no-verify follow-tags signed=? atomic "
                "o/push-option= 4/ipv4 6/ipv6",
    "git clone": "v/verbose q/quiet progress reject-shallow n/no-checkout bare mirror l/local "
                 "no-hardlinks s/shared recurse-submodules=? recursive=? j/jobs= template= "
                 "reference= reference-if-able= dissociate o/origin= b/branch= "
                 "u/upload-pack=! depth= shallow-since= shallow-exclude= single-branch "
                 "no-tags shallow-submodules separate-git-dir= c/config=! server-option= "
                 "4/ipv4 6/ipv6 filter= also-filter-submodules remote-submodules sparse "
                 "bundle-uri=",
    "git ls-remote": "q/quiet upload-pack=! t/tags h/heads refs get-url sort= exit-code symref "
                     "o/server-option=",
    "git archive": "format= prefix= add-file= add-virtual-file= o/output= worktree-attributes "
                   "v/verbose l/list remote= exec=! 0 1 2 3 4 5 6 7 8 9",
    "git rebase": "onto= keep-base no-verify q/quiet v/verbose n/no-stat signoff "
                  "committer-date-is-author-date reset-author-date C= ignore-whitespace "
                  "whitespace= f/force-rebase no-ff continue skip abort quit edit-todo "
                  "show-current-patch apply m/merge i/interactive rerere-autoupdate empty= "
                  "autosquash update-refs S/gpg-sign=? autostash x/exec=! r/rebase-merges=? "
                  "fork-point s/strategy= X/strategy-option= root reschedule-failed-exec "
                  "reapply-cherry-picks",
    "git difftool": "g/gui d/dir-diff y/no-prompt symlinks t/tool= tool-help trust-exit-code "
                    "x/extcmd=! no-index",
}
#: Programs read under another program's table.
SAME: Final = {"gunzip": "gzip", "chgrp": "chown", "gtar": "tar"}


#: Programs in ``writers``' lists with no table here, and ``ssh``: any option word is unknown.
UNTABLED: Final = frozenset({
    "rsync", "ditto", "scp", "rclone", "setfacl", "dd", "rename", "prename", "bzip2",
    "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "curl", "zip", "xxd", "iconv", "sponge",
    "openssl", "pandoc", "magick", "convert", "ffmpeg", "ssh-keygen", "gpg", "unzip", "7z",
    "7za", "7zr", "unrar", "cpio", "pax", "ar", "patch", "bsdtar", "wget", "bsdcpio",
    "uudecode", "jar", "unar", "aunpack", "atool", "dtrx", "unsquashfs", "dpkg-deb",
    "pigz", "unpigz", "lzop", "lzma", "unlzma", "lzip", "plzip", "brotli", "lrzip", "pbzip2",
    "lbzip2", "pixz", "compress", "uncompress", "ptar", "dpkg", "gpgtar", "7zz", "bsdunzip",
    "cabextract", "lha", "arj", "unarj", "unace", "unalz", "zoo", "rar", "unshar", "busybox",
    "toybox", "rpm2archive", "innoextract", "split-file", "gpg-zip",
    # runs a program here through its options (`-o ProxyCommand=…`, `-o LocalCommand=…`)
    "ssh", "sftp"})
#: git 2.39's commands (``git --list-cmds=main,others``) that run a program their words or
#: options name, or run what a configuration or a helper names without any grant in the way:
#: not read, so unknown. Every other command of that list runs none through its options (what
#: it runs is configuration, hooks or the environment's editor and pager, guarded or judged
#: apart) or has a table in ``SPECS``; ``bisect run`` and ``submodule foreach`` run the command
#: after them. A name not on git's list (an alias, a ``git-X`` program on ``PATH``) is the
#: user's configuration or environment, as any program name is.
GIT_RUNNING: Final = frozenset({
    "filter-branch", "instaweb", "daemon", "shell", "hook", "for-each-repo", "merge-index",
    "merge-one-file", "web--browse", "difftool--helper", "send-pack", "fetch-pack",
    "remote-ext", "remote-fd", "credential", "credential-cache", "credential-cache--daemon",
    "credential-store", "bisect--helper", "submodule--helper", "env--helper", "upload-pack",
    "receive-pack", "upload-archive", "upload-archive--writer", "http-backend",
    "sh-i18n--envsubst", "imap-send", "quiltimport", "mergetool",
    # not built here, in git's other packages
    "p4", "svn", "cvsimport", "cvsexportcommit", "cvsserver", "archimport", "send-email",
    "sh-setup", "mergetool--lib"})
