"""The file a run was imported from, found again and checked to be the same bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path

from adjudicate.errors import InputError
from db.readback import HarnessImport


def source_file(found: HarnessImport) -> Path:
    """The imported file, if it is still where `import` read it and unchanged since."""
    path = Path(found.path)
    if not path.is_file():
        raise InputError(found.path, f"run {found.run!r} was imported from this file, which is "
                         "not there now (a relative path is read from where you run export: "
                         "run it from the directory you imported from)")
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != found.sha256:
        raise InputError(found.path, f"changed since run {found.run!r} was imported from it "
                         "(its SHA-256 differs); the readings belong to the file as imported")
    return path

