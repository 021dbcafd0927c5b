"""The database layer: engine, threads, the one-statement write path, migrations."""
