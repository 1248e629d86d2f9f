"""Partnership Canasta: one mechanism, two rule sets (canasta.md: cards; canasta-tuiles.md: tiles).

`CanastaRules` (engine/games/_canasta_rules.py, with meld validity and the French refusals `MESSAGES`) holds
every difference (deck, values, thresholds, wild limits, canasta kinds with the tile
game's 1,000/700 canastas of 2s, freezing, first turn, direction, the go-out question, concealed going
out, match lengths); `CanastaGame` plays either. Teams: A = seats 0 and 2, B = seats 1 and 3. A team owns
its melds (at most one per rank; the tile game adds one meld of 2s). "Piece" = card or tile.

## Moves

| move | when |
|---|---|
| `{"action": "draw_stock"}` | `DRAW`, stock not empty |
| `{"action": "take_joker"}` | tiles, `DRAW`: a joker tile in the stock, the seat's account balance > 0 |
| `{"action": "take_pile", "melds": [[ids], ...]}` | `DRAW`: one list holds the top piece `t` with two naturals of |
|   | its rank from the hand (cards, unfrozen pile, melded team: also `[t]` alone onto the team's meld, or `t` + a |
|   | natural + a wild), and may hold more naturals of its rank and wilds of the hand within the meld limits; the |
|   | other lists are melds from the hand (a team's first meld). A list of a rank the team has melded goes onto |
|   | that meld. legal_moves offers the minimal legal pick-ups (engine/games/_canasta_pickup.py). |
| `{"action": "pass"}` | cards, `DRAW`, stock empty and taking the pile not compulsory: the hand ends |
| `{"action": "meld", "cards": [ids]}` | `MELD`, staged (private until the commit); a melded rank: a lay-off |
| `{"action": "lay_off", "cards": [ids], "meld_id": "M3"}` | `MELD`, staged, onto a team meld (committed or staged) |
| `{"action": "undo"}` / `{"action": "undo", "all": true}` | the last / all staged actions (« Annuler ») |
| `{"action": "discard", "card": id}` | `FIRST_TURN` (tiles) or `MELD`: commits the staged actions |
| `{"action": "go_out"}` | cards, `MELD`, hand empty after the staged actions: commits |
| `{"action": "end_turn"}` | cards, after drawing the last stock card as a red 3: commits, the hand ends |
| `{"action": "ask_go_out"}` | cards, `DRAW` or `MELD` before any table action, once a turn |
| `{"action": "answer_go_out", "answer": "yes"/"no"}` | the partner, while the question is pending |
| `{"action": "next_round"}`, `{"action": "leave"}` | as in the other games |

`tiles`/`tile` are accepted for `cards`/`card`; `wilds` is accepted and ignored (a wild's meaning is its meld's
rank). `to_act` is `[partner]` while a go-out question is pending.

## State keys (besides `game, seats, phase, round, active, scores, history`)

`seed, options, dealer, current, first` (the round's first player), `hands`, `stock` (last = top, never in a
view), `pile` (last = top), `frozen`, `melds` `{"A": [{id, rank, pieces}], "B": [...]}`, `meld_seq`,
`red3s` `{"A": [ids], "B": [ids]}`, `melded` `{"A": bool, "B": bool}`, `has_melded` (per seat, concealed going
out), `minimums` `{"A", "B"}` (this hand's), `team_scores` `{"A", "B"}`, `seen_first` (per seat: first turn
started, the cards' dealt red 3s laid), `staged` (the acting seat's), `turn` `{drew, took_pile, asked,
permission, last_red3}`, `question` (None or `{seat, partner, answer}`), `final_turn` (tiles: the stock ran
out, the round ends with this turn), `jokers` (tiles: account joker balance per seat), `left` (seats played by
the autoplay/bots after leaving), `last_round`, `result`.

## Views (engine/games/_canasta_view.py; `public_view` = the same keys with `me`/`team` None, nothing private)

- `game`, `pieces` ("cards" | "tiles"), `phase` (`FIRST_TURN`, `DRAW`, `MELD`, `ROUND_OVER`, `MATCH_OVER`),
  `round`, `me`, `seat` (= me), `team` ("A"/"B"), `partner`, `seats` 4, `options`, `dealer`, `current`,
  `to_act`, `direction` (+1 clockwise / −1), `left` (seats that left).
- `hand`: my pieces sorted by rank, wilds last (after my staged actions: `staged.hand_after`);
  `hand_counts`: per seat (committed; my own count too).
- `teams`: `{"A": T, "B": T}` with T = `{score, minimum, melded, red3s: [ids], canastas, melds: [M]}`;
  M = `{id, team, rank, rank_name, pieces, cards (= pieces), naturals, wilds, count, to_seven,
  toward (False for a meld of 3s, which never becomes a canasta; its to_seven is None),
  canasta = closed (None | "clean" | "dirty" | "twos_clean" | "twos_dirty"), points, bonus}` (`pieces`
  naturals first then wilds).
- `pile`: `{top, size, frozen, takeable, refusal}` (`frozen` always False for tiles; `takeable` = the top piece
  may be taken by someone: not a wild, not a 3; `refusal`, in the view of the seat to draw only: why it cannot take
  the pile now, in French, or None); `stock_count`.
- `scores` (per seat: its team's total), `team_scores` `{"A", "B"}`.
- `staged`: None, or (the acting seat only) `{actions: [{action, meld_id, rank, pieces}], hand_after,
  melds_after: [M] (my team's melds after them), points (new melds' value), opening_ok}`.
- `question`: None or `{seat, partner, answer}` (answer None while pending, then "yes"/"no"), public;
  `permission`: the current turn's answer.
- `legal`: `legal_moves(state, me)`; `joker_balance` and `joker_available` (tiles, mine; None for cards),
  `joker_refusal` (tiles: why the Joker button is disabled at my draw, in French; else None).
- `last_round` (at `ROUND_OVER` / `MATCH_OVER`): `{round, dealer, ending ("out" | "concealed" | "stock"),
  went_out, hands: [[ids] per seat], teams: {"A": S, "B": S}}` with S = `{melds_points, canasta_bonus (= closed_bonus),
  canastas: {clean, dirty, twos_clean, twos_dirty}, red3s, red3_points, black3_points, going_out, hand_points,
  total, score}`; `history` rows `{round, dealer, ending, went_out, points: {"A", "B"}, totals: {"A", "B"}}`;
  `result`.

Events: `deal` {round, dealer, first}, `upcard` {card}, `red_three` {seat, team, card}, `draw` {seat,
source} + `drawn` {seat, card} (the drawer only), `joker_taken` {seat} (the drawer only: the table sees the Joker
button's draw as a `draw` from the stock), `take_pile` {seat, card, count,
melds}, `took` {seat, cards} (the taker only), `staged`/`unstaged` (the acting seat only), on commit
`team_meld` {seat, team, meld_id, rank, pieces, points} and `team_lay_off` {seat, team, meld_id, rank,
pieces}, `canasta` {seat, team, meld_id, rank, canasta}, `opened` {seat, team, points}, `discard` {seat,
card}, `go_out` {seat, concealed}, `ask_go_out` {seat}, `answer_go_out` {seat, answer}, `decline_pile`
{seat}, `round_over` {round, ending, went_out, points, totals}, `match_over` {winners, ...}, `left` {seat}.
"""

from collections import Counter

from engine import moves
from engine.base import Game, GameInfo, event, team_of, to_seat
from engine.errors import IllegalMove
from engine.games import _canasta_pickup, _canasta_view
from engine.games._canasta_pieces import Pieces
from engine.games._canasta_rules import (
    CANASTA_SIZE,
    DRAW,
    FIRST_TURN,
    MATCH_OVER,
    MELD,
    ROUND_OVER,
    TEAMS,
    CanastaRules,
    illegal,
    plural,
)
from engine.rng import StreamRandom, shuffled


class CanastaGame(Game):
    """The game object: subclasses set `rules`, `info` and `match_decided`."""

    rules: CanastaRules
    info: GameInfo
    family = "team_meld"
    stats_low_is_better = False
    stats_labels = {"rounds_won": "Manches gagnées (équipe)", "canastas": "Canastas de l'équipe",
                    "went_out": "Sorties"}

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        """Round points and canastas are the team's; going out is the player's own."""
        points = row.get("points") or {}
        team = team_of(seat)
        if team not in points:
            return None, {}
        other = "B" if team == "A" else "A"
        counters = {}
        if points[team] > points.get(other, points[team]):
            counters["rounds_won"] = 1
        if row.get("canastas", {}).get(team):
            counters["canastas"] = row["canastas"][team]
        if row.get("went_out") == seat:
            counters["went_out"] = 1
        return int(points[team]), counters
    move_shape = {
        **moves.BASE_SHAPE,
        "card": moves.CARD, "tile": moves.CARD,
        "cards": moves.ListOf(moves.CARD, 20), "tiles": moves.ListOf(moves.CARD, 20),
        "wilds": moves.MapOf(moves.CARD, moves.CARD, 12),
        "meld_id": moves.Text(8),
        "melds": moves.ListOf(moves.ListOf(moves.CARD, 20), 8),
        "all": moves.Flag(),
        "answer": moves.Text(4),
    }
    action_labels = {
        "draw_stock": "Piocher", "take_pile": "Prendre la pile", "take_joker": "Joker",
        "meld": "Déposer", "lay_off": "Ajouter", "undo": "Annuler", "discard": "Défausser",
        "go_out": "Sortir", "end_turn": "Terminer le tour", "pass": "Ne pas prendre (fin de la manche)",
        "ask_go_out": "Partenaire, puis-je sortir\u00a0?", "answer_go_out": "Répondre",
        "next_round": "Manche suivante",
    }
    rule_sections = {
        **dict.fromkeys(("not_your_turn", "must_draw_first", "already_drew", "first_turn_discard",
                         "stock_not_empty", "not_in_meld_phase", "not_last_red3", "no_discard_last_red3"),
                        "tour-de-jeu"),
        **dict.fromkeys(("pile_empty", "pile_blocked", "pile_one_card", "top_not_used", "top_twice", "need_pair",
                         "pile_strands"), "prendre-la-pile"),  # the frozen pile's rule is there too
        "below_minimum": "premiere-pose",
        **dict.fromkeys(("bad_melds", "mixed_ranks", "only_wilds", "rank_melded", "bonus_three", "no_threes",
                         "black_threes", "black_threes_out", "too_short", "too_few_naturals", "too_many_wilds",
                         "wilds_not_fewer", "twos_jokers", "unknown_meld"), "combinaisons"),
        **dict.fromkeys(("need_canasta", "not_allowed_out", "must_go_out", "wait_answer", "already_asked",
                         "ask_before_table", "hand_not_empty", "keep_a_piece", "no_question"), "sortir"),
        **dict.fromkeys(("must_take_pile", "stock_empty"), "pioche-vide"),
    }
    # The rule set's words at the table (the family's presenter names no game): a closed meld by its kind, the
    # score-sheet rows of bonuses and threes, the celebration of a going out, the match's default length.
    table_words: dict = {}
    phase_hints = {
        FIRST_TURN: "Premier tour : défausse une tuile.",  # tiles only (the cards have no first-turn discard)
        DRAW: "Pioche ou prends la pile.",
        MELD: "Pose tes combinaisons si tu veux, puis défausse.",
        ROUND_OVER: "Manche terminée.",
        MATCH_OVER: "Partie terminée.",
    }

    @property
    def slug(self) -> str:
        return self.info.slug

    def action_label(self, action: str, view: dict) -> str:
        return self.action_labels.get(action, "")

    def clean_move(self, move) -> dict:
        return moves.clean(move, self.move_shape)

    # ------------------------------------------------------------ small helpers

    @property
    def P(self) -> Pieces:
        return self.rules.pieces

    def next_seat(self, seat: int) -> int:
        return (seat + self.rules.direction) % 4

    @staticmethod
    def partner(seat: int) -> int:
        return (seat + 2) % 4

    def meld_kind(self, rank: str, pieces: list) -> str | None:
        return self.rules.meld_kind(rank, pieces)

    def is_wild_in(self, rank: str, p: str) -> bool:
        return self.rules.is_wild_in(rank, p)

    def meld_error(self, rank: str, pieces: list) -> str | None:
        return self.rules.meld_error(rank, pieces)

    def count_error(self, rank: str, naturals: int, wilds: int) -> str | None:
        return self.rules.count_error(rank, naturals, wilds)

    def rank_of_set(self, pieces: list) -> str | None:
        return self.rules.rank_of_set(pieces)

    def value(self, pieces) -> int:
        return self.rules.value(pieces)


    # ------------------------------------------------------------ match and rounds

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

    # ------------------------------------------------------------ copying

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

    # ------------------------------------------------------------ preview (after the staged actions)

    def preview(self, state: dict, seat: int) -> tuple[list, list]:
        """(hand, team melds) of `seat` after its staged actions (only the acting seat has any)."""
        hand = list(state["hands"][seat])
        melds = [dict(m, pieces=list(m["pieces"])) for m in state["melds"][team_of(seat)]]
        if seat != state["current"] or not state["staged"]:
            return hand, melds
        by_id = {m["id"]: m for m in melds}
        for entry in state["staged"]:
            for p in entry["pieces"]:
                hand.remove(p)
            if entry["action"] == "meld":
                m = {"id": entry["meld_id"], "team": team_of(seat), "rank": entry["rank"],
                     "pieces": list(entry["pieces"])}
                melds.append(m)
                by_id[m["id"]] = m
            else:
                by_id[entry["meld_id"]]["pieces"].extend(entry["pieces"])
        return hand, melds

    def _next_meld_id(self, state: dict) -> str:
        staged_melds = sum(1 for e in state["staged"] if e["action"] == "meld")
        return f"M{state['meld_seq'] + staged_melds + 1}"

    # ------------------------------------------------------------ to_act, legal moves

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] in (ROUND_OVER, MATCH_OVER):
            return []
        q = state["question"]
        if q and q["answer"] is None:
            return [q["partner"]]
        return [state["current"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == MATCH_OVER or not isinstance(seat, int) or not 0 <= seat < 4:
            return []
        if phase == ROUND_OVER:
            return [{"action": "next_round"}]
        if seat not in self.to_act(state):
            return []
        q = state["question"]
        if q and q["answer"] is None:
            return [{"action": "answer_go_out", "answer": "yes"}, {"action": "answer_go_out", "answer": "no"}]
        hand = state["hands"][seat]
        if phase == FIRST_TURN:
            return [{"action": "discard", "card": p} for p in _distinct(self.P.sort(hand))]
        out = []
        can_ask = self.rules.go_out_question and not state["turn"]["asked"]
        if phase == DRAW:
            if state["stock"]:
                out.append({"action": "draw_stock"})
                if self._joker_ok(state, seat):
                    out.append({"action": "take_joker"})
            takes, _ = _canasta_pickup.pick_ups(self, state, seat)
            out += [{"action": "take_pile", "melds": melds} for melds in takes]
            if not state["stock"] and not self._take_compulsory(state, seat):
                out.append({"action": "pass"})
            if can_ask:
                out.append({"action": "ask_go_out"})
            return out
        # MELD
        pv_hand, pv_melds = self.preview(state, seat)
        out += self._canonical_table_moves(state, seat, pv_hand, pv_melds)
        if state["staged"]:
            out.append({"action": "undo"})
            if len(state["staged"]) > 1:
                out.append({"action": "undo", "all": True})
        if not pv_hand:
            if self._commit_error(state, seat, None) is None:
                out.append({"action": "go_out"})
        elif state["turn"]["last_red3"]:
            if self._commit_error(state, seat, None) is None:
                out.append({"action": "end_turn"})
        else:
            ok = {}
            for p in _distinct(self.P.sort(pv_hand)):
                key = len(pv_hand) == 1
                if key not in ok:
                    ok[key] = self._commit_error(state, seat, p) is None
                if ok[key]:
                    out.append({"action": "discard", "card": p})
        if can_ask and not state["staged"] and not state["turn"]["took_pile"]:
            out.append({"action": "ask_go_out"})
        if state["turn"]["permission"] == "yes":  # « oui » binds: the way out found is always offered
            plan = self.go_out_plan(state, seat)
            if plan and plan[0] not in out:
                out.append(plan[0])
        return out

    def _canonical_table_moves(self, state, seat, hand, melds) -> list:
        """One meld per rank (naturals; the fewest wilds that make it valid; the most wilds allowed), lay-offs
        of the naturals of a melded rank, one wild onto each meld that takes it."""
        P, R = self.P, self.rules
        by_rank: dict = {}
        for p in P.sort(hand):
            by_rank.setdefault(P.rank[p], []).append(p)
        wilds = [p for p in P.sort(hand) if P.is_wild(p)]
        # keep the lowest-value wilds first (2s before jokers)
        wilds.sort(key=lambda p: (P.value[p], P.order[p]))
        melded = {m["rank"]: m for m in melds}
        out = []
        keep = 0 if R.go_out_action else 1
        for rank, naturals in by_rank.items():
            if rank in P.wild_ranks and rank != "2":
                continue
            if rank == "2" and not R.twos_meld:
                continue
            if rank in melded:
                if rank == "2":
                    continue  # tiles: 2s onto the meld of 2s, below
                if len(hand) - len(naturals) >= keep:
                    out.append({"action": "lay_off", "cards": naturals, "meld_id": melded[rank]["id"]})
                continue
            spare = [w for w in wilds if self.is_wild_in(rank, w) and w not in naturals]
            if rank == "3":
                if self.meld_error(rank, naturals) is None and len(hand) - len(naturals) >= keep:
                    out.append({"action": "meld", "cards": naturals})
                continue
            tried = set()
            for extra in range(0, len(spare) + 1):
                if len(hand) - len(naturals) - extra < keep:
                    break
                if self.count_error(rank, len(naturals), extra) is None:
                    tried.add(extra)
            if tried:
                low, high = min(tried), max(tried)
                for extra in sorted({low, high}):
                    out.append({"action": "meld", "cards": naturals + spare[:extra]})
        if R.twos_meld and "2" in melded:
            twos = by_rank.get("2", [])
            if twos and len(hand) - len(twos) >= keep:
                out.append({"action": "lay_off", "cards": twos, "meld_id": melded["2"]["id"]})
        if wilds and len(hand) - 1 >= keep:
            for m in melds:
                for w in _distinct(wilds):
                    if not self.is_wild_in(m["rank"], w) or (m["rank"] == "2" and P.rank[w] == "2"):
                        continue
                    if self.meld_error(m["rank"], m["pieces"] + [w]) is None:
                        out.append({"action": "lay_off", "cards": [w], "meld_id": m["id"]})
                        break
        return out

    def _joker_ok(self, state: dict, seat: int) -> bool:
        return (self.info.account_jokers and state["phase"] == DRAW and not state["turn"]["joker"]
                and state["jokers"][seat] > 0
                and any(self.P.rank[p] == self.P.joker_rank for p in state["stock"]))

    # ------------------------------------------------------------ taking the pile

    def _pile_block(self, state: dict, seat: int) -> str | None:
        """Why the pile cannot be taken at all (before looking at the melds offered), or None."""
        P, R = self.P, self.rules
        pile = state["pile"]
        if not pile:
            return "pile_empty"
        top = pile[-1]
        if P.is_wild(top) or P.rank[top] == "3":
            return "pile_blocked"
        if R.pile_one_card_rule and len(pile) == 1 and len(state["hands"][seat]) == 1:
            return "pile_one_card"
        return None

    def _strict_take(self, state: dict, team: str) -> bool:
        """The top card needs a natural pair from the hand (frozen pile, team not melded, or always: tiles)."""
        return not self.rules.take_with_wild or state["frozen"] or not state["melded"][team]

    def check_take(self, state: dict, seat: int, melds: list) -> tuple[list, int]:
        """Validate a take_pile: (the laid groups as [(rank, pieces, meld_id or None)], opening points);
        raises IllegalMove."""
        P = self.P
        team = team_of(seat)
        block = self._pile_block(state, seat)
        if block:
            raise illegal(block)
        top = state["pile"][-1]
        if not isinstance(melds, list) or not melds or not all(isinstance(m, list) and m for m in melds):
            raise illegal("bad_melds")
        flat = [p for m in melds for p in m]
        if flat.count(top) > 1 + state["hands"][seat].count(top):
            raise illegal("top_twice")
        with_top = [i for i, m in enumerate(melds) if top in m]
        if not with_top:
            raise illegal("top_not_used")
        top_i = with_top[0]
        from_hand = list(flat)
        from_hand.remove(top)
        if any(p not in P.rank for p in flat):
            raise illegal("bad_cards")
        if Counter(from_hand) - Counter(state["hands"][seat]):
            raise illegal("not_in_hand")
        existing = {m["rank"]: m for m in state["melds"][team]}
        groups, seen_ranks, points = [], set(), 0
        for i, m in enumerate(melds):
            rank = P.rank[top] if i == top_i else self.rank_of_set(m)
            if rank is None:
                raise illegal("mixed_ranks" if any(not P.is_wild(p) for p in m) else "only_wilds")
            if rank in seen_ranks:
                raise illegal("bad_melds", "Une seule combinaison par rang.")
            seen_ranks.add(rank)
            if rank == "3":
                raise illegal("black_threes_out")
            base = existing.get(rank)
            code = self.meld_error(rank, (base["pieces"] if base else []) + m)
            if code:
                raise illegal(code)
            if i == top_i:
                naturals = sum(1 for p in m if p != top and P.rank[p] == rank) + (m.count(top) - 1)
                if self._strict_take(state, team):
                    if naturals < 2:
                        raise illegal("need_pair")
                elif len(m) == 1:
                    if base is None:
                        raise illegal("need_pair", "La pièce du dessus seule ne va que sur une combinaison de "
                                                   "ton équipe de ce rang.")
                elif naturals < 1:
                    raise illegal("need_pair", "Il te faut au moins une pièce naturelle de ce rang avec la "
                                               "pièce du dessus.")
            groups.append((rank, m, base["id"] if base else None))
            points += self.value(m)
        if not state["melded"][team] and points < state["minimums"][team]:
            raise illegal("below_minimum", self._minimum_message(points, state["minimums"][team]))
        # what is left to end the turn with
        rest = state["pile"][:-1]
        left = len(state["hands"][seat]) - len(from_hand) + sum(1 for p in rest if p not in P.bonus_threes)
        if left < 2:
            canasta = self._team_canasta_after(state, team, groups)
            ok = canasta and (left == 1 or (left == 0 and self.rules.go_out_action))
            if ok and state["turn"]["permission"] == "no":
                ok = False
            if not ok:
                raise illegal("pile_strands")
        return groups, points

    def _team_canasta_after(self, state: dict, team: str, groups: list) -> bool:
        sizes = {m["id"]: len(m["pieces"]) for m in state["melds"][team]}
        for _rank, pieces, meld_id in groups:
            if meld_id:
                sizes[meld_id] += len(pieces)
            else:
                sizes[object()] = len(pieces)
        return any(n >= CANASTA_SIZE for n in sizes.values())

    @staticmethod
    def _minimum_message(points: int, minimum: int) -> str:
        return f"Première pose insuffisante : {points} point{plural(points)}, il en faut {minimum}."

    def _take_compulsory(self, state: dict, seat: int) -> bool:
        """Cards, stock empty: the top card fits the team's meld of an unfrozen pile (§9)."""
        if state["stock"] or not self.rules.take_with_wild:
            return False
        team = team_of(seat)
        if self._strict_take(state, team) or self._pile_block(state, seat):
            return False
        top = state["pile"][-1]
        for m in state["melds"][team]:
            if m["rank"] == self.P.rank[top]:
                try:
                    self.check_take(state, seat, [[top]])
                    return True
                except IllegalMove:
                    return False
        return False

    def canonical_take(self, state: dict, seat: int) -> dict | None:
        """The first take_pile legal_moves offers (engine/games/_canasta_pickup.py), or None."""
        return self._take_attempt(state, seat)[0]

    def take_refusal(self, state: dict, seat: int) -> str | None:
        """Why `seat`, to draw now, cannot take the pile, in French (None when it can, or when it is not its draw):
        its page shows « Prendre la pile » disabled with this reason."""
        if state["phase"] != DRAW or seat not in self.to_act(state) or state["question"]:
            return None
        take, refusal = self._take_attempt(state, seat)
        return None if take is not None else self.rules.say(refusal)

    def _take_attempt(self, state: dict, seat: int) -> tuple[dict | None, str]:
        """(the first offered take_pile, or None; why none, in French)."""
        takes, refusal = _canasta_pickup.pick_ups(self, state, seat)
        if not takes:
            return None, refusal
        return {"action": "take_pile", "melds": takes[0]}, ""

    # ------------------------------------------------------------ apply

    ACTIONS = frozenset({
        "draw_stock", "take_joker", "take_pile", "pass", "meld", "lay_off", "undo", "discard", "go_out",
        "end_turn", "ask_go_out", "answer_go_out", "next_round", "leave",
    })

    def apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list]:
        try:
            return self._apply(state, seat, move)
        except IllegalMove as error:  # the refusal in this game's words (« carte » / « tuile »)
            error.message = self.rules.say(error.message)
            error.args = (f"{error.code}: {error.message}",)
            raise

    def _apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list]:
        if not isinstance(move, dict):
            raise illegal("bad_move")
        action = move.get("action")
        if not isinstance(action, str) or action not in self.ACTIONS:
            raise illegal("unknown_action")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
            raise illegal("bad_seat")
        if action == "leave":
            return self.leave(state, seat)
        phase = state["phase"]
        if phase == MATCH_OVER:
            raise illegal("match_over")
        if action == "next_round":
            if phase != ROUND_OVER:
                raise illegal("round_not_over")
            return self._next_round(state)
        if phase == ROUND_OVER:
            raise illegal("round_over")
        q = state["question"]
        if action == "answer_go_out":
            if not q or q["answer"] is not None or q["partner"] != seat:
                raise illegal("no_question")
            answer = move.get("answer")
            if answer not in ("yes", "no"):
                raise illegal("bad_answer")
            new = self._fork(state)
            new["question"]["answer"] = answer
            new["turn"]["permission"] = answer
            return new, [event("answer_go_out", seat=seat, answer=answer)]
        if seat != state["current"]:
            raise illegal("not_your_turn")
        if q and q["answer"] is None:
            raise illegal("wait_answer")
        handler = getattr(self, "_do_" + action)
        return handler(state, seat, move)

    # -- draw step

    def _need_phase(self, state: dict, *phases: str) -> None:
        phase = state["phase"]
        if phase in phases:
            return
        if phase == FIRST_TURN:
            raise illegal("first_turn_discard")
        if phase == DRAW:
            raise illegal("must_draw_first")
        if DRAW in phases:
            raise illegal("already_drew")
        raise illegal("not_in_meld_phase")

    def _do_draw_stock(self, state, seat, move):
        self._need_phase(state, DRAW)
        if not state["stock"]:
            raise illegal("stock_empty")
        new = self._fork(state)
        piece = new["stock"].pop()
        return self._after_draw(new, seat, piece)

    def _do_take_joker(self, state, seat, move):
        if not self.info.account_jokers:
            raise illegal("no_joker_here")
        self._need_phase(state, DRAW)
        idx = [i for i, p in enumerate(state["stock"]) if self.P.rank[p] == self.P.joker_rank]
        if not idx:
            raise illegal("no_joker_left")
        if state["jokers"][seat] <= 0:
            raise illegal("no_joker_balance")
        new = self._fork(state)
        piece = new["stock"].pop(idx[-1])  # the joker nearest the top; the other tiles keep their order
        new["jokers"][seat] -= 1
        new["turn"]["joker"] = True
        new, events = self._after_draw(new, seat, piece)
        # The table sees a draw from the stock, as for any draw: that this seat now holds a joker is his alone
        # (`joker_taken`, addressed to him, also tells the table service to debit his account balance).
        return new, [events[0], event("joker_taken", to_seat(seat), seat=seat), *events[1:]]

    def _after_draw(self, new: dict, seat: int, piece: str) -> tuple[dict, list]:
        P = self.P
        team = team_of(seat)
        events = self._draw_events(seat, piece)
        while piece in P.bonus_threes:
            new["red3s"][team].append(piece)
            events.append(event("red_three", seat=seat, team=team, card=piece))
            if not new["stock"]:
                if self.rules.go_out_action:  # cards: meld if he wants, no discard, end_turn ends the hand
                    new["turn"]["last_red3"] = True
                    new["turn"]["drew"] = True
                    new["phase"] = MELD
                    return new, events
                return self._end_round(new, None, "stock", events)  # tiles: the round ends at once
            piece = new["stock"].pop()
            events += self._draw_events(seat, piece)
        new["hands"][seat].append(piece)
        new["turn"]["drew"] = True
        new["phase"] = MELD
        if not new["stock"] and not self.rules.go_out_action:
            new["final_turn"] = True
        return new, events

    def _do_take_pile(self, state, seat, move):
        self._need_phase(state, DRAW)
        melds = move.get("melds")
        groups, points = self.check_take(state, seat, melds)
        P = self.P
        team = team_of(seat)
        new = self._fork(state)
        hand = new["hands"][seat]
        top = new["pile"].pop()
        events = []
        laid = []
        for rank, pieces, meld_id in groups:
            from_hand = list(pieces)
            if top in from_hand and top not in laid:
                from_hand.remove(top)
                laid.append(top)
            for p in from_hand:
                hand.remove(p)
            events += self._lay(new, seat, rank, pieces, meld_id)
        if not state["melded"][team]:
            new["melded"][team] = True
            events.append(event("opened", seat=seat, team=team, points=points))
        new["has_melded"][seat] = True
        rest = new["pile"]
        new["pile"] = []
        new["frozen"] = False
        taken = []
        for p in rest:
            if p in P.bonus_threes:
                new["red3s"][team].append(p)
                events.append(event("red_three", seat=seat, team=team, card=p))
            else:
                hand.append(p)
                taken.append(p)
        new["turn"]["took_pile"] = True
        new["turn"]["drew"] = True
        new["phase"] = MELD
        head = event("take_pile", seat=seat, card=top, count=len(rest) + 1, melds=[list(g[1]) for g in groups])
        return new, [head, *events, event("took", to_seat(seat), seat=seat, cards=taken)]

    def _lay(self, new: dict, seat: int, rank: str, pieces: list, meld_id: str | None) -> list:
        """Publish pieces onto the team's table (new is forked): a new meld or onto meld_id."""
        team = team_of(seat)
        if meld_id is None:
            new["meld_seq"] += 1
            meld = {"id": f"M{new['meld_seq']}", "team": team, "rank": rank, "pieces": list(pieces)}
            new["melds"][team].append(meld)
            events = [event("team_meld", seat=seat, team=team, meld_id=meld["id"], rank=rank,
                            pieces=list(pieces), points=self.value(pieces))]
            before = 0
        else:
            meld = next(m for m in new["melds"][team] if m["id"] == meld_id)
            before = len(meld["pieces"])
            meld["pieces"].extend(pieces)
            events = [event("team_lay_off", seat=seat, team=team, meld_id=meld_id, rank=rank, pieces=list(pieces))]
        if before < CANASTA_SIZE <= len(meld["pieces"]):
            events.append(event("canasta", seat=seat, team=team, meld_id=meld["id"], rank=rank,
                                canasta=self.meld_kind(rank, meld["pieces"]), material=self.P.kind))
        return events

    def _do_pass(self, state, seat, move):
        self._need_phase(state, DRAW)
        if not self.rules.go_out_action:
            raise illegal("unknown_action")
        if state["stock"]:
            raise illegal("stock_not_empty")
        if self._take_compulsory(state, seat):
            raise illegal("must_take_pile")
        new = self._fork(state)
        return self._end_round(new, None, "stock", [event("decline_pile", seat=seat)])

    def _do_ask_go_out(self, state, seat, move):
        if not self.rules.go_out_question:
            raise illegal("no_question_here")
        self._need_phase(state, DRAW, MELD)
        if state["turn"]["asked"]:
            raise illegal("already_asked")
        if state["staged"] or state["turn"]["took_pile"]:
            raise illegal("ask_before_table")
        new = self._fork(state)
        new["turn"]["asked"] = True
        new["question"] = {"seat": seat, "partner": self.partner(seat), "answer": None}
        return new, [event("ask_go_out", seat=seat)]

    # -- staged table actions

    def _pieces_param(self, move: dict) -> list:
        pieces = move.get("cards", move.get("tiles"))
        if not isinstance(pieces, list) or not pieces or not all(isinstance(p, str) for p in pieces):
            raise illegal("bad_cards")
        if any(p not in self.P.rank for p in pieces):
            raise illegal("bad_cards")
        return pieces

    def _stage(self, state: dict, seat: int, pieces: list, meld_id: str | None) -> tuple[dict, list]:
        self._need_phase(state, MELD)
        hand, melds = self.preview(state, seat)
        if Counter(pieces) - Counter(hand):
            raise illegal("not_in_hand")
        if any(p in self.P.bonus_threes for p in pieces):
            raise illegal("bonus_three")
        if meld_id is None:
            rank = self.rank_of_set(pieces)
            if rank is None:
                raise illegal("mixed_ranks" if any(not self.P.is_wild(p) for p in pieces) else "only_wilds")
            target = next((m for m in melds if m["rank"] == rank), None)
        else:
            target = next((m for m in melds if m["id"] == meld_id), None)
            if target is None:
                raise illegal("unknown_meld")
            rank = target["rank"]
        code = self.meld_error(rank, (target["pieces"] if target else []) + pieces)
        if code:
            raise illegal(code)
        if not self.rules.go_out_action and len(hand) == len(pieces):
            raise illegal("keep_a_piece")
        new = self._fork(state)
        action = "lay_off" if target else "meld"
        entry = {"action": action, "meld_id": target["id"] if target else self._next_meld_id(state),
                 "rank": rank, "pieces": list(pieces)}
        new["staged"].append(entry)
        return new, [event("staged", to_seat(seat), seat=seat, **entry)]

    def _do_meld(self, state, seat, move):
        return self._stage(state, seat, self._pieces_param(move), None)

    def _do_lay_off(self, state, seat, move):
        meld_id = move.get("meld_id")
        if not isinstance(meld_id, str):
            raise illegal("unknown_meld")
        return self._stage(state, seat, self._pieces_param(move), meld_id)

    def _do_undo(self, state, seat, move):
        self._need_phase(state, MELD)
        if not state["staged"]:
            raise illegal("nothing_to_undo")
        new = self._fork(state)
        count = len(new["staged"]) if move.get("all") else 1
        del new["staged"][-count:]
        return new, [event("unstaged", to_seat(seat), seat=seat, count=count)]

    def is_private(self, before: dict, seat: int, move: dict) -> bool:
        """The staged actions and their undo: private until the discard (`take_pile` lays its melds in public)."""
        return isinstance(move, dict) and move.get("action") in ("meld", "lay_off", "undo")

    # -- the commit

    def _commit_error(self, state: dict, seat: int, discard: str | None) -> IllegalMove | None:
        """Why this end of turn (discard `discard`, or go_out / end_turn with None) is refused, or None."""
        team = team_of(seat)
        hand, melds = self.preview(state, seat)
        if discard is not None and discard not in hand:
            return illegal("card_not_in_hand")
        after = len(hand) - (1 if discard is not None else 0)
        going_out = after == 0  # after a last red 3 too: melding every card is a going out
        if state["turn"]["last_red3"] and discard is not None:
            return illegal("no_discard_last_red3")
        if discard is None and not state["turn"]["last_red3"] and hand:
            return illegal("hand_not_empty")
        staged = state["staged"]
        concealed = going_out and self._concealed(state, seat, melds)
        if staged and not state["melded"][team] and not state["turn"]["took_pile"] and not concealed:
            points = sum(self.value(e["pieces"]) for e in staged)
            if points < state["minimums"][team]:
                return illegal("below_minimum", self._minimum_message(points, state["minimums"][team]))
        if not going_out and any(e["rank"] == "3" for e in staged):
            return illegal("black_threes_out")
        if going_out:
            if not any(len(m["pieces"]) >= CANASTA_SIZE for m in melds):
                return illegal("need_canasta")
            if state["turn"]["permission"] == "no":
                return illegal("not_allowed_out")
        elif state["turn"]["permission"] == "yes" and self.go_out_plan(state, seat) is not None:
            return illegal("must_go_out")
        return None

    def _concealed(self, state: dict, seat: int, melds: list) -> bool:
        """Cards: no meld nor lay-off by this player before this turn, a whole canasta of his own laid now."""
        if self.rules.concealed is None or state["has_melded"][seat] or state["turn"]["took_pile"]:
            return False
        new_ids = {e["meld_id"] for e in state["staged"] if e["action"] == "meld"}
        return any(m["id"] in new_ids and len(m["pieces"]) >= CANASTA_SIZE for m in melds)

    def go_out_plan(self, state: dict, seat: int) -> list | None:
        """A simple way to go out from here, as moves (new melds, lay-offs, then the discard or `go_out`), or
        None: every natural onto the team's meld of its rank or into a new meld (a pair with a wild), the wilds
        into the new melds then onto the team's melds, at most one piece left to discard, a canasta at the end,
        the minimum if the team must still open (unless concealed). The go-out permission's « oui » binds when
        this finds a way (cards only: the tile game has no question)."""
        P, R = self.P, self.rules
        team = team_of(seat)
        hand, melds = self.preview(state, seat)
        existing = {m["rank"]: m for m in melds}
        sizes = {m["id"]: len(m["pieces"]) for m in melds}
        room = {m["id"]: R.max_wilds - sum(1 for p in m["pieces"] if self.is_wild_in(m["rank"], p))
                for m in melds if m["rank"] != "3"}
        by_rank: dict = {}
        for p in P.sort(hand):
            if not P.is_wild(p):
                by_rank.setdefault(P.rank[p], []).append(p)
        wilds = sorted((p for p in hand if P.is_wild(p)), key=lambda p: (P.value[p], P.order[p]))
        lay_offs, groups, pairs, left = [], [], [], []
        for rank, naturals in by_rank.items():
            if rank in existing:
                lay_offs.append({"action": "lay_off", "cards": naturals, "meld_id": existing[rank]["id"]})
                sizes[existing[rank]["id"]] += len(naturals)
            elif rank == "3":
                ok = R.black_three_meld and 3 <= len(naturals) <= 4
                (groups.append(["3", naturals]) if ok else left.extend(naturals))
            elif len(naturals) >= 3:
                groups.append([rank, naturals])
            elif len(naturals) == 2:
                pairs.append([rank, naturals])
            else:
                left += naturals
        for rank, naturals in pairs:
            if wilds:
                groups.append([rank, naturals + [wilds.pop(0)]])
            else:
                left += naturals
        for w in list(wilds):
            group = next((g for g in groups if g[0] != "3" and self.meld_error(g[0], g[1] + [w]) is None), None)
            if group:
                group[1].append(w)
                wilds.remove(w)
                continue
            meld_id = next((i for i, r in room.items() if r > 0), None)
            if meld_id:
                lay_offs.append({"action": "lay_off", "cards": [w], "meld_id": meld_id})
                room[meld_id] -= 1
                sizes[meld_id] += 1
                wilds.remove(w)
        left += wilds
        if len(left) > 1 or not R.go_out_action or (left and state["turn"]["last_red3"]):
            return None  # after a last red 3 there is no discard: out only by melding everything
        if not any(n >= CANASTA_SIZE for n in sizes.values()) and not any(len(g[1]) >= CANASTA_SIZE for g in groups):
            return None
        if not state["melded"][team] and not state["turn"]["took_pile"]:
            points = sum(self.value(e["pieces"]) for e in state["staged"])
            points += sum(self.value(g[1]) for g in groups) + sum(self.value(m["cards"]) for m in lay_offs)
            staged_new = {e["meld_id"] for e in state["staged"] if e["action"] == "meld"}
            concealed = (R.concealed is not None and not state["has_melded"][seat]
                         and (any(len(g[1]) >= CANASTA_SIZE for g in groups)
                              or any(sizes[i] >= CANASTA_SIZE for i in staged_new)))
            if points < state["minimums"][team] and not concealed:
                return None
        plan = [{"action": "meld", "cards": g[1]} for g in groups] + lay_offs
        plan.append({"action": "discard", "card": left[0]} if left else {"action": "go_out"})
        return plan

    def _commit(self, state: dict, seat: int, discard: str | None) -> tuple[dict, list]:
        err = self._commit_error(state, seat, discard)
        if err:
            raise err
        team = team_of(seat)
        _, melds = self.preview(state, seat)
        concealed = self._concealed(state, seat, melds)
        new = self._fork(state)
        hand = new["hands"][seat]
        events = []
        staged = new["staged"]
        new["staged"] = []
        points = 0
        for entry in staged:
            for p in entry["pieces"]:
                hand.remove(p)
            if entry["action"] == "meld":
                points += self.value(entry["pieces"])
                events += self._lay(new, seat, entry["rank"], entry["pieces"], None)
            else:
                points += self.value(entry["pieces"])
                events += self._lay(new, seat, entry["rank"], entry["pieces"], entry["meld_id"])
        if staged:
            new["has_melded"][seat] = True
            if not new["melded"][team]:
                new["melded"][team] = True
                events.append(event("opened", seat=seat, team=team, points=points))
        if discard is not None:
            hand.remove(discard)
            new["pile"].append(discard)
            if self.rules.freezing and self.P.is_wild(discard):
                new["frozen"] = True
            events.append(event("discard", seat=seat, card=discard))
        if not hand:
            events.append(event("go_out", seat=seat, concealed=concealed))
            return self._end_round(new, seat, "concealed" if concealed else "out", events)
        if new["turn"]["last_red3"] or new["final_turn"]:
            return self._end_round(new, None, "stock", events)
        nxt = self.next_seat(seat)
        new["phase"] = DRAW
        events += self._begin_turn(new, nxt)
        return new, events

    def _do_discard(self, state, seat, move):
        card = move.get("card", move.get("tile"))
        if not isinstance(card, str):
            raise illegal("bad_card")
        if state["phase"] == FIRST_TURN:
            if card not in state["hands"][seat]:
                raise illegal("card_not_in_hand")
            new = self._fork(state)
            new["hands"][seat].remove(card)
            new["pile"].append(card)
            new["phase"] = DRAW
            events = [event("discard", seat=seat, card=card)]
            events += self._begin_turn(new, self.next_seat(seat))
            return new, events
        self._need_phase(state, MELD)
        return self._commit(state, seat, card)

    def _do_go_out(self, state, seat, move):
        if not self.rules.go_out_action:
            raise illegal("keep_a_piece")
        self._need_phase(state, MELD)
        return self._commit(state, seat, None)

    def _do_end_turn(self, state, seat, move):
        self._need_phase(state, MELD)
        if not state["turn"]["last_red3"]:
            raise illegal("not_last_red3")
        return self._commit(state, seat, None)

    # ------------------------------------------------------------ end of round, match

    def score_team(self, state: dict, team: str, went_out: int | None, concealed: bool) -> dict:
        R, P = self.rules, self.P
        melds = state["melds"][team]
        kinds = Counter(self.meld_kind(m["rank"], m["pieces"]) for m in melds)
        canastas = {k: kinds.get(k, 0) for k in ("clean", "dirty", "twos_clean", "twos_dirty")}
        melds_points = sum(self.value(m["pieces"]) for m in melds)
        canasta_bonus = sum(R.bonus[k] * n for k, n in canastas.items())
        n3 = len(state["red3s"][team])
        red3 = R.red3_all if n3 == 4 else R.red3_each * n3
        if not melds:
            red3 = -red3
        seats = [s for s in range(4) if team_of(s) == team]
        hands = [p for s in seats for p in state["hands"][s]]
        black3 = -R.black3_in_hand * sum(1 for p in hands if p in P.block_threes)
        going_out = 0
        if went_out is not None and team_of(went_out) == team:
            going_out = R.concealed if concealed and R.concealed else R.going_out
        hand_points = self.value(hands)
        total = melds_points + canasta_bonus + red3 + black3 + going_out - hand_points
        return {"melds_points": melds_points, "canasta_bonus": canasta_bonus, "closed_bonus": canasta_bonus,
                "canastas": canastas,
                "red3s": n3, "red3_points": red3, "black3_points": black3, "going_out": going_out,
                "hand_points": hand_points, "total": total}

    def _end_round(self, new: dict, went_out: int | None, ending: str, events: list) -> tuple[dict, list]:
        concealed = ending == "concealed"
        teams = {t: self.score_team(new, t, went_out, concealed) for t in TEAMS}
        totals = {t: new["team_scores"][t] + teams[t]["total"] for t in TEAMS}
        for t in TEAMS:
            teams[t]["score"] = totals[t]
        new["team_scores"] = totals
        new["scores"] = [totals[team_of(s)] for s in range(4)]
        new["last_round"] = {"round": new["round"], "dealer": new["dealer"], "ending": ending,
                             "went_out": went_out, "hands": [self.P.sort(h) for h in new["hands"]],
                             "teams": teams}
        points = {t: teams[t]["total"] for t in TEAMS}
        canastas = {t: sum(teams[t]["canastas"].values()) for t in TEAMS}
        new["history"] = [*new["history"], {"round": new["round"], "dealer": new["dealer"], "ending": ending,
                                            "went_out": went_out, "points": points, "totals": dict(totals),
                                            "canastas": canastas}]
        new["phase"] = ROUND_OVER
        new["staged"] = []
        new["question"] = None
        events = [*events, event("round_over", round=new["round"], ending=ending, went_out=went_out,
                                 points=points, totals=dict(totals))]
        if self.match_decided(new):
            winner = "A" if totals["A"] > totals["B"] else "B"
            new["phase"] = MATCH_OVER
            winners = [s for s in range(4) if team_of(s) == winner]
            losers = [s for s in range(4) if team_of(s) != winner]
            new["result"] = {"winners": winners, "ranking": winners + losers, "winning_team": winner,
                             "scores": new["scores"], "team_scores": dict(totals), "rounds": new["round"],
                             "reason": "score"}
            events.append(event("match_over", winners=winners, team=winner, totals=dict(totals)))
        return new, events

    def match_decided(self, state: dict) -> bool:
        raise NotImplementedError

    def _next_round(self, state: dict) -> tuple[dict, list]:
        dealer = self.next_seat(state["dealer"])
        return self._start_round(state, dealer)

    def result(self, state: dict) -> dict | None:
        return state["result"] if state["phase"] == MATCH_OVER else None

    # ------------------------------------------------------------ leaving, autoplay, jokers

    def leave(self, state: dict, seat: int) -> tuple[dict, list]:
        """§9: a bot plays the seat for the rest of the match; the team keeps its score."""
        if state["phase"] == MATCH_OVER or seat in state["left"]:
            return dict(state), []
        new = dict(state)
        new["left"] = sorted([*state["left"], seat])
        return new, [event("left", seat=seat)]

    def with_joker_balances(self, state: dict, balances: dict) -> dict:
        if not self.info.account_jokers:
            return state
        new = dict(state)
        new["jokers"] = [max(0, int(balances.get(s, balances.get(str(s), 0)) or 0)) for s in range(4)]
        return new

    def autoplay(self, state: dict, seat: int) -> dict:
        """§9: draw (stock empty: the compulsory pick-up, else pass), no melds, discard by the rule."""
        phase = state["phase"]
        if phase == ROUND_OVER:
            return {"action": "next_round"}
        if seat not in self.to_act(state):
            raise illegal("no_decision")
        q = state["question"]
        if q and q["answer"] is None:
            return {"action": "answer_go_out", "answer": "yes"}
        if phase == DRAW:
            if state["stock"]:
                return {"action": "draw_stock"}
            if self._take_compulsory(state, seat):
                return {"action": "take_pile", "melds": [[state["pile"][-1]]]}
            if self.rules.go_out_action:
                return {"action": "pass"}
            take = self.canonical_take(state, seat)
            return take or {"action": "pass"}
        if phase == MELD and state["turn"]["permission"] == "yes":
            plan = self.go_out_plan(state, seat)
            if plan:  # the partner's « oui » binds: out the way the server found
                return plan[0]
        if state["staged"]:
            return {"action": "undo", "all": True}
        if state["turn"]["last_red3"]:
            return {"action": "end_turn"} if state["hands"][seat] else {"action": "go_out"}
        hand = state["hands"][seat]
        for card in self.autoplay_discards(hand):
            if phase == FIRST_TURN or self._commit_error(state, seat, card) is None:
                return {"action": "discard", "card": card}
        legal = self.legal_moves(state, seat)
        return legal[0] if legal else {"action": "discard", "card": hand[0]}

    def autoplay_discards(self, hand: list) -> list:
        """The §9 discard order: blocking 3s, the lowest natural of a rank held once, the lowest natural, wilds."""
        P = self.P
        counts = Counter(P.rank[p] for p in hand)
        by_value = sorted(hand, key=lambda p: (P.value[p], P.order[p]))
        blocks = [p for p in by_value if p in P.block_threes]
        naturals = [p for p in by_value if not P.is_wild(p) and p not in P.block_threes]
        singles = [p for p in naturals if counts[P.rank[p]] == 1]
        wilds = [p for p in by_value if P.is_wild(p)]
        return _distinct(blocks + singles + naturals + wilds)

    # ------------------------------------------------------------ views (engine/games/_canasta_view.py)

    def meld_view(self, meld: dict) -> dict:
        return _canasta_view.meld_view(self, meld)

    def public_view(self, state: dict) -> dict:
        return _canasta_view.view(self, state, None)

    def view(self, state: dict, seat: int) -> dict:
        return _canasta_view.view(self, state, seat)


def _distinct(items: list) -> list:
    seen, out = set(), []
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out
