"""The three bot levels, written once for every draw-and-discard game (through an `Adapter`).

- Level 1 « Débutant »: keeps the melds of the best arrangement, throws the highest useless card,
  takes a discard only when it completes a meld, closes or knocks as soon as it may.
  It keeps pairs and near-runs whatever is dead, and one discard in four is a random loose card.
- Level 2 « Confirmé »: greedy on the exact solver: the discard leaving the least deadwood (plus what
  the game counts it gives the next player, `Adapter.discard_risks`), ties broken by live potential
  (pairs and near-runs whose completing cards are not dead), takes a
  discard whenever it lowers the best deadwood, closes or knocks as soon as it may.
- Level 3 « Expert »: determinized Monte Carlo search (`engine.bots.search`) over the decisions the
  adapter lists (Gin: take the discard or not, knock or not), starting from the level-2 choice and
  leaving it only when the playouts say so clearly; or the adapter's own `expert` (Thanasis: the
  discard whose next draw fares best, weighed exactly).
"""

from engine import cards
from engine.bots.base import Adapter, Knowledge, Moves

DRAW_ACTIONS = ("draw_stock", "take_discard", "pass")
BEGINNER_SLIP = 0.25  # level 1 throws a random loose card this often


def decide(adapter: Adapter, view: dict, moves: Moves, level: int, rng, budget) -> dict:
    """The move of a bot of `level` (1, 2, 3) among `moves` (never empty)."""
    if len(moves.legal) == 1:
        return moves.legal[0]
    if moves.has("next_round"):
        return moves.first("next_round")
    own = getattr(adapter, "decide", None)
    if own is not None:  # a game whose turn is not one draw and one discard plays its own levels
        return own(view, moves, level, rng, budget)
    key = adapter.rules_key(view)
    know = adapter.knowledge(view)
    if level >= 3:
        own_expert = getattr(adapter, "expert", None)
        if own_expert is not None:  # a game whose expert weighs its moves without playouts
            move = own_expert(view, know, moves, key)
        else:
            from engine.bots import search

            move = search.expert(adapter, view, know, moves, key, rng, budget)
        if move is not None:
            return move
    if _is_draw_decision(moves):
        return draw_choice(adapter, know, moves, key, level)
    return discard_choice(adapter, view, know, moves, key, level, rng)


def _is_draw_decision(moves: Moves) -> bool:
    return any(moves.has(a) for a in DRAW_ACTIONS) and not moves.has("discard")


# ---------------------------------------------------------------- drawing


def take_gain(adapter: Adapter, know: Knowledge, key) -> tuple[int, int, str | None]:
    """(deadwood now, best deadwood after taking the top discard, the discard that reaches it).

    The taken card itself may not be thrown back in the same turn (Gin §10), so it is left out.
    """
    top = know.top
    now = adapter.deadwood(know.hand, key)
    if top is None:
        return now, now, None
    left = adapter.discards(know.hand + [top], key)
    card = min((c for c in left if c != top), key=lambda c: (left[c], -adapter.value(c, key), cards.sort_key(c)))
    return now, left[card], card


def draw_choice(adapter: Adapter, know: Knowledge, moves: Moves, key, level: int) -> dict:
    take = moves.first(adapter.take_action)
    fallback = moves.first("draw_stock") or moves.first("pass") or moves.legal[0]
    if take is None or know.top is None:
        return fallback
    now, after, _ = take_gain(adapter, know, key)
    if after >= now:
        return fallback
    if level <= 1 or not adapter.take_to_lower_deadwood:
        arr = adapter.arrangement(know.hand + [know.top], key)
        if not any(know.top in m for m in arr.melds):
            return fallback  # a beginner (and in Gin everyone) takes a discard only to complete a meld
    return take


# ---------------------------------------------------------------- discarding, closing, knocking


def discard_choice(adapter: Adapter, view: dict, know: Knowledge, moves: Moves, key, level: int, rng) -> dict:
    ends = moves.by_card(adapter.end_action)
    hand = know.hand
    if ends:
        left = adapter.discards(hand, key)
        card = min(ends, key=lambda c: (left[c], -adapter.value(c, key), cards.sort_key(c)))
        return adapter.end_move(ends[card], know, key, level)
    options = moves.by_card("discard")
    if not options:
        return moves.legal[0]
    if level <= 1:
        return options[beginner_discard(adapter, hand, list(options), key, rng)]
    return options[confirmed_discard(adapter, know, list(options), key)]


def beginner_discard(adapter: Adapter, hand: list[str], allowed: list[str], key, rng) -> str:
    """How a beginner discards: keep the melds, the wilds, and every pair or near-run (hoping to
    complete it, whatever has been discarded); throw the highest card that is none of these.
    Ties at random. If every loose card belongs to a pair or near-run, throw the highest of them."""
    arr = adapter.arrangement(hand, key)
    loose = [c for c in arr.deadwood if c in allowed and not adapter.is_wild(c, key)]
    if not loose:
        left = adapter.discards(hand, key)
        best = min(left[c] for c in allowed)
        loose = [c for c in allowed if left[c] == best]
    if rng.random() < BEGINNER_SLIP:
        return rng.choice(sorted(loose, key=cards.sort_key))  # a beginner does not always see the best
    drawing = {a for a in loose for b in loose if a != b and adapter.partial_outs(a, b)}
    useless = [c for c in loose if c not in drawing] or loose
    top = max(adapter.value(c, key) for c in useless)
    return rng.choice(sorted((c for c in useless if adapter.value(c, key) == top), key=cards.sort_key))


def confirmed_order(adapter: Adapter, know: Knowledge, allowed: list[str], key) -> list[str]:
    """Discards best first: least deadwood left, then most live potential, then highest value."""
    left = adapter.discards(know.hand, key)
    live = adapter.face_counts(adapter.unseen(know), key)
    best = min(left[c] for c in allowed)
    pot: dict[str, float] = {}
    for c in allowed:
        if left[c] <= best + adapter.potential_margin:
            rest = list(know.hand)
            rest.remove(c)
            pot[c] = adapter.potential(rest, key, live)

    risk = adapter.discard_risks(know, allowed, key)

    def order(c):
        return (left[c] - adapter.potential_weight * pot.get(c, 0.0) + risk.get(c, 0.0), left[c], -pot.get(c, 0.0),
                -adapter.value(c, key), cards.sort_key(c))

    return sorted(allowed, key=order)


def confirmed_discard(adapter: Adapter, know: Knowledge, allowed: list[str], key) -> str:
    return confirmed_order(adapter, know, allowed, key)[0]
