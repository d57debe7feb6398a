"""Importers: read benchmark problems and model replies from the formats people have."""
