"""The schema, as an ordered list of sqlite-utils migrations (never edit an applied one; add one).

Importing this module does not import sqlite-utils: the steps are listed in `STEPS`, which is
enough to tell whether a database is current (`db.connection`, with plain SQL), and sqlite-utils'
`MIGRATIONS` over them is made when a database is first migrated or checked through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

MIGRATION_SET = "adjudicate"  # the name sqlite-utils records each applied step under
# Every step, in the order it applies (the order registered below, not the names' order)
STEPS: list[Callable[[Database], None]] = []
MIGRATIONS: Migrations  # sqlite-utils' set of STEPS, made on first use (`__getattr__`)


def __getattr__(name: str) -> Any:
    if name == "MIGRATIONS":
        from sqlite_utils.migrations import Migrations

        migrations = Migrations(MIGRATION_SET)
        for step in STEPS:
            migrations()(step)
        globals()["MIGRATIONS"] = migrations
        return migrations
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _migration(step: Callable[[Database], None]) -> Callable[[Database], None]:
    STEPS.append(step)
    return step

OUTCOMES_SQL = "('accept', 'reject', 'error', 'timeout')"
LABEL_ACTIONS_SQL = "('label', 'skip', 'undo', 'note', 'adjudicate')"


@_migration
def m001_core(db: Database) -> None:
    """Runs, problems, replies, extractions, verdicts, queue, labels and the label history."""
    for statement in _statements(
        f"""
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            model TEXT,
            settings TEXT NOT NULL DEFAULT '{{}}',      -- JSON object
            created_at TEXT NOT NULL
        );
        CREATE TABLE problems (
            id INTEGER PRIMARY KEY,
            benchmark TEXT NOT NULL,
            task_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('math', 'code')),
            statement TEXT NOT NULL DEFAULT '',
            answer TEXT,                                -- the key, for math
            reference TEXT,                             -- worked solution or canonical code
            entry_point TEXT,                           -- code: the function under test
            tests TEXT NOT NULL DEFAULT '{{}}',           -- JSON: test, base_input, plus_input, atol, ...
            metadata TEXT NOT NULL DEFAULT '{{}}',        -- JSON: level, subject, source ids, ...
            content_hash TEXT NOT NULL,
            imported_at TEXT NOT NULL,
            UNIQUE (benchmark, task_id)
        );
        CREATE TABLE replies (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            problem_id INTEGER NOT NULL REFERENCES problems(id),
            sample_index INTEGER NOT NULL CHECK (sample_index >= 0),
            text TEXT NOT NULL,
            form TEXT NOT NULL DEFAULT 'text'           -- text | solution (whole program) |
                CHECK (form IN ('text', 'solution', 'completion')),  -- completion (body after prompt)
            key_override TEXT,                          -- a key that came with the reply
            content_hash TEXT NOT NULL,
            source TEXT NOT NULL,                       -- file:line it was imported from
            imported_at TEXT NOT NULL,
            UNIQUE (run_id, problem_id, sample_index)
        );
        CREATE INDEX replies_problem ON replies(problem_id);
        CREATE TABLE extractions (
            id INTEGER PRIMARY KEY,
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            extractor TEXT NOT NULL,
            extractor_version TEXT NOT NULL,
            rule TEXT NOT NULL,
            answer TEXT,
            span_start INTEGER,
            span_end INTEGER,
            current INTEGER NOT NULL DEFAULT 1,         -- 0 once a newer version replaced it
            created_at TEXT NOT NULL,
            UNIQUE (reply_id, extractor, extractor_version)
        );
        CREATE INDEX extractions_current ON extractions(reply_id) WHERE current = 1;
        CREATE TABLE verdicts (
            id INTEGER PRIMARY KEY,
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            grader TEXT NOT NULL,
            grader_version TEXT NOT NULL,
            verdict TEXT NOT NULL CHECK (verdict IN {OUTCOMES_SQL}),
            evidence TEXT NOT NULL DEFAULT '{{}}',        -- JSON
            elapsed_ms REAL NOT NULL DEFAULT 0,
            current INTEGER NOT NULL DEFAULT 1,
            created_at TEXT NOT NULL,
            UNIQUE (reply_id, grader, grader_version)
        );
        CREATE INDEX verdicts_current ON verdicts(reply_id) WHERE current = 1;
        CREATE TABLE queue (
            reply_id INTEGER PRIMARY KEY REFERENCES replies(id),
            kind TEXT NOT NULL CHECK (kind IN ('math', 'code')),
            reason TEXT NOT NULL,                       -- disagree | all_reject | plus_only_fail
            group_key TEXT NOT NULL,                    -- same (extracted answer, key) -> same group
            suggested_label TEXT,
            queued_at TEXT NOT NULL
        );
        CREATE INDEX queue_group ON queue(group_key);
        CREATE TABLE labels (
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            reviewer TEXT NOT NULL,
            label TEXT,                                 -- NULL: skipped, or undone to nothing
            status TEXT NOT NULL CHECK (status IN ('labeled', 'skipped', 'cleared')),
            note TEXT,
            event_id INTEGER NOT NULL,                  -- the history event that set this state
            updated_at TEXT NOT NULL,
            PRIMARY KEY (reply_id, reviewer)
        );
        CREATE TABLE adjudications (
            reply_id INTEGER PRIMARY KEY REFERENCES replies(id),
            label TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            note TEXT,
            event_id INTEGER NOT NULL,
            decided_at TEXT NOT NULL
        );
        CREATE TABLE label_events (
            id INTEGER PRIMARY KEY,
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            reviewer TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN {LABEL_ACTIONS_SQL}),
            label TEXT,
            note TEXT,
            previous_label TEXT,
            previous_status TEXT,
            previous_note TEXT,
            undoes INTEGER REFERENCES label_events(id),
            created_at TEXT NOT NULL
        );
        CREATE INDEX label_events_reviewer ON label_events(reviewer, id);
        CREATE TRIGGER label_events_append_only_update BEFORE UPDATE ON label_events
            BEGIN SELECT RAISE(ABORT, 'label_events is append-only'); END;
        CREATE TRIGGER label_events_append_only_delete BEFORE DELETE ON label_events
            BEGIN SELECT RAISE(ABORT, 'label_events is append-only'); END;
        CREATE TABLE reference_outputs (
            problem_id INTEGER NOT NULL REFERENCES problems(id),
            grader_version TEXT NOT NULL,
            payload TEXT NOT NULL,                      -- JSON: expected outputs and reference runtimes
            created_at TEXT NOT NULL,
            PRIMARY KEY (problem_id, grader_version)
        );
        CREATE TABLE problem_checks (
            problem_id INTEGER NOT NULL REFERENCES problems(id),
            checker_version TEXT NOT NULL,
            reference_passes INTEGER NOT NULL,
            stub_fails INTEGER NOT NULL,
            details TEXT NOT NULL DEFAULT '{{}}',
            checked_at TEXT NOT NULL,
            PRIMARY KEY (problem_id, checker_version)
        );
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            format TEXT NOT NULL,
            run_id INTEGER REFERENCES runs(id),
            problems_added INTEGER NOT NULL,
            replies_added INTEGER NOT NULL,
            unchanged INTEGER NOT NULL,
            imported_at TEXT NOT NULL
        );
        """
    ):
        db.execute(statement)


@_migration
def m002_patterns_and_batches(db: Database) -> None:
    """Each queued reply's dispute pattern, and decisions that label many replies at once."""
    for statement in _statements(
        """
        ALTER TABLE queue ADD COLUMN pattern TEXT;          -- graders.patterns id; NULL: not yet
        ALTER TABLE queue ADD COLUMN pattern_version TEXT;  -- graders.patterns.VERSION it is of
        CREATE INDEX queue_pattern ON queue(pattern);
        CREATE TABLE label_batches (
            id INTEGER PRIMARY KEY,
            reviewer TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('label', 'adjudicate')),
            scope TEXT NOT NULL CHECK (scope IN ('group', 'pattern', 'view')),
            label TEXT NOT NULL,
            subject TEXT,                               -- the pattern id or group key decided
            description TEXT NOT NULL,                  -- what the reviewer saw it called
            replies INTEGER NOT NULL,                   -- replies the decision covered
            written INTEGER NOT NULL,                   -- of them, labeled by it
            kept INTEGER NOT NULL,                      -- of them, earlier decisions it kept
            created_at TEXT NOT NULL
        );
        ALTER TABLE label_events ADD COLUMN batch_id INTEGER REFERENCES label_batches(id);
        CREATE INDEX label_events_batch ON label_events(batch_id) WHERE batch_id IS NOT NULL;
        CREATE TRIGGER label_batches_append_only_update BEFORE UPDATE ON label_batches
            BEGIN SELECT RAISE(ABORT, 'label_batches is append-only'); END;
        CREATE TRIGGER label_batches_append_only_delete BEFORE DELETE ON label_batches
            BEGIN SELECT RAISE(ABORT, 'label_batches is append-only'); END;
        """
    ):
        db.execute(statement)


@_migration
def m003_queue_key_issue(db: Database) -> None:
    """Why a queued reply's key looks wrong (`graders.math.suspect_keys`); NULL: it looks fine.
    Replies against such a key are queued (reason `suspect_key`, beside m001's reasons) even when
    graders agree."""
    db.execute("ALTER TABLE queue ADD COLUMN key_issue TEXT")


@_migration
def m005_probe_outputs(db: Database) -> None:
    """What every base-passing sample returned on each queued failing input, and the tally."""
    for statement in _statements(
        """
        CREATE TABLE probe_outputs (
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            input_key TEXT NOT NULL,                    -- names the input exactly (a hash)
            version TEXT NOT NULL,
            kind TEXT NOT NULL,                         -- pass | wrong_output | exception | ...
            output TEXT NOT NULL,                       -- what it returned, shown
            created_at TEXT NOT NULL,
            PRIMARY KEY (reply_id, input_key, version)
        );
        CREATE TABLE probe_tallies (
            problem_id INTEGER NOT NULL REFERENCES problems(id),
            input_key TEXT NOT NULL,
            version TEXT NOT NULL,
            tally TEXT NOT NULL,                        -- JSON: reference, groups, quirk hint
            created_at TEXT NOT NULL,
            PRIMARY KEY (problem_id, input_key, version)
        );
        """
    ):
        db.execute(statement)


@_migration
def m006_errata(db: Database) -> None:
    """Keys reviewers found wrong or ambiguous (with the right key where they know it), and
    the replies of such a problem graded again against the corrected key."""
    for statement in _statements(
        f"""
        CREATE TABLE errata (
            id INTEGER PRIMARY KEY,
            problem_id INTEGER NOT NULL REFERENCES problems(id),
            kind TEXT NOT NULL CHECK (kind IN ('wrong', 'ambiguous')),
            old_key TEXT,                               -- the key as the reviewer saw it
            new_key TEXT,                               -- the right key (NULL: not known)
            reviewer TEXT NOT NULL,
            note TEXT,
            reply_id INTEGER REFERENCES replies(id),    -- the reply it was found on
            event_id INTEGER REFERENCES label_events(id),  -- the bad-key label it came with
            created_at TEXT NOT NULL
        );
        CREATE INDEX errata_problem ON errata(problem_id);
        CREATE TRIGGER errata_append_only_update BEFORE UPDATE ON errata
            BEGIN SELECT RAISE(ABORT, 'errata is append-only'); END;
        CREATE TRIGGER errata_append_only_delete BEFORE DELETE ON errata
            BEGIN SELECT RAISE(ABORT, 'errata is append-only'); END;
        CREATE TABLE erratum_verdicts (
            erratum_id INTEGER NOT NULL REFERENCES errata(id),
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            grader TEXT NOT NULL,
            grader_version TEXT NOT NULL,
            verdict TEXT NOT NULL CHECK (verdict IN {OUTCOMES_SQL}),
            evidence TEXT NOT NULL DEFAULT '{{}}',
            created_at TEXT NOT NULL,
            PRIMARY KEY (erratum_id, reply_id, grader, grader_version)
        );
        """
    ):
        db.execute(statement)


def _statements(script: str) -> list[str]:
    """Split a script into statements; executescript() would commit the migration's transaction."""
    statements, current = [], []
    for line in script.splitlines():
        current.append(line)
        stripped = line.split("--")[0].strip()
        in_trigger = "\n".join(current).lstrip().startswith("CREATE TRIGGER")
        if stripped.endswith(";") and (not in_trigger or stripped.endswith("END;")):
            statements.append("\n".join(current).strip().rstrip(";"))
            current = []
    return [s for s in statements if s]


@_migration
def m004_sample_order(db: Database) -> None:
    """The recorded sample order (a seeded random order of the queue, stratified), the label
    events taken in it (its sample), the audit sample of unanimous replies, and an index to
    find a reply's label events."""
    for statement in _statements(
        """
        CREATE TABLE sample_orders (
            id INTEGER PRIMARY KEY,
            seed INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            replaced_at TEXT                            -- set when a reshuffle replaced it
        );
        CREATE TABLE sample_ranks (
            reply_id INTEGER PRIMARY KEY REFERENCES replies(id),
            order_id INTEGER NOT NULL REFERENCES sample_orders(id),
            stratum TEXT NOT NULL,                      -- benchmark · run · reason · verdicts
            sort_key REAL NOT NULL                      -- its place in the interleaved order
        );
        CREATE INDEX sample_ranks_key ON sample_ranks(sort_key);
        CREATE TABLE sample_draws (                     -- a label or skip taken in the order
            event_id INTEGER PRIMARY KEY REFERENCES label_events(id),
            reply_id INTEGER NOT NULL REFERENCES replies(id),
            order_id INTEGER NOT NULL REFERENCES sample_orders(id)
        );
        CREATE INDEX sample_draws_reply ON sample_draws(reply_id, order_id);
        CREATE TABLE audit_items (
            reply_id INTEGER PRIMARY KEY REFERENCES replies(id),
            seed INTEGER NOT NULL,
            group_key TEXT NOT NULL,                    -- its queue group, to requeue after grading
            added_at TEXT NOT NULL
        );
        CREATE INDEX label_events_reply ON label_events(reply_id, id);
        """
    ):
        db.execute(statement)


@_migration
def m007_erratum_retractions(db: Database) -> None:
    """An erratum withdrawn by a reviewer: it stops standing (a relabel of its reply never
    withdraws it; `db.errata`)."""
    for statement in _statements(
        """
        CREATE TABLE erratum_retractions (
            erratum_id INTEGER PRIMARY KEY REFERENCES errata(id),
            reviewer TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TRIGGER erratum_retractions_append_only_update
            BEFORE UPDATE ON erratum_retractions
            BEGIN SELECT RAISE(ABORT, 'erratum_retractions is append-only'); END;
        CREATE TRIGGER erratum_retractions_append_only_delete
            BEFORE DELETE ON erratum_retractions
            BEGIN SELECT RAISE(ABORT, 'erratum_retractions is append-only'); END;
        """
    ):
        db.execute(statement)


@_migration
def m008_sample_allocation(db: Database) -> None:
    """How the sample order spreads reads over strata: `neyman` (where the uncertainty is) or
    `proportional` (by size; every order drawn before this migration)."""
    db.execute("ALTER TABLE sample_orders ADD COLUMN allocation TEXT NOT NULL "
               "DEFAULT 'proportional' CHECK (allocation IN ('neyman', 'proportional'))")
