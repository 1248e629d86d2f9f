"""Level 3 « Expert » of the partnership Canastas (engine.bots.canasta): the Confirmé's planner, with
its key decisions weighed by playouts of the rest of the hand (`engine.bots.canasta.rollout`).

For a decision worth searching the expert lists a few candidates, the Confirmé's choice first:

- the pile: take it or draw from the stock (when both are allowed);
- the discard: the best `DISCARDS` throws of its discard order (the Confirmé's: the next opponent's
  chance of taking the pile with it, weighed by the pile's size, and what the hand keeps; in the tile
  game high pieces go sooner and a rank the opponents have melded counts as safe), a blocking 3 kept or
  thrown, and in the card game a 2 that freezes an open pile of `FREEZE_FROM` cards or more;
- going out: now, or keeping a card and playing on (its team may close more canastas while the
  opponents, without one, cannot end the hand);
- the table actions (tile game, once opened): the Confirmé's, shedding more (a pair melded with a wild,
  spare wilds laid off, clean canastas kept clean: pieces the opponents' going out cannot cost) or
  keeping the pairs of ranks its team has melded (to take the pile with).

A blue or black 3 (tile game) is thrown at once: kept, it costs 100 when the hand ends.

Then, many times: the pieces it has not seen are dealt at random (the other hands by their counts, the
pile under its top, the stock), each candidate is played in that same deal and the rest of the hand
is played out by the Confirmé's policy for all four seats; the hand is scored as the rules do, our team
minus theirs (in the tile game squashed by `utility`: tanh of the margin over `SCALE` points; bench on
the same 100 matches: 60.0 % → 62.0 %). The candidate with the best mean wins if it beats the Confirmé's
choice by a clear margin on the same deals (`engine.bots.search.pick`). The budget counts deals (an int:
deterministic given the rng) or is a `Budget` (the production default: `DEFAULT_BUDGET`, `TILES_BUDGET` in
the tile game, CPU time of the deciding thread).

« Partenaire, puis-je sortir ? » (card game): when it could go out while its partner holds `ASK_FROM`
cards or more, it asks instead of searching (only the partner knows what they are worth) and obeys. Asked,
it answers « non » when its own hand would cost the team `ANSWER_NO_FROM` points or more while the
opponents own no canasta (they cannot end the hand) and the stock is not low, « oui » otherwise.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from engine.bots import search
from engine.bots.base import Moves
from engine.bots.canasta import rollout
from engine.bots.canasta.basic import (
    BLOCK,
    STYLES,
    Planner,
    Seen,
    Spec,
    Style,
    answer,
    discard_order,
    is_draw,
    turn_step,
)
from engine.bots.search import Budget

SHED = Style(shed=True)
KEEP = Style(keep_pairs=True)
DEFAULT_BUDGET = Budget(iterations=16, time_limit=0.15)
TILES_BUDGET = Budget(iterations=32, time_limit=0.25)  # tile game: more deals (bench: 52.8 % → 58.0 %)
SQUASH = True
SCALE = 600.0  # points (tile game: about one standard deviation of a hand's margin)
MIN_GAIN = 10.0  # points per deal a candidate must win by (besides the standard-error margin)
FREEZE_FROM = 5  # card game: pile size from which freezing it with a 2 is a candidate
DISCARDS = 2  # discards tried (the best two of the discard order)
LOW_STOCK = 12
ASK_FROM = 5  # partner's cards from which the expert asks before going out
ANSWER_NO_FROM = 100  # own hand points from which the expert answers « non »


@dataclass(frozen=True)
class Clock:
    """One decision's budget: its deals per search, and one CPU-time cap shared by all its searches (a turn may
    weigh the table, going out and the discard in turn)."""

    budget: Budget
    started: float

    @property
    def iterations(self) -> int:
        return self.budget.iterations

    def spent(self) -> bool:
        limit = self.budget.time_limit
        return limit is not None and time.thread_time() - self.started > limit


def decide(spec: Spec, seen: Seen, view: dict, moves: Moves, rng, budget) -> dict:
    budget = Clock(search.as_budget(budget, TILES_BUDGET if spec.tiles else DEFAULT_BUDGET), time.thread_time())
    if moves.has("answer_go_out"):
        return answer(moves, partner_answer(spec, seen))
    if is_draw(moves):
        return draw_choice(spec, seen, view, moves, rng, budget)
    return meld_phase(spec, seen, view, moves, rng, budget)


def partner_answer(spec: Spec, seen: Seen) -> str:
    """« Partenaire, puis-je sortir ? » answered from this seat's own hand."""
    cost = sum(spec.hand_cost(c) for c in seen.hand)
    if cost >= ANSWER_NO_FROM and not seen.their_canasta and seen.stock > LOW_STOCK:
        return "no"
    return "yes"


# ---------------------------------------------------------------- the search


def best_of(spec: Spec, seen: Seen, view: dict, candidates: list, rng, budget) -> int:
    """Index of the candidate to play; each candidate is a function that plays it on a dealt `Hand`."""
    if len(candidates) == 1:
        return 0
    if not isinstance(budget, Clock):
        budget = Clock(search.as_budget(budget, TILES_BUDGET if spec.tiles else DEFAULT_BUDGET), time.thread_time())
    team = seen.seat % 2
    samples = []
    while len(samples) < budget.iterations:
        dealt = rollout.deal(spec, seen, view, rng)
        row = []
        for play in candidates:
            h = dealt.copy()
            play(h)
            h.play_out()
            row.append(utility(spec, h.margin(team)))
        samples.append(row)
        if budget.spent():
            break
    best, _ = search.pick(samples, min_gain=MIN_GAIN / SCALE if spec.tiles and SQUASH else MIN_GAIN)
    return best


def utility(spec: Spec, margin: int) -> float:
    """What a playout is worth: its margin (card game), or in the tile game (`SQUASH`) the margin squashed
    to ±1 over `SCALE` points: a hand is won by its sign, and a few wild playouts (a canasta of 2s) do not
    swamp the others."""
    if spec.tiles and SQUASH:
        return math.tanh(margin / SCALE)
    return margin


# ---------------------------------------------------------------- drawing


def draw_choice(spec: Spec, seen: Seen, view: dict, moves: Moves, rng, budget) -> dict:
    take = moves.first("take_pile")
    draw = moves.first("draw_stock")
    fallback = draw or moves.first("pass") or moves.legal[0]
    if take is None:
        return fallback
    if draw is None:
        return take
    candidates = [taking(seen.seat, take), drawing(seen.seat)]
    return [take, draw][best_of(spec, seen, view, candidates, rng, budget)]


def taking(seat: int, take: dict):
    """The pick-up `take` played on a dealt `rollout.Hand`, then the policy's melds and discard (as the expert plays
    it; the « Problèmes » finder weighs the same plays: engine.problems.canasta)."""

    def play(h):
        top = h.pile[-1]
        groups = take["melds"]
        first = list(groups[0])
        first.remove(top)
        h.take(seat, first)
        h.lay(seat, [{"action": "meld", "cards": list(g)} for g in groups[1:]])
        h.meld_and_discard(seat)

    return play


def drawing(seat: int):
    """A draw from the stock played on a dealt hand, then the policy's melds and discard (the stock empty: over)."""

    def play(h):
        if h.draw(seat):
            h.meld_and_discard(seat)
        else:
            h.over = True

    return play


# ---------------------------------------------------------------- the rest of the turn


def meld_phase(spec: Spec, seen: Seen, view: dict, moves: Moves, rng, budget) -> dict:
    planner = Planner(spec, STYLES[2])
    if seen.phase == "FIRST_TURN":
        plan = planner.plan(seen)
        plan.actions = []
        return discard_step(spec, seen, view, moves, plan, rng, budget)
    out_plan = planner.plan(seen, may_go_out=True)
    can_out = out_plan.canasta and len(out_plan.left) <= 1
    if seen.permission == "no":
        plan = planner.plan(seen, may_go_out=False)
    elif seen.permission == "yes":
        plan = out_plan
    elif not can_out:
        plan = table_choice(spec, seen, view, out_plan, rng, budget)
    elif moves.has("ask_go_out") and seen.counts.get(seen.partner, 0) >= ASK_FROM:
        return moves.first("ask_go_out")  # only the partner knows what its cards are worth
    else:
        hold = planner.plan(seen, may_go_out=False)
        plan = out_plan if going_out_pays(spec, seen, view, out_plan, hold, rng, budget) else hold
    if plan.actions:
        return plan.actions[0]
    return discard_step(spec, seen, view, moves, plan, rng, budget)


def table_choice(spec: Spec, seen: Seen, view: dict, plan, rng, budget):
    """The Confirmé's table actions, or (when they differ) shedding more (pairs with a wild, spare wilds
    laid off: safe if the opponents go out) or keeping the pairs of melded ranks (to take the pile with),
    as the playouts say."""
    if not spec.tiles or not seen.opened:
        return plan  # measured on the tile game only (bench.bots); the card game keeps the Confirmé's
    others = []
    for style in (SHED, KEEP):
        alt = Planner(spec, style).plan(seen, may_go_out=False)
        if alt.actions != plan.actions and len(alt.left) >= 2 and all(alt.actions != o.actions for o in others):
            others.append(alt)
    if not others:
        return plan
    seat = seen.seat

    def playing(p):
        def play(h):
            h.lay(seat, p.actions)
            hand = h.hands[seat]
            card = discard_order(spec, h.seen(seat), list(hand), 2)[0]
            h.discard(seat, card)
            if not h.over:
                h.next_turn()
        return play

    candidates = [plan, *others]
    return candidates[best_of(spec, seen, view, [playing(p) for p in candidates], rng, budget)]


def going_out_pays(spec: Spec, seen: Seen, view: dict, out_plan, hold, rng, budget) -> bool:
    """Whether going out now beats keeping a card and playing on (only while the opponents cannot end
    the hand: no canasta of theirs, enough stock)."""
    if seen.their_canasta or seen.stock <= LOW_STOCK or len(hold.left) < 2:
        return True
    seat = seen.seat

    def out(h):
        h.lay(seat, out_plan.actions)
        if h.hands[seat]:
            h.discard(seat, h.hands[seat][0])
        h.out, h.over = seat, True

    def play_on(h):
        h.lay(seat, hold.actions)
        card = discard_order(spec, h.seen(seat), list(h.hands[seat]), 2)[0]
        h.discard(seat, card)
        h.next_turn()

    return best_of(spec, seen, view, [out, play_on], rng, budget) == 0


def discard_step(spec: Spec, seen: Seen, view: dict, moves: Moves, plan, rng, budget) -> dict:
    options = moves.by_card("discard")
    allowed = [c for c in seen.hand if c in options]
    if len(allowed) < 2:
        return turn_step(spec, seen, moves, plan, 3, rng)
    order = discard_order(spec, seen, allowed, 3)
    candidates = []
    for c in order:
        key = spec.key(c)
        if spec.is_wild(c):
            continue
        if key in {spec.key(x) for x in candidates} and key != BLOCK:
            continue
        candidates.append(c)
        if len(candidates) >= DISCARDS:
            break
    blocks = [c for c in order if spec.key(c) == BLOCK]
    if blocks and spec.tiles:
        return options[blocks[0]]  # tile game: a blue or black 3 kept costs 100 when the hand ends
    if blocks and blocks[0] not in candidates:
        candidates.append(blocks[0])
    if not spec.tiles and not seen.frozen and seen.pile_size >= FREEZE_FROM:
        twos = [c for c in order if spec.is_wild(c) and not spec.is_joker(c)]
        if twos:
            candidates.append(twos[0])
    if not candidates:
        return turn_step(spec, seen, moves, plan, 3, rng)
    if candidates[0] != order[0]:
        candidates.insert(0, order[0])
    seat = seen.seat

    def throwing(card):
        def play(h):
            h.discard(seat, card)
            if not h.over:
                h.next_turn()
        return play

    best = best_of(spec, seen, view, [throwing(c) for c in candidates], rng, budget)
    return options[candidates[best]]
