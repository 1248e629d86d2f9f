"""Partnership Canasta (engine/games/_canasta.py), the deal and the round's set-up: a new match, each round's
deal (the cards' upcard, the tiles' extra piece and bonus 3s laid during the deal), a turn's start (the cards'
dealt red 3s laid at the seat's first turn), and the state's copy every move starts from (`_fork`)."""

from engine.base import event, team_of, to_seat
from engine.games._canasta_rules import DRAW, FIRST_TURN, TEAMS
from engine.rng import StreamRandom, shuffled


class DealMixin:
    """`CanastaGame`'s deal and round set-up (it uses the game's `rules`, `P`, `info`, `slug`, `next_seat`)."""

    def new_match(self, seats: int, options: dict, seed: str) -> dict:
        if seats != 4:
            raise ValueError("partnership Canasta is played by exactly 4 players")
        options = self.info.clean_options(options)
        start = StreamRandom(seed, "first-player").randrange(4)
        # cards: a random first player, the dealer on his right; tiles: a random dealer
        dealer = (start - self.rules.direction) % 4 if self.rules.upcard else start
        state = {
            "game": self.slug, "seats": 4, "seed": seed, "options": options, "phase": DRAW, "round": 0,
            "active": [0, 1, 2, 3], "scores": [0, 0, 0, 0], "team_scores": {"A": 0, "B": 0},
            "history": [], "last_round": None, "result": None, "left": [],
            "jokers": [0, 0, 0, 0], "dealer": dealer,
        }
        state, _ = self._start_round(state, dealer)
        return state

    def _start_round(self, state: dict, dealer: int) -> tuple[dict, list]:
        R, P = self.rules, self.P
        new = dict(state)
        rnd = state["round"] + 1
        deck = shuffled(list(P.deck), state["seed"], f"r{rnd}:deal")
        first = self.next_seat(dealer)
        hands = [[], [], [], []]
        order = [(first + R.direction * i) % 4 for i in range(4)]
        for _ in range(R.hand_size):
            for s in order:
                hands[s].append(deck.pop())
        for _ in range(R.first_extra):
            hands[first].append(deck.pop())
        new.update({
            "round": rnd, "dealer": dealer, "first": first, "current": first, "hands": hands, "stock": deck,
            "pile": [], "frozen": False, "melds": {"A": [], "B": []}, "meld_seq": 0,
            "red3s": {"A": [], "B": []}, "melded": {"A": False, "B": False}, "has_melded": [False] * 4,
            "minimums": {t: R.minimum(state["team_scores"][t]) for t in TEAMS},
            "seen_first": [False] * 4, "staged": [], "question": None, "final_turn": False,
            "turn": self._fresh_turn(), "last_round": None,
            "phase": FIRST_TURN if R.first_extra else DRAW,
        })
        events = [event("deal", round=rnd, dealer=dealer, first=first)]
        if R.upcard:
            while True:
                card = new["stock"].pop()
                new["pile"].append(card)
                events.append(event("upcard", card=card))
                if not (P.is_wild(card) or card in P.bonus_threes):
                    break
                new["frozen"] = True
        if not R.upcard:  # tiles: red/yellow 3s exposed and replaced during the deal
            for s in order:
                events += self._lay_bonus_threes(new, s)
            new["seen_first"] = [True] * 4
        else:
            events += self._begin_turn(new, first)
        return new, events

    @staticmethod
    def _fresh_turn() -> dict:
        return {"drew": False, "took_pile": False, "asked": False, "permission": None, "last_red3": False,
                "joker": False}

    def _lay_bonus_threes(self, new: dict, seat: int) -> list:
        """Red 3s in `seat`'s hand go to the team's bonus area, each replaced from the stock (new is forked)."""
        P = self.P
        hand = new["hands"][seat]
        events = []
        while True:
            threes = [p for p in hand if p in P.bonus_threes]
            if not threes or not new["stock"]:
                if threes:  # no replacement left: laid anyway
                    for p in threes:
                        hand.remove(p)
                        new["red3s"][team_of(seat)].append(p)
                        events.append(event("red_three", seat=seat, team=team_of(seat), card=p))
                return events
            for p in threes:
                hand.remove(p)
                new["red3s"][team_of(seat)].append(p)
                events.append(event("red_three", seat=seat, team=team_of(seat), card=p))
                if new["stock"]:
                    drawn = new["stock"].pop()
                    hand.append(drawn)
                    events += self._draw_events(seat, drawn)

    @staticmethod
    def _draw_events(seat: int, piece: str) -> list:
        return [event("draw", seat=seat, source="stock"), event("drawn", to_seat(seat), seat=seat, card=piece)]

    def _begin_turn(self, new: dict, seat: int) -> list:
        """A turn starts: the cards' dealt red 3s are laid at the seat's first turn."""
        new["current"] = seat
        new["turn"] = self._fresh_turn()
        new["staged"] = []
        new["question"] = None
        if new["seen_first"][seat]:
            return []
        new["seen_first"] = list(new["seen_first"])
        new["seen_first"][seat] = True
        return self._lay_bonus_threes(new, seat)

    # ------------------------------------------------------------ copying a state

    @staticmethod
    def _fork(state: dict) -> dict:
        """A copy deep enough for any move (history and last_round are replaced, never changed)."""
        new = dict(state)
        new["hands"] = [list(h) for h in state["hands"]]
        new["stock"] = list(state["stock"])
        new["pile"] = list(state["pile"])
        new["melds"] = {t: [dict(m, pieces=list(m["pieces"])) for m in ms] for t, ms in state["melds"].items()}
        new["red3s"] = {t: list(v) for t, v in state["red3s"].items()}
        new["melded"] = dict(state["melded"])
        new["has_melded"] = list(state["has_melded"])
        new["staged"] = [dict(e, pieces=list(e["pieces"])) for e in state["staged"]]
        new["turn"] = dict(state["turn"])
        new["question"] = dict(state["question"]) if state["question"] else None
        new["jokers"] = list(state["jokers"])
        new["left"] = list(state["left"])
        new["scores"] = list(state["scores"])
        new["team_scores"] = dict(state["team_scores"])
        return new

    # ------------------------------------------------------------ the next round

    def _next_round(self, state: dict) -> tuple[dict, list]:
        dealer = self.next_seat(state["dealer"])
        return self._start_round(state, dealer)
