"""Replays: every finished round, step by step, rebuilt by the engine's own replay; the round being played is
never shown, and hands stay hidden while the match runs."""

import pytest
from django.urls import reverse

from engine import games
from tables import replays, services, tasks
from tables.models import Table
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


def play_until_round(table: Table, number: int, max_steps: int = 3000) -> Table:
    """Play (robots, and the rules' autoplay for humans) until round `number` is dealt."""
    engine = games.get(table.game.slug)
    for _ in range(max_steps):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING or table.state.get("round", 0) >= number:
            return table
        to_act = engine.to_act(table.state)
        if not to_act:
            tasks.next_round.run(table.pk, table.version)
            continue
        humans = {s.position for s in table.seats.all() if not s.is_bot}
        seat = next((s for s in to_act if s in humans), None)
        if seat is None:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
        else:
            tasks.autoplay_turn.run(table.pk, table.version, seat)
    raise AssertionError("round never reached")


@pytest.fixture
def finished_table(player):
    table = play_out(create_table(player, "gin", seats=2, bots={1: 2}))
    assert table.status == Table.Status.FINISHED
    return table


@pytest.fixture
def running_table(player):
    table = play_until_round(create_table(player, "thanasis", seats=3), 2)
    assert table.status == Table.Status.PLAYING and table.state["round"] == 2
    return table


def test_the_rounds_are_the_engines_replay_cut_by_round(finished_table):
    by_seq = dict(services.replay_steps(finished_table))
    rounds = replays.rounds(finished_table)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    assert sum(len(r.steps) for r in rounds) == finished_table.moves.count()
    for rnd in rounds:
        assert all(step.state == by_seq[step.seq] for step in rnd.steps)
        assert all(step.state["round"] == rnd.number for step in rnd.steps)
    assert rounds[-1].steps[-1].state == finished_table.state == services.replay(finished_table)


def test_a_finished_round_is_replayed_step_by_step_with_the_hands_at_its_end(finished_table, player_client):
    rnd = replays.finished_round(finished_table, 1)
    last = len(rnd.steps) - 1
    url = reverse("tables:replay", args=[finished_table.pk, 1])
    first = player_client.get(url).content.decode()
    assert f"La donne, avant les {last} coups de la manche" in first and 'data-replay-next href="?etape=1"' in first
    assert "La donne sur" not in first
    # the deal told in the game's words, by its dealer (Gin has one)
    assert " distribue les cartes.</p>" in first
    assert 'data-testid="replay-hands"' not in first
    second = player_client.get(url + "?etape=1").content.decode()
    assert "Coup 1 sur" in second
    end = player_client.get(f"{url}?etape={last}").content.decode()
    assert 'data-testid="replay-hands"' in end
    engine = games.get("gin")
    for seat in range(2):
        for card in engine.view(rnd.steps[-1].state, seat)["hand"]:
            assert f'data-piece="{card}"' in end
    # htmx asks for one step: the step alone, not the page
    fragment = player_client.get(url + "?etape=2", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="replay-step"') and "<html" not in fragment


def test_the_middle_steps_show_no_hand(finished_table, player_client):
    rnd = replays.finished_round(finished_table, 1)
    engine = games.get("gin")
    url = reverse("tables:replay", args=[finished_table.pk, 1])
    for index in (1, len(rnd.steps) // 2):
        state = rnd.steps[index].state
        if engine.to_act(state) == []:
            continue
        html = player_client.get(f"{url}?etape={index}").content.decode()
        for seat in range(2):
            for card in engine.view(state, seat)["hand"]:
                assert f'"{card}"' not in html


def test_a_running_match_shows_only_its_finished_rounds_without_hands(running_table, player_client):
    listing = player_client.get(reverse("tables:replays", args=[running_table.pk])).content.decode()
    assert reverse("tables:replay", args=[running_table.pk, 1]) in listing
    assert reverse("tables:replay", args=[running_table.pk, 2]) not in listing
    assert "La partie continue" in listing
    current = player_client.get(reverse("tables:replay", args=[running_table.pk, 2]))
    assert current.status_code == 404
    rnd = replays.finished_round(running_table, 1)
    end = player_client.get(reverse("tables:replay", args=[running_table.pk, 1]) + f"?etape={len(rnd.steps) - 1}")
    html = end.content.decode()
    assert 'data-testid="replay-hands"' not in html and 'data-testid="hands-hidden"' in html
    assert replays.finished_round(running_table, 2) is None


def test_the_table_page_links_the_replay_at_the_end_of_a_round(running_table, player_client):
    # Back to the end of round 1: the status says « Manche terminée » with « Revoir ».
    engine = games.get("thanasis")
    rnd = replays.finished_round(running_table, 1)
    Table.objects.filter(pk=running_table.pk).update(state=rnd.steps[-1].state)
    assert engine.to_act(rnd.steps[-1].state) == []
    page = player_client.get(running_table.get_absolute_url()).content.decode()
    assert reverse("tables:replay", args=[running_table.pk, 1]) in page


def test_the_lobby_links_my_finished_tables_to_their_replays(finished_table, player_client):
    page = player_client.get(reverse("tables:lobby")).content.decode()
    assert reverse("tables:replays", args=[finished_table.pk]) in page


def test_who_may_replay(finished_table, client, make_player):
    url = reverse("tables:replay", args=[finished_table.pk, 1])
    assert client.get(url).status_code == 302  # an account first
    stranger = make_player("bob")
    client.force_login(stranger, backend="accounts.backends.HumanOnlyBackend")
    assert finished_table.private
    refused = client.get(url)
    assert refused.status_code == 404 and "Page introuvable" in refused.content.decode()
    assert client.get(reverse("tables:replays", args=[finished_table.pk])).status_code == 404
    Table.objects.filter(pk=finished_table.pk).update(private=False)
    assert client.get(url).status_code == 200
    assert client.get(reverse("tables:replays", args=[finished_table.pk])).status_code == 200


@pytest.mark.parametrize("number", [0, 999, 2**40])
def test_a_bad_round_number_is_a_french_404(finished_table, player_client, number):
    response = player_client.get(reverse("tables:replay", args=[finished_table.pk, number]))
    assert response.status_code == 404 and "Page introuvable" in response.content.decode()


@pytest.mark.parametrize("step", ["abc", "-3", "99999999", "1e400", ""])
def test_a_bad_step_shows_a_step_of_the_round(finished_table, player_client, step):
    response = player_client.get(reverse("tables:replay", args=[finished_table.pk, 1]) + f"?etape={step}")
    assert response.status_code == 200 and 'id="replay-step"' in response.content.decode()


def test_an_unknown_table_is_a_404(player_client):
    assert player_client.get(reverse("tables:replays", args=[987654])).status_code == 404


@pytest.mark.parametrize("slug", __import__("tables.families", fromlist=["live_slugs"]).live_slugs())
def test_every_game_replays_its_first_round(slug, player, player_client):
    engine = games.get(slug)
    seats = engine.info.default_players
    table = play_until_round(create_table(player, slug, seats=seats, bots=dict.fromkeys(range(1, seats), 1)), 2)
    rnd = replays.finished_round(table, 1)
    assert rnd is not None and len(rnd.steps) > 1
    url = reverse("tables:replay", args=[table.pk, 1])
    by_seq = dict(services.replay_steps(table))
    last = len(rnd.steps) - 1
    for index in (0, 1, last // 2, last):
        assert rnd.steps[index].state == by_seq[rnd.steps[index].seq]
        response = player_client.get(f"{url}?etape={index}")
        assert response.status_code == 200, (slug, index)
        html = response.content.decode()
        if index == last:
            finished = table.status == Table.Status.FINISHED
            assert ('data-testid="replay-hands"' in html) == finished
            if not finished:  # hands stay hidden while the match runs, even those the round's end revealed
                for seat in range(seats):
                    for state in (rnd.steps[-1].state,):
                        for card in engine.view(state, seat).get("hand") or []:
                            card = card if isinstance(card, str) else card.get("id")
                            assert f'"{card}"' not in html, (slug, index, card)
        elif engine.to_act(rnd.steps[index].state):
            state = rnd.steps[index].state
            for seat in range(seats):
                for card in engine.view(state, seat).get("hand") or []:
                    card = card if isinstance(card, str) else card.get("id")
                    assert f'"{card}"' not in html, (slug, index, card)


def test_a_finished_matchs_rounds_are_kept_and_no_page_changes_them(finished_table, player_client):
    """« Revoir » of a finished match replays it once per process (replays.finished_round keeps its rounds): every
    step page of every round drawn, the kept rounds still equal a fresh replay of the log."""
    fresh = replays.rounds(finished_table)
    for rnd in fresh:
        url = reverse("tables:replay", args=[finished_table.pk, rnd.number])
        for index in range(len(rnd.steps)):
            assert player_client.get(f"{url}?etape={index}").status_code == 200
    for rnd in fresh:
        kept = replays.finished_round(finished_table, rnd.number)
        assert kept is replays.finished_round(finished_table, rnd.number)  # kept, not replayed again
        assert [(s.seq, s.seat, s.state, s.events) for s in kept.steps] == [
            (s.seq, s.seat, s.state, s.events) for s in rnd.steps]
