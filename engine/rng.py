"""Deterministic shuffles with cryptographic strength.

The server draws a seed with `secrets`; every shuffle of a match is derived from it
with SHAKE-256 in counter mode. Replaying a match from its seed rebuilds the same
decks, yet observed cards reveal nothing usable about the next ones (unlike the
Mersenne Twister of `random.Random`).
"""

import hashlib
import random
import secrets


def new_seed() -> str:
    """A fresh 256-bit seed, as hex, drawn from the OS CSPRNG."""
    return secrets.token_hex(32)


class StreamRandom(random.Random):
    """`random.Random` whose bits come from SHAKE-256(seed, label, block counter)."""

    def __init__(self, seed: str, label: str = ""):
        self._key = f"{seed}|{label}".encode()
        self._counter = 0
        self._buffer = b""
        super().__init__(0)

    def seed(self, *args, **kwargs):  # random.Random.__init__ calls this; state is ours
        pass

    def _take(self, nbytes: int) -> bytes:
        while len(self._buffer) < nbytes:
            block = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(256)
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:nbytes], self._buffer[nbytes:]
        return out

    def getrandbits(self, k: int) -> int:
        if k <= 0:
            return 0
        value = int.from_bytes(self._take((k + 7) // 8), "big")
        return value >> ((8 - k % 8) % 8)

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)

    def getstate(self):
        raise NotImplementedError("StreamRandom is rebuilt from its seed, not pickled")

    def setstate(self, state):
        raise NotImplementedError("StreamRandom is rebuilt from its seed, not pickled")


def shuffled(items: list, seed: str, label: str) -> list:
    """A Fisher–Yates shuffle (random.shuffle) of a copy of `items`, reproducible from seed+label."""
    deck = list(items)
    StreamRandom(seed, label).shuffle(deck)
    return deck
