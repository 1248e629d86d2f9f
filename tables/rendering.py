"""Render the table: the same templates (templates/tables/live/, Jinja2: tables/live.py) serve the first page
load and every push."""

import json

from django.db.models import Sum
from django.template.backends.utils import csrf_input
from django.template.loader import render_to_string

from accounts.models import LedgerEntry
from accounts.services import user_balance
from engine.base import partner_of
from tables import chat, economy, live, reads
from tables.coach import coach_left
from tables.families import presenter_for
from tables.models import Seat, Table, engine_for
from tables.presenters import match_end
from tables.presenters.frame import frame_context, is_my_turn


def table_context(table: Table, seats: list[Seat], me: Seat | None, *, error: str | None = None,
                  viewer: int | None = None) -> dict:
    """What the pieces draw for one seat (`me`; None: the public view): the frame every table shares and what the
    family's presenter makes of the seat's view. `viewer`: the place of a player watching without his seat's
    view (a replay of his own match, drawn from the public view): the family's pieces take his side in their
    words (« Nous », « Partenaire »), no more."""
    engine = engine_for(table)
    presenter = presenter_for(engine)
    state = table.state
    view = None
    if state is not None:
        view = engine.view(state, me.position) if me is not None else engine.public_view(state)
    ctx = frame_context(table, seats, me, engine, view, error, seat_facts(table, seats, me, engine, view))
    ctx["viewer"] = me.position if me is not None else viewer
    ctx["pieces"] = presenter.templates()
    ctx["family_stylesheets"], ctx["family_scripts"] = presenter.stylesheets, presenter.scripts
    if view is not None:
        ctx.update(presenter.context(engine, view, ctx, table=table, seats=seats, me=me))
    return ctx


def seat_facts(table: Table, seats: list[Seat], me: Seat | None, engine, view: dict | None) -> dict:
    """What the frame shows from outside the match state, read for this seat: the chat, the leave cost and the
    coach's counter, and once the match is over the tokens each player won and my balance (the ledger)."""
    result = (view or {}).get("result")
    return {
        "chat": lambda: reads.recent_chat(table.pk),  # a callable: only the full page reads it, never a push
        # Why the chat form gives way to a sentence now (the game's rules: a deal under way in a strict mode),
        # or None; every push carries the chat form's piece, so it closes and opens again with the phase.
        "chat_closed": chat.chat_closed(table, engine),
        "leave_cost": economy.abandon_cost(table=table, seat=me),  # what the ledger charges on « Quitter »
        # « Conseil »: uses left to me in this match (None: no coach at this table), shown at my turn
        "coach_left": coach_left(table, me) if is_my_turn(view, me) and table.status == Table.Status.PLAYING
        else None,
        "tokens_won": tokens_won(table, seats) if result else {},
        # my tokens once the match is settled: the page's header shows them without a reload (static/js/table.js)
        "my_balance": user_balance(me.user_id) if result and me is not None and not me.is_bot and me.user_id
        else None,
        **rematch_facts(table, seats, me, engine),
    }


def rematch_facts(table: Table, seats: list[Seat], me: Seat | None, engine) -> dict:
    """The rematch (tables.rematch) as the player `me` sees it: on the panel of a finished table (`rematch`), in
    the waiting room of a rematch (`rematch_room`). Nothing for a spectator, nor during a match."""
    facts = {"rematch": None, "rematch_room": None}
    if (me is None or me.is_bot or me.user_id is None or me.left
            or table.table_type in (Table.Type.TOURNAMENT, Table.Type.PRACTICE)):
        return facts  # a tournament's next table is its next round's; a practice has none (tables.rematch)
    if table.status == Table.Status.FINISHED:
        rematch = Table.objects.filter(rematch_of_id=table.pk).first()
        rematch_seats = reads.seats_of(rematch.pk) if rematch is not None else []
        facts["rematch"] = match_end.rematch_ctx(me, seats, rematch, rematch_seats)
    elif table.status == Table.Status.WAITING and table.rematch_of_id is not None:
        teams = engine.info.teams and partner_of(0, table.seats_count) is not None
        facts["rematch_room"] = match_end.room_ctx(table, me, seats, reads.seats_of(table.rematch_of_id), teams=teams)
    return facts


def tokens_won(table: Table, seats: list[Seat]) -> dict[int, int]:
    """Each player's net token change at this table, by user (the ledger)."""
    users = [s.user_id for s in seats if s.user_id and not s.is_bot]
    return dict(LedgerEntry.objects.filter(table_id=table.pk, account__user_id__in=users)
                .values_list("account__user_id").annotate(total=Sum("amount")))


def render_push(table: Table, seats: list[Seat], seat: Seat | None, *, error: str | None = None) -> str:
    """Every piece of the table for one seat, each root element carrying its id for an OOB swap."""
    return live.render_push(table_context(table, seats, seat, error=error))


def render_parts(context: dict, request) -> dict:
    """The pieces of the table page, by name (templates/tables/table.html places them)."""
    context = {**context, "csrf_input": csrf_input(request)}
    return {part: live.render_part(part, context) for part in live.PARTS}


def render_error(message: str, rule_url: str = "") -> str:
    return live.render("tables/live/error.jinja", {"error": message, "rule_url": rule_url})


def render_chat(table_id: int, hidden: frozenset[int] | set[int] = frozenset()) -> str:
    """The table's chat log without the lines of the `hidden` writers (tables.chat)."""
    return render_chat_lines(reads.recent_chat(table_id), hidden)


def render_chat_lines(lines: list[dict], hidden: frozenset[int] | set[int] = frozenset()) -> str:
    return render_to_string("tables/table.html#chat", {"chat": chat.visible_lines(lines, hidden)})


def chat_push(table_id: int) -> dict:
    """The chat log as one push to every socket of the table: drawn once whole (`html`), with its writers
    (`authors`) and its lines (`lines`, JSON: flat values, copied cheaply by the in-process layer) for the few
    readers who hide some writer (`chat_for`)."""
    lines = reads.recent_chat(table_id)
    return {"html": render_chat_lines(lines),
            "authors": ",".join(sorted({str(line["author"]) for line in lines})), "lines": json.dumps(lines)}


def chat_for(message: dict, hidden: frozenset[int]) -> str:
    """A reader's part of a chat push: the whole log, or, if a writer he hides is in it, the log drawn again
    without that writer's lines (no query: from the push's own lines)."""
    html = message["html"]
    if not hidden or "lines" not in message:
        return html
    if hidden.isdisjoint(int(author) for author in message["authors"].split(",") if author):
        return html
    return render_chat_lines(json.loads(message["lines"]), hidden)


def render_for_user(table_id: int, user_id: int, hidden: frozenset[int] | None = None) -> str | None:
    """The user's view of the table: his seat's, or the public one (not seated, or he left the match), and the
    chat without the writers he hides (`hidden`: as his socket keeps them; None: read)."""
    table = reads.table(table_id)
    if table is None:
        return None
    seats = reads.seats_of(table_id)
    me = next((s for s in seats if s.user_id == user_id and not s.left), None)
    if hidden is None:
        hidden = chat.hidden_authors(table_id, user_id)
    return render_push(table, seats, me) + render_chat(table_id, hidden)


POSITION_PARTS = ("opponents", "centre", "hand", "scores")


def position_parts(game, state: dict, seat: int, names: dict[int, str]) -> dict:
    """A position drawn for one seat outside any table (a problem, problems.views): the live pieces, from that seat's
    view only, on a table and seats that stand in and are never saved. No action, chat or clock: the pieces the
    frame draws around a position (POSITION_PARTS). `names`: each seat's name by position."""
    table = Table(game=game, seats_count=state["seats"], options=state.get("options") or {}, state=state,
                  status=Table.Status.PLAYING, version=0, public_version=0, coach_limit=0)  # no « Conseil »
    seats = []
    for position in range(state["seats"]):
        stand_in = Seat(table=table, position=position, pk=position + 1)  # distinct keys: one of them is « me »
        stand_in.username = names.get(position, f"Joueur {position + 1}")
        seats.append(stand_in)
    context = table_context(table, seats, seats[seat])
    parts = {**context, "csrf_input": ""}
    drawn = {part: live.render_part(part, parts) for part in POSITION_PARTS}
    drawn["family_stylesheets"] = context["family_stylesheets"]
    return drawn
