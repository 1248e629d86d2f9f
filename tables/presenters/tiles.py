"""The tile games' presenter: the committed table sets in the middle, my rack at the bottom, the
pool's count, the others' rack counts, the round-end racks tile by tile (templates/tables/live/tiles/).

The staging of a turn is client-side (static/js/tiles.js): the pieces draw the committed table, and the
browser moves tiles between sets until « Valider » sends one `end_turn` with the whole table. A proposal
the server already holds (`view["staged"]`, from a `rearrange`) is drawn as my starting point instead.
Only my own rack's tiles are ever drawn, never another rack's nor the pool's."""

import json
from functools import lru_cache

from markupsafe import Markup

from engine.games import _tiles
from tables import families, live
from tables.presenters.base import Presenter

MACROS = "tables/live/tiles/tiles.jinja"
_tile = live.cached_macro(MACROS, "tile")
MARKS = {"R": "●", "Y": "▲", "B": "■", "K": "◆"}  # each colour also differs by a small mark (UI.md)


def tile_html(tile: dict, size: str = "") -> Markup:
    return _tile(tile, size)


@lru_cache(maxsize=256)
def tile_ctx(tile: str) -> dict:
    joker = _tiles.is_joker(tile)
    return {
        "id": tile,
        "joker": joker,
        "colour": "J" if joker else tile[0],
        "number": None if joker else _tiles.number_of(tile),
        "name": _tiles.tile_name(tile),
        "mark": "" if joker else MARKS[tile[0]],
        "value": _tiles.rack_value([tile]),
    }


def set_label(tiles, kind: str | None = None) -> str:
    """« Suite 4-5-6 rouge » / « Groupe de 7 » for a screen reader, from the engine's description."""
    text = _tiles.describe_set(tiles)
    for article in ("La ", "Le "):
        if text.startswith(article):
            text = text[len(article):]
    return text[:1].upper() + text[1:]


def table_sets(view: dict) -> tuple:
    return tuple({"tiles": tuple(tile_ctx(t) for t in s["tiles"]), "value": s.get("value", 0),
                  "label": set_label(s["tiles"]), "valid": True, "reason": ""}
                 for s in view.get("table") or ())


def round_end(view: dict, seats_ctx: list[dict]) -> dict | None:
    last = view.get("last_round")
    if not last:
        return None
    names = {s["position"]: s["name"] for s in seats_ctx}
    players = tuple({
        "seat": p["seat"],
        "name": names.get(p["seat"], f"Place {p['seat'] + 1}"),
        "tiles": tuple(tile_ctx(t) for t in p.get("rack") or ()),
        "value": p.get("value", 0),
        "points": p.get("points") or 0,
    } for p in last.get("players") or ())
    return {"round": last.get("round"), "ending": last.get("ending"), "winner": last.get("winner"),
            "players": players}


class TilesPresenter(Presenter):
    family = "tiles"
    stylesheets = ("css/tiles.css",)
    scripts = ("js/tiles.js",)
    folder = "tiles"
    pieces = ("opponents", "centre", "hand", "actions", "round_end", "scores")  # scores: the tile scoring's note
    template_globals = {"tile_html": tile_html}

    def context(self, engine, view: dict, frame: dict, *, table, seats: list, me) -> dict:
        legal = view.get("legal") or []
        kinds = {m["action"] for m in legal}
        players = {p["seat"]: p for p in view.get("players") or ()}
        for seat in frame["seats"]:
            seat["opened"] = bool(players.get(seat["position"], {}).get("opened"))
        my_seat = view.get("seat")
        me_opened = my_seat is not None and bool(view["opened"][my_seat])
        staged = view.get("staged")
        return {
            "tl_sets": table_sets(view),
            "tl_staged_table": json.dumps(staged["table"]) if staged else "",
            "tl_rack": tuple(tile_ctx(t) for t in view.get("rack") or ()),
            "tl_rack_value": view.get("rack_value"),
            "tl_pool": view.get("pool_count") or 0,
            "tl_first_meld": view.get("first_meld") or 30,
            "tl_opened": me_opened,
            "tl_round": view.get("round"),
            "tl_rounds": view.get("rounds"),
            "tl_acting": bool(frame["is_my_turn"]) and view.get("phase") == "TURN",
            "tl_can_draw": "draw_stock" in kinds,
            "tl_can_pass": "pass" in kinds,
            "tl_can_next": "next_round" in kinds,
            "tl_labels": dict(engine.action_labels),
            "last_round": round_end(view, frame["seats"]),
        }


PRESENTER = families.register(TilesPresenter())
