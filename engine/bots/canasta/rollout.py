"""Fast playouts of the rest of a Canasta hand, for the Expert (engine.bots.canasta.expert).

A light model of one hand (hands, each team's melds by rank, the pile, the stock, red 3s) played by
the Confirmé's policy for every seat: take the pile when the rules allow (a natural pair, or in the card
game's open pile the team's meld or a natural and a wild), else draw; the Confirmé's planner for the
melds; its discard order. It skips what rarely matters in a few turns (the go-out question, concealed
going out, the card game's compulsory take on an empty stock: the hand simply ends). `score` counts as
the rules do: pieces laid, canasta bonuses, red 3s, the going-out bonus, pieces left (tile game: −100
a blue or black 3).

`deal(spec, seen, rng)` gives the hidden pieces (the other hands, the pile under its top, the stock)
at random among the pieces this seat has not seen: a determinization of its view. In the tile game the
deal follows what the table says of the hidden hands (`HAND_MODEL`: no red or yellow 3 in a hand, the
blocking 3s in the stock or the pile, no natural of a rank its team has melded and no natural triple in
the hand of a player whose team has melded, no hand able to open in a team that has not), and the model
takes the pile to open with the hand's other melds as the rules allow (`OPEN_TAKE`); without them the
playouts gave the other seats pieces they would already have laid (bench: 55.5 % → 58.0 % on the same
100 matches).
"""

from __future__ import annotations

from engine.bots.canasta.basic import BLOCK, Meld, Planner, Seen, Spec, Style, discard_order

POLICY = Style()
MAX_TURNS = 16  # turns played at most in one playout (then scored from the hands as they are)
MAX_TURNS_TILES = 48  # the tile game: its hands are short races, played to their end
OPEN_TAKE = True  # the model takes the pile to open with the hand's melds too, as the rules allow
HAND_MODEL = True  # deal the hidden pieces as the table allows (`deal`)
OPEN_TRIES = 4  # deals tried for a hand of a team that has not melded (one that could open is redealt)


class Hand:
    """One determinized hand, mutable (copied per playout)."""

    __slots__ = ("spec", "hands", "melds", "pile", "frozen", "stock", "opened", "minimum", "red3", "seat",
                 "direction", "out", "over", "ids")

    def __init__(self, spec: Spec):
        self.spec = spec

    def copy(self) -> Hand:
        h = Hand(self.spec)
        h.hands = [list(x) for x in self.hands]
        h.melds = [{k: list(v) for k, v in m.items()} for m in self.melds]
        h.pile = list(self.pile)
        h.frozen = self.frozen
        h.stock = list(self.stock)
        h.opened = list(self.opened)
        h.minimum = self.minimum
        h.red3 = list(self.red3)
        h.seat = self.seat
        h.direction = self.direction
        h.out = self.out
        h.over = self.over
        h.ids = self.ids
        return h

    # -- what a seat sees, for the planner

    def seen(self, seat: int) -> Seen:
        spec = self.spec
        t = seat % 2

        def melds(team):
            return [Meld(k, k, v, sum(spec.wild_in(k, c) for c in v)) for k, v in self.melds[team].items()]

        return Seen(seat=seat, phase="MELD", hand=self.hands[seat], mine=melds(t), theirs=melds(1 - t),
                    opened_before=self.opened[t], minimum=self.minimum[t], staged_points=0, staged=False,
                    top=self.pile[-1] if self.pile else None, pile_size=len(self.pile), frozen=self.frozen,
                    their_opened=self.opened[1 - t], stock=len(self.stock),
                    counts={s: len(h) for s, h in enumerate(self.hands)}, permission=None,
                    direction=self.direction)

    # -- one turn of the policy

    def can_take(self, seat: int) -> list[str] | None:
        """The pieces from the hand a take of the pile lays with its top, or None."""
        spec = self.spec
        if not self.pile:
            return None
        top = self.pile[-1]
        k = spec.key(top)
        if k is None or k == BLOCK:
            return None
        t = seat % 2
        hand = self.hands[seat]
        naturals = [c for c in hand if spec.key(c) == k]
        strict = spec.tiles or self.frozen or not self.opened[t]
        if len(naturals) >= 2:
            need = self.minimum[t] - 3 * spec.value(top)
            if not self.opened[t] and need > 0:
                # the rules count the hand's other melds toward the minimum of a take (`OPEN_TAKE`)
                rest = list(hand)
                for c in naturals[:2]:
                    rest.remove(c)
                if not (OPEN_TAKE and spec.tiles) or Planner(spec, POLICY).opening(rest, need, []) is None:
                    return None
            return naturals[:2]
        if strict:
            return None
        if k in self.melds[t]:
            return []
        wild = next((c for c in hand if spec.is_wild(c)), None)
        if naturals and wild:
            return [naturals[0], wild]
        return None

    def take(self, seat: int, with_: list[str]) -> None:
        spec = self.spec
        t = seat % 2
        top = self.pile.pop()
        hand = self.hands[seat]
        for c in with_:
            hand.remove(c)
        self.melds[t].setdefault(spec.key(top), []).extend([top, *with_])
        self.opened[t] = True
        for c in self.pile:
            if c in spec.P.bonus_threes:
                self.red3[t] += 1
            else:
                hand.append(c)
        self.pile = []
        self.frozen = False

    def draw(self, seat: int) -> bool:
        """One piece from the stock (red 3s laid and replaced); False when the stock is empty."""
        spec = self.spec
        while self.stock:
            c = self.stock.pop()
            if c in spec.P.bonus_threes:
                self.red3[seat % 2] += 1
                continue
            self.hands[seat].append(c)
            return True
        return False

    def lay(self, seat: int, actions: list[dict]) -> None:
        spec = self.spec
        t = seat % 2
        hand = self.hands[seat]
        for a in actions:
            cards = a["cards"]
            for c in cards:
                hand.remove(c)
            if a["action"] == "lay_off":
                meld_id = a["meld_id"]
                self.melds[t][self.ids.get(meld_id, meld_id)].extend(cards)
            else:
                nat = [c for c in cards if not spec.is_wild(c)]
                key = spec.P.rank[nat[0]] if nat else "2"
                self.melds[t].setdefault(key, []).extend(cards)
            self.opened[t] = True

    def discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.pile.append(card)
        if self.spec.game.rules.freezing and self.spec.is_wild(card):
            self.frozen = True
        if not self.hands[seat]:
            self.out, self.over = seat, True

    def meld_and_discard(self, seat: int, may_go_out: bool = True) -> None:
        """The policy's table actions and discard for `seat` (after its draw)."""
        seen = self.seen(seat)
        plan = Planner(self.spec, POLICY).plan(seen, may_go_out=may_go_out)
        self.lay(seat, plan.actions)
        hand = self.hands[seat]
        if not hand:
            self.out, self.over = seat, True
            return
        if len(hand) == 1 and not any(len(v) >= 7 for v in self.melds[seat % 2].values()):
            # cannot go out without a canasta: the model lets the last piece stay (rare)
            self.next_turn()
            return
        seen.hand = hand
        card = discard_order(self.spec, seen, list(hand), 2)[0]
        self.discard(seat, card)
        if not self.over:
            self.next_turn()

    def next_turn(self) -> None:
        self.seat = (self.seat + self.direction) % 4

    def turn(self) -> None:
        seat = self.seat
        with_ = self.can_take(seat)
        if with_ is not None:
            self.take(seat, with_)
        elif not self.draw(seat):
            self.over = True
            return
        self.meld_and_discard(seat)

    def play_out(self, turns: int | None = None) -> None:
        if turns is None:
            turns = MAX_TURNS_TILES if self.spec.tiles else MAX_TURNS
        for _ in range(turns):
            if self.over:
                return
            self.turn()

    # -- scoring

    def score(self, team: int) -> int:
        spec = self.spec
        game = spec.game
        rules = game.rules
        total = 0
        for k, v in self.melds[team].items():
            total += sum(spec.value(c) for c in v)
            kind = game.meld_kind(k, v)
            if kind:
                total += rules.bonus[kind]
        n3 = self.red3[team]
        red = rules.red3_all if n3 == 4 else rules.red3_each * n3
        total += red if self.melds[team] else -red
        for s in (team, team + 2):
            for c in self.hands[s]:
                total -= spec.hand_cost(c)
        if self.out is not None and self.out % 2 == team:
            total += rules.going_out
        return total

    def margin(self, team: int) -> int:
        return self.score(team) - self.score(1 - team)


def deal(spec: Spec, seen: Seen, view: dict, rng) -> Hand:
    """The hand as this seat might be in it: the pieces it has not seen dealt at random, as the table
    allows (`HAND_MODEL`): a red 3 (red or yellow 3-tile) is never held (it is laid at once: the unseen
    ones are in the stock); a blocking 3 is thrown as soon as it is held (the unseen ones are in the
    stock or the pile); a player whose team has melded holds no natural of a rank his team has melded
    and no three naturals of one rank (the policy lays them off, melds them); a player whose team has
    not melded holds no hand that reaches the minimum (the policy would have opened)."""
    known = list(seen.hand)
    for m in seen.mine + seen.theirs:
        known += m.pieces
    for team in view["teams"].values():
        known += team["red3s"]
    if seen.top is not None:
        known.append(seen.top)
    left = _minus(spec.P.deck, known)
    rng.shuffle(left)
    t = seen.seat % 2
    other = "B" if view["team"] == "A" else "A"
    opened = [False, False]
    opened[t] = seen.opened_before
    opened[1 - t] = seen.their_opened
    minimum = [0, 0]
    minimum[t] = seen.minimum
    minimum[1 - t] = int(view["teams"][other]["minimum"])
    under = max(0, seen.pile_size - 1)
    h = Hand(spec)
    h.hands = [[], [], [], []]
    h.hands[seen.seat] = list(seen.hand)
    if HAND_MODEL and spec.tiles:
        melded = [set(), set()]
        for m in seen.mine:
            melded[t].add(m.key)
        for m in seen.theirs:
            melded[1 - t].add(m.key)
        bonus = spec.P.bonus_threes
        reds = [c for c in left if c in bonus]
        blocks = [c for c in left if spec.key(c) == BLOCK]
        rest = [c for c in left if c not in bonus and spec.key(c) != BLOCK]
        to_pile, to_stock = [], list(reds)
        for c in blocks:  # a blocking 3 drawn is thrown at once: in the pile as often as drawn
            (to_stock if rng.random() * max(1, seen.stock + under) < seen.stock else to_pile).append(c)
        to_pile = to_pile[:under]
        spare = [c for c in blocks if c not in to_pile and c not in to_stock]
        planner = Planner(spec, POLICY)
        for s in range(4):
            if s == seen.seat:
                continue
            n = seen.counts.get(s, 0)
            team = s % 2
            for _ in range(OPEN_TRIES if not opened[team] else 1):
                hand, skipped, keys = [], [], {}
                for c in rest:
                    k = spec.key(c)
                    if len(hand) < n and (not opened[team] or k is None
                                          or (k not in melded[team] and keys.get(k, 0) < 2)):
                        hand.append(c)
                        keys[k] = keys.get(k, 0) + 1
                    else:
                        skipped.append(c)
                if len(hand) < n:  # the constraints cannot be met: fill from what is left
                    need = n - len(hand)
                    hand += skipped[:need]
                    skipped = skipped[need:]
                if opened[team] or not _can_open(planner, hand, minimum[team]):
                    break
                rng.shuffle(rest)
            h.hands[s] = hand
            rest = skipped
        fill = under - len(to_pile)
        pile_under = to_pile + rest[:fill] + spare
        rest = rest[fill:]
        rng.shuffle(pile_under)
        h.pile = pile_under[:under] + ([seen.top] if seen.top is not None else [])
        stock = (to_stock + pile_under[under:] + rest)[:seen.stock]  # the red 3s first: they are there
        rng.shuffle(stock)
        h.stock = stock
    else:
        for s in range(4):
            if s != seen.seat:
                n = seen.counts.get(s, 0)
                h.hands[s], left = left[:n], left[n:]
        h.pile = left[:under] + ([seen.top] if seen.top is not None else [])
        left = left[under:]
        h.stock = left[:seen.stock]
    h.melds = [{}, {}]
    for m in seen.mine:
        h.melds[t].setdefault(m.key, []).extend(m.pieces)
    for m in seen.theirs:
        h.melds[1 - t].setdefault(m.key, []).extend(m.pieces)
    h.frozen = seen.frozen
    h.opened = [False, False]
    h.opened[t] = seen.opened
    h.opened[1 - t] = seen.their_opened
    h.minimum = minimum
    h.red3 = [0, 0]
    h.red3[t] = len(view["teams"][view["team"]]["red3s"])
    h.red3[1 - t] = len(view["teams"][other]["red3s"])
    h.seat = seen.seat
    h.direction = seen.direction
    h.out = None
    h.over = False
    h.ids = {m.id: m.key for m in seen.mine}  # the view's meld ids; the model names melds by rank
    return h


def _can_open(planner: Planner, hand: list[str], minimum: int) -> bool:
    return planner.opening(hand, minimum, []) is not None


def _minus(deck, known) -> list[str]:
    gone = set(known)  # piece ids are unique in both decks
    return [c for c in deck if c not in gone]
