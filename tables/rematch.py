"""« Revanche »: the same match again, with the same players at the same places.

At a finished table every human who did not leave it may offer a rematch. The first one (`rematch_offer`) creates
it: a new waiting table linked to the old one (`Table.rematch_of`, one-to-one: at most one rematch per finished
table, made under the old table's row lock), with the same game, options, number of places, stake, move timer,
rated flag, coach limit, spectators' chat and private flag. He is its host, at his old place; the robots are back
at theirs, at their levels (a robot always accepts). The other humans' places are kept for them
(`Table.reserved`): each answers from the old table's page, pushed to him at once (« Accepter » sits him at his
old place, with the stake checks of any join; « Refuser » gives up the place). A human who left the old match
(« Quitter ») is not invited: his place is free from the start. The rematch starts by itself, through
`services.match_start`, as soon as every place is taken (`Table.starts_when_full`).

What the places of players who will not come become: the rematch's host may give such a free place to a robot
(`rematch_seat_robot`) or to a friend through the new table's ordinary invitation link. The link
(`services.seat_join`) seats whoever follows it at the first free place kept for nobody, and seats an invited
player at his own kept place; a place kept for a player who has not answered is never given to anyone else, by
the link or by the host (answering is his to do, and a stranger must not take his seat at his own rematch while he
reads the offer). Once he refuses, his place is free like any other.

The table types: a rematch of a friends' table is a friends' table again (private or not, as it was). A rematch
of a quick start (« Partie rapide ») is a private friends' table, friendly as a quick start is (no stake), with
the same players and robots: those players chose to play on together, so it is no longer a table for whoever is
waiting; it starts once they are all back, as a quick start does once full. A rematch of an Arena match is an
Arena match again: the same entry stake and fixed format (the type's rules, enforced by `services.table_create`),
public as every Arena table, so a place given up may also be taken from the lobby.

Team games (partners face to face): keeping the places keeps the partners. While the rematch waits, its host may
« Changer d'équipes » (`rematch_teams_change`, explained there).
"""

import logging

from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import Notification, User
from accounts.notifications import notify
from engine.base import name_with, partner_of
from tables import scheduler, services
from tables.errors import TableError
from tables.models import Seat, Table, engine_for

log = logging.getLogger(__name__)

BOT_LEVELS = (1, 2, 3)  # Débutant, Confirmé, Expert

NOT_A_PLAYER = "not_player"  # the code of a request from someone who did not play the match (the views go to the lobby)


def rematch_offer(*, table_id: int, user: User) -> Table:
    """« Revanche » at the finished table `table_id`: the rematch table where `user` now sits.

    The first click creates it (`user` its host, at his old place). A click that finds the rematch made already
    (his own double click, or another player's « Revanche » a moment later) answers yes to it: one table, every
    player who wanted it seated. A rematch that was cancelled (its host left it before it started) no longer
    counts: a new one may be offered."""
    with transaction.atomic():
        old = _finished_locked(table_id)
        seat = _my_old_seat(old, user)
        existing = _rematch_locked(old)
        if existing is not None and existing.status == Table.Status.CANCELLED:
            existing.rematch_of = None  # kept as a cancelled table, no longer this match's rematch
            existing.save(update_fields=["rematch_of"])
            existing = None
        if existing is not None:
            return _accept(existing, user)
        try:
            with transaction.atomic():
                rematch, invitees = _create(old, seat, user)
        except IntegrityError:
            # Two first clicks at once where the lock did not serialise them: the other one's table is the rematch.
            existing = _rematch_locked(old)
            if existing is None:
                raise
            return _accept(existing, user)
        _rematch_offered(old, rematch, user, invitees)
        scheduler.after_commit_table_changed(old.pk)
        services.match_start_if_full(rematch)  # nobody else to wait for (the others were robots, or left)
        return rematch


def rematch_accept(*, table_id: int, user: User) -> Table:
    """« Accepter » at the finished table `table_id`: `user` sits at his old place at its rematch (a second click:
    nothing more). The stake is checked as for any join; the rematch starts once every place is taken."""
    with transaction.atomic():
        old = _finished_locked(table_id)
        _my_old_seat(old, user)
        rematch = _rematch_locked(old)
        if rematch is None or rematch.status == Table.Status.CANCELLED:
            raise TableError("Personne ne propose de revanche pour l'instant.", "no_rematch")
        return _accept(rematch, user)


def rematch_refuse(*, table_id: int, user: User) -> Table:
    """« Refuser » at the finished table `table_id`: the place kept for `user` at the rematch is free now (the
    rematch's host may give it to a robot or a friend), and every page of both tables shows that he refused."""
    with transaction.atomic():
        old = _finished_locked(table_id)
        _my_old_seat(old, user)
        rematch = _rematch_locked(old)
        if rematch is None or rematch.status != Table.Status.WAITING:
            raise TableError("Il n'y a pas de revanche en attente de réponse.", "no_rematch")
        if rematch.seats.filter(user=user, bot_level__isnull=True).exists():
            raise TableError("Tu as déjà accepté la revanche : pour t'en retirer, quitte sa table.", "accepted")
        reserved = rematch.reserved_places()
        if user.pk in reserved.values():
            rematch.reserved = {str(p): u for p, u in reserved.items() if u != user.pk}
            rematch.save(update_fields=["reserved"])
            _changed(old, rematch)
        return rematch


def rematch_seat_robot(*, table_id: int, user: User, position: int, level: int) -> Table:
    """The rematch's host gives the free place `position` of the rematch `table_id` (its player refused or left
    the match) to a robot of `level`. A place kept for a player who has not answered stays his."""
    with transaction.atomic():
        rematch = _waiting_rematch_locked(table_id, user)
        if level not in BOT_LEVELS:
            raise TableError("Choisis le niveau du robot : Débutant, Confirmé ou Expert.", "level")
        if not 0 <= position < rematch.seats_count:
            raise TableError("Cette place n'existe pas à cette table.", "position")
        if rematch.seats.filter(position=position).exists():
            raise TableError("Cette place est déjà prise.", "taken")
        if position in rematch.reserved_places():
            raise TableError("Cette place est gardée pour son joueur tant qu'il n'a pas répondu.", "reserved")
        Seat.objects.create(table=rematch, position=position, bot_level=level)
        _changed(rematch.rematch_of, rematch)
        services.match_start_if_full(rematch)
        scheduler.after_commit_lobby_changed()
        return rematch


def rematch_teams_change(*, table_id: int, user: User) -> Table:
    """« Changer d'équipes », at a team game's rematch still waiting: its host keeps his place and the three other
    places turn one step around him: the player at his left comes to face him, his partner goes to his right,
    and the player at his right goes to his left. Each click gives him a new partner and the other two face
    each other, so every pair of partners changes; three clicks bring the first teams back. Whatever is at a
    place moves with it: a player who accepted, a robot, a place kept for a player who has not answered yet (his
    « Accepter » sits him at the new place), a free place. A player's open pages follow him to his new place."""
    with transaction.atomic():
        rematch = _waiting_rematch_locked(table_id, user)
        n = rematch.seats_count
        if not engine_for(rematch).info.teams or partner_of(0, n) is None:
            raise TableError("Ce jeu ne se joue pas en équipes.", "teams")
        host = rematch.seats.get(user=user, bot_level__isnull=True).position
        left, facing, right = ((host + step) % n for step in (1, 2, 3))
        turn = {left: facing, facing: right, right: left}
        seats = list(rematch.seats.exclude(position=host))
        for seat in seats:  # out of the way first: (table, place) is unique at every step
            seat.position += n
            seat.save(update_fields=["position"])
        for seat in seats:
            before = seat.position - n
            seat.position = turn[before]
            seat.save(update_fields=["position"])
            if seat.user_id is not None and not seat.is_bot:
                scheduler.after_commit_seat_moved(rematch.pk, seat.user_id, before, seat.position)
        rematch.reserved = {str(turn[p]): u for p, u in rematch.reserved_places().items()}
        rematch.save(update_fields=["reserved"])
        _changed(rematch.rematch_of, rematch)
        return rematch


# --- inside -------------------------------------------------------------------------------------

def _finished_locked(table_id: int) -> Table:
    table = Table.objects.select_for_update(of=("self",)).select_related("game").filter(pk=table_id).first()
    if table is None:
        raise TableError("Cette table n'existe pas.", NOT_A_PLAYER)
    if table.status != Table.Status.FINISHED:
        raise TableError("La revanche se propose une fois la partie terminée.", "not_finished")
    if table.table_type == Table.Type.TOURNAMENT:
        raise TableError("Pas de revanche à une table de tournoi : la ronde suivante t'attend.", "tournament")
    if table.table_type == Table.Type.PRACTICE:
        # Its start is another match's step (tables.practice): a rematch would deal a new match it never was.
        raise TableError("Pas de revanche à une partie d'entraînement : rejoue-la à partir d'un coup depuis "
                         "« Revoir ».", "practice")
    return table


def _my_old_seat(old: Table, user: User) -> Seat:
    seat = old.seats.filter(user=user, bot_level__isnull=True).first()
    if seat is None:
        raise TableError("Tu n'as pas joué cette partie : la revanche est pour ses joueurs.", NOT_A_PLAYER)
    if seat.left:
        raise TableError("Tu as quitté cette partie : la revanche se joue sans toi.", "left")
    return seat


def _rematch_locked(old: Table) -> Table | None:
    return Table.objects.select_for_update().filter(rematch_of=old).first()


def _waiting_rematch_locked(table_id: int, user: User) -> Table:
    rematch = Table.objects.select_for_update(of=("self",)).select_related("rematch_of").filter(pk=table_id).first()
    if rematch is None or rematch.rematch_of_id is None:
        raise TableError("Cette table n'est pas une revanche.", "not_rematch")
    if rematch.host_id != user.pk:
        raise TableError("Seul l'hôte de la revanche peut faire cela.", "not_host")
    if rematch.status != Table.Status.WAITING:
        raise TableError("La revanche a déjà commencé.", "started")
    return rematch


def _create(old: Table, seat: Seat, user: User) -> tuple[Table, list[User]]:
    """The rematch table, `user` its host at his old place, the robots at theirs, and the places of the other
    humans who played to the end kept for them."""
    seats = list(old.seats.select_related("user"))
    bots = {s.position: s.bot_level for s in seats if s.is_bot}
    invitees = [s for s in seats if s.user_id and not s.is_bot and not s.left and s.user_id != user.pk]
    table_type, stake, private = old.table_type, old.stake, old.private
    if table_type == Table.Type.QUICK:
        table_type, stake, private = Table.Type.FRIENDS, 0, True
    rematch = services.table_create(
        host=user, game=old.game, seats_count=old.seats_count, bot_levels=bots, host_position=seat.position,
        options=old.options, stake=stake, turn_timer_s=old.turn_timer_s, private=private, table_type=table_type,
        rated=old.rated, spectators_chat=old.spectators_chat, coach_limit=old.coach_limit,
    )
    rematch.rematch_of = old
    rematch.reserved = {str(s.position): s.user_id for s in invitees}
    rematch.save(update_fields=["rematch_of", "reserved"])
    return rematch, [s.user for s in invitees]


def _accept(rematch: Table, user: User) -> Table:
    if rematch.seats.filter(user=user, bot_level__isnull=True).exists():
        return rematch  # a second click
    if rematch.status != Table.Status.WAITING:
        raise TableError("La revanche a déjà commencé sans toi.", "started")
    services.seat_join(table=rematch, user=user)  # his kept place, the stake checked; started once full
    return rematch


def _changed(old: Table | None, rematch: Table) -> None:
    """Both tables' pages show the rematch: push them once committed."""
    scheduler.after_commit_table_changed(rematch.pk)
    if old is not None:
        scheduler.after_commit_table_changed(old.pk)


def _rematch_offered(old_table: Table, rematch_table: Table, proposer: User, invitees: list[User]) -> None:
    """Tell the invited players in the site, with the rematch's creation (the bell rings once it is committed):
    the finished match's page, where « Accepter » and « Refuser » are."""
    engine = engine_for(old_table)
    game = name_with(engine.info.name, engine.info.feminine, "au")
    for invitee in invitees:
        notify(user=invitee, kind=Notification.Kind.REMATCH, url=reverse("tables:table", args=[old_table.pk]),
               text=f"{proposer.username} te propose une revanche {game} (table n° {old_table.pk}).",
               key=f"rematch:{rematch_table.pk}:{invitee.pk}")
