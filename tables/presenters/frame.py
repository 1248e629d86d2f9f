"""The frame every table shares, whatever its game: the seats around it, whose turn, the clock, what just
happened, the leave cost, the final standings. No game name and no family's field in here, and no query: what the
frame shows from outside the match state (the ledger, the balance, the coach's counter, the chat) is read by
tables.rendering and passed in (`facts`)."""

from collections import Counter

from django.utils import timezone

from engine import narration
from tables import table_types
from tables.models import Seat, Table

BOT_LEVELS = {1: "Débutant", 2: "Confirmé", 3: "Expert"}
MOVE_LOG_TURNS = 12


def seat_name(seat: Seat) -> str:
    if seat.is_bot:
        return f"Robot {BOT_LEVELS.get(seat.bot_level, '')}".strip()
    username = getattr(seat, "username", None)  # read with the seat on the hot path (tables.reads)
    if username is None and seat.user_id is not None:
        username = seat.user.username
    return username or "Place libre"


def seat_names(seats) -> dict[int, str]:
    """Each seat's name by position. Robots of one level share a name, so at a table with several of them each
    also carries its place: « Robot Expert 2 », « Robot Expert 4 » (who took a trick, who won)."""
    names = {seat.position: seat_name(seat) for seat in seats}
    robots = Counter(names[seat.position] for seat in seats if seat.is_bot)
    for seat in seats:
        if seat.is_bot and robots[names[seat.position]] > 1:
            names[seat.position] = f"{names[seat.position]} {seat.position + 1}"
    return names


def short_name(name: str, seat: Seat) -> str:
    """The name a phone's narrow seat box shows in full: a robot's place (« Robot 3 ») or its level when it is the
    only robot of that level (« Expert »; the dots on its avatar say it too); a player's pseudo as is."""
    if not seat.is_bot:
        return name
    last = name.rsplit(" ", 1)[-1]
    return f"Robot {last}" if last.isdigit() else BOT_LEVELS.get(seat.bot_level, name)


def seats_ctx(seats: list[Seat], view: dict | None, me: Seat | None) -> list[dict]:
    """Each seat as the pieces show it; `view["players"]` (the contract's public per-seat facts) fills in
    the count of cards or tiles in hand, the score and whether the seat is still in the match."""
    players = {p["seat"]: p for p in (view or {}).get("players", [])}
    current = (view or {}).get("current")
    to_act = set((view or {}).get("to_act") or [])
    dealer = (view or {}).get("dealer")
    names = seat_names(seats)
    out = []
    for seat in seats:
        info = players.get(seat.position, {})
        out.append({
            "position": seat.position,
            "name": names[seat.position],
            "short_name": short_name(names[seat.position], seat),
            "is_bot": seat.is_bot,
            "bot_level": seat.bot_level if seat.is_bot else None,  # the robot's avatar shows its level
            "is_me": me is not None and seat.pk == me.pk,
            "connected": seat.connected,
            "left": seat.left,
            "hand_count": info.get("hand_count", 0),
            "score": info.get("score", 0),
            "active": info.get("active", True),
            "out": info.get("out"),
            "is_current": seat.position == current or seat.position in to_act,
            "is_dealer": seat.position == dealer,
        })
    return out


def around(seats: list[dict], me: Seat | None) -> list[dict]:
    """Opponents clockwise from my left (seat i+1), as players sit around the table."""
    if me is None:
        return seats
    n = len(seats)
    by_pos = {s["position"]: s for s in seats}
    return [by_pos[(me.position + k) % n] for k in range(1, n) if (me.position + k) % n in by_pos]


def recent_ctx(table: Table, seats: list[dict], me: Seat | None) -> dict:
    """« What just happened »: the last turn as a line, and the round's latest turns (newest first), told
    from the public events kept with the table (tables.recent); plain strings, so a piece drawn from them
    is drawn again only when they change (tables.live.PieceMemo)."""
    names = {s["position"]: s["name"] for s in seats}
    # A push tells the same turns to every seat (only « Tu » differs): grouped once per table read.
    events = getattr(table, "recent_events", None) or []
    key = tuple(names.items())
    cached = table.__dict__.get("_told_groups")
    if cached is None or cached[0] is not events or cached[1] != key:  # a move replaces the list (tables.recent)
        cached = (events, key, narration.grouped(events, names))
        table.__dict__["_told_groups"] = cached
    told = narration.told(cached[2], names, me.position if me else None)
    texts = tuple(t["text"] for t in reversed(told))
    return {"last_move": texts[0] if texts else "", "move_log": texts[:MOVE_LOG_TURNS]}


def ranking(seats: list[Seat], seats_ctx_: list[dict], result: dict | None, deltas: dict[int, int]) -> list[dict]:
    """Final standings with each player's net token change for this table (`deltas`: by user, from the ledger)."""
    if not result:
        return []
    by_pos = {s["position"]: s for s in seats_ctx_}
    users = {s.position: s.user_id for s in seats if s.user_id and not s.is_bot}
    order = result.get("ranking") or [s["position"] for s in seats_ctx_]
    rows = []
    for position in order:
        seat = by_pos.get(position)
        if seat is None:
            continue
        user_id = users.get(position)
        rows.append({**seat, "winner": position in result.get("winners", []),
                     "tokens": deltas.get(user_id, 0) if user_id else None})
    return rows


def is_my_turn(view: dict | None, me: Seat | None) -> bool:
    return bool(view and me is not None and me.position in (view.get("to_act") or []))


def frame_context(table: Table, seats: list[Seat], me: Seat | None, engine, view: dict | None,
                  error: str | None, facts: dict) -> dict:
    """`facts`: what tables.rendering read for this seat outside the match state (`rendering.seat_facts`)."""
    seats_ = seats_ctx(seats, view, me)
    my_seat = next((s for s in seats_ if s["is_me"]), None)
    my_turn = is_my_turn(view, me)
    phase = (view or {}).get("phase")
    remaining = None
    if table.deadline and view and view.get("to_act"):
        remaining = max(0, int((table.deadline - timezone.now()).total_seconds()))
    return {
        "table": table,
        "info": engine.info,
        # The others' pages never got a player's private moves: they stay at the public version.
        "version": table.version_seen_by(me.position if me is not None else None),
        "view": view,
        "has_view": view is not None,  # what the pieces test, rather than the whole view (tables.live.PieceMemo)
        "me": my_seat,
        "seated": my_seat is not None,
        "seats": seats_,
        # What the score sheet shows of each seat: it stays the same while a round is played.
        "score_seats": [{key: s[key] for key in ("position", "name", "is_me", "is_bot", "bot_level", "active", "out",
                                                 "score")} for s in seats_],
        "opponents": around(seats_, me),
        "is_my_turn": my_turn,
        "phase": phase,
        "hint": engine.phase_hints.get(phase, "") if my_turn else "",
        "remaining_s": remaining,
        # A slow table's clock, in words (the seconds' ring still runs on the seats).
        "slow_left": table_types.duration_fr(remaining) if remaining is not None and table.slow else "",
        "slow_until": (timezone.localtime(table.deadline).strftime("%d/%m à %H:%M")
                       if remaining is not None and table.slow else ""),
        "deadline_iso": table.deadline.isoformat() if table.deadline else "",
        "error": error,
        "is_host": me is not None and me.user_id is not None and me.user_id == table.host_id,
        "free_seats": max(0, table.seats_count - len(seats)),
        "chat": facts["chat"],
        "chat_closed": facts["chat_closed"],
        "leave_cost": facts["leave_cost"],
        "coach_left": facts["coach_left"],
        "history": (view or {}).get("history") or [],
        "result": (view or {}).get("result"),
        "ranking": ranking(seats, seats_, (view or {}).get("result"), facts["tokens_won"]) if view else [],
        "my_balance": facts["my_balance"],
        "rematch": facts["rematch"],  # the finished match's « Revanche » (tables.presenters.match_end)
        "rematch_room": facts["rematch_room"],  # a rematch's waiting room
        **recent_ctx(table, seats_, me),
    }
