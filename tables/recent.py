"""« What just happened »: the current round's latest public events, kept with the table.

Each committed move adds one entry `{v, seat, round, events}` (`events`: `engine.narration.public_events`,
only what every seat may see) to `Table.recent_events`, written in the move's own version-checked UPDATE
(tables.services._commit_state). A new round starts an empty list; at most `LIMIT` entries are kept. The
presenters tell them in French (`engine.narration.turns`). Generic: no game is named here.
"""

from engine import narration
from tables.models import Table

LIMIT = 60  # moves: a turn is one to a few of them


def record(table: Table, state: dict | None, events: list[dict] | None, *, seat: int | None) -> list[str]:
    """Add the move's public events to `table.recent_events`; the fields to write (none when unchanged)."""
    round_no = state.get("round") if isinstance(state, dict) else None
    before = table.recent_events or []
    kept = [entry for entry in before if entry.get("round") == round_no]
    public = narration.public_events(events or [])
    if public:
        kept.append({"v": table.version, "seat": seat, "round": round_no, "events": public})
    kept = kept[-LIMIT:]
    if kept == before:
        return []
    table.recent_events = kept
    return ["recent_events"]
