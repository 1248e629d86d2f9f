"""Server-side rendering of the table-meld rummies (Rami, Rami 40, Kalooki, Rami traditionnel).

The table is built straight in the database (no bots needed): an engine state is driven until the
player to act has staged a lay-down, then every seat's push is rendered. The staged turn shows only in
the actor's render; no render ever holds another player's hand.
"""

import re

import pytest

from engine import games
from engine.games._table_meld import MELD
from tables.models import Game, Seat, Table
from tables.rendering import render_push, table_context

pytestmark = pytest.mark.django_db

SLUGS = ["rami", "rami40", "kalooki", "rami-traditionnel"]
OPTIONS = {"rami": {"point_limit": "100"}, "rami40": {"point_limit": "100"}, "kalooki": {"point_limit": "100"},
           "rami-traditionnel": {"target": "250"}}


def _greedy(engine, state, seat):
    """Go out, lay down or lay off when legal (a few table moves a turn), then discard the highest card."""
    legal = engine.legal_moves(state, seat)
    if state["phase"] != MELD:
        return engine.autoplay(state, seat)
    for action in ("go_out", "meld", "lay_off"):
        move = next((m for m in legal if m["action"] == action), None)
        if move is not None and (action == "go_out" or len(state["staged"]) < 6):
            return move
    discards = [m for m in legal if m["action"] == "discard"]
    if not discards:
        return {"action": "undo", "all": True}
    values = engine.values()
    return max(discards, key=lambda m: values[m["card"]])


def _staged_state(slug: str, seats: int = 3):
    """A state in MELD where the acting seat has staged at least one lay-down (deterministic seeds)."""
    engine = games.get(slug)
    for n in range(40):
        state = engine.new_match(seats, OPTIONS[slug], f"{n:032x}")
        for _ in range(400):
            seat = engine.to_act(state)[0]
            if state["phase"] == MELD and any(m["action"] == "meld" for m in engine.legal_moves(state, seat)):
                move = next(m for m in engine.legal_moves(state, seat) if m["action"] == "meld")
                state, _ = engine.apply(state, seat, move)
                return engine, state, seat
            state, _ = engine.apply(state, seat, engine.autoplay(state, seat))
            if not engine.to_act(state):
                break
    raise AssertionError(f"no lay-down found for {slug}")


def _table(slug: str, state: dict, make_player) -> tuple[Table, list[Seat]]:
    users = [make_player(f"{slug[:6]}{i}".replace("-", "")) for i in range(state["seats"])]
    table = Table.objects.create(game=Game.objects.get(slug=slug), host=users[0], seats_count=state["seats"],
                                 options=state["options"], stake=0, status=Table.Status.PLAYING, state=state,
                                 version=7, seed="0" * 32)
    for position, user in enumerate(users):
        Seat.objects.create(table=table, position=position, user=user)
    return table, list(table.seats.select_related("user").order_by("position"))


def _hand_ids(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


@pytest.mark.parametrize("slug", SLUGS)
def test_staged_turn_renders_for_the_actor_only_and_no_other_hand_leaks(slug, make_player):
    engine, state, actor = _staged_state(slug)
    table, seats = _table(slug, state, make_player)
    staged_cards = [c for e in state["staged"] for c in e["cards"]]
    renders = {s.position: render_push(table, seats, s) for s in seats}
    for position, html in renders.items():
        view = engine.view(state, position)
        assert _hand_ids(html) == set(view["hand"]), "only my own hand is rendered as cards"
        for other in range(state["seats"]):
            if other == position:
                continue
            for card in state["hands"][other]:
                if position == actor or card not in staged_cards:
                    assert not re.search(rf'(?<![\w]){re.escape(card)}(?![\w])', html), (slug, position, card)
        assert 'id="table-centre"' in html and 'class="tm-table' in html
        if position == actor:
            assert "En préparation" in html and "tm-meld is-new" in html
            assert 'data-tm-act="meld"' in html and "Défausser" in html
        else:
            assert "En préparation" not in html and "is-new" not in html and "is-pending" not in html
            assert html.count('class="tm-meld') == len(state["table"])
    spectator = render_push(table, seats, None)
    assert "En préparation" not in spectator and _hand_ids(spectator) == set()


@pytest.mark.parametrize("slug", SLUGS)
def test_context_is_generic_and_describes_the_table(slug, make_player):
    engine, state, actor = _staged_state(slug)
    table, seats = _table(slug, state, make_player)
    ctx = table_context(table, seats, seats[actor])
    tm = ctx["tm"]
    assert tm["acting"] and tm["staged_lines"] and tm["staged_lines"][0].startswith("Poser ")
    labels = [b["label"] for b in tm["buttons"]]
    assert labels[:2] == ["Déposer", "Ajouter"] and "Annuler" in labels and labels[-1] == "Défausser"
    assert ("Sortir" in labels) == engine.go_out and ("Échanger le joker" in labels) == bool(engine.swap)
    if engine.threshold:
        assert tm["opening"]["threshold"] == engine.threshold
    cards_in_melds = [c for g in tm["groups"] for m in g["melds"] for c in m["cards"]]
    assert any(c["pending"] for c in cards_in_melds)
    for c in cards_in_melds:
        if c.get("stands"):
            assert c["wild_label"].startswith("Joker (") and c["name"].startswith("Joker (")
    other = next(s for s in seats if s.position != actor)
    assert table_context(table, seats, other)["tm"]["staged_lines"] == []


@pytest.mark.parametrize("slug", SLUGS)
def test_round_end_shows_penalties_on_the_cards_left(slug, make_player):
    engine = games.get(slug)
    state = engine.new_match(2, OPTIONS[slug], "5" * 32)
    for _ in range(3000):
        if not engine.to_act(state):
            break
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, _greedy(engine, state, seat))
    assert state["phase"] in ("ROUND_OVER", "MATCH_OVER"), "the greedy players end a round"
    table, seats = _table(slug, state, make_player)
    values = engine.values()
    for seat in seats:
        html = render_push(table, seats, seat)
        assert 'id="table-round-end"' in html
        assert "Cartes restées en main" in html or "Plus aucune carte en main" in html
        for player in state["last_round"]["players"]:
            for card in player["hand"]:
                assert f"{values[card]} point" in html
        assert "Fin de la manche" in html or "Partie terminée" in html


def test_an_eliminated_player_gets_a_red_x_and_quitter_while_the_others_go_on(make_player):
    engine = games.get("rami")
    state = engine.new_match(3, {"point_limit": "50"}, f"{1:032x}")
    for _ in range(20000):
        if state["phase"] == "ROUND_OVER" and len(state["active"]) == 2:
            break
        if not engine.to_act(state):
            state, _ = engine.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, _greedy(engine, state, seat))
    assert state["phase"] == "ROUND_OVER" and len(state["active"]) == 2, "the seeded greedy match eliminates one"
    out = state["out"][0]["seat"]
    table, seats = _table("rami", state, make_player)
    html = render_push(table, seats, seats[out])
    assert "Tu es éliminé" in html and 'class="out-x-inline"' in html and "éliminé" in html
    assert re.search(r'<a class="button secondary" href="/tables/">Quitter</a>', html)
    assert "la pénalité d'abandon" not in html, "an eliminated player leaves without an abandon penalty"
    assert "Manche suivante</button>" not in html
    other = next(s for s in seats if s.position != out)
    html = render_push(table, seats, other)
    assert "Manche suivante</button>" in html and "Tu es éliminé" not in html
    assert html.count('class="out-x"') >= 1, "the eliminated opponent's seat carries the red X"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_blocked_round_says_the_stock_ran_out_and_nobody_went_out(slug, make_player):
    """Issue 31 §6: the stock out a second time stops the round; nobody is told he laid all his cards."""
    from tests.engine.test_table_meld_properties import rig

    engine = games.get(slug)
    state = rig(engine, {0: ["5S1", "KH1"], 1: ["9D1"]}, stock=[], options=OPTIONS[slug])
    state["rebuilds"] = 1
    state, _ = engine.apply(state, 0, {"action": "discard", "card": "KH1"})
    assert state["last_round"]["ending"] == "blocked"
    table, seats = _table(slug, state, make_player)
    for seat in [*seats, None]:
        html = render_push(table, seats, seat)
        assert "La pioche est épuisée une seconde fois" in html and "personne n" in html
        assert "a posé toutes ses cartes" not in html and "est sorti</span>" not in html
        assert ("personne ne marque" in html) == (slug == "rami-traditionnel")
        assert ("comme pénalités" in html) == (slug != "rami-traditionnel")
