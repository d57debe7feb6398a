"""What writing readings back into harness files needs: where each run's file came from and
where in it each reply was read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database


@dataclass(frozen=True)
class HarnessImport:
    """A file a run was imported from: its path as given to `import`, and its hash then."""

    run: str
    path: str
    sha256: str

    @property
    def version(self) -> str:
        """The version the verdicts this file carried were stored under (name@hash)."""
        return f"{Path(self.path).name}@{self.sha256[:12]}"


def harness_imports(db: Database, formats: tuple[str, ...],
                    run: str | None = None) -> list[HarnessImport]:
    """Every (run, file) imported in one of `formats`, in import order (of one run, or all);
    a file imported again is taken as it was last imported (SQLite gives the bare `sha256` of
    the row holding max(id))."""
    marks = ", ".join("?" * len(formats))
    sql = ("SELECT ru.name, i.path, i.sha256, max(i.id) FROM imports i JOIN runs ru ON "
           f"ru.id = i.run_id WHERE i.format IN ({marks})" + (" AND ru.name = ?" if run else "")
           + " GROUP BY ru.name, i.path ORDER BY 4")
    return [HarnessImport(name, path, sha) for name, path, sha, _ in
            db.execute(sql, [*formats, run] if run else list(formats))]


def reply_sources(db: Database, run: str) -> dict[str, list[int]]:
    """A run's replies by the places they were read (`file:line` or `file:record`), each
    place's replies in sample order: where the reply came from, and where a file that came
    later (a harness's scores of replies imported before) gave its verdicts."""
    found: dict[str, list[int]] = {}
    for reply_id, source in db.execute(
            """SELECT id, source FROM (
                   SELECT r.id, r.source, r.sample_index FROM replies r
                   JOIN runs ru ON ru.id = r.run_id WHERE ru.name = ?
                   UNION
                   SELECT r.id, json_extract(v.evidence, '$.source'), r.sample_index
                   FROM verdicts v JOIN replies r ON r.id = v.reply_id
                   JOIN runs ru ON ru.id = r.run_id
                   WHERE ru.name = ? AND json_extract(v.evidence, '$.source') IS NOT NULL)
               ORDER BY source, sample_index""", [run, run]):
        found.setdefault(source, []).append(reply_id)
    return found


def reply_texts(db: Database, reply_ids: list[int]) -> dict[int, str]:
    """The text of each of these replies."""
    found: dict[int, str] = {}
    for start in range(0, len(reply_ids), 500):
        chunk = reply_ids[start:start + 500]
        found.update(db.execute(f"SELECT id, text FROM replies WHERE id IN "
                                f"({', '.join('?' * len(chunk))})", chunk).fetchall())
    return found
