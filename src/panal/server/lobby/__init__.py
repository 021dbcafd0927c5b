"""The lobby: open challenges and games being played."""
