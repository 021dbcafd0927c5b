"""Research environments: panal's games for reinforcement learning and language-model agents.

Needs the ``rl`` extra (``pip install -e ".[rl]"``: gymnasium, pettingzoo, numpy); the rules
engines themselves need nothing. Each module is imported on its own, so importing this package
imports none of them:

* :mod:`panal.env.hive_actions`: Hive moves as a fixed discrete action space (pure Python);
* :mod:`panal.env.hive_observation`: observation planes and the text view of a seat;
* :mod:`panal.env.hive_render`: a Hive position as an RGB image (numpy only);
* :mod:`panal.env.hive_aec`: Hive as a PettingZoo AEC environment (``hive_v0``);
* :mod:`panal.env.hive_gym`: a Gymnasium single-agent wrapper against any opponent;
* :mod:`panal.env.hive_opponents`: random play, panal's AI levels, any UHP engine;
* :mod:`panal.env.hive_openspiel`: Hive registered as an OpenSpiel Python game;
* :mod:`panal.env.hive_text_agents`: language-model agents, a driver and its records.

docs/env.md explains the encodings, with an example of each.
"""
