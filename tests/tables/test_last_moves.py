"""Issue 18, « what just happened » and honest buttons: the table keeps the round's public events and the pieces
tell them; « Quitter » states what the ledger then charges; « Bientôt » on games not playable yet; Gin's form
defaults to a match to 100 points; « Déposer » proposes the whole opening."""

import json
import re

import pytest
from django.urls import reverse

from accounts.models import LedgerEntry
from accounts.services import house_account, player_account, transfer_create, user_balance
from engine import games
from engine.games._table_meld import MELD
from tables import live, reads, recent, services, tasks
from tables.forms import TableCreateForm
from tables.models import Game, Seat, Table
from tables.rendering import render_push, table_context
from tests.engine.test_thanasis import rig
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db


def _push(table_id: int, position: int = 0) -> str:
    table = reads.table(table_id)
    seats = reads.seats_of(table_id)
    return render_push(table, seats, next(s for s in seats if s.position == position))


def _human_plays(table: Table, moves: int) -> Table:
    """`moves` decisions of the round: the human at seat 0 by the rules' autoplay, the bots by their task."""
    engine = games.get(table.game.slug)
    for _ in range(moves):
        table.refresh_from_db()
        to_act = engine.to_act(table.state)
        if table.status != Table.Status.PLAYING or not to_act:
            break
        if to_act[0] == 0:
            services.play_move(table_id=table.pk, seat=0, move=engine.autoplay(table.state, 0),
                               expected_version=table.version)
        else:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
    table.refresh_from_db()
    return table


# ---------------------------------------------------------------- the round's public events

def _discarded(table: Table, seats) -> bool:
    return any(ev["kind"] == "discard" for e in table.recent_events if e["seat"] in seats for ev in e["events"])


def test_bot_moves_are_kept_with_the_table_and_named_on_the_last_move_line(player):
    for _ in range(10):  # a round may end on its first moves (a close d'entrée): then another table
        table = _human_plays(create_table(player, "thanasis", seats=3, bots={1: 1, 2: 2}, stake=0), 12)
        if _discarded(table, (1, 2)) and _discarded(table, (0,)):
            break
    entries = table.recent_events
    assert _discarded(table, (1, 2))
    assert all(entry["round"] == table.state["round"] for entry in entries)
    assert [e["v"] for e in entries] == sorted(e["v"] for e in entries)
    html = _push(table.pk)
    line = re.search(r'<p id="table-last-move"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert "Dernier coup" in line
    log = re.search(r'<div id="table-move-log".*?</div>', html, re.S).group(0)
    assert re.search(r"Robot (Débutant|Confirmé) a pioché, a jeté (le |la |l&#39;|un )", log)
    assert "Tu as pioché, tu as jeté" in log
    assert services.replay(table) == table.state, "the kept events are not part of the state"


def _stock_draws(table: Table) -> dict[int, str]:
    """The card each stock draw took, by the log entry's version, as the engine replays it."""
    engine = games.get(table.game.slug)
    state = None
    drawn_by_version = {}
    for entry in table.moves.order_by("seq"):
        if entry.move.get("action") == "start":
            state = engine.new_match(table.seats_count, table.options, table.seed)
            continue
        state, events = engine.apply(state, entry.seat, entry.move)
        for evt in events:
            if evt["kind"] == "drawn":
                drawn_by_version[entry.seq] = evt["card"]
    return drawn_by_version


def test_a_stock_card_is_never_kept_nor_described_to_anyone(player):
    """The move log says who drew, never which card: each draw's entry holds no card, and the card the replay
    says was drawn is not named in the line the table shows for that draw."""
    for _ in range(10):  # a knock may end the round early and empty the log, or every draw be from the discard
        table = _human_plays(create_table(player, "gin", seats=2, bots={1: 2}, stake=0), 16)
        drawn_by_version = _stock_draws(table)
        kept = {e["v"]: e for e in table.recent_events}
        draws = [v for v in drawn_by_version if v in kept]
        if draws:
            break
    assert draws, "the log holds stock draws"
    for v in draws:
        assert all(set(ev) <= {"kind", "seat", "source"} for ev in kept[v]["events"] if ev["kind"] == "draw")
        assert drawn_by_version[v] not in json.dumps(kept[v])


def test_a_new_round_starts_an_empty_log():
    table = Table(version=5, recent_events=[{"v": 4, "seat": 1, "round": 1, "events": [{"kind": "pass", "seat": 1}]}])
    fields = recent.record(table, {"round": 2}, [{"kind": "deal", "audience": "all"}], seat=0)
    assert fields == ["recent_events"] and table.recent_events == []
    assert recent.record(table, {"round": 2}, [{"kind": "drawn", "audience": {"seat": 0}, "card": "7H1"}], seat=0) == []
    table.recent_events = [{"v": n, "seat": 0, "round": 2, "events": [{"kind": "pass", "seat": 0}]} for n in range(70)]
    recent.record(table, {"round": 2}, [{"kind": "pass", "audience": "all", "seat": 1}], seat=1)
    assert len(table.recent_events) == recent.LIMIT and table.recent_events[-1]["seat"] == 1


def test_the_move_log_is_a_memo_piece_that_reads_plain_context_names():
    assert "move_log" in live.PARTS and "move_log" in live.MEMO_PIECES
    whole, _ = live.template_inputs("tables/live/move_log.jinja")
    assert whole == ("move_log",)


def test_round_end_says_a_first_move_close_plainly(make_player):
    """A Thanasis round closed on the closer's first turn: the sheet says « a fermé d'entrée »."""
    users = [make_player(n) for n in ("zoe", "yann", "xena")]
    hand = ["AH1", "2H1", "3H1", "6D1", "7D1", "8D1", "8S1", "9S1", "10S1", "JS1", "4C1"]
    state = rig({1: hand}, seats=3, current=1)
    state, _ = games.get("thanasis").apply(state, 1, {"action": "close", "card": "4C1"})
    table = Table.objects.create(game=Game.objects.get(slug="thanasis"), host=users[0], seats_count=3, stake=0,
                                 status=Table.Status.PLAYING, state=state, version=3, seed="0" * 32)
    Seat.objects.create(table=table, position=0, user=users[0])
    Seat.objects.create(table=table, position=1, bot_level=2)
    Seat.objects.create(table=table, position=2, user=users[2])
    html = _push(table.pk)
    assert "<strong>Robot Confirmé</strong> a fermé d'entrée (dès son premier tour)" in html
    assert "a fermé d'entrée</span>" in html


# ---------------------------------------------------------------- « Quitter » costs what the ledger charges

def _confirm(html: str) -> str:
    return re.search(r'class="leave-form"\s*data-confirm="([^"]*)"', html).group(1)


def test_quitter_states_the_penalty_the_ledger_then_charges(player):
    table = create_table(player, "thanasis", seats=3, bots={1: 2, 2: 2}, stake=10)
    html = _push(table.pk)
    assert "Quitter coûte 20 jetons (pénalité d'abandon)" in _confirm(html)
    assert "ta mise de 10 jetons reste dans le pot" in _confirm(html)
    before = user_balance(player)
    services.seat_abandon(table_id=table.pk, user=player)
    charged = -sum(LedgerEntry.objects.filter(table_id=table.pk, account=player_account(player),
                                              reason=LedgerEntry.Reason.PENALTY).values_list("amount", flat=True))
    assert charged == 20 == before - user_balance(player)


def test_quitter_cost_is_capped_by_the_balance_as_the_ledger_caps_it(player):
    table = create_table(player, "gin", seats=2, bots={1: 2}, stake=0)
    transfer_create(source=player_account(player), target=house_account(), amount=user_balance(player) - 7,
                    reason="adjust")
    orm_table = Table.objects.select_related("game").get(pk=table.pk)  # the table page reads it through the ORM
    orm_seats = list(orm_table.seats.select_related("user"))
    assert table_context(orm_table, orm_seats, orm_seats[0])["leave_cost"] == 7
    assert "Quitter coûte 7 jetons" in _confirm(_push(table.pk))
    services.seat_abandon(table_id=table.pk, user=player)
    assert user_balance(player) == 0


def test_quitter_a_waiting_table_costs_nothing(player):
    table = create_table(player, "gin", seats=2, bots={}, start=False)
    html = _push(table.pk)
    assert "ne coûte rien" in _confirm(html)
    assert table_context(reads.table(table.pk), reads.seats_of(table.pk), reads.seats_of(table.pk)[0])[
        "leave_cost"] == 0


# ---------------------------------------------------------------- home page, header, Gin's form

def test_home_says_bientot_for_a_game_not_playable_and_links_the_others(client, player):
    """All ten games are live; a family whose table cannot be drawn yet (its presenter removed here) puts its
    games back to « Bientôt »."""
    from tables.families import PRESENTERS

    family = games.get("thunee").family
    presenter = PRESENTERS.pop(family)
    try:
        client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
        html = client.get(reverse("home")).content.decode()
        published = list(Game.objects.filter(published=True))
        soon = [g.slug for g in published if not g.playable]
        playable = [g.slug for g in published if g.playable]
    finally:
        PRESENTERS[family] = presenter
    assert soon == ["thunee"], "a game whose family has no presenter"
    for slug in soon:
        assert f"?jeu={slug}" not in html
    assert html.count(">Bientôt<") == len(soon)
    for slug in playable:
        assert f'{reverse("tables:lobby")}?jeu={slug}' in html
    lobby = client.get(reverse("tables:lobby") + "?jeu=gin").context["form"]
    assert lobby.selected_game.slug == "gin"
    assert "alice&nbsp;·&nbsp;<span class=\"tokens\"" in html


def test_gin_table_form_and_engine_default_to_a_match_to_100_points(player):
    form = TableCreateForm(game=Game.objects.get(slug="gin"))
    assert form.fields["opt_match"].initial == "100"
    table = create_table(player, "gin", seats=2, bots={1: 1}, start=False)
    assert table.options == {"match": "100"}


# ---------------------------------------------------------------- « Déposer » with nothing chosen

def _rami_turn(want_reach: bool):
    """A Rami state in MELD, nothing staged, the seat not yet opened, whose best opening reaches the
    threshold with two melds or more (`want_reach`) or falls short."""
    engine = games.get("rami")
    for n in range(200):
        state = engine.new_match(2, {"point_limit": "100"}, f"open-{n}")
        for _ in range(60):
            seat = engine.to_act(state)[0]
            if state["phase"] == MELD and not state["opened"][seat]:
                opening = engine.suggestions(state, seat)["opening"]
                if opening and want_reach and opening["reaches"] and len(opening["melds"]) >= 2:
                    return state, seat, opening
                if opening and not want_reach and not opening["reaches"]:
                    return state, seat, opening
            state, _ = engine.apply(state, seat, engine.autoplay(state, seat))
            if not engine.to_act(state):
                break
    raise AssertionError("no such turn")


def _meld_button(make_player, state, seat):
    users = [make_player(f"rami{i}") for i in range(2)]
    table = Table.objects.create(game=Game.objects.get(slug="rami"), host=users[0], seats_count=2, stake=0,
                                 status=Table.Status.PLAYING, state=state, version=9, seed="0" * 32,
                                 options=state["options"])
    for position, user in enumerate(users):
        Seat.objects.create(table=table, position=position, user=user)
    seats = reads.seats_of(table.pk)
    ctx = table_context(reads.table(table.pk), seats, seats[seat])
    html = _push(table.pk, seat)
    return next(b for b in ctx["tm"]["buttons"] if b.get("tm") == "meld"), html


def test_deposer_proposes_the_whole_opening_that_reaches_the_threshold(make_player):
    state, seat, opening = _rami_turn(want_reach=True)
    button, html = _meld_button(make_player, state, seat)
    plan = json.loads(button["plan"])
    assert [m["cards"] for m in plan["melds"]] == [m["cards"] for m in opening["melds"]]
    assert sum(m["points"] for m in opening["melds"]) >= 30
    assert f"= {opening['total']} points" in plan["text"] and "il en faut 30" in plan["text"]
    assert "data-tm-plan=" in html


def test_deposer_says_when_no_combination_reaches_the_threshold(make_player):
    state, seat, opening = _rami_turn(want_reach=False)
    button, html = _meld_button(make_player, state, seat)
    assert not button["enabled"] and not button["plan"]
    assert button["reason"] == (f"Aucune combinaison de ta main n'atteint les 30 points de la première pose : "
                                f"au mieux {opening['total']}.")
    assert "data-tm-plan=" not in html
