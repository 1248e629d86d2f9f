"""« Problèmes » of the draw-and-discard family: Thanasis and Gin Rami.

Themes:
- « Meilleure défausse » (both games): the card to throw after drawing, when no close or knock is legal (a legal
  close or knock makes the answer trivial, or is another question: declined).
- « Prendre ou piocher » (Gin): take the up-card or draw from the stock (at the first up-card: take it or pass).

How the figures are computed, from the seat's view and legal moves only (each game's Expert robot, reused):
- Thanasis: exact. The Expert weighs each discard by `ThanasisAdapter.draw_cost`: over every card this seat has not
  seen, drawn next (weighted by how many copies are unseen), the deadwood left once the worst card is thrown back,
  plus what failing to close then costs (`NOT_CLOSED`, `BURNT`). Every distinct discard (two copies of one face are
  one choice, as are two wilds worth the same) gets minus that cost, in points (higher is better).
- Gin: sampled. The Expert's determinized search (`engine.bots.search.sample`): every candidate played out on the
  very same sampled deals; the figure is the mean utility (heads-up: the chance of winning the match, or the pot's
  share in one round, out of 100, unit "percent"; three or four players: points of the round). The discards are
  first pruned to the ones the Expert's level-3 code weighs (`GinAdapter.discard_candidates`: the level-2 order,
  at most `MAX_DISCARDS` within `CANDIDATE_MARGIN` deadwood points of the least), so the choices are those few,
  not all eleven. `se` is the standard error of the paired differences between the best two. Sampling is in
  stages: a candidate whose gap is hopeless (or already clear) after the first stage stops there.

A clear answer: `engine.problems.verdict` (gap ≥ margin, and for Gin ≥ Z standard errors, then the same best on a
second, independent sample). Declined before any figure (one sensible move, or no question the figures can tell):
- a discard with one candidate within the Expert's margin of the least deadwood (Thanasis `CANDIDATE_MARGIN`, Gin
  `discard_candidates`);
- Gin discards far from the knock (`GIN_DISCARD_NEAR`) or whose candidates all leave the same deadwood;
- a Gin take of a card that fits no meld of the hand and lowers nothing (« Piocher », obviously).
One finder serves both games, so `THEMES` lists « Prendre ou piocher » for Thanasis too, where it never occurs (its
discard pile is never taken).
"""

from engine import bots, cards
from engine.bots import search
from engine.bots.base import Moves
from engine.bots.thanasis import BURN_LIMIT, CANDIDATE_MARGIN, CLOSE_LIMIT
from engine.coach.words import points
from engine.narration.words import card_words
from engine.problems import Candidate, Choice

THEMES = {"defausse": "Meilleure défausse", "prendre": "Prendre ou piocher"}

# Thanasis: the gap in `draw_cost` points (the expected deadwood after the next draw, plus the Expert's price of not
# closing) that makes a discard clearly best. One point is what a single card's rank often decides (a 9 rather than
# a 10 kept); two points is a real difference in what the next draw brings (a broken partial meld, a lost chance to
# close), which the player can see once told.
THANASIS_MARGIN = 2.0
# Gin heads-up: three points out of 100 of the chance to win the match (or of the pot's share, one round): one take or
# one discard seldom moves more, and below this an edge is a subtlety no explanation makes visible (and the playouts'
# noise, about 9 points a deal on a paired difference, would need thousands of deals to tell it). With three or four
# players (points of the round): three points too.
GIN_MARGIN = {"percent": 3.0, "points": 3.0}
# Gin sampling: determinizations per stage (cumulative). After 32 a gap under half the margin is dropped (a true gap of
# the margin falls that low about one time in six) and a clear one kept; 96 bring the standard error of a paired gap
# (about 9 points a deal) under a third of the margin. Measured: 100 problems in 54 s of CPU (1,450 decisions seen).
GIN_STAGES = (32, 96)
# Gin discards are weighed only near the knock: the least deadwood left at most this. Measured on 184 discard
# decisions of self-play (160 deals each): 6 had a clear best, all with 20 points or less left; none where the
# Expert's first two discards leave the same deadwood (their difference is then one card's draw potential, which the
# playouts hardly tell).
GIN_DISCARD_NEAR = 20
CLEAR_Z = 3.3  # a stage stops early when the gap stands this many standard errors out (the verdict asks Z = 3)


class DrawDiscardFinder:
    THEMES = THEMES

    def find(self, game, view: dict, legal: list[dict], rng) -> Candidate | None:
        moves = Moves(legal)
        slug = view.get("game") or game.slug
        if slug == "thanasis":
            return thanasis_discard(view, moves)
        if slug == "gin":
            if moves.has("knock"):
                return None  # knocking or playing on: another question, and the knock is often trivial
            if moves.has("discard"):
                return gin_discard(view, moves, rng)
            if moves.has("take_discard"):
                return gin_take(view, moves, rng)
        return None


# ---------------------------------------------------------------- Thanasis: every discard weighed exactly


def thanasis_discard(view: dict, moves: Moves) -> Candidate | None:
    if moves.has("close") or not moves.has("discard"):
        return None
    adapter = bots.adapter_for("thanasis")
    key = adapter.rules_key(view)
    know = adapter.knowledge(view)
    hand = know.hand
    left = adapter.discards(hand, key)
    options = moves.by_card("discard")
    faces: dict = {}
    for card in options:  # display order: the first copy of each face stands for both
        faces.setdefault(adapter.face_of(card, key), card)
    distinct = list(faces.values())
    least = min(left[c] for c in distinct)
    if sum(1 for c in distinct if left[c] <= least + CANDIDATE_MARGIN) < 2:
        return None  # one sensible discard: the Expert does not even weigh it
    draws = adapter.draws(know, key)
    score = know.scores[know.seat] if know.seat < len(know.scores) else 0
    kept = {c: _without(hand, c) for c in distinct}
    cost = {c: adapter.draw_cost(kept[c], draws, key, score) for c in distinct}
    choices = tuple(Choice(moves=(options[c],), label=f"Jeter {card_words(c)}", value=round(-cost[c], 3))
                    for c in distinct)
    ranked = sorted(distinct, key=lambda c: cost[c])
    best, second = ranked[0], ranked[1]
    outlook = {c: _outlook(adapter, kept[c], draws, key, score) for c in (best, second)}
    facts = {"deadwood": {c: left[c] for c in distinct}, "cost": cost, "outlook": outlook}
    why = _discard_reason(adapter, hand, key, best, second, view) + " : " + _thanasis_figures(best, second, outlook)
    return Candidate(theme="defausse", choices=choices, unit="points", margin=THANASIS_MARGIN, exact=True,
                     why=why + ".", facts=facts)


def _outlook(adapter, kept: list[str], draws, key, score: int) -> dict:
    """What `draw_cost` averages, told plainly: the mean deadwood after the next draw (the worst card thrown back),
    the chance out of 100 that it is low enough to close, and that it would burn this seat should another close."""
    total = closing = burning = weight = 0.0
    for card, n in draws:
        after = adapter.step(kept, card, key)[1]
        total += n * after
        closing += n if after <= CLOSE_LIMIT else 0
        burning += n if after > CLOSE_LIMIT and score + after >= BURN_LIMIT else 0
        weight += n
    if not weight:
        return {"deadwood": 0.0, "close": 0.0, "burn": 0.0}
    return {"deadwood": total / weight, "close": 100.0 * closing / weight, "burn": 100.0 * burning / weight}


def _thanasis_figures(best: str, second: str, outlook: dict) -> str:
    a, b = outlook[best], outlook[second]
    one, other = _pair_of_points(a["deadwood"], b["deadwood"])
    text = f"après la prochaine pioche, ta main vaut en moyenne {one}, contre {other} en jetant {card_words(second)}"
    if round(a["close"]) != round(b["close"]):
        text += f" ; tu peux fermer dans {round(a['close'])} % des cas (contre {round(b['close'])} %)"
    if round(a["burn"]) != round(b["burn"]):
        text += f" ; tu risques d'être brûlé dans {round(a['burn'])} % des cas (contre {round(b['burn'])} %)"
    return text


def _pair_of_points(x: float, y: float) -> tuple[str, str]:
    """« 8 points » and « 14 »; with a decimal when the two round alike (« 41,8 points » and « 42,3 »)."""
    if round(x) != round(y):
        return points(round(x)), str(round(y))
    return f"{x:.1f}".replace(".", ",") + " points", f"{y:.1f}".replace(".", ",")


# ---------------------------------------------------------------- Gin: the Expert's search


def gin_discard(view: dict, moves: Moves, rng) -> Candidate | None:
    adapter = bots.adapter_for("gin")
    know = adapter.knowledge(view)
    know.extra["unseen"] = adapter.unseen(know)
    candidates = adapter.discard_candidates(know, moves, None)  # no knock legal here: the Expert's discards
    left = adapter.discards(know.hand, None)
    sensible = [m for m in candidates if m.get("action") == "discard"]
    least = min(left[c] for c in moves.by_card("discard"))
    if len(sensible) < 2 or least > GIN_DISCARD_NEAR or len({left[m["card"]] for m in sensible}) < 2:
        return None  # one sensible discard, or a choice the playouts cannot tell apart (see GIN_DISCARD_NEAR)
    unit = _gin_unit(know)
    means, se, n = _sampled(adapter, view, know, sensible, rng, GIN_MARGIN[unit])
    choices = tuple(Choice(moves=(m,), label=f"Jeter {card_words(m['card'])}", value=round(v, 3))
                    for m, v in zip(sensible, means, strict=True))
    order = sorted(range(len(sensible)), key=lambda i: -means[i])
    best, second = sensible[order[0]]["card"], sensible[order[1]]["card"]
    facts = {"deadwood": {m["card"]: left[m["card"]] for m in sensible}, "samples": n}
    why = (_discard_reason(adapter, know.hand, None, best, second, view, gin_know=know) + " : "
           + _gin_figures(know, unit, means[order[0]], means[order[1]], f"en jetant {card_words(second)}"))
    return Candidate(theme="defausse", choices=choices, unit=unit, margin=GIN_MARGIN[unit], exact=False, se=se,
                     why=why + ".", facts=facts)


def gin_take(view: dict, moves: Moves, rng) -> Candidate | None:
    adapter = bots.adapter_for("gin")
    know = adapter.knowledge(view)
    top = know.top
    other = moves.first("draw_stock") or moves.first("pass")
    if top is None or other is None:
        return None
    now = adapter.deadwood(know.hand, None)
    after = _take_deadwood(adapter, know.hand, top)
    if after >= now and not adapter.connects(top, know.hand, None):
        return None  # a card that fits no meld and lowers nothing: taking it is no question
    know.extra["unseen"] = adapter.unseen(know)
    take = moves.first("take_discard")
    candidates = [take, other]
    unit = _gin_unit(know)
    means, se, n = _sampled(adapter, view, know, candidates, rng, GIN_MARGIN[unit])
    top_words = card_words(top)
    labels = [f"Prendre la défausse ({top_words})",
              "Piocher" if other["action"] == "draw_stock" else f"Passer (laisser {top_words})"]
    choices = tuple(Choice(moves=(m,), label=label, value=round(v, 3))
                    for m, label, v in zip(candidates, labels, means, strict=True))
    meld = _meld_with(adapter, know.hand + [top], top, None)
    facts = {"deadwood": now, "after_take": after, "meld": meld, "samples": n}
    taking = means[0] > means[1]
    partner = _partial_partner(adapter, know.hand + [top], top, None)
    reason = _take_reason(top, now, after, meld, partner, taking, other["action"])
    versus = "en piochant" if other["action"] == "draw_stock" else "en passant"
    if not taking:
        versus = f"en prenant {top_words}"
    figures = _gin_figures(know, unit, max(means), min(means), versus)
    return Candidate(theme="prendre", choices=choices, unit=unit, margin=GIN_MARGIN[unit], exact=False, se=se,
                     why=f"{reason} : {figures}.", facts=facts)


def _gin_unit(know) -> str:
    return "percent" if len(know.active) == 2 else "points"


def _sampled(adapter, view: dict, know, candidates: list[dict], rng, margin: float):
    """Means per candidate, the standard error of the paired gap between the best two, and the deals played:
    sampled in stages, stopping once the gap is clearly below the margin or clearly out of the noise."""
    rows: list[list[float]] = []
    for total in GIN_STAGES:
        budget = search.Budget(iterations=total - len(rows), time_limit=None)
        rows += search.sample(adapter, view, know, candidates, None, rng, budget)
        means, gap, se = _paired(rows)
        if gap < margin / 2 or (gap >= margin and gap >= CLEAR_Z * se):
            break
    return means, se, len(rows)


def _paired(rows: list[list[float]]) -> tuple[list[float], float, float]:
    n = len(rows)
    k = len(rows[0])
    means = [sum(row[i] for row in rows) / n for i in range(k)]
    order = sorted(range(k), key=lambda i: -means[i])
    diffs = [row[order[0]] - row[order[1]] for row in rows]
    gap = means[order[0]] - means[order[1]]
    var = sum((d - gap) ** 2 for d in diffs) / (n - 1) if n > 1 else float("inf")
    return means, gap, (var / n) ** 0.5


def _gin_figures(know, unit: str, best: float, second: float, versus: str) -> str:
    if unit == "percent" and know.extra.get("match") == "1":
        return (f"sur les donnes simulées, ta part du pot vaut en moyenne {round(best)} %, contre {round(second)} % "
                f"{versus}")
    if unit == "percent":
        return (f"sur les donnes simulées, tes chances de gagner la partie sont d'environ {round(best)} %, contre "
                f"{round(second)} % {versus}")
    gain = round(best - second)
    return f"sur les donnes simulées, la manche te rapporte en moyenne {points(max(1, gain))} de plus qu'{versus}"


def _take_deadwood(adapter, hand: list[str], top: str) -> int:
    left = adapter.discards(hand + [top], None)
    return min(v for c, v in left.items() if c != top)


def _take_reason(top: str, now: int, after: int, meld: str, partner: str | None, taking: bool, other: str) -> str:
    top_words = card_words(top)
    if taking:
        if meld:
            return f"Prendre {top_words} complète {meld}"
        if after < now:
            return f"Prendre {top_words} fait passer ta main de {points(now)} à {points(after)} hors combinaisons"
        if partner is not None:
            return f"Prendre {top_words}, qui va avec {card_words(partner)}, prépare une combinaison"
        return f"Prendre {top_words} vaut mieux"
    verb = "Piocher" if other == "draw_stock" else "Passer"
    if after >= now:
        return f"{verb} vaut mieux : {top_words} n'améliore pas ta main"
    if meld:
        return f"{verb} vaut mieux, même si {top_words} complète {meld}"
    return (f"{verb} vaut mieux : {top_words} ne complète aucune combinaison, une carte de la pioche a plus de "
            "chances de t'aider")


# ---------------------------------------------------------------- why a discard is best (both games)


def _discard_reason(adapter, hand: list[str], key, best: str, second: str, view: dict, gin_know=None) -> str:
    """« Jeter le Roi de pique garde ta suite 5-6-7 de cœur », from the seat's own hand: what throwing the
    second-best card would break, or the deadwood the best saves, or (Gin) what the second would give away."""
    head = f"Jeter {card_words(best)}"
    kept = _without(hand, best)
    meld = _meld_with(adapter, kept, second, key)
    if meld:
        return f"{head} garde {meld}"
    left = adapter.discards(hand, key)
    if left[best] < left[second]:
        return f"{head} laisse {points(left[second] - left[best])} de moins hors combinaisons"
    partner = _partial_partner(adapter, kept, second, key)
    if partner is not None:
        return f"{head} garde {card_words(second)}, qui va avec {card_words(partner)}"
    if gin_know is not None:
        risks = adapter.discard_risks(gin_know, [best, second], key)
        if risks.get(second, 0) > risks.get(best, 0):
            return f"{head} ne donne pas {card_words(second)} à ton adversaire, qui ramasse des cartes voisines"
    return head + " vaut mieux"


def _meld_with(adapter, hand: list[str], card: str, key) -> str:
    """The meld of the hand's best arrangement that holds `card`, in words (« ta suite 5-6-7 de cœur »); "" if none."""
    arrangement = adapter.arrangement(hand, key)
    for meld in arrangement.melds:
        if card in meld:
            return meld_words(meld, arrangement.wilds)
    return ""


def meld_words(meld: list[str], wilds: dict) -> str:
    faces = [wilds.get(c) or cards.face(c) for c in meld]
    ranks = [f[:-1] for f in faces]
    names = [cards.RANK_NAMES_FR[r] for r in ranks]
    if len(set(ranks)) == 1:
        noun = "ton carré" if len(meld) >= 4 else "ton brelan"
        return f"{noun} de {names[0]}"
    suit = cards.SUIT_NAMES_FR[faces[0][-1]]
    return f"ta suite {'-'.join(names)} de {suit}"


def _partial_partner(adapter, kept: list[str], card: str, key) -> str | None:
    """A loose card of `kept` that `card` would make a pair or a near-run with (an out still unseen not checked)."""
    if adapter.is_wild(card, key):
        return None
    loose = adapter.arrangement(kept, key).deadwood
    return next((c for c in loose if c != card and not adapter.is_wild(c, key) and adapter.partial_outs(card, c)),
                None)


def _without(hand: list[str], card: str) -> list[str]:
    rest = list(hand)
    rest.remove(card)
    return rest


FINDER = DrawDiscardFinder()

__all__ = ["FINDER", "THEMES", "DrawDiscardFinder", "meld_words"]
