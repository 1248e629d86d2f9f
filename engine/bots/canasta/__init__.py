"""Bots of the partnership Canastas: Canasta classique (cards) and Canasta en équipe (tiles).

One adapter for both rule sets (`Spec` reads the differences: wilds, values, meld limits, the frozen
pile of the card game, the meld of 2s of the tile game). A bot sees only its seat's view and the legal
moves: its own hand, both teams' melds, the pile's top and size, the hand counts. Partners cooperate only
through what the table shows (their team's melds, hand counts) and, in the card game, the rules'
« Partenaire, puis-je sortir ? » question. A turn is several decisions (draw or take the pile, staged
melds and lay-offs, then the discard or `go_out`) and a bot keeps no memory between them: every call
plans the rest of the turn from the view and plays the plan's first step. Table actions only shed cards,
so a turn always ends.

- Level 1 « Débutant »: draws from the stock; takes the pile only with a natural pair already in hand
  and a pile of 3 cards or more; opens with natural melds only; lays off naturals; uses a wild only to
  close a canasta of 6; discards its highest loose card (one discard in four at random); goes out
  whenever it can; answers its partner « oui ».
- Level 2 « Confirmé »: takes the pile whenever the rules let it; opens as soon as its naturals and
  wilds reach the minimum; melds every natural triple, lays off on the team's melds, closes canastas
  with wilds; keeps its pairs (to take the pile); discards a blocking 3 first, else a loose card the
  next opponent is unlikely to take the pile with; goes out whenever it can.
- Level 3 « Expert » (`engine.bots.canasta.expert`): weighs the pile (its size against what it gives
  the next opponent), freezes it with a wild when it is large and open to the opponents, keeps a
  blocking 3 for a large pile, keeps natural canastas clean while they can still close naturally, goes
  out when the opponents hold many cards or the hand is running out and holds back when its team has
  more to gain, asks its partner before going out while the partner holds many cards and answers the
  question from its own hand. In the tile game its discard order also throws high pieces sooner
  (`SHED_VALUE_EXPERT`) and counts a rank the opponents have melded as safe (they lay such pieces off).

Every level's plan, when it may go out, first looks for a way out exhaustively (`Planner.going_out`):
which piece is the discard, every split of the wilds between the team's melds and the new melds, the 2s
of the tile game as a meld of 2s; so a partner's « oui » (which binds) is always honoured.
"""

from engine.bots.base import Moves
from engine.bots.canasta import expert
from engine.bots.canasta.basic import basic_decide, seen_of, spec_of


class CanastaBots:
    """The adapter of both rule sets (the view names its game)."""

    def decide(self, view: dict, moves: Moves, level: int, rng, budget) -> dict:
        spec = spec_of(view["game"])
        seen = seen_of(spec, view)
        if level >= 3:
            return expert.decide(spec, seen, view, moves, rng, budget)
        return basic_decide(spec, seen, moves, level, rng)


ADAPTER = CanastaBots()
