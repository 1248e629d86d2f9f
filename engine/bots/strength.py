"""The robots' published strength (strength.json, written by `python -m bench.strength` from the bot ladders):
per game and level, the win rate against the level below with its 95 % interval and matches, the date
measured, and the fixed rating a robot of that level plays at in rated matches."""

import json
from functools import lru_cache
from pathlib import Path

PATH = Path(__file__).with_name("strength.json")
LEVEL_NAMES = {1: "Débutant", 2: "Confirmé", 3: "Expert"}


@lru_cache(maxsize=1)
def _table() -> dict:
    return json.loads(PATH.read_text(encoding="utf-8"))["games"]


def for_game(slug: str) -> dict | None:
    """The game's entry ({"date", "command", "teams", "levels": {"1": ..., "2": ..., "3": ...}}), or None."""
    return _table().get(slug)


def bot_rating(slug: str, level: int) -> tuple[float, float]:
    """(mu, sigma) of a robot of `level` in `slug`; a game not measured yet: the model's prior shifted by
    level (Débutant 20, Confirmé 25, Expert 30), sigma 1."""
    entry = for_game(slug)
    if entry is None:
        return 15.0 + 5 * level, 1.0
    rating = entry["levels"][str(level)]["rating"]
    return float(rating["mu"]), float(rating["sigma"])


def levels_fr(slug: str) -> list[dict]:
    """For the pages: one row per level, French, e.g. {"level": 2, "name": "Confirmé", "win_rate": "60,7 %",
    "ci": "57,6–63,7 %", "matches": 1000, "rating": "22,0", "below": "Débutant"}; [] if not measured."""
    entry = for_game(slug)
    if entry is None:
        return []
    rows = []
    for level in (1, 2, 3):
        data = entry["levels"][str(level)]
        row = {"level": level, "name": LEVEL_NAMES[level], "rating": _fr(data["rating"]["score"], 1),
               "mu": data["rating"]["mu"]}
        if "vs_below" in data:
            vs = data["vs_below"]
            row.update(below=LEVEL_NAMES[level - 1], win_rate=f"{_fr(vs['win_rate'] * 100, 1)} %",
                       ci=f"{_fr(vs['ci95'][0] * 100, 1)}–{_fr(vs['ci95'][1] * 100, 1)} %", matches=vs["matches"])
        rows.append(row)
    return rows


def reference_fr(slug: str) -> list[dict]:
    """For the rules page: per match length measured, each level's record against the reference opponent (a
    simple outside player, bench/reference), e.g. {"length": "1 manche", "cells": [{"name": "Débutant",
    "win_rate": "48,0 %", "ci": "43,1–52,9 %", "matches": 400}, …], "ceiling": the all-seeing player's record
    (the ceiling of a race) or None}; [] if not measured."""
    entry = for_game(slug) or {}
    rows = []
    for length, levels in sorted((entry.get("vs_reference") or {}).items(), key=lambda kv: _length_key(kv[0])):
        cells = []
        for level in (1, 2, 3, 4):
            data = levels.get(str(level))
            cells.append(None if data is None else {
                "name": LEVEL_NAMES.get(level, "Joueur qui voit toutes les cartes"),
                "win_rate": f"{_fr(data['win_rate'] * 100, 1)} %",
                "ci": f"{_fr(data['ci95'][0] * 100, 1)}–{_fr(data['ci95'][1] * 100, 1)} %",
                "matches": data["matches"]})
        rows.append({"length": _length_label(slug, length), "cells": cells[:3],
                     "ceiling": cells[3] if len(cells) > 3 else None})
    return rows


def _length_key(length: str):
    return (0, int(length)) if length.isdigit() else (1, length)


def _length_label(slug: str, length: str) -> str:
    """« 1 manche », « 100 points de pénalité »: the label of the match-length choice the bench played (the
    game's first option, as `bench.bots` plays it); « Partie » where the game offers no length."""
    from engine import games

    options = games.get(slug).info.options
    choices = {str(value): label for value, label in options[0].choices} if options else {}
    return choices.get(length, "Partie")


def date_fr(slug: str) -> str:
    """The date measured, French (« 2 décembre 2026 »), or ""."""
    entry = for_game(slug)
    if entry is None:
        return ""
    months = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
              "novembre", "décembre")
    year, month, day = (int(x) for x in entry["date"].split("-"))
    return f"{day} {months[month - 1]} {year}"


def _fr(value: float, digits: int) -> str:
    return f"{value:.{digits}f}".replace(".", ",").replace("-", "−")
