"""What just happened, in French: the public events of the last moves, told as players tell them.

Pure (no Django). Two steps:

- `public_events(events)`: of the events a move returned, those every seat may see (`visible_to(event,
  None)`), of the kinds told here, with only the fields a sentence needs (small enough to keep a round of
  them with the table). A card drawn from the stock is never among them: the table only learns « a pioché »
  (`draw`), the card itself is in `drawn`, addressed to the drawer alone.
- `turns(entries, names, me=None)`: entries `{"seat": acting seat, "events": public_events(...)}`, oldest
  first, grouped into turns (consecutive moves of one seat) and told as one sentence each:
  « Robot Expert a pris le 7 de cœur dans la défausse, a jeté le Roi de trèfle. »

The events every game shares are told here (`draw`, `take_discard`, `discard`, `pass`, `left`, `burnt`,
`eliminated`, `stock_rebuilt`, `round_void`, `round_over` with a winner, or blocked: the rummies' stock out a
second time, Rummikub's empty pool); each family's own events are told by its module of this package
(engine/narration/<family>.py: `KEPT`, the fields kept of each kind, `PHRASES`, a sentence's parts for each kind,
and optionally `EXTRA`), found by name: adding a family is adding its module. Pieces in words:
engine.narration.words.
"""

import pkgutil
from functools import cache
from importlib import import_module

from engine.base import team_of, visible_to
from engine.narration.words import (  # noqa: F401 - what the site names pieces with, from here as before
    card_words,
    cards_list,
    cards_words,
    piece_noun,
    plural,
)

# The fields kept of each kind every game shares (everything else of the event is dropped).
SHARED_KEPT = {
    "draw": ("seat", "source"),
    "take_discard": ("seat", "card"),
    "discard": ("seat", "card"),
    "pass": ("seat", "reason"),  # Gin: the upcard left; Rummikub (reason "pool_empty"): a turn passed
    "round_over": ("winner", "ending", "points"),
    "left": ("seat",),
    "burnt": ("seat", "total", "left"),
    "eliminated": ("seat", "total", "left"),
    "stock_rebuilt": (),
    "round_void": (),
}
WORDS_MODULE = "words"  # this package's module that is not a family's


@cache
def _families() -> tuple[dict, dict, dict]:
    """(kept, phrases, extra) of every kind, the shared ones and each family module's."""
    kept, phrases, extra = dict(SHARED_KEPT), {}, {}
    for module in pkgutil.iter_modules(__path__):
        if module.name == WORDS_MODULE:
            continue
        family = import_module(f"{__name__}.{module.name}")
        kept.update(family.KEPT)
        phrases.update(family.PHRASES)
        extra.update(getattr(family, "EXTRA", {}))
    return kept, phrases, extra


def forget() -> None:
    """Look for the families' modules again (a test that adds a family of its own)."""
    _families.cache_clear()


def public_events(events: list[dict]) -> list[dict]:
    """The events of a move every seat may see, of the kinds told, with the fields a sentence needs."""
    kept, _phrases, extra = _families()
    out = []
    for evt in events:
        kind = evt.get("kind")
        if kind not in kept or not visible_to(evt, None):
            continue
        small = {"kind": kind}
        for key in kept[kind]:
            if key in evt:
                small[key] = evt[key]
        if kind in extra:
            small.update(extra[kind](evt))
        out.append(small)
    return out


# ---------------------------------------------------------------- one event in words

def phrase(evt: dict, names: dict) -> tuple[int | None, str, str] | None:
    """(subject seat, auxiliary "avoir"/"être", the rest) of one public event; None when nothing is worth
    saying. A subject None makes a sentence of its own (« La pioche est refaite avec la défausse. »)."""
    kind = evt.get("kind")
    seat = evt.get("seat")
    card = evt.get("card")
    if kind == "draw":
        return seat, "avoir", "pioché" if evt.get("source", "stock") == "stock" else "pioché dans la défausse"
    if kind == "take_discard":
        return seat, "avoir", f"pris {card_words(card)} dans la défausse"
    if kind == "discard":
        return seat, "avoir", f"jeté {card_words(card)}"
    if kind == "pass":
        if evt.get("reason") == "pool_empty":  # Rummikub: nothing left to draw, the turn goes on
            return seat, "avoir", "passé {son} tour (la pioche est vide)"
        return seat, "avoir", "laissé la carte retournée"
    if kind == "round_over":
        return _round_over_phrase(evt)
    if kind == "left":
        return seat, "avoir", "quitté la table"
    if kind in ("burnt", "eliminated"):
        if evt.get("left"):
            return None  # « a quitté la table » says it
        total = evt.get("total")
        word = "brûlé" if kind == "burnt" else "éliminé"
        return seat, "être", f"{word} ({total} point{plural(total)})"
    if kind == "stock_rebuilt":
        return None, "", "La pioche est refaite avec la défausse."
    if kind == "round_void":
        return None, "", "Manche annulée : personne ne marque de points."
    told = _families()[1].get(kind)
    return told(evt, names) if told is not None else None


def _round_over_phrase(evt: dict) -> tuple[int | None, str, str] | None:
    """A round won by emptying one's hand; a blocked round: nobody went out (never « a posé toute sa main »)."""
    winner = evt.get("winner")
    if evt.get("ending") == "blocked":
        if winner is not None:  # Rummikub: the pool is empty and everyone passed, the lowest rack wins
            return winner, "avoir", "gagné la manche : plus personne ne peut jouer et {son} chevalet est le plus petit"
        # the table-meld rummies: the stock ran out after its one rebuild (§9)
        counted = any(p for p in evt.get("points") or () if isinstance(p, int))
        how = "chacun compte ses cartes" if counted else "personne n'est sorti ni ne marque de points"
        return None, "", f"La pioche est épuisée une seconde fois : la manche s'arrête, {how}."
    return (winner, "avoir", "posé toute {sa} main") if winner is not None else None


# In a phrase, the subject's possessives: « ton / ta / tes » when it tells the reader's own move.
POSSESSIVES = {"{son}": ("son", "ton"), "{sa}": ("sa", "ta"), "{ses}": ("ses", "tes")}
_AUX = {("avoir", False): "a", ("avoir", True): "as", ("être", False): "est", ("être", True): "es"}


def for_reader(text: str, me: int | None) -> str:
    """A team game's sentence as its reader says it: the engine names the teams « l'équipe A » / « l'équipe B »
    (as a spectator reads them, beside « Équipe A / B »); a seated player, whose table says « Nous / Eux »,
    reads « ton équipe » / « l'équipe adverse »."""
    if me is None or "équipe" not in text:
        return text
    mine = team_of(me)
    for team in ("A", "B"):
        ours = team == mine
        text = text.replace(f"l'équipe {team}", "ton équipe" if ours else "l'équipe adverse")
        text = text.replace(f"L'équipe {team}", "Ton équipe" if ours else "L'équipe adverse")
    return text


def sentence(phrases: list[tuple[int | None, str, str]], names: dict, me: int | None = None) -> str:
    """Phrases told in order; a run of phrases of one subject shares it: « X a pioché, a jeté le 7 de cœur. »"""
    parts: list[str] = []
    subject = object()
    for seat, aux, rest in phrases:
        if seat is None:
            parts.append(for_reader(rest, me).rstrip("."))
            subject = object()
            continue
        you = me is not None and seat == me
        for placeholder, words in POSSESSIVES.items():
            rest = rest.replace(placeholder, words[you])
        verb = f"{_AUX[(aux, you)]} {rest}"
        if seat == subject:
            parts[-1] += f", {'tu ' if you else ''}{verb}"
        else:
            who = "Tu" if you else names.get(seat, f"Place {seat + 1}" if isinstance(seat, int) else "?")
            parts.append(f"{who} {verb}")
            subject = seat
    return ". ".join(parts) + "." if parts else ""


def turns(entries: list[dict], names: dict, me: int | None = None) -> list[dict]:
    """Entries (oldest first, each `{seat, events}`) as turns: `[{seat, text}]`, oldest first; the moves of
    one seat in a row make one turn."""
    return told(grouped(entries, names), names, me)


def grouped(entries: list[dict], names: dict) -> list[tuple[int | None, list]]:
    """The phrases of the entries, a run of one seat's moves together: what `told` tells each reader."""
    out: list[tuple[int | None, list]] = []
    for entry in entries:
        said = [p for p in (phrase(e, names) for e in entry.get("events") or ()) if p is not None]
        if not said:
            continue
        seat = entry.get("seat")
        if out and out[-1][0] == seat:
            out[-1][1].extend(said)
        else:
            out.append((seat, said))
    return out


def told(groups: list[tuple[int | None, list]], names: dict, me: int | None = None) -> list[dict]:
    return [{"seat": seat, "text": sentence(said, names, me)} for seat, said in groups]
