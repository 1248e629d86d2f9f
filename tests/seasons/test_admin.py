"""The seasons in Django's admin: every list and the settings' form open; the settings refuse entry ratings that do
not decrease from Élite to Argent."""

import pytest

from seasons import services
from seasons.models import SeasonSettings, Tier
from tests.seasons.test_services import member

pytestmark = pytest.mark.django_db


def test_the_admin_pages_open_and_check_the_settings(client, make_player):
    from accounts.models import User

    admin = User.objects.create_superuser(username="admin", password="Tr3s-secret!", email="a@example.fr")
    client.force_login(admin, backend="accounts.backends.HumanOnlyBackend")
    season = services.current("gin")
    member(season, make_player("alice"), Tier.GOLD, [1, 2])
    settings = SeasonSettings.current()
    for url in ("/admin/seasons/", "/admin/seasons/season/", f"/admin/seasons/season/{season.pk}/change/",
                "/admin/seasons/membership/", "/admin/seasons/seasonresult/", "/admin/seasons/seasonsettings/",
                f"/admin/seasons/seasonsettings/{settings.pk}/change/"):
        assert client.get(url).status_code == 200, url
    form = {"months": 3, "elite_size": 20, "diamond_size": 50, "gold_size": 100, "silver_size": 200,
            "elite_score": 10, "diamond_score": 22, "gold_score": 18, "silver_score": 12, "promote_percent": 20,
            "relegate_percent": 20, "min_matches": 5}
    answer = client.post(f"/admin/seasons/seasonsettings/{settings.pk}/change/", form)
    assert "doivent décroître" in answer.content.decode()
    client.post(f"/admin/seasons/seasonsettings/{settings.pk}/change/", {**form, "elite_score": 30, "months": 1})
    assert SeasonSettings.current().months == 1 and SeasonSettings.current().elite_score == 30
