"""The partnership Canastas' reference (Canasta classique with cards, Canasta en équipe with tiles): the greedy
melder of the beginners' guides (pagat's « basic strategy » read plainly).

- Draw step: takes the discard pile whenever the rules let it lay the top piece at once with naturals only
  (a natural pair from its hand, or the top piece alone onto its team's meld of that rank; for a first meld
  the pick-up's other melds natural too): the pick-ups `legal_moves` offers, the first without a wild. Else
  it draws from the stock; with the stock empty it declines (`pass`) a pick-up it would have to make with
  wilds. It never uses the tile game's Joker button (it spends the player's account balance).
- Table actions, one a decision, planned again from the view each time: while the team has not opened,
  every natural group of three or more from its hand (never the 3s, never the wilds), and only if they reach
  the opening minimum together; once opened, naturals laid off on its team's melds, every natural group of
  3+ of a rank the team has not melded, and wilds only to complete a canasta (a meld that reaches 7 with
  them), or to lay its last pieces when that lets it go out. It always keeps what the end of the turn needs:
  two pieces without a canasta, one to discard (tiles) or none (cards, `go_out`) with one.
- Discard: a blocking 3 first (black 3s, blue and black 3-tiles: a stop for the next player, and a −100
  tile left in hand), else a single natural of a rank no one has melded, then a single of its own team's
  melded rank, then a piece of a pair, then any natural (the lowest value first in each class, keeping the
  high pieces for the opening minimum), a wild only when nothing else is left (2s before jokers).
- Going out: as soon as the rules allow (a team canasta), with no question first (asking is optional in
  the card game); the partner's « Puis-je sortir ? » is answered « oui » when it holds at most `FEW` pieces.
- The card game's last red 3 of the stock (no discard, `end_turn`): an opened team still lays what it can.
"""

import random
from collections import Counter

from bench.reference.common import first, of
from engine import games

CANASTA = 7
FEW = 3  # pieces in hand at most to answer the partner's question « oui »


class _Turn:
    """What the seat knows at this decision, read from its view."""

    def __init__(self, view: dict, legal: list[dict]):
        self.game = games.get(view["game"])
        self.rules = self.game.rules
        self.P = self.rules.pieces
        self.hand = list(view["hand"])  # after the staged actions
        team = view["team"]
        other = "B" if team == "A" else "A"
        staged = view.get("staged")
        self.melds = [dict(m) for m in (staged["melds_after"] if staged else view["teams"][team]["melds"])]
        self.melded_ranks = {m["rank"] for m in self.melds}
        self.their_ranks = {m["rank"] for m in view["teams"][other]["melds"]}
        self.opened = bool(view["teams"][team]["melded"] or (staged and staged["opening_ok"]))
        self.need = 0 if self.opened else view["teams"][team]["minimum"] - (staged["points"] if staged else 0)
        self.last_red3 = first(legal, "end_turn") is not None  # cards: the stock ended on a red 3, no discard

    def natural(self, p: str) -> bool:
        return not self.P.is_wild(p) and self.P.rank[p] != "3"

    def floor(self, canasta: bool) -> int:
        """Pieces the table actions must leave in hand."""
        if self.last_red3:
            return 0 if canasta else 1
        if canasta:
            return 0 if self.rules.go_out_action else 1
        return 2

    def canasta_after(self, meld_id: str | None, added: int) -> bool:
        """Whether the team owns a canasta once `added` pieces go onto `meld_id` (None: a new meld)."""
        if meld_id is None and added >= CANASTA:
            return True
        return any(m["count"] + (added if m["id"] == meld_id else 0) >= CANASTA for m in self.melds)

    def fits(self, pieces: list[str], meld_id: str | None) -> bool:
        return len(self.hand) - len(pieces) >= self.floor(self.canasta_after(meld_id, len(pieces)))

    def groups(self) -> dict[str, list[str]]:
        """The hand's naturals by rank (no 3s, no wilds)."""
        out: dict = {}
        for p in self.P.sort(self.hand):
            if self.natural(p):
                out.setdefault(self.P.rank[p], []).append(p)
        return out

    def wilds(self) -> list[str]:
        return sorted((p for p in self.hand if self.P.is_wild(p)), key=lambda p: (self.P.value[p], self.P.order[p]))


def _trimmed(turn: _Turn, pieces: list[str], meld_id: str | None, least: int) -> list[str] | None:
    """`pieces` (the lowest first dropped) cut to what the floor lets it lay, or None under `least`."""
    for n in range(len(pieces), least - 1, -1):
        if turn.fits(pieces[:n], meld_id):
            return pieces[:n]
    return None


def _opening(turn: _Turn) -> dict | None:
    """The next natural group of a first meld, when all of them together reach the minimum."""
    groups = sorted((cs for r, cs in turn.groups().items() if len(cs) >= 3 and r not in turn.melded_ranks),
                    key=lambda cs: -turn.rules.value(cs))
    chosen, left, total = [], len(turn.hand), 0
    for cs in groups:
        canasta = any(len(g) >= CANASTA for g in [*chosen, cs])
        if left - len(cs) >= turn.floor(canasta):
            chosen.append(cs)
            left -= len(cs)
            total += turn.rules.value(cs)
    if not chosen or total < turn.need:
        return None
    return {"action": "meld", "cards": chosen[0]}


def _naturals(turn: _Turn) -> dict | None:
    """A lay-off of naturals on a team meld, else a new natural meld of 3+."""
    by_id = {m["rank"]: m["id"] for m in turn.melds}
    groups = turn.groups()
    for rank, cs in groups.items():
        if rank in by_id:
            use = _trimmed(turn, cs, by_id[rank], 1)
            if use:
                return {"action": "lay_off", "cards": use, "meld_id": by_id[rank]}
    for rank, cs in sorted(groups.items(), key=lambda kv: -turn.rules.value(kv[1])):
        if rank not in by_id and len(cs) >= 3:
            use = _trimmed(turn, cs, None, 3)
            if use:
                return {"action": "meld", "cards": use}
    return None


def _close(turn: _Turn) -> dict | None:
    """Wilds onto a team meld that they make a canasta."""
    wilds = turn.wilds()
    for m in sorted(turn.melds, key=lambda m: -m["count"]):
        short = CANASTA - m["count"]
        if m["rank"] in ("2", "3") or short <= 0 or short > len(wilds):
            continue
        use = wilds[:short]
        if turn.rules.meld_error(m["rank"], list(m["pieces"]) + use) is None and turn.fits(use, m["id"]):
            return {"action": "lay_off", "cards": use, "meld_id": m["id"]}
    return None


def _wilds_out(turn: _Turn) -> dict | None:
    """With a canasta, only wilds left besides one piece to discard: a wild onto a meld with room, to go out."""
    if not any(m["count"] >= CANASTA for m in turn.melds):
        return None
    wilds = turn.wilds()
    rest = len(turn.hand) - len(wilds)
    if not wilds or rest > (0 if turn.last_red3 else 1):
        return None
    if rest == 0 and turn.floor(True) == 1 and len(wilds) == 1:
        return None  # tiles: the last wild is the discard
    for w in wilds:
        for m in turn.melds:
            if m["rank"] in ("2", "3"):
                continue
            if turn.rules.meld_error(m["rank"], list(m["pieces"]) + [w]) is None and turn.fits([w], m["id"]):
                return {"action": "lay_off", "cards": [w], "meld_id": m["id"]}
    return None


def _table_action(turn: _Turn) -> dict | None:
    if not turn.opened:
        if turn.last_red3:
            return None
        return _opening(turn)
    return _naturals(turn) or _close(turn) or _wilds_out(turn)


def _discard(turn: _Turn, legal: list[dict]) -> dict:
    moves = of(legal, "discard")
    P = turn.P
    counts = Counter(P.rank[p] for p in turn.hand)

    def rank(move: dict) -> tuple:
        p = move["card"]
        r = P.rank[p]
        if p in P.block_threes:
            tier = 0
        elif P.is_wild(p):
            tier = 6 if P.rank[p] == P.joker_rank else 5
        elif counts[r] == 1 and r not in turn.melded_ranks and r not in turn.their_ranks:
            tier = 1
        elif counts[r] == 1 and r in turn.melded_ranks:
            tier = 2
        elif counts[r] == 2 and r not in turn.their_ranks:
            tier = 3
        else:
            tier = 4
        return tier, P.value[p], P.order[p]

    return min(moves, key=rank)


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if first(legal, "answer_go_out") is not None:
        return {"action": "answer_go_out", "answer": "yes" if len(view["hand"]) <= FEW else "no"}
    phase = view["phase"]
    turn = _Turn(view, legal)
    if phase == "FIRST_TURN":
        return _discard(turn, legal)
    if phase == "DRAW":
        P = turn.P
        natural_takes = [m for m in of(legal, "take_pile") if not any(P.is_wild(p) for g in m["melds"] for p in g)]
        if natural_takes:
            return natural_takes[0]
        move = first(legal, "draw_stock") or first(legal, "pass")
        if move is not None:
            return move
        return next(m for m in legal if m["action"] != "ask_go_out")  # a compulsory pick-up
    if phase == "MELD":
        action = _table_action(turn)
        if action is not None:
            return action
        done = first(legal, "go_out") or first(legal, "end_turn")
        if done is not None:
            return done
        if of(legal, "discard"):
            return _discard(turn, legal)
    return next((m for m in legal if m["action"] not in ("ask_go_out", "undo")), legal[0])
