"""Stakes, payouts and penalties of a table, through the accounts ledger only."""

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

from django.db.models import F

from accounts.models import Account, Counter, CounterEntry, LedgerEntry, User
from accounts.services import counter_move, house_account, player_account, pot_account, transfer_create, user_balance
from engine import games
from engine.base import team_index
from tables.errors import TableError
from tables.models import Seat, Table


def ensure_can_stake(user: User, stake: int) -> None:
    if stake and user_balance(user) < stake:
        raise TableError(f"Il te faut au moins {stake} jetons pour t'asseoir à cette table.", "tokens")


def stakes_escrow(*, table: Table, seats: list[Seat]) -> None:
    """Every human's stake goes into the table's pot when the match starts."""
    if not table.stake:
        return
    pot = pot_account(table.pk)
    for seat in seats:
        if seat.user_id and not seat.is_bot:
            ensure_can_stake(seat.user, table.stake)
            transfer_create(source=player_account(seat.user), target=pot, amount=table.stake,
                            reason=LedgerEntry.Reason.STAKE, table_id=table.pk,
                            idempotency_key=f"stake:{table.pk}:{seat.user_id}")


def _penalty(table: Table, balance: int) -> int:
    """The abandon penalty a player with `balance` tokens pays: the game's, at most what he has."""
    setting = getattr(table, "game_abandon_penalty", None)  # read with the table on the hot path (tables.reads)
    if setting is None:
        setting = table.game.abandon_penalty
    return max(0, min(setting, balance))


def abandon_cost(*, table: Table, seat: Seat | None) -> int:
    """What « Quitter » would cost this seat now: the penalty `abandon_penalty` then charges, as
    tables.services.seat_abandon decides it (a match under way and the seat still in it; a table that has not
    started, or a seat already out, costs nothing). The stake is not in it: it is in the pot already."""
    if seat is None or seat.is_bot or seat.user_id is None or seat.left or table.table_type == Table.Type.PRACTICE:
        return 0
    if table.status != Table.Status.PLAYING or not table.state:
        return 0
    if seat.position not in table.state.get("active", []):
        return 0
    balance = getattr(seat, "balance", None)  # read with the seats on the hot path (tables.reads)
    if balance is None:
        balance = user_balance(seat.user)
    return _penalty(table, balance)


def abandon_penalty(*, table: Table, user: User) -> None:
    """Leaving after the deal: the stake stays in the pot, and the penalty goes to the house."""
    penalty = _penalty(table, user_balance(user))
    if penalty > 0:
        transfer_create(source=player_account(user), target=house_account(), amount=penalty,
                        reason=LedgerEntry.Reason.PENALTY, table_id=table.pk,
                        idempotency_key=f"penalty:{table.pk}:{user.pk}")


def _pay(source: Account, target: Account, amount: int, reason: str, table: Table, key: str) -> None:
    if amount > 0:
        transfer_create(source=source, target=target, amount=amount, reason=reason, table_id=table.pk,
                        idempotency_key=key)


def match_settle(*, table: Table, result: dict) -> None:
    """Pay out once the engine has a result. Idempotent: keyed transfers and the `settled` flag."""
    if Table.objects.filter(pk=table.pk, settled=True).exists():
        return
    seats = {s.position: s for s in table.seats.select_related("user")}
    humans = [s for s in seats.values() if s.user_id and not s.is_bot]
    winners = [w for w in result.get("winners", []) if w in seats]
    pot = pot_account(table.pk)
    pot.refresh_from_db()
    house = house_account()
    bots = [s.bot_level for s in seats.values() if s.is_bot]
    info = games.get(getattr(table, "game_slug", None) or table.game.slug).info

    if table.table_type == Table.Type.ARENA:
        _settle_arena(table, humans, winners, pot, house)
    elif info.teams:
        _settle_teams(table, seats, humans, winners, pot, house)
    elif len(humans) == 1 and bots:
        _settle_against_bots(table, humans[0], winners, pot, house, max(bots))
    else:
        _settle_pot(table, seats, winners, result.get("prize_split"), pot, house)
    if info.account_points_per_round and table.table_type != Table.Type.ARENA and winners:
        _award_points(table, humans, winners, info.account_points_per_round * rounds_played(table.state, result))

    winner_users = [seats[w].user_id for w in winners if seats[w].user_id and not seats[w].is_bot]
    User.objects.filter(pk__in=[s.user_id for s in humans]).update(games_played=F("games_played") + 1)
    User.objects.filter(pk__in=winner_users).update(games_won=F("games_won") + 1)
    Table.objects.filter(pk=table.pk).update(settled=True)


def _settle_against_bots(table, human: Seat, winners, pot, house, level: int) -> None:
    """Alone against bots: a win returns the stake plus a payout by the bots' level; a loss costs the stake."""
    account = player_account(human.user)
    if human.position in winners and not human.left:
        share = Decimal(1) / len(winners)
        payout = int((Decimal(table.stake) * table.game.bot_payout(level) * share).to_integral_value(ROUND_DOWN))
        _pay(pot, account, pot.balance, LedgerEntry.Reason.REFUND, table, f"settle:{table.pk}:refund")
        _pay(house, account, payout, LedgerEntry.Reason.BOT_PAYOUT, table, f"settle:{table.pk}:payout")
    else:
        _pay(pot, house, pot.balance, LedgerEntry.Reason.LOSS, table, f"settle:{table.pk}:loss")


def _settle_pot(table, seats, winners, shares, pot, house) -> None:
    """Between humans: the winner takes the pot (or the rules' prize split); bots' shares go to the house."""
    total = pot.balance
    if total <= 0:
        return
    if shares:  # the rules' prize split: one fraction per seat, e.g. ["3/4", "1/4"]
        split = {}
        for seat, frac in enumerate(shares):
            value = Fraction(frac)
            if value > 0:
                split[seat] = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        split = {w: Decimal(1) / len(winners) for w in winners} if winners else {}
    paid = 0
    for position, frac in sorted(split.items(), key=lambda item: -item[1]):
        seat = seats.get(position)
        amount = int((Decimal(total) * frac).to_integral_value(ROUND_DOWN))
        if seat is None or amount <= 0:
            continue
        target = house if (seat.is_bot or not seat.user_id) else player_account(seat.user)
        _pay(pot, target, amount, LedgerEntry.Reason.WIN, table, f"settle:{table.pk}:{position}")
        paid += amount
    rest = total - paid
    if rest > 0:
        first = next((seats[w] for w in winners if not seats[w].is_bot), None)
        target = player_account(first.user) if first else house
        _pay(pot, target, rest, LedgerEntry.Reason.WIN, table, f"settle:{table.pk}:rest")


def _paid_winners(humans: list[Seat], winners: list[int]) -> list[Seat]:
    """The humans a win pays: a player who left is paid nothing, whatever his seat's autoplay or robot did."""
    return [s for s in humans if s.position in winners and not s.left]


def _settle_teams(table, seats, humans, winners, pot, house) -> None:
    """A team game: the win is the team's. Humans only on one side (with robot partners or alone) play against
    the robots: each winner gets his stake back plus the payout of the opposing robots' level. Humans on both
    sides: the winning team's humans share the pot."""
    paid = _paid_winners(humans, winners)
    if len({team_index(s.position) for s in humans}) == 1:
        ours = team_index(humans[0].position)
        opponents = [s.bot_level for s in seats.values() if s.is_bot and team_index(s.position) != ours]
        level = max(opponents or [s.bot_level for s in seats.values() if s.is_bot] or [1])
        rest = pot.balance
        for seat in paid:
            account = player_account(seat.user)
            payout = int((Decimal(table.stake) * table.game.bot_payout(level)).to_integral_value(ROUND_DOWN))
            _pay(pot, account, min(table.stake, rest), LedgerEntry.Reason.REFUND, table,
                 f"settle:{table.pk}:refund:{seat.user_id}")
            rest -= min(table.stake, rest)
            _pay(house, account, payout, LedgerEntry.Reason.BOT_PAYOUT, table,
                 f"settle:{table.pk}:payout:{seat.user_id}")
        _pay(pot, house, rest, LedgerEntry.Reason.LOSS, table, f"settle:{table.pk}:loss")
        return
    _share_pot(table, paid, pot.balance, pot, house)


def _share_pot(table, paid: list[Seat], total: int, pot, house) -> None:
    """`total` tokens of the pot shared equally among `paid` (the odd token to the first); none: the house."""
    if total <= 0:
        return
    if not paid:
        _pay(pot, house, total, LedgerEntry.Reason.LOSS, table, f"settle:{table.pk}:loss")
        return
    share, odd = divmod(total, len(paid))
    for index, seat in enumerate(paid):
        _pay(pot, player_account(seat.user), share + (odd if index == 0 else 0), LedgerEntry.Reason.WIN, table,
             f"settle:{table.pk}:win:{seat.user_id}")


def _settle_arena(table, humans, winners, pot, house) -> None:
    """Arena: each winner gains the entry stake (his own back and one more), each loser loses his; the losers'
    stakes pay the winners, the house pays what robots lost and takes what they won. Tie-break rounds change
    nothing: the stake is paid once. No winner at all: every stake goes back."""
    if not winners:
        for seat in humans:
            _pay(pot, player_account(seat.user), table.stake, LedgerEntry.Reason.REFUND, table,
                 f"settle:{table.pk}:refund:{seat.user_id}")
        return
    rest = pot.balance
    for seat in _paid_winners(humans, winners):
        account = player_account(seat.user)
        from_pot = min(2 * table.stake, rest)
        rest -= from_pot
        _pay(pot, account, from_pot, LedgerEntry.Reason.WIN, table, f"settle:{table.pk}:win:{seat.user_id}")
        _pay(house, account, 2 * table.stake - from_pot, LedgerEntry.Reason.WIN, table,
             f"settle:{table.pk}:house:{seat.user_id}")
    _pay(pot, house, rest, LedgerEntry.Reason.LOSS, table, f"settle:{table.pk}:loss")


def rounds_played(state: dict | None, result: dict) -> int:
    """The rounds a match actually played, tie-breaks included (the contract's per-round `history`)."""
    if isinstance(result.get("rounds"), int):
        return result["rounds"]
    history = (state or {}).get("history") or []
    return max(1, len(history) or int((state or {}).get("round") or 1))


def _award_points(table, humans: list[Seat], winners: list[int], points: int) -> None:
    """Account points: each winner gains `points`, each loser (or a player who left) loses as many; keyed per
    table and player, so a settlement retried moves nothing twice."""
    paid = {s.pk for s in _paid_winners(humans, winners)}
    for seat in humans:
        won = seat.pk in paid
        counter_move(user=seat.user, kind=Counter.Kind.POINTS, amount=points if won else -points,
                     reason=CounterEntry.Reason.WIN if won else CounterEntry.Reason.LOSS, table_id=table.pk,
                     idempotency_key=f"points:{table.pk}:{seat.user_id}")
