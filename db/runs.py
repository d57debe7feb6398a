"""Runs: a model with its settings, whose replies are imported together."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from db.connection import database_file, inserted_id, now
from db.errors import StoreError, unknown_name
from db.store import Store


def ensure_run(
    db: Store, name: str, model: str | None = None, settings: dict[str, Any] | None = None
) -> int:
    """Return the id of run `name`, creating it; refuse a model or settings that contradict it."""
    row = db.execute("SELECT id, model, settings FROM runs WHERE name = ?", [name]).fetchone()
    if row is None:
        cursor = db.execute(
            "INSERT INTO runs (name, model, settings, created_at) VALUES (?, ?, ?, ?)",
            [name, model, json.dumps(settings or {}, sort_keys=True), now()],
        )
        return inserted_id(cursor)
    run_id, old_model, old_settings = row
    if model is not None and old_model is not None and model != old_model:
        raise StoreError(
            f"run {name!r} already exists with model {old_model!r}, not {model!r}; "
            "pick another --run name"
        )
    if settings and json.loads(old_settings) not in ({}, settings):
        raise StoreError(
            f"run {name!r} already exists with settings {old_settings}; pick another --run name"
        )
    if model is not None and old_model is None:
        db.execute("UPDATE runs SET model = ? WHERE id = ?", [model, run_id])
    if settings and json.loads(old_settings) == {}:
        db.execute(
            "UPDATE runs SET settings = ? WHERE id = ?", [json.dumps(settings, sort_keys=True), run_id]
        )
    return int(run_id)


def list_runs(db: Store) -> list[dict[str, Any]]:
    """Every run with its reply, problem, graded, queued and labeled counts."""
    sql = """
        SELECT runs.name, runs.model, runs.settings,
               group_concat(DISTINCT problems.benchmark) AS benchmarks,
               count(replies.id) AS replies,
               count(DISTINCT replies.problem_id) AS problems,
               count(DISTINCT CASE WHEN EXISTS (
                   SELECT 1 FROM verdicts v WHERE v.reply_id = replies.id AND v.current = 1
               ) THEN replies.id END) AS graded,
               count(DISTINCT queue.reply_id) AS queued,
               count(DISTINCT CASE WHEN EXISTS (
                   SELECT 1 FROM labels l WHERE l.reply_id = queue.reply_id AND l.status = 'labeled'
               ) OR EXISTS (
                   SELECT 1 FROM adjudications a WHERE a.reply_id = queue.reply_id
               ) THEN queue.reply_id END) AS labeled
        FROM runs
        LEFT JOIN replies ON replies.run_id = runs.id
        LEFT JOIN problems ON problems.id = replies.problem_id
        LEFT JOIN queue ON queue.reply_id = replies.id
        GROUP BY runs.id
        ORDER BY runs.name
    """
    cursor = db.execute(sql)
    columns = [c[0] for c in cursor.description]
    rows = []
    for values in cursor.fetchall():
        row = dict(zip(columns, values, strict=True))
        row["settings"] = json.loads(row["settings"])
        row["benchmarks"] = sorted((row["benchmarks"] or "").split(",")) if row["benchmarks"] else []
        rows.append(row)
    return rows


def run_names(db: Store) -> list[str]:
    """Every run's name, sorted."""
    return [row[0] for row in db.execute("SELECT name FROM runs ORDER BY name")]


def require_runs(db: Store, names: Iterable[str]) -> None:
    """Refuse a run name the database does not hold (a misspelt --run), naming the known ones."""
    known = run_names(db)
    for name in names:
        if name not in known:
            raise unknown_name("run", name, known, database_file(db),
                               "import replies with `adjudicate import FILE --run NAME`")
