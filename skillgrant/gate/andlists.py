"""The and-lists of a shell text as ``moves`` reads them (session 51, s51-gfix3): which
``cd`` runs only once another succeeded in the same shell (``cd a && make && cd ../b``: the
second is read from the first's folders alone, not from every folder of the closure), and
which ``cd -`` runs only after a ``cd`` (bash then set ``OLDPWD`` to a folder the shell was
in: review s50-greview2 D3)."""

from __future__ import annotations

from ..lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: The shell's control operators, as ``moves._words`` splits them.
CONTROLS: Final = frozenset({";", "&&", "||", "|", "&", "|&", "(", ")", ";;"})


#: What ``folder_moves`` puts before a move run only after the move before it succeeded in
#: the same shell (``cd a && make && cd ../b``): it is read from that move's folders alone.
CHAINED: Final = "\0&"
PUNCTUATION: Final = compile_on_use(r"[();&|<>]+")


def chained(words: list[str], before: int, at: int,
            memo: dict[tuple[str, int], str] | None = None) -> bool:
    """Whether the ``cd`` at ``words[at]`` runs only once the ``cd`` at ``words[before]``
    succeeded, in the same shell, none moving it between: both in one ``&&`` list from a
    list's start, nothing between but simple commands (no ``eval``, ``source``, group,
    subshell, pipe or ``!``). ``memo``: ``and_list``'s."""
    between = words[before + 1:at]
    return words[at - 1] == "&&" and and_list(words, before, memo) and not any(
        (w in CONTROLS and w != "&&") or w in _SHELL_MOVERS or (
            PUNCTUATION.fullmatch(w) and w != "&&") for w in between)


#: Commands that may move the shell they run in by code the scan reads elsewhere.
_SHELL_MOVERS: Final = frozenset({"eval", "source", ".", "exec", "!", "{", "}", "if", "then",
                                  "else", "elif", "fi", "do", "done", "case", "esac", "while",
                                  "until", "for", "select", "function", "trap"})


def and_list(words: list[str], at: int, memo: dict[tuple[str, int], str] | None = None) -> bool:
    """Whether the command starting at ``words[at]`` is in a ``&&`` list from a list's start
    (nothing before it in its list but ``&&``: no ``||``, pipe, ``!`` or group's end).
    ``memo``: the caller's for ``words``, the answer from each place a walk passed (3,000
    quoted ``cd out &&`` each walking back to the first took 18 s: s59-hfix)."""
    passed: list[int] = []
    answer = None
    for back in range(at - 1, -1, -1):
        if memo is not None and ("and", back + 1) in memo:
            answer = memo["and", back + 1] == "y"
            break
        passed.append(back + 1)
        word = words[back]
        if word in LIST_STARTS or (word in CONTROLS and word != "&&") or word in (
                "!", "}", "fi", "done", "esac") or (PUNCTUATION.fullmatch(word) and word != "&&"):
            answer = word in LIST_STARTS
            break
    answer = True if answer is None else answer
    if memo is not None:
        memo.update(dict.fromkeys([("and", place) for place in passed], "y" if answer else ""))
    return answer


def last(words: list[str], at: int) -> bool:
    """Whether the command starting at ``words[at]`` is the last of ``words``."""
    end = next((i for i in range(at, len(words)) if words[i] in CONTROLS), len(words))
    return all(w in (";", "&") for w in words[end:])


#: The words after which a list starts (its first command runs whatever ran before).
LIST_STARTS: Final = frozenset({";", "&", "(", "{", "then", "do", "else", "elif", ";;"})


def after_a_move(words: list[str], at: int, leads: Callable[[list[str], int], bool]) -> bool:
    """Whether the command starting at ``words[at]`` runs only after a ``cd`` or ``pushd`` of
    the same shell succeeded: a ``&&`` list from a list's start, a ``cd`` among its commands
    (bash then set ``OLDPWD`` to a folder the shell was in). Not after ``||``, a pipe, ``!``,
    a group's or a subshell's end (its ``cd`` may have failed, or moved a subshell only)."""
    if at == 0 or words[at - 1] != "&&" or not and_list(words, at):
        return False
    start = next((b + 1 for b in range(at - 1, -1, -1) if words[b] in LIST_STARTS), 0)
    return any(shell_move(words, b) and leads(words, b)
               for b, w in enumerate(words[start:at], start))


def shell_move(words: list[str], at: int) -> bool:
    """Whether ``words[at]`` is a ``cd`` or ``pushd`` that moves its shell when it succeeds:
    not ``pushd -n`` (it only adds to the stack, leaving the folder and ``OLDPWD``:
    s51-greview3 D3b, E3). A ``-n`` anywhere up to the next control operator counts."""
    if words[at] != "pushd":  # (no walk for a `cd`: 10,000 quoted `cd x` took minutes, T4)
        return words[at] == "cd"
    for word in words[at + 1:]:
        if word == "-n" or word in CONTROLS:
            return word != "-n"
    return True
