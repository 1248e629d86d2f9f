"""Thunee's « Problèmes » (engine/games/thunee.py): « Quelle carte jouer ? » late in a normal deal, when the
trick and the count decide whether the contract is made.

What is a decision of the theme: a card to play (`PLAY`) in a normal deal (a Thunee or a blind Thunee is
decided by the caller taking every trick, not by a count: declined) with no trick-6 call yet, the seat holding
at most `MAX_HAND` cards and at most `MAX_UNSEEN` cards unseen (from the third card of trick 4 on), two legal
cards or more, and the contract still open (the declarers have not reached their bid, and the points still in
play can take them there). Everything else is declined at once.

How the figures are computed, exactly: from the seat's own view (`bots.thunee.seen_of`: the cards played, the
voids shown, the Jodhi cards still in a hand), *every* distribution of the unseen cards consistent with it is
enumerated (`deals`; at most `MAX_DEALS`, else declined), all equally likely (the usual assumption: how the
others chose their cards is not weighed), and on each one every legal
card is solved exactly: a minimax over the remaining tricks with every hand known (double dummy; each seat
plays for its team), where the declarers try to reach their bid and the defenders to stop them (`makes`).
Under that model a deal's result is one ball, won by the declarers or the defenders (`bots.thunee.balls_for`;
the robots' `utility` adds a tenth of the card-point margin as a tie-break, which moves no ball, so it is
left out). A card's figure is the seat's team's expected balls over the distributions: 2 p − 1, p the share
of distributions where its team wins the ball. No sampling: the figures are exact (`exact` True) for that
model — the seats after this card are assumed to play the remaining tricks perfectly, which with three cards
or fewer each is close to what a good player does, and it is the same assumption for every alternative (a
Double or Khanuck still to be called after trick 5 is not weighed).

A clear answer: the best card beats the second by at least `MARGIN` balls, i.e. the best card wins the ball in
at least one distribution out of four more than the second (a swing of 2 balls each time): the answer then
holds in many deals, not a corner case, and the cost of the error is real.
"""

from engine.bots import thunee as bot
from engine.bots import tricks as tk
from engine.games import thunee as th
from engine.narration.words import card_words
from engine.problems import Candidate, Choice

THEMES = {"carte": "Quelle carte jouer ?"}
MAX_HAND = 3  # cards in the seat's hand: the last three tricks, when the unseen cards are few
MAX_UNSEEN = 7  # unseen cards: from the third card of trick 4 on (at most 210 distributions)
MAX_DEALS = 250  # a guard: 7 unseen cards in hands of 3, 2 and 2 make 210 distributions
MARGIN = 0.5  # balls: the second card loses the deal in one distribution out of four (±1 ball each)
UNIT = "balles"


# ---------------------------------------------------------------- the decision


class ThuneeFinder:
    THEMES = THEMES

    def find(self, game, view: dict, legal: list[dict], rng) -> Candidate | None:
        cards = [m["card"] for m in legal if m.get("action") == "play_card"]
        if not of_theme(view, cards):
            return None
        seen = bot.seen_of(view)
        decl = "AB".index(view["declarers"])
        need = count_needed(view, decl)
        if len(seen.unseen(th.DECK)) > MAX_UNSEEN:
            return None  # trick 4's first two cards: 560 to 1,680 distributions, too slow for what they yield
        if need <= 0 or need > points_in_play(view, seen):
            return None  # the contract is decided: no card changes the ball
        hands_list = deals(seen)
        if not hands_list:
            return None
        wins = [0] * len(cards)  # distributions where the seat's team wins the ball, per card
        for hands in hands_list:
            table = bot.table_from(view, seen, hands)
            memo: dict = {}
            for i, card in enumerate(cards):
                made = after(table, seen.seat, card, need, decl, memo)
                wins[i] += made == (tk.team_index(seen.seat) == decl)
        n = len(hands_list)
        values = [2 * w / n - 1 for w in wins]
        return candidate(view, seen, cards, values, wins, n, need, decl)


def of_theme(view: dict, cards: list[str]) -> bool:
    return (view.get("phase") == th.PLAY and (view.get("kind") or th.NORMAL) == th.NORMAL
            and view.get("call") is None and view.get("declarers") is not None and view.get("trump") is not None
            and len(cards) >= 2 and len(view["hand"]) <= MAX_HAND)


def count_needed(view: dict, decl: int) -> int:
    """Card points the declarers still need to make their bid (their Jodhis counted)."""
    team = "AB"[decl]
    have = (view.get("points") or {}).get(team, 0) + (view.get("jodhi_points") or {}).get(team, 0)
    return view["bid"] - have


def points_in_play(view: dict, seen: tk.Seen) -> int:
    """Card points not yet in a finished trick (in the hands and on the table)."""
    pts = bot.STRENGTHS[bool(view["options"].get("royals"))].points(seen.trump)
    return sum(pts[c] for c in th.DECK if c not in seen.played) + sum(pts[c] for _, c in seen.trick)


# ---------------------------------------------------------------- every consistent distribution


def deals(seen: tk.Seen) -> list[list[list[str]]]:
    """Every deal of the unseen cards to the other seats consistent with the view (counts, known Jodhi cards,
    voids); [] when there are more than MAX_DEALS or the counts do not add up."""
    others = [s for s in range(4) if s != seen.seat]
    pool = seen.unseen(th.DECK)
    room = {s: seen.counts.get(s, 0) - len(seen.known.get(s, [])) for s in others}
    if sum(room.values()) != len(pool) or any(r < 0 for r in room.values()):
        return []
    eligible = {c: [s for s in others if tk.suit(c) not in seen.voids.get(s, ())] for c in pool}
    pool.sort(key=lambda c: len(eligible[c]))
    out: list[list[list[str]]] = []
    placed = {s: list(seen.known.get(s, [])) for s in others}
    if not _place(pool, 0, eligible, room, placed, out):
        return []
    for hands in out:
        hands[seen.seat] = list(seen.hand)
    return out


def _place(pool, i, eligible, room, placed, out) -> bool:
    """Deal pool[i:] (backtracking); False once more than MAX_DEALS deals are found."""
    if i == len(pool):
        if len(out) >= MAX_DEALS:
            return False
        hands = [[] for _ in range(4)]
        for s, cs in placed.items():
            hands[s] = list(cs)
        out.append(hands)
        return True
    card = pool[i]
    for s in eligible[card]:
        if room[s] == 0:
            continue
        room[s] -= 1
        placed[s].append(card)
        ok = _place(pool, i + 1, eligible, room, placed, out)
        placed[s].pop()
        room[s] += 1
        if not ok:
            return False
    return True


# ---------------------------------------------------------------- the exact play of the last tricks


def makes(table: tk.Table, seat: int, need: int, decl: int, memo: dict) -> bool:
    """Whether the declarers (team `decl`) take `need` more card points against the best defence, `seat` to
    play in `table`'s trick (every hand known: double dummy). `table`'s hands and trick are changed and put
    back; `memo` holds the positions at the start of a trick."""
    if need <= 0:
        return True
    if not table.trick:
        if not table.hands[seat]:
            return False
        key = (tuple(frozenset(h) for h in table.hands), seat, need)
        if key not in memo:
            memo[key] = _search(table, seat, need, decl, memo)
        return memo[key]
    return _search(table, seat, need, decl, memo)


def _search(table, seat, need, decl, memo) -> bool:
    ours = tk.team_index(seat) == decl
    for card in table.rules.legal(table, seat):
        if after(table, seat, card, need, decl, memo) == ours:
            return ours
    return not ours


def after(table: tk.Table, seat: int, card: str, need: int, decl: int, memo: dict) -> bool:
    """`makes` once `seat` has played `card`."""
    hand = table.hands[seat]
    at = hand.index(card)
    hand.pop(at)
    table.trick.append((seat, card))
    try:
        if len(table.trick) < 4:
            return makes(table, tk.nxt(seat), need, decl, memo)
        winner, _ = table.winning()
        pts = table.strengths.points(table.trump)
        got = sum(pts[c] for _, c in table.trick) if tk.team_index(winner) == decl else 0
        trick, table.trick = table.trick, []
        try:
            return makes(table, winner, need - got, decl, memo)
        finally:
            table.trick = trick
    finally:
        table.trick.pop()
        hand.insert(at, card)


# ---------------------------------------------------------------- the candidate and its words


def candidate(view, seen, cards, values, wins, n, need, decl) -> Candidate:
    choices = tuple(Choice(moves=({"action": "play_card", "card": c},), label=f"Jouer {card_words(c)}", value=v)
                    for c, v in zip(cards, values, strict=True))
    share = {c: w / n for c, w in zip(cards, wins, strict=True)}
    ranked = sorted(cards, key=lambda c: -share[c])
    pts = bot.STRENGTHS[bool(view["options"].get("royals"))].points(seen.trump)
    facts = {"deals": n, "need": need, "declarers": "AB"[decl], "bid": view["bid"],
             "in_play": points_in_play(view, seen), "share": share, "takes": takes_trick(view, seen, cards),
             "on_table": sum(pts[c] for _, c in seen.trick), "points": {c: pts[c] for c in cards}}
    return Candidate(theme="carte", choices=choices, unit=UNIT, margin=MARGIN, exact=True,
                     why=why(seen, ranked[0], ranked[1], facts), facts=facts)


def takes_trick(view: dict, seen: tk.Seen, cards: list[str]) -> dict:
    """Last to play in the trick: whether each card takes it (else {})."""
    if len(seen.trick) != 3:
        return {}
    strength = bot.STRENGTHS[bool(view["options"].get("royals"))].strength(seen.trump, tk.suit(seen.trick[0][1]))
    top = max(strength[c] for _, c in seen.trick)
    return {c: strength[c] > top for c in cards}


def why(seen: tk.Seen, best: str, second: str, facts: dict) -> str:
    """« Il manque 12 points à ton équipe pour ses 90 annoncés… Avec le Valet de cœur … dans 100 % des
    répartitions possibles des cartes cachées ; avec le 9 de pique, dans 50 %. »"""
    mine = tk.team_index(seen.seat) == "AB".index(facts["declarers"])
    need, bid, n = facts["need"], facts["bid"], facts["deals"]
    if mine:
        start = f"Il manque {need} points à ton équipe pour les {bid} annoncés"
        goal = "réussit le contrat"
    else:
        start = f"Il manque {need} points à l'équipe adverse pour ses {bid} annoncés"
        goal = "fait chuter le contrat"
    start += f" ({facts['in_play']} points encore en jeu)."
    pct = {c: round(100 * facts["share"][c]) for c in (best, second)}
    if n == 1:
        text = (f"{start} Les cartes des autres se déduisent de ce qui a été joué. En jouant {card_words(best)},"
                f" ton équipe {goal} ; avec {card_words(second)}, non.")
    else:
        spread = f"{n} répartitions possibles des cartes cachées"
        share = f"dans les {spread}" if pct[best] == 100 else f"dans {pct[best]} % des {spread}"
        worse = f"dans {pct[second]} % seulement" if pct[second] else "jamais"
        text = (f"{start} En jouant {card_words(best)}, ton équipe {goal} {share} (chacun jouant ensuite au"
                f" mieux) ; avec {card_words(second)}, {worse}.")
    takes = facts["takes"]
    if takes and takes[best] != takes[second]:
        winner, loser = (best, second) if takes[best] else (second, best)
        words = card_words(winner)
        text += (f" {words[0].upper()}{words[1:]} prend le pli et ses {facts['on_table'] + facts['points'][winner]}"
                 f" points ; {card_words(loser)} ne le prend pas.")
    return text


FINDER = ThuneeFinder()

__all__ = ["FINDER", "MARGIN", "MAX_DEALS", "MAX_HAND", "MAX_UNSEEN", "THEMES", "ThuneeFinder", "deals", "makes"]
