"""Research environments: panal's games for reinforcement learning and language-model agents.

Needs the ``rl`` extra (``pip install -e ".[rl]"``: gymnasium, pettingzoo, numpy, open_spiel);
the rules engines themselves need nothing. Each module is imported on its own, so importing
this package imports none of them:

* Hive: :mod:`~panal.env.hive_actions` (moves as a fixed discrete action space),
  :mod:`~panal.env.hive_observation` (observation planes, the text view),
  :mod:`~panal.env.hive_render` (an RGB image), :mod:`~panal.env.hive_aec` (PettingZoo AEC,
  ``hive_v0``), :mod:`~panal.env.hive_gym` (a Gymnasium single-agent wrapper),
  :mod:`~panal.env.hive_opponents` (random play, panal's AI levels, any UHP engine),
  :mod:`~panal.env.hive_openspiel` (an OpenSpiel Python game),
  :mod:`~panal.env.hive_text_agents` (language-model agents, a driver and its records);
* Enjambre Tácticas: :mod:`~panal.env.enjambre_actions` (the action space and the table),
  :mod:`~panal.env.enjambre_tensor` (observation vectors), :mod:`~panal.env.enjambre_aec`
  (PettingZoo AEC), :mod:`~panal.env.enjambre_sampler` (hidden numbers drawn consistently
  with a seat's view), :mod:`~panal.env.enjambre_openspiel` (an OpenSpiel Python game),
  :mod:`~panal.env.enjambre_text` (the text view and a play loop for text agents);
* both: :mod:`~panal.env.text_agents` (the text agent, its transcript, asking again with the
  reason).

docs/env.md explains the encodings, with an example of each.
"""
