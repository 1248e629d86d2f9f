"""Thunee's reference: the plain partnership play of the players' guides. Bid the minimum only with a strong
trump holding in the first four cards (the J of a suit with at least one more card of that suit), never
over the partner, raise an opponent to 90 at most and only with J + 9 + another; name the strongest suit as
trumps. In play: lead the master trump while the opponents may still hold trumps (declaring side), else a
master card of another suit, else the lowest card; when following, win the trick with the cheapest card that
takes it unless the partner is already winning, otherwise throw the lowest card. Declare the best Jodhi when
the side holds the contract (it counts towards the bid); call Double only when its last card is the master
trump; never a Thunee (unless all six cards are of one suit: certain), a blind Thunee or a Khanuck."""

import random

from bench.reference.common import first, of
from engine.games import _tricks as tr
from engine.games import thunee as rules


def _order(view: dict) -> tr.RankOrder:
    return rules.ROYALS if view["options"].get("royals") else rules.ORDER


def _suit_cards(hand: list[str], suit: str) -> list[str]:
    return [c for c in hand if tr.suit(c) == suit]


def _strong(hand: list[str], suit: str, order: tr.RankOrder) -> int:
    """0: no bid; 1: a strong holding (the top trump and another of its suit); 2: the top two and another."""
    mine = {tr.rank(c) for c in _suit_cards(hand, suit)}
    top, second = order.trump[0], order.trump[1]
    if top not in mine or len(mine) < 2:
        return 0
    return 2 if second in mine and len(mine) >= 3 else 1


def _bid(view: dict, legal: list[dict]) -> dict:
    order = _order(view)
    hand = view["hand"]
    strength = max(_strong(hand, s, order) for s in tr.SUITS)
    high = view.get("high")
    bids = sorted(of(legal, "bid"), key=lambda m: m["value"])
    if strength and bids:
        if high is None:
            return bids[0]
        partner_holds = high["seat"] == view["partner"]
        if not partner_holds and strength == 2 and bids[0]["value"] <= 90:
            return bids[0]
    return first(legal, "pass")


def _trump(view: dict, legal: list[dict]) -> dict:
    order = _order(view)
    hand = view["hand"]

    def strength(move):
        suit = move["suit"]
        mine = _suit_cards(hand, suit)
        return (sum(order.trump_points[tr.rank(c)] for c in mine) + 10 * len(mine), -tr.SUITS.index(suit))

    return max(of(legal, "choose_trump"), key=strength)


def _played(view: dict) -> set[str]:
    seen = {p["card"] for t in view.get("tricks") or [] for p in t["cards"]}
    if view.get("trick"):
        seen |= {p["card"] for p in view["trick"]["cards"]}
    return seen


def _unseen(view: dict) -> set[str]:
    """Cards neither played nor in my hand: in the other three hands (or a blind caller's unseen two)."""
    return set(rules.DECK) - _played(view) - set(view["hand"])


def _is_master(card: str, view: dict, trump: str | None, order: tr.RankOrder) -> bool:
    """No unseen card of its suit ranks above it."""
    s = tr.suit(card)
    pos = order.position(card, trump)
    return all(order.position(c, trump) > pos for c in _unseen(view) if tr.suit(c) == s)


def _throw_key(card: str, trump: str | None, order: tr.RankOrder) -> tuple:
    """The lowest card to throw: a non-trump before a trump, the fewest card points, then the lowest rank."""
    return (tr.suit(card) == trump, order.points(card, trump), -order.position(card, trump),
            tr.SUITS.index(tr.suit(card)))


def _lead(view: dict, cards: list[str], trump: str | None, order: tr.RankOrder) -> str:
    if trump is None:  # a Thunee caller's first lead names trumps: his longest suit's top card
        suit = max(tr.SUITS, key=lambda s: len(_suit_cards(cards, s)))
        return min(_suit_cards(cards, suit), key=lambda c: order.position(c, suit))
    trumps = [c for c in cards if tr.suit(c) == trump]
    outside_trumps = any(tr.suit(c) == trump for c in _unseen(view))
    declaring = view.get("declarers") == view["team"] or view.get("caller") == view["seat"]
    if trumps and outside_trumps and declaring:
        top = min(trumps, key=lambda c: order.position(c, trump))
        if _is_master(top, view, trump, order):
            return top
    masters = [c for c in cards if tr.suit(c) != trump and _is_master(c, view, trump, order)]
    if masters:
        return max(masters, key=lambda c: (order.points(c, trump), -tr.SUITS.index(tr.suit(c))))
    return min(cards, key=lambda c: _throw_key(c, trump, order))


def _follow(view: dict, cards: list[str], trump: str | None, order: tr.RankOrder) -> str:
    plays = view["trick"]["cards"]
    led = tr.suit(plays[0]["card"])
    best = max(plays, key=lambda p: order.strength(p["card"], trump, led))
    throw = min(cards, key=lambda c: _throw_key(c, trump, order))
    if best["seat"] == view["partner"] or view.get("caller") == view["partner"]:
        return throw  # the partner's trick, or his Thunee: a trick won by me would sink it
    bar = order.strength(best["card"], trump, led)
    winners = [c for c in cards if order.strength(c, trump, led) > bar]
    if not winners:
        return throw
    return min(winners, key=lambda c: (order.strength(c, trump, led), order.points(c, trump)))


def _play(view: dict, legal: list[dict]) -> dict:
    order = _order(view)
    trump = view.get("trump")
    cards = [m["card"] for m in of(legal, "play_card")]
    plays = view["trick"]["cards"] if view.get("trick") else []
    card = _follow(view, cards, trump, order) if plays else _lead(view, cards, trump, order)
    return {"action": "play_card", "card": card}


def _jodhi(view: dict, legal: list[dict]) -> dict:
    declares = of(legal, "declare_jodhi")
    if declares and view.get("declarers") == view["team"]:
        trump = view.get("trump")
        return max(declares, key=lambda m: rules.jodhi_value(m["cards"], trump))
    return first(legal, "jodhi_done")


def _trick6(view: dict, legal: list[dict]) -> dict:
    double = first(legal, "call_double")
    trump = view.get("trump")
    hand = view["hand"]
    if double and trump and len(hand) == 1 and tr.suit(hand[0]) == trump \
            and _is_master(hand[0], view, trump, _order(view)):
        return double
    return first(legal, "pass")


def _thunee(view: dict, legal: list[dict]) -> dict:
    hand = view["hand"]
    if len(hand) == 6 and len({tr.suit(c) for c in hand}) == 1 and first(legal, "call_thunee"):
        return first(legal, "call_thunee")
    return first(legal, "pass")


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    phase = view["phase"]
    if phase == "BIDDING":
        return _bid(view, legal)
    if phase == "TRUMP":
        return _trump(view, legal)
    if phase == "THUNEE_WINDOW":
        return _thunee(view, legal)
    if phase == "JODHI":
        return _jodhi(view, legal)
    if phase == "TRICK6_CALLS":
        return _trick6(view, legal)
    if phase == "PLAY":
        return _play(view, legal)
    return legal[0]
