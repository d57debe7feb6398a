"""Read members of a zip archive (an Inspect `.eval` log) in bounded memory, refusing zip bombs.

A member may expand to at most MAX_MEMBER_BYTES, and the archive to at most GZIP_MAX_RATIO
times its size past GZIP_FLOOR_BYTES (the limits `jsonl` puts on a .gz file). Sizes are checked
as declared and again as read, so an archive that lies about them ends in a named error too.
Stored, deflate, bzip2 and lzma members are read with the standard library; Zstandard members
(what recent inspect_ai versions write) with `compression.zstd` (Python 3.14) or the
`zstandard` package (a dependency of the default install before 3.14).
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.jsonl import CHUNK_BYTES, GZIP_FLOOR_BYTES, GZIP_MAX_RATIO
from db.records import Location

ENCRYPTED = 0x1  # general purpose flag bit 0 of a zip entry
MAX_MEMBER_BYTES = 512 << 20  # one Inspect sample with its whole transcript; real ones are MiBs
ZSTANDARD = 93  # the zip compression method number of Zstandard
LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature ... file name length, extra field length
ZSTD_HINT = ("adjudicate installs the zstandard package with it; install it again "
             "(pip install zstandard), or convert the log first: inspect log convert LOG "
             "--to json --output-dir DIR")


class Archive:
    """An open zip archive whose members are read under one expansion budget."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise InputError(str(path), f"not a readable zip archive ({exc}); an Inspect .eval "
                             "log is a zip file: was it copied whole?") from None
        self.budget = max(GZIP_FLOOR_BYTES, GZIP_MAX_RATIO * path.stat().st_size)
        self.expanded = 0

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def names(self) -> list[str]:
        return self.zip.namelist()

    def read(self, name: str) -> bytes:
        """A member's bytes, checked against its declared size, its CRC and the budget."""
        where = Location(str(self.path), 0, name)
        info = self.zip.getinfo(name)
        if info.flag_bits & ENCRYPTED:
            raise InputError.at(where, "is encrypted: adjudicate reads unencrypted logs only "
                                "(Inspect never encrypts its own; unzip it with its password "
                                "and zip it again)")
        if info.file_size > MAX_MEMBER_BYTES:
            raise InputError.at(where, f"declares {info.file_size:,} bytes, more than the "
                             f"{MAX_MEMBER_BYTES >> 20} MiB one log member may hold")
        if info.file_size > GZIP_FLOOR_BYTES and info.file_size > GZIP_MAX_RATIO * max(
                info.compress_size, 1):
            raise InputError.at(where, f"expands more than {GZIP_MAX_RATIO} times "
                             f"({info.compress_size:,} compressed bytes declare "
                             f"{info.file_size:,}): a zip bomb? Stopped reading.")
        if self.expanded + info.file_size > self.budget:
            raise InputError.at(where, f"the archive expands past {self.budget:,} bytes, more "
                             f"than {GZIP_MAX_RATIO} times its size: a zip bomb? Stopped "
                             "reading.")
        try:
            data = (self._read_zstandard(info, where) if info.compress_type == ZSTANDARD
                    else self._read_standard(info, where))
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
                ValueError) as exc:
            raise InputError.at(where, f"corrupt archive member ({exc})") from None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            raise InputError.at(where, "corrupt archive member (its size or checksum does not "
                             "match what the archive declares)")
        self.expanded += len(data)
        return data

    def _read_standard(self, info: zipfile.ZipInfo, where: Location) -> bytes:
        with self.zip.open(info) as member:
            return _bounded(member.read, info.file_size, where)

    def _read_zstandard(self, info: zipfile.ZipInfo, where: Location) -> bytes:
        """Zstandard: the member's raw bytes (found from its local header) decompressed."""
        handle = self.zip.fp
        if handle is None:
            raise InputError.at(where, "the archive is closed")
        handle.seek(info.header_offset)
        signature, name_length, extra_length = LOCAL_HEADER.unpack(
            handle.read(LOCAL_HEADER.size))
        if signature != b"PK\x03\x04":
            raise InputError.at(where, "corrupt archive member (no local header where the "
                             "archive's directory points)")
        handle.seek(name_length + extra_length, io.SEEK_CUR)
        raw = handle.read(info.compress_size)
        return _bounded(_zstd_reader(raw, where), info.file_size, where)


def _bounded(read: Callable[[int], bytes], size: int, where: Location) -> bytes:
    """Read until the end, refusing more than `size` bytes (a member that lies about its size)."""
    parts: list[bytes] = []
    total = 0
    while True:
        chunk = read(CHUNK_BYTES)
        if not chunk:
            return b"".join(parts)
        total += len(chunk)
        if total > size:
            raise InputError.at(where, f"expands past the {size:,} bytes it declares: a zip bomb? "
                             "Stopped reading.")
        parts.append(chunk)


def _zstd_reader(raw: bytes, where: Location) -> Callable[[int], bytes]:
    """A read(n) over the decompressed Zstandard stream (all its frames)."""
    reader: Any
    try:
        native: Any = import_module("compression.zstd")  # Python 3.14+
        reader = native.ZstdFile(io.BytesIO(raw))
    except ImportError:
        try:
            zstandard: Any = import_module("zstandard")
        except ImportError:
            raise InputError.at(where, "is Zstandard-compressed, which this Python cannot "
                                f"read: {ZSTD_HINT}") from None
        reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw),
                                                            read_across_frames=True)

    def read(size: int) -> bytes:
        try:
            return bytes(reader.read(size))
        except Exception as exc:  # the decompressor's own error type: corrupt data
            raise ValueError(f"Zstandard: {exc}") from None

    return read
