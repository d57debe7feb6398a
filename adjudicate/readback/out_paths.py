"""Where copies go: a plain file name inside --out for each source file, never outside it, never
over an existing file (so never over the original)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from db.errors import StoreError

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f/\\\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def out_folder(out: Path) -> Path:
    """--out as a directory, created if missing."""
    if out.exists() and not out.is_dir():
        raise StoreError(f"--out {out}: not a directory (these formats write one copy per file)")
    out.mkdir(parents=True, exist_ok=True)
    return out


def copy_names(folder: Path, sources: Sequence[str]) -> list[Path]:
    """One target per source path: its file name made plain (controls, separators and lone
    surrogates become `_`), numbered where two collide. Refuses a target that exists."""
    taken: set[str] = set()
    targets = []
    for number, source in enumerate(sources, start=1):
        name = _UNSAFE.sub("_", Path(source).name).lstrip(".")
        if not name:
            name = f"copy-{number}"
        stem, suffix = _split(name)
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            candidate = f"{stem}-{n}{suffix}"
        taken.add(candidate)
        target = folder / candidate
        if target.resolve().parent != folder.resolve():
            raise StoreError(f"{candidate!r}: would be written outside {folder}")
        if target.exists() or target.is_symlink():
            raise StoreError(f"{target} already exists; nothing was written (remove it or "
                             "choose another --out: a copy never replaces a file)")
        targets.append(target)
    return targets


def _split(name: str) -> tuple[str, str]:
    for suffix in (".jsonl.gz", ".json.gz"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)], suffix
    path = Path(name)
    return (path.stem, path.suffix) if path.suffix and path.stem else (name, "")


def write_new(target: Path, write: Callable[[Path], None]) -> None:
    """Let `write` make the file under a temporary name beside `target`, then link it into
    place; refuses to replace a file that appeared meanwhile."""
    scratch = Path(tempfile.mkdtemp(prefix=".adjudicate-", dir=target.parent))
    try:
        made = scratch / target.name
        write(made)
        try:
            os.link(made, target)
        except FileExistsError:
            raise StoreError(f"{target} appeared while it was being written; nothing "
                             "replaced it") from None
        except OSError:  # a file system without hard links: check, then move
            if target.exists():
                raise StoreError(f"{target} already exists; nothing replaced it") from None
            os.replace(made, target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
