"""What a seat may know at a given version, from the table's true state replayed from its move log.

A frame names the version it shows (`data-version` of #table-status); checking it against the state replayed up
to that version, rather than against the engine's view or the latest state, catches a frame that was right for
somebody else or for another moment.
"""

import re

from tables import services
from tables.models import Table

REVEALED = ("ROUND_OVER", "MATCH_OVER")
_VERSION = re.compile(r'id="table-status"[^>]*?data-version="(\d+)"')


def frame_version(text: str) -> int | None:
    found = _VERSION.search(text)
    return int(found.group(1)) if found else None


def states_by_version(table_id: int) -> dict[int, dict]:
    """The table's true state after each move of its log, by version (replayed from the seed)."""
    return dict(services.replay_steps(Table.objects.select_related("game").get(pk=table_id)))


def state_at(table_id: int, version: int) -> dict | None:
    """The table's state right after the move of `version` (None before the start)."""
    return states_by_version(table_id).get(version)


def hidden_cards(state: dict, seat: int | None) -> set[str]:
    """Cards `seat` (None: nobody seated) may not know: the stock, cards removed with a player who left, and
    the other hands until the round is over (Gin: less what was taken face up from the pile)."""
    hidden = set(state.get("stock") or ()) | set(state.get("removed") or ())
    if state["phase"] not in REVEALED:
        public = set(state.get("picked") or ())
        hidden |= {c for p, hand in enumerate(state["hands"]) if p != seat for c in hand if c not in public}
    return hidden


def id_pattern(ids) -> re.Pattern | None:
    """A card id standing alone: `data-card="QH1"`, `"QH1"`, `hd-QH1`, `>QH1<` — not inside `10QH12`."""
    ids = sorted(set(ids), key=len, reverse=True)
    if not ids:
        return None
    return re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, ids)) + r")(?![A-Za-z0-9])")


def leaked_card(text: str, state: dict, seat: int | None) -> str | None:
    """The first card of `text` that `seat` may not know in `state`, or None."""
    pattern = id_pattern(hidden_cards(state, seat))
    found = pattern.search(text) if pattern is not None else None
    return found.group() if found else None
