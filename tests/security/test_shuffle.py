"""The deal is fair and unpredictable: Fisher–Yates over a SHAKE-256 stream keyed by a `secrets` seed.

Chi-square of the position of every card over 10^5 decks (fixed seeds: deterministic, never flaky);
`python -m bench.shuffle --decks 1000000` is the long run. The same test finds a biased shuffle,
so it has the power to fail. The seed comes from `secrets` (256 bits) and never reaches a client.
"""

import json
import os
import random
import secrets

import pytest
from django.db import connection
from django.test import Client

from bench.shuffle import CARDS, analyse, position_counts
from engine import games, rng
from tables import services
from tables.models import Table
from tests.security.arena import humans_table

DECKS = 100_000
# Significance: 10^-3 for the whole test. Per position (52 tests): Bonferroni, 10^-3 / 52.
ALPHA = 1e-3


def test_card_positions_are_uniform_over_100k_decks():
    if connection.vendor != "sqlite" and not os.environ.get("SHUFFLE_ON_EVERY_DATABASE"):
        pytest.skip("pure computation, no database: run once, in the embedded (SQLite) pass")
    result = analyse(position_counts(DECKS, salt="ci"))
    assert result["decks"] == DECKS
    assert result["worst_position_p"] > ALPHA / CARDS, result["worst_position_p"]
    assert result["global_p"] > ALPHA, (result["global_chi2"], result["global_p"])
    # And not suspiciously perfect either (a counter, not a shuffle, would give chi2 ≈ 0).
    assert result["global_p"] < 1 - ALPHA


def sattolo(deck, seed):
    """Fisher–Yates with the classic off-by-one (j < i): never leaves a card where it was."""
    deck = list(deck)
    stream = rng.StreamRandom(seed, "deal")
    for i in range(len(deck) - 1, 0, -1):
        j = stream.randrange(i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def naive(deck, seed):
    """Swap each card with any position (j over the whole deck): the well-known biased shuffle."""
    deck = list(deck)
    stream = rng.StreamRandom(seed, "deal")
    for i in range(len(deck)):
        j = stream.randrange(len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("biased", [sattolo, naive])
def test_the_same_test_catches_a_biased_shuffle(biased):
    result = analyse(position_counts(DECKS // 4, salt="ci-biased", shuffle=biased))
    assert result["worst_position_p"] < ALPHA / CARDS or result["global_p"] < ALPHA


def test_shuffles_are_reproducible_from_seed_and_label():
    deck = list(range(CARDS))
    seed = rng.new_seed()
    assert rng.shuffled(deck, seed, "r1:deal") == rng.shuffled(deck, seed, "r1:deal")
    assert rng.shuffled(deck, seed, "r1:deal") != rng.shuffled(deck, seed, "r2:deal")
    assert sorted(rng.shuffled(deck, seed, "r1:deal")) == deck


def test_new_seed_is_256_bits_from_secrets(monkeypatch):
    calls = []
    real = secrets.token_hex

    def spy(nbytes=None):
        calls.append(nbytes)
        return real(nbytes)

    monkeypatch.setattr(secrets, "token_hex", spy)
    seed = rng.new_seed()
    assert calls == [32], "32 bytes = 256 bits from the OS CSPRNG"
    assert len(seed) == 64 and int(seed, 16) >= 0
    seeds = {rng.new_seed() for _ in range(1000)}
    assert len(seeds) == 1000
    # Not the Mersenne Twister: reseeding `random` changes nothing.
    random.seed(0)
    first = rng.new_seed()
    random.seed(0)
    assert rng.new_seed() != first


@pytest.mark.django_db
def test_table_seed_comes_from_new_seed_and_no_page_or_view_shows_it(make_player, monkeypatch):
    drawn = []
    real = rng.new_seed

    def spy():
        drawn.append(real())
        return drawn[-1]

    monkeypatch.setattr(services, "new_seed", spy)
    alice, bruno = make_player("alice"), make_player("bruno")
    table = humans_table("gin", [alice, bruno], options={"match": "1"})
    assert drawn and table.seed == drawn[-1]
    table = Table.objects.select_related("game").get(pk=table.pk)
    engine = games.get("gin")
    texts = [json.dumps(engine.view(table.state, seat)) for seat in (0, 1)]
    texts.append(json.dumps(engine.public_view(table.state)))
    for user in (alice, bruno):
        client = Client()
        client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
        for path in (f"/tables/{table.pk}/", "/tables/", "/compte/profil/", "/"):
            texts.append(client.get(path).content.decode())
        texts.append(client.post(f"/tables/{table.pk}/action/", data={"kind": "move", "version": "0"}).content.decode())
    for text in texts:
        assert table.seed not in text
        assert table.seed[:16] not in text, "not even a prefix"
