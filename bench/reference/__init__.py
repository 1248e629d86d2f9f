"""Reference opponents: simple outside players written from public descriptions, not from our bots.

A reference plays from its seat's view and the legal moves only, like a bot, but shares none of the
site's bot code: it is the yardstick the ladder (`python -m bench.bots --pairs 3-0,2-0,1-0`) measures
each level against, as an outside player would meet them. Level 0 in the bench is « the reference ».
One module per game (`bench/reference/<game>.py`, its `choose(view, legal, rng)`), each the policy its
players' guides call the plain sound one; its docstring says which.
"""

import random
from importlib import import_module

REFERENCE = 0  # the bench's level number for the reference opponent
MODULES = {
    "gin": "bench.reference.gin",
    "thunee": "bench.reference.thunee",
    "thanasis": "bench.reference.thanasis",
    **dict.fromkeys(("rami", "rami40", "kalooki", "rami-traditionnel"), "bench.reference.rami"),
    "rummikub": "bench.reference.rummikub",
    "canasta": "bench.reference.canasta",
    "canasta-tuiles": "bench.reference.canasta",
}


def choose(slug: str, view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The reference's move for `slug`; a single legal move is played as it is."""
    if len(legal) == 1:
        return legal[0]
    if slug not in MODULES:
        raise KeyError(f"no reference opponent for {slug}")
    return import_module(MODULES[slug]).choose(view, legal, rng)
