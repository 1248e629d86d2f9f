"""The trick-taking games' presenter: four seats in two teams, my hand fanned at the bottom with only the
playable cards raised, the trick in the centre with each card placed toward its player, the contract and the
trump suit, the bidding and the calls as buttons drawn from the legal moves, team points and the match's score
on the score sheet, the deal-end summary (templates/tables/live/tricks/).

Every word of the game (the buttons, the calls, the score's units) is its engine's (`action_labels` /
`action_label`, `table_words`); the view's keys are the family's: `hand`, `playable`, `legal`, `trick`,
`last_trick`, `tricks_won`, `bids`, `bid`, `bidder`, `trump`, `calls`, `points`, `history`, `last_deal`, and
the match's score as the engine reads it out (`scoreboard`). Another seat's hand is never read (the view has
only its count)."""

import json

from markupsafe import Markup

from engine import cards, narration
from engine.base import TEAM_SEATS, team_of
from tables import families, live
from tables.presenters.base import Presenter
from tables.presenters.cards import card_ctx

# Where a seat sits seen from me, counter-clockwise play or not: the family seats four.
PLACES = ("s", "w", "n", "e")
PLACE_WORDS = {"s": "toi", "w": "à ta gauche", "n": "en face", "e": "à ta droite"}
TEAMS = tuple(TEAM_SEATS)
MACROS = "tables/live/tricks/tricks.jinja"
_hand_card = live.cached_macro(MACROS, "hand_card")


def tk_hand_card(card: dict, playing: bool = False, index: int = 0, shown_word: str = "") -> Markup:
    return _hand_card(card, bool(playing), index, shown_word)


def suit_ctx(suit: str | None) -> dict | None:
    if not suit:
        return None
    return {"code": suit, "symbol": cards.SUIT_SYMBOLS[suit], "name": cards.SUIT_NAMES_FR[suit],
            "red": suit in ("H", "D")}


def place_of(seat: int, me: int) -> str:
    return PLACES[(seat - me) % len(PLACES)]


def team_words(view: dict) -> dict:
    """« Nous » for my team, « Eux » for the other; a spectator reads the teams' letters."""
    mine = view.get("team")
    if mine not in TEAMS:
        return {t: f"Équipe {t}" for t in TEAMS}
    return {t: "Nous" if t == mine else "Eux" for t in TEAMS}


def call_label(engine, kind: str, view: dict) -> str:
    """A call of the deal in the engine's words: the label of the move that made it."""
    for action in (f"call_{kind}", f"declare_{kind}"):
        label = engine.action_label(action, view)
        if label:
            return label
    return kind


def bid_text(engine, bid: dict, view: dict) -> str:
    if bid.get("value"):
        return str(bid["value"])
    if bid.get("action") == "pass":
        return "Passe"
    return call_label(engine, bid.get("action", ""), view)


RISKY_PREFIX = "call_"  # the family's calls (call_…): a bet on the tricks to come


def move_buttons(engine, view: dict) -> list[dict]:
    """The legal moves other than playing a card, as buttons: one per move, those of one action grouped
    (the bid values, the suits, the combinations one may declare) under the action's label."""
    groups: list[dict] = []
    by_action: dict[str, dict] = {}
    for move in view.get("legal") or ():
        action = move.get("action")
        if "card" in move or action == "next_round":  # a card is played from the hand; the deal's end has its own
            continue
        group = by_action.get(action)
        if group is None:
            group = {"action": action, "label": engine.action_label(action, view) or action, "options": []}
            by_action[action] = group
            groups.append(group)
        vals = json.dumps({"kind": "move", **move}, ensure_ascii=False)
        label = group["label"]
        if "value" in move:  # what a screen reader says: « Enchérir 80 », the button shows « 80 »
            option = {"before": f"{label} ", "text": str(move["value"])}
        elif "suit" in move:
            suit = suit_ctx(move["suit"])
            option = {"before": f"{label} : ", "symbol": suit["symbol"], "text": suit["name"].capitalize(),
                      "red": suit["red"]}
        elif "cards" in move:
            # The group's label names the declaration already: the button shows the cards, a screen reader reads
            # their names.
            names = [cards.name_fr(c) for c in move["cards"]]
            option = {"before": label, "symbol": " ".join(cards.label(c) for c in move["cards"]),
                      "after": " : " + (", ".join(names[:-1]) + " et " + names[-1] if len(names) > 1 else names[0])}
        else:
            option = {"text": label}
        group["options"].append({**option, "vals": vals})
    for group in groups:
        group["single"] = len(group["options"]) == 1 and set(group["options"][0]) == {"text", "vals"}
        # « Passer » is the plain way on: the yellow button. A call stakes the deal on
        # one player's tricks: a secondary button, so a newcomer is not nudged toward the riskiest move.
        group["secondary"] = (group["action"] or "").startswith(RISKY_PREFIX)
    return groups


def hand_ctx(view: dict) -> tuple:
    playable = set(view.get("playable") or ())
    shown = set(view.get("shown") or ())
    return tuple(card_ctx(c, playable=c in playable, shown=c in shown) for c in view.get("hand") or ())


def seats_around(frame: dict, view: dict, me: int, engine, words: dict, board: dict) -> dict:
    """Each seat by its place (s, w, n, e) with its team, its part in the deal and its calls."""
    players = {p["seat"]: p for p in view.get("players") or ()}
    last_bid = {}
    for b in view.get("bids") or ():
        last_bid[b["seat"]] = b
    calls = {}
    for c in view.get("calls") or ():
        calls.setdefault(c["seat"], []).append(call_label(engine, c["kind"], view))
    shown = set(view.get("shown") or ())
    shown_cards = {}
    for j in board["shown"]:
        shown_cards.setdefault(j["seat"], []).extend(card_ctx(c) for c in j.get("cards") or () if c in shown)
    bidding = not view.get("trick") and view.get("bid") is None and bool(view.get("to_act"))
    out = {}
    for seat in frame["seats"]:
        pos = seat["position"]
        info = players.get(pos, {})
        team = info.get("team") or team_of(pos)
        bid = last_bid.get(pos) if bidding else None
        out[place_of(pos, me)] = {
            **seat,
            "place": place_of(pos, me),
            "team": team,
            "team_word": words[team],
            "is_partner": view.get("partner") == pos,
            "hidden_count": info.get("hidden_count") or 0,
            "is_bidder": view.get("bidder") == pos and view.get("bid") is not None,
            "bid_text": None if bid is None else bid_text(engine, bid, view),
            "calls": tuple(calls.get(pos, ())),
            "shown_cards": tuple(shown_cards.get(pos, ())),
        }
    return out


def trick_ctx(view: dict, me: int, words: dict, names: dict) -> dict | None:
    """The trick in the centre: each card toward its player; between tricks, the last one going to its
    winner's side (`won`)."""
    trick = view.get("trick") or {}
    plays = trick.get("cards") or ()
    won = None
    if not plays and view.get("last_trick"):
        won = view["last_trick"]
        plays = won.get("cards") or ()
    if not plays and not trick:
        return None
    winner = won.get("winner") if won else None
    return {
        "number": (won or trick).get("number"),
        "cards": tuple({**card_ctx(p["card"]), "place": place_of(p["seat"], me), "seat": p["seat"],
                        "player": names.get(p["seat"], ""), "lead": i == 0} for i, p in enumerate(plays)),
        "won": won is not None,
        "winner_place": place_of(winner, me) if winner is not None else None,
        "winner_name": names.get(winner, "") if winner is not None else "",
        "winner_team": words.get(won.get("team"), "") if won else "",
        "points": won.get("points") if won else None,
    }


def deal_end(engine, view: dict, words: dict, names: dict, board: dict) -> dict | None:
    last = view.get("last_deal")
    deal = board["deal"]
    if not last or not deal:
        return None
    unit = engine.table_words
    points = last.get("points") or {}
    call = last.get("call") or {}
    caller = last.get("caller")
    celebrate = ""
    if call.get("kind"):
        celebrate = call_label(engine, call["kind"], view)
    elif caller is not None and last.get("kind"):
        celebrate = call_label(engine, last["kind"], view)
    return {
        **last,
        "teams": tuple({"team": t, "word": words[t], "mine": t == view.get("team"),
                        "points": points.get(t, 0), "bonus": deal["bonus"].get(t, 0),
                        "tricks": (last.get("tricks_won") or {}).get(t, 0),
                        "match": deal["match"].get(t, 0),
                        "scored": last.get("team") == t, "declarers": last.get("declarers") == t}
                       for t in TEAMS),
        "bidder_name": names.get(last.get("bidder"), ""),
        "caller_name": names.get(caller, "") if caller is not None else "",
        "trump_ctx": suit_ctx(last.get("trump")),
        "winner_word": words.get(last.get("team"), ""),
        "celebrate": celebrate,
        "won": deal["won"],
        "won_word": unit["match_one"] if abs(deal["won"] or 0) < 2 else unit["match_many"],
        # the engine names the teams « l'équipe A / B »: a player, whose table says « Nous / Eux », reads
        # « ton équipe » / « l'équipe adverse »
        "reason": narration.for_reader(last.get("reason") or "", view.get("seat")),
    }


def history_rows(view: dict, names: dict, board: dict) -> tuple:
    return tuple({"round": row.get("round"), "bid": row.get("bid"), "bidder": names.get(row.get("bidder"), ""),
                  "trump": suit_ctx(row.get("trump")),
                  "won": {t: won if row.get("team") == t else 0 for t in TEAMS}}
                 for row, won in zip(view.get("history") or (), board["history_won"], strict=True))


class TricksPresenter(Presenter):
    family = "tricks"
    stylesheets = ("css/tricks.css",)
    folder = "tricks"
    pieces = ("opponents", "centre", "hand", "actions", "round_end", "scores")
    template_globals = {"tk_hand_card": tk_hand_card}  # the card faces are the cards family's (card_face, card_shown)

    def context(self, engine, view: dict, frame: dict, *, table, seats: list, me) -> dict:
        my_seat = view.get("seat") if view.get("seat") is not None else 0
        words = team_words(view)
        names = {s["position"]: s["name"] for s in frame["seats"]}
        board = engine.scoreboard(view)
        around = seats_around(frame, view, my_seat, engine, words, board)
        legal = view.get("legal") or ()
        my_team = view.get("team") if view.get("team") in TEAMS else "A"
        order = (my_team, "B" if my_team == "A" else "A")
        points = view.get("points") or {}
        tricks_won = view.get("tricks_won") or {}
        high = view.get("high") or {}
        bidder = view.get("bidder") if view.get("bid") is not None else high.get("seat")
        trump_known = bool(view.get("trump")) and not view.get("trump_hidden")
        return {
            "tk_seats": around,
            "tk_others": tuple(around[p] for p in ("w", "n", "e") if p in around),
            "tk_hand": hand_ctx(view),
            "tk_hidden": view.get("hidden_count") or 0,
            "tk_playing": any("card" in m for m in legal),
            "tk_buttons": move_buttons(engine, view),
            "tk_trick": trick_ctx(view, my_seat, words, names),
            "tk_trump": suit_ctx(view.get("trump")) if trump_known else None,
            # a solo call voids the named trumps: the caller's first card will name them
            "tk_trump_from": names.get(view.get("caller"), "") if view.get("caller") is not None and not trump_known
            else "",
            "tk_contract": None if bidder is None else {
                "name": names.get(bidder, ""), "place": place_of(bidder, my_seat),
                "value": view.get("bid") if view.get("bid") is not None else high.get("value"),
                "made": view.get("bid") is not None},
            "tk_calls": tuple({"label": call_label(engine, c["kind"], view), "name": names.get(c["seat"], ""),
                               "is_me": c["seat"] == view.get("seat")} for c in view.get("calls") or ()),
            "tk_teams": tuple({"team": t, "word": words[t], "mine": t == view.get("team"),
                               "points": points.get(t, 0), "bonus": board["bonus"].get(t, 0),
                               "tricks": tricks_won.get(t, 0), "match": board["match"].get(t, 0),
                               "players": " et ".join(names.get(p, "") for p in TEAM_SEATS[t])}
                              for t in order),
            "tk_target": board["target"],
            "tk_words": engine.table_words,
            "tk_deal": view.get("round"),
            "tk_history": history_rows(view, names, board),
            "tk_can_next": any(m.get("action") == "next_round" for m in legal),
            "tk_next_label": engine.action_label("next_round", view),
            "last_round": deal_end(engine, view, words, names, board),
        }


PRESENTER = families.register(TricksPresenter())
