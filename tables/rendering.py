"""Render the table: the same templates (templates/tables/live/, Jinja2: tables/live.py) serve the first page
load and every push."""

from django.template.backends.utils import csrf_input
from django.template.loader import render_to_string

from tables import live, reads
from tables.models import Seat, Table
from tables.presenters import table_context


def render_push(table: Table, seats: list[Seat], seat: Seat | None, *, error: str | None = None) -> str:
    """Every piece of the table for one seat, each root element carrying its id for an OOB swap."""
    return live.render_push(table_context(table, seats, seat, error=error))


def render_parts(context: dict, request) -> dict:
    """The pieces of the table page, by name (templates/tables/table.html places them)."""
    context = {**context, "csrf_input": csrf_input(request)}
    return {part: live.render_part(part, context) for part in live.PARTS}


def render_error(message: str, rule_url: str = "") -> str:
    return live.render("tables/live/error.jinja", {"error": message, "rule_url": rule_url})


def render_chat(table: Table) -> str:
    return render_to_string("tables/table.html#chat", {"chat": reads.recent_chat(table.pk), "table": table})


def render_for_user(table_id: int, user_id: int) -> str | None:
    """The user's view of the table: his seat's, or the public one (not seated, or he left the match)."""
    table = reads.table(table_id)
    if table is None:
        return None
    seats = reads.seats_of(table_id)
    me = next((s for s in seats if s.user_id == user_id and not s.left), None)
    return render_push(table, seats, me) + render_chat(table)
