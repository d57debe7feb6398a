"""Headless graders, in three rooms, each importing only the ones below it (pyproject.toml's
import contracts check this):

- `graders.queue`: which graded replies a person reads, and the pattern each one shows;
- `graders.math`, `graders.code`: the graders, and what runs them (worker pools, the sandbox);
- the kernel here (`verdict`, `registry`, `labels`, `evidence`, `digest`, `progress`,
  `versions`, ...): the records and names all of them share.

Extraction and the string graders are pure functions of (reply, key); the symbolic graders run
in worker processes with hard timeouts and code samples in a sandbox. Nothing in this package
imports Textual or touches the database.
"""
