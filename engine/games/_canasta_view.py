"""What a seat (or a spectator) of a partnership Canasta sees: the view keys are listed in the docstring of
engine/games/_canasta.py."""

from engine.base import team_of
from engine.games._canasta_rules import CANASTA_SIZE, MATCH_OVER, MESSAGES, ROUND_OVER, TEAMS


def meld_view(game, meld: dict) -> dict:
    """A team meld as the table shows it: naturals first, the count toward 7, the canasta it is."""
    rank, pieces = meld["rank"], meld["pieces"]
    naturals = [p for p in pieces if not game.is_wild_in(rank, p)]
    wilds = [p for p in pieces if game.is_wild_in(rank, p)]
    shown = game.P.sort(naturals) + game.P.sort(wilds)
    kind = game.meld_kind(rank, pieces)
    toward = rank != "3"  # 3s are melded only to go out, four at most (§5): never a canasta
    return {"id": meld["id"], "team": meld["team"], "rank": rank, "rank_name": game.P.rank_name(rank),
            "pieces": shown, "cards": shown, "naturals": len(naturals), "wilds": len(wilds),
            "count": len(pieces), "to_seven": max(0, CANASTA_SIZE - len(pieces)) if toward else None,
            "toward": toward, "canasta": kind, "closed": kind,
            "points": game.value(pieces), "bonus": game.rules.bonus[kind] if kind else 0}


def team_view(game, state: dict, team: str, melds: list | None = None) -> dict:
    ms = state["melds"][team] if melds is None else melds
    return {"score": state["team_scores"][team], "minimum": state["minimums"][team],
            "melded": state["melded"][team], "red3s": list(state["red3s"][team]),
            "canastas": sum(1 for m in ms if len(m["pieces"]) >= CANASTA_SIZE),
            "melds": [meld_view(game, m) for m in ms]}


def joker_refusal(game, state: dict, seat: int, legal: list) -> str | None:
    """Why the Joker button is shown disabled at this seat's draw (§9): no joker tile left in the stock, or none
    on the player's account. None when the seat is not at its draw (the button is not shown then)."""
    if not any(m["action"] == "draw_stock" for m in legal) or state["turn"]["joker"]:
        return None
    # The account first: a player who could not take a joker anyway learns nothing of the hidden stock.
    if state["jokers"][seat] <= 0:
        return MESSAGES["no_joker_balance"]
    if not any(game.P.rank[p] == game.P.joker_rank for p in state["stock"]):
        return MESSAGES["no_joker_left"]
    return None


def view(game, state: dict, seat: int | None) -> dict:
    """The view of `seat` (None: a spectator)."""
    P = game.P
    pile = state["pile"]
    top = pile[-1] if pile else None
    over = state["phase"] in (ROUND_OVER, MATCH_OVER)
    view = {
        "game": game.slug, "pieces": P.kind, "phase": state["phase"], "round": state["round"],
        "me": seat, "seat": seat, "team": team_of(seat) if seat is not None else None,
        "partner": game.partner(seat) if seat is not None else None, "seats": 4,
        "options": dict(state["options"]), "dealer": state["dealer"],
        "current": None if over else state["current"], "to_act": game.to_act(state),
        "direction": game.rules.direction, "left": list(state["left"]),
        "hand": [], "hand_counts": [len(h) for h in state["hands"]],
        "teams": {t: team_view(game, state, t) for t in TEAMS},
        "pile": {"top": top, "size": len(pile), "frozen": state["frozen"],
                 "takeable": top is not None and not P.is_wild(top) and P.rank[top] != "3"},
        "stock_count": len(state["stock"]),
        "scores": list(state["scores"]), "team_scores": dict(state["team_scores"]),
        "staged": None, "question": dict(state["question"]) if state["question"] else None,
        "permission": None if over else state["turn"]["permission"],
        "legal": [], "joker_balance": None, "joker_available": None, "joker_refusal": None,
        "last_round": state["last_round"] if over else None,
        "history": list(state["history"]), "result": game.result(state),
    }
    if seat is None:
        return view
    hand, melds = game.preview(state, seat)
    view["hand"] = P.sort(hand)
    view["legal"] = game.legal_moves(state, seat)
    # Why this seat cannot take the pile now: its own hand decides, so only its view says it.
    can_take = any(m["action"] == "take_pile" for m in view["legal"])
    view["pile"]["refusal"] = None if can_take else game.take_refusal(state, seat)
    if game.info.account_jokers:
        view["joker_balance"] = state["jokers"][seat]
        view["joker_available"] = any(m["action"] == "take_joker" for m in view["legal"])
        view["joker_refusal"] = None if view["joker_available"] else joker_refusal(game, state, seat, view["legal"])
    if seat == state["current"] and state["staged"] and not over:
        team = team_of(seat)
        points = sum(game.value(e["pieces"]) for e in state["staged"])
        view["staged"] = {
            "actions": [{"action": e["action"], "meld_id": e["meld_id"], "rank": e["rank"],
                         "pieces": list(e["pieces"])} for e in state["staged"]],
            "hand_after": P.sort(hand), "melds_after": [meld_view(game, m) for m in melds], "points": points,
            "opening_ok": state["melded"][team] or state["turn"]["took_pile"] or points >= state["minimums"][team],
        }
    return view
