"""The SQLite store: schema, migrations and every SQL statement the project runs."""
