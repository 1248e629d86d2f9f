"""Each game's move timers, as its rules file's §8 sets them: the creation form offers them, a new table starts
with the game's default, and a timer the game does not offer is refused in French."""

import pytest

from tables import services
from tables.forms import TableCreateForm
from tables.models import Game, Table

pytestmark = pytest.mark.django_db

TIMERS = {  # rules files §8: (the choices, the default)
    "thanasis": ([15, 30, 60], 30),
    "gin": ([15, 30, 60], 30),
    "rummikub": ([30, 60, 90, 120], 60),
    "canasta": ([30, 45, 60], 45),
    "canasta-tuiles": ([30, 45, 60], 45),
    "thunee": ([15, 30, 60], 30),
}


@pytest.mark.parametrize("slug", sorted(TIMERS))
def test_the_creation_form_offers_the_games_own_timers(slug):
    choices, default = TIMERS[slug]
    field = TableCreateForm(game=Game.objects.get(slug=slug)).fields["turn_timer_s"]
    (live, live_choices), (slow, slow_choices) = field.choices
    assert live == "En direct" and [value for value, _ in live_choices] == choices
    assert field.initial == default
    assert dict(live_choices)[default] == f"{default} secondes"
    # Every game also plays over days (« Partie lente »).
    assert slow.startswith("Partie lente") and [value for value, _ in slow_choices] == [43200, 86400, 259200]


def test_a_canasta_table_created_from_the_form_keeps_45_seconds(player_client, player):
    response = player_client.post("/tables/nouvelle/", {
        "table_type": "friends", "game": "canasta", "seats_count": "4", "seat_1": "2", "seat_2": "2",
        "seat_3": "2", "turn_timer_s": "45", "stake": "0", "coach_limit": "3"})
    assert response.status_code == 302
    assert Table.objects.get(host=player).turn_timer_s == 45


def test_a_timer_the_game_does_not_offer_is_refused_and_nothing_is_created(player_client, player):
    response = player_client.post("/tables/nouvelle/", {
        "table_type": "friends", "game": "canasta", "seats_count": "4", "seat_1": "2", "seat_2": "2",
        "seat_3": "2", "turn_timer_s": "15", "stake": "0", "coach_limit": "3"})
    assert response.status_code == 400
    assert "Ce temps par coup n&#x27;est pas proposé pour ce jeu." in response.content.decode()
    assert not Table.objects.filter(host=player).exists()
    with pytest.raises(services.TableError, match="Ce temps par coup n'est pas proposé"):
        services.table_create(host=player, game=Game.objects.get(slug="rummikub"), seats_count=2,
                              bot_levels={1: 2}, stake=0, turn_timer_s=15)


@pytest.mark.parametrize("slug", ["rummikub", "canasta-tuiles", "thanasis"])
def test_a_table_created_without_a_timer_gets_the_games_default(slug, player):
    seats = 4 if slug.startswith("canasta") else 2
    table = services.table_create(host=player, game=Game.objects.get(slug=slug), seats_count=seats,
                                  bot_levels=dict.fromkeys(range(1, seats), 2), stake=0)
    assert table.turn_timer_s == TIMERS[slug][1]
