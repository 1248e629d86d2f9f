"""The engine contract (engine/README.md), checked for every game that has an engine."""

import ast
import json
import pathlib
import subprocess
import sys

import pytest

from engine import IllegalMove, games
from engine.base import Game, GameInfo, visible_to

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"django", "channels", "celery", "tables", "accounts", "rummy_site", "redis", "psycopg",
             "requests", "asgiref", "daphne"}
SLUGS = ["thanasis", "gin"]
SEED = "c0de" * 16
REQUIRED_STATE_KEYS = {"game", "seats", "phase", "round", "active", "scores", "history"}
REQUIRED_VIEW_KEYS = {"game", "seat", "seats", "phase", "round", "dealer", "current", "to_act", "hand",
                      "players", "stock_count", "discard_top", "discard_pile", "legal", "arrangement",
                      "history", "last_round"}


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("__import__", "import_module"):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names.add(arg.value.split(".")[0])
    return names


def test_engine_sources_import_no_web_stack():
    sources = sorted(ENGINE.rglob("*.py"))
    assert sources, "engine sources not found"
    offenders = {str(p.relative_to(ENGINE)): sorted(imported_modules(p) & FORBIDDEN) for p in sources}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_the_engines_loads_no_web_stack():
    code = (
        "import sys, engine\n"
        f"for slug in {SLUGS!r}: engine.games.get(slug)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FORBIDDEN)!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ENGINE.parent)
    assert out.stdout.strip() == "[]"


def test_registry():
    assert set(SLUGS) <= set(games.available())
    for slug in SLUGS:
        game = games.get(slug)
        assert game is games.get(slug)
        assert isinstance(game, Game) and isinstance(game.info, GameInfo)
        assert game.slug == slug == game.info.slug
    with pytest.raises(KeyError):
        games.get("belote")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_contract_method_is_implemented(slug):
    game = games.get(slug)
    for name in ("new_match", "to_act", "legal_moves", "apply", "view", "public_view", "result",
                 "autoplay", "leave"):
        assert getattr(type(game), name) is not getattr(Game, name), name


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_states_views_and_events_are_plain_json(slug, seats):
    game = games.get(slug)
    state = game.new_match(seats, {}, SEED)
    assert set(state) >= REQUIRED_STATE_KEYS
    assert state["game"] == slug and state["seats"] == seats and state["round"] == 1
    assert state["active"] == list(range(seats)) and state["scores"] == [0] * seats
    for _ in range(60):
        assert json.loads(json.dumps(state)) == state
        for seat in range(seats):
            view = game.view(state, seat)
            assert set(view) >= REQUIRED_VIEW_KEYS
            assert view["seat"] == seat and view["legal"] == game.legal_moves(state, seat)
            json.dumps(view)
        public = game.public_view(state)
        assert public["hand"] == [] and public["legal"] == []
        json.dumps(public)
        to_act = game.to_act(state)
        assert isinstance(to_act, list)
        if not to_act:
            break
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        assert legal and all(isinstance(m, dict) and isinstance(m["action"], str) for m in legal)
        move = game.autoplay(state, seat)
        assert move["action"] in {m["action"] for m in legal}
        state, events = game.apply(state, seat, move)
        json.dumps(events)
        for evt in events:
            assert isinstance(evt["kind"], str)
            assert evt["audience"] == "all" or set(evt["audience"]) <= {"seat", "team"}
            visible_to(evt, None)
    assert game.result(state) is None or game.result(state)["winners"]


@pytest.mark.parametrize("slug", SLUGS)
def test_illegal_move_carries_a_stable_code_and_a_french_message(slug):
    game = games.get(slug)
    state = game.new_match(2, {}, SEED)
    with pytest.raises(IllegalMove) as err:
        game.apply(state, 1 - state["current"], game.legal_moves(state, state["current"])[0])
    assert err.value.code == "not_your_turn"
    assert err.value.message == "Ce n'est pas ton tour."


@pytest.mark.parametrize("slug", SLUGS)
def test_options_are_cleaned(slug):
    game = games.get(slug)
    state = game.new_match(2, {"turn_timer_s": 30, "stake": 5}, SEED)
    assert state["options"] == game.info.clean_options({})
    with pytest.raises(ValueError):
        game.new_match(2, {}, "")
