"""A tournament table's match is over: its result is stored in the same transaction as the match's last move,
then the tournament moves on (tournaments.tasks.advance, after the commit, idempotent)."""

from django.db import transaction

from engine.base import partner_of
from tables.models import Table
from tournaments.models import Match


def entry_seats(entries: list[int], seats_count: int) -> dict[int, list[int]]:
    """{entry: its seats}: entry i at seat i, and a pair's partner facing him (partnership games)."""
    out = {}
    for index, entry in enumerate(entries):
        partner = partner_of(index, seats_count) if len(entries) * 2 == seats_count else None
        out[int(entry)] = [index] + ([partner] if partner is not None else [])
    return out


def on_match_finished(sender, table: Table, places: dict[int, int], **kwargs) -> None:
    if table.table_type != Table.Type.TOURNAMENT:
        return
    match = Match.objects.select_for_update().filter(table_id=table.pk).first()
    if match is None or match.places is not None:
        return
    seats = entry_seats(match.entries, table.seats_count)
    match.places = {str(entry): min(places[s] for s in where) for entry, where in seats.items()}
    match.save(update_fields=["places"])
    tournament_id = match.tournament_id
    transaction.on_commit(lambda: _advance_later(tournament_id))


def _advance_later(tournament_id: int) -> None:
    from tournaments import live, tasks

    live.tournament_changed(tournament_id)
    tasks.advance.delay(tournament_id)
