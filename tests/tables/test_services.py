import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from accounts.services import house_account, pot_account, user_balance
from engine import games
from tables import services
from tables.models import Table, TableMove
from tests.tables.helpers import assert_ledger_conserved, create_table, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_full_thanasis_match_against_bots_ends_settles_and_replays(player):
    before = user_balance(player)
    table = create_table(player, "thanasis", seats=3, stake=10)
    assert user_balance(player) == before - 10
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    assert table.settled
    result = games.get("thanasis").result(table.state)
    assert result is not None
    assert services.replay(table) == table.state
    seqs = list(table.moves.values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert pot_account(table.pk).balance == 0
    player.refresh_from_db()
    assert player.games_played == 1
    if 0 in result["winners"]:
        assert user_balance(player) > before
    else:
        assert user_balance(player) == before - 10
    assert_ledger_conserved()


def test_full_gin_match_between_two_humans_winner_takes_the_pot(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "gin", seats=2, bots={}, stake=20, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    result = games.get("gin").result(table.state)
    assert user_balance(alice) + user_balance(bruno) == 2000, "the pot goes back to the players"
    assert pot_account(table.pk).balance == 0
    assert services.replay(table) == table.state
    assert result["winners"]
    assert_ledger_conserved()


def _first_human_decision(table):
    engine = games.get(table.game.slug)
    table.refresh_from_db()
    assert 0 in engine.to_act(table.state)
    return engine, engine.autoplay(table.state, 0)


def test_stale_version_is_refused_and_changes_nothing(player):
    table = create_table(player, "gin", seats=2, bots={1: 1})
    table = _wait_for_human(table)
    engine, move = _first_human_decision(table)
    outcome = services.play_move(table_id=table.pk, seat=0, move=move, expected_version=table.version - 1)
    assert not outcome.applied and outcome.error is None
    assert Table.objects.get(pk=table.pk).version == table.version


def test_illegal_move_gets_a_french_reason_and_changes_nothing(player):
    table = create_table(player, "thanasis", seats=2, bots={1: 1})
    table = _wait_for_human(table)
    outcome = services.play_move(table_id=table.pk, seat=0, move={"action": "discard", "card": "ZZ9"},
                                 expected_version=table.version)
    assert not outcome.applied
    assert outcome.error is not None and outcome.error.message
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.version == table.version and fresh.state == table.state


def test_concurrent_double_submission_is_applied_once(player):
    table = create_table(player, "thanasis", seats=2, bots={1: 1})
    table = _wait_for_human(table)
    _, move = _first_human_decision(table)
    moves_before = TableMove.objects.filter(table=table).count()
    barrier = threading.Barrier(6)

    def submit():
        barrier.wait()
        try:
            return services.play_move(table_id=table.pk, seat=0, move=move, expected_version=table.version)
        finally:
            connection.close()

    with ThreadPoolExecutor(6) as pool:
        outcomes = list(pool.map(lambda _: submit(), range(6)))
    assert sum(o.applied for o in outcomes) == 1
    # One move by the player (the bot may have answered after it, through the scheduler).
    human_moves = TableMove.objects.filter(table=table, seq__gt=table.version, seat=0).count()
    assert human_moves == 1
    assert TableMove.objects.filter(table=table).count() >= moves_before + 1


def test_abandon_costs_the_stake_and_the_penalty(player):
    before = user_balance(player)
    table = create_table(player, "thanasis", seats=2, bots={1: 2}, stake=10)
    penalty = table.game.abandon_penalty
    house_before = house_account().balance
    services.seat_abandon(table_id=table.pk, user=player)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert user_balance(player) == before - 10 - penalty
    assert house_account().balance == house_before + 10 + penalty
    assert_ledger_conserved()


def test_leaving_after_the_match_is_over_is_free(player):
    table = play_out(create_table(player, "gin", seats=2, bots={1: 1}, stake=10))
    balance = user_balance(player)
    services.seat_abandon(table_id=table.pk, user=player)
    assert user_balance(player) == balance


def test_cannot_sit_without_enough_tokens(make_player):
    poor = make_player("pauvre")
    from accounts.services import house_account as house
    from accounts.services import player_account, transfer_create

    transfer_create(source=player_account(poor), target=house(), amount=user_balance(poor), reason="adjust")
    with pytest.raises(services.TableError) as error:
        create_table(poor, "gin", seats=2, bots={1: 1}, stake=10)
    assert "jetons" in error.value.message


def test_bots_payout_follows_admin_multiplier(player):
    from tables.economy import match_settle

    table = create_table(player, "gin", seats=2, bots={1: 3}, stake=10)
    game = table.game
    game.bot_payout_expert = 3
    game.save()
    before = user_balance(player)
    match_settle(table=Table.objects.select_related("game").get(pk=table.pk), result={"winners": [0]})
    assert user_balance(player) == before + 10 + 30
    match_settle(table=Table.objects.select_related("game").get(pk=table.pk), result={"winners": [0]})
    assert user_balance(player) == before + 10 + 30, "settling twice pays once"
    assert_ledger_conserved()


def _wait_for_human(table):
    table.refresh_from_db()
    engine = games.get(table.game.slug)
    for _ in range(50):
        if 0 in engine.to_act(table.state):
            return table
        table.refresh_from_db()
    raise AssertionError("the human never got a turn")


def test_staging_a_rummy_turn_keeps_the_move_clock_running(make_player):
    """Laying down, laying off or undoing during a Rami turn must not give the player a fresh timer."""
    from datetime import timedelta

    from django.utils import timezone

    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "rami", seats=2, bots={}, start=False, options={"point_limit": "100"})
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    engine = games.get("rami")
    for _ in range(400):  # autoplay both players until one can lay down after drawing
        table.refresh_from_db()
        seat = engine.to_act(table.state)[0]
        if any(m["action"] == "meld" for m in engine.legal_moves(table.state, seat)):
            break
        services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(table.state, seat),
                           expected_version=table.version)
    else:
        raise AssertionError("nobody could lay down")
    soon = timezone.now() + timedelta(seconds=7)
    Table.objects.filter(pk=table.pk).update(deadline=soon)
    meld = next(m for m in engine.legal_moves(table.state, seat) if m["action"] == "meld")
    assert services.play_move(table_id=table.pk, seat=seat, move=meld, expected_version=table.version).applied
    table.refresh_from_db()
    assert table.deadline == soon, "a staged lay-down keeps the clock"
    assert services.play_move(table_id=table.pk, seat=seat, move={"action": "undo"},
                              expected_version=table.version).applied
    table.refresh_from_db()
    assert table.deadline == soon, "an undo keeps the clock"
    services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(table.state, seat),
                       expected_version=table.version)
    table.refresh_from_db()
    assert engine.to_act(table.state) != [seat]
    assert table.deadline > timezone.now() + timedelta(seconds=table.turn_timer_s - 5), "the next player's own time"


def test_the_move_timer_sweep_autoplays_the_tables_past_their_deadline(make_player):
    from datetime import timedelta

    from django.utils import timezone

    from tables import tasks

    tables = []
    for name in ("a", "b"):
        alice, bruno = make_player(f"alice{name}"), make_player(f"bruno{name}")
        table = create_table(alice, "gin", seats=2, bots={}, start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        tables.append(Table.objects.get(pk=table.pk))
    late, running = tables
    Table.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    Table.objects.filter(pk=running.pk).update(deadline=timezone.now() + timedelta(seconds=20))
    assert tasks.expire_turns.run() == 1
    assert Table.objects.get(pk=late.pk).version == late.version + 1, "the rules' autoplay played"
    assert TableMove.objects.filter(table=late).last().actor == "autoplay"
    assert Table.objects.get(pk=running.pk).version == running.version, "its clock is still running"
    assert Table.objects.get(pk=late.pk).deadline > timezone.now(), "the next decision has its own clock"


def test_text_postgresql_cannot_store_is_refused_in_french(make_player):
    """A NUL character or an infinite number (in a move riding on a legal one, a chat message, a hand
    order) is refused or dropped with a French message: PostgreSQL would fail to store it."""
    from tables import commands
    from tables.models import ChatMessage, Seat

    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "gin", seats=2, bots={}, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    table.refresh_from_db()
    engine = games.get("gin")
    seat = engine.to_act(table.state)[0]
    user = alice if seat == 0 else bruno
    move = engine.legal_moves(table.state, seat)[0]
    reply = commands.handle_frame(table.pk, user.pk, {"kind": "move", "version": table.version, **move, "x\x00": "1"})
    assert "Coup invalide" in reply
    reply = commands.handle_frame(table.pk, user.pk, {"kind": "move", "version": table.version, **move, "": 1e999})
    assert "Coup invalide" in reply
    assert Table.objects.get(pk=table.pk).version == table.version
    assert commands.handle_frame(table.pk, user.pk, {"kind": "chat", "text": "\x00"}) is not None
    assert commands.handle_frame(table.pk, user.pk, {"kind": "chat", "text": "sa\x00lut"}) is None
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["salut"]
    assert "invalide" in commands.handle_frame(table.pk, user.pk, {"kind": "order", "order": ["QH1\x00"]})
    assert Seat.objects.get(table=table, user=user).hand_order == []
