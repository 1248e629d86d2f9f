"""The live table's HTML: the caches of the hot path draw exactly what the templates draw."""

import itertools
import random

import pytest

from engine import cards, games
from tables import live, reads
from tables.models import Table
from tables.presenters import cards as cards_presenter
from tables.presenters.cards import _card_fields, card_ctx, card_face, card_shown, hand_card, opponent_box
from tables.rendering import render_push, table_context
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db

ALL_CARDS = [f"{rank}{suit}{deck}" for rank in cards.RANKS for suit in "SHDC" for deck in (1, 2)] + ["JK1", "JK2"]


def uncached(name, card, *args):
    return live.macro(cards_presenter.MACROS, name)(card, *args)


@pytest.mark.parametrize("wild_rank", [None, "5"])
def test_cached_card_macros_draw_what_the_macros_draw(wild_rank):
    flag_sets = [{"points": 3}, {"in_meld": True, "points": None}, {"points": 10, "closable": True},
                 {"taken": True, "points": 5}]
    for card, flags in itertools.product(ALL_CARDS, flag_sets):
        ctx = card_ctx(card, wild_rank=wild_rank, **flags)
        for badge in (False, True):
            assert card_face(ctx, badge) == uncached("face", ctx, badge)
        for size, badge, extra in (("sm", False, None), (None, True, "last"), ("xs", True, None)):
            assert card_shown(ctx, size, badge, extra) == uncached("shown", ctx, size, badge, extra)
        for tm, discardable in ((False, False), (False, True), (True, False)):
            assert hand_card(ctx, tm, discardable) == uncached("hand_card", ctx, tm, discardable)


def _opponent(**changes) -> dict:
    seat = {"position": 2, "name": "Bruno", "is_bot": False, "bot_level": None, "is_me": False, "connected": True,
            "left": False, "hand_count": 11, "score": 37, "active": True, "out": None, "is_current": True,
            "is_dealer": False, "picked": [card_ctx("7H1"), card_ctx("JK1")], "opened": True}
    return {**seat, **changes}


@pytest.mark.parametrize("seat", [
    _opponent(), _opponent(is_current=False), _opponent(picked=[], opened=False, connected=False),
    _opponent(is_bot=True, bot_level=3, name="Robot Expert", active=False, out="burnt", is_dealer=True),
])
def test_a_cached_opponent_place_draws_what_the_macro_draws(seat):
    moments = ((None, {"phase": "DRAW"}, 17), ({"melds": []}, {"phase": "DRAW"}, None), (None, None, 5))
    for tm, view, remaining in moments:
        expected = live.macro(cards_presenter.MACROS, "opponent")(
            seat, bool(tm), bool(view), remaining if seat["is_current"] else None, 30)
        assert opponent_box(seat, tm, view, remaining, 30) == expected
        assert opponent_box(dict(seat), tm, view, remaining, 30) == expected  # drawn once, then reused


def test_an_opponent_place_shows_the_picked_cards_the_first_meld_and_the_clock_of_the_player_to_act():
    html = opponent_box(_opponent(), {"melds": []}, {"phase": "DRAW"}, 17, 30)
    assert "A pris dans la défausse" in html and f'aria-label="{card_ctx("7H1")["name"]}"' in html
    assert "a posé" in html and 'data-remaining="17"' in html and "11 cartes" in html
    waiting = opponent_box(_opponent(is_current=False), {"melds": []}, {"phase": "DRAW"}, 17, 30)
    assert "data-remaining" not in waiting and "à son tour" not in waiting
    # the clock of the player to act is not part of the others' places: they stay the same as it runs
    assert waiting == opponent_box(_opponent(is_current=False), {"melds": []}, {"phase": "DRAW"}, 3, 30)


def test_a_card_dict_read_by_a_template_is_never_the_cached_one():
    first = card_ctx("QH1", wild_rank="Q", points=10)
    first["name"] = "changed"
    assert card_ctx("QH1", wild_rank="Q", points=10)["name"] == cards.name_fr("QH1")


def test_a_discardable_hand_card_leaves_the_version_to_the_page():
    html = hand_card(card_ctx("7S1", points=7), False, True)
    assert "ws-send" in html and '"action": "discard"' in html and '"card": "7S1"' in html
    assert "version" not in html
    assert "ws-send" not in hand_card(card_ctx("7S1", points=7), False, False)


def playing_states(slug, seats, seed, steps):
    """States of a match played at random, with each round's first state."""
    engine = games.get(slug)
    state = engine.new_match(seats, {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if engine.result(state) is not None:
            return
        yield state
        to_act = engine.to_act(state)
        if not to_act:
            state, _ = engine.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))


@pytest.mark.parametrize("slug", ["thanasis", "gin", "rami", "rami-traditionnel"])
def test_every_push_is_the_pieces_of_the_page_and_the_caches_change_nothing(player, make_player, slug):
    """Over a match played at random: each seat's push is exactly the pieces the table page embeds, in order (the
    pieces drawn afresh: the push reuses those whose inputs did not change, tables.live.PieceMemo), and
    rendering it with the card caches emptied gives the same HTML."""
    seats_count = 2 if slug == "gin" else 3
    table = create_table(player, slug, seats=seats_count, bots=dict.fromkeys(range(1, seats_count), 1), start=False)
    hits = live._memo.hits
    for version, state in enumerate(playing_states(slug, seats_count, f"cache-{slug}", 120), start=2):
        Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=version)
        current = reads.table_locked(table.pk)
        seats = reads.seats_of(table.pk)
        for seat in seats:
            warm = render_push(current, seats, seat)
            context = table_context(current, seats, seat)
            assert warm == "\n".join(live.render_part(part, context) for part in live.PARTS)
            live._cached_macro.cache_clear()
            _card_fields.cache_clear()
            assert render_push(current, seats, seat) == warm
    assert live._memo.hits > hits  # pieces were reused, and the pushes above show they were the right ones
