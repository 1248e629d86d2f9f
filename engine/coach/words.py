"""What the coach's sentences share: points, pronouns, and the solver's reading of a hand of cards."""

from engine import bots
from engine.narration.words import card_words, plural


def points(n: int) -> str:
    return f"{n} point{plural(n)}"


def pronoun(card: str) -> str:
    """« il » / « elle » for a card named by `card_words` (« la Dame… », « la tuile… »)."""
    return "elle" if card_words(card).startswith("la ") else "il"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Hand:
    """The solver's reading of the seat's hand, through its robot's adapter (card values, least deadwood)."""

    def __init__(self, game, view: dict):
        self.game, self.view = game, view
        self.hand = list(view.get("hand") or [])
        adapter = bots.adapter_for(view.get("game") or game.slug)
        self.adapter = adapter.of(view["game"]) if hasattr(adapter, "of") else adapter
        self.key = self.adapter.rules_key(view)
        values = getattr(game, "values", None)
        self.values = values() if callable(values) else None

    def value(self, card: str) -> int:
        if self.values is not None:
            return self.values.get(card, 0)
        return self.adapter.value(card, self.key)

    def deadwood(self, hand) -> int:
        if self.values is not None:  # table melds: the penalty of the cards the best lay-down leaves
            arrangement = self.game.arrangement(list(hand)) if hand else None
            return arrangement["points"] if arrangement else 0
        return self.adapter.deadwood(hand, self.key)

    def loose(self) -> set[str]:
        """Cards of the hand outside the best arrangement's melds."""
        arrangement = self.view.get("arrangement") or {}
        if "deadwood" in arrangement:
            return set(arrangement["deadwood"])
        return set(self.hand)
