"""« Problèmes » of the table-meld rummies (Rami, Rami 40, Kalooki, Rami traditionnel).

Two themes, both at the `MELD` step of a turn (the card drawn), from the seat's view only. A lay-down is
several staged moves (`meld`, `lay_off`, `swap_joker`) then the commit (`discard`, or `go_out`), so a
choice that lays down holds the whole turn in order; its first move is legal now.

- « Meilleure défausse » (`defausse`): nothing is left to lay (the level-2 planner has no table action
  left: the seat has nothing that fits, or its lay-down is already staged), so the turn is its discard.
  The two copies of a face are one choice; jokers are never offered. Pruned as the Expert prunes: the
  first `MAX_DISCARDS` faces of its level-2 discard order (deadwood after the throw, live potential,
  cards the next player can lay off) are weighed.
  Figure (points, higher is better): minus the deadwood left in hand after the throw (exact: the meld
  solver's best arrangement) minus the Expert's sampled discard danger (`Expert.discard_danger`: over
  `DANGER_DEALS` deals of the hidden cards, what the card costs through the next player's turn: he takes
  it to use it, or he goes out), paired across the discards; `se` from the paired danger differences of
  the best two. The problem is kept only when the Expert's own discard (its level-2 order with that
  danger, which also weighs the live potential of the cards kept) is the best figure.
- « Poser ou garder » (`pose`): not opened yet, nothing staged, an opening is possible. The Expert's
  candidates (`Expert.turn_candidates`): lay the level-2 plan down now (its melds, lay-offs and swaps,
  then the discard the playouts make after it, or going out), against holding the hand back and
  throwing the Expert's first discard (its second hold discard is left out: two near-equal holds would
  hide the lay-or-hold lesson behind a tie). Figure: the Expert's playouts (`Expert.evaluate`): deals of
  the hidden cards (`deal.determinize`), both choices played to the round's end in the same deal with the
  same seed, scored by `rollout.utility` (round points as the match counts them: penalties, main lisse,
  Going Rami, chasse, eliminations); `se` from the paired differences.

Both sample in two stages: a quarter of the deals first, the rest only when the gap could still clear
the margin (`promising`), so the many ordinary decisions cost little. A clear answer
(`engine.problems.verdict`): the best beats the second by `MARGIN` points and by `Z` standard errors, and
a second, independent draw names the same best.
"""

import random

from engine import cards
from engine.bots.base import Moves
from engine.bots.table_meld import ADAPTER
from engine.bots.table_meld.basic import Seen, TableMeldAdapter, best_plan, public, seen_of, unseen_cards
from engine.bots.table_meld.deal import determinize
from engine.bots.table_meld.expert import Expert, expert_of
from engine.bots.table_meld.rollout import Rollout
from engine.coach.words import cap
from engine.melds import table as tm
from engine.narration.words import card_words
from engine.problems import Candidate, Choice

DEALS = 16  # lay or hold: deals first, each choice played out to the round's end in each (paired)
MORE_DEALS = 48  # then, when the gap is promising, this many more (lay or hold: 64 deals in all)
DANGER_DEALS = 32  # deals for the Expert's discard danger (the next player's turn after each discard)
MAX_DISCARDS = 5  # discards weighed: the first faces of the Expert's level-2 discard order
# A clear answer gains this many points of the round on average. A penalty card is worth 1 to 15 points and a
# round lost with a full hand 50 to 100: a gap of 3 points is a card's worth, a lesson a player remembers,
# while smaller gaps are the rollouts' taste between two near-equal throws.
MARGIN = 3.0

RANK_WORDS = {1: "as", 11: "valet", 12: "dame", 13: "roi", 14: "as"}
SET_OF = {1: "d'as", 11: "de valets", 12: "de dames", 13: "de rois"}


class TableMeldFinder:
    THEMES = {"defausse": "Meilleure défausse", "pose": "Poser ou garder"}

    def __init__(self, deals: int = DEALS, more_deals: int = MORE_DEALS, danger_deals: int = DANGER_DEALS,
                 max_discards: int = MAX_DISCARDS):
        self.max_discards = max_discards
        self.deals = deals
        self.more_deals = more_deals
        self.danger_deals = danger_deals

    def find(self, game, view: dict, legal: list[dict], rng: random.Random) -> Candidate | None:
        if view.get("phase") != "MELD":
            return None
        moves = Moves(legal)
        if not moves.has("discard"):
            return None
        adapter = ADAPTER.of(game.slug)
        seen = seen_of(adapter.spec, view)
        plan = adapter.turn_plan(seen)
        expert = expert_of(adapter)
        turn = expert.turn_candidates(seen, moves, plan)[:2]  # lay down, or hold with the Expert's discard
        if len(turn) >= 2:
            return self.pose(adapter, expert, seen, turn, rng)
        if plan.actions:
            return None  # a lay-down or a lay-off still to stage: not a discard yet
        return self.defausse(adapter, expert, seen, moves, rng)

    # -- the discard

    def defausse(self, adapter: TableMeldAdapter, expert: Expert, seen: Seen, moves: Moves, rng) -> Candidate | None:
        options = moves.by_card("discard")
        faces: dict[str, str] = {}
        for c in sorted(options, key=cards.sort_key):
            if not cards.is_joker(c):
                faces.setdefault(c[:-1], c)
        if len(faces) < 2:
            return None
        # the Expert's own pruning: the first faces of its level-2 order (deadwood, potential, lay-off gifts)
        allowed = adapter.discard_order(seen, list(faces.values()), adapter.gifts(seen))[:self.max_discards]
        left = {c: deadwood_after(adapter, seen.hand, c) for c in allowed}
        rows = self.dangers(expert, seen, allowed, self.danger_deals // 4, rng)
        means, best, second, se = discard_figures(allowed, left, rows)
        if not agrees(adapter, seen, allowed, rows, best):
            return None
        if promising(means[best] - means[second], se):  # the rest of the deals
            rows += self.dangers(expert, seen, allowed, self.danger_deals - len(rows), rng)
            means, best, second, se = discard_figures(allowed, left, rows)
            if not agrees(adapter, seen, allowed, rows, best):
                return None
        choices = tuple(Choice((options[c],), f"Jeter {card_words(c)}", round(means[c], 2)) for c in allowed)
        facts = discard_facts(adapter, seen, best, second)
        danger = {c: round(sum(row[c] for row in rows) / len(rows), 2) for c in (best, second)}
        facts.update(left={c: left[c] for c in (best, second)}, danger=danger, deals=len(rows))
        gap = means[best] - means[second]
        return Candidate("defausse", choices, "points", MARGIN, False, se, discard_why(best, second, gap, facts), facts)

    @staticmethod
    def dangers(expert: Expert, seen: Seen, allowed: list[str], deals: int, rng) -> list[dict]:
        """`deals` rows of the Expert's discard danger (`Expert.discard_danger`, one deal each): what each
        discard costs through the next player's turn, in the same deal for every card."""
        return [expert.discard_danger(seen, allowed, rng, 1) or dict.fromkeys(allowed, 0.0) for _ in range(deals)]

    # -- laying down or holding back

    def pose(self, adapter: TableMeldAdapter, expert: Expert, seen: Seen, turn: list, rng) -> Candidate | None:
        means, se, rows = self.weigh(expert, seen, turn, rng)
        choices = []
        for (what, move, arg), mean in zip(turn, means, strict=True):
            if what == "lay":
                sequence = lay_turn(expert, seen, arg)
                label = lay_label(seen, arg, sequence[-1], adapter.spec.rules)
            else:
                sequence = (move,)
                label = f"Garder tes cartes et jeter {card_words(arg)}"
            choices.append(Choice(sequence, label, round(mean, 2)))
        plan = turn[0][2]
        taken = seen.taken if seen.taken in seen.hand else None
        facts = {"deals": rows, "placed": adapter.spec.points(c for a in plan.actions for c in a["cards"]),
                 "left_after_lay": adapter.planner.after_turn(plan.left, taken),
                 "left_after_hold": adapter.planner.after_turn(seen.hand, taken)}
        ranked = sorted(range(len(turn)), key=lambda i: -means[i])
        lay_best = turn[ranked[0]][0] == "lay"
        gap = means[ranked[0]] - means[ranked[1]]
        second = choices[ranked[1]].label
        return Candidate("pose", tuple(choices), "points", MARGIN, False, se,
                         pose_why(adapter.spec.slug, lay_best, gap, rows, second, facts), facts)

    # -- the Expert's evaluation, paired

    def weigh(self, expert: Expert, seen: Seen, candidates: list, rng) -> tuple[list[float], float, int]:
        """Mean utility of each candidate over the same deals, the standard error of the paired gap between
        the best two, and the number of deals: `DEALS` first, `MORE_DEALS` more when `promising`."""
        every = range(len(candidates))
        rows = self.sample(expert, seen, candidates, every, self.deals, rng)
        if promising(*paired(rows, *top_two(column_means(rows, every)))):
            rows += self.sample(expert, seen, candidates, every, self.more_deals, rng)
        means = column_means(rows, every)
        return means, paired(rows, *top_two(means))[1], len(rows)

    @staticmethod
    def sample(expert: Expert, seen: Seen, candidates: list, which, deals: int, rng) -> list[list[float]]:
        """`deals` rows of the Expert's playouts (`Expert.evaluate`), one utility per candidate in `which`."""
        unseen = unseen_cards(expert.spec, seen)
        chosen = [candidates[i] for i in which]
        rows = []
        for _ in range(deals):
            hands, stock = determinize(expert.geo, expert.quick, seen, unseen, rng)
            rows.append(expert.evaluate(seen, hands, stock, chosen, "turn", rng.getrandbits(32)))
        return rows


def promising(gap: float, se: float) -> bool:
    """After the first quarter of the deals: can the gap still clear `MARGIN` and `Z` standard errors once
    the deals are four times as many (the standard error halved)? If not, the question stops there."""
    return gap + 2 * se >= MARGIN and gap >= 1.5 * se


def agrees(adapter: TableMeldAdapter, seen: Seen, allowed: list[str], rows: list[dict], best: str) -> bool:
    """The Expert's own discard (level-2 order with the sampled danger, which also weighs the live potential
    of the cards kept) is the best figure: else the figures' lesson is not the Expert's, no problem."""
    danger = {c: sum(row[c] for row in rows) / len(rows) for c in allowed}
    return adapter.discard_order(seen, allowed, danger)[0] == best


def discard_figures(allowed: list[str], left: dict, rows: list[dict]) -> tuple[dict, str, str, float]:
    """Each discard's figure (minus the deadwood left and the mean danger), the best two, the se of their gap."""
    means = {c: -(left[c] + sum(row[c] for row in rows) / len(rows)) for c in allowed}
    best, second = sorted(allowed, key=lambda c: -means[c])[:2]
    return means, best, second, paired([[row[second], row[best]] for row in rows], 0, 1)[1]


def column_means(rows: list[list[float]], columns) -> list[float]:
    return [sum(row[i] for row in rows) / len(rows) for i in columns]


def top_two(means: list[float]) -> tuple[int, int]:
    ranked = sorted(range(len(means)), key=lambda i: -means[i])
    return ranked[0], ranked[1]


def paired(rows: list[list[float]], a: int, b: int) -> tuple[float, float]:
    """Mean of the paired differences a − b over the rows, and its standard error."""
    diffs = [row[a] - row[b] for row in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else float("inf")
    return mean, (var / n) ** 0.5


# ---------------------------------------------------------------- the lay-down's turn


def lay_turn(expert: Expert, seen: Seen, plan) -> tuple[dict, ...]:
    """The whole turn of the level-2 lay-down: its table actions, then the discard the playouts make after
    it (it depends on this seat's hand only, so it is the same in every deal), or going out."""
    rollout = Rollout(expert.geo, expert.quick, seen, {s: [] for s in seen.opponents()}, [], random.Random(0))
    rollout.apply_plan(plan)
    actions = tuple(public(a) for a in plan.actions)
    if not rollout.hands[seen.seat]:
        return (*actions, {"action": "go_out"})
    taken = seen.taken if seen.taken in seen.hand else None
    return (*actions, {"action": "discard", "card": rollout.pick_discard(seen.seat, taken)})


def lay_label(seen: Seen, plan, last: dict, rules) -> str:
    """« Poser la suite 7-8-9 de pique et le brelan de dames, ajouter le 5 de cœur au brelan de 5, puis jeter
    le Roi de trèfle »: the plan's actions in order (new melds in a row under one « poser »)."""
    table = {m.id: m.reading for m in seen.table}
    parts: list[list[str]] = []  # [verb, object, object…]
    for action in plan.actions:
        kind = action["action"]
        if kind == "meld":
            reading = action["_reading"]
            table[f"M{len(table) + 1}"] = reading
            if parts and parts[-1][0] == "poser":
                parts[-1].append(the_meld(reading))
            else:
                parts.append(["poser", the_meld(reading)])
            continue
        target = table.get(action["meld_id"])
        if kind == "lay_off":
            card = action["cards"][0]
            parts.append(["ajouter", f"{card_words(card)} {to_meld(target)}"])
            after = tm.extend(target, [card], action.get("end"), rules) if target else None
        else:
            given = " et ".join(card_words(c) for c in action["cards"])
            parts.append(["reprendre", f"le joker {of_meld(target)} contre {given}"])
            after = tm.replace_wild(target, action["joker"], action["cards"], rules) if target else None
        if after is not None:
            table[action["meld_id"]] = after
    end = "sortir" if last["action"] == "go_out" else f"jeter {card_words(last['card'])}"
    return cap(", ".join(f"{verb} {listed(objects)}" for verb, *objects in parts) + f", puis {end}")


def listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " et " + items[-1]


def meld_words(reading: tm.Reading | None) -> tuple[str, str]:
    """(article-free name, gender) of a meld: ("suite 7-8-9 de pique", "f"), ("brelan de dames", "m")."""
    if reading is None:
        return "combinaison", "f"
    if reading.kind == "set":
        name = "carré" if len(reading.cards) >= 4 else "brelan"
        return f"{name} {SET_OF.get(reading.low, f'de {reading.low}')}", "m"
    ranks = []
    for position, c in zip(range(reading.low, reading.high + 1), reading.cards, strict=True):
        ranks.append("joker" if cards.is_joker(c) else RANK_WORDS.get(position, str(position)))
    return f"suite {'-'.join(ranks)} de {cards.SUIT_NAMES_FR[tm.SUITS[reading.suit]]}", "f"


def the_meld(reading) -> str:
    name, gender = meld_words(reading)
    return ("la " if gender == "f" else "le ") + name


def your_meld(reading) -> str:
    name, gender = meld_words(reading)
    return ("ta " if gender == "f" else "ton ") + name


def to_meld(reading) -> str:
    name, gender = meld_words(reading)
    return ("à la " if gender == "f" else "au ") + name


def of_meld(reading) -> str:
    name, gender = meld_words(reading)
    return ("de la " if gender == "f" else "du ") + name


# ---------------------------------------------------------------- explanations


def decimal(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


def figure(gap: float, deals: int, second: str) -> str:
    return (f"Sur {deals} donnes des cartes cachées jouées jusqu'au bout de la manche, c'est en moyenne "
            f"{decimal(gap)} points de mieux que « {second} ».")


def deadwood_after(adapter: TableMeldAdapter, hand: list[str], card: str) -> int:
    """Exact (solver): the penalty points of the cards no meld holds, once `card` is thrown."""
    rest = list(hand)
    rest.remove(card)
    return adapter.spec.points(best_plan(adapter.spec, rest, "penalty").left)


def discard_facts(adapter: TableMeldAdapter, seen: Seen, best: str, second: str) -> dict:
    """The best two discards, and the meld of the hand's best arrangement the second one breaks."""
    arrangement = best_plan(adapter.spec, seen.hand, "penalty")
    broken = next((m for m in arrangement.melds if second in m.cards), None)
    return {"best": best, "second": second, "breaks": your_meld(broken) if broken is not None else None}


def discard_why(best: str, second: str, gap: float, facts: dict) -> str:
    head = f"Jeter {card_words(best)}"
    left, danger = facts["left"], facts["danger"]
    kept = f"ta main garde {left[best]} points contre {left[second]} en jetant {card_words(second)}"
    if facts["breaks"]:
        reason = f"{head} garde {facts['breaks']} : {kept}."
    elif left[second] - left[best] >= danger[best] - danger[second]:
        reason = f"{head} allège le plus ta main : {kept}."
    else:
        also = "même si" if left[best] >= left[second] else "et"
        reason = (f"{head} ne sert pas le joueur suivant : {card_words(second)} l'aiderait à poser ou à sortir, "
                  f"{also} {kept}.")
    return (f"{cap(reason)} En comptant les points qui te restent en main et ce que le joueur suivant ferait de "
            f"la carte (sur {facts['deals']} donnes des cartes cachées), c'est {decimal(gap)} points de mieux que "
            f"« Jeter {card_words(second)} ».")


BONUS = {"rami": "la main lisse, où les autres paient double", "kalooki": "le Going Rami (25 points de plus)",
         "rami40": "une sortie d'un coup", "rami-traditionnel": "la chasse (25 points de plus)"}


def pose_why(slug: str, lay_best: bool, gap: float, deals: int, second: str, facts: dict) -> str:
    if lay_best:
        reason = (f"Poser maintenant place {facts['placed']} points sur la table et ne te laisse que "
                  f"{facts['left_after_lay']} points en main, contre {facts['left_after_hold']} en gardant tout : "
                  f"si un adversaire sort bientôt, tu perds beaucoup moins.")
    else:
        reason = (f"Garder tes cartes vise {BONUS[slug]} et ne donne aux autres aucune combinaison où ajouter "
                  f"leurs cartes : cela vaut plus que le risque d'être pris avec {facts['left_after_hold']} points "
                  f"en main.")
    return f"{reason} {figure(gap, deals, second)}"


FINDER = TableMeldFinder()

__all__ = ["DANGER_DEALS", "DEALS", "FINDER", "MARGIN", "MAX_DISCARDS", "TableMeldFinder"]
