"""The trick-taking family's base (engine/games/_tricks.py) carries a second game with nothing but that game's
own rules: `Plis`, a small Belote-like game written here (never registered): 32 cards, eight each, trumps the
suit of the dealer's last card, a player void in the led suit must trump if he can, the deal to the team with
more card points, the match to two deals. Seats, dealing, following suit, tricks, their display, refusals,
autoplay and leaving all come from `TrickGame`."""

import pytest

from engine import IllegalMove
from engine.base import GameInfo, event, team_of
from engine.games import _tricks as tr

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
DECK = tuple(f"{r}{s}1" for s in tr.SUITS for r in RANKS)
ORDER = tr.RankOrder(
    trump=("J", "9", "A", "10", "K", "Q", "8", "7"),
    plain=("A", "10", "K", "Q", "J", "9", "8", "7"),
    trump_points={"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0},
    plain_points={"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0},
)
TARGET = 2


class Plis(tr.TrickGame):
    info = GameInfo(slug="plis-test", name="Plis", min_players=4, max_players=4, default_players=4, teams=True)
    deck = DECK
    order = ORDER
    messages = {**tr.MESSAGES, "must_trump": "Tu dois couper."}

    def new_match(self, seats, options, seed):
        state = {"game": self.slug, "seats": 4, "options": {}, "seed": seed, "phase": None, "round": 0,
                 "active": [0, 1, 2, 3], "scores": [0, 0, 0, 0], "history": [], "dealer": None, "current": None,
                 "hands": [[], [], [], []], "stock": [], "trump": None, "leader": None, "trick": [], "tricks": [],
                 "points": {"A": 0, "B": 0}, "left": [], "result": None}
        self._start_deal(state, 0)
        return state

    def _new_deal(self, state):
        order = self._shuffle_and_deal(state, f"deal{state['round']}", 8)
        state.update({"trump": tr.suit(state["hands"][state["dealer"]][-1]), "trick": [], "tricks": [],
                      "points": {"A": 0, "B": 0}})
        self._start_play(state, order[0])
        return [event("deal", round=state["round"], dealer=state["dealer"], seats=order)]

    def _void_rule(self, state, seat, allowed):
        return [c for c in allowed if tr.suit(c) == state["trump"]] or allowed

    def _void_refusal(self, state, seat, card):
        return self.illegal("must_trump")

    def _score(self, new):
        team = "A" if new["points"]["A"] > new["points"]["B"] else "B"
        new["scores"] = [s + (team_of(seat) == team) for seat, s in enumerate(new["scores"])]
        new["history"] = new["history"] + [{"round": new["round"], "points": dict(new["points"]), "team": team}]
        new["current"] = None
        if max(new["scores"]) < TARGET:
            new["phase"] = tr.ROUND_OVER
            return [event("deal_over", team=team)]
        new["phase"] = tr.MATCH_OVER
        new["result"] = {"winners": list(tr.TEAMS[team]), "ranking": [*tr.TEAMS[team], *tr.TEAMS[tr.other(team)]]}
        return [event("deal_over", team=team), event("match_over", team=team)]


GAME = Plis()


def position(hands, trump="S", leader=3):
    state = GAME.new_match(4, {}, "5eed")
    state.update({"hands": [list(h) for h in hands], "trump": trump, "leader": leader, "current": leader})
    return state


def test_a_whole_match_by_autoplay_every_deal_has_eight_tricks_and_all_the_points():
    state = GAME.new_match(4, {}, "ab" * 16)
    assert [len(h) for h in state["hands"]] == [8, 8, 8, 8] and state["stock"] == []
    assert state["current"] == 3  # the eldest: counter-clockwise from dealer 0
    while state["phase"] != tr.MATCH_OVER:
        for seat in GAME.to_act(state):
            assert GAME.legal_moves(state, seat) == [
                {"action": "play_card", "card": c} for c in GAME.view(state, seat)["playable"]]
        seat = (GAME.to_act(state) or [0])[0]
        before = state
        state, events = GAME.apply(state, seat, GAME.autoplay(state, seat))
        if state["phase"] != tr.PLAY and before["phase"] == tr.PLAY:
            assert len(state["tricks"]) == 8 and sum(state["points"].values()) == 152
            assert GAME.public_view(state)["tricks_won"]["A"] + GAME.public_view(state)["tricks_won"]["B"] == 8
    assert max(state["scores"]) == TARGET and GAME.result(state)["winners"] in ([0, 2], [1, 3])


def test_follow_suit_then_the_games_own_rule_for_a_void_hand():
    hands = [["7H1", "8C1"], ["9D1", "AS1"], ["KH1", "QH1"], ["AH1", "JS1"]]
    state, _ = GAME.apply(position(hands), 3, {"action": "play", "card": "AH1"})  # the family's alias
    assert GAME.view(state, 2)["playable"] == ["KH1", "QH1"]
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 2, {"action": "play_card", "card": "9D1"})
    assert refused.value.code == "card_not_in_hand"
    state, _ = GAME.apply(state, 2, {"action": "play_card", "card": "QH1"})
    assert GAME.view(state, 1)["playable"] == ["AS1"]  # void in hearts: must trump
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 1, {"action": "play_card", "card": "9D1"})
    assert (refused.value.code, refused.value.message) == ("must_trump", "Tu dois couper.")
    state, _ = GAME.apply(state, 1, {"action": "play_card", "card": "AS1"})
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, {"action": "play_card", "card": "8C1"})
    assert (refused.value.code, refused.value.message) == ("must_follow", "Tu dois fournir à cœur.")
    state, events = GAME.apply(state, 0, {"action": "play_card", "card": "7H1"})
    trick = events[-1]
    assert (trick["kind"], trick["winner"], trick["team"], trick["points"]) == ("trick", 1, "B", 11 + 3 + 11)
    view = GAME.view(state, 0)
    assert view["last_trick"]["winner"] == 1 and view["tricks_won"] == {"A": 0, "B": 1}
    assert view["trick"] == {"leader": 1, "cards": [], "number": 2} and view["current"] == 1
    assert view["points"] == {"A": 0, "B": 25} and view["partner"] == 2 and view["direction"] == "ccw"


def test_the_familys_refusals_and_leaving():
    state = GAME.new_match(4, {}, "cd" * 16)
    card = state["hands"][0][0]
    for seat, move, code in [
        (0, {"action": "play_card", "card": card}, "not_your_turn"),
        (3, {"action": "bid", "value": 80}, "unknown_action"),
        (3, "play", "bad_move"),
        (7, {"action": "play_card", "card": card}, "bad_seat"),
        (3, {"action": "play_card", "card": "ZZ1"}, "unknown_card"),
        (3, {"action": "play_card", "card": card}, "card_not_in_hand"),
        (3, {"action": "next_round"}, "round_not_over"),
    ]:
        with pytest.raises(IllegalMove) as refused:
            GAME.apply(state, seat, move)
        assert refused.value.code == code
    left, events = GAME.apply(state, 2, {"action": "leave"})
    assert left["left"] == [2] and events == [{"kind": "left", "audience": "all", "seat": 2}]
    assert GAME.view(left, 0)["players"][2] == {"seat": 2, "team": "A", "hand_count": 8, "left": True}
