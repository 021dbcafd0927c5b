"""What a committed change of an online game tells its players (:mod:`panal.server.notifications`):
a correspondence move, the other side's turn; a draw, a rematch or a takeback offered, the other
side. A game's live players see it on the board already; the notice reaches their other pages
and, where they want it, their phones."""

from __future__ import annotations

from panal.server.hive_games.actions import GameChange
from panal.server.hive_games.live import LiveGame
from panal.server.notifications.notifications import notify
from panal.server.runtime.runtime import Runtime

__all__ = ["notify_players"]

#: A game's columns holding an offer's colour; each is also the kind of notice its offer sends.
OFFERS = ("draw_offer", "rematch_offer", "takeback_offer")


def notify_players(runtime: Runtime, live: LiveGame, change: GameChange) -> None:
    """After ``change`` was committed (and applied to ``live``)."""
    row = live.row
    users = row.users()
    if row.mode != "online" or None in users:
        return
    url = f"/game/{row.id}"
    for offer in OFFERS:
        offerer = change.values.get(offer)
        if isinstance(offerer, int) and offerer in (0, 1):
            notify(runtime, users[1 - offerer], offer, url=url, by=users[offerer])
    control = row.control
    correspondence = control is not None and control.kind == "correspondence"
    if change.add_moves and correspondence and not live.is_finished:
        mover = 1 - live.turn
        notify(runtime, users[live.turn], "your_turn", url=url, by=users[mover])
