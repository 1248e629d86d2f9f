"""Thanasis adapter: wild rank per round, close at 10 points or less, burn at 101.

The stock is the only source of cards (the discard pile is never taken), so in a determinized deal
each seat's future draws are fixed: an opponent's greedy play does not depend on this seat's
discards. The expert therefore plays each opponent out once per deal and only replays its own hand
for every candidate, stopping as soon as someone closes first.
"""

from engine import cards, melds
from engine.bots.base import Adapter, Knowledge, Moves, knowledge_of
from engine.bots.levels import confirmed_order

CLOSE_LIMIT = 10
BURN_LIMIT = 101
BURN_STAKE = 100  # utility of burning an opponent (or being burnt) on top of the round's points
MAX_CANDIDATES = 5
CANDIDATE_MARGIN = 12  # discards leaving more than best + this deadwood are not searched
HORIZON_CYCLES = 30  # turns per seat simulated at most (then the round is scored from deadwood)
LEAF_WEIGHT = 0.3
PAST_TRIES = 3  # deals of an opponent's past turns before accepting one where he could have closed
PAST_AFTER_REBUILD = 6  # turns assumed before a stock rebuild (the pile no longer shows them)


class ThanasisAdapter(Adapter):
    slug = "thanasis"
    deck = tuple(cards.deck(copies=2, jokers=2))
    end_action = "close"
    end_limit = CLOSE_LIMIT
    ace_high = True
    take_action = ""  # the discard pile is never taken
    potential_weight = 0.0
    potential_margin = 0

    # -- rules

    def rules_key(self, view: dict):
        return view.get("wild_rank")

    def rules(self, key):
        return melds.thanasis_rules(key)

    def is_wild(self, card: str, key) -> bool:
        return cards.is_joker(card) or (key is not None and cards.rank_of(card) == key)

    def knowledge(self, view: dict) -> Knowledge:
        know = knowledge_of(view)
        if view.get("indicator"):
            know.out_of_play.append(view["indicator"])  # face up beside the stock all round
        know.extra["turns"] = self.turns_played(know, int(view.get("stock_rebuilds") or 0))
        return know

    def turns_played(self, know: Knowledge, rebuilds: int) -> dict[int, int]:
        """Turns each opponent has played this round, read from the discard pile.

        Nobody takes from the pile, so it grows by one card a turn in seat order: the top card is the
        previous seat's, the one below the seat before, and so on. After a stock rebuild the count
        only covers the cards since; many turns were played, so a few are added.
        """
        order = know.turn_order()
        n = len(order)
        pile = len(know.discard_pile)
        turns = {}
        for pos, seat in enumerate(order[:-1]):
            first = n - 1 - pos  # depth in the pile of this seat's latest discard
            count = 0 if pile < first else 1 + (pile - first) // n
            turns[seat] = count + (PAST_AFTER_REBUILD if rebuilds else 0)
        return turns

    def end_move(self, move: dict, know: Knowledge, key, level: int) -> dict:
        return move

    # -- expert search hooks

    def candidates(self, view: dict, know: Knowledge, moves: Moves, key) -> list[dict]:
        hand = know.hand
        if len(hand) < 2 or not moves.has("discard"):
            return []
        left = self.discards(hand, key)
        out = []
        closes = moves.by_card("close")
        if closes:
            card = min(closes, key=lambda c: (left[c], -self.value(c, key), cards.sort_key(c)))
            out.append(closes[card])
        options = moves.by_card("discard")
        best = min(left[c] for c in options)
        seen_class = set()
        for c in confirmed_order(self, know, list(options), key):
            cls = "*" + str(self.value(c, key)) if self.is_wild(c, key) else cards.face(c)
            if cls in seen_class or left[c] > best + CANDIDATE_MARGIN:
                continue
            seen_class.add(cls)
            out.append(options[c])
            if len(out) >= MAX_CANDIDATES:
                break
        know.extra["unseen"] = self.unseen(know)
        return out

    def finalize(self, move: dict, know: Knowledge, key) -> dict:
        return move

    def determinize(self, view: dict, know: Knowledge, key, rng) -> dict:
        """Deal the unseen cards: other hands, then the stock in a random order.

        An opponent's hand is not a random 10 cards: he has kept the best of the cards he drew.
        So his hand is dealt as a round start plus his past turns replayed with the greedy policy on
        random draws (cards he would have thrown go back to the pool); a replay in which he could
        have closed contradicts the fact that he did not, and is dealt again (a few tries).
        """
        pool = list(know.extra.get("unseen") or self.unseen(know))
        rng.shuffle(pool)
        turns = know.extra.get("turns", {})
        hands = {}
        back: list[str] = []
        for seat in know.opponents():
            size = know.hand_counts.get(seat, 0)
            past = turns.get(seat, 0) if size == 10 else 0
            for _attempt in range(PAST_TRIES):
                hand = [pool.pop() for _ in range(min(size, len(pool)))]
                thrown = []
                ok = True
                for _ in range(min(past, len(pool))):
                    drawn = pool.pop()
                    card, dw = self.step(hand, drawn, key)
                    hand.append(drawn)
                    hand.remove(card)
                    thrown.append(card)
                    if dw <= CLOSE_LIMIT:
                        ok = False
                        break
                if ok or _attempt == PAST_TRIES - 1:
                    back += thrown
                    break
                pool[:0] = hand + thrown  # put them back at the bottom and deal again
            hands[seat] = hand
        pool[:0] = back
        rng.shuffle(pool)
        stock = pool[-know.stock_count:] if know.stock_count else []
        return {"hands": hands, "stock": stock}

    def evaluate(self, world: dict, candidates: list[dict], know: Knowledge, key) -> list[float]:
        order = know.turn_order()  # opponents in turn order, this seat last
        n = len(order)
        stock = world["stock"]
        size = len(stock)
        horizon = min(size, n * HORIZON_CYCLES)

        # every opponent's greedy future, independent of this seat's play
        opp = {}
        for pos, seat in enumerate(order[:-1]):
            hand = list(world["hands"][seat])
            dws = [self.deadwood(hand, key)]
            close_at = None
            g = pos
            while g < horizon:
                drawn = stock[size - 1 - g]
                card, dw = self.step(hand, drawn, key)
                if dw <= CLOSE_LIMIT:
                    close_at = g
                    break
                if card != drawn:
                    hand.remove(card)
                    hand.append(drawn)
                dws.append(dw)
                g += n
            opp[seat] = (pos, dws, close_at)
        closers = [(v[2], s) for s, v in opp.items() if v[2] is not None]
        first_close, first_closer = min(closers) if closers else (horizon, None)

        def opp_dw(seat: int, t: int) -> int:
            pos, dws, _ = opp[seat]
            played = 0 if t <= pos else -(-(t - pos) // n)
            return dws[min(played, len(dws) - 1)]

        left = self.discards(know.hand, key)
        values = []
        for move in candidates:
            card = move["card"]
            if move["action"] == "close":
                points = {s: opp_dw(s, 0) for s in opp}
                points[know.seat] = 0
                values.append(self.utility(points, know))
                continue
            hand = list(know.hand)
            hand.remove(card)
            mine = left[card]
            g = n - 1
            closed_at = None
            while g < first_close and g < horizon:
                drawn = stock[size - 1 - g]
                c, dw = self.step(hand, drawn, key)
                if dw <= CLOSE_LIMIT:
                    closed_at = g
                    break
                if c != drawn:
                    hand.remove(c)
                    hand.append(drawn)
                mine = dw
                g += n
            if closed_at is not None:
                points = {s: opp_dw(s, closed_at) for s in opp}
                points[know.seat] = 0
                values.append(self.utility(points, know))
            elif first_closer is not None and first_close < horizon:
                points = {s: opp_dw(s, first_close) for s in opp}
                points[first_closer] = 0
                points[know.seat] = mine
                values.append(self.utility(points, know))
            else:  # nobody closed within the horizon: a small edge to the lower deadwood
                others = [opp_dw(s, horizon) for s in opp]
                values.append(LEAF_WEIGHT * (sum(others) / len(others) - mine))
        return values

    def utility(self, points: dict[int, int], know: Knowledge) -> float:
        me = know.seat
        opps = [s for s in points if s != me]
        if not opps:
            return 0.0
        u = sum(points[s] for s in opps) / len(opps) - points[me]
        scores = know.scores
        if scores[me] + points[me] >= BURN_LIMIT:
            u -= BURN_STAKE
        for s in opps:
            if scores[s] < BURN_LIMIT <= scores[s] + points[s]:
                u += BURN_STAKE / len(opps)
        return u


ADAPTER = ThanasisAdapter()
