"""Research environments: the games of panal as PettingZoo and OpenSpiel environments.

Needs the ``rl`` extra (gymnasium, pettingzoo, numpy; open_spiel for the OpenSpiel games).
"""
