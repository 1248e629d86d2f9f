"""Plumbing shared by the draw-and-discard games (Thanasis, Gin Rami, later the rummy family).

A game built on `DrawDiscardGame` keeps its state as a plain dict with these keys besides the
contract's (`game`, `seats`, `phase`, `round`, `active`, `scores`, `history`):

| key | meaning |
|---|---|
| `seed`, `options` | the match seed (server only) and the cleaned options |
| `dealer`, `current` | dealer of the round; seat to play (None at ROUND_OVER / MATCH_OVER) |
| `hands` | one list of card ids per seat ([] for a seat out of the match) |
| `stock` | face-down cards; the **last** element is the top card (pop is O(1)) |
| `discard` | face-up discard pile; the last element is the top card |
| `removed` | cards of players who left during this round (out of play, never revealed) |
| `rebuilds` | stock rebuilds so far in this round |
| `last_round` | what the last finished round revealed (hands, arrangements, points) |
| `out` | seats that left the match, in order: {seat, round, reason, step} |
| `result` | the standings once the match is over, else None |

`apply` never mutates its input: each move copies the top-level dict and the lists it changes
(`fork`), never the whole state.
"""

from engine import cards, moves
from engine.base import Game, copy_data, event, to_seat
from engine.errors import IllegalMove
from engine.rng import StreamRandom, shuffled

ROUND_OVER = "ROUND_OVER"
MATCH_OVER = "MATCH_OVER"
DRAW = "DRAW"
DISCARD = "DISCARD"


# ---------------------------------------------------------------- errors (stable codes, French text)

def illegal(code: str) -> IllegalMove:
    return IllegalMove(code, MESSAGES[code])


MESSAGES = {
    "bad_move": "Coup invalide.",
    "unknown_action": "Action inconnue.",
    "bad_seat": "Place inconnue.",
    "not_active": "Tu n'es plus dans la partie.",
    "match_over": "La partie est terminée.",
    "round_over": "La manche est terminée.",
    "round_not_over": "La manche n'est pas terminée.",
    "not_your_turn": "Ce n'est pas ton tour.",
    "wrong_phase": "Ce coup n'est pas possible maintenant.",
    "must_draw_first": "Tu dois d'abord piocher.",
    "already_drew": "Tu as déjà pioché.",
    "must_draw_stock": "Tu dois piocher dans la pioche.",
    "stock_empty": "La pioche est vide.",
    "discard_empty": "La défausse est vide.",
    "bad_card": "Carte invalide.",
    "unknown_card": "Carte inconnue.",
    "card_not_in_hand": "Tu n'as pas cette carte.",
    "not_closable": "Cette carte ne permet pas de fermer.",
    "taken_card": "Tu ne peux pas rejeter la carte que tu viens de prendre.",
    "bad_arrangement": "Combinaisons invalides.",
    "invalid_meld": "Cette combinaison n'est pas valide.",
    "deadwood_too_high": "Trop de points hors combinaisons pour frapper (10 au plus).",
    "no_decision": "Tu n'as rien à jouer maintenant.",
}


# ---------------------------------------------------------------- seats

def next_active(state: dict, seat: int) -> int | None:
    """The next seat clockwise (seat + 1) still in the match, or None if there is none."""
    n = state["seats"]
    active = state["active"]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if s in active:
            return s
    return None


def order_from_left_of(state: dict, seat: int) -> list[int]:
    """Active seats clockwise starting at the left of `seat` (`seat` itself last if active)."""
    n = state["seats"]
    active = state["active"]
    return [s for s in ((seat + i) % n for i in range(1, n + 1)) if s in active]


def first_dealer(seed: str, seats: int) -> int:
    return StreamRandom(seed, "first-dealer").randrange(seats)


def check_seat(state: dict, seat) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        raise illegal("bad_seat")


# ---------------------------------------------------------------- state copies

def fork(state: dict, *list_keys: str) -> dict:
    """Shallow copy of `state` with fresh copies of the top-level lists named."""
    new = dict(state)
    for key in list_keys:
        new[key] = list(state[key])
    return new


def fork_hand(new: dict, seat: int) -> list:
    """Give `new` (a forked state) its own `hands` list and its own copy of `seat`'s hand."""
    hands = list(new["hands"])
    hands[seat] = list(hands[seat])
    new["hands"] = hands
    return hands[seat]


# ---------------------------------------------------------------- moves

def action_of(move, actions: frozenset) -> str:
    if not isinstance(move, dict):
        raise illegal("bad_move")
    action = move.get("action")
    if not isinstance(action, str) or action not in actions:
        raise illegal("unknown_action")
    return action


def card_of(move: dict, hand: list, deck: frozenset) -> str:
    """The `card` parameter, checked: a known card id of this game, held by the player."""
    card = move.get("card")
    if not isinstance(card, str):
        raise illegal("bad_card")
    if card not in deck:
        raise illegal("unknown_card")
    if card not in hand:
        raise illegal("card_not_in_hand")
    return card


def sorted_cards(cs) -> list[str]:
    return sorted(cs, key=cards.sort_key)


def draw_events(seat: int, card: str, source: str = "stock") -> list[dict]:
    """The table learns a card was drawn; only the drawer learns which (kind `drawn`)."""
    return [
        event("draw", seat=seat, source=source),
        event("drawn", to_seat(seat), seat=seat, card=card, source=source),
    ]


def arrangement_dict(arr) -> dict:
    """JSON form of a solver Arrangement (melds in solver order, deadwood sorted)."""
    wilds = getattr(arr, "wilds", None) or {}
    return {
        "melds": [list(m) for m in arr.melds],
        "deadwood": sorted_cards(arr.deadwood),
        "points": arr.points,
        "wilds": dict(wilds) if isinstance(wilds, dict) else {},
    }


def pick_discard(discards: dict, value, exclude: str | None = None) -> tuple[str, int]:
    """Autoplay choice (§9 of both files): lowest deadwood left, then highest card value,
    then the first id in the order S,H,D,C, rank A…K, copy 1,2, jokers last."""
    best = min(
        (c for c in discards if c != exclude),
        key=lambda c: (discards[c], -value(c), cards.sort_key(c)),
    )
    return best, discards[best]


# ---------------------------------------------------------------- the shared game skeleton

class DrawDiscardGame(Game):
    """Draw-then-discard turn loop, rounds, leaving and views shared by the rummy family.

    Subclasses set `info`, `deck` (tuple of ids), `deck_set`, `turn_actions` and implement the
    hooks: `_init_match`, `_hand_size`, `_after_deal`, `_next_dealer`, `_legal_turn`, one
    `_do_<action>(state, seat, move)` per turn action (called once seat, turn and phase basics
    are checked), `_leave_match`, `_view_extra`, `_autoplay_turn`, `_best_arrangement`.
    """

    move_shape = {**moves.BASE_SHAPE, "card": moves.CARD}
    family = "cards"
    action_labels = {
        "draw_stock": "Piocher",
        "take_discard": "Prendre la défausse",
        "pass": "Passer",
        "close": "Je ferme\u00a0!",
        "knock": "Frapper",
        "next_round": "Manche suivante",
    }
    phase_hints = {
        **Game.phase_hints,
        "DRAW": "Pioche une carte.",
        "DISCARD": "Défausse une carte en cliquant dessus.",
        "FIRST_UPCARD": "Prends la carte retournée ou passe.",
    }

    rule_sections = {
        **dict.fromkeys(("not_your_turn", "wrong_phase", "must_draw_first", "already_drew", "must_draw_stock",
                         "stock_empty", "discard_empty", "taken_card", "not_closable", "keep_a_card",
                         "hand_not_empty", "take_forbidden", "taken_card_unused"), "tour-de-jeu"),
        **dict.fromkeys(("invalid_meld", "bad_arrangement"), "combinaisons"),
    }

    deck: tuple = ()
    deck_set: frozenset = frozenset()
    turn_actions: frozenset = frozenset()

    # -- match and rounds

    def new_match(self, seats: int, options: dict, seed: str) -> dict:
        info = self.info
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise ValueError(f"seats={seats!r}")
        if not info.min_players <= seats <= info.max_players:
            raise ValueError(f"seats={seats!r}")
        if not isinstance(seed, str) or not seed:
            raise ValueError("seed")
        state = {
            "game": self.slug,
            "seats": seats,
            "options": info.clean_options(options),
            "seed": seed,
            "phase": None,
            "round": 0,
            "dealer": None,
            "current": None,
            "active": list(range(seats)),
            "scores": [0] * seats,
            "history": [],
            "hands": [[] for _ in range(seats)],
            "stock": [],
            "discard": [],
            "removed": [],
            "rebuilds": 0,
            "last_round": None,
            "out": [],
            "result": None,
        }
        self._init_match(state)
        self._start_round(state, first_dealer(seed, seats))
        return state

    def _init_match(self, state: dict) -> None:
        """Game-specific keys of a fresh match (mutates the fresh dict)."""

    def _start_round(self, state: dict, dealer: int) -> list[dict]:
        """Deal a new round into `state` (a fresh or forked dict, mutated in place)."""
        state["round"] += 1
        state["dealer"] = dealer
        state["rebuilds"] = 0
        state["last_round"] = None
        order = order_from_left_of(state, dealer)
        size = self._hand_size(state)
        deck = shuffled(self.deck, state["seed"], f"r{state['round']}:deal")
        hands = [[] for _ in range(state["seats"])]
        for _ in range(size):
            for s in order:
                hands[s].append(deck.pop())
        state["hands"] = hands
        state["stock"] = deck
        state["discard"] = []
        state["removed"] = []
        state["current"] = order[0]
        events = [event("deal", round=state["round"], dealer=dealer, hand_size=size, seats=order)]
        events += self._after_deal(state)
        return events

    def _next_round(self, state: dict) -> tuple[dict, list[dict]]:
        new = dict(state)
        return new, self._start_round(new, self._next_dealer(state))

    def _eliminate(self, state: dict, seats: list[int], reason: str) -> None:
        """Take `seats` out of the match (state already forked for `active` and `out`)."""
        step = (state["out"][-1]["step"] + 1) if state["out"] else 1
        for s in seats:
            state["active"].remove(s)
            state["out"].append({"seat": s, "round": state["round"], "reason": reason, "step": step})

    def _finish(self, new: dict, winners: list[int], reason: str, **extra) -> list[dict]:
        """End the match in `new` (forked): MATCH_OVER, standings stored for `result()`."""
        new["phase"] = MATCH_OVER
        new["current"] = None
        winners = sorted(winners)
        ranking = self._ranking(new, winners)
        new["result"] = {
            "winners": winners,
            "ranking": ranking,
            "scores": list(new["scores"]),
            "reason": reason,
            **extra,
        }
        return [event("match_over", winners=winners, ranking=ranking, reason=reason)]

    def _ranking(self, state: dict, winners: list[int]) -> list[int]:
        """Winners first, then the others: out later is better, then the lower total."""
        step = {o["seat"]: o["step"] for o in state["out"]}
        rest = [s for s in range(state["seats"]) if s not in winners]
        rest.sort(key=lambda s: (-step.get(s, 10**9), state["scores"][s], s))
        return list(winners) + rest

    @classmethod
    def _all_actions(cls) -> frozenset:
        cached = cls.__dict__.get("_all_actions_cache")
        if cached is None:
            cached = cls.turn_actions | {"next_round", "leave"}
            cls._all_actions_cache = cached
        return cached

    # -- contract

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] in (ROUND_OVER, MATCH_OVER) or state["current"] is None:
            return []
        return [state["current"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == MATCH_OVER or seat not in state["active"]:
            return []
        if phase == ROUND_OVER:
            return [{"action": "next_round"}]
        if seat != state["current"]:
            return []
        return self._legal_turn(state, seat)

    def apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list[dict]]:
        action = action_of(move, self._all_actions())
        check_seat(state, seat)
        if action == "leave":
            return self.leave(state, seat)
        phase = state["phase"]
        if phase == MATCH_OVER:
            raise illegal("match_over")
        if seat not in state["active"]:
            raise illegal("not_active")
        if action == "next_round":
            if phase != ROUND_OVER:
                raise illegal("round_not_over")
            return self._next_round(state)
        if phase == ROUND_OVER:
            raise illegal("round_over")
        if seat != state["current"]:
            raise illegal("not_your_turn")
        return getattr(self, "_do_" + action)(state, seat, move)

    def result(self, state: dict) -> dict | None:
        if state["phase"] != MATCH_OVER or state["result"] is None:
            return None
        return copy_data(state["result"])

    def autoplay(self, state: dict, seat: int) -> dict:
        check_seat(state, seat)
        phase = state["phase"]
        if phase == ROUND_OVER and seat in state["active"]:
            return {"action": "next_round"}
        if phase == MATCH_OVER or seat not in state["active"] or seat != state["current"]:
            raise illegal("no_decision")
        return self._autoplay_turn(state, seat)

    def leave(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        """§9 Leaving: the seat is out at once; its hand leaves play (kept in `removed`)."""
        check_seat(state, seat)
        if state["phase"] == MATCH_OVER or seat not in state["active"]:
            return dict(state), []  # free to go: the match has a winner, or the seat is already out
        new = fork(state, "active", "out", "removed")
        events = [event("left", seat=seat)]
        hand = new["hands"][seat]
        if hand:
            new["removed"].extend(hand)
            hands = list(new["hands"])
            hands[seat] = []
            new["hands"] = hands
        self._eliminate(new, [seat], "left")
        events += self._leave_match(new, seat)
        return new, events

    # -- views

    def _public(self, state: dict) -> dict:
        phase = state["phase"]
        hands = state["hands"]
        discard = state["discard"]
        out = {o["seat"]: o["reason"] for o in state["out"]}
        view = {
            "game": state["game"],
            "seats": state["seats"],
            "options": dict(state["options"]),
            "phase": phase,
            "round": state["round"],
            "dealer": state["dealer"],
            "current": state["current"],
            "to_act": self.to_act(state),
            "active": list(state["active"]),
            "scores": list(state["scores"]),
            "players": [
                {
                    "seat": s,
                    "hand_count": len(hands[s]),
                    "score": state["scores"][s],
                    "active": s in state["active"],
                    "out": out.get(s),
                }
                for s in range(state["seats"])
            ],
            "stock_count": len(state["stock"]),
            "stock_rebuilds": state["rebuilds"],
            "discard_top": discard[-1] if discard else None,
            "discard_pile": list(discard),
            "history": copy_data(state["history"]),
            "out": [dict(o) for o in state["out"]],
            "last_round": copy_data(state["last_round"]) if phase in (ROUND_OVER, MATCH_OVER) else None,
            "result": self.result(state),
            "seat": None,
            "hand": [],
            "legal": [],
            "arrangement": None,
        }
        return view

    def public_view(self, state: dict) -> dict:
        view = self._public(state)
        self._view_extra(state, view, None)
        return view

    def view(self, state: dict, seat: int) -> dict:
        check_seat(state, seat)
        view = self._public(state)
        hand = state["hands"][seat]
        view["seat"] = seat
        view["hand"] = sorted_cards(hand)
        view["legal"] = self.legal_moves(state, seat)
        view["arrangement"] = arrangement_dict(self._best_arrangement(state, hand)) if hand else None
        self._view_extra(state, view, seat)
        return view

    # -- hooks

    def _hand_size(self, state: dict) -> int:
        raise NotImplementedError

    def _after_deal(self, state: dict) -> list[dict]:
        return []

    def _next_dealer(self, state: dict) -> int:
        return next_active(state, state["dealer"])

    def _legal_turn(self, state: dict, seat: int) -> list[dict]:
        raise NotImplementedError

    def _leave_match(self, new: dict, seat: int) -> list[dict]:
        raise NotImplementedError

    def _view_extra(self, state: dict, view: dict, seat: int | None) -> None:
        pass

    def _autoplay_turn(self, state: dict, seat: int) -> dict:
        raise NotImplementedError

    def _best_arrangement(self, state: dict, hand: list):
        raise NotImplementedError
