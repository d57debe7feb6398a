"""Grading pipelines: read ungraded replies from the store, run the graders, store verdicts and the queue."""
