"""Players: accounts, sessions and the player store."""
