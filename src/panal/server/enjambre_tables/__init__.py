"""Enjambre Tácticas tables, a kind of live room: rows, actions, views, bots."""
