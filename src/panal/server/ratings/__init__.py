"""Ratings: Glicko-2 for Hive games, and the multiplayer rating of Enjambre tables."""

from panal.server.ratings.glicko2 import Glicko2, TableRating, rate_game, rate_table

__all__ = ["Glicko2", "TableRating", "rate_game", "rate_table"]
