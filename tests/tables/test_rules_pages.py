import re

import pytest
from django.urls import reverse

from tables.catalogue import entries
from tables.models import Game

pytestmark = pytest.mark.django_db

SLUGS = [slug for slug, *_ in entries()]


def test_every_game_is_seeded_with_its_rules_page():
    assert sorted(Game.objects.values_list("slug", flat=True)) == sorted(SLUGS)
    assert all(game.rules.body for game in Game.objects.all())


def test_home_lists_the_ten_games_with_rules_and_play_links(client):
    html = client.get(reverse("home")).content.decode()
    for slug in SLUGS:
        assert reverse("rules_page", args=[slug]) in html
    playable = sum(game.playable for game in Game.objects.all())
    assert html.count('>Jouer<span class="visually-hidden">') == playable  # the others say « Bientôt » (issue 18)
    assert html.count('>Bientôt<span class="visually-hidden">') == 10 - playable
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


# --- a new release ships new rules pages (init_site) ------------------------------------------

def _page(slug):
    from tables.models import RulesPage

    return RulesPage.objects.get(game__slug=slug)


def _as_shipped_long_ago(slug, body):
    """The page as an older release shipped it, untouched since."""
    from tables import catalogue

    page = _page(slug)
    page.body = body
    page.shipped_digest = catalogue.digest({"title": page.title, "meta_description": page.meta_description,
                                            "body": body})
    page.save()


def test_a_release_updates_the_rules_pages_nobody_edited(capsys):
    from django.core.management import call_command

    from tables.catalogue import read_page

    _as_shipped_long_ago("gin", "<p>Ancienne version.</p>")
    call_command("init_site")
    assert _page("gin").body == read_page("gin")["body"]
    assert "Page de règles « gin » mise à jour." in capsys.readouterr().out


def test_a_rules_page_edited_in_admin_is_kept_unless_overwrite_is_asked(capsys):
    from django.core.management import call_command

    from tables.catalogue import read_page

    _as_shipped_long_ago("gin", "<p>Ancienne version.</p>")
    page = _page("gin")
    page.body = "<p>Corrigé par l'admin.</p>"
    page.save()
    call_command("init_site")
    assert _page("gin").body == "<p>Corrigé par l'admin.</p>"
    assert "« gin » modifiée dans l'admin : conservée" in capsys.readouterr().out
    call_command("init_site", "--overwrite-rules")
    assert _page("gin").body == read_page("gin")["body"]
    assert "Page de règles « gin » remplacée." in capsys.readouterr().out
    call_command("init_site")
    assert "gin" not in capsys.readouterr().out, "up to date: nothing to say"


def test_a_page_of_unknown_origin_is_kept():
    from tables import catalogue
    from tables.models import Game, RulesPage

    page = _page("rami")
    page.body, page.shipped_digest = "<p>Version d'origine inconnue.</p>", ""
    page.save()
    report = dict(catalogue.sync_pages(Game, RulesPage))
    assert report["rami"] == "kept" and _page("rami").body == "<p>Version d'origine inconnue.</p>"
    assert report["gin"] == "current"


def test_the_canastas_are_feminine_in_every_sentence_that_names_them(client, player_client):
    """« la Canasta »: « Jouer à la Canasta classique », « Classement de la Canasta en équipe (tuiles) »."""
    rules = client.get(reverse("rules_page", args=["canasta"])).content.decode()
    assert "Jouer à la Canasta classique" in rules and "Classement de la Canasta classique" in rules
    assert "au Canasta" not in rules and "du Canasta" not in rules
    board = client.get(reverse("leaderboard", args=["canasta-tuiles"])).content.decode()
    assert "Classement de la Canasta en équipe (tuiles)" in board
    assert "Personne n'est encore classé à la Canasta en équipe (tuiles)" in board
    home = client.get(reverse("home")).content.decode()
    assert "Règles<span class=\"visually-hidden\"> de la Canasta classique" in home
    assert "Règles<span class=\"visually-hidden\"> du Rummikub" in home
    lobby = player_client.get(reverse("tables:lobby") + "?jeu=canasta").content.decode()
    assert "Lire les règles de la Canasta classique" in lobby
