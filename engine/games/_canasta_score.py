"""Partnership Canasta (engine/games/_canasta.py), scoring: a hand's score per team (melds, canasta bonuses, red
3s, blocking 3s left in hand, going out, the pieces left in hand), the end of a round (`last_round`, the history
row) and of the match (`match_decided`, set by each rule set's subclass; `result`)."""

from collections import Counter

from engine.base import event, team_of
from engine.games._canasta_rules import MATCH_OVER, ROUND_OVER, TEAMS


class ScoringMixin:
    """`CanastaGame`'s scoring of a hand and of the match (it uses the game's `rules`, `P`, `meld_kind`,
    `value`)."""

    def score_team(self, state: dict, team: str, went_out: int | None, concealed: bool) -> dict:
        R, P = self.rules, self.P
        melds = state["melds"][team]
        kinds = Counter(self.meld_kind(m["rank"], m["pieces"]) for m in melds)
        canastas = {k: kinds.get(k, 0) for k in ("clean", "dirty", "twos_clean", "twos_dirty")}
        melds_points = sum(self.value(m["pieces"]) for m in melds)
        canasta_bonus = sum(R.bonus[k] * n for k, n in canastas.items())
        n3 = len(state["red3s"][team])
        red3 = R.red3_all if n3 == 4 else R.red3_each * n3
        if not melds:
            red3 = -red3
        seats = [s for s in range(4) if team_of(s) == team]
        hands = [p for s in seats for p in state["hands"][s]]
        black3 = -R.black3_in_hand * sum(1 for p in hands if p in P.block_threes)
        going_out = 0
        if went_out is not None and team_of(went_out) == team:
            going_out = R.concealed if concealed and R.concealed else R.going_out
        hand_points = self.value(hands)
        total = melds_points + canasta_bonus + red3 + black3 + going_out - hand_points
        return {"melds_points": melds_points, "canasta_bonus": canasta_bonus, "closed_bonus": canasta_bonus,
                "canastas": canastas,
                "red3s": n3, "red3_points": red3, "black3_points": black3, "going_out": going_out,
                "hand_points": hand_points, "total": total}

    def _end_round(self, new: dict, went_out: int | None, ending: str, events: list) -> tuple[dict, list]:
        concealed = ending == "concealed"
        teams = {t: self.score_team(new, t, went_out, concealed) for t in TEAMS}
        totals = {t: new["team_scores"][t] + teams[t]["total"] for t in TEAMS}
        for t in TEAMS:
            teams[t]["score"] = totals[t]
        new["team_scores"] = totals
        new["scores"] = [totals[team_of(s)] for s in range(4)]
        new["last_round"] = {"round": new["round"], "dealer": new["dealer"], "ending": ending,
                             "went_out": went_out, "hands": [self.P.sort(h) for h in new["hands"]],
                             "teams": teams}
        points = {t: teams[t]["total"] for t in TEAMS}
        canastas = {t: sum(teams[t]["canastas"].values()) for t in TEAMS}
        new["history"] = [*new["history"], {"round": new["round"], "dealer": new["dealer"], "ending": ending,
                                            "went_out": went_out, "points": points, "totals": dict(totals),
                                            "canastas": canastas}]
        new["phase"] = ROUND_OVER
        new["staged"] = []
        new["question"] = None
        events = [*events, event("round_over", round=new["round"], ending=ending, went_out=went_out,
                                 points=points, totals=dict(totals))]
        if self.match_decided(new):
            winner = "A" if totals["A"] > totals["B"] else "B"
            new["phase"] = MATCH_OVER
            winners = [s for s in range(4) if team_of(s) == winner]
            losers = [s for s in range(4) if team_of(s) != winner]
            new["result"] = {"winners": winners, "ranking": winners + losers, "winning_team": winner,
                             "scores": new["scores"], "team_scores": dict(totals), "rounds": new["round"],
                             "reason": "score"}
            events.append(event("match_over", winners=winners, team=winner, totals=dict(totals)))
        return new, events

    def match_decided(self, state: dict) -> bool:
        raise NotImplementedError

    def result(self, state: dict) -> dict | None:
        return state["result"] if state["phase"] == MATCH_OVER else None
