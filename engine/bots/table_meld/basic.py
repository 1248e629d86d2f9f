"""Levels 1 « Débutant » and 2 « Confirmé » of the table-meld rummies (the levels and the adapter:
`engine.bots.table_meld`): the game's parameters (`Spec`), what a seat sees (`Seen`), the turn planner
(`Planner`) and the per-game adapter (`TableMeldAdapter`). The Expert (`engine.bots.table_meld.expert`)
builds on them.
"""

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from engine import cards
from engine import games as _games
from engine.bots.base import Adapter, Moves
from engine.melds import table as tm

SLUGS = ("rami", "rami40", "kalooki", "rami-traditionnel")
BEGINNER_SLIP = 0.25  # level 1 throws a random loose card this often
POTENTIAL_WEIGHT = 1.2  # level 2: penalty points one live out of a partial meld is worth when discarding
TABLE_FIT_WEIGHT = 4.0  # level 2: a card that a table meld will take once opened (not yet opened)
MAX_COMBOS = 48  # lay-off combinations tried with the melds in one plan
MAX_SWAPS = 6  # joker swaps tried in one plan
GIFT_COST = 12.0  # level 2: a discard the next player can lay off at once
BREAK_COST = 5.0  # level 2: extra cost of throwing a card of a meld kept in hand
SINGLE_ROUND_VALUE_WEIGHT = 0.25  # level 2: a one-round match is a race, the points left matter little


# ---------------------------------------------------------------- game parameters


@dataclass(frozen=True, eq=False)
class Spec:
    """The rules of one table-meld game, as the bots need them (read from the game class)."""

    slug: str
    rules: object
    values: dict
    threshold: int | None
    go_out: bool
    swap: str | None
    must_use_take: bool
    undo_take: bool
    hand_size: int
    deck: tuple
    joker_penalty: int

    @classmethod
    def of(cls, slug: str) -> "Spec":
        game = _games.get(slug)
        return cls(slug=slug, rules=game.rules, values=dict(game.values()), threshold=game.threshold,
                   go_out=game.go_out, swap=game.swap, must_use_take=game.take_must_be_used,
                   undo_take=game.undo_take, hand_size=game.hand_size, deck=tuple(game.deck),
                   joker_penalty=game.joker_penalty)

    @property
    def leave(self) -> str:
        return "discard_or_empty" if self.go_out else "discard"

    def value(self, card: str) -> int:
        return self.values[card]

    def points(self, hand) -> int:
        return sum(self.values[c] for c in hand)


def by_order(hand) -> list[str]:
    return sorted(hand, key=cards.sort_key)


@lru_cache(maxsize=1 << 15)
def _plan(spec: Spec, key: tuple, weight: str, must, taken, leave: str):
    values = None if weight == "points" else spec.values
    return tm.best_plan(list(key), spec.rules, values, must=must, taken=taken, leave=leave)


def best_plan(spec: Spec, hand, weight: str = "penalty", must=None, taken=None, leave: str = "any"):
    """The solver's best lay-down of `hand` (cached): most penalty shed, or most meld points."""
    if must is not None and must not in hand:
        must = None
    if taken is not None and taken not in hand:
        taken = None
    return _plan(spec, tuple(by_order(hand)), weight, must, taken, leave)


@lru_cache(maxsize=1 << 14)
def _reading(cards_: tuple, wilds: tuple, kind: str, rules) -> tm.Reading:
    return tm.reading_of(list(cards_), dict(wilds), kind, rules)


@lru_cache(maxsize=1 << 16)
def _ends(reading: tm.Reading, card: str, rules) -> tuple:
    return tuple(tm.layoff_ends(reading, card, rules))


@lru_cache(maxsize=1 << 15)
def _extend(reading: tm.Reading, card: str, end, rules):
    return tm.extend(reading, [card], end, rules)


# ---------------------------------------------------------------- the table, as a bot models it


@dataclass(frozen=True)
class TMeld:
    id: str
    owner: int
    reading: tm.Reading


def table_of(spec: Spec, melds: list[dict]) -> list[TMeld]:
    return [TMeld(m["id"], m["owner"], _reading(tuple(m["cards"]), tuple(sorted(m["wilds"].items())), m["kind"],
                                                 spec.rules)) for m in melds]


def fits(spec: Spec, reading: tm.Reading, card: str) -> tuple:
    """Ends where `card` can be laid off on `reading` ((None,) for a set), () if nowhere."""
    if not cards.is_joker(card):
        suit, rank = tm.natural_of(card)
        if reading.kind == "set":
            if rank != reading.low:
                return ()
        elif suit != reading.suit:
            return ()
        else:
            positions = (1, 14) if rank == 1 else (rank,)
            if not any(p in (reading.low - 1, reading.high + 1) for p in positions):
                return ()
    return _ends(reading, card, spec.rules)


def fits_table(spec: Spec, table: list[TMeld], card: str) -> bool:
    return any(fits(spec, m.reading, card) for m in table)


# ---------------------------------------------------------------- what the seat knows


@dataclass
class Seen:
    """One seat's view, in the shape the bots use."""

    seat: int
    seats: int
    active: list[int]
    phase: str
    hand: list[str]
    table: list[TMeld]
    opened: list[bool]
    taken: str | None
    staged: list[dict]
    staged_points: int
    can_act: bool
    pile: list[str]
    stock_count: int
    hand_counts: dict[int, int]
    scores: list[int]
    limit: int
    target: int | None
    suggestions: dict
    view: dict

    @property
    def top(self) -> str | None:
        return self.pile[-1] if self.pile else None

    @property
    def opened_before(self) -> bool:
        return self.opened[self.seat]

    def opponents(self) -> list[int]:
        """Other active seats in turn order, the next one first."""
        n = self.seats
        return [s for s in ((self.seat + i) % n for i in range(1, n)) if s in self.active]


def seen_of(spec: Spec, view: dict) -> Seen:
    seat = view["seat"]
    staged = view.get("staged") or {}
    melds = staged.get("table_preview") if staged else None
    table = table_of(spec, melds if melds is not None else (view.get("table") or []))
    opened = list(view.get("opened") or [False] * int(view.get("seats") or 2))
    can_act = staged.get("may_act_on_table") if staged else None
    if can_act is None:
        can_act = spec.threshold is None or opened[seat]
    options = view.get("options") or {}
    limit = view.get("point_limit") or options.get("point_limit") or "100"
    target = view.get("target") or options.get("target")
    return Seen(
        seat=seat, seats=int(view.get("seats") or 2), active=list(view.get("active") or []),
        phase=view.get("phase"), hand=list(view.get("hand") or []), table=table, opened=opened,
        taken=view.get("taken_card"), staged=list(staged.get("actions") or []) if staged else [],
        staged_points=int(staged.get("opening_points") or 0) if staged else 0, can_act=bool(can_act),
        pile=list(view.get("discard_pile") or []), stock_count=int(view.get("stock_count") or 0),
        hand_counts={p["seat"]: p.get("hand_count", 0) for p in view.get("players") or []},
        scores=list(view.get("scores") or []), limit=int(limit), target=int(target) if target else None,
        suggestions=view.get("suggestions") or {}, view=view,
    )


def unseen_cards(spec: Spec, seen: Seen) -> list[str]:
    """Cards this seat has not seen: in other hands or in the stock."""
    known = set(seen.hand) | set(seen.pile)
    for m in seen.table:
        known.update(m.reading.cards)
    return [c for c in spec.deck if c not in known]


def live_faces(unseen) -> Counter:
    """Unseen copies of each face ("QH"), jokers pooled under "*"."""
    counts: Counter = Counter()
    for c in unseen:
        counts["*" if cards.is_joker(c) else c[:-1]] += 1
    return counts


# ---------------------------------------------------------------- planning the rest of a turn


@dataclass
class TurnPlan:
    """Table actions to stage in order, the cards they leave in hand, the penalty points they shed."""

    actions: list[dict]
    left: list[str]
    shed: int
    opens: bool = False


def _apply(spec: Spec, table: list[TMeld], action: dict) -> list[TMeld] | None:
    """The table after one staged action (None if the action does not fit)."""
    kind = action["action"]
    if kind == "meld":
        reading = action["_reading"]
        return [*table, TMeld(f"M{len(table) + 1}", -1, reading)]
    index = next((i for i, m in enumerate(table) if m.id == action["meld_id"]), None)
    if index is None:
        return None
    meld = table[index]
    if kind == "lay_off":
        after = _extend(meld.reading, action["cards"][0], action.get("end"), spec.rules)
    else:
        after = tm.replace_wild(meld.reading, action["joker"], action["cards"], spec.rules)
    if after is None:
        return None
    return [*table[:index], TMeld(meld.id, meld.owner, after), *table[index + 1:]]


def meld_action(reading: tm.Reading) -> dict:
    move = {"action": "meld", "cards": list(reading.cards), "_reading": reading}
    if reading.wilds:
        move["wilds"] = reading.wild_map
    return move


def layoff_action(card: str, meld_id: str, end) -> dict:
    move = {"action": "lay_off", "cards": [card], "meld_id": meld_id}
    if end is not None:
        move["end"] = end
    return move


def public(move: dict) -> dict:
    return {k: v for k, v in move.items() if not k.startswith("_")}


class Planner:
    """Plans the table actions of the rest of a turn (level 2 and up; the expert's playouts too)."""

    def __init__(self, spec: Spec):
        self.spec = spec

    def left_ok(self, left, taken) -> bool:
        rest = [c for c in left if c != taken]
        return bool(rest) or (self.spec.go_out and not left)

    def after_turn(self, left, taken) -> int:
        """Penalty points in hand after the discard that ends the turn (the highest one allowed)."""
        values = self.spec.values
        throwable = [values[c] for c in left if c != taken and not cards.is_joker(c)] or \
                    [values[c] for c in left if c != taken]
        return sum(values[c] for c in left) - (max(throwable) if throwable else 0)

    def goes_out(self, left, taken) -> bool:
        return not left or (len(left) == 1 and left[0] != taken)

    def score(self, plan: TurnPlan, taken) -> tuple:
        """Lower is better: out first, then the penalty kept after the discard, then fewer cards."""
        return (not self.goes_out(plan.left, taken), self.after_turn(plan.left, taken), len(plan.left),
                len(plan.actions))

    # -- the whole rest of the turn

    def plan(self, hand, table, *, can_act: bool, need: int, taken=None, must=None, must_meld=False,
             swaps: bool = True, jokers_off: bool = True, combos: int = MAX_COMBOS,
             extra_discard: bool = False) -> TurnPlan:
        """Best actions from here. `need`: meld points still missing to open (when not `can_act`);
        `must`: a card to use (Rami 40 taken card), in a new meld if `must_meld`; `extra_discard`: a card
        not in `hand` will be thrown at the end (planning a hand before the draw)."""
        hand = list(hand)
        args = (taken, must, must_meld, jokers_off, combos, extra_discard)
        base = self._melds_and_layoffs(hand, table, can_act, need, *args)
        if not swaps or not self.spec.swap:
            return base
        best, best_key = base, self.score(base, taken)
        for swap in self.swap_options(hand, table if can_act else [], taken, must)[:MAX_SWAPS]:
            table2 = _apply(self.spec, table, swap)
            if table2 is None:
                continue
            hand2 = [c for c in hand if c not in swap["cards"]] + [swap["joker"]]
            rest = self._melds_and_layoffs(hand2, table2, True, 0, *args)
            plan = TurnPlan([swap, *rest.actions], rest.left, rest.shed + self.spec.points(swap["cards"])
                            - self.spec.value(swap["joker"]), rest.opens)
            key = self.score(plan, taken)
            if key < best_key:
                best, best_key = plan, key
        return best

    def swap_options(self, hand, table, taken, must=None) -> list[dict]:
        """Joker releases the hand allows (never with `must`: a Rami 40 taken card must be melded or laid off)."""
        spec = self.spec
        out = []
        naturals = by_order(c for c in hand if not cards.is_joker(c) and c != must)
        for meld in table:
            reading = meld.reading
            if not reading.wilds:
                continue
            for joker, face in reading.wilds:
                if reading.kind == "run":
                    groups = [[c] for c in naturals if c[:-1] == face]
                elif spec.swap == "two":
                    if len(reading.cards) >= 4:
                        continue
                    fit = [c for c in naturals if tm.natural_of(c)[1] == reading.low]
                    groups = [[a, b] for i, a in enumerate(fit) for b in fit[i + 1:]]
                else:
                    groups = [[c] for c in naturals if tm.natural_of(c)[1] == reading.low]
                seen_faces = set()
                for group in groups:
                    faces = tuple(sorted(c[:-1] for c in group))
                    if faces in seen_faces:
                        continue
                    if tm.replace_wild(reading, joker, group, spec.rules) is None:
                        continue
                    rest = [c for c in hand if c not in group] + [joker]
                    if not spec.go_out and not [c for c in rest if c != taken]:
                        continue
                    seen_faces.add(faces)
                    out.append({"action": "swap_joker", "cards": group, "meld_id": meld.id, "joker": joker})
        return out

    def _layoff_groups(self, hand, table) -> list[list[tuple]]:
        """Per table meld, the ways natural cards of the hand can extend it: [(cards, end), ...] options
        (each option a tuple of (card, end) in laying order; the empty option first)."""
        spec = self.spec
        by_face: dict[str, list[str]] = {}
        for c in by_order(hand):
            if not cards.is_joker(c):
                by_face.setdefault(c[:-1], []).append(c)
        groups = []
        run_max = min(spec.rules.run_max, 13)
        for meld in table:
            r = meld.reading
            n = len(r.cards)
            if r.kind == "set":
                room = 4 - n
                if room <= 0:
                    continue
                held = r.natural_suits()
                cand = []
                for s in range(4):
                    if s in held:
                        continue
                    face = tm.face_at(s, r.low if r.low != 1 else 1)
                    if face in by_face:
                        cand.append(by_face[face][0])
                if not cand:
                    continue
                options = [()]
                for k in range(1, min(room, len(cand)) + 1):
                    options += [tuple((c, None) for c in combo) for combo in _combinations(cand, k)]
                groups.append([(meld.id, o) for o in options])
                continue
            low, high = [], []
            p = r.low - 1
            while p >= (1 if spec.rules.ace_low else 2) and n + len(low) < run_max:
                face = tm.face_at(r.suit, p)
                if face not in by_face:
                    break
                low.append(by_face[face][0])
                p -= 1
            p = r.high + 1
            while p <= (14 if spec.rules.ace_high else 13) and n + len(low) + len(high) < run_max:
                face = tm.face_at(r.suit, p)
                if face not in by_face or (low and by_face[face][0] in low):
                    break
                high.append(by_face[face][0])
                p += 1
            if not low and not high:
                continue
            options = []
            for i in range(len(low) + 1):
                for j in range(len(high) + 1):
                    if n + i + j <= run_max:
                        options.append(tuple([(c, "low") for c in low[:i]] + [(c, "high") for c in high[:j]]))
            groups.append([(meld.id, o) for o in options])
        return groups

    def _combos(self, groups, limit: int):
        """Lay-off combinations (one option per meld), at most `limit`, most cards first when cut."""
        total = 1
        for g in groups:
            total *= len(g)
        if total > limit:  # keep only "nothing" and "everything" per meld
            groups = [[g[0], max(g, key=lambda o: len(o[1]))] for g in groups]
        combos = [[]]
        for g in groups:
            combos = [c + [o] for c in combos for o in g if o[1]] + list(combos)
            if len(combos) > limit * 4:
                combos = combos[: limit * 4]
        return combos[:limit] if len(combos) > limit else combos

    def _melds_and_layoffs(self, hand, table, can_act, need, taken, must, must_meld, jokers_off, combos_limit,
                           extra_discard):
        spec = self.spec
        leave = "any" if extra_discard else spec.leave
        groups = self._layoff_groups(hand, table) if can_act and table else []
        best, best_key = None, None
        for combo in self._combos(groups, combos_limit) if groups else [[]]:
            laid = [c for _, option in combo for c, _ in option]
            if len(set(laid)) != len(laid):
                continue
            if must is not None and must in laid and must_meld:
                continue
            rest = [c for c in hand if c not in laid]
            m = None if (must is None or must in laid) else must
            plan = best_plan(spec, rest, "penalty", m, taken, leave)
            if plan is not None and not can_act and plan.points() < need:
                plan = best_plan(spec, rest, "points", m, taken, leave)
                if plan is not None and plan.value < need:
                    plan = None
            if plan is None:
                if m is not None or not can_act:
                    continue
                plan = None
            melds = list(plan.melds) if plan is not None else []
            left = list(plan.left) if plan is not None else list(rest)
            if not can_act and not melds:
                continue
            actions = [meld_action(r) for r in melds]
            for meld_id, option in combo:
                actions += [layoff_action(c, meld_id, end) for c, end in option]
            shed = spec.points(laid) + sum(spec.points(r.cards) for r in melds)
            turn = TurnPlan(actions, left, shed, opens=not can_act)
            turn = self._extra_layoffs(turn, table, taken, jokers_off, extra_discard)
            if turn is None:
                continue
            if not extra_discard and not self.left_ok(turn.left, taken):
                continue
            key = self.score(turn, taken)
            if best_key is None or key < best_key:
                best, best_key = turn, key
        if best is None:
            return TurnPlan([], list(hand), 0)
        return best

    def _extra_layoffs(self, turn: TurnPlan, table, taken, jokers_off: bool, extra_discard: bool) -> TurnPlan | None:
        """Replay the plan on the table, then lay off what is left wherever it fits (naturals, then
        jokers when `jokers_off`), keeping a card to discard where the game needs one."""
        spec = self.spec
        cur = table
        for a in turn.actions:
            cur = _apply(spec, cur, a)
            if cur is None:
                return None
        left = list(turn.left)
        actions = list(turn.actions)
        shed = turn.shed
        changed = True
        while changed and left and cur:
            changed = False
            order = [c for c in by_order(left) if not cards.is_joker(c)]
            if jokers_off:
                order += [c for c in left if cards.is_joker(c)]
            for c in order:
                rest = [x for x in left if x != c]
                if not extra_discard and not self.left_ok(rest, taken):
                    continue
                for meld in cur:
                    ends = fits(spec, meld.reading, c)
                    if not ends:
                        continue
                    action = layoff_action(c, meld.id, ends[0])
                    nxt = _apply(spec, cur, action)
                    if nxt is None:
                        continue
                    cur, left = nxt, rest
                    actions.append(action)
                    shed += spec.value(c)
                    changed = True
                    break
                if changed:
                    break
        return TurnPlan(actions, left, shed, turn.opens)


def _combinations(items, k):
    if k == 0:
        yield ()
        return
    for i, x in enumerate(items):
        for rest in _combinations(items[i + 1:], k - 1):
            yield (x, *rest)


# ---------------------------------------------------------------- the adapter


class TableMeldAdapter(Adapter):
    """Levels 1 and 2 of one table-meld game; the Expert (`engine.bots.table_meld.expert`) builds on it. The
    package's `ADAPTER` (the generic `levels.decide` hands it the whole decision) sends level 3 there."""

    def __init__(self, slug: str):
        self.slug = slug
        self.spec = Spec.of(slug)
        self.deck = self.spec.deck
        self.planner = Planner(self.spec)

    # Adapter API the generic code may still ask for
    def rules_key(self, view: dict):
        return None

    def rules(self, key):
        return self.spec.rules

    def is_wild(self, card: str, key) -> bool:
        return cards.is_joker(card)

    # -- entry point

    def decide(self, view: dict, moves: Moves, level: int, rng, budget) -> dict:
        seen = seen_of(self.spec, view)
        if moves.has("draw_stock") or moves.has("take_discard"):
            return self.draw(seen, moves, level, rng)
        if level <= 1:
            return self.beginner_turn(seen, moves, rng)
        return self.confirmed_turn(seen, moves)

    # -- drawing

    def draw(self, seen: Seen, moves: Moves, level: int, rng) -> dict:
        stock = moves.first("draw_stock")
        take = moves.first("take_discard")
        if take is None or seen.top is None:
            return stock or moves.legal[0]
        if stock is None:
            return take
        if level <= 1:
            return take if self.beginner_takes(seen) else stock
        return take if self.take_gain(seen) > 0 else stock

    def beginner_takes(self, seen: Seen) -> bool:
        """The top discard completes a meld: of the opening (not opened), of the hand's melds (opened)."""
        sugg = seen.suggestions or {}
        spec = self.spec
        if spec.threshold is not None and not seen.opened_before:
            with_top = sugg.get("discard_opening")
            now = sugg.get("opening")
            return bool(with_top and with_top["reaches"] and not (now and now["reaches"]))
        return bool(sugg.get("discard_melds"))

    def take_gain(self, seen: Seen) -> float:
        """Penalty points the top discard saves this turn (> 0: take it), from the level-2 planner.

        Drawing from the stock is counted as drawing a useless card, thrown at the end of the turn: the
        hand as it is plays its plan. Taking the top plays the plan of the hand with it (the top may not
        be thrown back; Rami 40: it must be used)."""
        spec = self.spec
        planner = self.planner
        top = seen.top
        hand = seen.hand
        opened = spec.threshold is None or seen.opened_before
        need = 0 if opened else spec.threshold
        must = top if spec.must_use_take else None
        with_top = planner.plan([*hand, top], seen.table, can_act=opened, need=need, taken=top, must=must,
                                must_meld=must is not None and not opened)
        if top in with_top.left and (spec.must_use_take or opened or with_top.actions):
            return 0.0  # taken only to be used: a card kept for its value alone is no better than the stock's
        base = planner.plan(hand, seen.table, can_act=opened, need=need, extra_discard=True)
        if not opened and not with_top.actions and not base.actions:
            return self.hidden_gain(hand, top)
        take_out = planner.goes_out(with_top.left, top)
        if take_out and base.left:
            return 100.0
        return spec.points(base.left) - planner.after_turn(with_top.left, top)

    def hidden_gain(self, hand, top) -> float:
        """Not opened, no opening either way: the deadwood the top discard saves in the hidden hand."""
        spec = self.spec
        now = best_plan(spec, hand, "penalty")
        after = best_plan(spec, [*hand, top], "penalty", must=top, taken=top, leave="discard")
        if after is None:
            return 0.0
        return spec.points(now.left) - self.planner.after_turn(after.left, top)

    # -- level 1

    def beginner_turn(self, seen: Seen, moves: Moves, rng) -> dict:
        sugg = seen.suggestions or {}
        if moves.has("meld"):
            opening = sugg.get("opening")
            if seen.can_act or (opening and opening["reaches"]):
                return moves.first("meld")
        for move in moves.by_action.get("lay_off", []):
            if not any(cards.is_joker(c) for c in move["cards"]):
                return move
        if moves.has("go_out"):
            return moves.first("go_out")
        options = moves.by_card("discard")
        if not options:
            return self.stuck(seen, moves)
        return options[self.beginner_discard(seen, list(options), rng)]

    def beginner_discard(self, seen: Seen, allowed: list[str], rng) -> str:
        spec = self.spec
        arrangement = seen.view.get("arrangement") or {}
        dead = [c for c in arrangement.get("deadwood") or [] if c in allowed]
        loose = [c for c in dead if not cards.is_joker(c)] or [c for c in allowed if not cards.is_joker(c)] or allowed
        if rng.random() < BEGINNER_SLIP:
            return rng.choice(by_order(loose))
        top = max(spec.value(c) for c in loose)
        return rng.choice(by_order(c for c in loose if spec.value(c) == top))

    # -- level 2

    def turn_plan(self, seen: Seen, *, swaps: bool = True) -> TurnPlan:
        spec = self.spec
        taken = seen.taken if seen.taken in seen.hand else None
        must = taken if spec.must_use_take and taken is not None and not self.taken_used(seen) else None
        need = 0 if spec.threshold is None else max(0, spec.threshold - seen.staged_points)
        return self.planner.plan(seen.hand, seen.table, can_act=seen.can_act, need=need, taken=taken, must=must,
                                 must_meld=must is not None and not seen.opened_before, swaps=swaps)

    @staticmethod
    def taken_used(seen: Seen) -> bool:
        return seen.taken is not None and seen.taken not in seen.hand

    def confirmed_turn(self, seen: Seen, moves: Moves) -> dict:
        plan = self.turn_plan(seen)
        step = self.next_step(plan, moves)
        if step is not None:
            return step
        return self.finish(seen, moves, level=2, danger=self.gifts(seen))

    def gifts(self, seen: Seen) -> dict[str, float]:
        """Level 2: cards the next player could lay off on the table (after this turn's actions)."""
        spec = self.spec
        nxt = seen.opponents()[:1]
        if not nxt or not seen.table:
            return {}
        if spec.threshold is not None and not seen.opened[nxt[0]]:
            return {}
        return {c: GIFT_COST for c in seen.hand if not cards.is_joker(c) and fits_table(spec, seen.table, c)}

    def next_step(self, plan: TurnPlan, moves: Moves) -> dict | None:
        if plan.actions and moves.has(plan.actions[0]["action"]):
            return public(plan.actions[0])
        return None

    def finish(self, seen: Seen, moves: Moves, level: int, danger=None) -> dict:
        """The commit: go out when the hand is empty, else the level's discard."""
        if moves.has("go_out"):
            return moves.first("go_out")
        options = moves.by_card("discard")
        if not options:
            return self.stuck(seen, moves)
        order = self.discard_order(seen, list(options), danger)
        return options[order[0]]

    def stuck(self, seen: Seen, moves: Moves) -> dict:
        """No commit possible (a Rami 40 take that cannot be used): undo; else any table action."""
        if moves.has("undo"):
            return {"action": "undo", "all": True}
        for action in ("meld", "lay_off", "swap_joker"):
            if moves.has(action):
                return moves.first(action)
        return moves.legal[0]

    def discard_order(self, seen: Seen, allowed: list[str], danger=None) -> list[str]:
        """Discards best first. Each card's cost is the deadwood left after throwing it (a card of a meld
        breaks it) plus the live potential it takes away (and `danger`: card -> points, the expert's
        estimate of what it gives the next player); jokers last."""
        spec = self.spec
        hand = seen.hand
        arrangement = best_plan(spec, hand, "penalty")
        melded = {c for m in arrangement.melds for c in m.cards}
        dead = [c for c in hand if c not in melded]
        now = spec.points(arrangement.left)
        live = live_faces(unseen_cards(spec, seen))
        opened = spec.threshold is None or seen.opened_before
        weight = value_weight(seen)
        cost: dict[str, float] = {}
        for c in allowed:
            if c in melded:
                after = best_plan(spec, [x for x in hand if x != c], "penalty")
                cost[c] = spec.points(after.left) + BREAK_COST
            else:
                cost[c] = now - weight * spec.value(c) + POTENTIAL_WEIGHT * self.potential(c, dead, live)
                if not opened and fits_table(spec, seen.table, c):
                    cost[c] += TABLE_FIT_WEIGHT
            if danger:
                cost[c] += danger.get(c, 0.0)

        def key(c):
            return (cards.is_joker(c), cost[c], -spec.value(c), cards.sort_key(c))

        return sorted(allowed, key=key)

    def potential(self, card: str, dead: list[str], live: Counter) -> float:
        """Live outs of the partial melds `card` makes with the other loose cards."""
        if cards.is_joker(card):
            return 0.0
        jokers = live.get("*", 0) if self.spec.rules.jokers_wild else 0
        total = 0.0
        s, r = tm.natural_of(card)
        for d in dead:
            if d == card or cards.is_joker(d):
                continue
            outs = partial_outs(self.spec, card, d)
            if outs is None:
                continue
            total += sum(live.get(f, 0) for f in outs) + jokers * 0.5
        return total


def single_round(seen: Seen) -> bool:
    """One round decides the match (point limit 1, or a one-round Rami traditionnel): only going out
    first counts, not the points."""
    return seen.limit == 1 if seen.target is None else seen.target == 1


def value_weight(seen: Seen) -> float:
    """How much a card's penalty value counts against its potential when discarding."""
    return SINGLE_ROUND_VALUE_WEIGHT if single_round(seen) else 1.0


def partial_outs(spec: Spec, a: str, b: str) -> list[str] | None:
    """Faces that would make a meld of naturals `a`, `b` (None: no partial meld)."""
    sa, ra = tm.natural_of(a)
    sb, rb = tm.natural_of(b)
    if ra == rb:
        if sa == sb:
            return None
        return [tm.face_at(s, ra) for s in range(4) if s not in (sa, sb)]
    if sa != sb:
        return None
    positions_a = _positions(spec, ra)
    positions_b = _positions(spec, rb)
    best = None
    for pa in positions_a:
        for pb in positions_b:
            lo, hi = min(pa, pb), max(pa, pb)
            gap = hi - lo
            if gap == 1:
                outs = [p for p in (lo - 1, hi + 1) if _pos_ok(spec, p)]
            elif gap == 2:
                outs = [lo + 1]
            else:
                continue
            if best is None or len(outs) > len(best):
                best = outs
    if best is None:
        return None
    return [tm.face_at(sa, p) for p in best]


def _positions(spec: Spec, rank: int) -> tuple:
    if rank != 1:
        return (rank,)
    return tuple(p for p, ok in ((1, spec.rules.ace_low), (14, spec.rules.ace_high)) if ok)


def _pos_ok(spec: Spec, p: int) -> bool:
    return (1 if spec.rules.ace_low else 2) <= p <= (14 if spec.rules.ace_high else 13)
