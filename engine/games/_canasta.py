"""Partnership Canasta: one mechanism, two rule sets (canasta.md: cards; canasta-tuiles.md: tiles).

`CanastaRules` (engine/games/_canasta_rules.py, with meld validity and the French refusals `MESSAGES`) holds
every difference (deck, values, thresholds, wild limits, canasta kinds with the tile
game's 1,000/700 canastas of 2s, freezing, first turn, direction, the go-out question, concealed going
out, match lengths); `CanastaGame` plays either. Teams: A = seats 0 and 2, B = seats 1 and 3. A team owns
its melds (at most one per rank; the tile game adds one meld of 2s). "Piece" = card or tile.

## Modules

This module is the family's entry: `CanastaGame` glues the mixins below onto `engine.base.Game` and holds what
is common to every move (the class's labels and rule sections, the rule set's helpers, `to_act`, `apply` and
its dispatch to the `_do_<action>` methods, `leave`, the account jokers, the views). The rest, by phase:

| module | holds |
|---|---|
| `_canasta_rules.py` | `CanastaRules` (every difference between the rule sets), meld validity, `MESSAGES`, the phases |
| `_canasta_pieces.py` | the 108 cards and the 106 tiles (`Pieces`) |
| `_canasta_deal.py` | `DealMixin`: a new match, each round's deal, a turn's start, the state's copy (`_fork`) |
| `_canasta_draw.py` | `DrawMixin`: drawing (red 3s, the Joker button, `pass`), taking the pile (`check_take`) |
| `_canasta_pickup.py` | the pick-ups of the pile `legal_moves` offers, and why none (`pick_ups`) |
| `_canasta_staging.py` | `StagingMixin`: melds and lay-offs staged, `undo`, `preview`, the commit and the discard |
| `_canasta_out.py` | `GoOutMixin`: the partner's question and answer, concealed going out, `go_out_plan`, `go_out` |
| `_canasta_score.py` | `ScoringMixin`: a hand's score per team, the end of a round and of the match |
| `_canasta_legal.py` | `LegalMovesMixin`: `legal_moves` (canonical melds and lay-offs) and the §9 `autoplay` |
| `_canasta_view.py` | the views (`view`, `public_view`, `meld_view`) |

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


from engine import moves
from engine.base import Game, GameInfo, event, team_of
from engine.errors import IllegalMove
from engine.games import _canasta_view
from engine.games._canasta_deal import DealMixin
from engine.games._canasta_draw import DrawMixin
from engine.games._canasta_legal import LegalMovesMixin
from engine.games._canasta_out import GoOutMixin
from engine.games._canasta_pieces import Pieces
from engine.games._canasta_rules import (
    DRAW,
    FIRST_TURN,
    MATCH_OVER,
    MELD,
    ROUND_OVER,
    CanastaRules,
    illegal,
)
from engine.games._canasta_score import ScoringMixin
from engine.games._canasta_staging import StagingMixin


class CanastaGame(DealMixin, DrawMixin, StagingMixin, GoOutMixin, ScoringMixin, LegalMovesMixin, Game):
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

    # ------------------------------------------------------------ to_act

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] in (ROUND_OVER, MATCH_OVER):
            return []
        q = state["question"]
        if q and q["answer"] is None:
            return [q["partner"]]
        return [state["current"]]

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
        if action == "answer_go_out":  # the partner, out of turn (engine/games/_canasta_out.py)
            return self._do_answer_go_out(state, seat, move)
        q = state["question"]
        if seat != state["current"]:
            raise illegal("not_your_turn")
        if q and q["answer"] is None:
            raise illegal("wait_answer")
        handler = getattr(self, "_do_" + action)
        return handler(state, seat, move)

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

    # ------------------------------------------------------------ leaving, account jokers

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

    # ------------------------------------------------------------ views (engine/games/_canasta_view.py)

    def meld_view(self, meld: dict) -> dict:
        return _canasta_view.meld_view(self, meld)

    def public_view(self, state: dict) -> dict:
        return _canasta_view.view(self, state, None)

    def view(self, state: dict, seat: int) -> dict:
        return _canasta_view.view(self, state, seat)
