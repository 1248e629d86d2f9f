"""Table services: the only place a move is applied, tables are created, joined, started and settled.

`play_move` is the one path for every move: websocket clicks, the HTTP fallback, bot tasks,
timers and the autoplay of disconnected players all call it.
"""

import logging
from collections import deque
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from accounts import friends
from accounts.models import Counter, CounterEntry, User
from accounts.services import InsufficientJokers, counter_balances, counter_move
from engine import IllegalMove, games
from engine.base import private_move
from engine.rng import new_seed
from tables import (
    economy,
    families,
    log_context,
    notices,
    reads,
    recent,
    scheduler,
    signals,
    socket_registry,
    stats,
    table_types,
    writes,
)
from tables.errors import TableError
from tables.models import Game, Seat, SeatPresence, Table, TableMove, engine_for

log = logging.getLogger(__name__)

COACH_LIMITS = (0, 1, 3, 5)  # « Conseil » uses per seat and match a host may choose (0: none)
LEAVE_MESSAGE = "Pour quitter la partie, utilise le bouton « Quitter »."
SEAT_RELEASED = "Tu as quitté cette table : ta place est libre."
MATCH_LEFT = "Tu as quitté cette partie : tu ne peux plus que la regarder en spectateur."
BLOCKED = "blocked"  # a private table between a host and a player one of them blocked (accounts.friends)


@dataclass
class MoveOutcome:
    applied: bool
    version: int
    error: IllegalMove | None = None


# --- creating and joining ----------------------------------------------------------------

@transaction.atomic
def table_create(
    *,
    host: User,
    game: Game,
    seats_count: int,
    bot_levels: dict[int, int] | None = None,
    options: dict | None = None,
    stake: int | None = None,
    turn_timer_s: int | None = None,
    private: bool = True,
    table_type: str = Table.Type.FRIENDS,
    rated: bool = False,
    spectators_chat: bool = False,
    coach_limit: int = 3,
    host_position: int = 0,
) -> Table:
    """A new table with the host at `host_position` (seat 0 unless a rematch puts him back at his place:
    tables.rematch) and bots where asked ({position: level}). `turn_timer_s`: one of the
    game's move timers (None: its default). `spectators_chat`: the spectators may write in the table's chat
    (tables.spectators).

    An Arena plays the engine's three-round format (plus its tie-breaks) for an entry stake, and is listed in
    the lobby; a quick-start table is public and friendly (tables.quick_start fills and starts it)."""
    if game.slug not in families.live_slugs():
        raise TableError("Ce jeu n'est pas encore jouable en ligne.", "not_playable")
    engine = games.get(game.slug)
    info = engine.info
    if not info.min_players <= seats_count <= info.max_players:
        raise TableError(f"Ce jeu se joue de {info.min_players} à {info.max_players} joueurs.", "seats")
    try:
        options = info.clean_options(options)
    except ValueError:
        raise TableError("Une option de la table n'est pas valable.", "options") from None
    if table_type not in Table.Type.values:
        raise TableError("Ce type de table n'existe pas.", "table_type")
    stake = game.default_stake if stake is None else stake
    if table_type == Table.Type.ARENA:
        forced = table_types.arena_options(info)
        if forced is None:
            raise TableError("Ce jeu ne se joue pas en Arène.", "arena")
        options = {**options, **forced}
        if not stake:
            raise TableError("L'Arène se joue avec une mise d'entrée : choisis une mise.", "stake")
        private = False
    elif table_type == Table.Type.QUICK:
        stake, private = 0, False
    elif table_type == Table.Type.TOURNAMENT:
        stake = 0  # the tournament's entry stake is its own (its prize pool)
    elif table_type == Table.Type.PRACTICE:
        stake, private, rated = 0, True, False  # tables.practice: for nothing, seen by its player alone
    if stake not in game.allowed_stakes() and table_type != Table.Type.PRACTICE:
        raise TableError("Cette mise n'est pas autorisée pour ce jeu.", "stake")
    turn_timer_s = info.default_turn_timer if turn_timer_s is None else turn_timer_s
    if turn_timer_s not in info.turn_timers and turn_timer_s not in table_types.SLOW_TURN_TIMERS:
        raise TableError("Ce temps par coup n'est pas proposé.", "timer")
    if table_types.is_slow(turn_timer_s) and table_type != Table.Type.FRIENDS:
        raise TableError("Une partie lente se joue à une table entre amis.", "timer")
    if coach_limit not in COACH_LIMITS:
        raise TableError("Ce nombre de conseils n'est pas proposé.", "coach")
    bot_levels = bot_levels or {}
    if not 0 <= host_position < seats_count:
        raise TableError("Cette place n'existe pas à cette table.", "position")
    if any(pos < 0 or pos >= seats_count or pos == host_position or level not in (1, 2, 3)
           for pos, level in bot_levels.items()):
        raise TableError("Les robots doivent occuper des places libres, au niveau 1, 2 ou 3.", "bots")
    economy.ensure_can_stake(host, stake)
    table = Table.objects.create(
        game=game, host=host, seats_count=seats_count, options=options, stake=stake,
        turn_timer_s=turn_timer_s, private=private, table_type=table_type, rated=bool(rated),
        spectators_chat=bool(spectators_chat), coach_limit=coach_limit,
    )
    Seat.objects.create(table=table, position=host_position, user=host)
    for position, level in sorted(bot_levels.items()):
        Seat.objects.create(table=table, position=position, bot_level=level)
    scheduler.after_commit_lobby_changed()
    return table


@transaction.atomic
def match_create_seated(*, game: Game, players: dict[int, User], options: dict | None, turn_timer_s: int | None,
                        rated: bool, private: bool) -> Table:
    """A table whose players an organizer placed ({position: user}, every place), started at once: a tournament's
    match (Table.Type.TOURNAMENT: no stake of its own, no rematch; watched by anyone if `private` is False). Blocks
    between players do not apply: nobody chose to sit with anyone."""
    seats_count = len(players)
    if sorted(players) != list(range(seats_count)):
        raise TableError("Chaque place de la table doit avoir son joueur.", "seats")
    table = table_create(host=players[0], game=game, seats_count=seats_count, options=options, stake=0,
                         turn_timer_s=turn_timer_s, table_type=Table.Type.TOURNAMENT, rated=rated, private=private)
    Seat.objects.bulk_create([Seat(table=table, position=p, user=u) for p, u in sorted(players.items()) if p])
    table = Table.objects.select_for_update().get(pk=table.pk)
    return match_start(table=table)


@transaction.atomic
def seat_join(*, table: Table, user: User) -> Seat:
    """Take the place kept for me (`Table.reserved`: a rematch's player back at his place), else the first free
    place kept for nobody (invite link or lobby). A place kept for another player is never given away here: it
    waits for his answer (tables.rematch)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    existing = table.seats.filter(user=user).first()
    if existing:
        return existing
    if table.private and table.host_id != user.pk and friends.blocked_either(table.host_id, user.pk):
        # Either way round: the blocked player never sits at the blocker's private table, nor the blocker at his.
        if friends.has_blocked(user.pk, table.host_id):
            raise TableError("Tu as bloqué l'hôte de cette table privée : débloque-le depuis « Mes amis » pour "
                             "t'y asseoir.", BLOCKED)
        raise TableError("Tu ne peux pas t'asseoir à cette table privée.", BLOCKED)
    if table.status != Table.Status.WAITING:
        raise TableError("La partie a déjà commencé à cette table.", "started")
    taken = set(table.seats.values_list("position", flat=True))
    reserved = {p: u for p, u in table.reserved_places().items() if p not in taken}
    mine = [p for p, u in sorted(reserved.items()) if u == user.pk]
    free = [p for p in range(table.seats_count) if p not in taken and p not in reserved]
    if not mine and not free:
        if reserved:
            raise TableError("Les places libres sont gardées pour les joueurs de la partie précédente.", "reserved")
        raise TableError("Cette table est complète.", "full")
    economy.ensure_can_stake(user, table.stake)
    position = mine[0] if mine else free[0]
    seat = Seat.objects.create(table=table, position=position, user=user)
    if mine:
        table.reserved = {str(p): u for p, u in reserved.items() if p != position}
        table.save(update_fields=["reserved"])
    if not match_start_if_full(table):
        scheduler.after_commit_table_changed(table.pk)
    _finished_table_changed(table)
    scheduler.after_commit_lobby_changed()
    return seat


def _finished_table_changed(table: Table) -> None:
    """A rematch's finished table shows who is back at the rematch (tables.rematch): push its pages too."""
    if table.rematch_of_id is not None:
        scheduler.after_commit_table_changed(table.rematch_of_id)


def match_start_if_full(table: Table) -> bool:
    """Start a table that starts by itself (`Table.starts_when_full`: a quick start, a rematch), locked by the
    caller, once every place is taken. A player who can no longer pay the stake (spent at another table since he
    sat down) keeps it waiting instead of refusing the seat just taken: the host's « Commencer » then says why."""
    if not table.starts_when_full or table.seats.count() < table.seats_count:
        return False
    try:
        with transaction.atomic():
            match_start(table=table)
    except TableError as error:
        log.info("table %s stays waiting: %s", table.pk, error.message)
        return False
    return True


@transaction.atomic
def seat_leave_waiting(*, table: Table, user: User) -> None:
    """Leave a table that has not started; the host leaving cancels it."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status != Table.Status.WAITING:
        raise TableError("La partie a commencé : utilise « Quitter » depuis la table.", "started")
    successor = None
    if table.host_id == user.pk and table.table_type == Table.Type.QUICK:
        # Nobody hosts a quick start: the next player waiting keeps the table for the others.
        successor = table.seats.exclude(user=user).filter(user__isnull=False, bot_level__isnull=True).first()
    if successor is not None:
        table.host_id = successor.user_id
        table.save(update_fields=["host"])
    if table.host_id == user.pk:
        table.status = Table.Status.CANCELLED
        table.save(update_fields=["status"])
    elif (seat := table.seats.filter(user=user).first()) is not None:
        seat.delete()
        scheduler.after_commit_seat_released(table.pk, user.pk, seat.position, SEAT_RELEASED)
    scheduler.after_commit_table_changed(table.pk)
    _finished_table_changed(table)
    scheduler.after_commit_lobby_changed()


@transaction.atomic
def table_start(*, table: Table, user: User) -> Table:
    """The host starts once every seat is taken: stakes go to the pot, the first round is dealt."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.host_id != user.pk:
        raise TableError("Seul l'hôte peut lancer la partie.", "not_host")
    if table.status != Table.Status.WAITING:
        raise TableError("La partie a déjà commencé.", "started")
    if table.seats.count() < table.seats_count:
        raise TableError("Toutes les places doivent être occupées pour commencer.", "not_full")
    return match_start(table=table)


def match_start(*, table: Table) -> Table:
    """Deal the first round of a full table, locked by the caller: stakes go to the pot; a game with an account
    joker balance learns each human's (logged with the start, so a replay rebuilds the same state)."""
    seats = list(table.seats.select_related("user"))
    economy.stakes_escrow(table=table, seats=seats)
    engine = engine_for(table)
    table.seed = new_seed()
    table.state = engine.new_match(table.seats_count, table.options, table.seed)
    start = {"action": "start"}
    if engine.info.account_jokers:
        humans = {s.position: s.user_id for s in seats if s.user_id and not s.is_bot}
        held = counter_balances(humans.values(), Counter.Kind.JOKERS)
        balances = {position: held[user_id] for position, user_id in humans.items()}
        table.state = engine.with_joker_balances(table.state, balances)
        start["balances"] = {str(position): count for position, count in balances.items()}
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    table.version = table.public_version = 1
    table.private_seat = None
    table.deadline = None
    _update_deadline(table)
    table.save()
    TableMove.objects.create(table=table, seq=1, seat=None, move=start, actor="system")
    notices.decision_started(table, engine)
    scheduler.after_commit_move(table)
    scheduler.after_commit_lobby_changed()
    return table


def match_start_from(*, table: Table, source: dict, seed: str, recent_events: list | None = None) -> Table:
    """Start a full table, locked by the caller, from the state after another table's move (`source`: {"table": id,
    "seq": n}, a practice table: tables.practice) rather than from a deal: its log's start says so, and the replay
    rebuilds it from that table's own log (replay_moves). No stake moves (a practice plays for nothing). `seed`:
    the source's, which that state holds; `recent_events`: the round's public events so far (tables.recent)."""
    table.seed = seed
    table.state = start_state_from(source, before=table.pk)
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    table.version = table.public_version = 1
    table.private_seat = None
    table.deadline = None
    table.recent_events = list(recent_events or [])
    _update_deadline(table)
    table.save()
    TableMove.objects.create(table=table, seq=1, seat=None, move={"action": "start", "from": dict(source)},
                             actor="system")
    notices.decision_started(table, engine_for(table))
    scheduler.after_commit_move(table)
    scheduler.after_commit_lobby_changed()
    return table


# --- moves ----------------------------------------------------------------------------------

NOT_SEATED = "not_seated"


def play_move(*, table_id: int, seat: int | None = None, user_id: int | None = None, move,
              expected_version: int | None, actor: str = "player") -> MoveOutcome:
    """Apply one move under a row lock (PostgreSQL) / write lock (SQLite BEGIN IMMEDIATE), for `seat`, or for
    the place `user_id` holds (read with the locked table: a player's move; not seated: error `not_seated`).

    A stale or duplicate submission (expected_version not current) changes nothing and is
    answered with the current version, so the client resyncs. Illegal moves raise nothing:
    the outcome carries the engine's French message and the state is untouched.
    """
    log_context.at_table(table_id)
    with transaction.atomic():
        table = reads.table_locked(table_id, user_id=user_id)
        if table is None:
            raise Table.DoesNotExist(table_id)
        if user_id is not None:
            seat = table.user_position
            if seat is None:
                return MoveOutcome(False, table.version, IllegalMove(NOT_SEATED, "Tu n'es pas assis à cette table."))
        # A player's page that did not get another player's private moves shows the table's public version
        # (Table.version_seen_by); the server's own tasks (robots, timers) read the table itself.
        current = table.version_seen_by(seat) if actor == "player" else table.version
        if expected_version is not None and expected_version != current:
            return MoveOutcome(False, table.version)  # stale, or a duplicate of the move that ended the match
        if table.status != Table.Status.PLAYING or table.state is None:
            return MoveOutcome(False, table.version, IllegalMove("not_playing", "La partie n'est pas en cours."))
        engine = engine_for(table)
        try:
            # Only what the game declares is applied and logged (no junk, nothing a database cannot store).
            move = engine.clean_move(move)
            if move["action"] == "leave":
                # The engines accept a leave as a move; a player's « Quitter » must go through seat_abandon,
                # which marks the seat and charges the abandon penalty.
                raise IllegalMove("use_leave", LEAVE_MESSAGE)
            state, _events = engine.apply(table.state, seat, move)
            _debit_jokers(table, _events)
        except IllegalMove as error:
            return MoveOutcome(False, table.version, error)
        private = move_is_private(engine, table.state, seat, move, _events)
        _commit_state(table, engine, state, seat=seat, move=move, actor=actor, events=_events, private=private)
        return MoveOutcome(True, table.version)


def move_is_private(engine, before: dict, seat: int | None, move: dict, events: list) -> bool:
    """Whether the move just applied changes nothing the other seats and the spectators may know: the engine says
    so (`Game.is_private`: a staged action before its commit) and every event it returned is addressed to its
    player alone. Such a move is pushed to its player only (tables.broadcast.table_changed)."""
    return private_move(engine, before, seat, move, events)


def _commit_state(table: Table, engine, state: dict, *, seat: int | None, move: dict, actor: str,
                  events: list | None = None, private: bool = False) -> None:
    previous, before = table.version, table.state
    table.state = state
    table.version = previous + 1
    if private and table.private_seat in (None, seat):
        table.private_seat = seat  # the others' pages stay at public_version: they get nothing of this move
    else:
        # Everyone gets this move (another seat's private move after a first one's, never met: told to all).
        table.public_version, table.private_seat = table.version, None
    new_decision = _update_deadline(table, before)
    fields = ["state", "version", "public_version", "private_seat", "deadline", "remind_at"]
    fields += recent.record(table, state, events, seat=seat)  # the round's public events (tables.recent)
    result = engine.result(state)
    if result is not None and table.status == Table.Status.PLAYING:
        table.status = Table.Status.FINISHED
        table.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    # Version-checked write: a concurrent writer that slipped past the lock cannot double-apply. The state and
    # its log entry leave in one statement (PostgreSQL).
    if writes.table_update_and_move_append(table, fields, previous_version=previous, seat=seat, move=move,
                                           actor=actor) != 1:
        raise RuntimeError(f"table {table.pk} changed under its lock")
    if result is not None and table.table_type == Table.Type.PRACTICE:
        # A practice (tables.practice) pays nothing, counts in no statistics, rating, season or tournament, and
        # tells nobody: the match is over, and that is all.
        Table.objects.filter(pk=table.pk).update(settled=True)
        scheduler.after_commit_match_over(table.pk)
    elif result is not None:
        economy.match_settle(table=table, result=result)
        stats.match_record_safe(table=table, result=result)  # after the payouts: it reads their entries
        notices.match_over(table)
        scheduler.after_commit_match_over(table.pk)
        signals.match_finished.send(sender=Table, table=table, places=engine.match_places(state, result))
    elif new_decision:
        notices.decision_started(table, engine, before)
    scheduler.after_commit_move(table)


JOKER_TAKEN = "joker_taken"
NO_JOKER_LEFT = "no_joker_balance"


def _debit_jokers(table: Table, events: list) -> None:
    """A move that spent account jokers (a `joker_taken` event) debits its player, in the move's transaction
    and keyed by the move's number: applied once, or not at all with the move. A balance spent meanwhile at
    another table refuses the move. A practice table (tables.practice) spends none: its jokers are the state's."""
    if table.table_type == Table.Type.PRACTICE:
        return
    for evt in events:
        if evt.get("kind") != JOKER_TAKEN:
            continue
        user = User.objects.filter(seats__table_id=table.pk, seats__position=evt.get("seat"),
                                   seats__bot_level__isnull=True).first()
        if user is None:
            continue  # a robot's seat has no account balance
        try:
            counter_move(user=user, kind=Counter.Kind.JOKERS, amount=-1, reason=CounterEntry.Reason.SPENT,
                         table_id=table.pk, idempotency_key=f"joker:{table.pk}:{table.version + 1}")
        except InsufficientJokers as error:
            raise IllegalMove(NO_JOKER_LEFT, error.message) from None


def _update_deadline(table: Table, before: dict | None = None) -> bool:
    """A new decision gets the table's full time per move (and, at a slow table, a reminder when a quarter of it
    is left). A move that leaves the same players deciding in the same phase (a lay-down, lay-off, joker swap or
    undo staged during a rummy turn) keeps the running clock: staging and undoing must not stretch a turn
    forever. Returns whether a new decision started."""
    engine = engine_for(table)
    if table.state is None or not engine.to_act(table.state):
        table.deadline = table.remind_at = None
        return False
    # At a slow table a whole turn is one decision (draw and throw alike): its day is not given again between them,
    # and once it has run out the autoplay plays the turn's steps one sweep after the other.
    if (before is not None and table.deadline is not None and engine.to_act(before) == engine.to_act(table.state)
            and (table.slow or before.get("phase") == table.state.get("phase"))
            and before.get("round") == table.state.get("round")):
        return False
    table.deadline = timezone.now() + timezone.timedelta(seconds=table.turn_timer_s)
    table.remind_at = (table.deadline - timezone.timedelta(seconds=table_types.reminder_lead(table.turn_timer_s))
                       if table.slow else None)
    return True


def seat_abandon(*, table_id: int, user: User, penalty: bool = True) -> None:
    """« Quitter » during a match: the engine takes the seat out (a team game's plays on, by the autoplay); the
    economy charges the penalty.

    From then on the player holds no place (tables.reads leaves a `left` seat out): his pages are told and
    closed, the pushes carry nothing for him, and he may come back only as a spectator (tables.spectators)."""
    with transaction.atomic():
        table = Table.objects.select_for_update(of=("self",)).select_related("game").get(pk=table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise TableError("Tu n'es pas assis à cette table.", "not_seated")
        if seat.left:
            return
        if table.status == Table.Status.WAITING:
            seat_leave_waiting(table=table, user=user)  # nothing to abandon yet: the place is freed
            return
        _seat_left(table, seat)
        if table.status != Table.Status.PLAYING or seat.position not in table.state.get("active", []):
            # Match over, or already out (burnt or eliminated): leaving costs nothing more.
            scheduler.after_commit_table_changed(table.pk)
            return
        engine = engine_for(table)
        state, _events = engine.leave(table.state, seat.position)
        if penalty and table.table_type != Table.Type.PRACTICE:  # nor for a forfeit (a tournament's absent player)
            economy.abandon_penalty(table=table, user=user)
        _commit_state(table, engine, state, seat=seat.position, move={"action": "leave"}, actor="player",
                      events=_events)


def _seat_left(table: Table, seat: Seat) -> None:
    """Mark the seat left, locked by the caller. The player's sockets no longer count for it (a robot or the
    autoplay plays it now), and once committed his pages opened on it are told and closed, as a waiting table's
    leaver's are: what is pushed for that place afterwards is never his to see."""
    seat.left = True
    seat.connections = 0
    seat.save(update_fields=["left", "connections"])
    SeatPresence.objects.filter(seat=seat).delete()
    scheduler.after_commit_seat_released(table.pk, seat.user_id, seat.position, MATCH_LEFT)


def replay_moves(table: Table, moves=None):
    """(move, state after it, its events) for each move of the log, rebuilt from the seed: the one replay of
    a table (audits, tests, and the replay pages: tables.replays). `moves`: the log already read.

    A start that says where it starts from (`{"action": "start", "from": {"table": id, "seq": n}}`: a practice
    table, tables.practice) is the state after move `n` of that other table, rebuilt by its own replay."""
    engine = engine_for(table)
    state = None
    for entry in table.moves.order_by("seq") if moves is None else moves:
        action = entry.move.get("action")
        events: list = []
        if action == "start" and "from" in entry.move:
            state = start_state_from(entry.move["from"], before=table.pk)
        elif action == "start":
            state = engine.new_match(table.seats_count, table.options, table.seed)
            if "balances" in entry.move:
                state = engine.with_joker_balances(
                    state, {int(position): count for position, count in entry.move["balances"].items()})
        elif action == "leave":
            state, events = engine.leave(state, entry.seat)
        else:
            state, events = engine.apply(state, entry.seat, entry.move)
        yield entry, state, events


class StartNotFound(LookupError):
    """A start entry's source (table and move number) is not there to replay."""


def start_state_from(source: dict, *, before: int | None = None) -> dict:
    """The state after move `source["seq"]` of table `source["table"]`, rebuilt from that table's own seed and log
    (its own start may come from another table in turn). `before`: the table whose start this is; its source is
    an older table, so the chain always ends."""
    try:
        table_id, seq = int(source["table"]), int(source["seq"])
    except (KeyError, TypeError, ValueError):
        raise StartNotFound(source) from None
    if before is not None and table_id >= before:
        raise StartNotFound(source)
    origin = Table.objects.select_related("game").filter(pk=table_id).first()
    if origin is None:
        raise StartNotFound(source)
    for entry, state, _events in replay_moves(origin, origin.moves.filter(seq__lte=seq).order_by("seq")):
        if entry.seq == seq:
            return state
    raise StartNotFound(source)


def replay_steps(table: Table):
    """(version, state) after each move of the log, rebuilt from the seed (audits: what each seat could know
    at each version)."""
    for entry, state, _events in replay_moves(table):
        yield entry.seq, state


def replay(table: Table) -> dict | None:
    """Rebuild the state from the seed and the log (tests and audits)."""
    last = deque(replay_steps(table), maxlen=1)  # only the final state is kept
    return last[0][1] if last else None


# --- seats: connection, order, bots ---------------------------------------------------------

def seat_connected(*, table_id: int, user_id: int, delta: int) -> Seat | None:
    """Count the seat's open sockets; returns the seat (None if the user is not seated)."""
    with transaction.atomic():
        seat = reads.seat_locked(table_id, user_id)
        if seat is None:
            return None
        socket_registry.count(seat, delta)
        seat.last_seen = timezone.now()
        writes.seat_presence(seat)
        if seat.connections == 0 or delta > 0:
            # Last socket gone: autoplay now if it is this seat's decision. A socket (re)opened: re-arm
            # the current decision as well, in case its task died with a killed process (daphne killed
            # between a move's commit and its scheduling). Tasks are version-checked: armed twice, played once.
            scheduler.after_commit_autoplay_if_due(table_id)
        scheduler.after_commit_presence_changed(table_id)
        return seat


def hand_order_save(*, table_id: int, user: User, order: list) -> None:
    """Remember my manual hand order (cards I no longer hold are dropped when rendering)."""
    if not isinstance(order, list) or len(order) > 40 or not all(
            isinstance(c, str) and len(c) < 8 and c.isprintable() for c in order):
        raise TableError("Ordre de cartes invalide.", "bad_order")
    Seat.objects.filter(table_id=table_id, user=user).update(hand_order=order)
