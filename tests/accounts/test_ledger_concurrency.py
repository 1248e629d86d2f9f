"""The token ledger under concurrent load: totals conserved, no overdraft, retried payouts pay once.

Thousands of random transfers run from many threads at once: player ↔ player, stakes into table pots,
pot payouts, house payouts (bot wins) and penalties. Keyed transfers (stakes, payouts, penalties) are
sometimes submitted twice from two threads, as a retried Celery task would be. A monitor thread reads
the ledger all along: the sum of every balance (house included) is always zero — it never changes —
and no account but the house is ever below zero.
"""

import os
import random
import threading
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
from django.db import connection
from django.db.models import Min, Q, Sum

from accounts.models import Account, LedgerEntry
from accounts.services import (
    InsufficientTokens,
    house_account,
    player_account,
    pot_account,
    transfer_create,
    user_create,
)

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
PLAYERS = 24
POTS = 12
# 10,000 submissions on both databases (`LEDGER_TRANSFERS=N` overrides). SQLite serialises the write
# transactions (BEGIN IMMEDIATE) and commits cheaply in WAL mode; PostgreSQL locks rows (the house row is
# hot) and would wait for an fsync per commit, which the workers turn off (fast_commits).
TRANSFERS = int(os.environ.get("LEDGER_TRANSFERS", "10000"))


def transfer_count() -> int:
    return TRANSFERS


@dataclass(frozen=True)
class Op:
    source: int
    target: int
    amount: int
    reason: str
    key: str | None = None


def make_ops(rng: random.Random, total: int, house: int, players: list[int], pots: list[int]) -> list[list[Op]]:
    """`total` submissions spread over the threads; about one keyed transfer in five is sent twice,
    the copy queued on another thread at the same place, so both copies run at about the same time."""
    queues: list[list[Op]] = [[] for _ in range(THREADS)]
    submitted = 0
    serial = 0
    while submitted < total:
        serial += 1
        kind = rng.choices(["p2p", "stake", "win", "bot_payout", "penalty", "loss"], [30, 20, 15, 15, 10, 10])[0]
        a, b = rng.sample(players, 2)
        pot = rng.choice(pots)
        if kind == "p2p":
            op = Op(a, b, rng.randint(1, 120), LedgerEntry.Reason.ADJUST)
        elif kind == "stake":
            op = Op(a, pot, rng.choice([10, 20, 50]), LedgerEntry.Reason.STAKE, f"stake:{pot}:{a}:{serial}")
        elif kind == "win":
            op = Op(pot, a, rng.randint(5, 80), LedgerEntry.Reason.WIN, f"settle:{pot}:{serial}")
        elif kind == "bot_payout":
            op = Op(house, a, rng.randint(10, 100), LedgerEntry.Reason.BOT_PAYOUT, f"payout:{serial}")
        elif kind == "penalty":
            op = Op(a, house, rng.randint(1, 40), LedgerEntry.Reason.PENALTY, f"penalty:{serial}")
        else:
            op = Op(pot, house, rng.randint(5, 60), LedgerEntry.Reason.LOSS, f"loss:{pot}:{serial}")
        here = serial % THREADS
        queues[here].append(op)
        submitted += 1
        if op.key and submitted < total and rng.random() < 0.2:
            there = (here + rng.randint(1, THREADS - 1)) % THREADS
            queues[there].append(op)  # the retry
            submitted += 1
    return queues


def fast_commits() -> None:
    """PostgreSQL: don't wait for each commit's fsync (a test database need not survive a power cut).
    Locking and isolation are unchanged; the run is about three times shorter."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")


def ledger_snapshot() -> tuple[int, int]:
    """Sum of all balances and the lowest balance of an account that may not go negative (one statement)."""
    row = Account.objects.aggregate(total=Sum("balance"), lowest=Min("balance", filter=Q(allow_negative=False)))
    return row["total"] or 0, row["lowest"] or 0


def test_random_concurrent_transfers_conserve_tokens_and_pay_retries_once(make_player):
    rng = random.Random(20241130)
    house = house_account()
    players = [player_account(user_create(username=f"joueur{i}", password=None)).pk for i in range(PLAYERS)]
    pots = [pot_account(9000 + i).pk for i in range(POTS)]
    accounts = {a.pk: a for a in Account.objects.all()}
    total_before, _ = ledger_snapshot()
    assert total_before == 0, "tokens enter only by grants from the house: the sum of all balances is zero"

    queues = make_ops(rng, transfer_count(), house.pk, players, pots)
    results: dict[Op, list[str]] = defaultdict(list)
    lock = threading.Lock()
    done = threading.Event()
    samples: list[tuple[int, int]] = []

    def monitor():
        try:
            while not done.is_set():
                samples.append(ledger_snapshot())
                done.wait(0.005)
        finally:
            connection.close()

    def work(queue: list[Op]):
        try:
            fast_commits()
            for op in queue:
                try:
                    applied = transfer_create(source=accounts[op.source], target=accounts[op.target],
                                              amount=op.amount, reason=op.reason, idempotency_key=op.key)
                    outcome = "applied" if applied else "already"
                except InsufficientTokens:
                    outcome = "insufficient"
                with lock:
                    results[op].append(outcome)
        finally:
            connection.close()

    watcher = threading.Thread(target=monitor)
    watcher.start()
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(work, queues))
    finally:
        done.set()
        watcher.join()

    # Never changed: every snapshot taken while the threads ran.
    assert len(samples) > 10
    assert {total for total, _ in samples} == {0}
    assert min(lowest for _, lowest in samples) >= 0

    # At the end: the same, and every cached balance is the sum of its entries.
    assert ledger_snapshot()[0] == 0
    assert (LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] or 0) == 0
    entry_sums = dict(LedgerEntry.objects.values_list("account").annotate(total=Sum("amount")))
    for account in Account.objects.all():
        assert account.balance == entry_sums.get(account.pk, 0), account
        if not account.allow_negative:
            assert account.balance >= 0, account

    # Retried transfers (same key) were applied at most once; from the house, exactly once.
    per_key = Counter(LedgerEntry.objects.filter(idempotency_key__isnull=False, amount__lt=0)
                      .values_list("idempotency_key", flat=True))
    assert max(per_key.values()) == 1
    retried = 0
    outcomes = Counter()
    for op, seen in results.items():
        outcomes.update(seen)
        if op.key is None:
            assert all(o in ("applied", "insufficient") for o in seen)
            continue
        retried += len(seen) > 1
        assert seen.count("applied") <= 1, (op, seen)
        assert per_key.get(op.key, 0) == seen.count("applied"), (op, seen)
        if op.source == house.pk:
            assert seen.count("applied") == 1, "a house payout always goes through, once"
        if len(seen) > 1 and "applied" in seen:
            assert all(o in ("applied", "already", "insufficient") for o in seen)
    assert retried > 100, "many keyed transfers were submitted twice"
    assert outcomes["already"] > 50, "retries were recognised as already applied"
    assert outcomes["applied"] > len(results) // 2
    assert sum(len(seen) for seen in results.values()) == transfer_count()


def test_the_house_account_is_created_once_under_concurrent_first_use():
    """On a fresh site the house is created lazily, by whichever signup or payout comes first."""
    from tests.reliability.racers import Racers

    assert not Account.objects.filter(kind=Account.Kind.HOUSE).exists()
    with Racers(THREADS) as racers:
        houses = racers.race([lambda: house_account().pk] * THREADS)
    assert len(set(houses)) == 1
    assert Account.objects.filter(kind=Account.Kind.HOUSE).count() == 1
