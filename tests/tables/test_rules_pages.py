import re

import pytest
from django.urls import reverse

from tables.catalogue import GAMES
from tables.models import Game

pytestmark = pytest.mark.django_db

SLUGS = [slug for slug, *_ in GAMES]


def test_every_game_is_seeded_with_its_rules_page():
    assert sorted(Game.objects.values_list("slug", flat=True)) == sorted(SLUGS)
    assert all(game.rules.body for game in Game.objects.all())


def test_home_lists_the_ten_games_with_rules_and_play_links(client):
    html = client.get(reverse("home")).content.decode()
    for slug in SLUGS:
        assert reverse("rules_page", args=[slug]) in html
    assert html.count('>Jouer<span class="visually-hidden">') == 10
    assert html.count('>Règles<span class="visually-hidden">') == 10


def test_rules_index_lists_ten_games(client):
    html = client.get(reverse("rules_index")).content.decode()
    links = set(re.findall(r'href="/regles/([a-z0-9-]+)/"', html))
    assert links == set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_renders_in_french_with_title_and_point_tables(client, slug):
    response = client.get(reverse("rules_page", args=[slug]))
    assert response.status_code == 200
    html = response.content.decode()
    page = Game.objects.get(slug=slug).rules
    assert '<html lang="fr">' in html
    assert f"<title>{page.title}" in html
    assert f'<meta name="description" content="{page.meta_description}">' in html
    assert '<link rel="canonical" href="http://testserver/regles/' in html
    assert 'class="skip-link" href="#contenu"' in html and '<main id="contenu"' in html
    assert "<table" in html and "<th" in html, "a table of point values"
    assert "Le décompte des points" in html
    assert re.search(r"[♠♥♦♣]", html) or slug in ("rummikub", "canasta-tuiles")
    assert "http://" not in page.body and "https://" not in page.body


def test_unknown_rules_page_is_a_french_404(client):
    assert client.get("/regles/poker/").status_code == 404


def test_unpublished_game_is_hidden(client):
    Game.objects.filter(slug="thunee").update(published=False)
    assert client.get(reverse("rules_page", args=["thunee"])).status_code == 404
    assert "/regles/thunee/" not in client.get(reverse("home")).content.decode()
