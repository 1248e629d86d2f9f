"""« Pourquoi ? » next to a refused move opens the section of the rules page that explains the refusal: each engine
maps its refusal codes to the ids of its rules page's headings (`rule_sections`), and the error piece links there."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from engine import IllegalMove, games
from tables import commands
from tables.catalogue import PAGES_DIR

# The refusals a newcomer meets first, per game: each opens a section of the rules.
COMMON = {
    "thanasis": ("not_your_turn", "must_draw_first", "already_drew", "not_closable", "invalid_meld"),
    "gin": ("not_your_turn", "must_draw_first", "deadwood_too_high", "invalid_meld"),
    "rami": ("not_your_turn", "must_draw_first", "below_threshold", "must_open_first", "cannot_swap"),
    "rami40": ("not_your_turn", "must_draw_first", "below_threshold", "taken_card_unused", "cannot_swap"),
    "kalooki": ("not_your_turn", "must_draw_first", "below_threshold", "cannot_swap"),
    "rami-traditionnel": ("not_your_turn", "must_draw_first", "cannot_lay_off", "taken_card"),
    "rummikub": ("not_your_turn", "below_threshold", "table_touched", "invalid_set", "pool_not_empty"),
    "thunee": ("not_your_turn", "must_follow", "no_under_trump", "bid_too_low", "bad_jodhi", "no_double"),
    "canasta": ("not_your_turn", "must_draw_first", "need_pair", "pile_blocked", "below_minimum", "too_few_naturals",
                "need_canasta"),
    "canasta-tuiles": ("not_your_turn", "must_draw_first", "need_pair", "below_minimum", "no_joker_left",
                       "no_joker_balance", "first_turn_discard"),
}


def _page_ids(slug):
    return set(re.findall(r'<h[1-6] id="([^"]+)"', Path(PAGES_DIR, f"{slug}.html").read_text()))


@pytest.mark.parametrize("slug", games.available())
def test_every_mapped_section_is_a_heading_of_the_rules_page(slug):
    engine = games.get(slug)
    ids = _page_ids(slug)
    assert engine.rule_sections, slug
    for code, section in engine.rule_sections.items():
        assert section in ids, (slug, code, section)
    for code in COMMON[slug]:
        assert engine.rule_section(code), (slug, code)
    assert engine.rule_section("no_such_code") == ""


@pytest.mark.django_db
def test_the_rules_page_serves_the_headings_ids(client):
    html = client.get(reverse("rules_page", args=["canasta"])).content.decode()
    assert '<h3 id="prendre-la-pile">Prendre la pile</h3>' in html and 'id="premiere-pose"' in html


@pytest.mark.django_db
def test_a_refused_move_links_the_rule_that_refused_it(player):
    from tests.tables.test_canasta_render import CARDS, _card_state
    from tests.tables.test_canasta_render import _table as canasta_table

    state = _card_state(phase="MELD", melds={"B": []})
    state, _ = CARDS.apply(state, 0, {"action": "meld", "cards": ["7S1", "7H1", "7D2"]})
    table = canasta_table(player, "canasta", state)
    with pytest.raises(IllegalMove) as refused:
        CARDS.apply(state, 0, {"action": "discard", "card": "4D1"})
    assert refused.value.code == "below_minimum"
    html = commands.handle_frame(table.pk, player.pk, {"kind": "move", "action": "discard", "card": "4D1",
                                                       "version": table.version})
    assert "Première pose insuffisante" in html
    assert 'href="/regles/canasta/#premiere-pose"' in html and "Pourquoi&nbsp;?" in html


@pytest.mark.django_db
def test_a_card_that_does_not_follow_suit_links_the_tricks_rule(player):
    from tests.tables.test_tricks_render import ENGINE, _following
    from tests.tables.test_tricks_render import _table as thunee_table

    state = _following()  # seat 1 led the ace of hearts; I (seat 0) hold the king of hearts
    state["current"] = 0
    table = thunee_table(player, state)
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, 0, {"action": "play_card", "card": "9C1"})
    code = refused.value.code
    assert code == "must_follow"
    html = commands.handle_frame(table.pk, player.pk, {"kind": "move", "action": "play_card", "card": "9C1",
                                                       "version": table.version})
    assert f'href="/regles/thunee/#{ENGINE.rule_section(code)}"' in html and ENGINE.rule_section(code)


def test_a_refusal_the_engine_does_not_map_opens_the_page():
    class Page:
        def get_absolute_url(self):
            return "/regles/rami/"

    class Shown:
        game = Page()
        game_slug = "rami"

    assert commands.rule_url(Shown(), "not_playing") == "/regles/rami/"
    assert commands.rule_url(Shown(), "below_threshold") == "/regles/rami/#premiere-pose"
