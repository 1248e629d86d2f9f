"""Gin showdown: an opponent's own melds plus lay-offs on the knocker's melds."""

from itertools import combinations, product

from engine.cards import sort_key
from engine.melds.arrange import Arrangement, best_arrangement
from engine.melds.compiled import compiled
from engine.melds.rules import NATURAL, WILD, MeldRules
from engine.melds.solver import deadwood
from engine.melds.validity import is_valid_meld


def best_with_layoffs(
    hand: list[str], table_melds: list[list[str]], rules: MeldRules
) -> tuple[Arrangement, list[tuple[str, int]]]:
    """The opponent's least deadwood using his own melds and lay-offs on `table_melds`.

    Lay-offs use only the opponent's cards and may chain (6 then 7 on 2-3-4-5); the table melds are
    taken as they were at the knock. Returns his arrangement of the cards he keeps (points = deadwood
    after lay-offs) and the lay-offs as (card, index of the table meld), in an order where each one
    is legal when played. Whether lay-offs are allowed at all (not after a Gin) is the caller's rule.
    A table meld holding wilds may be re-read with its wilds standing for other cards.
    """
    for meld in table_melds:
        if not is_valid_meld(meld, rules):
            raise ValueError(f"invalid table meld: {meld!r}")
    choices = [_layoff_options(hand, meld, rules) for meld in table_melds]
    best_points, best_choice = deadwood(hand, rules), ()
    for choice in product(*choices):
        used = [card for cards in choice for card in cards]
        if not used or len(set(used)) != len(used):
            continue
        rest = [card for card in hand if card not in set(used)]
        points = deadwood(rest, rules)
        if points < best_points:
            best_points, best_choice = points, choice
    used = {card for cards in best_choice for card in cards}
    arrangement = best_arrangement([card for card in hand if card not in used], rules)
    layoffs = []
    for index, cards in enumerate(best_choice):
        layoffs += [(card, index) for card in _legal_order(table_melds[index], cards, rules)]
    return arrangement, layoffs


def _layoff_options(hand: list[str], meld: list[str], rules: MeldRules) -> list[tuple[str, ...]]:
    """Every group of the hand's cards that can be added to `meld` (the empty group first)."""
    info = compiled(rules).info
    naturals = [info[c] for c in meld if info[c][0] == NATURAL]
    may_be_set = len({n[2] for n in naturals}) <= 1
    may_be_run = len({n[1] for n in naturals}) <= 1
    candidates = []
    for card in sorted(hand, key=sort_key):
        kind, suit, rank, _ = info[card]
        if kind == WILD or kind == NATURAL and (
            not naturals or (may_be_set and rank == naturals[0][2]) or (may_be_run and suit == naturals[0][1])
        ):
            candidates.append(card)
    room = max(rules.set_max if may_be_set else 0, rules.run_max if may_be_run else 0) - len(meld)
    options: list[tuple[str, ...]] = [()]
    for size in range(1, min(room, len(candidates)) + 1):
        options += [group for group in combinations(candidates, size) if is_valid_meld(meld + list(group), rules)]
    return options


def _legal_order(meld: list[str], cards: tuple[str, ...], rules: MeldRules) -> list[str]:
    """Order the lay-offs so the meld is valid after each one (the 6 before the 7 on 2-3-4-5)."""
    current, left, order = list(meld), list(cards), []
    while left:
        card = next((c for c in left if is_valid_meld([*current, c], rules)), left[0])
        order.append(card)
        current.append(card)
        left.remove(card)
    return order
