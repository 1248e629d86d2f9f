import pytest
from django.urls import reverse

from accounts.models import EconomySettings, User
from accounts.services import ledger_balance, player_account, user_balance

pytestmark = pytest.mark.django_db


def test_signup_creates_player_with_starting_grant_and_logs_in(client):
    grant = EconomySettings.current().starting_grant
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bruno", "email": "", "password1": "Cartes-2026!", "password2": "Cartes-2026!"},
        follow=True,
    )
    assert response.status_code == 200
    user = User.objects.get(username="bruno")
    assert response.context["user"] == user
    assert user_balance(user) == grant
    assert ledger_balance(player_account(user)) == grant
    assert "Bienvenue" in response.content.decode()


def test_signup_refuses_taken_pseudo_and_mismatched_passwords_in_french(client, player):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "ALICE", "password1": "Cartes-2026!", "password2": "autre-chose-9"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ce pseudo est déjà pris." in html
    assert "Les deux mots de passe ne correspondent pas." in html
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_login_and_logout(client, player):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "Tr3s-secret!"}, follow=True)
    assert response.context["user"].is_authenticated
    response = client.post(reverse("accounts:logout"), follow=True)
    assert not response.context["user"].is_authenticated


def test_wrong_password_gets_a_french_message(client, player):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert "Pseudo ou mot de passe incorrect." in response.content.decode()


def test_bots_exist_one_per_level_and_cannot_log_in(client):
    bots = User.objects.filter(is_bot=True).order_by("bot_level")
    assert [b.bot_level for b in bots] == [1, 2, 3]
    for bot in bots:
        bot.set_password("known-password-1")
        bot.save()
        response = client.post(reverse("accounts:login"), {"username": bot.username, "password": "known-password-1"})
        assert not response.wsgi_request.user.is_authenticated


def test_password_change(player_client, player):
    response = player_client.post(
        reverse("accounts:password_change"),
        {"old_password": "Tr3s-secret!", "new_password1": "Nouveau-mdp-42", "new_password2": "Nouveau-mdp-42"},
        follow=True,
    )
    assert "Ton mot de passe a été modifié." in response.content.decode()
    player.refresh_from_db()
    assert player.check_password("Nouveau-mdp-42")


def test_profile_shows_pseudo_balance_and_games(player_client, player):
    html = player_client.get(reverse("accounts:profile")).content.decode()
    assert "alice" in html
    assert str(user_balance(player)) in html
    assert "Parties jouées" in html


def test_profile_requires_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_login_is_rate_limited(client, player, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("accounts:login"), {"username": "alice", "password": "bad"})
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "Tr3s-secret!"})
    assert response.status_code == 429 and "Trop de tentatives" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated
