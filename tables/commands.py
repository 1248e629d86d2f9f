"""What a client frame asks for (websocket or HTTP fallback), parsed and handed to the services."""

import contextlib
import json

from django.conf import settings

from accounts.models import User
from accounts.throttle import hit
from tables import broadcast, chat, coach, reads, rendering, services, spectators
from tables.errors import TableError
from tables.models import Seat, Table, engine_for

CONTROL_KEYS = {"kind", "version", "HEADERS"}
SLOW_KINDS = frozenset({"coach"})  # frames the consumer answers off its database thread (a search runs)
NOT_SEATED = "Tu n'es pas assis à cette table."


def error_html(message: str, rule_url: str = "") -> str:
    return rendering.render_error(message, rule_url)


def rule_url(table: Table, code: str) -> str:
    """« Pourquoi ? » next to a refusal: the game's rules page, opened at the section that explains it (the
    engine's word: `rule_section`, the id of one of the page's headings), else at its top."""
    url = table.game.get_absolute_url()
    section = engine_for(table).rule_section(code)
    return f"{url}#{section}" if section else url


def seat_of(table_id: int, user_id: int) -> int | None:
    """The user's seat at this table, or None (not seated, or left the match: a spectator's socket if he may
    watch, else refused)."""
    return reads.seat_position(table_id, user_id)


def connect_seat(table_id: int, user_id: int) -> int | None:
    seat = services.seat_connected(table_id=table_id, user_id=user_id, delta=+1)
    return None if seat is None else seat.position


def disconnect_seat(table_id: int, user_id: int) -> None:
    services.seat_connected(table_id=table_id, user_id=user_id, delta=-1)


def full_view(table_id: int, user_id: int, hidden: frozenset[int] | None = None) -> str | None:
    return rendering.render_for_user(table_id, user_id, hidden)


def chat_hidden(table_id: int, user_id: int) -> frozenset[int]:
    """The writers whose chat lines this user's socket leaves out (tables.chat)."""
    return chat.hidden_authors(table_id, user_id)


def chat_again(table_id: int, user_id: int) -> tuple[frozenset[int], str]:
    """What the user hides changed (a block, a mute): the writers hidden now, and the chat log without them."""
    hidden = chat.hidden_authors(table_id, user_id)
    return hidden, rendering.render_chat(table_id, hidden)


def may_watch(table_id: int, session, user_id: int | None = None) -> bool:
    """A socket of a user who is not seated: may he watch (tables.spectators)?"""
    return spectators.may_watch(table_id, session, user_id)


def handle_spectator_frame(table_id: int, user_id: int, payload) -> str | None:
    """A spectator's frame: he never acts; he writes in the chat only where the table allows it."""
    if not isinstance(payload, dict):
        return error_html("Message illisible.")
    kind = payload.get("kind", "move")
    if kind in ("move", "order", "leave"):
        return error_html(spectators.CANNOT_ACT)
    if kind != "chat":
        return error_html("Action inconnue.")
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table.spectators_chat:
        return error_html(spectators.CANNOT_CHAT)
    try:
        chat.chat_post(table=table, user=User.objects.get(pk=user_id), text=payload.get("text"), spectator=True)
    except TableError as error:
        return error_html(error.message)
    broadcast.chat_posted(table_id)
    return None


def parse_move(payload: dict) -> tuple[dict, int | None]:
    """The move (action + params) and the version the client saw. Values from forms arrive as text."""
    move = {}
    for key, value in payload.items():
        if key in CONTROL_KEYS:
            continue
        if isinstance(value, str) and value[:1] in "[{":
            with contextlib.suppress(ValueError, RecursionError):  # too deep: left as text, the engine refuses it
                value = json.loads(value)
        move[key] = value
    version = payload.get("version")
    try:
        version = int(version) if version not in (None, "") else None
    except (TypeError, ValueError, OverflowError):  # OverflowError: JSON Infinity
        version = -1  # unreadable: treated as stale, answered with the current view
    return move, version


def handle_frame(table_id: int, user_id: int, payload, *, session=None) -> str | None:
    """Apply what the frame asks; returns HTML for this client only (errors, resync), or None.
    `session` (the HTTP fallback): a user who is not seated but may watch is answered as a spectator."""
    if not isinstance(payload, dict):
        return error_html("Message illisible.")
    if (session is not None and reads.seat_position(table_id, user_id) is None
            and spectators.may_watch(table_id, session, user_id)):
        return handle_spectator_frame(table_id, user_id, payload)
    kind = payload.get("kind", "move")
    if kind == "move":
        return _move(table_id, user_id, payload)
    if kind == "coach":
        return _coach(table_id, user_id, payload)
    # One query: the seat, its table and game, and the user (a seat its player left is not his any more).
    seat = (Seat.objects.select_related("table__game", "user")
            .filter(table_id=table_id, user_id=user_id, left=False).first())
    if seat is None:
        return error_html(NOT_SEATED)
    table, user = seat.table, seat.user
    try:
        if kind == "chat":
            chat.chat_post(table=table, user=user, text=payload.get("text"))
            broadcast.chat_posted(table_id)
            return None
        if kind == "order":
            order = payload.get("order")
            if isinstance(order, str):
                order = [c for c in order.split(",") if c]
            services.hand_order_save(table_id=table_id, user=user, order=order)
            # « Ranger pour moi » (an empty order) redraws the hand; a drag needs no answer.
            return None if order else rendering.render_for_user(table_id, user_id)
        if kind == "leave":
            services.seat_abandon(table_id=table_id, user=user)
            return None
    except TableError as error:
        return error_html(error.message)
    return error_html("Action inconnue.")


def _coach(table_id: int, user_id: int, payload: dict) -> str:
    """« Conseil »: the advice box and this player's own table (the count left on the button), for him only."""
    if hit(f"coach:{user_id}", limit=settings.MOVE_RATE_LIMIT, window=settings.MOVE_RATE_WINDOW):
        return error_html("Tu demandes trop vite : attends quelques secondes.")
    _, version = parse_move(payload)
    try:
        advice = coach.coach_advise(table_id=table_id, user_id=user_id, expected_version=version)
    except TableError as error:
        return error_html(error.message)
    return coach.render_advice(advice) + (rendering.render_for_user(table_id, user_id) or "")


def _move(table_id: int, user_id: int, payload: dict) -> str | None:
    """The hot path: services.play_move, which reads the player's place with the locked table."""
    if hit(f"move:{user_id}", limit=settings.MOVE_RATE_LIMIT, window=settings.MOVE_RATE_WINDOW):
        return error_html("Tu joues trop vite : attends quelques secondes.")
    move, version = parse_move(payload)  # checked against the game's move shape by play_move
    try:
        outcome = services.play_move(table_id=table_id, user_id=user_id, move=move, expected_version=version)
    except Table.DoesNotExist:
        return error_html(NOT_SEATED)
    if outcome.error is not None and outcome.error.code == services.NOT_SEATED:
        return error_html(NOT_SEATED)
    if outcome.error is not None:
        table = Table.objects.select_related("game").filter(pk=table_id).first()
        return error_html(outcome.error.message, rule_url=rule_url(table, outcome.error.code) if table else "")
    if not outcome.applied:
        return rendering.render_for_user(table_id, user_id)  # stale or duplicate: resync this client
    return None
