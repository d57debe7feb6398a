"""Large outputs kept in full beside their digests, for the comparisons a digest cannot decide.

An output over the harness's digest threshold travels as the SHA-256 of its marshal bytes, which
settles equality at once. Where the sample's digest differs from the expected one the values
must still be compared (float tolerance, `1 == 1.0`), so the harness sends the bytes too. The
host keeps them unread, out of its own memory, until the job has ended, and reads only those of
an input whose digests differ, checked against the digest (`marshal_data`). Nothing is asked of
a program after its job: what it sent while it ran is all there is.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import tempfile
import threading
from typing import IO, Any

from graders.code.sandbox.inside.tagged import Digest
from graders.code.sandbox.marshal_data import read_marshal
from graders.code.sandbox.results import MalformedLine

IN_MEMORY = 8 << 20  # bytes kept in memory before the store moves to a temporary file
BUDGET = 512 << 20  # base64 bytes one job may leave here; beyond, the rest are not kept


class NotKept(LookupError):
    """The job sent no bytes for this output (too large, or past the job's budget)."""


class LargeOutputs:
    """The base64 marshal bytes one job sent, by input index: the first IN_MEMORY bytes in
    memory (most jobs send only small outputs' bytes, one per input), the rest in a
    temporary file."""

    def __init__(self, budget: int = BUDGET) -> None:
        self._file: IO[bytes] | None = None  # made when memory is full
        self._in_memory: dict[int, bytes] = {}
        self._where: dict[int, tuple[int, int]] = {}  # in the file
        self._held = 0  # bytes in memory
        self._end = 0  # bytes in the file
        self.budget = budget
        self._lock = threading.Lock()  # the reference's store is read by every grading slot

    def keep(self, index: int, text: str) -> None:
        """Store one input's bytes as sent (unread; the same work whatever they hold)."""
        data = text.encode("ascii", "replace")
        with self._lock:
            if (self._held + self._end + len(data) > self.budget or index in self._where
                    or index in self._in_memory):
                return
            if self._held + len(data) <= IN_MEMORY:
                self._in_memory[index] = data
                self._held += len(data)
                return
            self._to_file(index, data)

    def _to_file(self, index: int, data: bytes) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile()
        self._file.seek(self._end)
        self._file.write(data)
        self._where[index] = (self._end, len(data))
        self._end += len(data)

    def __contains__(self, index: int) -> bool:
        return index in self._in_memory or index in self._where

    def value(self, index: int, digest: Digest) -> Any:
        """The output at `index`, read from its bytes once they match `digest`."""
        with self._lock:
            text = self._in_memory.get(index)
            if text is None:
                if index not in self._where:
                    raise NotKept(index)
                offset, length = self._where[index]
                assert self._file is not None
                self._file.seek(offset)
                text = self._file.read(length)
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise MalformedLine("an output's bytes are not base64") from None
        if hashlib.sha256(data).hexdigest() != digest.sha256 or len(data) != digest.size:
            raise MalformedLine("an output's bytes do not match its digest")
        return read_marshal(data)

    def to_disk(self) -> None:
        """Move what is kept out of memory (a store that outlives its job)."""
        with self._lock:
            for index, data in self._in_memory.items():
                self._to_file(index, data)
            self._in_memory.clear()
            self._held = 0

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
            self._where.clear()
            self._in_memory.clear()
