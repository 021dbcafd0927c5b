"""Hive puzzles mined from real games (the API comes in the next commit)."""
