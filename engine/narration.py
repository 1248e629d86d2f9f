"""What just happened, in French: the public events of the last moves, told as players tell them.

Pure (no Django). Two steps:

- `public_events(events)`: of the events a move returned, those every seat may see (`visible_to(event,
  None)`), of the kinds told here, with only the fields a sentence needs (small enough to keep a round of
  them with the table). A card drawn from the stock is never among them: the table only learns « a pioché »
  (`draw`), the card itself is in `drawn`, addressed to the drawer alone.
- `turns(entries, names, me=None)`: entries `{"seat": acting seat, "events": public_events(...)}`, oldest
  first, grouped into turns (consecutive moves of one seat) and told as one sentence each:
  « Robot Expert a pris le 7 de cœur dans la défausse, a jeté le Roi de trèfle. »

The words follow each family's events (engine/README.md): the draw-and-discard games (`draw`,
`take_discard`, `discard`, `left`, `stock_rebuilt`, `round_void`), Thanasis (`close`, `burnt`), Gin (`pass`,
`knock`, `gin`, `undercut`, `eliminated`) and the table-meld rummies (`meld`, `lay_off`, `swap_joker`,
`opened`, `take_undone`, `go_out`, `round_over` with a winner, or blocked: the rummies' stock out a second time,
Rummikub's empty pool).
"""

from engine import cards
from engine.base import team_of, visible_to
from engine.games import _tiles

# The fields kept of each kind told (everything else of the event is dropped).
KEPT = {
    "draw": ("seat", "source"),
    "take_discard": ("seat", "card"),
    "discard": ("seat", "card"),
    "close": ("seat", "card", "thanasis", "first_turn"),
    "knock": ("seat", "card", "deadwood_points"),
    "gin": ("seat",),
    "undercut": ("seat", "knocker"),
    "pass": ("seat", "reason"),  # Gin: the upcard left; Rummikub (reason "pool_empty"): a turn passed
    "meld": ("seat", "cards", "wilds", "meld_kind", "points"),
    "lay_off": ("seat", "cards", "wilds"),
    "swap_joker": ("seat", "cards", "joker"),
    "opened": ("seat", "points"),
    "take_undone": ("seat", "card"),
    "go_out": ("seat",),
    "table": ("seat", "placed"),  # Rummikub: a turn committed, `placed` the rack tiles it laid
    "round_over": ("winner", "ending", "points"),
    "left": ("seat",),
    "burnt": ("seat", "total", "left"),
    "eliminated": ("seat", "total", "left"),
    "stock_rebuilt": (),
    "round_void": (),
    # partnership Canastas (engine/games/_canasta.py)
    "take_pile": ("seat", "card", "count"),
    "team_meld": ("seat", "pieces", "rank", "points"),
    "team_lay_off": ("seat", "pieces", "rank"),
    "canasta": ("seat", "canasta", "material"),
    "red_three": ("seat", "card"),
    "ask_go_out": ("seat",),
    "answer_go_out": ("seat", "answer"),
    "decline_pile": ("seat",),
    # trick games (Thunee)
    "bid": ("seat", "value"),
    "bid_pass": ("seat",),
    "redeal": (),
    "trump": ("seat", "suit", "by"),
    "thunee": ("seat",),
    "blind_thunee": ("seat",),
    "play": ("seat", "card"),
    "trick": ("winner", "points"),
    "jodhi": ("seat", "cards", "points"),
    "double": ("seat",),
    "khanuck": ("seat",),
    "deal_over": ("reason",),
}


def public_events(events: list[dict]) -> list[dict]:
    """The events of a move every seat may see, of the kinds told, with the fields a sentence needs."""
    out = []
    for evt in events:
        kind = evt.get("kind")
        if kind not in KEPT or not visible_to(evt, None):
            continue
        small = {"kind": kind}
        for key in KEPT[kind]:
            if key in evt:
                small[key] = evt[key]
        if kind in ("lay_off", "swap_joker") and isinstance(evt.get("meld"), dict):
            small["owner"] = evt["meld"].get("owner")
            small["meld_kind"] = evt["meld"].get("kind")
        out.append(small)
    return out


# ---------------------------------------------------------------- cards in words

def card_words(card: str) -> str:
    """« le Roi de trèfle », « la Dame de cœur », « l'As de pique », « le 7 de carreau », « un joker »;
    a tile: « la tuile 7 rouge »."""
    if card in _tiles.TILE_SET:
        if _tiles.is_joker(card):
            return "un joker"
        return f"la tuile {_tiles.number_of(card)} {_tiles.COLOUR_NAME_F[card[0]]}"
    if cards.is_joker(card):
        return "un joker"
    name = cards.name_fr(card)
    rank = cards.rank_of(card)
    if rank == "A":
        return "l'" + name
    if rank == "Q":
        return "la " + name
    return "le " + name


def _face_name(face: str) -> str:
    return cards.name_fr(face + "1")


def cards_list(ids: list[str], wilds: dict | None = None) -> str:
    """« 7 de cœur, 8 de cœur, joker (9 de cœur) »."""
    wilds = wilds or {}
    return ", ".join(f"joker ({_face_name(wilds[c])})" if c in wilds else cards.name_fr(c) for c in ids)


def cards_words(ids: list[str], wilds: dict | None = None) -> str:
    """« le 7 de cœur, le 8 de cœur et un joker (9 de cœur) »: cards named in a sentence, with their articles."""
    wilds = wilds or {}
    words = [f"un joker ({_face_name(wilds[c])})" if c in wilds else card_words(c) for c in ids]
    return " et ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def _meld_noun(kind: str | None, count: int) -> str:
    if kind == "run":
        return "une suite"
    return "un carré" if count == 4 else "un brelan" if count == 3 else "une combinaison"


def _plural(n) -> str:
    return "s" if isinstance(n, int) and abs(n) > 1 else ""


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
    if kind == "close":
        how = "fait Thanasis" if evt.get("thanasis") else "fermé"
        if evt.get("first_turn"):
            how += " d'entrée"
        return seat, "avoir", f"{how} en jetant {card_words(card)}"
    if kind == "knock":
        points = evt.get("deadwood_points")
        rest = f" ({points} point{_plural(points)} hors combinaisons)" if points else ""
        return seat, "avoir", f"frappé en jetant {card_words(card)}{rest}"
    if kind == "gin":
        return seat, "avoir", "fait Gin"
    if kind == "undercut":
        return seat, "avoir", f"contré {names.get(evt.get('knocker'), 'celui qui a frappé')} (undercut)"
    if kind == "pass":
        if evt.get("reason") == "pool_empty":  # Rummikub: nothing left to draw, the turn goes on
            return seat, "avoir", "passé {son} tour (la pioche est vide)"
        return seat, "avoir", "laissé la carte retournée"
    if kind == "meld":
        ids = evt.get("cards") or []
        points = evt.get("points")
        worth = f" ({points} point{_plural(points)})" if points else ""
        noun = _meld_noun(evt.get("meld_kind"), len(ids))
        return seat, "avoir", f"posé {noun}{worth} : {cards_list(ids, evt.get('wilds'))}"
    if kind == "lay_off":
        owner = evt.get("owner")
        whose = "une de {ses} combinaisons" if owner == seat else (
            f"une combinaison de {names[owner]}" if owner in names else "une combinaison")
        return seat, "avoir", f"ajouté {cards_words(evt.get('cards') or [], evt.get('wilds'))} à {whose}"
    if kind == "swap_joker":
        return seat, "avoir", f"repris un joker contre {cards_words(evt.get('cards') or [])}"
    if kind == "opened":
        points = evt.get("points")
        return seat, "avoir", f"fait {{sa}} première pose ({points} point{_plural(points)})"
    if kind == "take_undone":
        return seat, "avoir", f"reposé {card_words(card)} sur la défausse"
    if kind == "go_out":
        return seat, "être", "sorti"
    if kind == "table":
        placed = len(evt.get("placed") or ())
        return seat, "avoir", f"posé {placed} tuile{_plural(placed)}"
    if kind in CANASTA_PHRASES:
        return seat, "avoir", CANASTA_PHRASES[kind](evt)
    if kind == "round_over":
        return _round_over_phrase(evt)
    if kind == "left":
        return seat, "avoir", "quitté la table"
    if kind in ("burnt", "eliminated"):
        if evt.get("left"):
            return None  # « a quitté la table » says it
        total = evt.get("total")
        word = "brûlé" if kind == "burnt" else "éliminé"
        return seat, "être", f"{word} ({total} point{_plural(total)})"
    if kind == "stock_rebuilt":
        return None, "", "La pioche est refaite avec la défausse."
    if kind == "round_void":
        return None, "", "Manche annulée : personne ne marque de points."
    return _trick_phrase(kind, evt, seat)


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


def _trick_phrase(kind: str, evt: dict, seat) -> tuple[int | None, str, str] | None:
    """The trick games' events (Thunee)."""
    if kind == "bid":
        return seat, "avoir", f"annoncé {evt.get('value')}"
    if kind == "bid_pass":
        return seat, "avoir", "passé"
    if kind == "redeal":
        return None, "", "Tout le monde a passé : nouvelle donne par le même donneur."
    if kind == "trump":
        suit = cards.SUIT_NAMES_FR.get(evt.get("suit"), "?")
        if evt.get("by") == "lead":
            return None, "", f"L'atout est {suit}."
        return seat, "avoir", f"choisi l'atout {suit}"
    if kind in ("thunee", "blind_thunee", "double", "khanuck"):
        call = {"thunee": "Thunee", "blind_thunee": "Thunee aveugle", "double": "Double", "khanuck": "Khanuck"}
        return seat, "avoir", f"annoncé {call[kind]} !"
    if kind == "play":
        return seat, "avoir", f"joué {card_words(evt.get('card'))}"
    if kind == "trick":
        points = evt.get("points")
        return evt.get("winner"), "avoir", f"pris le pli ({points} point{_plural(points)})"
    if kind == "jodhi":
        points = evt.get("points")
        return seat, "avoir", f"annoncé un Jodhi ({cards_list(evt.get('cards') or [])} : {points} points)"
    if kind == "deal_over":
        return None, "", evt.get("reason") or "Donne terminée."
    return None


def piece_noun(piece: str | None) -> str:
    """« tuile » for a tile, « carte » for a card: the word a piece of this game is called by."""
    return "tuile" if piece in _tiles.TILE_SET else "carte"


def _count_words(count, piece: str | None) -> str:
    """« 5 cartes » / « 1 tuile »."""
    return f"{count} {piece_noun(piece)}{_plural(count)}"


def _pieces_words(ids: list) -> str:
    """« 3 cartes » / « 3 tuiles »."""
    return _count_words(len(ids), ids[0] if ids else None)


# Each rule set's own words (canasta.md: naturelle / mixte; canasta-tuiles.md: propre / sale, de 2).
_CANASTA_KIND = {
    "cards": {"clean": "naturelle", "dirty": "mixte"},
    "tiles": {"clean": "propre", "dirty": "sale", "twos_clean": "de 2 propre", "twos_dirty": "de 2 sale"},
}
CANASTA_PHRASES = {
    "take_pile": lambda e: f"pris la pile ({_count_words(e.get('count'), e['card'])}, avec "
                           f"{card_words(e['card'])})" if e.get("card") else "pris la pile",
    "team_meld": lambda e: f"posé {_pieces_words(e.get('pieces') or [])} ({e.get('points', 0)} points)",
    "team_lay_off": lambda e: f"ajouté {_pieces_words(e.get('pieces') or [])} à une combinaison de {{son}} équipe",
    "canasta": lambda e: f"fermé une canasta "
                         f"{_CANASTA_KIND.get(e.get('material'), {}).get(e.get('canasta'), '')}".rstrip(),
    "red_three": lambda e: f"étalé {card_words(e['card'])}" if e.get("card") else "étalé un 3",
    "ask_go_out": lambda e: "demandé « Partenaire, puis-je sortir ? »",
    "answer_go_out": lambda e: "répondu « oui »" if e.get("answer") == "yes" else "répondu « non »",
    "decline_pile": lambda e: "laissé la pile : la pioche est vide, la manche s'arrête",
}


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
