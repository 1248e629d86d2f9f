"""Thunee's decisions besides the cards (engine/games/thunee.py is the game), mixed into `Thunee` as
`ThuneeCalls`: the bidding (§4: bids of 80–100, passes, the redeal when all four pass, the blind Thunee),
naming trumps, the Thunee window, the Jodhi windows after tricks 1 and 3, and the trick-6 calls (Double,
Khanuck): their legal moves (`_phase_moves`), their handlers (`_do_<action>`) and their autoplay (§9: pass,
never bid or call; trumps by length; `jodhi_done`).

It relies on the game's deal (`_deal_four`, `_deal_two`), `_start_play`, `fork` and `_phase` (`TrickGame`)."""

from engine.base import event, team_of
from engine.games import _tricks as tr
from engine.games._thunee_rules import (
    BIDDING,
    BIDS,
    BLIND,
    JODHI,
    JODHI_VALUES,
    ORDER,
    SEATS,
    THUNEE,
    THUNEE_WINDOW,
    TRICK6_CALLS,
    TRUMP,
    autoplay_trump,
    can_double,
    can_khanuck,
    illegal,
    jodhi_options,
    jodhi_value,
    normal_leader,
    order_of,
    trick6_callers,
)


class ThuneeCalls:
    """Bidding, trumps, the Thunee window, Jodhi, Double and Khanuck: Thunee's layer over `TrickGame`."""

    def _phase_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == BIDDING:
            high = state["high"]["value"] if state["high"] else 0
            out = [{"action": "bid", "value": v} for v in BIDS if v > high]
            out.append({"action": "pass"})
            if state["options"]["blind_thunee"]:
                out.append({"action": "call_blind_thunee"})
            return out
        if phase == TRUMP:
            return [{"action": "choose_trump", "suit": s} for s in tr.SUITS]
        if phase == THUNEE_WINDOW:
            return [{"action": "call_thunee"}, {"action": "pass"}]
        if phase == JODHI:
            out = [{"action": "declare_jodhi", "cards": combo} for combo in jodhi_options(state, seat)]
            return out + [{"action": "jodhi_done"}]
        if phase == TRICK6_CALLS:
            out = [{"action": "call_double"}] if can_double(state, seat) else []
            if can_khanuck(state, seat):
                out.append({"action": "call_khanuck"})
            return out + [{"action": "pass"}]
        return []

    def _autoplay_decision(self, state: dict, seat: int) -> dict:
        """§9: pass, never bid or call; trumps by length; `jodhi_done`."""
        phase = state["phase"]
        if phase in (BIDDING, THUNEE_WINDOW, TRICK6_CALLS):
            return {"action": "pass"}
        if phase == TRUMP:
            return {"action": "choose_trump", "suit": autoplay_trump(state["hands"][seat], order_of(state))}
        return {"action": "jodhi_done"}

    # -- bidding

    def _do_bid(self, state, seat, move):
        self._phase(state, BIDDING)
        value = move.get("value")
        if isinstance(value, bool) or value not in BIDS:
            raise illegal("bad_bid")
        high = state["high"]
        if high and high["value"] == BIDS[-1]:
            raise illegal("bid_closed")
        if high and value <= high["value"]:
            raise illegal("bid_too_low", f"Tu dois annoncer plus que {high['value']}.")
        new = self.fork(state)
        new["high"] = {"seat": seat, "value": value}
        new["bids"].append({"seat": seat, "action": "bid", "value": value})
        return new, [event("bid", seat=seat, value=value)] + self._next_bidder(new, seat)

    def _do_pass(self, state, seat, move):
        if state["phase"] == THUNEE_WINDOW:
            new = self.fork(state)
            new["queue"].pop(0)
            events = [event("thunee_pass", seat=seat)]
            if new["queue"]:
                new["current"] = new["queue"][0]
                return new, events
            return new, events + self._start_play(new, normal_leader(new))
        if state["phase"] == TRICK6_CALLS:
            new = self.fork(state)
            new["queue"].pop(0)
            events = [event("call_pass", seat=seat)]
            if new["queue"]:
                new["current"] = new["queue"][0]
                return new, events
            return new, events + self._start_play(new, new["leader"])
        self._phase(state, BIDDING)
        new = self.fork(state)
        new["passed"].append(seat)
        new["bids"].append({"seat": seat, "action": "pass", "value": None})
        return new, [event("bid_pass", seat=seat)] + self._next_bidder(new, seat)

    def _do_call_blind_thunee(self, state, seat, move):
        self._phase(state, BIDDING)
        if not state["options"]["blind_thunee"]:
            raise illegal("no_blind_thunee")
        new = self.fork(state)
        new["bids"].append({"seat": seat, "action": "blind_thunee", "value": None})
        new.update({"kind": BLIND, "caller": seat, "high": None, "bid": None, "bidder": None,
                    "declarers": None})
        new["calls"].append({"kind": BLIND, "seat": seat, "team": team_of(seat)})
        return new, [event("blind_thunee", seat=seat)] + self._deal_two(new)

    def _next_bidder(self, new: dict, seat: int) -> list[dict]:
        """§4 BIDDING end: back to the high bidder (the others passed), all four passed, or a closed 100."""
        passed = new["passed"]
        if len(passed) == 4:
            new["shuffles"] += 1
            return [event("redeal", round=new["round"], dealer=new["dealer"])] + self._deal_four(new, redeal=True)
        nxt = SEATS.next(seat)
        while nxt in passed:
            nxt = SEATS.next(nxt)
        high = new["high"]
        closed = high and high["value"] == BIDS[-1] and not new["options"]["blind_thunee"]
        if high and (nxt == high["seat"] or closed):
            new["bid"] = high["value"]
            new["bidder"] = high["seat"]
            new["declarers"] = team_of(high["seat"])
            return [event("contract", seat=high["seat"], value=high["value"], team=new["declarers"])] + \
                self._deal_two(new)
        new["current"] = nxt
        return []

    # -- trumps and the Thunee window

    def _do_choose_trump(self, state, seat, move):
        self._phase(state, TRUMP)
        suit = move.get("suit")
        if suit not in tr.SUITS:
            raise illegal("bad_suit")
        new = self.fork(state)
        new["trump"] = suit
        new["named_trump"] = suit
        new["phase"] = THUNEE_WINDOW
        new["queue"] = SEATS.order_from(normal_leader(new))
        new["current"] = new["queue"][0]
        return new, [event("trump", seat=seat, suit=suit, by="bidder")]

    def _do_call_thunee(self, state, seat, move):
        self._phase(state, THUNEE_WINDOW)
        new = self.fork(state)
        new.update({"kind": THUNEE, "caller": seat, "trump": None})
        new["calls"].append({"kind": THUNEE, "seat": seat, "team": team_of(seat)})
        return new, [event("thunee", seat=seat)] + self._start_play(new, seat)

    # -- Jodhi, Double, Khanuck

    def _do_declare_jodhi(self, state, seat, move):
        self._phase(state, JODHI, "not_in_jodhi_window")
        chosen = move.get("cards")
        if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
            raise illegal("bad_jodhi")
        hand = state["hands"][seat]
        if len(set(chosen)) != len(chosen) or not set(chosen) <= set(hand):
            raise illegal("bad_jodhi")
        suits = {tr.suit(c) for c in chosen}
        if len(suits) != 1 or frozenset(tr.rank(c) for c in chosen) not in JODHI_VALUES:
            raise illegal("bad_jodhi")
        used = {c for j in state["jodhis"] for c in j["cards"]}
        if set(chosen) & used:
            raise illegal("jodhi_used")
        combo = tr.sorted_hand(chosen, state["trump"], ORDER)
        points = jodhi_value(combo, state["trump"])
        new = self.fork(state)
        entry = {"seat": seat, "team": team_of(seat), "suit": tr.suit(combo[0]), "cards": combo,
                 "points": points, "after_trick": state["jodhi_window"]["after_trick"]}
        new["jodhis"].append(entry)
        new["calls"].append({"kind": "jodhi", "seat": seat, "team": entry["team"], "points": points,
                             "cards": combo})
        return new, [event("jodhi", **entry)]

    def _do_jodhi_done(self, state, seat, move):
        self._phase(state, JODHI)
        new = self.fork(state)
        window = new["jodhi_window"]
        window["done"].append(seat)
        events = [event("jodhi_done", seat=seat)]
        if self.to_act(new):
            return new, events
        new["jodhi_window"] = None
        return new, events + self._start_play(new, new["leader"])

    def _open_trick6(self, new: dict) -> list[dict]:
        """After trick 5 of a normal deal: the seats that may call a Double or a Khanuck, from the leader."""
        callers = trick6_callers(new, new["leader"])
        if not callers:
            return self._start_play(new, new["leader"])
        new["phase"] = TRICK6_CALLS
        new["queue"] = callers
        new["current"] = callers[0]
        return []

    def _do_call_double(self, state, seat, move):
        self._phase(state, TRICK6_CALLS)
        if not can_double(state, seat):
            raise illegal("no_double")
        return self._trick6_call(state, seat, "double")

    def _do_call_khanuck(self, state, seat, move):
        self._phase(state, TRICK6_CALLS)
        if not can_khanuck(state, seat):
            raise illegal("no_khanuck")
        return self._trick6_call(state, seat, "khanuck")

    def _trick6_call(self, state, seat, kind):
        new = self.fork(state)
        call = {"kind": kind, "seat": seat, "team": team_of(seat)}
        new["call"] = call
        new["calls"].append(dict(call))
        if kind == "khanuck" and new["options"]["khanuck_13"]:
            new["target"] = max(new["target"], 13)
        return new, [event(kind, seat=seat, team=call["team"])] + self._start_play(new, new["leader"])
