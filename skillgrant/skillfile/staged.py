"""A batch's files done stage by stage (issue 27, session 47): each step of a file's check run
over a chunk of files before the next step starts, so that one step's code, and the
interpreter's state for it, stays warm from file to file.

Each file's steps still run in their order, and each step sees the files in the batch's order,
so a file's answer is the one it gets alone; ``each`` keeps what one file after the other
would raise: a SkillFileError is the file's answer and its later steps are skipped, and any
other exception ends the batch at its file, the files before it done and none after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import SkillFileError


def each(values: list[Any], step: Callable[[Any], Any], start: int = 0) -> bool:
    """Replace each value of ``values`` (one a file, in order) from index ``start`` by
    ``step(value)``. A value that is an exception (its file failed at an earlier step) is
    passed over. A SkillFileError that ``step`` raises becomes its file's value; any other
    exception becomes its file's value and ends the list there (the later files are dropped:
    done one after the other, they would never have been started), and the answer is True."""
    for i in range(start, len(values)):
        value = values[i]
        if isinstance(value, BaseException):
            continue
        try:
            values[i] = step(value)
        except SkillFileError as e:
            values[i] = e
        except BaseException as e:
            values[i] = e
            del values[i + 1:]
            return True
    return False
