"""The Expert's rollouts (`engine.bots.table_meld.expert`): the rest of a round in one determinized deal.

`Rollout` plays every seat with a fast greedy policy on the light table model (`geometry`, `quick_melds`
of this package): take the discard when it melds or lays off, lay down (an opening only when it reaches
the threshold), lay off what fits keeping a card to discard, throw the loosest card; the exact solver is
never called. `Rollout.apply_plan` puts this seat's level-2 lay-down on the rollout's table, and
`utility` scores the round's end as the match counts it: penalties, « main lisse » ×2, Going Rami +25,
chasse +25, eliminations at the point limit, reaching the target first, or simply winning the round in a
one-round match.
"""

from engine import cards
from engine.bots.table_meld.basic import Seen, single_round, value_weight
from engine.bots.table_meld.geometry import Geometry, SimMeld
from engine.bots.table_meld.quick_melds import QuickMelds, QuickPlan

ROUND_STAKE = 50.0  # one-round matches: utility of winning the round (the points only break ties)
LIMIT_STAKE = 100.0  # utility of pushing an opponent over the point limit (or going over)
TARGET_STAKE = 100.0  # Rami traditionnel: utility of reaching the target first
MAX_TURNS = 60  # turns played at most in one rollout (then scored from the hands)
PARTNER_WEIGHT = 4  # rollout policy: a loose card's partial melds count this much against its value


class Rollout:
    """The rest of a round in one determinized deal, every seat playing the fast greedy policy."""

    def __init__(self, geo: Geometry, quick: QuickMelds, seen: Seen, hands: dict, stock: list, rng):
        self.g = geo
        self.spec = geo.spec
        self.seen = seen
        self.rng = rng
        self.hands = {s: list(h) for s, h in hands.items()}
        self.hands[seen.seat] = list(seen.hand)
        self.table = [SimMeld.of(m.reading) for m in seen.table]
        threshold = self.spec.threshold
        self.opened = {s: threshold is None or seen.opened[s] for s in self.hands}
        if seen.staged and seen.can_act:
            self.opened[seen.seat] = True
        self.pile = list(seen.pile)
        self.stock = list(stock)
        self.rebuilt = bool(seen.view.get("stock_rebuilds"))  # §9: one rebuild a round, then the round stops
        self.order = [*seen.opponents(), seen.seat]  # turn order after this seat's turn
        self.held: dict[int, set] = {}
        self.version = 0  # table changes, for `layoffs`
        self.looked: dict[int, int] = {}
        self.quick = quick
        self.keep = not self.spec.go_out
        self.weight = value_weight(seen)  # a one-round match is a race: the points left matter little

    # -- the policy

    def draw(self) -> str | None:
        if not self.stock:
            if self.rebuilt or len(self.pile) < 2:
                return None
            self.rebuilt = True
            rest = self.pile[:-1]
            self.rng.shuffle(rest)
            self.stock = rest
            self.pile = self.pile[-1:]
        return self.stock.pop()

    def wants(self, p: int, top: str) -> bool:
        g = self.g
        hand = self.hands[p]
        if self.opened[p]:
            if any(g.fits(m, top) for m in self.table):
                return True
            if not g.makes_meld(top, hand):
                return False
            plan = self.quick.plan([*hand, top], "penalty", top, self.keep)
            return any(top in m[0] for m in plan.melds)
        if not g.makes_meld(top, hand):
            return False
        plan = self.quick.plan([*hand, top], "points", top, self.keep)
        return plan.points >= self.spec.threshold and any(top in m[0] for m in plan.melds)

    def turn(self, p: int, source: str | None = None) -> int | None:
        """Seat `p` plays a whole turn; the winner's seat if he went out, -1 if the round stalls."""
        hand = self.hands[p]
        top = self.pile[-1] if self.pile else None
        if source is None:
            source = "take" if top is not None and self.wants(p, top) else "stock"
        taken = None
        if source == "take" and top is not None:
            card = self.pile.pop()
            taken = card
        else:
            card = self.draw()
            if card is None:
                return -1
        was_opened = self.opened[p]
        hand.append(card)
        used_existing = self.act(p, card, taken)
        return self.end_turn(p, taken, was_opened, used_existing)

    def end_turn(self, p: int, taken, was_opened: bool, used_existing: bool) -> int | None:
        hand = self.hands[p]
        if not hand:
            return self.out(p, was_opened, used_existing)
        throw = self.pick_discard(p, taken)
        hand.remove(throw)
        self.pile.append(throw)
        if not hand:
            return self.out(p, was_opened, used_existing)
        return None

    def held_melds(self, p: int) -> set:
        """Cards of the melds a seat not yet opened keeps in hand (found once, then kept up to date)."""
        held = self.held.get(p)
        if held is None:
            plan = self.quick.plan(self.hands[p], "penalty")
            held = self.held[p] = {c for m in plan.melds for c in m[0]}
        return held

    def act(self, p: int, card: str, taken) -> bool:
        """Table actions after drawing `card`; True if a meld already on the table was used."""
        spec = self.spec
        g = self.g
        hand = self.hands[p]
        if not self.opened[p]:
            held = self.held_melds(p)
            if not g.makes_meld(card, hand):
                return False
            plan = self.quick.plan(hand, "penalty", taken, self.keep)
            if plan.points < spec.threshold:
                points = self.quick.plan(hand, "points", taken, self.keep)
                if points.points < spec.threshold:
                    held.clear()
                    held.update(c for m in plan.melds for c in m[0])
                    return False
                plan = points
            self.lay_melds(p, plan)
            self.opened[p] = True
            self.held.pop(p, None)
            return self.layoffs(p, taken)
        if g.makes_meld(card, hand):
            plan = self.quick.plan(hand, "penalty", taken, self.keep)
            if plan.melds:
                self.lay_melds(p, plan)
                return self.layoffs(p, taken)
        return self.layoffs(p, taken, card)

    def lay_melds(self, p: int, plan: QuickPlan) -> None:
        hand = self.hands[p]
        for group, kind, suit, low, high, suits in plan.melds:
            for c in group:
                hand.remove(c)
            self.table.append(SimMeld(kind, suit, low, high, len(group), set(suits)))
            self.version += 1

    def layoffs(self, p: int, taken, card=None) -> bool:
        """Lay off what fits (jokers last), keeping a card to discard; when the table has not changed since
        this seat's last look, only the new `card` can fit."""
        hand = self.hands[p]
        g = self.g
        keep = not self.spec.go_out
        used = False
        if card is not None and self.looked.get(p) == self.version:
            candidates = [card] if card in hand else []
        else:
            candidates = sorted(hand, key=lambda c: g.info[c][0] < 0)
        while candidates and hand:
            laid = None
            for c in candidates:
                rest = [x for x in hand if x != c and x != taken]
                if not rest and (keep or len(hand) > 1):
                    continue  # keep a card to discard (the taken card may not be thrown)
                for meld in self.table:
                    where = g.fits(meld, c)
                    if where:
                        g.lay(meld, c, where)
                        hand.remove(c)
                        laid = c
                        break
                if laid:
                    break
            if laid is None:
                break
            used = True
            self.version += 1
            candidates = sorted(hand, key=lambda c: g.info[c][0] < 0)
        self.looked[p] = self.version
        return used

    def pick_discard(self, p: int, taken) -> str:
        hand = self.hands[p]
        g = self.g
        pool = [c for c in hand if c != taken] or list(hand)
        if not self.opened[p] and len(pool) > 1:
            held = self.held_melds(p)
            loose = [c for c in pool if c not in held]
            if loose:
                pool = loose
        naturals = [c for c in pool if g.info[c][0] >= 0] or pool
        weight = self.weight
        return max(naturals, key=lambda c: (weight * g.info[c][2] - PARTNER_WEIGHT * g.partners(c, hand),
                                            cards.sort_key(c)))

    # -- this seat's candidate lay-down

    def apply_plan(self, plan) -> bool:
        """This seat's planned table actions, on the rollout's table (ids by position)."""
        hand = self.hands[self.seen.seat]
        ids = [m.id for m in self.seen.table]
        used = False
        for action in plan.actions:
            kind = action["action"]
            if kind == "meld":
                reading = action["_reading"]
                for c in reading.cards:
                    hand.remove(c)
                self.table.append(SimMeld.of(reading))
                ids.append(f"M{len(ids) + 1}")
                continue
            index = ids.index(action["meld_id"])
            meld = self.table[index]
            used |= index < len(self.seen.table)
            if kind == "lay_off":
                c = action["cards"][0]
                where = self.g.fits(meld, c) or ("set" if meld.kind == "set" else action.get("end", "high"))
                self.g.lay(meld, c, where)
                hand.remove(c)
            else:  # a joker release: the naturals take its place (a Rami 40 / Kalooki set grows by one)
                for c in action["cards"]:
                    hand.remove(c)
                    if meld.kind == "set":
                        meld.suits.add(self.g.info[c][0])
                meld.n += len(action["cards"]) - 1
                hand.append(action["joker"])
        self.opened[self.seen.seat] = True
        self.version += 1
        return used

    # -- the end of the round

    def out(self, p: int, was_opened: bool, used_existing: bool) -> int:
        self.winner = p
        slug = self.spec.slug
        if slug == "kalooki":
            self.bonus = not was_opened and not used_existing
        else:
            self.bonus = not was_opened
        return p

    def play(self, start: int = 0) -> float:
        """Play on from `order[start]` to the end of the round; the utility for this seat."""
        result = None
        turns = 0
        i = start
        n = len(self.order)
        while result is None and turns < MAX_TURNS:
            result = self.turn(self.order[i % n])
            i += 1
            turns += 1
        return utility(self, result)


def utility(rollout: Rollout, winner: int | None) -> float:
    """The round's outcome for this seat, as the match counts it."""
    seen = rollout.seen
    me = seen.seat
    spec = rollout.spec
    hands = rollout.hands
    pen = {s: spec.points(h) for s, h in hands.items()}
    if winner is None or winner < 0:  # no end within the rollout: a small edge to the lighter hand
        others = [pen[s] for s in hands if s != me]
        return 0.05 * (sum(others) / max(1, len(others)) - pen[me])
    slug = spec.slug
    bonus = getattr(rollout, "bonus", False)
    if slug == "rami-traditionnel":
        gain = sum(p for s, p in pen.items() if s != winner) + (25 if bonus else 0)
        if single_round(seen):
            return ROUND_STAKE if winner == me else -ROUND_STAKE
        u = gain if winner == me else -gain / max(1, len(hands) - 1)
        target = seen.target or 250
        scores = seen.scores
        if scores[winner] + gain >= target:
            u += TARGET_STAKE if winner == me else -TARGET_STAKE
        return u
    points = {}
    for s, p in pen.items():
        if s == winner:
            points[s] = 0
        elif slug == "rami":
            points[s] = 2 * p if bonus else p
        else:
            points[s] = p + (25 if bonus else 0)
    if single_round(seen):
        return (ROUND_STAKE if winner == me else -ROUND_STAKE) - 0.01 * points[me]
    opps = [s for s in points if s != me]
    u = sum(points[s] for s in opps) / max(1, len(opps)) - points[me]
    scores = seen.scores
    limit = seen.limit
    if scores[me] + points[me] > limit:
        u -= LIMIT_STAKE
    for s in opps:
        if scores[s] <= limit < scores[s] + points[s]:
            u += LIMIT_STAKE / len(opps)
    return u
