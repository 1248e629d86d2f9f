"""The Expert's determinizations (`engine.bots.table_meld.expert`): the hidden cards dealt as this seat saw them.

`determinize` deals the other hands (their sizes are public) and the stock from the cards this seat has
not seen (deck minus its hand, the table and the discard pile), each hand improved over its owner's past
turns (`past_turns`: he kept the best of what he drew), with no card an opened player would have laid
and no opening a player not yet opened would have made. The rollouts (`engine.bots.table_meld.rollout`)
play the candidates out in these deals.
"""

from engine import cards
from engine.bots.table_meld.basic import Seen, Spec, fits_table
from engine.bots.table_meld.geometry import Geometry
from engine.bots.table_meld.quick_melds import QuickMelds

PAST_TURNS_CAP = 8  # past turns replayed when dealing another hand
DEAL_TRIES = 3  # deals of a hand before accepting one that contradicts what the seat saw


def past_turns(spec: Spec, seen: Seen) -> int:
    """Turns each player has played this round (from the cards gone from the stock), capped."""
    players = max(1, len(seen.active))
    dealt = len(spec.deck) - players * spec.hand_size - 1
    if seen.view.get("stock_rebuilds"):
        return PAST_TURNS_CAP
    return min(PAST_TURNS_CAP, max(0, dealt - seen.stock_count) // players)


def determinize(geo: Geometry, quick: QuickMelds, seen: Seen, unseen: list[str], rng) -> tuple[dict, list]:
    """Other hands and the stock, dealt from the unseen cards. A hand is not a random one: its owner
    kept the best of what he drew, so it is dealt, then improved over his past turns with random
    draws (a card with more partial melds replaces his loosest one); an opened player holds no card
    that fits the table nor a meld (he would have laid them); a player not yet opened holds less than
    the threshold (he would have opened)."""
    spec = geo.spec
    g = geo
    pool = list(unseen)
    rng.shuffle(pool)
    hands = {}
    table = seen.table
    past = past_turns(spec, seen)
    for s in seen.opponents():
        size = seen.hand_counts.get(s, 0)
        opened = spec.threshold is None or seen.opened[s]
        hand = [pool.pop() for _ in range(min(size, len(pool)))]
        if opened and table:
            for i, c in enumerate(hand):  # he would have laid it off
                for _ in range(DEAL_TRIES):
                    if not fits_table(spec, table, c) or not pool:
                        break
                    j = rng.randrange(len(pool))
                    pool[j], c = c, pool[j]
                hand[i] = c
        for _ in range(past if len(hand) >= 2 else 0):
            if not pool:
                break
            j = rng.randrange(len(pool))
            drawn = pool[j]
            worst = max(hand, key=lambda c: (-g.partners(c, hand), g.info[c][2], cards.sort_key(c)))
            rest = [c for c in hand if c != worst]
            if g.partners(drawn, rest) <= g.partners(worst, rest):
                continue
            if opened and (g.makes_meld(drawn, rest) or (table and fits_table(spec, table, drawn))):
                continue
            pool[j] = worst
            hand = [*rest, drawn]
        if not opened and size >= 3:
            for _ in range(DEAL_TRIES - 1):  # he would have opened with this hand
                if quick.plan(hand, "points").points < spec.threshold or len(pool) < size:
                    break
                pool[:0] = hand
                hand = [pool.pop() for _ in range(size)]
        hands[s] = hand
    rng.shuffle(pool)
    stock = pool[-seen.stock_count:] if seen.stock_count else []
    return hands, stock
