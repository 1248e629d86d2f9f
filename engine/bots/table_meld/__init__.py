"""Bots of the table-meld rummies: Rami (13 cartes), Rami 40, Kalooki, Rami traditionnel.

One adapter, parametrised by the game (`engine.games.<slug>` class parameters: threshold, meld rules,
penalty values, `go_out`, joker releases, the Rami 40 take). A turn is several decisions (draw or take,
staged melds / lay-offs / swaps, then the discard or `go_out`) and a bot keeps no memory between them:
every call re-plans the rest of the turn from the view (hand and table *after* the staged actions,
the staged points) and plays the plan's first step. Table actions only ever shed cards (a swap gives a
natural for a joker), so a turn always ends; a bot never undoes, except a Rami 40 take it cannot honour.

- Level 1 « Débutant »: draws from the stock (takes the discard only when it completes a meld of its
  hand or its opening), stages the view's suggestions (the opening as soon as it reaches the threshold,
  then the suggested melds and lay-offs of natural cards), discards its highest-penalty loose card
  (never a joker; one discard in four is a random loose card).
- Level 2 « Confirmé »: plans the whole turn with the exact solver: the opening that sheds the most
  penalty points while reaching the threshold, the melds, lay-off chains (combined with the melds:
  a card laid off may free others), joker swaps when they let it shed more, jokers laid off once they
  meld nothing. Takes the discard when its plan with it sheds more than without. Discards the card
  whose loss costs least: value, minus live potential (pairs and near-runs whose completing cards
  are not dead: seen in the pile, on the table or in its hand).
- Level 3 « Expert » (`engine.bots.table_meld.expert`): level 2's planner, plus determinized sampling of
  the hidden cards (`Expert`): opponents' hands dealt from the unseen cards consistently with what they
  laid and with their hand sizes, then short playouts of the race to go out with greedy policies. It
  weighs laying down now against holding back (main lisse / Going Rami / chasse, no targets for the
  others' lay-offs) under the risk of being caught with a full hand, keeps away from discards the next
  player can lay off or meld, and dumps high cards when an opponent is about to go out. Its modules:
  `expert` (the entry points, candidates and search), `deal` (the determinizations), `rollout` (the
  playouts and their scoring), `quick_melds` (their greedy lay-down), `geometry` (their table model).
"""

from engine.bots.base import Moves
from engine.bots.table_meld import expert
from engine.bots.table_meld.basic import SLUGS, TableMeldAdapter


class Router:
    """The package's `ADAPTER` for `engine.bots.adapter_for`: the four games share this package, so the
    decision goes to the adapter of the view's game (level 3: to the Expert, with that adapter)."""

    def __init__(self):
        self.adapters: dict[str, TableMeldAdapter] = {}

    def of(self, slug: str) -> TableMeldAdapter:
        if slug not in self.adapters:
            if slug not in SLUGS:
                raise KeyError(slug)
            self.adapters[slug] = TableMeldAdapter(slug)
        return self.adapters[slug]

    def decide(self, view: dict, moves: Moves, level: int, rng, budget) -> dict:
        adapter = self.of(view["game"])
        if level >= 3:
            return expert.decide(adapter, view, moves, level, rng, budget)
        return adapter.decide(view, moves, level, rng, budget)


ADAPTER = Router()
