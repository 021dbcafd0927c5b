"""The Universal Hive Protocol: panal as an engine and as a client of engines.

* :mod:`panal.uhp.engine`: :class:`~panal.uhp.engine.PanalEngine`, panal's own engine answering
  UHP one line at a time (``panal uhp`` runs it on stdin/stdout);
* :mod:`panal.uhp.client`: :class:`~panal.uhp.client.UhpClient` (asyncio) and
  :class:`~panal.uhp.client.SimpleEngine` (blocking), to talk to any UHP engine;
* :mod:`panal.uhp.arena`: matches between two engines, refereed by panal's rules;
* :mod:`panal.uhp.players`: baseline opponents (random, greedy) speaking UHP.
"""
