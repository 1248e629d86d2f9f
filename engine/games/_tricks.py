"""The trick-taking family (`family = "tricks"`): what any partnership trick game needs, and the pieces its
games share. Thunee (engine/games/thunee.py) is one game of it; Belote or Tarot would be others.

`TrickGame` (a subclass of `engine.base.Game`) holds the deal-and-trick mechanism:

- team seats: four players, partners face to face, team A = seats 0 and 2, team B = 1 and 3
  (`engine.base.team_of`, `TEAMS`); seat order in the table's direction (`seating`, a `Seats`);
- dealing in turn: `_shuffle_and_deal` (a fresh shuffle, then cards to each seat one at a time from the
  eldest, the dealer's next seat), `_deal` (more cards from the stock), `_start_deal`, `_do_next_round`
  (the deal passes to the next seat);
- the trump suit (`state["trump"]`, None until set), who leads (`leader`) and `_start_play`;
- the follow-suit rule and the legal cards: `playable` (« fournir » the led suit if you can; what a void
  hand may play is the hook `_void_rule`), `refusal` (why a held card may not be played);
- playing a card (`_do_play_card`, alias `play`) and winning a trick (`_close_trick`: highest trump, else
  highest card of the led suit, in the game's card order, the hook `card_order`); the tricks' card points
  per team (`points`);
- the trick display of the view (`trick_view`: `trick`, `tricks`, `last_trick`, `tricks_won`) and the rest of
  the view every trick game shows (`_view`, with the game's own keys from the hook `game_view`);
- the generic phases `PLAY`, `ROUND_OVER`, `MATCH_OVER`, and around them `to_act`, `legal_moves`,
  `apply` (validation and dispatch to `_do_<action>`), `autoplay` in play (the lowest-ranked legal card),
  `leave`, `result`, the state copy `fork`.

A game of the family adds its deck (`deck`), card order and points (`order` / `card_order`), its decisions
besides the cards (bidding, calls: `_phase_moves`, `_autoplay_decision`, its `_do_<action>` handlers), what
a finished trick leads to (`_after_trick`: by default the next trick, or the deal's count after the last),
that count (`_score`), its messages, labels and view keys (`game_view`), and how its score sheet reads the match
(`table_words`, `scoreboard`: « Points » by default, Thunee's balls and Jodhis).

Its state holds, besides the contract's keys (`game`, `seats`, `phase`, `round`, `active`, `scores`,
`history`): `seed`, `options`, `dealer`, `current`, `hands`, `stock` (cards still to deal, the last one on
top; never in a view), `trump`, `leader`, `trick` (the cards of the trick being played), `tricks` (the
deal's finished tricks), `points` (card points captured this deal, `{"A", "B"}`), `left`, `result`.

A trick in a state is `{"leader": seat, "cards": [{"seat": s, "card": id}, ...]}`; a finished trick is
`{number (1…), leader, cards, winner, team, points}`.

The pure helpers (rank orders and card points, follow-suit, trick winner and points, hand order,
seat order, dealing in turn, `IntChoice`) are in `_tricks_pieces.py`; this module re-exports them, so a
game or a bot reads them all as `_tricks.<name>`.
"""

from functools import cached_property

from engine import moves
from engine.base import Game, copy_data, event, team_of
from engine.errors import IllegalMove
from engine.games._tricks_pieces import (
    SUIT_FR,
    SUITS,
    TEAMS,
    IntChoice,
    RankOrder,
    Seats,
    deal_in_turn,
    follow_suit,
    lowest_card,
    other,
    partner,
    rank,
    sorted_hand,
    suit,
    trick_points,
    trick_winner,
    tricks_won,
)
from engine.rng import shuffled

__all__ = [
    "MATCH_OVER", "MESSAGES", "PLAY", "ROUND_OVER", "SUIT_FR", "SUITS", "TEAMS", "IntChoice", "RankOrder", "Seats",
    "TrickGame", "deal_in_turn", "follow_suit", "lowest_card", "other", "partner", "rank", "sorted_hand", "suit",
    "trick_points", "trick_winner", "tricks_won",
]

PLAY = "PLAY"
ROUND_OVER = "ROUND_OVER"
MATCH_OVER = "MATCH_OVER"

# The refusals of the family's own moves (a game adds its own codes: `TrickGame.messages`).
MESSAGES = {
    "bad_move": "Coup invalide.",
    "unknown_action": "Action inconnue.",
    "bad_seat": "Place inconnue.",
    "match_over": "La partie est terminée.",
    "round_over": "La donne est terminée.",
    "round_not_over": "La donne n'est pas terminée.",
    "not_your_turn": "Ce n'est pas ton tour.",
    "wrong_phase": "Ce coup n'est pas possible maintenant.",
    "bad_card": "Carte invalide.",
    "unknown_card": "Carte inconnue.",
    "card_not_in_hand": "Tu n'as pas cette carte.",
    "must_follow": "Tu dois fournir.",
    "no_decision": "Tu n'as rien à jouer maintenant.",
}


# ---------------------------------------------------------------- the family's game

class TrickGame(Game):
    """A partnership trick game for four: deals, trumps, follow-suit, tricks, their display; the game adds
    its deck, card order, decisions besides the cards and its count (module docstring)."""

    family = "tricks"
    seating = Seats(4, -1)  # the table's direction (counter-clockwise: next = seat − 1)
    deck: tuple = ()
    order: RankOrder | None = None  # the card order and points; `card_order` may choose by the options
    messages: dict = MESSAGES
    aliases: dict = {"play": "play_card"}
    # Phases in which the trick being played is shown (the game's call windows between tricks add theirs).
    trick_phases: frozenset = frozenset({PLAY})
    # The lists a move may change in place, copied by `fork` (with `hands` and `points`).
    deal_lists: tuple = ("stock", "trick", "tricks")
    move_shape = {**moves.BASE_SHAPE, "card": moves.CARD}
    stats_low_is_better = False
    action_labels = {"play_card": "Jouer", "next_round": "Donne suivante"}
    phase_hints = {**Game.phase_hints, "ROUND_OVER": "Donne terminée.", PLAY: "Joue une carte."}

    # The score sheet's words; a game names its own units (Thunee: balls, Jodhi).
    table_words: dict = {
        "match": "Points", "match_one": "point", "match_many": "points",
        "match_caption": "Points de la partie et points de la donne, par équipe",
        "history_caption": "Points marqués à chaque donne, la plus récente en haut",
        "bonus": "Points annoncés", "shown": "montrée", "score_note": "",
    }

    def scoreboard(self, view: dict) -> dict:
        """A view's score in the family's terms, for the score sheet: `match` (each team's match score),
        `target` (where the match ends, or None), `bonus` (points announced this deal, by team), `shown` (the
        cards shown for them: [{seat, cards}]), `deal` (the last deal's `match` after it, the `won` it gave
        its team and its `bonus`; None while a deal is played) and `history_won` (what each deal of `history`
        gave its team). By default the match score is the contract's `scores` (a team's partners share it);
        a game whose view names them otherwise says so here."""
        scores = view.get("scores") or ()
        match = {t: scores[i] for i, t in enumerate(TEAMS) if i < len(scores)}
        last = view.get("last_deal")
        return {"match": match, "target": view.get("target"), "bonus": {}, "shown": (),
                "deal": None if not last else {"match": match, "won": last.get("won", 0), "bonus": {}},
                "history_won": [row.get("won", 0) for row in view.get("history") or ()]}

    @cached_property
    def deck_set(self) -> frozenset:
        return frozenset(self.deck)

    @property
    def tricks_per_deal(self) -> int:
        return len(self.deck) // self.seating.count

    def illegal(self, code: str, message: str | None = None) -> IllegalMove:
        return IllegalMove(code, message or self.messages[code])

    def card_order(self, state: dict) -> RankOrder:
        """The game's card order and points (a hook: an option may choose another)."""
        return self.order

    def eldest(self, state: dict) -> int:
        """The seat after the dealer: the first to receive cards and, by default, to lead."""
        return self.seating.next(state["dealer"])

    def fork(self, state: dict) -> dict:
        """A copy of `state` sharing only what no move changes in place (finished tricks, history rows)."""
        new = dict(state)
        new["hands"] = [list(h) for h in state["hands"]]
        for key in self.deal_lists:
            new[key] = list(state[key])
        new["points"] = dict(state["points"])
        return new

    # -- deals

    def _start_deal(self, state: dict, dealer: int) -> list[dict]:
        """A new deal by `dealer` (mutates `state`): the deal number, then the game's first cards."""
        state["round"] += 1
        state["dealer"] = dealer
        return self._new_deal(state)

    def _new_deal(self, state: dict) -> list[dict]:
        """The game's deal: shuffle, cards, the first phase (mutates `state`; returns the events)."""
        raise NotImplementedError

    def _shuffle_and_deal(self, state: dict, label: str, count: int) -> list[int]:
        """A fresh shuffle of the deck (the seed's stream labelled `label`), `count` cards to each seat one at a
        time from the eldest in the table's direction; the rest is the `stock`. Returns the seats in that order."""
        state["stock"] = shuffled(self.deck, state["seed"], label)
        state["hands"] = [[] for _ in range(self.seating.count)]
        return self._deal(state, count)

    def _deal(self, state: dict, count: int, receivers: list | None = None) -> list[int]:
        """`count` more cards from the stock to each seat, from the eldest (`receivers`: where each seat's cards
        go, its hand by default). Returns the seats in dealing order."""
        order = self.seating.order_from(self.eldest(state))
        deal_in_turn(state["stock"], state["hands"] if receivers is None else receivers, order, count)
        return order

    def _start_play(self, new: dict, leader: int) -> list[dict]:
        new["phase"] = PLAY
        new["leader"] = leader
        new["current"] = leader
        return []

    def _do_next_round(self, state, seat, move):
        new = dict(state)
        return new, self._start_deal(new, self.seating.next(state["dealer"]))

    # -- who acts, what is legal

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] in (ROUND_OVER, MATCH_OVER) or state["current"] is None:
            return []
        return [state["current"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == MATCH_OVER or not isinstance(seat, int) or not 0 <= seat < 4:
            return []
        if phase == ROUND_OVER:
            return [{"action": "next_round"}]
        if seat not in self.to_act(state):
            return []
        if phase == PLAY:
            return [{"action": "play_card", "card": c}
                    for c in sorted_hand(self.playable(state, seat), state["trump"], self.card_order(state))]
        return self._phase_moves(state, seat)

    def _phase_moves(self, state: dict, seat: int) -> list[dict]:
        """The legal moves of the game's own phases (bidding, calls), `seat` being asked."""
        return []

    def winning_play(self, state: dict) -> dict | None:
        """The play that holds the trick being played so far (None before its lead)."""
        plays = state["trick"]
        if not plays:
            return None
        seat = trick_winner(plays, state["trump"], self.card_order(state))
        return next(p for p in plays if p["seat"] == seat)

    def playable(self, state: dict, seat: int) -> list[str]:
        """The cards `seat` may play now (his turn in PLAY), else []: any card to lead, the led suit when he has
        it, else what the game's `_void_rule` allows."""
        if state["phase"] != PLAY or state["current"] != seat:
            return []
        hand = state["hands"][seat]
        plays = state["trick"]
        if not plays:
            return list(hand)
        led = suit(plays[0]["card"])
        allowed = follow_suit(hand, led)
        if any(suit(c) == led for c in hand):
            return allowed
        return self._void_rule(state, seat, allowed)

    def _void_rule(self, state: dict, seat: int, hand: list[str]) -> list[str]:
        """What `seat`, void in the led suit, may play of `hand` (any card by default)."""
        return hand

    def refusal(self, state: dict, seat: int, card: str) -> IllegalMove:
        """Why `card` (held) may not be played: not following, else the game's `_void_refusal`."""
        led = suit(state["trick"][0]["card"])
        if any(suit(c) == led for c in state["hands"][seat]):
            return self.illegal("must_follow", f"Tu dois fournir à {SUIT_FR[led]}.")
        return self._void_refusal(state, seat, card)

    def _void_refusal(self, state: dict, seat: int, card: str) -> IllegalMove:
        return self.illegal("wrong_phase")

    def apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list[dict]]:
        if not isinstance(move, dict):
            raise self.illegal("bad_move")
        action = move.get("action")
        action = self.aliases.get(action, action) if isinstance(action, str) else action
        handler = getattr(self, f"_do_{action}", None) if isinstance(action, str) else None
        if handler is None:
            raise self.illegal("unknown_action")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise self.illegal("bad_seat")
        if action == "leave":
            return self.leave(state, seat)
        phase = state["phase"]
        if phase == MATCH_OVER:
            raise self.illegal("match_over")
        if action == "next_round":
            if phase != ROUND_OVER:
                raise self.illegal("round_not_over")
            return self._do_next_round(state, seat, move)
        if phase == ROUND_OVER:
            raise self.illegal("round_over")
        if seat not in self.to_act(state):
            raise self.illegal("not_your_turn")
        return handler(state, seat, move)

    def _phase(self, state: dict, phase: str, code: str = "wrong_phase") -> None:
        if state["phase"] != phase:
            raise self.illegal(code)

    # -- play

    def _do_play_card(self, state, seat, move):
        self._phase(state, PLAY)
        card = move.get("card")
        if not isinstance(card, str):
            raise self.illegal("bad_card")
        if card not in self.deck_set:
            raise self.illegal("unknown_card")
        if card not in state["hands"][seat]:
            raise self.illegal("card_not_in_hand")
        if card not in self.playable(state, seat):
            raise self.refusal(state, seat, card)
        new = self.fork(state)
        new["hands"][seat].remove(card)
        events = [] if new["trick"] else self._lead_events(new, seat, card)
        new["trick"].append({"seat": seat, "card": card})
        events.append(event("play", seat=seat, card=card, trick=len(new["tricks"]) + 1))
        if len(new["trick"]) < 4:
            new["current"] = self.seating.next(seat)
            return new, events
        return new, events + self._close_trick(new)

    def _lead_events(self, new: dict, seat: int, card: str) -> list[dict]:
        """What leading `card` does besides the play (mutates the forked `new`): nothing by default."""
        return []

    def _close_trick(self, new: dict) -> list[dict]:
        """The fourth card is down: the trick goes to its winner, its points to his team; then `_after_trick`."""
        order = self.card_order(new)
        plays = new["trick"]
        winner = trick_winner(plays, new["trump"], order)
        points = trick_points(plays, new["trump"], order)
        team = team_of(winner)
        done = {"number": len(new["tricks"]) + 1, "leader": new["leader"], "cards": plays,
                "winner": winner, "team": team, "points": points}
        new["tricks"].append(done)
        new["points"][team] += points
        new["trick"] = []
        new["leader"] = winner
        events = [event("trick", number=done["number"], winner=winner, team=team, points=points, cards=plays)]
        return events + self._after_trick(new, done)

    def _after_trick(self, new: dict, done: dict) -> list[dict]:
        """After the trick `done`: the deal's count after the last trick, else its winner leads the next."""
        if done["number"] == self.tricks_per_deal:
            return self._score(new)
        new["current"] = done["winner"]
        return []

    def _score(self, new: dict) -> list[dict]:
        """The deal's count, then `ROUND_OVER` or `MATCH_OVER` (mutates the forked `new`; returns the events)."""
        raise NotImplementedError

    # -- leaving, autoplay, result

    def _do_leave(self, state, seat, move):  # dispatched in apply
        return self.leave(state, seat)

    def leave(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        """A bot plays the seat for the rest of the match; the state only notes it in `left`."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise self.illegal("bad_seat")
        if state["phase"] == MATCH_OVER or seat in state["left"]:
            return dict(state), []
        new = dict(state)
        new["left"] = state["left"] + [seat]
        return new, [event("left", seat=seat)]

    def autoplay(self, state: dict, seat: int) -> dict:
        """`next_round` between deals; in play the lowest-ranked legal card; else `_autoplay_decision`."""
        phase = state["phase"]
        if phase == ROUND_OVER:
            return {"action": "next_round"}
        if phase == MATCH_OVER or seat not in self.to_act(state):
            raise self.illegal("no_decision")
        if phase == PLAY:
            card = lowest_card(self.playable(state, seat), state["trump"], self.card_order(state))
            return {"action": "play_card", "card": card}
        return self._autoplay_decision(state, seat)

    def _autoplay_decision(self, state: dict, seat: int) -> dict:
        """The autoplay move of the game's own phases."""
        raise self.illegal("no_decision")

    def result(self, state: dict) -> dict | None:
        if state["phase"] != MATCH_OVER or state["result"] is None:
            return None
        return copy_data(state["result"])

    # -- views

    def public_view(self, state: dict) -> dict:
        return self._view(state, None)

    def view(self, state: dict, seat: int) -> dict:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise self.illegal("bad_seat")
        return self._view(state, seat)

    def trick_view(self, state: dict) -> dict:
        """The trick display: `trick` (being played, in `trick_phases`), `tricks` (finished, all face up),
        `last_trick`, `tricks_won` per team."""
        tricks = copy_data(state["tricks"])
        return {
            "trick": None if state["phase"] not in self.trick_phases else {
                "leader": state["leader"], "cards": [dict(p) for p in state["trick"]],
                "number": len(state["tricks"]) + 1},
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "tricks_won": tricks_won(state["tricks"]),
        }

    def player_view(self, state: dict, seat: int) -> dict:
        """What everyone sees of `seat`: its team, its card count, whether it left."""
        return {"seat": seat, "team": team_of(seat), "hand_count": len(state["hands"][seat]),
                "left": seat in state["left"]}

    def game_view(self, state: dict, seat: int | None, order: RankOrder) -> dict:
        """The game's own keys of the view (bids, calls, its scores)."""
        return {}

    def _view(self, state: dict, seat: int | None) -> dict:
        order = self.card_order(state)
        trump = state["trump"]
        me = seat is not None
        view = {
            "game": state["game"], "seats": 4, "options": dict(state["options"]), "phase": state["phase"],
            "round": state["round"], "deal": state["round"],
            "seat": seat, "team": team_of(seat) if me else None, "partner": partner(seat) if me else None,
            "dealer": state["dealer"], "eldest": self.eldest(state), "direction": self.seating.direction,
            "current": state["current"], "to_act": self.to_act(state),
            "players": [self.player_view(state, s) for s in range(4)],
            "hand": sorted_hand(state["hands"][seat], trump, order) if me else [],
            "playable": sorted_hand(self.playable(state, seat) if me else [], trump, order),
            "legal": self.legal_moves(state, seat) if me else [],
            **self.trick_view(state),
            "trump": trump, "trump_known": trump is not None, "trump_hidden": False,
            "points": dict(state["points"]),
            "scores": list(state["scores"]),
            "history": copy_data(state["history"]),
            "left": list(state["left"]),
            "result": self.result(state),
            # the card family's keys
            "stock_count": len(state["stock"]), "discard_top": None, "discard_pile": [], "arrangement": None,
        }
        view.update(self.game_view(state, seat, order))
        return view
