"""Levels 1 « Débutant » and 2 « Confirmé » of the partnership Canastas (the levels and the adapter:
`engine.bots.canasta`): the two rule sets (`Spec`), what a seat sees (`Seen`), the turn planner (`Planner`,
its exhaustive search for a way out), the discard orders, and the moves of a planned turn. The Expert
(`engine.bots.canasta.expert`) and its playouts (`engine.bots.canasta.rollout`) build on them.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cache

from engine import games as _games
from engine.bots.base import Moves

SLUGS = ("canasta", "canasta-tuiles")
DANGER_WEIGHT = {1: 0.0, 2: 0.5, 3: 1.5}  # points per pile card a discard risks giving the next opponent
SAFE_LAID_OFF = True  # level 3, tiles: a rank the opponents have melded is a safe discard (`take_chance`)
LAID_OFF_PAIR = 0.1
SHED_VALUE_EXPERT = 0.5  # level 3, tiles: throws high pieces sooner (static bench vs level 2: 55 % of 1,000 matches)
BEGINNER_SLIP = 0.25  # level 1 throws a random loose card this often
BLOCK = "3B"  # key of a blocking 3 (black 3s, blue and black 3-tiles)
CANASTA = 7  # pieces in a canasta
OUT_NODES = 4000  # search nodes at most when looking for a way to go out


# ---------------------------------------------------------------- the two rule sets


class Spec:
    """What the bots need of one rule set, read from its engine (`engine.games._canasta`), with the
    per-piece tables precomputed (the expert's playouts ask them often)."""

    def __init__(self, slug: str, game):
        self.slug = slug
        self.game = game
        P = game.P
        self.P = P
        self.tiles = P.kind == "tiles"
        self.go_out_action = game.rules.go_out_action
        self.deck_size = len(P.deck)
        self.wilds = frozenset(c for c in P.deck if P.is_wild(c))
        self.jokers = frozenset(c for c in P.deck if P.rank[c] == P.joker_rank)
        self.keys = {c: (None if c in self.wilds or c in P.bonus_threes else BLOCK if c in P.block_threes
                         else P.rank[c]) for c in P.deck}
        self.values = dict(P.value)
        self.costs = {c: P.value[c] + (game.rules.black3_in_hand if c in P.block_threes else 0) for c in P.deck}
        self.natural_keys = tuple(sorted({k for k in self.keys.values() if k not in (None, BLOCK)}))

    def is_wild(self, c: str) -> bool:
        return c in self.wilds

    def is_joker(self, c: str) -> bool:
        return c in self.jokers

    def key(self, c: str) -> str | None:
        """The rank a natural piece melds as; BLOCK for a blocking 3; None for a wild or a bonus 3."""
        return self.keys[c]

    def value(self, c: str) -> int:
        return self.values[c]

    def hand_cost(self, c: str) -> int:
        """What a piece left in hand costs its team at the end of the hand."""
        return self.costs[c]

    def valid(self, key: str, pieces) -> bool:
        """Whether `pieces` (all of a meld's, laid and added) make a valid meld of rank `key`."""
        return self.game.meld_error(key, list(pieces)) is None

    def wild_in(self, key: str, c: str) -> bool:
        """A wild of a meld of `key` (in the tile game's meld of 2s only the joker tiles are wild)."""
        return c in self.jokers if key == "2" else c in self.wilds

    def copies(self, key: str) -> int:
        """How many naturals of a rank the deck holds."""
        return 8


@cache
def spec_of(slug: str) -> Spec:
    return Spec(slug=slug, game=_games.get(slug))


# ---------------------------------------------------------------- what the view says


@dataclass
class Meld:
    id: str  # "" for a meld this plan creates
    key: str
    pieces: list[str]
    wilds: int

    @property
    def size(self) -> int:
        return len(self.pieces)

    @property
    def naturals(self) -> int:
        return len(self.pieces) - self.wilds

    @property
    def canasta(self) -> bool:
        return len(self.pieces) >= CANASTA

    @property
    def clean(self) -> bool:
        return self.wilds == 0


@dataclass
class Seen:
    """One seat's view, in the shape the bots use."""

    seat: int
    phase: str
    hand: list[str]  # after the staged actions
    mine: list[Meld]  # the team's melds, staged ones included
    theirs: list[Meld]
    opened_before: bool  # the team had made its first meld before this turn's staged actions
    minimum: int
    staged_points: int  # points staged this turn (toward the minimum)
    staged: bool
    top: str | None
    pile_size: int
    frozen: bool  # card game: the pile holds a wild or a red 3
    their_opened: bool
    stock: int
    counts: dict[int, int]  # hand counts by seat (committed)
    permission: str | None  # the partner's answer this turn: "yes", "no" or None
    direction: int

    @property
    def opened(self) -> bool:
        """No minimum to reach any more (the team has melded, or this turn's staged melds reach it)."""
        return self.opened_before or (self.staged and self.staged_points >= self.minimum)

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def next_seat(self) -> int:
        return (self.seat + self.direction) % 4

    @property
    def team_canasta(self) -> bool:
        return any(m.canasta for m in self.mine)

    @property
    def their_canasta(self) -> bool:
        return any(m.canasta for m in self.theirs)

    def opponents_count(self) -> int:
        return sum(n for s, n in self.counts.items() if s % 2 != self.seat % 2)


def melds_of(spec: Spec, raw) -> list[Meld]:
    return [Meld(id=m["id"], key=m["rank"], pieces=list(m["pieces"]), wilds=int(m["wilds"])) for m in raw or []]


def seen_of(spec: Spec, view: dict) -> Seen:
    team = view["team"]
    other = "B" if team == "A" else "A"
    teams = view["teams"]
    staged = view.get("staged") or None
    pile = view.get("pile") or {}
    return Seen(
        seat=view["seat"], phase=view["phase"], hand=list(view.get("hand") or []),
        mine=melds_of(spec, staged["melds_after"] if staged else teams[team]["melds"]),
        theirs=melds_of(spec, teams[other]["melds"]),
        opened_before=bool(teams[team]["melded"]), minimum=int(teams[team]["minimum"]),
        staged_points=int(staged["points"]) if staged else 0, staged=bool(staged),
        top=pile.get("top"), pile_size=int(pile.get("size") or 0), frozen=bool(pile.get("frozen")),
        their_opened=bool(teams[other]["melded"]), stock=int(view.get("stock_count") or 0),
        counts=dict(enumerate(view.get("hand_counts") or [])), permission=view.get("permission"),
        direction=int(view.get("direction") or 1),
    )


# ---------------------------------------------------------------- planning the rest of a turn


@dataclass
class Plan:
    actions: list[dict]
    left: list[str]
    canasta: bool  # the team owns a canasta after these actions


@dataclass(frozen=True)
class Style:
    """How a level melds."""

    open_with_wilds: bool = True  # wilds may help reach the minimum (pairs with a wild, wilds added)
    close_from: int = 4  # smallest meld a level closes into a canasta with wilds
    shed: bool = False  # also meld pairs with a wild and lay spare wilds off (pieces safe from going out)
    keep_pairs: bool = False  # keep a natural pair of a rank its team has melded (to take the pile with)


class Planner:
    """Plans the table actions of the rest of a turn: first meld, lay-offs, new melds, canastas closed
    with wilds and, when going out, everything that still fits."""

    def __init__(self, spec: Spec, style: Style):
        self.spec = spec
        self.style = style

    def groups(self, hand) -> tuple[dict[str, list[str]], list[str], list[str]]:
        """Naturals by rank, wilds (lowest value first) and blocking 3s."""
        spec = self.spec
        naturals: dict[str, list[str]] = {}
        wilds, blocks = [], []
        for c in spec.P.sort(hand):
            k = spec.key(c)
            if k is None:
                if spec.is_wild(c):
                    wilds.append(c)
            elif k == BLOCK:
                blocks.append(c)
            else:
                naturals.setdefault(k, []).append(c)
        wilds.sort(key=lambda c: (spec.value(c), spec.P.order[c]))
        return naturals, wilds, blocks

    # -- the first meld

    def opening(self, hand, need: int, mine: list[Meld]) -> list[dict] | None:
        """Actions from the hand whose pieces are worth `need` (new melds; lay-offs onto this turn's staged
        melds), leaving what the turn needs; None if the hand cannot."""
        spec = self.spec
        naturals, wilds, _ = self.groups(hand)
        by_key = {m.key: m for m in mine}
        actions, total = [], 0
        for k, cs in naturals.items():
            if k in by_key:
                actions.append({"action": "lay_off", "cards": list(cs), "meld_id": by_key[k].id})
                total += sum(spec.value(c) for c in cs)
            elif len(cs) >= 3 and spec.valid(k, cs):
                actions.append({"action": "meld", "cards": list(cs)})
                total += sum(spec.value(c) for c in cs)
        spare = list(wilds) if self.style.open_with_wilds else []
        if total < need and spare:
            pairs = sorted(((k, cs) for k, cs in naturals.items() if len(cs) == 2 and k not in by_key),
                           key=lambda kc: -sum(spec.value(c) for c in kc[1]))
            for k, cs in pairs:
                if total >= need or not spare:
                    break
                if spec.valid(k, [*cs, spare[0]]):
                    w = spare.pop(0)
                    actions.append({"action": "meld", "cards": [*cs, w]})
                    total += sum(spec.value(c) for c in cs) + spec.value(w)
            for a in actions:
                if a["action"] != "meld":
                    continue
                k = spec.key(a["cards"][0])
                while total < need and spare and spec.valid(k, [*a["cards"], spare[-1]]):
                    w = spare.pop()  # the most valuable wild reaches the minimum with the fewest
                    a["cards"].append(w)
                    total += spec.value(w)
        if total < need or not actions:
            return None
        used = sum(len(a["cards"]) for a in actions)
        sizes = [len(a["cards"]) + (len(by_key[spec.key(a["cards"][0])].pieces) if a["action"] == "lay_off" else 0)
                 for a in actions]
        canasta = any(n >= CANASTA for n in sizes) or any(m.canasta for m in mine)
        left = len(hand) - used
        if left < 2 and not (canasta and left >= (0 if spec.go_out_action else 1)):
            return None
        return actions

    # -- the whole rest of the turn

    def plan(self, seen: Seen, *, may_go_out: bool = True) -> Plan:
        """The table actions of the rest of the turn, in order, and the pieces they leave.

        `may_go_out`: whether the plan may empty the hand (or leave one piece whose discard goes out).
        """
        spec = self.spec
        pool = list(seen.hand)
        mine = [Meld(m.id, m.key, list(m.pieces), m.wilds) for m in seen.mine]
        actions: list[dict] = []
        if not seen.opened:
            need = max(0, seen.minimum - seen.staged_points)
            first = self.opening(pool, need, mine)
            if first is None:
                return Plan([], pool, any(m.canasta for m in mine))
            by_key = {m.key: m for m in mine}
            for a in first:
                k = spec.key(a["cards"][0])
                if a["action"] == "lay_off":
                    self._lay(actions, by_key[k], a["cards"], pool)
                else:
                    self._meld(actions, mine, a["cards"], pool)
        if may_go_out:
            out = self.going_out(seen)
            if out is not None:
                return out
        self._naturals(actions, mine, pool, may_go_out)
        self._close(seen, actions, mine, pool, may_go_out)
        if may_go_out and any(m.canasta for m in mine):
            self._naturals(actions, mine, pool, may_go_out)
            self._dump(actions, mine, pool)
        elif self.style.shed and seen.opened:
            self._dump(actions, mine, pool, floor=2)
        return Plan(actions, pool, any(m.canasta for m in mine))

    # -- going out: every way of placing the last pieces

    def going_out(self, seen: Seen) -> Plan | None:
        """The best way to go out this turn, or None when there is none.

        Exhaustive (bounded by `OUT_NODES`): which piece is left for the discard (none: `go_out`, where the
        rules have it), then every split of the wilds between the team's melds and the new melds the hand's
        naturals make (in the tile game the 2s may also be the naturals of a meld of 2s), each meld valid as
        the engine checks it; a canasta after the turn; the minimum when the team must still open (or, in
        the card game, a concealed going out). The best split has the most points laid plus canasta bonuses."""
        spec = self.spec
        hand = list(seen.hand)
        if not hand:
            return None
        naturals, wilds, blocks = self.groups(hand)
        by_key = {m.key: m for m in seen.mine}
        # quick refusals: loose naturals with no meld of their rank can only be the discard
        loose = sum(1 for k, cs in naturals.items() if len(cs) == 1 and k not in by_key)
        pairs = sum(1 for k, cs in naturals.items() if len(cs) == 2 and k not in by_key)
        if blocks and not (spec.game.rules.black_three_meld and 3 <= len(blocks) <= 4):
            loose += len(blocks)
        if loose > 1 or pairs > len(wilds) + 1:
            return None
        choices: list[str | None] = [None] if spec.go_out_action else []
        seen_kinds = set()
        for c in hand:
            kind = (spec.key(c), spec.is_joker(c), spec.value(c))
            if kind not in seen_kinds:
                seen_kinds.add(kind)
                choices.append(c)
        best = None
        for left in choices:
            pool = list(hand)
            if left is not None:
                pool.remove(left)
            found = self._place_all(seen, pool)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], left)
        if best is None:
            return None
        _, placed, left = best
        actions: list[dict] = []
        for m, use in placed:
            if m.id:
                actions.append({"action": "lay_off", "cards": use, "meld_id": m.id})
        actions = [{"action": "meld", "cards": use} for m, use in placed if not m.id] + actions
        return Plan(actions, [left] if left is not None else [], True)

    def _place_all(self, seen: Seen, pool: list[str]):
        """(score, [(meld, pieces added)]) placing every piece of `pool`, or None."""
        spec = self.spec
        rules = spec.game.rules
        naturals, wilds, blocks = self.groups(pool)
        by_key = {m.key: m for m in seen.mine}
        targets: list[tuple[Meld, list[str]]] = []  # (meld, naturals from the hand)
        for k, cs in naturals.items():
            if k in by_key:
                targets.append((by_key[k], list(cs)))
            elif len(cs) >= 2:
                targets.append((Meld("", k, [], 0), list(cs)))
            else:
                return None
        for m in seen.mine:
            if m.key not in naturals and m.key != "3":
                targets.append((m, []))
        fixed: list[tuple[Meld, list[str]]] = []
        if blocks:
            if not (rules.black_three_meld and 3 <= len(blocks) <= 4):
                return None
            fixed.append((Meld("", "3", [], 0), list(blocks)))
        twos = [c for c in wilds if not spec.is_joker(c)]
        jokers = [c for c in wilds if spec.is_joker(c)]
        if spec.tiles and "2" not in by_key:
            targets.append((Meld("", "2", [], 0), []))  # a new meld of 2s
        # most constrained first: new melds (need wilds or not), then the melds that may close a canasta
        targets.sort(key=lambda t: (bool(t[0].id), -(t[0].size + len(t[1]))))
        value = sum(spec.value(c) for c in pool)
        opened_before = seen.opened_before
        need = 0 if seen.opened else seen.minimum - seen.staged_points
        concealed = rules.concealed is not None and not opened_before
        state = {"best": None, "nodes": 0}
        chosen: list[tuple[Meld, list[str]]] = []

        def finish():
            metas = chosen + fixed
            canasta = any(m.canasta for m in seen.mine)
            bonus = 0
            for m, use in metas:
                after = m.pieces + use
                if len(after) >= CANASTA:
                    canasta = True
                    kind_after = spec.game.meld_kind(m.key, after)
                    kind_before = spec.game.meld_kind(m.key, m.pieces)
                    bonus += rules.bonus.get(kind_after, 0) - rules.bonus.get(kind_before, 0) if kind_before \
                        else rules.bonus.get(kind_after, 0)
            if not canasta:
                return
            if value < need and not (concealed and any(not m.id and len(use) >= CANASTA for m, use in metas)
                                     or concealed and any(m.canasta for m in seen.mine)):
                return
            score = value + bonus
            if state["best"] is None or score > state["best"][0]:
                state["best"] = (score, [(m, list(use)) for m, use in metas if use])

        def walk(i: int, t2: int, tj: int):
            state["nodes"] += 1
            if state["nodes"] > OUT_NODES:
                return
            r2, rj = len(twos) - t2, len(jokers) - tj
            if i == len(targets):
                if r2 == 0 and rj == 0:
                    finish()
                return
            m, nat = targets[i]
            key = m.key
            twos_meld = key == "2"
            cap = len(twos) if twos_meld else rules.max_wilds
            for a in range(min(r2, cap), -1, -1):
                for b in range(min(rj, rules.max_wilds), -1, -1):
                    use = nat + twos[t2:t2 + a] + jokers[tj:tj + b]
                    if not use:
                        if not m.id and not twos_meld and nat:
                            continue
                        walk(i + 1, t2, tj)
                        continue
                    if not spec.valid(key, m.pieces + use):
                        continue
                    chosen.append((m, use))
                    walk(i + 1, t2 + a, tj + b)
                    chosen.pop()

        walk(0, 0, 0)
        return state["best"]

    def floor(self, mine: list[Meld], may_go_out: bool) -> int:
        """Pieces the table actions must leave in hand."""
        if may_go_out and any(m.canasta for m in mine):
            return 0 if self.spec.go_out_action else 1
        return 2

    def _naturals(self, actions, mine, pool, may_go_out):
        """Naturals onto the team's melds of their rank, then new melds of three naturals or more."""
        spec = self.spec
        naturals, _, _ = self.groups(pool)
        for k, cs in sorted(naturals.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            target = next((m for m in mine if m.key == k), None)
            room = len(pool) - self.floor(mine, may_go_out)
            if target is not None:
                if self.style.keep_pairs and len(cs) == 2 and not target.canasta and target.size < CANASTA - 2:
                    continue
                use = cs[:max(0, room)]
                if use and spec.valid(k, target.pieces + use):
                    self._lay(actions, target, use, pool)
            elif len(cs) >= 3 and room >= 3:
                use = cs[:room]
                if spec.valid(k, use):
                    self._meld(actions, mine, use, pool)

    def _close(self, seen, actions, mine, pool, may_go_out):
        """Wilds that turn a meld into a canasta."""
        spec = self.spec
        for m in sorted(mine, key=lambda m: -m.size):
            if m.canasta or m.size < self.style.close_from:
                continue
            missing = CANASTA - m.size
            spare = self.groups(pool)[1]
            after = (0 if spec.go_out_action else 1) if may_go_out else 2  # the team owns a canasta then
            if len(spare) < missing or len(pool) - missing < after:
                continue
            use = spare[:missing]
            if not spec.valid(m.key, m.pieces + use):
                continue
            self._lay(actions, m, use, pool)

    def _dump(self, actions, mine, pool, floor: int | None = None):
        """Going out (or shedding down to `floor` pieces): pairs with a wild, wilds wherever they fit (a
        clean canasta kept clean when shedding), a black-3 meld (cards) last."""
        spec = self.spec
        shedding = floor is not None
        if floor is None:
            floor = 0 if spec.go_out_action else 1
        naturals, wilds, blocks = self.groups(pool)
        for k, cs in naturals.items():
            if len(cs) == 2 and not any(m.key == k for m in mine) and wilds and len(pool) - 3 >= floor \
                    and spec.valid(k, [*cs, wilds[0]]):
                self._meld(actions, mine, [*cs, wilds.pop(0)], pool)
        for w in list(wilds):
            if len(pool) - 1 < floor:
                return
            for m in sorted(mine, key=lambda m: -m.size):
                if shedding and m.canasta and m.clean:
                    continue
                if spec.valid(m.key, [*m.pieces, w]):
                    self._lay(actions, m, [w], pool)
                    break
        blocks = [c for c in pool if spec.key(c) == BLOCK]
        if not shedding and spec.go_out_action and 3 <= len(blocks) <= 4 and len(pool) == len(blocks) \
                and spec.valid("3", blocks):
            self._meld(actions, mine, blocks, pool)

    def _meld(self, actions, mine, use, pool):
        spec = self.spec
        use = list(use)
        nat = [c for c in use if not spec.is_wild(c)]
        key = spec.P.rank[nat[0]] if nat else "2"
        m = Meld("", key, use, sum(spec.wild_in(key, c) for c in use))
        mine.append(m)
        actions.append({"action": "meld", "cards": m.pieces})
        for c in use:
            pool.remove(c)

    def _lay(self, actions, m: Meld, use, pool):
        """Lay `use` on `m`: a lay-off on a meld already on the table (or staged), else into this plan's meld."""
        use = list(use)
        if m.id:
            actions.append({"action": "lay_off", "cards": use, "meld_id": m.id})
            m.pieces = m.pieces + use
        else:
            m.pieces.extend(use)  # the plan's meld action holds this very list
        m.wilds += sum(self.spec.wild_in(m.key, c) for c in use)
        for c in use:
            pool.remove(c)


# ---------------------------------------------------------------- discards


def unseen_counts(spec: Spec, seen: Seen) -> tuple[Counter, int]:
    """Naturals of each rank this seat has not seen (in other hands, the stock, under the pile's top),
    and how many pieces are unseen in all."""
    pieces = list(seen.hand)
    for m in seen.mine + seen.theirs:
        pieces += m.pieces
    if seen.top is not None:
        pieces.append(seen.top)
    keys = spec.keys
    known = Counter(keys[c] for c in pieces)
    unseen = Counter({k: max(0, 8 - known[k]) for k in spec.natural_keys})
    unseen["*"] = len(spec.wilds) - sum(1 for c in pieces if c in spec.wilds)
    return unseen, max(1, spec.deck_size - len(pieces))


def p_pair(u: int, pool: int, hand: int) -> float:
    """Chance that a hand of `hand` pieces dealt from `pool` unseen ones holds 2 or more of `u` given ones."""
    if u < 2 or hand < 2:
        return 0.0
    hand = min(hand, pool)
    total = math.comb(pool, hand)
    p0 = math.comb(pool - u, hand) / total
    p1 = u * math.comb(pool - u, hand - 1) / total
    return max(0.0, 1.0 - p0 - p1)


def p_one(u: int, pool: int, hand: int) -> float:
    """Chance of holding at least one of `u` given pieces."""
    if u < 1 or hand < 1:
        return 0.0
    hand = min(hand, pool)
    return 1.0 - math.comb(pool - u, hand) / math.comb(pool, hand)


def take_chance(spec: Spec, seen: Seen, c: str, unseen: Counter, pool: int, laid_off: bool = False) -> float:
    """Chance that the next opponent can take the pile with `c` on top.

    `laid_off` (the expert, tile game): a player whose team has melded a rank lays its naturals off, so
    he rarely holds a pair of it (`LAID_OFF_PAIR` of the chance is left: the pieces a small hand keeps)."""
    k = spec.key(c)
    if k is None or k == BLOCK:
        return 0.0
    hand = seen.counts.get(seen.next_seat, 11)
    u = unseen.get(k, 0)
    pair = p_pair(u, pool, hand)
    if laid_off and spec.tiles and any(m.key == k for m in seen.theirs):
        return pair * LAID_OFF_PAIR
    if spec.tiles or seen.frozen or not seen.their_opened:
        return pair
    if any(m.key == k for m in seen.theirs):
        return 1.0
    wilds = unseen["*"]
    return max(pair, p_one(u, pool, hand) * p_one(wilds, pool, hand - 1))


def discard_order(spec: Spec, seen: Seen, left: list[str], level: int) -> list[str]:
    """The pieces of `left` best thrown first (levels 2 and 3): a blocking 3, then the loose piece the
    next opponent is least likely to take the pile with, pairs and wilds last."""
    counts: Counter = Counter(spec.key(c) for c in left)
    unseen, pool = unseen_counts(spec, seen)
    mine = {m.key for m in seen.mine}
    weight = 2.0 + seen.pile_size * (DANGER_WEIGHT[level])
    shed = SHED_VALUE_EXPERT if level >= 3 and spec.tiles else 0.1  # points of a piece kept, per point of value

    def cost(c: str) -> tuple:
        k = spec.key(c)
        if spec.is_wild(c):
            return (3, spec.value(c), spec.P.order[c])
        if k == BLOCK:
            return (0, 0.0, spec.P.order[c])
        keep = 0.0
        if k in mine:
            keep += 15.0  # it will be laid off
        n = counts[k]
        if n >= 2:
            keep += 10.0 * min(n, 3)  # a pair takes the pile, a triple melds
        keep += 0.8 * unseen.get(k, 0)
        danger = take_chance(spec, seen, c, unseen, pool, laid_off=level >= 3 and SAFE_LAID_OFF) * weight
        return (1, keep + danger - shed * spec.value(c), spec.P.order[c])

    return sorted(left, key=cost)


def beginner_discard(spec: Spec, left: list[str], rng) -> str:
    """A blocking 3, else the highest loose piece (one time in four a random one)."""
    counts = Counter(spec.key(c) for c in left)
    blocks = [c for c in left if spec.key(c) == BLOCK]
    if blocks:
        return blocks[0]
    loose = [c for c in left if not spec.is_wild(c) and counts[spec.key(c)] == 1]
    if not loose:
        loose = [c for c in left if not spec.is_wild(c)] or list(left)
    if rng.random() < BEGINNER_SLIP:
        return rng.choice(loose)
    top = max(spec.value(c) for c in loose)
    return rng.choice([c for c in loose if spec.value(c) == top])


# ---------------------------------------------------------------- the levels


STYLES = {
    1: Style(open_with_wilds=False, close_from=6),
    2: Style(),
}


def basic_decide(spec: Spec, seen: Seen, moves: Moves, level: int, rng) -> dict:
    if moves.has("answer_go_out"):
        return answer(moves, "yes")
    if is_draw(moves):
        return draw_choice(spec, seen, moves, level)
    plan = Planner(spec, STYLES[level]).plan(seen)
    return turn_step(spec, seen, moves, plan, level, rng)


def is_draw(moves: Moves) -> bool:
    return any(moves.has(a) for a in ("draw_stock", "take_pile", "pass", "take_joker"))


def answer(moves: Moves, word: str) -> dict:
    for m in moves.by_action.get("answer_go_out", []):
        if m.get("answer") == word:
            return m
    return moves.by_action["answer_go_out"][0]


def take_cards(take: dict) -> list[str]:
    return [p for m in take.get("melds") or [] for p in m]


def draw_choice(spec: Spec, seen: Seen, moves: Moves, level: int) -> dict:
    """Level 1: the pile only with a natural pair, from 3 cards; level 2: the pile whenever allowed."""
    fallback = moves.first("draw_stock") or moves.first("pass") or moves.legal[0]
    take = moves.first("take_pile")
    if take is None:
        return fallback
    simple = seen.pile_size >= 3 and not any(spec.is_wild(c) for c in take_cards(take))
    if level <= 1 and moves.has("draw_stock") and not simple:
        return fallback
    return take


def turn_step(spec: Spec, seen: Seen, moves: Moves, plan: Plan, level: int, rng, discard=None) -> dict:
    """The next move of a planned turn: its first table action, else going out, else the discard."""
    if plan.actions and seen.phase != "FIRST_TURN":
        return plan.actions[0]
    if moves.has("go_out"):
        return moves.first("go_out")
    options = moves.by_card("discard")
    if not options:
        if moves.has("end_turn"):
            return moves.first("end_turn")
        # the plan found nothing the commit accepts (a partner's « oui » binds to a going out the
        # engine sees): play the engine's own table moves, each of which sheds pieces
        table = [m for m in moves.legal if m["action"] in ("meld", "lay_off")]
        return table[0] if table else moves.legal[0]
    if discard in options:
        return options[discard]
    allowed = [c for c in seen.hand if c in options] or list(options)
    card = beginner_discard(spec, allowed, rng) if level <= 1 else discard_order(spec, seen, allowed, level)[0]
    return options[card]

