"""Adding a game is adding its files (docs/adding-a-game.md): a throwaway game of an existing family, and one of a
throwaway family, written to temporary modules, are picked up by the lobby, the table page, the narration of the
moves and the coach with no edit to any existing file. What the site does at start-up (the registries looked up
again, the presenters discovered, `catalogue.seed` as `manage.py init_site` runs it) is all the test does."""

import sys
import textwrap

import pytest
from django.urls import reverse

from engine import coach as engine_coach
from engine import games, narration
from engine.bots import _adapters
from tables import catalogue, coach, families, presenters, rendering, services, tasks
from tables.models import Game, RulesPage
from tests.tables.test_coach import my_turn_at_new_table

pytestmark = pytest.mark.django_db(transaction=True)

# A game of the hand-of-cards family: its rules are Thanasis's, its name and place its own.
SAME_FAMILY_GAME = '''
    import dataclasses

    from engine.games.thanasis import Thanasis


    class Essai(Thanasis):
        info = dataclasses.replace(Thanasis.info, slug="essai", name="Jeu d'essai", order=90,
                                   tagline="Un jeu de la famille des cartes en main.")


    GAME = Essai()
'''

# A game of a family of its own: Thanasis's rules again, with one event of its own after each discard.
NEW_FAMILY_GAME = '''
    import dataclasses

    from engine.base import event
    from engine.games.thanasis import Thanasis


    class EssaiFamille(Thanasis):
        info = dataclasses.replace(Thanasis.info, slug="essai-famille", name="Famille d'essai", order=91,
                                   tagline="Un jeu d'une famille nouvelle.")
        family = "essai_famille"

        def apply(self, state, seat, move):
            new, events = super().apply(state, seat, move)
            if move.get("action") == "discard":
                events = [*events, event("signal_essai", seat=seat)]
            return new, events


    GAME = EssaiFamille()
'''

NEW_FAMILY_PRESENTER = '''
    from tables import families
    from tables.presenters.cards import CardsPresenter


    class EssaiPresenter(CardsPresenter):
        family = "essai_famille"


    PRESENTER = families.register(EssaiPresenter())
'''

NEW_FAMILY_NARRATION = '''
    KEPT = {"signal_essai": ("seat",)}
    PHRASES = {"signal_essai": lambda evt, names: (evt.get("seat"), "avoir", "donné le signal convenu")}
'''

NEW_FAMILY_COACH = '''
    def reason(game, view, move, legal):
        return "Le conseil de la famille d'essai."
'''


@pytest.fixture
def new_files(tmp_path, monkeypatch):
    """The new games' and family's modules, in temporary folders the site's packages look into."""
    written = {
        games: {"essai.py": SAME_FAMILY_GAME, "essai_famille.py": NEW_FAMILY_GAME},
        presenters: {"essai_famille.py": NEW_FAMILY_PRESENTER},
        narration: {"essai_famille.py": NEW_FAMILY_NARRATION},
        engine_coach: {"essai_famille.py": NEW_FAMILY_COACH},
    }
    for package, modules in written.items():
        folder = tmp_path / package.__name__.replace(".", "_")
        folder.mkdir()
        for name, text in modules.items():
            (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
        monkeypatch.setattr(package, "__path__", [*package.__path__, str(folder)])
    yield
    for package, modules in written.items():
        for name in modules:
            sys.modules.pop(f"{package.__name__}.{name.removesuffix('.py')}", None)
    families.PRESENTERS.pop("essai_famille", None)
    for slug in ("essai", "essai-famille"):
        _adapters.pop(slug, None)
    for registry in (games, narration, engine_coach):
        registry.forget()


def start_up() -> None:
    """What a new release does: the registries read again, the presenters discovered, the games seeded."""
    for registry in (games, narration, engine_coach):
        registry.forget()
    presenters.autodiscover()
    catalogue.seed(Game, RulesPage)


def test_a_new_game_and_a_new_family_are_played_told_and_coached_with_no_other_edit(new_files, client, make_player):
    start_up()
    assert {"essai", "essai-famille"} <= set(families.live_slugs())

    host = make_player("essaihost")
    client.force_login(host, backend="accounts.backends.HumanOnlyBackend")
    home = client.get(reverse("home")).content.decode()
    lobby = client.get(reverse("tables:lobby")).content.decode()
    for slug, name in (("essai", "Jeu d&#x27;essai"), ("essai-famille", "Famille d&#x27;essai")):
        assert f"?jeu={slug}" in home
        assert name in lobby

        table = my_turn_at_new_table(host, slug, 2)
        page = client.get(reverse("tables:table", args=[table.pk]))
        assert page.status_code == 200 and name in page.content.decode()
        advice = coach.coach_advise(table_id=table.pk, user_id=host.pk, expected_version=table.version)
        if slug == "essai":  # the hand-of-cards family's words
            assert advice.reason.split(" ")[0] in ("Pioche", "Pioche :", "Défausse", "Ferme", "Fais")
        else:  # the new family's own
            assert advice.reason == "Le conseil de la famille d'essai."

    # Played on (the advice, then the rules' autoplay for me, the robot for itself): « what just happened » tells
    # the family's own event after a discard.
    services.play_move(table_id=table.pk, seat=0, move=advice.move, expected_version=table.version)
    engine = games.get("essai-famille")
    for _ in range(40):
        if "donné le signal convenu" in rendering.render_for_user(table.pk, host.pk):
            break
        table.refresh_from_db()
        to_act = engine.to_act(table.state)
        if not to_act:
            tasks.next_round.run(table.pk, table.version)
        elif 0 in to_act:
            services.play_move(table_id=table.pk, seat=0, move=engine.autoplay(table.state, 0),
                               expected_version=table.version)
        else:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
    assert "donné le signal convenu" in rendering.render_for_user(table.pk, host.pk)
