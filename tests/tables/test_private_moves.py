"""What others must not learn: a player's private moves (staged before the discard / « Valider ») are pushed to him
alone, and the tile Canasta's « Joker » button is told to the others as a plain draw. Run on the configured mode's
channel layer: in-process by default, Redis pub/sub with REDIS_URL."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from accounts.models import Counter, CounterEntry
from accounts.services import counter_move
from engine import games
from tables import rendering, resync, services
from tables.models import Seat, Table
from tests.security.replayed import frame_version
from tests.security.test_seat_changes import collect
from tests.tables.helpers import create_table
from tests.tables.test_consumers import communicator
from tests.tables.test_spectators import watcher_socket

NAMES = ("alice", "bruno", "chloe", "dina")


def humans_table(make_player, slug: str, seats: int, monkeypatch, jokers: int = 0) -> tuple[Table, list, object]:
    """A public table of `seats` humans (nobody plays by himself), started from a fixed seed, and a spectator."""
    monkeypatch.setattr(services, "new_seed", lambda: "0" * 64)
    players = [make_player(n) for n in NAMES[:seats]]
    for user in players if jokers else ():
        counter_move(user=user, kind=Counter.Kind.JOKERS, amount=jokers, reason=CounterEntry.Reason.GRANT,
                     idempotency_key=f"grant-{user.pk}")
    table = create_table(players[0], slug, seats=seats, bots={}, stake=0, start=False)
    for user in players[1:]:
        services.seat_join(table=table, user=user)
    Table.objects.filter(pk=table.pk).update(private=False)
    services.table_start(table=table, user=players[0])
    return Table.objects.get(pk=table.pk), players, make_player("bob")


def play(table: Table, seat: int, move: dict) -> Table:
    outcome = services.play_move(table_id=table.pk, seat=seat, move=move, expected_version=table.version)
    assert outcome.applied, outcome.error
    return Table.objects.get(pk=table.pk)


def autoplay_until(table: Table, wanted, limit: int = 80) -> tuple[Table, int, dict]:
    """Autoplay the table until the seat to act has a legal move `wanted(move, state)` accepts."""
    engine = games.get(table.game.slug)
    for _ in range(limit):
        seat = engine.to_act(table.state)[0]
        found = [m for m in engine.legal_moves(table.state, seat) if wanted(m, table.state)]
        if found:
            return table, seat, found[0]
        table = play(table, seat, engine.autoplay(table.state, seat))
    raise AssertionError("no such move in reach")


async def opened_sockets(table: Table, players: list, watcher) -> dict:
    socks = {i: communicator(table.pk, user) for i, user in enumerate(players)}
    socks[None] = watcher_socket(table.pk, watcher)
    for comm in socks.values():
        assert (await comm.connect())[0]
    for comm in socks.values():  # the first view, and the presence pushes of the others' arrivals
        await collect(comm, 1.0)
    return socks


async def pushed(socks: dict) -> dict:
    frames = await asyncio.gather(*(collect(comm, 1.0) for comm in socks.values()))
    return {key: [f for f in got[0] if 'id="table-status"' in f] for key, got in zip(socks, frames, strict=True)}


async def check_private_then_public(table: Table, players: list, watcher, actor: int, private: list[dict],
                                    public: dict) -> None:
    socks = await opened_sockets(table, players, watcher)
    before = table.version
    for move in private:
        table = await database_sync_to_async(play)(table, actor, move)
        got = await pushed(socks)
        assert [frame_version(f) for f in got[actor]] == [table.version], "the actor's page follows his moves"
        assert {k: v for k, v in got.items() if k != actor} == {k: [] for k in socks if k != actor}, (
            "no other seat and no spectator gets anything of a private move")
    assert table.version == before + len(private) and table.public_version == before
    assert table.private_seat == actor
    # The others' pages show the public version: a move of theirs made from it is not stale (it is judged).
    other = (actor + 1) % len(players)
    outcome = await database_sync_to_async(services.play_move)(
        table_id=table.pk, seat=other, move={"action": "draw_stock"}, expected_version=before)
    assert outcome.error is not None and outcome.error.code == "not_your_turn"
    # The actor's own page must hold the real version: a duplicate from before his private moves is stale.
    outcome = await database_sync_to_async(services.play_move)(
        table_id=table.pk, seat=actor, move=private[0], expected_version=before)
    assert not outcome.applied and outcome.error is None
    # A page of another seat at the public version is not « behind »: the resync never sends it the view.
    assert await resync_resends(table, other, before) == 0
    assert await resync_resends(table, actor, before) == 1
    table = await database_sync_to_async(play)(table, actor, public)
    assert table.public_version == table.version and table.private_seat is None
    got = await pushed(socks)
    for key, frames in got.items():
        assert [frame_version(f) for f in frames] == [table.version], f"place {key} gets the public move"
    for comm in socks.values():
        await comm.disconnect()


class Page:
    def __init__(self, table_id, seat, shown):
        self.table_id, self.seat, self.watching, self.shown_version, self.resent = table_id, seat, False, shown, 0

    async def resend(self):
        self.resent += 1


async def resync_resends(table: Table, seat: int, shown: int) -> int:
    from django.conf import settings

    page = Page(table.pk, seat, shown)
    saved, resync._sockets = resync._sockets, {page}
    old_url, settings.REDIS_URL = settings.REDIS_URL, settings.REDIS_URL or "redis://127.0.0.1:6379/13"
    try:
        stale: dict = {}
        await resync.check_once(stale)
        await resync.check_once(stale)
    finally:
        resync._sockets, settings.REDIS_URL = saved, old_url
    return page.resent


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_staged_canasta_meld_and_its_undo_reach_the_actor_only_then_the_discard_everyone(make_player,
                                                                                                 monkeypatch):
    def setup():
        table, players, watcher = humans_table(make_player, "canasta-tuiles", 4, monkeypatch)
        table, actor, meld = autoplay_until(table, lambda m, s: s["phase"] == "MELD" and m["action"] == "meld")
        return table, players, watcher, actor, meld

    table, players, watcher, actor, meld = await database_sync_to_async(setup)()
    engine = games.get("canasta-tuiles")
    after_meld, _ = engine.apply(table.state, actor, meld)
    after_undo, _ = engine.apply(after_meld, actor, {"action": "undo"})
    discard = next(m for m in engine.legal_moves(after_undo, actor) if m["action"] == "discard")
    await check_private_then_public(table, players, watcher, actor, [meld, {"action": "undo"}], discard)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_rummikub_proposal_reaches_the_actor_only_then_valider_everyone(make_player, monkeypatch):
    def setup():
        table, players, watcher = humans_table(make_player, "rummikub", 2, monkeypatch)
        table, actor, play_ = autoplay_until(table, lambda m, s: m["action"] == "end_turn" and "table" in m)
        return table, players, watcher, actor, play_

    table, players, watcher, actor, suggestion = await database_sync_to_async(setup)()
    proposal = {"action": "rearrange", "table": suggestion["table"], "jokers": suggestion.get("jokers") or {}}
    await check_private_then_public(table, players, watcher, actor, [proposal], {"action": "end_turn"})


@pytest.mark.django_db(transaction=True)
def test_the_joker_button_is_a_plain_draw_for_the_others_and_the_spectators(make_player, monkeypatch):
    table, _players, _watcher = humans_table(make_player, "canasta-tuiles", 4, monkeypatch, jokers=2)
    table, actor, take = autoplay_until(table, lambda m, s: m["action"] == "take_joker", limit=200)
    hand_before = set(table.state["hands"][actor])
    table = play(table, actor, take)
    joker = (set(table.state["hands"][actor]) - hand_before).pop()
    seats = list(Seat.objects.filter(table=table).select_related("user"))
    for seat in [*seats, None]:
        html = rendering.render_push(table, seats, seat)
        assert "bouton Joker" not in html and "pris un joker" not in html
        if seat is not None and seat.position == actor:
            assert "Tu as pioché." in html  # as told of any draw to the drawer himself
            assert f'data-card="{joker}"' in html  # his hand shows what he drew
        else:
            assert f"{NAMES[actor].capitalize()} a pioché." in html or f"{NAMES[actor]} a pioché." in html
            assert f'data-card="{joker}"' not in html


@pytest.mark.django_db(transaction=True)
def test_a_replay_has_no_step_for_a_staged_action(make_player, monkeypatch):
    """The others never saw a staged meld or its undo: the round's replay (anyone's, once the round is over) has no
    step for them either, only the discard that ended the turn."""
    from tables import replays

    table, _players, _watcher = humans_table(make_player, "canasta-tuiles", 4, monkeypatch)
    table, actor, meld = autoplay_until(table, lambda m, s: s["phase"] == "MELD" and m["action"] == "meld")
    table = play(table, actor, meld)
    table = play(table, actor, {"action": "undo"})
    engine = games.get("canasta-tuiles")
    discard = next(m for m in engine.legal_moves(table.state, actor) if m["action"] == "discard")
    table = play(table, actor, discard)
    staged = set(table.moves.filter(seq__gt=table.version - 3, seq__lte=table.version - 1)
                 .values_list("seq", flat=True))
    assert len(staged) == 2
    # The round played out to its end, then its replay: every step but the staged two.
    current = table.state["round"]
    for _ in range(3000):
        table.refresh_from_db()
        if table.state["round"] != current or table.status != Table.Status.PLAYING or not engine.to_act(table.state):
            break
        seat = engine.to_act(table.state)[0]
        table = play(table, seat, engine.autoplay(table.state, seat))
    rnd = replays.finished_round(table, current)
    assert rnd is not None
    seqs = [step.seq for step in rnd.steps]
    assert not staged & set(seqs)
    assert all(b > a for a, b in zip(seqs, seqs[1:], strict=False))
