"""adjudicate: turn "the grader said so" into "a person read it"."""

__version__ = "0.1.0"
