"""« Rejouer à partir d'ici » (tables.practice): a finished match's replay step played on at a practice table, the
player at his own place against robots, the state exactly the step's, rebuilt by the replay from the source's log;
nothing paid, rated or counted; every refusal in French and changing nothing."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.models import CounterEntry, LedgerEntry, MatchRecord, Rating
from accounts.services import user_balance
from engine import games
from tables import exports, practice, rematch, replays, services, tasks
from tables.errors import TableError
from tables.models import ImportedMatch, Table, TableMove
from tests.tables.helpers import create_table, play_out
from tests.tables.test_replays import play_until_round

pytestmark = pytest.mark.django_db

GAME = "gin"


@pytest.fixture
def finished(player):
    table = play_out(create_table(player, GAME, seats=2, bots={1: 2}))
    assert table.status == Table.Status.FINISHED
    return table


def playable_index(table: Table, rnd: replays.Round) -> int:
    """A step of the round (not its deal) where someone is to act."""
    engine = games.get(table.game.slug)
    return next(i for i, step in enumerate(rnd.steps)
                if i > 0 and engine.to_act(step.state) and engine.result(step.state) is None)


def post(client, table: Table, number: int, index, level=None):
    data = {"etape": index} if level is None else {"etape": index, "niveau": level}
    return client.post(reverse("tables:practice", args=[table.pk, number]), data)


def french(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def html(text: str) -> str:
    return text.replace("'", "&#x27;")


def practices() -> list[Table]:
    return list(Table.objects.filter(table_type=Table.Type.PRACTICE))


def step_through(table: Table, moves: int) -> Table:
    """`moves` moves at the practice table: the robots' own, the rules' autoplay for the player."""
    engine = games.get(table.game.slug)
    for _ in range(moves):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        to_act = engine.to_act(table.state)
        if not to_act:
            tasks.next_round.run(table.pk, table.version)
        elif any(s.position == to_act[0] and s.is_bot for s in table.seats.all()):
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
        else:
            tasks.autoplay_turn.run(table.pk, table.version, to_act[0])
    table.refresh_from_db()
    return table


def test_the_button_makes_a_practice_table_in_the_steps_very_state(finished, player, player_client):
    rnd = replays.finished_round(finished, 1)
    index = playable_index(finished, rnd)
    page = player_client.get(reverse("tables:replay", args=[finished.pk, 1]) + f"?etape={index}").content.decode()
    assert 'data-testid="practice-form"' in page and "Rejouer à partir d'ici" in page
    assert '<label for="practice-level">Niveau des robots</label>' in page and 'name="csrfmiddlewaretoken"' in page

    response = post(player_client, finished, 1, index)
    [table] = practices()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    step = rnd.steps[index]
    assert table.state == step.state
    assert table.status == Table.Status.PLAYING and table.version == table.public_version == 1
    assert (table.stake, table.rated, table.private, table.host_id) == (0, False, True, player.pk)
    assert table.options == finished.options and table.game_id == finished.game_id
    seats = {s.position: s for s in table.seats.all()}
    assert seats[0].user_id == player.pk and not seats[0].is_bot
    assert seats[1].bot_level == practice.DEFAULT_LEVEL == 3  # « Expert » unless asked otherwise
    [start] = TableMove.objects.filter(table=table)
    assert start.seq == 1 and start.move == {"action": "start", "from": {"table": finished.pk, "seq": step.seq}}
    assert services.replay(table) == table.state
    # the table's page is the player's, and says what it is; the source is untouched
    page = player_client.get(table.get_absolute_url()).content.decode()
    assert "Entraînement" in page
    assert TableMove.objects.filter(table=finished).count() == finished.version


def test_the_robots_level_is_the_players_choice(finished, player_client):
    rnd = replays.finished_round(finished, 1)
    post(player_client, finished, 1, playable_index(finished, rnd), level=1)
    [table] = practices()
    assert [s.bot_level for s in table.seats.all() if s.is_bot] == [1]


def test_the_log_rebuilds_the_practice_table_move_after_move(finished, player):
    rnd = replays.finished_round(finished, 1)
    table = practice.practice_from_replay(table_id=finished.pk, user=player, round_number=1,
                                          index=playable_index(finished, rnd), level=1)
    table = step_through(table, 8)
    assert table.version > 1 and table.moves.count() == table.version
    assert services.replay(table) == table.state
    # its own replay pages work from its log too (its first step says where it starts)
    for entry, state, _events in services.replay_moves(table):
        if entry.seq == 1:
            assert state == rnd.steps[playable_index(finished, rnd)].state


def test_the_robots_play_on_to_the_end_and_nothing_is_paid_rated_or_counted(finished, player, player_client):
    player.refresh_from_db()
    balance, played, won = user_balance(player), player.games_played, player.games_won
    records = MatchRecord.objects.filter(user=player).count()
    ratings = list(Rating.objects.filter(user=player).values())
    rnd = replays.finished_round(finished, 1)
    table = practice.practice_from_replay(table_id=finished.pk, user=player, round_number=1,
                                          index=playable_index(finished, rnd), level=1)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED and table.settled
    assert services.replay(table) == table.state
    player.refresh_from_db()
    assert (user_balance(player), player.games_played, player.games_won) == (balance, played, won)
    assert not LedgerEntry.objects.filter(table_id=table.pk).exists()
    assert not CounterEntry.objects.filter(table_id=table.pk).exists()
    assert MatchRecord.objects.filter(user=player).count() == records and not MatchRecord.objects.filter(
        table_id=table.pk).exists()
    assert list(Rating.objects.filter(user=player).values()) == ratings
    # no rematch: offered nowhere, refused in French
    page = player_client.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="rematch"' not in page
    with pytest.raises(TableError, match="entraînement"):
        rematch.rematch_offer(table_id=table.pk, user=player)
    # no file: refused with a French message, the replay's rounds page says why
    response = player_client.get(reverse("tables:export_text", args=[table.pk]))
    assert response.status_code == 302 and any("entraînement ne se télécharge pas" in m for m in french(response))
    rounds_page = player_client.get(reverse("tables:replays", args=[table.pk])).content.decode()
    assert html(exports.PRACTICE_REFUSED) in rounds_page and 'data-testid="replay-downloads"' not in rounds_page
    # its own « Revoir » replays it, and may start a practice again from one of its steps
    rounds = replays.rounds(table)
    assert rounds and rounds[-1].steps[-1].state == table.state
    first = player_client.get(reverse("tables:replay", args=[table.pk, rounds[0].number])).content.decode()
    assert "Partie d&#x27;entraînement : la partie de la table n° " in first


def test_a_practice_of_a_practice_rebuilds_through_both_logs(finished, player):
    rnd = replays.finished_round(finished, 1)
    first = play_out(practice.practice_from_replay(table_id=finished.pk, user=player, round_number=1,
                                                   index=playable_index(finished, rnd), level=1))
    again = replays.rounds(first)[0]
    second = practice.practice_from_replay(table_id=first.pk, user=player, round_number=again.number,
                                           index=playable_index(first, again), level=1)
    assert second.state == again.steps[playable_index(first, again)].state
    assert services.replay(step_through(second, 4)) == Table.objects.get(pk=second.pk).state


def test_a_practice_costs_nothing_to_leave_and_is_not_in_the_lobby(finished, player, player_client, make_player):
    rnd = replays.finished_round(finished, 1)
    table = practice.practice_from_replay(table_id=finished.pk, user=player, round_number=1,
                                          index=playable_index(finished, rnd))
    other = make_player("bruno")
    player_client.force_login(other, backend="accounts.backends.HumanOnlyBackend")
    lobby = player_client.get(reverse("tables:lobby")).content.decode()
    assert f'href="/tables/{table.pk}/"' not in lobby and table.get_absolute_url() not in lobby
    balance = user_balance(player)
    services.seat_abandon(table_id=table.pk, user=player)
    assert user_balance(player) == balance and not LedgerEntry.objects.filter(table_id=table.pk).exists()


# --- refusals: French, and nothing made ------------------------------------------------------------


def test_someone_who_did_not_play_the_match_is_refused(finished, client, make_player):
    stranger = make_player("bruno")
    client.force_login(stranger, backend="accounts.backends.HumanOnlyBackend")
    finished.private = False
    finished.save(update_fields=["private"])
    rnd = replays.finished_round(finished, 1)
    index = playable_index(finished, rnd)
    page = client.get(reverse("tables:replay", args=[finished.pk, 1]) + f"?etape={index}").content.decode()
    assert 'data-testid="practice-form"' not in page  # he may watch the replay, not play it on
    response = post(client, finished, 1, index)
    assert response.status_code == 302 and practice.NOT_A_PLAYER in french(response)
    assert practices() == []


def test_a_match_not_over_is_refused(player, player_client):
    running = play_until_round(create_table(player, GAME, seats=2, bots={1: 2}), 2)
    if running.status != Table.Status.PLAYING:
        pytest.skip("the match ended in its first round")
    rnd = replays.finished_round(running, 1)
    page = player_client.get(reverse("tables:replay", args=[running.pk, 1])).content.decode()
    assert 'data-testid="practice-form"' not in page
    response = post(player_client, running, 1, playable_index(running, rnd))
    assert practice.NOT_OVER in french(response) and practices() == []


def test_a_step_out_of_range_or_where_nobody_acts_is_refused(finished, player_client):
    rnd = replays.finished_round(finished, 1)
    last = len(rnd.steps) - 1
    assert not games.get(GAME).to_act(rnd.steps[last].state)  # the round's end: nobody to act
    page = player_client.get(reverse("tables:replay", args=[finished.pk, 1]) + f"?etape={last}").content.decode()
    assert 'data-testid="practice-form"' not in page and html(practice.NOBODY_TO_ACT) in page
    assert practice.NOBODY_TO_ACT in french(post(player_client, finished, 1, last))
    assert practice.NO_SUCH_STEP in french(post(player_client, finished, 1, last + 1))
    assert practice.NO_SUCH_STEP in french(post(player_client, finished, 1, "x"))
    assert practice.NO_SUCH_STEP in french(post(player_client, finished, 999, 1))
    assert practice.BAD_LEVEL in french(post(player_client, finished, 1, playable_index(finished, rnd), level=7))
    assert player_client.get(reverse("tables:practice", args=[finished.pk, 1])).status_code == 302  # GET: no table
    assert practices() == []


def test_at_most_three_practice_tables_not_over(finished, player, player_client):
    rnd = replays.finished_round(finished, 1)
    index = playable_index(finished, rnd)
    for _ in range(practice.MAX_OPEN):
        post(player_client, finished, 1, index)
    assert len(practices()) == practice.MAX_OPEN
    response = post(player_client, finished, 1, index)
    assert practice.TOO_MANY in french(response) and len(practices()) == practice.MAX_OPEN
    # one left (« Quitter ») and over: room for another
    services.seat_abandon(table_id=practices()[0].pk, user=player)
    Table.objects.filter(pk=practices()[0].pk).update(status=Table.Status.FINISHED)
    post(player_client, finished, 1, index)
    assert len(practices()) == practice.MAX_OPEN + 1


def test_an_imported_match_offers_no_practice(finished, player, player_client):
    content, _type, _name = exports.export_file(finished, "json")
    imported = exports.import_file(player, content.encode())
    assert ImportedMatch.objects.filter(pk=imported.pk).exists()
    page = player_client.get(reverse("tables:imported_round", args=[imported.pk, 1]) + "?etape=1").content.decode()
    assert 'data-testid="practice-form"' not in page and "Rejouer à partir" not in page
    assert practices() == []
