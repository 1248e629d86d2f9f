"""Partnership Canasta (engine/games/_canasta.py), going out: the cards' « Partenaire, puis-je sortir ? » (the
question, the partner's answer, which binds: a « oui » obliges to go out when `go_out_plan` finds a way, a « non »
forbids it this turn), the concealed going out, `go_out_plan` (a simple way out from here, as moves) and the
`go_out` move (committed by engine/games/_canasta_staging.py)."""

from engine.base import event, team_of
from engine.games._canasta_rules import CANASTA_SIZE, DRAW, MELD, illegal


class GoOutMixin:
    """`CanastaGame`'s going out and the partner's question (it uses the game's `rules`, `P`, `_need_phase`,
    `_fork`, `partner`, `preview`, `_commit`)."""

    # ------------------------------------------------------------ the partner's question

    def _do_ask_go_out(self, state, seat, move):
        if not self.rules.go_out_question:
            raise illegal("no_question_here")
        self._need_phase(state, DRAW, MELD)
        if state["turn"]["asked"]:
            raise illegal("already_asked")
        if state["staged"] or state["turn"]["took_pile"]:
            raise illegal("ask_before_table")
        new = self._fork(state)
        new["turn"]["asked"] = True
        new["question"] = {"seat": seat, "partner": self.partner(seat), "answer": None}
        return new, [event("ask_go_out", seat=seat)]

    def _do_answer_go_out(self, state, seat, move):
        """The partner answers, out of turn (`_apply` calls this before its turn checks)."""
        q = state["question"]
        if not q or q["answer"] is not None or q["partner"] != seat:
            raise illegal("no_question")
        answer = move.get("answer")
        if answer not in ("yes", "no"):
            raise illegal("bad_answer")
        new = self._fork(state)
        new["question"]["answer"] = answer
        new["turn"]["permission"] = answer
        return new, [event("answer_go_out", seat=seat, answer=answer)]

    # ------------------------------------------------------------ going out

    def _concealed(self, state: dict, seat: int, melds: list) -> bool:
        """Cards: no meld nor lay-off by this player before this turn, a whole canasta of his own laid now."""
        if self.rules.concealed is None or state["has_melded"][seat] or state["turn"]["took_pile"]:
            return False
        new_ids = {e["meld_id"] for e in state["staged"] if e["action"] == "meld"}
        return any(m["id"] in new_ids and len(m["pieces"]) >= CANASTA_SIZE for m in melds)

    def go_out_plan(self, state: dict, seat: int) -> list | None:
        """A simple way to go out from here, as moves (new melds, lay-offs, then the discard or `go_out`), or
        None: every natural onto the team's meld of its rank or into a new meld (a pair with a wild), the wilds
        into the new melds then onto the team's melds, at most one piece left to discard, a canasta at the end,
        the minimum if the team must still open (unless concealed). The go-out permission's « oui » binds when
        this finds a way (cards only: the tile game has no question)."""
        P, R = self.P, self.rules
        team = team_of(seat)
        hand, melds = self.preview(state, seat)
        existing = {m["rank"]: m for m in melds}
        sizes = {m["id"]: len(m["pieces"]) for m in melds}
        room = {m["id"]: R.max_wilds - sum(1 for p in m["pieces"] if self.is_wild_in(m["rank"], p))
                for m in melds if m["rank"] != "3"}
        by_rank: dict = {}
        for p in P.sort(hand):
            if not P.is_wild(p):
                by_rank.setdefault(P.rank[p], []).append(p)
        wilds = sorted((p for p in hand if P.is_wild(p)), key=lambda p: (P.value[p], P.order[p]))
        lay_offs, groups, pairs, left = [], [], [], []
        for rank, naturals in by_rank.items():
            if rank in existing:
                lay_offs.append({"action": "lay_off", "cards": naturals, "meld_id": existing[rank]["id"]})
                sizes[existing[rank]["id"]] += len(naturals)
            elif rank == "3":
                ok = R.black_three_meld and 3 <= len(naturals) <= 4
                (groups.append(["3", naturals]) if ok else left.extend(naturals))
            elif len(naturals) >= 3:
                groups.append([rank, naturals])
            elif len(naturals) == 2:
                pairs.append([rank, naturals])
            else:
                left += naturals
        for rank, naturals in pairs:
            if wilds:
                groups.append([rank, naturals + [wilds.pop(0)]])
            else:
                left += naturals
        for w in list(wilds):
            group = next((g for g in groups if g[0] != "3" and self.meld_error(g[0], g[1] + [w]) is None), None)
            if group:
                group[1].append(w)
                wilds.remove(w)
                continue
            meld_id = next((i for i, r in room.items() if r > 0), None)
            if meld_id:
                lay_offs.append({"action": "lay_off", "cards": [w], "meld_id": meld_id})
                room[meld_id] -= 1
                sizes[meld_id] += 1
                wilds.remove(w)
        left += wilds
        if len(left) > 1 or not R.go_out_action or (left and state["turn"]["last_red3"]):
            return None  # after a last red 3 there is no discard: out only by melding everything
        if not any(n >= CANASTA_SIZE for n in sizes.values()) and not any(len(g[1]) >= CANASTA_SIZE for g in groups):
            return None
        if not state["melded"][team] and not state["turn"]["took_pile"]:
            points = sum(self.value(e["pieces"]) for e in state["staged"])
            points += sum(self.value(g[1]) for g in groups) + sum(self.value(m["cards"]) for m in lay_offs)
            staged_new = {e["meld_id"] for e in state["staged"] if e["action"] == "meld"}
            concealed = (R.concealed is not None and not state["has_melded"][seat]
                         and (any(len(g[1]) >= CANASTA_SIZE for g in groups)
                              or any(sizes[i] >= CANASTA_SIZE for i in staged_new)))
            if points < state["minimums"][team] and not concealed:
                return None
        plan = [{"action": "meld", "cards": g[1]} for g in groups] + lay_offs
        plan.append({"action": "discard", "card": left[0]} if left else {"action": "go_out"})
        return plan

    def _do_go_out(self, state, seat, move):
        if not self.rules.go_out_action:
            raise illegal("keep_a_piece")
        self._need_phase(state, MELD)
        return self._commit(state, seat, None)
