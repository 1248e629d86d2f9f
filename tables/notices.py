"""What a slow table (« Partie lente ») tells its players away from it: « À toi de jouer », the reminder before the
end of their time, the match's end. Through accounts.notifications, in the move's transaction (the rows commit with
the move, the bell and the e-mails leave after it); each event keyed so that it is told once, whatever retries.

Live tables tell nothing here: their players are at the table. The texts name the game and the table, never a
card: nothing of a hand can reach a notification or an e-mail.
"""

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification
from accounts.notifications import notify
from engine.base import name_with
from tables import table_types
from tables.models import Seat, Table, engine_for


def _game_words(engine) -> str:
    return name_with(engine.info.name, engine.info.feminine, "au")


def _waiting_humans(table: Table, positions) -> list[Seat]:
    return list(Seat.objects.filter(table_id=table.pk, position__in=list(positions), user__isnull=False,
                                    bot_level__isnull=True, left=False))


def decision_started(table: Table, engine, before: dict | None = None) -> None:
    """A new decision at a slow table: each human who must act now and did not before the move (`before`: the state
    it was applied to; the second half of one's own turn is not news) is told, in the site and by e-mail (his switch
    permitting), unless a page of his is open at the table: he sees it there."""
    if not table.slow or table.state is None:
        return
    url = reverse("tables:table", args=[table.pk])
    left = table_types.duration_fr(table.turn_timer_s)
    already = set(engine.to_act(before)) if before is not None else set()
    for seat in _waiting_humans(table, set(engine.to_act(table.state)) - already):
        if seat.connections:
            continue
        notify(user=seat.user_id, kind=Notification.Kind.TURN, url=url,
               text=f"À toi de jouer {_game_words(engine)} (table n° {table.pk}) : tu as {left}.",
               key=f"turn:{table.pk}:{table.version}:{seat.position}", mail=True)


def remind(table: Table, engine) -> int:
    """The reminder of a slow table's current decision (tables.tasks.expire_turns, when `remind_at` passes): told
    to each human who must act, unless a page of his is open at the table. Returns how many were told."""
    if table.state is None or table.deadline is None:
        return 0
    url = reverse("tables:table", args=[table.pk])
    left_s = max(60, (table.deadline - timezone.now()).total_seconds())
    left = table_types.duration_fr(round(left_s / 60) * 60)  # the time really left, to the minute
    told = 0
    for seat in _waiting_humans(table, engine.to_act(table.state)):
        if seat.connections:
            continue
        note = notify(user=seat.user_id, kind=Notification.Kind.REMINDER, url=url,
                      text=f"Plus que {left} pour jouer {_game_words(engine)} (table n° {table.pk}).",
                      key=f"reminder:{table.pk}:{table.version}:{seat.position}", mail=True)
        told += note is not None
    return told


def match_over(table: Table) -> None:
    """The end of a slow match: every human still seated is told (in the site only)."""
    if not table.slow:
        return
    engine = engine_for(table)
    url = reverse("tables:table", args=[table.pk])
    for seat in _waiting_humans(table, range(table.seats_count)):
        notify(user=seat.user_id, kind=Notification.Kind.RESULT, url=url,
               text=f"La partie {name_with(engine.info.name, engine.info.feminine, 'du')} (table n° {table.pk}) "
                    "est terminée : viens voir le résultat.",
               key=f"result:{table.pk}:{seat.position}")


def send_due_reminders(now, limit: int = 500) -> int:
    """The reminders whose time has come (tables.tasks.expire_turns): each table's, once, under its row lock."""
    due = Table.objects.filter(status=Table.Status.PLAYING, remind_at__lte=now).values_list("id", flat=True)
    told = 0
    for table_id in list(due[:limit]):
        with transaction.atomic():
            table = (Table.objects.select_for_update().filter(pk=table_id, status=Table.Status.PLAYING,
                                                              remind_at__lte=now).first())
            if table is None:
                continue  # a move came first: its decision has a new reminder
            told += remind(table, engine_for(table))
            table.remind_at = None
            table.save(update_fields=["remind_at"])
    return told
