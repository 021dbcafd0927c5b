"""The trainer: puzzles (from :mod:`panal.puzzles`) with per-player Glicko-2 ratings, a streak
and a puzzle of the day, and the tutorial's lessons (a concern of its own, not a live room: a
puzzle or a lesson has one player and nothing to share, so every request carries its line)."""
