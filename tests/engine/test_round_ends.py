"""Every round of every game ends (issue 31 §6): random legal play ends each round within a bound of moves.

Also the table-meld rummies' blocked round (§9 of rami.md, rami40.md, kalooki.md, rami-traditionnel.md, site
decision): the stock is rebuilt from the discard pile once a round; when it runs out again the round stops
and is scored as it stands. Before that decision a round where nothing could be laid any more (two players
holding one card each, the table all complete four-suit sets) went round for ever, the stock rebuilt again
and again.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games, narration
from tests.engine.test_table_meld_properties import SLUGS as RUMMIES
from tests.engine.test_table_meld_properties import all_cards, check_state, rig

# Moves of one round under random legal play, at most. Measured with `random_move` (2026-12, 15 matches of 3
# rounds for each seat count, 2-core machine): the longest rounds took Thanasis 386 moves, Gin 279, the four
# rummies 441 / 600 / 723 / 720 (Rami, Rami 40, Kalooki, Rami traditionnel), Rummikub 125, Canasta 526,
# Canasta tuiles 208, Thunee 38. Each bound is several times that, and each rests on a rule that ends the round:
# - Thanasis: a turn is draw + discard, and a third rebuild of the stock voids the round (§9): at most about
#   3 × 98 draws;
# - Gin: the stock is rebuilt once; down to 2 cards a second time the round is void (§9);
# - the four rummies: the stock is rebuilt once; when it runs out again the round is blocked (§9), so at most
#   one deck of draws; taking the discard instead does not use the stock, and a turn's staged lay-downs,
#   lay-offs and undos add moves (random play undoes a lot), hence the margin;
# - Rummikub: each turn draws from the pool or lays tiles; once the pool is empty, a whole round of passes
#   ends the round (§6);
# - Canasta (cards and tiles): the stock only shrinks; the round ends when it is empty (§9);
# - Thunee: 24 cards are played a deal, bidding and calls add a few moves.
BOUNDS = {
    "thanasis": 2000, "gin": 2000, "rami": 4000, "rami40": 4000, "kalooki": 4000, "rami-traditionnel": 4000,
    "rummikub": 2000, "canasta": 3000, "canasta-tuiles": 3000, "thunee": 500,
}
OVER = ("ROUND_OVER", "MATCH_OVER")


def test_every_game_has_a_bound():
    assert set(BOUNDS) == set(games.available())


def random_move(rnd: random.Random, legal: list[dict]) -> dict:
    """A random legal move: a random kind of action first, then one of its moves.

    Uniform over the moves themselves would make random play a poor model of a turn: with twenty lay-offs
    listed against one undo, the staged actions of one Rami 40 turn (a discard taken that cannot be used,
    so no discard is legal until the take is undone) drift up for tens of thousands of moves. A real turn is
    bounded by the turn timer and autoplay; this policy keeps play random and lets a turn end."""
    kind = rnd.choice(sorted({m["action"] for m in legal}))
    return rnd.choice([m for m in legal if m["action"] == kind])


def options_strategy(slug: str):
    info = games.get(slug).info
    return st.fixed_dictionaries({o.name: st.sampled_from([value for value, _ in o.choices]) for o in info.options})


@pytest.mark.parametrize("slug", games.available())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.binary(min_size=16, max_size=16).map(bytes.hex), policy=st.integers(0, 2**32))
def test_random_legal_play_ends_every_round_within_its_bound(slug, data, seed, policy):
    game = games.get(slug)
    info = game.info
    seats = data.draw(st.integers(info.min_players, info.max_players), label="seats")
    options = data.draw(options_strategy(slug), label="options")
    rnd = random.Random(policy)
    state = game.new_match(seats, options, seed)
    for _ in range(2):  # the first round and the next one (a new dealer, scores carried)
        for _ in range(BOUNDS[slug]):
            if state["phase"] in OVER:
                break
            seat = rnd.choice(game.to_act(state))
            state, _ = game.apply(state, seat, random_move(rnd, game.legal_moves(state, seat)))
        else:
            pytest.fail(f"{slug}: round {state['round']} still running after {BOUNDS[slug]} moves")
        if state["phase"] == "MATCH_OVER":
            break
        state, _ = game.apply(state, rnd.choice(state["active"]), {"action": "next_round"})


# ---------------------------------------------------------------- the rummies' blocked round

def _last_turn(slug, hands, *, rebuilds=1, options=None, scores=None):
    """Seat 0 in MELD, about to discard, the stock empty after `rebuilds` rebuilds; 2 seats."""
    game = games.get(slug)
    state = rig(game, hands, stock=[], options=options, scores=scores)
    state["rebuilds"] = rebuilds
    return game, state


@pytest.mark.parametrize("slug", RUMMIES)
def test_the_stock_out_a_second_time_blocks_the_round_and_counts_the_hands(slug):
    game, state = _last_turn(slug, {0: ["5S1", "KH1"], 1: ["9D1"]})
    new, events = game.apply(state, 0, {"action": "discard", "card": "KH1"})
    check_state(game, new, events)
    assert new["phase"] == "ROUND_OVER" and new["current"] is None
    over = next(e for e in events if e["kind"] == "round_over")
    assert over["winner"] is None and over["ending"] == "blocked"
    last = new["last_round"]
    assert last["ending"] == "blocked" and not last["void"] and last["winner"] is None
    assert [p["hand"] for p in last["players"]] == [["5S1"], ["9D1"]]
    expected = [0, 0] if slug == "rami-traditionnel" else [5, 9]  # nobody went out: nobody gains (§6)
    assert over["points"] == new["scores"] == new["history"][-1]["points"] == expected
    assert not new["history"][-1]["void"]
    assert game.legal_moves(new, 0) == [{"action": "next_round"}]
    text = " ".join(t["text"] for t in narration.turns([{"seat": 0, "events": narration.public_events(events)}],
                                                      {0: "Alice", 1: "Bruno"}))
    assert "La pioche est épuisée une seconde fois : la manche s'arrête" in text
    assert "posé toute" not in text
    assert ("personne n'est sorti ni ne marque" in text) == (slug == "rami-traditionnel")
    following, _ = game.apply(new, 1, {"action": "next_round"})
    assert following["round"] == 2 and following["rebuilds"] == 0 and following["stock"]


@pytest.mark.parametrize("slug", RUMMIES)
def test_the_first_time_the_stock_runs_out_it_is_rebuilt(slug):
    game, state = _last_turn(slug, {0: ["5S1", "KH1"], 1: ["9D1", "4C1"]}, rebuilds=0)
    new, events = game.apply(state, 0, {"action": "discard", "card": "KH1"})
    assert new["phase"] == "DRAW" and new["current"] == 1  # the stock empty, never rebuilt yet: play on
    pile = len(new["discard"])
    new, events = game.apply(new, 1, {"action": "draw_stock"})
    rebuilt = next(e for e in events if e["kind"] == "stock_rebuilt")
    assert rebuilt["rebuilds"] == 1 and rebuilt["cards"] == pile - 1
    assert len(new["stock"]) == pile - 2 and new["discard"] == ["KH1"]
    assert sorted(all_cards(new)) == sorted(game.deck)


@pytest.mark.parametrize("slug", RUMMIES)
def test_going_out_on_the_last_card_of_the_stock_wins_the_round(slug):
    """The stock runs out during a turn: that turn is played out; the round stops only when the next one starts."""
    game, state = _last_turn(slug, {0: ["KH1"], 1: ["9D1"]})
    new, events = game.apply(state, 0, {"action": "discard", "card": "KH1"})
    assert new["last_round"]["winner"] == 0 and new["last_round"]["ending"] != "blocked"


@pytest.mark.parametrize("slug", ["rami", "rami40", "kalooki"])
def test_a_blocked_round_that_puts_everyone_over_the_limit_ends_the_match(slug):
    game, state = _last_turn(slug, {0: ["5S1", "KH1"], 1: ["9D1"]}, options={"point_limit": "1"})
    new, events = game.apply(state, 0, {"action": "discard", "card": "KH1"})
    assert new["phase"] == "MATCH_OVER"
    result = game.result(new)
    assert result["winners"] == [0] and result["ranking"] == [0, 1] and result["reason"] == "all_eliminated"
    assert new["last_round"]["eliminated"] == [0, 1]

    _, tie = _last_turn(slug, {0: ["5S1", "KH1"], 1: ["5D1"]}, options={"point_limit": "1"})
    new, _ = game.apply(tie, 0, {"action": "discard", "card": "KH1"})
    assert game.result(new)["winners"] == [0, 1]  # equal totals share the win

    _, some = _last_turn(slug, {0: ["5S1", "KH1"], 1: ["9D1"]}, options={"point_limit": "50"}, scores=[10, 45])
    new, events = game.apply(some, 0, {"action": "discard", "card": "KH1"})
    assert new["scores"] == [15, 54] and game.result(new)["winners"] == [0]
    assert [e["seat"] for e in events if e["kind"] == "eliminated"] == [1]


def test_a_blocked_round_of_a_one_round_rami_traditionnel_is_dealt_again():
    game, state = _last_turn("rami-traditionnel", {0: ["5S1", "KH1"], 1: ["9D1"]}, options={"target": "1"})
    new, _ = game.apply(state, 0, {"action": "discard", "card": "KH1"})
    assert new["phase"] == "ROUND_OVER" and game.result(new) is None
    new, _ = game.apply(new, 0, {"action": "next_round"})
    assert new["round"] == 2 and new["phase"] == "DRAW"

