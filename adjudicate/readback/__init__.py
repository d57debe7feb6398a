"""Readings written back into the files replies came from (`adjudicate export --format
inspect|lighteval|generic`): a copy of each file, never the original."""
