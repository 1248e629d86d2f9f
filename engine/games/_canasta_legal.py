"""Partnership Canasta (engine/games/_canasta.py), the moves offered: `legal_moves` (the pick-ups from
engine/games/_canasta_pickup.py, one canonical meld per rank and the lay-offs, each end of turn the commit
accepts, the way out the partner's « oui » binds to) and the §9 autoplay of a seat that left or timed out."""

from collections import Counter

from engine.games import _canasta_pickup
from engine.games._canasta_rules import DRAW, FIRST_TURN, MATCH_OVER, MELD, ROUND_OVER, illegal


class LegalMovesMixin:
    """`CanastaGame`'s legal moves and autoplay (it uses the game's `rules`, `P`, `to_act`, `preview`,
    `_commit_error`, `go_out_plan`, `_joker_ok`, `_take_compulsory`, `canonical_take`)."""

    # ------------------------------------------------------------ legal moves

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == MATCH_OVER or not isinstance(seat, int) or not 0 <= seat < 4:
            return []
        if phase == ROUND_OVER:
            return [{"action": "next_round"}]
        if seat not in self.to_act(state):
            return []
        q = state["question"]
        if q and q["answer"] is None:
            return [{"action": "answer_go_out", "answer": "yes"}, {"action": "answer_go_out", "answer": "no"}]
        hand = state["hands"][seat]
        if phase == FIRST_TURN:
            return [{"action": "discard", "card": p} for p in _distinct(self.P.sort(hand))]
        out = []
        can_ask = self.rules.go_out_question and not state["turn"]["asked"]
        if phase == DRAW:
            if state["stock"]:
                out.append({"action": "draw_stock"})
                if self._joker_ok(state, seat):
                    out.append({"action": "take_joker"})
            takes, _ = _canasta_pickup.pick_ups(self, state, seat)
            out += [{"action": "take_pile", "melds": melds} for melds in takes]
            if not state["stock"] and not self._take_compulsory(state, seat):
                out.append({"action": "pass"})
            if can_ask:
                out.append({"action": "ask_go_out"})
            return out
        # MELD
        pv_hand, pv_melds = self.preview(state, seat)
        out += self._canonical_table_moves(state, seat, pv_hand, pv_melds)
        if state["staged"]:
            out.append({"action": "undo"})
            if len(state["staged"]) > 1:
                out.append({"action": "undo", "all": True})
        if not pv_hand:
            if self._commit_error(state, seat, None) is None:
                out.append({"action": "go_out"})
        elif state["turn"]["last_red3"]:
            if self._commit_error(state, seat, None) is None:
                out.append({"action": "end_turn"})
        else:
            ok = {}
            for p in _distinct(self.P.sort(pv_hand)):
                key = len(pv_hand) == 1
                if key not in ok:
                    ok[key] = self._commit_error(state, seat, p) is None
                if ok[key]:
                    out.append({"action": "discard", "card": p})
        if can_ask and not state["staged"] and not state["turn"]["took_pile"]:
            out.append({"action": "ask_go_out"})
        if state["turn"]["permission"] == "yes":  # « oui » binds: the way out found is always offered
            plan = self.go_out_plan(state, seat)
            if plan and plan[0] not in out:
                out.append(plan[0])
        return out

    def _canonical_table_moves(self, state, seat, hand, melds) -> list:
        """One meld per rank (naturals; the fewest wilds that make it valid; the most wilds allowed), lay-offs
        of the naturals of a melded rank, one wild onto each meld that takes it."""
        P, R = self.P, self.rules
        by_rank: dict = {}
        for p in P.sort(hand):
            by_rank.setdefault(P.rank[p], []).append(p)
        wilds = [p for p in P.sort(hand) if P.is_wild(p)]
        # keep the lowest-value wilds first (2s before jokers)
        wilds.sort(key=lambda p: (P.value[p], P.order[p]))
        melded = {m["rank"]: m for m in melds}
        out = []
        keep = 0 if R.go_out_action else 1
        for rank, naturals in by_rank.items():
            if rank in P.wild_ranks and rank != "2":
                continue
            if rank == "2" and not R.twos_meld:
                continue
            if rank in melded:
                if rank == "2":
                    continue  # tiles: 2s onto the meld of 2s, below
                if len(hand) - len(naturals) >= keep:
                    out.append({"action": "lay_off", "cards": naturals, "meld_id": melded[rank]["id"]})
                continue
            spare = [w for w in wilds if self.is_wild_in(rank, w) and w not in naturals]
            if rank == "3":
                if self.meld_error(rank, naturals) is None and len(hand) - len(naturals) >= keep:
                    out.append({"action": "meld", "cards": naturals})
                continue
            tried = set()
            for extra in range(0, len(spare) + 1):
                if len(hand) - len(naturals) - extra < keep:
                    break
                if self.count_error(rank, len(naturals), extra) is None:
                    tried.add(extra)
            if tried:
                low, high = min(tried), max(tried)
                for extra in sorted({low, high}):
                    out.append({"action": "meld", "cards": naturals + spare[:extra]})
        if R.twos_meld and "2" in melded:
            twos = by_rank.get("2", [])
            if twos and len(hand) - len(twos) >= keep:
                out.append({"action": "lay_off", "cards": twos, "meld_id": melded["2"]["id"]})
        if wilds and len(hand) - 1 >= keep:
            for m in melds:
                for w in _distinct(wilds):
                    if not self.is_wild_in(m["rank"], w) or (m["rank"] == "2" and P.rank[w] == "2"):
                        continue
                    if self.meld_error(m["rank"], m["pieces"] + [w]) is None:
                        out.append({"action": "lay_off", "cards": [w], "meld_id": m["id"]})
                        break
        return out

    # ------------------------------------------------------------ autoplay

    def autoplay(self, state: dict, seat: int) -> dict:
        """§9: draw (stock empty: the compulsory pick-up, else pass), no melds, discard by the rule."""
        phase = state["phase"]
        if phase == ROUND_OVER:
            return {"action": "next_round"}
        if seat not in self.to_act(state):
            raise illegal("no_decision")
        q = state["question"]
        if q and q["answer"] is None:
            return {"action": "answer_go_out", "answer": "yes"}
        if phase == DRAW:
            if state["stock"]:
                return {"action": "draw_stock"}
            if self._take_compulsory(state, seat):
                return {"action": "take_pile", "melds": [[state["pile"][-1]]]}
            if self.rules.go_out_action:
                return {"action": "pass"}
            take = self.canonical_take(state, seat)
            return take or {"action": "pass"}
        if phase == MELD and state["turn"]["permission"] == "yes":
            plan = self.go_out_plan(state, seat)
            if plan:  # the partner's « oui » binds: out the way the server found
                return plan[0]
        if state["staged"]:
            return {"action": "undo", "all": True}
        if state["turn"]["last_red3"]:
            return {"action": "end_turn"} if state["hands"][seat] else {"action": "go_out"}
        hand = state["hands"][seat]
        for card in self.autoplay_discards(hand):
            if phase == FIRST_TURN or self._commit_error(state, seat, card) is None:
                return {"action": "discard", "card": card}
        legal = self.legal_moves(state, seat)
        return legal[0] if legal else {"action": "discard", "card": hand[0]}

    def autoplay_discards(self, hand: list) -> list:
        """The §9 discard order: blocking 3s, the lowest natural of a rank held once, the lowest natural, wilds."""
        P = self.P
        counts = Counter(P.rank[p] for p in hand)
        by_value = sorted(hand, key=lambda p: (P.value[p], P.order[p]))
        blocks = [p for p in by_value if p in P.block_threes]
        naturals = [p for p in by_value if not P.is_wild(p) and p not in P.block_threes]
        singles = [p for p in naturals if counts[P.rank[p]] == 1]
        wilds = [p for p in by_value if P.is_wild(p)]
        return _distinct(blocks + singles + naturals + wilds)


def _distinct(items: list) -> list:
    seen, out = set(), []
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out
