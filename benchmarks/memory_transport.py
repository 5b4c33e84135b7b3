"""An in-memory transport for uvicorn's protocol: what it writes is kept, nothing is sent
(benchmarks/inprocess.py feeds it requests to count their cost alone; tests/service/
test_body_whole.py drives the service's protocol with it)."""

from __future__ import annotations

import asyncio
from typing import Any

PORT = 8750


class MemoryTransport(asyncio.Transport):
    """A connection from 127.0.0.1:5555 to ``PORT``, its writes kept in ``written``."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", PORT), "peername": ("127.0.0.1", 5555)}.get(
            name, default)

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass
