"""Reading the other Gin hand from his public moves by constraints, with a Markov chain (an analysis for issue #32).

The particle filter (`bench.gin_reading`) replays whole stories and read 36 % of his cards. This reading looks only
at his hand now and asks what his last turn says of it, as a player who knows the simple policy would:
- the card he threw last was the highest deadwood card of his eleven (`THROW`);
- he did not knock, so his deadwood is over the knock limit (`KNOCK`);
- the upcard he let go by at his last turn neither made a meld with the ten he held then nor lowered his deadwood
  (`PASS`); those ten are his hand now with the card he drew from the stock back in the stock (unless he threw
  the card he drew), so the state of the chain is his hand and which of its cards he drew, if any;
- older upcards he let go by and older cards he threw make no meld with his hand now, more likely than not (`OLD`).
A hand breaking a rule keeps the weight given beside it. The chain swaps one unknown card of his for one he may
hold, or moves the drawn card, and accepts by the weights' ratio (Metropolis); hands are taken every `THIN` steps
after `BURN_IN`.
"""

import math
import random

from bench.gin_reading import LOG, PublicLog
from engine.bots.gin import ADAPTER, KNOCK_LIMIT
from engine.games import gin as gin_rules

THROW = 0.02
KNOCK = 0.02
PASS = 0.1
OLD = 0.6
WEIGHTS = {"throw": THROW, "knock": KNOCK, "pass": PASS, "old": OLD}
BURN_IN = 200
THIN = 8


def value(card: str) -> int:
    return ADAPTER.value(card, None)


def his_round(seat: int, log: PublicLog) -> dict:
    """His public moves as the reading uses them: `last`, his last turn played (the upcard he let go by, whether he
    drew from the stock, the card he threw), and `older`, the upcards he let go by and the cards he threw before it."""
    other = next(s for s in log.dealt if s != seat)
    turns = []
    current: dict = {}
    for who, action, card, top in log.moves:
        if who != other:
            continue
        if action in ("take_discard", "draw_stock", "pass"):
            if action == "pass":
                turns.append({"passed": top})
                continue
            current = {"passed": top if action == "draw_stock" else None, "blind": action == "draw_stock"}
        elif action in ("discard", "knock"):
            current["threw"] = card
            turns.append(current)
            current = {}
    played = [t for t in turns if "threw" in t]
    last = played[-1] if played else None
    older_passes = [t["passed"] for t in turns if t.get("passed") and t is not last]
    older_throws = [t["threw"] for t in played[:-1]]
    return {"last": last, "older": older_passes + older_throws}


def broken(hand: list[str], drawn: str | None, story: dict) -> list[str]:
    """The rules of his last turn `hand` breaks ("throw", "knock", "pass"), then one "old" per older card that makes
    a meld with it."""
    out = []
    last = story["last"]
    if last is not None:
        threw = last["threw"]
        eleven = gin_rules.best_arrangement(hand + [threw])
        if threw not in eleven.deadwood or any(value(c) > value(threw) for c in eleven.deadwood):
            out.append("throw")
        elif eleven.points - value(threw) <= KNOCK_LIMIT:
            out.append("knock")
        passed = last.get("passed")
        if passed is not None and last.get("blind"):
            before = hand if drawn is None else [c for c in hand if c != drawn] + [threw]
            if makes_meld(before, passed) or ADAPTER.wants(before, passed, None):
                out.append("pass")
    out += ["old" for card in story["older"] if card not in hand and makes_meld(hand, card)]
    return out


def weight(hand: list[str], drawn: str | None, story: dict) -> float:
    return math.prod(WEIGHTS[rule] for rule in broken(hand, drawn, story))


def makes_meld(hand: list[str], card: str) -> bool:
    """Whether `card` sits in a meld of the best arrangement of `hand` with it."""
    return any(card in meld for meld in gin_rules.best_arrangement(hand + [card]).melds)


def read(seat: int, known: list[str], unseen: list[str], size: int, samples: int, rng: random.Random,
         log: PublicLog = LOG) -> list[list[str]]:
    """`samples` hands he may hold now: his known cards plus unseen ones, drawn by the chain."""
    story = his_round(seat, log)
    free = size - len(known)
    pool = [c for c in unseen if c not in known]
    if free <= 0 or len(pool) <= free:
        return [list(known)[:size] + pool[:max(0, free)]] * samples
    rng.shuffle(pool)
    blind = story["last"] is not None and bool(story["last"].get("blind"))

    def pick_drawn() -> int | None:  # which of his unknown cards he drew last; None: he threw the card he drew
        k = rng.randrange(free + 1)
        return None if k == free or not blind else k

    def weigh(mine: list[str], drawn: int | None) -> float:
        return weight(known + mine, None if drawn is None else mine[drawn], story)

    mine, rest, drawn = pool[:free], pool[free:], pick_drawn()
    w = weigh(mine, drawn)
    out = []
    for step in range(1, BURN_IN + THIN * samples + 1):
        new_mine, new_rest, new_drawn = mine, rest, drawn
        if blind and rng.random() < 0.25:
            new_drawn = pick_drawn()
        else:
            i, j = rng.randrange(free), rng.randrange(len(rest))
            new_mine, new_rest = list(mine), list(rest)
            new_mine[i], new_rest[j] = rest[j], mine[i]
        new_w = weigh(new_mine, new_drawn)
        if new_w >= w or rng.random() < new_w / w:
            mine, rest, drawn, w = new_mine, new_rest, new_drawn, new_w
        if step > BURN_IN and (step - BURN_IN) % THIN == 0:
            out.append(known + mine)
    return out
