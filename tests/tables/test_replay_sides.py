"""A replay of a partnership Canasta takes the side of a viewer who played the match (« Toi », « Partenaire ·
Nous », « Adversaire · Eux »), from the public view all the same; anyone else reads the teams' letters."""

import re
from unittest import mock

import pytest
from django.urls import reverse

from tables import replays
from tables.models import Table
from tests.tables.test_canasta_render import _card_state, _section, _table

pytestmark = pytest.mark.django_db


def _seat_label(html, position):
    start = html.index(f'data-testid="seat-{position}"')
    label = html[start:].split('class="cn-seat-team', 1)[1].split(">", 1)[1]
    label = label.split('<span class="seat-', 1)[0].split("</p>", 1)[0]
    return re.sub(r"<[^>]+>", "", label).strip()  # on phones « Toi · » / « Partenaire · » is for screen readers


@pytest.fixture
def replayed(player):
    state = _card_state()
    table = _table(player, "canasta", state)  # alice at place 0, robots at 1, 2 and 3
    rnd = replays.Round(1, [replays.Step(1, None, state, [])], finished=True)
    with mock.patch("tables.replays.finished_round", return_value=rnd):
        yield table


def test_a_player_replays_his_match_from_his_side(replayed, player_client):
    html = player_client.get(reverse("tables:replay", args=[replayed.pk, 1])).content.decode()
    assert _seat_label(html, 0) == "Toi · Nous"
    assert _seat_label(html, 2) == "Partenaire · Nous"
    assert _seat_label(html, 1) == _seat_label(html, 3) == "Adversaire · Eux"
    assert "Nous" in _section(html, "team-us") and "Eux" in _section(html, "team-them")
    assert 'data-card="KS1"' not in html  # still the public view: no hand shown


def test_someone_who_did_not_play_reads_the_teams_letters(replayed, client, make_player):
    Table.objects.filter(pk=replayed.pk).update(private=False)
    client.force_login(make_player("bob"), backend="accounts.backends.HumanOnlyBackend")
    html = client.get(reverse("tables:replay", args=[replayed.pk, 1])).content.decode()
    for position in range(4):
        assert _seat_label(html, position) == f"Équipe {'AB'[position % 2]}"
    assert "Adversaire" not in html and "Partenaire · Nous" not in html
    assert "Équipe A" in _section(html, "team-us") and "Équipe B" in _section(html, "team-them")
