import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    admin = User.objects.create_superuser(username="root", password="Admin-pass-123", email="")
    client.force_login(admin, backend="accounts.backends.HumanOnlyBackend")
    return client


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:index",
        "admin:accounts_user_changelist",
        "admin:accounts_ledgerentry_changelist",
        "admin:accounts_account_changelist",
        "admin:accounts_economysettings_changelist",
        "admin:tables_game_changelist",
        "admin:tables_rulespage_changelist",
    ],
)
def test_admin_pages_load_for_staff(staff_client, url_name):
    assert staff_client.get(reverse(url_name)).status_code == 200


def test_admin_user_list_shows_tokens_and_filters(staff_client, player):
    html = staff_client.get(reverse("admin:accounts_user_changelist") + "?is_bot__exact=0").content.decode()
    assert "alice" in html
    assert "jetons" in html


def test_admin_game_and_rules_change_pages_load(staff_client):
    from tables.models import Game

    game = Game.objects.get(slug="thanasis")
    assert staff_client.get(reverse("admin:tables_game_change", args=[game.pk])).status_code == 200
    assert staff_client.get(reverse("admin:tables_rulespage_change", args=[game.rules.pk])).status_code == 200


def test_admin_refused_to_players(player_client):
    response = player_client.get(reverse("admin:index"))
    assert response.status_code == 302


def test_the_admin_refuses_a_default_stake_outside_the_stakes_and_a_negative_payout(staff_client):
    from decimal import Decimal

    from django.core.exceptions import ValidationError

    from tables.models import Game

    game = Game.objects.get(slug="gin")
    game.stakes, game.default_stake = "10,20", 35
    with pytest.raises(ValidationError) as refused:
        game.full_clean()
    assert refused.value.message_dict["default_stake"] == ["La mise par défaut doit faire partie des mises autorisées."]
    game.default_stake, game.bot_payout_expert = 20, Decimal("-1")
    with pytest.raises(ValidationError) as refused:
        game.full_clean()
    assert list(refused.value.message_dict) == ["bot_payout_expert"]
    game.bot_payout_expert = Decimal("2")
    game.full_clean()  # as the admin would save it
    assert "Jeux" in staff_client.get(reverse("admin:index")).content.decode()  # not « Jeus »
