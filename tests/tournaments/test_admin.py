"""Tournaments in Django's admin: an admin creates a public tournament there (the stake, the prizes, the format),
and every list opens, a running tournament's rounds and matches included."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Game
from tests.tables.helpers import play_out
from tournaments import services
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def test_an_admin_creates_a_tournament_and_every_list_opens(client, make_player):
    from accounts.models import User

    admin = User.objects.create_superuser(username="admin", password="Tr3s-secret!", email="a@example.fr")
    client.force_login(admin, backend="accounts.backends.HumanOnlyBackend")
    starts = timezone.localtime() + timedelta(days=1)
    answer = client.post("/admin/tournaments/tournament/add/", {
        "name": "Open du samedi", "game": Game.objects.get(slug="rami").pk, "format": "swiss",
        "starts_at_0": starts.strftime("%Y-%m-%d"), "starts_at_1": starts.strftime("%H:%M:%S"),
        "table_size": 4, "options": "{}", "rated": "on", "absent": "autoplay", "rounds": 4, "advance": 1,
        "arena_minutes": 60, "max_entries": 64, "entry_stake": 20, "prizes": "[50, 30, 20]",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    refused = client.post("/admin/tournaments/tournament/add/", {
        "name": "Trop grand", "game": Game.objects.get(slug="rami").pk, "format": "swiss",
        "starts_at_0": starts.strftime("%Y-%m-%d"), "starts_at_1": starts.strftime("%H:%M:%S"),
        "table_size": 7, "options": "{}", "absent": "autoplay", "rounds": 4, "advance": 1, "arena_minutes": 60,
        "max_entries": 64, "entry_stake": 0, "prizes": "[]", "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0})
    assert refused.status_code == 200 and "de 2 à 4 joueurs par table" in refused.content.decode()
    tournament = Tournament.objects.get(name="Open du samedi")
    assert tournament.created_by == admin and not tournament.private and tournament.prizes == [50, 30, 20]

    for name in ("alice", "bruno"):
        services.register(tournament_id=tournament.pk, user=make_player(name))
    running = services.tournament_create(name="En cours", game=Game.objects.get(slug="thanasis"),
                                         starts_at=timezone.now(), rounds=1)
    for name in ("chloe", "denis"):
        services.register(tournament_id=running.pk, user=make_player(name))
    services.start(tournament_id=running.pk)
    play_out(Match.objects.get(tournament=running).table)
    for url in ("/admin/tournaments/", "/admin/tournaments/tournament/",
                f"/admin/tournaments/tournament/{tournament.pk}/change/", "/admin/tournaments/round/",
                "/admin/tournaments/match/", "/admin/tournaments/schedule/", "/admin/tournaments/schedule/add/"):
        assert client.get(url).status_code == 200, url
