"""Level 3 « Expert » of the partnership Canastas (engine.bots.canasta): the Confirmé's planner, plus
judgement about the pile, canastas and going out. Deterministic given the view and the rng.

- The pile: takes it whenever the rules allow and it holds 2 cards or more (or it opens the team);
  throws the card the next opponent is least likely to take the pile with, the risk weighed by the
  pile's size; in the card game freezes an open pile of `FREEZE_FROM` cards or more with a 2 when
  every other discard is risky; in the tile game keeps a blue or black 3 (it blocks the pile for one
  turn) for a pile of `BLOCK_FROM` tiles or more, unless the hand may end soon (each costs 100).
- Canastas: closes them with wilds, but keeps a clean meld of 5 or 6 naturals clean while enough of its
  naturals are unseen and the team already owns a canasta.
- Going out: when it can, it goes out if the opponents hold many cards (`OPPONENTS_LARGE`), own a
  canasta (they could go out first), or the stock runs low; otherwise, while its partner holds many
  cards or a meld of the team is one or two cards from a canasta, it keeps a card and plays on.
- « Partenaire, puis-je sortir ? » (card game): it asks when it wants to go out while its partner
  holds `ASK_FROM` cards or more (the partner knows what they are worth), and obeys the answer. Asked,
  it answers « non » when its own hand would cost the team `ANSWER_NO_FROM` points or more and the
  opponents are not threatening to go out, « oui » otherwise.
"""

from __future__ import annotations

from engine.bots.base import Moves
from engine.bots.canasta import (
    BLOCK,
    Planner,
    Seen,
    Spec,
    Style,
    answer,
    discard_order,
    is_draw,
    take_chance,
    turn_step,
    unseen_counts,
)

FREEZE_FROM = 7  # pile size from which the expert freezes an open pile with a 2
FREEZE_RISK = 0.35  # ... when its safest other discard gives the next opponent this chance to take it
BLOCK_FROM = 5  # tile game: pile size from which a kept blue/black 3 is thrown to block it
OPPONENTS_LARGE = 7  # opponents' cards (together) from which going out is always worth it
LOW_STOCK = 12  # stock from which the expert goes out whenever it can
ASK_FROM = 5  # partner's cards from which the expert asks before going out
ANSWER_NO_FROM = 120  # own hand points from which the expert answers « non »
HOLD_PARTNER = 7  # partner's cards from which the expert prefers to play on


def decide(spec: Spec, seen: Seen, moves: Moves, rng, budget) -> dict:
    if moves.has("answer_go_out"):
        return answer(moves, partner_answer(spec, seen))
    if is_draw(moves):
        return draw_choice(spec, seen, moves)
    return meld_phase(spec, seen, moves, rng)


# ---------------------------------------------------------------- drawing


def draw_choice(spec: Spec, seen: Seen, moves: Moves) -> dict:
    fallback = moves.first("draw_stock") or moves.first("pass") or moves.legal[0]
    take = moves.first("take_pile")
    if take is None:
        return fallback
    if seen.pile_size >= 2 or not seen.opened_before or not moves.has("draw_stock"):
        return take
    return fallback


# ---------------------------------------------------------------- the rest of the turn


def style_for(seen: Seen) -> Style:
    keep_clean = seen.team_canasta and seen.stock > LOW_STOCK
    return Style(keep_clean=keep_clean)


def meld_phase(spec: Spec, seen: Seen, moves: Moves, rng) -> dict:
    planner = Planner(spec, style_for(seen))
    out_plan = planner.plan(seen, may_go_out=True)
    can_out = out_plan.canasta and len(out_plan.left) <= 1
    if seen.permission == "no":
        plan = planner.plan(seen, may_go_out=False)
    elif seen.permission == "yes":
        plan = out_plan
    elif can_out:
        if should_go_out(spec, seen, out_plan):
            if moves.has("ask_go_out") and seen.counts.get(seen.partner, 0) >= ASK_FROM:
                return moves.first("ask_go_out")
            plan = out_plan
        else:
            plan = planner.plan(seen, may_go_out=False)
    else:
        plan = planner.plan(seen, may_go_out=False) if not out_plan.canasta else out_plan
    discard = None
    if plan.left and not plan.actions:
        discard = expert_discard(spec, seen, plan.left, moves)
    return turn_step(spec, seen, moves, plan, 3, rng, discard=discard)


def near_canastas(seen: Seen) -> int:
    return sum(1 for m in seen.mine if 5 <= m.size < 7)


def should_go_out(spec: Spec, seen: Seen, plan) -> bool:
    """Whether going out now is worth more than playing on."""
    if seen.opponents_count() >= OPPONENTS_LARGE or seen.their_canasta or seen.stock <= LOW_STOCK:
        return True
    partner = seen.counts.get(seen.partner, 0)
    if partner >= HOLD_PARTNER:
        return False
    return near_canastas(seen) == 0


def partner_answer(spec: Spec, seen: Seen) -> str:
    """« Partenaire, puis-je sortir ? » answered from this seat's own hand."""
    cost = sum(spec.hand_cost(c) for c in seen.hand)
    threatened = seen.their_canasta or seen.stock <= LOW_STOCK or seen.opponents_count() >= OPPONENTS_LARGE + 4
    if cost >= ANSWER_NO_FROM and not threatened:
        return "no"
    return "yes"


# ---------------------------------------------------------------- discarding


def expert_discard(spec: Spec, seen: Seen, left: list[str], moves: Moves) -> str | None:
    allowed = [c for c in left if c in moves.by_card("discard")]
    if not allowed:
        return None
    order = discard_order(spec, seen, allowed, 3)
    unseen, pool = unseen_counts(spec, seen)
    plain = [c for c in order if not spec.is_wild(c) and spec.key(c) != BLOCK]
    risk = take_chance(spec, seen, plain[0], unseen, pool) if plain else 0.0
    if not spec.tiles:
        twos = sorted(c for c in allowed if spec.is_wild(c) and not spec.is_joker(c))
        if (twos and not seen.frozen and seen.their_opened and seen.pile_size >= FREEZE_FROM
                and risk >= FREEZE_RISK and len(left) >= 3):
            return twos[0]
        return order[0]
    blocks = [c for c in allowed if spec.key(c) == BLOCK]
    if blocks and plain:
        soon = seen.their_canasta or seen.stock <= LOW_STOCK or seen.pile_size >= BLOCK_FROM or risk >= FREEZE_RISK
        if not soon:
            return plain[0]
    return order[0]
