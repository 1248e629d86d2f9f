"""The robots' published strength (issue 16): every live game has its measured figures, shown on its rules
page and on the table creation form, and the file is what bench/strength.py writes from them."""

import pytest
from django.urls import reverse

from bench import strength as bench_strength
from engine.bots import strength
from tables.families import live_slugs

LEVELS = ("1", "2", "3")


@pytest.mark.parametrize("slug", live_slugs())
def test_every_live_game_has_measured_levels(slug):
    entry = strength.for_game(slug)
    assert entry is not None, f"{slug}: no entry in engine/bots/strength.json (python -m bench.strength)"
    assert entry["date"] and entry["command"].startswith("python -m bench.bots")
    assert set(entry["levels"]) == set(LEVELS)
    for level in ("2", "3"):
        vs = entry["levels"][level]["vs_below"]
        low, high = vs["ci95"]
        assert 0 <= low <= vs["win_rate"] <= high <= 1 and vs["matches"] > 0
    mus = [entry["levels"][lv]["rating"]["mu"] for lv in LEVELS]
    for index, level in enumerate(("2", "3")):
        assert (mus[index + 1] > mus[index]) == (entry["levels"][level]["vs_below"]["win_rate"] > 0.5)


def test_the_file_is_what_the_bench_script_writes():
    assert bench_strength.main(["--check"]) == 0


@pytest.mark.parametrize(("slug", "level"), [("gin", 3), ("thanasis", 2), ("canasta", 3), ("thunee", 2)])
def test_the_published_ratings_predict_the_measured_win_rate_back(slug, level):
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    strong = model.rating(*strength.bot_rating(slug, level))
    weak = model.rating(*strength.bot_rating(slug, level - 1))
    if strength.for_game(slug)["teams"]:  # the ladder: two robots of a level against two of the level below
        teams = [[strong, model.rating(*strength.bot_rating(slug, level))],
                 [weak, model.rating(*strength.bot_rating(slug, level - 1))]]
    else:
        teams = [[strong], [weak]]
    predicted = model.predict_win(teams)[0]
    measured = strength.for_game(slug)["levels"][str(level)]["vs_below"]["win_rate"]
    assert predicted == pytest.approx(measured, abs=0.01)


@pytest.mark.django_db
def test_the_rules_page_and_the_creation_form_show_the_strength(client, player_client):
    html = client.get(reverse("rules_page", args=["gin"])).content.decode()
    assert "Force des robots" in html and "Mesurée le 6 décembre 2026" in html
    assert "63,2 % contre Confirmé" in html and "58,4–67,8 %" in html
    # each level against the simple outside player, per match length the table offers (bench.ladder)
    assert "Contre un joueur simple" in html and "1 manche" in html and "100 points de pénalité" in html
    # where it was measured, the ceiling: how often a player who knows the stock's order wins against the same player
    thanasis = client.get(reverse("rules_page", args=["thanasis"])).content.decode()
    assert "Plafond" in thanasis and "60,0 %" in thanasis and "voit les cartes cachées" in thanasis
    form = player_client.get(reverse("tables:lobby") + "?jeu=thunee").content.decode()
    assert 'data-testid="bot-strength"' in form and "98,0 % contre Débutant" in form
