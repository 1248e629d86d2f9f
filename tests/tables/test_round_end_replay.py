"""« Revoir » from the round-end panel, in every family: the panel covers the status line (and its « Revoir ») for
the seconds before the next round is dealt, so it carries the link itself: the round just played, or every round
once the match is over. A replay shows none."""

import random
import re
from unittest import mock

import pytest
from django.urls import reverse

from engine import games
from tables import reads
from tables.models import Table
from tables.rendering import render_push
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db

# One game of each family (tables.families): cards, table_meld, tiles, tricks, team_meld (cards, tiles).
SLUGS = ["gin", "rami", "rummikub", "thunee", "canasta", "canasta-tuiles"]


def _round_over(slug):
    """Random legal moves from a seeded deal until the first round is over."""
    engine = games.get(slug)
    state = engine.new_match(engine.info.default_players, {}, f"revoir-{slug}")
    rng = random.Random(slug)
    for _ in range(5000):
        if state.get("phase") in ("ROUND_OVER", "MATCH_OVER"):
            return state
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
    raise AssertionError("the round never ended")


def _table(player, slug, state):
    seats = games.get(slug).info.default_players
    with mock.patch("tables.families.live_slugs", return_value=[slug]):
        table = create_table(player, slug, seats=seats, bots=dict.fromkeys(range(1, seats), 2), stake=0, start=False)
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=5)
    table.refresh_from_db()
    return table


def _panel(html):
    start = html.index('id="table-round-end"')
    return html[start:html.index("</section>", start)]


def _replay_links(panel):
    return re.findall(r'<a [^>]*data-testid="round-end-replay"[^>]*>', panel)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_round_end_panel_links_the_replay_of_the_round(player, slug):
    state = _round_over(slug)
    assert state["phase"] == "ROUND_OVER"
    table = _table(player, slug, state)
    seats = reads.seats_of(table.pk)
    for seat in (seats[0], None):  # a player, a spectator
        panel = _panel(render_push(table, seats, seat))
        assert "Voir la table" in panel
        links = _replay_links(panel)
        assert len(links) == 1, (slug, seat)
        assert f'href="{reverse("tables:replay", args=[table.pk, state["round"]])}"' in links[0]
        assert 'target="_blank"' in links[0]
        assert ">Revoir<" in panel


@pytest.mark.parametrize("slug", ["gin", "canasta"])
def test_at_the_match_end_the_panel_links_every_round(player, slug):
    state = _round_over(slug)
    table = _table(player, slug, state)
    seats = reads.seats_of(table.pk)
    with mock.patch.object(type(games.get(slug)), "result", return_value={"winners": [0], "ranking": [0]}):
        panel = _panel(render_push(table, seats, seats[0]))
    links = _replay_links(panel)
    assert len(links) == 1 and f'href="{reverse("tables:replays", args=[table.pk])}"' in links[0]


def test_a_replay_shows_no_replay_link_nor_a_leave_form(player, player_client):
    from tables import replays

    state = _round_over("gin")
    table = _table(player, "gin", state)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    rnd = replays.Round(state["round"], [replays.Step(1, None, state, [])], finished=True)
    with mock.patch("tables.replays.finished_round", return_value=rnd), \
            mock.patch.object(type(games.get("gin")), "result", return_value={"winners": [0], "ranking": [0]}):
        html = player_client.get(reverse("tables:replay", args=[table.pk, state["round"]])).content.decode()
    panel = _panel(html)
    assert "Partie terminée" in panel
    assert not _replay_links(panel) and "leave-form" not in panel
