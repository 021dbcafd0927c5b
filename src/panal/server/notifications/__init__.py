"""Notifications: a notice to a player, shown live on each of their pages, kept until read,
and pushed to their browsers (Web Push), as their switches say. See :mod:`.notifications`."""
