"""« Conseil »: what the Expert robot would play now, for the player who asks and nobody else.

The advice itself is the engine's (engine.coach: the Expert bot on the seat's own view, and a French reason);
here a table allows it or not (`coach_limit` uses per seat and match, none in rated and Arena matches), and
each advice given counts one use, atomically, only if the table is still at the version it was asked for.
The answer goes back on the asker's socket only: it is never broadcast.
"""

import hashlib
import json
import random
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F

from engine import bots, coach
from tables import live
from tables.errors import TableError
from tables.models import Seat, Table, engine_for

OFF = "Le conseil n'est pas proposé à cette table."
NOT_SEATED = "Tu n'es pas assis à cette table."
NOT_PLAYING = "La partie n'est pas en cours : pas de conseil maintenant."
NOT_YOUR_TURN = "Le conseil se demande quand c'est à toi de jouer."
LATE = "Trop tard : la table a changé depuis ta demande. Redemande un conseil si tu veux."
NOTHING = "Rien à conseiller : la manche est finie."


def used_up(limit: int) -> str:
    return f"Tu as utilisé tes {limit} conseil{'s' if limit > 1 else ''} de la partie."


@dataclass
class Advice:
    move: dict
    reason: str
    left: int
    version: int


def coach_allowed(table: Table) -> bool:
    """Whether this table offers « Conseil »: a limit above 0, not rated, not an Arena, and a robot for its game."""
    if table.coach_limit <= 0 or table.rated or table.table_type == Table.Type.ARENA:
        return False
    return bots.supports(engine_for(table).slug)


def coach_left(table: Table, seat: Seat | None) -> int | None:
    """Uses left to this seat in this match; None when the table offers no coach (or to a robot, a spectator)."""
    if seat is None or seat.is_bot or not coach_allowed(table):
        return None
    return max(0, table.coach_limit - seat.coach_uses)


def _rng(table: Table, seat: int) -> random.Random:
    """Derived one-way from the seed, as the robots' (tables.tasks.bot_turn): reproducible, and it tells nothing."""
    digest = hashlib.sha256(f"{table.seed}:coach:{table.version}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def coach_advise(*, table_id: int, user_id: int, expected_version: int | None) -> Advice:
    """The Expert's move for the user's seat now, with its reason; counts one use. Raises TableError (French)
    when the table offers no coach, the uses are spent, it is not the user's decision, or the table moved on."""
    seat = (Seat.objects.select_related("table__game")
            .filter(table_id=table_id, user_id=user_id, bot_level__isnull=True, left=False).first())
    if seat is None:
        raise TableError(NOT_SEATED, "not_seated")
    table = seat.table
    if not coach_allowed(table):
        raise TableError(OFF, "coach_off")
    if table.status != Table.Status.PLAYING or table.state is None:
        raise TableError(NOT_PLAYING, "not_playing")
    shown = table.version_seen_by(seat.position)  # the version this player's page shows
    if expected_version is not None and expected_version != shown:
        raise TableError(LATE, "stale")
    if seat.coach_uses >= table.coach_limit:
        raise TableError(used_up(table.coach_limit), "coach_used")
    engine = engine_for(table)
    if seat.position not in engine.to_act(table.state):
        raise TableError(NOT_YOUR_TURN, "not_your_turn")
    legal = engine.legal_moves(table.state, seat.position)
    if not legal:
        raise TableError(NOT_YOUR_TURN, "not_your_turn")
    if all(m.get("action") == "next_round" for m in legal):
        raise TableError(NOTHING, "nothing")
    view = engine.view(table.state, seat.position)
    move, reason = coach.advise(engine, view, legal, _rng(table, seat.position))
    with transaction.atomic():
        counted = (Seat.objects.filter(pk=seat.pk, coach_uses__lt=table.coach_limit)
                   .update(coach_uses=F("coach_uses") + 1))
        if not counted:
            raise TableError(used_up(table.coach_limit), "coach_used")
        if not Table.objects.filter(pk=table.pk, version=table.version).exists():
            raise TableError(LATE, "stale")  # rolled back: a late advice costs nothing
    left = table.coach_limit - Seat.objects.values_list("coach_uses", flat=True).get(pk=seat.pk)
    return Advice(move=move, reason=reason, left=max(0, left), version=shown)


def render_advice(advice: Advice) -> str:
    """The advice box (#table-coach), for the asker's page only."""
    return live.render("tables/live/coach.jinja", {
        "advice": advice, "move_json": json.dumps(advice.move, ensure_ascii=False),
    })
