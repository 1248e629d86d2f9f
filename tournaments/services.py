"""Every change of a tournament: creation, registration (a player, or a pair), start, the pairing of each round
and its tables, the Arena's seating, the end and its prizes.

Each step locks the tournament row and checks what is already stored, so a step run twice (a retried task, two
workers, a crash between two steps) does it once: a round is paired once (one row per round number), a table is
seated once per match, the prizes are paid once (ledger idempotency keys)."""

import contextlib
import logging

from django.db import transaction
from django.utils import timezone

from accounts import friends
from accounts.models import Rating, User
from accounts.notifications import notify
from accounts.services import InsufficientTokens, player_account, prizes_account, transfer_create
from engine import games
from tables import services as table_services
from tables import table_types
from tables.errors import TableError
from tables.models import Game
from tournaments import pairing, standings
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Tournament

log = logging.getLogger(__name__)


# --- what a game allows ---------------------------------------------------------------------------

def is_team_game(game: Game) -> bool:
    return bool(games.get(game.slug).info.teams)


def table_sizes(tournament: Tournament) -> tuple[int, ...]:
    """Entries per table the pairing may use: a pair game, two pairs; otherwise from the game's smallest table up
    to the tournament's size (the largest first in use, the smaller ones absorb the remainder)."""
    info = games.get(tournament.game.slug).info
    if info.teams:
        return (2,)
    return tuple(range(info.min_players, tournament.table_size + 1))


def clean_settings(game: Game, *, format: str, table_size: int, rounds: int, advance: int, prizes: list,
                   entry_stake: int, turn_timer_s: int | None, options: dict | None) -> dict:
    """The settings a tournament of `game` may have, or a TournamentError in French."""
    info = games.get(game.slug).info
    if format not in Tournament.Format.values:
        raise TournamentError("Cette formule de tournoi n'existe pas.", "format")
    if info.teams:
        table_size = info.max_players
    elif not info.min_players <= table_size <= info.max_players:
        raise TournamentError(f"Ce jeu se joue de {info.min_players} à {info.max_players} joueurs par table.",
                              "table_size")
    if format == Tournament.Format.SWISS and not 1 <= rounds <= 15:
        raise TournamentError("Un tournoi suisse se joue en 1 à 15 rondes.", "rounds")
    entries_per_table = 2 if info.teams else table_size
    if format == Tournament.Format.KNOCKOUT and not 1 <= advance < entries_per_table:
        raise TournamentError("En élimination directe, il faut qualifier au moins un joueur par table, et pas "
                              "tous.", "advance")
    if not isinstance(prizes, list) or any(not isinstance(p, int) or p < 0 for p in prizes) or sum(prizes) > 100:
        raise TournamentError("La répartition des gains est une liste de pourcentages qui font 100 au plus.",
                              "prizes")
    if entry_stake < 0:
        raise TournamentError("La mise d'entrée ne peut pas être négative.", "stake")
    if turn_timer_s is not None and turn_timer_s not in info.turn_timers:
        raise TournamentError("Ce temps par coup n'est pas proposé pour ce jeu.", "timer")
    try:
        options = info.clean_options(options or {})
    except ValueError:
        raise TournamentError("Une option du jeu n'est pas valable.", "options") from None
    if format == Tournament.Format.ARENA and (forced := table_types.arena_options(info)):
        options = {**options, **forced}  # a game with an Arena format of its own (tile Canasta): its matches
    return {"format": format, "table_size": table_size, "rounds": rounds, "advance": advance,
            "prizes": prizes or ([100] if entry_stake else []), "entry_stake": entry_stake,
            "turn_timer_s": turn_timer_s, "options": options}


def tournament_create(*, name: str, game: Game, starts_at, created_by: User | None = None, private: bool = False,
                      format: str = Tournament.Format.SWISS, table_size: int = 2, rounds: int = 5, advance: int = 1,
                      arena_minutes: int = 60, entry_stake: int = 0, prizes: list | None = None, rated: bool = True,
                      absent: str = Tournament.Absent.AUTOPLAY, turn_timer_s: int | None = None,
                      options: dict | None = None, max_entries: int = 256) -> Tournament:
    settings = clean_settings(game, format=format, table_size=table_size, rounds=rounds, advance=advance,
                              prizes=prizes or [], entry_stake=entry_stake, turn_timer_s=turn_timer_s, options=options)
    if absent not in Tournament.Absent.values:
        raise TournamentError("Ce choix pour les absents n'existe pas.", "absent")
    if not 2 <= max_entries <= 4096:
        raise TournamentError("Un tournoi accueille de 2 à 4 096 inscriptions.", "max_entries")
    return Tournament.objects.create(name=name.strip()[:80] or game.name, game=game, created_by=created_by,
                                     private=private, starts_at=starts_at, arena_minutes=arena_minutes, rated=rated,
                                     absent=absent, max_entries=max_entries, **settings)


# --- registration ---------------------------------------------------------------------------------

def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().select_related("game").filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("Ce tournoi n'existe pas.", "missing")
    return tournament


def entry_of(tournament: Tournament, user: User | int) -> Entry | None:
    user_id = getattr(user, "pk", user)
    return (Entry.objects.filter(tournament=tournament, user_id=user_id).first()
            or Entry.objects.filter(tournament=tournament, partner_id=user_id).first())


@transaction.atomic
def register(*, tournament_id: int, user: User, partner: User | None = None) -> Entry:
    """`user` (with `partner` in a partnership game) joins and pays the entry stake into the prize pool; a named
    partner is asked (tournaments.services.partner_answer) and pays his own when he accepts. Twice is once: the
    entry already made is returned."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("Les inscriptions à ce tournoi sont closes.", "closed")
    if (existing := entry_of(tournament, user)) is not None:
        return existing
    team = is_team_game(tournament.game)
    if team and partner is None:
        raise TournamentError("Ce jeu se joue par équipes : inscris-toi avec ton partenaire.", "partner")
    if not team:
        partner = None
    if partner is not None:
        if partner.pk == user.pk:
            raise TournamentError("Ton partenaire doit être un autre joueur.", "partner")
        if partner.is_bot or not partner.is_active:
            raise TournamentError("Ce partenaire ne peut pas jouer de tournoi.", "partner")
        if entry_of(tournament, partner) is not None:
            raise TournamentError("Ce partenaire est déjà inscrit à ce tournoi.", "partner")
        if friends.blocked_either(user.pk, partner.pk):
            raise TournamentError("Inscription impossible avec ce partenaire.", "partner")
    if Entry.objects.filter(tournament=tournament).count() >= tournament.max_entries:
        raise TournamentError("Ce tournoi est complet.", "full")
    _pay_entry(tournament, user, "Tu n'as")
    # A partner is asked, never charged by another: the pair counts once he accepts and pays his own stake.
    entry = Entry.objects.create(tournament=tournament, user=user, partner=partner,
                                 partner_confirmed=partner is None)
    if partner is not None:
        text = f"{user.username} veut jouer le tournoi « {tournament.name} » avec toi : accepte ou refuse sur sa page."
        notify(user=partner, kind="tournament", url=url_of(tournament), text=text,
               key=f"tournament:{tournament.pk}:ask:{entry.pk}")
    transaction.on_commit(lambda: _changed(tournament.pk))
    return entry


@transaction.atomic
def partner_answer(*, tournament_id: int, user: User, accept: bool) -> None:
    """The partner named by a pair's player accepts (and pays his stake) or refuses (the entry goes, the player's
    stake is refunded)."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("Les inscriptions à ce tournoi sont closes.", "closed")
    entry = Entry.objects.filter(tournament=tournament, partner=user, partner_confirmed=False).first()
    if entry is None:
        return
    entry_id = entry.pk
    if accept:
        _pay_entry(tournament, user, "Tu n'as")
        entry.partner_confirmed = True
        entry.save(update_fields=["partner_confirmed"])
        text = f"{user.username} a accepté : votre paire est inscrite au tournoi « {tournament.name} »."
    else:
        _refund(tournament, entry)
        entry.delete()
        text = f"{user.username} a refusé de jouer le tournoi « {tournament.name} » avec toi. Ta mise t'est rendue."
    notify(user=entry.user_id, kind="tournament", url=url_of(tournament), text=text,
           key=f"tournament:{tournament.pk}:answer:{entry_id}:{user.pk}")
    transaction.on_commit(lambda: _changed(tournament.pk))


def _pay_entry(tournament: Tournament, player: User, who: str) -> None:
    """Into the prize pool (a registration made twice is found before this, under the tournament's lock)."""
    if not tournament.entry_stake:
        return
    try:
        transfer_create(source=player_account(player), target=prizes_account(tournament.pk),
                        amount=tournament.entry_stake, reason="tournament_entry")
    except InsufficientTokens:
        raise TournamentError(f"{who} pas assez de jetons pour la mise d'entrée ({tournament.entry_stake} "
                              "jetons).", "tokens") from None


def _refund(tournament: Tournament, entry: Entry) -> None:
    if not tournament.entry_stake:
        return
    for user_id in entry.paid_user_ids():
        transfer_create(source=prizes_account(tournament.pk), target=player_account(User(pk=user_id)),
                        amount=tournament.entry_stake, reason="tournament_refund",
                        idempotency_key=f"tournament:{tournament.pk}:refund:{entry.pk}:{user_id}")


@transaction.atomic
def withdraw(*, tournament_id: int, user: User) -> None:
    """Before the start only: the entry (the pair's, when one of them withdraws) is removed, the stakes refunded."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("Le tournoi a commencé : on ne peut plus se désinscrire.", "started")
    entry = entry_of(tournament, user)
    if entry is None:
        return
    _refund(tournament, entry)
    entry.delete()
    transaction.on_commit(lambda: _changed(tournament.pk))


# --- start, rounds, tables ------------------------------------------------------------------------

def _seeds(tournament: Tournament, entries: list[Entry]) -> None:
    """Seeds by rating in this game (a pair: its better player's), then by registration."""
    users = {u for e in entries for u in e.user_ids()}
    score = dict(Rating.objects.filter(game=tournament.game.slug, user_id__in=users).values_list("user_id", "score"))
    ordered = sorted(entries, key=lambda e: (-max(score.get(u, float("-inf")) for u in e.user_ids()), e.pk))
    for seed, entry in enumerate(ordered, 1):
        entry.seed = seed
    Entry.objects.bulk_update(ordered, ["seed"])


@transaction.atomic
def start(*, tournament_id: int) -> Tournament:
    """The first round (or the Arena's first tables). Too few entries for one table: cancelled, stakes refunded."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        return tournament
    for pending in Entry.objects.filter(tournament=tournament, partner_confirmed=False):
        _refund(tournament, pending)  # a pair whose partner never answered does not play
        for user_id in pending.user_ids():
            notify(user=user_id, kind="tournament", url=url_of(tournament),
                   key=f"tournament:{tournament.pk}:unanswered:{pending.pk}",
                   text=f"Le tournoi « {tournament.name} » commence sans votre paire : le partenaire n'avait pas "
                        "accepté. La mise est rendue.")
        pending.delete()
    entries = list(Entry.objects.filter(tournament=tournament))
    if len(entries) < min(table_sizes(tournament)):
        return _cancel(tournament, entries, "trop peu d'inscrits")
    if tournament.format == Tournament.Format.KNOCKOUT:
        try:
            pairing.knockout_plan(len(entries), table_sizes(tournament), tournament.advance)
        except ValueError:  # no bracket of these table sizes leads this many entries to one final table
            return _cancel(tournament, entries, f"{len(entries)} inscrits ne permettent pas d'arriver à une table "
                                                "finale avec ces tables")
    _seeds(tournament, entries)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    if tournament.format == Tournament.Format.ARENA:
        arena_seat(tournament)
    else:
        pair_round(tournament, 1)
    transaction.on_commit(lambda: _changed(tournament.pk))
    return tournament


def _cancel(tournament: Tournament, entries: list[Entry], why: str) -> Tournament:
    for entry in entries:
        _refund(tournament, entry)
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    for entry in entries:
        for user_id in entry.user_ids():
            notify(user=user_id, kind="tournament", url=url_of(tournament), key=f"tournament:{tournament.pk}:off",
                   text=f"Le tournoi « {tournament.name} » est annulé : {why}. Ta mise t'est rendue.")
    transaction.on_commit(lambda: _changed(tournament.pk))
    return tournament


def pair_round(tournament: Tournament, number: int) -> Round | None:
    """Round `number`, paired and seated, once (the tournament locked by the caller)."""
    if Round.objects.filter(tournament=tournament, number=number).exists():
        return None
    sizes = table_sizes(tournament)
    if tournament.format == Tournament.Format.KNOCKOUT:
        alive = list(Entry.objects.filter(tournament=tournament, eliminated_in__isnull=True).order_by("seed"))
        if number == 1:
            order = [e.pk for e in alive]
        else:
            order = _survivors_order(tournament, number - 1, {e.pk for e in alive})
        plan = pairing.knockout_round(order, sizes, tournament.advance)
    else:
        table = standings.compute(tournament)
        results = standings.results_of(tournament)
        plan = pairing.swiss_round(table, sizes, standings.met_of(results), standings.byes_of(tournament))
    round_ = Round.objects.create(tournament=tournament, number=number)
    for entries in plan.tables:
        seat_match(tournament, round_, list(entries))
    for entry in plan.byes:
        Match.objects.create(tournament=tournament, round=round_, entries=[entry], places={str(entry): 1})
        _tell_entry(tournament, entry, f"Ronde {number} du tournoi « {tournament.name} » : tu es exempt, la ronde "
                                       "compte comme une victoire.", url_of(tournament), f"r{number}:bye")
    return round_


def _survivors_order(tournament: Tournament, number: int, alive: set[int]) -> list[int]:
    round_ = Round.objects.get(tournament=tournament, number=number)
    matches = list(round_.matches.all())
    plan = pairing.Pairing(tables=[tuple(m.entries) for m in matches if not m.is_bye],
                           byes=[m.entries[0] for m in matches if m.is_bye])
    results = [pairing.Result(tuple(m.entries), tuple(int(m.places[str(e)]) for e in m.entries))
               for m in matches if not m.is_bye]
    return [e for e in pairing.knockout_survivors(plan, results, tournament.advance) if e in alive]


def seat_match(tournament: Tournament, round_: Round | None, entry_ids: list[int]) -> Match:
    """A table for these entries, in seat order (a pair's partner facing him), started; absent players forfeit
    it if the tournament says so (otherwise the autoplay plays for them, as at any table)."""
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=entry_ids).select_related("user", "partner")}
    ordered = [entries[e] for e in entry_ids]
    team = is_team_game(tournament.game)
    players: dict[int, User] = {}
    for index, entry in enumerate(ordered):
        players[index] = entry.user
        if team:
            players[index + 2] = entry.partner
    table = table_services.match_create_seated(game=tournament.game, players=players, options=tournament.options,
                                               turn_timer_s=tournament.turn_timer_s, rated=tournament.rated,
                                               private=tournament.private)
    match = Match.objects.create(tournament=tournament, round=round_, table=table, entries=list(entry_ids))
    label = f"Ronde {round_.number}" if round_ else "Arène"
    for user in players.values():
        notify(user=user, kind="tournament", url=f"/tables/{table.pk}/", key=f"tournament:{tournament.pk}:t{table.pk}",
               text=f"{label} du tournoi « {tournament.name} » : ta table t'attend.")
    if tournament.absent == Tournament.Absent.FORFEIT:
        now = timezone.now()
        for user in players.values():
            if not friends.is_online(user, now):
                # TableError: the match ended already (everyone else forfeited first)
                with contextlib.suppress(TableError):
                    table_services.seat_abandon(table_id=table.pk, user=user, penalty=False)
    return match


def _open_matches(tournament: Tournament):
    return Match.objects.filter(tournament=tournament, places__isnull=True)


@transaction.atomic
def advance(*, tournament_id: int) -> Tournament:
    """After a result: the next round once the current one is over, or the end. Idempotent."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        return tournament
    if tournament.format == Tournament.Format.ARENA:
        if timezone.now() < tournament.arena_ends_at:
            arena_seat(tournament)
        elif not _open_matches(tournament).exists():
            finish(tournament)
        return tournament
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if last is None:
        pair_round(tournament, 1)
        return tournament
    if last.matches.filter(places__isnull=True).exists():
        return tournament
    if last.finished_at is None:
        last.finished_at = timezone.now()
        last.save(update_fields=["finished_at"])
    if tournament.format == Tournament.Format.KNOCKOUT:
        if _was_final(tournament, last):
            finish(tournament)
        else:
            _eliminate(tournament, last)
            if Entry.objects.filter(tournament=tournament, eliminated_in__isnull=True).count() <= 1:
                finish(tournament)
            else:
                pair_round(tournament, last.number + 1)
    elif last.number >= tournament.rounds:
        finish(tournament)
    else:
        pair_round(tournament, last.number + 1)
    transaction.on_commit(lambda: _changed(tournament.pk))
    return tournament


def _was_final(tournament: Tournament, last: Round) -> bool:
    tables = [m for m in last.matches.all() if not m.is_bye]
    byes = [m for m in last.matches.all() if m.is_bye]
    return len(tables) == 1 and not byes


def _eliminate(tournament: Tournament, last: Round) -> None:
    """Who did not go through this knock-out round is out (kept as the round he went out in). The final's places
    make the podium (tournaments.standings): nobody is "out" of it."""
    alive = set(Entry.objects.filter(tournament=tournament, eliminated_in__isnull=True).values_list("pk", flat=True))
    through = set(_survivors_order(tournament, last.number, alive))
    Entry.objects.filter(pk__in=alive - through).update(eliminated_in=last.number)


def arena_seat(tournament: Tournament) -> list[Match]:
    """The Arena: entries without a table, seated as soon as a table's worth of them are waiting, by score."""
    busy = {int(e) for m in _open_matches(tournament) for e in m.entries}
    waiting = list(Entry.objects.filter(tournament=tournament).exclude(pk__in=busy).order_by("pk")
                   .values_list("pk", flat=True))
    if not waiting:
        return []
    table = standings.compute(tournament)
    scores = {s.entry: s.points for s in table}
    last: dict[int, set[int]] = {}
    for match in Match.objects.filter(tournament=tournament, table__isnull=False).order_by("pk"):
        for entry in match.entries:
            last[int(entry)] = {int(e) for e in match.entries if e != entry}
    size = max(table_sizes(tournament))
    tables, _still = pairing.arena_tables(waiting, scores, size, last)
    return [seat_match(tournament, None, list(entries)) for entries in tables]


def finish(tournament: Tournament) -> None:
    """The end (locked by the caller): final standings, prizes by rank through the ledger, everyone told."""
    table = standings.compute(tournament)
    pay_prizes(tournament, table)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    for standing in table:
        text = f"Tournoi « {tournament.name} » terminé : tu finis {ordinal(standing.rank)} sur {len(table)}."
        _tell_entry(tournament, standing.entry, text, url_of(tournament), "end")


def prize_amounts(pool: int, prizes: list[int], ranked: int) -> list[int]:
    """Tokens per rank: each rank's percentage of the pool, rounded down; what rounding leaves goes to the first.
    Ranks beyond the entries get nothing (their share stays with the first)."""
    shares = [pool * p // 100 for p in prizes[:ranked]]
    if shares:
        shares[0] += pool - sum(shares)
    return shares


def pay_prizes(tournament: Tournament, table: list[pairing.Standing]) -> None:
    pool_account = prizes_account(tournament.pk)
    pool = pool_account.balance
    if pool <= 0:
        return
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    for standing, amount in zip(table, prize_amounts(pool, tournament.prizes or [100], len(table)), strict=False):
        members = entries[standing.entry].user_ids()
        split = [amount // len(members)] * len(members)
        split[0] += amount - sum(split)
        for user_id, part in zip(members, split, strict=True):
            if part > 0:
                transfer_create(source=pool_account, target=player_account(User(pk=user_id)), amount=part,
                                reason="tournament_prize",
                                idempotency_key=f"tournament:{tournament.pk}:prize:{standing.entry}:{user_id}")


def ordinal(rank: int) -> str:
    return "1er" if rank == 1 else f"{rank}e"


def url_of(tournament: Tournament) -> str:
    return f"/tournois/{tournament.pk}/"


def _tell_entry(tournament: Tournament, entry_id: int, text: str, url: str, what: str) -> None:
    entry = Entry.objects.filter(pk=entry_id).first()
    if entry is None:
        return
    for user_id in entry.user_ids():
        notify(user=user_id, kind="tournament", url=url, key=f"tournament:{tournament.pk}:{what}:{user_id}", text=text)


def _changed(tournament_id: int) -> None:
    from tournaments import live

    live.tournament_changed(tournament_id)


# --- the periodic sweep ---------------------------------------------------------------------------

def due(now=None) -> list[int]:
    """Tournaments to move now: those whose start has come, and the running ones (a lost task, an Arena's end)."""
    now = now or timezone.now()
    starting = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=now)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    return list(starting.values_list("pk", flat=True)) + list(running.values_list("pk", flat=True))


def schedules_due(now=None) -> list[Tournament]:
    """Recurring tournaments: for each active schedule, the next one is created (from its template's settings)
    as soon as the previous start has passed, a day or a week ahead; once per start (`last_created_for`)."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from tournaments.models import Schedule

    now = now or timezone.now()
    paris = ZoneInfo("Europe/Paris")
    made = []
    for schedule in Schedule.objects.filter(active=True).select_related("template", "template__game"):
        local = now.astimezone(paris)
        start = datetime.combine(local.date(), schedule.time, tzinfo=paris)
        if schedule.every == Schedule.Every.WEEK:
            start += timedelta(days=(schedule.weekday - local.weekday()) % 7)
        if start <= now:
            start += timedelta(days=7 if schedule.every == Schedule.Every.WEEK else 1)
        with transaction.atomic():
            locked = Schedule.objects.select_for_update().get(pk=schedule.pk)
            if locked.last_created_for is not None and locked.last_created_for >= start:
                continue
            t = schedule.template
            made.append(tournament_create(
                name=schedule.name, game=t.game, starts_at=start, private=False, format=t.format,
                table_size=t.table_size, rounds=t.rounds, advance=t.advance, arena_minutes=t.arena_minutes,
                entry_stake=t.entry_stake, prizes=list(t.prizes), rated=t.rated, absent=t.absent,
                turn_timer_s=t.turn_timer_s, options=dict(t.options), max_entries=t.max_entries))
            Tournament.objects.filter(pk=made[-1].pk).update(schedule=schedule)
            locked.last_created_for = start
            locked.save(update_fields=["last_created_for"])
    return made


def sweep(now=None) -> int:
    schedules_due(now)
    moved = 0
    for tournament_id in due(now):
        tournament = Tournament.objects.filter(pk=tournament_id).values_list("status", flat=True).first()
        try:
            if tournament == Tournament.Status.REGISTRATION:
                start(tournament_id=tournament_id)
            else:
                advance(tournament_id=tournament_id)
            moved += 1
        except Exception:  # one tournament's trouble does not stop the others; the next sweep tries again
            log.exception("tournament %s: sweep failed", tournament_id)
    return moved
