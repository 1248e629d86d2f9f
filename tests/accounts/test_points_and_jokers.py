"""Account points and the account joker balance (issue 14): moved only through append-only entries with
idempotency keys, shown in the profile, jokers granted in admin and spent by a game's « Joker » move."""

import pytest
from django.db import transaction
from django.urls import reverse

from accounts.models import Counter, CounterEntry, User
from accounts.services import InsufficientJokers, counter_balance, counter_entries_total, counter_move
from engine import games
from tables import economy, services
from tables.models import Game, Table, TableMove
from tests.tables.helpers import create_table, play_out
from tests.tables.team_fakes import install

JOKERS, POINTS = Counter.Kind.JOKERS, Counter.Kind.POINTS


def _grant(user, count, key="grant-1"):
    return counter_move(user=user, kind=JOKERS, amount=count, reason=CounterEntry.Reason.GRANT, idempotency_key=key)


def _assert_counters_match_their_entries():
    for counter in Counter.objects.all():
        assert counter.balance == counter_entries_total(counter), counter


@pytest.mark.django_db
def test_a_retried_move_applies_once(player):
    assert _grant(player, 3) is True
    assert _grant(player, 3) is False
    assert counter_balance(player, JOKERS) == 3
    assert CounterEntry.objects.count() == 1


@pytest.mark.django_db
def test_a_joker_balance_never_goes_below_zero(player):
    _grant(player, 1)
    with pytest.raises(InsufficientJokers):
        counter_move(user=player, kind=JOKERS, amount=-2, reason=CounterEntry.Reason.ADJUST, idempotency_key="x")
    assert counter_balance(player, JOKERS) == 1 and CounterEntry.objects.count() == 1


@pytest.mark.django_db
def test_a_crash_after_the_entry_loses_the_entry_and_the_balance_together(player):
    with pytest.raises(RuntimeError), transaction.atomic():
        _grant(player, 5)
        raise RuntimeError("the process dies before the commit")
    assert counter_balance(player, JOKERS) == 0 and not CounterEntry.objects.exists()
    assert _grant(player, 5) is True, "the retry applies it"
    _assert_counters_match_their_entries()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table_type", [Table.Type.FRIENDS, Table.Type.QUICK])
def test_points_per_round_played_to_each_winner_and_from_each_loser(monkeypatch, make_player, table_type):
    install(monkeypatch, "thanasis", points=1000)
    alice, bruno = make_player("alice"), make_player("bruno")
    table = services.table_create(host=alice, game=Game.objects.get(slug="thanasis"), seats_count=4,
                                  bot_levels={2: 1, 3: 1}, stake=0, table_type=table_type)
    services.seat_join(table=table, user=bruno)
    table.refresh_from_db()  # a quick-start table starts by itself once full
    if table.status == Table.Status.WAITING:
        services.table_start(table=table, user=alice)
    table = play_out(Table.objects.get(pk=table.pk))
    rounds = len(table.state["history"])
    winners = games.get("thanasis").result(table.state)["winners"]
    for user, position in ((alice, 0), (bruno, 1)):
        expected = 1000 * rounds if position in winners else -1000 * rounds
        assert counter_balance(user, POINTS) == expected
    economy.match_settle(table=table, result=games.get("thanasis").result(table.state))
    assert CounterEntry.objects.filter(counter__kind=POINTS).count() == 2, "a settlement retried moves nothing"
    _assert_counters_match_their_entries()


@pytest.mark.django_db(transaction=True)
def test_a_game_without_account_points_moves_none(player):
    play_out(create_table(player, "gin", seats=2, bots={1: 1}, stake=0))
    assert not CounterEntry.objects.exists()


def _joker_table(monkeypatch, player, jokers=2):
    install(monkeypatch, "thanasis")
    if jokers:
        _grant(player, jokers)
    for _ in range(20):
        table = create_table(player, "thanasis", seats=4, bots={1: 1, 2: 1, 3: 1}, stake=0)
        table.refresh_from_db()
        # The robots play at once up to my first turn; now and then one closes the round before it (a random
        # deal), and the table waits for « Manche suivante »: deal another match then.
        if table.status == Table.Status.PLAYING and games.get("thanasis").to_act(table.state) == [0]:
            return table
        services.seat_abandon(table_id=table.pk, user=player)
    raise AssertionError("no deal reached my first turn in 20 matches")


@pytest.mark.django_db(transaction=True)
def test_the_engine_learns_the_humans_joker_balances_at_match_start(monkeypatch, player):
    table = _joker_table(monkeypatch, player, jokers=2)
    assert table.state["joker_balances"] == {"0": 2}, "the robots have no account"
    assert services.replay(table) == table.state


def _take_joker(table):
    table.refresh_from_db()
    return services.play_move(table_id=table.pk, seat=0, move={"action": "take_joker"},
                              expected_version=table.version)


@pytest.mark.django_db(transaction=True)
def test_a_joker_taken_debits_one_in_the_moves_transaction(monkeypatch, player):
    table = _joker_table(monkeypatch, player, jokers=2)
    outcome = _take_joker(table)
    assert outcome.applied
    assert counter_balance(player, JOKERS) == 1
    entry = CounterEntry.objects.get(reason=CounterEntry.Reason.SPENT)
    assert entry.idempotency_key == f"joker:{table.pk}:{outcome.version}" and entry.table_id == table.pk
    assert TableMove.objects.filter(table=table, seq=outcome.version).exists()
    table.refresh_from_db()
    assert services.replay(table) == table.state
    _assert_counters_match_their_entries()


@pytest.mark.django_db(transaction=True)
def test_a_joker_spent_meanwhile_elsewhere_refuses_the_move_and_changes_nothing(monkeypatch, player):
    table = _joker_table(monkeypatch, player, jokers=1)
    counter_move(user=player, kind=JOKERS, amount=-1, reason=CounterEntry.Reason.SPENT, idempotency_key="elsewhere")
    before = Table.objects.get(pk=table.pk)
    outcome = _take_joker(table)
    assert not outcome.applied and outcome.error.code == "no_joker_balance"
    assert outcome.error.message == "Tu n'as plus de joker sur ton compte."
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert counter_balance(player, JOKERS) == 0


@pytest.fixture
def staff_client(client, db):
    admin = User.objects.create_superuser(username="root", password="Admin-pass-123", email="")
    client.force_login(admin, backend="accounts.backends.HumanOnlyBackend")
    return client


@pytest.mark.django_db
def test_admin_grants_and_adjusts_jokers_once_per_form(staff_client, player):
    url = reverse("admin:accounts_jokermove_add")
    form = staff_client.get(url).content.decode()
    assert "nombre de jokers" in form
    data = {"user": player.pk, "amount": 3, "reason": "grant", "note": "cadeau", "key": "admin:form-1"}
    assert staff_client.post(url, data).status_code == 302
    assert staff_client.post(url, data).status_code == 302, "the same form sent twice"
    assert counter_balance(player, JOKERS) == 3
    refused = staff_client.post(url, {**data, "amount": -5, "reason": "adjust", "key": "admin:form-2"})
    assert "pas autant de jokers" in refused.content.decode()
    staff_client.post(url, {**data, "amount": -1, "reason": "adjust", "key": "admin:form-3"})
    assert counter_balance(player, JOKERS) == 2
    entry = CounterEntry.objects.filter(reason="adjust").get()
    assert entry.author.username == "root"
    listing = staff_client.get(reverse("admin:accounts_jokermove_changelist")).content.decode()
    assert "cadeau" in listing


@pytest.mark.django_db
def test_admin_points_journal_is_read_only(staff_client, player):
    counter_move(user=player, kind=POINTS, amount=3000, reason=CounterEntry.Reason.WIN, idempotency_key="p")
    assert staff_client.get(reverse("admin:accounts_pointsmove_changelist")).status_code == 200
    assert staff_client.get(reverse("admin:accounts_pointsmove_add")).status_code == 403
    entry = CounterEntry.objects.get()
    page = staff_client.get(reverse("admin:accounts_pointsmove_change", args=[entry.pk])).content.decode()
    assert 'name="amount"' not in page
    users = staff_client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "points de compte" in users.lower() and "3000" in users
    assert staff_client.get(reverse("admin:tables_table_changelist")).status_code == 200


@pytest.mark.django_db
def test_the_profile_shows_points_and_jokers(player_client, player):
    counter_move(user=player, kind=POINTS, amount=-1000, reason=CounterEntry.Reason.LOSS, idempotency_key="p",
                 table_id=7)
    _grant(player, 4)
    html = player_client.get(reverse("accounts:profile")).content.decode()
    assert 'data-testid="account-points">-1000<' in html
    assert 'data-testid="account-jokers">4<' in html
    assert "table n° 7" in html


@pytest.mark.django_db(transaction=True)
def test_the_real_joker_button_debits_the_account_once(player, monkeypatch):
    from tables import tasks

    # A deal that leaves a joker tile deep in the stock (the deal is random: a joker may be in a hand).
    monkeypatch.setattr(services, "new_seed", lambda: "0" * 64)
    _grant(player, 2)
    table = create_table(player, "canasta-tuiles", seats=4, bots={1: 1, 2: 1, 3: 1}, stake=0,
                         options={"match_length": "1"})
    engine = games.get("canasta-tuiles")
    assert table.state["jokers"] == [2, 0, 0, 0]
    taken = False
    for _ in range(400):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        if 0 in engine.to_act(table.state) and {"action": "take_joker"} in engine.legal_moves(table.state, 0):
            outcome = services.play_move(table_id=table.pk, seat=0, move={"action": "take_joker"},
                                         expected_version=table.version)
            assert outcome.applied
            assert counter_balance(player, JOKERS) == 1
            table.refresh_from_db()
            assert table.state["jokers"][0] == 1
            assert services.replay(table) == table.state
            taken = True
            break
        if not engine.to_act(table.state):
            tasks.next_round.run(table.pk, table.version)
        else:
            tasks.autoplay_turn.run(table.pk, table.version, engine.to_act(table.state)[0])
    assert taken, "a turn offered the Joker button"
    _assert_counters_match_their_entries()
