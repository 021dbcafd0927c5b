"""Hive games, a kind of live room: rows, actions, views, AI and records."""
