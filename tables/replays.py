"""Replays: every finished round of a table, step by step, rebuilt from the seed and the move log by the
engine's own replay (tables.services.replay_moves).

A step shows what a spectator could see then (the engine's `public_view`, drawn by the live table's pieces);
the round's last step adds each seat's hand, once the match is over. A round is finished once nobody is left
to act in it (round over, match over) or a later round is dealt: the round being played is never listed, and
while the match runs its finished rounds show no hand. Generic: no game is named here.
"""

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone

from engine import narration
from tables import services, spectators
from tables.models import MoveComment, Table, engine_for

NOT_ALLOWED = "Seuls les joueurs de cette table peuvent revoir ses manches."


@dataclass
class Step:
    seq: int
    seat: int | None
    state: dict
    events: list


@dataclass
class Round:
    number: int
    steps: list[Step] = field(default_factory=list)
    finished: bool = False


def replay_refusal(table: Table, user, session=None) -> str | None:
    """Who may replay: the table's players; anyone logged in for a public table (or who opened the private
    table's invitation link). None: allowed."""
    if table.seats.filter(user_id=user.pk).exists():
        return None
    if not table.private or spectators.granted(session, table.pk):
        return None
    return NOT_ALLOWED


def match_over(table: Table) -> bool:
    return table.status == Table.Status.FINISHED


def rounds(table: Table, *, until: int | None = None) -> list[Round]:
    """The table's rounds, each with its steps (the deal first). `until`: stop replaying after that round."""
    if not table.seed:
        return []
    moves = ((entry.seq, entry.seat, entry.move, state, events)
             for entry, state, events in services.replay_moves(table))
    return rounds_from(engine_for(table), moves, until=until)


def rounds_from(engine, moves, *, until: int | None = None) -> list[Round]:
    """The finished rounds of a replayed match: `moves` yields (seq, seat, move, state after it, its events), the
    start first (a table's log, or an imported match file: tables.exports)."""
    out: list[Round] = []
    previous = None
    for seq, seat, move, state, events in moves:
        before, previous = previous, state
        number = state.get("round") if isinstance(state, dict) else None
        if not isinstance(number, int):
            continue
        if out and number != out[-1].number:
            out[-1].finished = True
        if until is not None and number > until:
            break
        if not out or number != out[-1].number:
            out.append(Round(number))
        elif isinstance(before, dict) and seat is not None and services.move_is_private(
                engine, before, seat, move, events):
            continue  # a staged action the others never saw: its effect shows at its commit's step
        out[-1].steps.append(Step(seq, seat, state, events))
    if out and not out[-1].finished:
        last = out[-1].steps[-1].state
        out[-1].finished = engine.result(last) is not None or not engine.to_act(last)
    return [r for r in out if r.finished]


FINISHED_KEPT = 16  # finished matches whose replayed rounds a process keeps (a few hundred KB each)
_finished: OrderedDict = OrderedDict()
_finished_lock = threading.Lock()


def finished_round(table: Table, number: int) -> Round | None:
    """One round of the table, replayed. A finished match's log never changes again: its rounds are replayed once
    per process and kept (the FINISHED_KEPT last asked for), so stepping through « Revoir » costs no replay."""
    if table.status != Table.Status.FINISHED or not table.pk:
        return next((r for r in rounds(table, until=number) if r.number == number), None)
    # The invite token too: a deleted table's id can come back (SQLite reuses ids), its token never does.
    key = (table.pk, table.invite_token, table.version)
    with _finished_lock:
        kept = _finished.get(key)
        if kept is not None:
            _finished.move_to_end(key)
    if kept is None:
        kept = rounds(table)
        with _finished_lock:
            _finished[key] = kept
            while len(_finished) > FINISHED_KEPT:
                _finished.popitem(last=False)
    return next((r for r in kept if r.number == number), None)


def step_table(table: Table, rnd: Round, index: int) -> Table:
    """A stand-in of the table as it was after the round's step `index`, for the live pieces to draw: its
    state, and the round's public events so far (« what just happened », as tables.recent keeps them)."""
    step = rnd.steps[index]
    shown = copy.copy(table)
    shown.state = step.state
    shown.deadline = None
    shown.spectators = 0
    shown.version = shown.public_version = step.seq
    shown.private_seat = None
    shown.recent_events = [
        {"v": s.seq, "seat": s.seat, "round": rnd.number, "events": narration.public_events(s.events)}
        for s in rnd.steps[1:index + 1] if narration.public_events(s.events)
    ]
    if engine_for(table).result(step.state) is None:
        shown.status = Table.Status.PLAYING
    return shown


def piece_id(piece) -> str:
    return piece if isinstance(piece, str) else str((piece or {}).get("id", ""))


def hands_at(table: Table, state: dict, seat_names: dict[int, str]) -> list[dict]:
    """Each seat's hand in `state` (the round's end), as the replay shows it once the match is over."""
    engine = engine_for(table)
    out = []
    for position in sorted(seat_names):
        hand = [piece_id(p) for p in (engine.view(state, position).get("hand") or [])]
        out.append({"position": position, "name": seat_names[position],
                    "pieces": [{"id": p, "words": narration.card_words(p)} for p in hand if p]})
    return out


def deal_line(table: Table, rnd: Round, seat_names: dict[int, str]) -> str:
    """The replay's first step in words: « Zoé distribue les cartes. » (« les tuiles » in a tile game), or
    « Les cartes sont distribuées. » when the game has no dealer."""
    engine = engine_for(table)
    state = rnd.steps[0].state
    hand = [piece_id(p) for p in (engine.view(state, min(seat_names, default=0)).get("hand") or [])]
    pieces = narration.piece_noun(hand[0] if hand else None) + "s"
    dealer = engine.public_view(state).get("dealer")
    if isinstance(dealer, int) and not isinstance(dealer, bool) and dealer in seat_names:
        return f"{seat_names[dealer]} distribue les {pieces}."
    return f"Les {pieces} sont distribuées."


PENDING_FOR = timedelta(hours=1)  # « Analyse en cours… » this long after the match at most (tables.annotations)


@dataclass
class Comments:
    """The stored comments of a round's moves (tables.annotations), by move number; `pending`: not computed yet."""

    by_seq: dict = field(default_factory=dict)
    pending: bool = False

    def worst_steps(self, rnd: Round) -> list[dict]:
        """The round's marked moves (its three costliest), in the order they were played: {index, seat, text}."""
        return [{"index": i, "seat": step.seat, "text": self.by_seq[step.seq].comment}
                for i, step in enumerate(rnd.steps) if step.seq in self.by_seq and self.by_seq[step.seq].worst]


def comments(table: Table, rnd: Round) -> Comments:
    """The round's comments, read in one query, once the match is over (its cards are public then); never
    computed here."""
    if not match_over(table):
        return Comments()
    seqs = [step.seq for step in rnd.steps]
    rows = {c.seq: c for c in MoveComment.objects.filter(table_id=table.pk, seq__in=seqs)}
    if rows:
        return Comments(rows)
    done = MoveComment.objects.filter(table_id=table.pk).exists()
    recent = table.finished_at is not None and timezone.now() - table.finished_at < PENDING_FOR
    return Comments(rows, pending=not done and recent)
