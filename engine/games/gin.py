"""Gin Rami (../shared/rules/gin.md): one deck, no wild cards, knock at 10 points or less.

A round opens with the first-upcard round (take it or pass). Each turn: draw from the stock or
take the top discard, then discard, or knock with a chosen arrangement. At the showdown the
others lay off on the knocker's melds (not after a Gin); an undercut punishes the knocker.
"""

from fractions import Fraction
from functools import lru_cache

from engine import cards, melds, moves
from engine.base import GameInfo, Option, event
from engine.games import _draw_discard as dd
from engine.games._draw_discard import DISCARD, DRAW, MATCH_OVER, ROUND_OVER, illegal
from engine.rng import shuffled

FIRST_UPCARD = "FIRST_UPCARD"
KNOCK_LIMIT = 10
GIN_BONUS = 25
UNDERCUT_BONUS = 25
PENALTY_LIMIT = 100
PRIZE_THRESHOLD = 25
STOCK_FLOOR = 2  # §9: checked after every discard
DECK = tuple(cards.deck(copies=1, jokers=0))


# ---------------------------------------------------------------- solver access (cached)

@lru_cache(maxsize=1)
def rules():
    return melds.gin_rules()


@lru_cache(maxsize=4096)
def _arrangement(key: tuple):
    return melds.best_arrangement(list(key), rules())


@lru_cache(maxsize=4096)
def _discards(key: tuple) -> dict:
    return melds.best_discards(list(key), rules())


@lru_cache(maxsize=4096)
def _deadwood(key: tuple) -> int:
    return melds.deadwood(list(key), rules())


def best_arrangement(hand: list[str]):
    """The solver's best Arrangement of `hand` (`.points`, `.melds`, `.deadwood`)."""
    return _arrangement(tuple(sorted(hand)))


def discards(hand: list[str]) -> dict:
    """(H+1)-card hand: best deadwood left after each discard (do not mutate)."""
    return _discards(tuple(sorted(hand)))


@lru_cache(maxsize=1)
def _values() -> dict:
    return {c: melds.card_value(c, rules()) for c in DECK}


def card_value(card: str) -> int:
    return _values()[card]


def knock_discards(hand: list[str]) -> dict:
    """(H+1)-card hand: {card: deadwood left} for each discard that allows a knock.

    A discard lowers the deadwood by at most its own value, so a hand whose deadwood exceeds
    the limit by more than its highest card cannot knock: one solve instead of H+1.
    """
    values = _values()
    if _deadwood(tuple(sorted(hand))) > KNOCK_LIMIT + max(values[c] for c in hand):
        return {}
    return {c: dw for c, dw in discards(hand).items() if dw <= KNOCK_LIMIT}


def hand_size(players: int) -> int:
    """§3: 10 cards with 2 players, 7 with 3 or 4."""
    return 10 if players == 2 else 7


def prize_split(points: list, winner: int, players: list[int]) -> list[str]:
    """§7, single-round tables: share of the pot per seat, as fraction strings ("3/4").

    The winner gets 3/4 and the losers with fewer than 25 penalty points share 1/4 in
    proportion to 25 − penalty; if no loser qualifies the winner takes it all.
    """
    shares = [Fraction(0)] * len(points)
    weights = {p: PRIZE_THRESHOLD - points[p] for p in players
               if p != winner and points[p] is not None and points[p] < PRIZE_THRESHOLD}
    if not weights:
        shares[winner] = Fraction(1)
    else:
        total = sum(weights.values())
        shares[winner] = Fraction(3, 4)
        for p, w in weights.items():
            shares[p] = Fraction(1, 4) * Fraction(w, total)
    return [str(s) for s in shares]


def score_showdown(knocker: int, dw: dict[int, int], others: list[int]) -> tuple[str, int | None, dict]:
    """§6: (kind, undercutter, penalty points per seat) from every final deadwood.

    `others` lists the other players clockwise from the knocker (the undercut tie-break).
    """
    dk = dw[knocker]
    if dk == 0:
        return "gin", None, {knocker: 0, **{p: dw[p] + GIN_BONUS for p in others}}
    if all(dw[p] > dk for p in others):
        return "knock", None, {knocker: 0, **{p: dw[p] - dk for p in others}}
    u = min(others, key=lambda p: (dw[p], others.index(p)))
    points = {p: dw[p] - dw[u] for p in others}
    points[knocker] = dk - dw[u] + UNDERCUT_BONUS
    points[u] = 0
    return "undercut", u, points


# ---------------------------------------------------------------- the game

class GinRami(dd.DrawDiscardGame):
    # A knock may name its melds: at most 10 cards in at most 3 melds (4 players: hands of 7).
    move_shape = {**dd.DrawDiscardGame.move_shape, "arrangement": moves.ListOf(moves.ListOf(moves.CARD, 11), 11)}

    rule_sections = {**dd.DrawDiscardGame.rule_sections, "deadwood_too_high": "frapper", "bad_arrangement": "frapper"}

    def action_label(self, action: str, view: dict) -> str:
        if action == "knock" and any(o.get("gin") for o in view.get("knock_options") or ()):
            return "Frapper / Gin\u00a0!"
        return super().action_label(action, view)
    info = GameInfo(
        slug="gin", name="Gin Rami", min_players=2, max_players=4, default_players=2,
        options=(Option("match", "Fin de la partie",
                        (("1", "1 manche"), ("100", "100 points de pénalité")), "100"),),
        order=6,
        tagline="Frappe à 10 points ou moins, ou fais Gin !",
        bots="engine.bots.gin",
        problems="draw_discard",
    )
    deck = DECK
    deck_set = frozenset(DECK)
    turn_actions = frozenset({"draw_stock", "take_discard", "pass", "discard", "knock"})
    stats_labels = {"rounds_won": "Manches gagnées", "gin": "Gins", "undercut": "Contres (undercut)"}

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        """The round's winner is the knocker, or the player who undercut him."""
        value, _ = super().round_stats(row, seat)
        if value is None:
            return None, {}
        ending = row.get("ending")
        winner = row.get("undercutter") if ending == "undercut" else row.get("knocker")
        counters = {}
        if winner == seat:
            counters["rounds_won"] = 1
            if ending in ("gin", "undercut"):
                counters[ending] = 1
        return value, counters

    # -- deal

    def _init_match(self, state: dict) -> None:
        state["taken_card"] = None  # card taken from the discard pile this turn (§10)
        state["picked"] = []  # cards taken from the pile this round, face up in front of all, still held
        state["forced_draw"] = False  # everybody passed the upcard: stock draw only
        state["upcard_order"] = []
        state["passed"] = []

    def _hand_size(self, state: dict) -> int:
        return hand_size(len(state["active"]))

    def _after_deal(self, state: dict) -> list[dict]:
        upcard = state["stock"].pop()
        state["discard"] = [upcard]
        state["phase"] = FIRST_UPCARD
        state["upcard_order"] = dd.order_from_left_of(state, state["dealer"])
        state["passed"] = []
        state["taken_card"] = None
        state["picked"] = []
        state["forced_draw"] = False
        return [event("upcard", card=upcard)]

    # -- turn

    def _legal_turn(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == FIRST_UPCARD:
            return [{"action": "take_discard"}, {"action": "pass"}]
        if phase == DRAW:
            moves = [{"action": "draw_stock"}] if state["stock"] else []
            if state["discard"] and not state["forced_draw"]:
                moves.append({"action": "take_discard"})
            return moves
        if phase != DISCARD:
            return []
        taken = state["taken_card"]
        hand = [c for c in dd.sorted_cards(state["hands"][seat]) if c != taken]
        moves = [{"action": "discard", "card": c} for c in hand]
        left = knock_discards(state["hands"][seat])
        for c in hand:
            if c in left:
                rest = [x for x in state["hands"][seat] if x != c]
                arrangement = [list(m) for m in best_arrangement(rest).melds]
                moves.append({"action": "knock", "card": c, "arrangement": arrangement})
        return moves

    def _do_take_discard(self, state: dict, seat: int, move: dict):
        phase = state["phase"]
        if phase == DISCARD:
            raise illegal("already_drew")
        if phase not in (DRAW, FIRST_UPCARD):
            raise illegal("wrong_phase")
        if phase == DRAW and state["forced_draw"]:
            raise illegal("must_draw_stock")
        if not state["discard"]:
            raise illegal("discard_empty")
        new = dd.fork(state, "discard")
        card = new["discard"].pop()
        dd.fork_hand(new, seat).append(card)
        new["taken_card"] = card
        new["picked"] = [*state.get("picked", ()), card]
        new["forced_draw"] = False
        new["phase"] = DISCARD
        return new, [event("take_discard", seat=seat, card=card)]

    def _do_pass(self, state: dict, seat: int, move: dict):
        if state["phase"] != FIRST_UPCARD:
            raise illegal("wrong_phase")
        new = dd.fork(state, "passed")
        new["passed"].append(seat)
        return new, [event("pass", seat=seat)] + self._next_upcard_decider(new)

    def _next_upcard_decider(self, new: dict) -> list[dict]:
        """Next seat asked about the upcard; once everyone passed, the first player must draw."""
        order = [s for s in new["upcard_order"] if s in new["active"]]
        waiting = [s for s in order if s not in new["passed"]]
        if waiting:
            new["current"] = waiting[0]
            return []
        new["current"] = order[0]
        new["phase"] = DRAW
        new["forced_draw"] = True
        return [event("all_passed", seat=order[0])]

    def _do_draw_stock(self, state: dict, seat: int, move: dict):
        phase = state["phase"]
        if phase == DISCARD:
            raise illegal("already_drew")
        if phase != DRAW:
            raise illegal("wrong_phase")
        if not state["stock"]:
            raise illegal("stock_empty")
        new = dd.fork(state, "stock")
        card = new["stock"].pop()
        dd.fork_hand(new, seat).append(card)
        new["phase"] = DISCARD
        new["taken_card"] = None
        new["forced_draw"] = False
        return new, dd.draw_events(seat, card)

    def _discard_card(self, state: dict, seat: int, move: dict) -> str:
        if state["phase"] in (DRAW, FIRST_UPCARD):
            raise illegal("must_draw_first")
        if state["phase"] != DISCARD:
            raise illegal("wrong_phase")
        card = dd.card_of(move, state["hands"][seat], self.deck_set)
        if card == state["taken_card"]:
            raise illegal("taken_card")
        return card

    def _do_discard(self, state: dict, seat: int, move: dict):
        card = self._discard_card(state, seat, move)
        new = dd.fork(state, "discard")
        dd.fork_hand(new, seat).remove(card)
        new["discard"].append(card)
        new["taken_card"] = None
        new["picked"] = [c for c in state.get("picked", ()) if c != card]
        events = [event("discard", seat=seat, card=card)]
        if len(new["stock"]) <= STOCK_FLOOR:
            if new["rebuilds"]:
                return new, events + self._void_round(new)
            new["rebuilds"] = 1
            rest = new["discard"][:-1]
            # §9: the rest of the pile goes, shuffled, *under* the 2 cards left (top = end)
            new["stock"] = shuffled(rest, new["seed"], f"r{new['round']}:rebuild1") + new["stock"]
            new["discard"] = new["discard"][-1:]
            events.append(event("stock_rebuilt", cards=len(rest), rebuilds=1))
        new["current"] = dd.next_active(new, seat)
        new["phase"] = DRAW
        return new, events

    def _knock_melds(self, move: dict, rest: list[str], card: str) -> list[list[str]]:
        """The knocker's melds: the move's `arrangement`, checked, or the server's best."""
        arrangement = move.get("arrangement")
        if arrangement is None:
            return [dd.sorted_cards(m) for m in best_arrangement(rest).melds]
        if not isinstance(arrangement, list) or len(arrangement) > len(rest):
            raise illegal("bad_arrangement")
        held = set(rest)
        used = set()
        chosen = []
        for meld in arrangement:
            if not isinstance(meld, list) or len(meld) > len(rest):
                raise illegal("bad_arrangement")
            for c in meld:
                if not isinstance(c, str) or c in used or c == card:
                    raise illegal("bad_arrangement")
                if c not in held:
                    raise illegal("unknown_card" if c not in self.deck_set else "card_not_in_hand")
                used.add(c)
            if not melds.is_valid_meld(list(meld), rules()):
                raise illegal("invalid_meld")
            chosen.append(dd.sorted_cards(meld))
        return chosen

    def _do_knock(self, state: dict, seat: int, move: dict):
        card = self._discard_card(state, seat, move)
        rest = [c for c in state["hands"][seat] if c != card]
        chosen = self._knock_melds(move, rest, card)
        in_melds = {c for m in chosen for c in m}
        deadwood = dd.sorted_cards(c for c in rest if c not in in_melds)
        dk = sum(card_value(c) for c in deadwood)
        if dk > KNOCK_LIMIT:
            raise illegal("deadwood_too_high")

        new = dd.fork(state, "discard", "scores", "history", "active", "out")
        dd.fork_hand(new, seat).remove(card)
        new["discard"].append(card)
        new["taken_card"] = None
        new["current"] = None
        events = [event("knock", seat=seat, card=card, melds=chosen, deadwood=deadwood,
                        deadwood_points=dk)]

        others = [s for s in dd.order_from_left_of(new, seat) if s != seat]
        dw = {seat: dk}
        revealed = {seat: {
            "seat": seat, "hand": dd.sorted_cards(rest), "melds": chosen, "deadwood": deadwood,
            "deadwood_points": dk, "layoffs": [],
        }}
        for p in others:
            hand = new["hands"][p]
            if dk == 0:  # no lay-offs after a Gin
                arr, layoffs = best_arrangement(hand), []
            else:
                arr, layoffs = melds.best_with_layoffs(list(hand), chosen, rules())
            laid = {c for c, _ in layoffs}
            left = [c for c in arr.deadwood if c not in laid]
            dw[p] = sum(card_value(c) for c in left)
            revealed[p] = {
                "seat": p, "hand": dd.sorted_cards(hand), "melds": [list(m) for m in arr.melds],
                "deadwood": dd.sorted_cards(left), "deadwood_points": dw[p],
                "layoffs": [{"card": c, "meld": i} for c, i in layoffs],
            }
        kind, undercutter, pts = score_showdown(seat, dw, others)
        if kind == "gin":
            events.append(event("gin", seat=seat))
        elif kind == "undercut":
            events.append(event("undercut", seat=undercutter, knocker=seat))

        points = [None] * new["seats"]
        for p, n in pts.items():
            points[p] = n
            new["scores"][p] += n
            revealed[p]["points"] = n
        players = [revealed[p] for p in sorted(revealed)]
        winner = undercutter if kind == "undercut" else seat
        single = new["options"]["match"] == "1"
        eliminated = [] if single else [p for p in new["active"] if new["scores"][p] > PENALTY_LIMIT]
        new["history"].append({
            "round": new["round"], "dealer": new["dealer"], "void": False, "ending": kind,
            "knocker": seat, "undercutter": undercutter, "points": points,
            "totals": list(new["scores"]), "eliminated": eliminated,
        })
        new["last_round"] = {
            "round": new["round"], "dealer": new["dealer"], "void": False, "ending": kind,
            "knocker": seat, "knock_card": card, "undercutter": undercutter, "winner": winner,
            "knocker_melds": chosen, "players": players, "points": points,
            "totals": list(new["scores"]), "eliminated": eliminated,
        }
        events.append(event("round_over", round=new["round"], ending=kind, knocker=seat,
                            undercutter=undercutter, points=points, totals=list(new["scores"]),
                            players=players))
        if single:
            split = prize_split(points, winner, list(new["active"]))
            events += self._finish(new, [winner], kind, prize_split=split)
            return new, events
        remaining = [p for p in new["active"] if p not in eliminated]
        for p in eliminated:
            events.append(event("eliminated", seat=p, total=new["scores"][p]))
        self._eliminate(new, eliminated, "eliminated")
        if len(remaining) == 1:
            events += self._finish(new, remaining, "last_standing")
        elif not remaining:  # cannot happen: the round's winner adds 0 and was at most 100
            low = min(new["scores"][p] for p in eliminated)
            events += self._finish(new, [p for p in eliminated if new["scores"][p] == low],
                                   "all_eliminated")
        else:
            new["phase"] = ROUND_OVER
        return new, events

    def _void_round(self, new: dict) -> list[dict]:
        """§9: the stock is down to 2 cards a second time: no points, the deal passes on."""
        points = [0 if s in new["active"] else None for s in range(new["seats"])]
        players = []
        for s in new["active"]:
            arr = best_arrangement(new["hands"][s])
            players.append({
                "seat": s, "hand": dd.sorted_cards(new["hands"][s]),
                "melds": [list(m) for m in arr.melds], "deadwood": dd.sorted_cards(arr.deadwood),
                "deadwood_points": arr.points, "layoffs": [], "points": 0,
            })
        new["history"] = new["history"] + [{
            "round": new["round"], "dealer": new["dealer"], "void": True, "ending": "void",
            "knocker": None, "undercutter": None, "points": points,
            "totals": list(new["scores"]), "eliminated": [],
        }]
        new["last_round"] = {
            "round": new["round"], "dealer": new["dealer"], "void": True, "ending": "void",
            "knocker": None, "knock_card": None, "undercutter": None, "winner": None,
            "knocker_melds": [], "players": players, "points": points,
            "totals": list(new["scores"]), "eliminated": [],
        }
        new["phase"] = ROUND_OVER
        new["current"] = None
        return [event("round_void", round=new["round"], players=players)]

    def _finish(self, new: dict, winners: list[int], reason: str, **extra) -> list[dict]:
        if new["options"]["match"] == "1" and "prize_split" not in extra:
            extra["prize_split"] = [str(Fraction(int(s in winners), len(winners)))
                                    for s in range(new["seats"])]
        return super()._finish(new, winners, reason, match=new["options"]["match"], **extra)

    # -- leaving, autoplay, views

    def _leave_match(self, new: dict, seat: int) -> list[dict]:
        """§9: with 2 players the leaver loses; with 3–4 he is out and the round goes on."""
        events = [event("eliminated", seat=seat, total=new["scores"][seat], left=True)]
        if len(new["active"]) <= 1:
            return events + self._finish(new, list(new["active"]), "left")
        phase = new["phase"]
        if phase == FIRST_UPCARD:
            if new["current"] == seat:
                events += self._next_upcard_decider(new)
        elif phase in (DRAW, DISCARD) and new["current"] == seat:
            new["current"] = dd.next_active(new, seat)
            if phase == DISCARD:
                new["phase"] = DRAW
                new["taken_card"] = None
                new["forced_draw"] = False
        return events

    def _autoplay_turn(self, state: dict, seat: int) -> dict:
        """§9: pass the upcard; draw from the stock; knock if possible, else discard."""
        phase = state["phase"]
        if phase == FIRST_UPCARD:
            return {"action": "pass"}
        if phase == DRAW:
            return {"action": "draw_stock"} if state["stock"] else {"action": "take_discard"}
        hand = state["hands"][seat]
        card, dw = dd.pick_discard(discards(hand), card_value, exclude=state["taken_card"])
        if dw > KNOCK_LIMIT:
            return {"action": "discard", "card": card}
        rest = [c for c in hand if c != card]
        return {"action": "knock", "card": card,
                "arrangement": [list(m) for m in best_arrangement(rest).melds]}

    def _best_arrangement(self, state: dict, hand: list):
        return best_arrangement(hand)

    def _view_extra(self, state: dict, view: dict, seat: int | None) -> None:
        view["match"] = state["options"]["match"]
        view["hand_size"] = hand_size(len(state["active"])) if state["active"] else None
        view["knock_limit"] = KNOCK_LIMIT
        view["taken_card"] = state["taken_card"]
        # Who took which card from the pile is public (it was face up); listed while the taker holds it.
        picked = state.get("picked") or ()
        for player in view["players"]:
            hand = state["hands"][player["seat"]]
            player["picked"] = [c for c in picked if c in hand]
        view["forced_draw"] = state["forced_draw"]
        view["eliminated"] = [o["seat"] for o in state["out"]]
        view["knock_options"] = []
        view["closable"] = []
        if seat is None or seat != state["current"] or state["phase"] != DISCARD:
            return
        hand = state["hands"][seat]
        left = knock_discards(hand)
        for c in dd.sorted_cards(hand):
            if c != state["taken_card"] and c in left:
                arr = best_arrangement([x for x in hand if x != c])
                view["knock_options"].append({
                    "card": c, "deadwood_points": left[c], "gin": left[c] == 0,
                    "melds": [list(m) for m in arr.melds], "deadwood": dd.sorted_cards(arr.deadwood),
                })
                view["closable"].append(c)


GAME = GinRami()

__all__ = ["FIRST_UPCARD", "GAME", "MATCH_OVER", "GinRami", "best_arrangement", "prize_split",
           "score_showdown"]
