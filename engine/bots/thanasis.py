"""Thanasis adapter: wild rank per round, close at 10 points or less, burn at 101.

The stock is the only source of cards (the discard pile is never taken), so no discard ever helps an
opponent and no draw can be planned around his: a round is a race, each seat towards 10 points or less
with the cards it draws. The expert therefore plays no opponent out. It weighs its own next draw exactly:
for each discard it may make, every card it has not seen, drawn next, then thrown back at best
(`Adapter.step`), and it keeps the discard whose ten cards fare best on average (`draw_cost`).

Measured (bench.bots --game thanasis --pairs 3-2 --matches 2000, seeds 0-1999): this expert beats the
Confirmé in 52.4 % of the matches, 15.37 points a round against 16.39, with 16 ms of CPU a decision (p50;
p99 63 ms); the determinized playouts it replaced won 50.9 %, 15.53 points against 16.12, p99 177 ms.
"""

from collections import Counter

from engine import cards, melds
from engine.bots.base import Adapter, Knowledge, Moves, knowledge_of

CLOSE_LIMIT = 10
BURN_LIMIT = 101
MAX_CANDIDATES = 6
CANDIDATE_MARGIN = 12  # discards leaving more than best + this deadwood are not weighed
NOT_CLOSED = 15  # what a draw that does not let the seat close costs, beyond the deadwood it leaves
BURNT = 60  # and more if that deadwood would burn the seat, should another player close then


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
        return know

    def end_move(self, move: dict, know: Knowledge, key, level: int) -> dict:
        return move

    # -- level 3

    def expert(self, view: dict, know: Knowledge, moves: Moves, key) -> dict | None:
        """The discard with the least `draw_cost`, among the few that leave the least deadwood (one per card
        face: two copies weigh the same). None when there is no discard to weigh, or when the rules allow a
        close: the level-2 logic then plays it (it closes at once, as the closer scores 0 and the others their
        deadwood)."""
        hand = know.hand
        if len(hand) < 2 or not moves.has("discard") or moves.has("close"):
            return None
        left = self.discards(hand, key)
        options = moves.by_card("discard")
        order = sorted(options, key=lambda c: (left[c], -self.value(c, key), cards.sort_key(c)))
        best = left[order[0]]
        candidates, faces = [], set()
        for card in order:
            face = self.face_of(card, key)
            if face in faces or left[card] > best + CANDIDATE_MARGIN:
                continue
            faces.add(face)
            candidates.append(card)
            if len(candidates) == MAX_CANDIDATES:
                break
        if len(candidates) == 1:
            return options[candidates[0]]
        draws = self.draws(know, key)
        score = know.scores[know.seat] if know.seat < len(know.scores) else 0
        kept = {c: [x for x in hand if x != c] for c in candidates}
        return options[min(candidates, key=lambda c: (self.draw_cost(kept[c], draws, key, score), left[c]))]

    def face_of(self, card: str, key):
        """What a card is worth to a hand: its face, or for a wild only its points left outside melds."""
        return ("*", self.value(card, key)) if self.is_wild(card, key) else cards.face(card)

    def draws(self, know: Knowledge, key) -> list[tuple[str, int]]:
        """The cards this seat may draw next, one per face, with how many of that face it has not seen."""
        counts: Counter = Counter()
        first: dict = {}
        for card in self.unseen(know):
            face = self.face_of(card, key)
            counts[face] += 1
            first.setdefault(face, card)
        return [(first[face], n) for face, n in counts.items()]

    def draw_cost(self, hand: list[str], draws: list[tuple[str, int]], key, score: int) -> float:
        """The mean, over the next draw, of the deadwood left once the worst card is thrown back, plus
        NOT_CLOSED when that is still above the closing limit, plus BURNT when it would burn this seat."""
        total = weight = 0.0
        for card, n in draws:
            left = self.step(hand, card, key)[1]
            cost = left
            if left > CLOSE_LIMIT:
                cost += NOT_CLOSED + (BURNT if score + left >= BURN_LIMIT else 0)
            total += n * cost
            weight += n
        return total / weight if weight else 0.0


ADAPTER = ThanasisAdapter()
