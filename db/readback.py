"""What writing readings back into harness files needs: where each run's file came from and
where in it each reply was read."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database


@dataclass(frozen=True)
class HarnessImport:
    """A file a run was imported from: its path as given to `import`, and its hash then."""

    run: str
    path: str
    sha256: str


def harness_imports(db: Database, fmt: str, run: str | None = None) -> list[HarnessImport]:
    """Every (run, file) imported in format `fmt`, first import first (of one run, or all)."""
    sql = ("SELECT ru.name, i.path, i.sha256, min(i.id) FROM imports i JOIN runs ru ON "
           "ru.id = i.run_id WHERE i.format = ?" + (" AND ru.name = ?" if run else "")
           + " GROUP BY ru.name, i.path, i.sha256 ORDER BY 4")
    return [HarnessImport(name, path, sha) for name, path, sha, _ in
            db.execute(sql, [fmt, run] if run else [fmt])]


def reply_sources(db: Database, run: str) -> dict[str, list[int]]:
    """A run's replies by the place they were read (`file:line` or `file:record`), each place's
    replies in sample order."""
    found: dict[str, list[int]] = {}
    for reply_id, source in db.execute(
            "SELECT r.id, r.source FROM replies r JOIN runs ru ON ru.id = r.run_id "
            "WHERE ru.name = ? ORDER BY r.source, r.sample_index", [run]):
        found.setdefault(source, []).append(reply_id)
    return found
