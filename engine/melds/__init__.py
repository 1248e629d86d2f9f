"""Exact, generic meld solver: best arrangement, least deadwood, discards, lay-offs.

Rules are parameters (`MeldRules`); `thanasis_rules` and `gin_rules` build the two current games'.
"""

from engine.melds.arrange import Arrangement, best_arrangement
from engine.melds.layoffs import best_with_layoffs
from engine.melds.rules import MeldRules, card_value, gin_rules, thanasis_rules
from engine.melds.solver import best_discards, deadwood
from engine.melds.validity import is_valid_meld

__all__ = [
    "Arrangement",
    "MeldRules",
    "best_arrangement",
    "best_discards",
    "best_with_layoffs",
    "card_value",
    "deadwood",
    "gin_rules",
    "is_valid_meld",
    "thanasis_rules",
]
