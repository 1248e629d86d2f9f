"""Rummies with melds laid on the table during the round (Rami, Rami 40, Kalooki, Rami traditionnel).

One mechanism, four rule sets: each game module subclasses `TableMeldGame` and sets its parameters
(deck, hand size, first lay-down threshold, meld rules, penalty values, joker releases, going out,
the Rami 40 discard obligation) and its round scoring.

A turn: `DRAW` (`draw_stock` | `take_discard`) → `MELD`: staged table actions (`meld`, `lay_off`,
`swap_joker`, `undo`), seen only by the acting seat, then the commit (`discard`, or `go_out` where the
game allows it) which checks the whole turn (threshold from new melds only, the taken card used) and
publishes the staged actions in order. See ../shared/rules/README.md "Staged meld phase".

State keys added to `DrawDiscardGame`'s (engine/README.md):

| key | meaning |
|---|---|
| `table` | committed melds `{id, owner, cards, wilds, kind}`; ids `M1`, `M2`… in creation order |
| `opened` | per seat: first lay-down made in an earlier turn (Rami traditionnel: has laid anything) |
| `taken_card` | card taken from the discard pile this turn (it may not be discarded) |
| `take_undone` | Rami 40: the take was undone this turn, `take_discard` is forbidden |
| `staged` | the acting seat's staged actions, in order (never in another seat's view) |

A staged entry keeps what the action did: `{action, meld_id, cards, wilds, end, joker, points, out,
in, meld}` (`out`/`in`: cards leaving/entering the hand; `meld`: the table meld after the action), so
the preview (hand and table after the staged actions) is a replay without any solving.
"""

from functools import lru_cache

from engine import cards, moves
from engine.base import event, to_seat
from engine.errors import IllegalMove
from engine.games import _draw_discard as dd
from engine.games._draw_discard import DRAW, MATCH_OVER, ROUND_OVER
from engine.melds import table as tm
from engine.melds.rules import MeldRules
from engine.rng import shuffled

MELD = "MELD"
# §9: the stock is rebuilt from the discard pile once a round; when it runs out again the round is blocked:
# it stops and is scored as it stands (`TableMeldGame._round_blocked`). Unlimited rebuilds let a round
# where nothing can be laid any more go round for ever.
MAX_REBUILDS = 1

MESSAGES = {
    **dd.MESSAGES,
    "stock_empty": "La pioche est vide : prends la carte de la défausse.",
    "bad_cards": "Cartes invalides.",
    "bad_wilds": "Ce joker ne peut pas remplacer cette carte ici.",
    "ambiguous_wilds": "Précise la carte que remplace chaque joker.",
    "unknown_meld": "Cette combinaison n'est pas sur la table.",
    "bad_end": "Côté invalide : « low » (début de la suite) ou « high » (fin de la suite).",
    "ambiguous_end": "Précise de quel côté de la suite poser la carte.",
    "cannot_lay_off": "Ces cartes ne peuvent pas compléter cette combinaison.",
    "must_open_first": "Pose d'abord ta première combinaison avant de compléter la table.",
    "bad_joker": "Ce joker n'est pas dans cette combinaison.",
    "cannot_swap": "Ce joker ne peut pas être échangé contre ces cartes.",
    "joker_locked": "Dans un carré, le joker ne peut plus être repris.",
    "nothing_to_undo": "Il n'y a rien à annuler.",
    "below_threshold": "Ta première pose ne vaut pas assez de points.",
    "taken_card_unused": "Tu dois poser la carte prise dans la défausse (ou annuler la prise et piocher).",
    "taken_card_not_in_meld": "La carte prise dans la défausse doit faire partie de ta première pose.",
    "hand_not_empty": "Tu ne peux sortir qu'une fois toutes tes cartes posées.",
    "keep_a_card": "Garde au moins une carte à défausser.",
    "take_forbidden": "Tu as reposé la carte de la défausse : pioche dans la pioche.",
}


def illegal(code: str, message: str | None = None, **data) -> IllegalMove:
    err = IllegalMove(code, message or MESSAGES[code])
    for key, value in data.items():
        setattr(err, key, value)
    return err


def _plural(n: int) -> str:
    return "s" if n > 1 else ""


def face_name(face: str) -> str:
    """« As de pique » for "AS"."""
    return cards.name_fr(face + "1")


# ---------------------------------------------------------------- the shared game

class TableMeldGame(dd.DrawDiscardGame):
    """Draw, stage table actions, commit with a discard (or go out); rounds scored by the subclass.

    Parameters (class attributes) a game sets: `info`, `deck`, `hand_size`, `threshold` (None: no first
    lay-down count), `rules` (a MeldRules), `ace_penalty`, `joker_penalty`, `go_out` (the `go_out`
    action exists), `swap` (None, "one": one natural replaces a wild, "two": Rami 40 / Kalooki, two
    naturals for a wild of a 3-card set), `take_must_be_used` and `undo_take` (Rami 40).
    Hooks: `_ending(state, seat, used_existing)`, `_round_points(...)`, `_after_round(...)`.
    """

    move_shape = {
        **dd.DrawDiscardGame.move_shape,
        "cards": moves.ListOf(moves.CARD, 60),
        "wilds": moves.MapOf(moves.CARD, moves.CARD, 16),
        "meld_id": moves.Text(8),
        "end": moves.Maybe(moves.Text(8)),
        "joker": moves.CARD,
        "all": moves.Flag(),
    }
    family = "table_meld"
    rule_sections = {
        **dd.DrawDiscardGame.rule_sections,
        **dict.fromkeys(("below_threshold", "must_open_first", "taken_card_not_in_meld"), "premiere-pose"),
        **dict.fromkeys(("bad_cards", "bad_wilds", "ambiguous_wilds", "unknown_meld", "cannot_lay_off", "bad_joker",
                         "cannot_swap", "joker_locked"), "combinaisons"),
    }
    # The round-end banner of an ending worth celebrating (« Main lisse ! »…), by the `ending` of `last_round`.
    ending_labels = {"main_lisse": "Main lisse !", "going_rami": "Going Rami !", "chasse": "Chasse !"}
    # A game's special ending (main lisse, going rami, chasse) counted per winner in its statistics.
    stats_labels = {"rounds_won": "Manches gagnées"}

    def round_stats(self, row: dict, seat: int) -> tuple[int | None, dict]:
        value, counters = super().round_stats(row, seat)
        ending = row.get("ending")
        if row.get("winner") == seat and ending in self.stats_labels:
            counters = {**counters, ending: 1}
        return value, counters
    phase_hints = {
        **dd.DrawDiscardGame.phase_hints,
        "DRAW": "Pioche une carte ou prends la défausse.",
        "MELD": "Pose tes combinaisons si tu veux, puis défausse une carte.",
    }

    hand_size = 13
    threshold: int | None = None
    rules: MeldRules = MeldRules()
    ace_penalty = 11
    joker_penalty = 0
    go_out = False
    swap: str | None = None
    take_must_be_used = False
    undo_take = False
    match_option = "point_limit"

    # -- values

    @classmethod
    def values(cls) -> dict[str, int]:
        """Penalty value of every card of the deck (a card left in hand at the end of a round)."""
        cached = cls.__dict__.get("_values_cache")
        if cached is None:
            cached = {}
            for c in cls.deck:
                if cards.is_joker(c):
                    cached[c] = cls.joker_penalty
                elif cards.rank_of(c) == "A":
                    cached[c] = cls.ace_penalty
                else:
                    cached[c] = min(cards.RANK_INDEX[cards.rank_of(c)], 10)
            cls._values_cache = cached
        return cached

    def hand_points(self, hand: list[str]) -> int:
        values = self.values()
        return sum(values[c] for c in hand)

    # -- deal

    def _init_match(self, state: dict) -> None:
        n = state["seats"]
        state["table"] = []
        state["opened"] = [False] * n
        state["taken_card"] = None
        state["take_undone"] = False
        state["staged"] = []

    def _hand_size(self, state: dict) -> int:
        return self.hand_size

    def _after_deal(self, state: dict) -> list[dict]:
        """§3: the next card, face up, starts the discard pile."""
        upcard = state["stock"].pop()
        state["discard"] = [upcard]
        state["phase"] = DRAW
        state["table"] = []
        state["opened"] = [False] * state["seats"]
        self._reset_turn(state)
        return [event("upcard", card=upcard)]

    @staticmethod
    def _reset_turn(state: dict) -> None:
        state["taken_card"] = None
        state["take_undone"] = False
        state["staged"] = []

    # -- the preview: hand and table after the staged actions

    def preview(self, state: dict, seat: int) -> tuple[list[str], list[dict]]:
        hand = list(state["hands"][seat])
        table = list(state["table"])
        if seat != state["current"]:
            return hand, table
        for entry in state["staged"]:
            for c in entry["out"]:
                hand.remove(c)
            hand.extend(entry["in"])
            meld = entry["meld"]
            if entry["action"] == "meld":
                table.append(meld)
            else:
                table[_meld_index(meld["id"])] = meld
        return hand, table

    def reading(self, meld: dict) -> tm.Reading:
        return _reading(tuple(meld["cards"]), tuple(sorted(meld["wilds"].items())), meld["kind"], self.rules)

    def staged_points(self, state: dict) -> int:
        return sum(e["points"] for e in state["staged"] if e["action"] == "meld")

    def may_act_on_table(self, state: dict, seat: int) -> bool:
        """Lay off and swap: opened, or the new melds staged this turn reach the threshold."""
        return self.threshold is None or state["opened"][seat] or self.staged_points(state) >= self.threshold

    def commit_error(self, state: dict, seat: int) -> IllegalMove | None:
        """The whole-turn checks of the commit (None: the staged turn may be committed)."""
        staged = state["staged"]
        opened = state["opened"][seat]
        if self.threshold is not None and not opened and staged:
            points = self.staged_points(state)
            if points < self.threshold:
                return illegal("below_threshold", f"Ta première pose doit valoir au moins {self.threshold} "
                               f"points (tes nouvelles combinaisons en font {points}).")
        taken = state["taken_card"]
        if self.take_must_be_used and taken is not None:
            used = [e for e in staged if e["action"] in ("meld", "lay_off") and taken in e["cards"]]
            if not used:
                return illegal("taken_card_unused")
            if not opened and not any(e["action"] == "meld" for e in used):
                return illegal("taken_card_not_in_meld")
        return None

    def _keeps_a_discard(self, state: dict, hand_after: list[str]) -> bool:
        """Games without `go_out`: a staged action must leave a card that can be discarded."""
        if self.go_out:
            return True
        return any(c != state["taken_card"] for c in hand_after)

    # -- turn moves

    def _check_meld_phase(self, state: dict) -> None:
        if state["phase"] == DRAW:
            raise illegal("must_draw_first")
        if state["phase"] != MELD:
            raise illegal("wrong_phase")

    def _can_draw_stock(self, state: dict) -> bool:
        return bool(state["stock"]) or len(state["discard"]) >= 2

    def _can_take(self, state: dict) -> bool:
        return bool(state["discard"]) and not state["take_undone"]

    def _do_draw_stock(self, state: dict, seat: int, move: dict):
        if state["phase"] == MELD:
            raise illegal("already_drew")
        if state["phase"] != DRAW:
            raise illegal("wrong_phase")
        if not self._can_draw_stock(state):
            raise illegal("stock_empty")
        new = dd.fork(state, "stock", "discard")
        events = []
        if not new["stock"]:  # §9: the pile except its top card becomes the new stock
            new["rebuilds"] += 1
            rest = new["discard"][:-1]
            new["stock"] = shuffled(rest, new["seed"], f"r{new['round']}:rebuild{new['rebuilds']}")
            new["discard"] = new["discard"][-1:]
            events.append(event("stock_rebuilt", cards=len(rest), rebuilds=new["rebuilds"]))
        card = new["stock"].pop()
        dd.fork_hand(new, seat).append(card)
        new["phase"] = MELD
        new["taken_card"] = None
        return new, events + dd.draw_events(seat, card)

    def _do_take_discard(self, state: dict, seat: int, move: dict):
        if state["phase"] == MELD:
            raise illegal("already_drew")
        if state["phase"] != DRAW:
            raise illegal("wrong_phase")
        if state["take_undone"]:
            raise illegal("take_forbidden")
        if not state["discard"]:
            raise illegal("discard_empty")
        new = dd.fork(state, "discard")
        card = new["discard"].pop()
        dd.fork_hand(new, seat).append(card)
        new["taken_card"] = card
        new["phase"] = MELD
        return new, [event("take_discard", seat=seat, card=card)]

    def _cards_param(self, move: dict, hand: list[str]) -> list[str]:
        chosen = move.get("cards")
        if not isinstance(chosen, list) or not chosen or len(chosen) > len(self.deck):
            raise illegal("bad_cards")
        for c in chosen:
            if not isinstance(c, str):
                raise illegal("bad_card")
            if c not in self.deck_set:
                raise illegal("unknown_card")
            if c not in hand:
                raise illegal("card_not_in_hand")
        if len(set(chosen)) != len(chosen):
            raise illegal("bad_cards")
        return list(chosen)

    @staticmethod
    def _wilds_param(move: dict, chosen: list[str]) -> dict:
        wilds = move.get("wilds")
        if wilds is None:
            return {}
        if not isinstance(wilds, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in wilds.items()):
            raise illegal("bad_wilds")
        if any(k not in chosen or not cards.is_joker(k) or tm.parse_face(v) is None for k, v in wilds.items()):
            raise illegal("bad_wilds")
        return dict(wilds)

    @staticmethod
    def _meld_param(move: dict, table: list[dict]) -> dict:
        meld_id = move.get("meld_id")
        if not isinstance(meld_id, str) or not meld_id.startswith("M") or not meld_id[1:].isdigit():
            raise illegal("unknown_meld")
        index = _meld_index(meld_id)
        if not 0 <= index < len(table) or table[index]["id"] != meld_id:
            raise illegal("unknown_meld")
        return table[index]

    def _stage(self, state: dict, seat: int, entry: dict) -> tuple[dict, list[dict]]:
        new = dict(state)
        new["staged"] = [*state["staged"], entry]
        shown = {k: v for k, v in entry.items() if k not in ("out", "in")}
        return new, [event("staged", to_seat(seat), seat=seat, **shown)]

    def _do_meld(self, state: dict, seat: int, move: dict):
        self._check_meld_phase(state)
        hand, table = self.preview(state, seat)
        chosen = self._cards_param(move, hand)
        wilds = self._wilds_param(move, chosen)
        reading = self.read_new_meld(chosen, wilds)
        rest = [c for c in hand if c not in chosen]
        if not self._keeps_a_discard(state, rest):
            raise illegal("keep_a_card")
        meld_id = f"M{len(table) + 1}"
        meld = {"id": meld_id, "owner": seat, **reading.as_dict()}
        entry = {"action": "meld", "meld_id": meld_id, "cards": list(reading.cards), "wilds": reading.wild_map,
                 "points": reading.points(), "out": list(chosen), "in": [], "meld": meld}
        return self._stage(state, seat, entry)

    def read_new_meld(self, chosen: list[str], wilds: dict) -> tm.Reading:
        """The one reading of a new meld; refuses an invalid meld or an ambiguous wild (in French)."""
        readings = tm.read_meld(chosen, self.rules, wilds)
        if not readings:
            if wilds and tm.read_meld(chosen, self.rules):
                raise illegal("bad_wilds")
            raise illegal("invalid_meld")
        if len(readings) > 1:
            options = [r.wild_map for r in readings]
            described = " ou ".join(
                ", ".join(f"{face_name(f)}" for _, f in sorted(r.wild_map.items())) for r in readings)
            raise illegal("ambiguous_wilds", f"Précise la carte que remplace chaque joker : {described}.",
                          options=options)
        return readings[0]

    def _do_lay_off(self, state: dict, seat: int, move: dict):
        self._check_meld_phase(state)
        if not self.may_act_on_table(state, seat):
            raise illegal("must_open_first", f"Pose d'abord au moins {self.threshold} points de nouvelles "
                          "combinaisons avant de compléter la table.")
        hand, table = self.preview(state, seat)
        chosen = self._cards_param(move, hand)
        wilds = self._wilds_param(move, chosen)
        target = self._meld_param(move, table)
        end = move.get("end")
        if end not in (None, "low", "high"):
            raise illegal("bad_end")
        reading = self.reading(target)
        if reading.kind == "set":
            end = None
            after = tm.extend(reading, chosen, None, self.rules, wilds)
        elif end is None:
            options = [(e, r) for e in ("low", "high")
                       if (r := tm.extend(reading, chosen, e, self.rules, wilds)) is not None]
            if len(options) > 1:
                raise illegal("ambiguous_end")
            end, after = options[0] if options else (None, None)
        else:
            after = tm.extend(reading, chosen, end, self.rules, wilds)
        if after is None:
            if wilds and (tm.extend(reading, chosen, end, self.rules) is not None):
                raise illegal("bad_wilds")
            raise illegal("cannot_lay_off")
        rest = [c for c in hand if c not in chosen]
        if not self._keeps_a_discard(state, rest):
            raise illegal("keep_a_card")
        added = {w: f for w, f in after.wilds if w in chosen}
        meld = {**target, **after.as_dict()}
        entry = {"action": "lay_off", "meld_id": target["id"], "cards": list(chosen), "wilds": added, "end": end,
                 "points": 0, "out": list(chosen), "in": [], "meld": meld}
        return self._stage(state, seat, entry)

    def _do_swap_joker(self, state: dict, seat: int, move: dict):
        self._check_meld_phase(state)
        if not self.may_act_on_table(state, seat):
            raise illegal("must_open_first", f"Pose d'abord au moins {self.threshold} points de nouvelles "
                          "combinaisons avant de reprendre un joker.")
        hand, table = self.preview(state, seat)
        chosen = self._cards_param(move, hand)
        target = self._meld_param(move, table)
        joker = move.get("joker")
        if not isinstance(joker, str) or not cards.is_joker(joker) or joker not in target["cards"]:
            raise illegal("bad_joker")
        after = self.release(self.reading(target), joker, chosen)
        rest = [c for c in hand if c not in chosen] + [joker]
        if not self._keeps_a_discard(state, rest):
            raise illegal("keep_a_card")
        meld = {**target, **after.as_dict()}
        entry = {"action": "swap_joker", "meld_id": target["id"], "cards": list(chosen), "wilds": {}, "joker": joker,
                 "points": 0, "out": list(chosen), "in": [joker], "meld": meld}
        return self._stage(state, seat, entry)

    def release(self, reading: tm.Reading, joker: str, chosen: list[str]) -> tm.Reading:
        """The meld after a joker release by `chosen` (§5 of each file), or IllegalMove."""
        if reading.kind == "set" and self.swap == "two":
            if len(reading.cards) >= 4:
                raise illegal("joker_locked")
            if len(chosen) != 2:
                raise illegal("cannot_swap", "Pour reprendre le joker d'un brelan, ajoute deux cartes de la même "
                              "valeur, de couleurs absentes du brelan.")
        elif len(chosen) != 1:
            raise illegal("cannot_swap", "Pour reprendre ce joker, donne une seule carte : celle qu'il remplace.")
        after = tm.replace_wild(reading, joker, chosen, self.rules)
        if after is None:
            raise illegal("cannot_swap")
        return after

    def is_private(self, before: dict, seat: int, move: dict) -> bool:
        """The staged lay-downs, lay-offs, joker swaps and their undo, private until the commit; not an undo that
        puts the taken card back on the pile (Rami 40), which everyone sees."""
        action = move.get("action") if isinstance(move, dict) else None
        if action in ("meld", "lay_off", "swap_joker"):
            return True
        if action != "undo":
            return False
        takes_back = self.undo_take and before.get("taken_card") is not None
        return not takes_back or (bool(before.get("staged")) and move.get("all") is not True)

    def _do_undo(self, state: dict, seat: int, move: dict):
        self._check_meld_phase(state)
        everything = move.get("all") is True
        staged = state["staged"]
        if staged and not everything:
            new = dict(state)
            new["staged"] = staged[:-1]
            return new, [event("unstaged", to_seat(seat), seat=seat, count=1)]
        if not staged and not (self.undo_take and state["taken_card"] is not None):
            raise illegal("nothing_to_undo")
        new = dict(state)
        new["staged"] = []
        events = [event("unstaged", to_seat(seat), seat=seat, count=len(staged))] if staged else []
        if self.undo_take and state["taken_card"] is not None:
            events += self._undo_take(new, seat)
        return new, events

    def _undo_take(self, new: dict, seat: int) -> list[dict]:
        """Rami 40: the taken card goes back on the pile in view of everyone; draw from the stock."""
        card = new["taken_card"]
        dd.fork_hand(new, seat).remove(card)
        new["discard"] = [*new["discard"], card]
        new["taken_card"] = None
        new["take_undone"] = True
        new["phase"] = DRAW
        events = [event("take_undone", seat=seat, card=card)]
        if not self._can_draw_stock(new):
            events += self._void_round(new)
        return events

    def _do_discard(self, state: dict, seat: int, move: dict):
        self._check_meld_phase(state)
        hand, table = self.preview(state, seat)
        card = dd.card_of(move, hand, self.deck_set)
        if card == state["taken_card"]:
            raise illegal("taken_card")
        error = self.commit_error(state, seat)
        if error:
            raise error
        new, events, used_existing = self._commit(state, seat, hand, table)
        new["hands"][seat].remove(card)
        new["discard"] = [*new["discard"], card]
        events.append(event("discard", seat=seat, card=card))
        if not new["hands"][seat]:
            return new, events + self._round_won(new, seat, state["opened"][seat], used_existing, card)
        self._reset_turn(new)
        new["current"] = dd.next_active(new, seat)
        new["phase"] = DRAW
        events += self._start_turn(new)
        return new, events

    def _do_go_out(self, state: dict, seat: int, move: dict):
        self._check_meld_phase(state)
        hand, table = self.preview(state, seat)
        if hand:
            raise illegal("hand_not_empty")
        error = self.commit_error(state, seat)
        if error:
            raise error
        new, events, used_existing = self._commit(state, seat, hand, table)
        events.append(event("go_out", seat=seat))
        return new, events + self._round_won(new, seat, state["opened"][seat], used_existing, None)

    def _commit(self, state: dict, seat: int, hand: list[str], table: list[dict]):
        """Publish the staged actions in order: (new state, events, laid on a meld older than this turn)."""
        new = dict(state)
        hands = list(state["hands"])
        hands[seat] = list(hand)
        new["hands"] = hands
        new["table"] = table
        events = []
        committed_ids = {m["id"] for m in state["table"]}
        used_existing = False
        for e in state["staged"]:
            meld = e["meld"]
            if e["action"] == "meld":
                events.append(event("meld", seat=seat, meld_id=e["meld_id"], cards=e["cards"], wilds=e["wilds"],
                                    meld_kind=meld["kind"], points=e["points"]))
            elif e["action"] == "lay_off":
                used_existing |= e["meld_id"] in committed_ids
                events.append(event("lay_off", seat=seat, meld_id=e["meld_id"], cards=e["cards"],
                                    wilds=e["wilds"], end=e["end"], meld=meld))
            else:
                used_existing |= e["meld_id"] in committed_ids
                events.append(event("swap_joker", seat=seat, meld_id=e["meld_id"], cards=e["cards"],
                                    joker=e["joker"], meld=meld))
        if state["staged"] and not state["opened"][seat]:
            opened = list(state["opened"])
            opened[seat] = True
            new["opened"] = opened
            events.append(event("opened", seat=seat, points=self.staged_points(state)))
        new["staged"] = []
        return new, events, used_existing

    def _start_turn(self, new: dict) -> list[dict]:
        """A turn starts in DRAW. The stock empty once it has been rebuilt (it runs out a second time): the
        round is blocked (§9). A seat that can neither draw nor take voids the round (cannot happen with
        these decks unless players left with the cards)."""
        if not new["stock"] and new["rebuilds"] >= MAX_REBUILDS:
            return self._round_blocked(new)
        if self._can_draw_stock(new) or self._can_take(new):
            return []
        return self._void_round(new)

    # -- end of round

    def _round_won(self, new: dict, winner: int, was_opened: bool, used_existing: bool, last_card) -> list[dict]:
        """The winner emptied his hand: reveal, score (§6), then eliminations or the match end (§7)."""
        ending = self._ending(new, winner, was_opened, used_existing)
        points, players = self._score_hands(new, lambda hand_points: self._round_points(new, winner, ending,
                                                                                         hand_points))
        new["current"] = None
        new["taken_card"] = None
        new["take_undone"] = False
        events = [event("round_over", round=new["round"], winner=winner, ending=ending, points=points,
                        totals=list(new["scores"]), players=players)]
        events += self._after_round(new, winner, ending, points, players, last_card)
        return events

    def _score_hands(self, new: dict, points_of) -> tuple[list, list[dict]]:
        """Count every active hand, score it with `points_of(hand_points)`, add it to the totals; returns the
        points and the players' reveal lines of the round-over event."""
        hands = {s: list(new["hands"][s]) for s in new["active"]}
        hand_points = {s: self.hand_points(h) for s, h in hands.items()}
        points = points_of(hand_points)
        new["scores"] = list(new["scores"])
        for s in new["active"]:
            new["scores"][s] += points[s]
        players = [{
            "seat": s, "hand": dd.sorted_cards(hands[s]), "melds": [], "deadwood": dd.sorted_cards(hands[s]),
            "deadwood_points": hand_points[s], "points": points[s],
        } for s in new["active"]]
        return points, players

    def _round_blocked(self, new: dict) -> list[dict]:
        """§9: the stock ran out a second time: nobody went out; the round stops and is scored as it
        stands, every hand counted as at a normal round end (`_blocked_points`), then §7 as usual."""
        points, players = self._score_hands(new, lambda hand_points: self._blocked_points(new, hand_points))
        self._reset_turn(new)
        new["current"] = None
        events = [event("round_over", round=new["round"], winner=None, ending="blocked", points=points,
                        totals=list(new["scores"]), players=players)]
        return events + self._after_round(new, None, "blocked", points, players, None)

    def _blocked_points(self, state: dict, hand_points: dict) -> list:
        """A blocked round (§9): every player adds the penalty of the cards left in his hand, no bonus."""
        return [hand_points.get(s) for s in range(state["seats"])]

    def _ending(self, state: dict, winner: int, was_opened: bool, used_existing: bool) -> str:
        raise NotImplementedError

    def _round_points(self, state: dict, winner: int, ending: str, hand_points: dict) -> list:
        raise NotImplementedError

    def _record(self, new: dict, winner, ending: str, points: list, players: list, last_card, **extra) -> None:
        void = ending == "void"
        new["history"] = [*new["history"], {
            "round": new["round"], "dealer": new["dealer"], "void": void, "winner": winner,
            "ending": ending, "points": points, "totals": list(new["scores"]), **extra,
        }]
        new["last_round"] = {
            "round": new["round"], "dealer": new["dealer"], "void": void, "winner": winner,
            "ending": ending, "last_card": last_card, "players": players, "points": points,
            "totals": list(new["scores"]), "table": [self.meld_view(m) for m in new["table"]], **extra,
        }

    def _after_round(self, new: dict, winner: int | None, ending: str, points: list, players: list,
                     last_card) -> list:
        """§7 of Rami, Rami 40, Kalooki: a total over the point limit eliminates; the last one left wins.
        After a blocked round (no winner) everyone may be over at once: the lowest total wins (ties share)."""
        limit = int(new["options"][self.match_option])
        over = [s for s in new["active"] if s != winner and new["scores"][s] > limit]
        self._record(new, winner, ending, points, players, last_card, eliminated=over)
        new["active"] = list(new["active"])
        new["out"] = list(new["out"])
        events = [event("eliminated", seat=s, total=new["scores"][s]) for s in over]
        if over:
            self._eliminate(new, over, "eliminated")
        if not new["active"]:
            low = min(new["scores"][s] for s in over)
            return events + self._finish(new, [s for s in over if new["scores"][s] == low], "all_eliminated")
        if len(new["active"]) <= 1:
            return events + self._finish(new, list(new["active"]), "last_standing")
        new["phase"] = ROUND_OVER
        return events

    def _void_round(self, new: dict) -> list[dict]:
        """Nobody can draw any more: the round is void, no points; the deal passes on."""
        players = [{
            "seat": s, "hand": dd.sorted_cards(new["hands"][s]), "melds": [],
            "deadwood": dd.sorted_cards(new["hands"][s]), "deadwood_points": self.hand_points(new["hands"][s]),
            "points": 0,
        } for s in new["active"]]
        points = [0 if s in new["active"] else None for s in range(new["seats"])]
        self._record(new, None, "void", points, players, None, **self._void_extra())
        new["staged"] = []
        new["taken_card"] = None
        new["take_undone"] = False
        new["phase"] = ROUND_OVER
        new["current"] = None
        return [event("round_void", round=new["round"], players=players)]

    def _void_extra(self) -> dict:
        return {"eliminated": []}

    # -- leaving

    def _leave_match(self, new: dict, seat: int) -> list[dict]:
        """§9: the leaver is out at once; his hand leaves play, his melds stay on the table."""
        events = [event("eliminated", seat=seat, total=new["scores"][seat], left=True)]
        was_current = new["current"] == seat and new["phase"] in (DRAW, MELD)
        if was_current:
            self._reset_turn(new)
        if len(new["active"]) <= 1:
            return events + self._finish(new, list(new["active"]), "left")
        if was_current:
            new["current"] = dd.next_active(new, seat)
            new["phase"] = DRAW
            events += self._start_turn(new)
        return events

    def leave(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        if state["phase"] not in (MATCH_OVER,) and seat in state["active"] and state["current"] == seat:
            state = {**state, "staged": []}  # staged actions are never published
        return super().leave(state, seat)

    # -- legal moves and suggestions

    def _legal_turn(self, state: dict, seat: int, sugg: dict | None = None) -> list[dict]:
        phase = state["phase"]
        if phase == DRAW:
            moves = [{"action": "draw_stock"}] if self._can_draw_stock(state) else []
            if self._can_take(state):
                moves.append({"action": "take_discard"})
            return moves
        if phase != MELD:
            return []
        hand, table = self.preview(state, seat)
        moves = []
        if state["staged"] or (self.undo_take and state["taken_card"] is not None):
            moves.append({"action": "undo"})
        if self.commit_error(state, seat) is None:
            taken = state["taken_card"]
            moves += [{"action": "discard", "card": c} for c in dd.sorted_cards(hand) if c != taken]
            if self.go_out and not hand:
                moves.append({"action": "go_out"})
        if sugg is None:
            sugg = self.suggestions(state, seat, hand, table)
        moves += [{"action": "meld", **m} for m in sugg["melds"]]
        moves += [{"action": "lay_off", **m} for m in sugg["layoffs"]]
        moves += [{"action": "swap_joker", **m} for m in sugg["swaps"]]
        return moves

    def suggestions(self, state: dict, seat: int, hand: list[str] | None = None,
                    table: list[dict] | None = None) -> dict:
        """Solver help for the acting seat (also the canonical meld / lay_off / swap moves).

        `opening`: the lay-down with the most meld points (None when the seat has opened or the game has
        no threshold); `melds`: meld moves (the opening's melds while the table is closed to the seat,
        else the melds of the hand's least-penalty arrangement); `layoffs`: every single-card lay-off;
        `swaps`: every joker release the hand allows.
        """
        if hand is None:
            hand, table = self.preview(state, seat)
        taken = state["taken_card"]
        leave = "discard_or_empty" if self.go_out else "discard"
        must = None
        if self.take_must_be_used and taken is not None and taken in hand:
            must = taken
        opened = state["opened"][seat]
        staged_points = self.staged_points(state)
        can_act = self.may_act_on_table(state, seat)
        key = tuple(sorted(hand))
        opening = None
        melds: list[dict] = []
        if self.threshold is not None and not opened:
            plan = _best_plan(self, key, "points", must if not can_act else None, taken, leave)
            opening = self._opening(plan, staged_points)
            if opening is not None and not can_act and opening["reaches"]:
                melds = [_meld_move(m) for m in plan.melds]
        if can_act:
            plan = _best_plan(self, key, "penalty", must, taken, leave)
            if plan is None and must is not None:
                plan = _best_plan(self, key, "penalty", None, taken, leave)
            if plan is not None:
                melds = [_meld_move(m) for m in plan.melds]
        layoffs, swaps = [], []
        if can_act and table:
            layoffs = self._layoff_moves(state, hand, table)
            if self.swap:
                swaps = self._swap_moves(state, hand, table)
        return {"opening": opening, "melds": melds, "layoffs": layoffs, "swaps": swaps,
                "may_act_on_table": can_act}

    def draw_suggestions(self, state: dict, seat: int) -> dict:
        """Solver help before drawing: what the hand lays down as it is, and with the top discard.

        `opening`: as in `suggestions` for the hand now; `discard_opening`: the same with the top discard
        taken and in a meld; `discard_melds`: (seat already opened, or no threshold) the melds of the
        least-penalty arrangement of hand + top discard that hold it; `discard_layoffs`: where the top
        discard can be laid off (seat already opened, or no threshold).
        """
        hand = state["hands"][seat]
        top = state["discard"][-1] if state["discard"] and self._can_take(state) else None
        leave = "discard_or_empty" if self.go_out else "discard"
        out = {"opening": None, "discard_opening": None, "discard_melds": [], "discard_layoffs": []}
        opened = self.threshold is None or state["opened"][seat]
        if not opened:
            out["opening"] = self._opening(_best_plan(self, tuple(sorted(hand)), "points", None, None, leave), 0)
        if top is None:
            return out
        key = tuple(sorted([*hand, top]))
        if not opened:
            out["discard_opening"] = self._opening(_best_plan(self, key, "points", top, top, leave), 0)
            return out
        plan = _best_plan(self, key, "penalty", top, top, leave)
        if plan is not None:
            out["discard_melds"] = [_meld_move(m) for m in plan.melds if top in m.cards]
        for meld in state["table"]:
            reading = self.reading(meld)
            if _may_fit(reading, top):
                for end in tm.layoff_ends(reading, top, self.rules):
                    out["discard_layoffs"].append({"cards": [top], "meld_id": meld["id"]}
                                                  | ({"end": end} if end else {}))
        return out

    def _opening(self, plan, staged_points: int) -> dict | None:
        if plan is None or not plan.melds:
            return None
        total = staged_points + plan.value
        return {"melds": [_meld_move(m) | {"points": m.points()} for m in plan.melds], "points": plan.value,
                "staged_points": staged_points, "total": total, "threshold": self.threshold,
                "reaches": total >= self.threshold}

    def _layoff_moves(self, state: dict, hand: list[str], table: list[dict]) -> list[dict]:
        out = []
        for meld in table:
            reading = self.reading(meld)
            ends = tm.open_ends(reading, self.rules)
            if not (ends["low"] or ends["high"]):
                continue
            for c in dd.sorted_cards(hand):
                if not _may_fit(reading, c):
                    continue
                rest = [x for x in hand if x != c]
                if not self._keeps_a_discard(state, rest):
                    continue
                for end in tm.layoff_ends(reading, c, self.rules):
                    move = {"cards": [c], "meld_id": meld["id"]}
                    if end is not None:
                        move["end"] = end
                    out.append(move)
        return out

    def _swap_moves(self, state: dict, hand: list[str], table: list[dict]) -> list[dict]:
        out = []
        naturals = [c for c in dd.sorted_cards(hand) if not cards.is_joker(c)]
        for meld in table:
            if not any(cards.is_joker(c) for c in meld["cards"]):
                continue
            reading = self.reading(meld)
            for joker, face in reading.wilds:
                if reading.kind == "run":
                    groups = [[c] for c in naturals if c[:-1] == face]
                elif self.swap == "two":
                    if len(reading.cards) >= 4:
                        continue
                    fit = [c for c in naturals if tm.natural_of(c)[1] == reading.low]
                    groups = [list(p) for p in _pairs(fit)]
                else:
                    groups = [[c] for c in naturals if tm.natural_of(c)[1] == reading.low]
                for group in groups:
                    if tm.replace_wild(reading, joker, group, self.rules) is None:
                        continue
                    rest = [x for x in hand if x not in group] + [joker]
                    if self._keeps_a_discard(state, rest):
                        out.append({"cards": group, "meld_id": meld["id"], "joker": joker})
        return out

    # -- autoplay

    def _autoplay_turn(self, state: dict, seat: int) -> dict:
        """§9: draw from the stock, no table actions (staged ones and a Rami 40 take are undone first),
        discard the highest penalty card of the deadwood of the best arrangement."""
        if state["phase"] == DRAW:
            return {"action": "draw_stock"} if self._can_draw_stock(state) else {"action": "take_discard"}
        if state["staged"] or (self.undo_take and state["taken_card"] is not None):
            return {"action": "undo", "all": True}
        return {"action": "discard", "card": self.autoplay_discard(state["hands"][seat], state["taken_card"])}

    def autoplay_discard(self, hand: list[str], taken: str | None) -> str:
        plan = _best_plan(self, tuple(sorted(hand)), "penalty", None, None, "any")
        pool = [c for c in plan.left if c != taken] or [c for c in hand if c != taken]
        values = self.values()
        return min(pool, key=lambda c: (-values[c], cards.sort_key(c)))

    def _best_arrangement(self, state: dict, hand: list):
        return _best_plan(self, tuple(sorted(hand)), "penalty", None, None, "any")

    # -- views

    def meld_view(self, meld: dict) -> dict:
        reading = self.reading(meld)
        return {"id": meld["id"], "owner": meld["owner"], "cards": list(meld["cards"]), "wilds": dict(meld["wilds"]),
                "kind": meld["kind"], "ends": tm.open_ends(reading, self.rules), "points": reading.points()}

    def arrangement(self, hand: list[str]) -> dict | None:
        if not hand:
            return None
        plan = self._best_arrangement(None, hand)
        wilds = {}
        for m in plan.melds:
            wilds.update(m.wild_map)
        return {"melds": [list(m.cards) for m in plan.melds], "deadwood": list(plan.left),
                "points": self.hand_points(list(plan.left)), "wilds": wilds}

    def disposition(self, hand: list[str]) -> dict | None:
        """The round end counts a hand as it is: its best arrangement says what it could have kept."""
        return self.arrangement(hand)

    def view(self, state: dict, seat: int) -> dict:
        dd.check_seat(state, seat)
        view = self._public(state)
        acting = seat == state["current"] and state["phase"] == MELD
        hand, table = self.preview(state, seat) if acting else (state["hands"][seat], None)
        sugg = self.suggestions(state, seat, hand, table) if acting else None
        view["seat"] = seat
        view["hand"] = dd.sorted_cards(hand)
        view["legal"] = self._legal_turn(state, seat, sugg) if acting else self.legal_moves(state, seat)
        view["arrangement"] = self.arrangement(hand)
        self._view_extra(state, view, seat)
        view["hand_points"] = self.hand_points(hand)
        if acting:
            staged = []
            for e in state["staged"]:
                staged.append({k: v for k, v in e.items() if k not in ("out", "in")})
            points = self.staged_points(state)
            error = self.commit_error(state, seat)
            view["staged"] = {
                "actions": staged,
                "table_preview": [self.meld_view(m) for m in table],
                "opening_points": points,
                "threshold": self.threshold,
                "opened": state["opened"][seat],
                "may_act_on_table": self.may_act_on_table(state, seat),
                "commit_ok": error is None,
                "commit_error": None if error is None else {"code": error.code, "message": error.message},
            }
            view["suggestions"] = sugg
        elif seat == state["current"] and state["phase"] == DRAW:
            view["suggestions"] = self.draw_suggestions(state, seat)
        return view

    def _view_extra(self, state: dict, view: dict, seat: int | None) -> None:
        view["table"] = [self.meld_view(m) for m in state["table"]]
        view["opened"] = list(state["opened"])
        view["threshold"] = self.threshold
        view["taken_card"] = state["taken_card"]
        view["take_undone"] = state["take_undone"]
        view["hand_size"] = self.hand_size
        view["rules"] = {
            "threshold": self.threshold, "go_out": self.go_out, "swap": self.swap,
            "take_must_be_used": self.take_must_be_used, "undo_take": self.undo_take,
            "ace_penalty": self.ace_penalty, "joker_penalty": self.joker_penalty,
            "ace_low": self.rules.ace_low, "ace_high": self.rules.ace_high,
            "min_naturals": max(1, self.rules.min_naturals),
        }
        view[self.match_option] = state["options"][self.match_option]
        view["eliminated"] = [o["seat"] for o in state["out"]]
        view["staged"] = None
        view["suggestions"] = None
        view["hand_points"] = None


# ---------------------------------------------------------------- helpers

def _meld_index(meld_id: str) -> int:
    return int(meld_id[1:]) - 1


@lru_cache(maxsize=8192)
def _reading(cards_: tuple, wilds: tuple, kind: str, rules: MeldRules) -> tm.Reading:
    return tm.reading_of(list(cards_), dict(wilds), kind, rules)


@lru_cache(maxsize=4096)
def _best_plan(game: TableMeldGame, key: tuple, weight: str, must, taken, leave: str):
    values = None if weight == "points" else game.values()
    return tm.best_plan(list(key), game.rules, values, must=must, taken=taken, leave=leave)


def _meld_move(reading: tm.Reading) -> dict:
    move = {"cards": list(reading.cards)}
    if reading.wilds:
        move["wilds"] = reading.wild_map
    return move


def _may_fit(reading: tm.Reading, card: str) -> bool:
    """Cheap filter before trying a lay-off: a joker, a card of the set's rank, a run's neighbour."""
    if cards.is_joker(card):
        return True
    suit, rank = tm.natural_of(card)
    if reading.kind == "set":
        return rank == reading.low
    if suit != reading.suit:
        return False
    positions = (1, 14) if rank == 1 else (rank,)
    return any(p in (reading.low - 1, reading.high + 1) for p in positions)


def _pairs(cs: list[str]):
    for i in range(len(cs)):
        for j in range(i + 1, len(cs)):
            yield cs[i], cs[j]
