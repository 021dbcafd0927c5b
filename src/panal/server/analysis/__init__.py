"""A kind of live room: the analysis board and game reviews (see docs/web.md)."""
