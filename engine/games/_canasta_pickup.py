"""The pick-ups of the discard pile a partnership Canasta allows (canasta.md and canasta-tuiles.md §4, « Pick-up
rules »): what `legal_moves` offers, and why « Prendre la pile » is disabled when it offers none.

A pick-up lays the top piece `t` in the meld of its rank (the top meld: `t`, naturals of its rank from the hand
and, within the meld limits, wilds from the hand) and, for a team's first meld, further melds from the hand that
bring the total to the minimum. Naturals of one rank are interchangeable, and so are the wilds of one kind (2s;
jokers), so pick-ups are searched as counts: how many naturals of each rank, how many 2s and how many jokers. The
search is exhaustive over those counts; `check_take`, the rule `apply` uses, validates every pick-up offered.

Offered: the *minimal* legal pick-ups, those no other legal pick-up uses a part of (pieces counted per rank and
per wild kind), one arrangement each, cheapest first: fewest wilds, fewest jokers, fewest pieces, highest value.
Whatever else a player wants to lay he lays after the pick-up, in the same turn; so whenever some pick-up is legal,
at least one is offered, and a bot (which takes the first) keeps its wilds when it can.
"""

from itertools import product

from engine.base import team_of
from engine.errors import IllegalMove
from engine.games._canasta_rules import CANASTA_SIZE, MESSAGES, plural

NEED_PAIR_OR_MELD = ("Pour prendre la pile, il faut dans ta main deux pièces naturelles du même rang que celle du "
                     "dessus, ou une naturelle et un joker, ou une combinaison de ton équipe de ce rang.")
# The search visits (choices of the top meld) x (choices of each other rank) x (numbers of 2s and of jokers)
# counts. A team that has not melded holds at most 15 pieces in play (about a thousand counts at most); a rigged
# state with a huge hand could need far more: past this many, each other rank is used whole or not at all, and the
# least valuable ranks are left out (the offers may then miss some pick-ups of that state).
MAX_COMBINATIONS = 5000


def opening_short(best: int | None, minimum: int) -> str:
    """The refusal when no first meld by the pile reaches the minimum, with the best total the hand allows."""
    head = ("Pour prendre la pile avant la première pose de ton équipe, la pièce du dessus et les combinaisons "
            "de ta main doivent atteindre le minimum de première pose")
    if best is None:
        return head + "."
    return f"{head} : au mieux {best} point{plural(best)}, il en faut {minimum}."


class _Group:
    """One meld of a pick-up: its rank, the hand's naturals of that rank, the team's meld it goes onto, and for each
    number k of naturals used the interval of wilds (lo, hi) that keeps it valid."""

    __slots__ = ("rank", "naturals", "top", "twos", "options", "base_size")

    def __init__(self, rank, naturals, top, twos, options, base_size):
        self.rank, self.naturals, self.top, self.twos = rank, naturals, top, twos
        self.options, self.base_size = options, base_size


def pick_ups(game, state: dict, seat: int) -> tuple[list, str]:
    """(the offered pick-ups as `melds` lists, cheapest first; why there is none, in French, when the list is
    empty). Meant for the seat to draw (the caller checks the phase)."""
    P, R = game.P, game.rules
    block = game._pile_block(state, seat)
    if block:
        return [], MESSAGES[block]
    team = team_of(seat)
    pile = state["pile"]
    top = pile[-1]
    top_rank = P.rank[top]
    hand = P.sort(state["hands"][seat])
    strict = game._strict_take(state, team)
    melded = state["melded"][team]
    minimum = state["minimums"][team]
    rest = sum(1 for p in pile[:-1] if p not in P.bonus_threes)
    bases = {m["rank"]: m["pieces"] for m in state["melds"][team]}
    twos = [p for p in hand if P.rank[p] == "2"]
    jokers = [p for p in hand if P.rank[p] == P.joker_rank]
    v2 = P.value[twos[0]] if twos else 0
    vj = P.value[jokers[0]] if jokers else 0
    by_rank: dict = {}
    for p in hand:
        if not P.is_wild(p) and P.rank[p] != "3":
            by_rank.setdefault(P.rank[p], []).append(p)

    def group(rank, naturals, top_meld):
        base = bases.get(rank, [])
        bn = sum(1 for p in base if not game.is_wild_in(rank, p))
        bw = len(base) - bn
        extra = 1 if top_meld else 0
        most = R.max_wilds if rank != "2" else 2
        options = []
        for k in range(len(naturals) + 1):
            if top_meld:
                if strict and k < 2:
                    continue
                if k == 0 and not base:  # the top piece alone goes onto the team's meld only
                    continue
            elif k < (1 if base else 2):
                continue
            top_alone = top_meld and k == 0
            ws = [w for w in range((0 if top_alone else most) + 1)
                  if game.count_error(rank, bn + extra + k, bw + w) is None]
            if ws:
                options.append((k, min(ws), max(ws)))
        return _Group(rank, naturals, top_meld, rank == "2", options, len(base))

    first = group(top_rank, by_rank.get(top_rank, []), True)
    if not first.options:
        return [], MESSAGES["need_pair"] if strict else NEED_PAIR_OR_MELD
    # A team that has melded needs no further meld: the smallest top meld leaves it 2 pieces unless its hand and
    # the pile hold fewer than 4, and only then may a further meld (a canasta) make a pick-up legal.
    others = []
    if not melded or len(hand) + rest < 4:
        for rank, naturals in by_rank.items():
            if rank != top_rank:
                g = group(rank, naturals, False)
                if g.options:
                    others.append(g)
        if R.twos_meld and twos and top_rank != "2":
            g = group("2", twos, False)
            if g.options:
                others.append(g)
    wild_ways = (len(twos) + 1) * (len(jokers) + 1)
    if _ways(first, others, wild_ways, whole=False) > MAX_COMBINATIONS:
        # never from a deal: each other rank whole or not at all, and the least valuable ranks left out
        others.sort(key=lambda g: -P.value[g.naturals[0]] * g.options[-1][0])
        while others and _ways(first, others, wild_ways, whole=True) > MAX_COMBINATIONS:
            others.pop()
        for g in others:
            g.options = [g.options[-1]]
    groups = [first, *others]
    choices = [first.options] + [[None, *g.options] for g in others]
    canasta_now = any(len(pieces) >= CANASTA_SIZE for pieces in bases.values())
    may_go_out = state["turn"]["permission"] != "no"
    found: dict = {}
    best = None
    for combo in product(*choices):
        chosen = [(g, c) for g, c in zip(groups, combo, strict=True) if c is not None]
        nat_used = sum(c[0] for _, c in chosen)
        nat_value = P.value[top] + sum(c[0] * P.value[g.naturals[0]] for g, c in chosen if c[0])
        low = sum(c[1] for g, c in chosen if not g.twos)
        high = sum(c[2] for g, c in chosen if not g.twos)
        tw = next((c for g, c in chosen if g.twos), None)
        free_twos = len(twos) - (tw[0] if tw else 0)
        for u2 in range(free_twos + 1):
            for uj in range(len(jokers) + 1):
                wilds = u2 + uj
                if tw:  # the tiles' meld of 2s takes jokers only; the others take any wild
                    j_low, j_high = max(tw[1], wilds - high), min(tw[2], uj, wilds - low)
                else:
                    j_low, j_high = 0, 0 if low <= wilds <= high else -1
                if j_low > j_high:
                    continue
                value = nat_value + u2 * v2 + uj * vj
                best = value if best is None else max(best, value)
                if not melded and value < minimum:
                    continue
                used = nat_used + wilds
                left = len(hand) - used + rest
                aim = None
                if left < 2:
                    if not may_go_out or not (left == 1 or (left == 0 and R.go_out_action)):
                        continue
                    aim = _canasta(chosen, wilds, low, j_low, j_high, canasta_now)
                    if aim is False:
                        continue
                key = (tuple(c[0] if c else 0 for c in combo), u2, uj)
                if key not in found:
                    found[key] = (chosen, u2, uj, aim, value, used)
    if not found:
        if not melded and (best is None or best < minimum):
            return [], opening_short(best, minimum)
        return [], MESSAGES["pile_strands"]
    kept = []
    for key in sorted(found, key=lambda k: found[k][5]):
        if not any(all(a <= b for a, b in zip(k[0], key[0], strict=True)) and k[1] <= key[1] and k[2] <= key[2]
                   for k in kept):
            kept.append(key)
    kept.sort(key=lambda k: (k[1] + k[2], k[2], found[k][5], -found[k][4], k))
    out = []
    for key in kept:
        melds = _arrange(top, twos, jokers, *found[key][:4])
        try:
            game.check_take(state, seat, melds)
        except IllegalMove:
            continue
        out.append(melds)
    if not out:  # never expected: the counts above follow check_take
        return [], MESSAGES["pile_strands"]
    return out, ""


def _ways(first, others, wild_ways, whole):
    n = len(first.options) * wild_ways
    for g in others:
        n *= 2 if whole else len(g.options) + 1
    return n


def _canasta(chosen, wilds, low, j_low, j_high, canasta_now):
    """When a pick-up leaves fewer than 2 pieces, the team must own a canasta after it: True (one already),
    the group to fill with wilds first (a (group, jokers in the meld of 2s) pair), or False."""
    if canasta_now:
        return True
    for jokers_in_twos in range(j_low, j_high + 1):
        rest = wilds - jokers_in_twos
        for g, (k, lo, hi) in chosen:
            extra = 1 if g.top else 0
            held = jokers_in_twos if g.twos else min(hi, rest - (low - lo))
            size = g.base_size + extra + k + held
            if size >= CANASTA_SIZE:
                return (g, jokers_in_twos)
    return False


def _arrange(top, twos, jokers, chosen, u2, uj, aim):
    """The `melds` of a pick-up from its counts: the top meld first, each meld its naturals then its wilds."""
    jokers_in_twos = 0
    fill_first = None
    if isinstance(aim, tuple):
        fill_first, jokers_in_twos = aim
    tw = next((c for g, c in chosen if g.twos), None)
    k2 = tw[0] if tw else 0
    if tw and not isinstance(aim, tuple):
        # the fewest jokers the meld of 2s may take while the other melds can hold the remaining wilds
        high = sum(c[2] for g, c in chosen if not g.twos)
        jokers_in_twos = max(tw[1], u2 + uj - high)
    pool = twos[k2:k2 + u2] + jokers[jokers_in_twos:uj]  # 2s before jokers
    plain = [(g, c) for g, c in chosen if not g.twos]
    counts = {id(g): lo for g, (k, lo, hi) in plain}
    spare = len(pool) - sum(counts.values())
    order = sorted(plain, key=lambda gc: gc[0] is not fill_first)
    for g, (_k, lo, hi) in order:
        more = min(hi - lo, spare)
        counts[id(g)] += more
        spare -= more
    melds = []
    at = 0
    for g, (k, _lo, _hi) in chosen:
        if g.twos:
            melds.append(twos[:k] + jokers[:jokers_in_twos])
            continue
        n = counts[id(g)]
        wild = pool[at:at + n]
        at += n
        melds.append(([top] if g.top else []) + g.naturals[:k] + wild)
    return melds
