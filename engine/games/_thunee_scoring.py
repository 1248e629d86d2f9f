"""Thunee's count of a finished deal (engine/games/thunee.py is the game): §6, exactly one team scores balls
(a contract made or set, a Thunee or blind Thunee made or failed, a Double, a Khanuck), the deal's summary
(`last_deal`, a `history` row, the `deal_over` event), then §7, the match to 12 balls (13 after a Khanuck with
`khanuck_13`; a 2-ball lead with `two_ball_margin`)."""

from engine.base import copy_data, event, team_of
from engine.games import _tricks as tr
from engine.games._thunee_rules import (
    BLIND,
    MATCH_OVER,
    ROUND_OVER,
    TEAMS,
    THUNEE,
    balls_fr,
    other,
    team_jodhis,
    team_name,
)


def score(new: dict) -> list[dict]:
    """§6: exactly one team scores balls; then the match end of §7 (mutates the forked `new`)."""
    team, balls, outcome_id, reason = outcome(new)
    jodhi_points = {t: team_jodhis(new, t) for t in TEAMS}
    tricks_won = tr.tricks_won(new["tricks"])
    new["balls"] = dict(new["balls"])
    new["balls"][team] += balls
    new["scores"] = [new["balls"][team_of(s)] for s in range(4)]
    summary = {
        "round": new["round"], "dealer": new["dealer"], "kind": new["kind"], "bidder": new["bidder"],
        "bid": new["bid"], "declarers": new["declarers"], "trump": new["trump"], "caller": new["caller"],
        "call": copy_data(new["call"]), "points": dict(new["points"]), "jodhi_points": jodhi_points,
        "tricks_won": tricks_won, "outcome": outcome_id, "team": team, "balls_won": balls,
        "balls": dict(new["balls"]), "reason": reason,
    }
    new["last_deal"] = summary
    row = {k: copy_data(v) for k, v in summary.items() if k not in ("declarers", "jodhi_points",
                                                                     "tricks_won", "reason")}
    new["history"] = new["history"] + [row]
    new["current"] = None
    new["queue"] = []
    told = {("deal_kind" if k == "kind" else k): v for k, v in copy_data(summary).items()}
    events = [event("deal_over", **told)]
    winner = match_winner(new, summary)
    if winner is None:
        new["phase"] = ROUND_OVER
        return events
    new["phase"] = MATCH_OVER
    winners = list(TEAMS[winner])
    losers = list(TEAMS[other(winner)])
    new["result"] = {"winners": winners, "ranking": winners + losers, "scores": list(new["scores"]),
                     "balls": dict(new["balls"]), "team": winner, "target": new["target"],
                     "reason": "target"}
    return events + [event("match_over", winners=winners, team=winner, balls=dict(new["balls"]))]


def outcome(new: dict) -> tuple[str, int, str, str]:
    """(scoring team, balls, outcome id, French reason) of the deal just finished."""
    tricks = new["tricks"]
    if new["kind"] in (THUNEE, BLIND):
        caller = new["caller"]
        team = team_of(caller)
        blind = new["kind"] == BLIND
        name = "Thunee aveugle" if blind else "Thunee"
        if len(tricks) == 6 and all(t["winner"] == caller for t in tricks):
            balls = 4 if blind else 2
            return team, balls, f"{new['kind']}_made", \
                f"{name} réussi : six plis sur six. {balls_fr(balls)} pour {team_name(team)}."
        balls = 8 if blind else 4
        lost = tricks[-1]["number"]
        return other(team), balls, f"{new['kind']}_failed", \
            f"{name} chuté : le pli {lost} est pris par un autre joueur. " \
            f"{balls_fr(balls)} pour {team_name(other(team))}."
    call = new["call"]
    last = tricks[-1]["team"]
    if call and call["kind"] == "double":
        team = call["team"]
        if last == team:
            return team, 2, "double_made", f"Double réussi : {team_name(team)} prend les six plis. " \
                                           f"{balls_fr(2)} pour {team_name(team)}."
        return other(team), 4, "double_failed", \
            f"Double chuté : {team_name(other(team))} prend le dernier pli. " \
            f"{balls_fr(4)} pour {team_name(other(team))}."
    if call and call["kind"] == "khanuck":
        team = call["team"]
        jk = team_jodhis(new, team)
        po = new["points"][other(team)]
        if last != team:
            return other(team), 4, "khanuck_failed", \
                f"Khanuck chuté : {team_name(other(team))} prend le dernier pli. " \
                f"{balls_fr(4)} pour {team_name(other(team))}."
        if po < jk + 10:
            return team, 3, "khanuck_made", \
                f"Khanuck réussi : dernier pli, et {team_name(other(team))} n'a que {po} points " \
                f"(moins de {jk} + 10). {balls_fr(3)} pour {team_name(team)}."
        return other(team), 4, "khanuck_failed", \
            f"Khanuck chuté : {team_name(other(team))} a {po} points, pas moins de {jk} + 10. " \
            f"{balls_fr(4)} pour {team_name(other(team))}."
    team = new["declarers"]
    pd = new["points"][team]
    jd = team_jodhis(new, team)
    detail = f"{pd + jd} points ({pd} en plis + {jd} de Jodhi)" if jd else f"{pd} points"
    if pd + jd >= new["bid"]:
        return team, 1, "made", f"Contrat réussi : {team_name(team)} a {detail} pour {new['bid']} " \
                                f"annoncés. {balls_fr(1)} pour {team_name(team)}."
    return other(team), 1, "set", f"Contrat chuté : {team_name(team)} n'a que {detail} pour " \
                                  f"{new['bid']} annoncés. {balls_fr(1)} pour {team_name(other(team))}."


def match_winner(new: dict, summary: dict) -> str | None:
    """§7: the target reached (and a 2-ball lead with `two_ball_margin`); the tie-break on the deal's
    card points plus Jodhis if both teams qualify (unreachable when one team scores per deal)."""
    balls = new["balls"]
    margin = 2 if new["options"]["two_ball_margin"] else 0
    ready = [t for t in TEAMS if balls[t] >= new["target"] and balls[t] - balls[other(t)] >= margin]
    if len(ready) <= 1:
        return ready[0] if ready else None
    deal_points = {t: summary["points"][t] + summary["jodhi_points"][t] for t in TEAMS}
    if deal_points["A"] == deal_points["B"]:
        return summary["team"]
    return max(TEAMS, key=lambda t: deal_points[t])
