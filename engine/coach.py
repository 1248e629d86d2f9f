"""The coach: what the Expert robot would play now, and why, in one French sentence.

Pure (no Django). `advise(game, view, legal, rng)` asks the Expert bot (`engine.bots.choose`, level 3) for its
move from the seat's own view and legal moves (so the advice knows nothing the player does not), then
`reason(game, view, move)` tells it as players say it: « Défausse le Roi de trèfle : il ne sert à aucune
combinaison et vaut 10 points. » The words follow each family's moves (`game.family`); a move without words
of its own gets its button's label.

`dispositions(game, view)` is the round's end « Meilleure disposition »: for a game whose round end counts the
cards left in hand as they are (`game.disposition`), each hand's best arrangement by the meld solver and the
points it would have left.
"""

import random

from engine import bots, cards
from engine.narration import _meld_noun, _plural, card_words, cards_list, piece_noun

EXPERT = 3


def advise(game, view: dict, legal: list[dict], rng: random.Random, budget=None) -> tuple[dict, str]:
    """(the Expert bot's move among `legal`, a one-line French reason)."""
    move = bots.choose(game, view, legal, EXPERT, rng, budget)
    try:
        text = reason(game, view, move, legal)
    except Exception:  # a sentence must never cost the advice: say the move plainly
        text = ""
    return move, text or _fallback(game, view, move)


def reason(game, view: dict, move: dict, legal: list[dict] | None = None) -> str:
    legal = legal if legal is not None else (view.get("legal") or [])
    explain = FAMILY_REASONS.get(getattr(game, "family", ""), _generic)
    return explain(game, view, move, legal) or _generic(game, view, move, legal)


def _fallback(game, view: dict, move: dict) -> str:
    label = game.action_label(move.get("action", ""), view) if hasattr(game, "action_label") else ""
    label = (label or move.get("action") or "Joue").rstrip(" \u00a0!")
    return f"« {label} » : c'est le coup que jouerait le Robot Expert."


def _generic(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    if len(legal) == 1:
        return f"{_label(game, view, action)} : c'est le seul coup possible."
    return _fallback(game, view, move)


def _label(game, view: dict, action: str) -> str:
    return (game.action_label(action, view) or action).rstrip(" \u00a0!")


def _pronoun(card: str) -> str:
    """« il » / « elle » for a card named by `card_words` (« la Dame… », « la tuile… »)."""
    return "elle" if card_words(card).startswith("la ") else "il"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _points(n: int) -> str:
    return f"{n} point{_plural(n)}"


# ---------------------------------------------------------------- hands of cards (draw-and-discard, table melds)

class _Hand:
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


def _cards_reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    card = move.get("card")
    top = view.get("discard_top")
    hand = _Hand(game, view)
    if action in ("discard", "close", "knock") and card:
        left = hand.deadwood([c for c in hand.hand if c != card])
        value = hand.value(card)
        if action == "close":
            what = "fais Thanasis" if left == 0 else "ferme"
            return (f"{_cap(what)} en jetant {card_words(card)} : il ne te reste que {_points(left)} hors "
                    f"combinaisons.")
        if action == "knock":
            if left == 0:
                return f"Frappe (Gin !) en jetant {card_words(card)} : toutes tes cartes sont en combinaisons."
            return f"Frappe en jetant {card_words(card)} : il ne te reste que {_points(left)} hors combinaisons."
        if card in hand.loose():
            return (f"Défausse {card_words(card)} : {_pronoun(card)} ne sert à aucune combinaison et vaut "
                    f"{_points(value)}.")
        return (f"Défausse {card_words(card)} : c'est la carte dont tu te passes le mieux "
                f"({_points(left)} hors combinaisons ensuite).")
    if action == "draw_stock":
        if top and any(m.get("action") == "take_discard" for m in legal):
            return f"Pioche : {card_words(top)} de la défausse ne t'aide pas assez pour la prendre."
        if len(legal) == 1:
            return "Pioche : c'est le seul coup possible."
        return "Pioche une carte."
    if action == "take_discard" and top:
        now = hand.deadwood(hand.hand)
        after = min(hand.deadwood([c for c in hand.hand + [top] if c != out]) for out in hand.hand)
        if after < now:
            return (f"Prends {card_words(top)} dans la défausse : {_pronoun(top)} te fait passer de {now} à "
                    f"{_points(after)} hors combinaisons.")
        return f"Prends {card_words(top)} dans la défausse : {_pronoun(top)} s'accorde avec ta main."
    if action == "pass" and top:
        return f"Passe : {card_words(top)} ne t'aide pas."
    return _table_meld_reason(game, view, move, legal)


def _table_meld_reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    ids = list(move.get("cards") or [])
    if action == "meld" and ids:
        return (f"Pose {_meld_noun(_meld_kind(ids, move.get('wilds')), len(ids))} : "
                f"{cards_list(ids, move.get('wilds'))}.")
    if action == "lay_off" and ids:
        return f"Ajoute {cards_list(ids, move.get('wilds'))} à une combinaison de la table."
    if action == "swap_joker" and ids:
        return f"Reprends le joker de la table contre {cards_list(ids)} : il te servira dans tes combinaisons."
    if action == "go_out":
        return "Sors : tu poses toute ta main."
    if action == "undo":
        return "Annule ce que tu as préparé : ce n'est pas le bon coup."
    return ""


def _meld_kind(ids: list[str], wilds: dict | None) -> str:
    ranks = {cards.rank_of(c) for c in ids if not cards.is_joker(c)}
    return "set" if len(ranks) <= 1 else "run"


# ---------------------------------------------------------------- tiles (Rummikub), team melds (Canastas)

def _tiles_reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    if action == "end_turn" and move.get("table") is not None:
        before = set(view.get("rack") or view.get("hand") or [])
        on_table = {t for group in move.get("table") or [] for t in (group if isinstance(group, list) else [])}
        placed = len(before & on_table)
        if placed:
            return f"Pose {placed} tuile{_plural(placed)} de ton chevalet et valide."
        return "Valide ton tour."
    if action == "draw_stock":
        return "Pioche : tu ne peux rien poser de bon ce tour-ci."
    if action == "pass":
        return "Passe : tu ne peux rien poser et la pioche est vide."
    return ""


def _pieces(ids: list[str]) -> str:
    return f"{len(ids)} {piece_noun(ids[0] if ids else None)}{_plural(len(ids))}"


def _team_meld_reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    ids = list(move.get("cards") or [])
    if action == "discard" and move.get("card"):
        return (f"Défausse {card_words(move['card'])} : c'est la {piece_noun(move['card'])} qui sert le moins "
                "à ton équipe.")
    if action == "draw_stock":
        return "Pioche : la pile ne vaut pas la peine d'être prise."
    if action == "take_pile":
        return "Prends la pile : elle complète tes combinaisons."
    if action == "meld" and ids:
        return f"Pose {_pieces(ids)} : ton équipe marque leurs points."
    if action == "lay_off" and ids:
        return f"Ajoute {_pieces(ids)} à une combinaison de ton équipe."
    if action == "go_out":
        return "Sors : ton équipe gagne la prime de sortie."
    if action == "answer_go_out":
        return "Réponds « oui » : ton équipe est prête." if move.get("answer") == "yes" else \
            "Réponds « non » : ton équipe n'est pas prête."
    return ""


# ---------------------------------------------------------------- tricks (Thunee)

def _tricks_reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    hand = list(view.get("hand") or [])
    if action == "bid":
        return f"Enchéris {move.get('value')} : ta main est assez forte pour choisir l'atout."
    if action == "pass":
        return "Passe : ce n'est pas le moment d'annoncer."
    if action == "choose_trump" and move.get("suit"):
        suit = move["suit"]
        count = sum(1 for c in hand if not cards.is_joker(c) and cards.suit_of(c) == suit)
        name = cards.SUIT_NAMES_FR.get(suit, suit)
        return f"Choisis l'atout {name} : tu as {count} carte{_plural(count)} de cette couleur."
    if action == "play_card" and move.get("card"):
        return f"Joue {card_words(move['card'])} : c'est la carte qui rapporte le plus à ton équipe ici."
    if action == "declare_jodhi":
        return f"Annonce ton Jodhi ({cards_list(move.get('cards') or [])}) : il rapporte des points."
    if action == "jodhi_done":
        return "Termine : tu n'as plus de Jodhi à annoncer."
    return ""


FAMILY_REASONS = {
    "cards": _cards_reason,
    "table_meld": _cards_reason,
    "tiles": _tiles_reason,
    "team_meld": _team_meld_reason,
    "tricks": _tricks_reason,
}


# ---------------------------------------------------------------- the round's end: « Meilleure disposition »

def dispositions(game, view: dict) -> list[dict] | None:
    """Each hand of the round that just ended, arranged at best by the solver: `[{seat, melds, deadwood,
    points, counted}]` (`counted`: the points the hand was charged). None for a game whose round end already
    shows every hand arranged (`game.disposition` None), or outside a round's end."""
    dispose = getattr(game, "disposition", None)
    last = view.get("last_round")
    if dispose is None or not last:
        return None
    out = []
    for player in last.get("players") or []:
        hand = list(player.get("hand") or player.get("deadwood") or [])
        if not hand:
            continue
        best = dispose(hand)
        if best is None:
            continue
        out.append({"seat": player["seat"], "melds": [list(m) for m in best["melds"]],
                    "deadwood": list(best["deadwood"]), "points": best["points"],
                    "counted": player.get("deadwood_points")})
    return out or None
