"""Gin Rami adapter: one deck, no wilds, take the top discard or draw, knock at 10 or less.

Besides the shared levels it chooses the knock arrangement (among the least-deadwood ones, the one
giving the fewest lay-offs: sets rather than runs when that helps), and it plays whole rounds out
in determinized deals for the expert: both seats take a discard when it lowers their deadwood,
knock as soon as they may, and the showdown counts lay-offs exactly (`melds.best_with_layoffs`).
The expert weighs knocking against playing on by what the round's outcome is worth in the match
(`GinAdapter.utility`, `engine.bots.gin_match`): in a one-round match at every legal moment, knocking by
default; in a match to 100 it plays on for a gin while the stock is long (`HUNT_GIN_ABOVE_STOCK`), and
weighs the knock there only once a total nears the limit (`GinAdapter.near_the_end`).
"""

from itertools import product

from engine import cards, melds
from engine.bots import gin_match
from engine.bots.base import Adapter, Knowledge, Moves, knowledge_of, suit_rank
from engine.bots.levels import confirmed_order, draw_choice

KNOCK_LIMIT = 10
GIN_BONUS = 25
UNDERCUT_BONUS = 25
PENALTY_LIMIT = 100
PRIZE_THRESHOLD = 25  # §7: a one-round loser under this many points shares the quarter of the pot
STOCK_FLOOR = 2
LIMIT_STAKE = 100  # utility of pushing an opponent over 100 (or going over) on top of the points
ROUND_STAKE = 50  # single-round matches: utility of winning the round
MAX_DISCARDS = 4  # discard candidates searched
CANDIDATE_MARGIN = 10
MAX_TURNS = 60  # turns simulated at most in one playout
PAST_TURNS_CAP = 8
MATCH_POINT_MARGIN = 30  # a total this close to the limit: a knock may end the match, the search weighs it
HUNT_GIN_ABOVE_STOCK = 6  # level 3 plays on for a gin by default while the stock holds more cards than this
FEED_MELD = 10  # deadwood points a discard is counted as costing when it makes a meld with two of his known cards
FEED_NEAR = 3  # and for each known card of his it could sit next to in a meld


class GinAdapter(Adapter):
    slug = "gin"
    deck = tuple(cards.deck(copies=1, jokers=0))
    end_action = "knock"
    end_limit = KNOCK_LIMIT
    ace_high = False
    take_action = "take_discard"
    # A discard taken only to lower the deadwood tells the other what the hand holds and gives up a blind draw:
    # the Confirmé taking it only to complete a meld won 52.7 % against the reference in one round instead of
    # 48.5 % (1,500 matches), 62.8 % instead of 57.0 % in matches to 100 (600 matches, same deals).
    take_to_lower_deadwood = False
    potential_weight = 0.0
    potential_margin = 0

    # -- rules

    def rules_key(self, view: dict):
        return None

    def rules(self, key):
        return melds.gin_rules()

    def is_wild(self, card: str, key) -> bool:
        return False

    def knowledge(self, view: dict) -> Knowledge:
        know = knowledge_of(view)
        know.extra["taken"] = view.get("taken_card")
        know.extra["dealer"] = view.get("dealer")
        know.extra["match"] = view.get("match") or (view.get("options") or {}).get("match", "1")
        know.extra["hand_size"] = view.get("hand_size") or 10
        for player in view.get("players") or []:
            held = player.get("picked")  # cards he took from the pile and still holds (public)
            if player.get("seat") != know.seat and isinstance(held, list) and held:
                know.known[player["seat"]] = [c for c in held if c in self.deck]
        return know

    def discard_risks(self, know: Knowledge, allowed: list[str], key) -> dict[str, float]:
        """What a discard gives the next player, from the cards he took from the pile and still holds (public): a
        card making a meld with two of them (`FEED_MELD` deadwood points), and for each of them one it could sit
        next to in a meld, same rank or same suit two ranks apart at most (`FEED_NEAR`). Against the reference
        opponent (same 4,000 deals): the Confirmé won 52.4 → 54.5 % of one-round matches, 62.3 → 67.0 % of
        matches to 100 (1,500)."""
        theirs = [c for seat in know.opponents() for c in know.known.get(seat, ())]
        if not theirs:
            return {}
        rules = self.rules(key)
        risks = {}
        for card in allowed:
            near = sum(1 for other in theirs if self.partial_outs(card, other))
            completes = sum(1 for i, a in enumerate(theirs) for b in theirs[i + 1:]
                            if melds.is_valid_meld([a, b, card], rules))
            if near or completes:
                risks[card] = FEED_MELD * completes + FEED_NEAR * near
        return risks

    # -- the knock arrangement

    def end_move(self, move: dict, know: Knowledge, key, level: int) -> dict:
        if level <= 1:
            return move
        rest = [c for c in know.hand if c != move["card"]]
        live = set(know.extra.get("unseen") or self.unseen(know))
        return {**move, "arrangement": knock_arrangement(rest, live)}

    # -- expert search hooks

    # Decisions the expert searches: taking the discard or not, and knocking or not. Plain discards
    # follow the level-2 order: searching them with playouts (or a one-draw lookahead with a penalty
    # for feeding the next player) measured no better than it in 100-match runs, and costs time.
    search_kinds = frozenset({"draw", "end"})

    def candidates(self, view: dict, know: Knowledge, moves: Moves, key) -> list[dict]:
        know.extra["unseen"] = self.unseen(know)
        if moves.has("discard") or moves.has("knock"):
            kind = "end" if moves.has("knock") else "discard"
            if kind not in self.search_kinds:
                return []
            return self.discard_candidates(know, moves, key)
        if "draw" not in self.search_kinds:
            return []
        out = [draw_choice(self, know, moves, key, 2)]  # the level-2 choice first: the default
        for action in ("take_discard", "draw_stock", "pass"):
            move = moves.first(action)
            if move is not None and move not in out:
                out.append(move)
        return out

    def discard_candidates(self, know: Knowledge, moves: Moves, key) -> list[dict]:
        left = self.discards(know.hand, key)
        knocks = moves.by_card("knock")
        out = []
        knock = None
        if knocks:
            card = min(knocks, key=lambda c: (left[c], -self.value(c, key), cards.sort_key(c)))
            knock = self.end_move(knocks[card], know, key, 3)
            if left[card] == 0:
                return [knock]  # a Gin cannot be bettered nor undercut
            if not moves.has("discard"):
                return [knock]
            if not self.hunts_gin(know):
                out.append(knock)  # knocking is the default; the search may play on
        options = moves.by_card("discard")
        best = min(left[c] for c in options)
        limit = len(out) + MAX_DISCARDS
        for c in confirmed_order(self, know, list(options), key):
            if left[c] > best + CANDIDATE_MARGIN:
                break
            out.append(options[c])
            if len(out) >= limit:
                break
        if knock is not None and knock not in out and self.near_the_end(know):
            out.append(knock)  # playing on for a gin is the default; near the limit the search may knock
        return out

    def hunts_gin(self, know: Knowledge) -> bool:
        """Whether playing on for a gin is the default over knocking: in a match to 100, while the stock is
        long. A player who knocks as soon as he may is undercut by a hand kept this low, or loses to the
        gin. In a one-round match a knock that comes first wins the pot, so there it knocks by default, and
        the search weighs playing on (an undercut trap) against it on the same deals."""
        return know.extra.get("match") != "1" and know.stock_count > HUNT_GIN_ABOVE_STOCK

    def near_the_end(self, know: Knowledge) -> bool:
        """Whether a knock may decide the match (a total within `MATCH_POINT_MARGIN` of the limit): then the
        search weighs knocking even during the gin hunt, by the chance of winning the match. Earlier it
        does not: its playouts knock at once after any discard, so they undervalue the hunt, and letting
        them choose a knock there lost matches (against the reference opponent, to 100: 63.0 % with the
        knock always searched, 71.5 % without, on the same 200 deals)."""
        return max(know.scores[s] for s in know.active) >= PENALTY_LIMIT - MATCH_POINT_MARGIN

    def determinize(self, view: dict, know: Knowledge, key, rng) -> dict:
        """Deal the unseen cards: other hands (each replayed through his past turns with the
        greedy policy on random draws, so it is as good as his play made it), then the stock."""
        pool = list(know.extra.get("unseen") or self.unseen(know))
        rng.shuffle(pool)
        past = self.past_turns(know)
        hands = {}
        back: list[str] = []
        for seat in know.opponents():
            size = know.hand_counts.get(seat, 0)
            hand = list(know.known.get(seat, []))[:size]
            hand += [pool.pop() for _ in range(min(size - len(hand), len(pool)))]
            for _ in range(min(past, len(pool) - know.stock_count - 1)):
                drawn = pool.pop()
                card, _dw = self.step(hand, drawn, key)
                if card in know.known.get(seat, ()):
                    card = drawn  # a card he is known to hold stays in his hand
                hand.append(drawn)
                hand.remove(card)
                back.append(card)
            hands[seat] = hand
        pool += back
        rng.shuffle(pool)
        stock = pool[-know.stock_count:] if know.stock_count else []
        return {"hands": hands, "stock": stock}

    def past_turns(self, know: Knowledge) -> int:
        """Turns an opponent has played this round, from the cards gone from the stock."""
        players = len(know.active) or 2
        dealt = 52 - players * know.extra["hand_size"] - 1
        drawn = max(0, dealt - know.stock_count)
        return min(PAST_TURNS_CAP, drawn // players)

    # -- the playout policy

    def wants(self, hand: list[str], top: str, key) -> bool:
        """Greedy draw: take the top discard when it lowers the best deadwood."""
        _card, after = self.step(hand, top, key, taken=top)
        return after < self.profile(hand, key)[0]

    def evaluate(self, world: dict, candidates: list[dict], know: Knowledge, key) -> list[float]:
        return [self.playout(world, move, know, key) for move in candidates]

    def playout(self, world: dict, move: dict, know: Knowledge, key) -> float:
        me = know.seat
        order = know.turn_order()  # others clockwise, me last
        hands = {s: list(h) for s, h in world["hands"].items()}
        hands[me] = list(know.hand)
        stock = list(world["stock"])
        pile = list(know.discard_pile)
        action = move["action"]

        if action == "knock":
            return self.showdown(me, [c for c in know.hand if c != move["card"]], hands,
                                 move["arrangement"], know, key)
        if action == "discard":
            hands[me].remove(move["card"])
            pile.append(move["card"])
            seat_index = 0
        elif action in ("take_discard", "draw_stock"):
            card = pile.pop() if action == "take_discard" else stock.pop()
            taken = card if action == "take_discard" else None
            end = self.finish_turn(me, card, taken, hands, pile, know, key)
            if end is not None:
                return end
            seat_index = 0
        else:  # pass on the first upcard
            return self.after_pass(world, hands, stock, pile, know, key)
        return self.loop(order, seat_index, hands, stock, pile, know, key)

    def after_pass(self, world, hands, stock, pile, know: Knowledge, key) -> float:
        """The first-upcard round goes on after this seat passed; then the first player draws."""
        me = know.seat
        order = know.turn_order()
        n = len(order)
        dealer = know.extra.get("dealer")
        # upcard order starts at the dealer's left; seats after me in it still decide
        upcard = order if dealer is None else [s for s in _clockwise_from(dealer, know) if s in order]
        later = upcard[upcard.index(me) + 1:]
        for seat in later:
            if pile and self.wants(hands[seat], pile[-1], key):
                card = pile.pop()
                end = self.finish_turn(seat, card, card, hands, pile, know, key)
                if end is not None:
                    return end
                return self.loop(order, (order.index(seat) + 1) % n, hands, stock, pile, know, key)
        first = upcard[0]
        end = self.finish_turn(first, stock.pop(), None, hands, pile, know, key)
        if end is not None:
            return end
        return self.loop(order, (order.index(first) + 1) % n, hands, stock, pile, know, key)

    def loop(self, order, index, hands, stock, pile, know: Knowledge, key) -> float:
        n = len(order)
        for _ in range(MAX_TURNS):
            seat = order[index]
            hand = hands[seat]
            if pile and self.wants(hand, pile[-1], key):
                card = pile.pop()
                taken = card
            else:
                if len(stock) <= STOCK_FLOOR:
                    return self.void_value(know)
                card = stock.pop()
                taken = None
            end = self.finish_turn(seat, card, taken, hands, pile, know, key)
            if end is not None:
                return end
            if len(stock) <= STOCK_FLOOR:
                return self.void_value(know)
            index = (index + 1) % n
        return self.void_value(know)

    def finish_turn(self, seat, drawn, taken, hands, pile, know: Knowledge, key) -> float | None:
        """Greedy discard phase of `seat` after drawing `drawn`: knock if he may, else discard."""
        card, dw = self.step(hands[seat], drawn, key, taken)
        hand = hands[seat] = [c for c in hands[seat] if c != card]
        if card != drawn:
            hand.append(drawn)
        if dw <= KNOCK_LIMIT:
            arrangement = [list(m) for m in self.arrangement(hand, key).melds]
            return self.showdown(seat, hand, hands, arrangement, know, key)
        pile.append(card)
        return None

    def showdown(self, knocker: int, kept: list[str], hands: dict, arrangement, know: Knowledge, key) -> float:
        """§6 scoring of a knock by `knocker` keeping `kept` with `arrangement`; utility for this seat."""
        in_melds = {c for m in arrangement for c in m}
        dk = sum(self.value(c, key) for c in kept if c not in in_melds)
        others = [s for s in _clockwise_from(knocker, know) if s != knocker and s in hands]
        dw = {knocker: dk}
        for p in others:
            if dk == 0:
                dw[p] = self.deadwood(hands[p], key)
            else:
                dw[p] = self.layoff_deadwood(hands[p], arrangement, key)
        if dk == 0:
            points = {knocker: 0, **{p: dw[p] + GIN_BONUS for p in others}}
            winner = knocker
        elif all(dw[p] > dk for p in others):
            points = {knocker: 0, **{p: dw[p] - dk for p in others}}
            winner = knocker
        else:
            u = min(others, key=lambda p: (dw[p], others.index(p)))
            points = {p: dw[p] - dw[u] for p in others}
            points[knocker] = dk - dw[u] + UNDERCUT_BONUS
            points[u] = 0
            winner = u
        return self.utility(points, winner, know)

    def layoff_deadwood(self, hand: list[str], table_melds, key) -> int:
        """An opponent's least deadwood with his melds and lay-offs on the knocker's melds (§4):
        the 4th card of a set, chains of his own cards at either end of a run. Same result as
        `melds.best_with_layoffs` for Gin, much faster (no wilds, few options)."""
        held = set(hand)
        per_meld = []
        for meld in table_melds:
            ranks = sorted(suit_rank(c)[1] for c in meld)
            if ranks[0] == ranks[-1]:
                options = [()] + [(c,) for c in held if suit_rank(c)[1] == ranks[0] and c not in meld]
            else:
                suit = suit_rank(meld[0])[0]
                low, high = [], []
                r = ranks[0] - 1
                while r >= 1 and _card(suit, r) in held:
                    low.append(_card(suit, r))
                    r -= 1
                r = ranks[-1] + 1
                while r <= 13 and _card(suit, r) in held:
                    high.append(_card(suit, r))
                    r += 1
                options = [tuple(low[:i] + high[:j]) for i in range(len(low) + 1) for j in range(len(high) + 1)]
            if len(options) > 1:
                per_meld.append(options)
        best = self.deadwood(hand, key)
        for choice in product(*per_meld):
            used = [c for group in choice for c in group]
            if not used or len(set(used)) != len(used):
                continue
            dw = self.deadwood([c for c in hand if c not in used], key)
            best = min(best, dw)
        return best

    def utility(self, points: dict[int, int], winner: int, know: Knowledge) -> float:
        """What the round's outcome is worth to this seat. Heads-up, the match decides: a one-round table
        counts this seat's share of the pot (§7: 3/4 to the winner, 1/4 to a loser under 25 points), a
        match to 100 the chance of winning it from the new totals (`gin_match.equity`), both out of 100."""
        me = know.seat
        opps = [s for s in points if s != me]
        if len(opps) == 1:
            (opp,) = opps
            if know.extra.get("match") == "1":
                if winner == me:
                    return 75.0 + (25.0 if points[opp] >= PRIZE_THRESHOLD else 0.0)
                return 25.0 if points[me] < PRIZE_THRESHOLD else 0.0
            return 100.0 * gin_match.equity(know.scores[me] + points[me], know.scores[opp] + points[opp])
        u = sum(points[s] for s in opps) / max(1, len(opps)) - points.get(me, 0)
        if know.extra.get("match") == "1":
            return u * 0.2 + (ROUND_STAKE if winner == me else -ROUND_STAKE)
        scores = know.scores
        if scores[me] + points.get(me, 0) > PENALTY_LIMIT:
            u -= LIMIT_STAKE
        for s in opps:
            if scores[s] <= PENALTY_LIMIT < scores[s] + points[s]:
                u += LIMIT_STAKE / len(opps)
        return u

    def void_value(self, know: Knowledge) -> float:
        """A round that ends with no knock: the match stands where it is (heads-up: an even pot, or the
        current chance of winning the match)."""
        if len(know.active) != 2:
            return 0.0
        if know.extra.get("match") == "1":
            return 50.0
        (opp,) = know.opponents()
        return 100.0 * gin_match.equity(know.scores[know.seat], know.scores[opp])


def _clockwise_from(seat: int, know: Knowledge) -> list[int]:
    """Active seats clockwise starting at the left of `seat` (`seat` itself last if active)."""
    n = know.seats
    return [s for s in ((seat + i) % n for i in range(1, n + 1)) if s in know.active]


# ---------------------------------------------------------------- knock arrangements


def all_melds(hand: list[str]) -> list[tuple[str, ...]]:
    """Every valid Gin meld inside `hand`: sets of 3-4, runs of 3+ (ace low only)."""
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[int, dict[int, str]] = {}
    for c in hand:
        s, r = suit_rank(c)
        by_rank.setdefault(r, []).append(c)
        by_suit.setdefault(s, {})[r] = c
    out = []
    for group in by_rank.values():
        if len(group) >= 3:
            group = sorted(group, key=cards.sort_key)
            out += [tuple(x for x in group if x != skip) for skip in group] if len(group) == 4 else []
            out.append(tuple(group))
    for ranks in by_suit.values():
        for lo in range(1, 12):
            run = []
            for r in range(lo, 14):
                if r not in ranks:
                    break
                run.append(ranks[r])
                if len(run) >= 3:
                    out.append(tuple(run))
    return out


def arrangements(hand: list[str]) -> list[tuple[int, list[tuple[str, ...]]]]:
    """Every maximal choice of disjoint melds: (deadwood, melds)."""
    options = all_melds(hand)
    value = {c: min(suit_rank(c)[1], 10) for c in hand}
    results = []

    def walk(start, used, chosen):
        extended = False
        for i in range(start, len(options)):
            m = options[i]
            if used.isdisjoint(m):
                extended = True
                walk(i + 1, used | set(m), chosen + [m])
        if not extended:
            results.append((sum(v for c, v in value.items() if c not in used), chosen))

    walk(0, frozenset(), [])
    return results


def layoff_exposure(meld: tuple[str, ...], live: set[str]) -> int:
    """Unseen cards an opponent could lay off on `meld` (the 4th of a set, the next card at each end
    of a run, one step further counted too)."""
    suits = {suit_rank(c)[0] for c in meld}
    ranks = sorted(suit_rank(c)[1] for c in meld)
    if len(set(ranks)) == 1:
        if len(meld) >= 4:
            return 0
        return sum(1 for s in range(4) if s not in suits and _card(s, ranks[0]) in live)
    (suit,) = suits
    n = 0
    for step in (1, 2):
        lo, hi = ranks[0] - step, ranks[-1] + step
        if lo >= 1 and _card(suit, lo) in live and (step == 1 or _card(suit, lo + 1) in live):
            n += 1
        if hi <= 13 and _card(suit, hi) in live and (step == 1 or _card(suit, hi - 1) in live):
            n += 1
    return n


def _card(suit: int, rank: int) -> str:
    return f"{cards.RANKS[rank - 1]}{cards.SUITS[suit]}1"


def knock_arrangement(kept: list[str], live: set[str]) -> list[list[str]]:
    """The least-deadwood arrangement of the kept cards giving the fewest possible lay-offs
    (then the most cards in sets, as the rules' « Ranger pour moi »)."""
    best_key, best = None, []
    for dead, chosen in arrangements(kept):
        exposure = sum(layoff_exposure(m, live) for m in chosen)
        in_sets = sum(len(m) for m in chosen if len({suit_rank(c)[1] for c in m}) == 1)
        key = (dead, exposure, -in_sets, sorted(cards.sort_key(m[0]) for m in chosen))
        if best_key is None or key < best_key:
            best_key, best = key, chosen
    return [sorted(m, key=cards.sort_key) for m in best]


ADAPTER = GinAdapter()

