"""The web platform: ``panal serve`` plays Hive in the browser.

* :mod:`panal.server.commands` registers the ``serve`` subcommand (no heavy imports).
* :mod:`panal.server.app` builds the FastAPI application: HTTP API, websockets, static UI.
* :mod:`panal.server.hive_games.games` keeps the games being played in memory and fans moves out.
* :mod:`panal.server.database.store` writes every game and move to the database as it happens.
* :mod:`panal.server.hive_games.ai_pool` runs AI searches in worker processes, off the event loop.
* :mod:`panal.server.hive_games.snapshot` turns a game into the JSON the browser draws.

The server never decides what is legal: :class:`panal.hive.Game` does.
"""
