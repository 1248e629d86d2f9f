"""Game families plug in through the engine and their presenter only: the site's generic layers never ask
"which game is this?" (issue 13)."""

import ast
from pathlib import Path

import pytest

from engine import games
from tables import live
from tables.families import PRESENTERS, live_slugs, presenter_for

TABLES = Path(__file__).resolve().parents[2] / "tables"
GENERIC = ["services.py", "consumers.py", "tasks.py", "broadcast.py", "presence.py", "scheduler.py", "commands.py",
           "economy.py", "reads.py", "writes.py", "recent.py", "views.py", "rendering.py", "live.py", "chat.py",
           "forms.py", "quick_start.py", "table_types.py", "coach.py", "presenters/__init__.py", "presenters/frame.py",
           "presenters/base.py", "presenters/match_end.py", "families.py", "errors.py", "rematch.py"]
GAME_WORDS = {*games.available(), "gin", "rami", "kalooki", "canasta", "thunee", "rummikub", "thanasis"}
# Fields of one family's view or moves, which only that family's engine and presenter may read.
FAMILY_FIELDS = {"discard", "discard_top", "discard_pile", "stock", "stock_count", "meld", "melds", "knock",
                 "wild_rank", "joker", "trick", "trump", "tiles", "rack", "arrangement", "picked", "closable"}


def code_words(path: Path) -> tuple[set[str], set[str]]:
    """The identifiers and the string constants (docstrings left out) of a module."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    names, strings = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            strings.add(node.value)
    return names, strings


@pytest.mark.parametrize("module", GENERIC)
def test_the_generic_layers_name_no_game_and_no_family_field(module):
    names, strings = code_words(TABLES / module)
    words = {w.lower() for w in names} | {s.lower() for s in strings}
    assert not words & GAME_WORDS, f"tables/{module} names a game"
    assert not set(strings) & FAMILY_FIELDS, f"tables/{module} reads a family's field"


@pytest.mark.parametrize("module", sorted(f"presenters/{family}.py" for family in PRESENTERS))
def test_a_familys_presenter_names_no_game(module):
    """A game's words (« Main lisse ! », « Frapper / Gin ! », « Canasta naturelle ») are its engine's; the
    presenter serves the family."""
    names, strings = code_words(TABLES / module)
    assert not ({w.lower() for w in names} | {s.lower() for s in strings}) & GAME_WORDS, f"tables/{module} names a game"


def test_every_live_game_has_its_familys_presenter_and_pieces():
    root = TABLES.parent / "templates"
    for slug in live_slugs():
        presenter = presenter_for(games.get(slug))
        for template in presenter.templates().values():
            assert (root / template).exists(), template


def test_a_game_whose_family_has_no_presenter_is_not_offered(monkeypatch):
    """A game whose family has no presenter (no pieces to draw its table) stays out of the lobby, even with its
    engine and bots (Rummikub was so until its tile table came)."""
    engine = games.get("rummikub")
    assert presenter_for(engine) is not None and "rummikub" in live_slugs()
    monkeypatch.delitem(PRESENTERS, engine.family)
    assert presenter_for(engine) is None and "rummikub" not in live_slugs()


FAMILY_FILES = {"css/tiles.css", "css/team_meld.css", "css/tricks.css", "js/tiles.js", "js/team_meld.js",
                "js/table_meld.js"}


@pytest.mark.parametrize("slug", live_slugs())
def test_a_table_page_loads_its_familys_stylesheets_and_scripts_only(client, player, slug):
    from django.urls import reverse

    from tests.tables.helpers import create_table

    seats = games.get(slug).info.min_players
    table = create_table(player, slug, seats=seats, stake=0, start=False)
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    html = client.get(reverse("tables:table", args=[table.pk])).content.decode()
    presenter = presenter_for(games.get(slug))
    own = {*presenter.stylesheets, *presenter.scripts}
    for path in FAMILY_FILES | own:
        assert (f"/static/{path}" in html) == (path in own), (slug, path)
    assert "/static/css/table.css" in html and "/static/js/table.js" in html


def test_a_piece_that_extends_another_familys_is_drawn_again_when_the_parents_inputs_change():
    """The table-meld centre extends the card games' (Jinja2 blocks): the piece memo compares the inputs of both,
    so a new stock count redraws it."""
    whole, attributes = live.template_inputs("tables/live/table_meld/centre.jinja")
    names = set(whole) | {name for name, _ in attributes}
    assert {"stock_count", "can_draw", "discard_top", "tm"} <= names
