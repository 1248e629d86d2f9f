"""« Conseil » at a table (tables.coach): limited per seat and match, off in rated and Arena matches, private to
the asker, counted once and only for a current request; its French reason; every live game's advice plays."""

import pytest

from engine import coach as engine_coach
from engine import games
from tables import broadcast, coach, commands, rendering, services, tasks
from tables.families import live_slugs
from tables.models import Seat, Table, TableMove
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db(transaction=True)


class MatchOver(Exception):
    """The robots ended the match before the seat's first decision (a Thanasis round can close at once)."""


def my_turn_at_new_table(host, slug: str, seats: int, seat: int = 0) -> Table:
    """A new table of `slug`, played by its robots until `seat`'s decision; another one if they end it first."""
    for _ in range(5):
        try:
            return my_turn(create_table(host, slug, seats=seats), seat)
        except MatchOver:
            continue
    raise AssertionError("never my turn at five tables")


def my_turn(table: Table, seat: int = 0) -> Table:
    """Robots play (their tasks run eagerly) until it is `seat`'s decision."""
    engine = games.get(table.game.slug)
    for _ in range(400):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            raise MatchOver
        to_act = engine.to_act(table.state)
        if seat in to_act and any(m["action"] != "next_round" for m in engine.legal_moves(table.state, seat)):
            return table
        if not to_act:
            tasks.next_round.run(table.pk, table.version)
        elif seat in to_act:
            services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(table.state, seat),
                               expected_version=table.version)
        else:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
    raise AssertionError("never my turn")


def ask(table: Table, user, version=None) -> coach.Advice:
    return coach.coach_advise(table_id=table.pk, user_id=user.pk,
                              expected_version=table.version if version is None else version)


def uses(table: Table, user) -> int:
    return Seat.objects.get(table=table, user=user).coach_uses


def test_three_advices_per_match_then_a_french_refusal(player):
    table = my_turn_at_new_table(player, "thanasis", 3)
    assert table.coach_limit == 3
    lefts = [ask(table, player).left for _ in range(3)]
    assert lefts == [2, 1, 0]
    with pytest.raises(services.TableError) as refused:
        ask(table, player)
    assert refused.value.message == "Tu as utilisé tes 3 conseils de la partie."
    assert uses(table, player) == 3


def test_the_advice_is_a_legal_move_with_a_french_reason(player):
    table = my_turn_at_new_table(player, "thanasis", 3)
    advice = ask(table, player)
    assert advice.reason.split(" ")[0] in ("Pioche", "Pioche :", "Défausse", "Ferme", "Fais")
    assert advice.reason.endswith(".")
    outcome = services.play_move(table_id=table.pk, seat=0, move=advice.move, expected_version=table.version)
    assert outcome.applied


@pytest.mark.parametrize("slug", sorted(live_slugs()))
def test_every_live_game_gets_advice_that_the_table_accepts(make_player, slug):
    host = make_player("h" + slug.replace("-", "")[:12])
    seats = games.get(slug).info.default_players
    table = my_turn_at_new_table(host, slug, seats)
    advice = ask(table, host)
    assert advice.reason and advice.reason[0].isupper()
    outcome = services.play_move(table_id=table.pk, seat=0, move=advice.move, expected_version=table.version)
    assert outcome.applied, outcome.error


@pytest.mark.parametrize("change", [{"coach_limit": 0}, {"rated": True}, {"table_type": Table.Type.ARENA}],
                         ids=["limit-0", "rated", "arena"])
def test_no_coach_at_tables_without_it(player, change):
    table = my_turn_at_new_table(player, "thanasis", 3)
    Table.objects.filter(pk=table.pk).update(**change)
    table.refresh_from_db()
    with pytest.raises(services.TableError) as refused:
        ask(table, player)
    assert refused.value.message == "Le conseil n'est pas proposé à cette table."
    assert uses(table, player) == 0
    assert "Conseil (" not in rendering.render_for_user(table.pk, player.pk)


def test_the_button_shows_the_count_left_at_my_turn_only(player):
    table = my_turn_at_new_table(player, "thanasis", 3)
    assert "Conseil (3)" in rendering.render_for_user(table.pk, player.pk)
    ask(table, player)
    assert "Conseil (2)" in rendering.render_for_user(table.pk, player.pk)
    Seat.objects.filter(table=table, user=player).update(coach_uses=3)
    html = rendering.render_for_user(table.pk, player.pk)
    assert "Conseil (0)" in html and 'aria-disabled="true"' in html


def test_a_late_request_costs_nothing(player):
    table = my_turn_at_new_table(player, "thanasis", 3)
    with pytest.raises(services.TableError) as refused:
        ask(table, player, version=table.version - 1)
    assert refused.value.message.startswith("Trop tard")
    assert uses(table, player) == 0


def test_not_my_turn_is_refused(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "gin", seats=2, bots={}, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    table.refresh_from_db()
    engine = games.get("gin")
    waiting = bruno if 0 in engine.to_act(table.state) else alice
    with pytest.raises(services.TableError) as refused:
        ask(table, waiting)
    assert refused.value.message == "Le conseil se demande quand c'est à toi de jouer."
    assert uses(table, waiting) == 0


def test_not_seated_and_not_playing_are_refused(player, make_player):
    table = create_table(player, "thanasis", seats=3, start=False, bots={1: 2})
    with pytest.raises(services.TableError, match="pas en cours"):
        ask(table, player)
    with pytest.raises(services.TableError, match="pas assis"):
        ask(table, make_player("zoe"))


def test_the_advice_is_private_and_changes_nothing_at_the_table(make_player, monkeypatch):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "gin", seats=2, bots={}, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    table.refresh_from_db()
    engine = games.get("gin")
    asker, other = (alice, bruno) if 0 in engine.to_act(table.state) else (bruno, alice)
    sent = []
    monkeypatch.setattr(broadcast, "_send_all", lambda messages: sent.append(messages))
    moves, version = TableMove.objects.filter(table=table).count(), table.version
    reply = commands.handle_frame(table.pk, asker.pk, {"kind": "coach", "version": str(version)})
    assert 'id="table-coach"' in reply and "Conseil du Robot Expert" in reply
    reason = reply.split("data-coach-reason>")[1].split("<")[0]
    assert len(reason) > 10
    assert sent == [], "nothing is pushed to anybody"
    table.refresh_from_db()
    assert (TableMove.objects.filter(table=table).count(), table.version) == (moves, version)
    assert reason not in rendering.render_for_user(table.pk, other.pk)
    assert "Conseil (" not in rendering.render_for_user(table.pk, other.pk)


def test_a_bad_frame_gets_a_french_message(player):
    table = my_turn_at_new_table(player, "thanasis", 3)
    reply = commands.handle_frame(table.pk, player.pk, {"kind": "coach", "version": "abc"})
    assert "Trop tard" in reply
    assert uses(table, player) == 0


def test_the_host_chooses_the_number_of_advices(player_client, player):
    response = player_client.post("/tables/nouvelle/", {
        "table_type": "friends", "game": "thanasis", "seats_count": "3", "seat_1": "1", "seat_2": "1",
        "turn_timer_s": "30", "stake": "0", "coach_limit": "1"})
    assert response.status_code == 302
    table = Table.objects.get(host=player)
    assert table.coach_limit == 1
    page = player_client.get("/tables/?jeu=thanasis").content.decode()
    assert "Conseils par joueur" in page and "Aucun" in page


def test_an_unknown_number_of_advices_is_refused(player):
    from tables.models import Game

    with pytest.raises(services.TableError, match="conseils"):
        services.table_create(host=player, game=Game.objects.get(slug="thanasis"), seats_count=3,
                              bot_levels={1: 1, 2: 1}, coach_limit=7)


def _to_round_end(engine, state, seed: int = 2):
    import random

    from engine import bots

    rng = random.Random(seed)
    start = state
    while state["phase"] != "ROUND_OVER":
        if not engine.to_act(state):
            # A first round can end the match (a Rami round over the limit): deal that match again.
            state = start
            continue
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        state, _ = engine.apply(state, seat, bots.choose(engine, view, engine.legal_moves(state, seat), 1, rng))
    return state


def test_the_round_end_sheet_shows_the_best_disposition_of_each_hand_left(player):
    table = create_table(player, "rami", seats=3)
    engine = games.get("rami")
    state = _to_round_end(engine, table.state)
    # The robots leave few melds in hand: one loser is given a hand with a run in it (what is drawn is read from
    # the state's round end only).
    loser = next(p for p in state["last_round"]["players"] if p["hand"])
    loser.update(hand=["7H1", "8H1", "9H1", "KC1"], deadwood=["7H1", "8H1", "9H1", "KC1"], deadwood_points=34)
    best = {b["seat"]: b for b in engine_coach.dispositions(engine, engine.view(state, 0))}
    assert best[loser["seat"]]["melds"] == [["7H1", "8H1", "9H1"]] and best[loser["seat"]]["points"] == 10
    Table.objects.filter(pk=table.pk).update(state=state)
    html = rendering.render_for_user(table.pk, player.pk)
    assert html.count("Meilleure disposition") == len(best) >= 1
    for entry in best.values():
        if entry["melds"]:
            assert f"cette main laisserait <strong>{entry['points']}</strong>" in html
        else:
            assert "Aucune combinaison possible avec ces cartes." in html


def test_no_best_disposition_where_hands_are_already_arranged(player):
    table = create_table(player, "thanasis", seats=3)
    state = _to_round_end(games.get("thanasis"), table.state)
    Table.objects.filter(pk=table.pk).update(state=state)
    html = rendering.render_for_user(table.pk, player.pk)
    assert "Fin de la manche" in html and "Meilleure disposition" not in html
