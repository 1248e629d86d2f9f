"""The « Son à mon tour » switch is kept on the account: off by default, changed by a POST of its own."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_switch_is_off_by_default_and_kept_on_the_account(player, player_client):
    assert player.turn_sound is False
    response = player_client.post("/compte/son/", {"on": "1"})
    assert response.status_code == 200 and response.json() == {"turn_sound": True}
    player.refresh_from_db()
    assert player.turn_sound is True
    assert player_client.post("/compte/son/", {"on": "n'importe quoi"}).json() == {"turn_sound": False}
    player.refresh_from_db()
    assert player.turn_sound is False


def test_only_a_signed_in_player_changes_it_and_only_by_post(player_client):
    assert Client().post("/compte/son/", {"on": "1"}).status_code == 302  # to the login page
    assert player_client.get("/compte/son/").status_code == 405
