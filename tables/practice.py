"""« Rejouer à partir d'ici »: a step of a finished match's replay (« Revoir ») played on, live, at a new table.

The player of that match who asks gets a practice table (`Table.Type.PRACTICE`, « Entraînement »): the same game
and options, himself at his own place, robots of the level he chose at every other place, and the state exactly as
it was after that step. It is private (never listed in the lobby), free (stake 0, no abandon penalty, no account
joker spent), unrated, and its end pays nothing and counts nowhere (tables.services._commit_state); it offers no
rematch (tables.rematch) and no download (tables.exports).

The log stays the one truth: the practice table's log starts with `{"action": "start", "from": {"table": <source>,
"seq": <n>}}`, and `tables.services.replay_moves` rebuilds that start from the source table's own seed and log up
to move `n`. The practice table keeps the source's seed (the state holds it: whatever the rules draw later, a
reshuffle or the next round's deal, is drawn as the source's state would have drawn it).

Refused, in French, and nothing changed: someone who did not play the match, a match not over, a round or step
that does not exist, a step where nobody is to act (a round's or the match's end), and more than
`MAX_OPEN` practice tables not over. An imported match has no table, hence no log to start from: its pages offer
no such button (and no URL leads here from them).
"""

from dataclasses import dataclass

from django.db import transaction

from accounts.models import User
from engine import games
from tables import replays, services, table_types
from tables.errors import TableError
from tables.models import Seat, Table, engine_for

MAX_OPEN = 3  # practice tables a player may have not over at once
LEVELS = {1: "Débutant", 2: "Confirmé", 3: "Expert"}
DEFAULT_LEVEL = 3

NOT_A_PLAYER = "Seuls les joueurs de cette partie peuvent la rejouer à partir d'un coup."
NOT_OVER = "La partie n'est pas terminée : tu pourras la rejouer à partir d'un coup une fois finie."
NO_SUCH_STEP = "Ce coup n'existe pas dans cette manche."
NOBODY_TO_ACT = "Personne n'a de coup à jouer à ce moment de la partie : choisis un autre coup."
TOO_MANY = (f"Tu as déjà {MAX_OPEN} parties d'entraînement en cours : termine ou quitte l'une d'elles avant d'en "
            "commencer une autre.")
BAD_LEVEL = "Choisis le niveau des robots : Débutant, Confirmé ou Expert."
OUT_THEN = "Tu n'étais plus dans la partie à ce moment-là : choisis un coup d'avant ton départ."
NO_LOG = "Cette partie ne peut pas être rejouée : son journal de coups n'est pas disponible."


@dataclass
class Origin:
    """Where a practice table would start: the source table, its round and the step in it."""

    table: Table
    seat: Seat
    step: replays.Step
    recent_events: list  # the round's public events up to the step (« what just happened »: tables.recent)


def origin_refusal(table: Table, user: User) -> str | None:
    """Why `user` may not replay this table from any of its steps (None: he may, step permitting). Cheap: the replay
    page reads it to offer the button."""
    if not table.pk or not table.seed:
        return NO_LOG
    if not any(s.user_id == user.pk and not s.is_bot for s in table.seats.all()):
        return NOT_A_PLAYER
    if not replays.match_over(table):
        return NOT_OVER
    return None


def step_refusal(table: Table, step: replays.Step) -> str | None:
    """Why play cannot go on from this step (None: it can): someone must be to act, and the match not over."""
    engine = engine_for(table)
    if engine.result(step.state) is not None or not engine.to_act(step.state):
        return NOBODY_TO_ACT
    return None


def _origin(table: Table, user: User, number: int, index: int) -> Origin:
    refusal = origin_refusal(table, user)
    if refusal is not None:
        raise TableError(refusal, "practice")
    rnd = replays.finished_round(table, number)
    if rnd is None or not 0 <= index < len(rnd.steps):
        raise TableError(NO_SUCH_STEP, "step")
    step = rnd.steps[index]
    refusal = step_refusal(table, step)
    if refusal is not None:
        raise TableError(refusal, "step")
    seat = table.seats.get(user_id=user.pk, bot_level__isnull=True)
    if seat.position not in step.state.get("active", [seat.position]):
        raise TableError(OUT_THEN, "step")
    shown = replays.step_table(table, rnd, index)
    recent = [{**entry, "v": 1} for entry in shown.recent_events]
    return Origin(table, seat, step, recent)


def practice_from_replay(*, table_id: int, user: User, round_number: int, index: int,
                         level: int = DEFAULT_LEVEL) -> Table:
    """The practice table that plays the finished table `table_id` on from step `index` of its round `round_number`
    (the replay page's `?etape=`), `user` at his own place and robots of `level` at the others, started and in
    play; TableError (French) and nothing written otherwise."""
    if level not in LEVELS:
        raise TableError(BAD_LEVEL, "level")
    source = Table.objects.select_related("game").filter(pk=table_id).first()
    if source is None:
        raise TableError(NOT_A_PLAYER, "practice")
    origin = _origin(source, user, round_number, index)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one count at a time per player
        open_count = Table.objects.filter(host=user, table_type=Table.Type.PRACTICE,
                                          status__in=[Table.Status.WAITING, Table.Status.PLAYING]).count()
        if open_count >= MAX_OPEN:
            raise TableError(TOO_MANY, "too_many")
        return _create(origin, user, level)


def _create(origin: Origin, user: User, level: int) -> Table:
    source, position = origin.table, origin.seat.position
    info = games.get(source.game.slug).info
    # A slow source's hours per move make no sense against robots: the game's own live time.
    timer = source.turn_timer_s if not table_types.is_slow(source.turn_timer_s) else info.default_turn_timer
    table = services.table_create(
        host=user, game=source.game, seats_count=source.seats_count, host_position=position,
        bot_levels={p: level for p in range(source.seats_count) if p != position},
        options=source.options, stake=0, turn_timer_s=timer, private=True, table_type=Table.Type.PRACTICE,
        rated=False, coach_limit=source.coach_limit or 3,
    )
    table = Table.objects.select_for_update().get(pk=table.pk)
    return services.match_start_from(table=table, source={"table": source.pk, "seq": origin.step.seq},
                                     seed=source.seed, recent_events=origin.recent_events)


def start_line(table: Table) -> str:
    """A practice table's first step in words, in place of a deal: where it starts from ("" for another table)."""
    if table.table_type != Table.Type.PRACTICE:
        return ""
    first = table.moves.filter(seq=1).values_list("move", flat=True).first() or {}
    source = first.get("from") if isinstance(first, dict) else None
    if not isinstance(source, dict):
        return ""
    return f"Partie d'entraînement : la partie de la table n° {source.get('table')} reprend ici, en cours de manche."


def open_practices(user: User) -> int:
    return Table.objects.filter(host=user, table_type=Table.Type.PRACTICE,
                                status__in=[Table.Status.WAITING, Table.Status.PLAYING]).count()
