"""The rematch (tables.rematch) as one player sees it, the same at every table whatever its game: on the finished
table's panel (offer it, answer it, who answered what, go to it) and in the rematch's waiting room (each place:
taken, kept for a player who has not answered, or free; the host's robots and teams). Pure: the tables and seats
are read by tables.rendering. Plain values only, so the round end's piece is drawn again only when they change
(tables.live.PieceMemo)."""

from engine.base import partner_of
from tables.models import Seat, Table
from tables.presenters.frame import BOT_LEVELS, seat_names

ANSWERS = {
    "host": "propose une revanche",
    "accepted": "a accepté",
    "waiting": "n'a pas encore répondu",
    "refused": "a refusé",
    "left": "a quitté la table",
}
ORDER = ("host", "accepted", "waiting", "refused", "left")


def answers(old_seats: list[Seat], rematch: Table, rematch_seats: list[Seat], me_user: int | None) -> tuple:
    """Each human of the finished match but me, with his answer: the host first. A player neither seated at the
    rematch nor waited for refused it (or took back his yes by leaving its table); one who left the match
    (« Quitter ») is never waited for."""
    names = seat_names(old_seats)
    seated = {s.user_id for s in rematch_seats if s.user_id and not s.is_bot}
    waited = set(rematch.reserved_places().values()) if rematch.status == Table.Status.WAITING else set()
    out = []
    for seat in old_seats:
        if seat.is_bot or seat.user_id is None or seat.user_id == me_user:
            continue
        if seat.user_id == rematch.host_id:
            state = "host"
        elif seat.left:
            state = "left"
        elif seat.user_id in seated:
            state = "accepted"
        elif seat.user_id in waited:
            state = "waiting"
        else:
            state = "refused"
        out.append({"name": names[seat.position], "state": state, "word": ANSWERS[state]})
    return tuple(sorted(out, key=lambda a: ORDER.index(a["state"])))


def rematch_ctx(me: Seat, old_seats: list[Seat], rematch: Table | None, rematch_seats: list[Seat]) -> dict:
    """The finished table's « Revanche » for `me`, a player who played it to the end: offer it (none yet, or
    the last one cancelled), or the one offered: accept or refuse it, who answered what, go to it."""
    if rematch is None or rematch.status == Table.Status.CANCELLED:
        return {"offered": False, "cancelled": rematch is not None, "can_offer": not me.left}
    names = seat_names(old_seats)
    host = next((names[s.position] for s in old_seats if s.user_id == rematch.host_id and not s.is_bot), "")
    mine = any(s.user_id == me.user_id and not s.is_bot for s in rematch_seats)
    waiting = rematch.status == Table.Status.WAITING
    can_answer = waiting and not mine and me.user_id in rematch.reserved_places().values()
    return {
        "offered": True,
        "table_id": rematch.pk,
        "host_name": host,
        "i_host": rematch.host_id == me.user_id,
        "waiting": waiting,
        "mine": mine,
        "can_answer": can_answer,
        "refused": not mine and not can_answer,
        "answers": answers(old_seats, rematch, rematch_seats, me.user_id),
    }


def room_ctx(table: Table, me: Seat, seats: list[Seat], old_seats: list[Seat], *, teams: bool) -> dict:
    """The waiting room of the rematch `table` for `me`: each place (its player, a robot, kept for a player who
    has not answered, or free), the answers, and for its host the free places he may give to a robot, and
    « Changer d'équipes » in a team game (`teams`)."""
    old_names = seat_names(old_seats)
    player_names = {s.user_id: old_names[s.position] for s in old_seats if s.user_id and not s.is_bot}
    names = seat_names(seats)
    taken = {s.position: s for s in seats}
    reserved = table.reserved_places()
    partner = partner_of(me.position, table.seats_count) if teams else None
    places = []
    for position in range(table.seats_count):
        seat = taken.get(position)
        if seat is not None:
            state = "me" if seat.pk == me.pk else ("robot" if seat.is_bot else "player")
            name = names[position]
        elif position in reserved:
            state, name = "reserved", player_names.get(reserved[position], "")
        else:
            state, name = "free", ""
        places.append({"position": position, "number": position + 1, "state": state, "name": name,
                       "partner": position == partner})
    is_host = me.user_id == table.host_id
    return {
        "old_table_id": table.rematch_of_id,
        "places": tuple(places),
        "answers": answers(old_seats, table, seats, me.user_id),
        "is_host": is_host,
        "free": tuple(p for p in places if p["state"] == "free") if is_host else (),
        "levels": tuple(BOT_LEVELS.items()),
        "teams": teams and is_host,
    }
