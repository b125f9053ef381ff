"""Adapters that make every cardrules game usable from other game-AI frameworks.

- :mod:`cardrules.integrations.openspiel`: the four games as OpenSpiel games (extra
  ``cardrules[openspiel]``);
- :mod:`cardrules.integrations.pettingzoo`: the four games as PettingZoo AEC environments
  (extra ``cardrules[pettingzoo]``);
- :mod:`cardrules.integrations.encoding`: what both share, with no dependency: the integer
  action encoding of each game, chance card by card, and the bounds (game length,
  utilities) derived from the rules.
"""
