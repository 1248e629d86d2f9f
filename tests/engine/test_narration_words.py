"""Every family tells its moves in its own words (issue 31 §3; /work/shared/UI.md): whole seeded rounds played
through the engine by level-1 bots, every « what just happened » line collected for a seated player and for a
spectator, and checked for the family's words and for saying what happened.

- cards, draw-and-discard (Thanasis, Gin), table-meld rummies (the Rami family), tricks (Thunee): « carte »,
  never « tuile » or « pièce »; « la carte retournée » is Gin's alone;
- tiles (Rummikub) and the tile Canasta: « tuile », never « carte » or « pièce »; Rummikub's pass on an empty
  pool is a turn passed, « la pioche est vide »;
- the two Canastas (team_meld): « cartes » / « tuiles » in the lines, the refusals (the pile's too) and the
  coach's hints; « a pris la pile (N cartes…) » with N the pile's size;
- team games: a seated player never reads « équipe A / B » (his table says « Nous / Eux »), a spectator never
  reads « Nous / Eux », « ton équipe » or « l'équipe adverse ».

Pure engine (no Django)."""

import random
import re
from dataclasses import dataclass

import pytest

from engine import bots, coach, games, narration
from engine.base import team_of

NAMES = {0: "Zoé", 1: "Robot Expert", 2: "Robot Confirmé", 3: "Léa"}
ME = 0

# (slug, players, options, the family's piece word, the words it never uses)
GAMES = [
    ("thanasis", 3, {}, "carte", ("tuile", "pièce", "carte retournée")),
    ("gin", 2, {}, "carte", ("tuile", "pièce")),
    ("rami", 3, {}, "carte", ("tuile", "pièce", "carte retournée")),
    ("rami40", 3, {}, "carte", ("tuile", "pièce", "carte retournée")),
    ("kalooki", 3, {}, "carte", ("tuile", "pièce", "carte retournée")),
    ("rami-traditionnel", 3, {}, "carte", ("tuile", "pièce", "carte retournée")),
    ("rummikub", 3, {}, "tuile", ("carte", "pièce")),
    ("canasta", 4, {}, "carte", ("tuile", "pièce", "carte retournée")),
    ("canasta-tuiles", 4, {}, "tuile", ("carte", "pièce")),
    ("thunee", 4, {}, "carte", ("tuile", "pièce", "carte retournée")),
]
TEAM_GAMES = ("canasta", "canasta-tuiles", "thunee")
SEATED_NEVER = re.compile(r"[ée]quipe [AB]\b")
SPECTATOR_NEVER = re.compile(r"\b(Nous|Eux|nous|eux)\b|ton équipe|Ton équipe|équipe adverse")


@dataclass
class Move:
    seat: int
    move: dict
    before: dict
    view: dict
    legal: list
    events: list


def play_round(slug: str, players: int, options: dict, seed: str, max_moves: int = 4000) -> tuple[list, dict]:
    """One whole round by level-1 bots, from the deal to the round's end: (the moves, the last state)."""
    game = games.get(slug)
    state = game.new_match(seats=players, options=options, seed=seed)
    rng = random.Random(seed)
    played: list[Move] = []
    for _ in range(max_moves):
        to_act = game.to_act(state)
        if not to_act or game.result(state) is not None:
            return played, state
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        if any(m.get("action") == "next_round" for m in legal):
            return played, state
        view = game.view(state, seat)
        move = bots.choose(game, view, legal, 1, rng)
        new, events = game.apply(state, seat, move)
        played.append(Move(seat, move, state, view, legal, events))
        state = new
    raise AssertionError(f"{slug}: the round did not end in {max_moves} moves")


def told(move: Move, me: int | None) -> str:
    entries = [{"seat": move.seat, "events": narration.public_events(move.events)}]
    return " ".join(t["text"] for t in narration.turns(entries, NAMES, me))


def lines_of(played: list[Move], me: int | None) -> list[str]:
    """The table's « derniers coups » for reader `me`: the whole round, grouped into turns."""
    entries = [{"seat": m.seat, "events": narration.public_events(m.events)} for m in played]
    return [t["text"] for t in narration.turns(entries, NAMES, me)]


def assert_words(slug: str, texts: list[str], word: str, never: tuple, who: str) -> None:
    joined = "\n".join(texts)
    for bad in never:
        assert bad not in joined.lower(), f"{slug} ({who}) says « {bad} »:\n" + "\n".join(
            t for t in texts if bad in t.lower())


def seeds(slug: str, count: int = 2) -> list[str]:
    return [f"words-{slug}-{n}" for n in range(count)]


@pytest.mark.parametrize(("slug", "players", "options", "word", "never"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_round_is_told_in_the_familys_words(slug, players, options, word, never):
    game = games.get(slug)
    for seed in seeds(slug):
        played, _ = play_round(slug, players, options, seed)
        assert played
        mine, watched = lines_of(played, ME), lines_of(played, None)
        assert mine and watched and len(mine) == len(watched)
        assert_words(slug, mine, word, never, "a player")
        assert_words(slug, watched, word, never, "a spectator")
        if slug in TEAM_GAMES:
            assert not [t for t in mine if SEATED_NEVER.search(t)], mine
            assert not [t for t in watched if SPECTATOR_NEVER.search(t)], watched
        for m in played:
            public = narration.public_events(m.events)
            kinds = {e["kind"] for e in public}
            line, seen = told(m, ME), told(m, None)
            # what happened is said: a draw is told, and by the drawer's own « Tu »
            if "draw" in kinds:
                assert "a pioché" in seen, (slug, m.move, seen)
                mine_drawn = any(e["kind"] == "draw" and e.get("seat") == ME for e in public)
                assert ("as pioché" in line) == mine_drawn, (slug, line)
            if "discard" in kinds:
                assert "jeté" in seen, (slug, m.move, seen)
            if "pass" in kinds:  # Gin: the upcard left; Rummikub: a turn passed on an empty pool
                said = "a laissé la carte retournée" if slug == "gin" else "a passé son tour (la pioche est vide)"
                assert said in seen, (slug, seen)
            # the pile taken: its size, in the game's word
            for e in public:
                if e["kind"] == "take_pile":
                    size = len(m.before["pile"])
                    assert f"a pris la pile ({size} {word}{'s' if size > 1 else ''}, avec " in seen, seen
            # a hint (the coach's words for the move played) in the game's words
            hint = coach.reason(game, m.view, m.move, m.legal)
            assert_words(slug, [hint], word, never, "the coach")
            refusal = (m.view.get("pile") or {}).get("refusal")
            if refusal:
                assert_words(slug, [refusal], word, never, "the pile's refusal")


def test_the_canastas_take_the_pile_and_say_how_many_pieces():
    """Over a few seeded rounds each Canasta takes the pile at least once, and says its size in its word."""
    for slug, word in (("canasta", "carte"), ("canasta-tuiles", "tuile")):
        found = 0
        for seed in seeds(slug, 6):
            played, _ = play_round(slug, 4, {}, seed)
            for m in played:
                if any(e["kind"] == "take_pile" for e in m.events):
                    size = len(m.before["pile"])
                    assert re.search(rf"a pris la pile \({size} {word}s?, avec ", told(m, None))
                    found += 1
            if found:
                break
        assert found, f"{slug}: no pile taken in six rounds"


# ---------------------------------------------------------------- Gin's upcard, Rummikub's empty pool

def test_only_gin_leaves_the_upcard():
    gin = games.get("gin")
    state = gin.new_match(seats=2, options={}, seed="words-gin-pass")
    seat = gin.to_act(state)[0]
    assert {"action": "pass"} in gin.legal_moves(state, seat)
    _, events = gin.apply(state, seat, {"action": "pass"})
    entries = [{"seat": seat, "events": narration.public_events(events)}]
    assert "a laissé la carte retournée" in narration.turns(entries, NAMES)[0]["text"]


def test_a_rummikub_pass_on_an_empty_pool_says_the_pool_is_empty():
    game = games.get("rummikub")
    state = game.new_match(seats=3, options={}, seed="words-rummikub-pass")
    state = {**state, "pool": []}
    seat = game.to_act(state)[0]
    assert {"action": "pass"} in game.legal_moves(state, seat)
    _, events = game.apply(state, seat, {"action": "pass"})
    entries = [{"seat": seat, "events": narration.public_events(events)}]
    spectator = narration.turns(entries, NAMES)[0]["text"]
    assert spectator == f"{NAMES[seat]} a passé son tour (la pioche est vide)."
    assert narration.turns(entries, NAMES, me=seat)[0]["text"] == "Tu as passé ton tour (la pioche est vide)."
    assert "carte" not in spectator


# ---------------------------------------------------------------- the Canastas' refusals

@pytest.mark.parametrize(("slug", "word", "other"),
                         [("canasta", "carte", "tuile"), ("canasta-tuiles", "tuile", "carte")])
def test_every_canasta_refusal_names_the_games_pieces(slug, word, other):
    from engine.games._canasta_pickup import NEED_PAIR_OR_MELD, opening_short
    from engine.games._canasta_rules import MESSAGES

    game = games.get(slug)
    texts = [game.rules.say(t) for t in (*MESSAGES.values(), NEED_PAIR_OR_MELD, opening_short(None, 50),
                                          opening_short(115, 120))]
    assert not [t for t in texts if "pièce" in t.lower()]
    assert game.rules.say(MESSAGES["card_not_in_hand"]) == f"Tu n'as pas cette {word}."
    assert game.rules.say(MESSAGES["too_short"]) == f"Une combinaison compte au moins 3 {word}s."
    # through `apply`: a refused move reads the game's word
    state = game.new_match(seats=4, options={}, seed=f"words-{slug}-refusal")
    seat = game.to_act(state)[0]
    elsewhere = next(p for p in game.rules.pieces.deck if p not in state["hands"][seat])
    for move in ({"action": "discard", "card": elsewhere}, {"action": "meld", "cards": [elsewhere]}):
        try:
            game.apply(state, seat, move)
        except Exception as error:  # IllegalMove
            assert "pièce" not in error.message and other not in error.message, error.message
            assert "pièce" not in str(error)
        else:
            raise AssertionError(f"{move} was accepted")


def test_a_canasta_refusal_to_take_the_pile_names_cards():
    """The pile's refusal, shown by the disabled « Prendre la pile »: the classic game says « cartes »."""
    for seed in seeds("canasta", 4):
        played, _ = play_round("canasta", 4, {}, seed)
        refusals = [r for m in played if (r := (m.view.get("pile") or {}).get("refusal"))]
        if any("naturelles" in r for r in refusals):
            assert all("pièce" not in r for r in refusals)
            assert any("deux cartes naturelles" in r for r in refusals)
            return
    pytest.skip("no pair refusal met in four rounds")  # pragma: no cover


# ---------------------------------------------------------------- team sentences, seat-relative

def test_a_thunee_outcome_reads_ton_equipe_to_a_player_and_l_equipe_a_to_a_spectator():
    reason = "Contrat réussi : l'équipe B a 91 points pour 80 annoncés. +1 balle pour l'équipe B."
    entries = [{"seat": None, "events": [{"kind": "deal_over", "reason": reason}]}]
    assert narration.turns(entries, NAMES)[0]["text"] == reason
    assert narration.turns(entries, NAMES, me=1)[0]["text"] == (
        "Contrat réussi : ton équipe a 91 points pour 80 annoncés. +1 balle pour ton équipe.")
    assert narration.turns(entries, NAMES, me=2)[0]["text"] == (
        "Contrat réussi : l'équipe adverse a 91 points pour 80 annoncés. +1 balle pour l'équipe adverse.")
    assert narration.for_reader("L'équipe A prend le pli.", 0) == "Ton équipe prend le pli."
    assert team_of(1) == "B"
