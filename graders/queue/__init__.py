"""The queue stage: which graded replies a person should read (`disputes`), the pattern each
queued reply shows (`patterns`, `pattern_rules`, `pattern_forms`), the keys that look mangled
(`suspect_keys`), and `explain` (one reply's grading and why it is queued)."""
