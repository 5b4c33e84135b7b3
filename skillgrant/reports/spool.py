"""Text kept for a report written at the end of a run: in memory up to a bound, then in an
anonymous temporary file, so a registry-scale batch holds neither its results nor its whole
output in memory. Shared by the JSON document and the text report of ``check``/``apply``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Final

#: Characters a spool keeps in memory before it moves them to disk.
MAX_SPOOLED_CHARS: Final = 4 << 20
# Pieces joined into one string at a time when they are written out.
_PIECES_AT_ONCE: Final = 500


class Spool:
    """Pieces of text, given back in order by ``chunks``, each run of them through ``finish``
    (the same function the whole text would go through: it must work piece by piece)."""

    def __init__(self, finish: Callable[[str], str] = str, limit: int | None = None) -> None:
        self.finish = finish
        self.limit = MAX_SPOOLED_CHARS if limit is None else limit
        self._pieces: list[str] = []
        self._held = 0
        self._file: IO[str] | None = None

    def add(self, piece: str) -> None:
        self._pieces.append(piece)
        self._held += len(piece)
        if self._held > self.limit:
            self._spill()

    def _spill(self) -> None:
        if self._file is None:
            import tempfile

            # Closed when the text has been read (chunks).
            # surrogatepass: a lone surrogate (a path's undecodable byte) comes back as given.
            self._file = tempfile.TemporaryFile(  # noqa: SIM115
                mode="w+", encoding="utf-8", errors="surrogatepass", newline="")
        for text in self._joined():
            self._file.write(text)
        self._pieces.clear()
        self._held = 0

    def _joined(self) -> Iterator[str]:
        for start in range(0, len(self._pieces), _PIECES_AT_ONCE):
            yield self.finish("".join(self._pieces[start:start + _PIECES_AT_ONCE]))

    def chunks(self) -> Iterator[str]:
        """Everything added, finished, in pieces of up to about a megabyte."""
        if self._file is not None:
            self._file.seek(0)
            while piece := self._file.read(1 << 20):
                yield piece
            self._file.close()
            self._file = None
        yield from self._joined()
        self._pieces.clear()
        self._held = 0
