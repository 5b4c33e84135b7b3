"""A SKILL.md as read (``SkillDoc``), and how its ``allowed-tools`` is written
(``AllowedTools``, ``Item``): what ``spans`` reads a text into, and what
``splice`` and ``builder`` rewrite it from."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, NamedTuple, TypeVar, overload

from ..frozen import quick_init
from ..grants import JS_WHITESPACE, runtime_entries
from .flowlenient import Scan
from .runtime import Prediction, RuntimeFrontmatter, runtime_frontmatter

if TYPE_CHECKING:
    from yaml.nodes import Node

Form = Literal["block-list", "flow-list", "plain", "single-quoted", "double-quoted", "literal",
               "folded"]
#: The form of a scalar value, by its style's name (yamlspan.STYLE_NAMES).
FORMS: Final[dict[str, Form]] = {"plain": "plain", "single": "single-quoted",
                                 "double": "double-quoted", "literal": "literal",
                                 "folded": "folded"}


V = TypeVar("V")

#: ``Item(*fields)`` without the record's ``__new__`` (a Python frame an item).
make_item: Final[Callable[[type[Item], tuple[str, str, int, int, int, int]], Item]] = \
    tuple.__new__


class _Once(Generic[V]):
    """``functools.cached_property`` without its lock (as Python 3.12 has it): the value is
    worked out when first asked for and kept in the instance's ``__dict__``, where every later
    ask finds it without coming here (this is not a data descriptor). Two threads asking at
    once may both work it out: it is a function of the frozen instance, the same either way.
    A batch asks it of two documents a file, and the lock cost more than the answer."""

    def __init__(self, func: Callable[[Any], V]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> _Once[V]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> V: ...

    def __get__(self, instance: object, owner: type | None = None) -> V | _Once[V]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value

    def give(self, instance: object, value: V) -> None:
        """Keep ``value`` as the instance's, known by its maker: what ``func`` gives."""
        instance.__dict__[self.name] = value


class Item(NamedTuple):
    """One list item: its string, its scalar style, the scalar's span (``start``..``end``) and,
    for a block list, the item's whole lines ``block_start``..``block_end`` (leading comment
    lines, the dash, a trailing comment; no final line break).

    A record (a tuple): a batch makes one for every item of every list it reads, moves or
    reads back, and a tuple costs a third of a frozen dataclass's instance to make (session
    61); where many are made, ``tuple.__new__(Item, fields)`` (``make_item``) skips the
    record's own ``__new__``."""

    value: str
    style: str
    start: int
    end: int
    block_start: int
    block_end: int


class AllowedTools(NamedTuple):
    """Where and how ``allowed-tools`` is written. Offsets index the whole file text.

    ``start``..``end`` is the span a rewrite replaces; ``key_start``..``line_end`` the lines a
    removal deletes (``line_end`` stops before the last line break). ``separator`` is the text
    between the first two entries of a string value (None with fewer than two);
    ``multiline`` says the value's text runs over several lines. For each of ``entries``,
    ``entry_starts`` holds the offset of its first character as written (of the backslash,
    when an escape spells it) and ``entry_ends`` the offset just past its last: what a report
    points at (``yamlspan.entry_spans``).

    A record (a tuple), as ``Item``: a batch makes two or three a file (read, moved, read
    back), each by ``tuple.__new__`` of every field (``_made``).
    """

    form: Form
    value: str | tuple[str, ...]
    entries: tuple[str, ...]
    key_start: int
    key_column: int
    start: int
    end: int
    line_end: int
    separator: str | None
    multiline: bool
    items: tuple[Item, ...] = ()
    item_prefix: str = "- "
    entry_starts: tuple[int, ...] = ()
    entry_ends: tuple[int, ...] = ()

    def moved(self, by: int) -> AllowedTools:
        """This value with each of its offsets ``by`` characters on."""
        # Every field given (``_replace`` asks each by name: a batch moves a value a file);
        # tests/test_reread.py checks the fields are these.
        return _made(AllowedTools, (
            self.form, self.value, self.entries, self.key_start + by, self.key_column,
            self.start + by, self.end + by, self.line_end + by, self.separator, self.multiline,
            tuple([make_item(Item, (value, style, start + by, end + by, block_start + by,
                                    block_end + by))
                   for value, style, start, end, block_start, block_end in self.items]),
            self.item_prefix, tuple([at + by for at in self.entry_starts]),
            tuple([at + by for at in self.entry_ends])))

    def placed(self, key_start: int, start: int, end: int, line_end: int,
               items: tuple[Item, ...], entry_starts: tuple[int, ...],
               entry_ends: tuple[int, ...]) -> AllowedTools:
        """This value with these offsets (and items), the rest kept: a retried reading carried
        back onto the file as written (``retry``). Every field given, as ``moved``."""
        return _made(AllowedTools, (self.form, self.value, self.entries, key_start,
                                    self.key_column, start, end, line_end, self.separator,
                                    self.multiline, items, self.item_prefix, entry_starts,
                                    entry_ends))

    def rewritten(self, value: str | tuple[str, ...], entries: tuple[str, ...], end: int,
                  line_end: int, separator: str | None, multiline: bool,
                  items: tuple[Item, ...], entry_starts: tuple[int, ...],
                  entry_ends: tuple[int, ...]) -> AllowedTools:
        """This value written anew from ``start`` (its key, place and form kept): the
        read-back's branches (``reread``, ``blockread``). Every field given, as ``moved``."""
        return _made(AllowedTools, (self.form, value, entries, self.key_start,
                                    self.key_column, self.start, end, line_end, separator,
                                    multiline, items, self.item_prefix, entry_starts,
                                    entry_ends))


#: ``AllowedTools(*fields)`` of a tuple of every field, without the record's ``__new__``.
_made: Final[Callable[[type[AllowedTools], tuple[Any, ...]], AllowedTools]] = tuple.__new__


@quick_init
@dataclass(frozen=True)
class SkillDoc:
    """A SKILL.md as read: its metadata (python-frontmatter's reading, cross-checked against
    our own nodes) and the spans a rewrite needs. ``insert_at`` is where an absent
    ``allowed-tools`` key is added (after ``description``, else at the end of the
    frontmatter), at column ``insert_column``."""

    path: str | None
    text: str
    newline: str
    has_bom: bool
    yaml_start: int
    yaml_end: int
    body_start: int
    metadata: Mapping[str, object]
    allowed_tools: AllowedTools | None
    insert_at: int
    insert_column: int
    #: Set when Claude Code will not see ``allowed-tools`` at all (it grants nothing then).
    runtime_note: str | None = None
    #: Set when Claude Code's YAML parser rejects the frontmatter as written and it is read
    #: through the runtime's re-quote retry, as the runtime reads it (why Bun rejected it).
    retried: str | None = None

    def spliced(self, text: str, start: int, shift: int, metadata: Mapping[str, object],
                allowed_tools: AllowedTools | None) -> SkillDoc:
        """This document as ``text``, a rewrite of its text at ``start`` that moved what
        follows by ``shift`` characters (the frontmatter's end, the body, the insertion point
        when after ``start``), with ``metadata`` and ``allowed_tools``: the read-back's
        branches (``reread``). Every field given, as ``moved``."""
        return SkillDoc(self.path, text, self.newline, self.has_bom, self.yaml_start,
                        self.yaml_end + shift, self.body_start + shift, metadata,
                        allowed_tools, self.insert_at + (shift if self.insert_at > start else 0),
                        self.insert_column, self.runtime_note, self.retried)

    @_Once
    def runtime_entries(self) -> tuple[str, ...]:
        """The ``allowed-tools`` entries Claude Code reads from this file (what it grants):
        none when it never sees the key, else its own split of the value
        (``grants.runtime_entries``). tests/oracle compares this with Bun running the
        runtime's own steps. Worked out once a document (it is asked while reading, deciding,
        reading back and reporting)."""
        if self.allowed_tools is None or self.runtime_note is not None:
            return ()
        return tuple(runtime_entries(self.allowed_tools.value))

    @_Once
    def runtime_span_same(self) -> bool:
        """Whether Claude Code's frontmatter in this file (``runtime_frontmatter``) is ours:
        it ends where ours does, with nothing but blank space before ours starts (``spans``'
        ``same``: the reader, which works it out, gives it)."""
        span = runtime_frontmatter(self.text)
        return (span is not None and span.end == self.yaml_end
                and not self.text[self.yaml_start:span.start].strip())

    @_Once
    def runtime_span(self) -> RuntimeFrontmatter | None:
        """Where Claude Code's frontmatter is in this file (``runtime_frontmatter`` of its
        text; the reader, which works it out, gives it)."""
        return runtime_frontmatter(self.text)

    @_Once
    def runtime_nodes(self) -> tuple[Node | None, ...]:
        """The nodes Claude Code's YAML parser reads of this file's frontmatter, as a
        one-tuple, where the reader knows them to be its own: the runtime's frontmatter is
        exactly ours (``runtime_span``) and Bun reads it as written (``runtime.predict``'s
        "direct" of the very nodes the reader composed, as ``keyread.runtime_mapping``
        composes and predicts them). Empty where that is not known here (the reader gives
        them; ``keyread.runtime_mapping`` works them out)."""
        return ()

    @_Once
    def scans(self) -> tuple[Scan, ...]:
        """The scans of its frontmatter's flow collections that its reading made
        (``flowlenient.bun_may_accept``: one of a file read through the re-quote retry), which
        the read-back of a rewrite takes where they read what the rewrite has: the reader
        gives them, none otherwise."""
        return ()

    @_Once
    def retried_reading(self) -> SkillDoc | None:
        """For a file read through the re-quote retry (``retried``), the reading of the text
        with its frontmatter re-quoted, which ``retry.read_retried`` carried back onto this
        one: the read-back of a rewrite reads its own re-quoted text from it (``reread``).
        The reader gives it; None otherwise."""
        return None

    def known(self, span: RuntimeFrontmatter | None, same: bool,
              theirs: Prediction | None) -> None:
        """Keep what its reader found of the runtime's frontmatter, ``span``: whether it is
        ours (``runtime_span_same``), where it is, and Bun's nodes of it where they are the
        ones composed (its text exactly ours, read as written: ``theirs``, ``predict``'s)."""
        kept = self.__dict__  # (each ``_Once.give``, without its two calls a value)
        kept["runtime_span_same"] = same
        kept["runtime_span"] = span
        if theirs is not None and theirs.how == "direct" and span == (self.yaml_start,
                                                                      self.yaml_end):
            kept["runtime_nodes"] = (theirs.root,)

    @_Once
    def body(self) -> str:
        """The text after the frontmatter (``text[body_start:]``), sliced once a document:
        the rewrite, its read-back and its check each compare or copy it. (A slice of a text
        beyond Latin-1 is scanned for its widest character besides copied.)"""
        return self.text[self.body_start:]

    def ends_as(self, text: str, at: int) -> bool:
        """``text.endswith(self.text[at:])``, the body not sliced again (``body``) when
        ``at`` is before it: the part before the body is found just before ``text``'s last
        ``len(body)`` characters."""
        if at > self.body_start:
            return text.endswith(self.text[at:])
        body = self.body
        return text.endswith(body) and text.endswith(self.text[at:self.body_start], 0,
                                                     len(text) - len(body))

    def with_body(self, at: int, head: str) -> str:
        """``head + self.text[at:]``, the body not sliced again when ``at`` is before it."""
        if at > self.body_start:
            return head + self.text[at:]
        return "".join((head, self.text[at:self.body_start], self.body))

    @property
    def merged_note(self) -> str | None:
        """A sentence when Claude Code reads ``allowed-tools`` as other entries than written
        (rule SG010): it cuts only at ',' and ' ', so lines of a block scalar, or entries
        apart by tabs, run together into entries that grant nothing. None otherwise."""
        value = self.allowed_tools
        if value is None or self.runtime_note is not None:
            return None
        theirs = self.runtime_entries
        if theirs == (("*",) if "*" in value.entries else value.entries) or not any(
                char in JS_WHITESPACE and char != " " for entry in theirs for char in entry):
            return None  # (parentheses read otherwise: each such entry is SG005)
        shown = ", ".join(repr(e) for e in theirs[:3]) + (", ..." if len(theirs) > 3 else "")
        return (f"Claude Code cuts allowed-tools only at ',' and ' ', so it reads the "
                f"{len(value.entries)} entries written as {len(theirs)} ({shown}); an entry "
                "holding a line break or a tab grants nothing. End each line with a comma or "
                "write a list (apply rewrites the value so)")



def separator(value: str, entries: tuple[str, ...]) -> str | None:
    """The text between the first two of ``entries`` in the string ``value`` (None with fewer
    than two): what a rewrite of a string value puts between its entries."""
    if len(entries) < 2:
        return None
    after_first = value.find(entries[0]) + len(entries[0])
    return value[after_first:value.find(entries[1], after_first)]
