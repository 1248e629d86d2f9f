"""Partnership Canasta (engine/games/_canasta.py), the draw step: drawing from the stock (red 3s laid and
replaced, the last stock card), the tile game's Joker button, passing on an empty stock (cards), and taking the
discard pile (`check_take`, the rule `apply` uses, with the melds a pick-up lays at once, in public; the pick-ups
offered are searched in engine/games/_canasta_pickup.py)."""

from collections import Counter

from engine.base import event, team_of, to_seat
from engine.errors import IllegalMove
from engine.games import _canasta_pickup
from engine.games._canasta_rules import CANASTA_SIZE, DRAW, MELD, illegal, plural


class DrawMixin:
    """`CanastaGame`'s draw step (it uses the game's `rules`, `P`, `info`, `_need_phase`, `_fork`, `_lay`,
    `_end_round`, `to_act`)."""

    # ------------------------------------------------------------ the draw

    def _do_draw_stock(self, state, seat, move):
        self._need_phase(state, DRAW)
        if not state["stock"]:
            raise illegal("stock_empty")
        new = self._fork(state)
        piece = new["stock"].pop()
        return self._after_draw(new, seat, piece)

    def _do_take_joker(self, state, seat, move):
        if not self.info.account_jokers:
            raise illegal("no_joker_here")
        self._need_phase(state, DRAW)
        idx = [i for i, p in enumerate(state["stock"]) if self.P.rank[p] == self.P.joker_rank]
        if not idx:
            raise illegal("no_joker_left")
        if state["jokers"][seat] <= 0:
            raise illegal("no_joker_balance")
        new = self._fork(state)
        piece = new["stock"].pop(idx[-1])  # the joker nearest the top; the other tiles keep their order
        new["jokers"][seat] -= 1
        new["turn"]["joker"] = True
        new, events = self._after_draw(new, seat, piece)
        # The table sees a draw from the stock, as for any draw: that this seat now holds a joker is his alone
        # (`joker_taken`, addressed to him, also tells the table service to debit his account balance).
        return new, [events[0], event("joker_taken", to_seat(seat), seat=seat), *events[1:]]

    def _joker_ok(self, state: dict, seat: int) -> bool:
        return (self.info.account_jokers and state["phase"] == DRAW and not state["turn"]["joker"]
                and state["jokers"][seat] > 0
                and any(self.P.rank[p] == self.P.joker_rank for p in state["stock"]))

    def _after_draw(self, new: dict, seat: int, piece: str) -> tuple[dict, list]:
        P = self.P
        team = team_of(seat)
        events = self._draw_events(seat, piece)
        while piece in P.bonus_threes:
            new["red3s"][team].append(piece)
            events.append(event("red_three", seat=seat, team=team, card=piece))
            if not new["stock"]:
                if self.rules.go_out_action:  # cards: meld if he wants, no discard, end_turn ends the hand
                    new["turn"]["last_red3"] = True
                    new["turn"]["drew"] = True
                    new["phase"] = MELD
                    return new, events
                return self._end_round(new, None, "stock", events)  # tiles: the round ends at once
            piece = new["stock"].pop()
            events += self._draw_events(seat, piece)
        new["hands"][seat].append(piece)
        new["turn"]["drew"] = True
        new["phase"] = MELD
        if not new["stock"] and not self.rules.go_out_action:
            new["final_turn"] = True
        return new, events

    def _do_pass(self, state, seat, move):
        self._need_phase(state, DRAW)
        if not self.rules.go_out_action:
            raise illegal("unknown_action")
        if state["stock"]:
            raise illegal("stock_not_empty")
        if self._take_compulsory(state, seat):
            raise illegal("must_take_pile")
        new = self._fork(state)
        return self._end_round(new, None, "stock", [event("decline_pile", seat=seat)])

    # ------------------------------------------------------------ taking the pile

    def _do_take_pile(self, state, seat, move):
        self._need_phase(state, DRAW)
        melds = move.get("melds")
        groups, points = self.check_take(state, seat, melds)
        P = self.P
        team = team_of(seat)
        new = self._fork(state)
        hand = new["hands"][seat]
        top = new["pile"].pop()
        events = []
        laid = []
        for rank, pieces, meld_id in groups:
            from_hand = list(pieces)
            if top in from_hand and top not in laid:
                from_hand.remove(top)
                laid.append(top)
            for p in from_hand:
                hand.remove(p)
            events += self._lay(new, seat, rank, pieces, meld_id)
        if not state["melded"][team]:
            new["melded"][team] = True
            events.append(event("opened", seat=seat, team=team, points=points))
        new["has_melded"][seat] = True
        rest = new["pile"]
        new["pile"] = []
        new["frozen"] = False
        taken = []
        for p in rest:
            if p in P.bonus_threes:
                new["red3s"][team].append(p)
                events.append(event("red_three", seat=seat, team=team, card=p))
            else:
                hand.append(p)
                taken.append(p)
        new["turn"]["took_pile"] = True
        new["turn"]["drew"] = True
        new["phase"] = MELD
        head = event("take_pile", seat=seat, card=top, count=len(rest) + 1, melds=[list(g[1]) for g in groups])
        return new, [head, *events, event("took", to_seat(seat), seat=seat, cards=taken)]

    def _pile_block(self, state: dict, seat: int) -> str | None:
        """Why the pile cannot be taken at all (before looking at the melds offered), or None."""
        P, R = self.P, self.rules
        pile = state["pile"]
        if not pile:
            return "pile_empty"
        top = pile[-1]
        if P.is_wild(top) or P.rank[top] == "3":
            return "pile_blocked"
        if R.pile_one_card_rule and len(pile) == 1 and len(state["hands"][seat]) == 1:
            return "pile_one_card"
        return None

    def _strict_take(self, state: dict, team: str) -> bool:
        """The top card needs a natural pair from the hand (frozen pile, team not melded, or always: tiles)."""
        return not self.rules.take_with_wild or state["frozen"] or not state["melded"][team]

    def check_take(self, state: dict, seat: int, melds: list) -> tuple[list, int]:
        """Validate a take_pile: (the laid groups as [(rank, pieces, meld_id or None)], opening points);
        raises IllegalMove."""
        P = self.P
        team = team_of(seat)
        block = self._pile_block(state, seat)
        if block:
            raise illegal(block)
        top = state["pile"][-1]
        if not isinstance(melds, list) or not melds or not all(isinstance(m, list) and m for m in melds):
            raise illegal("bad_melds")
        flat = [p for m in melds for p in m]
        if flat.count(top) > 1 + state["hands"][seat].count(top):
            raise illegal("top_twice")
        with_top = [i for i, m in enumerate(melds) if top in m]
        if not with_top:
            raise illegal("top_not_used")
        top_i = with_top[0]
        from_hand = list(flat)
        from_hand.remove(top)
        if any(p not in P.rank for p in flat):
            raise illegal("bad_cards")
        if Counter(from_hand) - Counter(state["hands"][seat]):
            raise illegal("not_in_hand")
        existing = {m["rank"]: m for m in state["melds"][team]}
        groups, seen_ranks, points = [], set(), 0
        for i, m in enumerate(melds):
            rank = P.rank[top] if i == top_i else self.rank_of_set(m)
            if rank is None:
                raise illegal("mixed_ranks" if any(not P.is_wild(p) for p in m) else "only_wilds")
            if rank in seen_ranks:
                raise illegal("bad_melds", "Une seule combinaison par rang.")
            seen_ranks.add(rank)
            if rank == "3":
                raise illegal("black_threes_out")
            base = existing.get(rank)
            code = self.meld_error(rank, (base["pieces"] if base else []) + m)
            if code:
                raise illegal(code)
            if i == top_i:
                naturals = sum(1 for p in m if p != top and P.rank[p] == rank) + (m.count(top) - 1)
                if self._strict_take(state, team):
                    if naturals < 2:
                        raise illegal("need_pair")
                elif len(m) == 1:
                    if base is None:
                        raise illegal("need_pair", "La pièce du dessus seule ne va que sur une combinaison de "
                                                   "ton équipe de ce rang.")
                elif naturals < 1:
                    raise illegal("need_pair", "Il te faut au moins une pièce naturelle de ce rang avec la "
                                               "pièce du dessus.")
            groups.append((rank, m, base["id"] if base else None))
            points += self.value(m)
        if not state["melded"][team] and points < state["minimums"][team]:
            raise illegal("below_minimum", self._minimum_message(points, state["minimums"][team]))
        # what is left to end the turn with
        rest = state["pile"][:-1]
        left = len(state["hands"][seat]) - len(from_hand) + sum(1 for p in rest if p not in P.bonus_threes)
        if left < 2:
            canasta = self._team_canasta_after(state, team, groups)
            ok = canasta and (left == 1 or (left == 0 and self.rules.go_out_action))
            if ok and state["turn"]["permission"] == "no":
                ok = False
            if not ok:
                raise illegal("pile_strands")
        return groups, points

    def _team_canasta_after(self, state: dict, team: str, groups: list) -> bool:
        sizes = {m["id"]: len(m["pieces"]) for m in state["melds"][team]}
        for _rank, pieces, meld_id in groups:
            if meld_id:
                sizes[meld_id] += len(pieces)
            else:
                sizes[object()] = len(pieces)
        return any(n >= CANASTA_SIZE for n in sizes.values())

    @staticmethod
    def _minimum_message(points: int, minimum: int) -> str:
        return f"Première pose insuffisante : {points} point{plural(points)}, il en faut {minimum}."

    def _take_compulsory(self, state: dict, seat: int) -> bool:
        """Cards, stock empty: the top card fits the team's meld of an unfrozen pile (§9)."""
        if state["stock"] or not self.rules.take_with_wild:
            return False
        team = team_of(seat)
        if self._strict_take(state, team) or self._pile_block(state, seat):
            return False
        top = state["pile"][-1]
        for m in state["melds"][team]:
            if m["rank"] == self.P.rank[top]:
                try:
                    self.check_take(state, seat, [[top]])
                    return True
                except IllegalMove:
                    return False
        return False

    def canonical_take(self, state: dict, seat: int) -> dict | None:
        """The first take_pile legal_moves offers (engine/games/_canasta_pickup.py), or None."""
        return self._take_attempt(state, seat)[0]

    def take_refusal(self, state: dict, seat: int) -> str | None:
        """Why `seat`, to draw now, cannot take the pile, in French (None when it can, or when it is not its draw):
        its page shows « Prendre la pile » disabled with this reason."""
        if state["phase"] != DRAW or seat not in self.to_act(state) or state["question"]:
            return None
        take, refusal = self._take_attempt(state, seat)
        return None if take is not None else self.rules.say(refusal)

    def _take_attempt(self, state: dict, seat: int) -> tuple[dict | None, str]:
        """(the first offered take_pile, or None; why none, in French)."""
        takes, refusal = _canasta_pickup.pick_ups(self, state, seat)
        if not takes:
            return None, refusal
        return {"action": "take_pile", "melds": takes[0]}, ""
