"""The token ledger. Tokens move only through `transfer_create`; totals are conserved.

Every transfer writes two entries (one per side) and updates both cached balances in the
same transaction, with the account rows locked in a fixed order (no deadlocks).
"""

import uuid

from django.db import IntegrityError, transaction
from django.db.models import F, Sum

from accounts.models import Account, Counter, CounterEntry, EconomySettings, LedgerEntry, User


class InsufficientTokens(Exception):
    """Le solde ne suffit pas."""

    message = "Tu n'as pas assez de jetons pour cette mise."


def house_account() -> Account:
    account, _ = Account.objects.get_or_create(kind=Account.Kind.HOUSE, defaults={"allow_negative": True})
    return account


def player_account(user: User) -> Account:
    account, _ = Account.objects.get_or_create(user=user, defaults={"kind": Account.Kind.PLAYER})
    return account


def pot_account(table_id: int) -> Account:
    account, _ = Account.objects.get_or_create(table_id=table_id, defaults={"kind": Account.Kind.POT})
    return account


def prizes_account(tournament_id: int) -> Account:
    """A tournament's prize pool: the entry stakes, paid out by rank when it ends."""
    account, _ = Account.objects.get_or_create(tournament_id=tournament_id, defaults={"kind": Account.Kind.PRIZES})
    return account


@transaction.atomic
def transfer_create(
    *,
    source: Account,
    target: Account,
    amount: int,
    reason: str,
    table_id: int | None = None,
    idempotency_key: str | None = None,
) -> bool:
    """Move `amount` tokens from source to target. Returns False if this key was already applied."""
    if amount <= 0 or source.pk == target.pk:
        raise ValueError("a transfer moves a positive amount between two accounts")
    if idempotency_key and LedgerEntry.objects.filter(idempotency_key=idempotency_key, account=source).exists():
        return False
    ids = sorted([source.pk, target.pk])
    locked = {a.pk: a for a in Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    src = locked[source.pk]
    if not src.allow_negative and src.balance < amount:
        raise InsufficientTokens()
    transfer = uuid.uuid4()
    try:
        with transaction.atomic():
            LedgerEntry.objects.bulk_create(
                [
                    LedgerEntry(transfer=transfer, account=src, counterpart=target, amount=-amount, reason=reason,
                                table_id=table_id, idempotency_key=idempotency_key),
                    LedgerEntry(transfer=transfer, account=target, counterpart=src, amount=amount, reason=reason,
                                table_id=table_id, idempotency_key=idempotency_key),
                ]
            )
    except IntegrityError:
        return False  # a concurrent call with the same key won
    Account.objects.filter(pk=src.pk).update(balance=F("balance") - amount)
    Account.objects.filter(pk=target.pk).update(balance=F("balance") + amount)
    return True


def user_balance(user: User | int) -> int:
    """A player's tokens (the user or his id)."""
    return Account.objects.filter(user=user).values_list("balance", flat=True).first() or 0


def ledger_balance(account: Account) -> int:
    """The balance recomputed from the entries (the source of truth)."""
    return account.entries.aggregate(total=Sum("amount"))["total"] or 0


@transaction.atomic
def user_create(*, username: str, password: str | None, email: str = "") -> User:
    """A new player with a wallet and the starting grant from the admin settings."""
    user = User.objects.create_user(username=username, password=password, email=email)
    grant = EconomySettings.current().starting_grant
    account = player_account(user)
    if grant:
        transfer_create(source=house_account(), target=account, amount=grant, reason=LedgerEntry.Reason.GRANT,
                        idempotency_key=f"grant:{user.pk}")
    return user


class InsufficientJokers(Exception):
    """A joker debit larger than the balance."""

    message = "Tu n'as plus de joker sur ton compte."


def counter_move(*, user: User, kind: str, amount: int, reason: str, idempotency_key: str,
                 table_id: int | None = None, note: str = "", author: User | None = None) -> bool:
    """Move a player's account points or jokers by `amount` (negative: a debit). One append-only entry and the
    cached balance, in one transaction with the counter's row locked; returns False if this key was applied
    already (a retried settlement, move or form). A joker debit beyond the balance raises InsufficientJokers."""
    if amount == 0:
        return False
    with transaction.atomic():
        Counter.objects.get_or_create(user=user, kind=kind)
        counter = Counter.objects.select_for_update().get(user=user, kind=kind)
        if counter.entries.filter(idempotency_key=idempotency_key).exists():
            return False
        if kind == Counter.Kind.JOKERS and counter.balance + amount < 0:
            raise InsufficientJokers()
        try:
            with transaction.atomic():
                CounterEntry.objects.create(counter=counter, amount=amount, reason=reason, table_id=table_id,
                                            note=note, author=author, idempotency_key=idempotency_key)
        except IntegrityError:
            return False  # a concurrent call with the same key won
        Counter.objects.filter(pk=counter.pk).update(balance=F("balance") + amount)
        return True


def counter_balance(user: User, kind: str) -> int:
    return Counter.objects.filter(user=user, kind=kind).values_list("balance", flat=True).first() or 0


def counter_balances(user_ids, kind: str) -> dict[int, int]:
    """{user id: balance} for several players at once (0 for one without a counter)."""
    found = dict(Counter.objects.filter(user_id__in=list(user_ids), kind=kind).values_list("user_id", "balance"))
    return {uid: found.get(uid, 0) for uid in user_ids}


def counter_entries_total(counter: Counter) -> int:
    """The balance recomputed from the entries (the source of truth)."""
    return counter.entries.aggregate(total=Sum("amount"))["total"] or 0


BOT_NAMES = {1: "Robot Débutant", 2: "Robot Confirmé", 3: "Robot Expert"}


def bots_ensure() -> dict[int, User]:
    """One bot account per level; bots can never log in (unusable password, refused by the backend)."""
    bots = {}
    for level, name in BOT_NAMES.items():
        bot, created = User.objects.get_or_create(
            username=name, defaults={"is_bot": True, "bot_level": level, "is_active": True}
        )
        if created:
            bot.set_unusable_password()
            bot.save(update_fields=["password"])
        bots[level] = bot
    return bots
