"""« What just happened »: every public move told in French, and nothing hidden ever told (engine.narration)."""

import random

import pytest

from engine import bots, games, narration
from engine.base import event, to_seat
from engine.games import _draw_discard as dd
from tests.engine.test_thanasis import rig

NAMES = {0: "Zoé", 1: "Robot Expert", 2: "Robot Confirmé"}


def told(events, seat=1, me=None):
    """One move of `seat` (its public events), told as the table line reads it."""
    entries = [{"seat": seat, "events": narration.public_events(events)}]
    return " ".join(t["text"] for t in narration.turns(entries, NAMES, me))


# ---------------------------------------------------------------- each move named

def test_a_bot_turn_draw_then_discard_is_one_line():
    entries = [{"seat": 1, "events": narration.public_events(dd.draw_events(1, "7H1"))},
               {"seat": 1, "events": narration.public_events([event("discard", seat=1, card="KC1")])}]
    assert narration.turns(entries, NAMES) == [{"seat": 1, "text": "Robot Expert a pioché, a jeté le Roi de trèfle."}]


def test_take_discard_names_its_card_and_the_discard_its_card():
    entries = [{"seat": 1, "events": [{"kind": "take_discard", "seat": 1, "card": "7H2"}]},
               {"seat": 1, "events": [{"kind": "discard", "seat": 1, "card": "KC1"}]}]
    (turn,) = narration.turns(entries, NAMES)
    assert turn["text"] == "Robot Expert a pris le 7 de cœur dans la défausse, a jeté le Roi de trèfle."


@pytest.mark.parametrize(("card", "words"), [
    ("QH1", "la Dame de cœur"), ("AS2", "l'As de pique"), ("10D1", "le 10 de carreau"), ("JC1", "le Valet de trèfle"),
    ("JK3", "un joker"),
])
def test_cards_with_their_article(card, words):
    assert narration.card_words(card) == words


def test_my_own_moves_say_tu():
    entries = [{"seat": 0, "events": [{"kind": "draw", "seat": 0, "source": "stock"}]},
               {"seat": 0, "events": [{"kind": "discard", "seat": 0, "card": "5S1"}]}]
    assert narration.turns(entries, NAMES, me=0)[0]["text"] == "Tu as pioché, tu as jeté le 5 de pique."


def test_a_lay_off_on_a_team_meld_says_ton_equipe_to_its_player_and_son_equipe_to_the_others():
    entries = [{"seat": 0, "events": [{"kind": "team_lay_off", "seat": 0, "pieces": ["7H1", "7S2"]}]}]
    assert narration.turns(entries, NAMES, me=0)[0]["text"] == (
        "Tu as ajouté 2 cartes à une combinaison de ton équipe.")
    assert narration.turns(entries, NAMES, me=1)[0]["text"] == (
        "Zoé a ajouté 2 cartes à une combinaison de son équipe.")


def test_close_knock_and_their_endings():
    assert told([event("close", seat=2, card="3S1", thanasis=False, first_turn=False)], seat=2) == (
        "Robot Confirmé a fermé en jetant le 3 de pique.")
    assert told([event("close", seat=2, card="3S1", thanasis=False, first_turn=True)], seat=2) == (
        "Robot Confirmé a fermé d'entrée en jetant le 3 de pique.")
    assert told([event("close", seat=2, card="3S1", thanasis=True, first_turn=False),
                 event("thanasis", seat=2)], seat=2) == "Robot Confirmé a fait Thanasis en jetant le 3 de pique."
    knock = event("knock", seat=1, card="9D1", melds=[], deadwood=["2C1"], deadwood_points=2)
    assert told([knock]) == "Robot Expert a frappé en jetant le 9 de carreau (2 points hors combinaisons)."
    assert told([knock, event("undercut", seat=0, knocker=1)]) == (
        "Robot Expert a frappé en jetant le 9 de carreau (2 points hors combinaisons). Zoé a contré Robot Expert "
        "(undercut).")
    gin = event("knock", seat=1, card="9D1", melds=[], deadwood=[], deadwood_points=0)
    assert told([gin, event("gin", seat=1)]) == "Robot Expert a frappé en jetant le 9 de carreau, a fait Gin."
    assert told([event("pass", seat=1)]) == "Robot Expert a laissé la carte retournée."


def test_melds_lay_offs_and_joker_swaps():
    meld = event("meld", seat=1, meld_id="M1", cards=["7H1", "8H1", "JK1"], wilds={"JK1": "9H"}, meld_kind="run",
                 points=24)
    lay_off = event("lay_off", seat=1, meld_id="M2", cards=["KS1"], wilds={}, end=None,
                    meld={"id": "M2", "owner": 0, "kind": "set", "cards": ["KH1", "KD1", "KC1", "KS1"]})
    swap = event("swap_joker", seat=1, meld_id="M3", cards=["5C1"], joker="JK2",
                 meld={"id": "M3", "owner": 1, "kind": "run", "cards": ["4C1", "5C1", "6C1"]})
    opened = event("opened", seat=1, points=34)
    line = told([meld, lay_off, swap, opened, event("discard", seat=1, card="2D1")])
    assert line == ("Robot Expert a posé une suite (24 points) : 7 de cœur, 8 de cœur, joker (9 de cœur), "
                    "a ajouté le Roi de pique à une combinaison de Zoé, a repris un joker contre le 5 de trèfle, "
                    "a fait sa première pose (34 points), a jeté le 2 de carreau.")
    # my own moves: « tu », and « ta / tes »
    mine = event("lay_off", seat=0, meld_id="M4", cards=["7D1", "2H1"], wilds={"2H1": "8D"}, end=None,
                 meld={"id": "M4", "owner": 0, "kind": "run", "cards": ["4D1", "5D1", "6D1", "7D1", "2H1"]})
    assert told([event("opened", seat=0, points=33), mine, event("round_over", winner=0)], seat=0, me=0) == (
        "Tu as fait ta première pose (33 points), tu as ajouté le 7 de carreau et un joker (8 de carreau) à une de "
        "tes combinaisons, tu as posé toute ta main.")
    assert told([mine], seat=0, me=1) == (
        "Zoé a ajouté le 7 de carreau et un joker (8 de carreau) à une de ses combinaisons.")
    assert told([event("take_undone", seat=1, card="7H1")]) == "Robot Expert a reposé le 7 de cœur sur la défausse."
    assert told([event("go_out", seat=1)]) == "Robot Expert est sorti."
    assert told([event("go_out", seat=0)], seat=0, me=0) == "Tu es sorti."


def test_leaving_burning_and_the_stock():
    assert told([event("left", seat=1), event("burnt", seat=1, total=40, left=True)]) == (
        "Robot Expert a quitté la table.")
    assert told([event("burnt", seat=2, total=104)], seat=0) == "Robot Confirmé est brûlé (104 points)."
    assert told([event("discard", seat=1, card="4H1"), event("stock_rebuilt", cards=30, rebuilds=1)]) == (
        "Robot Expert a jeté le 4 de cœur. La pioche est refaite avec la défausse.")


# ---------------------------------------------------------------- nothing hidden told

def test_a_card_drawn_from_the_stock_is_never_kept_nor_told():
    events = dd.draw_events(1, "QS2") + [event("staged", to_seat(1), seat=1, cards=["QS2"])]
    public = narration.public_events(events)
    assert public == [{"kind": "draw", "seat": 1, "source": "stock"}]
    assert "QS2" not in repr(public)
    assert told(events) == "Robot Expert a pioché."


SLUGS = ("thanasis", "gin", "rami", "rami40", "kalooki", "rami-traditionnel")


@pytest.mark.parametrize("slug", SLUGS)
def test_bots_play_a_round_and_every_draw_is_told_without_its_card(slug):
    """Bots play whole rounds: every kept event is public; a stock draw's entry holds no card and reads « a
    pioché »; the other moves are named (a discard with its card)."""
    game = games.get(slug)
    rng = random.Random(slug)
    state = game.new_match(3, {}, f"narration-{slug}")
    names = {0: "Zoé", 1: "Robot Expert", 2: "Robot Confirmé"}
    draws = discards = 0
    for _ in range(400):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        move = bots.choose(game, game.view(state, seat), legal, 2, rng)
        state, events = game.apply(state, seat, move)
        public = narration.public_events(events)
        for evt in public:
            source = next(e for e in events if e["kind"] == evt["kind"])
            assert source["audience"] == "all"
        drawn = [e["card"] for e in events if e["kind"] == "drawn"]
        text = " ".join(t["text"] for t in narration.turns([{"seat": seat, "events": public}], names))
        if move["action"] == "draw_stock":
            draws += 1
            assert drawn and all(drawn[0] not in repr(e) for e in public)
            assert text.startswith(f"{names[seat]} a pioché")
        if move["action"] == "discard":
            discards += 1
            assert narration.card_words(move["card"]) in text
    assert draws and discards


def test_thanasis_close_on_the_first_turn_says_so():
    hand = ["AH1", "2H1", "3H1", "6D1", "7D1", "8D1", "8S1", "9S1", "10S1", "JS1", "4C1"]
    first = rig({0: hand}, seats=3)
    new, events = games.get("thanasis").apply(first, 0, {"action": "close", "card": "4C1"})
    close = next(e for e in events if e["kind"] == "close")
    assert close["first_turn"] and new["last_round"]["first_turn"]
    assert "a fait Thanasis d'entrée" in told(events, seat=0) or "a fermé d'entrée" in told(events, seat=0)

    later = rig({0: hand}, seats=3, discard=("5S2", "6S2", "QD2"))
    new, events = games.get("thanasis").apply(later, 0, {"action": "close", "card": "4C1"})
    assert not new["last_round"]["first_turn"]
    assert "d'entrée" not in told(events, seat=0)


def test_a_rummikub_turn_is_told_by_the_tiles_it_laid_and_a_round_won_without_cards():
    from engine import narration

    events = narration.public_events([
        {"kind": "table", "audience": "all", "seat": 1, "placed": ["R1a", "R2a", "R3a"], "table": [["R1a"]]},
        {"kind": "round_over", "audience": "all", "winner": 1, "points": [0, 12]},
    ])
    assert events[0] == {"kind": "table", "seat": 1, "placed": ["R1a", "R2a", "R3a"]}
    told = narration.turns([{"seat": 1, "events": events}], {1: "Robot Expert"}, 0)
    assert told == [{"seat": 1, "text": "Robot Expert a posé 3 tuiles, a posé toute sa main."}]


def test_a_blocked_rummikub_round_is_told_as_blocked_not_as_a_hand_laid():
    """Issue 31 §6: the pool empty and everyone passing, « Derniers coups » said « Robot Confirmé a posé toute sa
    main » of the lowest rack, which still held its tiles; and each pass was Gin's « a laissé la carte retournée »."""
    from tests.engine.test_rummikub import GAME, position

    state = position([["R12a"], ["K10a", "B10a"], ["Y7a", "Y2a", "B3a", "R9b"]], pool=[], rounds="3")
    entries = []
    for seat in (0, 1, 2):
        state, events = GAME.apply(state, seat, {"action": "pass"})
        entries.append({"seat": seat, "events": narration.public_events(events)})
    assert state["last_round"]["ending"] == "blocked" and state["last_round"]["winner"] == 0
    lines = [t["text"] for t in narration.turns(entries, NAMES)]
    assert lines == [
        "Zoé a passé son tour (la pioche est vide).",
        "Robot Expert a passé son tour (la pioche est vide).",
        "Robot Confirmé a passé son tour (la pioche est vide). Zoé a gagné la manche : plus personne ne peut jouer "
        "et son chevalet est le plus petit.",
    ]
    mine = narration.turns(entries[-1:], NAMES, me=0)[0]["text"]
    assert mine.endswith("Tu as gagné la manche : plus personne ne peut jouer et ton chevalet est le plus petit.")
    assert not any("posé toute" in line or "carte retournée" in line for line in lines)


def test_a_rummy_round_blocked_on_the_stock_tells_nobody_went_out():
    blocked = event("round_over", winner=None, ending="blocked", points=[12, 30, None])
    assert told([event("discard", seat=1, card="KC1"), blocked]) == (
        "Robot Expert a jeté le Roi de trèfle. La pioche est épuisée une seconde fois : la manche s'arrête, chacun "
        "compte ses cartes.")
    nobody = event("round_over", winner=None, ending="blocked", points=[0, 0])
    assert told([nobody]) == ("La pioche est épuisée une seconde fois : la manche s'arrête, personne n'est sorti ni "
                              "ne marque de points.")
    assert told([event("round_over", winner=1, ending="out", points=[12, 0])]) == "Robot Expert a posé toute sa main."
