"""Tournaments of Hive games (round robin, Swiss, arena) and Enjambre series (issue 22).

``pairing.py`` and ``standings.py`` are pure functions over plain data; ``tournament_store.py``
keeps the tournaments in the database, ``tournaments.py`` runs them (the periodic tick that
starts, pairs and advances them through compare-and-set), ``routes.py`` is their HTTP API and
websocket, ``series.py`` a series' seating and its tables' places as pairwise results. Games are
created like a lobby challenge's and played as any Hive game; a series' tables through
``panal.server.enjambre_tables.series``.
"""
