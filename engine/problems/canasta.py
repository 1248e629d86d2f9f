"""« Problèmes » of the partnership Canastas (Canasta classique, Canasta en équipe tuiles): take the pile or draw.

Theme `talon` (« Prendre le talon ou piocher »): the seat is to draw and the rules let it take the discard pile.
The choices are every pick-up `legal_moves` offers (`take_pile` with the meld the take requires, at most
`MAX_TAKES`) and drawing from the stock. A decision where the tile game's Joker button is offered (a third way
to draw, paid from the account) is declined: its lesson is not the pile's.

The figures are the level-3 robot's (engine.bots.canasta.expert, `draw_choice`): the pieces this seat has not seen
are dealt at random as its view allows (`rollout.deal`), each choice is played in that same deal and the rest of
the hand is played out by the Confirmé's policy for the four seats; a playout is worth `expert.utility` of the
hand's margin (our team minus theirs). The card game's figure is that margin in points; the tile game's utility
is the margin squashed by tanh over `expert.SCALE` points, shown times `SCALE` (points for an ordinary hand,
less for a landslide, as the robot weighs it). The figure of a choice is its mean over the deals; `se` is the
standard error of the mean paired difference between the best two (the same deals: common random numbers).

A clear answer (`engine.problems.verdict`): the best beats the second by `MARGIN` points and by `Z` standard
errors, and a second, independent run (the generator asks twice) picks the same move. Deals are drawn in batches
of `BATCH` up to `MAX_DEALS`, and stop early once the answer is clear or cannot become clear (sequential
sampling: most of the cost is in the playouts). Decisions with a pile of fewer than `MIN_PILE` pieces are
declined at once (a tiny pile rarely decides anything, and each weighing costs tens of playouts).

Measured (process CPU time): `generate(slug, 200, seed=1)` took 117 s of CPU (card game, 33 matches) and 116 s
(tile game, 89 matches), about 10 minutes of one core per 1,000; with `seed=5`, every one of 50 accepted answers
per game was the same on an independent run of 256 deals. The playouts' policy takes the pile whenever it can, and
they rate the pile highly: « Piocher » is the answer of 6 problems in 200 (card game) and of none (tile game).
"""

from __future__ import annotations

import math

from engine.bots.canasta import expert, rollout
from engine.bots.canasta.basic import seen_of, spec_of
from engine.coach.words import cap, points
from engine.narration.words import card_words, cards_words, count_words
from engine.problems import Candidate, Choice, Z

THEMES = {"talon": "Prendre le talon ou piocher"}
# 60 points: more than a typical card of the hand (a King is 10, an Ace 20), about a quarter of a dirty canasta's
# bonus: a gap this size is a lesson (what the pile brings, or what taking it gives away), not a rounding detail.
MARGIN = 60.0
CANASTA = 7  # pieces in a canasta
MIN_PILE = 3  # pieces in the pile (its top included) below which the decision is declined (a pile of 2: measured
# 1.5 s of CPU per accepted problem in the card game, twice the average, for a lesson the larger piles also teach)
MAX_TAKES = 3  # pick-ups weighed (legal_moves offers the cheapest first)
BATCH = 8  # deals per batch
MIN_DEALS = 24  # deals before an early stop
MAX_DEALS = 96  # deals at most per weighing (card game ≈ 6 ms, tile game ≈ 19 ms per deal of two choices)
HOPELESS = 1.5  # standard errors: a gap this far below what it must reach stops the sampling (`settled`)
CLEAR = 1.3  # a gap this many times Z standard errors stops it too (clear, and likely so on a second run)


class CanastaFinder:
    THEMES = THEMES

    def find(self, game, view: dict, legal: list[dict], rng) -> Candidate | None:
        takes = [m for m in legal if m.get("action") == "take_pile"][:MAX_TAKES]
        draw = next((m for m in legal if m.get("action") == "draw_stock"), None)
        if not takes or draw is None or any(m.get("action") == "take_joker" for m in legal):
            return None
        spec = spec_of(view["game"])
        seen = seen_of(spec, view)
        if seen.pile_size < MIN_PILE or seen.top is None:
            return None
        moves = [*takes, draw]
        plays = [expert.taking(seen.seat, m) for m in takes] + [expert.drawing(seen.seat)]
        rows = sample(spec, seen, view, plays, rng)
        return candidate(game, seen, moves, rows, spec.tiles)


# ---------------------------------------------------------------- the sampling


def sample(spec, seen, view: dict, plays: list, rng) -> list[list[float]]:
    """Rows of figures, one row per deal, one figure per choice (the same deal for all: paired)."""
    team = seen.seat % 2
    scale = expert.SCALE if spec.tiles and expert.SQUASH else 1.0
    rows: list[list[float]] = []
    while len(rows) < MAX_DEALS:
        for _ in range(BATCH):
            dealt = rollout.deal(spec, seen, view, rng)
            row = []
            for play in plays:
                h = dealt.copy()
                play(h)
                h.play_out()
                row.append(scale * expert.utility(spec, h.margin(team)))
            rows.append(row)
        if len(rows) >= MIN_DEALS and settled(rows):
            break
    return rows


def means(rows: list[list[float]]) -> list[float]:
    return [sum(col) / len(rows) for col in zip(*rows, strict=True)]


def gap_and_se(rows: list[list[float]]) -> tuple[int, int, float, float]:
    """(best index, second index, mean gap, standard error of the paired gap)."""
    m = means(rows)
    order = sorted(range(len(m)), key=lambda i: -m[i])
    a, b = order[0], order[1]
    diffs = [r[a] - r[b] for r in rows]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return a, b, mean, math.sqrt(var / n)


def settled(rows: list[list[float]]) -> bool:
    """Whether more deals would not change the verdict: clearly accepted (with room for the second run), or
    hopeless: the gap stays `HOPELESS` standard errors below what it must reach, the margin or `Z` times the
    standard error it would have after `MAX_DEALS` deals."""
    _, _, gap, se = gap_and_se(rows)
    if gap >= MARGIN and gap >= CLEAR * Z * se:
        return True
    need = max(MARGIN, Z * se * math.sqrt(len(rows) / MAX_DEALS))
    return gap + HOPELESS * se < need


# ---------------------------------------------------------------- the candidate and its words


def candidate(game, seen, moves: list[dict], rows: list[list[float]], tiles: bool) -> Candidate:
    m = means(rows)
    a, b, gap, se = gap_and_se(rows)
    choices = tuple(Choice(moves=(mv,), label=label(game, seen, mv), value=round(v, 1))
                    for mv, v in zip(moves, m, strict=True))
    facts = {"deals": len(rows), "pile_size": seen.pile_size, "top": seen.top, "tiles": tiles,
             "best": moves[a]["action"], "second": moves[b]["action"]}
    return Candidate(theme="talon", choices=choices, unit="points", margin=MARGIN, exact=False, se=se,
                     why=why(game, seen, moves[a], moves[b], gap, len(rows)), facts=facts)


def take_pieces(take: dict, top: str) -> tuple[list[str], list[list[str]]]:
    """(the hand's pieces laid with the top, the other melds laid from the hand)."""
    groups = [list(g) for g in take["melds"]]
    first = [p for p in groups[0] if p != top]
    return first, groups[1:]


def label(game, seen, move: dict) -> str:
    if move["action"] == "draw_stock":
        return "Piocher"
    pile = count_words(seen.pile_size, seen.top)
    first, others = take_pieces(move, seen.top)
    text = f"Prendre la pile ({pile})"
    text += f" avec {cards_words(first)}" if first else f" sur la combinaison de {game.P.rank_name(rank(game, seen))}"
    if others:
        text += " et poser " + ", ".join(meld_words(game, g) for g in others)
    return text


def rank(game, seen) -> str:
    return game.P.rank[seen.top]


def meld_words(game, group: list[str]) -> str:
    """« trois 8 », « quatre Rois » (a meld of one rank, wilds named)."""
    naturals = [p for p in group if not game.P.is_wild(p)]
    name = game.P.rank_name(game.P.rank[naturals[0]]) if naturals else "2"
    wilds = len(group) - len(naturals)
    numbers = {1: "un", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept"}
    text = f"{numbers.get(len(naturals), len(naturals))} {name}"
    return text + (f" avec {wilds} joker{'s' if wilds > 1 else ''}" if wilds else "")


def why(game, seen, best: dict, second: dict, gap: float, deals: int) -> str:
    top = card_words(seen.top)
    pile = count_words(seen.pile_size, seen.top)
    gain = f"{points(round(gap))} de mieux en moyenne sur {deals} donnes simulées jusqu'à la fin de la manche"
    if best["action"] == "take_pile" and second["action"] == "take_pile":
        return cap(f"{label(game, seen, best)} plutôt que {lower(label(game, seen, second))} : {gain}.")
    if best["action"] == "take_pile":
        return cap(f"Prendre la pile ({pile}, {top} dessus) : {gain}. " + " ; ".join(take_gains(game, seen, best))
                   + ".")
    first, _ = take_pieces(second, seen.top)
    cost = f"{cards_words(first)} posés avec elle, " if first else ""
    more = count_words(seen.pile_size - 1, seen.top)
    return cap(f"Piocher plutôt que prendre la pile ({pile}, {top} dessus) : {gain}. La pile ne rapporte pas ce "
               f"qu'elle coûte : {cost}{more} de plus en main à vider avant de sortir.")


def lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def take_gains(game, seen, take: dict) -> list[str]:
    """What the take brings, as the table shows it: the team opened, a canasta closed, the pieces gained."""
    first, _ = take_pieces(take, seen.top)
    key = rank(game, seen)
    meld = next((m for m in seen.mine if m.key == key), None)
    before = meld.size if meld is not None else 0
    after = before + 1 + len(first)
    out = []
    if not seen.opened_before:
        out.append("elle fait la première pose de l'équipe")
    if before < CANASTA <= after:
        out.append(f"elle ferme une canasta de {game.P.rank_name(key)}")
    more = count_words(seen.pile_size - 1, seen.top)
    out.append(f"{more} de plus en main pour les combinaisons de l'équipe, que l'adversaire ne prendra pas")
    return out


FINDER = CanastaFinder()

__all__ = ["FINDER", "THEMES"]
