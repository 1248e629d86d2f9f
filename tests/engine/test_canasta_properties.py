"""Partnership Canastas (cards and tiles): properties under random play, for both rule sets.

Also the shared helpers of test_canasta.py and test_canasta_tuiles.py (`rig`, `all_pieces`, `play`).
"""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove, games
from engine.base import team_of, visible_to

SLUGS = ["canasta", "canasta-tuiles"]
DECK_SIZES = {"canasta": 108, "canasta-tuiles": 106}
OVER = ("ROUND_OVER", "MATCH_OVER")
SEED = "ca5a" * 16


# ---------------------------------------------------------------- helpers shared by the game tests

def all_pieces(state):
    return ([p for h in state["hands"] for p in h] + state["stock"] + state["pile"]
            + [p for t in "AB" for m in state["melds"][t] for p in m["pieces"]]
            + state["red3s"]["A"] + state["red3s"]["B"])


def rig(game, hands, *, current=0, phase="MELD", melds=None, pile=(), frozen=None, stock=None, scores=None,
        melded=None, red3s=None, options=None, has_melded=None, fill=True):
    """A mid-hand state with chosen hands, team melds, pile and stock; other hands filled (11 pieces) from the
    rest, the rest in the stock (unless `stock` is given: then the unused pieces go to the bottom of the pile),
    pieces conserved. melds: {"A": [(rank, [ids])], "B": [...]}."""
    state = copy.deepcopy(game.new_match(4, options or {}, SEED))
    table = {"A": [], "B": []}
    seq = 0
    for team, ms in (melds or {}).items():
        for rank, pieces in ms:
            seq += 1
            table[team].append({"id": f"M{seq}", "team": team, "rank": rank, "pieces": list(pieces)})
    red3s = {"A": [], "B": [], **(red3s or {})}
    used = Counter([*pile, *(p for h in hands.values() for p in h), *(stock or ()),
                    *(p for ms in table.values() for m in ms for p in m["pieces"]), *red3s["A"], *red3s["B"]])
    assert not [p for p, n in used.items() if n > 1], "a piece used twice"
    bonus = game.rules.pieces.bonus_threes
    pool = [p for p in game.rules.pieces.deck if p not in used]
    extras = [p for p in pool if p in bonus]  # spare red 3s go to the teams' areas, never to a hand
    pool = [p for p in pool if p not in bonus]
    full = {s: list(h) for s, h in hands.items()}
    for s in range(4):
        if s not in full:
            full[s], pool = (pool[:11], pool[11:]) if fill else ([], pool)
    state["hands"] = [full[s] for s in range(4)]
    for i, p in enumerate(extras):
        red3s["AB"[i % 2]].append(p)
    if stock is None:
        state["stock"], state["pile"] = pool, list(pile)
    else:
        state["stock"], state["pile"] = list(stock), pool + list(pile)
    state["melds"] = table
    state["meld_seq"] = seq
    state["red3s"] = red3s
    state["melded"] = dict(melded) if melded is not None else {t: bool(table[t]) for t in "AB"}
    state["has_melded"] = list(has_melded) if has_melded is not None else [False] * 4
    state["current"] = current
    state["phase"] = phase
    state["staged"] = []
    state["question"] = None
    state["final_turn"] = False
    state["seen_first"] = [True] * 4
    state["turn"] = {"drew": phase == "MELD", "took_pile": False, "asked": False, "permission": None,
                     "last_red3": False, "joker": False}
    p = state["pile"]
    state["frozen"] = bool(game.rules.freezing and any(game.rules.pieces.is_wild(c) or c in bonus for c in p)) \
        if frozen is None else frozen
    if scores is not None:
        state["team_scores"] = dict(scores)
        state["scores"] = [scores[team_of(s)] for s in range(4)]
        state["minimums"] = {t: game.rules.minimum(scores[t]) for t in "AB"}
    assert Counter(all_pieces(state)) == Counter(game.rules.pieces.deck)
    return state


def play(game, state, seat, moves):
    """Apply moves in order; (state, all events)."""
    events = []
    for move in moves:
        state, evs = game.apply(state, seat, move)
        events += evs
    return state, events


def kinds(events):
    return [e["kind"] for e in events]


# ---------------------------------------------------------------- invariants

def strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from strings(v)


def hidden_from(state, seat):
    """Pieces `seat` (None = spectator) must not see: other hands (the partner's too) and the stock."""
    if state["phase"] in OVER:
        hidden = set(state["stock"])
        return hidden
    hidden = set(state["stock"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden |= set(hand)
    return hidden


def check_state(game, state, events=()):
    assert Counter(all_pieces(state)) == Counter(game.rules.pieces.deck)
    assert len(game.rules.pieces.deck) == DECK_SIZES[game.slug]
    json.dumps(state)
    for team in "AB":
        ranks = [m["rank"] for m in state["melds"][team]]
        assert len(ranks) == len(set(ranks)), "one meld per rank"
        for m in state["melds"][team]:
            assert game.meld_error(m["rank"], m["pieces"]) is None, m
    unstaged = {**state, "staged": []}
    for seat in [0, 1, 2, 3, None]:
        view = game.public_view(state) if seat is None else game.view(state, seat)
        json.dumps(view)
        words = set(strings(view))
        leak = words & hidden_from(state, seat)
        assert not leak, (seat, leak)
        assert state["seed"] not in words and "seed" not in view and "stock" not in view
        if seat is None or seat != state["current"]:
            other = game.public_view(unstaged) if seat is None else game.view(unstaged, seat)
            assert view == other, "staged actions leak"
            assert view["staged"] is None
        for evt in events:
            if visible_to(evt, seat):
                assert not set(strings(evt)) & hidden_from(state, seat), (seat, evt)


def random_hand(game, seed, rng, check_every=1, max_steps=5000):
    """Random legal moves from a new match to the end of its first hand: (state, moves log)."""
    state = game.new_match(4, {}, seed)
    if game.info.account_jokers:
        state = game.with_joker_balances(state, {0: 2, 1: 0, 2: 1, 3: 5})
    log = []
    steps = 0
    while state["phase"] not in OVER:
        (seat,) = game.to_act(state)
        legal = game.legal_moves(state, seat)
        assert legal, (state["phase"], seat)
        assert all(game.legal_moves(state, s) == [] for s in range(4) if s != seat)
        move = rng.choice(legal)
        assert game.clean_move(move) == move
        state, events = game.apply(state, seat, move)
        log.append((seat, move))
        steps += 1
        if steps % check_every == 0:
            check_state(game, state, events)
        assert steps < max_steps, "random play does not end"
    check_state(game, state)
    return state, log


SETTINGS = {"max_examples": 6, "deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


@pytest.mark.parametrize("slug", SLUGS)
@settings(**SETTINGS)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_hands_conserve_hide_and_end(slug, seed):
    game = games.get(slug)
    state, log = random_hand(game, f"{seed:064x}", random.Random(seed), check_every=3)
    assert state["last_round"] is not None
    lr = state["last_round"]
    assert state["team_scores"] == {t: lr["teams"][t]["total"] for t in "AB"}


@pytest.mark.parametrize("slug", SLUGS)
@settings(**SETTINGS)
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_equals_snapshot(slug, seed):
    game = games.get(slug)
    state, log = random_hand(game, f"{seed:064x}", random.Random(seed), check_every=10**9)
    replay = game.new_match(4, {}, f"{seed:064x}")
    if game.info.account_jokers:
        replay = game.with_joker_balances(replay, {0: 2, 1: 0, 2: 1, 3: 5})
    for seat, move in log:
        replay, _ = game.apply(replay, seat, json.loads(json.dumps(move)))
    assert replay == state


def _junk_moves(game, state, rng):
    deck = game.rules.pieces.deck
    hand = state["hands"][state["current"]]
    other = state["hands"][(state["current"] + 1) % 4]
    yield {"action": "discard", "card": rng.choice(other) if other else "XX"}
    yield {"action": "meld", "cards": rng.sample(deck, 3)}
    yield {"action": "lay_off", "cards": hand[:1] or ["AS1"], "meld_id": "M99"}
    yield {"action": "take_pile", "melds": [[rng.choice(deck)]]}
    yield {"action": "answer_go_out", "answer": "yes"}
    yield {"action": "bogus"}
    yield {"action": "discard"}
    yield {"action": "next_round"}
    yield {"action": "undo"}
    yield {"action": "go_out"}
    yield {"action": "end_turn"}


@pytest.mark.parametrize("slug", SLUGS)
@settings(**SETTINGS)
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_moves_change_nothing(slug, seed):
    game = games.get(slug)
    rng = random.Random(seed)
    state = game.new_match(4, {}, f"{seed:064x}")
    for _ in range(rng.randrange(0, 120)):
        if state["phase"] in OVER:
            break
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    snapshot = copy.deepcopy(state)
    legal_by_seat = {s: game.legal_moves(state, s) for s in range(4)}
    for seat in range(4):
        for move in _junk_moves(game, state, rng):
            if move in legal_by_seat[seat]:
                continue
            try:
                game.apply(state, seat, move)
            except IllegalMove as err:
                assert err.code and err.message
            assert state == snapshot


@pytest.mark.parametrize("slug", SLUGS)
def test_autoplay_plays_whole_hands(slug):
    game = games.get(slug)
    for i in range(3):
        state = game.new_match(4, {}, f"{i + 77:064x}")
        steps = 0
        while state["phase"] not in OVER:
            (seat,) = game.to_act(state)
            move = game.autoplay(state, seat)
            assert move in game.legal_moves(state, seat) or move["action"] == "take_pile"
            state, _ = game.apply(state, seat, move)
            steps += 1
            assert steps < 3000
        assert state["last_round"]["ending"] == "stock"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_public_event_is_told_in_french(slug):
    from engine import narration

    game = games.get(slug)
    rng = random.Random(5)
    state = game.new_match(4, {}, "5e" * 32)
    state = game.with_joker_balances(state, {0: 1, 1: 1, 2: 1, 3: 1})
    entries = []
    while state["phase"] not in OVER:
        (seat,) = game.to_act(state)
        state, events = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        entries.append({"seat": seat, "events": narration.public_events(events)})
    told = narration.turns(entries, {s: f"Robot {s}" for s in range(4)}, me=0)
    assert told and all(t["text"] for t in told)
    words = " ".join(t["text"] for t in told)
    assert "pioché" in words and ("jeté" in words)
    assert not set(strings(told)) & set(state["stock"])


@pytest.mark.parametrize("slug", SLUGS)
def test_every_listed_move_is_accepted_over_many_hands(slug):
    """Cheap and wide: 40 random hands, every move listed by legal_moves applies (a refused one raises)."""
    game = games.get(slug)
    for i in range(40):
        random_hand(game, f"{i + 1000:064x}", random.Random(i), check_every=10**9)
