"""Partnership Canasta (engine/games/_canasta.py), the table actions of a turn: melds and lay-offs staged
(private until the commit, `undo` = « Annuler »), the hand and melds they leave (`preview`), and the commit that
publishes them: the discard (or the tile game's first-turn discard), `end_turn` after a last red 3, and `go_out`
(engine/games/_canasta_out.py) through `_commit` and its refusals (`_commit_error`); `_lay` publishes pieces onto
the team's table (for `take_pile` too)."""

from collections import Counter

from engine.base import event, team_of, to_seat
from engine.errors import IllegalMove
from engine.games._canasta_rules import CANASTA_SIZE, DRAW, FIRST_TURN, MELD, illegal


class StagingMixin:
    """`CanastaGame`'s staged table actions and their commit (it uses the game's `rules`, `P`, `_need_phase`,
    `_fork`, `_begin_turn`, `_concealed`, `go_out_plan`, `_minimum_message`, `_end_round`)."""

    # ------------------------------------------------------------ preview (after the staged actions)

    def preview(self, state: dict, seat: int) -> tuple[list, list]:
        """(hand, team melds) of `seat` after its staged actions (only the acting seat has any)."""
        hand = list(state["hands"][seat])
        melds = [dict(m, pieces=list(m["pieces"])) for m in state["melds"][team_of(seat)]]
        if seat != state["current"] or not state["staged"]:
            return hand, melds
        by_id = {m["id"]: m for m in melds}
        for entry in state["staged"]:
            for p in entry["pieces"]:
                hand.remove(p)
            if entry["action"] == "meld":
                m = {"id": entry["meld_id"], "team": team_of(seat), "rank": entry["rank"],
                     "pieces": list(entry["pieces"])}
                melds.append(m)
                by_id[m["id"]] = m
            else:
                by_id[entry["meld_id"]]["pieces"].extend(entry["pieces"])
        return hand, melds

    def _next_meld_id(self, state: dict) -> str:
        staged_melds = sum(1 for e in state["staged"] if e["action"] == "meld")
        return f"M{state['meld_seq'] + staged_melds + 1}"

    # ------------------------------------------------------------ staged table actions

    def _pieces_param(self, move: dict) -> list:
        pieces = move.get("cards", move.get("tiles"))
        if not isinstance(pieces, list) or not pieces or not all(isinstance(p, str) for p in pieces):
            raise illegal("bad_cards")
        if any(p not in self.P.rank for p in pieces):
            raise illegal("bad_cards")
        return pieces

    def _stage(self, state: dict, seat: int, pieces: list, meld_id: str | None) -> tuple[dict, list]:
        self._need_phase(state, MELD)
        hand, melds = self.preview(state, seat)
        if Counter(pieces) - Counter(hand):
            raise illegal("not_in_hand")
        if any(p in self.P.bonus_threes for p in pieces):
            raise illegal("bonus_three")
        if meld_id is None:
            rank = self.rank_of_set(pieces)
            if rank is None:
                raise illegal("mixed_ranks" if any(not self.P.is_wild(p) for p in pieces) else "only_wilds")
            target = next((m for m in melds if m["rank"] == rank), None)
        else:
            target = next((m for m in melds if m["id"] == meld_id), None)
            if target is None:
                raise illegal("unknown_meld")
            rank = target["rank"]
        code = self.meld_error(rank, (target["pieces"] if target else []) + pieces)
        if code:
            raise illegal(code)
        if not self.rules.go_out_action and len(hand) == len(pieces):
            raise illegal("keep_a_piece")
        new = self._fork(state)
        action = "lay_off" if target else "meld"
        entry = {"action": action, "meld_id": target["id"] if target else self._next_meld_id(state),
                 "rank": rank, "pieces": list(pieces)}
        new["staged"].append(entry)
        return new, [event("staged", to_seat(seat), seat=seat, **entry)]

    def _do_meld(self, state, seat, move):
        return self._stage(state, seat, self._pieces_param(move), None)

    def _do_lay_off(self, state, seat, move):
        meld_id = move.get("meld_id")
        if not isinstance(meld_id, str):
            raise illegal("unknown_meld")
        return self._stage(state, seat, self._pieces_param(move), meld_id)

    def _do_undo(self, state, seat, move):
        self._need_phase(state, MELD)
        if not state["staged"]:
            raise illegal("nothing_to_undo")
        new = self._fork(state)
        count = len(new["staged"]) if move.get("all") else 1
        del new["staged"][-count:]
        return new, [event("unstaged", to_seat(seat), seat=seat, count=count)]

    def is_private(self, before: dict, seat: int, move: dict) -> bool:
        """The staged actions and their undo: private until the discard (`take_pile` lays its melds in public)."""
        return isinstance(move, dict) and move.get("action") in ("meld", "lay_off", "undo")

    # ------------------------------------------------------------ the commit

    def _commit_error(self, state: dict, seat: int, discard: str | None) -> IllegalMove | None:
        """Why this end of turn (discard `discard`, or go_out / end_turn with None) is refused, or None."""
        team = team_of(seat)
        hand, melds = self.preview(state, seat)
        if discard is not None and discard not in hand:
            return illegal("card_not_in_hand")
        after = len(hand) - (1 if discard is not None else 0)
        going_out = after == 0  # after a last red 3 too: melding every card is a going out
        if state["turn"]["last_red3"] and discard is not None:
            return illegal("no_discard_last_red3")
        if discard is None and not state["turn"]["last_red3"] and hand:
            return illegal("hand_not_empty")
        staged = state["staged"]
        concealed = going_out and self._concealed(state, seat, melds)
        if staged and not state["melded"][team] and not state["turn"]["took_pile"] and not concealed:
            points = sum(self.value(e["pieces"]) for e in staged)
            if points < state["minimums"][team]:
                return illegal("below_minimum", self._minimum_message(points, state["minimums"][team]))
        if not going_out and any(e["rank"] == "3" for e in staged):
            return illegal("black_threes_out")
        if going_out:
            if not any(len(m["pieces"]) >= CANASTA_SIZE for m in melds):
                return illegal("need_canasta")
            if state["turn"]["permission"] == "no":
                return illegal("not_allowed_out")
        elif state["turn"]["permission"] == "yes" and self.go_out_plan(state, seat) is not None:
            return illegal("must_go_out")
        return None

    def _commit(self, state: dict, seat: int, discard: str | None) -> tuple[dict, list]:
        err = self._commit_error(state, seat, discard)
        if err:
            raise err
        team = team_of(seat)
        _, melds = self.preview(state, seat)
        concealed = self._concealed(state, seat, melds)
        new = self._fork(state)
        hand = new["hands"][seat]
        events = []
        staged = new["staged"]
        new["staged"] = []
        points = 0
        for entry in staged:
            for p in entry["pieces"]:
                hand.remove(p)
            if entry["action"] == "meld":
                points += self.value(entry["pieces"])
                events += self._lay(new, seat, entry["rank"], entry["pieces"], None)
            else:
                points += self.value(entry["pieces"])
                events += self._lay(new, seat, entry["rank"], entry["pieces"], entry["meld_id"])
        if staged:
            new["has_melded"][seat] = True
            if not new["melded"][team]:
                new["melded"][team] = True
                events.append(event("opened", seat=seat, team=team, points=points))
        if discard is not None:
            hand.remove(discard)
            new["pile"].append(discard)
            if self.rules.freezing and self.P.is_wild(discard):
                new["frozen"] = True
            events.append(event("discard", seat=seat, card=discard))
        if not hand:
            events.append(event("go_out", seat=seat, concealed=concealed))
            return self._end_round(new, seat, "concealed" if concealed else "out", events)
        if new["turn"]["last_red3"] or new["final_turn"]:
            return self._end_round(new, None, "stock", events)
        nxt = self.next_seat(seat)
        new["phase"] = DRAW
        events += self._begin_turn(new, nxt)
        return new, events

    def _do_discard(self, state, seat, move):
        card = move.get("card", move.get("tile"))
        if not isinstance(card, str):
            raise illegal("bad_card")
        if state["phase"] == FIRST_TURN:
            if card not in state["hands"][seat]:
                raise illegal("card_not_in_hand")
            new = self._fork(state)
            new["hands"][seat].remove(card)
            new["pile"].append(card)
            new["phase"] = DRAW
            events = [event("discard", seat=seat, card=card)]
            events += self._begin_turn(new, self.next_seat(seat))
            return new, events
        self._need_phase(state, MELD)
        return self._commit(state, seat, card)

    def _do_end_turn(self, state, seat, move):
        self._need_phase(state, MELD)
        if not state["turn"]["last_red3"]:
            raise illegal("not_last_red3")
        return self._commit(state, seat, None)

    def _lay(self, new: dict, seat: int, rank: str, pieces: list, meld_id: str | None) -> list:
        """Publish pieces onto the team's table (new is forked): a new meld or onto meld_id."""
        team = team_of(seat)
        if meld_id is None:
            new["meld_seq"] += 1
            meld = {"id": f"M{new['meld_seq']}", "team": team, "rank": rank, "pieces": list(pieces)}
            new["melds"][team].append(meld)
            events = [event("team_meld", seat=seat, team=team, meld_id=meld["id"], rank=rank,
                            pieces=list(pieces), points=self.value(pieces))]
            before = 0
        else:
            meld = next(m for m in new["melds"][team] if m["id"] == meld_id)
            before = len(meld["pieces"])
            meld["pieces"].extend(pieces)
            events = [event("team_lay_off", seat=seat, team=team, meld_id=meld_id, rank=rank, pieces=list(pieces))]
        if before < CANASTA_SIZE <= len(meld["pieces"]):
            events.append(event("canasta", seat=seat, team=team, meld_id=meld["id"], rank=rank,
                                canasta=self.meld_kind(rank, meld["pieces"]), material=self.P.kind))
        return events
