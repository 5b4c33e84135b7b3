"""Whether a GNU sed script runs a program: its ``e`` command, or an ``s`` command with the
``e`` flag anywhere among its flags (``s/x/y/ge``; review G-16b); or writes a file its script
names (``w``, ``W``, the ``w`` flag: the name needs no blank before it, ``w.git/config``,
review H-8), which the gate's check of the command's words cannot see. The script is read
command by command, as GNU sed 4.9 compiles it (addresses, ``!``, ``{``/``}``, text of
``a``/``i``/``c`` to the end of the line, labels, file names, ``s`` and ``y`` with any
delimiter and backslash escapes); a script it cannot read that way is answered as running one.
A regular expression over the text misread the first (the flag after another flag).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Commands that take nothing after them (but a ``;``, a newline, a ``}`` or a comment).
_BARE: Final = frozenset("=dDgGhHnNpPxzF")
#: Commands taking an optional number (``q 5``, ``l 40``).
_NUMBERED: Final = frozenset("lLqQ")
#: Commands taking a file name to the end of the line.
_FILED: Final = frozenset("rRwW")
#: Commands taking a label (to a ``;``, a blank or the end of the line).
_LABELLED: Final = frozenset(":btTv")
_S_FLAGS: Final = frozenset("gpiImMe0123456789")


class _Unread(Exception):
    pass


def sed_script_runs(script: str) -> bool:
    """Whether GNU sed's script ``script`` may run a program (an ``e`` command, an ``s``
    command with the ``e`` flag) or write a file it names (``w``), or is not read here (then:
    True)."""
    try:
        return _Reader(script).runs()
    except _Unread:
        return True


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def take(self) -> str:
        char = self.peek()
        if not char:
            raise _Unread("the script ends in a command")
        self.at += 1
        return char

    def blanks(self) -> None:
        while self.peek() in (" ", "\t") and self.peek():
            self.at += 1

    def to_line_end(self, escapes: bool) -> None:
        while self.peek() and self.peek() != "\n":
            if escapes and self.peek() == "\\":
                self.at += 1
            self.at += 1

    def delimited(self, delimiter: str) -> None:
        """Past the text up to ``delimiter`` (a backslash escapes the next character)."""
        while True:
            char = self.take()
            if char == "\\":
                self.take()
            elif char == delimiter:
                return

    def runs(self) -> bool:
        while True:
            while self.peek() and self.peek() in " \t\n;":
                self.at += 1
            if not self.peek():
                return False
            if self.peek() == "#":
                self.to_line_end(False)
                continue
            self.addresses()
            command = self.take()
            if command == "e":
                return True
            if command == "s":
                if self.substitution():
                    return True
            else:
                self.rest(command)

    def addresses(self) -> None:
        if self.address():
            self.blanks()
            if self.peek() == ",":
                self.at += 1
                self.blanks()
                if self.peek() in ("+", "~"):
                    self.at += 1
                    self.number()
                elif not self.address():
                    raise _Unread("no second address")
        self.blanks()
        while self.peek() == "!":
            self.at += 1
            self.blanks()

    def number(self) -> bool:
        start = self.at
        while self.peek().isdigit() and self.peek().isascii():
            self.at += 1
        return self.at > start

    def address(self) -> bool:
        char = self.peek()
        if char.isdigit() and char.isascii():
            self.number()
            if self.peek() == "~":
                self.at += 1
                self.number()
            return True
        if char == "$":
            self.at += 1
            return True
        if char in ("/", "\\"):
            self.at += 1
            self.delimited("/" if char == "/" else self.take())
            while self.peek() in ("I", "M") and self.peek():
                self.at += 1
            return True
        return False

    def substitution(self) -> bool:
        delimiter = self.take()
        if delimiter in ("\n", "\\"):
            raise _Unread("a substitution's delimiter")
        self.delimited(delimiter)
        self.delimited(delimiter)
        flags = ""
        while self.peek() and (self.peek() in _S_FLAGS or self.peek() == "w"):
            if self.peek() == "w":
                raise _Unread("a file it writes, named in the script (review H-8)")
            flags += self.take()
        self.end()
        return "e" in flags

    def rest(self, command: str) -> None:
        """Past the rest of ``command`` (not ``e``, ``s``)."""
        if command in "{}" or command in _BARE:
            if command != "{":
                self.end()
        elif command in _NUMBERED:
            self.blanks()
            self.number()
            self.end()
        elif command in "wW":  # GNU sed takes the name after optional blanks: `w.git/x`
            raise _Unread("a file it writes, named in the script (review H-8)")
        elif command in _FILED or command in "aic":
            self.to_line_end(command in "aic")
        elif command in _LABELLED:
            self.blanks()
            while self.peek() and self.peek() not in " \t\n;":
                self.at += 1
            self.end()
        elif command == "y":
            delimiter = self.take()
            self.delimited(delimiter)
            self.delimited(delimiter)
            self.end()
        else:
            raise _Unread(f"the command {command!r}")

    def end(self) -> None:
        self.blanks()
        if self.peek() not in ("", ";", "\n", "}", "#"):
            raise _Unread("more after a command")
