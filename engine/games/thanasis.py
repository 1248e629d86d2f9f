"""Thanasis (../shared/rules/thanasis.md): a rummy played entirely in hand.

A turned card makes its rank wild for the round. Each turn: draw from the stock, then discard,
or close (« Je ferme ! ») with a card whose discard leaves 10 points or less outside melds.
The others add their deadwood; a total of 101 or more burns a player; the last one left wins.
"""

from functools import lru_cache

from engine import cards, melds
from engine.base import GameInfo, event
from engine.games import _draw_discard as dd
from engine.games._draw_discard import DISCARD, DRAW, MATCH_OVER, ROUND_OVER, illegal
from engine.rng import StreamRandom, shuffled

HAND_SIZE = 10
CLOSE_LIMIT = 10
BURN_LIMIT = 101
MAX_REBUILDS = 2  # a third rebuild of the stock in one round voids the round (§9)
DECK = tuple(cards.deck(copies=2, jokers=2))


# ---------------------------------------------------------------- solver access (cached)

@lru_cache(maxsize=16)
def rules_for(wild_rank: str | None):
    return melds.thanasis_rules(wild_rank)


@lru_cache(maxsize=4096)
def _arrangement(key: tuple, wild_rank):
    return melds.best_arrangement(list(key), rules_for(wild_rank))


@lru_cache(maxsize=4096)
def _discards(key: tuple, wild_rank) -> dict:
    return melds.best_discards(list(key), rules_for(wild_rank))


@lru_cache(maxsize=4096)
def _deadwood(key: tuple, wild_rank) -> int:
    return melds.deadwood(list(key), rules_for(wild_rank))


def best_arrangement(hand: list[str], wild_rank: str | None):
    """The solver's best Arrangement of `hand` (`.points`, `.melds`, `.deadwood`) this round."""
    return _arrangement(tuple(sorted(hand)), wild_rank)


def discards(hand: list[str], wild_rank: str | None) -> dict:
    """11-card hand: best deadwood of the 10 cards left after each discard (do not mutate)."""
    return _discards(tuple(sorted(hand)), wild_rank)


@lru_cache(maxsize=16)
def _values(wild_rank) -> dict:
    return {c: melds.card_value(c, rules_for(wild_rank)) for c in DECK}


def card_value(card: str, wild_rank: str | None) -> int:
    return _values(wild_rank)[card]


def closable(hand: list[str], wild_rank: str | None) -> list[str]:
    """§4: the cards whose discard leaves a best deadwood of 10 or less, in display order.

    A discard lowers the deadwood by at most its own value, so a hand whose deadwood exceeds
    the limit by more than its highest card cannot close: one solve instead of eleven.
    """
    key = tuple(sorted(hand))
    values = _values(wild_rank)
    if _deadwood(key, wild_rank) > CLOSE_LIMIT + max(values[c] for c in hand):
        return []
    left = _discards(key, wild_rank)
    return dd.sorted_cards(c for c, dw in left.items() if dw <= CLOSE_LIMIT)


def closed_first_turn(state: dict) -> bool:
    """Whether the seat to play closes on its first turn of the round (« a fermé d'entrée »): every turn
    ends with one card on the pile, so fewer cards there than players dealt in (the stock not yet rebuilt)
    means not every one of them has played yet."""
    left = sum(1 for o in state["out"] if o["round"] == state["round"] and o["reason"] == "left")
    dealt = len(state["active"]) + left
    return state["rebuilds"] == 0 and len(state["discard"]) < dealt


# ---------------------------------------------------------------- the game

class Thanasis(dd.DrawDiscardGame):
    info = GameInfo(slug="thanasis", name="Thanasis", min_players=2, max_players=4, default_players=4,
                    order=1, bots="engine.bots.thanasis", problems="draw_discard",
                    tagline="Le rami en main : ferme à 10 points ou moins, brûlé à 101.")
    deck = DECK
    deck_set = frozenset(DECK)
    turn_actions = frozenset({"draw_stock", "discard", "close"})
    stats_labels = {"rounds_won": "Fermetures", "thanasis": "Thanasis (fermer à 0 point)"}

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        """A close counts as a round won; a Thanasis is a close with nothing left outside melds."""
        value, counters = super().round_stats(row, seat)
        if row.get("closer") == seat and row.get("thanasis"):
            counters = {**counters, "thanasis": 1}
        return value, counters

    # -- deal

    def _init_match(self, state: dict) -> None:
        state["indicator"] = None
        state["wild_rank"] = None
        state["last_close"] = [None] * state["seats"]  # round of each seat's latest close (§7 ties)

    def _hand_size(self, state: dict) -> int:
        return HAND_SIZE

    def _after_deal(self, state: dict) -> list[dict]:
        """§3.3: turn the wild indicator; a printed joker goes back into the stock at random."""
        stock = state["stock"]
        rng = None
        reinserted = 0
        indicator = stock.pop()
        while cards.is_joker(indicator):
            rng = rng or StreamRandom(state["seed"], f"r{state['round']}:joker")
            stock.insert(rng.randint(0, len(stock)), indicator)
            reinserted += 1
            indicator = stock.pop()
        state["indicator"] = indicator
        state["wild_rank"] = cards.rank_of(indicator)
        state["phase"] = DRAW
        return [event("indicator", card=indicator, wild_rank=state["wild_rank"],
                      jokers_reinserted=reinserted)]

    def _next_dealer(self, state: dict) -> int:
        last = state["history"][-1] if state["history"] else None
        if last and last.get("void") and state["dealer"] in state["active"]:
            return state["dealer"]  # §9: a void round is redealt by the same dealer
        return dd.next_active(state, state["dealer"])

    # -- turn

    def _legal_turn(self, state: dict, seat: int) -> list[dict]:
        if state["phase"] == DRAW:
            return [{"action": "draw_stock"}] if state["stock"] else []
        if state["phase"] != DISCARD:
            return []
        hand = dd.sorted_cards(state["hands"][seat])
        moves = [{"action": "discard", "card": c} for c in hand]
        moves += [{"action": "close", "card": c} for c in closable(hand, state["wild_rank"])]
        return moves

    def _do_draw_stock(self, state: dict, seat: int, move: dict):
        if state["phase"] == DISCARD:
            raise illegal("already_drew")
        if state["phase"] != DRAW:
            raise illegal("wrong_phase")
        if not state["stock"]:
            raise illegal("stock_empty")  # never: the stock is rebuilt when a turn starts
        new = dd.fork(state, "stock")
        card = new["stock"].pop()
        dd.fork_hand(new, seat).append(card)
        new["phase"] = DISCARD
        return new, dd.draw_events(seat, card)

    def _check_discard_phase(self, state: dict) -> None:
        if state["phase"] == DRAW:
            raise illegal("must_draw_first")
        if state["phase"] != DISCARD:
            raise illegal("wrong_phase")

    def _do_discard(self, state: dict, seat: int, move: dict):
        self._check_discard_phase(state)
        card = dd.card_of(move, state["hands"][seat], self.deck_set)
        new = dd.fork(state, "discard")
        dd.fork_hand(new, seat).remove(card)
        new["discard"].append(card)
        events = [event("discard", seat=seat, card=card)]
        new["current"] = dd.next_active(new, seat)
        new["phase"] = DRAW
        events += self._start_turn(new)
        return new, events

    def _start_turn(self, new: dict) -> list[dict]:
        """§9: an empty stock is rebuilt from the discard pile (its top stays) when a turn
        starts; the third rebuild of a round voids it instead."""
        if new["stock"]:
            return []
        if new["rebuilds"] >= MAX_REBUILDS or len(new["discard"]) < 2:
            return self._void_round(new)
        new["rebuilds"] += 1
        rest = new["discard"][:-1]
        new["stock"] = shuffled(rest, new["seed"], f"r{new['round']}:rebuild{new['rebuilds']}")
        new["discard"] = new["discard"][-1:]
        return [event("stock_rebuilt", cards=len(rest), rebuilds=new["rebuilds"])]

    def _do_close(self, state: dict, seat: int, move: dict):
        self._check_discard_phase(state)
        wild = state["wild_rank"]
        card = dd.card_of(move, state["hands"][seat], self.deck_set)
        if card not in closable(state["hands"][seat], wild):
            raise illegal("not_closable")
        left = discards(state["hands"][seat], wild)
        first_turn = closed_first_turn(state)
        new = dd.fork(state, "discard", "scores", "history", "last_close", "active", "out")
        dd.fork_hand(new, seat).remove(card)
        new["discard"].append(card)
        new["last_close"][seat] = new["round"]
        is_thanasis = left[card] == 0
        events = [event("close", seat=seat, card=card, thanasis=is_thanasis, first_turn=first_turn)]
        if is_thanasis:
            events.append(event("thanasis", seat=seat))

        points = [None] * new["seats"]
        revealed = []
        for s in new["active"]:
            arr = best_arrangement(new["hands"][s], wild)
            points[s] = 0 if s == seat else arr.points
            new["scores"][s] += points[s]
            revealed.append(self._revealed(new, s, arr, points[s]))
        burnt = [s for s in new["active"] if new["scores"][s] >= BURN_LIMIT]
        row = {
            "round": new["round"], "dealer": new["dealer"], "void": False, "closer": seat,
            "thanasis": is_thanasis, "points": points, "totals": list(new["scores"]), "burnt": burnt,
        }
        new["history"].append(row)
        new["last_round"] = {
            "round": new["round"], "dealer": new["dealer"], "void": False, "closer": seat,
            "close_card": card, "thanasis": is_thanasis, "first_turn": first_turn, "indicator": new["indicator"],
            "wild_rank": wild, "players": revealed, "points": points,
            "totals": list(new["scores"]), "burnt": burnt,
        }
        events.append(event("round_over", round=new["round"], closer=seat, thanasis=is_thanasis,
                            points=points, totals=list(new["scores"]), players=revealed))
        remaining = [s for s in new["active"] if s not in burnt]
        for s in burnt:
            events.append(event("burnt", seat=s, total=new["scores"][s]))
        self._eliminate(new, burnt, "burnt")
        new["current"] = None
        if len(remaining) == 1:
            events += self._finish(new, remaining, "last_standing")
        elif not remaining:
            events += self._all_burnt(new, burnt)
        else:
            new["phase"] = ROUND_OVER
        return new, events

    def _all_burnt(self, new: dict, burnt: list[int]) -> list[dict]:
        """§7: lowest total wins; ties go to the most recent closer; else a shared win."""
        low = min(new["scores"][s] for s in burnt)
        tied = [s for s in burnt if new["scores"][s] == low]
        closers = [s for s in tied if new["last_close"][s] is not None]
        if len(tied) > 1 and closers:
            tied = [max(closers, key=lambda s: new["last_close"][s])]
        return self._finish(new, tied, "all_burnt", shared=len(tied) > 1)

    def _finish(self, new: dict, winners: list[int], reason: str, **extra) -> list[dict]:
        extra.setdefault("shared", False)
        return super()._finish(new, winners, reason, **extra)

    def _revealed(self, state: dict, seat: int, arr, points: int) -> dict:
        return {
            "seat": seat,
            "hand": dd.sorted_cards(state["hands"][seat]),
            "melds": [list(m) for m in arr.melds],
            "deadwood": dd.sorted_cards(arr.deadwood),
            "deadwood_points": arr.points,
            "wilds": dd.arrangement_dict(arr)["wilds"],
            "points": points,
        }

    def _void_round(self, new: dict) -> list[dict]:
        """§9: no points; the same dealer deals the next round."""
        wild = new["wild_rank"]
        points = [0 if s in new["active"] else None for s in range(new["seats"])]
        revealed = [self._revealed(new, s, best_arrangement(new["hands"][s], wild), 0)
                    for s in new["active"]]
        new["history"] = new["history"] + [{
            "round": new["round"], "dealer": new["dealer"], "void": True, "closer": None,
            "thanasis": False, "points": points, "totals": list(new["scores"]), "burnt": [],
        }]
        new["last_round"] = {
            "round": new["round"], "dealer": new["dealer"], "void": True, "closer": None,
            "close_card": None, "thanasis": False, "first_turn": False, "indicator": new["indicator"],
            "wild_rank": wild,
            "players": revealed, "points": points, "totals": list(new["scores"]), "burnt": [],
        }
        new["phase"] = ROUND_OVER
        new["current"] = None
        return [event("round_void", round=new["round"], players=revealed)]

    # -- leaving, autoplay, views

    def _leave_match(self, new: dict, seat: int) -> list[dict]:
        """§9: the leaver is burnt at once; play passes on if it was his turn."""
        events = [event("burnt", seat=seat, total=new["scores"][seat], left=True)]
        if len(new["active"]) <= 1:
            return events + self._finish(new, list(new["active"]), "left")
        if new["phase"] in (DRAW, DISCARD) and new["current"] == seat:
            new["current"] = dd.next_active(new, seat)
            new["phase"] = DRAW
            events += self._start_turn(new)
        return events

    def _autoplay_turn(self, state: dict, seat: int) -> dict:
        """§9: draw; then close with the best closing card, else discard the best card."""
        if state["phase"] == DRAW:
            return {"action": "draw_stock"}
        wild = state["wild_rank"]
        left = discards(state["hands"][seat], wild)
        card, dw = dd.pick_discard(left, lambda c: card_value(c, wild))
        return {"action": "close" if dw <= CLOSE_LIMIT else "discard", "card": card}

    def _best_arrangement(self, state: dict, hand: list):
        return best_arrangement(hand, state["wild_rank"])

    def _view_extra(self, state: dict, view: dict, seat: int | None) -> None:
        wild = state["wild_rank"]
        view["indicator"] = state["indicator"]
        view["wild_rank"] = wild
        view["close_limit"] = CLOSE_LIMIT
        view["burn_limit"] = BURN_LIMIT
        view["burnt"] = [o["seat"] for o in state["out"]]
        acting = seat is not None and seat == state["current"] and state["phase"] == DISCARD
        view["closable"] = closable(state["hands"][seat], wild) if acting else []
        hand = state["hands"][seat] if seat is not None else []
        view["wild_cards"] = [c for c in view["hand"]
                              if cards.is_joker(c) or cards.rank_of(c) == wild] if hand else []


GAME = Thanasis()

__all__ = ["GAME", "MATCH_OVER", "ROUND_OVER", "Thanasis", "best_arrangement", "closable"]
