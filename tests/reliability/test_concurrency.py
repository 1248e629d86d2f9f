"""Concurrent submissions of moves: applied exactly once, and a lost race is a resync, never an error.

Each test plays 100 races, each on a fresh decision of a live Gin Rami table between two humans
(no bots, no background moves): threads released by one barrier submit moves for the same decision,
through `services.play_move` (the one path) or `commands.handle_frame` (what the websocket and the
HTTP fallback call). Transactional tests, so the threads really commit: on SQLite (file database,
BEGIN IMMEDIATE) and on PostgreSQL (row lock, select_for_update).
"""

import functools
import random
import threading

import pytest
from django.db import connection, transaction

from engine import games
from tables import commands, services
from tables.models import Game, Table, TableMove
from tests.reliability.racers import Racers
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db(transaction=True)

RACES = 100
SAME_MOVE_THREADS = 6
FRAME_THREADS = 4  # each losing frame is answered with a full render: fewer threads, same races
GIN = games.get("gin")


@pytest.fixture(autouse=True)
def _no_background_moves(settings):
    """Only the racing threads move: the next round and the autoplay never start on their own."""
    settings.NEXT_ROUND_DELAY_SECONDS = 3600
    settings.DISCONNECT_GRACE_SECONDS = 3600
    settings.MOVE_RATE_LIMIT = 10**6  # the racing threads play far faster than any player


@pytest.fixture
def players(make_player):
    return make_player("alice"), make_player("bruno")


class Decisions:
    """Fresh decisions, one after the other, on live tables (a new table when a match ends)."""

    def __init__(self, players, seed: int):
        self.players = players
        self.rng = random.Random(seed)
        self.table = None
        self.tables = []

    def _new_table(self) -> Table:
        alice, bruno = self.players
        table = create_table(alice, "gin", seats=2, bots={}, stake=0, options={"match": "100"}, start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        self.tables.append(table.pk)
        return Table.objects.select_related("game").get(pk=table.pk)

    def next(self) -> Table:
        if self.table is not None:
            self.table.refresh_from_db()
        if self.table is None or self.table.status != Table.Status.PLAYING:
            self.table = self._new_table()
        return self.table

    def deciders(self, table: Table) -> tuple[list[int], list[dict]]:
        """The seats that may act now and their legal moves (between rounds: every active seat, next_round)."""
        to_act = GIN.to_act(table.state) or list(table.state["active"])
        return to_act, GIN.legal_moves(table.state, to_act[0])

    def pick(self, table: Table, seat: int, legal: list[dict], k: int = 1) -> list[dict]:
        """k distinct legal moves; a single pick is mostly the rules' autoplay (it knocks), so rounds end."""
        if k == 1 and self.rng.random() < 0.75:
            return [GIN.autoplay(table.state, seat)]
        return self.rng.sample(legal, k)

    def play_to_round_end(self) -> None:
        """Autoplay (not raced) until the round is over, so the next race is « Manche suivante »."""
        table = self.next()
        while GIN.to_act(table.state):
            seat = GIN.to_act(table.state)[0]
            move = GIN.autoplay(table.state, seat)
            assert services.play_move(table_id=table.pk, seat=seat, move=move, expected_version=table.version).applied
            table = self.next()


def user_of(players, seat: int):
    return players[seat]


def assert_applied_once(table_id: int, version: int, seat: int, move: dict) -> None:
    table = Table.objects.get(pk=table_id)
    assert table.version == version + 1, "exactly one move was applied"
    log = list(TableMove.objects.filter(table_id=table_id, seq__gt=version).values("seq", "seat", "move"))
    assert log == [{"seq": version + 1, "seat": seat, "move": move}]
    assert TableMove.objects.filter(table_id=table_id).count() == version + 1


def assert_logs_replay(decisions: Decisions) -> None:
    for table_id in decisions.tables:
        table = Table.objects.select_related("game").get(pk=table_id)
        assert services.replay(table) == table.state
        seqs = list(table.moves.values_list("seq", flat=True))
        assert seqs == list(range(1, table.version + 1))


def test_same_move_submitted_concurrently_is_applied_once(players):
    decisions = Decisions(players, seed=1)
    with Racers(SAME_MOVE_THREADS) as racers:
        for _ in range(RACES):
            table = decisions.next()
            seats, legal = decisions.deciders(table)
            seat, move, version = seats[0], decisions.pick(table, seats[0], legal)[0], table.version

            def submit(seat=seat, move=move, version=version, table_id=table.pk):
                return services.play_move(table_id=table_id, seat=seat, move=move, expected_version=version)

            outcomes = racers.race([submit] * SAME_MOVE_THREADS)
            assert sum(o.applied for o in outcomes) == 1
            for outcome in outcomes:
                assert outcome.error is None, outcome.error
                assert outcome.version == version + 1
            assert_applied_once(table.pk, version, seat, move)
    assert_logs_replay(decisions)


def test_same_frame_from_every_active_seat_or_tab_is_applied_once(players):
    """Through handle_frame: double clicks, two tabs, or both players pressing « Manche suivante »."""
    decisions = Decisions(players, seed=2)
    between_rounds = 0
    with Racers(FRAME_THREADS) as racers:
        for race in range(RACES):
            if race % 10 == 9:
                decisions.play_to_round_end()
            table = decisions.next()
            seats, legal = decisions.deciders(table)
            move, version = decisions.pick(table, seats[0], legal)[0], table.version
            frame = {"kind": "move", **move, "version": str(version)}  # forms send text
            submitters = [seats[i % len(seats)] for i in range(FRAME_THREADS)]
            between_rounds += len(seats) > 1

            def submit(seat, frame=frame, table_id=table.pk):
                return commands.handle_frame(table_id, user_of(players, seat).pk, dict(frame))

            replies = racers.race([lambda seat=seat: submit(seat) for seat in submitters])
            assert sum(reply is None for reply in replies) == 1, "one submission applied, the rest resync"
            for reply in replies:
                if reply is not None:
                    assert 'class="error-icon"' not in reply, reply[:500]
                    assert f'data-version="{version + 1}"' in reply, reply[:800]
            applied = TableMove.objects.get(table_id=table.pk, seq=version + 1)
            assert applied.seat in seats
            assert_applied_once(table.pk, version, applied.seat, move)
    assert between_rounds > 0, "some races were between rounds, every active seat pressing « Manche suivante »"
    assert_logs_replay(decisions)


def test_same_move_without_a_version_is_still_applied_once(players):
    """The HTTP fallback may omit the version: the turn rules refuse the copies with a French reason."""
    decisions = Decisions(players, seed=3)
    with Racers(SAME_MOVE_THREADS) as racers:
        for _ in range(RACES):
            table = decisions.next()
            seats, legal = decisions.deciders(table)
            seat, move, version = seats[0], decisions.pick(table, seats[0], legal)[0], table.version

            def submit(seat=seat, move=move, table_id=table.pk):
                return services.play_move(table_id=table_id, seat=seat, move=move, expected_version=None)

            outcomes = racers.race([submit] * SAME_MOVE_THREADS)
            assert sum(o.applied for o in outcomes) == 1
            for outcome in outcomes:
                if not outcome.applied:
                    assert outcome.error is not None and outcome.error.message
            assert_applied_once(table.pk, version, seat, move)
    assert_logs_replay(decisions)


def test_two_different_moves_racing_one_wins_the_other_resyncs(players):
    decisions = Decisions(players, seed=4)
    races = 0
    with Racers(2) as racers:
        while races < RACES:
            table = decisions.next()
            seats, legal = decisions.deciders(table)
            seat, version = seats[0], table.version
            if len(legal) < 2:  # a forced move: play it and go on to a real choice
                services.play_move(table_id=table.pk, seat=seat, move=legal[0], expected_version=version)
                continue
            first, second = decisions.pick(table, seat, legal, 2)
            user_id = user_of(players, seat).pk

            def submit(move, version=version, user_id=user_id, table_id=table.pk):
                return commands.handle_frame(table_id, user_id, {"kind": "move", **move, "version": version})

            replies = racers.race([functools.partial(submit, first), functools.partial(submit, second)])
            races += 1
            winners = [i for i, reply in enumerate(replies) if reply is None]
            assert len(winners) == 1, replies
            loser = replies[1 - winners[0]]
            assert 'class="error-icon"' not in loser, "the loser is not told off: it gets the current state"
            assert f'data-version="{version + 1}"' in loser
            assert_applied_once(table.pk, version, seat, (first, second)[winners[0]])
    assert_logs_replay(decisions)


def test_a_move_locks_its_table_row_only(players):
    """PostgreSQL: `FOR UPDATE` on a join would also lock the game's row, serialising the moves of every
    table of that game; the service locks `OF` the table alone. A held lock on the game must not block a move."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only (SQLite locks the whole database per write)")
    decisions = Decisions(players, seed=5)
    table = decisions.next()
    seat = GIN.to_act(table.state)[0]
    locked, release = threading.Event(), threading.Event()

    def hold_game_row():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=table.game_id)
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_game_row)
    holder.start()
    try:
        assert locked.wait(30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '5s'")
            outcome = services.play_move(table_id=table.pk, seat=seat, move=GIN.autoplay(table.state, seat),
                                         expected_version=table.version)
        assert outcome.applied
    finally:
        release.set()
        holder.join()
