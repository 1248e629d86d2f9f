"""Match files on the site (the format: tables.match_file, docs/export-format.md): a finished table written out for
download, and a file a player uploads, checked, replayed and kept as an `ImportedMatch` that « Revoir »'s pages
show. Who may download is who may replay (tables.replays.replay_refusal, checked by the views), once the match is
over; an imported match is seen by the player who imported it, no one else.

Nothing of the table's own secrets leaves: no seed (the document is checked for it before it is served), and in a
game with account jokers each player's balance is written as the number of jokers he spent in the match, not what
his account held.
"""

from django.db import transaction

from tables import match_file, services
from tables.match_file import FileRefused
from tables.models import Game, ImportedMatch, Seat, Table, TableMove, engine_for

MAX_IMPORTS = 20  # imported matches a player keeps; he deletes one to import another
TOO_MANY = (f"Tu as déjà {MAX_IMPORTS} parties importées : supprimes-en une avant d'en importer une autre.")
TYPES = {"txt": ("text/plain; charset=utf-8", match_file.to_text),
         "json": ("application/json; charset=utf-8", match_file.to_json)}


class SeedLeak(RuntimeError):
    """The document would carry the table's seed: never served."""


def document(table: Table) -> dict:
    """The document of a finished table (tables.match_file.build), from its log replayed by the engine."""
    engine = engine_for(table)
    entries = _spent_jokers_only(table, engine, list(table.moves.order_by("seq")))
    log = [(entry.seat, entry.move, state, events) for entry, state, events in services.replay_moves(table, entries)]
    seats = list(table.seats.select_related("user").order_by("position"))
    players = [{"robot": seat.bot_level} if seat.is_bot else {"name": seat.user.username if seat.user else "?"}
               for seat in seats]
    return match_file.build(engine, seats=table.seats_count, options=engine.info.clean_options(table.options),
                            log=log, players=players, table=table.pk,
                            started=table.started_at.isoformat() if table.started_at else "",
                            finished=table.finished_at.isoformat() if table.finished_at else "")


def _spent_jokers_only(table: Table, engine, entries: list[TableMove]) -> list[TableMove]:
    """The log with the start's account joker balances (a game with `account_jokers`) replaced by what each player
    spent in the match: enough to replay it, and nothing of his account."""
    if not entries or "balances" not in entries[0].move or not engine.info.account_jokers:
        return entries
    spent = dict.fromkeys(entries[0].move["balances"], 0)
    for _entry, _state, events in services.replay_moves(table, entries):
        for evt in events:
            if evt.get("kind") == services.JOKER_TAKEN and str(evt.get("seat")) in spent:
                spent[str(evt["seat"])] += 1
    start = TableMove(table=table, seq=entries[0].seq, seat=entries[0].seat,
                      move={**entries[0].move, "balances": spent}, actor=entries[0].actor)
    return [start, *entries[1:]]


PRACTICE_REFUSED = ("Une partie d'entraînement ne se télécharge pas : elle commence au milieu d'une autre partie. "
                    "Télécharge plutôt la partie d'origine.")


def export_refusal(table: Table) -> str | None:
    """Why this finished table has no file (None: it has one). A practice table (tables.practice) starts from
    another table's step, which a match file, dealt from its start, cannot say."""
    if table.table_type == Table.Type.PRACTICE:
        return PRACTICE_REFUSED
    return None


def export_file(table: Table, kind: str) -> tuple[str, str, str]:
    """(content, content type, file name) of a finished table's file of `kind` ("txt" or "json")."""
    if (refusal := export_refusal(table)) is not None:
        raise FileRefused(refusal)
    content_type, write = TYPES[kind]
    doc = document(table)
    content = write(doc)
    if table.seed and table.seed in content:
        raise SeedLeak(table.pk)
    return content, content_type, f"{table.game.slug}-table-{table.pk}.{kind}"


def import_file(owner, data: bytes) -> ImportedMatch:
    """Read, replay and keep an uploaded match file; FileRefused (French) and nothing kept if it is not one."""
    doc = match_file.read(data)
    steps = match_file.replay(doc)
    match_file.check_shown(doc, steps)
    game = Game.objects.filter(slug=doc["game"]).first()
    if game is None:
        raise FileRefused(f"Le jeu « {doc['game']} » de ce fichier n'est pas proposé sur le site.")
    with transaction.atomic():
        if ImportedMatch.objects.filter(owner=owner).count() >= MAX_IMPORTS:
            raise FileRefused(TOO_MANY)
        return ImportedMatch.objects.create(owner=owner, game=game, document=doc)


def imported_steps(imported: ImportedMatch) -> list[match_file.Step]:
    """The imported match replayed (FileRefused if the rules changed since and it no longer replays)."""
    return match_file.replay(imported.document)


def imported_table(imported: ImportedMatch) -> tuple[Table, list[Seat]]:
    """A stand-in table and its seats, never saved, for the replay pages to draw an imported match with the live
    table's pieces: its game, options and players, finished."""
    doc = imported.document
    table = Table(game=imported.game, seats_count=doc["seats"], options=doc["options"], stake=0,
                  status=Table.Status.FINISHED, private=True)
    seats = []
    for position, player in enumerate(doc["players"]):
        seat = Seat(table=table, position=position, bot_level=player.get("robot"))
        if "name" in player:
            seat.username = player["name"]  # tables.presenters.frame.seat_name reads it
        seats.append(seat)
    return table, seats


def imported_label(imported: ImportedMatch) -> str:
    """« alice, Robot Confirmé · d'après la table n° 123 »: what an imported match is, in a line."""
    doc = imported.document
    names = ", ".join(match_file.player_names(doc["players"]).values())
    return f"{names} · d'après la table n° {doc['table']}" if "table" in doc else names
